/* max_pool3d_with_index_grad: the gradient of max_pool3d_with_index (Paddle's
 * MaxPool3dWithIndexGradFunctor): X@GRAD is zero except that each Out@GRAD element is
 * added at the place its Mask entry names in its channel's volume. The engine and its rules are
 * pool_with_index.h; the forward's attributes (ksize, strides, paddings, global_pooling,
 * adaptive, ceil_mode) give the expected output dims. */
#include "kernels/cpu/pool_with_index.h"

static ic_status parse(ic_attr_reader *r, void *attrs) { return ic_mpi_parse(r, attrs, 3); }

static const ic_slotdef inputs[] = {{"X", IC_SLOT_NO_BUFFER}, {"Mask", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_max_pool3d_with_index_grad = {
    .name = "max_pool3d_with_index_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_mpi_attrs), .parse = parse,
    .infer = ic_mpi_grad_infer, .cpu = ic_mpi_grad_run,
};
