/* pool2d against a plain-loop reference in double precision over the shared case table of
 * cases_conv.h (the CUDA suite runs the same), plus cases checked against PaddlePaddle 3.3.1
 * itself where Paddle's kernel does something surprising. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plan.h"
#include "interp/interp.h"
#include "cases_conv.h"
#include "testutil.h"

typedef cp_case pool_case;

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* Paddle's pool2d as documented in pooling.cc / pool_kernel_impl.h, written independently:
 * output sizes from both paddings, windows from the begin paddings only. With outf, also in
 * float32 in Paddle's order (window rows, then columns, from 0 or -FLT_MAX; the float sum
 * divided by the float divisor): the bits icore's float32 kernel must give. */
static void reference(const pool_case *k, const double *x, double **out, float **outf,
                      int64_t od[4]) {
  bool max = !strcmp(k->type, "max");
  bool excl = k->exclusive_set ? k->exclusive : true;
  int64_t H = k->h, W = k->w, kh = k->kh, kw = k->kw;
  int64_t sh = k->sh ? k->sh : 1, sw = k->sw ? k->sw : 1;
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;
  if (k->npads == 2) {
    pt = pb = k->pads[0];
    pl = pr = k->pads[1];
  } else if (k->npads == 4) {
    pt = k->pads[0];
    pb = k->pads[1];
    pl = k->pads[2];
    pr = k->pads[3];
  }
  if (k->algo && !strcmp(k->algo, "SAME")) {
    int64_t oh = (H + sh - 1) / sh, ow = (W + sw - 1) / sw;
    int64_t th = (oh - 1) * sh + kh - H, tw = (ow - 1) * sw + kw - W;
    if (th < 0) th = 0;
    if (tw < 0) tw = 0;
    pt = th / 2;
    pb = th - pt;
    pl = tw / 2;
    pr = tw - pl;
  } else if (k->algo && !strcmp(k->algo, "VALID")) {
    pt = pb = pl = pr = 0;
  }
  if (k->global || k->adaptive) pt = pb = pl = pr = 0;
  if (k->global) {
    kh = H;
    kw = W;
  }
  int64_t oh, ow;
  if (k->adaptive) {
    oh = kh;
    ow = kw;
  } else {
    oh = (H - kh + pt + pb + (k->ceil_mode ? sh - 1 : 0)) / sh + 1;
    ow = (W - kw + pl + pr + (k->ceil_mode ? sw - 1 : 0)) / sw + 1;
  }
  od[0] = k->n;
  od[1] = k->nhwc ? oh : k->c;
  od[2] = k->nhwc ? ow : oh;
  od[3] = k->nhwc ? k->c : ow;
  double *y = calloc((size_t)(k->n * k->c * oh * ow) + 1, sizeof *y);
  float *yf = calloc((size_t)(k->n * k->c * oh * ow) + 1, sizeof *yf);
  for (int64_t n = 0; n < k->n; n++) {
    for (int64_t c = 0; c < k->c; c++) {
      for (int64_t i = 0; i < oh; i++) {
        for (int64_t j = 0; j < ow; j++) {
          int64_t h0, h1, w0, w1;
          double div;
          if (k->adaptive && !max) {
            h0 = (int64_t)floor((double)(i * H) / (double)oh);
            h1 = (int64_t)ceil((double)((i + 1) * H) / (double)oh);
            w0 = (int64_t)floor((double)(j * W) / (double)ow);
            w1 = (int64_t)ceil((double)((j + 1) * W) / (double)ow);
            div = (double)((h1 - h0) * (w1 - w0));
          } else {
            /* Paddle's max kernel ignores adaptive (windows of ksize at the strides) */
            h0 = i * sh - pt;
            w0 = j * sw - pl;
            h1 = h0 + kh < H + pt ? h0 + kh : H + pt;
            w1 = w0 + kw < W + pl ? w0 + kw : W + pl;
            double with_pad = (double)((h1 - h0) * (w1 - w0));
            h0 = h0 < 0 ? 0 : h0;
            w0 = w0 < 0 ? 0 : w0;
            h1 = h1 > H ? H : h1;
            w1 = w1 > W ? W : w1;
            div = excl ? (double)((h1 - h0) * (w1 - w0)) : with_pad;
          }
          double acc = max ? -FLT_MAX : 0;
          float facc = max ? -FLT_MAX : 0.0f;
          for (int64_t a = h0; a < h1; a++) {
            for (int64_t b = w0; b < w1; b++) {
              double v = k->nhwc ? x[((n * H + a) * W + b) * k->c + c]
                                 : x[((n * k->c + c) * H + a) * W + b];
              acc = max ? (v > acc ? v : acc) : acc + v;
              facc = max ? (facc > (float)v ? facc : (float)v) : facc + (float)v;
            }
          }
          if (!max) acc /= div;
          if (!max) facc /= (float)div;
          if (H == 0 || W == 0) acc = NAN; /* Paddle fills the output of an empty input */
          size_t yi = (size_t)(k->nhwc ? ((n * oh + i) * ow + j) * k->c + c
                                       : ((n * k->c + c) * oh + i) * ow + j);
          y[yi] = acc;
          yf[yi] = (H == 0 || W == 0) ? NAN : facc;
        }
      }
    }
  }
  *out = y;
  if (outf) *outf = yf;
  else free(yf);
}

