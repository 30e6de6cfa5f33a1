/* warpctc: the CTC loss of each sequence and its gradient with respect to the unnormalized
 * logits, as Paddle's warpctc op computes it through warp-ctc
 * (paddle/phi/kernels/impl/warpctc_kernel_impl.h): softmax over the last dimension inside,
 * then the forward-backward recursions over the labels with blanks between them.
 *   - LoD mode: Logits float [sum T, C] with one LoD level (the time steps of each
 *     sequence), Label int [sum L, 1] with one LoD level (the labels of each sequence).
 *   - Padded mode (LogitsLength and LabelLength given, int64 [B]): Logits [Tmax, B, C],
 *     Label [B, Lmax]; only the first LogitsLength[b] steps and LabelLength[b] labels count.
 * Outputs: Loss [B, 1] = -log p(labels | logits), WarpCTCGrad [Tmax, B, C] (time-major, both
 * modes) = softmax - the posterior of each symbol at each step (zero past a sequence's end).
 * norm_by_times only matters to warpctc_grad. A sequence whose labels cannot fit its steps
 * (L + repeated neighbours > T) gets loss 0 and gradient 0, as warp-ctc gives it.
 * Computed in log space in double (warp-ctc computes in the logits' type). */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IN_LOGITS, IN_LABEL, IN_LOGITS_LEN, IN_LABEL_LEN };
enum { OUT_GRAD, OUT_LOSS };
static const ic_slotdef k_inputs[4] = {{"Logits", 0},
                                       {"Label", 0},
                                       {"LogitsLength", IC_SLOT_OPTIONAL},
                                       {"LabelLength", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[2] = {{"WarpCTCGrad", 0}, {"Loss", 0}};

typedef struct ctc_attrs {
  int64_t blank;
  bool norm_by_times;
} ctc_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ctc_attrs *a = attrs;
  a->blank = ic_ar_int(r, "blank", 0);
  a->norm_by_times = ic_ar_bool(r, "norm_by_times", false);
  return r->st;
}

/* The problem's sizes, from either mode: B sequences, C symbols, Tmax steps at most. */
typedef struct ctc_shape {
  int64_t B, C, Tmax;
  bool padded;
  const uint64_t *toff, *loff; /* LoD mode: the logits' and labels' offsets */
} ctc_shape;

static ic_status shape_of(ic_kctx *c, ctc_shape *s) {
  const ctc_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_LOGITS, 0), *y = ic_in(c, IN_LABEL, 0);
  const ic_tensor *xl = ic_in(c, IN_LOGITS_LEN, 0), *yl = ic_in(c, IN_LABEL_LEN, 0);
  ic_status st = ic_kcheck_dtype(c, IN_LOGITS, 0, IC_DT_FLOAT);
  if (!st) st = ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT_INT);
  if (st) return st;
  memset(s, 0, sizeof *s);
  if (!xl != !yl) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "expected both LogitsLength and LabelLength "
                    "(padded mode) or neither (LoD mode), got only %s",
                    xl ? "LogitsLength" : "LabelLength");
  }
  if (xl) {
    s->padded = true;
    if ((st = ic_kcheck_dtype(c, IN_LOGITS_LEN, 0, IC_DT_INT)) ||
        (st = ic_kcheck_dtype(c, IN_LABEL_LEN, 0, IC_DT_INT))) {
      return st;
    }
    if (x->ndim != 3 || x->dims[0] <= 0 || x->dims[1] <= 0 || x->dims[2] <= 0) {
      return ic_kfail_in(c, IN_LOGITS, 0, "expected [max time, batch, classes] with no zero "
                         "dim (padded mode)");
    }
    s->Tmax = x->dims[0];
    s->B = x->dims[1];
    s->C = x->dims[2];
    if (y->ndim != 2 || y->dims[0] != s->B) {
      return ic_kfail_in(c, IN_LABEL, 0, "expected [batch (%lld), max label length] (padded "
                         "mode)", (long long)s->B);
    }
    if (ic_tensor_numel_(xl) != s->B) {
      return ic_kfail_in(c, IN_LOGITS_LEN, 0, "expected %lld lengths (one per sequence)",
                         (long long)s->B);
    }
    if (ic_tensor_numel_(yl) != s->B) {
      return ic_kfail_in(c, IN_LABEL_LEN, 0, "expected %lld lengths (one per sequence)",
                         (long long)s->B);
    }
  } else {
    size_t nx, ny;
    if (!(s->toff = ic_kseq(c, IN_LOGITS, 0, 0, &nx))) return c->err->code;
    if (!(s->loff = ic_kseq(c, IN_LABEL, 0, 0, &ny))) return c->err->code;
    if (x->lod->n_levels != 1) {
      return ic_kfail_in(c, IN_LOGITS, 0, "has %zu LoD levels, expected 1",
                         x->lod->n_levels);
    }
    if (y->lod->n_levels != 1) {
      return ic_kfail_in(c, IN_LABEL, 0, "has %zu LoD levels, expected 1", y->lod->n_levels);
    }
    if (x->ndim < 2 || x->dims[0] <= 0 || s->toff[nx] != (uint64_t)x->dims[0]) {
      return ic_kfail_in(c, IN_LOGITS, 0, "expected [total time, classes] with its LoD "
                         "covering every row (LoD mode)");
    }
    if (y->ndim != 2 || y->dims[1] != 1 || s->loff[ny] != (uint64_t)y->dims[0]) {
      return ic_kfail_in(c, IN_LABEL, 0, "expected [total labels, 1] with its LoD covering "
                         "every row (LoD mode)");
    }
    if (nx != ny) {
      return ic_kfail_in(c, IN_LABEL, 0, "holds %zu sequences, expected %zu (those of Logits "
                         "'%s')", ny, nx, ic_in_name(c, IN_LOGITS, 0));
    }
    s->B = (int64_t)nx;
    s->C = ic_tensor_numel_(x) / x->dims[0];
    for (size_t k = 0; k < nx; k++) {
      const int64_t t = (int64_t)(s->toff[k + 1] - s->toff[k]);
      if (t > s->Tmax) s->Tmax = t;
    }
    if (s->C <= 0) return ic_kfail_in(c, IN_LOGITS, 0, "expected at least one class");
  }
  if (a->blank < 0 || a->blank >= s->C) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute blank is %lld, expected in [0, %lld) "
                    "(the classes of Logits '%s')", (long long)a->blank, (long long)s->C,
                    ic_in_name(c, IN_LOGITS, 0));
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ctc_shape s;
  ic_status st = shape_of(c, &s);
  if (st) return st;
  const ic_dtype dt = ic_in(c, IN_LOGITS, 0)->dtype;
  ic_tensor *g = ic_out(c, OUT_GRAD, 0), *loss = ic_out(c, OUT_LOSS, 0);
  ic_tensor_set_meta(g, dt, 3, (int64_t[]){s.Tmax, s.B, s.C});
  ic_tensor_set_meta(loss, dt, 2, (int64_t[]){s.B, 1});
  if ((st = ic_kset_lod(c, g, NULL, false))) return st;
  return ic_kset_lod(c, loss, NULL, false);
}

