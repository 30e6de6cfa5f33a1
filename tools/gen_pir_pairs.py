#!/usr/bin/env python3
"""Write tests/data/pir/: the same small programs exported by PaddlePaddle in both of its
program formats, the protobuf ProgramDesc (model.pdmodel, FLAGS_enable_pir_api=0) and the
PIR JSON program (model.json, FLAGS_enable_pir_api=1, Paddle 3's default), with one shared
parameter file and Paddle's own outputs, so that tests/test_pir.c can check that icore reads
both files into programs that compute the same values, bit for bit.

    /work/pdenv/bin/python tools/gen_pir_pairs.py [OUT_DIR]

OUT_DIR defaults to tests/data/pir in this repository. Tested with PaddlePaddle 3.3.1 (CPU).
FLAGS_enable_pir_api is read once, when paddle is imported, so the script runs itself twice
as child processes (one per format) and then compares what they wrote:

  * model.pdiparams must be byte-identical from both formats. The protobuf saver writes the
    persistables sorted by name; identical bytes prove that Paddle's PIR saver writes them
    in that order too (not in the order of the builtin.parameter ops, which differs in these
    programs: Paddle emits those in reverse creation order).
  * Paddle's outputs from both formats must agree.

Each case is a directory <case>/ holding
    model.pdmodel      the program, protobuf (op_callstack attributes removed: Python
                       stacks with this machine's paths)
    model.json         the program, PIR JSON, exactly as Paddle wrote it
    model.pdiparams    the parameters (both formats), when the case has any
    in0.npy ...        the feeds, in the protobuf program's feed-target order
    out0.npy ...       Paddle's fetches, in fetch-target order: what Paddle computes running
                       the saved inference program (batch_norm with is_test) loaded back
                       from model.json (from model.pdmodel it must agree)
and cases.txt lists the case directories.

JSON_CASES (index, math, detect, seq, more, ops3, more2, ops6, fft, special, graph,
linalg, ops7, ops8) and
JIT_CASES (jit, ctrl, sweep4,
nonfinite: dygraph
Layers through paddle.jit.save, run back by Paddle Inference) are PIR-only: model.json,
model.pdiparams, the feeds
in<k>.npy in the order of the program's pd_op.data ops, and Paddle's outputs out<k>.npy of
whatever dtype; json_cases.txt lists them. They cover the ops whose Python API has no
legacy static path in Paddle 3.3, or whose legacy export would need each op built by hand.

random/model.json (PIR only, not compared: random ops) holds pd_op.uniform, pd_op.gaussian,
pd_op.multinomial, pd_op.randint, pd_op.randperm and pd_op.bernoulli. cond/model.json (PIR only) is a program with a pd_op.if: its regions must load as
sub-blocks (the control-flow op itself has no kernel yet). const/model.json (PIR only) holds
pd_op.assign_value_ constants (float32 and int64), which translate to assign_value.
lod/model.json (PIR only, not run) holds ops the cases cannot run (export_lod).
lod8/<case>/ (PIR only, export_lod8) holds LoD ops run by Paddle on LoD feeds, with
case.txt giving the feeds' and outputs' LoD (tests/test_pir_lod.c).
"""
import os
import shutil
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "tests", "data", "pir")


def seed_of(name):
    return zlib.crc32(name.encode()) & 0x7FFFFFFF


# Paddle 3.3's legacy (protobuf) static mode lost the static path of some Python APIs (they
# call the PIR-only C++ op directly: "argument must be Value, but got Variable"). For those,
# the legacy program gets the very op Paddle's own pre-PIR API appended, through LayerHelper.
PIR = os.environ.get("FLAGS_enable_pir_api", "1") not in ("0", "false", "False")


def legacy_op(paddle, type_, inputs, attrs, dtype=None, out_slot="Out"):
    from paddle.base.layer_helper import LayerHelper
    helper = LayerHelper(type_)
    first = next(iter(inputs.values()))
    out = helper.create_variable_for_type_inference(dtype or first.dtype)
    helper.append_op(type=type_, inputs=inputs, outputs={out_slot: out}, attrs=attrs)
    return out


def unary(paddle, name, x):
    if PIR:
        return getattr(paddle, name)(x) if name != "gelu" else paddle.nn.functional.gelu(x)
    attrs = {"approximate": False} if name == "gelu" else {}
    return legacy_op(paddle, name, {"X": x}, attrs)


def binary(paddle, name, x, y):
    if PIR:
        return getattr(paddle, name)(x, y)
    return legacy_op(paddle, {"maximum": "elementwise_max", "minimum": "elementwise_min"}[name],
                     {"X": x, "Y": y}, {"axis": -1})


def matmul(paddle, x, y, tx=False, ty=False):
    if PIR:
        return paddle.matmul(x, y, transpose_x=tx, transpose_y=ty)
    return legacy_op(paddle, "matmul_v2", {"X": x, "Y": y}, {"trans_x": tx, "trans_y": ty})


def reduce_sum(paddle, x, axis):
    if PIR:
        return paddle.sum(x, axis=axis)
    return legacy_op(paddle, "reduce_sum", {"X": x},
                     {"dim": axis, "keep_dim": False, "reduce_all": False})


# ----------------------------------------------------------------------------------------
# The programs. Each builder runs inside program_guard and returns (feeds, fetches) where
# feeds is a list of (data var, numpy value).
# ----------------------------------------------------------------------------------------


def case_mlp(paddle, np):
    x = paddle.static.data("x", [-1, 6], "float32")
    h = paddle.nn.functional.relu(paddle.nn.Linear(6, 16)(x))
    h = unary(paddle, "tanh", paddle.nn.Linear(16, 8)(h))
    y = paddle.nn.functional.softmax(paddle.nn.Linear(8, 4)(h), axis=-1)
    xv = np.random.RandomState(1).uniform(-1, 1, (3, 6)).astype("float32")
    return [(x, xv)], [y]


def case_cnn(paddle, np):
    x = paddle.static.data("img", [-1, 3, 12, 12], "float32")
    h = paddle.nn.Conv2D(3, 8, 3, padding=1)(x)
    h = paddle.nn.BatchNorm2D(8)(h)
    h = paddle.nn.functional.relu(h)
    h = paddle.nn.MaxPool2D(2, 2)(h)
    h = paddle.nn.Conv2D(8, 8, 3, stride=2, padding="SAME", groups=8)(h)
    h = paddle.nn.BatchNorm2D(8)(h)
    h = paddle.nn.functional.relu6(h)
    h = paddle.nn.AvgPool2D(3, 1, padding=1, exclusive=False)(h)
    h = paddle.nn.Conv2D(8, 4, 1, dilation=1, bias_attr=False)(h)
    h = unary(paddle, "sigmoid", h)
    g = paddle.nn.AdaptiveAvgPool2D(1)(h)
    y = paddle.flatten(g, 1)
    xv = np.random.RandomState(2).uniform(-1, 1, (2, 3, 12, 12)).astype("float32")
    return [(x, xv)], [y, h]


def case_shape(paddle, np):
    x = paddle.static.data("x", [2, 4, 6], "float32")
    z = paddle.static.data("z", [2, 6, 4], "float32")
    a = paddle.transpose(x, [0, 2, 1])                       # [2, 6, 4]
    b = paddle.reshape(a, [2, 3, 8])
    c = paddle.reshape(b, [-1, 6, 4])                        # [2, 6, 4]
    d = paddle.concat([c, z], axis=1)                        # [2, 12, 4]
    p, q, r = paddle.split(d, [3, 4, 5], axis=1)
    u, v = paddle.split(d, 2, axis=-1)                       # [2, 12, 2] each
    s = paddle.slice(d, axes=[1, 2], starts=[1, 0], ends=[10, 3])   # [2, 9, 3]
    t = paddle.nn.functional.softmax(s, axis=1)
    ln = paddle.nn.LayerNorm([3])(t)
    m = matmul(paddle, ln, ln, tx=True)              # [2, 3, 3]
    m2 = matmul(paddle, p, q, ty=True)               # [2, 3, 4]
    w = paddle.scale(m, scale=0.5, bias=0.25)
    w2 = paddle.scale(m2, scale=2.0, bias=-1.0, bias_after_scale=False)
    e = paddle.squeeze(paddle.unsqueeze(r, [0]), [0])
    mean = paddle.mean(u * v, axis=[1], keepdim=True)
    rv = np.random.RandomState(3)
    xv = rv.uniform(-1, 1, (2, 4, 6)).astype("float32")
    zv = rv.uniform(-1, 1, (2, 6, 4)).astype("float32")
    return [(x, xv), (z, zv)], [w, w2, e, mean]


def case_eltwise(paddle, np):
    x = paddle.static.data("x", [-1, 3, 4, 5], "float32")
    y = paddle.static.data("y", [4, 5], "float32")
    c = paddle.static.data("c", [3, 1, 1], "float32")
    a = x + y
    b = a * c
    d = b - paddle.full([1], 0.5, "float32")
    e = d / (unary(paddle, "abs", c) + 1.0)
    f = binary(paddle, "maximum", e, y)
    g = binary(paddle, "minimum", f, unary(paddle, "exp", x))
    h = unary(paddle, "gelu", g) + paddle.nn.functional.leaky_relu(g, 0.1)
    k = paddle.nn.functional.hardswish(h) + paddle.nn.functional.hardsigmoid(h)
    k = paddle.clip(k, -0.75, 2.0)
    s = reduce_sum(paddle, k, [2, 3]) + paddle.max(k, axis=-1).mean(axis=-1)
    r = unary(paddle, "sqrt", unary(paddle, "abs", s) + 1e-3)
    rv = np.random.RandomState(4)
    xv = rv.uniform(-2, 2, (2, 3, 4, 5)).astype("float32")
    yv = rv.uniform(-1, 1, (4, 5)).astype("float32")
    cv = rv.uniform(-2, 2, (3, 1, 1)).astype("float32")
    return [(x, xv), (y, yv), (c, cv)], [r, k]


def case_dynamic(paddle, np):
    x = paddle.static.data("x", [-1, 4, 6], "float32")
    t = paddle.transpose(x, [0, 2, 1])
    a = paddle.reshape(x, paddle.shape(t))                   # reshape2 with a Shape tensor
    b = paddle.nn.functional.dropout(a, p=0.3, training=False)
    c = paddle.cast(b * 100.0, "int32")
    d = paddle.cast(c, "float32")
    e = paddle.flatten(paddle.unsqueeze(d, [1]), 1, 3)
    xv = np.random.RandomState(5).uniform(-1, 1, (3, 4, 6)).astype("float32")
    return [(x, xv)], [e]


CASES = {"mlp": case_mlp, "cnn": case_cnn, "shape": case_shape, "eltwise": case_eltwise,
         "dynamic": case_dynamic}


# ----------------------------------------------------------------------------------------
# Programs for the ops the PIR translation maps beyond the pairs above. Many of these Python
# APIs have no legacy static path left in Paddle 3.3: for JSON_CASES only model.json is
# written, with Paddle's outputs; tests/test_pir.c checks icore's values on model.json
# against them (feeds in the order of the program's pd_op.data ops).
# ----------------------------------------------------------------------------------------


def json_index(paddle, np):
    F = paddle.nn.functional
    x = paddle.static.data("x", [2, 3, 4, 5], "float32")
    i = paddle.static.data("i", [4], "int64")
    m = paddle.static.data("m", [4, 5], "float32")
    outs = [
        paddle.gather(x, paddle.full([2], 1, "int64"), axis=1),
        paddle.gather_nd(x, paddle.reshape(i, [2, 2]) % 2),
        paddle.index_select(x, i, axis=3),
        paddle.index_sample(m, paddle.reshape(i, [4, 1]).tile([1, 3])),
        paddle.take_along_axis(x, paddle.zeros([2, 3, 4, 1], "int64") + 2, 3),
        paddle.scatter(m, paddle.reshape(i[:2], [2]), paddle.ones([2, 5])),
        paddle.where(x > 0, x, x * 2),
        paddle.nonzero(m > 0),
        paddle.argmax(x, axis=1), paddle.argmin(x, axis=-1, keepdim=True),
        paddle.argsort(x, axis=1, descending=True),
        paddle.topk(x, 2, axis=-1)[0], paddle.topk(x, 3, axis=1, largest=False)[1],
        paddle.cumsum(x, axis=2), paddle.cumprod(x, 1),
        F.one_hot(i, 6),
        F.embedding(i, paddle.static.create_parameter([6, 3], "float32")),
        paddle.full_like(x, 2.5), paddle.arange(1, 10, 2, "int64"), paddle.linspace(0, 1, 5),
        paddle.eye(3, 4),
        paddle.meshgrid(i, i[:3])[1],
        paddle.tile(m, [2, 1]), paddle.expand(paddle.reshape(i, [4, 1]), [4, 3]),
        paddle.expand_as(paddle.reshape(m[0], [1, 5]), m),
        paddle.flip(x, [1, 3]), paddle.roll(x, [1, -2], axis=[2, 3]),
        paddle.tril(m, -1), paddle.triu(m, 1),
        paddle.strided_slice(x, [1, 3], [0, 4], [3, 0], [2, -2]),
        paddle.unbind(x, 1)[2], paddle.unstack(x, 2)[1],
        paddle.numel(x), paddle.diag(m[0], 1),
    ]
    rv = np.random.RandomState(11)
    return [(x, rv.uniform(-1, 1, (2, 3, 4, 5)).astype("float32")),
            (i, np.array([3, 0, 2, 1], "int64")),
            (m, rv.uniform(-1, 1, (4, 5)).astype("float32"))], outs


