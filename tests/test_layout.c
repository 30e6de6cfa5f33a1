/* The layout pass (src/analysis/layout.c): which convolutions and pool2d ops it marks
 * ic_blocked_out, and that a marked plan computes bitwise what the plain one does. The
 * kernels' side is in test_ops_conv.c and test_ops_pool.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plan.h"
#include "interp/interp.h"
#include "testutil.h"

enum { N = 2, C = 16, H = 5, W = 6 };

static ic_builder *start(void) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 4, TU_DIMS(N, C, H, W));
  ic_builder_var(b, 0, "w", IC_FP32, 4, TU_DIMS(C, C, 1, 1), true);
  ic_builder_var(b, 0, "wd", IC_FP32, 4, TU_DIMS(C, 1, 3, 3), true);
  ic_builder_var(b, 0, "wn", IC_FP32, 4, TU_DIMS(C, W, 1, 1), true);
  ic_builder_var(b, 0, "wa", IC_FP32, 4, TU_DIMS(24, C, 1, 1), true);
  ic_builder_var(b, 0, "wb", IC_FP32, 4, TU_DIMS(C, 24, 3, 3), true);
  ic_builder_feed(b, "x");
  return b;
}

/* out = conv2d(in): 1x1 C -> C; "dw": depthwise 3x3 padding 1; "nhwc": 1x1 NHWC W -> C (an
 * [N, C, H, W] input read as NHWC has W channels). */
static ic_builder_op *conv(ic_builder *b, const char *in, const char *out, const char *kind) {
  bool dw = kind && !strcmp(kind, "dw"), nhwc = kind && !strcmp(kind, "nhwc");
  ic_builder_op *op = ic_builder_add_op(b, 0, dw ? "depthwise_conv2d" : "conv2d");
  ic_builder_in(op, "Input", in);
  ic_builder_in(op, "Filter", dw ? "wd" : nhwc ? "wn" : "w");
  ic_builder_out(op, "Output", out);
  if (dw) {
    ic_builder_attr_int(op, "groups", C);
    ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){1, 1});
  }
  ic_builder_attr_string(op, "data_format", nhwc ? "NHWC" : "NCHW");
  return op;
}

static void unary(ic_builder *b, const char *type, const char *in, const char *out) {
  ic_builder_op *op = ic_builder_add_op(b, 0, type);
  ic_builder_in(op, type[0] == 's' ? "Input" : "X", in); /* shape reads "Input" */
  ic_builder_out(op, "Out", out);
}

static void var(ic_builder *b, const char *name) { tu_var(b, name, IC_FP32, 4, TU_DIMS(N, C, H, W)); }

/* Run b compiled with fuse on (the pass) and with the pass switched off, fetching `fetch`;
 * require bitwise-equal results and return how many instructions were marked, writing the
 * marked ops' outputs, comma-separated, into marked. */
