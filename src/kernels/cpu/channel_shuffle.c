/* channel_shuffle (paddle.nn.ChannelShuffle): the channels of X [N, C, H, W] (or NHWC) seen as
 * [groups, C / groups] are transposed to [C / groups, groups]:
 * Out[n, j * groups + g] = X[n, g * (C / groups) + j] (paddle/phi/kernels/impl/
 * channel_shuffle_kernel_impl.h, ChannelShuffleInferMeta). Any dtype (elements are moved). */
#include "kernels/cpu/chshuffle.h"

static ic_status run(ic_kctx *c) { return ic_chshuffle_run(c, false); }

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_channel_shuffle = {
    .name = "channel_shuffle", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ic_chshuffle_attrs), .parse = ic_chshuffle_parse,
    .infer = ic_chshuffle_infer, .cpu = run,
};
