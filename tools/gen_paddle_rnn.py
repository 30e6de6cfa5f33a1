#!/usr/bin/env python3
"""Generate tests/data/paddle_rnn/: a static-graph paddle.nn.LSTM exported by Paddle itself,
its weights as raw float32 files, and Paddle's outputs for a fixed input, so that
tests/test_ops_rnn.c can check icore's rnn kernel against Paddle (not against our own
reading of Paddle's source).

Run with the Paddle oracle environment (icore never depends on Paddle):
    FLAGS_enable_pir_api=0 /tmp/pdenv/bin/python tools/gen_paddle_rnn.py [OUT_DIR [MODE]]
MODE is lstm (the default, tests/data/paddle_rnn), gru (paddle.nn.GRU,
tests/data/paddle_rnn_gru) or tanh (paddle.nn.SimpleRNN, tests/data/paddle_rnn_tanh); gru and
tanh have no c0 feed and no last_c fetch.

The model: 2 layers, bidirectional, input_size 3, hidden_size 5, time-major input
[seq_len 5, batch 3, 3] plus sequence lengths [5, 1, 3] (a full-length, a length-1 and a
middle sequence) and non-zero initial states h0, c0 [4, 3, 5]. The initial states are fed
because Paddle 3 would otherwise build zeros with shape/slice/fill_constant ops, and time_major
avoids transpose2 ops: the saved program is feed, rnn and fetch ops only. Outputs written (all
little-endian):
    inference.pdmodel / inference.pdiparams   save_inference_model's program and parameters
    x.f32, seq_len.i64, h0.f32, c0.f32        the feeds
    out.f32, last_h.f32, last_c.f32           Paddle's fetches
    <param name>.f32                          every parameter of the saved program, raw
    manifest.txt                              one line per file: role name dtype dims...
"""
import os
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

T, B, IN, H, LAYERS = 5, 3, 3, 5, 2
SEQ_LEN = [5, 1, 3]


def main():
    mode = sys.argv[2] if len(sys.argv) > 2 else "lstm"
    sub = {"lstm": "paddle_rnn", "gru": "paddle_rnn_gru", "tanh": "paddle_rnn_tanh"}[mode]
    out_dir = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "-" else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", sub)
    lstm_mode = mode == "lstm"
    os.makedirs(out_dir, exist_ok=True)
    paddle.enable_static()
    paddle.seed(2024)
    np.random.seed(2024)
    main_prog, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_prog, startup):
        x = paddle.static.data("x", [-1, -1, IN], "float32")
        seq = paddle.static.data("seq_len", [-1], "int64")
        h0 = paddle.static.data("h0", [LAYERS * 2, -1, H], "float32")
        if lstm_mode:
            c0 = paddle.static.data("c0", [LAYERS * 2, -1, H], "float32")
            lstm = paddle.nn.LSTM(IN, H, num_layers=LAYERS, direction="bidirect", time_major=True)
            out, (last_h, last_c) = lstm(x, initial_states=(h0, c0), sequence_length=seq)
        else:
            cls = paddle.nn.GRU if mode == "gru" else paddle.nn.SimpleRNN
            net = cls(IN, H, num_layers=LAYERS, direction="bidirect", time_major=True)
            out, last_h = net(x, initial_states=h0, sequence_length=seq)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    # Replace Paddle's initial weights by deterministic values spread wider than its default
    # init, so the gates leave their linear region.
    scope = paddle.static.global_scope()
    rng = np.random.RandomState(7)
    params = sorted(p.name for p in main_prog.all_parameters())
    for name in params:
        t = scope.find_var(name).get_tensor()
        shape = np.array(t).shape
        t.set(rng.uniform(-0.6, 0.6, shape).astype(np.float32), paddle.CPUPlace())
    xv = rng.uniform(-1.5, 1.5, (T, B, IN)).astype(np.float32)
    sv = np.array(SEQ_LEN, dtype=np.int64)
    h0v = rng.uniform(-0.8, 0.8, (LAYERS * 2, B, H)).astype(np.float32)
    c0v = rng.uniform(-0.8, 0.8, (LAYERS * 2, B, H)).astype(np.float32)
    feeds = {"x": xv, "seq_len": sv, "h0": h0v, "c0": c0v}
    prefix = os.path.join(out_dir, "inference")
    if lstm_mode:
        feed_vars, fetch_vars = [x, seq, h0, c0], [out, last_h, last_c]
    else:
        feed_vars, fetch_vars = [x, seq, h0], [out, last_h]
    paddle.static.save_inference_model(prefix, feed_vars, fetch_vars, exe, program=main_prog)
    # Python call stacks (with this machine's paths) would make up most of the program bytes.
    with open(prefix + ".pdmodel", "rb") as f:
        saved_prog = paddle.static.Program.parse_from_string(f.read())
    for block in saved_prog.blocks:
        for op in block.ops:
            if op.desc.has_attr("op_callstack"):
                op.desc.remove_attr("op_callstack")
    with open(prefix + ".pdmodel", "wb") as f:
        f.write(saved_prog.desc.serialize_to_string())
    # Paddle's outputs come from the saved inference program (is_test set, pruned), run by
    # Paddle on the parameters it saved.
    inf_prog, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
    got = exe.run(inf_prog, feed={n: feeds[n] for n in feed_names}, fetch_list=fetch_targets)
    saved = sorted(v.name for v in inf_prog.list_vars()
                   if v.persistable and v.name not in ("feed", "fetch"))
    lines = []

    def dump(role, name, arr, suffix):
        arr = np.ascontiguousarray(arr)
        fname = name + suffix
        arr.tofile(os.path.join(out_dir, fname))
        lines.append(" ".join([role, name, fname, str(arr.dtype)] + [str(d) for d in arr.shape]))

    dump("feed", "x", xv, ".f32")
    dump("feed", "seq_len", sv, ".i64")
    dump("feed", "h0", h0v, ".f32")
    if lstm_mode:
        dump("feed", "c0", c0v, ".f32")
    for role, arr in zip(["out", "last_h", "last_c"], got):
        dump("fetch", role, np.asarray(arr, dtype=np.float32), ".f32")
    for name in saved:
        dump("param", name, np.array(scope.find_var(name).get_tensor()), ".f32")
    with open(os.path.join(out_dir, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("ops in the saved program:", [op.type for op in inf_prog.global_block().ops])
    print("feeds:", feed_names, "fetches:", [t.name for t in fetch_targets])


if __name__ == "__main__":
    main()
