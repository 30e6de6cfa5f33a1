/* reduce_sum, reduce_mean, reduce_max, mean and sum against plain double-precision loops:
 * the shared case tables of cases_reduce.h (the CUDA suite runs the same), plus exact
 * values, NaN and bad inputs. Output shapes and dtypes are written out by hand from Paddle's
 * rules (ReduceInferDim, SumRawInferMeta, MeanAllInferMeta, AddNInferMeta) and were checked
 * against Paddle 3.3.1. */
#include "cases_reduce.h"
#include "mathutil.h"

enum { SUM = CR_SUM, MEAN = CR_MEAN, MAX = CR_MAX };
#define k_ops cr_types

#define NO_ATTR INT32_MIN /* leave out_dtype out */

/* The reduction of x (as doubles) over the axes in mask, by unravelling every element's index:
 * the out index counts the kept axes only. Integer means truncate toward zero. */
static double *ref_reduce_t(const ic_tensor *t, const bool *mask, int kind, bool int_mean,
                            bool trunc_first, int64_t *n_out) {
  double *x = mu_f64(t);
  for (int64_t e = 0; trunc_first && e < ic_tensor_numel(t); e++) x[e] = trunc(x[e]);
  int nd = ic_tensor_ndim(t);
  const int64_t *dims = ic_tensor_dims(t);
  int64_t on = 1, n = ic_tensor_numel(t);
  for (int i = 0; i < nd; i++) on *= mask[i] ? 1 : dims[i];
  double *acc = calloc((size_t)(on ? on : 1), sizeof(double));
  int64_t *cnt = calloc((size_t)(on ? on : 1), sizeof(int64_t));
  for (int64_t o = 0; o < on; o++) acc[o] = kind == MAX ? -INFINITY : 0;
  for (int64_t e = 0; e < n; e++) {
    int64_t rest = e, o = 0, ostride = 1;
    for (int i = nd - 1; i >= 0; i--) {
      int64_t idx = rest % dims[i];
      rest /= dims[i];
      if (!mask[i]) {
        o += idx * ostride;
        ostride *= dims[i];
      }
    }
    cnt[o]++;
    if (kind == MAX) acc[o] = isnan(x[e]) || isnan(acc[o]) ? NAN : fmax(acc[o], x[e]);
    else acc[o] += x[e];
  }
  for (int64_t o = 0; o < on && kind == MEAN; o++) {
    acc[o] = int_mean ? (cnt[o] ? trunc(acc[o] / (double)cnt[o]) : 0) : acc[o] / (double)cnt[o];
  }
  free(x);
  free(cnt);
  *n_out = on;
  return acc;
}

static double *ref_reduce(const ic_tensor *t, const bool *mask, int kind, bool int_mean,
                          int64_t *n_out) {
  return ref_reduce_t(t, mask, kind, int_mean, false, n_out);
}

typedef struct rcase {
  int kind;
  size_t n_dim;
  const int32_t *dim;  /* NULL: leave `dim` out (Paddle's default [0]) */
  bool keep_dim, reduce_all;
  int out_dtype;       /* NO_ATTR to leave it out */
} rcase;

static ic_status run_reduce(const rcase *rc, ic_tensor *x, ic_tensor **out, char *err) {
  mu_prog p;
  mu_init(&p);
  mu_feed(&p, "x", x);
  ic_builder_op *op = mu_op(&p, k_ops[rc->kind], "Out");
  ic_builder_in(op, "X", "x");
  if (rc->dim) ic_builder_attr_ints(op, "dim", rc->n_dim, rc->dim);
  ic_builder_attr_bool(op, "keep_dim", rc->keep_dim);
  ic_builder_attr_bool(op, "reduce_all", rc->reduce_all);
  if (rc->out_dtype != NO_ATTR) {
    ic_builder_attr_int(op, "in_dtype", -1);
    ic_builder_attr_int(op, "out_dtype", rc->out_dtype);
  }
  return mu_run(&p, out, err, 1024);
}

