#!/usr/bin/env python3
"""Write tests/data/ckpt/: Paddle's own checkpoint programs and the files they write, so that
tests/test_checkpoint.c can check that icore writes the same bytes and reads them back.

    FLAGS_enable_pir_api=0 /work/pdenv/bin/python tools/gen_paddle_ckpt.py [OUT_DIR]

Tested with PaddlePaddle 3.3.1 (CPU), legacy static mode. A scope holds five variables
(float32, float64, int64, float16 and a float32 with a LoD level); Paddle runs
    save_combine.pdmodel     one save_combine op: every variable, sorted by name, into
                             FILE (file_path is rewritten by the test), as
                             paddle.static.save_vars(filename=...) emits it
    save_combine_fp16.pdmodel  the same with save_as_fp16 (float16 for the float variables;
                             only float32 ones here: Paddle 3.3.1 casts every dtype)
    save.pdmodel             one save op per variable into DIR/<name>, as save_vars with
                             filename=None emits them
    load_combine.pdmodel, load.pdmodel   the matching load programs
and writes what they wrote: combined.pdiparams, combined_fp16.pdiparams, vars/<name>. The
values are in <name>.npy (the LoD one's offsets in lod.txt). case.txt lists the variables.
"""
import os
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.base import core  # noqa: E402

VARS = [("fc_0.w_0", "float32", (3, 4)), ("moment_0", "float64", (2, 2)),
        ("step", "int64", (1,)), ("half_0", "float16", (3,)), ("seq_0", "float32", (5, 2))]
LOD = [[0, 2, 5]]


def values():
    rng = np.random.default_rng(11)
    out = {}
    for name, dt, shape in VARS:
        if dt == "int64":
            out[name] = np.array([123456789012], dtype="int64")
        else:
            out[name] = (rng.standard_normal(shape) * 3).astype(dt)
    out["fc_0.w_0"][0, 0] = 0.1  # rounds in float16
    return out


def program(ops, file_path, fp16=False, which=VARS):
    """A program of checkpoint ops over the variables `which`, as paddle.static.save_vars /
    load_vars build them (sorted by name for the combined ops)."""
    prog = paddle.static.Program()
    block = prog.global_block()
    vs = []
    for name, dt, shape in sorted(which):
        v = block.create_var(name=name, dtype=dt, shape=shape, persistable=True)
        if name == "seq_0":
            v.desc.set_lod_level(1)
        vs.append(v)
    if ops == "save_combine":
        y = block.create_var(type=core.VarDesc.VarType.RAW, name="saved_params")
        y.desc.set_persistable(True)
        block.append_op(type="save_combine", inputs={"X": vs}, outputs={"Y": y},
                        attrs={"file_path": file_path, "save_as_fp16": fp16,
                               "save_to_memory": False})
    elif ops == "load_combine":
        block.append_op(type="load_combine", inputs={}, outputs={"Out": vs},
                        attrs={"file_path": file_path})
    else:
        for v in vs:
            path = os.path.join(file_path, v.name)
            if ops == "save":
                block.append_op(type="save", inputs={"X": [v]}, outputs={},
                                attrs={"file_path": path})
            else:
                block.append_op(type="load", inputs={}, outputs={"Out": [v]},
                                attrs={"file_path": path})
    return prog


def strip(prog):
    from paddle.base.proto import framework_pb2
    p = framework_pb2.ProgramDesc.FromString(prog.desc.serialize_to_string())
    for b in p.blocks:
        for op in b.ops:
            keep = [a for a in op.attrs if a.name != "op_callstack"]
            del op.attrs[:]
            op.attrs.extend(keep)
    return p.SerializeToString()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "tests", "data", "ckpt")
    out = os.path.abspath(out)
    os.makedirs(out, exist_ok=True)
    paddle.enable_static()
    vals = values()
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    for name, _, _ in VARS:
        t = scope.var(name).get_tensor()
        t.set(vals[name], paddle.CPUPlace())
        if name == "seq_0":
            t.set_recursive_sequence_lengths([[2, 3]])
        np.save(os.path.join(out, name + ".npy"), vals[name])
    # Every program is written with the placeholder paths the test rewrites, and run by Paddle
    # with the real ones.
    jobs = [("save_combine", "combined.pdiparams", False, "save_combine.pdmodel"),
            ("save_combine", "combined_fp16.pdiparams", True, "save_combine_fp16.pdmodel"),
            ("save", "vars", False, "save.pdmodel"),
            ("load_combine", "combined.pdiparams", False, "load_combine.pdmodel"),
            ("load", "vars", False, "load.pdmodel")]
    with paddle.static.scope_guard(scope):
        for ops, target, fp16, model in jobs:
            if ops.startswith("save"):
                which = [v for v in VARS if not fp16 or v[1] == "float32"]
                exe.run(program(ops, os.path.join(out, target), fp16, which))
                placeholder = program(ops, "FILE" if ops == "save_combine" else "DIR", fp16,
                                      which)
            else:
                placeholder = program(ops, "FILE" if ops == "load_combine" else "DIR")
            with open(os.path.join(out, model), "wb") as f:
                f.write(strip(placeholder))
    # Paddle reads back what it wrote
    s2 = paddle.static.Scope()
    with paddle.static.scope_guard(s2):
        exe.run(program("load_combine", os.path.join(out, "combined.pdiparams")))
        for name, _, _ in VARS:
            assert np.array_equal(np.array(s2.find_var(name).get_tensor()), vals[name]), name
        assert s2.find_var("seq_0").get_tensor().lod() == LOD
    with open(os.path.join(out, "case.txt"), "w") as f:
        f.write("# written by tools/gen_paddle_ckpt.py with PaddlePaddle %s\n" % paddle.__version__)
        for name, dt, shape in VARS:
            f.write("var %s %s\n" % (name, dt))
        f.write("lod seq_0 0 2 5\n")


if __name__ == "__main__":
    main()
