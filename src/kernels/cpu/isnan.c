/* isnan (v1, the fluid op): Out (bool [1]) = whether any element of X is NaN; see isfinite.h. */
#include "kernels/cpu/isfinite.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status run(ic_kctx *c) { return ic_isfinite_any_run(c, IC_ISNAN); }

const ic_opdef ic_op_isnan = {
    .name = "isnan", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = ic_isfinite_any_infer, .cpu = run,
};
