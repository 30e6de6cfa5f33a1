/* The training losses warpctc (CTC, with warpctc_grad) and sigmoid_focal_loss (with its grad)
 * against references computed here in double:
 *   - warpctc's Loss against a brute-force sum over every path of T steps (C^T paths, each
 *     collapsed: repeats merged, blanks dropped), in padded and LoD mode;
 *   - WarpCTCGrad against central differences of Loss with respect to each logit, and
 *     warpctc_grad's Logits@GRAD against central differences of sum_b dLoss_b * Loss_b (divided
 *     by the sequence's steps with norm_by_times), in both modes;
 *   - sigmoid_focal_loss against its formula, and its grad against central differences of
 *     sum(Out * Out@GRAD), float64 and float32;
 *   - their errors, each naming the variable and what was expected.
 * Paddle's own values are checked by the oracle cases warpctc_padded* (test_paddle_oracle),
 * warpctc_lod* (test_ctrl_lod) and the CTC training cases (test_train). Every program runs in
 * every executor configuration (tu_run). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ew_testutil.h"

/* ---- warpctc ---- */

typedef struct ctc_case {
  bool padded, norm;
  int blank;
  int64_t B, C, Tmax;
  const int64_t *T, *L; /* per sequence */
  const int32_t *lab;   /* the labels of each sequence, one after another */
} ctc_case;

static ic_tensor *i64s(int64_t n, const int64_t *v) {
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(IC_INT64, 1, &n, &t), IC_OK);
  memcpy(ic_tensor_data(t), v, (size_t)n * sizeof(int64_t));
  return t;
}

/* The label tensor: padded [B, Lmax] (zeros past each end) or [sum L, 1] with its LoD. */
static ic_tensor *ctc_labels(const ctc_case *k) {
  int64_t Lmax = 1, sum = 0;
  for (int64_t b = 0; b < k->B; b++) {
    if (k->L[b] > Lmax) Lmax = k->L[b];
    sum += k->L[b];
  }
  ic_tensor *t;
  if (k->padded) {
    ck_assert_int_eq(ic_tensor_create(IC_INT32, 2, TU_DIMS(k->B, Lmax), &t), IC_OK);
    int32_t *d = ic_tensor_data(t);
    memset(d, 0, (size_t)(k->B * Lmax) * sizeof(int32_t));
    for (int64_t b = 0, o = 0; b < k->B; o += k->L[b], b++) {
      for (int64_t i = 0; i < k->L[b]; i++) d[b * Lmax + i] = k->lab[o + i];
    }
    return t;
  }
  ck_assert_int_eq(ic_tensor_create(IC_INT32, 2, TU_DIMS(sum, 1), &t), IC_OK);
  memcpy(ic_tensor_data(t), k->lab, (size_t)sum * sizeof(int32_t));
  uint64_t off[16] = {0};
  for (int64_t b = 0; b < k->B; b++) off[b + 1] = off[b] + (uint64_t)k->L[b];
  const size_t n = (size_t)k->B + 1;
  const uint64_t *lv[1] = {off};
  ck_assert_int_eq(ic_tensor_set_lod(t, 1, &n, lv), IC_OK);
  return t;
}

/* Row of logit (b, t): padded [t, b, :], LoD row off[b] + t. */
static int64_t ctc_row(const ctc_case *k, int64_t b, int64_t t) {
  if (k->padded) return t * k->B + b;
  int64_t r = 0;
  for (int64_t j = 0; j < b; j++) r += k->T[j];
  return r + t;
}

static ic_tensor *ctc_logits(const ctc_case *k, ic_dtype dt, uint64_t seed) {
  if (k->padded) return ew_rand(dt, 3, TU_DIMS(k->Tmax, k->B, k->C), seed, -2, 2);
  int64_t sum = 0;
  uint64_t off[16] = {0};
  for (int64_t b = 0; b < k->B; b++) {
    sum += k->T[b];
    off[b + 1] = off[b] + (uint64_t)k->T[b];
  }
  ic_tensor *t = ew_rand(dt, 2, TU_DIMS(sum, k->C), seed, -2, 2);
  const size_t n = (size_t)k->B + 1;
  const uint64_t *lv[1] = {off};
  ck_assert_int_eq(ic_tensor_set_lod(t, 1, &n, lv), IC_OK);
  return t;
}

