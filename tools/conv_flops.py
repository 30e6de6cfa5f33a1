#!/usr/bin/env python3
"""Flops per run of a program's convolutions and products, from `icore inspect` with feeds
(which prints every variable's shape): the lower bound a run's convolutions can take at the
CPU's FMA peak (build/bench/fma_peak).

    build/tools/icore inspect MODEL --random-params 1 --random-feed x=1,3,48,320 > plan.txt
    python3 tools/conv_flops.py plan.txt [--peak GFLOPS]

Counts 2 flops per multiply-add: conv2d / depthwise_conv2d 2 * |Output| * C_in/groups * kh * kw
(padding taps included), matmul / matmul_v2 / mul 2 * |Out| * K. Groups by op type and, for
the convolutions, by kernel size, stride and grouping."""
import re
import sys
from collections import defaultdict


def main():
    args = sys.argv[1:]
    peak = None
    if "--peak" in args:
        i = args.index("--peak")
        peak = float(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        raise SystemExit(__doc__)
    txt = open(args[0]).read()
    shapes = {}
    for m in re.finditer(r"^\s+(\S+)\s+\S+\s+.*?\w+\[([\d, ]*)\]", txt, re.M):
        shapes[m.group(1)] = [int(x) for x in m.group(2).split(",") if x.strip()]
    flops, count = defaultdict(float), defaultdict(int)
    for m in re.finditer(r"^\s+#\d+\s+(\S+)\s+(.*?) -> (\S+)", txt, re.M):
        op, ins, out = m.group(1), m.group(2).split(", "), m.group(3)
        o = shapes.get(out)
        if not o:
            continue
        n = 1
        for d in o:
            n *= d
        if op in ("conv2d", "depthwise_conv2d"):
            x, w = shapes.get(ins[0]), shapes.get(ins[1])
            if not x or not w:
                continue
            groups = x[1] // w[1]
            key = "%s %dx%d stride %d%s" % (op, w[2], w[3], x[2] // o[2] if o[2] else 1,
                                             " grouped" if groups > 1 else "")
            f = 2.0 * n * w[1] * w[2] * w[3]
        elif op in ("matmul", "matmul_v2", "mul"):
            x = shapes.get(ins[0])
            if not x:
                continue
            key, f = op, 2.0 * n * x[-1]
        else:
            continue
        flops[key] += f
        count[key] += 1
    total = sum(flops.values())
    for k, v in sorted(flops.items(), key=lambda kv: -kv[1]):
        print("%-36s x%-4d %10.1f MFLOP" % (k, count[k], v / 1e6))
    print("%-42s %10.1f MFLOP" % ("total", total / 1e6))
    if peak:
        print("at %.1f GFLOP/s: %.3f ms" % (peak, total / peak / 1e6))


if __name__ == "__main__":
    main()
