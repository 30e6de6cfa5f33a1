#!/usr/bin/env python3
"""Write tests/data/train/: small training programs built by PaddlePaddle itself, with their
startup programs, the persistables right after startup, fixed input batches, Paddle's loss at
every step and Paddle's persistables after the last step, so that tests/test_train.c can check
that icore trains exactly as Paddle does.

    FLAGS_enable_pir_api=0 /work/pdenv/bin/python tools/gen_paddle_train.py [OUT_DIR] [CASE...]

Tested with PaddlePaddle 3.3.1 (CPU). Each case is a directory <case>/ holding
    main.pdmodel      the training program (forward, backward and optimizer ops) as
                      program.desc.serialize_to_string() wrote it, minus op_callstack
    startup.pdmodel   its startup program, likewise
    init.pdiparams    every persistable of the main program right after Paddle ran startup,
                      in Paddle's combined format (sorted by name, as save_combine writes)
    final.pdiparams   the same variables after STEPS steps of training with Paddle
    <feed>.npy        each feed, STEPS batches stacked along the first dimension
    loss.npy          Paddle's fetched loss at every step, float32[STEPS]
    case.txt          the manifest: 'steps N', 'batch B', 'feed NAME FILE', 'loss NAME',
                      'rtol X' (losses), 'ptol X' (final parameters), 'ops T1 T2 ...'
and cases.txt lists every case directory. The output is deterministic (fixed seeds).
"""
import os
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

STEPS = 20


def strip_callstacks(data):
    from paddle.base.proto import framework_pb2
    prog = framework_pb2.ProgramDesc.FromString(data)
    for block in prog.blocks:
        for op in block.ops:
            keep = [a for a in op.attrs if a.name != "op_callstack"]
            del op.attrs[:]
            op.attrs.extend(keep)
    return prog.SerializeToString()


def persistables(prog):
    out = [v for v in prog.list_vars() if v.persistable and v.name not in ("feed", "fetch")]
    return sorted(out, key=lambda v: v.name)


def case_seed():
    """The canonical example of Paddle's static-graph documentation: fc, mean, SGD."""
    data = paddle.static.data(name="X", shape=[None, 1], dtype="float32")
    hidden = paddle.static.nn.fc(data, 10)
    loss = paddle.mean(hidden)
    paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    rng = np.random.default_rng(1)
    feeds = {"X": rng.standard_normal((STEPS * 4, 1)).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_mlp():
    """Two fc layers with relu, softmax cross-entropy on hard labels, Adam."""
    x = paddle.static.data(name="x", shape=[None, 8], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    h = paddle.static.nn.fc(x, 16, activation="relu")
    logits = paddle.static.nn.fc(h, 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    rng = np.random.default_rng(2)
    feeds = {"x": rng.standard_normal((STEPS * 8, 8)).astype("float32"),
             "label": rng.integers(0, 3, (STEPS * 8, 1)).astype("int64")}
    return loss, feeds, 8, 1e-5, 1e-4


CASES = {"seed": case_seed, "mlp": case_mlp}


def save_vars(exe, prog, path):
    d, f = os.path.split(path)
    paddle.static.save_vars(exe, d, main_program=prog, vars=persistables(prog), filename=f)


def write_case(out_dir, name):
    paddle.enable_static()
    paddle.seed(1234)
    main, startup = paddle.static.Program(), paddle.static.Program()
    main.random_seed = startup.random_seed = 1234
    with paddle.static.program_guard(main, startup):
        loss, feeds, batch, rtol, ptol = CASES[name]()
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "main.pdmodel"), "wb") as f:
        f.write(strip_callstacks(main.desc.serialize_to_string()))
    with open(os.path.join(d, "startup.pdmodel"), "wb") as f:
        f.write(strip_callstacks(startup.desc.serialize_to_string()))
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        save_vars(exe, main, os.path.join(d, "init.pdiparams"))
        losses = []
        for s in range(STEPS):
            fd = {k: v[s * batch:(s + 1) * batch] for k, v in feeds.items()}
            out, = exe.run(main, feed=fd, fetch_list=[loss.name])
            losses.append(np.asarray(out, dtype="float32").reshape(()))
        save_vars(exe, main, os.path.join(d, "final.pdiparams"))
    np.save(os.path.join(d, "loss.npy"), np.stack(losses).astype("float32"))
    lines = ["# written by tools/gen_paddle_train.py with PaddlePaddle " + paddle.__version__,
             "steps %d" % STEPS, "batch %d" % batch]
    for k, v in feeds.items():
        np.save(os.path.join(d, k + ".npy"), v)
        lines.append("feed %s %s.npy" % (k, k))
    lines += ["loss %s" % loss.name, "rtol %g" % rtol, "ptol %g" % ptol,
              "ops " + " ".join(sorted({op.type for op in main.global_block().ops}))]
    with open(os.path.join(d, "case.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "tests", "data", "train")
    names = sys.argv[2:] or list(CASES)
    for n in names:
        write_case(out_dir, n)
    with open(os.path.join(out_dir, "cases.txt"), "w") as f:
        f.write("\n".join(CASES) + "\n")


if __name__ == "__main__":
    main()
