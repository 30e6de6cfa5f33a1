/* multi_gru: stacked bidirectional GRUs over LoD sequences, as Paddle's oneDNN
 * multi_gru_fuse_pass / multi_gru_seq_fuse_pass write them (fluid/operators/fused/mkldnn/
 * multi_gru_mkldnn_op.cc, its only kernel). X [T, M] with one LoD level; for each of `layers`
 * layers l, WeightX[2l] / WeightX[2l+1] [IC_l, 3D_l] (IC_0 = M, IC_l = 2 D_{l-1}), WeightH
 * [D_l, 3D_l] ({W_update, W_reset} [D, 2D] then W_state [D, D] in memory, as fusion_gru's) and
 * Bias [1, 3D_l] (optional, all or none) are the forward and the backward GRU. Each GRU runs
 * over every sequence from a zero state (the backward one from its last row), with gates
 * g = x WeightX + Bias (update u, reset r, state s) and, per step from state h,
 *   u = sigmoid(g_u + h W_u),  r = sigmoid(g_r + h W_r),  c = tanh(g_s + (r * h) W_state),
 *   h' = (1 - u) h + u c,  or with origin_mode  h' = u h + (1 - u) c;
 * a layer's output row is [forward h', backward h'] ([T, 2D_l]), the next layer's input.
 * Hidden is the last layer's [T, 2D] with X's LoD. activation must be tanh and
 * gate_activation sigmoid (the only ones Paddle's kernel takes); float32 only (the int8
 * Scale_weights / Scale_data / Shift_data are not applied). Computed in double per layer,
 * each layer's output rounded to float32. */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_WX, IN_WH, IN_BIAS, IN_SW };

typedef struct mgru_attrs {
  int64_t layers;
  bool origin;
} mgru_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  mgru_attrs *a = attrs;
  a->layers = ic_ar_int(r, "layers", 1);
  a->origin = ic_ar_bool(r, "origin_mode", false);
  const char *act = ic_ar_str(r, "activation", "tanh");
  const char *gate = ic_ar_str(r, "gate_activation", "sigmoid");
  if (r->st) return r->st;
  if (strcmp(act, "tanh") != 0) {
    return ic_ar_fail(r, "activation", "is \"%s\", expected tanh (Paddle's only one)", act);
  }
  if (strcmp(gate, "sigmoid") != 0) {
    return ic_ar_fail(r, "gate_activation", "is \"%s\", expected sigmoid (Paddle's only one)",
                      gate);
  }
  if (a->layers < 1) return ic_ar_fail(r, "layers", "is %lld, expected >= 1", (long long)a->layers);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const mgru_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT(IC_FP32))) return c->err->code;
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [T, M]");
  size_t ns;
  if (!ic_kseq(c, IN_X, 0, 0, &ns)) return c->err->code;
  const size_t nw = (size_t)(2 * a->layers);
  if (c->in[IN_WX].n != nw || c->in[IN_WH].n != nw ||
      (c->in[IN_BIAS].n != 0 && c->in[IN_BIAS].n != nw)) {
    return ic_kfail(c, IC_ERR_SHAPE,
                    "WeightX, WeightH (and Bias, if given) need %zu tensors each (2 per layer, "
                    "layers %lld), got %zu, %zu, %zu",
                    nw, (long long)a->layers, c->in[IN_WX].n, c->in[IN_WH].n, c->in[IN_BIAS].n);
  }
  int64_t ic = x->dims[1], D = 0;
  for (size_t i = 0; i < nw; i++) {
    const ic_tensor *wx = ic_in(c, IN_WX, i), *wh = ic_in(c, IN_WH, i), *b = ic_in(c, IN_BIAS, i);
    if (wh->dtype != IC_FP32 || wh->ndim != 2 || wh->dims[1] != 3 * wh->dims[0]) {
      return ic_kfail_in(c, IN_WH, i, "expected float32 [D, 3D]");
    }
    D = wh->dims[0];
    if (wx->dtype != IC_FP32 || !ic_dims_equal(wx->ndim, wx->dims, 2, (int64_t[]){ic, 3 * D})) {
      return ic_kfail_in(c, IN_WX, i, "expected float32 [%lld, %lld]", (long long)ic,
                         (long long)(3 * D));
    }
    if (b && (b->dtype != IC_FP32 || ic_tensor_numel_(b) != 3 * D)) {
      return ic_kfail_in(c, IN_BIAS, i, "expected float32 [1, %lld]", (long long)(3 * D));
    }
    if (i % 2 == 1) {
      if (D != ic_in(c, IN_WH, i - 1)->dims[0]) {
        return ic_kfail_in(c, IN_WH, i, "expected the hidden size of the forward GRU of its "
                           "layer (%lld)", (long long)ic_in(c, IN_WH, i - 1)->dims[0]);
      }
      ic = 2 * D;
    }
  }
  ic_tensor *h = ic_out(c, 0, 0);
  ic_tensor_set_meta(h, IC_FP32, 2, (int64_t[]){x->dims[0], ic});
  return ic_kset_lod(c, h, ic_lod_clone(x->lod), true);
}

