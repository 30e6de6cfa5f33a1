/* pixel_unshuffle: pixel_shuffle backwards (paddle/phi/kernels/impl/pixel_unshuffle_kernel_impl.h,
 * PixelUnshuffleInferMeta). With r the downscale_factor, X [N, C, H * r, W * r] becomes
 * Out [N, C * r * r, H, W] with Out[n, c * r * r + i * r + j, h, w] = X[n, c, h * r + i, w * r + j];
 * data_format NHWC does the same with the channels last. Any dtype (elements are moved). */
#include "kernels/cpu/pixel_shuffle.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_pixel_shuffle_parse_factor(r, attrs, "downscale_factor");
}

static ic_status infer(ic_kctx *c) {
  const ps_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 (%s)", a->nhwc ? "NHWC" : "NCHW");
  const int64_t h = a->nhwc ? x->dims[1] : x->dims[2], w = a->nhwc ? x->dims[2] : x->dims[3];
  if (h % a->r || w % a->r) {
    return ic_kfail_in(c, 0, 0, "has height %lld and width %lld, expected multiples of "
                       "downscale_factor %lld", (long long)h, (long long)w, (long long)a->r);
  }
  const int64_t rr = a->r * a->r;
  int64_t d[4];
  if (a->nhwc) {
    d[0] = x->dims[0], d[1] = h / a->r, d[2] = w / a->r, d[3] = x->dims[3] * rr;
  } else {
    d[0] = x->dims[0], d[1] = x->dims[1] * rr, d[2] = h / a->r, d[3] = w / a->r;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  /* Out has pixel_shuffle's input layout and X its output layout: the move backwards. */
  ic_pixel_shuffle_move(c->attrs, out->dims, ic_dtype_size(x->dtype), out->data, (char *)x->data,
                        false);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_pixel_unshuffle = {
    .name = "pixel_unshuffle", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ps_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
