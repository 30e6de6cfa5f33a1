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

ic_status ic_quant_scalar_infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *s = ic_in(c, 1, 0);
  if (s->dtype != x->dtype || ic_numel(s->ndim, s->dims) != 1) {
    return ic_kfail_in(c, 1, 0, "expected one element of X's dtype");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

void ic_quant_apply(const ic_tensor *x, const ic_tensor *s, ic_tensor *o, int bin_cnt,
                    int round_type, bool dequant) {
  int64_t n = ic_numel(x->ndim, x->dims);
  if (x->dtype == IC_FP32) {
    const float *xp = x->data, sc = *(const float *)s->data, bin = (float)bin_cnt;
    float *op = o->data;
    for (int64_t i = 0; i < n; i++) {
      op[i] = dequant ? ic_quant_dequant_f32(xp[i], sc, bin, round_type)
                      : ic_quant_f32(xp[i], sc, bin, round_type);
    }
  } else {
    const double *xp = x->data, sc = *(const double *)s->data, bin = bin_cnt;
    double *op = o->data;
    for (int64_t i = 0; i < n; i++) {
      op[i] = dequant ? ic_quant_dequant_f64(xp[i], sc, bin, round_type)
                      : ic_quant_f64(xp[i], sc, bin, round_type);
    }
  }
}

void ic_quant_scalar_run(ic_kctx *c, int bin_cnt, int round_type, bool dequant) {
  ic_quant_apply(ic_in(c, 0, 0), ic_in(c, 1, 0), ic_out(c, 0, 0), bin_cnt, round_type, dequant);
}

/* Paddle's FindAbsMaxFunctor is |*max_element(by |.|)|: it starts from the first element
 * and takes a later one only when strictly larger, so a NaN first element stays and a later
 * NaN is skipped; the same scan here. */
double ic_quant_abs_max(const ic_tensor *x) {
  int64_t n = ic_numel(x->ndim, x->dims);
  if (n <= 0) return 0;
  double m;
  if (x->dtype == IC_FP32) {
    const float *p = x->data;
    m = fabs((double)p[0]);
    for (int64_t i = 1; i < n; i++) m = m < fabs((double)p[i]) ? fabs((double)p[i]) : m;
  } else {
    const double *p = x->data;
    m = fabs(p[0]);
    for (int64_t i = 1; i < n; i++) m = m < fabs(p[i]) ? fabs(p[i]) : m;
  }
  return m;
}

ic_status ic_quant_check_one(ic_kctx *c, size_t s, bool out, const char *what) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (out) {
    if (ic_out(c, s, 0)) return IC_OK;
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "output %s is absent: %s",
                    c->def->outputs[s].name, what);
  }
  const ic_tensor *t = ic_in(c, s, 0);
  if (t && t->dtype == x->dtype && ic_numel(t->ndim, t->dims) == 1) return IC_OK;
  if (!t) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "input %s is absent: %s",
                    c->def->inputs[s].name, what);
  }
  return ic_kfail_in(c, s, 0, "expected one element of X's dtype (%s)", what);
}

/* ---- moving-average abs-max ---- */

enum { MA_X, MA_SCALE, MA_ACCUM, MA_STATE };
enum { MA_OUT, MA_OUT_SCALE, MA_OUT_STATE, MA_OUT_ACCUM };

const ic_slotdef ic_quant_ma_inputs[4] = {
    {"X", 0}, {"InScale", 0}, {"InAccum", IC_SLOT_OPTIONAL}, {"InState", IC_SLOT_OPTIONAL}};
const ic_slotdef ic_quant_ma_outputs[4] = {{"Out", 0},
                                           {"OutScale", IC_SLOT_OPTIONAL},
                                           {"OutState", IC_SLOT_OPTIONAL},
                                           {"OutAccum", IC_SLOT_OPTIONAL}};

ic_status ic_quant_ma_parse(ic_attr_reader *r, void *attrs) {
  ic_quant_ma_attrs *a = attrs;
  ic_quant_parse_bits(r, "bit_length", 8, &a->bin_cnt);
  ic_quant_parse_round(r, 1, &a->round_type);
  double rate = ic_ar_float(r, "moving_rate", 0.9);
  a->is_test = ic_ar_bool(r, "is_test", false);
  if (r->st) return r->st;
  if (!(rate >= 0 && rate <= 1)) {
    return ic_ar_fail(r, "moving_rate", "must be in [0, 1], got %g", rate);
  }
  a->moving_rate = (float)rate; /* a FLOAT attribute: exact */
  return IC_OK;
}

static const char k_ma_train[] = "training (is_test false) updates the moving average";

