/* conv2d and depthwise_conv2d (one implementation; see conv.h for Paddle's semantics): the
 * attributes, geometry and shape checks, the activations and affines, and the entry point;
 * the oneDNN path is conv_dnnl.c, the reference path conv_ref.c.
 *
 * float32 runs one oneDNN convolution primitive (the direct algorithm: never Winograd,
 * which oneDNN documents as less accurate) with source and destination in the layout
 * oneDNN prefers (nChw8c blocks on AVX2) and reorders from and to icore's NCHW around it:
 * oneDNN's plain-NCHW convolution falls back to its GEMM path, 1.6 to 12 times slower than
 * the blocked kernels even counting both reorders (docs/conv_measurements.md).
 * NHWC tensors need no reorder: oneDNN's NHWC kernels are as fast as the blocked ones.
 * Between convolutions the reorders are dropped altogether: Input and ResidualData may
 * arrive blocked (tensor.h ic_layout), and an op the layout pass marked ic_blocked_out leaves
 * its Output in the primitive's blocked destination layout (analysis/layout.c).
 * The primitive, the reorders and the weights in oneDNN's blocked layout live in the
 * instruction's kernel state, rebuilt when the input shapes or layouts (or the thread count)
 * change; the blocked weights are redone when the Filter buffer (pointer or size) or a sample
 * of its values changes.
 * float64, and any case for which oneDNN has only implementations whose sums depend on the
 * thread count (its GEMM-based convolution, chosen for a few small-channel shapes) or only its
 * slow reference code, runs im2col + BLAS GEMM, whose threads are process-wide and so the
 * same in every executor configuration. A 1 x 1 convolution of 1 x 1 images runs as one
 * image of N pixels, or for one image with a large filter as icore's GEMV (conv_dnnl.c). */
#include "kernels/cpu/conv_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/onednn.h"

const ic_slotdef ic_conv_inputs[IC_CONV_N_INPUTS] = {
    {"Input", IC_SLOT_BLOCKED | IC_SLOT_PAD16},
    {"Filter", 0},
    {"Bias", IC_SLOT_OPTIONAL},
    {"ResidualData", IC_SLOT_OPTIONAL | IC_SLOT_BLOCKED | IC_SLOT_PAD16},
    {"ic_AffineScale", IC_SLOT_OPTIONAL},
    {"ic_AffineBias", IC_SLOT_OPTIONAL},
    {"ic_PreAffineScale", IC_SLOT_OPTIONAL},
    {"ic_PreAffineBias", IC_SLOT_OPTIONAL},
    {"ic_DwFilter", IC_SLOT_OPTIONAL},
    {"ic_DwBias", IC_SLOT_OPTIONAL},
    {"ic_InScale", IC_SLOT_OPTIONAL}};
const ic_slotdef ic_conv_outputs[IC_CONV_N_OUTPUTS] = {{"Output", 0}};

/* ---------------------------------------------------------------------------------------
 * Attributes
 * ------------------------------------------------------------------------------------- */

bool ic_read_paddings(ic_attr_reader *r, int64_t out[4]) {
  const int64_t *v;
  size_t n;
  out[0] = out[1] = out[2] = out[3] = 0;
  if (!ic_ar_ints(r, "paddings", false, &v, &n)) return r->st == IC_OK;
  if (n == 2) {
    out[0] = out[1] = v[0];
    out[2] = out[3] = v[1];
  } else if (n == 4) {
    for (int i = 0; i < 4; i++) out[i] = v[i];
  } else {
    ic_ar_fail(r, "paddings", "has %zu values, expected 2 ([h, w]) or 4 ([top, bottom, left, right])",
               n);
    return false;
  }
  for (int i = 0; i < 4; i++) {
    if (out[i] < 0) {
      ic_ar_fail(r, "paddings", "holds %lld, expected values >= 0", (long long)out[i]);
      return false;
    }
  }
  return true;
}

