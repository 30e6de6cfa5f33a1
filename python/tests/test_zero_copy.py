"""Zero-copy feeds (ic_tensor_wrap): a C-contiguous, aligned array of a supported dtype is run
in place; anything else is copied once. What these tests prove, and what they do not:
- Executor.feed_stats() counts which path each feed took (the extension's own bookkeeping:
  it proves the extension handed icore the array's memory instead of a copy, not what a
  kernel read; test_interp's borrowed_feeds_read_in_place proves on the C side that a run
  reads wrapped memory in place, at run time, and never lets it escape into outputs).
- A feed over a read-only memory mapping runs and gives the same bits as a copy: icore never
  wrote to it (a write would kill the process with SIGSEGV).
- The array's reference count is back where it was after the run: the buffer export held
  for the run is released, nothing leaks, and an array fed while the executor lives can be
  resized afterwards (numpy refuses while a buffer export is held)."""
import mmap
import sys

import numpy as np
import pytest

import icore
from conftest import SHARED, need


@pytest.fixture(scope="module")
def mlp(example):
    model, x = example
    prog, params = icore.load_inference_model(model)
    return prog, params, x


def run(exe, prog, params, x):
    out, = exe.run(prog, feed={"x": x}, fetch_list=prog.fetch_target_names, scope=params)
    return out


def test_contiguous_feeds_are_borrowed(mlp):
    prog, params, x = mlp
    exe = icore.Executor(threads=1)
    x = np.ascontiguousarray(x, dtype=np.float32)
    want = run(exe, prog, params, x.copy())
    assert exe.feed_stats() == {"borrowed": 1, "copied": 0}
    before = sys.getrefcount(x)
    got = run(exe, prog, params, x)
    assert sys.getrefcount(x) == before  # the buffer export ended with the run
    assert exe.feed_stats() == {"borrowed": 2, "copied": 0}
    assert got.tobytes() == want.tobytes()
    # the fed array is not tied to icore after the run: numpy resizes it (it refuses while
    # a buffer export is held)
    y = x.copy()
    run(exe, prog, params, y)
    y.resize((2, x.shape[1]), refcheck=False)
    # the output never aliases the input
    assert not np.shares_memory(got, x)


def test_read_only_mapping_is_never_written(mlp, tmp_path):
    prog, params, x = mlp
    x = np.ascontiguousarray(x, dtype=np.float32)
    f = tmp_path / "x.bin"
    f.write_bytes(x.tobytes())
    with open(f, "rb") as fh:
        m = mmap.mmap(fh.fileno(), 0, prot=mmap.PROT_READ)
    try:
        ro = np.frombuffer(m, dtype=np.float32).reshape(x.shape)
        assert not ro.flags.writeable and ro.flags.c_contiguous
        exe = icore.Executor(threads=2)
        got = run(exe, prog, params, ro)
        assert exe.feed_stats() == {"borrowed": 1, "copied": 0}
        assert got.tobytes() == run(exe, prog, params, x.copy()).tobytes()
        del ro
    finally:
        m.close()  # fails with BufferError if icore still held the export


def test_real_model_reads_read_only_mapping(tmp_path):
    model = need(SHARED / "models" / "paddle" / "mobilenet_v2" / "inference.pdmodel")
    prog = icore.load_program(model)
    params = icore.random_params(prog, 1)
    x = np.random.default_rng(3).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    f = tmp_path / "x.bin"
    f.write_bytes(x.tobytes())
    with open(f, "rb") as fh:
        m = mmap.mmap(fh.fileno(), 0, prot=mmap.PROT_READ)
    try:
        ro = np.frombuffer(m, dtype=np.float32).reshape(x.shape)
        exe = icore.Executor(threads=2)
        feed = prog.feed_target_names[0]
        a = exe.run(prog, feed={feed: ro}, scope=params)
        b = exe.run(prog, feed={feed: x}, scope=params)
        assert exe.feed_stats() == {"borrowed": 2, "copied": 0}
        for u, v in zip(a, b):
            assert u.tobytes() == v.tobytes()
        del ro
    finally:
        m.close()


def test_other_layouts_are_copied_once(mlp):
    prog, params, x = mlp
    x = np.ascontiguousarray(x, dtype=np.float32)
    exe = icore.Executor(threads=1)
    want = run(exe, prog, params, x)
    n = 1
    # non-contiguous: every other column of a wider array
    wide = np.zeros((x.shape[0], 2 * x.shape[1]), np.float32)
    wide[:, ::2] = x
    assert not wide[:, ::2].flags.c_contiguous
    assert run(exe, prog, params, wide[:, ::2]).tobytes() == want.tobytes()
    # the other byte order
    assert run(exe, prog, params, x.astype(">f4")).tobytes() == want.tobytes()
    # unaligned memory
    raw = bytearray(x.nbytes + 1)
    un = np.frombuffer(raw, dtype=np.float32, count=x.size, offset=1).reshape(x.shape)
    un[...] = x
    assert un.ctypes.data % 4 != 0
    assert run(exe, prog, params, un).tobytes() == want.tobytes()
    assert exe.feed_stats() == {"borrowed": n, "copied": 3}


def test_borrowed_feed_outlives_the_callers_reference():
    """The caller drops its only reference to a fed array while the run (GIL released) reads
    it: the Py_buffer the run holds keeps the memory alive (freed memory would be reused by
    the garbage arrays allocated meanwhile, and ASan builds would report it), the result is
    right, and the array is freed once the run is over."""
    import gc
    import threading
    import weakref
    model = need(SHARED / "models" / "paddle" / "mobilenet_v2" / "inference.pdmodel")
    prog = icore.load_program(model)
    params = icore.random_params(prog, 1)
    name = prog.feed_target_names[0]
    exe = icore.Executor(threads=1)
    x = np.random.default_rng(5).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    want = exe.run(prog, feed={name: x.copy()}, scope=params)
    feed = {name: x}
    alive = weakref.ref(x)
    del x
    base = sys.getrefcount(feed[name])  # the dict's and the call's
    got = []
    t = threading.Thread(target=lambda: got.append(exe.run(prog, feed=feed, scope=params)))
    t.start()
    seen = False
    while t.is_alive() and not seen:
        seen = sys.getrefcount(feed[name]) > base  # the run's Py_buffer holds it now
    assert seen, "the run ended before the test saw it hold the array"
    feed.clear()  # the run's buffer is now the array's only owner
    gc.collect()
    junk = [np.full((1, 3, 224, 224), np.nan, np.float32) for _ in range(8)]
    t.join()
    del junk
    assert alive() is None  # released with the run
    for a, b in zip(got[0], want):
        assert a.tobytes() == b.tobytes()