static int run_pass(ic_builder *b, const char *fetch, char *marked, size_t len) {
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ic_tensor *w = tu_rand_f32(4, TU_DIMS(C, C, 1, 1), 3, -0.3f, 0.3f);
  ic_tensor *wd = tu_rand_f32(4, TU_DIMS(C, 1, 3, 3), 4, -0.3f, 0.3f);
  ic_tensor *wn = tu_rand_f32(4, TU_DIMS(C, W, 1, 1), 6, -0.3f, 0.3f);
  ck_assert_int_eq(ic_scope_set(s, "w", w), IC_OK);
  ck_assert_int_eq(ic_scope_set(s, "wd", wd), IC_OK);
  ck_assert_int_eq(ic_scope_set(s, "wn", wn), IC_OK);
  ic_tensor *wa = tu_rand_f32(4, TU_DIMS(24, C, 1, 1), 7, -0.3f, 0.3f);
  ic_tensor *wb = tu_rand_f32(4, TU_DIMS(C, 24, 3, 3), 8, -0.3f, 0.3f);
  ck_assert_int_eq(ic_scope_set(s, "wa", wa), IC_OK);
  ck_assert_int_eq(ic_scope_set(s, "wb", wb), IC_OK);
  ic_tensor *x = tu_rand_f32(4, TU_DIMS(N, C, H, W), 5, -1, 1);
  ic_tensor *out[2];
  int n_marked = 0;
  marked[0] = 0;
  for (int plain = 0; plain < 2; plain++) {
    ic_options o;
    ic_options_default(&o);
    o.threads = 2;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_executor_plain_layout(e, plain);
    ck_assert_msg(ic_executor_run(e, p, s, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 1,
                                  &fetch, &out[plain]) == IC_OK, "%s", ic_executor_errmsg(e));
    const ic_plan *pl = ic_executor_last_plan(e);
    for (size_t i = 0; i < pl->n_instrs; i++) {
      const ic_op *op = pl->instrs[i].op;
      if (!ic_op_attr(op, "ic_blocked_out")) continue;
      ck_assert_msg(!plain, "marked with the pass off");
      size_t n = strlen(marked);
      snprintf(marked + n, len - n, "%s%s%s", n ? "," : "", op->outputs[0].args[0],
               ic_op_attr(op, "ic_blocked_pad") ? "+pad" : "");
      n_marked++;
    }
    ic_executor_destroy(e);
  }
  tu_assert_bitwise(out[0], out[1], "blocked versus plain activations");
  ic_tensor_destroy(out[0]);
  ic_tensor_destroy(out[1]);
  ic_tensor_destroy(x);
  ic_tensor_destroy(w);
  ic_tensor_destroy(wd);
  ic_tensor_destroy(wn);
  ic_tensor_destroy(wa);
  ic_tensor_destroy(wb);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  return n_marked;
}

/* Readers that take blocked tensors: convolutions (Input and ResidualData), pool2d, and
 * shape-only readers. */
START_TEST(marks_conv_readers) {
  ic_builder *b = start();
  var(b, "a");
  var(b, "c");
  var(b, "d");
  var(b, "e");
  tu_var(b, "sh", IC_INT32, 1, TU_DIMS(4));
  conv(b, "x", "a", NULL);
  conv(b, "a", "c", "dw");
  ic_builder_op *op = conv(b, "c", "d", NULL);
  ic_builder_in(op, "ResidualData", "a");
  ic_builder_attr_bool(op, "fuse_residual_connection", true);
  unary(b, "shape", "d", "sh");
  conv(b, "d", "e", NULL);
  ic_builder_fetch(b, "e");
  ic_builder_fetch(b, "sh");
  char marked[256];
  ck_assert_int_eq(run_pass(b, "e", marked, sizeof marked), 3);
  ck_assert_str_eq(marked, "a,c,d");
  ic_builder_destroy(b);
}
END_TEST

/* Anything else keeps a value plain: another reader, a fetch, an NHWC reader or producer, a
 * second writer, a channel count that is not whole blocks or not declared, float64, a
 * sub-block. */