void ic_read_paddings3(ic_attr_reader *r, int64_t out[6]) {
  const int64_t *v;
  size_t n;
  if (!ic_ar_ints(r, "paddings", false, &v, &n)) return;
  if (n == 3) {
    for (int i = 0; i < 3; i++) out[2 * i] = out[2 * i + 1] = v[i];
  } else if (n == 6) {
    for (int i = 0; i < 6; i++) out[i] = v[i];
  } else {
    ic_ar_fail(r, "paddings", "has %zu values, expected 3 ([d, h, w]) or 6", n);
  }
  for (int i = 0; i < 6 && !r->st; i++) {
    if (out[i] < 0) ic_ar_fail(r, "paddings", "holds %lld, expected >= 0", (long long)out[i]);
  }
}

ic_pad_algo ic_read_pad_algo(ic_attr_reader *r) {
  const char *s = ic_ar_str(r, "padding_algorithm", "EXPLICIT");
  if (!strcmp(s, "EXPLICIT")) return IC_PAD_EXPLICIT;
  if (!strcmp(s, "SAME")) return IC_PAD_SAME;
  if (!strcmp(s, "VALID")) return IC_PAD_VALID;
  ic_ar_fail(r, "padding_algorithm", "is '%s', expected EXPLICIT, SAME or VALID", s);
  return IC_PAD_EXPLICIT;
}

bool ic_read_nhwc(ic_attr_reader *r) {
  const char *s = ic_ar_str(r, "data_format", "NCHW");
  if (!strcmp(s, "NHWC")) return true;
  if (strcmp(s, "NCHW") && strcmp(s, "AnyLayout")) {
    ic_ar_fail(r, "data_format", "is '%s', expected NCHW, NHWC or AnyLayout", s);
  }
  return false;
}

/* Two positive integers (strides, dilations), default [1, 1]. */
static void read_pair(ic_attr_reader *r, const char *name, int64_t out[2]) {
  const int64_t *v;
  size_t n;
  out[0] = out[1] = 1;
  if (!ic_ar_ints(r, name, false, &v, &n)) return;
  if (n != 2) {
    ic_ar_fail(r, name, "has %zu values, expected 2 ([h, w])", n);
    return;
  }
  for (int i = 0; i < 2; i++) {
    if (v[i] < 1) {
      ic_ar_fail(r, name, "holds %lld, expected values >= 1", (long long)v[i]);
      return;
    }
    out[i] = v[i];
  }
}

/* An attribute icore does not implement (IC_ERR_UNSUPPORTED rather than a bad program). */
static void unsupported(ic_attr_reader *r, const char *name, const char *why) {
  if (r->st) return;
  ic_ar_fail(r, name, "%s", why);
  r->st = r->err->code = IC_ERR_UNSUPPORTED;
}

static const struct {
  const char *name;
  ic_conv_act act;
} k_acts[] = {
    {"", IC_ACT_NONE},
    {"relu", IC_ACT_RELU},
    {"leaky_relu", IC_ACT_RELU},
    {"relu6", IC_ACT_CLIP},
    {"clip", IC_ACT_CLIP},
    {"hard_swish", IC_ACT_HARD_SWISH},
    {"hard_sigmoid", IC_ACT_HARD_SIGMOID},
    {"swish", IC_ACT_SWISH},
    {"sigmoid", IC_ACT_SIGMOID},
    {"tanh", IC_ACT_TANH},
    {"abs", IC_ACT_ABS},
    {"sqrt", IC_ACT_SQRT},
    {"mish", IC_ACT_MISH},
    {"gelu", IC_ACT_GELU_ERF},
    {"gelu_erf", IC_ACT_GELU_ERF},
    {"gelu_tanh", IC_ACT_GELU_TANH},
};

