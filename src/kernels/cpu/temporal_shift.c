/* temporal_shift: TSM's shift along time. X [N * T, C, H, W] (NCHW) or [N * T, H, W, C] (NHWC),
 * T = seg_num; channels [0, c1) take the previous frame's values, [c1, c2) the next frame's,
 * the rest their own, zeros past either end, with c1 = int(C * shift_ratio) and
 * c2 = int(C * 2 * shift_ratio) (paddle/phi/kernels/cpu/temporal_shift_kernel.cc,
 * TemporalShiftInferMeta). Any dtype (values are only moved). */
#include <string.h>

#include "kernels/cpu/temporal_shift.h"

typedef ic_ts_attrs ts_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

ic_status ic_ts_parse(ic_attr_reader *r, void *attrs) {
  ts_attrs *a = attrs;
  a->seg = ic_ar_int_req(r, "seg_num");
  a->ratio = (float)ic_ar_float(r, "shift_ratio", 0.25);
  const char *fmt = ic_ar_str(r, "data_format", "NCHW");
  if (r->st) return r->st;
  if (a->seg <= 0) return ic_ar_fail(r, "seg_num", "is %lld, expected > 0", (long long)a->seg);
  if (!(a->ratio >= 0 && a->ratio <= 0.5)) {
    return ic_ar_fail(r, "shift_ratio", "is %g, expected in [0, 0.5]", a->ratio);
  }
  if (strcmp(fmt, "NCHW") && strcmp(fmt, "NHWC") && strcmp(fmt, "AnyLayout")) {
    return ic_ar_fail(r, "data_format", "is '%s', expected NCHW or NHWC", fmt);
  }
  a->nhwc = !strcmp(fmt, "NHWC");
  return IC_OK;
}

ic_status ic_ts_infer(ic_kctx *c) {
  const ts_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 [N * seg_num, C, H, W]");
  if (x->dims[0] % a->seg) {
    return ic_kfail_in(c, 0, 0, "has %lld frames, expected a multiple of seg_num %lld",
                       (long long)x->dims[0], (long long)a->seg);
  }
  if (ic_out(c, 0, 0)) ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, x->dims);
  return IC_OK;
}

ic_status ic_ts_shift(ic_kctx *c, bool grad) {
  const ts_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (!o) return IC_OK;
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t T = a->seg, NT = x->dims[0];
  const int64_t C = a->nhwc ? x->dims[3] : x->dims[1];
  const int64_t HW = a->nhwc ? x->dims[1] * x->dims[2] : x->dims[2] * x->dims[3];
  const int64_t c1 = (int64_t)((double)C * a->ratio), c2 = (int64_t)((double)C * 2 * a->ratio);
  const size_t frame = (size_t)(C * HW) * es;
  const char *src = x->data;
  char *dst = o->data;
  for (int64_t f = 0; f < NT; f++) {
    const int64_t t = f % T;
    for (int64_t ch = 0; ch < C; ch++) {
      /* the forward reads frame t - 1 for [0, c1) and t + 1 for [c1, c2); its gradient flows
       * back the other way */
      const int64_t back = ch < c1 ? -1 : ch < c2 ? 1 : 0;
      const int64_t from = t + (grad ? -back : back);
      const bool zero = from < 0 || from >= T;
      const char *s = zero ? NULL : src + (size_t)(f + (from - t)) * frame;
      char *d = dst + (size_t)f * frame;
      if (!a->nhwc) {
        /* one channel plane */
        const size_t off = (size_t)(ch * HW) * es, n = (size_t)HW * es;
        if (zero) memset(d + off, 0, n);
        else memcpy(d + off, s + off, n);
      } else {
        for (int64_t p = 0; p < HW; p++) {
          const size_t off = (size_t)(p * C + ch) * es;
          if (zero) memset(d + off, 0, es);
          else memcpy(d + off, s + off, es);
        }
      }
    }
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) { return ic_ts_shift(c, false); }

const ic_opdef ic_op_temporal_shift = {
    .name = "temporal_shift", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(ts_attrs), .parse = ic_ts_parse,
    .infer = ic_ts_infer, .cpu = run,
};