static ic_builder *pool_program(const pool_case *k, const int64_t *xd) {
  ic_dtype dt = k->f64 ? IC_FP64 : IC_FP32;
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", dt, 4, xd);
  tu_var(b, "y", dt, 4, TU_DIMS(-1, -1, -1, -1));
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "pool2d");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_string(op, "pooling_type", k->type);
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){k->kh, k->kw});
  if (k->sh) ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){k->sh, k->sw});
  if (k->npads) ic_builder_attr_ints(op, "paddings", (size_t)k->npads, k->pads);
  if (k->exclusive_set) ic_builder_attr_bool(op, "exclusive", k->exclusive);
  ic_builder_attr_bool(op, "ceil_mode", k->ceil_mode);
  ic_builder_attr_bool(op, "global_pooling", k->global);
  ic_builder_attr_bool(op, "adaptive", k->adaptive);
  if (k->algo) ic_builder_attr_string(op, "padding_algorithm", k->algo);
  ic_builder_attr_string(op, "data_format", k->nhwc ? "NHWC" : "NCHW");
  /* bookkeeping Paddle exports, which icore ignores */
  ic_builder_attr_bool(op, "use_cudnn", true);
  ic_builder_attr_bool(op, "is_test", true);
  ic_builder_attr_string(op, "mkldnn_data_type", "float32");
  ic_builder_fetch(b, "y");
  return b;
}