/* Read activation attribute `name` into *out (conv.h). */
void ic_conv_read_act(ic_attr_reader *r, const char *name, ic_conv_act *out) {
  const char *act = ic_ar_str(r, name, "");
  for (size_t i = 0; i < sizeof k_acts / sizeof k_acts[0]; i++) {
    if (!strcmp(act, k_acts[i].name)) {
      *out = k_acts[i].act;
      return;
    }
  }
  if (!r->st) ic_ar_fail(r, name, "is '%s', which Paddle's oneDNN convolution does not know", act);
}

ic_status ic_conv_parse(ic_attr_reader *r, void *attrs) {
  ic_conv_attrs *a = attrs;
  read_pair(r, "strides", a->strides);
  read_pair(r, "dilations", a->dilations);
  ic_read_paddings(r, a->paddings);
  a->pad_algo = ic_read_pad_algo(r);
  a->nhwc = ic_read_nhwc(r);
  a->groups = ic_ar_int(r, "groups", 1);
  if (!r->st && a->groups < 1) {
    ic_ar_fail(r, "groups", "is %lld, expected >= 1", (long long)a->groups);
  }
  ic_conv_read_act(r, "fuse_activation", &a->act);
  a->alpha = (float)ic_ar_float(r, "fuse_alpha", 0.0);
  a->beta = (float)ic_ar_float(r, "fuse_beta", 0.0);
  a->dw_stride = ic_ar_int(r, "ic_dw_stride", 0);
  if (!r->st && a->dw_stride != 0 && a->dw_stride != 1 && a->dw_stride != 2) {
    ic_ar_fail(r, "ic_dw_stride", "is %lld, expected 0 (no fused depthwise convolution), 1 or 2",
               (long long)a->dw_stride);
  }
  ic_conv_read_act(r, "ic_dw_activation", &a->dw_act);
  a->dw_alpha = (float)ic_ar_float(r, "ic_dw_alpha", 0.0);
  a->dw_beta = (float)ic_ar_float(r, "ic_dw_beta", 0.0);
  a->residual = ic_ar_bool(r, "fuse_residual_connection", false);
  a->blocked_out = ic_ar_bool(r, "ic_blocked_out", false);
  a->blocked_pad = ic_ar_bool(r, "ic_blocked_pad", false);
  a->winograd = ic_ar_bool(r, "ic_winograd", false);
  /* Older oneDNN fusion flags: Paddle 3 ignores them, so a program that sets them was
   * fused for a runtime with other semantics; refuse rather than guess. */
  if (ic_ar_bool(r, "fuse_relu", false)) {
    unsupported(r, "fuse_relu", "is true (a pre-2.1 oneDNN fusion flag); expected false");
  }
  if (ic_ar_bool(r, "fuse_brelu", false)) {
    unsupported(r, "fuse_brelu", "is true (a pre-2.1 oneDNN fusion flag); expected false");
  }
  if (ic_ar_bool(r, "fuse_relu_before_depthwise_conv", false)) {
    unsupported(r, "fuse_relu_before_depthwise_conv",
                "is true (a CUDA-only fusion); expected false");
  }
  return r->st;
}

/* ---------------------------------------------------------------------------------------
 * Geometry and shape checks
 * ------------------------------------------------------------------------------------- */

typedef ic_conv_geom geom;

