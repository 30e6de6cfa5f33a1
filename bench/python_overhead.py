#!/usr/bin/env python3
"""Per-call overhead of icore's Python package on the bundled MLP (build/example/mlp.pdmodel):
icore.Executor.run and the paddle.inference-shaped Predictor against the C API (`icore bench`,
compiled median, same program, same input, one thread), and paddle.inference itself from
Python when a Python with paddle is at hand (PEERS_PYTHON, else /work/pdenv/bin/python).

    build-py/venv/bin/python bench/python_overhead.py [BUILD_DIR] [--rounds N]

Every figure is the median over rounds of the mean of a batch of calls (1 thread), in CPU
time of the process (time.process_time: all its threads), which a loaded machine's preemption
does not inflate, and in wall time."""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

PADDLE_SCRIPT = r"""
import os, sys, time, statistics, json
os.environ.setdefault("FLAGS_enable_pir_api", "0")
import numpy as np
import paddle.inference as pi
model, params, xfile, rounds, batch = sys.argv[1:6]
cfg = pi.Config(model, params)
cfg.disable_gpu(); cfg.set_cpu_math_library_num_threads(1); cfg.disable_glog_info()
pred = pi.create_predictor(cfg)
x = np.load(xfile)
ih = pred.get_input_handle(pred.get_input_names()[0])
oh = pred.get_output_handle(pred.get_output_names()[0])
def call():
    ih.copy_from_cpu(x); pred.run(); return oh.copy_to_cpu()
for _ in range(200): call()
ts, cs = [], []
for _ in range(int(rounds)):
    t, c = time.perf_counter_ns(), time.process_time_ns()
    for _ in range(int(batch)): call()
    cs.append((time.process_time_ns() - c) / int(batch) / 1e3)
    ts.append((time.perf_counter_ns() - t) / int(batch) / 1e3)
print(json.dumps({"us": statistics.median(ts), "cpu_us": statistics.median(cs),
                  "out": call().tolist()}))
"""


def timeit(fn, rounds, batch):
    """(CPU us, wall us) per call of fn"""
    for _ in range(200):
        fn()
    ts, cs = [], []
    for _ in range(rounds):
        t, c = time.perf_counter_ns(), time.process_time_ns()
        for _ in range(batch):
            fn()
        cs.append((time.process_time_ns() - c) / batch / 1e3)
        ts.append((time.perf_counter_ns() - t) / batch / 1e3)
    return statistics.median(cs), statistics.median(ts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--batch", type=int, default=2000)
    a = ap.parse_args()
    import numpy as np
    import icore

    b = pathlib.Path(a.build)
    model, xfile = b / "example" / "mlp.pdmodel", b / "example" / "x.npy"
    x = np.load(xfile)

    with tempfile.TemporaryDirectory() as tmp:
        js = pathlib.Path(tmp) / "b.json"
        subprocess.run([str(b / "tools" / "icore"), "bench", str(model), "--feed", "x=%s" % xfile,
                        "--iters", "2000", "--warmup", "200", "--threads", "1", "--json", str(js)],
                       check=True, capture_output=True)
        c_us = json.loads(js.read_text())["compiled"]["median_ms"] * 1e3

    prog, params = icore.load_inference_model(model)
    exe = icore.Executor(threads=1)
    fetch = prog.fetch_target_names
    feed = {"x": x}
    want, = exe.run(prog, feed=feed, fetch_list=fetch, scope=params)
    # Rounds alternate between the C loop (ic_executor_run called from C in this process, the
    # feed made once, each fetch destroyed) and exe.run, so a noisy machine hits both alike.
    icore._icore._time_c_runs(exe, prog, params, "x", x, fetch[0], 2000)
    for _ in range(200):
        exe.run(prog, feed=feed, fetch_list=fetch, scope=params)
    c_cpu, c_wall, p_cpu, p_wall = [], [], [], []
    for _ in range(a.rounds):
        c = time.process_time_ns()
        c_wall.append(icore._icore._time_c_runs(exe, prog, params, "x", x, fetch[0], a.batch))
        c_cpu.append((time.process_time_ns() - c) / a.batch / 1e3)
        t, c = time.perf_counter_ns(), time.process_time_ns()
        for _ in range(a.batch):
            exe.run(prog, feed=feed, fetch_list=fetch, scope=params)
        p_cpu.append((time.process_time_ns() - c) / a.batch / 1e3)
        p_wall.append((time.perf_counter_ns() - t) / a.batch / 1e3)
    med = statistics.median
    over_cpu = med(p - c for p, c in zip(p_cpu, c_cpu))
    over_wall = med(p - c for p, c in zip(p_wall, c_wall))

    cfg = icore.Config(str(model))
    cfg.set_cpu_math_library_num_threads(1)
    pred = icore.create_predictor(cfg)
    ih = pred.get_input_handle("x")
    oh = pred.get_output_handle(fetch[0])

    def pcall():
        ih.copy_from_cpu(x)
        pred.run()
        return oh.copy_to_cpu()

    pred_us = timeit(pcall, a.rounds, a.batch)

    print("bundled MLP %s, input %s, 1 thread; median per call over %d rounds of %d calls"
          % (model, list(x.shape), a.rounds, a.batch))
    print("%-48s %10s %10s" % ("", "CPU us", "wall us"))
    print("%-48s %10s %10.2f" % ("C API: icore bench, compiled median", "", c_us))
    print("%-48s %10.2f %10.2f" % ("C API: ic_executor_run loop in this process",
                                   med(c_cpu), med(c_wall)))
    print("%-48s %10.2f %10.2f" % ("icore.Executor.run from Python", med(p_cpu), med(p_wall)))
    print("%-48s %+10.2f %+10.2f" % ("  overhead over the C loop (per-round median)",
                                     over_cpu, over_wall))
    print("%-48s %10.2f %10.2f" % ("icore Predictor copy_from_cpu/run/copy_to_cpu", *pred_us))
    fs = exe.feed_stats()
    print("  exe.run feeds: %d run in place (zero copy), %d copied" % (fs["borrowed"], fs["copied"]))
    b = exe.bench(prog, feed=feed, fetch_list=fetch, scope=params, runs=2000, warmup=200)
    print("%-48s %10s %10.2f  (p10 %.2f, p90 %.2f)" % ("icore.Executor.bench median (per run)", "",
                                                      b.median_ms * 1e3, b.p10_ms * 1e3,
                                                      b.p90_ms * 1e3))

    peer = os.environ.get("PEERS_PYTHON") or "/work/pdenv/bin/python"
    if os.path.exists(peer):
        r = subprocess.run([peer, "-c", PADDLE_SCRIPT, str(model), str(model.with_suffix(".pdiparams")),
                            str(xfile), str(a.rounds), str(max(a.batch // 10, 1))],
                           capture_output=True, text=True)
        if r.returncode == 0:
            res = json.loads(r.stdout.strip().splitlines()[-1])
            err = float(np.max(np.abs(np.asarray(res["out"], np.float32) - want)))
            print("%-48s %10.2f %10.2f  (max |diff| vs icore %.1e)"
                  % ("paddle.inference from Python, same calls", res["cpu_us"], res["us"], err))
        else:
            print("  paddle.inference: failed: %s" % r.stderr.strip().splitlines()[-1:])
    else:
        print("  paddle.inference: no Python with paddle (set PEERS_PYTHON)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