ic_status ic_quant_ma_infer(ic_kctx *c) {
  const ic_quant_ma_attrs *a = c->attrs;
  ic_status st;
  if (a->is_test) {
    if ((st = ic_quant_scalar_infer(c))) return st;
    ic_quant_pass_meta(c, MA_OUT_SCALE, MA_SCALE);
    ic_quant_pass_meta(c, MA_OUT_STATE, MA_STATE);
    ic_quant_pass_meta(c, MA_OUT_ACCUM, MA_ACCUM);
    return IC_OK;
  }
  if ((st = ic_kcheck_dtype(c, MA_X, 0, IC_DT_FLOAT)) ||
      (st = ic_quant_check_one(c, MA_ACCUM, false, k_ma_train)) ||
      (st = ic_quant_check_one(c, MA_STATE, false, k_ma_train)) ||
      (st = ic_quant_check_one(c, MA_OUT_SCALE, true, k_ma_train)) ||
      (st = ic_quant_check_one(c, MA_OUT_STATE, true, k_ma_train)) ||
      (st = ic_quant_check_one(c, MA_OUT_ACCUM, true, k_ma_train))) {
    return st;
  }
  const ic_tensor *x = ic_in(c, MA_X, 0);
  int64_t one = 1;
  ic_tensor_set_meta(ic_out(c, MA_OUT, 0), x->dtype, x->ndim, x->dims);
  for (size_t k = MA_OUT_SCALE; k <= MA_OUT_ACCUM; k++) {
    ic_tensor_set_meta(ic_out(c, k, 0), x->dtype, 1, &one);
  }
  return IC_OK;
}

#define MA_UPDATE(T)                                                                       \
  do {                                                                                     \
    const T r = (T)rate, cur = (T)ic_quant_abs_max(x);                                     \
    const T st = r * *(const T *)state->data + (T)1;                                       \
    const T acc = r * *(const T *)accum->data + cur;                                       \
    *(T *)out_state->data = st;                                                            \
    *(T *)out_accum->data = acc;                                                           \
    *(T *)out_scale->data = acc / st;                                                      \
  } while (0)

void ic_quant_ma_update(const ic_tensor *x, float rate, const ic_tensor *accum,
                        const ic_tensor *state, ic_tensor *out_scale, ic_tensor *out_state,
                        ic_tensor *out_accum) {
  if (x->dtype == IC_FP32) {
    MA_UPDATE(float);
  } else {
    MA_UPDATE(double);
  }
}

/* Paddle's FindChannelAbsMaxFunctor: along axis 0 each channel's scale is the abs-max scan
 * above over its contiguous block; along axis 1 the scan runs over each (row, channel) block
 * and std::max folds the blocks into the channel's scale from 0 (a NaN block is skipped). */
#define CH_MAX(T)                                                                          \
  do {                                                                                     \
    const T *xp = x->data;                                                                 \
    T *sp = scales;                                                                        \
    for (int64_t k = 0; k < ch; k++) sp[k] = 0;                                            \
    for (int64_t o = 0; o < outer; o++) {                                                  \
      for (int64_t k = 0; k < ch; k++) {                                                   \
        const T *b = xp + (o * ch + k) * inner;                                            \
        T m = inner ? (T)fabs((double)b[0]) : (T)0;                                        \
        for (int64_t i = 1; i < inner; i++) {                                              \
          T v = (T)fabs((double)b[i]);                                                     \
          m = m < v ? v : m;                                                               \
        }                                                                                  \
        if (axis == 0) sp[k] = m;                                                          \
        else sp[k] = sp[k] < m ? m : sp[k];                                                \
      }                                                                                    \
    }                                                                                      \
  } while (0)

void ic_quant_channel_abs_max(const ic_tensor *x, int axis, int64_t ch, int64_t inner,
                              void *scales) {
  int64_t n = ic_numel(x->ndim, x->dims);
  int64_t outer = ch && inner ? n / (ch * inner) : 0;
  if (x->dtype == IC_FP32) {
    CH_MAX(float);
  } else {
    CH_MAX(double);
  }
}

ic_status ic_quant_ma_run(ic_kctx *c, bool dequant) {
  const ic_quant_ma_attrs *a = c->attrs;
  if (a->is_test) {
    ic_quant_scalar_run(c, a->bin_cnt, a->round_type, dequant);
    ic_quant_pass(c, MA_OUT_SCALE, MA_SCALE);
    ic_quant_pass(c, MA_OUT_STATE, MA_STATE);
    ic_quant_pass(c, MA_OUT_ACCUM, MA_ACCUM);
    return IC_OK;
  }
  const ic_tensor *x = ic_in(c, MA_X, 0);
  ic_quant_ma_update(x, a->moving_rate, ic_in(c, MA_ACCUM, 0), ic_in(c, MA_STATE, 0),
                     ic_out(c, MA_OUT_SCALE, 0), ic_out(c, MA_OUT_STATE, 0),
                     ic_out(c, MA_OUT_ACCUM, 0));
  ic_quant_apply(x, ic_out(c, MA_OUT_SCALE, 0), ic_out(c, MA_OUT, 0), a->bin_cnt,
                 a->round_type, dequant);
  return IC_OK;
}

