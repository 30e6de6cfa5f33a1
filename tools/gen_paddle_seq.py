#!/usr/bin/env python3
"""Generate tests/data/paddle_seq/<case>/: one-op programs over LoD tensors (fluid's sequence
ops, gru, lstm, crf_decoding, lookup_table), exported by Paddle 3.3.1's legacy static graph
and run by Paddle itself on fixed LoD inputs, so that tests/test_paddle_seq.c checks icore's
kernels against Paddle rather than against our reading of its source.

Each case's op is added with Block.append_op (the paddle.static.nn.sequence_* wrappers cover
only some ops and attributes); every input is a feed (lod_level 1 or 2), so there are no
parameters. Files per case:
    inference.pdmodel   save_inference_model's program (feed, the op, fetch)
    in_<k>.npy          feed k;  out_<k>.npy  Paddle's fetch k
    case.txt            lines "feed NAME in_k.npy", "fetch NAME out_k.npy" and, per LoD
                        level, "lod NAME o0 o1 ..." (feeds) / "outlod NAME o0 ..." (fetches)

Run with the Paddle oracle environment (icore never depends on Paddle), optionally naming the
cases to write (the random inputs of every case are drawn either way):
    FLAGS_enable_pir_api=0 /work/pdenv/bin/python tools/gen_paddle_seq.py [CASE...]
"""
import os
import shutil
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.base import core  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "data", "paddle_seq")
RNG = np.random.RandomState(1234)


def rand(*shape, lo=-1.0, hi=1.0, dtype="float32"):
    return RNG.uniform(lo, hi, shape).astype(dtype)


ONLY = set(sys.argv[1:])  # case names to write (default: all); the others are left as they are


