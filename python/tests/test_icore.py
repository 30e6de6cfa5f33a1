"""The icore Python package against the `icore` CLI (bitwise), Paddle's own outputs (within
each case's tolerance), and its own contracts: errors, threads, lifetimes, dtypes."""
import gc
import pathlib
import threading

import numpy as np
import pytest

import icore
from conftest import DATA, SHARED, need, run_cli

REAL = {  # shared program -> (feed, dims), the shapes tests/test_models.c uses
    "mobilenet_v2": ("inputs", (1, 3, 224, 224)),
    "pphgnet_plate": ("x", (2, 3, 224, 224)),
    "ppocr_rec_svtr": ("x", (1, 3, 48, 96)),
    "crnn_rec": ("x", (2, 3, 32, 64)),
}


def same_bits(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, a.shape, b.dtype, b.shape)
    assert a.tobytes() == b.tobytes()


# --------------------------------------------------------------------------------------
# Results equal the CLI's and Paddle's
# --------------------------------------------------------------------------------------
def test_example_matches_cli(cli, example, tmp_path):
    model, x = example
    prog, params = icore.load_inference_model(model)
    assert prog.feed_target_names == ["x"]
    fetch = prog.fetch_target_names
    assert len(fetch) == 1
    exe = icore.Executor(place="cpu", threads=2)
    out, = exe.run(prog, feed={"x": x}, fetch_list=fetch, scope=params)
    want = run_cli(cli, [model, "--feed", "x=%s" % (model.parent / "x.npy"), "--threads", 2],
                   tmp_path)
    same_bits(out, want[fetch[0]])
    # softmax rows
    np.testing.assert_allclose(out.sum(axis=1), 1, rtol=1e-5)
    # fetch_list defaults to the program's fetch targets; the uncompiled mode agrees
    out2, = icore.Executor(mode="uncompiled").run(prog, feed={"x": x}, scope=params)
    np.testing.assert_allclose(out2, out, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_program_matches_cli(cli, name, tmp_path):
    model = need(SHARED / "models" / "paddle" / name / "inference.pdmodel")
    feed, dims = REAL[name]
    x = np.random.default_rng(7).uniform(-1, 1, dims).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    prog = icore.load_program(model)
    params = icore.random_params(prog, 1)
    assert prog.feed_target_names == [feed]
    exe = icore.Executor(threads=2)
    outs = exe.run(prog, feed={feed: x}, fetch_list=prog.fetch_target_names, scope=params)
    want = run_cli(cli, [model, "--random-params", 1, "--feed", "%s=%s" % (feed, tmp_path / "x.npy"),
                         "--threads", 2], tmp_path / "out")
    assert len(outs) == len(prog.fetch_target_names) >= 1
    for n, o in zip(prog.fetch_target_names, outs):
        same_bits(o, want[n.replace("/", "_")])
        assert np.isfinite(o).all()


def read_case(d):
    """tests/data/paddle_oracle and paddle_seq case.txt: feeds, lods, fetches, tolerances."""
    c = {"feeds": [], "lod": {}, "fetch": [], "outlod": {}, "rtol": 0.0, "atol": 1e-5,
         "model": None, "params": None}
    for line in (d / "case.txt").read_text().splitlines():
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if w[0] == "model":
            c["model"] = d / w[1]
        elif w[0] == "params" and w[1] == "file":
            c["params"] = d / w[2]
        elif w[0] == "feed":
            c["feeds"].append((w[1], np.load(d / w[2])))
        elif w[0] == "lod":
            c["lod"].setdefault(w[1], []).append([int(v) for v in w[2:]])
        elif w[0] == "fetch":
            c["fetch"].append((w[1], np.load(d / w[2])))
        elif w[0] == "outlod":
            c["outlod"].setdefault(w[1], []).append([int(v) for v in w[2:]])
        elif w[0] in ("rtol", "atol"):
            c[w[0]] = float(w[1])
    if c["model"] is None:
        c["model"] = d / "inference.pdmodel"
    return c


@pytest.mark.parametrize("case", ["conv2d_groups", "activations", "layer_norm",
                                  "cast_dtypes", "batch_norm_nchw", "attention_block"])
def test_paddle_oracle(case):
    d = need(DATA / "paddle_oracle" / case)
    c = read_case(d)
    prog, params = icore.load_inference_model(c["model"], c["params"])
    feed = {n: a for n, a in c["feeds"]}
    outs = icore.Executor().run(prog, feed=feed, fetch_list=[n for n, _ in c["fetch"]],
                                scope=params)
    for (n, want), got in zip(c["fetch"], outs):
        assert got.dtype == want.dtype and got.shape == want.shape, n
        np.testing.assert_allclose(got, want, rtol=c["rtol"], atol=c["atol"], err_msg=n)


@pytest.mark.parametrize("case", ["sequence_pool_2level", "crf_decoding_lod", "lod_reset_append"])
def test_paddle_lod(case):
    d = need(DATA / "paddle_seq" / case)
    c = read_case(d)
    prog, params = icore.load_inference_model(c["model"])
    feed = {n: (icore.LoDTensor(a, c["lod"][n]) if n in c["lod"] else a) for n, a in c["feeds"]}
    outs = icore.Executor().run(prog, feed=feed, fetch_list=[n for n, _ in c["fetch"]],
                                scope=params, return_lod=True)
    for (n, want), (got, lod) in zip(c["fetch"], outs):
        assert got.dtype == want.dtype and got.shape == want.shape, n
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5, err_msg=n)
        assert lod == c["outlod"].get(n, []), n