START_TEST(keeps_plain) {
  char marked[256];
  /* exp reads it (an activation the rewrites would fuse instead) */
  ic_builder *b = start();
  var(b, "a");
  var(b, "r");
  var(b, "c");
  conv(b, "x", "a", NULL);
  unary(b, "exp", "a", "r");
  conv(b, "r", "c", NULL);
  ic_builder_fetch(b, "c");
  ck_assert_int_eq(run_pass(b, "c", marked, sizeof marked), 0);
  ic_builder_destroy(b);
  /* fetched besides read by a convolution */
  b = start();
  var(b, "a");
  var(b, "c");
  conv(b, "x", "a", NULL);
  conv(b, "a", "c", NULL);
  ic_builder_fetch(b, "c");
  ic_builder_fetch(b, "a");
  ck_assert_int_eq(run_pass(b, "c", marked, sizeof marked), 0);
  ic_builder_destroy(b);
  /* an NHWC reader; an NHWC producer */
  b = start();
  var(b, "a");
  tu_var(b, "c", IC_FP32, 4, TU_DIMS(N, C, H, C));
  tu_var(b, "d", IC_FP32, 4, TU_DIMS(N, C, H, C));
  conv(b, "x", "a", NULL);
  conv(b, "a", "c", "nhwc");
  conv(b, "c", "d", NULL);
  ic_builder_fetch(b, "d");
  ck_assert_int_eq(run_pass(b, "d", marked, sizeof marked), 0);
  ic_builder_destroy(b);
  /* written twice: the second write reads the first */
  b = start();
  var(b, "a");
  var(b, "c");
  conv(b, "x", "a", NULL);
  conv(b, "a", "a", "dw");
  conv(b, "a", "c", NULL);
  ic_builder_fetch(b, "c");
  ck_assert_int_eq(run_pass(b, "c", marked, sizeof marked), 0);
  ic_builder_destroy(b);
  /* unknown channels, float64; 12 declared channels (the data has 16): marked, padded, since
   * its reader is a convolution (the kernel decides on the channels it gets) */
  static const int64_t dims[3][4] = {{N, 12, H, W}, {N, -1, H, W}, {N, C, H, W}};
  for (int k = 0; k < 3; k++) {
    b = start();
    ic_builder_var(b, 0, "a", k == 2 ? IC_FP64 : IC_FP32, 4, dims[k], false);
    var(b, "c");
    conv(b, "x", "a", NULL);
    conv(b, "a", "c", NULL);
    ic_builder_fetch(b, "c");
    ck_assert_int_eq(run_pass(b, "c", marked, sizeof marked), k == 0 ? 1 : 0);
    if (k == 0) ck_assert_str_eq(marked, "a+pad");
    ic_builder_destroy(b);
  }
  /* a sub-block names it */
  b = start();
  var(b, "a");
  var(b, "c");
  var(b, "s");
  conv(b, "x", "a", NULL);
  conv(b, "a", "c", NULL);
  int blk = ic_builder_add_block(b, 0);
  ic_builder_op *op = ic_builder_add_op(b, blk, "relu");
  ic_builder_in(op, "X", "a");
  ic_builder_out(op, "Out", "s");
  ic_builder_fetch(b, "c");
  ck_assert_int_eq(run_pass(b, "c", marked, sizeof marked), 0);
  ic_builder_destroy(b);
}
END_TEST

/* pool2d: marked when a convolution reads its output; its input blocked either way. */
START_TEST(pool_readers) {
  ic_builder *b = start();
  var(b, "a");
  var(b, "c");
  tu_var(b, "p", IC_FP32, 4, TU_DIMS(N, C, 2, 3));
  tu_var(b, "q", IC_FP32, 4, TU_DIMS(N, C, 2, 3));
  conv(b, "x", "a", NULL);
  ic_builder_op *op = ic_builder_add_op(b, 0, "pool2d");
  ic_builder_in(op, "X", "a");
  ic_builder_out(op, "Out", "p");
  ic_builder_attr_string(op, "pooling_type", "max");
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){2, 2});
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){2, 2});
  conv(b, "p", "q", NULL);
  ic_builder_fetch(b, "q");
  char marked[256];
  ck_assert_int_eq(run_pass(b, "q", marked, sizeof marked), 2);
  ck_assert_str_eq(marked, "a,p");
  ic_builder_destroy(b);
}
END_TEST

/* concat along the channels of two blocked convolution outputs stays blocked for a blocked
 * reader (pool2d); with one plain input, or along another axis, the kernel unpacks the blocked
 * inputs (the second case marks the concat all the same: the kernel decides at run time).
 * Every case is bitwise the plain plan's result. */
static ic_builder_op *concat(ic_builder *b, const char *x0, const char *x1, const char *out,
                             int axis) {
  ic_builder_op *op = ic_builder_add_op(b, 0, "concat");
  ic_builder_input(op, "X", 2, TU_NAMES(x0, x1));
  ic_builder_out(op, "Out", out);
  ic_builder_attr_int(op, "axis", axis);
  return op;
}

static void pool(ic_builder *b, const char *in, const char *out) {
  ic_builder_op *op = ic_builder_add_op(b, 0, "pool2d");
  ic_builder_in(op, "X", in);
  ic_builder_out(op, "Out", out);
  ic_builder_attr_string(op, "pooling_type", "avg");
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){2, 2});
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){2, 2});
}

/* ic_blocked_pad: only where every reader takes nChw16c with padded channels (a convolution's
 * Input or ResidualData, pool2d's X): 24 declared channels (the data has 16) read by
 * convolutions, or by convolutions and pool2d, are marked padded; read by relu as well, not
 * at all. */