def json_math(paddle, np):
    F = paddle.nn.functional
    x = paddle.static.data("x", [3, 4, 5], "float32")      # in (-2, 2)
    p = paddle.static.data("p", [3, 4, 5], "float32")      # in (0.1, 0.9)
    n = paddle.static.data("n", [6], "int64")
    outs = []
    for name in ["log", "log10", "log1p", "log2", "rsqrt", "asin", "acos", "logit"]:
        outs.append(getattr(paddle, name)(p))
    for name in ["floor", "ceil", "round", "sin", "cos", "tan", "atan", "sinh", "cosh", "erf",
                 "expm1", "reciprocal", "square", "sign", "trunc", "stanh"]:
        outs.append(getattr(paddle, name)(x))
    for name in ["silu", "mish", "softplus", "elu", "celu", "selu", "hardshrink", "softshrink",
                 "hardtanh", "thresholded_relu", "log_sigmoid", "softsign", "tanhshrink"]:
        outs.append(getattr(F, name)(x))
    outs += [paddle.pow(x, 3.0), paddle.nn.PReLU(3)(x.unsqueeze(0)), F.log_softmax(x, 1)]
    lx = paddle.log(x)
    outs += [paddle.isnan(lx), paddle.isinf(1.0 / paddle.floor(x)), paddle.isfinite(lx)]
    a, b = x > 0, p > 0.5
    outs += [paddle.logical_and(a, b), paddle.logical_or(a, b), paddle.logical_xor(a, b),
             paddle.logical_not(a)]
    outs += [paddle.floor_divide(n, paddle.full([6], 3, "int64")),
             paddle.remainder(n, paddle.full([6], 4, "int64")),
             paddle.atan2(x, p), paddle.kron(p[0, :2, :2], x[1, :2, :3]),
             paddle.bmm(x, paddle.transpose(p, [0, 2, 1]))]
    outs += [paddle.min(x, axis=[1]), paddle.prod(p, axis=-1, keepdim=True), paddle.prod(p),
             paddle.any(a, axis=1), paddle.all(b, axis=[0, 2]), paddle.amax(x, 1),
             paddle.amin(x, [0, 2]), paddle.logsumexp(x, axis=1), paddle.norm(x, p=2, axis=1),
             paddle.norm(x, p=3, axis=-1, keepdim=True)]
    rv = np.random.RandomState(12)
    return [(x, rv.uniform(-2, 2, (3, 4, 5)).astype("float32")),
            (p, rv.uniform(0.1, 0.9, (3, 4, 5)).astype("float32")),
            (n, np.array([-7, -3, 0, 5, 9, 12], "int64"))], outs


def json_nn(paddle, np):
    F = paddle.nn.functional
    x = paddle.static.data("x", [2, 4, 6, 6], "float32")
    v = paddle.static.data("v", [1, 2, 4, 5, 5], "float32")
    ln = paddle.static.data("len", [3], "int64")
    outs = [
        paddle.nn.GroupNorm(2, 4)(x), paddle.nn.InstanceNorm2D(4)(x),
        F.pad(x, [1, 2, 0, 1], mode="reflect"), F.pad(x, [1, 1, 2, 0], value=0.5),
        F.pad(v, [1, 0, 0, 1, 1, 1], mode="replicate", data_format="NCDHW"),
        paddle.nn.Conv3D(2, 3, 3, padding=1)(v),
        F.max_pool3d(v, 2, 2), F.avg_pool3d(v, 3, 1, padding=1),
        F.channel_shuffle(x, 2), F.pixel_shuffle(x, 2), F.pixel_unshuffle(x, 2),
        F.maxout(x, 2), F.temporal_shift(x, 2, 0.25),
        paddle.cast(F.sequence_mask(ln, 5), "int32"),
    ]
    rv = np.random.RandomState(13)
    return [(x, rv.uniform(-1, 1, (2, 4, 6, 6)).astype("float32")),
            (v, rv.uniform(-1, 1, (1, 2, 4, 5, 5)).astype("float32")),
            (ln, np.array([0, 3, 5], "int64"))], outs


def json_detect(paddle, np):
    from paddle.vision import ops as V
    rv = np.random.RandomState(14)
    x = paddle.static.data("x", [1, 3 * 7, 4, 4], "float32")
    im = paddle.static.data("im", [1, 2], "int32")
    b, s = V.yolo_box(x, im, [10, 13, 16, 30, 33, 23], 2, 0.01, 8)
    bb = paddle.static.data("bb", [1, 10, 4], "float32")
    sc = paddle.static.data("sc", [1, 3, 10], "float32")
    mo, mn, mi = V.matrix_nms(bb, sc, 0.1, 0.1, 10, 5, return_index=True, return_rois_num=True)
    no, nn_, ni = paddle._C_ops.multiclass_nms3(bb, sc, None, 0.1, 10, 5, 0.4, True, 1.0, 0)
    feat = paddle.static.data("feat", [1, 3, 8, 8], "float32")
    rois = paddle.static.data("rois", [3, 4], "float32")
    rn = paddle.static.data("rn", [1], "int32")
    ra = V.roi_align(feat, rois, rn, 2, 0.5, 2, True)
    img = paddle.static.data("img", [1, 3, 32, 32], "float32")
    pb, pv = V.prior_box(feat, img, [4.0], [8.0], [2.0], [0.1, 0.1, 0.2, 0.2], True, True)
    tb = paddle.static.data("tb", [3, 1, 4], "float32")
    bc = V.box_coder(rois, [0.1, 0.1, 0.2, 0.2], tb, "decode_center_size", True, 1)
    mr, ri, rnl = V.distribute_fpn_proposals(rois * 40.0, 2, 5, 4, 224, rois_num=rn)
    sco = paddle.static.data("sco", [1, 3, 4, 4], "float32")
    dl = paddle.static.data("dl", [1, 12, 4, 4], "float32")
    ims = paddle.static.data("ims", [1, 2], "float32")
    an = paddle.static.data("an", [4, 4, 3, 4], "float32")
    va = paddle.static.data("va", [4, 4, 3, 4], "float32")
    r1, p1, n1 = V.generate_proposals(sco, dl, ims, an, va, pre_nms_top_n=20,
                                      post_nms_top_n=6, return_rois_num=True)
    outs = [b, s, mo, mn, mi, no, nn_, ni, ra, pb, pv, bc, ri] + list(mr) + list(rnl) + \
        [r1, p1, paddle.cast(n1, "int32")]
    corner = rv.uniform(0, 0.5, (1, 10, 2))
    boxes = np.concatenate([corner, corner + rv.uniform(0.1, 0.5, (1, 10, 2))], -1)
    rc = rv.uniform(0, 4, (3, 2))
    grid = np.stack(np.meshgrid(np.arange(4), np.arange(4), indexing="ij"), -1) * 8.0
    anchors = np.zeros((4, 4, 3, 4))
    for k, sz in enumerate((6.0, 10.0, 14.0)):
        anchors[:, :, k, 0] = grid[..., 1] + 4 - sz / 2
        anchors[:, :, k, 1] = grid[..., 0] + 4 - sz / 2
        anchors[:, :, k, 2] = grid[..., 1] + 4 + sz / 2
        anchors[:, :, k, 3] = grid[..., 0] + 4 + sz / 2
    f32 = lambda a: np.asarray(a, "float32")
    return [(x, f32(rv.uniform(-2, 2, (1, 21, 4, 4)))), (im, np.array([[32, 32]], "int32")),
            (bb, f32(boxes)), (sc, f32(rv.uniform(0, 1, (1, 3, 10)))),
            (feat, f32(rv.uniform(-1, 1, (1, 3, 8, 8)))),
            (rois, f32(np.concatenate([rc, rc + rv.uniform(1, 4, (3, 2))], 1))),
            (rn, np.array([3], "int32")), (img, f32(np.zeros((1, 3, 32, 32)))),
            (tb, f32(rv.uniform(-0.5, 0.5, (3, 1, 4)))),
            (sco, f32(rv.uniform(0, 1, (1, 3, 4, 4)))),
            (dl, f32(rv.uniform(-0.2, 0.2, (1, 12, 4, 4)))),
            (ims, np.array([[32, 32]], "float32")), (an, f32(anchors)),
            (va, f32(np.full((4, 4, 3, 4), 1.0)))], outs


def json_seq(paddle, np):
    x = paddle.static.data("x", [2, 5, 4], "float32")
    o, (h, c) = paddle.nn.LSTM(4, 3, direction="bidirect")(x)
    o2, h2 = paddle.nn.GRU(4, 3, num_layers=2)(x)
    t = paddle.transpose(x, [0, 2, 1])                                   # [2, 4, 5]
    ac = paddle._C_ops.affine_channel(t, paddle.full([4], 1.5), paddle.full([4], -0.25), "NCHW")
    sc = paddle._C_ops.shuffle_channel(paddle.unsqueeze(t, -1), 2)
    fw = paddle.full(paddle.shape(x)[:2], 1.5)                            # full_with_tensor
    img = paddle.static.data("img", [2, 4, 6, 6], "float32")
    g = paddle.static.data("g", [2, 3, 3, 2], "float32")
    gs = paddle.nn.functional.grid_sample(img, g, align_corners=False)
    rv = np.random.RandomState(15)
    return [(x, rv.uniform(-1, 1, (2, 5, 4)).astype("float32")),
            (img, rv.uniform(-1, 1, (2, 4, 6, 6)).astype("float32")),
            (g, rv.uniform(-1.1, 1.1, (2, 3, 3, 2)).astype("float32"))], \
        [o, h, c, o2, h2, ac, sc, fw, gs]


def json_misc(paddle, np):
    F = paddle.nn.functional
    x = paddle.static.data("x", [2, 5, 4], "float32")
    img = paddle.static.data("img", [1, 4, 6, 6], "float32")
    off = paddle.static.data("off", [1, 18, 6, 6], "float32")
    mask = paddle.static.data("mask", [1, 9, 6, 6], "float32")
    ids = paddle.static.data("ids", [3, 2, 2], "int64")
    par = paddle.static.data("par", [3, 2, 2], "int64")
    lab = paddle.static.data("lab", [2, 5, 1], "int64")
    y = paddle.static.setitem(paddle.assign(x), (0, slice(1, 3)), 2.5)           # set_value_
    z = paddle.static.setitem(paddle.assign(x), (slice(None), slice(0, 5, 2)),
                              paddle.full([2, 3, 4], -1.0))         # set_value_with_tensor_
    outs = [y, z, F.pad(x[0], [1, 2, 0, 1], value=0.5), F.pad(x, [1, 2, 0, 1, 1, 0], value=0.5),
            paddle.vision.ops.DeformConv2D(4, 2, 3, padding=1)(img, off, mask),
            F.gather_tree(ids, par), F.softmax_with_cross_entropy(x, lab),
            F.cross_entropy(x, lab, reduction="none"), paddle.nn.clip.clip_by_norm(x, 1.0),
            F.binary_cross_entropy_with_logits(x, (x > 0).astype("float32"), reduction="none")]
    rv = np.random.RandomState(16)
    f32 = lambda a: np.asarray(a, "float32")
    return [(x, f32(rv.uniform(-1, 1, (2, 5, 4)))), (img, f32(rv.uniform(-1, 1, (1, 4, 6, 6)))),
            (off, f32(rv.uniform(-1.5, 1.5, (1, 18, 6, 6)))),
            (mask, f32(rv.uniform(0, 1, (1, 9, 6, 6)))),
            (ids, rv.randint(0, 5, (3, 2, 2)).astype("int64")),
            (par, rv.randint(0, 2, (3, 2, 2)).astype("int64")),
            (lab, rv.randint(0, 4, (2, 5, 1)).astype("int64"))], outs


def json_more(paddle, np):
    """viterbi_decode, max_pool2d_with_index and unpool, crop, scatter_nd_add, put_along_axis,
    roi_pool and psroi_pool (mapped after the cases above were written: last, so that the
    parameter names of the others do not move)."""
    from paddle.vision import ops as V
    F = paddle.nn.functional
    em = paddle.static.data("em", [2, 4, 5], "float32")
    tr = paddle.static.data("tr", [5, 5], "float32")
    ln = paddle.static.data("ln", [2], "int64")
    sc, pa = paddle.text.viterbi_decode(em, tr, ln, True)
    x = paddle.static.data("x", [1, 2, 8, 8], "float32")
    mp, mask = F.max_pool2d(x, 2, 2, return_mask=True)
    up = F.max_unpool2d(mp, mask, 2, 2)
    cr = paddle.crop(x, shape=[1, 2, 4, 4], offsets=[0, 0, 1, 2])
    idx = paddle.static.data("idx", [3, 1], "int64")
    upd = paddle.static.data("upd", [3, 8, 8], "float32")
    sn = paddle.scatter_nd_add(paddle.reshape(x, [2, 8, 8]), idx, upd)
    pidx = paddle.static.data("pidx", [1, 2, 8, 1], "int64")
    pv = paddle.put_along_axis(x, pidx, 1.5, 3, reduce="add")
    boxes = paddle.static.data("boxes", [3, 4], "float32")
    bn = paddle.static.data("bn", [1], "int32")
    rp = V.roi_pool(x, boxes, bn, 2, 0.5)
    ps = V.psroi_pool(paddle.tile(x, [1, 2, 1, 1]), boxes, bn, 1, 0.5)
    rv = np.random.RandomState(17)
    f32 = lambda a: np.asarray(a, "float32")
    corner = rv.uniform(0, 8, (3, 2))
    return [(em, f32(rv.randint(0, 4, (2, 4, 5)) * 0.5)), (tr, f32(rv.uniform(-1, 1, (5, 5)))),
            (ln, np.array([4, 2], "int64")), (x, f32(rv.uniform(-1, 1, (1, 2, 8, 8)))),
            (idx, np.array([[1], [0], [1]], "int64")), (upd, f32(rv.uniform(-1, 1, (3, 8, 8)))),
            (pidx, rv.randint(0, 8, (1, 2, 8, 1)).astype("int64")),
            (boxes, f32(np.concatenate([corner, corner + rv.uniform(2, 8, (3, 2))], 1))),
            (bn, np.array([3], "int32"))], [sc, pa, mp, mask, up, cr, sn, pv, rp, ps]