# --------------------------------------------------------------------------------------
# The predictor, parameters, scopes
# --------------------------------------------------------------------------------------
def test_predictor(example):
    model, x = example
    prog, params = icore.load_inference_model(model)
    want, = icore.Executor().run(prog, feed={"x": x}, scope=params)
    cfg = icore.Config(str(model))
    cfg.set_cpu_math_library_num_threads(2)
    pred = icore.create_predictor(cfg)
    assert pred.get_input_names() == ["x"]
    assert pred.get_output_names() == prog.fetch_target_names
    h = pred.get_input_handle("x")
    h.reshape(x.shape)
    x2 = x.copy()
    h.copy_from_cpu(x2)
    x2[:] = 0  # copy_from_cpu copied
    assert pred.run()
    out = pred.get_output_handle(pred.get_output_names()[0])
    same_bits(out.copy_to_cpu(), want)
    assert out.shape() == list(want.shape) and out.lod() == []
    same_bits(pred.run([x])[0], want)
    with pytest.raises(ValueError, match="not an input"):
        pred.get_input_handle("nope")


def test_save_params_is_paddles_bytes(example, tmp_path):
    model, x = example
    prog, params = icore.load_inference_model(model)
    icore.save(prog, params, tmp_path / "p.pdiparams")
    # the example's parameters were written by ic_params_save in Paddle's combined format
    assert (tmp_path / "p.pdiparams").read_bytes() == model.with_suffix(".pdiparams").read_bytes()
    again = icore.load_params(prog, tmp_path / "p.pdiparams")
    a, = icore.Executor().run(prog, feed={"x": x}, scope=params)
    b, = icore.Executor().run(prog, feed={"x": x}, scope=again)
    same_bits(a, b)
    icore.save(prog, params, tmp_path / "sep", format="separate")
    c, = icore.Executor().run(prog, feed={"x": x}, scope=icore.load_params(prog, tmp_path / "sep"))
    same_bits(a, c)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "int32", "int64",
                                   "float16", "float32", "float64"])
