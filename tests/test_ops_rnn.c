/* rnn (LSTM, GRU, RNN_TANH, RNN_RELU) against plain double-precision cells written here, and
 * against Paddle itself on the programs tools/gen_paddle_rnn.py exported into
 * tests/data/paddle_rnn/ (LSTM), paddle_rnn_gru/ and paddle_rnn_tanh/. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/rnn.h"
#include "kernels/kernel.h"
#include "program/program.h"
#include "testutil.h"

typedef struct lstm_case {
  int T, B, I, H, L;
  bool bidi;
  const int64_t *len; /* B lengths, or NULL for no SequenceLength */
  ic_dtype len_dt;    /* IC_INT32 or IC_INT64 */
  ic_dtype dt;        /* IC_FP32 or IC_FP64 */
  int mode;           /* MODE_* of rnn.h; 0 is LSTM */
} lstm_case;

static const char *const k_mode_names[] = {"LSTM", "GRU", "RNN_TANH", "RNN_RELU"};
/* Gate rows per hidden unit. */
static int gates(const lstm_case *k) { return k->mode == MODE_LSTM ? 4 : k->mode == MODE_GRU ? 3 : 1; }
static int n_states(const lstm_case *k) { return k->mode == MODE_LSTM ? 2 : 1; }

typedef struct lstm_data {
  ic_tensor *x, *h0, *c0, *len;
  size_t nw;
  ic_tensor *w[64]; /* all W_ih, W_hh by layer and direction, then all b_ih, b_hh */
} lstm_data;

static int dirs(const lstm_case *k) { return k->bidi ? 2 : 1; }

static ic_tensor *to_dtype(ic_tensor *t, ic_dtype dt) {
  if (dt == IC_FP32) return t;
  int64_t n = ic_tensor_numel(t);
  double *d = malloc((size_t)(n ? n : 1) * sizeof *d);
  for (int64_t i = 0; i < n; i++) d[i] = ((const float *)ic_tensor_cdata(t))[i];
  ic_tensor *r = tu_f64(ic_tensor_ndim(t), ic_tensor_dims(t), d);
  free(d);
  ic_tensor_destroy(t);
  return r;
}

static double *to_double(const ic_tensor *t) {
  int64_t n = ic_tensor_numel(t);
  double *d = malloc((size_t)(n ? n : 1) * sizeof *d);
  for (int64_t i = 0; i < n; i++) {
    d[i] = ic_tensor_dtype(t) == IC_FP64 ? ((const double *)ic_tensor_cdata(t))[i]
                                          : ((const float *)ic_tensor_cdata(t))[i];
  }
  return d;
}

static void make_data(const lstm_case *k, uint64_t seed, lstm_data *d) {
  const int D = dirs(k), G = gates(k) * k->H;
  d->x = to_dtype(tu_rand_f32(3, TU_DIMS(k->T, k->B, k->I), seed, -1.5f, 1.5f), k->dt);
  d->h0 = to_dtype(tu_rand_f32(3, TU_DIMS(k->L * D, k->B, k->H), seed + 1, -0.8f, 0.8f), k->dt);
  d->c0 = to_dtype(tu_rand_f32(3, TU_DIMS(k->L * D, k->B, k->H), seed + 2, -0.8f, 0.8f), k->dt);
  d->nw = (size_t)(4 * k->L * D);
  for (int l = 0; l < k->L; l++) {
    for (int dd = 0; dd < D; dd++) {
      size_t i = (size_t)(2 * (l * D + dd)), ib = i + d->nw / 2;
      int in = l == 0 ? k->I : D * k->H;
      d->w[i] = to_dtype(tu_rand_f32(2, TU_DIMS(G, in), seed + 10 + i, -0.6f, 0.6f), k->dt);
      d->w[i + 1] = to_dtype(tu_rand_f32(2, TU_DIMS(G, k->H), seed + 11 + i, -0.6f, 0.6f), k->dt);
      d->w[ib] = to_dtype(tu_rand_f32(1, TU_DIMS(G), seed + 10 + ib, -0.6f, 0.6f), k->dt);
      d->w[ib + 1] = to_dtype(tu_rand_f32(1, TU_DIMS(G), seed + 11 + ib, -0.6f, 0.6f), k->dt);
    }
  }
  d->len = NULL;
  if (k->len) {
    if (k->len_dt == IC_INT64) {
      d->len = tu_i64(1, TU_DIMS(k->B), k->len);
    } else {
      int32_t l32[64];
      for (int b = 0; b < k->B; b++) l32[b] = (int32_t)k->len[b];
      d->len = tu_i32(1, TU_DIMS(k->B), l32);
    }
  }
}

static void free_data(lstm_data *d) {
  ic_tensor_destroy(d->x);
  ic_tensor_destroy(d->h0);
  ic_tensor_destroy(d->c0);
  ic_tensor_destroy(d->len);
  for (size_t i = 0; i < d->nw; i++) ic_tensor_destroy(d->w[i]);
}

static double sigm(double v) { return 1.0 / (1.0 + exp(-v)); }

/* The reference: out [T, B, D*H], hn and cn [L*D, B, H]. Steps past a sequence's length
 * output zero and leave its state alone; the reverse direction walks t = T-1 .. 0. */
