/* stft: the short-time Fourier transform of paddle.signal.stft for real signals (phi
 * StftKernel, paddle/fluid/operators/stft_op.h in Paddle 2.x). X [B, T] real (float32 or
 * float64), Window [n_fft] of X's dtype; n_frames = 1 + (T - n_fft) / hop_length frames.
 * Out [B, F, n_frames] complex64 / complex128 with F = n_fft / 2 + 1 when onesided, else
 * n_fft:
 *   Out[b, k, f] = s * sum_j X[b, f * hop_length + j] Window[j] e^(-2 pi i j k / n_fft),
 * s = 1 / sqrt(n_fft) when normalized, else 1. As Paddle does, each windowed sample is
 * rounded to X's dtype before the transform; the transform runs in double (fftutil.h). */
#include <string.h>

#include "kernels/cpu/fftutil.h"

typedef struct stft_attrs {
  int64_t n_fft, hop;
  bool normalized, onesided;
} stft_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  stft_attrs *a = attrs;
  a->n_fft = ic_ar_int_req(r, "n_fft");
  a->hop = ic_ar_int_req(r, "hop_length");
  a->normalized = ic_ar_bool(r, "normalized", false);
  a->onesided = ic_ar_bool(r, "onesided", true);
  if (r->st) return r->st;
  if (a->n_fft < 1) return ic_ar_fail(r, "n_fft", "is %lld, expected > 0", (long long)a->n_fft);
  if (a->hop < 1) return ic_ar_fail(r, "hop_length", "is %lld, expected > 0", (long long)a->hop);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const stft_attrs *a = c->attrs;
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0), *w = ic_in(c, 1, 0);
  if (x->ndim != 2) return ic_kfail_in(c, 0, 0, "expected rank 2 [batch, samples]");
  if (x->dims[1] < a->n_fft) {
    return ic_kfail_in(c, 0, 0, "has %lld samples, fewer than attribute n_fft %lld",
                       (long long)x->dims[1], (long long)a->n_fft);
  }
  if (w->dtype != x->dtype || w->ndim != 1 || w->dims[0] != a->n_fft) {
    return ic_kfail_in(c, 1, 0, "expected %s[%lld] (X's dtype, n_fft values)",
                       ic_dtype_name(x->dtype), (long long)a->n_fft);
  }
  const int64_t nf = 1 + (x->dims[1] - a->n_fft) / a->hop;
  const int64_t bins = a->onesided ? a->n_fft / 2 + 1 : a->n_fft;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype == IC_FP64 ? IC_COMPLEX128 : IC_COMPLEX64, 3,
                     (int64_t[]){x->dims[0], bins, nf});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const stft_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *w = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t B = x->dims[0], T = x->dims[1], n = a->n_fft;
  const int64_t bins = out->dims[1], nf = out->dims[2];
  if (!ic_tensor_numel_(out)) return IC_OK;
  const int64_t plen = ic_fft_plan_len(n);
  ic_buffer *buf = ic_kscratch(c, (size_t)(plen + 4 * n + 2 * B * bins * nf) * sizeof(double));
  if (!buf) return c->err->code;
  double *work = buf->data, *in = work + plen, *spec = in + 2 * n, *o = spec + 2 * n;
  ic_fft_plan plan;
  ic_fft_plan_init(&plan, n, -1, work);
  const double scale = a->normalized ? ic_fft_scale(IC_FFT_NORM_SQRT_N, n) : 1.0;
  const bool f32 = x->dtype == IC_FP32;
  for (int64_t b = 0; b < B; b++) {
    for (int64_t f = 0; f < nf; f++) {
      for (int64_t j = 0; j < n; j++) {
        const int64_t at = b * T + f * a->hop + j;
        in[2 * j] = f32 ? (double)(((const float *)x->data)[at] * ((const float *)w->data)[j])
                        : ((const double *)x->data)[at] * ((const double *)w->data)[j];
        in[2 * j + 1] = 0;
      }
      ic_fft_exec(&plan, in, 1, spec);
      for (int64_t k = 0; k < bins; k++) {
        o[2 * ((b * bins + k) * nf + f)] = spec[2 * k];
        o[2 * ((b * bins + k) * nf + f) + 1] = spec[2 * k + 1];
      }
    }
  }
  ic_fft_store(o, B * bins * nf, scale, out);
  ic_buffer_release(buf);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Window", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_stft = {
    .name = "stft",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(stft_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
