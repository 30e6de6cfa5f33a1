/* pixel_shuffle_grad: X@GRAD = Out@GRAD moved back by the inverse of pixel_shuffle's
 * permutation (phi PixelShuffleGradKernel: pixel_unshuffle), with
 *   X@GRAD[n, c * r * r + i * r + j, h, w] = Out@GRAD[n, c, h * r + i, w * r + j]
 * (NCHW; NHWC likewise). Input Out@GRAD only, as Paddle writes the op; pixel_shuffle's
 * attributes. Any dtype (elements are moved). */
#include <string.h>

#include "kernels/kernel.h"

typedef struct ps_attrs {
  int64_t r;
  bool nhwc;
} ps_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ps_attrs *a = attrs;
  a->r = ic_ar_int(r, "upscale_factor", 1);
  const char *f = ic_ar_str(r, "data_format", "NCHW");
  if (r->st) return r->st;
  if (a->r < 1) return ic_ar_fail(r, "upscale_factor", "is %lld, expected >= 1", (long long)a->r);
  a->nhwc = !strcmp(f, "NHWC");
  if (!a->nhwc && strcmp(f, "NCHW") && strcmp(f, "AnyLayout")) {
    return ic_ar_fail(r, "data_format", "is \"%s\", expected NCHW or NHWC", f);
  }
  return IC_OK;
}

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
  const ps_attrs *a = c->attrs;
  const ic_tensor *g = ic_in(c, 0, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t r = a->r, N = dx->dims[0];
  const int64_t H = a->nhwc ? dx->dims[1] : dx->dims[2], W = a->nhwc ? dx->dims[2] : dx->dims[3];
  const int64_t C = (a->nhwc ? dx->dims[3] : dx->dims[1]) / (r * r);
  const size_t es = ic_dtype_size(g->dtype);
  const char *gp = g->data;
  char *dp = dx->data;
  for (int64_t n = 0; n < N; n++)
    for (int64_t ch = 0; ch < C; ch++)
      for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < r; j++) {
          const int64_t xc = ch * r * r + i * r + j;
          for (int64_t h = 0; h < H; h++)
            for (int64_t w = 0; w < W; w++) {
              int64_t xi, oi;
              if (a->nhwc) {
                xi = ((n * H + h) * W + w) * (C * r * r) + xc;
                oi = ((n * H * r + h * r + i) * W * r + w * r + j) * C + ch;
              } else {
                xi = ((n * C * r * r + xc) * H + h) * W + w;
                oi = ((n * C + ch) * H * r + h * r + i) * W * r + w * r + j;
              }
              memcpy(dp + (size_t)xi * es, gp + (size_t)oi * es, es);
            }
        }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_pixel_shuffle_grad = {
    .name = "pixel_shuffle_grad", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ps_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
