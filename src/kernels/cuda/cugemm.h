/* Row-major matrix products on the GPU through cuBLAS, for mul, matmul, matmul_v2 and rnn:
 * the CPU's ic_gemm description (kernels/cpu/gemm.h), run as cuBLAS's column-major product
 * with the operands swapped (row-major C = A B is column-major C^T = B^T A^T), batched by
 * strides or by device pointer arrays. fp32 computes in full fp32 (CUBLAS_COMPUTE_32F, never
 * TF32, whatever the handle's math mode), fp64 in fp64. Every call is asynchronous on the
 * context's stream. */
#ifndef IC_KERNELS_CUDA_CUGEMM_H
#define IC_KERNELS_CUDA_CUGEMM_H

#include <stdint.h>

#include "kernels/cpu/gemm.h"
#include "kernels/kernel.h"

/* `count` products C_i = alpha * op(A_i) * op(B_i) + beta * C_i with A_i = a + i * stride_a
 * elements (likewise B and C; a stride of 0 reuses one matrix for every product). k == 0 sets
 * C to beta * C (beta 0: zeros) and m, n or count 0 does nothing. Fails with IC_ERR_UNSUPPORTED
 * when a size exceeds cuBLAS's int, IC_ERR_DEVICE when cuBLAS fails. */
ic_status ic_cugemm_strided(ic_kctx *c, const ic_gemm *g, const void *a, int64_t stride_a,
                            const void *b, int64_t stride_b, void *cm, int64_t stride_c,
                            int64_t count);
/* The same with device arrays of `count` matrix pointers each (in device memory). */
ic_status ic_cugemm_pointers(ic_kctx *c, const ic_gemm *g, const void *const *a,
                             const void *const *b, void *const *cm, int64_t count);

#endif
