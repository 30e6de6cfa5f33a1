"""icore.inspect / Executor.inspect (the C API's plan descriptions as Python objects) on the
bundled MLP, MobileNetV2 and a nested while loop, checked against what the programs are and
against `icore inspect`; Executor.bench's statistics; profiles as Chrome traces."""
import collections
import json
import re
import subprocess

import numpy as np
import pytest

import icore
from conftest import DATA, SHARED, need

MLP_OPS = ["feed", "mul", "elementwise_add", "relu", "mul", "elementwise_add", "softmax", "fetch"]
# with the inference rewrites (on by default): each mul and its bias add run as one fc, the
# first with the relu after it as its activation
MLP_FUSED_OPS = ["feed", "fc", "fc", "softmax", "fetch"]


def check_dag(plan):
    """Invariants every block-0 plan has."""
    n = len(plan.instructions)
    assert plan.n_edges == len(plan.edges) == sum(i.n_preds for i in plan.instructions)
    if plan.place == "cpu":  # device plans add stream-order edges after the pruning
        assert plan.edges_before_pruning >= plan.n_edges
    for e in plan.edges:
        assert 0 <= e.src < e.dst < n  # program order is a topological order
        assert e.kind in ("data", "implicit", "data+implicit", "stream", "data+stream",
                          "implicit+stream", "data+implicit+stream")
    assert plan.roots and all(plan.instructions[r].n_preds == 0 for r in plan.roots)
    assert all(i.n_preds > 0 for i in plan.instructions if i.index not in plan.roots)
    for v in plan.variables:
        assert -1 <= v.first_write < n and -1 <= v.last_use < n
        if v.first_write >= 0 and v.last_use >= 0:
            assert v.first_write <= v.last_use, v
        # GC: an unkept temporary is released by the instruction that uses it last
        if v.kind == "temp" and not v.kept and v.last_use >= 0:
            assert v.name in plan.instructions[v.last_use].releases, v
    for i in plan.instructions:
        for name in i.inputs:
            assert plan.var(name).last_use >= i.index or plan.var(name).kept


def test_mlp_plan(example):
    model, x = example
    prog, params = icore.load_inference_model(model)
    p = icore.inspect(prog, fuse=False)  # the program as written
    assert p.op_types() == MLP_OPS
    assert not p.ran and p.place == "cpu" and p.n_streams == 0
    # a chain: every instruction waits for the one before, through data
    assert [(e.src, e.dst, e.kind) for e in p.edges] == [(k, k + 1, "data") for k in range(7)]
    assert p.critical_path == 8 and p.max_width == 1 and p.roots == [0] and p.joins == 0
    check_dag(p)
    mul = p.instructions[1]
    assert mul.inputs == ["x", "fc1.w"] and mul.outputs == ["fc1.tmp_0"]
    assert mul.where == "host" and mul.stream == -1 and mul.sub is None
    assert p.var("fc1.w").kind == "param" and p.var("fc1.w").kept
    assert p.lifetimes()["fc1.tmp_0"] == (1, 2)  # written by mul, last read by the add
    assert "fc1.tmp_0" in p.instructions[2].releases
    # the rewrites' plan: fc(x, W, b) with relu writes the relu's output
    f = icore.inspect(prog)
    assert f.op_types() == MLP_FUSED_OPS and f.critical_path == 5
    fc = f.instructions[1]
    assert fc.inputs == ["x", "fc1.w", "fc1.b"] and fc.outputs == ["relu.tmp_0"]
    check_dag(f)
    # after a run: shapes, dtypes and the run's peak
    exe = icore.Executor(threads=1)
    q = exe.inspect(prog, feed={"x": x}, scope=params)
    assert q.ran and q.peak_bytes > 0
    assert q.var("x").shape == x.shape and q.var("x").dtype == "float32"
    assert q.var("relu.tmp_0").shape == (x.shape[0], q.var("fc1.w").shape[1])
    assert q.var("softmax.tmp_0").shape == (x.shape[0], q.var("fc2.w").shape[1])
    assert q.op_types() == MLP_FUSED_OPS
    # the module function with a feed runs once too
    assert icore.inspect(prog, feed={"x": x}, scope=params).var("x").shape == x.shape
    # an emulated device: instructions on streams, events between them
    d = icore.inspect(prog, place="emu:0", streams="per-backend")
    assert d.place == "emu:0" and d.n_streams >= 2
    assert sorted(k for v in d.streams().values() for k in v) == \
        [i.index for i in d.instructions if i.stream >= 0]
    assert {i.where for i in d.instructions} >= {"device", "h2d"}
    check_dag(d)
    with pytest.raises(icore.Error, match="nope"):
        icore.inspect(prog, fetch_list=["nope"])
    with pytest.raises(icore.Error, match="no compiled run"):
        icore.Executor()._describe_last()
    with pytest.raises(icore.Error, match="no compiled run"):
        icore.Executor(mode="uncompiled").inspect(prog, feed={"x": x}, scope=params)


