#!/usr/bin/env python3
"""Check that PaddlePaddle loads what `icore train --save` writes (run by hand; needs Paddle):

    FLAGS_enable_pir_api=0 /work/pdenv/bin/python tools/check_paddle_loads_icore.py \
        build/tools/icore [CASE...]

For each case of tests/data/train (default: all), icore trains 20 steps from Paddle's initial
persistables on Paddle's batches and saves them combined (one .pdiparams file) and per variable (a directory).
Paddle 3.3.1 loads both with paddle.static.load_vars into a fresh scope, then:
  - the values must be within the case's ptol of Paddle's own final.pdiparams;
  - Paddle saving what it loaded (save_vars) must reproduce icore's files byte for byte.
Prints one line per case and exits non-zero on any mismatch.
"""
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402


def persistables(prog):
    out = [v for v in prog.list_vars() if v.persistable and v.name not in ("feed", "fetch")]
    return sorted(out, key=lambda v: v.name)


def manifest(d):
    m = {"feed": []}
    for line in open(os.path.join(d, "case.txt")):
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if w[0] == "feed":
            m["feed"].append((w[1], w[2]))
        else:
            m[w[0]] = w[1:]
    return m


def load(exe, prog, path):
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        if os.path.isdir(path):
            paddle.static.load_vars(exe, path, main_program=prog, vars=persistables(prog))
        else:
            d, f = os.path.split(path)
            paddle.static.load_vars(exe, d, main_program=prog, vars=persistables(prog),
                                    filename=f)
    return scope


def main():
    icore = os.path.abspath(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.join(here, "..", "tests", "data", "train")
    cases = sys.argv[2:] or open(os.path.join(root, "cases.txt")).read().split()
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    bad = 0
    for c in cases:
        d = os.path.join(root, c)
        m = manifest(d)
        prog = paddle.static.Program.parse_from_string(open(os.path.join(d, "main.pdmodel"),
                                                            "rb").read())
        tmp = tempfile.mkdtemp()
        comb, sep = os.path.join(tmp, "icore.pdiparams"), os.path.join(tmp, "icore_dir")
        os.makedirs(sep)
        # icore train gives step k slice k of a feed whose first dim is the step count
        steps = int(m["steps"][0])
        feeds = []
        for name, f in m["feed"]:
            a = np.load(os.path.join(d, f))
            fp = os.path.join(tmp, name + ".npy")
            np.save(fp, a.reshape((steps, a.shape[0] // steps) + a.shape[1:]))
            feeds.append((name, fp))
        if "lrfeed" in m:  # a scheduler's learning rate, fed per step as Paddle's executor sets it
            feeds.append((m["lrfeed"][0], os.path.join(d, "lr.npy")))
        for out in (comb, sep):
            cmd = [icore, "train", os.path.join(d, "main.pdmodel"), "--params",
                   os.path.join(d, "init.pdiparams"), "--steps", m["steps"][0],
                   "--save", out, "--no-fuse"]
            for name, fp in feeds:
                cmd += ["--feed", "%s=%s" % (name, fp)]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        ptol = float(m["ptol"][0])
        ref = load(exe, prog, os.path.join(d, "final.pdiparams"))
        worst, same = 0.0, True
        for path in (comb, sep):
            s = load(exe, prog, path)
            for v in persistables(prog):
                got = np.array(s.find_var(v.name).get_tensor()).astype("float64")
                want = np.array(ref.find_var(v.name).get_tensor()).astype("float64")
                if not any(v.name in op.input_arg_names + op.output_arg_names
                           for op in prog.global_block().ops):
                    continue  # Paddle's fused LSTM/GRU buffer: see test_train.c
                if v.name == m.get("lrfeed", [None])[0]:
                    continue  # fed per step: the scope keeps its value (a feed shadows one run)
                err = np.max(np.abs(got - want) / (np.abs(want) + 0.01)) if got.size else 0.0
                worst = max(worst, float(err))
            # Paddle re-saves what it loaded: the same bytes as icore's file(s)
            again = os.path.join(tmp, "paddle_again")
            with paddle.static.scope_guard(s):
                if os.path.isdir(path):
                    paddle.static.save_vars(exe, again, main_program=prog, vars=persistables(prog))
                    for v in persistables(prog):
                        a = open(os.path.join(path, v.name), "rb").read()
                        b = open(os.path.join(again, v.name), "rb").read()
                        same &= a == b
                else:
                    paddle.static.save_vars(exe, again, main_program=prog,
                                            vars=persistables(prog), filename="p.pdiparams")
                    same &= (open(path, "rb").read() ==
                             open(os.path.join(again, "p.pdiparams"), "rb").read())
        ok = worst <= ptol and same
        bad += not ok
        print("%-10s %s: Paddle loaded icore's combined file and directory; max parameter "
              "error vs Paddle's own training %.3g (ptol %g); Paddle's re-save %s icore's bytes"
              % (c, "ok" if ok else "FAIL", worst, ptol, "equals" if same else "DIFFERS FROM"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
