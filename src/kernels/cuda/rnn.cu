/* rnn (LSTM, inference) on the GPU with the CPU kernel's structure (see cpu/rnn.c): per layer
 * and direction, the input projection X * W_ih^T of all T * B rows is one cuBLAS product and
 * a kernel adds both biases (in Paddle's order); each step adds h * W_hh^T with a second
 * product (beta 1) and one fused kernel applies the cell to the batch. The cell uses Paddle's
 * sigmoid and tanh through exp, with every multiply and add rounded separately as on the CPU
 * (-fmad=false);
 * only the device's exp and the GEMM's summation order can differ in the last bits.
 *
 * SequenceLength stays on the device: step t of sequence b runs when t < len[b], else Out is
 * zero there and the state is carried. The CPU kernel also rejects a length outside
 * [0, seq_len]; that needs the values on the host, so here such a length simply acts as its
 * clamp (negative: nothing runs; beyond seq_len: every step runs). */
#include "kernels/cpu/rnn.h"
#include "kernels/cuda/cuda_kit.cuh"
#include "kernels/cuda/cugemm.h"

enum { IN_INPUT, IN_PRESTATE, IN_WEIGHTS, IN_SEQLEN };
enum { OUT_OUT, OUT_STATE };

static __device__ inline float exp_t(float v) { return expf(v); }
static __device__ inline double exp_t(double v) { return exp(v); }

template <typename T>
static __device__ inline T sigm(T v) {
  return (T)1 / ((T)1 + exp_t(-v));
}
template <typename T>
static __device__ inline T tanh_exp(T v) {
  return (T)2 / ((T)1 + exp_t((T)-2 * v)) - (T)1;
}

template <typename T>
__global__ void add_bias(T *g, int64_t rows, int64_t n, const T *bi, const T *bh) {
  IC_CUDA_FOR(k, rows * n) {
    const int64_t j = k % n;
    g[k] = (g[k] + bi[j]) + bh[j];
  }
}

/* One step for the batch: gates g [B, 4H] (i, f, c~, o), state h and c [B, H], Out rows of
 * ldo elements. len is int32 or int64 (len64), or NULL for every sequence full length. */
template <typename T>
__global__ void lstm_step(const T *g, T *h, T *c, T *out, int64_t ldo, int64_t B, int64_t H,
                          int64_t t, const void *len, bool len64) {
  IC_CUDA_FOR(k, B * H) {
    const int64_t b = k / H, j = k % H;
    int64_t lb = t + 1;
    if (len) lb = len64 ? ((const int64_t *)len)[b] : (int64_t)((const int32_t *)len)[b];
    T *o = out + b * ldo + j;
    if (!(t < lb)) {
      *o = (T)0;
      continue;
    }
    const T *gb = g + b * 4 * H;
    const T ig = sigm(gb[j]), fg = sigm(gb[H + j]);
    const T cand = tanh_exp(gb[2 * H + j]), og = sigm(gb[3 * H + j]);
    const T cn = cand * ig + c[k] * fg;
    const T hn = og * tanh_exp(cn);
    c[k] = cn;
    h[k] = hn;
    *o = hn;
  }
}

/* A device-to-device copy of a state (nothing for an empty batch, whose pointers may be
 * NULL scratch). */
static ic_status d2d(ic_kctx *c, void *dst, const void *src, size_t bytes, const char *what) {
  if (bytes == 0) return IC_OK;
  cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, ic_cuda_stream(c));
  if (e == cudaSuccess) return IC_OK;
  return ic_kfail(c, IC_ERR_DEVICE, "cudaMemcpyAsync of the state %s: %s", what,
                  cudaGetErrorString(e));
}

