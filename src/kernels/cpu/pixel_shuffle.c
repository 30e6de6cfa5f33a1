/* pixel_shuffle, as paddle/phi/kernels/impl/pixel_shuffle_kernel_impl.h: with r the
 * upscale_factor, X [N, C * r * r, H, W] becomes Out [N, C, H * r, W * r] with
 *   Out[n, c, h * r + i, w * r + j] = X[n, c * r * r + i * r + j, h, w];
 * data_format NHWC does the same on [N, H, W, C * r * r] -> [N, H * r, W * r, C]. Any dtype
 * (elements are moved). */
#include <string.h>

#include "kernels/cpu/pixel_shuffle.h"

ic_status ic_pixel_shuffle_parse_factor(ic_attr_reader *r, ps_attrs *a, const char *factor) {
  a->r = ic_ar_int(r, factor, 1);
  const char *f = ic_ar_str(r, "data_format", "NCHW");
  if (r->st) return r->st;
  if (a->r < 1) return ic_ar_fail(r, factor, "is %lld, expected >= 1", (long long)a->r);
  a->nhwc = !strcmp(f, "NHWC");
  if (!a->nhwc && strcmp(f, "NCHW") && strcmp(f, "AnyLayout")) {
    return ic_ar_fail(r, "data_format", "is \"%s\", expected NCHW or NHWC", f);
  }
  return IC_OK;
}

ic_status ic_pixel_shuffle_parse(ic_attr_reader *r, void *attrs) {
  return ic_pixel_shuffle_parse_factor(r, attrs, "upscale_factor");
}

static ic_status infer(ic_kctx *c) {
  const ps_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 (%s)", a->nhwc ? "NHWC" : "NCHW");
  const int64_t ch = a->nhwc ? x->dims[3] : x->dims[1], rr = a->r * a->r;
  if (ch % rr != 0) {
    return ic_kfail_in(c, 0, 0,
                       "has %lld channels, expected a multiple of upscale_factor^2 = %lld",
                       (long long)ch, (long long)rr);
  }
  int64_t d[4];
  if (a->nhwc) {
    d[0] = x->dims[0], d[1] = x->dims[1] * a->r, d[2] = x->dims[2] * a->r, d[3] = ch / rr;
  } else {
    d[0] = x->dims[0], d[1] = ch / rr, d[2] = x->dims[2] * a->r, d[3] = x->dims[3] * a->r;
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, d);
  return IC_OK;
}

void ic_pixel_shuffle_move(const ps_attrs *a, const int64_t xdims[4], size_t es, char *xp,
                           char *op, bool to_out) {
  const int64_t r = a->r, N = xdims[0];
  const int64_t H = a->nhwc ? xdims[1] : xdims[2], W = a->nhwc ? xdims[2] : xdims[3];
  const int64_t C = (a->nhwc ? xdims[3] : xdims[1]) / (r * r);
  for (int64_t n = 0; n < N; n++)
    for (int64_t ch = 0; ch < C; ch++)
      for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < r; j++) {
          const int64_t xc = ch * r * r + i * r + j;
          for (int64_t h = 0; h < H; h++)
            for (int64_t w = 0; w < W; w++) {
              int64_t src, dst;
              if (a->nhwc) {
                src = ((n * H + h) * W + w) * (C * r * r) + xc;
                dst = ((n * H * r + h * r + i) * W * r + w * r + j) * C + ch;
              } else {
                src = ((n * C * r * r + xc) * H + h) * W + w;
                dst = ((n * C + ch) * H * r + h * r + i) * W * r + w * r + j;
              }
              if (to_out) {
                memcpy(op + (size_t)dst * es, xp + (size_t)src * es, es);
              } else {
                memcpy(xp + (size_t)src * es, op + (size_t)dst * es, es);
              }
            }
        }
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  ic_pixel_shuffle_move(c->attrs, x->dims, ic_dtype_size(x->dtype), (char *)x->data, out->data,
                        true);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_pixel_shuffle = {
    .name = "pixel_shuffle",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ps_attrs), .parse = ic_pixel_shuffle_parse,
    .infer = infer, .cpu = run,
};