def json_more2(paddle, np):
    """add_n, anchor_generator, collect_fpn_proposals, crf_decoding (with Length,
    with and without Label), huber_loss, norm, reverse, squared_l2_norm, accuracy, ctc_align,
    increment, mean_all, the fake quantization ops, quantize_linear,
    im2sequence and full_batch_size_like: ops whose Python API is gone or only reaches them
    through paddle._C_ops; then fmax, fmin, heaviside, acosh, asinh, atanh, the bitwise ops,
    cross, dot, mv, addmm, bce_loss, kldiv_loss, nll_loss, log_loss, multiplex, cummax,
    cummin, frobenius_norm, fill_diagonal, bilinear, logspace, nms, is_empty, memcpy_d2h and
    memcpy_h2d (mapped after the cases above: last, so that their parameter names do not
    move)."""
    C = paddle._C_ops
    f32 = lambda a: np.asarray(a, "float32")
    rv = np.random.RandomState(19)
    x = paddle.static.data("x", [3, 4, 5], "float32")
    y = paddle.static.data("y", [3, 4, 5], "float32")
    feat = paddle.static.data("feat", [1, 2, 3, 4], "float32")
    r1 = paddle.static.data("r1", [4, 4], "float32")
    r2 = paddle.static.data("r2", [3, 4], "float32")
    s1 = paddle.static.data("s1", [4, 1], "float32")
    s2 = paddle.static.data("s2", [3, 1], "float32")
    n1 = paddle.static.data("n1", [2], "int32")
    n2 = paddle.static.data("n2", [2], "int32")
    em = paddle.static.data("em", [2, 4, 5], "float32")
    tr = paddle.static.data("tr", [7, 5], "float32")
    lab = paddle.static.data("lab", [2, 4], "int64")
    ln = paddle.static.data("ln", [2], "int64")
    logits = paddle.static.data("logits", [6, 5], "float32")
    cls = paddle.static.data("cls", [6, 1], "int64")
    tok = paddle.static.data("tok", [2, 7], "int32")
    tlen = paddle.static.data("tlen", [2, 1], "int32")
    sc = paddle.static.data("sc", [1], "float32")
    accum = paddle.static.data("accum", [1], "float32")
    state = paddle.static.data("state", [1], "float32")
    it = paddle.static.data("it", [1], "int32")
    chs = paddle.static.data("chs", [3], "float32")
    zp = paddle.static.data("zp", [1], "float32")
    img = paddle.static.data("img", [2, 2, 5, 5], "float32")
    an, av = C.anchor_generator(feat, [16.0, 32.0], [0.5, 1.0, 2.0], [0.1, 0.1, 0.2, 0.2],
                                [8.0, 8.0], 0.5)
    fr, frn = C.collect_fpn_proposals([r1, r2], [s1, s2], [n1, n2], 5)
    tv, ti = paddle.topk(logits, 2)
    acc, cor, tot = C.accuracy(tv, ti, cls)
    ca, cal = C.ctc_align(tok, tlen, 0, True, -1)
    ca2, cal2 = C.ctc_align(tok, tlen, 1, False, 0)
    outs = [
        paddle.add_n([x, y, x]), an, av, fr, frn,
        C.crf_decoding(em, tr, None, ln), C.crf_decoding(em, tr, lab, ln),
        C.huber_loss(x, y, 0.3), C.norm(x, 1, 1e-10, True)[0], C.reverse(x, [0, 2]),
        C.squared_l2_norm(x), acc, cor, tot, ca, cal, ca2, cal2,
        paddle.increment(sc, 2.5), C.mean_all(x),
        *C.fake_quantize_abs_max(x, 8, 1), C.fake_quantize_dequantize_abs_max(x, 8, 0)[0],
        C.fake_channel_wise_quantize_dequantize_abs_max(x, 8, 0, 1)[0],
        C.fake_dequantize_max_abs(x, sc, 127.0),
        C.fake_channel_wise_dequantize_max_abs(x, [chs], [8], 0, 1),
        C.fake_quantize_moving_average_abs_max(x, sc, accum, state, 0.9, 8, True, 1)[0],
        C.fake_quantize_dequantize_moving_average_abs_max(x, sc, accum, state, 0.9, 8, True,
                                                          0)[0],
        C.fake_quantize_range_abs_max(x, sc, it, 100, 8, True, 1)[0],
        C.quantize_linear(x, sc, zp, accum, state, -1, 8, -128, 127, 0, True, False)[0],
        C.im2sequence(img, None, [2, 3], [2, 1], [1, 0, 0, 1], [1, 1]),
        C.full_batch_size_like(logits, [1, 3], paddle.float32, 1.5, 0, 1, paddle.CPUPlace()),
    ]
    pos = paddle.static.data("pos", [2, 3], "float32")        # in [1, 3]
    bi = paddle.static.data("bi", [2, 3], "int32")
    bj = paddle.static.data("bj", [3], "int32")
    v3 = paddle.static.data("v3", [2, 3], "float32")
    vec = paddle.static.data("vec", [5], "float32")
    mat = paddle.static.data("mat", [4, 5], "float32")
    prob = paddle.static.data("prob", [2, 3], "float32")      # in (0, 1)
    mx = paddle.static.data("mx", [3, 3], "int32")
    bw = paddle.static.data("bw", [2, 3, 4], "float32")
    bb = paddle.static.data("bb", [1, 2], "float32")
    nb = paddle.static.data("nb", [6, 4], "float32")
    logp = paddle.nn.functional.log_softmax(logits, 1)
    outs += [paddle.fmax(x, y), paddle.fmin(y, x), paddle.heaviside(x, y), paddle.acosh(pos),
             paddle.asinh(x), paddle.atanh(prob - 0.5), paddle.bitwise_and(bi, bj),
             paddle.bitwise_or(bi, bj), paddle.bitwise_xor(bi, bj), paddle.bitwise_not(bi),
             paddle.cross(v3, pos, axis=1), paddle.dot(vec, vec), paddle.mv(mat, vec),
             paddle.addmm(mat[:2, :4], pos, mat[:3, :4], 0.5, 2.0),
             C.bce_loss(prob, prob * 0.5), C.kldiv_loss(x, y, "batchmean", True),
             C.kldiv_loss(x, prob[:1, :1].expand([3, 4, 5]), "none", False),
             *C.nll_loss(logp, paddle.reshape(cls, [6]), vec, 2, "mean"),
             C.log_loss(prob[:, :1], prob[:, 1:2], 1e-4),
             paddle.multiplex([x[0], y[0]], paddle.cast(mx[:, :1] % 2, "int32")[:1].expand(
                 [4, 1])),
             *paddle.cummax(x, axis=1), *paddle.cummin(bi, axis=0),
             C.frobenius_norm(x, [0, 2], False, False),
             C.fill_diagonal(mat, 2.0, 1, False), C.bilinear(pos, vec[:4].expand([2, 4]), bw, bb),
             paddle.logspace(0, 2, 5, 10.0), C.nms(nb, 0.3), C.is_empty(x), C.is_empty(x[:0]),
             C.memcpy_d2h(mat, 0), C.memcpy_h2d(mat, 0)]
    nc = rv.uniform(0, 10, (6, 2))
    rc1, rc2 = rv.uniform(0, 20, (4, 2)), rv.uniform(0, 20, (3, 2))
    return [(x, f32(rv.uniform(-2, 2, (3, 4, 5)))), (y, f32(rv.uniform(-2, 2, (3, 4, 5)))),
            (feat, f32(rv.uniform(-1, 1, (1, 2, 3, 4)))),
            (r1, f32(np.concatenate([rc1, rc1 + rv.uniform(1, 9, (4, 2))], 1))),
            (r2, f32(np.concatenate([rc2, rc2 + rv.uniform(1, 9, (3, 2))], 1))),
            (s1, f32(rv.uniform(0, 1, (4, 1)))), (s2, f32(rv.uniform(0, 1, (3, 1)))),
            (n1, np.array([3, 1], "int32")), (n2, np.array([1, 2], "int32")),
            (em, f32(rv.randint(0, 4, (2, 4, 5)) * 0.5)), (tr, f32(rv.uniform(-1, 1, (7, 5)))),
            (lab, rv.randint(0, 5, (2, 4)).astype("int64")), (ln, np.array([4, 3], "int64")),
            (logits, f32(rv.uniform(-1, 1, (6, 5)))),
            (cls, rv.randint(0, 5, (6, 1)).astype("int64")),
            (tok, np.array([[0, 1, 1, 0, 2, 2, 3], [1, 1, 0, 0, 3, 0, 0]], "int32")),
            (tlen, np.array([[7], [5]], "int32")), (sc, f32([1.5])), (accum, f32([3.0])),
            (state, f32([2.0])), (it, np.array([0], "int32")), (chs, f32([1.0, 1.5, 2.0])),
            (zp, f32([0])),
            (img, f32(rv.uniform(-1, 1, (2, 2, 5, 5)))),
            (pos, f32(rv.uniform(1, 3, (2, 3)))), (bi, rv.randint(-50, 50, (2, 3)).astype("int32")),
            (bj, rv.randint(-50, 50, (3,)).astype("int32")), (v3, f32(rv.uniform(-1, 1, (2, 3)))),
            (vec, f32(rv.uniform(0.2, 1, (5,)))), (mat, f32(rv.uniform(-1, 1, (4, 5)))),
            (prob, f32(rv.uniform(0.05, 0.95, (2, 3)))),
            (mx, rv.randint(0, 9, (3, 3)).astype("int32")),
            (bw, f32(rv.uniform(-1, 1, (2, 3, 4)))), (bb, f32(rv.uniform(-1, 1, (1, 2)))),
            (nb, f32(np.concatenate([nc, nc + rv.uniform(1, 6, (6, 2))], 1)))], outs


def case_ops(paddle, np, part):
    """The ops above whose Python API still has a legacy static path (and, through
    legacy_op, the unary ones that lost it), exported in both formats; part 0 the index and
    shape ops, part 1 the math (two cases, to keep each under 100 KB)."""
    F = paddle.nn.functional
    x = paddle.static.data("x", [2, 3, 4, 5], "float32")
    m = paddle.static.data("m", [4, 5], "float32")
    if part == 0:
        i = paddle.static.data("i", [4], "int64")
    else:
        p = paddle.static.data("p", [3, 4], "float32")     # in (0.1, 0.9)
        n = paddle.static.data("n", [6], "int64")

    def un(api, legacy, v, **attrs):
        if PIR:
            return api(v)
        return legacy_op(paddle, legacy, {"X": v}, attrs,
                         dtype="bool" if legacy.startswith(("is", "logical")) else None)

    index = [
        paddle.gather(x, paddle.full([2], 1, "int64"), axis=1),
        paddle.gather_nd(x, paddle.reshape(i, [2, 2]) % 2),
        paddle.index_select(x, i, axis=3),
        paddle.index_sample(m, paddle.reshape(i, [4, 1]).tile([1, 3])),
        paddle.take_along_axis(x, paddle.zeros([2, 3, 4, 1], "int64") + 2, 3),
        paddle.scatter(m, paddle.reshape(i[:2], [2]), paddle.ones([2, 5])),
        paddle.where(x > 0, x, x * 2), paddle.nonzero(m > 0),
        paddle.argsort(x, axis=1, descending=True), paddle.topk(x, 2, axis=-1)[1],
        paddle.cumsum(x, axis=2), paddle.cumprod(x, 1), F.one_hot(i, 6),
        F.embedding(i, paddle.static.create_parameter([6, 3], "float32")),
        paddle.full_like(x, 2.5), paddle.arange(1, 10, 2, "int64"), paddle.linspace(0, 1, 5),
        paddle.eye(3, 4), paddle.meshgrid(i, i[:3])[1], paddle.tile(m, [2, 1]),
        paddle.expand(paddle.reshape(i, [4, 1]), [4, 3]), paddle.flip(x, [1, 3]),
        paddle.strided_slice(x, [1, 3], [0, 4], [3, 0], [2, -2]), paddle.unbind(x, 1)[2],
        paddle.unstack(x, 2)[1], paddle.numel(x), paddle.diag(m[0], 1),
    ] if part == 0 else []
    if part == 0:
        rv = np.random.RandomState(17)
        return [(x, rv.uniform(-2, 2, (2, 3, 4, 5)).astype("float32")),
                (i, np.array([3, 0, 2, 1], "int64")),
                (m, rv.uniform(-1, 1, (4, 5)).astype("float32"))], index
    outs = [
        paddle.logit(p), paddle.tan(x), paddle.atan(x), paddle.erf(x), paddle.reciprocal(x),
        paddle.square(x), paddle.trunc(x * 3), paddle.stanh(x),
        F.silu(x), F.mish(x), F.elu(x), F.celu(x), F.selu(x), F.hardshrink(x),
        F.softshrink(x), F.hardtanh(x), F.thresholded_relu(x), F.log_sigmoid(x),
        F.softsign(x), F.tanhshrink(x), F.log_softmax(x, 1), paddle.pow(x, 3.0),
        paddle.nn.PReLU(3)(x), paddle.floor_divide(n, paddle.full([6], 3, "int64")),
        paddle.remainder(n, paddle.full([6], 4, "int64")), paddle.atan2(x, x + 0.5),
        paddle.kron(p[:2, :2], m[:2, :3]), paddle.min(x, axis=[1]), paddle.prod(p, axis=-1),
        paddle.norm(x, p=2, axis=1),
    ]
    for api, legacy in [(paddle.log, "log"), (paddle.log10, "log10"), (paddle.log1p, "log1p"),
                        (paddle.log2, "log2"), (paddle.rsqrt, "rsqrt"), (paddle.asin, "asin"),
                        (paddle.acos, "acos")]:
        outs.append(un(api, legacy, p))
    for api, legacy in [(paddle.floor, "floor"), (paddle.ceil, "ceil"), (paddle.sin, "sin"),
                        (paddle.cos, "cos"), (paddle.sinh, "sinh"), (paddle.cosh, "cosh"),
                        (paddle.expm1, "expm1"), (paddle.sign, "sign")]:
        outs.append(un(api, legacy, x))
    outs += [un(paddle.round, "round", x * 3, decimals=0),
             un(F.softplus, "softplus", x, beta=1.0, threshold=20.0),
             un(paddle.isnan, "isnan_v2", paddle.log(x) if PIR else un(None, "log", x)),
             un(paddle.logical_not, "logical_not", x > 0)]
    rv = np.random.RandomState(18)
    return [(x, rv.uniform(-2, 2, (2, 3, 4, 5)).astype("float32")),
            (m, rv.uniform(-1, 1, (4, 5)).astype("float32")),
            (p, rv.uniform(0.1, 0.9, (3, 4)).astype("float32")),
            (n, np.array([-7, -3, 0, 5, 9, 12], "int64"))], outs


