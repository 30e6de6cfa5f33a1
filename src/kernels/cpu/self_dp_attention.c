/* self_dp_attention (Paddle's phi SelfDPAttenKernel, written by self_attention_fuse_pass):
 * scaled dot-product self-attention over a packed QKV tensor. X is [B, S, 3, H, D] (query,
 * key and value of H heads of size D for each of S tokens); for each batch and head,
 *   Out[b, i, h, :] = sum_j softmax_j(alpha * Q_i . K_j) V_j,
 * Out [B, S, H, D]. head_number must equal X's dim 3.
 *
 * Paddle computes in float32 whatever the dtype: a float64 X is rounded to float32 first and
 * its result is a float32 value widened, which icore reproduces (the sums themselves are
 * taken in double here and rounded once). */
#include <math.h>

#include "kernels/kernel.h"

typedef struct sdpa_attrs {
  double alpha;
  int64_t head_number;
} sdpa_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  sdpa_attrs *a = attrs;
  a->alpha = ic_ar_float(r, "alpha", 1.0);
  a->head_number = ic_ar_int(r, "head_number", 1);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const sdpa_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 5 || x->dims[2] != 3 || x->dims[3] != a->head_number) {
    return ic_kfail_in(c, 0, 0, "expected [batch, seq, 3, head_number (%lld), head_size]",
                       (long long)a->head_number);
  }
  const int64_t dims[4] = {x->dims[0], x->dims[1], x->dims[3], x->dims[4]};
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const sdpa_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t B = x->dims[0], S = x->dims[1], H = x->dims[3], D = x->dims[4];
  const bool f64 = x->dtype == IC_FP64;
  const double alpha = (float)a->alpha;
  ic_buffer *buf = ic_kscratch(c, (size_t)(S > 0 ? S : 1) * sizeof(double));
  if (!buf) return c->err->code;
  double *p = buf->data;
#define X_AT(b, s, w, h, d)                                                                 \
  ((double)(f64 ? (float)((const double *)x->data)[(((b * S + s) * 3 + w) * H + h) * D + d] \
                : ((const float *)x->data)[(((b * S + s) * 3 + w) * H + h) * D + d]))
  for (int64_t b = 0; b < B; b++) {
    for (int64_t h = 0; h < H; h++) {
      for (int64_t i = 0; i < S; i++) {
        double mx = -INFINITY;
        for (int64_t j = 0; j < S; j++) {
          double dot = 0;
          for (int64_t d = 0; d < D; d++) dot += X_AT(b, i, 0, h, d) * X_AT(b, j, 1, h, d);
          p[j] = alpha * dot;
          if (p[j] > mx) mx = p[j];
        }
        double sum = 0;
        for (int64_t j = 0; j < S; j++) {
          p[j] = exp(p[j] - mx);
          sum += p[j];
        }
        for (int64_t d = 0; d < D; d++) {
          double acc = 0;
          for (int64_t j = 0; j < S; j++) acc += p[j] * X_AT(b, j, 2, h, d);
          const float v = (float)(acc / sum);
          const int64_t o = ((b * S + i) * H + h) * D + d;
          if (f64) ((double *)out->data)[o] = v;
          else ((float *)out->data)[o] = v;
        }
      }
    }
  }
#undef X_AT
  ic_buffer_release(buf);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_self_dp_attention = {
    .name = "self_dp_attention",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(sdpa_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
