/* softmax_with_cross_entropy_grad: Logits@GRAD from Softmax, Label and Loss@GRAD (phi
 * CrossEntropyWithSoftmaxGradKernel, CPU). With g = Loss@GRAD at a position:
 *   use_softmax, hard labels: Softmax * g, minus g at the label's class; the whole class
 *       vector is 0 where label == ignore_index;
 *   use_softmax, soft labels: g * (Softmax - Label);
 *   use_softmax false (Logits were probabilities P): hard: -g / P at the label's class and 0
 *       elsewhere; soft: -g * Label / P.
 * Attributes as the forward op; labels out of range are an error. */
#include "kernels/cpu/swce.h"

enum { IN_LABEL, IN_SOFTMAX, IN_DLOSS };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *sm = ic_in(c, IN_SOFTMAX, 0), *gl = ic_in(c, IN_DLOSS, 0);
  swce_geom g;
  ic_status st = ic_swce_check(c, IN_SOFTMAX, IN_LABEL, &g);
  if (st) return st;
  if (gl->dtype != sm->dtype || ic_tensor_numel_(gl) != g.n * g.r) {
    return ic_kfail_in(c, IN_DLOSS, 0, "expected %s with %lld elements (Softmax's dims with "
                       "the class axis 1)", ic_dtype_name(sm->dtype), (long long)(g.n * g.r));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), sm->dtype, sm->ndim, sm->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t i) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
}
static void put(ic_tensor *t, int64_t i, double v) {
  if (t->dtype == IC_FP32) ((float *)t->data)[i] = (float)v;
  else ((double *)t->data)[i] = v;
}

static ic_status run(ic_kctx *c) {
  const swce_attrs *a = c->attrs;
  const ic_tensor *sm = ic_in(c, IN_SOFTMAX, 0), *label = ic_in(c, IN_LABEL, 0),
                  *gl = ic_in(c, IN_DLOSS, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const bool f32 = sm->dtype == IC_FP32;
  swce_geom g;
  ic_status st = ic_swce_check(c, IN_SOFTMAX, IN_LABEL, &g);
  if (st) return st;
  for (int64_t i = 0; i < g.n; i++) {
    for (int64_t j = 0; j < g.r; j++) {
      int64_t base = i * g.d * g.r + j, li = i * g.r + j;
      double gv = get(gl, li);
      if (a->soft_label) {
        for (int64_t k = 0; k < g.d; k++) {
          int64_t e = base + k * g.r;
          double p = get(sm, e), l = get(label, e), v;
          if (a->use_softmax) v = f32 ? (double)((float)gv * (float)((float)p - (float)l)) : gv * (p - l);
          else v = f32 ? (double)(-(float)l / (float)p * (float)gv) : -l / p * gv;
          put(dx, e, v);
        }
        continue;
      }
      int64_t lbl;
      if ((st = ic_swce_label(c, IN_LABEL, li, &g, &lbl))) return st;
      for (int64_t k = 0; k < g.d; k++) {
        int64_t e = base + k * g.r;
        double v = 0;
        if (lbl != a->ignore_index) {
          if (a->use_softmax) {
            /* Paddle: Softmax * g first, then g subtracted at the label (in T) */
            v = f32 ? (double)((float)get(sm, e) * (float)gv) : get(sm, e) * gv;
            if (k == lbl) v = f32 ? (double)((float)v - (float)gv) : v - gv;
          } else if (k == lbl) {
            v = f32 ? (double)(-(float)gv / (float)get(sm, e)) : -gv / get(sm, e);
          }
        }
        put(dx, e, v);
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Label", 0}, {"Softmax", 0}, {"Loss@GRAD", 0}};
static const ic_slotdef outputs[] = {{"Logits@GRAD", 0}};

const ic_opdef ic_op_softmax_with_cross_entropy_grad = {
    .name = "softmax_with_cross_entropy_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(swce_attrs), .parse = ic_swce_parse,
    .infer = infer, .cpu = run,
};