static inline double lse2(double a, double b) {
  if (a == -INFINITY) return b;
  if (b == -INFINITY) return a;
  return a > b ? a + log1p(exp(b - a)) : b + log1p(exp(a - b));
}

/* One sequence: T steps of logp (log-softmax, [T, C]), L labels lab. Writes the loss and
 * grad[t * gstride + k] for t < T (the caller zeroed the rest). alpha, beta: T * (2L + 1). */
static double ctc_one(const double *logp, int64_t T, int64_t C, const int64_t *lab, int64_t L,
                      int64_t blank, double *alpha, double *beta, double *acc, double *grad,
                      int64_t gstride) {
  const int64_t S = 2 * L + 1;
#define EXT(s) ((s) % 2 ? lab[(s) / 2] : blank)
  for (int64_t i = 0; i < T * S; i++) alpha[i] = beta[i] = -INFINITY;
  alpha[0] = logp[blank];
  if (L > 0) alpha[1] = logp[lab[0]];
  for (int64_t t = 1; t < T; t++) {
    const double *pa = alpha + (t - 1) * S;
    double *ca = alpha + t * S;
    for (int64_t s = 0; s < S; s++) {
      double v = pa[s];
      if (s >= 1) v = lse2(v, pa[s - 1]);
      if (s >= 2 && s % 2 && EXT(s) != EXT(s - 2)) v = lse2(v, pa[s - 2]);
      ca[s] = v == -INFINITY ? v : v + logp[t * C + EXT(s)];
    }
  }
  const double *la = alpha + (T - 1) * S;
  const double logP = S >= 2 ? lse2(la[S - 1], la[S - 2]) : la[S - 1];
  double *lb = beta + (T - 1) * S;
  lb[S - 1] = logp[(T - 1) * C + blank];
  if (L > 0) lb[S - 2] = logp[(T - 1) * C + lab[L - 1]];
  for (int64_t t = T - 2; t >= 0; t--) {
    const double *nb = beta + (t + 1) * S;
    double *cb = beta + t * S;
    for (int64_t s = 0; s < S; s++) {
      double v = nb[s];
      if (s + 1 < S) v = lse2(v, nb[s + 1]);
      if (s + 2 < S && s % 2 && EXT(s) != EXT(s + 2)) v = lse2(v, nb[s + 2]);
      cb[s] = v == -INFINITY ? v : v + logp[t * C + EXT(s)];
    }
  }
  for (int64_t t = 0; t < T; t++) {
    for (int64_t k = 0; k < C; k++) acc[k] = -INFINITY;
    for (int64_t s = 0; s < S; s++) {
      const int64_t k = EXT(s);
      acc[k] = lse2(acc[k], alpha[t * S + s] + beta[t * S + s]);
    }
    for (int64_t k = 0; k < C; k++) {
      const double lp = logp[t * C + k];
      grad[t * gstride + k] =
          exp(lp) - (acc[k] == -INFINITY ? 0.0 : exp(acc[k] - lp - logP));
    }
  }
#undef EXT
  return -logP;
}

