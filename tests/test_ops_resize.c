/* The resize ops (nearest_interp, bilinear_interp, nearest/bilinear/linear/bicubic/
 * trilinear_interp_v2) against a double-precision reference written from Paddle's
 * definition (see src/kernels/cpu/interp.c): output size by precedence (SizeTensor, OutSize,
 * Scale tensor, scale attribute, out_* attributes), ratio in float as Paddle computes it,
 * then interpolation weights and sums in double. Every case runs in every executor
 * configuration (tu_run) for float32 and float64: the shared case table cases_resize.h,
 * which the CUDA suite runs too, plus other dtypes and errors. The oracle cases interp_* in
 * test_paddle_oracle check the same against Paddle 3.3.1 itself. */
#include <math.h>

#include "cases_resize.h"
#include "optest.h"

typedef cz_case rcase;

static bool is_v2(const rcase *k) { return strstr(k->op, "_v2") != NULL; }

/* The output sizes and float ratios, as interp.c documents them. */
static void sizes(const rcase *k, int64_t *out, float *ratio) {
  float sc[3] = {-1, -1, -1};
  bool have = false;
  for (int i = 0; i < k->nd; i++) out[i] = k->out_attr[i] ? k->out_attr[i] : -1;
  if (k->n_sizet) {
    for (int i = 0; i < k->nd; i++) out[i] = k->sizet[i];
  } else {
    if (k->n_scalet) {
      for (int i = 0; i < k->nd; i++) sc[i] = k->scalet[is_v2(k) && k->n_scalet > 1 ? i : 0];
      have = true;
    } else if (is_v2(k) && (k->nd == 1 ? k->n_scale > 0 : k->n_scale > 1)) {
      for (int i = 0; i < k->nd; i++) sc[i] = k->scale[i];
      have = true;
    } else if (!is_v2(k) && k->n_scale && k->scale[0] > 0) {
      for (int i = 0; i < k->nd; i++) sc[i] = k->scale[0];
      have = true;
    }
    if (have) {
      for (int i = 0; i < k->nd; i++) out[i] = (int64_t)((float)k->in[i] * sc[i]);
    }
    if (k->n_outsize) {
      for (int i = 0; i < k->nd; i++) out[i] = k->outsize[i];
    }
  }
  for (int i = 0; i < k->nd; i++) {
    ratio[i] = 0;
    if (out[i] > 1) {
      ratio[i] = k->align_corners ? (float)(k->in[i] - 1) / (float)(out[i] - 1)
                 : sc[i] > 0      ? (float)(1.0 / sc[i])
                                  : (float)k->in[i] / (float)out[i];
    }
  }
}

