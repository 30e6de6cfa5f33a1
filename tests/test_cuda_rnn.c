/* rnn (LSTM, inference)'s CUDA kernel against its CPU kernel (tests/cuda_harness.h), with the
 * cases of the CPU suite (test_ops_rnn.c): one to three layers (the third alternates the
 * intermediate buffers), unidirectional and bidirectional, SequenceLength absent, int32 and
 * int64 with full, middle, length-1 and empty sequences, batch 1, batch 0, no steps, float64,
 * a longer sequence with hidden sizes not a multiple of 8, and bad inputs refused by infer on
 * both sides. (The CPU kernel also rejects a length beyond seq_len; the CUDA kernel does not
 * read lengths on the host and treats it as its clamp, so that case is not compared here.)
 *
 * Tolerances: the products sum in another order and CUDA's exp differs from glibc's by an ulp
 * or two, compounding over the steps and layers: float32 relative 1e-5 plus 1e-5 absolute,
 * float64 1e-12. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.h"
#include "ew_testutil.h"

typedef struct lstm_case {
  int T, B, I, H, L;
  bool bidi;
  const int64_t *len; /* B lengths, or NULL for none */
  ic_dtype len_dt;
  ic_dtype dt;
  bool gru; /* GRU's shapes: 3 gates, no cell state (a valid program CUDA refuses) */
} lstm_case;

typedef struct lstm_opts {
  int n_weights;   /* 0: all */
  int hidden_attr; /* 0: the case's H */
  const char *mode;
} lstm_opts;

#define MAXW 48

typedef struct lstm_data {
  size_t n;                    /* inputs */
  char names[MAXW + 4][24];
  const char *np[MAXW + 4];
  ic_tensor *t[MAXW + 4];
  size_t nw;
} lstm_data;

static void add_input(lstm_data *d, const char *name, ic_tensor *t) {
  snprintf(d->names[d->n], sizeof d->names[d->n], "%s", name);
  d->np[d->n] = d->names[d->n];
  d->t[d->n++] = t;
}

static void make_data(const lstm_case *k, uint64_t seed, lstm_data *d) {
  const int D = k->bidi ? 2 : 1, G = (k->gru ? 3 : 4) * k->H;
  memset(d, 0, sizeof *d);
  add_input(d, "x", ew_rand(k->dt, 3, TU_DIMS(k->T, k->B, k->I), seed, -1.5, 1.5));
  add_input(d, "h0", ew_rand(k->dt, 3, TU_DIMS(k->L * D, k->B, k->H), seed + 1, -0.8, 0.8));
  if (!k->gru)
    add_input(d, "c0", ew_rand(k->dt, 3, TU_DIMS(k->L * D, k->B, k->H), seed + 2, -0.8, 0.8));
  d->nw = (size_t)(4 * k->L * D);
  ck_assert_uint_le(d->nw, MAXW);
  ic_tensor *w[MAXW];
  for (int l = 0; l < k->L; l++) {
    for (int dd = 0; dd < D; dd++) {
      size_t i = (size_t)(2 * (l * D + dd)), ib = i + d->nw / 2;
      int in = l == 0 ? k->I : D * k->H;
      w[i] = ew_rand(k->dt, 2, TU_DIMS(G, in), seed + 10 + i, -0.6, 0.6);
      w[i + 1] = ew_rand(k->dt, 2, TU_DIMS(G, k->H), seed + 11 + i, -0.6, 0.6);
      w[ib] = ew_rand(k->dt, 1, TU_DIMS(G), seed + 10 + ib, -0.6, 0.6);
      w[ib + 1] = ew_rand(k->dt, 1, TU_DIMS(G), seed + 11 + ib, -0.6, 0.6);
    }
  }
  for (size_t i = 0; i < d->nw; i++) {
    char n[24];
    snprintf(n, sizeof n, "w%zu", i);
    add_input(d, n, w[i]);
  }
  if (k->len) {
    ic_tensor *len;
    if (k->len_dt == IC_INT64) {
      len = tu_i64(1, TU_DIMS(k->B), k->len);
    } else {
      int32_t l32[64];
      for (int b = 0; b < k->B; b++) l32[b] = (int32_t)k->len[b];
      len = tu_i32(1, TU_DIMS(k->B), l32);
    }
    add_input(d, "len", len);
  }
}

static void free_data(lstm_data *d) {
  for (size_t i = 0; i < d->n; i++) ic_tensor_destroy(d->t[i]);
}