def json_ops3(paddle, np):
    """The PIR translations of unique, unique_consecutive, masked_select, shard_index,
    edit_distance, kthvalue, mode, searchsorted, lerp, logcumsumexp, diagonal, trace,
    repeat_interleave (int and tensor repeats), index_add, nanmedian, erfinv, label_smooth,
    affine_grid, isclose, allclose, equal_all, dist, renorm, broadcast_tensors, histogram,
    bincount, unfold and fold (kernels added after the cases above)."""
    F = paddle.nn.functional
    x = paddle.static.data("x", [3, 4], "float32")
    y = paddle.static.data("y", [3, 4], "float32")
    ids = paddle.static.data("ids", [8], "int64")
    seq = paddle.static.data("seq", [3, 5], "float32")
    img = paddle.static.data("img", [1, 2, 4, 4], "float32")
    theta = paddle.static.data("theta", [1, 2, 3], "float32")
    hyp = paddle.static.data("hyp", [2, 4], "int64")
    ref = paddle.static.data("ref", [2, 5], "int64")
    hl = paddle.static.data("hl", [2], "int64")
    rl = paddle.static.data("rl", [2], "int64")
    u, ui, uinv, uc = paddle.unique(ids, return_index=True, return_inverse=True, return_counts=True)
    cu, cinv, cc = paddle.unique_consecutive(ids, return_inverse=True, return_counts=True)
    kv, ki = paddle.kthvalue(x, 2, axis=1)
    mv, mi = paddle.mode(paddle.round(x * 2.0), axis=0)
    # (F.loss.edit_distance appends a legacy op even under PIR: the PIR op directly)
    sn, ed = paddle._C_ops.edit_distance(hyp, ref, hl, rl, True)
    bx, by = paddle.broadcast_tensors([x, y[:1]])
    outs = [u, ui, uinv, uc, cu, cinv, cc, paddle.masked_select(x, x > 0.2),
            paddle.shard_index(paddle.unsqueeze(ids, 1), 20, 2, 1), ed, sn, kv, ki, mv, mi,
            paddle.searchsorted(paddle.sort(seq, axis=-1), x[:, :2], right=True),
            paddle.lerp(x, y, 0.3), paddle.logcumsumexp(x, axis=1, dtype=None),
            paddle.diagonal(x, 1), paddle.trace(x, -1),
            paddle.repeat_interleave(x, 2, axis=1),
            paddle.repeat_interleave(x, paddle.to_tensor([1, 0, 2], "int64"), axis=0),
            paddle.index_add(x, paddle.to_tensor([2, 0], "int64"), 1, y[:, :2]),
            paddle.nanmedian(x, axis=1), paddle.erfinv(paddle.clip(x, -0.9, 0.9)),
            F.label_smooth(paddle.abs(x), epsilon=0.1),
            F.affine_grid(theta, [1, 2, 3, 4], align_corners=False),
            paddle.isclose(x, y, rtol=0.5, atol=0.1), paddle.allclose(x, x + 1e-9),
            paddle.equal_all(x, y), paddle.dist(x, y, 3.0), paddle.renorm(x, 2.0, 0, 1.0), bx, by,
            paddle.histogram(x, bins=5, min=-1, max=1),
            paddle.bincount(ids, weights=paddle.cast(ids, "float32") * 0.5, minlength=12),
            F.unfold(img, 2, 1, 1), F.fold(F.unfold(img, 2, 2), [4, 4], 2, 2)]
    rv = np.random.RandomState(21)
    f32 = lambda a: np.asarray(a, "float32")
    return [(x, f32(rv.uniform(-1, 1, (3, 4)))), (y, f32(rv.uniform(-1, 1, (3, 4)))),
            (ids, np.array([5, 5, 2, 9, 2, 2, 11, 0], "int64")),
            (seq, f32(rv.uniform(-1, 1, (3, 5)))), (img, f32(rv.uniform(-1, 1, (1, 2, 4, 4)))),
            (theta, f32(rv.uniform(-1, 1, (1, 2, 3)))),
            (hyp, np.array([[1, 2, 3, 4], [5, 6, 0, 0]], "int64")),
            (ref, np.array([[1, 3, 3, 4, 7], [5, 6, 7, 0, 0]], "int64")),
            (hl, np.array([4, 2], "int64")), (rl, np.array([5, 3], "int64"))], outs


def json_ops6(paddle, np):
    """The PIR translations of conv3d_transpose (channel-last, output_size; Paddle's Python
    API writes data_format NHWC for NDHWC), spectral_norm (paddle.nn.SpectralNorm), median
    (avg and min modes, over an axis and over all, a row holding a NaN; the medians only, not
    their positions), cvm (continuous_value_model, through paddle._C_ops: its Python API
    builds a legacy op only), print and assert (a true condition), and fused_rms_norm
    (pd_op.fused_rms_norm_quant: norm_bias and a residual, and neither)."""
    F = paddle.nn.functional
    x = paddle.static.data("x", [1, 3, 3, 2, 4], "float32")
    wt = paddle.static.create_parameter([4, 3, 3, 3, 2], "float32")
    w = paddle.static.create_parameter([6, 4], "float32")
    sn = paddle.nn.SpectralNorm([6, 4], dim=1, power_iters=2)
    outs = [F.conv3d_transpose(x, wt, stride=2, output_size=[8, 7, 5], data_format="NDHWC"),
            F.conv3d_transpose(paddle.transpose(x, [0, 4, 1, 2, 3]), wt, stride=[1, 2, 1],
                               padding=[1, 0, 1], dilation=[1, 1, 2]),
            sn(w)]
    m = paddle.static.data("m", [3, 4], "float32")
    outs += [paddle.median(m, axis=1), paddle.median(m, axis=0, keepdim=True, mode="min")[0],
             paddle.median(paddle.slice(m, [0], [0], [2])),
             paddle.median(paddle.cast(paddle.round(m * 4), "int64"), axis=1)]
    cv = paddle.static.data("cv", [3, 2], "float32")
    outs += [paddle._C_ops.cvm(paddle.abs(m), cv, True),
             paddle._C_ops.cvm(m, cv, False),
             paddle.static.Print(cv, first_n=2, message="ops6 print", summarize=3) * 3.0]
    from paddle.static.nn.control_flow import Assert
    Assert(paddle.all(cv < 10.0), [cv], summarize=2)
    rw = paddle.static.create_parameter([4], "float32")
    rb = paddle.static.create_parameter([4], "float32")
    fr = paddle.incubate.nn.functional.fused_rms_norm
    o1, r1 = fr(m, rw, rb, 1e-6, 1, residual=m * 0.5)
    outs += [fr(m, rw, None, 1e-5, 1)[0], o1, r1]
    rv = np.random.RandomState(23)
    mv = rv.uniform(-1, 1, (3, 4)).astype("float32")
    mv[2, 1] = np.nan
    return [(x, rv.uniform(-1, 1, (1, 3, 3, 2, 4)).astype("float32")), (m, mv),
            (cv, rv.uniform(0, 3, (3, 2)).astype("float32"))], outs


def json_fft(paddle, np):
    """Spectral ops, complex64 and complex128 inside the program: rfft / irfft (fft_r2c,
    fft_c2r, default and odd lengths), rfft2 over two axes, fft / ifft of a complex signal
    (fft_c2c) with every normalization, hfft (fft_c2r forward), abs, angle, real, imag, conj,
    complex, as_complex, as_real, scale of a spectrum, TimesNet's period search (abs of rfft,
    means, topk), complex tensors through transpose, concat, reshape and slice, and
    paddle.signal's frame, overlap_add (both axes), stft and istft (the default window:
    Paddle 3.3.1's stft cannot take a window tensor in a static program)."""
    fft = paddle.fft
    x = paddle.static.data("x", [2, 16, 3], "float32")
    y = paddle.static.data("y", [3, 7], "float64")
    xf = fft.rfft(x, axis=1)
    z = paddle.complex(y, y * 0.5 - 1.0)
    f = paddle.abs(xf).mean(0).mean(-1)
    top_v, top_i = paddle.topk(f, 2)
    outs = [f, top_v, top_i, fft.irfft(xf * 2.0, n=16, axis=1),
            paddle.as_real(fft.rfft(x, n=15, axis=1, norm="ortho")),
            fft.irfft(fft.rfft(x, n=15, axis=1), n=15, axis=1),
            paddle.as_real(fft.rfft2(x, axes=(1, 2), norm="forward")),
            paddle.as_real(fft.fft(z, axis=1)), paddle.as_real(fft.ifft(z, axis=0)),
            paddle.as_real(fft.fft(z, axis=-1, norm="ortho")),
            paddle.as_real(fft.ifft(z, axis=-1, norm="forward")),
            fft.hfft(z, n=12, axis=1), paddle.angle(z), paddle.real(paddle.conj(z)),
            paddle.imag(paddle.conj(z)), paddle.abs(z),
            paddle.real(paddle.as_complex(paddle.stack([y, y * 2.0], -1))),
            paddle.as_real(paddle.transpose(xf, [2, 0, 1])),
            paddle.as_real(paddle.reshape(paddle.concat([z, z[:, :3]], 1), [-1, 5])),
            paddle.as_real(paddle.slice(xf, [1], [2], [6]))]
    sig = paddle.static.data("sig", [2, 40], "float32")
    fr = paddle.signal.frame(sig, 8, 3)
    spec = paddle.signal.stft(sig, 8, hop_length=2, center=True)
    outs += [fr, paddle.signal.frame(paddle.transpose(sig, [1, 0]), 6, 5, axis=0),
             paddle.signal.overlap_add(fr, 3), paddle.signal.overlap_add(
                 paddle.transpose(fr, [2, 1, 0]), 3, axis=0),
             paddle.as_real(spec), paddle.abs(spec) ** 2,
             paddle.signal.istft(spec, 8, hop_length=2, center=True)]
    rv = np.random.RandomState(24)
    return [(x, rv.uniform(-1, 1, (2, 16, 3)).astype("float32")),
            (y, rv.uniform(-1, 1, (3, 7))), (sig, rv.uniform(-1, 1, (2, 40)).astype("float32"))], outs


def json_special(paddle, np):
    """The PIR translations of lgamma, digamma, polygamma (n 1 and 3), i0, i0e, i1, i1e,
    nextafter and copysign (float32, broadcast; copysign on int32 too), bitwise_left_shift and
    bitwise_right_shift (is_arithmetic true and false, int32 and uint8) and rrelu in
    inference (training False: the fixed slope (lower + upper) / 2)."""
    x = paddle.static.data("x", [3, 4], "float32")
    y = paddle.static.data("y", [4], "float32")
    i = paddle.static.data("i", [2, 5], "int32")
    s = paddle.static.data("s", [5], "int32")
    u = paddle.static.data("u", [2, 5], "uint8")
    su = paddle.static.data("su", [5], "uint8")
    F = paddle.nn.functional
    outs = [paddle.lgamma(x), paddle.digamma(x), paddle.polygamma(x, 1),
            paddle.polygamma(x, 3),
            paddle.i0(x), paddle.i0e(x), paddle.i1(x), paddle.i1e(x), paddle.nextafter(x, y),
            paddle.copysign(x, y), paddle.copysign(i, s),
            paddle.bitwise_left_shift(i, s), paddle.bitwise_right_shift(i, s),
            paddle.bitwise_right_shift(i, s, is_arithmetic=False),
            paddle.bitwise_left_shift(u, su, is_arithmetic=False),
            paddle.bitwise_right_shift(u, su),
            F.rrelu(x, 0.1, 0.3, training=False)]
    rv = np.random.RandomState(25)
    return [(x, rv.uniform(-6, 12, (3, 4)).astype("float32")),
            (y, np.array([1.0, -2.0, 0.0, -0.0], "float32")),
            (i, np.array([[5, -5, 1 << 30, -(1 << 31), 7], [-1, 3, 0, 100, -100]], "int32")),
            (s, np.array([0, 1, 31, 32, -1], "int32")),
            (u, np.array([[5, 250, 128, 255, 7], [0, 1, 2, 3, 4]], "uint8")),
            (su, np.array([0, 1, 7, 8, 9], "uint8"))], outs


def json_graph(paddle, np):
    """The PIR translations of paddle.geometric's send_u_recv (sum, mean, max, min; out_size),
    send_ue_recv (add, mul), send_uv and segment_sum / segment_max, and of diag_embed,
    tril_indices / triu_indices, fill_diagonal_tensor, multi_dot, matrix_power (2 and -1),
    baddbmm, det and slogdet."""
    x = paddle.static.data("x", [4, 3], "float32")
    e = paddle.static.data("e", [5, 3], "float32")
    src = paddle.static.data("src", [5], "int64")
    dst = paddle.static.data("dst", [5], "int64")
    seg = paddle.static.data("seg", [4], "int64")
    m = paddle.static.data("m", [2, 3, 3], "float32")
    a = paddle.static.data("a", [3, 4], "float32")
    b = paddle.static.data("b", [4, 2], "float32")
    c = paddle.static.data("c", [2, 5], "float32")
    g = paddle.geometric
    outs = [g.send_u_recv(x, src, dst, reduce_op="sum"),
            g.send_u_recv(x, src, dst, reduce_op="mean", out_size=6),
            g.send_u_recv(x, src, dst, reduce_op="max"),
            g.send_u_recv(x, src, dst, reduce_op="min"),
            g.send_ue_recv(x, e, src, dst, message_op="add", reduce_op="sum"),
            g.send_ue_recv(x, e, src, dst, message_op="mul", reduce_op="max"),
            g.send_uv(x, x, src, dst, message_op="mul"),
            g.segment_sum(x, seg), g.segment_max(x, seg),
            paddle.diag_embed(a, offset=1), paddle.tril_indices(4, 3, -1),
            paddle.triu_indices(3, 5, 1),
            paddle.tensor.manipulation.fill_diagonal_tensor(m, paddle.ones([2, 3]) * 7.0, dim1=1,
                                                            dim2=2),
            paddle.linalg.multi_dot([a, b, c]), paddle.linalg.matrix_power(m, 2),
            paddle.linalg.matrix_power(m, -1),
            paddle.baddbmm(m, m, m, beta=0.5, alpha=2.0),
            paddle.linalg.det(m)] + list(paddle.linalg.slogdet(m))
    r = np.random.RandomState(26)
    mv = r.uniform(-1, 1, (2, 3, 3)).astype("float32") + 2 * np.eye(3, dtype="float32")
    return [(x, r.uniform(-2, 2, (4, 3)).astype("float32")),
            (e, r.uniform(-2, 2, (5, 3)).astype("float32")),
            (src, np.array([0, 1, 2, 3, 1], "int64")), (dst, np.array([1, 2, 1, 0, 2], "int64")),
            (seg, np.array([0, 0, 1, 3], "int64")), (m, mv),
            (a, r.uniform(-1, 1, (3, 4)).astype("float32")),
            (b, r.uniform(-1, 1, (4, 2)).astype("float32")),
            (c, r.uniform(-1, 1, (2, 5)).astype("float32"))], outs


