#!/usr/bin/env python3
"""Generate tests/data/paddle_seq_grad/<case>/: training programs over LoD tensors in which
Paddle 2.6.2's own backward (paddle.static.append_backward) emits the gradient ops of the
legacy sequence and LoD-array ops (sequence_concat_grad, sequence_conv_grad, ...,
tensor_array_to_tensor_grad, and the array ops whose gradient is another forward op:
lod_tensor_to_array <-> array_to_lod_tensor, write_to_array <-> read_from_array,
select_input <-> select_output). tests/test_paddle_seq_grad.c runs each whole program
(forward, loss, backward) in icore and checks the input gradients and their LoD against
Paddle's.

Each program: the op under test on fed LoD tensors (inputs whose gradient is wanted have
stop_gradient False), loss = sum(out * w) with w a fed tensor of fixed random values (so
every element of Out@GRAD differs), append_backward(loss). Files per case, in the layout of
tools/gen_paddle_seq.py (tests/test_paddle_seq.c reads them):
    inference.pdmodel   the training program (no feed/fetch ops: icore feeds by name)
    in_<k>.npy          feed k;  out_<k>.npy  Paddle's fetch k (each input's gradient)
    case.txt            "feed NAME in_k.npy", "lod NAME o0 o1 ...", "fetch NAME out_k.npy",
                        "outlod NAME o0 ..." (the LoD Paddle gives the gradient)
    gradops.txt         the grad op descs the backward emitted: type, inputs, outputs and
                        attributes, for reference (and checked by the test: every listed
                        type is in the program)

    FLAGS_enable_pir_api=0 /work/pdenv26/bin/python tools/gen_paddle_seq_grad.py
"""
import os
import shutil
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.base import core  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "data", "paddle_seq_grad")
RNG = np.random.RandomState(20261127)
F32 = "float32"
VT = core.VarDesc.VarType
SKIP_ATTRS = {"op_callstack", "op_namescope", "op_device", "with_quant_attr", "op_role_var"}


def rand(*shape, lo=-1.0, hi=1.0, dtype=F32):
    return RNG.uniform(lo, hi, shape).astype(dtype)


def raw(block, type_, inputs, outputs, attrs=None):
    block.append_op(type=type_, inputs=inputs, outputs=outputs, attrs=attrs or {})


def tvar(block, name, dtype=F32):
    return block.create_var(name=name, dtype=dtype)


def array_var(block, name):
    return block.create_var(name=name, type=VT.LOD_TENSOR_ARRAY, dtype=F32)


def rank_var(block, name):
    return block.create_var(name=name, type=VT.LOD_RANK_TABLE)


def lod_tensor(arr, lod):
    t = core.LoDTensor()
    t.set(arr, paddle.CPUPlace())
    if lod:
        t.set_lod(lod)
    return t