static ic_builder *lstm_program(const lstm_case *k, const lstm_opts *o, const lstm_data *d) {
  const int D = k->bidi ? 2 : 1;
  ic_builder *b = ic_builder_create();
  for (size_t i = 0; i < d->n; i++) ew_feed(b, d->np[i], d->t[i]);
  ic_builder_var(b, 0, "out", k->dt, 3, TU_DIMS(-1, -1, D * k->H), false);
  ic_builder_var(b, 0, "last_h", k->dt, 3, TU_DIMS(k->L * D, -1, k->H), false);
  if (!k->gru) ic_builder_var(b, 0, "last_c", k->dt, 3, TU_DIMS(k->L * D, -1, k->H), false);
  ic_builder_var_kind(b, 0, "reserve", IC_VAR_LOD_TENSOR, false);
  ic_builder_var_kind(b, 0, "dropout_state", IC_VAR_LOD_TENSOR, false);
  ic_builder_op *op = ic_builder_add_op(b, 0, "rnn");
  ic_builder_in(op, "Input", "x");
  const size_t ns = k->gru ? 1 : 2; /* PreState and State variables */
  ic_builder_input(op, "PreState", ns, TU_NAMES("h0", "c0"));
  size_t nw = o && o->n_weights ? (size_t)o->n_weights : d->nw;
  ic_builder_input(op, "WeightList", nw, d->np + 1 + ns);
  if (k->len) ic_builder_in(op, "SequenceLength", "len");
  else ic_builder_input(op, "SequenceLength", 0, NULL); /* present but empty, as exported */
  ic_builder_out(op, "Out", "out");
  ic_builder_output(op, "State", ns, TU_NAMES("last_h", "last_c"));
  ic_builder_out(op, "Reserve", "reserve");
  ic_builder_out(op, "DropoutState", "dropout_state");
  ic_builder_attr_string(op, "mode", o && o->mode ? o->mode : "LSTM");
  ic_builder_attr_int(op, "hidden_size", o && o->hidden_attr ? o->hidden_attr : k->H);
  ic_builder_attr_int(op, "num_layers", k->L);
  ic_builder_attr_int(op, "input_size", k->I);
  ic_builder_attr_bool(op, "is_bidirec", k->bidi);
  ic_builder_attr_bool(op, "is_test", true);
  ic_builder_attr_float(op, "dropout_prob", 0.0f);
  ic_builder_attr_int(op, "seed", 0);
  ic_builder_fetch(b, "out");
  ic_builder_fetch(b, "last_h");
  if (!k->gru) ic_builder_fetch(b, "last_c");
  return b;
}

static void lstm_check(const lstm_case *k, uint64_t seed) {
  lstm_data d;
  make_data(k, seed, &d);
  ic_builder *b = lstm_program(k, NULL, &d);
  bool f64 = k->dt == IC_FP64;
  ch_check_builder(b, d.n, d.np, d.t, f64 ? 1e-12 : 1e-5, f64 ? 1e-12 : 1e-5);
  ic_builder_destroy(b);
  free_data(&d);
}

START_TEST(lstm_layers_and_directions) {
  lstm_case k = {.T = 4, .B = 1, .I = 3, .H = 5, .L = 1, .dt = IC_FP32};
  lstm_check(&k, 1);
  k.B = 3, k.H = 13, k.T = 1; /* one step */
  lstm_check(&k, 2);
  k.T = 20, k.B = 1, k.H = 33, k.I = 17; /* longer, hidden not a multiple of 8 */
  lstm_check(&k, 3);
  k = (lstm_case){.T = 6, .B = 3, .I = 4, .H = 7, .L = 2, .dt = IC_FP32};
  lstm_check(&k, 4);
  k.L = 3, k.B = 2; /* intermediate outputs alternate between two buffers */
  lstm_check(&k, 5);
  k = (lstm_case){.T = 6, .B = 3, .I = 4, .H = 7, .L = 1, .bidi = true, .dt = IC_FP32};
  lstm_check(&k, 6);
  k.B = 1;
  lstm_check(&k, 7);
  k.L = 3, k.B = 5, k.H = 9;
  lstm_check(&k, 8);
  k = (lstm_case){.T = 9, .B = 37, .I = 65, .H = 64, .L = 2, .bidi = true, .dt = IC_FP32};
  lstm_check(&k, 9); /* sizes of a small real model */
}
END_TEST

