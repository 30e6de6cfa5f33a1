#!/usr/bin/env python3
"""Write tests/data/paddle_rnn_grad/<case>/: fluid's LoD gru and lstm ops (as
fluid.layers.dynamic_gru / dynamic_lstm emitted them) with their backward, built and run by
PaddlePaddle 2.6.2 itself, for tests/test_rnn_grad.c (the layout of tools/gen_paddle_seq.py).

Each program feeds the op's inputs (Input with one LoD level: 3 sequences of lengths 3, 1 and
5; Weight, Bias, H0, C0 as plain feeds, stop_gradient false unless a case says so), computes
loss = sum(Hidden * K) with a fixed random K, and appends Paddle's backward
(paddle.static.append_backward): the gru_grad / lstm_grad op reads the forward's batch-ordered
intermediates (BatchGate, BatchResetHiddenPrev, BatchHidden / BatchGate, BatchCellPreAct,
Cell). Fetched: the forward's outputs, intermediates included (values and LoD, Paddle's batch
LoD of 3 levels), and the gradient of every input that has one.

    FLAGS_enable_pir_api=0 /work/pdenv26/bin/python tools/gen_paddle_rnn_grad.py

paddle.fluid is gone from Paddle 2.6.2, but its executor still runs both ops and their
gradients: the programs add them with Block.append_op. Files per case:
    inference.pdmodel   the whole program (feeds are variables, no feed/fetch ops), as
                        program.desc.serialize_to_string() wrote it, minus op_callstack
    in_<k>.npy / out_<k>.npy and case.txt as tools/gen_paddle_seq.py writes them
"""
import os
import shutil
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.base import core  # noqa: E402

from gen_paddle_train import strip_callstacks  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "data", "paddle_rnn_grad")
RNG = np.random.RandomState(4321)
LOD = [[0, 3, 4, 9]]  # lengths 3, 1, 5: Paddle's batch order is sequence 2, 0, 1


def rand(*shape, lo=-1.0, hi=1.0, dtype="float32"):
    return RNG.uniform(lo, hi, shape).astype(dtype)