static void ref_lstm(const lstm_case *k, const lstm_data *d, double *out, double *hn,
                     double *cn) {
  const int T = k->T, B = k->B, H = k->H, D = dirs(k), L = k->L, G = gates(k) * H;
  double *in = to_double(d->x);
  int in_size = k->I;
  double *lo = calloc((size_t)(T * B * D * H + 1), sizeof *lo);
  double *g = malloc((size_t)G * sizeof *g), *gh = malloc((size_t)G * sizeof *gh);
  double *h0 = to_double(d->h0), *c0 = to_double(d->c0);
  for (int l = 0; l < L; l++) {
    for (int dd = 0; dd < D; dd++) {
      const int r = l * D + dd;
      double *wih = to_double(d->w[2 * r]), *whh = to_double(d->w[2 * r + 1]);
      double *bih = to_double(d->w[d->nw / 2 + 2 * r]);
      double *bhh = to_double(d->w[d->nw / 2 + 2 * r + 1]);
      double *h = hn + (size_t)r * B * H, *c = cn + (size_t)r * B * H;
      memcpy(h, h0 + (size_t)r * B * H, (size_t)(B * H) * sizeof *h);
      memcpy(c, c0 + (size_t)r * B * H, (size_t)(B * H) * sizeof *c);
      for (int s = 0; s < T; s++) {
        const int t = dd ? T - 1 - s : s;
        for (int b = 0; b < B; b++) {
          double *o = lo + ((size_t)t * B + b) * D * H + dd * H;
          int64_t len = k->len ? k->len[b] : T;
          if (t >= len) {
            for (int j = 0; j < H; j++) o[j] = 0;
            continue;
          }
          const double *xt = in + ((size_t)t * B + b) * in_size;
          double *hb = h + b * H, *cb = c + b * H;
          /* g: the input part W_ih x + b_ih; gh: the hidden part W_hh h + b_hh */
          for (int q = 0; q < G; q++) {
            double acc = bih[q], acch = bhh[q];
            for (int i = 0; i < in_size; i++) acc += xt[i] * wih[q * in_size + i];
            for (int j = 0; j < H; j++) acch += hb[j] * whh[q * H + j];
            g[q] = acc;
            gh[q] = acch;
          }
          if (k->mode == MODE_GRU) {
            for (int j = 0; j < H; j++) {
              double rg = sigm(g[j] + gh[j]), z = sigm(g[H + j] + gh[H + j]);
              double cand = tanh(g[2 * H + j] + rg * gh[2 * H + j]);
              hb[j] = z * hb[j] + (1 - z) * cand;
              o[j] = hb[j];
            }
            continue;
          }
          if (k->mode != MODE_LSTM) {
            for (int j = 0; j < H; j++) {
              double v = g[j] + gh[j];
              hb[j] = k->mode == MODE_RNN_TANH ? tanh(v) : v > 0 ? v : 0;
              o[j] = hb[j];
            }
            continue;
          }
          for (int q = 0; q < G; q++) g[q] += gh[q];
          for (int j = 0; j < H; j++) {
            double ig = sigm(g[j]), fg = sigm(g[H + j]), cand = tanh(g[2 * H + j]);
            double og = sigm(g[3 * H + j]);
            cb[j] = fg * cb[j] + ig * cand;
            hb[j] = og * tanh(cb[j]);
            o[j] = hb[j];
          }
        }
      }
      free(wih), free(whh), free(bih), free(bhh);
    }
    free(in);
    in = malloc((size_t)(T * B * D * H + 1) * sizeof *in);
    memcpy(in, lo, (size_t)(T * B * D * H) * sizeof *in);
    in_size = D * H;
  }
  memcpy(out, lo, (size_t)(T * B * D * H) * sizeof *out);
  free(in), free(lo), free(g), free(gh), free(h0), free(c0);
}

typedef struct prog_opts {
  const char *mode;  /* NULL: LSTM */
  bool train;        /* is_test false */
  int n_prestate;    /* 0: 2 */
  int n_weights;     /* 0: all */
  bool no_reserve;   /* leave Reserve and DropoutState out */
  int hidden_attr;   /* 0: k->H */
  float dropout;     /* dropout_prob */
} prog_opts;

static ic_builder *lstm_program(const lstm_case *k, const prog_opts *po, size_t nw) {
  const int D = dirs(k);
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", k->dt, 3, TU_DIMS(-1, -1, k->I));
  tu_var(b, "h0", k->dt, 3, TU_DIMS(k->L * D, -1, k->H));
  tu_var(b, "c0", k->dt, 3, TU_DIMS(k->L * D, -1, k->H));
  tu_var(b, "out", k->dt, 3, TU_DIMS(-1, -1, D * k->H));
  tu_var(b, "last_h", k->dt, 3, TU_DIMS(k->L * D, -1, k->H));
  tu_var(b, "last_c", k->dt, 3, TU_DIMS(k->L * D, -1, k->H));
  ic_builder_var_kind(b, 0, "reserve", IC_VAR_LOD_TENSOR, false);
  ic_builder_var_kind(b, 0, "dropout_state", IC_VAR_LOD_TENSOR, false);
  if (k->len) tu_var(b, "len", k->len_dt, 1, TU_DIMS(-1));
  char names[64][24];
  const char *wn[64];
  for (size_t i = 0; i < nw; i++) {
    snprintf(names[i], sizeof names[i], "w%zu", i);
    wn[i] = names[i];
    tu_var(b, wn[i], k->dt, i < nw / 2 ? 2 : 1, TU_DIMS(-1, -1));
  }
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "h0");
  ic_builder_feed(b, "c0");
  if (k->len) ic_builder_feed(b, "len");
  for (size_t i = 0; i < nw; i++) ic_builder_feed(b, wn[i]);
  ic_builder_op *op = ic_builder_add_op(b, 0, "rnn");
  ic_builder_in(op, "Input", "x");
  int nps = po && po->n_prestate ? po->n_prestate : n_states(k);
  ic_builder_input(op, "PreState", (size_t)nps, TU_NAMES("h0", "c0", "h0"));
  size_t use_w = po && po->n_weights ? (size_t)po->n_weights : nw;
  ic_builder_input(op, "WeightList", use_w, wn);
  if (k->len) ic_builder_in(op, "SequenceLength", "len");
  else ic_builder_input(op, "SequenceLength", 0, NULL); /* present but empty, as exported */
  ic_builder_out(op, "Out", "out");
  ic_builder_output(op, "State", (size_t)n_states(k), TU_NAMES("last_h", "last_c"));
  if (!(po && po->no_reserve)) {
    ic_builder_out(op, "Reserve", "reserve");
    ic_builder_out(op, "DropoutState", "dropout_state");
  }
  ic_builder_attr_string(op, "mode", po && po->mode ? po->mode : k_mode_names[k->mode]);
  ic_builder_attr_int(op, "hidden_size", po && po->hidden_attr ? po->hidden_attr : k->H);
  ic_builder_attr_int(op, "num_layers", k->L);
  ic_builder_attr_int(op, "input_size", k->I);
  ic_builder_attr_bool(op, "is_bidirec", k->bidi);
  ic_builder_attr_bool(op, "is_test", !(po && po->train));
  ic_builder_attr_float(op, "dropout_prob", po ? po->dropout : 0.0f);
  ic_builder_attr_int(op, "seed", 0);
  ic_builder_fetch(b, "out");
  ic_builder_fetch(b, "last_h");
  if (n_states(k) == 2) ic_builder_fetch(b, "last_c");
  return b;
}