START_TEST(lstm_sequence_length) {
  static const int64_t len3[] = {6, 1, 3};
  lstm_case k = {.T = 6, .B = 3, .I = 4, .H = 7, .L = 1, .len = len3, .len_dt = IC_INT64,
                 .dt = IC_FP32};
  lstm_check(&k, 10);
  k.bidi = true;
  lstm_check(&k, 11);
  k.L = 2, k.len_dt = IC_INT32;
  lstm_check(&k, 12);
  static const int64_t full[] = {5, 5};
  lstm_case f = {.T = 5, .B = 2, .I = 3, .H = 6, .L = 2, .bidi = true, .len = full,
                 .len_dt = IC_INT64, .dt = IC_FP32};
  lstm_check(&f, 13);
  static const int64_t zero[] = {0, 4, 2}, one[] = {2};
  lstm_case z = {.T = 4, .B = 3, .I = 2, .H = 5, .L = 2, .bidi = true, .len = zero,
                 .len_dt = IC_INT32, .dt = IC_FP32};
  lstm_check(&z, 14);
  lstm_case o = {.T = 4, .B = 1, .I = 2, .H = 5, .L = 1, .bidi = true, .len = one,
                 .len_dt = IC_INT64, .dt = IC_FP32};
  lstm_check(&o, 15);
  static const int64_t five[] = {4, 1, 0, 3, 4};
  lstm_case g = {.T = 4, .B = 5, .I = 3, .H = 6, .L = 3, .bidi = true, .len = five,
                 .len_dt = IC_INT64, .dt = IC_FP64};
  lstm_check(&g, 16);
}
END_TEST

START_TEST(lstm_float64_and_empty) {
  static const int64_t len3[] = {2, 5, 4};
  lstm_case k = {.T = 5, .B = 3, .I = 4, .H = 6, .L = 2, .bidi = true, .len = len3,
                 .len_dt = IC_INT64, .dt = IC_FP64};
  lstm_check(&k, 20);
  lstm_case e = {.T = 3, .B = 0, .I = 4, .H = 5, .L = 2, .bidi = true, .dt = IC_FP32};
  lstm_check(&e, 21); /* batch 0 */
  lstm_case t0 = {.T = 0, .B = 2, .I = 4, .H = 5, .L = 1, .bidi = true, .dt = IC_FP32};
  lstm_check(&t0, 22); /* no steps: the initial states */
  lstm_case h1 = {.T = 3, .B = 2, .I = 1, .H = 1, .L = 2, .dt = IC_FP64};
  lstm_check(&h1, 23);
}
END_TEST

static void expect_failure_on(const lstm_case *k, const lstm_opts *o, ic_status code,
                              const char *n1, const char *n2, bool cuda_only) {
  lstm_data d;
  make_data(k, 30, &d);
  ic_builder *b = lstm_program(k, o, &d);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_status st = cuda_only ? ch_cuda_op_status(p, d.n, d.np, d.t, err, sizeof err)
                           : ch_check_op_status(p, d.n, d.np, d.t, 0, 0, err, sizeof err);
  ck_assert_msg(st == code, "expected %s, got %s: %s", ic_status_name(code), ic_status_name(st),
                err);
  tu_assert_msg(err, n1, n2, NULL);
  ic_program_destroy(p);
  ic_builder_destroy(b);
  free_data(&d);
}

static void expect_failure(const lstm_case *k, const lstm_opts *o, ic_status code,
                           const char *n1, const char *n2) {
  expect_failure_on(k, o, code, n1, n2, false);
}

START_TEST(lstm_bad_inputs) {
  lstm_case k = {.T = 3, .B = 2, .I = 4, .H = 5, .L = 1, .bidi = true, .dt = IC_FP32};
  lstm_opts o = {.n_weights = 4};
  expect_failure(&k, &o, IC_ERR_INVALID_PROGRAM, "WeightList holds 4 variables", "expected 8");
  o = (lstm_opts){.hidden_attr = 6};
  expect_failure(&k, &o, IC_ERR_SHAPE, "input PreState 'h0'", "[2, 2, 6]");
  /* A valid GRU program, which the CPU runs: the CUDA kernel says it has none. */
  lstm_case g = k;
  g.gru = true;
  o = (lstm_opts){.mode = "GRU"};
  expect_failure_on(&g, &o, IC_ERR_UNSUPPORTED, "GRU", "only LSTM", true);
}
END_TEST

static TCase *tc_rnn(void) {
  TCase *tc = tcase_create("rnn");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, lstm_layers_and_directions);
  tcase_add_test(tc, lstm_sequence_length);
  tcase_add_test(tc, lstm_float64_and_empty);
  tcase_add_test(tc, lstm_bad_inputs);
  return tc;
}

CH_MAIN("cuda_rnn", tc_rnn)