/* warpctc (and warpctc_grad with Loss@GRAD "dl" when grad) over feeds x, lab (xl, ll). */
static ic_builder *ctc_program(const ctc_case *k, const ic_tensor *const *feeds, bool grad,
                               size_t *n_feeds, size_t *n_fetch) {
  static const char *const names[5] = {"x", "lab", "xl", "ll", "dl"};
  ic_builder *b = ic_builder_create();
  size_t nf = k->padded ? 4 : 2;
  for (size_t j = 0; j < nf; j++) ew_feed(b, names[j], feeds[j]);
  ic_builder_op *o = ic_builder_add_op(b, 0, "warpctc");
  ic_builder_in(o, "Logits", "x");
  ic_builder_in(o, "Label", "lab");
  if (k->padded) {
    ic_builder_in(o, "LogitsLength", "xl");
    ic_builder_in(o, "LabelLength", "ll");
  }
  ic_builder_out(o, "Loss", "loss");
  ic_builder_out(o, "WarpCTCGrad", "wg");
  ic_builder_attr_int(o, "blank", k->blank);
  ic_builder_attr_bool(o, "norm_by_times", k->norm);
  const ic_dtype dt = ic_tensor_dtype(feeds[0]);
  ew_fetch(b, "loss", dt);
  ew_fetch(b, "wg", dt);
  *n_fetch = 2;
  if (grad) {
    ew_feed(b, "dl", feeds[4]);
    ic_builder_op *g = ic_builder_add_op(b, 0, "warpctc_grad");
    ic_builder_in(g, "Logits", "x");
    ic_builder_in(g, "WarpCTCGrad", "wg");
    ic_builder_in(g, "Loss@GRAD", "dl");
    if (k->padded) ic_builder_in(g, "LogitsLength", "xl");
    ic_builder_out(g, "Logits@GRAD", "dx");
    ic_builder_attr_int(g, "blank", k->blank);
    ic_builder_attr_bool(g, "norm_by_times", k->norm);
    ew_fetch(b, "dx", dt);
    *n_fetch = 3;
    nf = 5;
  }
  *n_feeds = nf;
  return b;
}

static const char *const k_ctc_feeds[5] = {"x", "lab", "xl", "ll", "dl"};
static const char *const k_ctc_fetch[3] = {"loss", "wg", "dx"};

/* Loss alone, uncompiled (for the differences). feeds[2], [3] unused in LoD mode. */
static void ctc_loss_only(const ctc_case *k, ic_tensor *const *feeds, double *loss) {
  size_t nf, nx;
  ic_builder *b = ctc_program(k, (const ic_tensor *const *)feeds, false, &nf, &nx);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_options opt;
  ic_options_default(&opt);
  opt.mode = IC_MODE_UNCOMPILED;
  opt.threads = 1;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&opt, &e), IC_OK);
  ic_tensor *out[2] = {0};
  ck_assert_msg(ic_executor_run(e, p, NULL, nf, k_ctc_feeds, (const ic_tensor *const *)feeds, 2,
                                k_ctc_fetch, out) == IC_OK, "%s", ic_executor_errmsg(e));
  for (int64_t b2 = 0; b2 < k->B; b2++) loss[b2] = ew_at(out[0], b2);
  ic_tensor_destroy(out[0]);
  ic_tensor_destroy(out[1]);
  ic_executor_destroy(e);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}

/* -log p(labels | logits) of one sequence by summing over all C^T paths. */
static double ctc_brute(const ctc_case *k, const ic_tensor *x, int64_t b, const int32_t *lab) {
  const int64_t T = k->T[b], C = k->C, L = k->L[b];
  double logp[8][8];
  for (int64_t t = 0; t < T; t++) {
    const int64_t r = ctc_row(k, b, t) * C;
    double z = 0;
    for (int64_t c = 0; c < C; c++) z += exp(ew_at(x, r + c));
    for (int64_t c = 0; c < C; c++) logp[t][c] = ew_at(x, r + c) - log(z);
  }
  int64_t n_paths = 1;
  for (int64_t t = 0; t < T; t++) n_paths *= C;
  double total = 0;
  for (int64_t p = 0; p < n_paths; p++) {
    int64_t path[8], q = p, out[8], n = 0;
    for (int64_t t = 0; t < T; t++, q /= C) path[t] = q % C;
    for (int64_t t = 0; t < T; t++) {
      if (path[t] != k->blank && (t == 0 || path[t] != path[t - 1])) out[n++] = path[t];
    }
    bool same = n == L;
    for (int64_t i = 0; same && i < L; i++) same = out[i] == lab[i];
    if (!same) continue;
    double lp = 0;
    for (int64_t t = 0; t < T; t++) lp += logp[t][path[t]];
    total += exp(lp);
  }
  return total > 0 ? -log(total) : 0.0; /* no path: warp-ctc's loss 0 */
}

