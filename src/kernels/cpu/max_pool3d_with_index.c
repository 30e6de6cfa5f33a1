/* max_pool3d_with_index: max pooling of NCDHW X that also returns where each maximum was,
 * as Paddle's MaxPool3dWithIndexFunctor: the rank-generic engine and its rules are
 * pool_with_index.h. */
#include "kernels/cpu/pool_with_index.h"

static ic_status parse(ic_attr_reader *r, void *attrs) { return ic_mpi_parse(r, attrs, 3); }

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"Mask", 0}};

const ic_opdef ic_op_max_pool3d_with_index = {
    .name = "max_pool3d_with_index",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(ic_mpi_attrs), .parse = parse,
    .infer = ic_mpi_infer, .cpu = ic_mpi_run,
};