static void run_case(const pool_case *k, uint64_t seed) {
  int64_t xd[4] = {k->n, k->nhwc ? k->h : k->c, k->nhwc ? k->w : k->h, k->nhwc ? k->c : k->w};
  ic_tensor *x;
  ck_assert_int_eq(ic_tensor_create(k->f64 ? IC_FP64 : IC_FP32, 4, xd, &x), IC_OK);
  int64_t nx = ic_tensor_numel(x);
  double *xv = malloc(sizeof(double) * (size_t)(nx + 1));
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 3;
  for (int64_t i = 0; i < nx; i++) {
    double u = -1 + 2 * (double)(rng_next(&s) >> 11) / 9007199254740992.0;
    if (k->f64) ((double *)ic_tensor_data(x))[i] = xv[i] = u;
    else xv[i] = ((float *)ic_tensor_data(x))[i] = (float)u;
  }
  double *ref;
  float *reff;
  int64_t od[4];
  reference(k, xv, &ref, &reff, od);
  ic_builder *b = pool_program(k, xd);
  ic_tensor *out[1];
  char err[1024];
  ic_status st = tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("y"), out, err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s", err);
  tu_assert_shape(out[0], k->f64 ? IC_FP64 : IC_FP32, 4, od);
  size_t ny = (size_t)(od[0] * od[1] * od[2] * od[3]);
  if (k->f64) tu_assert_close(out[0], ref, ny, 1e-12, 1e-12);
  else tu_assert_close(out[0], ref, ny, 1e-5, 1e-6);
  /* float32 gives the bits of Paddle's own loop order, NCHW (icore's loops) and NHWC (oneDNN,
   * or the plain loops) alike */
  if (!k->f64 && !k->nhwc) {
    ck_assert_msg(!memcmp(ic_tensor_cdata(out[0]), reff, sizeof(float) * ny),
                  "%s %lldx%lld over %lldx%lldx%lld: not the bits of Paddle's float32 loop",
                  k->type, (long long)k->kh, (long long)k->kw, (long long)k->c, (long long)k->h,
                  (long long)k->w);
  }
  ic_tensor_destroy(out[0]);
  ic_tensor_destroy(x);
  ic_builder_destroy(b);
  free(xv);
  free(ref);
  free(reff);
}

/* Every case for max and avg (exclusive both ways unless the case fixes it), both
 * layouts, both float types. */
static void run_all(const pool_case *k) {
  for (int v = 0; v < 4; v++) {
    for (int t = 0; t < 3; t++) {
      pool_case c;
      uint64_t seed;
      if (cp_variant(k, v, t, &c, &seed)) run_case(&c, seed);
    }
  }
}

/* Every row of the shared table: max and avg (exclusive both ways unless the row fixes the
 * type), both layouts, both float types. */
START_TEST(table_cases) {
  for (size_t i = 0; i < CP_N_CASES; i++) run_all(&cp_cases[i]);
}
END_TEST

/* Outputs PaddlePaddle 3.3.1 gives (pool2d in a static program, CPU), for the cases where
 * its kernel departs from the obvious. Input: arange(H * W) as one 1-channel image. */
static void check_paddle(const char *type, int h, int w, int kh, int kw, int s, int npads,
                         const int32_t *pads, bool exclusive, bool ceil, bool adaptive,
                         int oh, int ow, const double *want) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 4, TU_DIMS(1, 1, h, w));
  tu_var(b, "y", IC_FP32, 4, TU_DIMS(-1, -1, -1, -1));
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "pool2d");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_string(op, "pooling_type", type);
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){kh, kw});
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){s, s});
  ic_builder_attr_ints(op, "paddings", (size_t)npads, pads);
  ic_builder_attr_bool(op, "exclusive", exclusive);
  ic_builder_attr_bool(op, "ceil_mode", ceil);
  ic_builder_attr_bool(op, "adaptive", adaptive);
  ic_builder_fetch(b, "y");
  ic_tensor *x = tu_f32(4, TU_DIMS(1, 1, h, w), NULL);
  for (int i = 0; i < h * w; i++) ((float *)ic_tensor_data(x))[i] = (float)i;
  ic_tensor *out[1];
  char err[1024];
  ck_assert_msg(tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("y"), out, err, sizeof err) == IC_OK,
                "%s", err);
  tu_assert_shape(out[0], IC_FP32, 4, TU_DIMS(1, 1, oh, ow));
  tu_assert_close(out[0], want, (size_t)(oh * ow), 1e-6, 0);
  /* -0 from Paddle's negative divisor, bit for bit */
  for (int i = 0; i < oh * ow; i++) {
    if (want[i] == 0) {
      ck_assert_msg(!signbit(((const float *)ic_tensor_cdata(out[0]))[i]) == !signbit(want[i]),
                    "element %d: sign of zero differs", i);
    }
  }
  ic_tensor_destroy(out[0]);
  ic_tensor_destroy(x);
  ic_builder_destroy(b);
}

