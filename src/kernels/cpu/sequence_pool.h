/* sequence_pool's attributes, shared by sequence_pool.c and sequence_pool_grad.c. See
 * sequence_pool.c for Paddle's semantics. */
#ifndef IC_KERNELS_CPU_SEQUENCE_POOL_H
#define IC_KERNELS_CPU_SEQUENCE_POOL_H

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { P_AVERAGE, P_SUM, P_SQRT, P_MAX, P_LAST, P_FIRST };

typedef struct ic_seqpool_attrs {
  int type; /* P_* */
  double pad_value;
} ic_seqpool_attrs;

ic_status ic_sequence_pool_parse(ic_attr_reader *r, void *attrs);

#ifdef __cplusplus
}
#endif

#endif