/* Run rc on x, check Out's dtype and dims, and its values against ref_reduce over `mask`. */
static void check_on(const rcase *rc, ic_tensor *x, const bool *mask, ic_dtype odt, int on,
                     const int64_t *od) {
  ic_tensor *out;
  char err[1024];
  ck_assert_msg(run_reduce(rc, x, &out, err) == IC_OK, "%s", err);
  tu_assert_shape(out, odt, on, od);
  bool int_mean = ic_tensor_dtype(x) == IC_INT32 || ic_tensor_dtype(x) == IC_INT64;
  int64_t n;
  double *ref = ref_reduce(x, mask, rc->kind, int_mean, &n);
  double t = ic_tensor_dtype(x) == IC_FP32 || odt == IC_FP32 ? 1e-5 : 1e-12;
  tu_assert_close(out, ref, (size_t)n, t, t);
  free(ref);
  ic_tensor_destroy(out);
}


/* The n_dim and dim fields of an rcase from a literal list. */
#define DIM(...)                                                   \
  sizeof((const int32_t[]){__VA_ARGS__}) / sizeof(int32_t),        \
      (const int32_t[]) { __VA_ARGS__ }
#define MASK(...) ((const bool[]){__VA_ARGS__})

static bool is_int(ic_dtype dt) { return dt == IC_INT32 || dt == IC_INT64; }

/* Every row of the shared table: Out's dtype and dims as written in the row, its values
 * against ref_reduce over the row's mask. Paddle casts X to out_dtype first: a float X summed
 * into an integer Out truncates each element. */
START_TEST(table_cases) {
  for (size_t i = 0; i < CR_N_CASES; i++) {
    const cr_case *c = &cr_cases[i];
    if (c->gpu_only) continue;
    ic_tensor *x = cr_input(c, 11 + i), *out;
    ic_builder *b = cr_program(c, x);
    char err[1024];
    ic_status st = tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("out"), &out, err, sizeof err);
    ck_assert_msg(st == IC_OK, "row %zu (%s): %s", i, cr_types[c->kind], err);
    tu_assert_shape(out, c->odt, c->on, c->od);
    bool trunc_first = (c->xdt == IC_FP32 || c->xdt == IC_FP64) && is_int(c->odt);
    int64_t n;
    double *ref = ref_reduce_t(x, c->mask, c->kind, is_int(c->xdt), trunc_first, &n);
    double t = c->xdt == IC_FP32 || c->odt == IC_FP32 ? 1e-5 : 1e-12;
    tu_assert_close(out, ref, (size_t)n, t, t);
    free(ref);
    ic_tensor_destroy(out);
    ic_tensor_destroy(x);
    ic_builder_destroy(b);
  }
}
END_TEST

