/* average_accumulates: ModelAverage's accumulator step (phi AverageAccumulatesKernel, CPU;
 * float32 and float64). The counters in_num_updates, in_num_accumulates and
 * in_old_num_accumulates are one int64 each. Paddle's kernel runs its updates one after the
 * other on the out_* tensors, which its programs (ModelAverage) make the in_* tensors
 * themselves, so each step reads what the one before wrote; icore computes what that gives.
 * With u = num_updates + 1, a = num_accumulates + 1:
 *   sum_1 = in_sum_1 + param,  sum_2 = in_sum_2,  sum_3 = in_sum_3
 *   when u % 16384 == 0 (Paddle's kMaxNumAccumulates, against the loss of precision of long
 *   sums): sum_2 = sum_2 + sum_1, sum_1 = 0
 *   when a >= min_average_window and a >= min(max_average_window, (int64)(float(u) average_window)):
 *   the window restarts: sum_3 = sum_1 + sum_2, sum_1 = sum_2 = 0, old_num_accumulates = a and
 *   a = 0
 *   out_sum_k = sum_k, out_num_updates = u, out_num_accumulates = a (old unchanged unless the
 *   window restarts).
 * min_average_window > max_average_window is an error (as in Paddle). Every out_* updates its
 * in_* in place (ic_average_accumulates_inplace, train.h): Paddle's CPU kernel cannot write
 * counters that are not its inputs (it writes them into memory it never allocates). */
#include <string.h>

#include "kernels/cpu/train.h"

typedef struct avg_acc_attrs {
  float average_window;
  int64_t max_window, min_window;
} avg_acc_attrs;

enum { IN_PARAM, IN_S1, IN_S2, IN_S3, IN_NACC, IN_OLD, IN_NUPD };
enum { OUT_S1, OUT_S2, OUT_S3, OUT_NACC, OUT_OLD, OUT_NUPD };

const ic_train_inplace ic_average_accumulates_inplace[] = {
    {"out_sum_1", "in_sum_1"},
    {"out_sum_2", "in_sum_2"},
    {"out_sum_3", "in_sum_3"},
    {"out_num_accumulates", "in_num_accumulates"},
    {"out_old_num_accumulates", "in_old_num_accumulates"},
    {"out_num_updates", "in_num_updates"},
    {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  avg_acc_attrs *a = attrs;
  a->average_window = (float)ic_ar_float(r, "average_window", 0.0);
  a->max_window = ic_ar_int(r, "max_average_window", INT64_MAX);
  a->min_window = ic_ar_int(r, "min_average_window", 10000);
  if (r->st == IC_OK && a->min_window > a->max_window) {
    return ic_ar_fail(r, "min_average_window",
                      "is %lld, expected at most max_average_window (%lld)",
                      (long long)a->min_window, (long long)a->max_window);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  if ((st = ic_kcheck_dtype(c, IN_PARAM, 0, IC_DT_FLOAT))) return st;
  for (int s = IN_S1; s <= IN_S3; s++) {
    if ((st = ic_train_same(c, (size_t)s, 0, IN_PARAM))) return st;
  }
  for (int s = IN_NACC; s <= IN_NUPD; s++) {
    const ic_tensor *t = ic_in(c, (size_t)s, 0);
    if (t->dtype != IC_INT64 || ic_tensor_numel_(t) != 1) {
      return ic_kfail_in(c, (size_t)s, 0, "expected one int64 counter");
    }
  }
  for (int k = OUT_S1; k <= OUT_S3; k++) {
    ic_tensor_set_meta(ic_out(c, k, 0), p->dtype, p->ndim, p->dims);
  }
  for (int k = OUT_NACC; k <= OUT_NUPD; k++) {
    const ic_tensor *t = ic_in(c, (size_t)(IN_NACC + k - OUT_NACC), 0);
    ic_tensor_set_meta(ic_out(c, k, 0), IC_INT64, t->ndim, t->dims);
  }
  return IC_OK;
}

#define ACCUMULATE(T)                                                                      \
  do {                                                                                     \
    const T *restrict pp = p->data, *restrict s1 = ic_in(c, IN_S1, 0)->data,               \
                      *restrict s2 = ic_in(c, IN_S2, 0)->data,                             \
                      *restrict s3 = ic_in(c, IN_S3, 0)->data;                             \
    T *restrict o1 = ic_out(c, OUT_S1, 0)->data, *restrict o2 = ic_out(c, OUT_S2, 0)->data, \
      *restrict o3 = ic_out(c, OUT_S3, 0)->data;                                           \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T v1 = s1[i] + pp[i], v2 = s2[i], v3 = s3[i];                                        \
      if (spill) {                                                                         \
        v2 = v2 + v1;                                                                      \
        v1 = 0;                                                                            \
      }                                                                                    \
      if (restart) {                                                                       \
        v3 = v1 + v2;                                                                      \
        v1 = 0;                                                                            \
        v2 = 0;                                                                            \
      }                                                                                    \
      o1[i] = v1;                                                                          \
      o2[i] = v2;                                                                          \
      o3[i] = v3;                                                                          \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const avg_acc_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PARAM, 0);
  ic_status st;
  for (int k = OUT_S1; k <= OUT_NUPD; k++) {
    if ((st = ic_train_own(c, ic_out(c, k, 0), ic_in(c, (size_t)(IN_S1 + k), 0)))) return st;
  }
  int64_t nupd = *(const int64_t *)ic_in(c, IN_NUPD, 0)->data;
  int64_t nacc = *(const int64_t *)ic_in(c, IN_NACC, 0)->data;
  int64_t old = *(const int64_t *)ic_in(c, IN_OLD, 0)->data;
  nupd++;
  nacc++;
  const bool spill = nupd % 16384 == 0;
  /* std::min<int64_t>(max, num_updates * average_window): the product in float, truncated */
  const float w = (float)nupd * a->average_window;
  const int64_t wi = !(w < 9.2e18f) ? INT64_MAX : w < -9.2e18f ? INT64_MIN : (int64_t)w;
  const int64_t lim = a->max_window < wi ? a->max_window : wi;
  const bool restart = nacc >= a->min_window && nacc >= lim;
  const int64_t n = ic_tensor_numel_(p);
  if (p->dtype == IC_FP32) ACCUMULATE(float);
  else ACCUMULATE(double);
  if (restart) {
    old = nacc;
    nacc = 0;
  }
  *(int64_t *)ic_out(c, OUT_NUPD, 0)->data = nupd;
  *(int64_t *)ic_out(c, OUT_NACC, 0)->data = nacc;
  *(int64_t *)ic_out(c, OUT_OLD, 0)->data = old;
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"param", 0},
    {"in_sum_1", 0},
    {"in_sum_2", 0},
    {"in_sum_3", 0},
    {"in_num_accumulates", 0},
    {"in_old_num_accumulates", 0},
    {"in_num_updates", 0},
};
static const ic_slotdef outputs[] = {
    {"out_sum_1", IC_SLOT_SHARE},
    {"out_sum_2", IC_SLOT_SHARE},
    {"out_sum_3", IC_SLOT_SHARE},
    {"out_num_accumulates", IC_SLOT_SHARE},
    {"out_old_num_accumulates", IC_SLOT_SHARE},
    {"out_num_updates", IC_SLOT_SHARE},
};

const ic_opdef ic_op_average_accumulates = {
    .name = "average_accumulates",
    .n_inputs = 7, .inputs = inputs,
    .n_outputs = 6, .outputs = outputs,
    .attrs_size = sizeof(avg_acc_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
