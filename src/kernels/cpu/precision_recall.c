/* precision_recall (fluid PrecisionRecallKernel): per-class TP / FP / TN / FN counts of a
 * batch of predictions and the metrics derived from them. Inputs: MaxProbs [N, 1] (only its
 * dtype is read: it is the kernel's T, float32 or float64), Indices and Labels [N, 1] int32
 * class ids in [0, class_number), Weights [N, 1] T (optional: 1 each), StatesInfo
 * [class_number, 4] T (optional: the counts so far). Each sample adds its weight w to
 * TP[idx] when idx == label, else to FN[label] and FP[idx]; TN of every class but those two
 * gains w too. Outputs: BatchMetrics (float64 [6]) from the batch's counts, AccumStatesInfo
 * (T [class_number, 4]) = batch counts + StatesInfo, AccumMetrics (float64 [6]) from those:
 * macro precision, macro recall, macro F1 (of the two macro averages), micro precision,
 * micro recall, micro F1, computed in T (precision = tp / (tp + fp), 1 when both are 0;
 * recall likewise with fn; F1 = 2 p r / (p + r), 0 when both are 0). */
#include <string.h>

#include "kernels/kernel.h"

typedef struct pr_attrs {
  int64_t class_number;
} pr_attrs;

enum { IN_PROBS, IN_IDX, IN_LABELS, IN_WEIGHTS, IN_STATES };
enum { OUT_BATCH, OUT_ACCUM, OUT_STATES };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  pr_attrs *a = attrs;
  a->class_number = ic_ar_int_req(r, "class_number");
  if (r->st) return r->st;
  if (a->class_number < 1) {
    return ic_ar_fail(r, "class_number", "is %lld, expected at least 1", (long long)a->class_number);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const pr_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PROBS, 0), *w = ic_in(c, IN_WEIGHTS, 0),
                  *s = ic_in(c, IN_STATES, 0);
  ic_status st = ic_kcheck_dtype(c, IN_PROBS, 0, IC_DT_FLOAT);
  if (st) return st;
  const int64_t N = ic_tensor_numel_(ic_in(c, IN_IDX, 0));
  for (size_t k = IN_IDX; k <= IN_LABELS; k++) {
    if ((st = ic_kcheck_dtype(c, k, 0, IC_DT(IC_INT32)))) return st;
    if (ic_tensor_numel_(ic_in(c, k, 0)) != N || ic_in(c, k, 0)->ndim < 1) {
      return ic_kfail_in(c, k, 0, "expected %lld class ids (one per row of Indices)", (long long)N);
    }
  }
  if (w && (w->dtype != p->dtype || ic_tensor_numel_(w) != N)) {
    return ic_kfail_in(c, IN_WEIGHTS, 0, "expected %s with %lld elements (MaxProbs' dtype)",
                       ic_dtype_name(p->dtype), (long long)N);
  }
  if (s && (s->dtype != p->dtype || ic_tensor_numel_(s) != 4 * a->class_number)) {
    return ic_kfail_in(c, IN_STATES, 0, "expected %s [%lld, 4] (MaxProbs' dtype)",
                       ic_dtype_name(p->dtype), (long long)a->class_number);
  }
  const int64_t six = 6, sd[2] = {a->class_number, 4};
  if (ic_out(c, OUT_BATCH, 0)) ic_tensor_set_meta(ic_out(c, OUT_BATCH, 0), IC_FP64, 1, &six);
  if (ic_out(c, OUT_ACCUM, 0)) ic_tensor_set_meta(ic_out(c, OUT_ACCUM, 0), IC_FP64, 1, &six);
  if (ic_out(c, OUT_STATES, 0)) ic_tensor_set_meta(ic_out(c, OUT_STATES, 0), p->dtype, 2, sd);
  return IC_OK;
}