def json_linalg(paddle, np):
    """The PIR translations of the dense linear-algebra ops: cholesky (lower, upper),
    cholesky_solve, triangular_solve, solve (matrix and vector right-hand sides), qr (reduced,
    complete, r), lu and lu_unpack, svd, eigh, eigvalsh, matrix_rank (default tolerance,
    hermitian with tol, a tolerance tensor; atol and rtol: matrix_rank_atol_rtol), lstsq
    (gelsd) and eig / eigvals (complex results through as_real)."""
    a = paddle.static.data("a", [3, 3], "float64")
    b = paddle.static.data("b", [3, 2], "float64")
    v = paddle.static.data("v", [3], "float64")
    t = paddle.static.data("t", [4, 3], "float64")
    L = paddle.linalg
    lo = L.cholesky(a)
    lu, piv, info = L.lu(t, get_infos=True)
    pm, ll, uu = L.lu_unpack(lu, piv)
    q, r = L.qr(t)
    qc, rc = L.qr(t, mode="complete")
    u, s, vh = L.svd(t)
    w, ev = L.eigh(a, UPLO="U")
    sol, res, rk, sv = L.lstsq(t, paddle.matmul(t, b), driver="gelsd")
    ew, evec = L.eig(a)
    outs = [lo, L.cholesky(a, upper=True), L.cholesky_solve(b, lo),
            L.triangular_solve(lo, b, upper=False, transpose=True, unitriangular=False),
            L.solve(a, b), L.solve(a, v), q, r, qc, rc, L.qr(t, mode="r"), lu, piv, info, pm,
            ll, uu, u, s, vh, w, ev, L.eigvalsh(a), L.matrix_rank(t),
            L.matrix_rank(a, tol=0.5, hermitian=True),
            L.matrix_rank(t, tol=paddle.full([1], 0.1, "float64")),
            L.matrix_rank(t, atol=0.1, rtol=0.2), L.matrix_rank(a, atol=0.5, hermitian=True),
            sol, res, rk, sv,
            paddle.as_real(ew), paddle.as_real(evec), paddle.as_real(L.eigvals(a))]
    rv = np.random.RandomState(27)
    m = rv.uniform(-1, 1, (3, 3))
    return [(a, m @ m.T + 3 * np.eye(3)), (b, rv.uniform(-1, 1, (3, 2))),
            (v, rv.uniform(-1, 1, 3)), (t, rv.uniform(-1, 1, (4, 3)))], outs


def json_ops7(paddle, np):
    """The PIR translations of Paddle 3's gammaln (float32, float64: poles, negative
    non-integers), gammaincc and gammainc (= 1 - gammaincc through scale; float32, float64:
    shapes 0 and negative, both series), reduce_as (leading axes, size-1 axes, a scalar
    target, no reduction; float32, float64, int32 and bool to int64 (kept as they are when no
    axis is summed: Paddle copies), int8, uint8 wrapping, complex64 through as_real), swiglu (one input split in half, two inputs; float32,
    float64), trunc_divide (paddle.divide rounding_mode "trunc": float32 broadcast, float64 by
    zero, int32 and int64), lp_pool2d (norm_type 2, 3, 1.5, 0.5, -1 and inf; paddings explicit,
    SAME, VALID; ceil_mode; NCHW and NHWC; float32 and float64) and fractional_max_pool2d /
    3d with a given random_u (disjoint and kernel_size windows, masks; float32, float64),
    svdvals (one matrix, a batch of 3-D and of 4-D input: Paddle flattens the batch) and
    lu_solve (trans N, T and C on paddle.linalg.lu's factors; float32 batch, float64)."""
    F = paddle.nn.functional
    x = paddle.static.data("x", [3, 4], "float32")
    xd = paddle.static.data("xd", [3, 4], "float64")
    a = paddle.static.data("a", [2, 6], "float32")
    y = paddle.static.data("y", [2, 6], "float32")
    ad = paddle.static.data("ad", [2, 6], "float64")
    yd = paddle.static.data("yd", [2, 6], "float64")
    i = paddle.static.data("i", [2, 3, 4], "int32")
    i8 = paddle.static.data("i8", [4, 3], "int8")
    u8 = paddle.static.data("u8", [4, 3], "uint8")
    t = paddle.static.data("t", [3, 1], "float32")
    p = paddle.static.data("p", [2, 3, 5, 6], "float32")
    pd = paddle.static.data("pd", [1, 2, 7, 5], "float64")
    q = paddle.static.data("q", [1, 2, 4, 5, 6], "float32")
    m = paddle.static.data("m", [2, 3, 3], "float32")
    md = paddle.static.data("md", [4, 4], "float64")
    rhs = paddle.static.data("rhs", [2, 3, 2], "float32")
    rhsd = paddle.static.data("rhsd", [4, 3], "float64")
    outs = [paddle.gammaln(x), paddle.gammaln(xd), paddle.gammaincc(a, y),
            paddle.gammaincc(ad, yd), paddle.gammainc(a, y), paddle.gammainc(ad, yd),
            paddle.reduce_as(x, t), paddle.reduce_as(xd, paddle.ones([4], "float64")),
            paddle.reduce_as(x, paddle.ones([1, 1])), paddle.reduce_as(x, paddle.ones([])),
            paddle.reduce_as(x, x),
            paddle.reduce_as(i, paddle.ones([3, 1], "int32")),
            paddle.reduce_as(i > 0, paddle.ones([1, 4], "bool")),
            paddle.reduce_as(i8, paddle.ones([3], "int8")),
            paddle.reduce_as(u8, paddle.ones([4, 1], "uint8")),
            paddle.reduce_as(paddle.cast(i, "int64"), paddle.ones([2, 1, 4], "int64")),
            paddle.as_real(paddle.reduce_as(paddle.complex(x, x * 2.0), t)),
            paddle.reduce_as(i, paddle.zeros([2, 3, 4], "int32")),
            paddle.reduce_as(i > 0, paddle.ones([2, 3, 4], "bool")),
            F.swiglu(a), F.swiglu(ad), F.swiglu(a, y), F.swiglu(ad, yd),
            paddle.divide(x, t + 0.75, rounding_mode="trunc"),
            paddle.divide(xd, xd * 0.0, rounding_mode="trunc"),
            paddle.divide(i, paddle.full([4], -3, "int32"), rounding_mode="trunc"),
            paddle.divide(paddle.cast(i8, "int64"), paddle.full([3], 7, "int64"),
                          rounding_mode="trunc"),
            F.lp_pool2d(p, 2.0, 2, stride=2), F.lp_pool2d(p, 3, 3, stride=2, padding=1,
                                                          ceil_mode=True),
            F.lp_pool2d(p.abs(), 1.5, [2, 3], stride=[1, 2], padding="SAME"),
            F.lp_pool2d(p, float("inf"), 2, stride=1, padding=[1, 0]),
            F.lp_pool2d(paddle.transpose(p, [0, 2, 3, 1]), 2, 2, stride=1, padding=[0, 1, 1, 0],
                        data_format="NHWC"),
            F.lp_pool2d(pd.abs(), 0.5, 3, stride=2, padding="VALID"),
            F.lp_pool2d(pd.abs(), -1.0, 2, stride=2, ceil_mode=True)]
    outs += list(F.fractional_max_pool2d(p, 3, random_u=0.3, return_mask=True))
    outs += list(F.fractional_max_pool2d(pd, [3, 2], kernel_size=2, random_u=0.7,
                                         return_mask=True))
    outs += [F.fractional_max_pool2d(p, [2, 5], kernel_size=[3, 1], random_u=0.5)]
    outs += list(F.fractional_max_pool3d(q, 2, random_u=0.45, return_mask=True))
    outs += list(F.fractional_max_pool3d(q, [1, 2, 3], kernel_size=[2, 2, 1], random_u=0.9,
                                         return_mask=True))
    L = paddle.linalg
    lu, piv = L.lu(m)[:2]
    lud, pivd = L.lu(md)[:2]
    outs += [L.svdvals(p), L.svdvals(md), L.svdvals(m[0]),
             L.lu_solve(rhs, lu, piv), L.lu_solve(rhs, lu, piv, trans="T"),
             L.lu_solve(rhsd, lud, pivd), L.lu_solve(rhsd, lud, pivd, trans="C")]
    r = np.random.RandomState(28)
    xv = r.uniform(-4, 6, (3, 4)).astype("float32")
    xv[0, :3] = [0.0, -1.0, -2.5]
    av = np.array([[0.5, 1.0, 3.0, 10.0, 0.0, -1.0], [2.0, 0.1, 50.0, 7.5, 1e-3, 4.0]])
    yv = np.array([[0.2, 2.0, 1.0, 12.0, 1.0, 1.0], [0.0, 3.0, 45.0, 7.0, 1e-3, -2.0]])
    return [(x, xv), (xd, r.uniform(-4, 6, (3, 4))), (a, av.astype("float32")),
            (y, yv.astype("float32")), (ad, av), (yd, yv),
            (i, r.randint(-5, 6, (2, 3, 4)).astype("int32")),
            (i8, r.randint(-128, 128, (4, 3)).astype("int8")),
            (u8, r.randint(0, 256, (4, 3)).astype("uint8")),
            (t, np.zeros((3, 1), "float32")),
            (p, r.uniform(-2, 2, (2, 3, 5, 6)).astype("float32")),
            (pd, r.uniform(-2, 2, (1, 2, 7, 5))),
            (q, r.uniform(-2, 2, (1, 2, 4, 5, 6)).astype("float32")),
            (m, r.uniform(-1, 1, (2, 3, 3)).astype("float32")), (md, r.uniform(-1, 1, (4, 4))),
            (rhs, r.uniform(-1, 1, (2, 3, 2)).astype("float32")),
            (rhsd, r.uniform(-1, 1, (4, 3)))], outs