ic_status ic_conv_geometry(ic_kctx *c, geom *g) {
  const ic_conv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_CONV_INPUT, 0), *f = ic_in(c, IC_CONV_FILTER, 0);
  char xd[128], fd[128];
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IC_CONV_INPUT, 0, IC_DT_FLOAT))) return st;
  if (x->ndim != 4) {
    return ic_kfail_in(c, IC_CONV_INPUT, 0, "expected rank 4 (%s)", a->nhwc ? "NHWC" : "NCHW");
  }
  if ((st = ic_kcheck_dtype(c, IC_CONV_FILTER, 0, IC_DT(x->dtype)))) return st;
  if (f->ndim != 4) {
    return ic_kfail_in(c, IC_CONV_FILTER, 0, "expected rank 4 [C_out, C_in / groups, KH, KW]");
  }
  for (int i = 0; i < 4; i++) {
    if (x->dims[i] < 1) {
      return ic_kfail_in(c, IC_CONV_INPUT, 0, "expected every dimension >= 1");
    }
    if (f->dims[i] < 1) {
      return ic_kfail_in(c, IC_CONV_FILTER, 0, "expected every dimension >= 1");
    }
  }
  g->n = x->dims[0];
  g->c = a->nhwc ? x->dims[3] : x->dims[1];
  g->h = a->nhwc ? x->dims[1] : x->dims[2];
  g->w = a->nhwc ? x->dims[2] : x->dims[3];
  g->oc = f->dims[0];
  g->kh = f->dims[2];
  g->kw = f->dims[3];
  g->g = a->groups;
  if (g->c != f->dims[1] * g->g) {
    ic_dims_str(f->ndim, f->dims, fd, sizeof fd);
    return ic_kfail_in(c, IC_CONV_INPUT, 0,
                       "but its %lld channels (data_format %s) do not match Filter '%s' %s with "
                       "groups %lld: expected Filter.dims[1] * groups = %lld channels",
                       (long long)g->c, a->nhwc ? "NHWC" : "NCHW", ic_in_name(c, IC_CONV_FILTER, 0),
                       fd, (long long)g->g, (long long)(f->dims[1] * g->g));
  }
  if (g->oc % g->g) {
    return ic_kfail_in(c, IC_CONV_FILTER, 0,
                       "expected its output channels %lld to be divisible by groups %lld",
                       (long long)g->oc, (long long)g->g);
  }
  g->sh = a->strides[0];
  g->sw = a->strides[1];
  g->dh = a->dilations[0];
  g->dw = a->dilations[1];
  int64_t p[4];
  if (ic_apply_pad_algo(a->pad_algo, a->paddings, g->h, g->w, g->sh, g->sw, g->kh, g->kw, p)) {
    /* Paddle sizes SAME padding by the undilated kernel and then drops the dilation. */
    g->dh = g->dw = 1;
  }
  g->pt = p[0], g->pb = p[1], g->pl = p[2], g->pr = p[3];
  /* C division truncates toward zero, as in Paddle: a kernel that overhangs the padded
   * input by less than a stride still gives one output row. */
  g->oh = (g->h + g->pt + g->pb - (g->dh * (g->kh - 1) + 1)) / g->sh + 1;
  g->ow = (g->w + g->pl + g->pr - (g->dw * (g->kw - 1) + 1)) / g->sw + 1;
  if (g->oh < 1 || g->ow < 1) {
    ic_dims_str(x->ndim, x->dims, xd, sizeof xd);
    ic_dims_str(f->ndim, f->dims, fd, sizeof fd);
    return ic_kfail(c, IC_ERR_SHAPE,
                    "output of Input '%s' %s and Filter '%s' %s would be %lld x %lld (strides "
                    "[%lld, %lld], paddings [%lld, %lld, %lld, %lld], dilations [%lld, %lld]); "
                    "expected at least 1 x 1",
                    ic_in_name(c, IC_CONV_INPUT, 0), xd, ic_in_name(c, IC_CONV_FILTER, 0), fd,
                    (long long)g->oh, (long long)g->ow, (long long)g->sh, (long long)g->sw,
                    (long long)g->pt, (long long)g->pb, (long long)g->pl, (long long)g->pr,
                    (long long)g->dh, (long long)g->dw);
  }
  return IC_OK;
}

/* A blocked input (tensor.h ic_layout) must be what this kernel reads blocked: float32,
 * logical NCHW, whole channel blocks. */
