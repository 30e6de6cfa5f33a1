/* pixel_unshuffle_grad: X@GRAD = Out@GRAD moved back by the inverse of pixel_unshuffle's
 * permutation (phi PixelUnshuffleGradKernel: a pixel_shuffle), with r the downscale_factor
 *   X@GRAD[n, c, h * r + i, w * r + j] = Out@GRAD[n, c * r * r + i * r + j, h, w]
 * (NCHW; NHWC likewise with the channels last). Input Out@GRAD only, as Paddle writes the op;
 * pixel_unshuffle's attributes. Any dtype (elements are moved). */
#include "kernels/cpu/pixel_shuffle.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_pixel_shuffle_parse_factor(r, attrs, "downscale_factor");
}

static ic_status infer(ic_kctx *c) {
  const ps_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 0, 0);
  if (g->ndim != 4) {
    return ic_kfail_in(c, 0, 0, "expected rank 4 (%s)", a->nhwc ? "NHWC" : "NCHW");
  }
  const int64_t ch = a->nhwc ? g->dims[3] : g->dims[1], rr = a->r * a->r;
  if (ch % rr != 0) {
    return ic_kfail_in(c, 0, 0,
                       "has %lld channels, expected a multiple of downscale_factor^2 = %lld",
                       (long long)ch, (long long)rr);
  }
  int64_t d[4];
  if (a->nhwc) {
    d[0] = g->dims[0], d[1] = g->dims[1] * a->r, d[2] = g->dims[2] * a->r, d[3] = ch / rr;
  } else {
    d[0] = g->dims[0], d[1] = ch / rr, d[2] = g->dims[2] * a->r, d[3] = g->dims[3] * a->r;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, 4, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *g = ic_in(c, 0, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  /* Out@GRAD has pixel_shuffle's input layout and X@GRAD its output layout */
  ic_pixel_shuffle_move(c->attrs, g->dims, ic_dtype_size(g->dtype), (char *)g->data, dx->data,
                        true);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_pixel_unshuffle_grad = {
    .name = "pixel_unshuffle_grad", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ps_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
