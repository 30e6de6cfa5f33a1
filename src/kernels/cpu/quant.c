/* See quant.h. */
#include "kernels/cpu/quant.h"

#include <string.h>

ic_status ic_quant_parse_bits(ic_attr_reader *r, const char *name, int64_t dflt, int *bin_cnt) {
  int64_t b = ic_ar_int(r, name, dflt);
  if (r->st) return r->st;
  if (b < 2 || b > 16) return ic_ar_fail(r, name, "must be in [2, 16], got %lld", (long long)b);
  *bin_cnt = (1 << (b - 1)) - 1;
  return IC_OK;
}

ic_status ic_quant_parse_round(ic_attr_reader *r, int64_t dflt, int *round_type) {
  int64_t v = ic_ar_int(r, "round_type", dflt);
  if (r->st) return r->st;
  if (v != 0 && v != 1) {
    return ic_ar_fail(r, "round_type", "must be 0 (ties to even) or 1 (ties away from zero), "
                      "got %lld", (long long)v);
  }
  *round_type = (int)v;
  return IC_OK;
}

ic_status ic_quant_channels(ic_kctx *c, size_t s, int quant_axis, int64_t *channels,
                            int64_t *inner) {
  const ic_tensor *x = ic_in(c, s, 0);
  if (quant_axis < 0) {
    *channels = 1;
    *inner = 1;
    return IC_OK;
  }
  if (quant_axis > 1 || quant_axis >= x->ndim) {
    return ic_kfail_in(c, s, 0, "quant_axis %d: expected 0 or 1 within the rank", quant_axis);
  }
  *channels = x->dims[quant_axis];
  *inner = ic_numel(x->ndim - quant_axis - 1, x->dims + quant_axis + 1);
  return IC_OK;
}

void ic_quant_pass_meta(ic_kctx *c, size_t os, size_t is) {
  ic_tensor *o = ic_out(c, os, 0);
  const ic_tensor *t = ic_in(c, is, 0);
  if (!o) return;
  if (t) {
    ic_tensor_set_meta(o, t->dtype, t->ndim, t->dims);
  } else {
    int64_t zero = 0;
    ic_tensor_set_meta(o, ic_in(c, 0, 0)->dtype, 1, &zero);
  }
}

void ic_quant_pass(ic_kctx *c, size_t os, size_t is) {
  ic_tensor *o = ic_out(c, os, 0);
  const ic_tensor *t = ic_in(c, is, 0);
  if (o && t) {
    memcpy(o->data, t->data, ic_dtype_size(t->dtype) * (size_t)ic_numel(t->ndim, t->dims));
  }
}