static ic_status check_layout(ic_kctx *c, size_t slot) {
  const ic_conv_attrs *a = c->attrs;
  const ic_tensor *t = ic_in(c, slot, 0);
  if (!t->layout) return IC_OK;
  int blk = ic_layout_block(t->layout);
  bool padded = t->layout == IC_LAYOUT_NCHW16C_PAD;
  if (a->nhwc || t->dtype != IC_FP32 || t->ndim != 4 || !blk || (!padded && t->dims[1] % blk)) {
    return ic_kfail_in(c, slot, 0,
                       "expected the plain layout: a blocked input must be float32 NCHW with "
                       "whole channel blocks or nChw16c with padded channels (data_format %s)",
                       a->nhwc ? "NHWC" : "NCHW");
  }
  return IC_OK;
}

/* Output's dims: the convolution's, or with a fused depthwise convolution (NCHW only) its
 * output's: 3 x 3, padding 1, stride dw_stride. */
void ic_conv_out_dims(const ic_conv_attrs *a, const geom *g, int64_t d[4]) {
  d[0] = g->n;
  d[1] = a->nhwc ? g->oh : g->oc;
  d[2] = a->nhwc ? g->ow : g->oh;
  d[3] = a->nhwc ? g->oc : g->ow;
  if (a->dw_stride) {
    d[2] = (g->oh - 1) / a->dw_stride + 1;
    d[3] = (g->ow - 1) / a->dw_stride + 1;
  }
}


/* A fused depthwise convolution (ic_dw_stride): only after a float32 NCHW 1 x 1 convolution
 * with stride 1, no padding, no groups, no residual and no affine, both activations ones
 * oneDNN's post-ops express; ic_DwFilter [C_out, 1, 3, 3], ic_DwBias absent or [C_out].
 * Without ic_dw_stride neither input may be given. */
static ic_status dw_check(ic_kctx *c, const geom *g) {
  const ic_conv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IC_CONV_INPUT, 0);
  const ic_tensor *wf = ic_in(c, IC_CONV_DW_FILTER, 0), *wb = ic_in(c, IC_CONV_DW_BIAS, 0);
  ic_status st;
  if (!a->dw_stride) {
    if (wf || wb) {
      return ic_kfail_in(c, wf ? IC_CONV_DW_FILTER : IC_CONV_DW_BIAS, 0,
                         "given, but attribute ic_dw_stride is 0 (no fused depthwise "
                         "convolution)");
    }
    return IC_OK;
  }
  if (!wf) {
    return ic_kfail(c, IC_ERR_SHAPE, "ic_dw_stride is %lld but input ic_DwFilter is absent",
                    (long long)a->dw_stride);
  }
  bool aff = false;
  for (size_t k = IC_CONV_AFF_SCALE; k <= IC_CONV_PRE_BIAS; k++) aff |= ic_in(c, k, 0) != NULL;
  if (x->dtype != IC_FP32 || a->nhwc || g->kh != 1 || g->kw != 1 || g->sh != 1 || g->sw != 1 ||
      g->pt || g->pb || g->pl || g->pr || g->g != 1 || a->residual || aff ||
      !ic_conv_act_in_dnnl(a->act, a->alpha, a->beta) ||
      !ic_conv_act_in_dnnl(a->dw_act, a->dw_alpha, a->dw_beta)) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED,
                    "a fused depthwise convolution (ic_dw_stride %lld) follows only a float32 "
                    "NCHW 1 x 1 convolution with stride 1, no padding, groups 1, no residual "
                    "or affine, and activations oneDNN expresses",
                    (long long)a->dw_stride);
  }
  if ((st = ic_kcheck_dtype(c, IC_CONV_DW_FILTER, 0, IC_DT(IC_FP32)))) return st;
  const int64_t want[4] = {g->oc, 1, 3, 3};
  if (!ic_dims_equal(wf->ndim, wf->dims, 4, want)) {
    return ic_kfail_in(c, IC_CONV_DW_FILTER, 0, "expected [%lld, 1, 3, 3] (C_out = %lld)",
                       (long long)g->oc, (long long)g->oc);
  }
  if (wb) {
    if ((st = ic_kcheck_dtype(c, IC_CONV_DW_BIAS, 0, IC_DT(IC_FP32)))) return st;
    if (!ic_dims_equal(wb->ndim, wb->dims, 1, &g->oc)) {
      return ic_kfail_in(c, IC_CONV_DW_BIAS, 0, "expected [%lld] (C_out)", (long long)g->oc);
    }
  }
  return IC_OK;
}

