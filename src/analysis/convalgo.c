/* Convolution algorithm choice (options.winograd, CPU plans): mark every conv2d with
 * ic_winograd = true, a copy of the op with one more attribute (as fuse.c and layout.c add
 * theirs). The kernel (kernels/cpu/conv.c) decides from the shapes whether a marked
 * convolution runs by Winograd's algorithm: 3 x 3, stride 1, no dilation, one group,
 * float32, channel counts and an output size where oneDNN's Winograd kernels were measured
 * faster than its direct ones. Off by default: the results differ from the direct
 * convolution's (Paddle's) by about 1e-6 of the output's magnitude per layer. */
#include <stdlib.h>
#include <string.h>

#include "analysis/opseq.h"
#include "common/arena.h"

static int attr_cmp(const void *a, const void *b) {
  return strcmp(((const ic_attr *)a)->name, ((const ic_attr *)b)->name);
}

ic_status ic_opseq_winograd(ic_opseq *seq, ic_err *err) {
  for (size_t i = 0; i < seq->n_ops; i++) {
    const ic_op *op = seq->ops[i];
    if (strcmp(op->type, "conv2d") || ic_op_attr(op, "ic_winograd")) continue;
    const size_t n = op->n_attrs + 1;
    ic_op *m = ic_arena_alloc(seq->arena, sizeof *m);
    ic_attr *at = ic_arena_calloc(seq->arena, n, sizeof *at);
    if (!m || !at) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    if (op->n_attrs) memcpy(at, op->attrs, op->n_attrs * sizeof *at);
    at[op->n_attrs] = (ic_attr){.name = "ic_winograd", .type = IC_ATTR_BOOLEAN, .i = 1};
    qsort(at, n, sizeof *at, attr_cmp);
    *m = *op;
    m->attrs = at;
    m->n_attrs = n;
    seq->ops[i] = m;
  }
  return IC_OK;
}