START_TEST(paddle_quirks) {
  const double F = -FLT_MAX, N = NAN;
  /* adaptive max on 5x5 with ksize 2: 2x2 windows at stride 1, not adaptive bins */
  check_paddle("max", 5, 5, 2, 2, 1, 2, (const int32_t[]){0, 0}, true, false, true, 2, 2,
               (const double[]){6, 7, 11, 12});
  /* non-exclusive avg, paddings [0, 2, 0, 2]: the last window is divided by 1, not 3 */
  check_paddle("avg", 5, 5, 3, 3, 2, 4, (const int32_t[]){0, 2, 0, 2}, false, false, false, 3,
               3, (const double[]){6, 8, 9, 16, 18, 19, 21, 23, 24});
  /* ceil mode, non-exclusive: the window past the input is divided by its clipped size */
  check_paddle("avg", 5, 5, 2, 2, 2, 2, (const int32_t[]){0, 0}, false, true, false, 3, 3,
               (const double[]){3, 5, 6.5, 13, 15, 16.5, 20.5, 22.5, 24});
  /* empty windows: max gives -FLT_MAX; exclusive avg gives 0 / 0 = NaN, or 0 / -1 = -0
   * where the clamped window has a negative extent */
  check_paddle("max", 4, 4, 1, 1, 2, 2, (const int32_t[]){1, 1}, true, true, false, 4, 4,
               (const double[]){F, F, F, F, F, 5, 7, F, F, 13, 15, F, F, F, F, F});
  check_paddle("avg", 4, 4, 1, 1, 2, 2, (const int32_t[]){1, 1}, true, true, false, 4, 4,
               (const double[]){N, N, N, N, N, 5, 7, -0.0, N, 13, 15, -0.0, N, -0.0, -0.0, 0});
  /* window larger than the input */
  check_paddle("avg", 2, 2, 3, 3, 2, 2, (const int32_t[]){0, 0}, false, false, false, 1, 1,
               (const double[]){1.5});
}
END_TEST

START_TEST(empty) {
  /* an empty batch gives an empty output */
  pool_case k = {.type = "max", .n = 0, .c = 3, .h = 4, .w = 4, .kh = 2, .kw = 2, .sh = 2,
                 .sw = 2};
  ic_builder *b = pool_program(&k, TU_DIMS(0, 3, 4, 4));
  ic_tensor *x = tu_f32(4, TU_DIMS(0, 3, 4, 4), NULL);
  ic_tensor *out[1];
  char err[1024];
  ck_assert_msg(tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("y"), out, err, sizeof err) == IC_OK,
                "%s", err);
  tu_assert_shape(out[0], IC_FP32, 4, TU_DIMS(0, 3, 2, 2));
  ic_tensor_destroy(out[0]);
  ic_tensor_destroy(x);
  ic_builder_destroy(b);
  /* an empty image with adaptive output: Paddle fills it with NaN */
  k = (pool_case){.type = "avg", .n = 1, .c = 2, .h = 0, .w = 3, .kh = 2, .kw = 2,
                  .adaptive = true};
  b = pool_program(&k, TU_DIMS(1, 2, 0, 3));
  x = tu_f32(4, TU_DIMS(1, 2, 0, 3), NULL);
  ck_assert_msg(tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("y"), out, err, sizeof err) == IC_OK,
                "%s", err);
  tu_assert_shape(out[0], IC_FP32, 4, TU_DIMS(1, 2, 2, 2));
  double nan8[8];
  for (int i = 0; i < 8; i++) nan8[i] = NAN;
  tu_assert_close(out[0], nan8, 8, 0, 0);
  ic_tensor_destroy(out[0]);
  ic_tensor_destroy(x);
  ic_builder_destroy(b);
}
END_TEST

/* ---- blocked input and output (ic_blocked_out, the layout pass) ---- */

