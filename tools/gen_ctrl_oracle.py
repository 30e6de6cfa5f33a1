#!/usr/bin/env python3
"""Write tests/data/paddle_ctrl/: programs with control flow (sub-blocks) exported by
PaddlePaddle's own control-flow APIs, with Paddle's outputs, for tests/test_ctrl_oracle.c.
Same layout and case.txt manifest as tools/gen_paddle_oracle.py (whose helpers it uses).

    FLAGS_enable_pir_api=0 /work/pdenv26/bin/python tools/gen_ctrl_oracle.py [OUT_DIR] [CASE...]

Tested with PaddlePaddle 2.6.2 (CPU): Paddle 3.3.1 in legacy mode fails inside
paddle.static.nn.cond ("logical_not(): argument must be Value, but got Variable").
"""
import os
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import paddle  # noqa: E402

import gen_paddle_oracle as gpo  # noqa: E402

F32 = "float32"
CASES = {}


def case(rtol=1e-5, atol=1e-6, note=""):
    def register(fn):
        CASES[fn.__name__] = dict(build=fn, rtol=rtol, atol=atol, note=note)
        return fn
    return register


def cond_case(g, x_value):
    x = g.data("x", x_value)
    pred = paddle.mean(x) > 0.0
    out = paddle.static.nn.cond(pred, lambda: paddle.tanh(x) * 2.0 + 1.0,
                                lambda: paddle.exp(x) - 1.0)
    g.fetch(out)


@case()
def cond_true(g):
    """paddle.static.nn.cond taking the true branch (mean(x) > 0)."""
    cond_case(g, g.rand([2, 3], 0.1, 1.0))


@case()
def cond_false(g):
    """paddle.static.nn.cond taking the false branch (mean(x) <= 0)."""
    cond_case(g, g.rand([2, 3], -1.0, -0.1))


@case()
def while_loop(g):
    """paddle.static.nn.while_loop: i < n, x = tanh(x @ w) + 0.1 i, a parameter in the body."""
    x = g.data("x", g.rand([2, 4]))
    n = g.data("n", np.array([5], dtype="int64"))
    w = g.param("w", g.rand([4, 4], -0.5, 0.5))
    i = paddle.full([1], 0, "int64")

    def body(i, x):
        x = paddle.tanh(paddle.matmul(x, w)) + paddle.cast(i, F32) * 0.1
        return [i + 1, x]

    i, x = paddle.static.nn.while_loop(lambda i, x: i < n, body, [i, x])
    g.fetch(x, i)


@case()
def while_loop_zero(g):
    """paddle.static.nn.while_loop that runs no iteration (n = 0)."""
    x = g.data("x", g.rand([3]))
    n = g.data("n", np.array([0], dtype="int64"))
    i = paddle.full([1], 0, "int64")
    i, x = paddle.static.nn.while_loop(lambda i, x: i < n, lambda i, x: [i + 1, x * 2.0],
                                       [i, x])
    g.fetch(x, i)


@case()
def while_loop_nested(g):
    """Nested paddle.static.nn.while_loop: acc += x * (j + 1) for i < 3, j < 4."""
    x = g.data("x", g.rand([3]))
    i = paddle.full([1], 0, "int64")
    acc = paddle.zeros([3], F32)

    def outer(i, acc):
        j = paddle.full([1], 0, "int64")

        def inner(j, acc):
            return [j + 1, acc + x * paddle.cast(j + 1, F32)]

        j, acc = paddle.static.nn.while_loop(lambda j, acc: j < 4, inner, [j, acc])
        return [i + 1, acc]

    i, acc = paddle.static.nn.while_loop(lambda i, acc: i < 3, outer, [i, acc])
    g.fetch(acc)


def switch(g, index):
    x = g.data("x", g.rand([4]))
    b = g.data("b", np.array([index], dtype="int64"))
    out = paddle.static.nn.switch_case(
        b, {0: lambda: x + 1.0, 1: lambda: x * 2.0, 3: lambda: paddle.abs(x)},
        default=lambda: x * 0.0 - 5.0)
    g.fetch(out)


@case()
def switch_case_1(g):
    """paddle.static.nn.switch_case picking branch 1 of {0, 1, 3} and a default."""
    switch(g, 1)


@case()
def switch_case_default(g):
    """paddle.static.nn.switch_case falling through to the default (index 7)."""
    switch(g, 7)


@case()
def greedy_decoder(g):
    """A greedy decoder with a tensor array: h = tanh(emb[tok] @ W + h @ U), tok = the top
    logit of h @ V (top_k 1), each step's token and hidden state written to arrays
    (paddle.tensor.array_write), read back (array_read, array_length) and joined
    (tensor_array_to_tensor, stacked and concatenated)."""
    vocab, hid, steps = 7, 5, 6
    h0 = g.data("h0", g.rand([2, hid]))
    tok0 = g.data("tok0", np.array([[1], [4]], dtype="int64"))
    emb = g.param("emb", g.rand([vocab, hid], -0.8, 0.8))
    w = g.param("w", g.rand([hid, hid], -0.8, 0.8))
    u = g.param("u", g.rand([hid, hid], -0.8, 0.8))
    v = g.param("v", g.rand([hid, vocab], -0.8, 0.8))
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], steps, "int64")
    toks = paddle.tensor.create_array("int64")
    hs = paddle.tensor.create_array(F32)
    cond = paddle.less_than(i, n)
    loop = paddle.static.nn.control_flow.While(cond)
    h = paddle.assign(h0)
    tok = paddle.assign(tok0)
    with loop.block():
        e = paddle.gather(emb, paddle.reshape(tok, [-1]))
        h_new = paddle.tanh(paddle.matmul(e, w) + paddle.matmul(h, u))
        logits = paddle.matmul(h_new, v)
        _, t = paddle.topk(logits, 1)
        paddle.tensor.array_write(t, i, array=toks)
        paddle.tensor.array_write(h_new, i, array=hs)
        paddle.assign(h_new, h)
        paddle.assign(t, tok)
        paddle.increment(i)
        paddle.assign(paddle.less_than(i, n), cond)
    length = paddle.tensor.array_length(toks)
    last = paddle.tensor.array_read(hs, length - 1)
    all_toks, _ = paddle.tensor.manipulation.tensor_array_to_tensor(toks, axis=1, use_stack=False)
    all_h, _ = paddle.tensor.manipulation.tensor_array_to_tensor(hs, axis=1, use_stack=True)
    g.fetch(all_toks, all_h, last, length)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    args = sys.argv[1:]
    out_dir = os.path.join(here, "..", "tests", "data", "paddle_ctrl")
    if args and args[0] not in CASES:
        out_dir = args.pop(0)
    paddle.enable_static()
    names = sorted(CASES)
    os.makedirs(out_dir, exist_ok=True)
    for n in names:
        if args and n not in args:
            continue
        gpo.gen_op_case(out_dir, n, CASES[n])
        with open(os.path.join(out_dir, n, "case.txt")) as f:
            text = f.read().replace("tools/gen_paddle_oracle.py", "tools/gen_ctrl_oracle.py")
        with open(os.path.join(out_dir, n, "case.txt"), "w") as f:
            f.write(text)
        print("wrote", n)
    with open(os.path.join(out_dir, "cases.txt"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