/* Feed names and tensors of data d for lstm_program's feeds (names in wn). */
static size_t lstm_feeds(const lstm_case *k, lstm_data *d, const char **names, ic_tensor **feeds,
                         char (*wn)[24]) {
  size_t nf = 0;
  names[nf] = "x", feeds[nf++] = d->x;
  names[nf] = "h0", feeds[nf++] = d->h0;
  names[nf] = "c0", feeds[nf++] = d->c0;
  if (k->len) names[nf] = "len", feeds[nf++] = d->len;
  for (size_t i = 0; i < d->nw; i++) {
    snprintf(wn[i], sizeof wn[i], "w%zu", i);
    names[nf] = wn[i], feeds[nf++] = d->w[i];
  }
  return nf;
}

/* Run the program for data d; returns the status with the three fetches in out. */
static ic_status lstm_run(const lstm_case *k, const prog_opts *po, lstm_data *d,
                          ic_tensor **out, char *err, size_t errlen) {
  ic_builder *b = lstm_program(k, po, d->nw);
  const char *names[80];
  ic_tensor *feeds[80];
  char wn[64][24];
  size_t nf = lstm_feeds(k, d, names, feeds, wn);
  ic_status st = tu_run(b, nf, names, feeds, (size_t)(1 + n_states(k)),
                        TU_NAMES("out", "last_h", "last_c"), out, err, errlen);
  ic_builder_destroy(b);
  return st;
}