/* ic_InScale (conv.h): float32 [N or 1, C_in, 1, 1], of a float32 NCHW convolution with
 * groups 1. An s of N images over an Input of one would broadcast the Input (the unfused
 * elementwise_mul's result has N images): refused, never computed wrong. */
static ic_status in_scale_check(ic_kctx *c, const geom *g) {
  const ic_conv_attrs *a = c->attrs;
  const ic_tensor *s = ic_in(c, IC_CONV_IN_SCALE, 0);
  if (!s) return IC_OK;
  if (ic_in(c, IC_CONV_INPUT, 0)->dtype != IC_FP32 || a->nhwc || g->g != 1) {
    return ic_kfail_in(c, IC_CONV_IN_SCALE, 0,
                       "an input channel scale is taken only by a float32 NCHW convolution "
                       "with groups 1 (this one: %s, groups %lld)",
                       a->nhwc ? "NHWC" : "NCHW", (long long)g->g);
  }
  ic_status st = ic_kcheck_dtype(c, IC_CONV_IN_SCALE, 0, IC_DT(IC_FP32));
  if (st) return st;
  if (s->ndim != 4 || (s->dims[0] != 1 && s->dims[0] != g->n) || s->dims[1] != g->c ||
      s->dims[2] != 1 || s->dims[3] != 1) {
    char got[128];
    return ic_kfail_in(c, IC_CONV_IN_SCALE, 0,
                       "is %s, expected [%lld or 1, %lld, 1, 1] (the Input's images and "
                       "channels)",
                       ic_dims_str(s->ndim, s->dims, got, sizeof got), (long long)g->n,
                       (long long)g->c);
  }
  return IC_OK;
}

ic_status ic_conv_infer(ic_kctx *c) {
  const ic_conv_attrs *a = c->attrs;
  geom g;
  ic_status st = check_layout(c, IC_CONV_INPUT);
  if (st || (st = ic_conv_geometry(c, &g)) || (st = dw_check(c, &g)) ||
      (st = in_scale_check(c, &g))) {
    return st;
  }
  const ic_tensor *x = ic_in(c, IC_CONV_INPUT, 0);
  const ic_tensor *b = ic_in(c, IC_CONV_BIAS, 0), *r = ic_in(c, IC_CONV_RESIDUAL, 0);
  int64_t od[4];
  ic_conv_out_dims(a, &g, od);
  if (a->residual && r && (st = check_layout(c, IC_CONV_RESIDUAL))) return st;
  if (b) {
    if ((st = ic_kcheck_dtype(c, IC_CONV_BIAS, 0, IC_DT(x->dtype)))) return st;
    /* Paddle's oneDNN kernel takes [C_out] or any shape whose only non-1 dim is dims[1]. */
    bool ok = b->ndim == 1 ? b->dims[0] == g.oc : b->ndim >= 2;
    for (int i = 0; b->ndim >= 2 && i < b->ndim && ok; i++) ok = b->dims[i] == (i == 1 ? g.oc : 1);
    if (!ok) {
      return ic_kfail_in(c, IC_CONV_BIAS, 0, "expected [%lld] or [1, %lld, 1, 1] (C_out = %lld)",
                         (long long)g.oc, (long long)g.oc, (long long)g.oc);
    }
  }
  for (size_t k = IC_CONV_AFF_SCALE; k <= IC_CONV_PRE_BIAS; k++) {
    const ic_tensor *t = ic_in(c, k, 0);
    if (!t) continue;
    if ((st = ic_kcheck_dtype(c, k, 0, IC_DT(x->dtype)))) return st;
    if (ic_numel(t->ndim, t->dims) != 1) {
      bool mul = k == IC_CONV_AFF_SCALE || k == IC_CONV_PRE_SCALE;
      return ic_kfail_in(c, k, 0, "expected one element (the scalar of a fused %s)",
                         mul ? "elementwise_mul" : "elementwise_add");
    }
  }
  if (a->residual) {
    if (!r) {
      return ic_kfail(c, IC_ERR_SHAPE,
                      "fuse_residual_connection is true but input ResidualData is absent");
    }
    if ((st = ic_kcheck_dtype(c, IC_CONV_RESIDUAL, 0, IC_DT(x->dtype)))) return st;
    if (!ic_dims_equal(r->ndim, r->dims, 4, od)) {
      char want[128];
      return ic_kfail_in(c, IC_CONV_RESIDUAL, 0, "expected the output's dims %s",
                         ic_dims_str(4, od, want, sizeof want));
    }
  }
  ic_tensor *y = ic_out(c, 0, 0);
  ic_tensor_set_meta(y, x->dtype, 4, od);
  /* Marked ic_blocked_pad: ask for storage with the channels padded to 16 (the layout is a
   * request to ic_tensor_alloc here; the kernel sets the one it writes). */
  if (a->blocked_out && a->blocked_pad && !a->nhwc && x->dtype == IC_FP32 && od[1] % 16) {
    y->layout = IC_LAYOUT_NCHW16C_PAD;
  }
  return IC_OK;
}