static void ctc_check(const ctc_case *k) {
  ic_tensor *feeds[5];
  feeds[0] = ctc_logits(k, IC_FP64, 7 + (uint64_t)k->blank);
  feeds[1] = ctc_labels(k);
  feeds[2] = i64s(k->B, k->T);
  feeds[3] = i64s(k->B, k->L);
  feeds[4] = ew_rand(IC_FP64, 2, TU_DIMS(k->B, 1), 11, 0.5, 1.5);
  size_t nf, nx;
  ic_builder *b = ctc_program(k, (const ic_tensor *const *)feeds, true, &nf, &nx);
  ic_tensor *got[3] = {0};
  ic_tensor *fe[5];
  const char *fn[5];
  size_t j = 0;
  for (size_t i = 0; i < 5; i++) {
    if (!k->padded && (i == 2 || i == 3)) continue;
    fe[j] = feeds[i];
    fn[j++] = k_ctc_feeds[i];
  }
  char err[1024];
  ck_assert_msg(tu_run(b, j, fn, fe, 3, k_ctc_fetch, got, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(got[0], IC_FP64, 2, TU_DIMS(k->B, 1));
  tu_assert_shape(got[1], IC_FP64, 3, TU_DIMS(k->Tmax, k->B, k->C));
  tu_assert_shape(got[2], IC_FP64, ic_tensor_ndim(feeds[0]), ic_tensor_dims(feeds[0]));
  if (!k->padded) { /* Logits@GRAD keeps Logits' LoD */
    size_t n1, n2;
    const uint64_t *a = ic_tensor_lod(got[2], 0, &n1), *c = ic_tensor_lod(feeds[0], 0, &n2);
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq(n1, n2);
    for (size_t i = 0; i < n1; i++) ck_assert_uint_eq(a[i], c[i]);
  }
  /* Loss against the brute force */
  for (int64_t s = 0, o = 0; s < k->B; o += k->L[s], s++) {
    const double want = ctc_brute(k, feeds[0], s, k->lab + o);
    ck_assert_msg(fabs(ew_at(got[0], s) - want) <= 1e-10 * (1 + fabs(want)),
                  "Loss[%lld] is %.12g, brute force %.12g", (long long)s, ew_at(got[0], s), want);
  }
  /* gradients against central differences */
  double *xd = ic_tensor_data(feeds[0]);
  const double h = 1e-5;
  for (int64_t s = 0; s < k->B; s++) {
    for (int64_t t = 0; t < k->Tmax; t++) {
      for (int64_t c = 0; c < k->C; c++) {
        const double wg = ew_at(got[1], (t * k->B + s) * k->C + c);
        if (t >= k->T[s]) {
          ck_assert_msg(wg == 0, "WarpCTCGrad[%lld, %lld, %lld] past the end is %g",
                        (long long)t, (long long)s, (long long)c, wg);
          continue;
        }
        const int64_t idx = ctc_row(k, s, t) * k->C + c;
        const double x0 = xd[idx];
        double lp[16], lm[16];
        xd[idx] = x0 + h;
        ctc_loss_only(k, feeds, lp);
        xd[idx] = x0 - h;
        ctc_loss_only(k, feeds, lm);
        xd[idx] = x0;
        const double num = (lp[s] - lm[s]) / (2 * h);
        ck_assert_msg(fabs(wg - num) <= 1e-6 * fabs(num) + 1e-7,
                      "WarpCTCGrad[%lld, %lld, %lld] is %.10g, central difference %.10g",
                      (long long)t, (long long)s, (long long)c, wg, num);
        for (int64_t q = 0; q < k->B; q++) {
          if (q != s) ck_assert_msg(fabs(lp[q] - lm[q]) < 1e-12, "loss %lld moved", (long long)q);
        }
        const double dl = ew_at(feeds[4], s) / (k->norm ? (double)k->T[s] : 1.0);
        const double dx = ew_at(got[2], idx);
        ck_assert_msg(fabs(dx - dl * num) <= 1e-6 * fabs(dl * num) + 1e-7,
                      "Logits@GRAD[%lld] is %.10g, central difference %.10g (norm_by_times %d)",
                      (long long)idx, dx, dl * num, k->norm);
      }
    }
  }
  for (size_t i = 0; i < 3; i++) ic_tensor_destroy(got[i]);
  for (size_t i = 0; i < 5; i++) ic_tensor_destroy(feeds[i]);
  ic_builder_destroy(b);
}

/* 4 sequences: labels with a repeat (1 1 needs 3 steps), an empty label, one that cannot fit
 * its steps (2 2 2 needs 5 steps, has 4: loss 0, gradient 0). */
static const int64_t k_T[4] = {5, 4, 3, 4}, k_L[4] = {2, 3, 0, 3};
static const int32_t k_lab0[8] = {1, 1, 2, 3, 1, 2, 2, 2}; /* blank 0 */
static const int32_t k_lab3[8] = {1, 1, 2, 0, 1, 2, 2, 2}; /* blank 3 */

START_TEST(warpctc_padded_brute_force_and_differences) {
  ctc_case k = {true, false, 0, 4, 4, 5, k_T, k_L, k_lab0};
  ctc_check(&k);
  k.norm = true;
  k.blank = 3;
  k.lab = k_lab3;
  k.Tmax = 6; /* padded past every sequence */
  ctc_check(&k);
}
END_TEST

START_TEST(warpctc_lod_brute_force_and_differences) {
  ctc_case k = {false, true, 0, 4, 4, 5, k_T, k_L, k_lab0};
  ctc_check(&k);
  k.norm = false;
  k.blank = 3;
  k.lab = k_lab3;
  ctc_check(&k);
}
END_TEST

/* float32 logits give the float64 results rounded (computed in double either way). */
START_TEST(warpctc_float32) {
  const ctc_case k = {true, false, 0, 4, 4, 5, k_T, k_L, k_lab0};
  ic_tensor *x64 = ctc_logits(&k, IC_FP64, 3), *x32;
  ck_assert_int_eq(ic_tensor_create(IC_FP32, 3, ic_tensor_dims(x64), &x32), IC_OK);
  for (int64_t i = 0; i < ic_tensor_numel(x64); i++) {
    ((float *)ic_tensor_data(x32))[i] = (float)ew_at(x64, i);
    ((double *)ic_tensor_data(x64))[i] = ((float *)ic_tensor_data(x32))[i];
  }
  ic_tensor *feeds[5] = {x64, ctc_labels(&k), i64s(4, k_T), i64s(4, k_L), NULL};
  double l64[4];
  ctc_loss_only(&k, feeds, l64);
  feeds[0] = x32;
  size_t nf, nx;
  ic_builder *b = ctc_program(&k, (const ic_tensor *const *)feeds, false, &nf, &nx);
  ic_tensor *got[2] = {0};
  char err[1024];
  ck_assert_msg(tu_run(b, nf, k_ctc_feeds, feeds, 2, k_ctc_fetch, got, err, sizeof err) == IC_OK,
                "%s", err);
  tu_assert_shape(got[0], IC_FP32, 2, TU_DIMS(4, 1));
  for (int s = 0; s < 4; s++) ck_assert(ew_at(got[0], s) == (double)(float)l64[s]);
  for (int i = 0; i < 2; i++) ic_tensor_destroy(got[i]);
  for (int i = 0; i < 4; i++) ic_tensor_destroy(feeds[i]);
  ic_tensor_destroy(x64);
  ic_builder_destroy(b);
}
END_TEST

/* ---- sigmoid_focal_loss ---- */

static ic_builder *sfl_program(const ic_tensor *x, const ic_tensor *lab, const ic_tensor *fg,
                               const ic_tensor *dy, float gamma, float alpha) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ew_feed(b, "lab", lab);
  ew_feed(b, "fg", fg);
  ic_builder_op *o = ic_builder_add_op(b, 0, "sigmoid_focal_loss");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Label", "lab");
  ic_builder_in(o, "FgNum", "fg");
  ic_builder_out(o, "Out", "y");
  ic_builder_attr_float(o, "gamma", gamma);
  ic_builder_attr_float(o, "alpha", alpha);
  ew_fetch(b, "y", ic_tensor_dtype(x));
  if (dy) {
    ew_feed(b, "dy", dy);
    ic_builder_op *g = ic_builder_add_op(b, 0, "sigmoid_focal_loss_grad");
    ic_builder_in(g, "X", "x");
    ic_builder_in(g, "Label", "lab");
    ic_builder_in(g, "FgNum", "fg");
    ic_builder_in(g, "Out@GRAD", "dy");
    ic_builder_out(g, "X@GRAD", "dx");
    ic_builder_attr_float(g, "gamma", gamma);
    ic_builder_attr_float(g, "alpha", alpha);
    ew_fetch(b, "dx", ic_tensor_dtype(x));
  }
  return b;
}

/* The loss of one logit: label g of its row, class d (0-based), fg foreground rows. */
static double sfl_ref(double x, int g, int d, double fg, double gamma, double alpha) {
  const double p = 1 / (1 + exp(-x));
  if (fg < 1) fg = 1;
  if (g == d + 1) return -alpha / fg * pow(1 - p, gamma) * log(p);
  if (g == -1) return 0;
  return -(1 - alpha) / fg * pow(p, gamma) * log1p(-p);
}

static void sfl_check(ic_dtype dt, int fgnum, float gamma, float alpha) {
  const int64_t N = 6, D = 3;
  ic_tensor *x = ew_rand(dt, 2, TU_DIMS(N, D), 21, -4, 4);
  ic_tensor *lab, *fg;
  const int32_t labs[6] = {0, 1, 3, -1, 2, 0};
  ck_assert_int_eq(ic_tensor_create(IC_INT32, 2, TU_DIMS(N, 1), &lab), IC_OK);
  memcpy(ic_tensor_data(lab), labs, sizeof labs);
  ck_assert_int_eq(ic_tensor_create(IC_INT32, 1, TU_DIMS(1), &fg), IC_OK);
  ((int32_t *)ic_tensor_data(fg))[0] = fgnum;
  ic_tensor *dy = ew_rand(dt, 2, TU_DIMS(N, D), 22, 0.5, 1.5);
  ic_builder *b = sfl_program(x, lab, fg, dy, gamma, alpha);
  ic_tensor *feeds[4] = {x, lab, fg, dy}, *got[2] = {0};
  char err[1024];
  ck_assert_msg(tu_run(b, 4, TU_NAMES("x", "lab", "fg", "dy"), feeds, 2, TU_NAMES("y", "dx"),
                       got, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(got[0], dt, 2, TU_DIMS(N, D));
  tu_assert_shape(got[1], dt, 2, TU_DIMS(N, D));
  const double tol = dt == IC_FP64 ? 1e-12 : 2e-6;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t d = 0; d < D; d++) {
      const int64_t i = n * D + d;
      const double xv = ew_at(x, i);
      const double want = sfl_ref(xv, labs[n], (int)d, fgnum, gamma, alpha);
      ck_assert_msg(fabs(ew_at(got[0], i) - want) <= tol * (fabs(want) + 1e-3),
                    "Out[%lld] is %.12g, expected %.12g", (long long)i, ew_at(got[0], i), want);
      const double h = 1e-6;
      const double num = (sfl_ref(xv + h, labs[n], (int)d, fgnum, gamma, alpha) -
                          sfl_ref(xv - h, labs[n], (int)d, fgnum, gamma, alpha)) / (2 * h) *
                         ew_at(dy, i);
      const double gtol = dt == IC_FP64 ? 1e-9 : 1e-6;
      ck_assert_msg(fabs(ew_at(got[1], i) - num) <= 1e-6 * fabs(num) + gtol,
                    "X@GRAD[%lld] is %.12g, central difference %.12g", (long long)i,
                    ew_at(got[1], i), num);
      if (labs[n] == -1) ck_assert(ew_at(got[1], i) == 0 && ew_at(got[0], i) == 0);
    }
  }
  for (int i = 0; i < 2; i++) ic_tensor_destroy(got[i]);
  for (int i = 0; i < 4; i++) ic_tensor_destroy(feeds[i]);
  ic_builder_destroy(b);
}

START_TEST(sigmoid_focal_loss_formula_and_differences) {
  sfl_check(IC_FP64, 3, 2.0f, 0.25f);
  sfl_check(IC_FP64, 0, 1.5f, 0.6f); /* FgNum 0 counts as 1 */
  sfl_check(IC_FP32, 4, 2.0f, 0.25f);
}
END_TEST

/* ---- errors ---- */

static void expect_error(ic_builder *b, size_t nf, const char *const *fn, ic_tensor *const *fe,
                         size_t nx, const char *const *xn, const char *needle) {
  ic_tensor *got[3] = {0};
  char err[1024] = "";
  ck_assert_int_ne(tu_run(b, nf, fn, fe, nx, xn, got, err, sizeof err), IC_OK);
  ck_assert_msg(strstr(err, needle), "message '%s' lacks '%s'", err, needle);
}

START_TEST(warpctc_errors) {
  const ctc_case k = {true, false, 0, 4, 4, 5, k_T, k_L, k_lab0};
  ic_tensor *feeds[5] = {ctc_logits(&k, IC_FP32, 1), ctc_labels(&k), i64s(4, k_T),
                         i64s(4, k_L), NULL};
  size_t nf, nx;
  /* blank out of range */
  ctc_case kb = k;
  kb.blank = 4;
  ic_builder *b = ctc_program(&kb, (const ic_tensor *const *)feeds, false, &nf, &nx);
  expect_error(b, nf, k_ctc_feeds, feeds, nx, k_ctc_fetch, "blank is 4, expected in [0, 4)");
  ic_builder_destroy(b);
  /* a label out of range */
  ((int32_t *)ic_tensor_data(feeds[1]))[1] = 7;
  b = ctc_program(&k, (const ic_tensor *const *)feeds, false, &nf, &nx);
  expect_error(b, nf, k_ctc_feeds, feeds, nx, k_ctc_fetch, "holds 7 in sequence 0");
  ((int32_t *)ic_tensor_data(feeds[1]))[1] = 1;
  /* a length past Tmax */
  ((int64_t *)ic_tensor_data(feeds[2]))[2] = 6;
  expect_error(b, nf, k_ctc_feeds, feeds, nx, k_ctc_fetch, "entry 2 is 6, expected in [0, 5]");
  ((int64_t *)ic_tensor_data(feeds[2]))[2] = 3;
  ic_builder_destroy(b);
  /* LoD mode without LoD */
  ctc_case kl = k;
  kl.padded = false;
  ic_tensor *x2 = ew_rand(IC_FP32, 2, TU_DIMS(16, 5), 1, -1, 1);
  ic_tensor *f2[2] = {x2, feeds[1]};
  b = ctc_program(&kl, (const ic_tensor *const *)f2, false, &nf, &nx);
  expect_error(b, nf, k_ctc_feeds, f2, nx, k_ctc_fetch, "LoD level");
  ic_builder_destroy(b);
  ic_tensor_destroy(x2);
  for (int i = 0; i < 4; i++) ic_tensor_destroy(feeds[i]);
}
END_TEST

START_TEST(sigmoid_focal_loss_errors) {
  ic_tensor *x = ew_rand(IC_FP32, 2, TU_DIMS(2, 3), 1, -1, 1), *lab, *fg;
  ck_assert_int_eq(ic_tensor_create(IC_INT32, 2, TU_DIMS(2, 1), &lab), IC_OK);
  ck_assert_int_eq(ic_tensor_create(IC_INT32, 1, TU_DIMS(1), &fg), IC_OK);
  ((int32_t *)ic_tensor_data(lab))[0] = 1;
  ((int32_t *)ic_tensor_data(lab))[1] = 4;
  ((int32_t *)ic_tensor_data(fg))[0] = 1;
  ic_tensor *feeds[3] = {x, lab, fg};
  ic_builder *b = sfl_program(x, lab, fg, NULL, 2, 0.25f);
  expect_error(b, 3, TU_NAMES("x", "lab", "fg"), feeds, 1, TU_NAMES("y"),
               "holds 4 at row 1, expected -1 (ignored), 0 (background) or a class in [1, 3]");
  ic_builder_destroy(b);
  ic_tensor *lab2;
  ck_assert_int_eq(ic_tensor_create(IC_INT32, 2, TU_DIMS(3, 1), &lab2), IC_OK);
  memset(ic_tensor_data(lab2), 0, 3 * sizeof(int32_t));
  feeds[1] = lab2;
  b = sfl_program(x, lab2, fg, NULL, 2, 0.25f);
  expect_error(b, 3, TU_NAMES("x", "lab", "fg"), feeds, 1, TU_NAMES("y"), "expected [2, 1]");
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
  ic_tensor_destroy(lab);
  ic_tensor_destroy(lab2);
  ic_tensor_destroy(fg);
}
END_TEST

int main(void) {
  Suite *s = suite_create("ops_ctc_focal");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, warpctc_padded_brute_force_and_differences);
  tcase_add_test(tc, warpctc_lod_brute_force_and_differences);
  tcase_add_test(tc, warpctc_float32);
  tcase_add_test(tc, sigmoid_focal_loss_formula_and_differences);
  tcase_add_test(tc, warpctc_errors);
  tcase_add_test(tc, sigmoid_focal_loss_errors);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
