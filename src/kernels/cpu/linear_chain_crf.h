/* What linear_chain_crf and linear_chain_crf_grad share (paddle/fluid/operators/
 * linear_chain_crf_op.h): the sequences, from Label's LoD or from Length, and the L1
 * normalization of the forward and backward vectors. */
#ifndef IC_KERNELS_CPU_LINEAR_CHAIN_CRF_H
#define IC_KERNELS_CPU_LINEAR_CHAIN_CRF_H

#include "kernels/kernel.h"

typedef struct ic_crf_seqs {
  size_t n;             /* sequences */
  const uint64_t *off;  /* LoD offsets (n + 1), or NULL with Length */
  const int64_t *len;   /* Length [n], or NULL */
  int64_t steps;        /* padded: positions per sequence */
} ic_crf_seqs;

/* Sequence q's first row and length (rows of Emission viewed as [rows, tags]). */
static inline void ic_crf_seq(const ic_crf_seqs *s, size_t q, int64_t *first, int64_t *n) {
  if (s->len) {
    *first = (int64_t)q * s->steps;
    *n = s->len[q];
  } else {
    *first = (int64_t)s->off[q];
    *n = (int64_t)(s->off[q + 1] - s->off[q]);
  }
}

/* The sequences of the op's Label (input slot `label`, LoD mode) or Length (`length`, padded
 * [B, S, tags] Emission `e`); lengths and labels checked (0 <= label < tags). */
ic_status ic_crf_seqs_of(ic_kctx *c, size_t label, size_t length, const ic_tensor *e,
                         ic_crf_seqs *out);

#endif