/* ---- abs-max without state ---- */

const ic_slotdef ic_quant_am_inputs[1] = {{"X", 0}};
const ic_slotdef ic_quant_am_outputs[2] = {{"Out", 0}, {"OutScale", IC_SLOT_OPTIONAL}};

ic_status ic_quant_am_parse(ic_attr_reader *r, void *attrs) {
  ic_quant_am_attrs *a = attrs;
  ic_quant_parse_bits(r, "bit_length", 8, &a->bin_cnt);
  ic_quant_parse_round(r, 1, &a->round_type);
  return r->st;
}

ic_status ic_quant_am_infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t one = 1;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), x->dtype, 1, &one);
  return IC_OK;
}

ic_status ic_quant_am_run(ic_kctx *c, bool dequant) {
  const ic_quant_am_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  union {
    float f;
    double d;
  } v;
  if (x->dtype == IC_FP32) v.f = (float)ic_quant_abs_max(x);
  else v.d = ic_quant_abs_max(x);
  ic_tensor s = {.dtype = x->dtype, .ndim = 1, .dims = {1}, .data = &v};
  ic_tensor *os = ic_out(c, 1, 0);
  if (os) memcpy(os->data, &v, ic_dtype_size(x->dtype));
  ic_quant_apply(x, &s, ic_out(c, 0, 0), a->bin_cnt, a->round_type, dequant);
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
/* ---- channel-wise abs-max ---- */

ic_status ic_quant_cw_parse(ic_attr_reader *r, void *attrs) {
  ic_quant_cw_attrs *a = attrs;
  ic_quant_parse_bits(r, "bit_length", 8, &a->bin_cnt);
  ic_quant_parse_round(r, 1, &a->round_type);
  int64_t ax = ic_ar_int(r, "quant_axis", 0);
  a->is_test = ic_ar_bool(r, "is_test", false);
  if (!r->st && ax != 0 && ax != 1) {
    return ic_ar_fail(r, "quant_axis", "must be 0 or 1, got %lld", (long long)ax);
  }
  a->quant_axis = (int)ax;
  return r->st;
}

ic_status ic_quant_cw_infer(ic_kctx *c, bool read_scale) {
  const ic_quant_cw_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  int64_t ch, inner;
  if (st || (st = ic_quant_channels(c, 0, a->quant_axis, &ch, &inner))) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (read_scale) {
    const ic_tensor *s = ic_in(c, 1, 0);
    if (!s) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                      "output OutScale is absent: at inference (is_test) the op quantizes "
                      "with the scales OutScale already holds");
    }
    if (s->dtype != x->dtype || ic_numel(s->ndim, s->dims) != ch) {
      return ic_kfail_in(c, 1, 0, "expected %lld scales of X's dtype (quant_axis %d)",
                         (long long)ch, a->quant_axis);
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  if (ic_out(c, 1, 0)) ic_tensor_set_meta(ic_out(c, 1, 0), x->dtype, 1, &ch);
  return IC_OK;
}

#define CW(T, SUF)                                                                         \
  do {                                                                                     \
    const T *xp = x->data;                                                                 \
    T *op = o->data, *sp = sdata, bin = (T)a->bin_cnt;                                     \
    if (read_scale) {                                                                      \
      for (int64_t k = 0; k < ch; k++) sp[k] = ((const T *)ic_in(c, 1, 0)->data)[k];      \
    } else {                                                                               \
      ic_quant_channel_abs_max(x, a->quant_axis, ch, inner, sp);                           \
    }                                                                                      \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T s = sp[(i / inner) % ch];                                                          \
      op[i] = dequant ? ic_quant_dequant_##SUF(xp[i], s, bin, a->round_type)               \
                      : ic_quant_##SUF(xp[i], s, bin, a->round_type);                      \
    }                                                                                      \
  } while (0)

ic_status ic_quant_cw_run(ic_kctx *c, bool dequant, bool read_scale) {
  const ic_quant_cw_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t ch, inner, n = ic_numel(x->ndim, x->dims);
  ic_status st = ic_quant_channels(c, 0, a->quant_axis, &ch, &inner);
  if (st) return st;
  ic_buffer *buf = NULL;
  void *sdata;
  if (ic_out(c, 1, 0)) {
    sdata = ic_out(c, 1, 0)->data;
  } else {
    if (!(buf = ic_kscratch(c, (size_t)(ch ? ch : 1) * sizeof(double)))) return c->err->code;
    sdata = buf->data;
  }
  if (x->dtype == IC_FP32) {
    CW(float, f32);
  } else {
    CW(double, f64);
  }
  if (buf) ic_buffer_release(buf);
  return IC_OK;
}
