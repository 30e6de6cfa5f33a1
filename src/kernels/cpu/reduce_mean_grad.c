/* reduce_mean_grad: X@GRAD = Out@GRAD broadcast back over the axes reduce_mean reduced, divided by the
 * number of elements reduced into each output (in X's dtype, as Paddle divides)
 * (same attributes as the forward op: dim, keep_dim, reduce_all). X is read for its dims. */
#include "kernels/cpu/reduce.h"
#include "kernels/cpu/train.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_reduce_parse(r, attrs, IC_REDUCE_MEAN);
}

static ic_status run(ic_kctx *c) { return ic_reduce_grad_run(c, true); }

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_reduce_mean_grad = {
    .name = "reduce_mean_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_reduce_attrs), .parse = parse,
    .infer = ic_reduce_grad_infer, .cpu = run,
};
