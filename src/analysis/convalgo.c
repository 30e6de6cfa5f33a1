/* Convolution algorithm choice (options.winograd, CPU plans): mark every conv2d with
 * ic_winograd = true, a copy of the op with one more attribute (as fuse.c and layout.c add
 * theirs). The kernel (kernels/cpu/conv_dnnl.c) decides from the shapes whether a marked
 * convolution runs by Winograd's algorithm: 3 x 3, stride 1, no dilation, one group,
 * float32, channel counts and an output size where oneDNN's Winograd kernels were measured
 * faster than its direct ones. Off by default: the results differ from the direct
 * convolution's (Paddle's) by about 1e-6 of the output's magnitude per layer. */
#include <string.h>

#include "analysis/opseq.h"
#include "common/arena.h"

ic_status ic_opseq_winograd(ic_opseq *seq, ic_err *err) {
  static const char *const mark[] = {"ic_winograd"};
  for (size_t i = 0; i < seq->n_ops; i++) {
    const ic_op *op = seq->ops[i];
    if (strcmp(op->type, "conv2d") || ic_op_attr(op, "ic_winograd")) continue;
    if (!(seq->ops[i] = ic_op_with_flags(seq->arena, op, mark, 1))) {
      return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
  }
  return IC_OK;
}