def case(name, build, values, grads):
    """build(block, feeds) adds the forward ops and returns the output variable; values:
    {feed name: (array, lod or None, wants gradient)}; grads: the feeds whose gradient is
    fetched (default: every one marked)."""
    paddle.enable_static()

    def program(with_loss, w_shape):
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
            block = main.global_block()
            feeds = {}
            for n, (arr, lod, diff) in values.items():
                shape = [-1] + list(arr.shape[1:]) if lod else list(arr.shape)
                v = paddle.static.data(n, shape, str(arr.dtype), lod_level=len(lod) if lod else 0)
                v.stop_gradient = not diff
                feeds[n] = v
            out = build(block, feeds)
            if not with_loss:
                return main, out
            w = paddle.static.data("loss_w", [-1] + w_shape[1:], F32)
            loss = paddle.sum(paddle.multiply(out, w))
            paddle.static.append_backward(loss)
        return main, out

    exe = paddle.static.Executor(paddle.CPUPlace())
    feed = {n: lod_tensor(a, l) for n, (a, l, _) in values.items()}
    fwd, out = program(False, None)
    (o,) = exe.run(fwd, feed=feed, fetch_list=[out], return_numpy=False)
    o = np.array(o)
    w = rand(*o.shape, lo=0.5, hi=2.0) * np.where(RNG.rand(*o.shape) < 0.5, -1, 1).astype(F32)
    main, out = program(True, list(o.shape))
    feed["loss_w"] = lod_tensor(w, None)
    all_values = dict(values)
    all_values["loss_w"] = (w, None, False)
    fetch = [n + "@GRAD" for n in grads]
    got = exe.run(main, feed=feed, fetch_list=fetch, return_numpy=False)

    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    desc_lines = []
    for blk in main.blocks:
        for op in blk.ops:
            if op.desc.has_attr("op_callstack"):
                op.desc.remove_attr("op_callstack")
            role = op.desc.attr("op_role") if op.desc.has_attr("op_role") else 0
            if not (role & 1):  # forward or loss ops
                continue
            if op.type in ("fill_constant", "reduce_sum_grad", "elementwise_mul_grad"):
                continue  # the loss's own backward
            ins = "; ".join("%s=%s" % (k, ",".join(op.input(k))) for k in op.input_names)
            outs = "; ".join("%s=%s" % (k, ",".join(op.output(k))) for k in op.output_names)
            attrs = ", ".join("%s=%r" % (k, op.attr(k)) for k in sorted(op.attr_names)
                              if k not in SKIP_ATTRS and k != "op_role")
            desc_lines.append("%s | in: %s | out: %s | attrs: %s" % (op.type, ins, outs, attrs))
    with open(os.path.join(d, "inference.pdmodel"), "wb") as f:
        f.write(main.desc.serialize_to_string())
    with open(os.path.join(d, "gradops.txt"), "w") as f:
        f.write("\n".join(desc_lines) + "\n")
    lines = []
    for k, (n, (arr, lod, _)) in enumerate(all_values.items()):
        np.save(os.path.join(d, "in_%d.npy" % k), arr)
        lines.append("feed %s in_%d.npy" % (n, k))
        for level in lod or []:
            lines.append("lod %s %s" % (n, " ".join(map(str, level))))
    for k, (n, t) in enumerate(zip(fetch, got)):
        np.save(os.path.join(d, "out_%d.npy" % k), np.array(t))
        lines.append("fetch %s out_%d.npy" % (n, k))
        for level in t.lod():
            lines.append("outlod %s %s" % (n, " ".join(map(str, level))))
    with open(os.path.join(d, "case.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(name, [(np.array(t).shape, t.lod()) for t in got])
    for ln in desc_lines:
        print("   ", ln)
    return name


def one(type_, ins, attrs=None, out_slot="Out", extra_outs=None):
    """A builder for one op: ins {slot: [feed names]}; returns its output."""
    def build(block, feeds):
        out = tvar(block, "out")
        outs = {out_slot: [out]}
        for slot, (vname, dt) in (extra_outs or {}).items():
            outs[slot] = [tvar(block, vname, dt)]
        raw(block, type_, {s: [feeds[n] for n in ns] for s, ns in ins.items()}, outs, attrs)
        return out
    return build


def main():
    names = []

    # sequence_concat: two and three inputs, empty sequences (one LoD level only: icore's
    # forward, like Paddle's later versions, refuses more). Every input wants its gradient:
    # with an input in the middle that does not (X@GRAD @EMPTY@), Paddle 2.6.2's
    # SeqConcatGradKernel pairs the split's pieces with the wrong outputs (it drops the absent
    # ones from the outputs but not from the pieces); tests/test_paddle_seq_grad.c checks
    # that case against the all-gradient one instead
    names.append(case("sequence_concat", one("sequence_concat", {"X": ["x0", "x1"]}),
                      {"x0": (rand(6, 3), [[0, 2, 2, 6]], True),
                       "x1": (rand(4, 3), [[0, 1, 3, 4]], True)}, ["x0", "x1"]))
    names.append(case("sequence_concat_3", one("sequence_concat", {"X": ["x0", "x1", "x2"]}),
                      {"x0": (rand(3, 2, 2), [[0, 3, 3]], True),
                       "x1": (rand(2, 2, 2), [[0, 0, 2]], True),
                       "x2": (rand(4, 2, 2), [[0, 1, 4]], True)}, ["x0", "x1", "x2"]))

    # sequence_conv: zero and trainable padding, starts before / at / after the row
    for cl, cs, tr in [(3, -1, False), (4, -2, False), (3, -1, True), (5, -3, True),
                       (2, 1, True), (4, 0, True), (1, 0, False)]:
        up, down = max(0, -cs), max(0, cs + cl - 1)
        vals = {"x": (rand(9, 3), [[0, 3, 3, 4, 9]], True), "f": (rand(cl * 3, 4), None, True)}
        ins = {"X": ["x"], "Filter": ["f"]}
        if tr:
            vals["pad"] = (rand(up + down, 3), None, True)
            ins["PaddingData"] = ["pad"]
        names.append(case("sequence_conv_%d_%d_%s" % (cl, cs, "tr" if tr else "zero"),
                          one("sequence_conv", ins,
                              {"contextLength": cl, "contextStart": cs, "contextStride": 1,
                               "paddingTrainable": tr}),
                          vals, [k for k in vals]))
    # trainable padding that the forward never reads is still there: X without a window past
    # the sequences' ends (all long sequences), X's grad only
    names.append(case("sequence_conv_x_only",
                      one("sequence_conv", {"X": ["x"], "Filter": ["f"]},
                          {"contextLength": 3, "contextStart": -1, "contextStride": 1,
                           "paddingTrainable": False}),
                      {"x": (rand(5, 2), [[0, 2, 5]], True), "f": (rand(6, 3), None, False)},
                      ["x"]))

    # sequence_expand_as: X rows repeated by Y's sequence lengths (one of them 0)
    names.append(case("sequence_expand_as", one("sequence_expand_as", {"X": ["x"], "Y": ["y"]}),
                      {"x": (rand(4, 3), None, True),
                       "y": (rand(7, 1), [[0, 2, 2, 6, 7]], False)}, ["x"]))
    names.append(case("sequence_expand_as_3d", one("sequence_expand_as", {"X": ["x"], "Y": ["y"]}),
                      {"x": (rand(3, 2, 2), [[0, 1, 2, 3]], True),
                       "y": (rand(6, 1), [[0, 3, 4, 6]], False)}, ["x"]))

    # sequence_pad / sequence_unpad
    for pl in [-1, 5]:
        names.append(case("sequence_pad_%d" % pl if pl > 0 else "sequence_pad",
                          one("sequence_pad", {"X": ["x"], "PadValue": ["pv"]},
                              {"padded_length": pl}, extra_outs={"Length": ("len", "int64")}),
                          {"x": (rand(7, 2, 3), [[0, 3, 3, 4, 7]], True),
                           "pv": (rand(1), None, True)}, ["x"]))
    names.append(case("sequence_unpad",
                      one("sequence_unpad", {"X": ["x"], "Length": ["len"]}),
                      {"x": (rand(4, 5, 3), None, True),
                       "len": (np.array([2, 0, 5, 3], dtype="int64"), None, False)}, ["x"]))
    names.append(case("sequence_unpad_2d",
                      one("sequence_unpad", {"X": ["x"], "Length": ["len"]}),
                      {"x": (rand(3, 4), None, True),
                       "len": (np.array([4, 1, 3], dtype="int64"), None, False)}, ["x"]))

    # sequence_reshape: wider and narrower rows
    for nd, x in [(6, rand(8, 3)), (2, rand(6, 4))]:
        lod = [[0, 2, 2, 6, 8]] if nd == 6 else [[0, 1, 4, 6]]
        names.append(case("sequence_reshape_%d" % nd,
                          one("sequence_reshape", {"X": ["x"]}, {"new_dim": nd}),
                          {"x": (x, lod, True)}, ["x"]))

    # lod_reset: target_lod, append, Y's LoD, Y's values
    names.append(case("lod_reset_attr", one("lod_reset", {"X": ["x"]},
                                            {"target_lod": [0, 1, 4, 6], "append": False}),
                      {"x": (rand(6, 2), [[0, 3, 6]], True)}, ["x"]))
    names.append(case("lod_reset_append", one("lod_reset", {"X": ["x"]},
                                              {"target_lod": [0, 1, 2, 6], "append": True}),
                      {"x": (rand(6, 2), [[0, 3, 6]], True)}, ["x"]))
    names.append(case("lod_reset_y_lod", one("lod_reset", {"X": ["x"], "Y": ["y"]}),
                      {"x": (rand(6, 2), None, True), "y": (rand(6, 1), [[0, 2, 6]], False)},
                      ["x"]))
    names.append(case("lod_reset_y_data", one("lod_reset", {"X": ["x"], "Y": ["y"]}),
                      {"x": (rand(5, 2), [[0, 5]], True),
                       "y": (np.array([0, 2, 5], dtype="int32"), None, False)}, ["x"]))

    # shrink_rnn_memory: the memory of the sequences still running at step i
    def shrink(i_val):
        def build(block, feeds):
            rank = rank_var(block, "rank")
            raw(block, "lod_rank_table", {"X": [feeds["seq"]]}, {"Out": [rank]}, {"level": 0})
            i = paddle.full([1], i_val, "int64")
            out = tvar(block, "out")
            raw(block, "shrink_rnn_memory", {"X": [feeds["x"]], "I": [i], "RankTable": [rank]},
                {"Out": [out]})
            return out
        return build
    for i_val in [0, 1, 2, 3]:
        names.append(case("shrink_rnn_memory_%d" % i_val, shrink(i_val),
                          {"seq": (rand(8, 1), [[0, 3, 4, 4, 8]], False),
                           "x": (rand(4, 3), None, True)}, ["x"]))

    # reorder_lod_tensor_by_rank: rows (X without LoD) and sequences (X with LoD)
    def reorder(block, feeds):
        rank = rank_var(block, "rank")
        raw(block, "lod_rank_table", {"X": [feeds["seq"]]}, {"Out": [rank]}, {"level": 0})
        out = tvar(block, "out")
        raw(block, "reorder_lod_tensor_by_rank", {"X": [feeds["x"]], "RankTable": [rank]},
            {"Out": [out]})
        return out
    names.append(case("reorder_by_rank_rows", reorder,
                      {"seq": (rand(8, 1), [[0, 1, 4, 4, 8]], False),
                       "x": (rand(4, 3), None, True)}, ["x"]))
    names.append(case("reorder_by_rank_lod", reorder,
                      {"seq": (rand(8, 1), [[0, 1, 4, 4, 8]], False),
                       "x": (rand(7, 2), [[0, 2, 3, 4, 7]], True)}, ["x"]))

    # tensor_array_to_tensor over an array written from feeds (write_to_array's grad is
    # read_from_array), concat and stack, along axis 0 and 1
    def ta2t(axis, stack, n):
        def build(block, feeds):
            arr = array_var(block, "arr")
            for k in range(n):
                i = paddle.full([1], k, "int64")
                raw(block, "write_to_array", {"X": [feeds["x%d" % k]], "I": [i]}, {"Out": [arr]})
            out = tvar(block, "out")
            idx = tvar(block, "out_index", "int32")
            raw(block, "tensor_array_to_tensor", {"X": [arr]}, {"Out": [out], "OutIndex": [idx]},
                {"axis": axis, "use_stack": stack})
            return out
        return build
    for axis, stack in [(0, False), (1, False), (0, True), (1, True)]:
        vals = {"x0": (rand(2, 3), None, True), "x1": (rand(2 if stack or axis else 4, 3)
                                                      if stack or axis == 0 else rand(2, 2),
                                                      None, True),
                "x2": (rand(2, 3), None, True)}
        if not stack and axis == 1:
            vals["x1"] = (rand(2, 5), None, True)
        if not stack and axis == 0:
            vals["x1"] = (rand(4, 3), None, True)
        names.append(case("tensor_array_to_tensor_%s_%d" % ("stack" if stack else "concat",
                                                            axis if axis >= 0 else 9),
                          ta2t(axis, stack, 3), vals, ["x0", "x1", "x2"]))

    # lod_tensor_to_array then array_to_lod_tensor (each one's grad is the other), with a
    # linear op between so that the array gradient is not a pass-through
    def split_join(level):
        def build(block, feeds):
            rank = rank_var(block, "rank")
            raw(block, "lod_rank_table", {"X": [feeds["x"]]}, {"Out": [rank]}, {"level": level})
            arr = array_var(block, "arr")
            raw(block, "lod_tensor_to_array", {"X": [feeds["x"]], "RankTable": [rank]},
                {"Out": [arr]})
            out = tvar(block, "out")
            raw(block, "array_to_lod_tensor", {"X": [arr], "RankTable": [rank]}, {"Out": [out]})
            return out
        return build
    names.append(case("lod_array_roundtrip", split_join(0),
                      {"x": (rand(8, 3), [[0, 3, 4, 4, 8]], True)}, ["x"]))
    names.append(case("lod_array_roundtrip_2level", split_join(0),
                      {"x": (rand(7, 2), [[0, 2, 4], [0, 1, 3, 4, 7]], True)}, ["x"]))

    # read_from_array after write_to_array: each read's gradient is a write_to_array into
    # the array's gradient, each write's a read_from_array of it with X_W (the written
    # tensor). Only element 0 is read, so the gradient array has one element and the read
    # for xb (element 1) is past its end: Paddle gives zeros shaped like X_W, with its LoD.
    # (Two reads sum two gradient arrays with a sum op over LoDTensorArrays: see
    # array_read_thrice.)
    def write_read(block, feeds):
        arr = array_var(block, "arr")
        for k, n in enumerate(["xa", "xb"]):
            i = paddle.full([1], k, "int64")
            raw(block, "write_to_array", {"X": [feeds[n]], "I": [i]}, {"Out": [arr]})
        i = paddle.full([1], 0, "int64")
        r = tvar(block, "r")
        raw(block, "read_from_array", {"X": [arr], "I": [i]}, {"Out": [r]})
        return paddle.scale(r, 3.0)
    names.append(case("write_read_array", write_read,
                      {"xa": (rand(3, 2), [[0, 1, 3]], True),
                       "xb": (rand(2, 2), [[0, 2]], True)}, ["xa", "xb"]))

    # select_output then select_input on one mask (cond's pattern, without the branches: an
    # op on the branch not taken fails in a plain block): the grads are each other
    def select(block, feeds):
        a, b = tvar(block, "branch0"), tvar(block, "branch1")
        raw(block, "select_output", {"X": [feeds["x"]], "Mask": [feeds["mask"]]},
            {"Out": [a, b]})
        out = tvar(block, "out")
        raw(block, "select_input", {"X": [a, b], "Mask": [feeds["mask"]]}, {"Out": [out]})
        return out
    for m in [0, 1]:
        names.append(case("select_%d" % m, select,
                          {"x": (rand(3, 2), None, True),
                           "mask": (np.array([m], dtype="int32"), None, False)}, ["x"]))

    # multi-level LoD where Paddle takes it: the gradients keep every level of X's LoD
    names.append(case("reorder_by_rank_2level", reorder,
                      {"seq": (rand(8, 1), [[0, 1, 4, 4, 8]], False),
                       "x": (rand(9, 2), [[0, 1, 3, 4, 6], [0, 2, 3, 4, 5, 7, 9]], True)},
                      ["x"]))
    names.append(case("shrink_rnn_memory_lod", shrink(1),
                      {"seq": (rand(8, 1), [[0, 3, 4, 4, 8]], False),
                       "x": (rand(6, 3), [[0, 2, 3, 5, 6]], True)}, ["x"]))
    names.append(case("sequence_expand_as_xlod2",
                      one("sequence_expand_as", {"X": ["x"], "Y": ["y"]}),
                      {"x": (rand(3, 2), [[0, 1, 3], [0, 1, 2, 3]], True),
                       "y": (rand(6, 1), [[0, 3, 3, 6]], False)}, ["x"]))
    names.append(case("lod_reset_2level", one("lod_reset", {"X": ["x"]},
                                              {"target_lod": [0, 2, 6], "append": False}),
                      {"x": (rand(6, 2), [[0, 1, 3], [0, 1, 3, 6]], True)}, ["x"]))

    # an array read three times (elements 0 and 1, then 0 again), each read times a fixed
    # weight: each read's gradient is a write_to_array into its own gradient array (lengths
    # 1, 2 and 1, element 0 of the second never written), and the backward sums the three
    # with `sum` over LoDTensorArrays before the writes' read_from_array; xc (element 2,
    # never read) is past the sum's end, so its gradient is zeros with its LoD. (xa and xb
    # share a LoD: Paddle's elementwise grads give X@GRAD Out@GRAD's LoD and Y@GRAD Y's,
    # icore's give X@GRAD X's and Y@GRAD none, so the reads are the X side of their products
    # and Out@GRAD's LoD, add_n's X[0]'s, is theirs.)
    def read_thrice(block, feeds):
        arr = array_var(block, "arr")
        for k, n in enumerate(["xa", "xb", "xc"]):
            i = paddle.full([1], k, "int64")
            raw(block, "write_to_array", {"X": [feeds[n]], "I": [i]}, {"Out": [arr]})
        prods = []
        for k, j in enumerate([0, 1, 0]):
            i = paddle.full([1], j, "int64")
            r = tvar(block, "r%d" % k)
            raw(block, "read_from_array", {"X": [arr], "I": [i]}, {"Out": [r]})
            prods.append(paddle.multiply(r, feeds["w%d" % k]))
        return paddle.add_n(prods)
    names.append(case("array_read_thrice", read_thrice,
                      {"xa": (rand(3, 2), [[0, 1, 3]], True),
                       "xb": (rand(3, 2), [[0, 1, 3]], True),
                       "xc": (rand(3, 2), [[0, 2, 3]], True),
                       "w0": (rand(3, 2), None, False),
                       "w1": (rand(3, 2), None, False),
                       "w2": (rand(3, 2), None, False)}, ["xa", "xb", "xc"]))

    # (helper M) row_conv over LoD sequences (one shorter than the context, one empty is
    # refused by Paddle's kernel), sequence_slice (a zero-length slice, slices at both ends)
    # and sequence_reverse, whose gradient is another sequence_reverse
    names.append(case("m_row_conv_lod", one("row_conv", {"X": ["x"], "Filter": ["f"]}),
                      {"x": (rand(8, 3), [[0, 2, 7, 8]], True), "f": (rand(3, 3), None, True)},
                      ["x", "f"]))
    names.append(case("m_sequence_slice",
                      one("sequence_slice", {"X": ["x"], "Offset": ["off"], "Length": ["len"]}),
                      {"x": (rand(9, 2, 2), [[0, 3, 4, 9]], True),
                       "off": (np.array([[1], [0], [0]], dtype="int64"), None, False),
                       "len": (np.array([[2], [0], [5]], dtype="int64"), None, False)}, ["x"]))
    names.append(case("m_sequence_reverse",
                      one("sequence_reverse", {"X": ["x"]}, out_slot="Y"),
                      {"x": (rand(7, 3), [[0, 3, 3, 4, 7]], True)}, ["x"]))
    # (helper M) data_norm in a whole program: data_norm_grad also lists the statistics
    # themselves as outputs (left untouched); their @GRAD are this batch's statistics
    def data_norm(block, feeds):
        y, m, sc = tvar(block, "out"), tvar(block, "means"), tvar(block, "scales")
        raw(block, "data_norm", {"X": [feeds["x"]], "BatchSize": [feeds["bsize"]],
                                 "BatchSum": [feeds["bsum"]],
                                 "BatchSquareSum": [feeds["bsq"]],
                                 "scale_w": [feeds["w"]], "bias": [feeds["b"]]},
            {"Y": [y], "Means": [m], "Scales": [sc]},
            {"epsilon": 1e-4, "slot_dim": 2, "enable_scale_and_shift": True,
             "summary_decay_rate": 0.9999999, "sync_stats": False, "data_layout": "NCHW"})
        return y
    xdn = rand(5, 4)
    xdn[[0, 2], 0] = 0.0
    xdn[[1, 3], 2] = 0.0
    names.append(case("m_data_norm", data_norm,
                      {"x": (xdn, [[0, 2, 5]], True),
                       "bsize": (rand(4, lo=90, hi=110), None, True),
                       "bsum": (rand(4, lo=-10, hi=10), None, True),
                       "bsq": (rand(4, lo=80, hi=120), None, True),
                       "w": (rand(4, lo=0.5, hi=1.5), None, True),
                       "b": (rand(4), None, True)},
                      ["x", "bsize", "bsum", "bsq", "w", "b"]))
    # (helper M) deformable_psroi_pooling: Input and Trans gradients, ROIs split by their LoD
    # (boxes partly outside the map, a degenerate one); classes in Trans; no_trans; a part
    # grid wider than high, where Paddle's grad kernel takes the bin's part column with
    # part_height (the forward with part_width)
    for name, attrs, c_in, n_cls, part in [
            ("m_dpsroi_trans", dict(no_trans=False, spatial_scale=0.5, output_dim=2,
                                    group_size=[2, 2], pooled_height=2, pooled_width=2,
                                    part_size=[2, 2], sample_per_part=2, trans_std=0.1),
             8, 2, (2, 2)),
            ("m_dpsroi_no_trans", dict(no_trans=True, spatial_scale=1.0, output_dim=3,
                                       group_size=[1, 1], pooled_height=3, pooled_width=2,
                                       part_size=[3, 2], sample_per_part=3, trans_std=0.1),
             4, 1, (3, 2)),
            ("m_dpsroi_part_wide", dict(no_trans=False, spatial_scale=0.5, output_dim=2,
                                        group_size=[1, 2], pooled_height=3, pooled_width=3,
                                        part_size=[2, 3], sample_per_part=2, trans_std=0.2),
             4, 1, (2, 3))]:
        rois = np.array([[1.2, 0.6, 9.7, 8.4], [-3.0, 2.0, 6.0, 15.0], [4.0, 4.0, 4.0, 4.0]],
                        F32)
        names.append(case(name, one("deformable_psroi_pooling",
                                    {"Input": ["x"], "ROIs": ["rois"], "Trans": ["trans"]},
                                    attrs, out_slot="Output",
                                    extra_outs={"TopCount": ("top_count", F32)}),
                          {"x": (rand(2, c_in, 6, 7), None, True),
                           "rois": (rois, [[0, 2, 3]], False),
                           "trans": (rand(3, 2 * n_cls, *part), None, not attrs["no_trans"])},
                          ["x"] + ([] if attrs["no_trans"] else ["trans"])))
    # (helper M) roi_pool and psroi_pool with ROIs split into images by their LoD (no
    # RoisNum): X's gradient
    rois = np.array([[0.4, 1.2, 5.6, 4.4], [2.0, 2.0, 2.0, 2.0], [1.5, 0.2, 9.6, 7.7],
                     [-2.0, -1.0, 3.4, 2.5]], F32)
    names.append(case("m_roi_pool_lod",
                      one("roi_pool", {"X": ["x"], "ROIs": ["rois"]},
                          {"pooled_height": 2, "pooled_width": 3, "spatial_scale": 0.5},
                          extra_outs={"Argmax": ("argmax", "int64")}),
                      {"x": (rand(2, 3, 6, 7), None, True), "rois": (rois, [[0, 1, 4]], False)},
                      ["x"]))
    names.append(case("m_psroi_pool_lod",
                      one("psroi_pool", {"X": ["x"], "ROIs": ["rois"]},
                          {"pooled_height": 2, "pooled_width": 2, "output_channels": 2,
                           "spatial_scale": 1.0}),
                      {"x": (rand(2, 8, 5, 6), None, True), "rois": (rois, [[0, 3, 4]], False)},
                      ["x"]))

    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    sys.exit(main())