static ic_status run(ic_kctx *c) {
  const ctc_attrs *a = c->attrs;
  ctc_shape s;
  ic_status st = shape_of(c, &s);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_LOGITS, 0), *y = ic_in(c, IN_LABEL, 0);
  const ic_tensor *xl = ic_in(c, IN_LOGITS_LEN, 0), *yl = ic_in(c, IN_LABEL_LEN, 0);
  ic_tensor *g = ic_out(c, OUT_GRAD, 0), *loss = ic_out(c, OUT_LOSS, 0);
  const int64_t B = s.B, C = s.C, Tmax = s.Tmax;
  /* Lengths first, checked, and the longest label. */
  int64_t Lmax = 0;
  for (int64_t b = 0; b < B; b++) {
    int64_t T, L;
    if (s.padded) {
      T = ic_read_i64(xl, b);
      L = ic_read_i64(yl, b);
      if (T < 0 || T > Tmax) {
        return ic_kfail_in(c, IN_LOGITS_LEN, 0, "entry %lld is %lld, expected in [0, %lld] "
                           "(dim 0 of Logits)", (long long)b, (long long)T, (long long)Tmax);
      }
      if (L < 0 || L > y->dims[1]) {
        return ic_kfail_in(c, IN_LABEL_LEN, 0, "entry %lld is %lld, expected in [0, %lld] "
                           "(dim 1 of Label)", (long long)b, (long long)L,
                           (long long)y->dims[1]);
      }
    } else {
      L = (int64_t)(s.loff[b + 1] - s.loff[b]);
    }
    if (L > Lmax) Lmax = L;
  }
  const int64_t S = 2 * Lmax + 1;
  const size_t n_dbl = (size_t)(Tmax * C) * 2 + (size_t)(Tmax * S) * 2 + (size_t)C;
  ic_buffer *buf = ic_kscratch(c, n_dbl * sizeof(double) + (size_t)(Lmax + 1) * sizeof(int64_t));
  if (!buf) return c->err->code;
  double *logp = buf->data, *gr = logp + Tmax * C, *alpha = gr + Tmax * C,
         *beta = alpha + Tmax * S, *acc = beta + Tmax * S;
  int64_t *lab = (int64_t *)(acc + C);
  const bool f64 = x->dtype == IC_FP64;
  memset(g->data, 0, (size_t)ic_tensor_numel_(g) * ic_dtype_size(g->dtype));
  for (int64_t b = 0; b < B; b++) {
    int64_t T, L;
    if (s.padded) {
      T = ic_read_i64(xl, b);
      L = ic_read_i64(yl, b);
    } else {
      T = (int64_t)(s.toff[b + 1] - s.toff[b]);
      L = (int64_t)(s.loff[b + 1] - s.loff[b]);
    }
    for (int64_t i = 0; i < L; i++) {
      const int64_t v = s.padded ? ic_read_i64(y, b * y->dims[1] + i)
                                 : ic_read_i64(y, (int64_t)s.loff[b] + i);
      if (v < 0 || v >= C) {
        ic_buffer_release(buf);
        return ic_kfail_in(c, IN_LABEL, 0, "holds %lld in sequence %lld, expected a class in "
                           "[0, %lld)", (long long)v, (long long)b, (long long)C);
      }
      lab[i] = v;
    }
    int64_t repeats = 0;
    for (int64_t i = 1; i < L; i++) repeats += lab[i] == lab[i - 1];
    double cost = 0.0;
    if (T > 0 && L + repeats <= T) {
      /* The rows of this sequence: padded [t, b, :], LoD row toff[b] + t. */
      for (int64_t t = 0; t < T; t++) {
        const int64_t row = s.padded ? (t * B + b) * C : ((int64_t)s.toff[b] + t) * C;
        double m = -INFINITY;
        for (int64_t k = 0; k < C; k++) {
          const double v = ic_read_f64(x, row + k);
          logp[t * C + k] = v;
          if (v > m) m = v;
        }
        double sum = 0.0;
        for (int64_t k = 0; k < C; k++) sum += exp(logp[t * C + k] - m);
        const double lz = m + log(sum);
        for (int64_t k = 0; k < C; k++) logp[t * C + k] -= lz;
      }
      cost = ctc_one(logp, T, C, lab, L, a->blank, alpha, beta, acc, gr, C);
      for (int64_t t = 0; t < T; t++) {
        for (int64_t k = 0; k < C; k++) {
          const int64_t o = (t * B + b) * C + k;
          if (f64) ((double *)g->data)[o] = gr[t * C + k];
          else ((float *)g->data)[o] = (float)gr[t * C + k];
        }
      }
    }
    if (f64) ((double *)loss->data)[b] = cost;
    else ((float *)loss->data)[b] = (float)cost;
  }
  ic_buffer_release(buf);
  return IC_OK;
}

const ic_opdef ic_op_warpctc = {
    .name = "warpctc", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(ctc_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD, /* outputs padded per sequence: no LoD */
};
