/* sequence_expand's attributes and repeat counts, shared by sequence_expand.c and
 * sequence_expand_grad.c. See sequence_expand.c for Paddle's semantics. */
#ifndef IC_KERNELS_CPU_SEQUENCE_EXPAND_H
#define IC_KERNELS_CPU_SEQUENCE_EXPAND_H

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_seqexpand_attrs {
  int64_t ref_level;
} ic_seqexpand_attrs;

ic_status ic_sequence_expand_parse(ic_attr_reader *r, void *attrs);
/* The offsets of the chosen level of Y's LoD (input 1) and their count, after checking X
 * (input 0) and Y against each other; failing the context naming them. */
ic_status ic_sequence_expand_refs(ic_kctx *c, const uint64_t **ref, size_t *n);

#ifdef __cplusplus
}
#endif

#endif