def case(name, op_type, inputs, outputs, attrs, fetch_slots=None):
    """inputs: {slot: [(var_name, array, lod or None)]}; outputs: {slot: [(var_name, dtype)]};
    fetch_slots: output slots fetched (default: all)."""
    if ONLY and name not in ONLY:
        return name
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    feeds, feed_vars, lods = {}, [], {}
    with paddle.static.program_guard(main, startup):
        block = main.global_block()
        in_map = {}
        for slot, items in inputs.items():
            vs = []
            for vname, arr, lod in items:
                shape = [-1] + list(arr.shape[1:]) if lod else list(arr.shape)
                v = paddle.static.data(vname, shape, str(arr.dtype),
                                       lod_level=len(lod) if lod else 0)
                feeds[vname] = arr
                if lod:
                    lods[vname] = lod
                feed_vars.append(v)
                vs.append(v)
            in_map[slot] = vs
        out_map, fetch_vars = {}, []
        for slot, items in outputs.items():
            vs = [block.create_var(name=vname, dtype=dt) for vname, dt in items]
            out_map[slot] = vs
            if fetch_slots is None or slot in fetch_slots:
                fetch_vars.extend(vs)
        block.append_op(type=op_type, inputs=in_map, outputs=out_map, attrs=attrs)
    exe = paddle.static.Executor(paddle.CPUPlace())
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    prefix = os.path.join(d, "inference")
    paddle.static.save_inference_model(prefix, feed_vars, fetch_vars, exe, program=main)
    if os.path.exists(prefix + ".pdiparams"):
        os.remove(prefix + ".pdiparams")
    with open(prefix + ".pdmodel", "rb") as f:
        prog = paddle.static.Program.parse_from_string(f.read())
    for b in prog.blocks:
        for op in b.ops:
            if op.desc.has_attr("op_callstack"):
                op.desc.remove_attr("op_callstack")
            # the pruner drops unfetched outputs; Paddle's own gru then crashes, and exported
            # programs keep them: put them back
            if op.type == op_type:
                for slot, items in outputs.items():
                    if slot not in op.output_names or not op.output(slot):
                        op.desc.set_output(slot, [vname for vname, _ in items])
    with open(prefix + ".pdmodel", "wb") as f:
        f.write(prog.desc.serialize_to_string())
    inf, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
    feed = {}
    for n in feed_names:
        t = core.LoDTensor()
        t.set(feeds[n], paddle.CPUPlace())
        if n in lods:
            t.set_lod(lods[n])
        feed[n] = t
    got = exe.run(inf, feed=feed, fetch_list=fetch_targets, return_numpy=False)
    lines = []
    for k, n in enumerate(feed_names):
        np.save(os.path.join(d, "in_%d.npy" % k), feeds[n])
        lines.append("feed %s in_%d.npy" % (n, k))
        for level in lods.get(n, []):
            lines.append("lod %s %s" % (n, " ".join(map(str, level))))
    for k, (v, t) in enumerate(zip(fetch_targets, got)):
        np.save(os.path.join(d, "out_%d.npy" % k), np.array(t))
        lines.append("fetch %s out_%d.npy" % (v.name, k))
        for level in t.lod():
            lines.append("outlod %s %s" % (v.name, " ".join(map(str, level))))
    with open(os.path.join(d, "case.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(name, [np.array(t).shape for t in got], [t.lod() for t in got])
    return name


def main():
    names = []
    lod = [[0, 3, 4, 9]]
    # lookup_table v1 with LoD and padding_idx
    ids = RNG.randint(0, 10, (9, 1)).astype("int64")
    ids[2, 0] = 4
    names.append(case("lookup_table_pad", "lookup_table",
                      {"Ids": [("ids", ids, lod)], "W": [("w", rand(10, 5), None)]},
                      {"Out": [("out", "float32")]}, {"padding_idx": 4, "is_sparse": True}))
    # sequence_conv: context windows, zero and trainable padding
    for cl, cs, tr in [(3, -1, False), (4, -2, False), (3, -1, True), (5, -3, True),
                       (2, 1, True), (4, 0, True), (6, -2, True)]:
        up, down = max(0, -cs), max(0, cs + cl - 1)
        ins = {"X": [("x", rand(9, 3), lod)], "Filter": [("f", rand(cl * 3, 4), None)]}
        if tr:
            ins["PaddingData"] = [("pad", rand(up + down, 3), None)]
        names.append(case("sequence_conv_%d_%d_%s" % (cl, cs, "tr" if tr else "zero"),
                          "sequence_conv", ins, {"Out": [("out", "float32")]},
                          {"contextLength": cl, "contextStart": cs, "contextStride": 1,
                           "paddingTrainable": tr}))
    # sequence_pool: every pool type, an empty sequence, two LoD levels
    for pt in ["AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST"]:
        names.append(case("sequence_pool_%s" % pt.lower(), "sequence_pool",
                          {"X": [("x", rand(9, 2, 3), [[0, 3, 3, 4, 9]])]},
                          {"Out": [("out", "float32")], "MaxIndex": [("mi", "int32")]},
                          {"pooltype": pt, "pad_value": 0.25, "is_test": True},
                          fetch_slots=["Out", "MaxIndex"] if pt == "MAX" else ["Out"]))
    names.append(case("sequence_pool_2level", "sequence_pool",
                      {"X": [("x", rand(9, 4), [[0, 2, 3], [0, 3, 4, 9]])]},
                      {"Out": [("out", "float32")], "MaxIndex": [("mi", "int32")]},
                      {"pooltype": "SUM", "pad_value": 0.0, "is_test": True}, ["Out"]))
    # gru: gate layouts, directions, origin_mode, activations, H0 and Bias
    D = 4
    for tag, rev, orig, act, gact, h0, bias in [
            ("plain", False, False, "tanh", "sigmoid", False, True),
            ("reverse", True, False, "tanh", "sigmoid", True, True),
            ("origin", False, True, "tanh", "sigmoid", True, False),
            ("relu_tanh", True, True, "relu", "tanh", False, True),
            ("identity", False, False, "identity", "sigmoid", True, True)]:
        ins = {"Input": [("x", rand(9, 3 * D, lo=-2, hi=2), lod)],
               "Weight": [("w", rand(D, 3 * D), None)]}
        if h0:
            ins["H0"] = [("h0", rand(3, D), None)]
        if bias:
            ins["Bias"] = [("b", rand(1, 3 * D), None)]
        names.append(case("gru_" + tag, "gru", ins,
                          {"Hidden": [("hidden", "float32")],
                           "BatchGate": [("bg", "float32")],
                           "BatchResetHiddenPrev": [("br", "float32")],
                           "BatchHidden": [("bh", "float32")]},
                          {"is_reverse": rev, "origin_mode": orig, "activation": act,
                           "gate_activation": gact}, ["Hidden"]))
    # crf_decoding: LoD, LoD with Label, padded with Length
    tags = 5
    em = rand(9, tags, lo=-2, hi=2)
    trans = rand(tags + 2, tags, lo=-1, hi=1)
    names.append(case("crf_decoding_lod", "crf_decoding",
                      {"Emission": [("em", em, lod)], "Transition": [("tr", trans, None)]},
                      {"ViterbiPath": [("path", "int64")]}, {}))
    label = RNG.randint(0, tags, (9, 1)).astype("int64")
    names.append(case("crf_decoding_label", "crf_decoding",
                      {"Emission": [("em", em, lod)], "Transition": [("tr", trans, None)],
                       "Label": [("label", label, lod)]},
                      {"ViterbiPath": [("path", "int64")]}, {}))
    names.append(case("crf_decoding_padded", "crf_decoding",
                      {"Emission": [("em", rand(3, 5, tags, lo=-2, hi=2), None)],
                       "Transition": [("tr", trans, None)],
                       "Length": [("len", np.array([5, 2, 0], dtype="int64"), None)]},
                      {"ViterbiPath": [("path", "int64")]}, {}))
    # lstm: peepholes or not, directions, activations, H0/C0
    for tag, peep, rev, acts, h0, c0 in [
            ("peep", True, False, ("sigmoid", "tanh", "tanh"), False, False),
            ("nopeep_reverse", False, True, ("sigmoid", "tanh", "tanh"), True, True),
            ("peep_states", True, True, ("sigmoid", "relu", "identity"), True, True),
            ("tanh_gates", False, False, ("tanh", "sigmoid", "tanh"), False, True)]:
        ins = {"Input": [("x", rand(9, 4 * D, lo=-2, hi=2), lod)],
               "Weight": [("w", rand(D, 4 * D), None)],
               "Bias": [("b", rand(1, (7 if peep else 4) * D), None)]}
        if h0:
            ins["H0"] = [("h0", rand(3, D), None)]
        if c0:
            ins["C0"] = [("c0", rand(3, D), None)]
        names.append(case("lstm_" + tag, "lstm", ins,
                          {"Hidden": [("hidden", "float32")], "Cell": [("cell", "float32")],
                           "BatchGate": [("bg", "float32")],
                           "BatchCellPreAct": [("bc", "float32")]},
                          {"use_peepholes": peep, "is_reverse": rev, "gate_activation": acts[0],
                           "cell_activation": acts[1], "candidate_activation": acts[2]},
                          ["Hidden", "Cell"]))
    # sequence_softmax, sequence_expand, sequence_mask, lod_reset
    names.append(case("sequence_softmax", "sequence_softmax",
                      {"X": [("x", rand(9, 1, lo=-3, hi=3), lod)]}, {"Out": [("out", "float32")]},
                      {}))
    names.append(case("sequence_expand_lod", "sequence_expand",
                      {"X": [("x", rand(4, 3), [[0, 2, 3, 4]])],
                       "Y": [("y", rand(6, 1), [[0, 2, 2, 6], [0, 1, 2, 3, 4, 5, 6]])]},
                      {"Out": [("out", "float32")]}, {"ref_level": 0}))
    names.append(case("sequence_expand_rows", "sequence_expand",
                      {"X": [("x", rand(3, 2), None)],
                       "Y": [("y", rand(5, 1), [[0, 1, 4, 5]])]},
                      {"Out": [("out", "float32")]}, {"ref_level": -1}))
    names.append(case("sequence_mask", "sequence_mask",
                      {"X": [("len", np.array([[3, 0], [5, 1]], dtype="int64"), None)]},
                      {"Y": [("mask", "float32")]}, {"maxlen": 6, "out_dtype": 5}))
    names.append(case("sequence_mask_auto", "sequence_mask",
                      {"X": [("len", np.array([2, 4, 1], dtype="int32"), None)]},
                      {"Y": [("mask", "int64")]}, {"maxlen": -1, "out_dtype": 3}))
    names.append(case("lod_reset_attr", "lod_reset",
                      {"X": [("x", rand(6, 2), [[0, 3, 6]])]}, {"Out": [("out", "float32")]},
                      {"target_lod": [0, 1, 4, 6], "append": False}))
    names.append(case("lod_reset_append", "lod_reset",
                      {"X": [("x", rand(6, 2), [[0, 3, 6]])]}, {"Out": [("out", "float32")]},
                      {"target_lod": [0, 1, 2, 6], "append": True}))
    names.append(case("lod_reset_y_lod", "lod_reset",
                      {"X": [("x", rand(6, 2), None)],
                       "Y": [("y", rand(6, 1), [[0, 2, 6]])]},
                      {"Out": [("out", "float32")]}, {}))
    names.append(case("lod_reset_y_data", "lod_reset",
                      {"X": [("x", rand(5, 2), None)],
                       "Y": [("y", np.array([0, 2, 5], dtype="int32"), None)]},
                      {"Out": [("out", "float32")]}, {}))
    # chunk_eval: IOB over LoD with an empty sequence, IOBES padded with SeqLength and an
    # excluded type, IOE, plain; predictions are the labels with some positions changed
    chunk_outs = {"Precision": [("p", "float32")], "Recall": [("r", "float32")],
                  "F1-Score": [("f1", "float32")], "NumInferChunks": [("ni", "int64")],
                  "NumLabelChunks": [("nl", "int64")], "NumCorrectChunks": [("nc", "int64")]}
    for tag, scheme, types, ntag, padded, excl in [
            ("iob_lod", "IOB", 3, 2, False, []), ("iobes_padded", "IOBES", 2, 4, True, [1]),
            ("ioe_lod", "IOE", 2, 2, False, []), ("plain_lod", "plain", 4, 1, False, [0])]:
        top = types * ntag
        shape = (3, 8) if padded else (14, 1)
        label = RNG.randint(0, top + 1, shape).astype("int64")
        pred = label.copy()
        flip = RNG.uniform(0, 1, shape) < 0.3
        pred[flip] = RNG.randint(0, top + 1, shape)[flip]
        seq = [[0, 5, 5, 9, 14]]
        ins = {"Inference": [("pred", pred, None if padded else seq)],
               "Label": [("label", label, None if padded else seq)]}
        if padded:
            ins["SeqLength"] = [("len", np.array([8, 3, 5], dtype="int64"), None)]
        names.append(case("chunk_eval_" + tag, "chunk_eval", ins, chunk_outs,
                          {"num_chunk_types": types, "chunk_scheme": scheme,
                           "excluded_chunk_types": excl}))
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    sys.exit(main())