START_TEST(padded_readers) {
  char marked[256];
  for (int k = 0; k < 3; k++) {
    ic_builder *b = start();
    tu_var(b, "a", IC_FP32, 4, TU_DIMS(N, 24, H, W));
    var(b, "c");
    var(b, "d");
    tu_var(b, "p", IC_FP32, 4, TU_DIMS(N, C, H / 2, W / 2));
    conv(b, "x", "a", NULL);
    conv(b, "a", "c", NULL);
    conv(b, "a", "d", "dw");
    const char *fetch = "d";
    if (k == 1) pool(b, "a", "p"), fetch = "p";
    if (k == 2) unary(b, "relu", "a", "p"), fetch = "p";
    ic_builder_fetch(b, "c");
    ic_builder_fetch(b, fetch);
    int n = run_pass(b, "c", marked, sizeof marked);
    ck_assert_int_eq(n, k == 2 ? 0 : 1);
    if (k < 2) ck_assert_str_eq(marked, "a+pad");
    ic_builder_destroy(b);
  }
}
END_TEST

START_TEST(concat_readers) {
  char marked[256];
  for (int k = 0; k < 3; k++) {
    ic_builder *b = start();
    var(b, "a");
    var(b, "c");
    tu_var(b, "cat", IC_FP32, 4, k == 2 ? TU_DIMS(N, C, 2 * H, W) : TU_DIMS(N, 2 * C, H, W));
    tu_var(b, "p", IC_FP32, 4, k == 2 ? TU_DIMS(N, C, H, W / 2) : TU_DIMS(N, 2 * C, H / 2, W / 2));
    conv(b, "x", "a", NULL);
    conv(b, "a", "c", "dw");
    /* 0: two blocked inputs; 1: one plain (the feed); 2: along H */
    concat(b, k == 1 ? "x" : "a", "c", "cat", k == 2 ? 2 : -3);
    pool(b, "cat", "p");
    ic_builder_fetch(b, "p");
    int n = run_pass(b, "p", marked, sizeof marked);
    if (k == 2) {
      ck_assert_int_eq(n, 2);
      ck_assert_str_eq(marked, "a,c");
    } else {
      ck_assert_int_eq(n, 3);
      ck_assert_str_eq(marked, "a,c,cat");
    }
    ic_builder_destroy(b);
  }
}
END_TEST

/* The arithmetic elementwise ops: a squeeze-and-excitation scale (blocked image times one
 * value per channel and image), the same with the per-channel operand first, two blocked
 * operands of the same dims, and a plain operand against a blocked one (the kernel unpacks;
 * the op is marked all the same, since a convolution reads it). Bitwise the plain plan's. */
static void ew(ic_builder *b, const char *type, const char *x, const char *y, const char *out) {
  ic_builder_op *op = ic_builder_add_op(b, 0, type);
  ic_builder_in(op, "X", x);
  ic_builder_in(op, "Y", y);
  ic_builder_out(op, "Out", out);
  ic_builder_attr_int(op, "axis", -1);
}

START_TEST(elementwise_readers) {
  static const char *const kinds[] = {"elementwise_mul", "elementwise_div", "elementwise_add",
                                      "elementwise_sub", "elementwise_max", "elementwise_pow"};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k += 2) {
    ic_builder *b = start();
    var(b, "a"), var(b, "m"), var(b, "d"), var(b, "e"), var(b, "r"), var(b, "f"), var(b, "q");
    tu_var(b, "g", IC_FP32, 4, TU_DIMS(N, C, 1, 1));
    tu_var(b, "s", IC_FP32, 4, TU_DIMS(N, C, 1, 1));
    conv(b, "x", "a", NULL);
    ic_builder_op *op = ic_builder_add_op(b, 0, "pool2d");
    ic_builder_in(op, "X", "a");
    ic_builder_out(op, "Out", "g");
    ic_builder_attr_string(op, "pooling_type", "avg");
    ic_builder_attr_bool(op, "global_pooling", true);
    ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){1, 1});
    conv(b, "g", "s", NULL);
    ew(b, kinds[k], "a", "s", "m");     /* blocked, per channel and image */
    ew(b, kinds[k + 1], "s", "m", "d"); /* per channel first */
    ew(b, "elementwise_sub", "d", "a", "e"); /* two blocked */
    unary(b, "exp", "x", "r");
    ew(b, "elementwise_sub", "r", "e", "f"); /* plain against blocked: unpacked */
    conv(b, "f", "q", NULL);
    ic_builder_fetch(b, "q");
    char marked[256];
    int n = run_pass(b, "q", marked, sizeof marked);
    ck_assert_msg(n == 7 && !strcmp(marked, "a,g,s,m,d,e,f"), "%s, %s: marked %d: %s", kinds[k],
                  kinds[k + 1], n, marked);
    ic_builder_destroy(b);
  }
  /* An elementwise output that is fetched stays plain, and so do its inputs. */
  ic_builder *b = start();
  var(b, "a"), var(b, "c"), var(b, "e");
  conv(b, "x", "a", NULL);
  conv(b, "a", "c", "dw");
  ew(b, "elementwise_mul", "a", "c", "e");
  ic_builder_fetch(b, "e");
  char marked[256];
  ck_assert_int_eq(run_pass(b, "e", marked, sizeof marked), 0);
  ic_builder_destroy(b);
}
END_TEST

