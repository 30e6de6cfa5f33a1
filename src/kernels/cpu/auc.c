/* auc (phi AucKernel, paddle.static.auc): the area under the ROC curve from bucketed counts.
 * Predict [N, W] float32: column W - 1 is the positive probability ([N, 2] softmax output or
 * [N, 1]), each in [0, 1]; Label N int64 values (Paddle's kernel reads no other dtype): > 0
 * positive, 0 negative, below 0 skipped. Bucket b = (uint32)(p * num_thresholds) in float32 (B = num_thresholds + 1
 * buckets). StatPos / StatNeg (int64) are the running counts, StatPosOut / StatNegOut their
 * new values (programs name the same persistables; icore's executors give the kernel the old
 * values and commit the new ones). As in Paddle, StatPos / StatNeg may hold more counts than
 * the op reads (paddle.static.auc with slide_steps 0 makes its batch counts [B + 1] in the
 * startup program, [1, B] in the main one): the first ones are read, and the outputs are
 * [1, B] with slide_steps 0, else [(1 + S) B + 1]:
 *   slide_steps 0: the counts [B] accumulate every batch;
 *   slide_steps S > 0: S windows of B counts, then their sum [B], then a step counter: the
 *     window (counter mod S) is taken out of the sum, replaced by this batch's counts and
 *     added back (unless InsTagWeight[0] is 0: fake data, counted but not summed); the
 *     counter advances in both outputs.
 * AUC (a float64 scalar) is the trapezoid area of (negatives, positives) summed from the highest
 * bucket down, divided by both totals when both are positive. curve is read but, as in
 * Paddle's kernel, PR computes the ROC area too. With slide_steps 0 and fake data
 * (InsTagWeight[0] == 0) Paddle changes nothing and leaves AUC unwritten; icore writes the
 * area of the unchanged counts. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct auc_attrs {
  int64_t num_thresholds, slide_steps;
} auc_attrs;

enum { IN_PREDICT, IN_LABEL, IN_POS, IN_NEG, IN_TAG };
enum { OUT_AUC, OUT_POS, OUT_NEG };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  auc_attrs *a = attrs;
  const char *curve = ic_ar_str(r, "curve", "ROC");
  a->num_thresholds = ic_ar_int(r, "num_thresholds", 8191); /* the op's default (2^13 - 1) */
  a->slide_steps = ic_ar_int(r, "slide_steps", 1);
  (void)ic_ar_int(r, "topk", 1);
  if (r->st) return r->st;
  if (strcmp(curve, "ROC") && strcmp(curve, "PR")) {
    return ic_ar_fail(r, "curve", "is '%s', expected ROC or PR", curve);
  }
  if (a->num_thresholds < 1 || a->num_thresholds > (1 << 30)) {
    return ic_ar_fail(r, "num_thresholds", "is %lld, expected in [1, 2^30]",
                      (long long)a->num_thresholds);
  }
  if (a->slide_steps < 0 || a->slide_steps > (1 << 20)) {
    return ic_ar_fail(r, "slide_steps", "is %lld, expected in [0, 2^20]",
                      (long long)a->slide_steps);
  }
  return IC_OK;
}

static int64_t stat_len(const auc_attrs *a) {
  return (1 + a->slide_steps) * (a->num_thresholds + 1) + (a->slide_steps > 0 ? 1 : 0);
}

static ic_status infer(ic_kctx *c) {
  const auc_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PREDICT, 0), *lab = ic_in(c, IN_LABEL, 0),
                  *tag = ic_in(c, IN_TAG, 0);
  ic_status st = ic_kcheck_dtype(c, IN_PREDICT, 0, IC_DT(IC_FP32));
  if (st || (st = ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT(IC_INT64)))) return st;
  if (p->ndim != 2 || p->dims[1] < 1) {
    return ic_kfail_in(c, IN_PREDICT, 0, "expected [batch, 1] or [batch, 2] probabilities");
  }
  if (ic_tensor_numel_(lab) != p->dims[0]) {
    return ic_kfail_in(c, IN_LABEL, 0, "expected %lld labels (one per row of Predict)",
                       (long long)p->dims[0]);
  }
  for (int k = 0; k < 2; k++) {
    const size_t s = k ? IN_NEG : IN_POS;
    if ((st = ic_kcheck_dtype(c, s, 0, IC_DT(IC_INT64)))) return st;
    if (ic_tensor_numel_(ic_in(c, s, 0)) < stat_len(a)) {
      return ic_kfail_in(c, s, 0, "expected %lld counts ((1 + slide_steps) * (num_thresholds + "
                         "1)%s) or more", (long long)stat_len(a), a->slide_steps ? " + 1" : "");
    }
  }
  if (tag) {
    if ((st = ic_kcheck_dtype(c, IN_TAG, 0, IC_DT_FLOAT))) return st;
    if (ic_tensor_numel_(tag) < 1) return ic_kfail_in(c, IN_TAG, 0, "expected at least one value");
  }
  ic_tensor_set_meta(ic_out(c, OUT_AUC, 0), IC_FP64, 0, NULL);
  /* Paddle's shapes: [1, B] with slide_steps 0, else [(1 + slide_steps) B + 1], whatever
   * StatPos held */
  const int64_t od[2] = {a->slide_steps ? stat_len(a) : 1, a->num_thresholds + 1};
  for (int k = 0; k < 2; k++) {
    ic_tensor *o = ic_out(c, k ? OUT_NEG : OUT_POS, 0);
    if (o) ic_tensor_set_meta(o, IC_INT64, a->slide_steps ? 1 : 2, od);
  }
  return IC_OK;
}

