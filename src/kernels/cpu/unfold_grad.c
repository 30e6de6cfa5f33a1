/* unfold_grad: for unfold (im2col: X [N, C, H, W] -> Y [N, C * kh * kw, L], unfold.c gives
 * the window geometry), X@GRAD = col2im(Y@GRAD): every column entry added back to the image
 * place it was read from, windows visited as the forward op lays them out, in the data's type
 * (phi UnfoldGradKernel); entries read from the padding are dropped. Inputs X (meta only),
 * Y@GRAD; attributes kernel_sizes, strides, paddings, dilations. Float32 and float64. */
#include "kernels/cpu/kgrad.h"
#include "kernels/cpu/unfold.h"

static const ic_slotdef k_inputs[2] = {{"X", IC_SLOT_NO_BUFFER}, {"Y@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_unfold_parse_attrs(r, attrs, false);
}

static ic_status infer(ic_kctx *c) {
  const unfold_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected 4 dims [N, C, H, W]");
  int64_t oh, ow;
  if ((st = ic_unfold_blocks(c, 0, x->dims[2], x->dims[3], &oh, &ow))) return st;
  const int64_t d[3] = {x->dims[0], x->dims[1] * a->k[0] * a->k[1], oh * ow};
  if ((st = kg_expect(c, 1, g->dtype, 3, d, "unfold's Y"))) return st;
  kg_out(c, 0, g->dtype, 4, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const unfold_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *g = ic_in(c, 1, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3];
  int64_t OH, OW;
  ic_status st = ic_unfold_blocks(c, 0, H, W, &OH, &OW);
  if (st) return st;
  kg_zero(dx);
  int64_t k = 0;
  for (int64_t nc = 0; nc < N * C; nc++) {
    for (int64_t i = 0; i < a->k[0]; i++) {
      for (int64_t j = 0; j < a->k[1]; j++) {
        for (int64_t oh = 0; oh < OH; oh++) {
          const int64_t hh = oh * a->s[0] - a->p[0] + i * a->d[0];
          for (int64_t ow = 0; ow < OW; ow++, k++) {
            const int64_t ww = ow * a->s[1] - a->p[1] + j * a->d[1];
            if (hh >= 0 && hh < H && ww >= 0 && ww < W)
              kg_add(dx, (nc * H + hh) * W + ww, kg_get(g, k));
          }
        }
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_unfold_grad = {
    .name = "unfold_grad", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(unfold_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