/* ---------------------------------------------------------------------------------------
 * Activations
 * ------------------------------------------------------------------------------------- */

/* Can oneDNN 2.6 express act as post-ops? Not hard_swish with other than its fixed 1/6, 1/2:
 * a loop then applies it (and the affines around it) after the primitive. */
bool ic_conv_act_in_dnnl(ic_conv_act act, float alpha, float beta) {
  return act != IC_ACT_HARD_SWISH || (alpha == 1.0f / 6.0f && beta == 0.5f);
}

/* Append the oneDNN 2.6 post-ops of act (ic_conv_act_in_dnnl holds). */
void ic_conv_act_post_ops(ic_conv_act act, float al, float be, dnnl_post_ops_t po,
                          dnnl_status_t *st) {
  dnnl_alg_kind_t alg;
  *st = dnnl_success;
  switch (act) {
    case IC_ACT_NONE: return;
    case IC_ACT_RELU: alg = dnnl_eltwise_relu; break;
    case IC_ACT_CLIP: alg = dnnl_eltwise_clip; break;
    case IC_ACT_HARD_SWISH:
      alg = dnnl_eltwise_hardswish;
      break;
    case IC_ACT_HARD_SIGMOID:
      /* oneDNN 2.6 has no hardsigmoid: linear then clip, as Paddle did on oneDNN 2. */
      *st = dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_linear, al, be);
      if (*st) return;
      alg = dnnl_eltwise_clip;
      al = 0.0f;
      be = 1.0f;
      break;
    case IC_ACT_SWISH: alg = dnnl_eltwise_swish; break;
    case IC_ACT_SIGMOID: alg = dnnl_eltwise_logistic; break;
    case IC_ACT_TANH: alg = dnnl_eltwise_tanh; break;
    case IC_ACT_ABS: alg = dnnl_eltwise_abs; break;
    case IC_ACT_SQRT: alg = dnnl_eltwise_sqrt; break;
    case IC_ACT_MISH: alg = dnnl_eltwise_mish; break;
    case IC_ACT_GELU_ERF: alg = dnnl_eltwise_gelu_erf; break;
    case IC_ACT_GELU_TANH: alg = dnnl_eltwise_gelu_tanh; break;
    default: return;
  }
  *st = dnnl_post_ops_append_eltwise(po, 1.0f, alg, al, be);
}

