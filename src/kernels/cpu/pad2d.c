/* pad2d (Paddle 1.x/2.x; Paddle 3 exports pad3d): pads the height and width of a 4-D X
 * (NCHW, the default, or NHWC) by paddings [top, bottom, left, right] (the attribute, or the
 * 4-element int32 input Paddings when given), each >= 0, in `mode`: "constant" (default,
 * the float pad_value, default 0), "reflect" (mirrored without the edge, each pad < its
 * dim) or "edge" (the edge repeated) (paddle/fluid/operators/pad2d_op.cc). float32, float64,
 * int32, int64. */
#include <string.h>

#include "kernels/cpu/fill.h"
#include "kernels/cpu/padutil.h"
#include "kernels/cpu/shapeops.h"

typedef struct pad2d_attrs {
  const int64_t *pads;
  size_t n_pads;
  int mode;
  double value;
  bool channel_last;
} pad2d_attrs;

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Paddings", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pad2d_attrs *a = attrs;
  bool tensor = ic_op_input(r->op, "Paddings") && ic_op_input(r->op, "Paddings")->n > 0;
  ic_ar_ints(r, "paddings", !tensor, &a->pads, &a->n_pads);
  const char *mode = ic_ar_str(r, "mode", "constant");
  a->value = ic_ar_float(r, "pad_value", 0.0);
  const char *fmt = ic_ar_str(r, "data_format", "NCHW");
  if (r->st) return r->st;
  if (!strcmp(mode, "constant")) {
    a->mode = IC_PAD_CONSTANT;
  } else if (!strcmp(mode, "reflect")) {
    a->mode = IC_PAD_REFLECT;
  } else if (!strcmp(mode, "edge")) {
    a->mode = IC_PAD_REPLICATE;
  } else {
    return ic_ar_fail(r, "mode", "must be constant, reflect or edge, got \"%s\"", mode);
  }
  if (!strcmp(fmt, "NHWC")) {
    a->channel_last = true;
  } else if (strcmp(fmt, "NCHW")) {
    return ic_ar_fail(r, "data_format", "must be NCHW or NHWC, got \"%s\"", fmt);
  }
  return r->st;
}

/* The 4 paddings [top, bottom, left, right] and the spatial dims [H, W]. */
static ic_status plan(ic_kctx *c, int64_t *p, int64_t *sp) {
  const pad2d_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4");
  size_t n = 0;
  const char *from = "attribute 'paddings'";
  if (ic_in(c, 1, 0)) {
    from = "input Paddings";
    ic_status st = ic_shapeops_read_ints(c, 1, false, "paddings", p, 4, &n);
    if (st) return st;
  } else {
    n = a->n_pads;
    for (size_t i = 0; i < n && i < 4; i++) p[i] = a->pads[i];
  }
  if (n != 4) return ic_kfail_in(c, 0, 0, "%s has %zu values, expected 4", from, n);
  sp[0] = x->dims[a->channel_last ? 1 : 2];
  sp[1] = x->dims[a->channel_last ? 2 : 3];
  for (int i = 0; i < 4; i++) {
    int64_t dim = sp[i / 2];
    const char *why = NULL;
    if (p[i] < 0) {
      why = "expected >= 0";
    } else if (a->mode == IC_PAD_REFLECT && p[i] >= dim) {
      why = "reflect mode needs each pad smaller than its dim";
    } else if (a->mode != IC_PAD_CONSTANT && dim == 0 && p[i] > 0) {
      why = "only constant mode pads an empty dim";
    }
    if (why) {
      return ic_kfail_in(c, 0, 0, "%s holds %lld at position %d (dim %lld): %s", from,
                         (long long)p[i], i, (long long)dim, why);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const pad2d_attrs *a = c->attrs;
  int64_t p[4], sp[2];
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st || (st = plan(c, p, sp))) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t d[4];
  for (int i = 0; i < 4; i++) d[i] = x->dims[i];
  int s0 = a->channel_last ? 1 : 2;
  d[s0] += p[0] + p[1];
  d[s0 + 1] += p[2] + p[3];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, d);
  return IC_OK;
}

static ic_status pad2d_cpu(ic_kctx *c) {
  const pad2d_attrs *a = c->attrs;
  int64_t p[4], sp[2];
  ic_status st = plan(c, p, sp);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (ic_numel(4, o->dims) == 0) return IC_OK;
  size_t es = ic_dtype_size(x->dtype);
  uint64_t fill = ic_fill_bits(x->dtype, (ic_fill_scalar){false, 0, a->value});
  int64_t N = x->dims[0], C = x->dims[a->channel_last ? 3 : 1], H = sp[0], W = sp[1];
  int64_t OH = H + p[0] + p[1], OW = W + p[2] + p[3];
  const char *xp = x->data;
  char *op = o->data;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t oh = 0; oh < OH; oh++) {
      int64_t ih = ic_pad_src(a->mode, oh, p[0], H);
      for (int64_t ow = 0; ow < OW; ow++) {
        int64_t iw = ic_pad_src(a->mode, ow, p[2], W);
        for (int64_t ch = 0; ch < C; ch++) {
          int64_t oi = a->channel_last ? ((n * OH + oh) * OW + ow) * C + ch
                                       : ((n * C + ch) * OH + oh) * OW + ow;
          if (ih < 0 || iw < 0) {
            ic_fill_store_bits(op + (size_t)oi * es, es, 1, fill);
          } else {
            int64_t ii = a->channel_last ? ((n * H + ih) * W + iw) * C + ch
                                         : ((n * C + ch) * H + ih) * W + iw;
            memcpy(op + (size_t)oi * es, xp + (size_t)ii * es, es);
          }
        }
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_pad2d = {
    .name = "pad2d", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(pad2d_attrs), .parse = parse, .infer = infer, .cpu = pad2d_cpu,
};
