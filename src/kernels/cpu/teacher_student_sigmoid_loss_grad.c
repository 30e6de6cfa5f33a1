/* teacher_student_sigmoid_loss_grad (fluid TeacherStudentSigmoidLossGradOpKernel): x is
 * clamped to [soft_max_lower_bound, soft_max_up_bound] (defaults -15, 15), p = 1 / (1 +
 * exp(-x)); the derivative is -p (label < -1), 1 - p (label < 0), else label - 2 p; it is 0
 * where the clamped x reaches either bound; X@GRAD = -derivative * Y@GRAD. In X's
 * precision. float32 and float64. */
#include <math.h>

#include "kernels/cpu/loss_util.h"

typedef struct tss_attrs {
  float up, low;
} tss_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  tss_attrs *a = attrs;
  a->up = (float)ic_ar_float(r, "soft_max_up_bound", 15.0);
  a->low = (float)ic_ar_float(r, "soft_max_lower_bound", -15.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const size_t s[3] = {0, 1, 2};
  ic_status st = ic_loss_check_like(c, s, 3);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_out(c, 0, 0)) ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

#define GRAD(T, EXP)                                                                       \
  do {                                                                                     \
    const T *x = ic_in(c, 0, 0)->data, *l = ic_in(c, 1, 0)->data, *g = ic_in(c, 2, 0)->data; \
    T *o = ic_out(c, 0, 0)->data;                                                          \
    const T up = (T)a->up, low = (T)a->low;                                                \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T v = x[i];                                                                          \
      if (v > up) v = up;                                                                  \
      else if (v < low) v = low;                                                           \
      const T p = (T)(1.0 / (1.0 + EXP(-v)));                                              \
      T d = l[i] < (T)-1.0 ? (T)(0.0 - p) : l[i] < (T)0.0 ? (T)(1.0 - p) : (T)(l[i] - 2.0 * p); \
      if (v >= up || v <= low) d = 0;                                                      \
      o[i] = d * (g[i] * -1);                                                              \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const tss_attrs *a = c->attrs;
  if (!ic_out(c, 0, 0)) return IC_OK;
  const int64_t n = ic_tensor_numel_(ic_in(c, 0, 0));
  if (ic_in(c, 0, 0)->dtype == IC_FP32) GRAD(float, expf);
  else GRAD(double, exp);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Label", 0}, {"Y@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_teacher_student_sigmoid_loss_grad = {
    .name = "teacher_student_sigmoid_loss_grad", .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs, .attrs_size = sizeof(tss_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
