/* add_position_encoding: X float32/float64, either [B, L, D] without LoD (B sequences of L
 * rows) or [T, D] with a one-level LoD (a sequence per LoD entry); D even. Row j of a
 * sequence, with h = D / 2 and v = j / 10000^(k / (h - 1)) (j / 10000 when h is 1):
 *   Out[.., k]     = X[.., k] * alpha + sin(v) * beta
 *   Out[.., h + k] = X[.., h + k] * alpha + cos(v) * beta
 * X * alpha in X's type, the sum in double, rounded once to X's type. Out keeps X's dims and
 * LoD (paddle/phi/kernels/cpu/add_position_encoding_kernel.cc). */
#include <math.h>

#include "kernels/kernel.h"

typedef struct ape_attrs {
  float alpha, beta;
} ape_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ape_attrs *a = attrs;
  a->alpha = (float)ic_ar_float(r, "alpha", 1.0);
  a->beta = (float)ic_ar_float(r, "beta", 1.0);
  if (r->st) return r->st;
  /* Paddle's op maker checks both */
  if (!(a->alpha >= 0.0f)) return ic_ar_fail(r, "alpha", "is %g, expected >= 0", a->alpha);
  if (!(a->beta >= 0.0f)) return ic_ar_fail(r, "beta", "is %g, expected >= 0", a->beta);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const bool lod = x->lod && x->lod->n_levels > 0;
  if (lod) {
    if (x->ndim != 2) return ic_kfail_in(c, 0, 0, "has a LoD, expected rank 2 [T, D]");
    if (x->lod->n_levels != 1) {
      return ic_kfail_in(c, 0, 0, "expected a one-level LoD, got %zu levels", x->lod->n_levels);
    }
    const uint64_t *lo = x->lod->offsets[0];
    const size_t n = x->lod->lens[0];
    if (lo[n - 1] != (uint64_t)x->dims[0]) {
      return ic_kfail_in(c, 0, 0, "has a LoD covering %llu rows, expected %lld",
                         (unsigned long long)lo[n - 1], (long long)x->dims[0]);
    }
  } else if (x->ndim != 3) {
    return ic_kfail_in(c, 0, 0, "has no LoD, expected rank 3 [B, L, D]");
  }
  if (x->dims[x->ndim - 1] % 2 != 0) {
    return ic_kfail_in(c, 0, 0, "expected an even last dimension (the encoding size)");
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ape_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const bool lod = x->lod && x->lod->n_levels > 0;
  const int64_t D = x->dims[x->ndim - 1], h = D / 2;
  const int64_t ns = lod ? (int64_t)x->lod->lens[0] - 1 : x->dims[0];
  const double beta = a->beta;
  int64_t row = 0;
  for (int64_t s = 0; s < ns; s++) {
    const int64_t len = lod ? (int64_t)(x->lod->offsets[0][s + 1] - x->lod->offsets[0][s])
                            : x->dims[1];
    for (int64_t j = 0; j < len; j++, row++) {
      for (int64_t k = 0; k < h; k++) {
        const double v = h > 1 ? (double)j / pow(10000.0, (double)k / (double)(h - 1))
                               : (double)j / 10000.0;
        const double sv = sin(v) * beta, cv = cos(v) * beta;
        const int64_t p = row * D + k;
        if (x->dtype == IC_FP32) {
          const float *xs = x->data;
          float *o = out->data;
          o[p] = (float)((double)(xs[p] * a->alpha) + sv);
          o[p + h] = (float)((double)(xs[p + h] * a->alpha) + cv);
        } else {
          const double *xs = x->data;
          double *o = out->data;
          o[p] = xs[p] * (double)a->alpha + sv;
          o[p + h] = xs[p + h] * (double)a->alpha + cv;
        }
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_add_position_encoding = {
    .name = "add_position_encoding", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ape_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
