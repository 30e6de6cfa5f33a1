/* pixel_shuffle_grad: X@GRAD = Out@GRAD moved back by the inverse of pixel_shuffle's
 * permutation (phi PixelShuffleGradKernel: pixel_unshuffle), with
 *   X@GRAD[n, c * r * r + i * r + j, h, w] = Out@GRAD[n, c, h * r + i, w * r + j]
 * (NCHW; NHWC likewise). Input Out@GRAD only, as Paddle writes the op; pixel_shuffle's
 * attributes. Any dtype (elements are moved). */
#include "kernels/cpu/pixel_shuffle.h"

static ic_status infer(ic_kctx *c) {
  const ps_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 0, 0);
  if (g->ndim != 4) {
    return ic_kfail_in(c, 0, 0, "expected rank 4 (%s)", a->nhwc ? "NHWC" : "NCHW");
  }
  const int64_t r = a->r, H = a->nhwc ? g->dims[1] : g->dims[2];
  const int64_t W = a->nhwc ? g->dims[2] : g->dims[3];
  if (H % r != 0 || W % r != 0) {
    return ic_kfail_in(c, 0, 0,
                       "has height %lld and width %lld, expected multiples of upscale_factor "
                       "%lld", (long long)H, (long long)W, (long long)r);
  }
  int64_t d[4];
  if (a->nhwc) {
    d[0] = g->dims[0], d[1] = H / r, d[2] = W / r, d[3] = g->dims[3] * r * r;
  } else {
    d[0] = g->dims[0], d[1] = g->dims[1] * r * r, d[2] = H / r, d[3] = W / r;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, 4, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, 0, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_pixel_shuffle_move(c->attrs, dx->dims, ic_dtype_size(g->dtype), dx->data, (char *)g->data,
                        false);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_pixel_shuffle_grad = {
    .name = "pixel_shuffle_grad", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ps_attrs), .parse = ic_pixel_shuffle_parse, .infer = infer,
    .cpu = run,
};
