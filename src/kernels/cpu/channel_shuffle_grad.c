/* channel_shuffle_grad: X@GRAD = Out@GRAD moved back by the inverse of channel_shuffle's
 * permutation (phi ChannelShuffleGradKernel): with per = C / groups,
 *   X@GRAD[n, g * per + j] = Out@GRAD[n, j * groups + g]
 * (NCHW; NHWC with the channels last). Input Out@GRAD only, channel_shuffle's attributes
 * (groups, data_format). Any dtype (elements are moved). */
#include "kernels/cpu/chshuffle.h"

static ic_status run(ic_kctx *c) { return ic_chshuffle_run(c, true); }

static const ic_slotdef inputs[] = {{"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_channel_shuffle_grad = {
    .name = "channel_shuffle_grad", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ic_chshuffle_attrs), .parse = ic_chshuffle_parse,
    .infer = ic_chshuffle_infer, .cpu = run,
};
