/* The channel shuffle of channel_shuffle and channel_shuffle_grad (chshuffle.h). */
#include "kernels/cpu/chshuffle.h"

#include <string.h>

ic_status ic_chshuffle_parse(ic_attr_reader *r, void *attrs) {
  ic_chshuffle_attrs *a = attrs;
  a->groups = ic_ar_int_req(r, "groups");
  const char *f = ic_ar_str(r, "data_format", "NCHW");
  if (r->st) return r->st;
  if (a->groups < 1) return ic_ar_fail(r, "groups", "is %lld, expected >= 1", (long long)a->groups);
  a->nhwc = !strcmp(f, "NHWC");
  if (!a->nhwc && strcmp(f, "NCHW") && strcmp(f, "AnyLayout")) {
    return ic_ar_fail(r, "data_format", "is \"%s\", expected NCHW or NHWC", f);
  }
  return IC_OK;
}

ic_status ic_chshuffle_infer(ic_kctx *c) {
  const ic_chshuffle_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 (%s)", a->nhwc ? "NHWC" : "NCHW");
  const int64_t ch = a->nhwc ? x->dims[3] : x->dims[1];
  if (ch % a->groups) {
    return ic_kfail_in(c, 0, 0, "has %lld channels, expected a multiple of groups %lld",
                       (long long)ch, (long long)a->groups);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, x->dims);
  return IC_OK;
}

ic_status ic_chshuffle_run(ic_kctx *c, bool inverse) {
  const ic_chshuffle_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t N = x->dims[0], C = a->nhwc ? x->dims[3] : x->dims[1];
  const int64_t HW = a->nhwc ? x->dims[1] * x->dims[2] : x->dims[2] * x->dims[3];
  const int64_t G = a->groups, per = C / G;
  const char *src = x->data;
  char *dst = o->data;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t g = 0; g < G; g++) {
      for (int64_t j = 0; j < per; j++) {
        const int64_t a0 = g * per + j, a1 = j * G + g;
        const int64_t from = inverse ? a1 : a0, to = inverse ? a0 : a1;
        if (!a->nhwc) {
          memcpy(dst + (size_t)((n * C + to) * HW) * es, src + (size_t)((n * C + from) * HW) * es,
                 (size_t)HW * es);
        } else {
          for (int64_t p = 0; p < HW; p++) {
            memcpy(dst + (size_t)((n * HW + p) * C + to) * es,
                   src + (size_t)((n * HW + p) * C + from) * es, es);
          }
        }
      }
    }
  }
  return IC_OK;
}
