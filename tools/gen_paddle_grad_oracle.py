#!/usr/bin/env python3
"""Write tests/data/grad_oracle/: X, Y, a random upstream gradient G and Paddle 3.3.1's X@GRAD
and Y@GRAD for grad ops whose forward Paddle 3.x still emits in legacy static programs:
the legacy matmul (transpose_X / transpose_Y / alpha, a batched X with a plain Y) and
elementwise_max / elementwise_min with broadcasting and ties. tests/test_ops_grad.c feeds the
same X, Y and G to icore's grad op and compares.

    FLAGS_enable_pir_api=0 /work/pdenv/bin/python tools/gen_paddle_grad_oracle.py [OUT_DIR]

cases.txt: one line per case: NAME OP ATTR=VALUE... (the files are NAME.x.npy, NAME.y.npy,
NAME.g.npy, NAME.dx.npy, NAME.dy.npy).
"""
import os
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.base.layer_helper import LayerHelper  # noqa: E402

CASES = [
    ("mm_plain", "matmul", (3, 4), (4, 5), {"transpose_X": False, "transpose_Y": False,
                                            "alpha": 1.0}),
    ("mm_tx_alpha", "matmul", (4, 3), (4, 5), {"transpose_X": True, "transpose_Y": False,
                                               "alpha": 0.5}),
    ("mm_ty", "matmul", (3, 4), (5, 4), {"transpose_X": False, "transpose_Y": True,
                                         "alpha": 2.0}),
    ("mm_batch_matrix", "matmul", (2, 3, 4), (4, 5), {"transpose_X": False,
                                                      "transpose_Y": False, "alpha": 1.5}),
    ("mm_batches_txy", "matmul", (2, 4, 3), (2, 5, 4), {"transpose_X": True,
                                                        "transpose_Y": True, "alpha": -1.0}),
    ("max_bcast_ties", "elementwise_max", (2, 3, 4), (3, 1), {"axis": 1}),
    ("min_bcast_ties", "elementwise_min", (2, 3, 4), (4,), {"axis": -1}),
]


def run_case(name, op, xs, ys, attrs, rng):
    x = rng.integers(-3, 4, xs).astype("float32") * 0.5  # small integers: many ties
    y = rng.integers(-3, 4, ys).astype("float32") * 0.5
    if op == "matmul":
        x = rng.standard_normal(xs).astype("float32")
        y = rng.standard_normal(ys).astype("float32")
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        X = paddle.static.data("x", list(xs), "float32")
        Y = paddle.static.data("y", list(ys), "float32")
        X.stop_gradient = False
        Y.stop_gradient = False
        h = LayerHelper(op)
        out = h.create_variable_for_type_inference("float32")
        h.append_op(type=op, inputs={"X": X, "Y": Y}, outputs={"Out": out}, attrs=dict(attrs))
        G = paddle.static.data("g", list(out.shape), "float32")
        dx, dy = paddle.static.gradients([out], [X, Y], target_gradients=[G])
    ops = [o.type for o in main.global_block().ops]
    assert op + "_grad" in ops, ops
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    oshape = [d for d in out.shape]
    g = rng.standard_normal(oshape).astype("float32")
    rdx, rdy = exe.run(main, feed={"x": x, "y": y, "g": g}, fetch_list=[dx, dy])
    return x, y, g, np.asarray(rdx), np.asarray(rdy)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "tests", "data",
                                                             "grad_oracle")
    os.makedirs(out, exist_ok=True)
    paddle.enable_static()
    rng = np.random.default_rng(12)
    lines = ["# written by tools/gen_paddle_grad_oracle.py with PaddlePaddle " +
             paddle.__version__]
    for name, op, xs, ys, attrs in CASES:
        arrs = run_case(name, op, xs, ys, attrs, rng)
        for suffix, a in zip(("x", "y", "g", "dx", "dy"), arrs):
            np.save(os.path.join(out, "%s.%s.npy" % (name, suffix)), a)
        kv = " ".join("%s=%s" % (k, (int(v) if isinstance(v, bool) else v))
                      for k, v in attrs.items())
        lines.append("%s %s %s" % (name, op, kv))
    with open(os.path.join(out, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