static double area(const int64_t *pos, const int64_t *neg, int64_t nt) {
  double auc = 0, tp = 0, tn = 0;
  for (int64_t i = nt; i >= 0; i--) {
    const double pp = tp, pn = tn;
    tp += (double)pos[i];
    tn += (double)neg[i];
    auc += (tn > pn ? tn - pn : pn - tn) * (tp + pp) / 2.0;
  }
  if (tp > 0.0 && tn > 0.0) auc = auc / tp / tn;
  return auc;
}

static ic_status run(ic_kctx *c) {
  const auc_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PREDICT, 0), *lab = ic_in(c, IN_LABEL, 0),
                  *tag = ic_in(c, IN_TAG, 0);
  const int64_t n = stat_len(a), nt = a->num_thresholds, B = nt + 1, S = a->slide_steps;
  ic_buffer *sb = NULL;
  int64_t *pos, *neg;
  ic_tensor *po = ic_out(c, OUT_POS, 0), *no = ic_out(c, OUT_NEG, 0);
  if (!po || !no) {
    sb = ic_kscratch(c, (size_t)(2 * n) * sizeof(int64_t));
    if (!sb) return c->err->code;
  }
  pos = po ? po->data : sb->data;
  neg = no ? no->data : (int64_t *)sb->data + n;
  memcpy(pos, ic_in(c, IN_POS, 0)->data, (size_t)n * sizeof(int64_t));
  memcpy(neg, ic_in(c, IN_NEG, 0)->data, (size_t)n * sizeof(int64_t));
  const bool fake = tag && ic_read_f64(tag, 0) == 0;
  const float *pd = p->data;
  const int64_t N = p->dims[0], W = p->dims[1];
  ic_status st = IC_OK;
  for (int64_t i = 0; i < N; i++) {
    const float v = pd[i * W + W - 1];
    if (!(v >= 0.0f && v <= 1.0f)) {
      st = ic_kfail_in(c, IN_PREDICT, 0, "holds %g at row %lld, expected a probability in [0, 1]",
                       (double)v, (long long)i);
      goto done;
    }
  }
  int64_t *cp = pos, *cn = neg; /* this batch's window */
  if (S == 0) {
    if (fake) goto auc;
  } else {
    const int64_t cur = (pos[(S + 1) * B] % S + S) % S;
    cp = pos + cur * B;
    cn = neg + cur * B;
    for (int64_t k = 0; k < B; k++) {
      pos[S * B + k] -= cp[k];
      neg[S * B + k] -= cn[k];
    }
    memset(cp, 0, (size_t)B * sizeof(int64_t));
    memset(cn, 0, (size_t)B * sizeof(int64_t));
  }
  for (int64_t i = 0; i < N; i++) {
    const uint32_t b = (uint32_t)(pd[i * W + W - 1] * (float)nt);
    const int64_t l = ((const int64_t *)lab->data)[i];
    if (l > 0) cp[b]++;
    else if (l == 0) cn[b]++;
  }
  if (S > 0 && !fake) {
    for (int64_t k = 0; k < B; k++) {
      pos[S * B + k] += cp[k];
      neg[S * B + k] += cn[k];
    }
  }
auc:
  *(double *)ic_out(c, OUT_AUC, 0)->data = area(pos + S * B, neg + S * B, nt);
  if (S > 0) {
    pos[(S + 1) * B]++;
    neg[(S + 1) * B]++;
  }
done:
  if (sb) ic_buffer_release(sb);
  return st;
}

static const ic_slotdef inputs[] = {{"Predict", 0},
                                    {"Label", 0},
                                    {"StatPos", 0},
                                    {"StatNeg", 0},
                                    {"InsTagWeight", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"AUC", 0},
                                     {"StatPosOut", IC_SLOT_OPTIONAL},
                                     {"StatNegOut", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_auc = {
    .name = "auc",
    .n_inputs = 5, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(auc_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
