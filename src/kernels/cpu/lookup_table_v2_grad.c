/* lookup_table_v2_grad (paddle.nn.Embedding's gradient, phi's EmbeddingGradKernel, dense):
 * W@GRAD has W's dims and dtype; row r is the sum, in Ids' order and in W's dtype as Paddle
 * adds, of the Out@GRAD rows whose id is r. Ids equal to padding_idx (-1: none; any other
 * value literally, as the forward op) contribute nothing, except with is_sparse. Inputs: W
 * (dims only), Ids (int64 or int32), Out@GRAD (Ids' dims + [width]). An id outside [0, V) is
 * an error naming the position. is_sparse gives Paddle's SelectedRows values dense, the
 * padding rows included (see lookup_table_grad.c). The kernel is
 * lookup_table_grad's (lookup_table_grad.c). */
#include "kernels/cpu/lookup_table.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lgrad_attrs *a = attrs;
  a->l.v2 = true;
  return ic_lookup_grad_parse(r, a);
}

static const ic_slotdef inputs[] = {{"W", IC_SLOT_NO_BUFFER}, {"Ids", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"W@GRAD", 0}};

const ic_opdef ic_op_lookup_table_v2_grad = {
    .name = "lookup_table_v2_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(lgrad_attrs), .parse = parse,
    .infer = ic_lookup_grad_infer, .cpu = ic_lookup_grad_run,
};