static int64_t clampi(int64_t v, int64_t n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

static double keys(double t) { /* cubic convolution kernel, A = -0.75 */
  const double A = -0.75;
  t = fabs(t);
  if (t <= 1) return ((A + 2) * t - (A + 3)) * t * t + 1;
  if (t < 2) return ((A * t - 5 * A) * t + 8 * A) * t - 4 * A;
  return 0;
}

/* Source index and weight lists along one axis for output index o: up to 4 taps. */
static int taps(const rcase *k, const char *method, int ax, int64_t o, float ratio,
                int64_t *idx, double *w) {
  const int64_t in = k->in[ax];
  if (!strcmp(method, "nearest")) {
    double s = k->align_corners ? (double)(ratio * (float)o) + 0.5 : (double)(ratio * (float)o);
    idx[0] = clampi((int64_t)s, in);
    w[0] = 1;
    return 1;
  }
  if (!strcmp(method, "bicubic")) {
    double s = k->align_corners ? (double)(ratio * (float)o) : ratio * (o + 0.5) - 0.5;
    double f = floor(s);
    for (int q = 0; q < 4; q++) {
      idx[q] = clampi((int64_t)f - 1 + q, in);
      w[q] = keys(s - (f - 1 + q));
    }
    return 4;
  }
  bool half = k->align_mode == 0 && !k->align_corners;
  double s = half ? ratio * (o + 0.5) - 0.5 : (double)(ratio * (float)o);
  if (s < 0) s = 0;
  int64_t lo = (int64_t)s;
  if (lo > in - 1) lo = in - 1;
  double d = s - (double)lo;
  idx[0] = lo;
  idx[1] = lo + 1 < in ? lo + 1 : in - 1;
  w[0] = 1 - d;
  w[1] = d;
  return 2;
}

static const char *method_of(const rcase *k) {
  if (k->method) return k->method;
  if (strstr(k->op, "nearest")) return "nearest";
  if (strstr(k->op, "bilinear")) return "bilinear";
  if (strstr(k->op, "trilinear")) return "trilinear";
  if (strstr(k->op, "bicubic")) return "bicubic";
  return "linear";
}

/* The reference output (dims in od) for input x (logical layout as fed). */
static double *reference(const rcase *k, const double *x, int64_t *od) {
  int64_t out[3];
  float ratio[3];
  sizes(k, out, ratio);
  const char *m = method_of(k);
  const int nd = k->nd;
  int64_t total = k->n * k->c;
  for (int i = 0; i < nd; i++) total *= out[i];
  od[0] = k->n;
  od[k->nhwc ? nd + 1 : 1] = k->c;
  for (int i = 0; i < nd; i++) od[(k->nhwc ? 1 : 2) + i] = out[i];
  double *y = malloc((size_t)total * sizeof *y);
  bool same = true;
  for (int i = 0; i < nd; i++) same = same && out[i] == k->in[i];
  int64_t xd[5], yi[5];
  xd[0] = k->n;
  xd[k->nhwc ? nd + 1 : 1] = k->c;
  for (int i = 0; i < nd; i++) xd[(k->nhwc ? 1 : 2) + i] = k->in[i];
  for (int64_t e = 0; e < total; e++) {
    ot_unravel(e, nd + 2, od, yi);
    if (same) {
      y[e] = x[e];
      continue;
    }
    int64_t n = yi[0], ch = yi[k->nhwc ? nd + 1 : 1], o[3];
    for (int i = 0; i < nd; i++) o[i] = yi[(k->nhwc ? 1 : 2) + i];
    int64_t idx[3][4];
    double w[3][4];
    int nt[3] = {1, 1, 1};
    for (int i = 0; i < nd; i++) nt[i] = taps(k, m, i, o[i], ratio[i], idx[i], w[i]);
    double s = 0;
    for (int a = 0; a < nt[0]; a++)
      for (int b = 0; b < (nd > 1 ? nt[1] : 1); b++)
        for (int c = 0; c < (nd > 2 ? nt[2] : 1); c++) {
          int64_t xi[5];
          xi[0] = n;
          xi[k->nhwc ? nd + 1 : 1] = ch;
          const int t[3] = {a, b, c};
          double wt = 1;
          for (int i = 0; i < nd; i++) {
            xi[(k->nhwc ? 1 : 2) + i] = idx[i][t[i]];
            wt *= w[i][t[i]];
          }
          s += wt * x[ot_ravel(nd + 2, xd, xi)];
        }
    y[e] = s;
  }
  return y;
}

static void add_op(optest *t, const rcase *k) {
  ot_op(t, k->op);
  ic_builder_in(t->op, "X", "x");
  if (k->method) ic_builder_attr_string(t->op, "interp_method", k->method);
  ic_builder_attr_string(t->op, "data_layout",
                         k->nhwc ? (k->nd == 3 ? "NDHWC" : "NHWC") : "NCHW");
  ic_builder_attr_bool(t->op, "align_corners", k->align_corners);
  ic_builder_attr_int(t->op, "align_mode", k->align_mode);
  static const char *const names[3] = {"out_d", "out_h", "out_w"};
  for (int i = 0; i < k->nd; i++) {
    ic_builder_attr_int(t->op, names[3 - k->nd + i], k->out_attr[i] ? (int32_t)k->out_attr[i] : -1);
  }
  if (is_v2(k)) {
    ic_builder_attr_floats(t->op, "scale", (size_t)k->n_scale, k->scale);
  } else if (k->n_scale) {
    ic_builder_attr_float(t->op, "scale", k->scale[0]);
  }
  if (k->n_outsize) ic_builder_in(t->op, "OutSize", "osz");
  if (k->n_scalet) ic_builder_in(t->op, "Scale", "sct");
  if (k->n_sizet) {
    static const char *const st[3] = {"st0", "st1", "st2"};
    ic_builder_input(t->op, "SizeTensor", (size_t)k->n_sizet, st);
  }
}

static void feed_inputs(optest *t, const rcase *k, ic_tensor *x) {
  ot_feed(t, "x", x);
  if (k->n_outsize) {
    int64_t d = k->n_outsize;
    ic_tensor *o;
    ck_assert_int_eq(ic_tensor_create(IC_INT32, 1, &d, &o), IC_OK);
    memcpy(ic_tensor_data(o), k->outsize, (size_t)d * sizeof(int32_t));
    ot_feed(t, "osz", o);
  }
  if (k->n_scalet) ot_feed(t, "sct", tu_f32(1, TU_DIMS(k->n_scalet), k->scalet));
  static const char *const st[3] = {"st0", "st1", "st2"};
  for (int i = 0; i < k->n_sizet; i++) {
    ic_tensor *s;
    ck_assert_int_eq(ic_tensor_create(IC_INT32, 1, TU_DIMS(1), &s), IC_OK);
    ((int32_t *)ic_tensor_data(s))[0] = k->sizet[i];
    ot_feed(t, st[i], s);
  }
}

static void run_case(const rcase *k, ic_dtype dt) {
  ic_tensor *x = cz_x(k, dt);
  int64_t nx = ic_tensor_numel(x);
  double *xv = malloc((size_t)nx * sizeof *xv);
  for (int64_t i = 0; i < nx; i++) xv[i] = ew_at(x, i);
  int64_t od[5];
  double *ref = reference(k, xv, od);
  cz_inputs in;
  ic_builder *b = cz_program(k, x, &in);
  ic_tensor *out[1];
  char err[1024];
  ic_status st = tu_run(b, in.n, in.names, in.t, 1, TU_NAMES("y"), out, err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s: %s", k->op, err);
  tu_assert_shape(out[0], dt, k->nd + 2, od);
  tu_assert_close(out[0], ref, (size_t)ot_numel(k->nd + 2, od), dt == IC_FP64 ? 1e-6 : 1e-5,
                  dt == IC_FP64 ? 1e-6 : 1e-5);
  free(ref);
  free(xv);
  ic_tensor_destroy(out[0]);
  cz_inputs_free(&in);
  ic_builder_destroy(b);
}

static void run_both(const rcase *k) {
  run_case(k, IC_FP32);
  run_case(k, IC_FP64);
}

/* Every case of the shared table (but the one sized for the GPU's grid). */
START_TEST(table_cases) {
  for (size_t i = 0; i < CZ_N_CASES; i++) {
    if (!cz_cases[i].large) run_both(&cz_cases[i]);
  }
}
END_TEST

START_TEST(nearest_other_dtypes) {
  /* nearest moves elements of any dtype */
  ic_dtype dts[] = {IC_INT32, IC_INT64, IC_UINT8, IC_FP16};
  for (size_t d = 0; d < 4; d++) {
    ic_tensor *x = ot_iota(dts[d], 4, TU_DIMS(1, 2, 3, 4), 5);
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", x);
    ot_op(&t, "nearest_interp_v2");
    ic_builder_in(t.op, "X", "x");
    ic_builder_attr_int(t.op, "out_h", 5);
    ic_builder_attr_int(t.op, "out_w", 2);
    ic_builder_attr_bool(t.op, "align_corners", false);
    ot_out(&t, "Out", "y");
    ot_ok(&t);
    int64_t src[20], k = 0;
    for (int c = 0; c < 2; c++)
      for (int i = 0; i < 5; i++)
        for (int j = 0; j < 2; j++) {
          int64_t si = (int64_t)((float)(3.0f / 5.0f) * (float)i);
          int64_t sj = (int64_t)((float)(4.0f / 2.0f) * (float)j);
          src[k++] = (c * 3 + si) * 4 + sj;
        }
    ot_check_gather(t.out[0], x, src, 20);
    ot_end(&t);
  }
}
END_TEST

/* A resize that must fail, with the words its message must hold. */
static void bad(const rcase *k, ic_dtype dt, int nd_x, ic_status want, const char *w1,
                const char *w2) {
  int64_t xd[5] = {1, 2, 4, 5, 3};
  ic_tensor *x = dt == IC_INT32 ? ot_iota(IC_INT32, nd_x, xd, 1) : tu_rand_f32(nd_x, xd, 1, -1, 1);
  optest t;
  ot_begin(&t);
  feed_inputs(&t, k, x);
  add_op(&t, k);
  ot_out(&t, "Out", "y");
  ck_assert_int_eq(ot_run(&t), want);
  tu_assert_msg(t.err, k->op, w1, w2, NULL);
  ot_end(&t);
}

START_TEST(errors) {
  /* rank: bilinear takes 4-D */
  bad(&(rcase){"bilinear_interp_v2", "bilinear", 2, .out_attr = {3, 3}}, IC_FP32, 3,
      IC_ERR_SHAPE, "input X 'x'", "expected rank 4");
  bad(&(rcase){"linear_interp_v2", "linear", 1, .out_attr = {3}}, IC_FP32, 4, IC_ERR_SHAPE,
      "'x'", "expected rank 3");
  /* no size at all, and a zero size */
  bad(&(rcase){"bilinear_interp_v2", "bilinear", 2, .n = 1}, IC_FP32, 4, IC_ERR_SHAPE, "out_h = -1",
      "expected a size > 0");
  bad(&(rcase){"nearest_interp_v2", "nearest", 2, .n_outsize = 2, .outsize = {0, 3}}, IC_FP32, 4,
      IC_ERR_SHAPE, "out_h = 0", "OutSize");
  /* a non-positive scale, in the attribute and in the tensor */
  bad(&(rcase){"bilinear_interp_v2", "bilinear", 2, .n_scale = 2, .scale = {2, -1}}, IC_FP32, 4,
      IC_ERR_INVALID_PROGRAM, "'scale'", "expected > 0");
  bad(&(rcase){"bilinear_interp_v2", "bilinear", 2, .n_scalet = 1, .scalet = {0}}, IC_FP32, 4,
      IC_ERR_SHAPE, "input Scale 'sct'", "expected > 0");
  /* OutSize and SizeTensor of the wrong length */
  bad(&(rcase){"nearest_interp_v2", "nearest", 2, .n_outsize = 3, .outsize = {2, 2, 2}}, IC_FP32,
      4, IC_ERR_SHAPE, "input OutSize 'osz'", "expected 2 int32 values");
  bad(&(rcase){"nearest_interp_v2", "nearest", 2, .n_sizet = 1, .sizet = {2}}, IC_FP32, 4,
      IC_ERR_SHAPE, "SizeTensor", "expected 2");
  /* attributes */
  bad(&(rcase){"bilinear_interp_v2", "area", 2, .out_attr = {3, 3}}, IC_FP32, 4,
      IC_ERR_INVALID_PROGRAM, "'interp_method'", "area");
  bad(&(rcase){"bilinear_interp", "bicubic", 2, .out_attr = {3, 3}}, IC_FP32, 4,
      IC_ERR_INVALID_PROGRAM, "'interp_method'", "nearest or bilinear");
  bad(&(rcase){"bilinear_interp_v2", "bilinear", 2, .out_attr = {3, 3}, .align_mode = 2}, IC_FP32,
      4, IC_ERR_INVALID_PROGRAM, "'align_mode'", "0 or 1");
  /* bilinear of integers */
  bad(&(rcase){"bilinear_interp_v2", "bilinear", 2, .out_attr = {3, 3}}, IC_INT32, 4,
      IC_ERR_SHAPE, "'x'", "float32 or float64");
  /* a data_layout Paddle does not know */
  {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", tu_rand_f32(4, TU_DIMS(1, 2, 3, 3), 1, -1, 1));
    ot_op(&t, "nearest_interp_v2");
    ic_builder_in(t.op, "X", "x");
    ic_builder_attr_string(t.op, "data_layout", "NCWH");
    ic_builder_attr_int(t.op, "out_h", 2);
    ic_builder_attr_int(t.op, "out_w", 2);
    ot_out(&t, "Out", "y");
    ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
    tu_assert_msg(t.err, "nearest_interp_v2", "'data_layout'", "NCWH", NULL);
    ot_end(&t);
  }
}
END_TEST

static TCase *tc_resize(void) {
  TCase *tc = tcase_create("resize");
  tcase_add_test(tc, table_cases);
  tcase_add_test(tc, nearest_other_dtypes);
  tcase_add_test(tc, errors);
  return tc;
}

TU_MAIN("ops_resize", tc_resize)