static void lstm_check(const lstm_case *k, uint64_t seed) {
  lstm_data d;
  make_data(k, seed, &d);
  const int D = dirs(k);
  const size_t n_out = (size_t)(k->T * k->B * D * k->H), n_st = (size_t)(k->L * D * k->B * k->H);
  double *out = calloc(n_out + 1, sizeof *out), *hn = calloc(n_st + 1, sizeof *hn),
         *cn = calloc(n_st + 1, sizeof *cn);
  ref_lstm(k, &d, out, hn, cn);
  ic_tensor *got[3];
  char err[1024];
  ck_assert_msg(lstm_run(k, NULL, &d, got, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(got[0], k->dt, 3, TU_DIMS(k->T, k->B, D * k->H));
  tu_assert_shape(got[1], k->dt, 3, TU_DIMS(k->L * D, k->B, k->H));
  double tol = k->dt == IC_FP64 ? 1e-12 : 1e-5;
  tu_assert_close(got[0], out, n_out, tol, tol * 0.2);
  tu_assert_close(got[1], hn, n_st, tol, tol * 0.2);
  if (n_states(k) == 2) {
    tu_assert_shape(got[2], k->dt, 3, TU_DIMS(k->L * D, k->B, k->H));
    tu_assert_close(got[2], cn, n_st, tol, tol * 0.2);
  }
  /* training (is_test false: Reserve written for rnn_grad) computes the same, bitwise */
  prog_opts train = {.train = true};
  ic_tensor *tr[3];
  ck_assert_msg(lstm_run(k, &train, &d, tr, err, sizeof err) == IC_OK, "training: %s", err);
  for (int i = 0; i < 1 + n_states(k); i++) {
    tu_assert_bitwise(tr[i], got[i], "training vs inference");
    ic_tensor_destroy(tr[i]);
  }
  for (int i = 0; i < 1 + n_states(k); i++) ic_tensor_destroy(got[i]);
  free(out), free(hn), free(cn);
  free_data(&d);
}

START_TEST(lstm_single_layer) {
  lstm_case k = {.T = 4, .B = 1, .I = 3, .H = 5, .L = 1, .dt = IC_FP32};
  lstm_check(&k, 1);
  k.B = 3, k.H = 13, k.T = 1; /* one step */
  lstm_check(&k, 2);
  k.T = 20, k.B = 1, k.H = 33, k.I = 17; /* a longer sequence, hidden not a multiple of 8 */
  lstm_check(&k, 3);
}
END_TEST

START_TEST(lstm_two_layers) {
  lstm_case k = {.T = 6, .B = 3, .I = 4, .H = 7, .L = 2, .dt = IC_FP32};
  lstm_check(&k, 4);
  k.L = 3, k.B = 2; /* three layers: intermediate outputs alternate between two buffers */
  lstm_check(&k, 5);
}
END_TEST

START_TEST(lstm_bidirectional) {
  lstm_case k = {.T = 6, .B = 3, .I = 4, .H = 7, .L = 1, .bidi = true, .dt = IC_FP32};
  lstm_check(&k, 6);
  k.B = 1;
  lstm_check(&k, 7);
  k.L = 2, k.B = 3, k.H = 9;
  lstm_check(&k, 8);
}
END_TEST

START_TEST(lstm_sequence_length) {
  /* a full-length, a length-1 and a middle sequence; int64 and int32 lengths */
  static const int64_t len3[] = {6, 1, 3};
  lstm_case k = {.T = 6, .B = 3, .I = 4, .H = 7, .L = 1, .bidi = false, .len = len3,
                 .len_dt = IC_INT64, .dt = IC_FP32};
  lstm_check(&k, 9);
  k.bidi = true;
  lstm_check(&k, 10);
  k.L = 2, k.len_dt = IC_INT32;
  lstm_check(&k, 11);
  /* every sequence full: the same as no lengths */
  static const int64_t full[] = {5, 5};
  lstm_case f = {.T = 5, .B = 2, .I = 3, .H = 6, .L = 2, .bidi = true, .len = full,
                 .len_dt = IC_INT64, .dt = IC_FP32};
  lstm_check(&f, 12);
  /* an empty sequence keeps its initial state and outputs zeros; batch 1 */
  static const int64_t zero[] = {0, 4, 2}, one[] = {2};
  lstm_case z = {.T = 4, .B = 3, .I = 2, .H = 5, .L = 2, .bidi = true, .len = zero,
                 .len_dt = IC_INT32, .dt = IC_FP32};
  lstm_check(&z, 13);
  lstm_case o = {.T = 4, .B = 1, .I = 2, .H = 5, .L = 1, .bidi = true, .len = one,
                 .len_dt = IC_INT64, .dt = IC_FP32};
  lstm_check(&o, 14);
  /* batches of 4 and more take the per-step GEMM instead of one GEMV per sequence */
  static const int64_t five[] = {4, 1, 0, 3, 4};
  lstm_case g = {.T = 4, .B = 5, .I = 3, .H = 6, .L = 2, .bidi = true, .len = five,
                 .len_dt = IC_INT64, .dt = IC_FP32};
  lstm_check(&g, 18);
  g.len = NULL, g.B = 4, g.bidi = false;
  lstm_check(&g, 19);
  g.dt = IC_FP64, g.bidi = true;
  lstm_check(&g, 20);
}
END_TEST

START_TEST(lstm_float64_and_empty) {
  static const int64_t len3[] = {2, 5, 4};
  lstm_case k = {.T = 5, .B = 3, .I = 4, .H = 6, .L = 2, .bidi = true, .len = len3,
                 .len_dt = IC_INT64, .dt = IC_FP64};
  lstm_check(&k, 15);
  lstm_case e = {.T = 3, .B = 0, .I = 4, .H = 5, .L = 2, .bidi = true, .dt = IC_FP32};
  lstm_check(&e, 16); /* batch 0: empty outputs */
  lstm_case t0 = {.T = 0, .B = 2, .I = 4, .H = 5, .L = 1, .bidi = true, .dt = IC_FP32};
  lstm_check(&t0, 17); /* no steps: the states are the initial ones */
}
END_TEST

START_TEST(lstm_bad_inputs) {
  static const int64_t bad_len[] = {3, 7};
  lstm_case k = {.T = 3, .B = 2, .I = 4, .H = 5, .L = 1, .bidi = true, .dt = IC_FP32};
  lstm_data d;
  make_data(&k, 30, &d);
  ic_tensor *out[3];
  char err[1024];
  /* a WeightList that misses the biases */
  prog_opts po = {.n_weights = 4};
  ck_assert_int_eq(lstm_run(&k, &po, &d, out, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "rnn", "WeightList holds 4 variables", "expected 8", NULL);
  /* PreState without init_c, and with a third tensor */
  po = (prog_opts){.n_prestate = 1};
  ck_assert_int_eq(lstm_run(&k, &po, &d, out, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "PreState holds 1", "expected 2", NULL);
  /* hidden_size that does not match the weights names the first weight that disagrees */
  po = (prog_opts){.hidden_attr = 6};
  ck_assert_int_eq(lstm_run(&k, &po, &d, out, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "input PreState 'h0'", "float32[2, 2, 5]", "[2, 2, 6]", NULL);
  /* a W_hh of the wrong dims */
  ic_tensor *good = d.w[3];
  d.w[3] = tu_f32(2, TU_DIMS(20, 4), NULL);
  ck_assert_int_eq(lstm_run(&k, NULL, &d, out, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "input WeightList 'w3'", "float32[20, 4]", "float32[20, 5]",
                "W_hh of layer 0 direction 1", NULL);
  ic_tensor_destroy(d.w[3]);
  d.w[3] = good;
  /* Input of rank 2 */
  ic_tensor *x3 = d.x;
  d.x = tu_f32(2, TU_DIMS(3, 4), NULL);
  ck_assert_int_eq(lstm_run(&k, NULL, &d, out, err, sizeof err), IC_ERR_INVALID_ARGUMENT);
  ic_tensor_destroy(d.x); /* (refused by the feed check against the declared rank) */
  d.x = x3;
  /* GRU with LSTM's weights (4H rows instead of 3H), and with LSTM's two states */
  po = (prog_opts){.mode = "GRU", .n_prestate = 1};
  ck_assert_int_eq(lstm_run(&k, &po, &d, out, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "input WeightList 'w0'", "float32[20, 4]", "expected float32[15, 4]", NULL);
  po = (prog_opts){.mode = "RNN_TANH"};
  ck_assert_int_eq(lstm_run(&k, &po, &d, out, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "PreState holds 2", "expected 1 (init_h) for RNN_TANH", NULL);
  po = (prog_opts){.mode = "lstm"};
  ck_assert_int_eq(lstm_run(&k, &po, &d, out, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'mode'", "\"lstm\"", NULL);
  /* training: without Reserve (nowhere to keep what rnn_grad needs) */
  po = (prog_opts){.train = true, .no_reserve = true};
  ck_assert_int_eq(lstm_run(&k, &po, &d, out, err, sizeof err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "rnn", "Reserve is missing", NULL);
  /* one layer: dropout_prob has nothing to act on, and training runs */
  po = (prog_opts){.train = true, .dropout = 0.5f};
  ck_assert_int_eq(lstm_run(&k, &po, &d, out, err, sizeof err), IC_OK);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(out[i]);
  free_data(&d);
  /* two layers: dropout between them in training is refused */
  k.L = 2;
  make_data(&k, 30, &d);
  ck_assert_int_eq(lstm_run(&k, &po, &d, out, err, sizeof err), IC_ERR_UNSUPPORTED);
  tu_assert_msg(err, "rnn", "is_test false", "dropout_prob 0.5", "2 layers", NULL);
  po.train = false; /* inference ignores it */
  ck_assert_int_eq(lstm_run(&k, &po, &d, out, err, sizeof err), IC_OK);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(out[i]);
  free_data(&d);
  k.L = 1;
  make_data(&k, 30, &d);
  free_data(&d);
  /* a sequence longer than the input, and lengths of the wrong count */
  k.len = bad_len, k.len_dt = IC_INT64;
  make_data(&k, 31, &d);
  ck_assert_int_eq(lstm_run(&k, NULL, &d, out, err, sizeof err), IC_ERR_INVALID_ARGUMENT);
  tu_assert_msg(err, "SequenceLength 'len'", "7 at index 1", "0 to seq_len 3", NULL);
  ic_tensor_destroy(d.len);
  d.len = tu_i64(1, TU_DIMS(3), (const int64_t[]){1, 2, 3});
  ck_assert_int_eq(lstm_run(&k, NULL, &d, out, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "input SequenceLength 'len'", "int64[3]", "expected [2]", NULL);
  ic_tensor_destroy(d.len);
  d.len = tu_f32(1, TU_DIMS(2), (const float[]){1, 2});
  k.len_dt = IC_FP32;
  ck_assert_int_eq(lstm_run(&k, NULL, &d, out, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "input SequenceLength 'len'", "int32 or int64", NULL);
  free_data(&d);
}
END_TEST

START_TEST(gru_and_simple_rnn) {
  static const int64_t len3[] = {6, 1, 3}, zero[] = {0, 4, 2};
  for (int mode = MODE_GRU; mode <= MODE_RNN_RELU; mode++) {
    lstm_case k = {.T = 4, .B = 1, .I = 3, .H = 5, .L = 1, .dt = IC_FP32, .mode = mode};
    lstm_check(&k, 40); /* one sequence, one layer */
    k.T = 6, k.B = 3, k.I = 4, k.H = 7, k.L = 2;
    lstm_check(&k, 41); /* two layers */
    k.bidi = true, k.L = 3, k.B = 5;
    lstm_check(&k, 42); /* three bidirectional layers, per-step GEMM */
    k.len = len3, k.B = 3, k.L = 2, k.len_dt = IC_INT64;
    lstm_check(&k, 43); /* SequenceLength */
    k.len = zero, k.T = 4, k.len_dt = IC_INT32, k.dt = IC_FP64;
    lstm_check(&k, 44); /* an empty sequence, float64 */
    lstm_case e = {.T = 0, .B = 2, .I = 4, .H = 5, .L = 1, .bidi = true, .dt = IC_FP32,
                   .mode = mode};
    lstm_check(&e, 45); /* no steps */
  }
}
END_TEST

/* The recurrent product takes two paths (rnn.c): a GEMV on W_hh transposed at fp32 batch <= 4
 * (where AVX2 is present) and sgemm otherwise. Both against the reference, at the sizes of
 * the vector blocks and their tails (G = 4H = 84: 64 + 16 + 4; CRNN's H = 96), every mode,
 * with sequences ending early so that dead rows are skipped. */
START_TEST(recurrent_gemv_and_gemm_paths) {
  static const int64_t len4[] = {9, 3, 0, 7}, len6[] = {9, 3, 0, 7, 9, 1};
  for (int mode = MODE_LSTM; mode <= MODE_RNN_RELU; mode++) {
    for (int B = 1; B <= 6; B++) {
      lstm_case k = {.T = 9, .B = B, .I = 11, .H = 21, .L = 2, .bidi = true, .dt = IC_FP32,
                     .mode = mode};
      /* RNN_RELU does not saturate: rounding grows through layers and steps, beyond the
       * check's 1e-5 (with either path), so it runs one layer over fewer steps. */
      if (mode == MODE_RNN_RELU) k.L = 1, k.T = 5;
      lstm_check(&k, (uint64_t)(60 + 10 * mode + B));
    }
    lstm_case k = {.T = 9, .B = 4, .I = 5, .H = 21, .L = 1, .bidi = true, .dt = IC_FP32,
                   .mode = mode, .len = len4, .len_dt = IC_INT64};
    lstm_check(&k, (uint64_t)(100 + mode));
    k.B = 6, k.len = len6;
    lstm_check(&k, (uint64_t)(110 + mode));
  }
  lstm_case crnn = {.T = 8, .B = 1, .I = 40, .H = 96, .L = 2, .bidi = true, .dt = IC_FP32};
  lstm_check(&crnn, 120);
  crnn.B = 8;
  lstm_check(&crnn, 121);
  for (int mode = MODE_LSTM; mode <= MODE_GRU; mode++) {
    lstm_case big = {.T = 5, .B = 17, .I = 9, .H = 21, .L = 1, .bidi = true, .dt = IC_FP32,
                     .mode = mode};
    lstm_check(&big, (uint64_t)(130 + mode));
  }
}
END_TEST

/* One executor keeps W_hh transposed across inference runs (the GEMV path, batch <= 4):
 * new W_hh values in the same buffers, new data, and new sequence and batch sizes each give
 * what a fresh executor gives, bitwise, at 1 and 2 threads. */
START_TEST(rnn_state_reuse) {
  for (int threads = 1; threads <= 2; threads++) {
    lstm_case k = {.T = 6, .B = 1, .I = 7, .H = 16, .L = 2, .bidi = true, .dt = IC_FP32};
    lstm_data d;
    make_data(&k, 300, &d);
    ic_builder *b = lstm_program(&k, NULL, d.nw);
    ic_program *p;
    char err[1024];
    ck_assert_int_eq(ic_builder_build(b, &p, err, sizeof err), IC_OK);
    ic_options o;
    ic_options_default(&o);
    o.threads = threads;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    const char *fetch[3] = {"out", "last_h", "last_c"};
    for (int step = 0; step < 5; step++) {
      if (step == 2) {
        /* new values in the same W_hh buffers */
        for (size_t i = 1; i < d.nw / 2; i += 2) {
          float *w = ic_tensor_data(d.w[i]);
          for (int64_t j = 0; j < ic_tensor_numel(d.w[i]); j++) w[j] = 0.25f - w[j];
        }
      } else if (step == 3) {
        free_data(&d);
        k.T = 9, k.B = 3; /* new sizes, still the GEMV path */
        make_data(&k, 310, &d);
      } else if (step == 4) {
        free_data(&d);
        make_data(&k, 320, &d); /* new data, perhaps in recycled buffers */
      }
      const char *names[80];
      ic_tensor *feeds[80];
      char wn[64][24];
      size_t nf = lstm_feeds(&k, &d, names, feeds, wn);
      ic_tensor *got[3], *want[3];
      ck_assert_msg(ic_executor_run(e, p, NULL, nf, names, (const ic_tensor *const *)feeds, 3,
                                    fetch, got) == IC_OK, "%s", ic_executor_errmsg(e));
      ic_executor *fresh;
      ck_assert_int_eq(ic_executor_create(&o, &fresh), IC_OK);
      ck_assert_msg(ic_executor_run(fresh, p, NULL, nf, names, (const ic_tensor *const *)feeds,
                                    3, fetch, want) == IC_OK, "%s", ic_executor_errmsg(fresh));
      for (int i = 0; i < 3; i++) {
        tu_assert_bitwise(got[i], want[i], "kept W_hh^T against a fresh executor");
        ic_tensor_destroy(got[i]);
        ic_tensor_destroy(want[i]);
      }
      ic_executor_destroy(fresh);
    }
    free_data(&d);
    ic_executor_destroy(e);
    ic_program_destroy(p);
    ic_builder_destroy(b);
  }
}
END_TEST

/* ---------------------------------------------------------------------------------------
 * Paddle's own answer: tests/data/paddle_rnn (tools/gen_paddle_rnn.py).
 * ------------------------------------------------------------------------------------- */

static const char *data_path(const char *dir, const char *file, char *buf, size_t len) {
  const char *src = __FILE__, *slash = strrchr(src, '/');
  snprintf(buf, len, "%.*s/data/%s/%s", slash ? (int)(slash - src) : 1, slash ? src : ".", dir,
           file);
  return buf;
}

/* One manifest line as a tensor read from its raw file. */
static ic_tensor *load_raw(const char *dir, const char *file, const char *dtype, int ndim, const int64_t *dims) {
  char path[4096];
  size_t n;
  void *bytes = tu_read_file(data_path(dir, file, path, sizeof path), &n);
  ck_assert_msg(bytes != NULL, "cannot read %s", path);
  ic_dtype dt = strcmp(dtype, "int64") == 0 ? IC_INT64 : IC_FP32;
  ck_assert_msg(strcmp(dtype, "int64") == 0 || strcmp(dtype, "float32") == 0, "%s", dtype);
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(dt, ndim, dims, &t), IC_OK);
  ck_assert_msg(ic_tensor_nbytes(t) == n, "%s holds %zu bytes", path, n);
  memcpy(ic_tensor_data(t), bytes, n);
  free(bytes);
  return t;
}

/* The program Paddle exported into tests/data/DIR run by icore gives Paddle's fetches: n_feeds
 * feeds, n_fetch fetches, 16 parameters (2 layers x 2 directions x W_ih, W_hh, b_ih, b_hh). */
static void check_paddle_dir(const char *dir, size_t n_feeds, size_t n_fetch) {
  char path[4096], err[1024];
  size_t msize;
  char *manifest = tu_read_file(data_path(dir, "manifest.txt", path, sizeof path), &msize);
  ck_assert_msg(manifest != NULL, "missing %s: run tools/gen_paddle_rnn.py", path);
  manifest = realloc(manifest, msize + 1);
  manifest[msize] = 0;
  ic_program *p;
  ck_assert_msg(ic_program_from_file(data_path(dir, "inference.pdmodel", path, sizeof path), &p, err,
                                     sizeof err) == IC_OK,
                "%s", err);
  ic_scope *scope;
  ck_assert_int_eq(ic_scope_create(NULL, &scope), IC_OK);
  const char *feed_names[8];
  ic_tensor *feeds[8], *want[3];
  size_t nf = 0, nwant = 0, nparams = 0;
  char *save = NULL;
  for (char *line = strtok_r(manifest, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char role[16], name[128], file[160], dtype[16];
    int off = 0;
    ck_assert_int_eq(sscanf(line, "%15s %127s %159s %15s%n", role, name, file, dtype, &off), 4);
    int64_t dims[IC_MAX_RANK];
    int ndim = 0, used;
    long long v;
    while (sscanf(line + off, "%lld%n", &v, &used) == 1) dims[ndim++] = v, off += used;
    ic_tensor *t = load_raw(dir, file, dtype, ndim, dims);
    if (!strcmp(role, "feed")) {
      ck_assert_uint_lt(nf, 8);
      feed_names[nf] = strdup(name);
      feeds[nf++] = t;
    } else if (!strcmp(role, "fetch")) {
      ck_assert_uint_lt(nwant, 3);
      want[nwant++] = t;
    } else {
      ck_assert_int_eq(ic_scope_set(scope, name, t), IC_OK);
      ic_tensor_destroy(t);
      nparams++;
    }
  }
  ck_assert_uint_eq(nf, n_feeds);
  ck_assert_uint_eq(nwant, n_fetch);
  ck_assert_uint_eq(nparams, 16); /* 2 layers x 2 directions x (W_ih, W_hh, b_ih, b_hh) */
  /* the exported program is feed, rnn and fetch only */
  for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
    const char *t = p->blocks[0].ops[i].type;
    ck_assert_msg(!strcmp(t, "feed") || !strcmp(t, "fetch") || !strcmp(t, "rnn"), "op %s", t);
  }
  ck_assert_uint_eq(ic_program_n_fetch_targets(p), n_fetch);
  const char *fetch_names[3];
  for (size_t i = 0; i < n_fetch; i++) fetch_names[i] = ic_program_fetch_target(p, i);
  ic_tensor *got[3];
  ck_assert_msg(tu_run_scope(p, scope, nf, feed_names, feeds, n_fetch, fetch_names, got, err,
                             sizeof err) == IC_OK,
                "%s", err);
  for (size_t i = 0; i < n_fetch; i++) {
    tu_assert_shape(got[i], IC_FP32, ic_tensor_ndim(want[i]), ic_tensor_dims(want[i]));
    double *ref = to_double(want[i]);
    tu_assert_close(got[i], ref, (size_t)ic_tensor_numel(want[i]), 1e-4, 1e-6);
    free(ref);
    ic_tensor_destroy(got[i]);
    ic_tensor_destroy(want[i]);
  }
  for (size_t i = 0; i < nf; i++) {
    free((void *)feed_names[i]);
    ic_tensor_destroy(feeds[i]);
  }
  ic_scope_destroy(scope);
  ic_program_destroy(p);
  free(manifest);
}

/* ---- rnn_grad against finite differences ----
 * A program runs rnn in training and rnn_grad on its Reserve, fed random Out@GRAD and
 * State@GRAD (W_out, W_h, W_c); every gradient must equal the central difference of
 * L = sum(Out * W_out) + sum(last_h * W_h) + sum(last_c * W_c) computed by the forward op in
 * float64, for every input (Input, PreState, each weight and bias). tu_run runs the gradient
 * program in every executor configuration, bitwise equal. */
static ic_builder *grad_program(const lstm_case *k, size_t nw) {
  prog_opts po = {.train = true};
  ic_builder *b = lstm_program(k, &po, nw);
  const int D = dirs(k), ns = n_states(k);
  tu_var(b, "dout", k->dt, 3, TU_DIMS(-1, -1, D * k->H));
  tu_var(b, "dh", k->dt, 3, TU_DIMS(k->L * D, -1, k->H));
  tu_var(b, "dc", k->dt, 3, TU_DIMS(k->L * D, -1, k->H));
  tu_var(b, "gx", k->dt, 3, TU_DIMS(-1, -1, k->I));
  tu_var(b, "gh0", k->dt, 3, TU_DIMS(k->L * D, -1, k->H));
  tu_var(b, "gc0", k->dt, 3, TU_DIMS(k->L * D, -1, k->H));
  ic_builder_feed(b, "dout");
  ic_builder_feed(b, "dh");
  if (ns == 2) ic_builder_feed(b, "dc");
  char wn[64][24], gn[64][24];
  const char *w[64], *g[64];
  for (size_t i = 0; i < nw; i++) {
    snprintf(wn[i], sizeof wn[i], "w%zu", i);
    snprintf(gn[i], sizeof gn[i], "gw%zu", i);
    w[i] = wn[i], g[i] = gn[i];
    tu_var(b, g[i], k->dt, i < nw / 2 ? 2 : 1, TU_DIMS(-1, -1));
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, "rnn_grad");
  ic_builder_in(op, "Input", "x");
  ic_builder_input(op, "PreState", (size_t)ns, TU_NAMES("h0", "c0"));
  ic_builder_input(op, "WeightList", nw, w);
  if (k->len) ic_builder_in(op, "SequenceLength", "len");
  else ic_builder_input(op, "SequenceLength", 0, NULL);
  ic_builder_in(op, "Out", "out");
  ic_builder_in(op, "Out@GRAD", "dout");
  ic_builder_input(op, "State@GRAD", (size_t)ns, TU_NAMES("dh", "dc"));
  ic_builder_in(op, "Reserve", "reserve");
  ic_builder_in(op, "DropoutState", "dropout_state");
  ic_builder_out(op, "Input@GRAD", "gx");
  ic_builder_output(op, "PreState@GRAD", (size_t)ns, TU_NAMES("gh0", "gc0"));
  ic_builder_output(op, "WeightList@GRAD", nw, g);
  ic_builder_attr_string(op, "mode", k_mode_names[k->mode]);
  ic_builder_attr_int(op, "hidden_size", k->H);
  ic_builder_attr_int(op, "num_layers", k->L);
  ic_builder_attr_int(op, "input_size", k->I);
  ic_builder_attr_bool(op, "is_bidirec", k->bidi);
  ic_builder_attr_bool(op, "is_test", false);
  ic_builder_attr_float(op, "dropout_prob", 0.0f);
  ic_builder_attr_int(op, "seed", 0);
  ic_builder_fetch(b, "gx");
  ic_builder_fetch(b, "gh0");
  if (ns == 2) ic_builder_fetch(b, "gc0");
  for (size_t i = 0; i < nw; i++) ic_builder_fetch(b, g[i]);
  return b;
}

/* The forward program built once and run on an uncompiled one-thread executor (thousands of
 * runs). */
typedef struct fd_ctx {
  ic_program *p;
  ic_executor *e;
  size_t nf;
  const char *names[80];
  ic_tensor *feeds[80];
  char wn[64][24];
} fd_ctx;

static void fd_init(fd_ctx *f, const lstm_case *k, lstm_data *d) {
  ic_builder *b = lstm_program(k, NULL, d->nw);
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &f->p, err, sizeof err) == IC_OK, "%s", err);
  ic_builder_destroy(b);
  ic_options o;
  ic_options_default(&o);
  o.mode = IC_MODE_UNCOMPILED;
  o.threads = 1;
  ck_assert_int_eq(ic_executor_create(&o, &f->e), IC_OK);
  f->nf = 0;
  f->names[f->nf] = "x", f->feeds[f->nf++] = d->x;
  f->names[f->nf] = "h0", f->feeds[f->nf++] = d->h0;
  f->names[f->nf] = "c0", f->feeds[f->nf++] = d->c0;
  if (k->len) f->names[f->nf] = "len", f->feeds[f->nf++] = d->len;
  for (size_t i = 0; i < d->nw; i++) {
    snprintf(f->wn[i], sizeof f->wn[i], "w%zu", i);
    f->names[f->nf] = f->wn[i], f->feeds[f->nf++] = d->w[i];
  }
}

static double fd_loss(const lstm_case *k, fd_ctx *f, const double *wo, const double *wh,
                      const double *wc) {
  ic_tensor *out[3] = {0};
  ic_status st = ic_executor_run(f->e, f->p, NULL, f->nf, f->names,
                                 (const ic_tensor *const *)f->feeds, (size_t)(1 + n_states(k)),
                                 TU_NAMES("out", "last_h", "last_c"), out);
  ck_assert_msg(st == IC_OK, "%s", ic_executor_errmsg(f->e));
  double l = 0;
  const double *w3[3] = {wo, wh, wc};
  for (int i = 0; i < 1 + n_states(k); i++) {
    const double *v = ic_tensor_cdata(out[i]);
    for (int64_t e = 0; e < ic_tensor_numel(out[i]); e++) l += v[e] * w3[i][e];
    ic_tensor_destroy(out[i]);
  }
  return l;
}

static void grad_check(const lstm_case *k, uint64_t seed) {
  lstm_data d;
  make_data(k, seed, &d);
  const int D = dirs(k), ns = n_states(k);
  ic_tensor *dout = tu_rand_f32(3, TU_DIMS(k->T, k->B, D * k->H), seed + 100, -1, 1);
  ic_tensor *dh = tu_rand_f32(3, TU_DIMS(k->L * D, k->B, k->H), seed + 101, -1, 1);
  ic_tensor *dc = tu_rand_f32(3, TU_DIMS(k->L * D, k->B, k->H), seed + 102, -1, 1);
  dout = to_dtype(dout, IC_FP64), dh = to_dtype(dh, IC_FP64), dc = to_dtype(dc, IC_FP64);
  ic_builder *b = grad_program(k, d.nw);
  const char *names[90];
  ic_tensor *feeds[90];
  char wn[64][24], gn[64][24];
  size_t nf = 0;
  names[nf] = "x", feeds[nf++] = d.x;
  names[nf] = "h0", feeds[nf++] = d.h0;
  names[nf] = "c0", feeds[nf++] = d.c0;
  if (k->len) names[nf] = "len", feeds[nf++] = d.len;
  for (size_t i = 0; i < d.nw; i++) {
    snprintf(wn[i], sizeof wn[i], "w%zu", i);
    names[nf] = wn[i], feeds[nf++] = d.w[i];
  }
  names[nf] = "dout", feeds[nf++] = dout;
  names[nf] = "dh", feeds[nf++] = dh;
  if (ns == 2) names[nf] = "dc", feeds[nf++] = dc;
  const char *fetch[70];
  size_t n_fetch = 0;
  fetch[n_fetch++] = "gx";
  fetch[n_fetch++] = "gh0";
  if (ns == 2) fetch[n_fetch++] = "gc0";
  for (size_t i = 0; i < d.nw; i++) {
    snprintf(gn[i], sizeof gn[i], "gw%zu", i);
    fetch[n_fetch++] = gn[i];
  }
  ic_tensor *got[70] = {0};
  char err[1024];
  ck_assert_msg(tu_run(b, nf, names, feeds, n_fetch, fetch, got, err, sizeof err) == IC_OK,
                "%s", err);
  /* the inputs in fetch order */
  ic_tensor *wrt[70];
  size_t nw = 0;
  wrt[nw++] = d.x;
  wrt[nw++] = d.h0;
  if (ns == 2) wrt[nw++] = d.c0;
  for (size_t i = 0; i < d.nw; i++) wrt[nw++] = d.w[i];
  const double *wo = ic_tensor_cdata(dout), *wh = ic_tensor_cdata(dh), *wc = ic_tensor_cdata(dc);
  fd_ctx fc;
  fd_init(&fc, k, &d);
  for (size_t f = 0; f < n_fetch; f++) {
    tu_assert_shape(got[f], IC_FP64, ic_tensor_ndim(wrt[f]), ic_tensor_dims(wrt[f]));
    double *v = ic_tensor_data(wrt[f]);
    for (int64_t e = 0; e < ic_tensor_numel(wrt[f]); e++) {
      const double h = 1e-6, v0 = v[e];
      v[e] = v0 + h;
      double lp = fd_loss(k, &fc, wo, wh, wc);
      v[e] = v0 - h;
      double lm = fd_loss(k, &fc, wo, wh, wc);
      v[e] = v0;
      double num = (lp - lm) / (2 * h), an = ((const double *)ic_tensor_cdata(got[f]))[e];
      ck_assert_msg(fabs(an - num) <= 1e-6 * fabs(num) + 1e-7,
                    "rnn_grad %s L=%d bidi=%d len=%s: %s[%lld] is %.12g, finite difference "
                    "%.12g", k_mode_names[k->mode], k->L, (int)k->bidi, k->len ? "yes" : "no",
                    fetch[f], (long long)e, an, num);
    }
    ic_tensor_destroy(got[f]);
  }
  ic_builder_destroy(b);
  ic_executor_destroy(fc.e);
  ic_program_destroy(fc.p);
  ic_tensor_destroy(dout), ic_tensor_destroy(dh), ic_tensor_destroy(dc);
  free_data(&d);
}

START_TEST(rnn_grad_finite_differences) {
  static const int64_t len3[] = {3, 1, 0};
  for (int m = 0; m < 4; m++) {
    lstm_case k = {.T = 3, .B = 2, .I = 3, .H = 2, .L = 1, .dt = IC_FP64, .mode = m};
    grad_check(&k, 40 + (uint64_t)m);
    k.L = 2, k.bidi = true; /* layers and directions */
    grad_check(&k, 50 + (uint64_t)m);
    k.L = 1, k.B = 3, k.len = len3, k.len_dt = IC_INT64; /* ended and empty sequences */
    grad_check(&k, 60 + (uint64_t)m);
  }
}
END_TEST

START_TEST(lstm_matches_paddle) { check_paddle_dir("paddle_rnn", 4, 3); }
END_TEST

START_TEST(gru_matches_paddle) { check_paddle_dir("paddle_rnn_gru", 3, 2); }
END_TEST

START_TEST(rnn_tanh_matches_paddle) { check_paddle_dir("paddle_rnn_tanh", 3, 2); }
END_TEST

/* crnn_rec's rnn op (2-layer bidirectional LSTM, empty SequenceLength slot, Reserve and
 * DropoutState outputs) matches icore's slots and parses. */
START_TEST(crnn_rnn_op_parses) {
  char path[4096], err[1024];
  ck_assert(tu_shared("paddle/crnn_rec/inference.pdmodel", path, sizeof path));
  ic_program *p;
  ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
  size_t seen = 0;
  for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
    const ic_op *op = &p->blocks[0].ops[i];
    if (strcmp(op->type, "rnn") != 0) continue;
    const ic_opdef *def;
    ic_err e;
    ic_err_clear(&e);
    ck_assert_int_eq(ic_opdef_lookup(op, &def, &e), IC_OK);
    const ic_slot *ins[4], *outs[4];
    ck_assert_msg(ic_opdef_match(def, op, ins, outs, &e) == IC_OK, "%s", e.msg);
    ck_assert_ptr_null(ins[3]); /* SequenceLength: present but empty */
    ck_assert_uint_eq(ins[2]->n, 16);
    void *attrs = calloc(1, def->attrs_size);
    ck_assert_msg(ic_opdef_parse(def, op, attrs, &e) == IC_OK, "%s", e.msg);
    free(attrs);
    seen++;
  }
  ck_assert_uint_eq(seen, 1);
  ic_program_destroy(p);
}
END_TEST

static TCase *tc_lstm(void) {
  TCase *tc = tcase_create("lstm");
  tcase_add_test(tc, lstm_single_layer);
  tcase_add_test(tc, lstm_two_layers);
  tcase_add_test(tc, lstm_bidirectional);
  tcase_add_test(tc, lstm_sequence_length);
  tcase_add_test(tc, lstm_float64_and_empty);
  tcase_add_test(tc, lstm_bad_inputs);
  tcase_add_test(tc, gru_and_simple_rnn);
  tcase_add_test(tc, rnn_grad_finite_differences);
  tcase_add_test(tc, recurrent_gemv_and_gemm_paths);
  tcase_add_test(tc, rnn_state_reuse);
  return tc;
}

static TCase *tc_paddle(void) {
  TCase *tc = tcase_create("paddle");
  tcase_add_test(tc, lstm_matches_paddle);
  tcase_add_test(tc, gru_matches_paddle);
  tcase_add_test(tc, rnn_tanh_matches_paddle);
  tcase_add_test(tc, crnn_rnn_op_parses);
  return tc;
}

TU_MAIN("ops_rnn", tc_lstm, tc_paddle)