/* x -> 1x1 convolution with the identity filter (exact: t = x) -> pool2d -> [when the pool
 * is marked: the identity again, so that its blocked output has a reader that takes it] ->
 * fetched. `marks`: the convolution (and the pool when mark_pool) carry ic_blocked_out. */
static ic_builder *blocked_program(const pool_case *k, const int64_t *xd, const int64_t *od,
                                   bool marks, bool mark_pool) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 4, xd);
  tu_var(b, "id", IC_FP32, 4, TU_DIMS(k->c, k->c, 1, 1));
  tu_var(b, "t", IC_FP32, 4, xd);
  tu_var(b, "y", IC_FP32, 4, od);
  tu_var(b, "z", IC_FP32, 4, od);
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "id");
  ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "id");
  ic_builder_out(op, "Output", "t");
  if (marks) ic_builder_attr_bool(op, "ic_blocked_out", true);
  op = ic_builder_add_op(b, 0, "pool2d");
  ic_builder_in(op, "X", "t");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_string(op, "pooling_type", k->type);
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){k->kh, k->kw});
  if (k->sh) ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){k->sh, k->sw});
  if (k->npads) ic_builder_attr_ints(op, "paddings", (size_t)k->npads, k->pads);
  if (k->exclusive_set) ic_builder_attr_bool(op, "exclusive", k->exclusive);
  ic_builder_attr_bool(op, "ceil_mode", k->ceil_mode);
  ic_builder_attr_bool(op, "global_pooling", k->global);
  ic_builder_attr_bool(op, "adaptive", k->adaptive);
  if (k->algo) ic_builder_attr_string(op, "padding_algorithm", k->algo);
  if (marks && mark_pool) ic_builder_attr_bool(op, "ic_blocked_out", true);
  if (mark_pool) {
    op = ic_builder_add_op(b, 0, "conv2d");
    ic_builder_in(op, "Input", "y");
    ic_builder_in(op, "Filter", "id");
    ic_builder_out(op, "Output", "z");
  }
  ic_builder_fetch(b, mark_pool ? "z" : "y");
  return b;
}