def json_ops8(paddle, np):
    """Ops Paddle 3.3.1 has as pd_op only for programs translated from a ProgramDesc (no
    Python API builds them in PIR; paddle.static.load_inference_model of an old .pdmodel
    translates this way): each legacy op is appended through LayerHelper to a protobuf
    program (OldIrGuard), which Paddle's own translator turns into the PIR program saved as
    model.json. lrn (n 3 and 5, k/alpha/beta), legacy_reshape (reshape v1: attribute shape
    with -1 and 0; and reshape v1 and reshape2 by a Shape tensor, which the translator puts
    in a builtin.combine of that one tensor),
    row_conv ([B, T, D] padded), gru_unit (bias, no bias, origin_mode with relu/identity
    gates), add_position_encoding (alpha/beta), dequantize_abs_max, dequantize_log,
    hinge_loss, lookup_table_dequant (padding_idx), fused_elemwise_activation (add+relu with
    axis, scale+add, mul+tanh; intermediate outputs), fused_elemwise_add_activation,
    fusion_repeated_fc_relu (two and three layers), fusion_squared_mat_sub,
    self_dp_attention, tdm_child (int64 and int32), hsigmoid_loss (default tree with bias,
    custom tree), yolo_loss (GTScore, label smoothing, scale_x_y), hash (int64, int32),
    bipartite_match (bipartite, per_prediction), chunk_eval (IOB, IOBES with excluded
    types; SeqLength), warpctc (lengths; blank 0 and last, norm_by_times), auc (ROC; PR,
    which Paddle's kernel computes as ROC) and deformable_conv_v1 (stride 2, groups,
    deformable_groups: pd_op.deformable_conv with no mask); and matmul_with_flatten (mul)
    and assign_out_ (paddle.assign with output=) and slice_array (tensor array to tensor
    array: [1:3], [-3:-1], [-1:0], [0:10], a start from a tensor), which Paddle's PIR API
    builds into the translated program."""
    from paddle.base.layer_helper import LayerHelper
    from paddle.pir_utils import OldIrGuard
    r = np.random.RandomState(81)
    feeds = []
    def D(name, val):
        v = paddle.static.data(name, list(val.shape), str(val.dtype))
        feeds.append((name, val))
        return v
    def op(t, ins, attrs, outs=("Out",), dt="float32"):
        h = LayerHelper(t)
        dts = dt if isinstance(dt, (list, tuple)) else [dt] * len(outs)
        o = {}
        for s, d in zip(outs, dts):
            if isinstance(s, tuple):
                o[s[0]] = [h.create_variable_for_type_inference(d) for _ in range(s[1])]
            else:
                o[s] = h.create_variable_for_type_inference(d)
        h.append_op(type=t, inputs=ins, outputs=o, attrs=attrs)
        res = []
        for s in outs:
            res += o[s[0]] if isinstance(s, tuple) else [o[s]]
        return res
    f32 = lambda *s: r.uniform(-1, 1, s).astype("float32")
    with OldIrGuard():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x4 = D("x4", f32(2, 5, 4, 3))
            outs = []
            outs += op("lrn", {"X": x4}, {"n": 3, "k": 1.5, "alpha": 0.01, "beta": 0.6},
                       outs=("Out", "MidOut"))
            outs += op("lrn", {"X": x4}, {"n": 5}, outs=("Out", "MidOut"))[:1]
            outs += op("reshape", {"X": x4}, {"shape": [3, -1, 0]})
            # row_conv: [B, T, D] without LoD (future context 3), and 2-D one sequence
            xs = D("xs", f32(2, 5, 4))
            outs += op("row_conv", {"X": xs, "Filter": D("rf", f32(3, 4))}, {})
            # gru_unit: default (tanh, sigmoid), origin_mode and relu/identity gates, no bias
            gi, gh = D("gi", f32(3, 12)), D("gh", f32(3, 4))
            gw, gb = D("gw", f32(4, 12)), D("gb", f32(1, 12))
            outs += op("gru_unit", {"Input": gi, "HiddenPrev": gh, "Weight": gw, "Bias": gb},
                       {}, outs=("Gate", "ResetHiddenPrev", "Hidden"))
            outs += op("gru_unit", {"Input": gi, "HiddenPrev": gh, "Weight": gw},
                       {"origin_mode": True, "activation": 1, "gate_activation": 0},
                       outs=("Gate", "ResetHiddenPrev", "Hidden"))
            # add_position_encoding (even and odd widths)
            outs += op("add_position_encoding", {"X": xs}, {"alpha": 0.5, "beta": 2.0})
            outs += op("add_position_encoding", {"X": D("pe", f32(2, 3, 6))}, {})
            # dequantize_abs_max / dequantize_log (int8)
            q = D("q8", r.randint(-127, 128, (3, 4)).astype("int8"))
            outs += op("dequantize_abs_max", {"X": q, "Scale": D("qs", np.array([2.5], "float32"))},
                       {"max_range": 127.0})
            qd = np.sort(r.uniform(0, 3, 128)).astype("float32")
            outs += op("dequantize_log", {"X": q, "Dict": D("qd", qd)}, {})
            # hinge_loss
            outs += op("hinge_loss", {"Logits": D("hl", f32(5, 1)),
                                      "Labels": D("hy", r.randint(0, 2, (5, 1)).astype("float32"))},
                       {}, outs=("Loss",))
            # lookup_table_dequant: W rows [min, max, packed uint8 bytes as float]
            wq = np.zeros((6, 4), "float32")
            for k in range(6):
                wq[k, 0], wq[k, 1] = -1.0 - k * 0.1, 1.0 + k * 0.2
                wq[k, 2:] = np.frombuffer(r.randint(0, 256, 8).astype("uint8").tobytes(), "float32")
            ids = D("ids", np.array([[1], [5], [3], [0]], "int64"))
            outs += op("lookup_table_dequant", {"Ids": ids, "W": D("wq", wq)}, {"padding_idx": 3})
            # fused_elemwise_activation: binary(unary) and unary(binary), with intermediate
            fx, fy = D("fx", f32(2, 3, 4)), D("fy", f32(3, 4))
            outs += op("fused_elemwise_activation", {"X": fx, "Y": fy},
                       {"functor_list": ["elementwise_add", "relu"], "save_intermediate_out": True,
                        "axis": 1}, outs=("Out", "IntermediateOut"))
            outs += op("fused_elemwise_activation", {"X": fx, "Y": fy},
                       {"functor_list": ["scale", "elementwise_add"], "scale": 0.3,
                        "save_intermediate_out": True}, outs=("Out", "IntermediateOut"))
            outs += op("fused_elemwise_activation", {"X": fx, "Y": fy},
                       {"functor_list": ["elementwise_mul", "tanh"]},
                       outs=("Out", "IntermediateOut"))[:1]
            outs += op("fused_elemwise_add_activation", {"X": fx, "Y": fy},
                       {"functor_list": ["tanh", "elementwise_add"], "save_intermediate_out": True},
                       outs=("Out", "IntermediateOut"))
            # fusion_repeated_fc_relu (two and three layers)
            rx = D("rx", f32(3, 4))
            ws = [D("rw%d" % k, f32(*s)) for k, s in enumerate([(4, 5), (5, 2), (2, 3)])]
            bs = [D("rb%d" % k, f32(1, s) + 0.5) for k, s in enumerate([5, 2, 3])]
            outs += op("fusion_repeated_fc_relu", {"X": rx, "W": ws[:2], "Bias": bs[:2]}, {},
                       outs=(("ReluOut", 1), "Out"))[-1:]
            outs += op("fusion_repeated_fc_relu", {"X": rx, "W": ws, "Bias": bs}, {},
                       outs=(("ReluOut", 2), "Out"))[-1:]
            # fusion_squared_mat_sub
            outs += op("fusion_squared_mat_sub", {"X": rx, "Y": D("sy", f32(4, 6))},
                       {"scalar": 0.25}, outs=("SquaredX", "SquaredY", "SquaredXY", "Out"))[3:]
            # self_dp_attention: X [B, S, 3, H, D]
            outs += op("self_dp_attention", {"X": D("qkv", f32(2, 4, 3, 2, 3))},
                       {"alpha": 0.7, "head_number": 2})
            # tdm_child: tree of 7 nodes (info: item_id, layer, parent, child0, child1)
            ti = np.array([[0, 0, 0, 1, 2], [0, 1, 0, 3, 4], [0, 1, 0, 5, 6], [3, 2, 1, 0, 0],
                           [4, 2, 1, 0, 0], [5, 2, 2, 0, 0], [0, 2, 2, 0, 0]], "int64")
            outs += op("tdm_child", {"X": D("tx", np.array([[0, 1], [2, 5]], "int64")),
                                     "TreeInfo": D("ti", ti)},
                       {"child_nums": 2, "dtype": 3}, outs=("Child", "LeafMask"), dt="int64")
            outs += op("tdm_child", {"X": D("tx2", np.array([[1], [2], [6]], "int32")),
                                     "TreeInfo": D("ti2", ti.astype("int32"))},
                       {"child_nums": 2, "dtype": 2}, outs=("Child", "LeafMask"), dt="int32")
            # hierarchical_sigmoid: default tree (num_classes 6), custom tree (PathTable/PathCode)
            hx, hw = D("hx", f32(4, 3)), D("hw", f32(5, 3))
            hlab = D("hlab", np.array([[0], [5], [2], [3]], "int64"))
            outs += op("hierarchical_sigmoid", {"X": hx, "W": hw, "Label": hlab,
                                                "Bias": D("hb", f32(5, 1))},
                       {"num_classes": 6}, outs=("Out", "PreOut", "W_Out"))[:2]
            pt = np.array([[0, 1, -1], [0, 2, 3], [1, 4, -1], [0, 2, -1]], "int64")
            pc = np.array([[1, 0, -1], [0, 1, 1], [1, 1, -1], [0, 0, -1]], "int64")
            outs += op("hierarchical_sigmoid", {"X": hx, "W": hw, "Label": hlab,
                                                "PathTable": D("hpt", pt),
                                                "PathCode": D("hpc", pc)},
                       {"num_classes": 6, "is_custom": True}, outs=("Out", "PreOut", "W_Out"))[:2]
            # yolov3_loss: 2 anchors of 3 masked, 2 classes, GTScore, label smoothing off/on
            yx = D("yx", f32(2, 14, 4, 4))
            gtb = np.array([[[0.3, 0.4, 0.2, 0.3], [0.7, 0.6, 0.5, 0.4], [0, 0, 0, 0]],
                            [[0.5, 0.5, 0.3, 0.6], [0.1, 0.2, 0.1, 0.1], [0.8, 0.8, 0.2, 0.2]]],
                           "float32")
            yb, yl = D("ygtb", gtb), D("ygtl", np.array([[0, 1, 0], [1, 1, 0]], "int32"))
            ydt = ["float32", "float32", "int32"]
            ya = {"anchors": [10, 13, 16, 30, 33, 23], "anchor_mask": [0, 2], "class_num": 2,
                  "ignore_thresh": 0.5, "downsample_ratio": 8}
            outs += op("yolov3_loss", {"X": yx, "GTBox": yb, "GTLabel": yl}, ya,
                       outs=("Loss", "ObjectnessMask", "GTMatchMask"), dt=ydt)
            outs += op("yolov3_loss", {"X": yx, "GTBox": yb, "GTLabel": yl,
                                       "GTScore": D("ygts", r.uniform(0.2, 1, (2, 3))
                                                    .astype("float32"))},
                       dict(ya, use_label_smooth=False, scale_x_y=1.2),
                       outs=("Loss", "ObjectnessMask", "GTMatchMask"), dt=ydt)[:1]
            # hash (int32 and int64 ids)
            outs += op("hash", {"X": D("hid", r.randint(0, 1000, (4, 2)).astype("int64"))},
                       {"num_hash": 3, "mod_by": 10000}, dt="int64")
            outs += op("hash", {"X": D("hid32", r.randint(0, 1000, (3, 1)).astype("int32"))},
                       {"num_hash": 2, "mod_by": 77}, dt="int64")
            # bipartite_match: bipartite and per_prediction
            dm = D("dm", r.uniform(0, 1, (3, 5)).astype("float32"))
            outs += op("bipartite_match", {"DistMat": dm}, {},
                       outs=("ColToRowMatchIndices", "ColToRowMatchDist"), dt=["int32", "float32"])
            outs += op("bipartite_match", {"DistMat": dm},
                       {"match_type": "per_prediction", "dist_threshold": 0.3},
                       outs=("ColToRowMatchIndices", "ColToRowMatchDist"), dt=["int32", "float32"])
            # chunk_eval (padded mode with SeqLength): IOB and IOBES, excluded types
            inf = D("ci", r.randint(0, 7, (2, 6, 1)).astype("int64"))
            lab = D("cl", r.randint(0, 7, (2, 6, 1)).astype("int64"))
            sl = D("csl", np.array([6, 4], "int64"))
            co = ("Precision", "Recall", "F1-Score", "NumInferChunks", "NumLabelChunks",
                  "NumCorrectChunks")
            cdt = ["float32"] * 3 + ["int64"] * 3
            outs += op("chunk_eval", {"Inference": inf, "Label": lab, "SeqLength": sl},
                       {"num_chunk_types": 3, "chunk_scheme": "IOB"}, outs=co, dt=cdt)
            outs += op("chunk_eval", {"Inference": inf, "Label": lab, "SeqLength": sl},
                       {"num_chunk_types": 2, "chunk_scheme": "IOBES",
                        "excluded_chunk_types": [0]}, outs=co, dt=cdt)[3:]
            # warpctc (padded: logits [T, B, C] with lengths), blank 0 and last, norm_by_times
            lg = D("lg", f32(5, 2, 4))
            lb = D("lb", np.array([[1, 2], [3, 3]], "int32"))
            ll, bl = D("lgl", np.array([5, 4], "int64")), D("lbl", np.array([2, 1], "int64"))
            outs += op("warpctc", {"Logits": lg, "Label": lb, "LogitsLength": ll,
                                   "LabelLength": bl}, {"blank": 0},
                       outs=("WarpCTCGrad", "Loss"))[1:]
            outs += op("warpctc", {"Logits": lg, "Label": lb - 1, "LogitsLength": ll,
                                   "LabelLength": bl}, {"blank": 3, "norm_by_times": True},
                       outs=("WarpCTCGrad", "Loss"))[1:]
            # auc (ROC, stat buffers fed)
            pr = D("apr", r.uniform(0, 1, (6, 2)).astype("float32"))
            al = D("alb", np.array([[1], [0], [1], [1], [0], [0]], "int64"))
            nt = 7
            adt = ["float64", "int64", "int64"]
            sp = D("asp", r.randint(0, 3, (1, nt + 1)).astype("int64"))
            sn = D("asn", r.randint(0, 3, (1, nt + 1)).astype("int64"))
            outs += op("auc", {"Predict": pr, "Label": al, "StatPos": sp, "StatNeg": sn},
                       {"num_thresholds": nt, "slide_steps": 0, "curve": "ROC"},
                       outs=("AUC", "StatPosOut", "StatNegOut"), dt=adt)
            outs += op("auc", {"Predict": pr, "Label": al, "StatPos": sp, "StatNeg": sn},
                       {"num_thresholds": nt, "slide_steps": 0, "curve": "PR"},
                       outs=("AUC", "StatPosOut", "StatNegOut"), dt=adt)[:1]
            # deformable_conv_v1: the translator makes it pd_op.deformable_conv without Mask
            outs += op("deformable_conv_v1", {"Input": D("dcx", f32(1, 4, 5, 5)),
                                              "Offset": D("dco", f32(1, 36, 3, 3) * 2),
                                              "Filter": D("dcf", f32(6, 2, 3, 3))},
                       {"strides": [2, 2], "paddings": [1, 1], "dilations": [1, 1], "groups": 2,
                        "deformable_groups": 2, "im2col_step": 1}, outs=("Output",))
            # reshape2 / reshape (v1) by a Shape tensor: the translator wraps the one tensor in
            # a builtin.combine, and Paddle reads all of its elements
            outs += op("reshape2", {"X": x4, "Shape": D("rsh", np.array([10, 12], "int32"))},
                       {"shape": [-1, 12]}, outs=("Out", "XShape"))[:1]
            outs += op("reshape", {"X": x4, "Shape": D("rsh64", np.array([4, -1, 3], "int64"))},
                       {"shape": [4, -1, 3]})
    from paddle.base import libpaddle
    prog, vmap = libpaddle.pir.translate_to_pir_with_param_map(main.desc)
    first = lambda v: v[0] if isinstance(v, list) else v
    fetches = [first(vmap[o.name]) for o in outs]
    # matmul_with_flatten (mul): the translator rewrites mul into reshape + matmul, but the
    # PIR op itself is built by paddle._C_ops (x_num_col_dims 1 and 2, y_num_col_dims 1 and 2)
    with paddle.static.program_guard(prog):
        mx, my = paddle.static.data("mx", [2, 3, 4], "float32"), \
            paddle.static.data("my", [4, 5], "float32")
        my2 = paddle.static.data("my2", [4, 3, 5], "float32")
        fetches += [paddle._C_ops.matmul_with_flatten(mx, my, 2, 1),
                    paddle._C_ops.matmul_with_flatten(mx, my2, 1, 2)]
        # assign_out_ (paddle.assign with output=): the target's value before it, its result
        t = paddle.zeros([2, 3, 4]) - 1.0
        before = t * 3.0
        fetches += [paddle.assign(mx * 2.0, output=t) + before]
        # slice_array (an array slice of a tensor array, a_list[i:j]): [1:3], [-3:-1], the
        # [-1:0] Paddle writes for a[-1:], [0:10] past the end, and a start from a tensor
        arr = paddle.tensor.create_array("float32")
        for k in range(4):
            paddle.tensor.array_write(mx * float(k + 1), paddle.full([1], k, "int64"), arr)
        for st, en in (([1], [3]), ([-3], [-1]), ([-1], [0]), ([0], [10]),
                       (paddle.full([1], 2, "int64"), [4])):
            sub = paddle._C_ops.slice_array(arr, st, en)
            fetches += [paddle._C_ops.array_to_tensor(sub, 0, True)[0],
                        paddle.tensor.array_length(sub)]
    vals = {"mx": f32(2, 3, 4), "my": f32(4, 5), "my2": f32(4, 3, 5)}
    return ([(first(vmap[n]), v) for n, v in feeds] + [(v, vals[v.name]) for v in (mx, my, my2)],
            fetches, prog)


JSON_CASES = {"index": json_index, "math": json_math, "detect": json_detect, "seq": json_seq,
              "more": json_more, "ops3": json_ops3, "more2": json_more2,
              "ops6": json_ops6, "fft": json_fft, "special": json_special, "graph": json_graph,
              "linalg": json_linalg, "ops7": json_ops7, "ops8": json_ops8}
# These two export in both formats: pairs after all.
CASES.update(nn=json_nn, misc=json_misc, ops_index=lambda paddle, np: case_ops(paddle, np, 0),
             ops_math=lambda paddle, np: case_ops(paddle, np, 1))


# ----------------------------------------------------------------------------------------
# Child: export every case in one format.
# ----------------------------------------------------------------------------------------


def export_cond(paddle, out):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data("x", [2, 3], "float32")
        s = paddle.sum(x)
        y = paddle.static.nn.cond(s > 0, lambda: paddle.nn.functional.relu(x) * 2.0,
                                  lambda: x - 1.0)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        paddle.static.save_inference_model(os.path.join(out, "cond", "model"), [x], [y], exe,
                                           program=main)


def export_const(paddle, np, out):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data("x", [2, 3], "float32")
        c = paddle.assign(np.array([[1.5, 2, 3]], "float32"))
        i = paddle.assign(np.array([1, 2], "int64"))
        y = x * c + paddle.cast(i.sum(), "float32")
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        paddle.static.save_inference_model(os.path.join(out, "const", "model"), [x], [y], exe,
                                           program=main)


