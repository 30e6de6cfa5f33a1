/* matmul (v1)'s attributes and Paddle's matrix descriptor of an operand, shared by the CPU
 * kernel (matmul.c), matmul_grad.c and the CUDA kernel (cuda/matmul.cu). See matmul.c for the rules. */
#ifndef IC_KERNELS_CPU_MATMUL_H
#define IC_KERNELS_CPU_MATMUL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel.h"
#include "scope/tensor.h"

typedef struct matmul_attrs {
  bool trans_x, trans_y;
  double alpha;
} matmul_attrs;

#ifdef __cplusplus
extern "C" {
#endif
/* matmul's (and matmul_grad's) attribute parser (matmul.c). */
ic_status ic_matmul_parse(ic_attr_reader *r, void *attrs); /* matmul_attrs */
#ifdef __cplusplus
}
#endif

/* One side as Paddle's matrix descriptor: `batched` for rank >= 3 (batch = product of the
 * leading dims, possibly 0), rows x cols as stored and height x width after the transpose. */
typedef struct mdesc {
  bool batched;
  int64_t batch, rows, cols, height, width;
} mdesc;

static inline mdesc describe(const ic_tensor *t, bool is_x, bool trans) {
  mdesc d = {0};
  if (t->ndim == 1) {
    d.rows = is_x ? 1 : t->dims[0];
    d.cols = is_x ? t->dims[0] : 1;
  } else {
    d.rows = t->dims[t->ndim - 2];
    d.cols = t->dims[t->ndim - 1];
  }
  d.batched = t->ndim >= 3;
  d.batch = 1;
  for (int i = 0; i < t->ndim - 2; i++) d.batch *= t->dims[i];
  d.height = trans ? d.cols : d.rows;
  d.width = trans ? d.rows : d.cols;
  return d;
}

#ifdef __cplusplus
extern "C" {
#endif
/* Checks the op's X and Y (slots 0 and 1: float32/float64, the same dtype, rank >= 1) and
 * describes them as matmul reads them (matmul.c; matmul_grad uses it too). */
ic_status ic_matmul_operands(ic_kctx *c, mdesc *dx, mdesc *dy);
#ifdef __cplusplus
}
#endif

#endif
