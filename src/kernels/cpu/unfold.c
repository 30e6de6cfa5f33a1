/* unfold: the sliding windows of X [N, C, H, W] as columns: Y [N, C * kh * kw, L] with
 * Y[n][(c * kh + i) * kw + j][oh * OW + ow] = X[n][c][oh * sh - pt + i * dh][ow * sw - pl +
 * j * dw] (0 outside X), L = OH * OW window positions, OH = (H + pt + pb - (dh * (kh - 1) + 1))
 * / sh + 1 and likewise OW. kernel_sizes, strides and dilations: 2 values each (at least 1);
 * paddings: 4 ([top, left, bottom, right]) or 2 (both sides). float32, float64
 * (paddle/phi/kernels/impl/unfold_kernel_impl.h, funcs/im2col.cc kCFO, UnfoldInferMeta).
 * fold.c is the inverse, summing overlaps. */
#include <string.h>

#include "kernels/cpu/unfold.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Y", 0}};

static bool read2(ic_attr_reader *r, const char *name, int64_t *v, int64_t lo) {
  const int64_t *p;
  size_t n;
  if (!ic_ar_ints(r, name, true, &p, &n)) return false;
  if (n != 2) {
    ic_ar_fail(r, name, "has %zu values, expected 2", n);
    return false;
  }
  for (int i = 0; i < 2; i++) {
    if (p[i] < lo) {
      ic_ar_fail(r, name, "holds %lld, expected at least %lld", (long long)p[i], (long long)lo);
      return false;
    }
    v[i] = p[i];
  }
  return true;
}

ic_status ic_unfold_parse_attrs(ic_attr_reader *r, unfold_attrs *a, bool fold) {
  read2(r, "kernel_sizes", a->k, 1);
  read2(r, "strides", a->s, 1);
  read2(r, "dilations", a->d, 1);
  if (fold) read2(r, "output_sizes", a->out, 1);
  const int64_t *p;
  size_t n;
  if (ic_ar_ints(r, "paddings", true, &p, &n) && r->st == IC_OK) {
    if (n != 2 && n != 4) return ic_ar_fail(r, "paddings", "has %zu values, expected 2 or 4", n);
    for (size_t i = 0; i < 4; i++) {
      a->p[i] = n == 4 ? p[i] : p[i % 2];
      if (a->p[i] < 0) {
        return ic_ar_fail(r, "paddings", "holds %lld, expected at least 0", (long long)a->p[i]);
      }
    }
  }
  return r->st;
}

ic_status ic_unfold_blocks(ic_kctx *c, size_t s, int64_t h, int64_t w, int64_t *oh,
                           int64_t *ow) {
  const unfold_attrs *a = c->attrs;
  int64_t in[2] = {h, w}, o[2];
  for (int i = 0; i < 2; i++) {
    int64_t span = a->d[i] * (a->k[i] - 1) + 1, padded = in[i] + a->p[i] + a->p[i + 2];
    o[i] = padded >= span ? (padded - span) / a->s[i] + 1 : 0;
    if (o[i] <= 0) {
      return ic_kfail_in(c, s, 0, "gives no window position along %s: size %lld padded to "
                         "%lld, under the dilated kernel's %lld",
                         i ? "W" : "H", (long long)in[i], (long long)padded, (long long)span);
    }
  }
  *oh = o[0];
  *ow = o[1];
  return IC_OK;
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_unfold_parse_attrs(r, attrs, false);
}

static ic_status infer(ic_kctx *c) {
  const unfold_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected 4 dims [N, C, H, W]");
  int64_t oh, ow;
  st = ic_unfold_blocks(c, 0, x->dims[2], x->dims[3], &oh, &ow);
  if (st) return st;
  int64_t d[3] = {x->dims[0], x->dims[1] * a->k[0] * a->k[1], oh * ow};
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 3, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const unfold_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3], OH, OW;
  ic_status st = ic_unfold_blocks(c, 0, H, W, &OH, &OW);
  if (st) return st;
  size_t es = ic_dtype_size(x->dtype);
  const char *xp = x->data;
  char *yp = ic_out(c, 0, 0)->data;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t ch = 0; ch < C; ch++) {
      const char *img = xp + (size_t)((n * C + ch) * H * W) * es;
      for (int64_t i = 0; i < a->k[0]; i++) {
        for (int64_t j = 0; j < a->k[1]; j++) {
          for (int64_t oh = 0; oh < OH; oh++) {
            int64_t hh = oh * a->s[0] - a->p[0] + i * a->d[0];
            for (int64_t ow = 0; ow < OW; ow++, yp += es) {
              int64_t ww = ow * a->s[1] - a->p[1] + j * a->d[1];
              if (hh < 0 || hh >= H || ww < 0 || ww >= W) memset(yp, 0, es);
              else memcpy(yp, img + (size_t)(hh * W + ww) * es, es);
            }
          }
        }
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_unfold = {
    .name = "unfold", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(unfold_attrs), .parse = parse, .infer = infer, .cpu = run,
};
