/* matmul_v2's attributes and its product as batches of one GEMM each, shared by the CPU
 * kernel (matmul_v2.c) and the CUDA kernel (cuda/matmul_v2.cu). See matmul_v2.c for the
 * rules. */
#ifndef IC_KERNELS_CPU_MATMUL_V2_H
#define IC_KERNELS_CPU_MATMUL_V2_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/cpu/gemm.h"
#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct matmul_v2_attrs {
  bool trans_x, trans_y;
} matmul_v2_attrs;

typedef struct ic_matmul_v2_plan {
  ic_gemm g;
  int nb;                        /* batch dims, right-aligned */
  int64_t ob[IC_MAX_RANK];       /* Out's batch dims */
  int64_t xb[IC_MAX_RANK];       /* X's batch dims padded with leading 1s */
  int64_t yb[IC_MAX_RANK];
  int64_t xcount, ycount, ocount; /* matrices in X, Y, Out */
  bool x_vec, y_vec;             /* 1-D operands */
} ic_matmul_v2_plan;

/* Plan the product of the op's X and Y (fails with IC_ERR_SHAPE naming both). */
ic_status ic_matmul_v2_make_plan(ic_kctx *c, ic_matmul_v2_plan *p);
/* matmul_v2's infer and CPU kernel (X input 0, Y input 1, Out output 0, matmul_v2_attrs):
 * bmm runs on them too. */
ic_status ic_matmul_v2_infer(ic_kctx *c);
ic_status ic_matmul_v2_run(ic_kctx *c);

#ifdef __cplusplus
}
#endif

#endif