/* out = nearest_interp_v2(in) to [oh, ow]; data_layout and interp_method as given (NULL:
 * left out). */
static void interp(ic_builder *b, const char *in, const char *out, int oh, int ow,
                   const char *layout, const char *method) {
  ic_builder_op *op = ic_builder_add_op(b, 0, "nearest_interp_v2");
  ic_builder_in(op, "X", in);
  ic_builder_out(op, "Out", out);
  ic_builder_attr_int(op, "out_h", oh);
  ic_builder_attr_int(op, "out_w", ow);
  ic_builder_attr_bool(op, "align_corners", false);
  ic_builder_attr_int(op, "align_mode", 1);
  if (layout) ic_builder_attr_string(op, "data_layout", layout);
  if (method) ic_builder_attr_string(op, "interp_method", method);
}

/* Nearest interpolation passes a blocked layout on (a feature pyramid's top-down path:
 * upsample, add to the lateral convolution, convolve), whole blocks: 16 channels up to
 * [2H, 2W] and back down, added to the convolution's output, both blocked alike. An NHWC
 * interpolation, or one whose method is not nearest, keeps its input plain. */
START_TEST(interp_readers) {
  for (int k = 0; k < 3; k++) {
    ic_builder *b = start();
    var(b, "a"), var(b, "d"), var(b, "e"), var(b, "q");
    tu_var(b, "u", IC_FP32, 4, TU_DIMS(N, C, 2 * H, 2 * W));
    conv(b, "x", "a", NULL);
    if (k == 1) {
      interp(b, "a", "u", C, H, "NHWC", NULL); /* [N, C, H, W] read as NHWC: the same dims */
    } else {
      interp(b, "a", "u", 2 * H, 2 * W, NULL, k == 2 ? "bilinear" : NULL);
    }
    interp(b, "u", "d", H, W, NULL, NULL);
    ew(b, "elementwise_add", "d", "a", "e");
    conv(b, "e", "q", NULL);
    ic_builder_fetch(b, "q");
    char marked[256];
    int n = run_pass(b, "q", marked, sizeof marked);
    if (k == 0) {
      ck_assert_msg(n == 4 && !strcmp(marked, "a,u,d,e"), "marked %d: %s", n, marked);
    } else { /* a stays plain for its other reader; d still passes u's plain layout on */
      ck_assert_msg(n == 2 && !strcmp(marked, "d,e"), "marked %d: %s", n, marked);
    }
    ic_builder_destroy(b);
  }
}
END_TEST

/* A squeeze-and-excitation block with a residual add (PP-OCRv4's RSE neck) on 24 channels,
 * which AVX-512 convolutions write as nChw16c with padded channels: the convolution's output
 * read by the global pooling and by ic_scale_residual (fuse.c's X + X * s) stays padded, and
 * so does ic_scale_residual's output into a nearest upsampling read by a convolution; the
 * same output read by a concat instead (no padded reader) is written plain, and so is the
 * upsampling's when a concat reads it. Every run is
 * bitwise the plain plan's (run_pass), with real 24-channel data. */