template <typename T>
static ic_status run(ic_kctx *c) {
  const rnn_attrs *a = (const rnn_attrs *)c->attrs;
  cudaStream_t s = ic_cuda_stream(c);
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *len_t = ic_in(c, IN_SEQLEN, 0);
  const int64_t T_ = x->dims[0], B = x->dims[1], In = x->dims[2], H = a->hidden, L = a->layers;
  const int64_t D = a->bidirec ? 2 : 1, G = 4 * H;
  const size_t nw = (size_t)(4 * L * D);
  ic_tensor *out = ic_out(c, OUT_OUT, 0);
  ic_tensor *last_h = ic_out(c, OUT_STATE, 0), *last_c = ic_out(c, OUT_STATE, 1);
  const ic_tensor *init_h = ic_in(c, IN_PRESTATE, 0), *init_c = ic_in(c, IN_PRESTATE, 1);
  const void *len = len_t ? len_t->data : NULL;
  const bool len64 = len_t && len_t->dtype == IC_INT64;

  /* Scratch: gates [T*B, 4H], h and c [B, H], and the outputs of the layers below the last
   * (two buffers alternate from the third layer on). */
  const size_t n_gates = (size_t)(T_ * B * G), n_state = (size_t)(B * H);
  const size_t n_layer = (size_t)(T_ * B * D * H), n_bufs = L > 2 ? 2 : (size_t)(L - 1);
  void *scratch = NULL;
  ic_status st =
      ic_cuda_scratch(c, (n_gates + 2 * n_state + n_bufs * n_layer) * sizeof(T), &scratch);
  if (st) return st;
  T *gates = (T *)scratch, *h = gates + n_gates, *cst = h + n_state;
  T *bufs[2] = {cst + n_state, cst + n_state + (n_bufs > 1 ? n_layer : 0)};
  const size_t state_bytes = n_state * sizeof(T);

  const T *in = (const T *)x->data;
  int64_t in_size = In;
  for (int64_t l = 0; l < L && !st; l++) {
    T *dst = l == L - 1 ? (T *)out->data : bufs[l % 2];
    for (int64_t d = 0; d < D && !st; d++) {
      const size_t k = (size_t)(2 * (l * D + d)), kb = k + nw / 2;
      const T *w_ih = (const T *)ic_in(c, IN_WEIGHTS, k)->data;
      const T *w_hh = (const T *)ic_in(c, IN_WEIGHTS, k + 1)->data;
      const T *b_ih = (const T *)ic_in(c, IN_WEIGHTS, kb)->data;
      const T *b_hh = (const T *)ic_in(c, IN_WEIGHTS, kb + 1)->data;
      const size_t row = (size_t)(l * D + d) * n_state;
      ic_gemm proj = {};
      proj.dtype = x->dtype;
      proj.trans_b = true;
      proj.m = T_ * B;
      proj.n = G;
      proj.k = in_size;
      proj.lda = in_size;
      proj.ldb = in_size;
      proj.ldc = G;
      proj.alpha = 1.0;
      if ((st = ic_cugemm_strided(c, &proj, in, 0, w_ih, 0, gates, 0, 1))) break;
      add_bias<T><<<ic_cuda_blocks(T_ * B * G), IC_CUDA_THREADS, 0, s>>>(gates, T_ * B, G, b_ih,
                                                                          b_hh);
      if ((st = ic_cuda_launched(c, "add_bias"))) break;
      if ((st = d2d(c, h, (const T *)init_h->data + row, state_bytes, "init_h")) ||
          (st = d2d(c, cst, (const T *)init_c->data + row, state_bytes, "init_c"))) {
        break;
      }
      ic_gemm rec = {};
      rec.dtype = x->dtype;
      rec.trans_b = true;
      rec.m = B;
      rec.n = G;
      rec.k = H;
      rec.lda = H;
      rec.ldb = H;
      rec.ldc = G;
      rec.alpha = 1.0;
      rec.beta = 1.0;
      for (int64_t step = 0; step < T_; step++) {
        const int64_t t = d == 0 ? step : T_ - 1 - step;
        T *g_t = gates + t * B * G;
        T *o_t = dst + t * B * D * H + d * H;
        /* Rows whose sequence has ended get a product too; the step ignores them. */
        if ((st = ic_cugemm_strided(c, &rec, h, 0, w_hh, 0, g_t, 0, 1))) break;
        lstm_step<T><<<ic_cuda_blocks(B * H), IC_CUDA_THREADS, 0, s>>>(g_t, h, cst, o_t, D * H,
                                                                       B, H, t, len, len64);
        if ((st = ic_cuda_launched(c, "lstm_step"))) break;
      }
      if (st) break;
      if ((st = d2d(c, (T *)last_h->data + row, h, state_bytes, "last_h")) ||
          (st = d2d(c, (T *)last_c->data + row, cst, state_bytes, "last_c"))) {
        break;
      }
    }
    in = dst;
    in_size = D * H;
  }
  return ic_cuda_scratch_free(c, scratch, st);
}

extern "C" ic_status ic_cuda_rnn(ic_kctx *c) {
  const rnn_attrs *a = (const rnn_attrs *)c->attrs;
  if (!a->is_test) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED,
                    "rnn in training (is_test false) has no CUDA kernel in icore (its Reserve "
                    "for rnn_grad is written by the CPU kernel); run it on the CPU");
  }
  if (a->mode != MODE_LSTM) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED,
                    "rnn mode %s has no CUDA kernel in icore (only LSTM has); run it on the CPU",
                    a->mode == MODE_GRU ? "GRU" : a->mode == MODE_RNN_TANH ? "RNN_TANH" : "RNN_RELU");
  }
  ic_status st = ic_cuda_need_env(c, true);
  if (st) return st;
  return ic_in(c, IN_INPUT, 0)->dtype == IC_FP64 ? run<double>(c) : run<float>(c);
}
