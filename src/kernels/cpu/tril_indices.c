/* tril_indices (paddle.tril_indices): attributes rows, cols, offset, dtype; see
 * tri_indices.h. */
#include "kernels/cpu/tri_indices.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  return ic_tri_parse(r, attrs, "rows", "cols", false);
}

static const ic_slotdef k_outputs[1] = {{"out", 0}};

const ic_opdef ic_op_tril_indices = {
    .name = "tril_indices", .n_inputs = 0, .inputs = NULL, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(ic_tri_attrs), .parse = parse,
    .infer = ic_tri_infer, .cpu = ic_tri_run,
};