/* Integer means truncate toward zero. */
START_TEST(integer_dtypes) {
  rcase rc;
  ic_tensor *x = tu_i32(1, TU_DIMS(3), (const int32_t[]){-4, -5, -6});
  rc = (rcase){MEAN, DIM(0), false, false, NO_ATTR};
  ic_tensor *out;
  char err[1024];
  ck_assert_msg(run_reduce(&rc, x, &out, err) == IC_OK, "%s", err);
  ck_assert_int_eq(*(const int32_t *)ic_tensor_cdata(out), -5);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  x = tu_i32(1, TU_DIMS(2), (const int32_t[]){-4, -3});
  ck_assert_msg(run_reduce(&rc, x, &out, err) == IC_OK, "%s", err);
  ck_assert_int_eq(*(const int32_t *)ic_tensor_cdata(out), -3); /* -3.5 truncated */
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(out_dtype_casts_first) {
  /* Paddle casts X to out_dtype before summing: 1.5 + 2.7 + -0.9 in int64 is 1 + 2 + 0 */
  ic_tensor *x = tu_f32(1, TU_DIMS(3), (const float[]){1.5f, 2.7f, -0.9f}), *out;
  rcase rc = {SUM, DIM(0), false, false, IC_INT64};
  char err[1024];
  ck_assert_msg(run_reduce(&rc, x, &out, err) == IC_OK, "%s", err);
  tu_assert_shape(out, IC_INT64, 0, NULL);
  ck_assert_int_eq(*(const int64_t *)ic_tensor_cdata(out), 3);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  /* and float64 -> float32 rounds each element first: 100000001 becomes 1e8, so the sum is
   * 0, where summing in double and rounding at the end would give 1 */
  x = tu_f64(1, TU_DIMS(2), (const double[]){100000001.0, -100000000.0});
  rc.out_dtype = IC_FP32;
  ck_assert_msg(run_reduce(&rc, x, &out, err) == IC_OK, "%s", err);
  tu_assert_shape(out, IC_FP32, 0, NULL);
  ck_assert(*(const float *)ic_tensor_cdata(out) == 0.0f);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  /* int64 sums wrap */
  x = tu_i64(1, TU_DIMS(2), (const int64_t[]){INT64_MAX, 2});
  rc.out_dtype = NO_ATTR;
  ck_assert_msg(run_reduce(&rc, x, &out, err) == IC_OK, "%s", err);
  ck_assert(*(const int64_t *)ic_tensor_cdata(out) == INT64_MIN + 1);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(empty_and_nan) {
  rcase rc;
  /* max propagates NaN, wherever it sits */
  ic_tensor *x = tu_f32(2, TU_DIMS(3, 3), (const float[]){NAN, 1, 2, 3, NAN, 4, 5, 6, 7});
  rc = (rcase){MAX, DIM(1), false, false, NO_ATTR};
  check_on(&rc, x, MASK(0, 1), IC_FP32, 1, TU_DIMS(3));
  rc = (rcase){MAX, DIM(0), false, false, NO_ATTR};
  check_on(&rc, x, MASK(1, 0), IC_FP32, 1, TU_DIMS(3));
  ic_tensor_destroy(x);
  /* -inf everywhere is a valid max */
  x = tu_f64(1, TU_DIMS(2), (const double[]){-INFINITY, -INFINITY});
  check_on(&rc, x, MASK(1), IC_FP64, 0, NULL);
  ic_tensor_destroy(x);
}
END_TEST

START_TEST(reduce_bad_inputs) {
  ic_tensor *x = mu_rand(IC_FP32, 2, TU_DIMS(2, 3), 1), *out;
  char err[1024];
  for (int kind = SUM; kind <= MAX; kind++) {
    rcase rc = {kind, DIM(2), false, false, NO_ATTR};
    ck_assert_int_eq(run_reduce(&rc, x, &out, err), IC_ERR_SHAPE);
    tu_assert_msg(err, k_ops[kind], "X 'x'", "float32[2, 3]", "'dim'", "2", "[-2, 2)", NULL);
    ck_assert_ptr_null(out);
    rc = (rcase){kind, DIM(0, -2), false, false, NO_ATTR};
    ck_assert_int_eq(run_reduce(&rc, x, &out, err), IC_ERR_SHAPE);
    tu_assert_msg(err, "X 'x'", "axis 0 twice", NULL);
  }
  ic_tensor *s = mu_rand(IC_FP32, 0, NULL, 1);
  rcase rc = {SUM, DIM(1), false, false, NO_ATTR};
  ck_assert_int_eq(run_reduce(&rc, s, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "0 or -1", NULL);
  ic_tensor_destroy(s);
  /* max over an empty axis */
  ic_tensor *e = mu_rand(IC_FP32, 2, TU_DIMS(2, 0), 1);
  rc = (rcase){MAX, DIM(1), false, false, NO_ATTR};
  ck_assert_int_eq(run_reduce(&rc, e, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "axis 1", "empty", NULL);
  ic_tensor_destroy(e);
  /* out_dtype float16 is Paddle's but not icore's; 99 is nobody's */
  rc = (rcase){SUM, DIM(1), false, false, IC_FP16};
  ck_assert_int_eq(run_reduce(&rc, x, &out, err), IC_ERR_UNSUPPORTED);
  tu_assert_msg(err, "out_dtype", "float16", NULL);
  rc.out_dtype = 99;
  ck_assert_int_eq(run_reduce(&rc, x, &out, err), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "out_dtype", "99", NULL);
  /* bool takes sums only */
  ic_tensor *b = mu_rand(IC_BOOL, 1, TU_DIMS(3), 1);
  rc = (rcase){MAX, DIM(0), false, false, NO_ATTR};
  ck_assert_int_eq(run_reduce(&rc, b, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x'", "bool", NULL);
  ic_tensor_destroy(b);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- reduce_min, reduce_prod, reduce_amax, reduce_amin, reduce_any, logsumexp, log_softmax */

/* Op `type` on x with the axis list `dim` under attribute `dim_attr` (NULL list: left out),
 * keep under `keep_attr`. */
static ic_status run_named(const char *type, const char *dim_attr, const char *keep_attr,
                           size_t n_dim, const int32_t *dim, bool keep, ic_tensor *x,
                           ic_tensor **out, char *err) {
  mu_prog p;
  mu_init(&p);
  mu_feed(&p, "x", x);
  ic_builder_op *op = mu_op(&p, type, "Out");
  ic_builder_in(op, "X", "x");
  if (dim) ic_builder_attr_ints(op, dim_attr, n_dim, dim);
  ic_builder_attr_bool(op, keep_attr, keep);
  ic_builder_attr_bool(op, "reduce_all", false);
  return mu_run(&p, out, err, 1024);
}

static const char *const k_new_ops[] = {"reduce_min", "reduce_prod", "reduce_amax",
                                        "reduce_amin", "reduce_any", "reduce_all", "logsumexp"};

static const char *dim_attr_of(const char *type) {
  return strcmp(type, "logsumexp") == 0 ? "axis" : "dim";
}
static const char *keep_attr_of(const char *type) {
  return strcmp(type, "logsumexp") == 0 ? "keepdim" : "keep_dim";
}

/* A bad axis names the op, X and the attribute it came from (logsumexp's is 'axis'). */
START_TEST(new_reduce_bad_axes) {
  ic_tensor *x = mu_rand(IC_FP32, 2, TU_DIMS(2, 3), 1), *out;
  char err[1024], attr[32];
  for (size_t k = 0; k < sizeof k_new_ops / sizeof *k_new_ops; k++) {
    const char *t = k_new_ops[k], *da = dim_attr_of(t), *ka = keep_attr_of(t);
    snprintf(attr, sizeof attr, "'%s'", da);
    ck_assert_int_eq(run_named(t, da, ka, DIM(2), false, x, &out, err), IC_ERR_SHAPE);
    tu_assert_msg(err, t, "X 'x'", "float32[2, 3]", attr, "2", "[-2, 2)", NULL);
    ck_assert_ptr_null(out);
    ck_assert_int_eq(run_named(t, da, ka, DIM(-3), false, x, &out, err), IC_ERR_SHAPE);
    tu_assert_msg(err, t, attr, "-3", "[-2, 2)", NULL);
    ck_assert_int_eq(run_named(t, da, ka, DIM(1, -1), false, x, &out, err), IC_ERR_SHAPE);
    tu_assert_msg(err, t, attr, "axis 1 twice", NULL);
  }
  ic_tensor_destroy(x);
  /* min refuses an empty axis as Paddle's infermeta does */
  ic_tensor *e = mu_rand(IC_FP32, 2, TU_DIMS(2, 0), 1);
  ck_assert_int_eq(run_named("reduce_min", "dim", "keep_dim", DIM(1), false, e, &out, err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "reduce_min", "X 'x'", "min", "axis 1", "empty", NULL);
  ic_tensor_destroy(e);
  /* logsumexp takes floats only; min does not take bool */
  ic_tensor *i = mu_rand(IC_INT32, 1, TU_DIMS(3), 1);
  ck_assert_int_eq(run_named("logsumexp", "axis", "keepdim", DIM(0), false, i, &out, err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "logsumexp", "X 'x'", "int32", NULL);
  ic_tensor_destroy(i);
  ic_tensor *b = mu_rand(IC_BOOL, 1, TU_DIMS(3), 1);
  ck_assert_int_eq(run_named("reduce_min", "dim", "keep_dim", DIM(0), false, b, &out, err),
                   IC_ERR_SHAPE);
  tu_assert_msg(err, "reduce_min", "X 'x'", "bool", NULL);
  ic_tensor_destroy(b);
}
END_TEST

/* Empty reductions: amax/amin 0 (Paddle 3.3.1 gives uninitialized memory), prod 1, any
 * false, all true, logsumexp -inf; the Out shape keeps the non-reduced axis. */
START_TEST(new_reduce_empty) {
  ic_tensor *e = mu_rand(IC_FP32, 2, TU_DIMS(0, 3), 1), *out;
  char err[1024];
  static const struct { const char *type; double v; } want[] = {
      {"reduce_amax", 0}, {"reduce_amin", 0}, {"reduce_prod", 1}, {"reduce_any", 0},
      {"reduce_all", 1}, {"logsumexp", -INFINITY}};
  for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
    const char *t = want[k].type;
    ic_status st = run_named(t, dim_attr_of(t), keep_attr_of(t), DIM(0), false, e, &out, err);
    ck_assert_msg(st == IC_OK, "%s: %s", t, err);
    bool is_bool = strncmp(t, "reduce_a", 8) == 0 && (t[8] == 'n' || t[8] == 'l');
    tu_assert_shape(out, is_bool ? IC_BOOL : IC_FP32, 1, TU_DIMS(3));
    for (int j = 0; j < 3; j++) {
      double v = is_bool ? ((const uint8_t *)ic_tensor_cdata(out))[j]
                         : ((const float *)ic_tensor_cdata(out))[j];
      ck_assert_msg(v == want[k].v, "%s[%d] = %g, expected %g", t, j, v, want[k].v);
    }
    ic_tensor_destroy(out);
  }
  ic_tensor_destroy(e);
}
END_TEST

/* Exact values: int32 products wrap, min of int64 extremes, logsumexp of a +inf max is NaN
 * (inf - inf, as Paddle), of finite values m + log(sum exp(x - m)). */
START_TEST(new_reduce_values) {
  ic_tensor *out;
  char err[1024];
  ic_tensor *x = tu_i32(1, TU_DIMS(3), (const int32_t[]){65536, 65536, 3});
  ck_assert_msg(run_named("reduce_prod", "dim", "keep_dim", DIM(0), false, x, &out, err) ==
                IC_OK, "%s", err);
  tu_assert_shape(out, IC_INT32, 0, NULL);
  ck_assert_int_eq(*(const int32_t *)ic_tensor_cdata(out), 0); /* 3 * 2^32 wraps to 0 */
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  x = tu_i64(2, TU_DIMS(2, 2), (const int64_t[]){INT64_MAX, 5, INT64_MIN, 7});
  ck_assert_msg(run_named("reduce_min", "dim", "keep_dim", DIM(0), true, x, &out, err) ==
                IC_OK, "%s", err);
  tu_assert_shape(out, IC_INT64, 2, TU_DIMS(1, 2));
  ck_assert(((const int64_t *)ic_tensor_cdata(out))[0] == INT64_MIN);
  ck_assert(((const int64_t *)ic_tensor_cdata(out))[1] == 5);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  x = tu_f64(2, TU_DIMS(2, 2), (const double[]){INFINITY, 1.0, 1000.0, 1000.0});
  ck_assert_msg(run_named("logsumexp", "axis", "keepdim", DIM(-1), false, x, &out, err) ==
                IC_OK, "%s", err);
  tu_assert_shape(out, IC_FP64, 1, TU_DIMS(2));
  ck_assert(isnan(((const double *)ic_tensor_cdata(out))[0]));
  ck_assert_double_eq_tol(((const double *)ic_tensor_cdata(out))[1], 1000.0 + log(2.0), 1e-12);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
}
END_TEST

/* log_softmax: a bad axis names the op and 'axis'; -inf logits give -64 - log(sum) as
 * Paddle's clip does; rank 0 gives 0. */
START_TEST(log_softmax_cases) {
  ic_tensor *out;
  char err[1024];
  ic_tensor *x = tu_f32(2, TU_DIMS(2, 2), (const float[]){0.0f, -INFINITY, 1.0f, 1.0f});
  for (int axis = -3; axis <= 2; axis += 5) {
    mu_prog p;
    mu_init(&p);
    mu_feed(&p, "x", x);
    ic_builder_op *op = mu_op(&p, "log_softmax", "Out");
    ic_builder_in(op, "X", "x");
    ic_builder_attr_int(op, "axis", axis);
    ck_assert_int_eq(mu_run(&p, &out, err, sizeof err), IC_ERR_SHAPE);
    tu_assert_msg(err, "log_softmax", "X 'x'", "'axis'", axis < 0 ? "-3" : "2", "[-2, 2)", NULL);
  }
  mu_prog p;
  mu_init(&p);
  mu_feed(&p, "x", x);
  ic_builder_op *op = mu_op(&p, "log_softmax", "Out");
  ic_builder_in(op, "X", "x");
  ck_assert_msg(mu_run(&p, &out, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(out, IC_FP32, 2, TU_DIMS(2, 2));
  const float *y = ic_tensor_cdata(out);
  double ls = log(1.0 + exp(-64.0));
  ck_assert_double_eq_tol(y[0], -ls, 1e-6);
  ck_assert_double_eq_tol(y[1], -64.0 - ls, 1e-5);
  ck_assert_double_eq_tol(y[2], -log(2.0), 1e-6);
  ck_assert_double_eq_tol(y[3], -log(2.0), 1e-6);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  x = tu_f64(0, NULL, (const double[]){3.5});
  mu_init(&p);
  mu_feed(&p, "x", x);
  op = mu_op(&p, "log_softmax", "Out");
  ic_builder_in(op, "X", "x");
  ck_assert_msg(mu_run(&p, &out, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(out, IC_FP64, 0, NULL);
  ck_assert(*(const double *)ic_tensor_cdata(out) == 0.0);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- mean ------------------------------------------------------------------------------- */

static ic_status run_mean(ic_tensor *x, ic_tensor **out, char *err) {
  mu_prog p;
  mu_init(&p);
  mu_feed(&p, "x", x);
  ic_builder_op *op = mu_op(&p, "mean", "Out");
  ic_builder_in(op, "X", "x");
  return mu_run(&p, out, err, 1024);
}

START_TEST(mean_all) {
  static const bool all[IC_MAX_RANK] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  for (size_t i = 0; i < CM_N_CASES; i++) {
    for (int dt = 0; dt < 2; dt++) {
      ic_tensor *x = mu_rand(dt ? IC_FP64 : IC_FP32, cm_cases[i].nd, cm_cases[i].dims, 3 + i);
      ic_tensor *out;
      char err[1024];
      ck_assert_msg(run_mean(x, &out, err) == IC_OK, "%s", err);
      tu_assert_shape(out, ic_tensor_dtype(x), 0, NULL); /* rank 0 in Paddle >= 2.5 */
      int64_t n;
      double *ref = ref_reduce(x, all, MEAN, false, &n);
      tu_assert_close(out, ref, 1, 1e-6, 1e-6); /* NaN for the empty one */
      free(ref);
      ic_tensor_destroy(out);
      ic_tensor_destroy(x);
    }
  }
  /* Paddle has no integer mean kernel */
  ic_tensor *x = mu_rand(IC_INT32, 1, TU_DIMS(3), 1), *out;
  char err[1024];
  ck_assert_int_eq(run_mean(x, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "mean", "X 'x'", "int32[3]", "float32 or float64", NULL);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- sum ---------------------------------------------------------------------------------- */

static ic_status run_sum(size_t n, ic_tensor *const *xs, ic_tensor **out, char *err) {
  char names[CSUM_MAX][24];
  const char *np[CSUM_MAX];
  ic_builder *b = ic_builder_create();
  for (size_t i = 0; i < n; i++) {
    snprintf(names[i], sizeof names[i], "x%zu", i);
    np[i] = names[i];
    ew_feed(b, np[i], xs[i]);
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, "sum");
  ic_builder_input(op, "X", n, np);
  ic_builder_out(op, "Out", "out");
  ic_builder_attr_bool(op, "use_mkldnn", false);
  ew_fetch(b, "out", ic_tensor_dtype(xs[0]));
  ic_status st = tu_run(b, n, np, xs, 1, TU_NAMES("out"), out, err, 1024);
  ic_builder_destroy(b);
  return st;
}

START_TEST(sum_inputs) {
  const ic_dtype dts[] = {IC_FP32, IC_FP64, IC_INT32, IC_INT64};
  for (size_t d = 0; d < 4; d++) {
    for (size_t c = 0; c < CSUM_N_COUNTS; c++) {
      const size_t n = csum_counts[c];
      ic_tensor *xs[CSUM_MAX];
      for (size_t i = 0; i < n; i++) xs[i] = mu_rand(dts[d], 3, TU_DIMS(3, 1, 7), 700 + i);
      ic_tensor *out;
      char err[1024];
      ck_assert_msg(run_sum(n, xs, &out, err) == IC_OK, "%s", err);
      tu_assert_shape(out, dts[d], 3, TU_DIMS(3, 1, 7));
      double ref[21] = {0};
      for (size_t i = 0; i < n; i++) {
        double *v = mu_f64(xs[i]);
        for (int k = 0; k < 21; k++) ref[k] += v[k];
        free(v);
      }
      tu_assert_close(out, ref, 21, 1e-6, 1e-6 * (double)n); /* float adds in float */
      ic_tensor_destroy(out);
      for (size_t i = 0; i < n; i++) ic_tensor_destroy(xs[i]);
    }
  }
  /* fp32 adds in float, left to right, as Paddle does: (1 + 2^-24) + 2^-24 stays 1 */
  ic_tensor *xs[3] = {tu_f32(0, NULL, (const float[]){1.0f}),
                      tu_f32(0, NULL, (const float[]){0x1p-24f}),
                      tu_f32(0, NULL, (const float[]){0x1p-24f})};
  ic_tensor *out;
  char err[1024];
  ck_assert_msg(run_sum(3, xs, &out, err) == IC_OK, "%s", err);
  tu_assert_shape(out, IC_FP32, 0, NULL);
  ck_assert(*(const float *)ic_tensor_cdata(out) == 1.0f);
  ic_tensor_destroy(out);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(xs[i]);
  /* empty inputs */
  ic_tensor *e[2] = {mu_rand(IC_FP32, 2, TU_DIMS(0, 3), 1), mu_rand(IC_FP32, 2, TU_DIMS(0, 3), 2)};
  ck_assert_msg(run_sum(2, e, &out, err) == IC_OK, "%s", err);
  tu_assert_shape(out, IC_FP32, 2, TU_DIMS(0, 3));
  ic_tensor_destroy(out);
  ic_tensor_destroy(e[0]);
  ic_tensor_destroy(e[1]);
}
END_TEST

START_TEST(sum_bad_inputs) {
  ic_tensor *xs[3] = {mu_rand(IC_FP32, 2, TU_DIMS(2, 3), 1), mu_rand(IC_FP32, 2, TU_DIMS(2, 3), 2),
                      mu_rand(IC_FP32, 2, TU_DIMS(1, 3), 3)};
  ic_tensor *out;
  char err[1024];
  /* no broadcasting */
  ck_assert_int_eq(run_sum(3, xs, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "sum", "X 'x2'", "float32[1, 3]", "float32[2, 3]", "'x0'", NULL);
  ck_assert_ptr_null(out);
  ic_tensor_destroy(xs[2]);
  xs[2] = mu_rand(IC_FP64, 2, TU_DIMS(2, 3), 3);
  ck_assert_int_eq(run_sum(3, xs, &out, err), IC_ERR_SHAPE);
  tu_assert_msg(err, "X 'x2'", "float64[2, 3]", NULL);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(xs[i]);
}
END_TEST

static TCase *tc_reduce(void) {
  TCase *tc = tcase_create("reduce");
  tcase_add_test(tc, table_cases);
  tcase_add_test(tc, integer_dtypes);
  tcase_add_test(tc, out_dtype_casts_first);
  tcase_add_test(tc, empty_and_nan);
  tcase_add_test(tc, reduce_bad_inputs);
  tcase_add_test(tc, new_reduce_bad_axes);
  tcase_add_test(tc, new_reduce_empty);
  tcase_add_test(tc, new_reduce_values);
  tcase_add_test(tc, log_softmax_cases);
  return tc;
}

static TCase *tc_mean_sum(void) {
  TCase *tc = tcase_create("mean_sum");
  tcase_add_test(tc, mean_all);
  tcase_add_test(tc, sum_inputs);
  tcase_add_test(tc, sum_bad_inputs);
  return tc;
}

TU_MAIN("ops_reduce", tc_reduce, tc_mean_sum)