def export_random(paddle, out):
    """random/model.json (PIR only; Paddle's values are its own random draws, so the test
    checks the translation, shapes and ranges): pd_op.uniform (shape, min and max operands),
    pd_op.gaussian, pd_op.multinomial (num_samples operand) on a softmax, pd_op.randint,
    pd_op.randperm and pd_op.bernoulli."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data("x", [2, 5], "float32")
        u = paddle.uniform([2, 5], "float32", min=-2.0, max=3.0, seed=7)
        g = paddle.randn([3, 4], "float32")
        m = paddle.multinomial(paddle.nn.functional.softmax(x + u), num_samples=3)
        ri = paddle.randint(-3, 9, [4, 5])
        rp = paddle.randperm(7, "int32")
        be = paddle.bernoulli(paddle.nn.functional.sigmoid(x))
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        paddle.static.save_inference_model(os.path.join(out, "random", "model"), [x],
                                           [u, g, m, ri, rp, be], exe, program=main)


def export_lod(paddle, out):
    """lod/model.json (PIR only, not run): ops whose Paddle kernels need LoD input, which a
    PIR program cannot be fed (gru, lstm and beam_search, the legacy LoD ops; box_clip, which
    Paddle's kernel reads without checking), and ops whose inference outputs Paddle leaves unwritten
    (moving_average_abs_max_scale's OutScale, fake_channel_wise_quantize_abs_max's at
    is_test) or computes unlike its kernel's definition (dequantize_linear on float input):
    tests/test_pir.c checks their translation (types, slots, attributes)."""
    C = paddle._C_ops
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data("x", [6, 9], "float32")
        h0 = paddle.static.data("h0", [2, 3], "float32")
        w = paddle.static.data("w", [3, 9], "float32")
        b = paddle.static.data("b", [1, 9], "float32")
        x4 = paddle.static.data("x4", [6, 12], "float32")
        c0 = paddle.static.data("c0", [2, 3], "float32")
        w4 = paddle.static.data("w4", [3, 12], "float32")
        b4 = paddle.static.data("b4", [1, 21], "float32")
        boxes = paddle.static.data("boxes", [5, 4], "float32")
        im = paddle.static.data("im", [1, 3], "float32")
        s = paddle.static.data("s", [1], "float32")
        z = paddle.static.data("z", [1], "float32")
        pi = paddle.static.data("pi", [2, 1], "int64")
        ps = paddle.static.data("ps", [2, 1], "float32")
        ids = paddle.static.data("ids", [2, 3], "int64")
        sc = paddle.static.data("sc", [2, 3], "float32")
        gru = C.gru(x, h0, w, b, "relu", "sigmoid", True, True, True)
        lstm = C.lstm(x4, h0, c0, w4, b4, True, True, True, "sigmoid", "tanh", "identity")
        outs = [gru[3], lstm[0], lstm[1], C.box_clip(boxes, im),
                C.dequantize_linear(x, s, z, s, s, -1, 8, -128, 127, 0, True, False)[0],
                C.moving_average_abs_max_scale(x, s, s, 0.9, True)[0],
                C.fake_channel_wise_quantize_abs_max(x, 8, 1, 1, True)[0],
                *C.beam_search(pi, ps, ids, sc, 0, 2, 1, False)]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        paddle.static.save_inference_model(os.path.join(out, "lod", "model"),
                                           [x, h0, w, b, x4, c0, w4, b4, boxes, im, s, z, pi, ps,
                                            ids, sc], outs,
                                           exe, program=main)


def export_lod8(paddle, np, out):
    """lod8/<case>/ (PIR only, in tools/gen_paddle_seq.py's layout: model.json, in_k.npy,
    out_k.npy and case.txt with feed, lod, fetch and outlod lines; read by
    tests/test_pir_lod.c): pd_ops over LoD input that Paddle 3.3.1 emits only translating a
    ProgramDesc (as ops8), run by Paddle on LoD feeds. seq: sequence_pool (SUM, AVERAGE, SQRT,
    MAX, LAST, FIRST), sequence_softmax, sequence_conv (context 3 from -1, context 2 from 0),
    sequence_expand (ref_level 0); rnn: fusion_gru (H0 and bias; reversed, origin_mode, relu),
    fusion_lstm (H0/C0; peepholes, reversed), attention_lstm; fused: fusion_seqpool_concat
    (SUM, AVERAGE), fusion_seqpool_cvm_concat, match_matrix_tensor (dim_t 2), pyramid_hash
    (inference, no filter)."""
    import json
    from paddle.base import core, libpaddle
    from paddle.base.layer_helper import LayerHelper
    from paddle.pir_utils import OldIrGuard
    r = np.random.RandomState(82)
    f32 = lambda *s: r.uniform(-1, 1, s).astype("float32")
    cases = {}

    def op(t, ins, attrs, outs=("Out",), dt="float32"):
        h = LayerHelper(t)
        dts = dt if isinstance(dt, (list, tuple)) else [dt] * len(outs)
        o = {s: h.create_variable_for_type_inference(d) for s, d in zip(outs, dts)}
        h.append_op(type=t, inputs=ins, outputs=o, attrs=attrs)
        return [o[s] for s in outs]

    def case(name, build):
        feeds = []

        def D(n, val, lod=None):
            v = paddle.static.data(n, [-1] + list(val.shape[1:]) if lod else list(val.shape),
                                   str(val.dtype), lod_level=1 if lod else 0)
            feeds.append((n, val, lod))
            return v
        with OldIrGuard():
            main, startup = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, startup):
                outs = build(D)
        cases[name] = (feeds, outs, main)

    def seq(D):
        x = D("x", f32(7, 3), [0, 3, 7])
        outs = [op("sequence_pool", {"X": x}, {"pooltype": p, "is_test": True},
                   outs=("Out", "MaxIndex"), dt=["float32", "int32"])[0]
                for p in ("SUM", "AVERAGE", "SQRT", "MAX", "LAST", "FIRST")]
        outs += op("sequence_softmax", {"X": D("xs", f32(7, 1), [0, 2, 7])}, {})
        outs += op("sequence_conv", {"X": x, "Filter": D("cf", f32(9, 2))},
                   {"contextLength": 3, "contextStart": -1, "contextStride": 1})
        outs += op("sequence_conv", {"X": x, "Filter": D("cf2", f32(6, 4))},
                   {"contextLength": 2, "contextStart": 0, "contextStride": 1})
        outs += op("sequence_expand", {"X": D("ex", f32(2, 3), [0, 1, 2]),
                                       "Y": D("ey", f32(5, 1), [0, 2, 5])}, {"ref_level": 0})
        return outs
    case("seq", seq)

    def rnn(D):
        x = D("x", f32(7, 4), [0, 3, 7])
        h0 = D("h0", f32(2, 3))
        wx, wh, b = D("wx", f32(4, 9)), D("wh", f32(3, 9)), D("b", f32(1, 9))
        gout = ("ReorderedH0", "XX", "BatchedInput", "BatchedOut", "Hidden")
        outs = op("fusion_gru", {"X": x, "H0": h0, "WeightX": wx, "WeightH": wh, "Bias": b},
                  {}, outs=gout)[4:]
        outs += op("fusion_gru", {"X": x, "WeightX": wx, "WeightH": wh},
                   {"is_reverse": True, "origin_mode": True, "activation": "relu",
                    "gate_activation": "sigmoid"}, outs=gout)[4:]
        lout = ("Hidden", "Cell", "XX", "BatchedInput", "BatchedHidden", "BatchedCell",
                "ReorderedH0", "ReorderedC0", "CheckedCell")
        lwx, lwh = D("lwx", f32(4, 12)), D("lwh", f32(3, 12))
        c0 = D("c0", f32(2, 3))
        outs += op("fusion_lstm", {"X": x, "WeightX": lwx, "WeightH": lwh,
                                   "Bias": D("lb", f32(1, 12)), "H0": h0, "C0": c0},
                   {"use_peepholes": False}, outs=lout)[:2]
        outs += op("fusion_lstm", {"X": x, "WeightX": lwx, "WeightH": lwh,
                                   "Bias": D("lbp", f32(1, 21))},
                   {"use_peepholes": True, "is_reverse": True}, outs=lout)[:2]
        aout = ("Hidden", "Cell", "AttentionedX", "AttentionFCOut", "LSTMX", "LSTMOUT")
        outs += op("attention_lstm", {"X": x, "C0": c0, "H0": h0,
                                      "AttentionWeight": D("aw", f32(7, 1)),
                                      "AttentionBias": D("ab", f32(1, 1)),
                                      "LSTMWeight": D("alw", f32(7, 12)),
                                      "LSTMBias": D("alb", f32(1, 12))}, {}, outs=aout)[:2]
        return outs
    case("rnn", rnn)

    def fused(D):
        xs = [D("p%d" % k, f32(5, 2), [0, 2, 5]) for k in range(2)]
        outs = op("fusion_seqpool_concat", {"X": xs}, {"pooltype": "SUM", "axis": 1})
        outs += op("fusion_seqpool_concat", {"X": xs}, {"pooltype": "AVERAGE", "axis": 1})
        cx = [D("q%d" % k, np.abs(f32(5, 3)), [0, 2, 5]) for k in range(2)]
        outs += op("fusion_seqpool_cvm_concat", {"X": cx, "CVM": D("cvm", f32(2, 2))},
                   {"pooltype": "SUM", "axis": 1, "use_cvm": True})
        outs += op("match_matrix_tensor", {"X": D("mx", f32(5, 3), [0, 2, 5]),
                                           "Y": D("my", f32(4, 3), [0, 3, 4]),
                                           "W": D("mw", f32(3, 2, 3))}, {"dim_t": 2},
                   outs=("Out", "Tmp"))[:1]
        # pyramid_hash at inference (rows scaled by drop_out_percent), no filter
        ph = {"num_emb": 8, "space_len": 96, "pyramid_layer": 3, "rand_len": 4,
              "drop_out_percent": 0.5, "is_training": 0, "use_filter": False,
              "white_list_len": 0, "black_list_len": 0, "seed": 1, "lr": 0.0,
              "distribute_update_vars": ""}
        outs += op("pyramid_hash", {"X": D("hx", np.array([[1], [2], [3], [4], [5], [6]], "int32"),
                                           [0, 4, 6]),
                                    "W": D("hw", f32(100, 1)), "WhiteList": D("hwl", f32(1, 1)),
                                    "BlackList": D("hbl", f32(1, 1))}, ph,
                   outs=("Out", "DropPos", "X_Temp_Out"), dt=["float32", "int32", "int32"])[:1]
        return outs
    case("fused", fused)
    root = os.path.join(out, "lod8")
    exe = paddle.static.Executor(paddle.CPUPlace())
    first = lambda v: v[0] if isinstance(v, list) else v
    for name, (feeds, outs, legacy) in cases.items():
        d = os.path.join(root, name)
        os.makedirs(d, exist_ok=True)
        prog, vmap = libpaddle.pir.translate_to_pir_with_param_map(legacy.desc)
        prefix = os.path.join(d, "model")
        paddle.static.save_inference_model(prefix, [first(vmap[n]) for n, _, _ in feeds],
                                           [first(vmap[o.name]) for o in outs], exe,
                                           program=prog)
        loaded, feed_names, fetch_vars = paddle.static.load_inference_model(prefix, exe)
        values, lines = {}, []
        for k, (n, val, lod) in enumerate(feeds):
            t = core.DenseTensor()
            t.set(val, core.CPUPlace())
            if lod:
                t.set_lod([lod])
            values[n] = t
            np.save(os.path.join(d, f"in_{k}.npy"), val)
            lines.append(f"feed {n} in_{k}.npy")
            if lod:
                lines.append(f"lod {n} " + " ".join(map(str, lod)))
        res = exe.run(loaded, feed={n: values[n] for n in feed_names}, fetch_list=fetch_vars,
                      return_numpy=False)
        ops = json.load(open(prefix + ".json"))["program"]["regions"][0]["blocks"][0]["ops"]
        fetch = {}
        for o in ops:
            if o.get("#") == "1.fetch":
                a = {x["N"]: x["AT"]["D"] for x in o["A"]}
                fetch[a["col"]] = a["name"]
        for k, t in enumerate(res):
            np.save(os.path.join(d, f"out_{k}.npy"), np.array(t))
            lines.append(f"fetch {fetch[k]} out_{k}.npy")
            for level in t.lod():
                lines.append(f"outlod {fetch[k]} " + " ".join(map(str, level)))
        with open(os.path.join(d, "case.txt"), "w") as f:
            f.write("".join(ln + "\n" for ln in lines))
    with open(os.path.join(root, "cases.txt"), "w") as f:
        f.write("".join(n + "\n" for n in cases))


def export_jit(paddle, np, out):
    """JIT case "jit": a dygraph Layer saved by paddle.jit.save, as users export with Paddle 3
    (PIR JSON by default), run back through paddle.inference. What the static cases above do
    not produce: pd_op.rnn's dropout state as a builtin.parameter that is not persistable
    (absent from the .pdiparams), an empty untyped array attribute (bilinear_interp's "scale"
    when a size is given), pd_op.masked_fill with a broadcast mask and value tensor, and
    pd_op.einsum (three operands: two ops)."""
    F = paddle.nn.functional

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.lstm = paddle.nn.LSTM(4, 3, num_layers=2, direction="bidirect")
            self.gru = paddle.nn.GRU(4, 3)
            self.conv = paddle.nn.Conv2D(2, 3, 3, padding=1)

        def forward(self, x, img, m):
            o, _ = self.lstm(x)
            g, _ = self.gru(x)
            y = F.interpolate(self.conv(img), size=[7, 9], mode="bilinear", align_corners=False)
            v = paddle.to_tensor([1.5, -2.0, 0.25, 3.0, 9.0, 8.0, 7.0, 6.0, 5.0])
            e = paddle.einsum
            return (o, g, y, paddle.masked_fill(y, m, v), paddle.masked_fill(x, x > 0.3, -1.0),
                    e("bij,bkj->bik", x, x), e("bij,jk,bk->bi", x, x[0].t(), x[:, :, 0]))

    spec = paddle.static.InputSpec
    rv = np.random.RandomState(18)
    values = {"x": rv.uniform(-1, 1, (2, 5, 4)).astype("float32"),
              "img": rv.uniform(-1, 1, (1, 2, 5, 6)).astype("float32"),
              "m": np.array([True, False, True, True, False, False, True]).reshape(1, 1, 7, 1)}
    save_jit(paddle, np, Net(), os.path.join(out, "jit"),
             [spec([2, 5, 4], "float32", "x"), spec([1, 2, 5, 6], "float32", "img"),
              spec([1, 1, 7, 1], "bool", "m")], values)


def export_ctrl(paddle, np, out):
    """JIT case "ctrl": Python control flow that paddle.jit.save turns into pd_op.while and
    pd_op.if: a loop with a data-dependent trip count, a swap of two loop variables, an if
    nested in the body, an if after it taking its true branch and one its false branch
    (results of several dtypes), and a loop that runs zero times."""

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(3, 3)

        def forward(self, x, n):
            i = paddle.zeros([1], "int64")
            s = x
            a = paddle.ones([1], "float32")
            b = paddle.zeros([1], "float32")
            while i < n:
                s = paddle.tanh(self.fc(s)) + 0.5
                a, b = b, a + b
                if s.mean() > 0.6:
                    s = s * 0.9
                else:
                    s = s + 0.1
                i = i + 1
            if x.sum() > 0:
                y = s * 2.0
                z = i + 10
            else:
                y = s - 1.0
                z = i - 10
            if x.sum() < -100.0:
                w = y + 1.0
            else:
                w = y * y
            j = paddle.zeros([1], "int64")
            t = x
            while j < 0:
                t = t + 1.0
                j = j + 1
            return s, y, z, a, b, i, w, t

    spec = paddle.static.InputSpec
    rv = np.random.RandomState(19)
    values = {"x": rv.uniform(0, 1, (2, 3)).astype("float32"), "n": np.array([5], "int64")}
    save_jit(paddle, np, Net(), os.path.join(out, "ctrl"),
             [spec([2, 3], "float32", "x"), spec([1], "int64", "n")], values)


def save_jit(paddle, np, net, d, specs, values):
    """net with seeded parameters through paddle.jit.save into d/model.json, then Paddle
    Inference's outputs for `values` (by feed name) as in<k>.npy (in the order of the
    program's data ops) and out<k>.npy."""
    os.makedirs(d, exist_ok=True)
    paddle.seed(0)
    net.eval()
    for prm in net.parameters():
        rv = np.random.RandomState(seed_of(prm.name))
        prm.set_value(rv.uniform(-0.5, 0.5, prm.shape).astype("float32"))
    paddle.jit.save(net, os.path.join(d, "model"), input_spec=specs)
    import paddle.inference as pi
    cfg = pi.Config()
    cfg.set_prog_file(os.path.join(d, "model.json"))
    if os.path.exists(os.path.join(d, "model.pdiparams")):  # a Layer without parameters has none
        cfg.set_params_file(os.path.join(d, "model.pdiparams"))
    cfg.disable_gpu()
    cfg.switch_ir_optim(False)
    cfg.disable_mkldnn()  # its PIR path cannot convert an ArrayAttribute<DoubleAttribute>
    pred = pi.create_predictor(cfg)
    for n, v in values.items():
        h = pred.get_input_handle(n)
        h.reshape(v.shape)
        h.copy_from_cpu(v)
    pred.run()
    for k, n in enumerate(data_names(os.path.join(d, "model.json"))):
        np.save(os.path.join(d, f"in{k}.npy"), values[n])
    for k, n in enumerate(pred.get_output_names()):
        np.save(os.path.join(d, f"out{k}.npy"), pred.get_output_handle(n).copy_to_cpu())


def export_sweep4(paddle, np, out):
    """JIT case "sweep4": what Paddle 3 exports of PaddleOCR / PaddleDetection networks
    needed beyond the cases above: Tensor.detach() (pd_op.share_data_), `out[:, i] = v` with
    a 0-D loop index (set_value_with_tensor_ whose starts come from pd_op.stack of scalars) and
    with a one-element index (pd_op.index_put), paddle.split with sections computed at run
    time (stack of scalars as well), a Python list appended in a loop and read back
    (create_array, array_length, array_write_, array_to_tensor, slice_array_dense with 0 and
    with -1), bool * bool and bool + bool (pd_op.multiply / add of bool tensors), and
    max_unpool2d and Conv2DTranspose with an output size read from the input's shape at run
    time (output_size from pd_op.stack: ENet)."""

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)
            self.up = paddle.nn.Conv2DTranspose(2, 3, 3, stride=2, padding=1)

        def forward(self, x, n, img):
            h = self.fc(x)
            d = h.detach()
            pooled, ind = paddle.nn.functional.max_pool2d(img, 2, return_mask=True)
            hw = paddle.shape(img)
            unp = paddle.nn.functional.max_unpool2d(pooled, ind, 2, output_size=[hw[2], hw[3]])
            upc = self.up(pooled, output_size=[hw[2], hw[3]])
            att = paddle.nn.functional.softmax(paddle.where(h > 0, h, paddle.full_like(h, -1e9)), -1)
            bm = (h > 0) * (h < 0.5)
            ba = (h > 0.3) + (h < -0.3)
            out = paddle.zeros([3, 4])
            i = paddle.zeros([], "int64")
            while i < 4:
                out[:, i] = h[:, i] * 2.0
                i = i + 1
            put = paddle.zeros([3, 4])
            k = paddle.zeros([1], "int64")
            while k < 4:
                put[:, k] = h[:, k] - 1.0
                k = k + 1
            s1, s2 = paddle.split(h, [paddle.shape(h)[1] - 1, 1], axis=1)
            res = []
            j = paddle.zeros([1], "int64")
            while j < n:
                res.append(h * j.astype("float32"))
                j = j + 1
            return (d + 1.0, att, bm, ba, out, s1, s2, paddle.concat(res, axis=0), res[0], res[-1],
                    put, unp, upc)

    spec = paddle.static.InputSpec
    rv = np.random.RandomState(20)
    values = {"x": rv.uniform(-1, 1, (3, 4)).astype("float32"), "n": np.array([3], "int64"),
              "img": rv.uniform(-1, 1, (1, 2, 4, 6)).astype("float32")}
    save_jit(paddle, np, Net(), os.path.join(out, "sweep4"),
             [spec([3, 4], "float32", "x"), spec([1], "int64", "n"),
              spec([None, 2, None, None], "float32", "img")], values)