static void run_blocked(const pool_case *k, bool mark_pool) {
  int64_t xd[4] = {k->n, k->c, k->h, k->w};
  ic_tensor *feeds[2];
  ck_assert_int_eq(ic_tensor_create(IC_FP32, 4, xd, &feeds[0]), IC_OK);
  ck_assert_int_eq(ic_tensor_create(IC_FP32, 4, TU_DIMS(k->c, k->c, 1, 1), &feeds[1]), IC_OK);
  int64_t nx = ic_tensor_numel(feeds[0]);
  double *xv = malloc(sizeof(double) * (size_t)nx);
  uint64_t s = 12345 + (uint64_t)k->h;
  for (int64_t i = 0; i < nx; i++) {
    xv[i] = ((float *)ic_tensor_data(feeds[0]))[i] =
        (float)(-1 + 2 * (double)(rng_next(&s) >> 11) / 9007199254740992.0);
  }
  for (int c = 0; c < k->c; c++) ((float *)ic_tensor_data(feeds[1]))[c * k->c + c] = 1;
  double *ref;
  int64_t od[4];
  float *reff;
  reference(k, xv, &ref, &reff, od);
  const char *fetch = mark_pool ? "z" : "y";
  ic_builder *bm = blocked_program(k, xd, od, true, mark_pool);
  ic_builder *bp = blocked_program(k, xd, od, false, mark_pool);
  ic_tensor *om, *op;
  char err[1024];
  ck_assert_msg(tu_run(bp, 2, TU_NAMES("x", "id"), feeds, 1, &fetch, &op, err, sizeof err) == IC_OK,
                "%s", err);
  ck_assert_msg(tu_run(bm, 2, TU_NAMES("x", "id"), feeds, 1, &fetch, &om, err, sizeof err) == IC_OK,
                "%s", err);
  tu_assert_bitwise(om, op, "marked program");
  tu_assert_close(om, ref, (size_t)(od[0] * od[1] * od[2] * od[3]), 1e-5, 1e-6);
  /* the float32 bits of Paddle's loop order, blocked or plain */
  ck_assert_msg(!memcmp(ic_tensor_cdata(om), reff, sizeof(float) * (size_t)(od[0] * od[1] * od[2] * od[3])),
                "%s pool %lldx%lld: not the bits of Paddle's float32 loop", k->type,
                (long long)k->kh, (long long)k->kw);
  /* The layout pass marks the same ops in the plain program and changes no bit. */
  ic_program *p;
  ck_assert_int_eq(ic_builder_build(bp, &p, err, sizeof err), IC_OK);
  ic_options o;
  ic_options_default(&o);
  o.threads = 2;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ic_tensor *got;
  ck_assert_msg(ic_executor_run(e, p, NULL, 2, TU_NAMES("x", "id"),
                                (const ic_tensor *const *)feeds, 1, &fetch, &got) == IC_OK,
                "%s", ic_executor_errmsg(e));
  tu_assert_bitwise(got, op, "layout pass");
  const ic_plan *pl = ic_executor_last_plan(e);
  for (size_t i = 0; i < pl->n_instrs; i++) {
    const ic_op *iop = pl->instrs[i].op;
    bool want = !strcmp(iop->type, "pool2d") ? mark_pool
                : !strcmp(iop->type, "conv2d") ? !strcmp(ic_op_output(iop, "Output")->args[0], "t")
                                               : false;
    ck_assert_msg((ic_op_attr(iop, "ic_blocked_out") != NULL) == want, "%s: marked %d",
                  iop->type, !want);
  }
  ic_tensor_destroy(got);
  ic_executor_destroy(e);
  ic_program_destroy(p);
  ic_tensor_destroy(om);
  ic_tensor_destroy(op);
  ic_builder_destroy(bm);
  ic_builder_destroy(bp);
  ic_tensor_destroy(feeds[0]);
  ic_tensor_destroy(feeds[1]);
  free(xv);
  free(ref);
  free(reff);
}

