/* temporal_shift_grad (phi TemporalShiftGradKernel): X@GRAD is Out@GRAD shifted back, the
 * channels [0, c1) reading frame t + 1 and [c1, c2) frame t - 1, zeros past either end
 * (temporal_shift.c). Any dtype. */
#include "kernels/cpu/temporal_shift.h"

static ic_status run(ic_kctx *c) { return ic_ts_shift(c, true); }

static const ic_slotdef inputs[] = {{"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_temporal_shift_grad = {
    .name = "temporal_shift_grad", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ic_ts_attrs), .parse = ic_ts_parse,
    .infer = ic_ts_infer, .cpu = run,
};
