/* pad3d: pads the depth, height and width of a 5-D X (NCDHW, the default, or NDHWC) by
 * paddings [left, right, top, bottom, front, back] (the attribute, or the 6-element int32
 * input Paddings when given), each >= 0, in `mode`:
 *   "constant" (default)  the float `value` (default 0);
 *   "reflect"             mirrored without repeating the edge (each pad < its dim);
 *   "replicate"           the edge repeated;
 *   "circular"            wrapped around (each pad <= its dim).
 * As paddle/phi/kernels/cpu/pad3d_kernel.cc and Pad3dInferMeta; float32, float64, int32,
 * int64. */
#include <string.h>

#include "kernels/cpu/fill.h"
#include "kernels/cpu/padutil.h"
#include "kernels/cpu/shapeops.h"

typedef struct pad3d_attrs {
  const int64_t *pads;
  size_t n_pads;
  int mode;
  double value;
  bool channel_last;
} pad3d_attrs;

static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Paddings", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};
static const char *const k_modes[] = {"constant", "reflect", "replicate", "circular"};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pad3d_attrs *a = attrs;
  bool tensor = ic_op_input(r->op, "Paddings") && ic_op_input(r->op, "Paddings")->n > 0;
  ic_ar_ints(r, "paddings", !tensor, &a->pads, &a->n_pads);
  const char *mode = ic_ar_str(r, "mode", "constant");
  a->value = ic_ar_float(r, "value", 0.0);
  const char *fmt = ic_ar_str(r, "data_format", "NCDHW");
  if (r->st) return r->st;
  a->mode = -1;
  for (int i = 0; i < 4; i++) {
    if (!strcmp(mode, k_modes[i])) a->mode = i;
  }
  if (a->mode < 0) {
    return ic_ar_fail(r, "mode", "must be constant, reflect, replicate or circular, got \"%s\"",
                      mode);
  }
  if (!strcmp(fmt, "NDHWC")) {
    a->channel_last = true;
  } else if (strcmp(fmt, "NCDHW")) {
    return ic_ar_fail(r, "data_format", "must be NCDHW or NDHWC, got \"%s\"", fmt);
  }
  return r->st;
}

/* The 6 paddings and the spatial dims [D, H, W]. */
static ic_status plan(ic_kctx *c, int64_t *p, int64_t *sp) {
  const pad3d_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim != 5) return ic_kfail_in(c, 0, 0, "expected rank 5");
  size_t n = 0;
  const char *from = "attribute 'paddings'";
  if (ic_in(c, 1, 0)) {
    from = "input Paddings";
    ic_status st = ic_shapeops_read_ints(c, 1, false, "paddings", p, 6, &n);
    if (st) return st;
  } else {
    n = a->n_pads;
    for (size_t i = 0; i < n && i < 6; i++) p[i] = a->pads[i];
  }
  if (n != 6) return ic_kfail_in(c, 0, 0, "%s has %zu values, expected 6", from, n);
  for (int i = 0; i < 3; i++) sp[i] = x->dims[a->channel_last ? 1 + i : 2 + i];
  for (int i = 0; i < 6; i++) {
    int64_t dim = sp[2 - i / 2]; /* left/right pad W, top/bottom H, front/back D */
    const char *why = NULL;
    if (p[i] < 0) {
      why = "expected >= 0";
    } else if (a->mode == IC_PAD_REFLECT && p[i] >= dim) {
      why = "reflect mode needs each pad smaller than its dim";
    } else if (a->mode == IC_PAD_CIRCULAR && p[i] > dim) {
      why = "circular mode needs each pad at most its dim";
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
  const pad3d_attrs *a = c->attrs;
  int64_t p[6], sp[3];
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st || (st = plan(c, p, sp))) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t d[5];
  for (int i = 0; i < 5; i++) d[i] = x->dims[i];
  int s0 = a->channel_last ? 1 : 2;
  d[s0] += p[4] + p[5];
  d[s0 + 1] += p[2] + p[3];
  d[s0 + 2] += p[0] + p[1];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 5, d);
  return IC_OK;
}

static ic_status pad3d_cpu(ic_kctx *c) {
  const pad3d_attrs *a = c->attrs;
  int64_t p[6], sp[3];
  ic_status st = plan(c, p, sp);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (ic_numel(5, o->dims) == 0) return IC_OK;
  size_t es = ic_dtype_size(x->dtype);
  uint64_t fill = ic_fill_bits(x->dtype, (ic_fill_scalar){false, 0, a->value});
  int64_t N = x->dims[0], C = x->dims[a->channel_last ? 4 : 1];
  int64_t D = sp[0], H = sp[1], W = sp[2];
  int64_t OD = D + p[4] + p[5], OH = H + p[2] + p[3], OW = W + p[0] + p[1];
  /* Element (n, c, d, h, w) at ((n * C + c) * D + d) * H * W + h * W + w (NCDHW) or
   * (((n * D + d) * H + h) * W + w) * C + c (NDHWC). */
  const char *xp = x->data;
  char *op = o->data;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t od = 0; od < OD; od++) {
      int64_t id = ic_pad_src(a->mode, od, p[4], D);
      for (int64_t oh = 0; oh < OH; oh++) {
        int64_t ih = ic_pad_src(a->mode, oh, p[2], H);
        for (int64_t ow = 0; ow < OW; ow++) {
          int64_t iw = ic_pad_src(a->mode, ow, p[0], W);
          bool pad = id < 0 || ih < 0 || iw < 0;
          for (int64_t ch = 0; ch < C; ch++) {
            int64_t oi, ii;
            if (a->channel_last) {
              oi = (((n * OD + od) * OH + oh) * OW + ow) * C + ch;
              ii = (((n * D + id) * H + ih) * W + iw) * C + ch;
            } else {
              oi = (((n * C + ch) * OD + od) * OH + oh) * OW + ow;
              ii = (((n * C + ch) * D + id) * H + ih) * W + iw;
            }
            if (pad) {
              ic_fill_store_bits(op + (size_t)oi * es, es, 1, fill);
            } else {
              memcpy(op + (size_t)oi * es, xp + (size_t)ii * es, es);
            }
          }
        }
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_pad3d = {
    .name = "pad3d", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(pad3d_attrs), .parse = parse, .infer = infer, .cpu = pad3d_cpu,
};
