/* A matrix-vector product for the recurrent step of rnn at small batch, where oneDNN's sgemm
 * spends more time in its per-call setup than in the arithmetic, and for a single-row
 * product of a weight matrix that comes from memory (ic_gemm_run, M = 1). */
#ifndef IC_KERNELS_CPU_GEMV_H
#define IC_KERNELS_CPU_GEMV_H

#include <stdbool.h>
#include <stdint.h>

/* Whether this CPU has a vector unit ic_gemv_acc_f32 uses (AVX2 or AVX-512F); without one,
 * callers use ic_gemm_run instead. */
bool ic_gemv_available(void);

/* y[j] += sum over k of x[k] * wt[k * n + j], for j < n: wt is the K x N matrix stored
 * row-major (the transpose of a GEMM's N x K "B^T" operand). For each j the products are added
 * to y[j] one at a time in ascending k, each product and sum rounded (no fused multiply-add),
 * so the result is the same with either vector unit and independent of n's blocking. Needs
 * ic_gemv_available(). */
void ic_gemv_acc_f32(const float *wt, const float *x, float *y, int64_t k, int64_t n);
/* The same with rows of wt ldw >= n floats apart (n columns of a wider matrix). */
void ic_gemv_acc_f32_ld(const float *wt, int64_t ldw, const float *x, float *y, int64_t k,
                        int64_t n);

/* The packed form, for a weight matrix used many times (rnn's W_hh across time steps): W
 * [n, k] row-major (a GEMM's "B^T" operand, so y = W x + y) is packed once by
 * ic_gemv_pack_f32 into ic_gemv_packed_size(k, n) floats: panels of ic_gemv_panel() columns
 * of W^T, each panel's k rows contiguous, the last panel padded with zeros. Then
 * ic_gemv_packed_acc_f32 gives the bits of ic_gemv_acc_f32 on W^T (the same operations per
 * output, in the same order), reading the matrix in order. The panel width depends on the
 * vector unit: pack and multiply on the same machine. Needs ic_gemv_available(). */
#define IC_GEMV_PANEL_VECS 8
int64_t ic_gemv_panel(void);
int64_t ic_gemv_packed_size(int64_t k, int64_t n);
void ic_gemv_pack_f32(const float *w, int64_t n, int64_t k, float *wp);
void ic_gemv_packed_acc_f32(const float *wp, const float *x, float *y, int64_t k, int64_t n);

#endif
