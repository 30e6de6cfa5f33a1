#!/usr/bin/env python3
"""Write tests/data/paddle_params/: one tiny model saved by PaddlePaddle itself in the three
parameter layouts icore reads, plus the exact values Paddle saved, for tests/test_params.c.

Run with a PaddlePaddle (3.x tested) in legacy ProgramDesc mode:

    FLAGS_enable_pir_api=0 /tmp/pdenv/bin/python tools/gen_paddle_params.py [OUTDIR]

Output (OUTDIR defaults to tests/data/paddle_params in this repository):
    model.pdmodel + model.pdiparams   paddle.static.save_inference_model (combined)
    separate/__model__ + one file per parameter
                                      paddle.static.io.save_vars(filename=None): the old
                                      per-variable layout of fluid.io.save_inference_model
    combined/__model__ + __params__   paddle.static.io.save_vars(filename='__params__')
    expected/<name>.raw               each parameter's raw little-endian data as Paddle held it
    expected/<name>.lod               its LoD offsets, one level per line (only if it has one)
    expected/manifest.txt             "name dtype dims..." per parameter, sorted by name

icore is never used here: the expected values come from Paddle's scope through numpy.
"""
import os
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.static.io as sio  # noqa: E402


def build():
    main_prog, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_prog, startup):
        x = paddle.static.data("x", [-1, 4], "float32")
        y = paddle.static.nn.fc(x, 3)
        i64 = paddle.static.create_global_var([1, 3], 0, "int64", persistable=True,
                                              name="counter_i64")
        f64 = paddle.static.create_global_var([3], 0.0, "float64", persistable=True,
                                              name="scale_f64")
        f16 = paddle.static.create_global_var([3], 0.0, "float16", persistable=True,
                                              name="half_w")
        z = (y + paddle.cast(i64, "float32") + paddle.cast(f64, "float32")
             + paddle.cast(f16, "float32"))
    return main_prog, startup, x, z


def set_values(scope):
    """Values that exercise each dtype's range, and a LoD on one parameter."""
    place = paddle.CPUPlace()
    scope.find_var("counter_i64").get_tensor().set(
        np.array([[-3, 2**40 + 5, 7]], dtype=np.int64), place)
    scope.find_var("scale_f64").get_tensor().set(
        np.array([np.pi, -1e-300, 2.5], dtype=np.float64), place)
    scope.find_var("half_w").get_tensor().set(
        np.array([0.1, -65504.0, 6e-05], dtype=np.float16), place)
    bias = scope.find_var("fc_0.b_0").get_tensor()
    bias.set(np.array([0.25, -0.5, 0.125], dtype=np.float32), place)
    bias.set_lod([[0, 1, 3]])


def legacy_model_bytes(program, x, z):
    """__model__ as the old save_inference_model wrote it: pruned, feed/fetch ops added."""
    prog = sio.normalize_program(program, [x], [z])
    return prog, prog._remove_training_info(clip_extra=True).desc.serialize_to_string(
        legacy_format=True)


def write_expected(outdir, program, scope):
    exp = os.path.join(outdir, "expected")
    os.makedirs(exp, exist_ok=True)
    lines = []
    params = sorted((v for v in program.list_vars() if sio.is_persistable(v)),
                    key=lambda v: v.name)
    for v in params:
        t = scope.find_var(v.name).get_tensor()
        a = np.array(t)
        lines.append(" ".join([v.name, str(a.dtype)] + [str(d) for d in a.shape]))
        with open(os.path.join(exp, v.name + ".raw"), "wb") as f:
            f.write(a.astype(a.dtype.newbyteorder("<")).tobytes())
        lod = t.lod()
        if lod:
            with open(os.path.join(exp, v.name + ".lod"), "w") as f:
                for level in lod:
                    f.write(" ".join(str(o) for o in level) + "\n")
    with open(os.path.join(exp, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "tests", "data",
                                                                "paddle_params")
    paddle.enable_static()
    if paddle.framework.in_pir_mode():
        sys.exit("run with FLAGS_enable_pir_api=0: this writes legacy ProgramDesc files")
    paddle.seed(20240611)
    main_prog, startup, x, z = build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    scope = paddle.static.global_scope()
    set_values(scope)
    os.makedirs(outdir, exist_ok=True)

    paddle.static.save_inference_model(os.path.join(outdir, "model"), [x], [z], exe,
                                       program=main_prog)
    prog, model_bytes = legacy_model_bytes(main_prog, x, z)
    for sub, filename in (("separate", None), ("combined", "__params__")):
        d = os.path.join(outdir, sub)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "__model__"), "wb") as f:
            f.write(model_bytes)
        sio.save_vars(exe, d, main_program=prog, predicate=sio.is_persistable,
                      filename=filename)
    write_expected(outdir, prog, scope)


if __name__ == "__main__":
    main()