def test_scope_dtypes_round_trip(dtype):
    s = icore.Scope()
    a = (np.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    s["v"] = a
    assert "v" in s and "w" not in s and len(s) == 1
    b = s["v"]
    same_bits(b, a)
    s["v"] = a[:, ::2]  # non-contiguous input: copied through numpy
    same_bits(s["v"], np.ascontiguousarray(a[:, ::2]))
    s["s"] = np.asarray(3, dtype)  # a scalar (0-d)
    same_bits(s["s"], np.asarray(3, dtype))


def test_feed_parameter_shadows_for_one_run(example):
    model, x = example
    prog, params = icore.load_inference_model(model)
    exe = icore.Executor()
    base, = exe.run(prog, feed={"x": x}, scope=params)
    names = [n for n in ("fc1.b", "fc2.b") if n in params]
    assert names, "the example has no fc biases?"
    b = params[names[0]]
    other, = exe.run(prog, feed={"x": x, names[0]: b + 1}, scope=params)
    assert not np.array_equal(other, base)
    same_bits(exe.run(prog, feed={"x": x}, scope=params)[0], base)


# --------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------
def test_errors(example, tmp_path):
    model, x = example
    prog, params = icore.load_inference_model(model)
    exe = icore.Executor()
    assert issubclass(icore.Error, RuntimeError)
    with pytest.raises(icore.Error, match="'x'.*float32.*float64") as e:
        exe.run(prog, feed={"x": x.astype(np.float64)}, scope=params)
    assert e.value.status == "IC_ERR_INVALID_ARGUMENT"
    with pytest.raises(icore.Error, match="x"):
        exe.run(prog, feed={}, scope=params)  # feed target not given
    with pytest.raises(icore.Error, match="nope"):
        exe.run(prog, feed={"x": x}, fetch_list=["nope"], scope=params)
    with pytest.raises(icore.Error, match="16"):  # wrong inner dim
        exe.run(prog, feed={"x": np.zeros((4, 5), np.float32)}, scope=params)
    with pytest.raises(TypeError, match="unsupported element type"):
        exe.run(prog, feed={"x": x.astype(np.complex64)}, scope=params)
    with pytest.raises(TypeError, match="unsupported element type"):
        exe.run(prog, feed={"x": x.astype(">c8")}, scope=params)
    # the other byte order is converted (one copy), not refused
    np.testing.assert_array_equal(exe.run(prog, feed={"x": x.astype(">f4")}, scope=params)[0],
                                  exe.run(prog, feed={"x": x}, scope=params)[0])
    with pytest.raises(TypeError, match="dict"):
        exe.run(prog, feed=[x], scope=params)
    with pytest.raises(TypeError, match="fetch_list must be a list"):
        exe.run(prog, feed={"x": x}, fetch_list="softmax.tmp_0", scope=params)
    assert exe.run(prog, feed={"x": x}, fetch_list=tuple(prog.fetch_target_names),
                   scope=params)[0].shape == (4, 10)
    with pytest.raises(TypeError, match="fetch_list entries"):
        exe.run(prog, feed={"x": x}, fetch_list=[3], scope=params)
    with pytest.raises(icore.Error, match="LoD"):
        exe.run(prog, feed={"x": (x, [[0, 9]])}, scope=params)  # 4 rows, LoD ends at 9
    with pytest.raises(icore.Error):
        exe.run(prog, feed={"x": x})  # no parameters
    with pytest.raises(icore.Error, match="nonexistent"):
        icore.load_inference_model(tmp_path / "nonexistent.pdmodel")
    (tmp_path / "bad.pdmodel").write_bytes(b"\x0a\xff\xff\xff")
    with pytest.raises(icore.Error, match="bad.pdmodel"):
        icore.load_inference_model(tmp_path / "bad.pdmodel")
    with pytest.raises(ValueError, match="mode"):
        icore.Executor(mode="fast")
    with pytest.raises(ValueError, match="place"):
        icore.Executor(place="tpu")
    # the executor still works after all that
    assert exe.run(prog, feed={"x": x}, scope=params)[0].shape == (4, 10)


# --------------------------------------------------------------------------------------
# Lifetimes and threads
# --------------------------------------------------------------------------------------
def test_fetched_arrays_outlive_everything(example):
    model, x = example
    prog, params = icore.load_inference_model(model)
    exe = icore.Executor()
    out, = exe.run(prog, feed={"x": x}, scope=params)
    keep = out.copy()
    view = out[1:3]
    del exe, prog, params, out
    gc.collect()
    junk = [np.full((4, 10), 7, np.float32) for _ in range(100)]  # reuse freed memory
    same_bits(view, keep[1:3])
    assert view.flags.writeable
    view[0, 0] = 5  # the array owns its memory: writes are fine
    assert junk[0][0, 0] == 7


def test_threads_share_an_executor(example):
    """Python threads running one executor (and one each) with the GIL released give the
    single-threaded results bit for bit."""
    model, x = example
    prog, params = icore.load_inference_model(model)
    crnn = icore.load_program(need(SHARED / "models" / "paddle" / "crnn_rec" / "inference.pdmodel"))
    crnn_params = icore.random_params(crnn, 3)
    xs = [np.random.default_rng(i).uniform(-1, 1, (4, 16)).astype(np.float32) for i in range(4)]
    cx = np.random.default_rng(9).uniform(-1, 1, (1, 3, 32, 64)).astype(np.float32)
    ref = icore.Executor(threads=1)
    want = [ref.run(prog, feed={"x": v}, scope=params)[0] for v in xs]
    want_crnn = ref.run(crnn, feed={"x": cx}, scope=crnn_params)[0]
    shared = icore.Executor(threads=2)
    errors = []

    def work(k):
        try:
            own = icore.Executor(threads=1)
            for it in range(20):
                exe = shared if it % 2 else own
                got, = exe.run(prog, feed={"x": xs[k]}, scope=params)
                same_bits(got, want[k])
            for _ in range(2):
                same_bits(shared.run(crnn, feed={"x": cx}, scope=crnn_params)[0], want_crnn)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors


def test_gil_released_during_run():
    """While one thread runs a long program, another thread's Python code makes progress."""
    model = need(SHARED / "models" / "paddle" / "mobilenet_v2" / "inference.pdmodel")
    prog = icore.load_program(model)
    params = icore.random_params(prog, 1)
    x = np.zeros((1, 3, 224, 224), np.float32)
    exe = icore.Executor(threads=1)
    exe.run(prog, feed={"inputs": x}, scope=params)  # plan built
    done = threading.Event()
    ticks = []

    def runner():
        for _ in range(5):
            exe.run(prog, feed={"inputs": x}, scope=params)
        done.set()

    t = threading.Thread(target=runner)
    t.start()
    while not done.is_set():
        ticks.append(1)
        done.wait(0.0005)
    t.join()
    # counted while the runner was inside ic_executor_run; with the GIL held it would be ~0
    assert len(ticks) > 10


def test_executor_extras(example, tmp_path):
    model, x = example
    prog, params = icore.load_inference_model(model)
    exe = icore.Executor(threads=1, profile=True, check_nan_inf=True, seed=5)

    class Var:  # Paddle's fetch_list also takes Variables
        name = prog.fetch_target_names[0]

    a, = exe.run(prog, feed={"x": x}, fetch_list=[Var()], scope=params)
    b, = exe.run(icore.program_from_bytes(prog.serialize()), feed={"x": x}, scope=params)
    same_bits(a, b)
    hits, misses = exe.cache_stats()
    assert misses >= 1 and hits + misses == 2
    assert exe.memory_stats()["peak_bytes"] > 0
    exe.write_profile(tmp_path / "trace.json")
    assert b"traceEvents" in (tmp_path / "trace.json").read_bytes()
    with pytest.raises(icore.Error):
        icore.Executor().write_profile(tmp_path / "none.json")  # profile off


def test_feed_dict_changed_during_conversion(example):
    """A feed value whose conversion grows the feed dict neither crashes nor overruns."""
    model, x = example
    prog, params = icore.load_inference_model(model)
    feed = {}

    class Grows:
        def __array__(self, dtype=None, copy=None):
            for k in range(20):
                feed["extra%d" % k] = x
            return x

    feed["x"] = Grows()
    out, = icore.Executor().run(prog, feed=feed, scope=params)
    same_bits(out, icore.Executor().run(prog, feed={"x": x}, scope=params)[0])


def test_winograd_option(cli, tmp_path):
    """Executor(winograd=True): the CLI's --winograd bits, within float32 tolerance of the
    default (direct) convolutions, and the same bits at 1 and 2 threads."""
    model = need(SHARED / "models" / "paddle" / "pphgnet_plate" / "inference.pdmodel")
    x = np.random.default_rng(3).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    prog = icore.load_program(model)
    params = icore.random_params(prog, 1)
    fetch = prog.fetch_target_names
    direct, = icore.Executor(threads=2).run(prog, feed={"x": x}, fetch_list=fetch, scope=params)
    wino2, = icore.Executor(threads=2, winograd=True).run(prog, feed={"x": x}, fetch_list=fetch,
                                                          scope=params)
    wino1, = icore.Executor(threads=1, winograd=True).run(prog, feed={"x": x}, fetch_list=fetch,
                                                          scope=params)
    same_bits(wino1, wino2)
    np.testing.assert_allclose(wino2, direct, rtol=1e-4, atol=1e-5)
    want = run_cli(cli, [model, "--random-params", 1, "--feed", "x=%s" % (tmp_path / "x.npy"),
                         "--threads", 2, "--winograd"], tmp_path / "out")
    same_bits(wino2, want[fetch[0].replace("/", "_")])


def test_prune_option():
    """Executor(prune=True) fetching an intermediate of MobileNetV2 runs only its producers:
    one convolution instead of all, the same bits as the whole program's run of that fetch."""
    model = need(SHARED / "models" / "paddle" / "mobilenet_v2" / "inference.pdmodel")
    x = np.random.default_rng(4).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    prog = icore.load_program(model)
    params = icore.random_params(prog, 1)
    whole = icore.Executor(threads=1, fuse=False).inspect(prog, feed={"inputs": x}, scope=params)
    convs = [i for i in whole.instructions if i.op_type == "conv2d"]
    mid = convs[0].outputs[0]
    full, = icore.Executor(threads=1, fuse=False).run(prog, feed={"inputs": x}, fetch_list=[mid],
                                                     scope=params)
    for mode in ("compiled", "uncompiled"):
        got, = icore.Executor(threads=1, fuse=False, prune=True, mode=mode).run(
            prog, feed={"inputs": x}, fetch_list=[mid], scope=params)
        same_bits(got, full)
    plan = icore.Executor(threads=1, fuse=False, prune=True).inspect(
        prog, feed={"inputs": x}, fetch_list=[mid], scope=params)
    assert [i.op_type for i in plan.instructions].count("conv2d") == 1 < len(convs)
    assert len(plan.instructions) <= 4 < len(whole.instructions)  # feed, conv2d, fetch
    # analysis only (icore.inspect without feeds): the same pruned plan
    static = icore.inspect(prog, feed=["inputs"], fetch_list=[mid], fuse=False, prune=True)
    assert [i.op_type for i in static.instructions] == [i.op_type for i in plan.instructions]


def test_executor_keywords_reach_the_options(example):
    """Every Executor keyword lands in its own option (a format string once shifted seed,
    check_nan_inf and cache_capacity by one: seed=5 ran with seed 1, cache_capacity=8 with 1)."""
    model, x = example
    prog, params = icore.load_inference_model(model)
    startup = icore.load_program(DATA / "train" / "dropout" / "startup.pdmodel")  # seed-0 ops

    def init(seed):
        scope = icore.Scope()
        icore.Executor(threads=1, seed=seed).run(startup, scope=scope)
        return {n: scope[n].copy() for n in sorted(startup.param_names)}

    a, b, c = init(5), init(5), init(6)
    assert a and all(a[n].tobytes() == b[n].tobytes() for n in a)
    assert any(a[n].tobytes() != c[n].tobytes() for n in a)  # the seed is used

    def misses(capacity):
        exe = icore.Executor(threads=1, cache_capacity=capacity)
        for _ in range(2):
            exe.run(prog, feed={"x": x}, scope=params)
            exe.run(startup, scope=icore.Scope())
        return exe.cache_stats()[1]

    assert misses(1) == 4  # each program evicts the other's plan
    assert misses(2) == 2
    with pytest.raises(ValueError):
        icore.Executor(cache_capacity=0)