START_TEST(padded_se_block) {
  for (int k = 0; k < 3; k++) {
    ic_builder *b = start();
    tu_var(b, "a", IC_FP32, 4, TU_DIMS(N, 24, H, W));
    tu_var(b, "g", IC_FP32, 4, TU_DIMS(N, 24, 1, 1));
    tu_var(b, "m", IC_FP32, 4, TU_DIMS(N, 24, H, W));
    tu_var(b, "r", IC_FP32, 4, TU_DIMS(N, 24, H, W));
    tu_var(b, "u", IC_FP32, 4, TU_DIMS(N, 24, 2 * H, 2 * W));
    tu_var(b, "cat", IC_FP32, 4, TU_DIMS(N, 48, H, W));
    var(b, "q");
    ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
    ic_builder_in(op, "Input", "x");
    ic_builder_in(op, "Filter", "wa");
    ic_builder_out(op, "Output", "a");
    op = ic_builder_add_op(b, 0, "pool2d");
    ic_builder_in(op, "X", "a");
    ic_builder_out(op, "Out", "g");
    ic_builder_attr_string(op, "pooling_type", "avg");
    ic_builder_attr_bool(op, "global_pooling", true);
    ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){1, 1});
    ew(b, "elementwise_mul", "a", "g", "m");
    ew(b, "elementwise_add", "a", "m", "r");
    const char *fetch = "q";
    if (k == 0) {
      interp(b, "r", "u", 2 * H, 2 * W, NULL, NULL);
      op = ic_builder_add_op(b, 0, "conv2d");
      ic_builder_in(op, "Input", "u");
      ic_builder_in(op, "Filter", "wb");
      ic_builder_out(op, "Output", "q");
      ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){1, 1});
    } else if (k == 1) {
      concat(b, "r", "r", "cat", 1);
      fetch = "cat";
    } else { /* upsampled into a concat: the interpolation gathers its plain output */
      tu_var(b, "cu", IC_FP32, 4, TU_DIMS(N, 48, 2 * H, 2 * W));
      interp(b, "r", "u", 2 * H, 2 * W, NULL, NULL);
      concat(b, "u", "u", "cu", 1);
      fetch = "cu";
    }
    ic_builder_fetch(b, fetch);
    char marked[256];
    int n = run_pass(b, fetch, marked, sizeof marked);
    if (k == 0) {
      ck_assert_msg(n == 3 && !strcmp(marked, "a+pad,r+pad,u+pad"), "marked %d: %s", n, marked);
    } else if (k == 1) { /* r: 24 channels are whole nChw8c blocks: marked; the kernel decides */
      ck_assert_msg(n == 2 && !strcmp(marked, "a+pad,r"), "marked %d: %s", n, marked);
    } else {
      ck_assert_msg(n == 3 && !strcmp(marked, "a+pad,r+pad,u"), "marked %d: %s", n, marked);
    }
    ic_builder_destroy(b);
  }
}
END_TEST

/* A concat whose inputs are plain, or straddle channel blocks (two 24-channel maps), is
 * gathered straight into the blocked layout its reader takes (concat.c); bitwise the plain
 * plan's. */
START_TEST(concat_gathers) {
  ic_builder *b = start();
  tu_var(b, "a", IC_FP32, 4, TU_DIMS(N, 24, H, W));
  tu_var(b, "r1", IC_FP32, 4, TU_DIMS(N, 24, H, W));
  tu_var(b, "r2", IC_FP32, 4, TU_DIMS(N, 24, H, W));
  tu_var(b, "cat", IC_FP32, 4, TU_DIMS(N, 48, H, W));
  tu_var(b, "p", IC_FP32, 4, TU_DIMS(N, 48, H / 2, W / 2));
  ic_builder_op *op = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(op, "Input", "x");
  ic_builder_in(op, "Filter", "wa");
  ic_builder_out(op, "Output", "a");
  unary(b, "relu", "a", "r1");
  unary(b, "tanh", "a", "r2");
  concat(b, "r1", "r2", "cat", 1);
  pool(b, "cat", "p");
  ic_builder_fetch(b, "p");
  char marked[256];
  int n = run_pass(b, "p", marked, sizeof marked);
  ck_assert_msg(n == 1 && !strcmp(marked, "cat"), "marked %d: %s", n, marked);
  ic_builder_destroy(b);
}
END_TEST

