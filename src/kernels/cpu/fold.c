/* fold: the inverse of unfold (unfold.c gives the window geometry): X [N, C * kh * kw, L]
 * columns summed back into Y [N, C, H, W], [H, W] = output_sizes, L the window positions of
 * such an image; overlapping windows add up (in the dtype, column by column), positions in
 * the padding are dropped. float32, float64 (paddle/phi/kernels/impl/fold_kernel_impl.h,
 * funcs/im2col.cc Col2Im kCFO, FoldInferMeta). */
#include <string.h>

#include "kernels/cpu/unfold.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Y", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_unfold_parse_attrs(r, attrs, true);
}

static ic_status infer(ic_kctx *c) {
  const unfold_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim != 3) return ic_kfail_in(c, 0, 0, "expected 3 dims [N, C * kh * kw, L]");
  int64_t kk = a->k[0] * a->k[1], oh, ow;
  if (x->dims[1] % kk != 0) {
    return ic_kfail_in(c, 0, 0, "expected dim 1 a multiple of kh * kw = %lld", (long long)kk);
  }
  st = ic_unfold_blocks(c, 0, a->out[0], a->out[1], &oh, &ow);
  if (st) return st;
  if (x->dims[2] != oh * ow) {
    return ic_kfail_in(c, 0, 0, "expected dim 2 = %lld (%lld x %lld window positions of a "
                       "%lld x %lld image)", (long long)(oh * ow), (long long)oh,
                       (long long)ow, (long long)a->out[0], (long long)a->out[1]);
  }
  int64_t d[4] = {x->dims[0], x->dims[1] / kk, a->out[0], a->out[1]};
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, d);
  return IC_OK;
}

#define FOLD(T)                                                                              \
  do {                                                                                       \
    const T *xp = x->data;                                                                   \
    T *yp = y->data;                                                                         \
    for (int64_t n = 0; n < N; n++) {                                                        \
      for (int64_t ch = 0; ch < C; ch++) {                                                   \
        T *img = yp + (n * C + ch) * H * W;                                                  \
        for (int64_t i = 0; i < a->k[0]; i++) {                                              \
          for (int64_t j = 0; j < a->k[1]; j++) {                                            \
            for (int64_t oh = 0; oh < OH; oh++) {                                            \
              int64_t hh = oh * a->s[0] - a->p[0] + i * a->d[0];                             \
              for (int64_t ow = 0; ow < OW; ow++, xp++) {                                    \
                int64_t ww = ow * a->s[1] - a->p[1] + j * a->d[1];                           \
                if (hh >= 0 && hh < H && ww >= 0 && ww < W) img[hh * W + ww] += *xp;         \
              }                                                                              \
            }                                                                                \
          }                                                                                  \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
  } while (0)

static ic_status run(ic_kctx *c) {
  const unfold_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  int64_t N = y->dims[0], C = y->dims[1], H = y->dims[2], W = y->dims[3], OH, OW;
  ic_status st = ic_unfold_blocks(c, 0, H, W, &OH, &OW);
  if (st) return st;
  if (N * C * H * W == 0) return IC_OK;
  memset(y->data, 0, (size_t)(N * C * H * W) * ic_dtype_size(y->dtype));
  if (x->dtype == IC_FP32) FOLD(float);
  else FOLD(double);
  return IC_OK;
}

const ic_opdef ic_op_fold = {
    .name = "fold", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(unfold_attrs), .parse = parse, .infer = infer, .cpu = run,
};