START_TEST(blocked) {
  static const pool_case cases[] = {
      /* max 2x2 s2 odd image, avg 3x3 s2 both divisors, global */
      {.type = "max", .n = 2, .c = 16, .h = 9, .w = 7, .kh = 2, .kw = 2, .sh = 2, .sw = 2},
      {.type = "avg", .n = 1, .c = 8, .h = 8, .w = 11, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
       .npads = 2, .pads = {1, 1}, .exclusive_set = true, .exclusive = true},
      {.type = "avg", .n = 1, .c = 8, .h = 8, .w = 11, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
       .npads = 2, .pads = {1, 1}, .exclusive_set = true, .exclusive = false},
      {.type = "avg", .n = 3, .c = 24, .h = 7, .w = 7, .kh = 1, .kw = 1, .global = true},
      /* MobileNetV2's head: adaptive avg 7 -> 1 */
      {.type = "avg", .n = 1, .c = 32, .h = 7, .w = 7, .kh = 1, .kw = 1, .adaptive = true},
      /* PP-HGNet's stem (2x2 stride 1, SAME, ceil_mode), CRNN's 2x2 max over two rows, a
       * channel count that leaves a partial block, a squeeze-and-excitation average */
      {.type = "max", .n = 1, .c = 16, .h = 12, .w = 10, .kh = 2, .kw = 2, .algo = "SAME",
       .ceil_mode = true},
      {.type = "max", .n = 2, .c = 32, .h = 2, .w = 20, .kh = 2, .kw = 2, .sh = 2, .sw = 2},
      {.type = "max", .n = 1, .c = 48, .h = 5, .w = 6, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
       .npads = 2, .pads = {1, 1}},
      {.type = "avg", .n = 2, .c = 24, .h = 4, .w = 40, .kh = 1, .kw = 1, .adaptive = true},
      /* large windows over four channel blocks at a time, and the blocks left over */
      {.type = "avg", .n = 2, .c = 80, .h = 4, .w = 40, .kh = 1, .kw = 1, .adaptive = true},
      {.type = "max", .n = 1, .c = 80, .h = 5, .w = 9, .kh = 1, .kw = 1, .global = true},
      /* unequal adaptive bins, adaptive max, an empty window at the border */
      {.type = "avg", .n = 2, .c = 16, .h = 7, .w = 5, .kh = 3, .kw = 2, .adaptive = true},
      {.type = "max", .n = 1, .c = 8, .h = 6, .w = 6, .kh = 2, .kw = 2, .sh = 2, .sw = 2,
       .adaptive = true},
      {.type = "max", .n = 1, .c = 8, .h = 3, .w = 3, .kh = 2, .kw = 2, .sh = 2, .sw = 2,
       .ceil_mode = true, .npads = 2, .pads = {1, 1}},
      /* a 1x1 image */
      {.type = "max", .n = 2, .c = 8, .h = 1, .w = 1, .kh = 1, .kw = 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run_blocked(&cases[i], false);
    run_blocked(&cases[i], true);
  }
}
END_TEST

static ic_status run_bad(int ndim, const int64_t *xd, ic_dtype dt, void (*attrs)(ic_builder_op *),
                         char *err, size_t len) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", dt, ndim, xd);
  tu_var(b, "y", dt, 4, TU_DIMS(-1, -1, -1, -1));
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "pool2d");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  attrs(op);
  ic_builder_fetch(b, "y");
  ic_tensor *x;
  ck_assert_int_eq(ic_tensor_create(dt, ndim, xd, &x), IC_OK);
  ic_tensor *out[1];
  ic_status st = tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("y"), out, err, len);
  if (st == IC_OK) ic_tensor_destroy(out[0]);
  ic_tensor_destroy(x);
  ic_builder_destroy(b);
  return st;
}

static void max2(ic_builder_op *op) {
  ic_builder_attr_string(op, "pooling_type", "max");
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){2, 2});
}
static void max5(ic_builder_op *op) {
  ic_builder_attr_string(op, "pooling_type", "max");
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){5, 5});
}
static void lp(ic_builder_op *op) {
  ic_builder_attr_string(op, "pooling_type", "lp");
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){2, 2});
}
static void no_type(ic_builder_op *op) {
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){2, 2});
}
static void three_k(ic_builder_op *op) {
  ic_builder_attr_string(op, "pooling_type", "avg");
  ic_builder_attr_ints(op, "ksize", 3, (const int32_t[]){2, 2, 2});
}
static void zero_k(ic_builder_op *op) {
  ic_builder_attr_string(op, "pooling_type", "avg");
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){0, 2});
}
static void bad_pads(ic_builder_op *op) {
  max2(op);
  ic_builder_attr_ints(op, "paddings", 1, (const int32_t[]){1});
}
static void bad_algo(ic_builder_op *op) {
  max2(op);
  ic_builder_attr_string(op, "padding_algorithm", "same");
}

