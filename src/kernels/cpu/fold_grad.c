/* fold_grad: for fold (col2im: X [N, C * kh * kw, L] -> Y [N, C, H, W], [H, W] =
 * output_sizes), X@GRAD = im2col(Y@GRAD): each column entry reads back the image place it
 * was added to, 0 for places in the padding (phi FoldGradKernel). Inputs X (meta only),
 * Y@GRAD [N, C, H, W]; attributes output_sizes, kernel_sizes, strides, paddings, dilations.
 * Float32 and float64. */
#include "kernels/cpu/kgrad.h"
#include "kernels/cpu/unfold.h"

static const ic_slotdef k_inputs[2] = {{"X", IC_SLOT_NO_BUFFER}, {"Y@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_unfold_parse_attrs(r, attrs, true);
}

static ic_status infer(ic_kctx *c) {
  const unfold_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  const int64_t kk = a->k[0] * a->k[1];
  if (x->ndim != 3 || x->dims[1] % kk) {
    return ic_kfail_in(c, 0, 0, "expected 3 dims [N, C * %lld, L]", (long long)kk);
  }
  int64_t oh, ow;
  if ((st = ic_unfold_blocks(c, 0, a->out[0], a->out[1], &oh, &ow))) return st;
  if (x->dims[2] != oh * ow) {
    return ic_kfail_in(c, 0, 0, "expected %lld columns (window positions of a %lld x %lld image)",
                       (long long)(oh * ow), (long long)a->out[0], (long long)a->out[1]);
  }
  const int64_t d[4] = {x->dims[0], x->dims[1] / kk, a->out[0], a->out[1]};
  if ((st = kg_expect(c, 1, g->dtype, 4, d, "fold's Y"))) return st;
  kg_out(c, 0, g->dtype, 3, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const unfold_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t NC = g->dims[0] * g->dims[1], H = g->dims[2], W = g->dims[3];
  int64_t OH, OW;
  ic_status st = ic_unfold_blocks(c, 0, H, W, &OH, &OW);
  if (st) return st;
  int64_t k = 0;
  for (int64_t nc = 0; nc < NC; nc++) {
    for (int64_t i = 0; i < a->k[0]; i++) {
      for (int64_t j = 0; j < a->k[1]; j++) {
        for (int64_t oh = 0; oh < OH; oh++) {
          const int64_t hh = oh * a->s[0] - a->p[0] + i * a->d[0];
          for (int64_t ow = 0; ow < OW; ow++, k++) {
            const int64_t ww = ow * a->s[1] - a->p[1] + j * a->d[1];
            const bool in = hh >= 0 && hh < H && ww >= 0 && ww < W;
            kg_put(dx, k, in ? kg_get(g, (nc * H + hh) * W + ww) : 0.0);
          }
        }
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_fold_grad = {
    .name = "fold_grad", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(unfold_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
