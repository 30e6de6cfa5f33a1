/* im2sequence_grad: the gradient of im2sequence (paddle/fluid/operators/im2sequence_op.h
 * Im2SequenceGradKernel: a col2im per image). Every element of Out@GRAD's patch row is added
 * back onto the pixel of X it was read from (patch elements in the padding add nothing).
 * As Paddle's kernel, the patch positions come from X's own height and width and the
 * attributes (kernels, strides, paddings [up, left, down, right]): (size + pad0 + pad1 - k) /
 * stride + 1 per axis, for every image; Y and out_stride are not used. Inputs X (dims only),
 * Out@GRAD [N * positions, C * kh * kw]; X@GRAD has X's dims. Sums run in double and are
 * rounded once. float32, float64. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct i2sg_attrs {
  int64_t kh, kw, sh, sw, pu, pl, pd, pr;
} i2sg_attrs;

enum { IN_X, IN_DOUT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  i2sg_attrs *a = attrs;
  const int64_t *k, *s, *p;
  size_t nk = 0, ns = 0, np = 0;
  ic_ar_ints(r, "kernels", true, &k, &nk);
  bool hs = ic_ar_ints(r, "strides", false, &s, &ns);
  bool hp = ic_ar_ints(r, "paddings", false, &p, &np);
  if (r->st) return r->st;
  if (nk != 2 || k[0] < 1 || k[1] < 1) return ic_ar_fail(r, "kernels", "expected two sizes >= 1");
  if (hs && ns && (ns != 2 || s[0] < 1 || s[1] < 1)) {
    return ic_ar_fail(r, "strides", "expected two strides >= 1");
  }
  if (hp && np && np != 4) return ic_ar_fail(r, "paddings", "expected [up, left, down, right]");
  for (size_t i = 0; hp && i < np; i++) {
    if (p[i] < 0) return ic_ar_fail(r, "paddings", "expected paddings >= 0");
  }
  a->kh = k[0], a->kw = k[1];
  a->sh = hs && ns ? s[0] : 1, a->sw = hs && ns ? s[1] : 1;
  a->pu = hp && np ? p[0] : 0, a->pl = hp && np ? p[1] : 0;
  a->pd = hp && np ? p[2] : 0, a->pr = hp && np ? p[3] : 0;
  return IC_OK;
}

static void positions(const i2sg_attrs *a, const ic_tensor *x, int64_t *oh, int64_t *ow) {
  *oh = (x->dims[2] + a->pu + a->pd - a->kh) / a->sh + 1;
  *ow = (x->dims[3] + a->pl + a->pr - a->kw) / a->sw + 1;
}

static ic_status infer(ic_kctx *c) {
  const i2sg_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, IN_X, 0, "expected rank 4 [N, C, H, W]");
  int64_t oh, ow;
  positions(a, x, &oh, &ow);
  if (oh < 1 || ow < 1) {
    return ic_kfail_in(c, IN_X, 0, "gives %lld x %lld patch positions for kernels %lld x %lld, "
                       "expected at least one", (long long)oh, (long long)ow, (long long)a->kh,
                       (long long)a->kw);
  }
  const int64_t want[2] = {x->dims[0] * oh * ow, x->dims[1] * a->kh * a->kw};
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, 2, want)) {
    char d[96];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s%s, im2sequence's Out", ic_dtype_name(x->dtype),
                       ic_dims_str(2, want, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, x->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}

static ic_status run(ic_kctx *c) {
  const i2sg_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  const int64_t N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3];
  int64_t oh, ow;
  positions(a, x, &oh, &ow);
  const int64_t nx = ic_tensor_numel_(x);
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *acc = s->data;
  memset(acc, 0, (size_t)nx * sizeof(double));
  int64_t e = 0;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t ph = 0; ph < oh; ph++) {
      for (int64_t pw = 0; pw < ow; pw++) {
        for (int64_t ch = 0; ch < C; ch++) {
          for (int64_t i = 0; i < a->kh; i++) {
            for (int64_t j = 0; j < a->kw; j++, e++) {
              const int64_t hh = ph * a->sh - a->pu + i, ww = pw * a->sw - a->pl + j;
              if (hh < 0 || hh >= H || ww < 0 || ww >= W) continue;
              acc[((n * C + ch) * H + hh) * W + ww] += get(g, e);
            }
          }
        }
      }
    }
  }
  ic_store_acc(ic_out(c, 0, 0), acc);
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_im2sequence_grad = {
    .name = "im2sequence_grad", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(i2sg_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