/* assign passes a blocked layout on (its Out is a view of X): a pooled map kept through an
 * assign for a convolution and a concat (SVTR's neck) stays blocked throughout; when the
 * assign's Out is fetched, it and X stay plain (the convolution and the pooling before still
 * blocked where their readers allow). */
START_TEST(assign_readers) {
  for (int k = 0; k < 2; k++) {
    ic_builder *b = start();
    var(b, "a");
    tu_var(b, "p", IC_FP32, 4, TU_DIMS(N, C, H / 2, W / 2));
    tu_var(b, "pc", IC_FP32, 4, TU_DIMS(N, C, H / 2, W / 2));
    tu_var(b, "q", IC_FP32, 4, TU_DIMS(N, C, H / 2, W / 2));
    tu_var(b, "cat", IC_FP32, 4, TU_DIMS(N, 2 * C, H / 2, W / 2));
    tu_var(b, "out", IC_FP32, 4, TU_DIMS(N, 2 * C, 1, 1));
    conv(b, "x", "a", NULL);
    pool(b, "a", "p");
    unary(b, "assign", "p", "pc");
    conv(b, "pc", "q", NULL);
    concat(b, "pc", "q", "cat", 1);
    pool(b, "cat", "out");
    ic_builder_fetch(b, "out");
    if (k) ic_builder_fetch(b, "pc");
    char marked[256];
    int n = run_pass(b, "out", marked, sizeof marked);
    if (k == 0) {
      ck_assert_msg(n == 5 && !strcmp(marked, "a,p,pc,q,cat"), "marked %d: %s", n, marked);
    } else {
      ck_assert_msg(n == 3 && !strcmp(marked, "a,q,cat"), "marked %d: %s", n, marked);
    }
    ic_builder_destroy(b);
  }
}
END_TEST

/* Only CPU plans with the rewrites on: fuse off, or a device plan, marks nothing. */
START_TEST(only_cpu_with_fuse) {
  ic_builder *b = start();
  var(b, "a");
  var(b, "c");
  conv(b, "x", "a", NULL);
  conv(b, "a", "c", NULL);
  ic_builder_fetch(b, "c");
  ic_program *p;
  char err[1024];
  ck_assert_int_eq(ic_builder_build(b, &p, err, sizeof err), IC_OK);
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  ic_tensor *w = tu_rand_f32(4, TU_DIMS(C, C, 1, 1), 3, -0.3f, 0.3f);
  ck_assert_int_eq(ic_scope_set(s, "w", w), IC_OK);
  ic_tensor *x = tu_rand_f32(4, TU_DIMS(N, C, H, W), 5, -1, 1);
  for (int k = 0; k < 3; k++) {
    ic_options o;
    ic_options_default(&o);
    o.fuse = k != 1;
    if (k == 2) ck_assert_int_eq(ic_place_parse("emu:0", &o.device), IC_OK);
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_tensor *out;
    ck_assert_msg(ic_executor_run(e, p, s, 1, TU_NAMES("x"), (const ic_tensor *const *)&x, 1,
                                  TU_NAMES("c"), &out) == IC_OK, "%s", ic_executor_errmsg(e));
    const ic_plan *pl = ic_executor_last_plan(e);
    int n = 0;
    for (size_t i = 0; i < pl->n_instrs; i++) n += ic_op_attr(pl->instrs[i].op, "ic_blocked_out") != NULL;
    ck_assert_int_eq(n, k == 0 ? 1 : 0);
    ic_tensor_destroy(out);
    ic_executor_destroy(e);
  }
  ic_tensor_destroy(x);
  ic_tensor_destroy(w);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

static TCase *tc_pass(void) {
  TCase *tc = tcase_create("pass");
  tcase_add_test(tc, marks_conv_readers);
  tcase_add_test(tc, keeps_plain);
  tcase_add_test(tc, pool_readers);
  tcase_add_test(tc, concat_readers);
  tcase_add_test(tc, padded_readers);
  tcase_add_test(tc, elementwise_readers);
  tcase_add_test(tc, interp_readers);
  tcase_add_test(tc, padded_se_block);
  tcase_add_test(tc, concat_gathers);
  tcase_add_test(tc, assign_readers);
  tcase_add_test(tc, only_cpu_with_fuse);
  return tc;
}

TU_MAIN("layout", tc_pass)
