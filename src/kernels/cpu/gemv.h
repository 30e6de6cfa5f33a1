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

#endif