#define METRICS(T, NAME)                                                                   \
  static T NAME##_ratio(T a, T b) { return (a > 0.0 || b > 0.0) ? a / (a + b) : (T)1.0; }  \
  static T NAME##_f1(T p, T r) { return (p > 0.0 || r > 0.0) ? 2 * p * r / (p + r) : (T)0.0; } \
  static void NAME##_metrics(const T *s, double *m, int64_t C) {                           \
    T tp = 0, fp = 0, fn = 0, mp = 0.0, mr = 0.0;                                          \
    for (int64_t i = 0; i < C; i++) {                                                      \
      tp += s[i * 4 + 0];                                                                  \
      fp += s[i * 4 + 1];                                                                  \
      fn += s[i * 4 + 3];                                                                  \
      mp += NAME##_ratio(s[i * 4 + 0], s[i * 4 + 1]);                                      \
      mr += NAME##_ratio(s[i * 4 + 0], s[i * 4 + 3]);                                      \
    }                                                                                      \
    mp /= (T)C;                                                                            \
    mr /= (T)C;                                                                            \
    const T up = NAME##_ratio(tp, fp), ur = NAME##_ratio(tp, fn);                          \
    m[0] = mp;                                                                             \
    m[1] = mr;                                                                             \
    m[2] = NAME##_f1(mp, mr);                                                              \
    m[3] = up;                                                                             \
    m[4] = ur;                                                                             \
    m[5] = NAME##_f1(up, ur);                                                              \
  }                                                                                        \
  static void NAME##_run(ic_kctx *c, T *acc, int64_t C) {                                  \
    const int32_t *ids = ic_in(c, IN_IDX, 0)->data, *lab = ic_in(c, IN_LABELS, 0)->data;   \
    const T *w = ic_in(c, IN_WEIGHTS, 0) ? ic_in(c, IN_WEIGHTS, 0)->data : NULL;           \
    const T *st = ic_in(c, IN_STATES, 0) ? ic_in(c, IN_STATES, 0)->data : NULL;            \
    const int64_t N = ic_tensor_numel_(ic_in(c, IN_IDX, 0));                               \
    memset(acc, 0, sizeof(T) * (size_t)(4 * C));                                           \
    for (int64_t i = 0; i < N; i++) {                                                      \
      const int64_t d = ids[i], l = lab[i];                                                \
      const T v = w ? w[i] : (T)1.0;                                                       \
      if (d == l) {                                                                        \
        acc[d * 4 + 0] += v;                                                               \
        for (int64_t j = 0; j < C; j++) acc[j * 4 + 2] += v;                               \
        acc[d * 4 + 2] -= v;                                                               \
      } else {                                                                             \
        acc[l * 4 + 3] += v;                                                               \
        acc[d * 4 + 1] += v;                                                               \
        for (int64_t j = 0; j < C; j++) acc[j * 4 + 2] += v;                               \
        acc[d * 4 + 2] -= v;                                                               \
        acc[l * 4 + 2] -= v;                                                               \
      }                                                                                    \
    }                                                                                      \
    double *bm = ic_out(c, OUT_BATCH, 0) ? ic_out(c, OUT_BATCH, 0)->data : NULL;           \
    double tmp[6];                                                                         \
    NAME##_metrics(acc, bm ? bm : tmp, C);                                                 \
    if (st)                                                                                \
      for (int64_t k = 0; k < 4 * C; k++) acc[k] += st[k];                                 \
    double *am = ic_out(c, OUT_ACCUM, 0) ? ic_out(c, OUT_ACCUM, 0)->data : NULL;           \
    NAME##_metrics(acc, am ? am : tmp, C);                                                 \
  }

METRICS(float, f32)
METRICS(double, f64)

static ic_status run(ic_kctx *c) {
  const pr_attrs *a = c->attrs;
  const int64_t C = a->class_number, N = ic_tensor_numel_(ic_in(c, IN_IDX, 0));
  for (size_t k = IN_IDX; k <= IN_LABELS; k++) {
    const int32_t *v = ic_in(c, k, 0)->data;
    for (int64_t i = 0; i < N; i++) {
      if (v[i] < 0 || v[i] >= C) {
        return ic_kfail_in(c, k, 0, "holds %d at %lld, expected a class in [0, %lld)", v[i],
                           (long long)i, (long long)C);
      }
    }
  }
  const bool f32 = ic_in(c, IN_PROBS, 0)->dtype == IC_FP32;
  ic_tensor *so = ic_out(c, OUT_STATES, 0);
  ic_buffer *sb = NULL;
  void *acc;
  if (so) {
    acc = so->data;
  } else {
    sb = ic_kscratch(c, (size_t)(4 * C) * sizeof(double));
    if (!sb) return c->err->code;
    acc = sb->data;
  }
  if (f32) f32_run(c, acc, C);
  else f64_run(c, acc, C);
  if (sb) ic_buffer_release(sb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"MaxProbs", IC_SLOT_NO_BUFFER},
                                    {"Indices", 0},
                                    {"Labels", 0},
                                    {"Weights", IC_SLOT_OPTIONAL},
                                    {"StatesInfo", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"BatchMetrics", IC_SLOT_OPTIONAL},
                                     {"AccumMetrics", IC_SLOT_OPTIONAL},
                                     {"AccumStatesInfo", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_precision_recall = {
    .name = "precision_recall",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(pr_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