def export_nonfinite(paddle, np, out):
    """JIT case "nonfinite": float attributes that are not finite. Paddle writes them as
    {"#": "0.a_f64", "VD": "-INF"} ("INF", "NaN") instead of "D" (PaddleOCR's LaTeX-OCR and
    attention masks with -inf); Paddle 3.3.1's own loader fails on these ("key 'D' not
    found"), so the expected outputs are the Layer's eager outputs, the same ops."""

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)

        def forward(self, x, m):
            h = self.fc(x)
            neg = paddle.where(m, paddle.zeros_like(h), paddle.full_like(h, float("-inf")))
            return (paddle.nn.functional.softmax(h + neg, -1),
                    paddle.clip(h, min=float("-inf"), max=0.25),
                    paddle.isnan(paddle.full([3], float("nan"))),
                    paddle.full([1], float("inf")) > h,
                    paddle.full([1], float("-inf")) < h,
                    paddle.maximum(h, paddle.full([1], float("-inf"))))

    spec = paddle.static.InputSpec
    rv = np.random.RandomState(21)
    m = rv.uniform(0, 1, (3, 4)) > 0.5
    m[:, 0] = True
    values = {"x": rv.uniform(-1, 1, (3, 4)).astype("float32"), "m": m}
    d = os.path.join(out, "nonfinite")
    os.makedirs(d, exist_ok=True)
    paddle.seed(0)
    net = Net()
    net.eval()
    for prm in net.parameters():
        rp = np.random.RandomState(seed_of(prm.name))
        prm.set_value(rp.uniform(-0.5, 0.5, prm.shape).astype("float32"))
    outs = net(*(paddle.to_tensor(values[k]) for k in ("x", "m")))
    paddle.jit.save(net, os.path.join(d, "model"), input_spec=[spec([3, 4], "float32", "x"),
                                                                spec([3, 4], "bool", "m")])
    for k, nm in enumerate(data_names(os.path.join(d, "model.json"))):
        np.save(os.path.join(d, f"in{k}.npy"), values[nm])
    for k, t in enumerate(outs):
        np.save(os.path.join(d, f"out{k}.npy"), t.numpy())


JIT_CASES = {"jit": export_jit, "ctrl": export_ctrl, "sweep4": export_sweep4,
             "nonfinite": export_nonfinite}


def child(fmt, out):
    import numpy as np
    import paddle

    paddle.set_device("cpu")
    pir = fmt == "pir"
    if pir:
        for build in JIT_CASES.values():  # dygraph: before enable_static
            build(paddle, np, out)
    paddle.enable_static()
    if pir:
        export_cond(paddle, out)
        export_const(paddle, np, out)
        export_random(paddle, out)
        export_lod(paddle, out)
        export_lod8(paddle, np, out)
    cases = dict(CASES, **(JSON_CASES if pir else {}))
    for name, build in cases.items():
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        main, startup = paddle.static.Program(), paddle.static.Program()
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope), paddle.static.program_guard(main, startup), \
                paddle.utils.unique_name.guard():
            built = build(paddle, np)
            # (a third value: the program the case built itself, ops8's translated one)
            feeds, fetches = built[:2]
            prog_built = built[2] if len(built) > 2 else main
            exe = paddle.static.Executor(paddle.CPUPlace())
            exe.run(startup)
            # Deterministic parameters by name, identical in both formats; batch_norm
            # variances and scales kept positive.
            for pname in sorted(scope.local_var_names()):
                try:
                    t = scope.find_var(pname).get_tensor()
                except ValueError:  # feed/fetch holders
                    continue
                if not t._is_initialized():
                    continue
                shape = np.array(t).shape
                rv = np.random.RandomState(seed_of(pname))
                lo, hi = (0.5, 1.5) if "batch_norm" in pname and pname.endswith(("w_0", "w_2")) \
                    else (-0.5, 0.5)
                t.set(rv.uniform(lo, hi, shape).astype(np.array(t).dtype), paddle.CPUPlace())
            prefix = os.path.join(d, "model")
            paddle.static.save_inference_model(prefix, [v for v, _ in feeds], fetches, exe,
                                               program=prog_built)
            # Paddle's outputs from the saved inference program (is_test batch_norm and
            # dropout), read back the way Paddle's own inference loads it.
            prog, feed_names, fetch_vars = paddle.static.load_inference_model(prefix, exe)
            values = {v.name: val for v, val in feeds}
            # (return_numpy=False: the detection ops' outputs carry LoD)
            outs = exe.run(prog, feed={n: values[n] for n in feed_names}, fetch_list=fetch_vars,
                           return_numpy=False)
            outs = [np.array(o) for o in outs]
        if not pir:
            strip_callstack(prefix + ".pdmodel")
        if name in JSON_CASES:
            # Feeds in the order of the program's pd_op.data ops.
            order = data_names(prefix + ".json")
            if sorted(order) != sorted(values):
                sys.exit(f"{name}: data ops {order} are not the feeds {sorted(values)}")
            feeds = [(None, values[n]) for n in order]
        for k, (_, val) in enumerate(feeds):
            np.save(os.path.join(d, f"in{k}.npy"), val)
        for k, o in enumerate(outs):
            np.save(os.path.join(d, f"out{k}.npy"), np.asarray(o))


def data_names(path):
    import json
    ops = json.load(open(path))["program"]["regions"][0]["blocks"][0]["ops"]
    names = []
    for op in ops:
        if op.get("#") == "1.data":
            names += [a["AT"]["D"] for a in op["A"] if a["N"] == "name"]
    return names


def strip_callstack(path):
    """Drop op_callstack attributes (machine paths) from a protobuf ProgramDesc, in place."""
    from paddle.base import core, framework
    desc = core.ProgramDesc(open(path, "rb").read())
    for b in range(desc.num_blocks()):
        blk = desc.block(b)
        for i in range(blk.op_size()):
            op = blk.op(i)
            if op.has_attr("op_callstack"):
                op.remove_attr("op_callstack")
    open(path, "wb").write(desc.serialize_to_string())


# ----------------------------------------------------------------------------------------
# Parent
# ----------------------------------------------------------------------------------------


def main():
    if len(sys.argv) >= 3 and sys.argv[1] in ("--child-pir", "--child-pb"):
        child("pir" if sys.argv[1] == "--child-pir" else "pb", sys.argv[2])
        return
    import numpy as np

    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT)
    tmp = out + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    for fmt, flag in (("pir", "1"), ("pb", "0")):
        env = dict(os.environ, FLAGS_enable_pir_api=flag)
        subprocess.run([sys.executable, os.path.abspath(__file__), "--child-" + fmt,
                        os.path.join(tmp, fmt)], check=True, env=env)
    os.makedirs(out, exist_ok=True)
    for name in CASES:
        a, b, d = os.path.join(tmp, "pir", name), os.path.join(tmp, "pb", name), \
            os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        pa, pb = os.path.join(a, "model.pdiparams"), os.path.join(b, "model.pdiparams")
        if os.path.exists(pa) or os.path.exists(pb):
            if open(pa, "rb").read() != open(pb, "rb").read():
                sys.exit(f"{name}: the two formats wrote different parameter files")
            shutil.copy(pa, os.path.join(d, "model.pdiparams"))
        shutil.copy(os.path.join(a, "model.json"), d)
        shutil.copy(os.path.join(b, "model.pdmodel"), d)
        for f in sorted(os.listdir(a)):
            if f.endswith(".npy"):
                va, vb = np.load(os.path.join(a, f)), np.load(os.path.join(b, f))
                if f.startswith("out") and not np.allclose(va, vb, rtol=1e-5, atol=1e-6):
                    sys.exit(f"{name}/{f}: Paddle's outputs differ between formats")
                shutil.copy(os.path.join(a, f), d)
    for extra in ("cond", "const", "random", "lod"):
        os.makedirs(os.path.join(out, extra), exist_ok=True)
        shutil.copy(os.path.join(tmp, "pir", extra, "model.json"), os.path.join(out, extra))
    shutil.rmtree(os.path.join(out, "lod8"), ignore_errors=True)
    shutil.copytree(os.path.join(tmp, "pir", "lod8"), os.path.join(out, "lod8"))
    with open(os.path.join(out, "cases.txt"), "w") as f:
        f.write("".join(n + "\n" for n in CASES))
    for name in JSON_CASES:
        a, d = os.path.join(tmp, "pir", name), os.path.join(out, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for f in sorted(os.listdir(a)):
            if f.endswith((".json", ".npy", ".pdiparams")):
                shutil.copy(os.path.join(a, f), d)
    for name in JIT_CASES:
        a, d = os.path.join(tmp, "pir", name), os.path.join(out, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for f in sorted(os.listdir(a)):
            if f.endswith((".json", ".npy", ".pdiparams")):
                shutil.copy(os.path.join(a, f), d)
    # (and the cases older Paddle releases wrote, tools/gen_pir_oldver.py: not rewritten here)
    sys.path.insert(0, HERE)
    from gen_pir_oldver import OLD_CASES
    with open(os.path.join(out, "json_cases.txt"), "w") as f:
        f.write("".join(n + "\n" for n in list(JSON_CASES) + list(JIT_CASES) + list(OLD_CASES)))
    shutil.rmtree(tmp)
    print("wrote", out)


if __name__ == "__main__":
    main()