def test_mobilenet_plan(cli, tmp_path):
    model = need(SHARED / "models" / "paddle" / "mobilenet_v2" / "inference.pdmodel")
    prog = icore.load_program(model)
    raw = icore.inspect(prog, fuse=False)
    ops = collections.Counter(raw.op_types())
    assert ops["conv2d"] == 36 and ops["depthwise_conv2d"] == 17 and ops["batch_norm"] == 53
    assert ops["relu6"] == 36 and ops["elementwise_add"] == 10 + 1  # 10 residuals + the fc bias
    check_dag(raw)
    fused = icore.inspect(prog)
    assert "batch_norm" not in fused.op_types()  # folded into the convolutions
    check_dag(fused)
    # the CLI reports the same plan (it prints the same C description)
    x = np.random.default_rng(0).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    r = subprocess.run([str(cli), "inspect", str(model), "--random-params", "1", "--feed",
                        "inputs=%s" % (tmp_path / "x.npy")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    m = re.search(r"plan: (\d+) instructions, (\d+) variables", r.stdout)
    run = icore.inspect(prog, feed={"inputs": x}, scope=icore.random_params(prog, 1))
    assert (int(m.group(1)), int(m.group(2))) == (len(run.instructions), len(run.variables))
    m = re.search(r"edges: (\d+) before pruning, (\d+) after", r.stdout)
    assert (int(m.group(1)), int(m.group(2))) == (run.edges_before_pruning, run.n_edges)
    m = re.search(r"peak live bytes of one run .*: (\d+)", r.stdout)
    assert int(m.group(1)) == run.peak_bytes
    out = run.var(prog.fetch_target_names[0])
    assert out.shape == (1, 1000) and out.dtype == "float32"
    assert run.var("inputs").shape == (1, 3, 224, 224)
    assert any(v.layout not in (None, "plain") for v in run.variables)  # oneDNN blocked


def test_control_flow_sub_plans():
    prog = icore.load_program(DATA / "paddle_ctrl" / "while_loop_nested" / "model.pdmodel")
    p = icore.inspect(prog)
    check_dag(p)
    loops = [i for i in p.instructions if i.op_type == "while"]
    assert len(loops) == 1 and loops[0].sub is not None
    outer = loops[0].sub
    assert outer.block == 1
    inner = [i for i in outer.instructions if i.op_type == "while"]
    assert len(inner) == 1 and inner[0].sub.block == 2 and inner[0].sub.instructions
    # the sub-plan's variables of outer blocks point into the parent's table
    for name, k in outer.outer.items():
        if k is not None:
            assert p.variables[k].name == name
    assert any(k is None for k in outer.outer.values())  # and it has its own


def test_bench_and_trace(example, tmp_path):
    model, x = example
    prog, params = icore.load_inference_model(model)
    exe = icore.Executor(threads=1, profile=True)
    trace = tmp_path / "trace.json"
    r = exe.bench(prog, feed={"x": x}, scope=params, runs=30, warmup=2, trace=trace)
    assert r.runs == 30 and r.warmup == 2 and len(r.times_ms) == 30
    assert 0 < r.min_ms <= r.p10_ms <= r.median_ms <= r.p90_ms <= r.max_ms
    assert r.min_ms <= r.mean_ms <= r.max_ms and r.first_ms > 0
    assert r.median_ms == sorted(r.times_ms)[int(0.5 * 29 + 0.5)]
    doc = json.loads(trace.read_text())
    spans = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    assert sorted(e["name"] for e in spans if e.get("cat") == "op") == sorted(MLP_FUSED_OPS)
    assert all(e["dur"] >= 0 for e in spans)
    with pytest.raises(icore.Error, match="profile"):
        icore.Executor().bench(prog, feed={"x": x}, scope=params, runs=1, trace=tmp_path / "t")
    with pytest.raises(ValueError):
        exe.bench(prog, feed={"x": x}, scope=params, runs=0)
