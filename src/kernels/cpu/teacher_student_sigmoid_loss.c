/* teacher_student_sigmoid_loss (fluid TeacherStudentSigmoidLossOpKernel, Paddle 2.x): with
 * m = max(x, 0) and s = log(1 + exp(-|x|)) (in double, as Paddle's mixes in double
 * literals), per row of X [N, 1] and Label [N, 1] (one dtype):
 *   label < -1 (no teacher, click 0):  m + s
 *   label < 0  (no teacher, click 1):  m - x + s
 *   label < 1  (teacher q = label, click 0):      m + s + m - x q + s
 *   otherwise  (teacher q = label - 1, click 1):  m - x + s + m - x q + s
 * Y [N, 1]. soft_max_up_bound / soft_max_lower_bound only bound the gradient. float32 and
 * float64. */
#include <math.h>

#include "kernels/cpu/loss_util.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  (void)attrs;
  (void)ic_ar_float(r, "soft_max_up_bound", 15.0);
  (void)ic_ar_float(r, "soft_max_lower_bound", -15.0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const size_t s[2] = {0, 1};
  ic_status st = ic_loss_check_like(c, s, 2);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  const int64_t d[2] = {x->ndim ? x->dims[0] : 1, 1};
  if (ic_tensor_numel_(x) != d[0]) return ic_kfail_in(c, 0, 0, "expected [batch, 1]");
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, d);
  return IC_OK;
}

#define TSS(T)                                                                             \
  do {                                                                                     \
    const T *x = ic_in(c, 0, 0)->data, *l = ic_in(c, 1, 0)->data;                          \
    T *o = ic_out(c, 0, 0)->data;                                                          \
    for (int64_t i = 0; i < n; i++) {                                                      \
      const double xv = x[i], lv = l[i], m = xv > 0 ? xv : 0.0;                            \
      const double s = log(1.0 + exp(-fabs(xv)));                                          \
      double v;                                                                            \
      if (l[i] < (T)-1.0) v = m + s;                                                       \
      else if (l[i] < (T)0.0) v = m - xv + s;                                              \
      else if (l[i] < (T)1.0) v = m + s + m - (double)(x[i] * l[i]) + s;                   \
      else v = m - xv + s + m - xv * (lv - 1.0) + s;                                       \
      o[i] = (T)v;                                                                         \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const int64_t n = ic_tensor_numel_(ic_in(c, 0, 0));
  if (ic_in(c, 0, 0)->dtype == IC_FP32) TSS(float);
  else TSS(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Label", 0}};
static const ic_slotdef outputs[] = {{"Y", 0}};

const ic_opdef ic_op_teacher_student_sigmoid_loss = {
    .name = "teacher_student_sigmoid_loss", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .parse = parse, .infer = infer, .cpu = run,
};