def build_case(name, op_type, inputs, nograd, outputs, out_slot, attrs, dtype):
    """inputs: {slot: (var_name, array, lod or None)}; nograd: slots whose feed keeps
    stop_gradient; outputs: {slot: var_name}; out_slot: the output the loss reads."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    feeds, lods, fetch = {}, {}, []
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        block = main.global_block()
        in_map, grad_vars = {}, []
        for slot, (vname, arr, lod) in inputs.items():
            shape = [-1] + list(arr.shape[1:]) if lod else list(arr.shape)
            v = paddle.static.data(vname, shape, str(arr.dtype), lod_level=len(lod) if lod else 0)
            v.stop_gradient = slot in nograd
            if not v.stop_gradient:
                grad_vars.append(vname)
            feeds[vname] = arr
            if lod:
                lods[vname] = lod
            in_map[slot] = [v]
        out_map = {slot: [block.create_var(name=vname, dtype=dtype)]
                   for slot, vname in outputs.items()}
        block.append_op(type=op_type, inputs=in_map, outputs=out_map, attrs=attrs)
        hidden = out_map[out_slot][0]
        n = feeds[inputs["Input"][0]].shape[0]
        d = feeds[inputs["Weight"][0]].shape[0]
        k = paddle.static.data("k", [n, d], dtype)
        feeds["k"] = rand(n, d, dtype=dtype)
        loss = paddle.sum(paddle.multiply(hidden, k))
        paddle.static.append_backward(loss)
        fetch = [loss.name] + [outputs[s] for s in outputs] + [g + "@GRAD" for g in grad_vars]
    exe = paddle.static.Executor(paddle.CPUPlace())
    feed = {}
    for vn, arr in feeds.items():
        t = core.LoDTensor()
        t.set(arr, paddle.CPUPlace())
        if vn in lods:
            t.set_lod(lods[vn])
        feed[vn] = t
    got = exe.run(main, feed=feed, fetch_list=fetch, return_numpy=False)
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "inference.pdmodel"), "wb") as f:
        f.write(strip_callstacks(main.desc.serialize_to_string()))
    lines = ["# written by tools/gen_paddle_rnn_grad.py with PaddlePaddle " + paddle.__version__]
    for i, (vn, arr) in enumerate(feeds.items()):
        np.save(os.path.join(d, "in_%d.npy" % i), arr)
        lines.append("feed %s in_%d.npy" % (vn, i))
        for level in lods.get(vn, []):
            lines.append("lod %s %s" % (vn, " ".join(map(str, level))))
    for i, (vn, t) in enumerate(zip(fetch, got)):
        a = np.array(t)
        np.save(os.path.join(d, "out_%d.npy" % i), a.reshape(()) if vn == loss.name else a)
        lines.append("fetch %s out_%d.npy" % (vn, i))
        for level in t.lod():
            lines.append("outlod %s %s" % (vn, " ".join(map(str, level))))
    with open(os.path.join(d, "case.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    grad_ops = [op.type for op in main.global_block().ops if op.type.endswith("_grad")]
    print(name, grad_ops, [(vn, np.array(t).shape) for vn, t in zip(fetch, got)])
    return name


def gru_case(name, D=5, rev=False, orig=False, act="tanh", gact="sigmoid", h0=False,
             bias=True, nograd=(), dtype="float32"):
    ins = {"Input": ("x", rand(9, 3 * D, lo=-1.5, hi=1.5, dtype=dtype), LOD),
           "Weight": ("w", rand(D, 3 * D, dtype=dtype), None)}
    if h0:
        ins["H0"] = ("h0", rand(3, D, dtype=dtype), None)
    if bias:
        ins["Bias"] = ("b", rand(1, 3 * D, lo=-0.5, hi=0.5, dtype=dtype), None)
    outs = {"Hidden": "hidden", "BatchGate": "bg", "BatchResetHiddenPrev": "br",
            "BatchHidden": "bh"}
    return build_case(name, "gru", ins, nograd, outs, "Hidden",
                      {"is_reverse": rev, "origin_mode": orig, "activation": act,
                       "gate_activation": gact}, dtype)


def lstm_case(name, D=4, peep=True, rev=False, acts=("sigmoid", "tanh", "tanh"), h0=False,
              c0=False, nograd=(), dtype="float32"):
    ins = {"Input": ("x", rand(9, 4 * D, lo=-1.5, hi=1.5, dtype=dtype), LOD),
           "Weight": ("w", rand(D, 4 * D, dtype=dtype), None),
           "Bias": ("b", rand(1, (7 if peep else 4) * D, lo=-0.5, hi=0.5, dtype=dtype), None)}
    if h0:
        ins["H0"] = ("h0", rand(3, D, dtype=dtype), None)
    if c0:
        ins["C0"] = ("c0", rand(3, D, dtype=dtype), None)
    outs = {"Hidden": "hidden", "Cell": "cell", "BatchGate": "bg", "BatchCellPreAct": "bc"}
    return build_case(name, "lstm", ins, nograd, outs, "Hidden",
                      {"use_peepholes": peep, "is_reverse": rev, "gate_activation": acts[0],
                       "cell_activation": acts[1], "candidate_activation": acts[2]}, dtype)


def main():
    names = [
        gru_case("gru_plain"),
        gru_case("gru_origin_h0", orig=True, h0=True),
        gru_case("gru_reverse_h0", rev=True, h0=True),
        gru_case("gru_reverse_origin", rev=True, orig=True),
        # H0 without a gradient: Paddle then skips the first step's recurrent products
        # (reset-output gradient, Weight's gradient from that step)
        gru_case("gru_h0_nograd", h0=True, nograd=("H0",)),
        gru_case("gru_nobias_relu", bias=False, act="relu", gact="sigmoid", h0=True),
        gru_case("gru_identity_tanhgate", act="identity", gact="tanh", rev=True),
        gru_case("gru_d8", D=8, h0=True),
        gru_case("gru_f64", orig=True, h0=True, dtype="float64"),
        lstm_case("lstm_peep"),
        lstm_case("lstm_nopeep", peep=False),
        lstm_case("lstm_reverse_peep_h0c0", rev=True, h0=True, c0=True),
        lstm_case("lstm_reverse_nopeep_h0c0", peep=False, rev=True, h0=True, c0=True),
        lstm_case("lstm_c0_only", c0=True, rev=True),
        lstm_case("lstm_states_nograd", h0=True, c0=True, nograd=("H0", "C0")),
        lstm_case("lstm_acts", acts=("sigmoid", "relu", "identity"), h0=True, c0=True),
        lstm_case("lstm_tanh_gates", acts=("tanh", "sigmoid", "tanh"), peep=False, c0=True),
        lstm_case("lstm_f64", h0=True, c0=True, rev=True, dtype="float64"),
    ]
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
