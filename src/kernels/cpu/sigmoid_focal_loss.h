/* What sigmoid_focal_loss and sigmoid_focal_loss_grad share: attributes, the input checks
 * and the one loop computing either the loss or its gradient (sigmoid_focal_loss.c). Inputs
 * 0, 1, 2 are X, Label, FgNum in both ops. */
#ifndef IC_KERNELS_CPU_SIGMOID_FOCAL_LOSS_H
#define IC_KERNELS_CPU_SIGMOID_FOCAL_LOSS_H

#include <float.h>
#include <math.h>

#include "kernels/kernel.h"

typedef struct ic_sfl_attrs {
  double gamma, alpha;
} ic_sfl_attrs;

static inline ic_status ic_sfl_parse(ic_attr_reader *r, void *attrs) {
  ic_sfl_attrs *a = attrs;
  /* float attributes: Paddle reads them as float */
  a->gamma = (float)ic_ar_float(r, "gamma", 2.0);
  a->alpha = (float)ic_ar_float(r, "alpha", 0.25);
  return r->st;
}

static inline ic_status ic_sfl_check(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *lab = ic_in(c, 1, 0), *fg = ic_in(c, 2, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (!st) st = ic_kcheck_dtype(c, 1, 0, IC_DT_INT);
  if (!st) st = ic_kcheck_dtype(c, 2, 0, IC_DT_INT);
  if (st) return st;
  if (x->ndim != 2) return ic_kfail_in(c, 0, 0, "expected rank 2 ([rows, classes])");
  if (lab->ndim != 2 || lab->dims[0] != x->dims[0] || lab->dims[1] != 1) {
    return ic_kfail_in(c, 1, 0, "expected [%lld, 1] (a class per row of X '%s')",
                       (long long)x->dims[0], ic_in_name(c, 0, 0));
  }
  if (ic_tensor_numel_(fg) != 1) return ic_kfail_in(c, 2, 0, "expected one value");
  return IC_OK;
}

/* Out = the loss (dout NULL) or X@GRAD = dLoss/dX * dout. */
static inline ic_status ic_sfl_run(ic_kctx *c, const ic_tensor *dout, ic_tensor *out) {
  const ic_sfl_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *lab = ic_in(c, 1, 0), *fgt = ic_in(c, 2, 0);
  const int64_t N = x->dims[0], D = x->dims[1];
  const int64_t fgn = ic_read_i64(fgt, 0);
  const double fg = (double)(fgn > 1 ? fgn : 1);
  const double s_pos = a->alpha / fg, s_neg = (1.0 - a->alpha) / fg, gm = a->gamma;
  const bool f64 = x->dtype == IC_FP64;
  for (int64_t n = 0; n < N; n++) {
    const int64_t g = ic_read_i64(lab, n);
    if (g < -1 || g > D) {
      return ic_kfail_in(c, 1, 0, "holds %lld at row %lld, expected -1 (ignored), 0 "
                         "(background) or a class in [1, %lld]", (long long)g, (long long)n,
                         (long long)D);
    }
    for (int64_t d = 0; d < D; d++) {
      const int64_t i = n * D + d;
      const double xv = ic_read_f64(x, i);
      const double p = 1.0 / (1.0 + exp(-xv));
      const double logp = log(p > FLT_MIN ? p : FLT_MIN);
      const double pos = xv >= 0 ? xv : 0.0;
      const double log1mp = -pos - log(1.0 + exp(xv - 2.0 * pos)); /* log(1 - p) */
      double v = 0.0;
      if (g == d + 1) {
        v = dout ? -s_pos * pow(1.0 - p, gm) * (1.0 - p - p * gm * logp)
                 : -s_pos * pow(1.0 - p, gm) * logp;
      } else if (g != -1) {
        v = dout ? -s_neg * pow(p, gm) * (log1mp * (1.0 - p) * gm - p)
                 : -s_neg * pow(p, gm) * log1mp;
      }
      if (dout) v *= ic_read_f64(dout, i);
      if (f64) ((double *)out->data)[i] = v;
      else ((float *)out->data)[i] = (float)v;
    }
  }
  return IC_OK;
}

#endif