static double scalar_of(const ic_tensor *t, double dflt) {
  if (!t) return dflt;
  return t->dtype == IC_FP64 ? *(const double *)t->data : *(const float *)t->data;
}

ic_conv_affine ic_conv_affine_of(const ic_kctx *c) {
  const ic_tensor *s = ic_in(c, IC_CONV_AFF_SCALE, 0), *b = ic_in(c, IC_CONV_AFF_BIAS, 0);
  const ic_tensor *ps = ic_in(c, IC_CONV_PRE_SCALE, 0), *pb = ic_in(c, IC_CONV_PRE_BIAS, 0);
  return (ic_conv_affine){.on = s || b, .scale = scalar_of(s, 1.0), .bias = scalar_of(b, 0.0),
                  .pre_on = ps || pb, .pre_scale = scalar_of(ps, 1.0),
                  .pre_bias = scalar_of(pb, 0.0)};
}

/* Output += ResidualData, then the affine before the activation, the activation, the affine
 * after it (each affine as the unfused ops: a rounded product, then a rounded sum), over a
 * whole tensor (reference paths). */
#define DEFINE_EPILOGUE(NAME, T)                                                          \
  void NAME(const ic_conv_attrs *a, const ic_conv_affine *f, T *y, const T *res,         \
                   size_t n) {                                                            \
    if (res) {                                                                            \
      for (size_t i = 0; i < n; i++) y[i] += res[i];                                      \
    }                                                                                     \
    if (f && f->pre_on) {                                                                 \
      const T sc = (T)f->pre_scale, bi = (T)f->pre_bias;                                  \
      for (size_t i = 0; i < n; i++) {                                                    \
        T p = y[i] * sc;                                                                  \
        y[i] = p + bi;                                                                    \
      }                                                                                   \
    }                                                                                     \
    if (a->act != IC_ACT_NONE) {                                                          \
      for (size_t i = 0; i < n; i++) {                                                    \
        y[i] = (T)ic_conv_act_apply(a->act, a->alpha, a->beta, (double)y[i]);             \
      }                                                                                   \
    }                                                                                     \
    if (f && f->on) {                                                                     \
      const T sc = (T)f->scale, bi = (T)f->bias;                                          \
      for (size_t i = 0; i < n; i++) {                                                    \
        T p = y[i] * sc;                                                                  \
        y[i] = p + bi;                                                                    \
      }                                                                                   \
    }                                                                                     \
  }
DEFINE_EPILOGUE(ic_conv_epilogue_f32, float)
DEFINE_EPILOGUE(ic_conv_epilogue_f64, double)

ic_status ic_conv_cpu(ic_kctx *c) {
  const ic_conv_attrs *a = c->attrs;
  geom g;
  ic_status st = ic_conv_geometry(c, &g);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IC_CONV_INPUT, 0);
  if (x->dtype == IC_FP64) {
    const ic_tensor *r = a->residual ? ic_in(c, IC_CONV_RESIDUAL, 0) : NULL;
    return ic_conv_ref_f64(c, &g, x->data, r ? r->data : NULL, ic_out(c, 0, 0)->data);
  }
  /* infer asked for padded storage (ic_blocked_pad); the kernel decides what it writes. */
  ic_tensor *y = ic_out(c, 0, 0);
  bool pad_room = y->layout == IC_LAYOUT_NCHW16C_PAD && y->buf &&
                  y->buf->bytes >= (size_t)ic_tensor_storage_elems(y) * sizeof(float);
  y->layout = IC_LAYOUT_PLAIN;
  int threads = ic_dnnl_threads(c);
  int prev = ic_dnnl_threads_set(threads);
  bool ran = false;
  st = ic_conv_dnnl_run(c, &g, threads, pad_room, &ran);
  if (!st && !ran) st = ic_conv_ref_plain(c, &g);
  ic_dnnl_threads_restore(prev);
  return st;
}