START_TEST(bad_inputs) {
  char err[1024];
  ck_assert_int_eq(run_bad(3, TU_DIMS(1, 4, 4), IC_FP32, max2, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "pool2d", "input X", "'x'", "float32[1, 4, 4]", "rank 4", NULL);
  ck_assert_int_eq(run_bad(4, TU_DIMS(1, 2, 4, 4), IC_INT64, max2, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "'x'", "int64", "float32 or float64", NULL);
  /* a window that leaves a negative output size */
  ck_assert_int_eq(run_bad(4, TU_DIMS(1, 2, 3, 3), IC_FP32, max5, err, sizeof err), IC_ERR_SHAPE);
  tu_assert_msg(err, "'x'", "float32[1, 2, 3, 3]", "5 x 5", "expected sizes >= 0", NULL);
  ck_assert_int_eq(run_bad(4, TU_DIMS(1, 2, 4, 4), IC_FP32, lp, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'pooling_type'", "lp", NULL);
  ck_assert_int_eq(run_bad(4, TU_DIMS(1, 2, 4, 4), IC_FP32, no_type, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'pooling_type'", "missing", NULL);
  ck_assert_int_eq(run_bad(4, TU_DIMS(1, 2, 4, 4), IC_FP32, three_k, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'ksize'", "3 values", NULL);
  ck_assert_int_eq(run_bad(4, TU_DIMS(1, 2, 4, 4), IC_FP32, zero_k, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'ksize'", ">= 1", NULL);
  ck_assert_int_eq(run_bad(4, TU_DIMS(1, 2, 4, 4), IC_FP32, bad_pads, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'paddings'", "1 values", NULL);
  ck_assert_int_eq(run_bad(4, TU_DIMS(1, 2, 4, 4), IC_FP32, bad_algo, err, sizeof err),
                   IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(err, "'padding_algorithm'", "same", NULL);
}
END_TEST

/* A blocked X (from a convolution marked ic_blocked_out) read by an NHWC pool2d. 16
 * channels: whole blocks whether oneDNN blocks them by 8 (AVX2) or by 16 (AVX-512). */
START_TEST(bad_blocked) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 4, TU_DIMS(1, 16, 4, 4));
  tu_var(b, "w", IC_FP32, 4, TU_DIMS(16, 16, 1, 1));
  tu_var(b, "t", IC_FP32, 4, TU_DIMS(1, 16, 4, 4));
  tu_var(b, "y", IC_FP32, 4, TU_DIMS(-1, -1, -1, -1));
  ic_builder_feed(b, "x");
  ic_builder_feed(b, "w");
  ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "w");
  ic_builder_out(op, "Output", "t");
  ic_builder_attr_bool(op, "ic_blocked_out", true);
  op = ic_builder_add_op(b, 0, "pool2d");
  ic_builder_in(op, "X", "t");
  ic_builder_out(op, "Out", "y");
  max2(op);
  ic_builder_attr_string(op, "data_format", "NHWC");
  ic_builder_fetch(b, "y");
  ic_tensor *feeds[2] = {tu_rand_f32(4, TU_DIMS(1, 16, 4, 4), 1, -1, 1),
                         tu_rand_f32(4, TU_DIMS(16, 16, 1, 1), 2, -1, 1)};
  ic_tensor *out[1];
  char err[1024];
  ck_assert_int_eq(tu_run(b, 2, TU_NAMES("x", "w"), feeds, 1, TU_NAMES("y"), out, err, sizeof err),
                   IC_ERR_SHAPE);
  /* the variable's own layout ("layout X"), not the layouts the message lists after it */
  const char *lay = strstr(err, "layout nChw16c")  ? "nChw16c"
                    : strstr(err, "layout nChw8c") ? "nChw8c"
                                                   : NULL;
  ck_assert_msg(lay, "no blocked layout named in: %s", err);
  char what[64];
  snprintf(what, sizeof what, "float32[1, 16, 4, 4] in layout %s", lay);
  tu_assert_msg(err, "pool2d", "input X 't'", what, "expected the plain layout", "NHWC", NULL);
  ic_tensor_destroy(feeds[0]);
  ic_tensor_destroy(feeds[1]);
  ic_builder_destroy(b);
}
END_TEST

static TCase *tc_math(void) {
  TCase *tc = tcase_create("math");
  tcase_add_test(tc, table_cases);
  tcase_add_test(tc, paddle_quirks);
  tcase_add_test(tc, empty);
  tcase_add_test(tc, blocked);
  return tc;
}

static TCase *tc_errors(void) {
  TCase *tc = tcase_create("errors");
  tcase_add_test(tc, bad_inputs);
  tcase_add_test(tc, bad_blocked);
  return tc;
}

TU_MAIN("ops_pool", tc_math, tc_errors)