static double sigm(double v) { return 1.0 / (1.0 + exp(-v)); }

/* One GRU (weights i) over every sequence of in [T, ic] into columns [col, col + D) of out
 * [T, ow]; h, rh, g are scratch of D, D and 3D doubles. */
static void gru(const ic_kctx *c, size_t i, bool origin, bool reverse, const float *in,
                int64_t ic, const uint64_t *off, size_t ns, float *out, int64_t ow, int64_t col,
                double *h, double *rh, double *g) {
  const ic_tensor *wxt = ic_in(c, IN_WX, i), *wht = ic_in(c, IN_WH, i), *bt = ic_in(c, IN_BIAS, i);
  const int64_t D = wht->dims[0];
  const float *wx = wxt->data, *wur = wht->data, *ws = wur + 2 * D * D;
  const float *b = bt ? (const float *)bt->data : NULL;
  for (size_t q = 0; q < ns; q++) {
    const int64_t len = (int64_t)(off[q + 1] - off[q]);
    for (int64_t j = 0; j < D; j++) h[j] = 0;
    for (int64_t t = 0; t < len; t++) {
      const int64_t r = (int64_t)off[q] + (reverse ? len - 1 - t : t);
      const float *xr = in + r * ic;
      for (int64_t j = 0; j < 3 * D; j++) {
        double s = b ? b[j] : 0.0;
        for (int64_t k = 0; k < ic; k++) s += (double)xr[k] * wx[k * 3 * D + j];
        g[j] = s;
      }
      for (int64_t j = 0; j < 2 * D; j++) {
        double s = g[j];
        for (int64_t k = 0; k < D; k++) s += h[k] * wur[k * 2 * D + j];
        g[j] = sigm(s);
      }
      for (int64_t k = 0; k < D; k++) rh[k] = g[D + k] * h[k];
      for (int64_t j = 0; j < D; j++) {
        double s = g[2 * D + j];
        for (int64_t k = 0; k < D; k++) s += rh[k] * ws[k * D + j];
        const double cand = tanh(s), u = g[j];
        h[j] = origin ? u * h[j] + (1 - u) * cand : (1 - u) * h[j] + u * cand;
      }
      for (int64_t j = 0; j < D; j++) out[r * ow + col + j] = (float)h[j];
    }
  }
}

static ic_status run(ic_kctx *c) {
  const mgru_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *hid = ic_out(c, 0, 0);
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_X, 0, 0, &ns);
  if (!off) return c->err->code;
  const int64_t T = x->dims[0];
  int64_t maxw = x->dims[1], maxd = 1;
  for (size_t i = 0; i < c->in[IN_WH].n; i++) {
    const int64_t D = ic_in(c, IN_WH, i)->dims[0];
    if (2 * D > maxw) maxw = 2 * D;
    if (D > maxd) maxd = D;
  }
  /* two layer buffers [T, maxw] floats, then h, rh, g doubles */
  const size_t fl = (size_t)(2 * T * maxw), dbl = (size_t)(5 * maxd);
  ic_buffer *s = ic_kscratch(c, dbl * sizeof(double) + fl * sizeof(float) + 8);
  if (!s) return c->err->code;
  double *h = s->data, *rh = h + maxd, *g = rh + maxd;
  float *bufs[2] = {(float *)(g + 3 * maxd), (float *)(g + 3 * maxd) + T * maxw};
  const float *in = x->data;
  int64_t ic = x->dims[1];
  for (int64_t l = 0; l < a->layers; l++) {
    const int64_t D = ic_in(c, IN_WH, (size_t)(2 * l))->dims[0];
    float *o = l + 1 == a->layers ? (float *)hid->data : bufs[l % 2];
    gru(c, (size_t)(2 * l), a->origin, false, in, ic, off, ns, o, 2 * D, 0, h, rh, g);
    gru(c, (size_t)(2 * l + 1), a->origin, true, in, ic, off, ns, o, 2 * D, D, h, rh, g);
    in = o;
    ic = 2 * D;
  }
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0},
                                    {"WeightX", IC_SLOT_MULTI},
                                    {"WeightH", IC_SLOT_MULTI},
                                    {"Bias", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
                                    {"Scale_weights", IC_SLOT_MULTI | IC_SLOT_OPTIONAL | IC_SLOT_IGNORED}};
static const ic_slotdef outputs[] = {{"Hidden", 0}};

const ic_opdef ic_op_multi_gru = {
    .name = "multi_gru",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(mgru_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
