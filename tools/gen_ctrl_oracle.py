#!/usr/bin/env python3
"""Write tests/data/paddle_ctrl/: programs with control flow (sub-blocks) exported by
PaddlePaddle's own control-flow APIs, with Paddle's outputs, for tests/test_ctrl_oracle.c.
Same layout and case.txt manifest as tools/gen_paddle_oracle.py (whose helpers it uses).

    FLAGS_enable_pir_api=0 /work/pdenv26/bin/python tools/gen_ctrl_oracle.py [OUT_DIR] [CASE...]

Tested with PaddlePaddle 2.6.2 (CPU): Paddle 3.3.1 in legacy mode fails inside
paddle.static.nn.cond ("logical_not(): argument must be Value, but got Variable").

It also writes tests/data/paddle_ctrl_lod/ (read by tests/test_ctrl_lod.c, in the layout of
tools/gen_paddle_seq.py: inference.pdmodel, in_k.npy / out_k.npy and case.txt with "feed",
"lod", "fetch" and "outlod" lines): fluid's DynamicRNN pattern over LoD tensors, lod_rank_table,
max_sequence_len, lod_tensor_to_array, reorder_lod_tensor_by_rank, shrink_rnn_memory and
array_to_lod_tensor, run by Paddle 2.6.2 itself; and the legacy NMS ops whose per-image split
is LoD on their outputs (multiclass_nms, multiclass_nms2: Paddle 3.3.1 no longer has the
second). Paddle 2.6.2 has no Python API left for these ops (paddle.fluid is gone), but its
executor still runs them: the programs add them with Block.append_op. The multi_gru cases
are the exception: that op has only a oneDNN kernel, which Paddle 2.6.2 lacks; they are
written by Paddle 3.3.1's inference predictor (/work/pdenv, naming them).
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
def cond_infer(g):
    """cond_true's program with its conditional_blocks typed conditional_block_infer, the
    variant Paddle's inference passes write (same slots; it keeps no scope for a gradient),
    run so by Paddle's own executor."""
    cond_case(g, g.rand([2, 3], 0.1, 1.0))
    for blk in paddle.static.default_main_program().blocks:
        for op in blk.ops:
            if op.type == "conditional_block":
                op.desc.set_type("conditional_block_infer")


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
def array_slice(g):
    """A tensor array read back with arr[k]: Paddle 2.x writes a slice op (decrease_axis) whose
    Input is the LoDTensorArray (PaddleDetection's R-CNN exports); k 0, 2 and -1."""
    x = g.data("x", g.rand([2, 3]))
    arr = paddle.tensor.create_array(F32)
    for k in range(3):
        paddle.tensor.array_write(x * float(k + 1), paddle.full([1], k, "int64"), array=arr)
    g.fetch(arr[0], arr[2], arr[-1])


@case()
def array_slice_range(g):
    """A tensor array sliced into a tensor array, arr[i:j] (Paddle 2.x writes a slice op
    without decrease_axis whose Input and Out are LoDTensorArrays): [1:3], [-3:-1], [-1:]
    (ends 2147483647 in the program), [0:10] past the end, read back stacked and by
    length."""
    x = g.data("x", g.rand([2, 3]))
    arr = paddle.tensor.create_array(F32)
    for k in range(4):
        paddle.tensor.array_write(x * float(k + 1), paddle.full([1], k, "int64"), array=arr)
    outs = []
    for sub in (arr[1:3], arr[-3:-1], arr[-1:], arr[0:10]):
        t, _ = paddle.tensor.manipulation.tensor_array_to_tensor(sub, axis=0, use_stack=True)
        outs += [t, paddle.tensor.array_length(sub)]
    g.fetch(*outs)


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


# ---------------------------------------------------------------------------------------
# LoD tensor arrays (fluid's DynamicRNN pattern), in the paddle_seq case layout
# ---------------------------------------------------------------------------------------

LOD_RNG = np.random.RandomState(20261127)


def lrand(*shape):
    return LOD_RNG.uniform(-1.0, 1.0, shape).astype(F32)


def raw_op(block, type_, inputs, outputs, attrs=None):
    block.append_op(type=type_, inputs=inputs, outputs=outputs, attrs=attrs or {})


def rank_var(block, name):
    return block.create_var(name=name, type=paddle.base.core.VarDesc.VarType.LOD_RANK_TABLE)


def array_var(block, name):
    return block.create_var(name=name, type=paddle.base.core.VarDesc.VarType.LOD_TENSOR_ARRAY,
                            dtype=F32)


def dynamic_rnn(feeds):
    """fluid's DynamicRNN as its layers emitted it: the input's rank table (lod_rank_table,
    max_sequence_len), the input split into time steps (lod_tensor_to_array), the initial
    memory reordered by rank (reorder_lod_tensor_by_rank), a while over the steps reading
    x_t and the previous memory from arrays, shrinking the memory to the sequences still
    running (shrink_rnn_memory), h = tanh(x_t W + h U), and the outputs joined back into a
    LoD tensor in the input's sequence order (array_to_lod_tensor)."""
    b = paddle.static.default_main_program().global_block()
    x = paddle.static.data("x", [-1, 3], F32, lod_level=1)
    h0 = paddle.static.data("h0", [-1, 4], F32)
    w = paddle.static.data("w", [3, 4], F32)
    u = paddle.static.data("u", [4, 4], F32)
    rank = rank_var(b, "rank")
    raw_op(b, "lod_rank_table", {"X": [x]}, {"Out": [rank]}, {"level": 0})
    maxlen = b.create_var(name="maxlen", dtype="int64")
    raw_op(b, "max_sequence_len", {"RankTable": [rank]}, {"Out": [maxlen]})
    xarr = array_var(b, "xarr")
    raw_op(b, "lod_tensor_to_array", {"X": [x], "RankTable": [rank]}, {"Out": [xarr]})
    mem0 = b.create_var(name="mem0", dtype=F32)
    raw_op(b, "reorder_lod_tensor_by_rank", {"X": [h0], "RankTable": [rank]}, {"Out": [mem0]})
    i = paddle.full([1], 0, "int64")
    memarr = paddle.tensor.create_array(F32)
    outarr = paddle.tensor.create_array(F32)
    paddle.tensor.array_write(mem0, i, array=memarr)
    cond = paddle.less_than(i, maxlen)
    loop = paddle.static.nn.control_flow.While(cond)
    with loop.block():
        xt = paddle.tensor.array_read(xarr, i)
        prev = paddle.tensor.array_read(memarr, i)
        cb = paddle.static.default_main_program().current_block()
        prev_s = cb.create_var(name="prev_s", dtype=F32)
        raw_op(cb, "shrink_rnn_memory", {"X": [prev], "I": [i], "RankTable": [rank]},
               {"Out": [prev_s]})
        h = paddle.tanh(paddle.matmul(xt, w) + paddle.matmul(prev_s, u))
        paddle.tensor.array_write(h, i, array=outarr)
        paddle.increment(i)
        paddle.tensor.array_write(h, i, array=memarr)
        paddle.assign(paddle.less_than(i, maxlen), cond)
    out = b.create_var(name="out", dtype=F32)
    raw_op(b, "array_to_lod_tensor", {"X": [outarr], "RankTable": [rank]}, {"Out": [out]})
    return [x, h0, w, u], [out, mem0, maxlen]


def two_level(level, shrink_i):
    """A two-level LoD tensor through a rank table of the given level: split into an array
    and joined back (array_to_lod_tensor must rebuild the LoD), elements 0 and 1 read back
    (with their own LoD), the tensor reordered by rank, max_sequence_len, and
    shrink_rnn_memory at step shrink_i."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        x = paddle.static.data("x", [-1, 2], F32, lod_level=2)
        rank = rank_var(b, "rank")
        raw_op(b, "lod_rank_table", {"X": [x]}, {"Out": [rank]}, {"level": level})
        maxlen = b.create_var(name="maxlen", dtype="int64")
        raw_op(b, "max_sequence_len", {"RankTable": [rank]}, {"Out": [maxlen]})
        arr = array_var(b, "arr")
        raw_op(b, "lod_tensor_to_array", {"X": [x], "RankTable": [rank]}, {"Out": [arr]})
        e0 = paddle.tensor.array_read(arr, paddle.full([1], 0, "int64"))
        e1 = paddle.tensor.array_read(arr, paddle.full([1], 1, "int64"))
        back = b.create_var(name="back", dtype=F32)
        raw_op(b, "array_to_lod_tensor", {"X": [arr], "RankTable": [rank]}, {"Out": [back]})
        fetch = [back, e0, e1, maxlen]
        if level == 0:
            re = b.create_var(name="reordered", dtype=F32)
            raw_op(b, "reorder_lod_tensor_by_rank", {"X": [x], "RankTable": [rank]},
                   {"Out": [re]})
            fetch.append(re)
        sh = b.create_var(name="shrunk", dtype=F32)
        raw_op(b, "shrink_rnn_memory",
               {"X": [x], "I": [paddle.full([1], shrink_i, "int64")], "RankTable": [rank]},
               {"Out": [sh]})
        fetch.append(sh)
        return [x], fetch
    return build


BS_V, BS_H, BS_BEAM, BS_END, BS_MAXLEN = 8, 6, 3, 2, 6


def beam_search_decoder(feeds):
    """fluid's beam-search decoder (the machine-translation book model's, with matmuls for
    its fc layers): a while over at most BS_MAXLEN steps reads the previous ids, scores and
    state from arrays, expands the state to the candidates (sequence_expand), takes the
    embedding of the previous ids, h = tanh(state W + emb U), softmax(h V), the top beam
    candidates (topk), accumulates log-probabilities, gives them the scores' LoD (lod_reset)
    and selects with beam_search (level 0, is_accumulated); the loop also stops once
    beam_search selects nothing (is_empty). beam_search_decode walks the arrays back into
    the hypotheses. End token BS_END, so beams finish at different steps and are pruned."""
    main = paddle.static.default_main_program()
    b = main.global_block()
    init_ids = paddle.static.data("init_ids", [-1, 1], "int64", lod_level=2)
    init_scores = paddle.static.data("init_scores", [-1, 1], F32, lod_level=2)
    h0 = paddle.static.data("h0", [-1, BS_H], F32)
    emb = paddle.static.data("emb", [BS_V, BS_H], F32)
    wh = paddle.static.data("wh", [BS_H, BS_H], F32)
    we = paddle.static.data("we", [BS_H, BS_H], F32)
    wo = paddle.static.data("wo", [BS_H, BS_V], F32)
    i = paddle.full([1], 0, "int64")
    maxlen = paddle.full([1], BS_MAXLEN, "int64")
    ids_arr = paddle.tensor.create_array("int64")
    sc_arr = paddle.tensor.create_array(F32)
    st_arr = paddle.tensor.create_array(F32)
    paddle.tensor.array_write(init_ids, i, array=ids_arr)
    paddle.tensor.array_write(init_scores, i, array=sc_arr)
    paddle.tensor.array_write(h0, i, array=st_arr)
    cond = paddle.less_than(i, maxlen)
    loop = paddle.static.nn.control_flow.While(cond)
    with loop.block():
        cb = main.current_block()
        pre_ids = paddle.tensor.array_read(ids_arr, i)
        pre_state = paddle.tensor.array_read(st_arr, i)
        pre_score = paddle.tensor.array_read(sc_arr, i)
        state = paddle.static.nn.sequence_expand(pre_state, pre_score)
        e = paddle.gather(emb, paddle.reshape(pre_ids, [-1]))
        cur = paddle.tanh(paddle.matmul(state, wh) + paddle.matmul(e, we))
        prob = paddle.nn.functional.softmax(paddle.matmul(cur, wo))
        top_scores, top_ids = paddle.topk(prob, k=BS_BEAM)
        accu0 = paddle.add(paddle.log(top_scores), paddle.reshape(pre_score, [-1, 1]))
        accu = cb.create_var(name="accu", dtype=F32)
        raw_op(cb, "lod_reset", {"X": [accu0], "Y": [pre_score]}, {"Out": [accu]})
        sel_ids = cb.create_var(name="sel_ids", dtype="int64")
        sel_sc = cb.create_var(name="sel_sc", dtype=F32)
        parent = cb.create_var(name="parent", dtype="int32")
        raw_op(cb, "beam_search",
               {"pre_ids": [pre_ids], "pre_scores": [pre_score], "ids": [top_ids],
                "scores": [accu]},
               {"selected_ids": [sel_ids], "selected_scores": [sel_sc], "parent_idx": [parent]},
               {"level": 0, "beam_size": BS_BEAM, "end_id": BS_END, "is_accumulated": True})
        paddle.increment(i)
        paddle.tensor.array_write(cur, i, array=st_arr)
        paddle.tensor.array_write(sel_ids, i, array=ids_arr)
        paddle.tensor.array_write(sel_sc, i, array=sc_arr)
        going = paddle.logical_not(paddle.is_empty(sel_ids))
        paddle.assign(paddle.logical_and(paddle.less_than(i, maxlen), going), cond)
    out_ids = b.create_var(name="sentence_ids", dtype="int64")
    out_sc = b.create_var(name="sentence_scores", dtype=F32)
    raw_op(b, "beam_search_decode", {"Ids": [ids_arr], "Scores": [sc_arr]},
           {"SentenceIds": [out_ids], "SentenceScores": [out_sc]},
           {"beam_size": BS_BEAM, "end_id": BS_END})
    steps = paddle.tensor.array_length(ids_arr)
    return [init_ids, init_scores, h0, emb, wh, we, wo], [out_ids, out_sc, steps]


def bs_values(batch, seed):
    rng = np.random.RandomState(seed)
    lod = [list(range(batch + 1)), list(range(batch + 1))]
    return {"init_ids": (np.zeros((batch, 1), "int64"), lod),
            "init_scores": (np.zeros((batch, 1), F32), lod),
            "h0": (rng.uniform(-1, 1, (batch, BS_H)).astype(F32), None),
            "emb": (rng.uniform(-2, 2, (BS_V, BS_H)).astype(F32), None),
            "wh": (rng.uniform(-1, 1, (BS_H, BS_H)).astype(F32), None),
            "we": (rng.uniform(-1, 1, (BS_H, BS_H)).astype(F32), None),
            "wo": (rng.uniform(-2, 2, (BS_H, BS_V)).astype(F32), None)}


def one_level(feeds):
    """A one-level LoD tensor and its own rank table: shrink_rnn_memory at steps 0, 1 and 3
    (the LoD cut to the sequences still running), reorder_lod_tensor_by_rank, and
    lod_tensor_to_array's element 1 (rows only, no LoD)."""
    b = paddle.static.default_main_program().global_block()
    x = paddle.static.data("x", [-1, 3], F32, lod_level=1)
    rank = rank_var(b, "rank")
    raw_op(b, "lod_rank_table", {"X": [x]}, {"Out": [rank]}, {"level": 0})
    fetch = []
    for step in (0, 1, 3):
        sh = b.create_var(name="shrunk_%d" % step, dtype=F32)
        raw_op(b, "shrink_rnn_memory",
               {"X": [x], "I": [paddle.full([1], step, "int64")], "RankTable": [rank]},
               {"Out": [sh]})
        fetch.append(sh)
    re = b.create_var(name="reordered", dtype=F32)
    raw_op(b, "reorder_lod_tensor_by_rank", {"X": [x], "RankTable": [rank]}, {"Out": [re]})
    arr = array_var(b, "arr")
    raw_op(b, "lod_tensor_to_array", {"X": [x], "RankTable": [rank]}, {"Out": [arr]})
    e1 = paddle.tensor.array_read(arr, paddle.full([1], 1, "int64"))
    return [x], fetch + [re, e1]


def nms_boxes(n, rng):
    """n boxes [x0, y0, x1, y1], overlapping often."""
    xy = rng.uniform(0.0, 0.7, (n, 2))
    wh = rng.uniform(0.05, 0.4, (n, 2))
    return np.concatenate([xy, xy + wh], axis=1).astype(F32)


def nms_values(per_class, seed, lod=None):
    rng = np.random.RandomState(seed)
    if per_class:
        m = lod[-1][-1]
        return {"boxes": (nms_boxes(m * 3, rng).reshape(m, 3, 4), lod),
                "scores": (rng.uniform(0, 1, (m, 3)).astype(F32), lod)}
    return {"boxes": (np.stack([nms_boxes(16, rng) for _ in range(3)]), None),
            "scores": (rng.uniform(0, 1, (3, 4, 16)).astype(F32), None)}


def nms_legacy(op_type, per_class, score_threshold):
    """multiclass_nms (Out) or multiclass_nms2 (Out, Index), whose per-image split is LoD on
    both: BBoxes [N, M, 4] shared by the classes with Scores [N, C, M], or (per_class) BBoxes
    [M, C, 4] and Scores [M, C] split into images by BBoxes' LoD. A score_threshold over every
    score leaves nothing: Out is then [[-1]] with the LoD {0, 1} (multiclass_nms), or [0, 6]
    with an empty Index (multiclass_nms2)."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        lod = 1 if per_class else 0
        boxes = paddle.static.data("boxes", [-1, 3, 4] if per_class else [-1, 16, 4], F32,
                                   lod_level=lod)
        scores = paddle.static.data("scores", [-1, 3] if per_class else [-1, 4, 16], F32,
                                    lod_level=lod)
        out = b.create_var(name="nms_out", dtype=F32, lod_level=1)
        outs = {"Out": [out]}
        if op_type == "multiclass_nms2":
            outs["Index"] = [b.create_var(name="nms_index", dtype="int32", lod_level=1)]
        raw_op(b, op_type, {"BBoxes": [boxes], "Scores": [scores]}, outs,
               {"background_label": 0, "score_threshold": score_threshold, "nms_top_k": 8,
                "nms_threshold": 0.45, "nms_eta": 1.0, "keep_top_k": -1, "normalized": True})
        return [boxes, scores], [v[0] for v in outs.values()]
    return build


def proposals_values(seed):
    rng = np.random.RandomState(seed)
    A, H, W = 3, 5, 6
    xy = np.stack(np.meshgrid(np.arange(W) * 16.0, np.arange(H) * 16.0), -1)
    sizes = np.array([[16, 16], [32, 16], [16, 40]], dtype=np.float64)
    anchors = np.concatenate([np.repeat(xy[:, :, None, :], A, 2) - sizes / 2,
                              np.repeat(xy[:, :, None, :], A, 2) + sizes / 2], -1)
    return {"scores": ((rng.randint(0, 5, (2, A, H, W)) * 0.2).astype(F32), None),
            "deltas": (rng.uniform(-0.4, 0.4, (2, 4 * A, H, W)).astype(F32), None),
            "im_info": (np.array([[80, 96, 2.0], [70, 90, 0.5]], F32), None),
            "anchors": (anchors.astype(F32), None),
            "variances": (rng.uniform(0.5, 1.5, (H, W, A, 4)).astype(F32), None)}


def proposals_legacy(pre, post, nms, min_size):
    """fluid's generate_proposals: ImInfo (height, width, scale; min_size is tested on the boxes
    divided by the scale), RpnRois and RpnRoiProbs with the per-image split as LoD; scores
    from a few values, so that the std::sort / std::nth_element and NMS orders of ties show."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        ins = {}
        for slot, name in (("Scores", "scores"), ("BboxDeltas", "deltas"), ("ImInfo", "im_info"),
                           ("Anchors", "anchors"), ("Variances", "variances")):
            ins[slot] = [paddle.static.data(name, list(feeds[name][0].shape), F32)]
        rois = b.create_var(name="rpn_rois", dtype=F32, lod_level=1)
        probs = b.create_var(name="rpn_probs", dtype=F32, lod_level=1)
        raw_op(b, "generate_proposals", ins, {"RpnRois": [rois], "RpnRoiProbs": [probs]},
               {"pre_nms_topN": pre, "post_nms_topN": post, "nms_thresh": nms,
                "min_size": min_size, "eta": 1.0})
        return [v[0] for v in ins.values()], [rois, probs]
    return build


def box_clip_rows(feeds):
    """box_clip of a Faster R-CNN head's boxes [rois, classes, 4]: its LoD splits the rows of
    dim 0 into images (3 and 4 rows), each row holding its classes' boxes."""
    b = paddle.static.default_main_program().global_block()
    x = paddle.static.data("boxes", [-1, 2, 4], F32, lod_level=1)
    info = paddle.static.data("im_info", [-1, 3], F32)
    out = b.create_var(name="clipped", dtype=F32, lod_level=1)
    raw_op(b, "box_clip", {"Input": [x], "ImInfo": [info]}, {"Output": [out]})
    return [x, info], [out]


def collect_fpn(feeds):
    """collect_fpn_proposals over two levels split into 2 images by their LoD (no RoisNum):
    the best 9 of all, grouped by image, with the per-image split as LoD."""
    b = paddle.static.default_main_program().global_block()
    rois = [paddle.static.data("r%d" % k, [-1, 4], F32, lod_level=1) for k in range(2)]
    scores = [paddle.static.data("s%d" % k, [-1, 1], F32, lod_level=1) for k in range(2)]
    out = b.create_var(name="fpn_rois", dtype=F32, lod_level=1)
    raw_op(b, "collect_fpn_proposals", {"MultiLevelRois": rois, "MultiLevelScores": scores},
           {"FpnRois": [out]}, {"post_nms_topN": 9})
    return rois + scores, [out]


def collect_values():
    rng = np.random.RandomState(44)
    v = {}
    for k, (n, lod) in enumerate(((7, [[0, 3, 7]]), (6, [[0, 4, 6]]))):
        xy = rng.uniform(0, 50, (n, 2))
        v["r%d" % k] = (np.concatenate([xy, xy + rng.uniform(5, 30, (n, 2))], 1).astype(F32), lod)
        v["s%d" % k] = (rng.uniform(0, 1, (n, 1)).astype(F32), lod)
    return v


def distribute_fpn(with_num):
    def build(feeds):
        """distribute_fpn_proposals over 4 levels of regions split into 2 images (one
        without any at some level) by their LoD, or also by RoisNum: each level's regions
        carry the per-image split as LoD (what a fluid FPN R-CNN's roi_align reads at
        batch > 1), and with RoisNum the per-level counts."""
        b = paddle.static.default_main_program().global_block()
        rois = paddle.static.data("rois", [-1, 4], F32, lod_level=1)
        ins = {"FpnRois": [rois]}
        feeds_out = [rois]
        if with_num:
            num = paddle.static.data("num", [2], "int32")
            ins["RoisNum"] = [num]
            feeds_out.append(num)
        multi = [b.create_var(name="lvl%d" % k, dtype=F32, lod_level=1) for k in range(4)]
        restore = b.create_var(name="restore", dtype="int32")
        outs = {"MultiFpnRois": multi, "RestoreIndex": [restore]}
        if with_num:
            outs["MultiLevelRoIsNum"] = [b.create_var(name="n%d" % k, dtype="int32")
                                         for k in range(4)]
        raw_op(b, "distribute_fpn_proposals", ins, outs,
               {"min_level": 2, "max_level": 5, "refer_level": 4, "refer_scale": 224,
                "pixel_offset": True})
        return feeds_out, multi + [restore] + outs.get("MultiLevelRoIsNum", [])
    return build


DFP_ROIS = np.array([[0, 0, 10, 10], [0, 0, 60, 40], [5, 5, 300, 200], [0, 0, 500, 500],
                     [10, 10, 30, 20], [0, 0, 1000, 900], [3, 3, 120, 140]], F32)


def seq_reverse(feeds):
    """sequence_reverse of a one-level LoD tensor (an empty sequence among them)."""
    b = paddle.static.default_main_program().global_block()
    x = paddle.static.data("x", [-1, 3], F32, lod_level=1)
    y = b.create_var(name="reversed", dtype=F32, lod_level=1)
    raw_op(b, "sequence_reverse", {"X": [x]}, {"Y": [y]})
    return [x], [y]


def ctc_align_lod(merge, blank):
    """ctc_align over tokens [T, 1] split by LoD: blanks dropped, repeats merged or not."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        x = paddle.static.data("tokens", [-1, 1], "int32", lod_level=1)
        out = b.create_var(name="aligned", dtype="int32", lod_level=1)
        raw_op(b, "ctc_align", {"Input": [x]}, {"Output": [out]},
               {"blank": blank, "merge_repeated": merge})
        return [x], [out]
    return build


def warpctc_lod(blank, dtype=F32):
    """warpctc in LoD mode: Logits [sum T, C] and Label [sum L, 1], each with one LoD level;
    Loss [B, 1] and WarpCTCGrad (time-major [Tmax, B, C], zero past each sequence's end)."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        x = paddle.static.data("logits", [-1, 5], dtype, lod_level=1)
        y = paddle.static.data("label", [-1, 1], "int32", lod_level=1)
        loss = b.create_var(name="ctc_loss", dtype=dtype)
        grad = b.create_var(name="ctc_grad", dtype=dtype)
        raw_op(b, "warpctc", {"Logits": [x], "Label": [y]},
               {"Loss": [loss], "WarpCTCGrad": [grad]},
               {"blank": blank, "norm_by_times": False})
        return [x, y], [loss, grad]
    return build


def ctc_align_padded(feeds):
    """ctc_align in padded mode: Input [B, T] with InputLength; padding_value -1."""
    b = paddle.static.default_main_program().global_block()
    x = paddle.static.data("tokens", [-1, 8], "int64")
    ln = paddle.static.data("lens", [-1, 1], "int64")
    out = b.create_var(name="aligned", dtype="int64")
    out_len = b.create_var(name="aligned_len", dtype="int64")
    raw_op(b, "ctc_align", {"Input": [x], "InputLength": [ln]},
           {"Output": [out], "OutputLength": [out_len]},
           {"blank": 0, "merge_repeated": True, "padding_value": -1})
    return [x, ln], [out, out_len]


def linear_chain_crf_case(dtype, padded):
    """linear_chain_crf (the negative log-likelihood of a CRF over tags, fluid's
    layers.linear_chain_crf): Emission [rows, 5] with Label [rows, 1] split by Label's LoD, or
    padded [3, 4, 5] with Label [3, 4] and Length; all four outputs fetched."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        if padded:
            em = paddle.static.data("em", [-1, 4, 5], dtype)
            lab = paddle.static.data("lab", [-1, 4], "int64")
            ln = paddle.static.data("len", [-1], "int64")
            ins = [em, lab, ln]
        else:
            em = paddle.static.data("em", [-1, 5], dtype, lod_level=1)
            lab = paddle.static.data("lab", [-1, 1], "int64", lod_level=1)
            ins = [em, lab]
        tr = paddle.static.data("tr", [7, 5], dtype)
        outs = [b.create_var(name=n, dtype=dtype)
                for n in ("alpha", "emission_exps", "transition_exps", "nll")]
        op_in = {"Emission": [em], "Transition": [tr], "Label": [lab]}
        if padded:
            op_in["Length"] = [ln]
        raw_op(b, "linear_chain_crf", op_in,
               {"Alpha": [outs[0]], "EmissionExps": [outs[1]], "TransitionExps": [outs[2]],
                "LogLikelihood": [outs[3]]})
        return ins + [tr], outs
    return build


def crf_values(dtype, padded):
    r = np.random.RandomState(81 if padded else 82)
    if padded:
        return {"em": (r.uniform(-3, 3, (3, 4, 5)).astype(dtype), None),
                "lab": (r.randint(0, 5, (3, 4)).astype("int64"), None),
                "len": (np.array([4, 1, 3], "int64"), None),
                "tr": (r.uniform(-1, 1, (7, 5)).astype(dtype), None)}
    # sequences of 3, 0 (an empty one: its likelihood is 0), 1 and 5 rows
    return {"em": (r.uniform(-3, 3, (9, 5)).astype(dtype), [[0, 3, 3, 4, 9]]),
            "lab": (r.randint(0, 5, (9, 1)).astype("int64"), [[0, 3, 3, 4, 9]]),
            "tr": (r.uniform(-1, 1, (7, 5)).astype(dtype), None)}


def im2seq(with_y):
    """im2sequence of 2 images [3, 5, 7]: 2 x 3 patches, strides (2, 2), paddings
    (up 1, left 0, down 1, right 2); with Y, each image's real size / out_stride (2, 3)."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        x = paddle.static.data("img", [-1, 3, 5, 7], F32)
        ins = {"X": [x]}
        feeds_out = [x]
        if with_y:
            y = paddle.static.data("real", [-1, 2], F32)
            ins["Y"] = [y]
            feeds_out.append(y)
        out = b.create_var(name="seq", dtype=F32, lod_level=1)
        raw_op(b, "im2sequence", ins, {"Out": [out]},
               {"kernels": [2, 3], "strides": [2, 2], "paddings": [1, 0, 1, 2],
                "out_stride": [2, 3]})
        return feeds_out, [out]
    return build


def iou_lod(feeds):
    """iou_similarity of boxes split into 2 images by LoD against 3 boxes (box_normalized
    false): Out keeps X's LoD."""
    b = paddle.static.default_main_program().global_block()
    x = paddle.static.data("x", [-1, 4], F32, lod_level=1)
    y = paddle.static.data("y", [-1, 4], F32)
    out = b.create_var(name="iou", dtype=F32, lod_level=1)
    raw_op(b, "iou_similarity", {"X": [x], "Y": [y]}, {"Out": [out]}, {"box_normalized": False})
    return [x, y], [out]


def box_decoder_assign_lod(feeds):
    """box_decoder_and_assign with LoD on PriorBox (2 + 3 rows) and on TargetBox: DecodeBox
    keeps TargetBox's and OutputAssignBox PriorBox's."""
    b = paddle.static.default_main_program().global_block()
    pb = paddle.static.data("pb", [-1, 4], F32, lod_level=1)
    pv = paddle.static.data("pv", [4], F32)
    tb = paddle.static.data("tb", [-1, 8], F32, lod_level=1)
    sc = paddle.static.data("sc", [-1, 2], F32, lod_level=1)
    dec = b.create_var(name="decoded", dtype=F32, lod_level=1)
    asg = b.create_var(name="assigned", dtype=F32, lod_level=1)
    raw_op(b, "box_decoder_and_assign",
           {"PriorBox": [pb], "PriorBoxVar": [pv], "TargetBox": [tb], "BoxScore": [sc]},
           {"DecodeBox": [dec], "OutputAssignBox": [asg]}, {"box_clip": 4.135})
    return [pb, pv, tb, sc], [dec, asg]


def box_values():
    rng = np.random.RandomState(46)
    xy = rng.uniform(0, 40, (5, 2))
    pb = np.concatenate([xy, xy + rng.uniform(2, 20, (5, 2))], 1).astype(F32)
    return {"pb": (pb, [[0, 2, 5]]), "pv": (np.array([0.1, 0.1, 0.2, 0.2], F32), None),
            "tb": (rng.uniform(-2, 2, (5, 8)).astype(F32), [[0, 3, 5]]),
            "sc": (rng.uniform(0, 1, (5, 2)).astype(F32), [[0, 3, 5]])}


def seq_slice(dtype):
    """sequence_slice of a one-level LoD tensor (an empty sequence, an empty slice)."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        x = paddle.static.data("x", [-1, 2], dtype, lod_level=1)
        off = paddle.static.data("off", [-1, 1], "int64")
        ln = paddle.static.data("len", [-1, 1], "int64")
        out = b.create_var(name="sliced", dtype=dtype, lod_level=1)
        raw_op(b, "sequence_slice", {"X": [x], "Offset": [off], "Length": [ln]}, {"Out": [out]})
        return [x, off, ln], [out]
    return build


def fused_emb_pool(k, padding_idx, dtype=F32):
    """fused_embedding_seq_pool: ids [T, 1] or [T, k, 1] (Paddle wants the last dimension 1)
    split into sequences by LoD (an empty one among them), each sequence's embeddings summed
    per column, padding_idx skipped."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        ids = paddle.static.data("ids", [-1, 1] if k == 1 else [-1, k, 1], "int64", lod_level=1)
        w = paddle.static.data("w", [7, 3], dtype)
        out = b.create_var(name="pooled", dtype=dtype)
        raw_op(b, "fused_embedding_seq_pool", {"W": [w], "Ids": [ids]}, {"Out": [out]},
               dict(combiner="sum", padding_idx=padding_idx, is_sparse=False))
        return [ids, w], [out]
    return build


def bipartite(match_type, dist_threshold, dtype=F32):
    """bipartite_match over a DistMat whose LoD splits its rows among images."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        d = paddle.static.data("dist", [-1, feeds["dist"][0].shape[1]], dtype, lod_level=1)
        idx = b.create_var(name="match_idx", dtype="int32")
        dist = b.create_var(name="match_dist", dtype=dtype)
        raw_op(b, "bipartite_match", {"DistMat": [d]},
               {"ColToRowMatchIndices": [idx], "ColToRowMatchDist": [dist]},
               dict(match_type=match_type, dist_threshold=dist_threshold))
        return [d], [idx, dist]
    return build


def bipartite_values(rows, cols, lod, seed, dtype=F32, zeros=0.3):
    rng = np.random.RandomState(seed)
    v = rng.uniform(0, 1, (rows, cols))
    v[rng.uniform(0, 1, (rows, cols)) < zeros] = 0.0
    return {"dist": (v.astype(dtype), lod)}


def mine_hard(mining_type, with_loc, attrs, dtype=F32):
    """mine_hard_examples over losses, match indices and distances of 3 images."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        P = feeds["cls"][0].shape[1]
        cls = paddle.static.data("cls", [-1, P], dtype)
        idx = paddle.static.data("midx", [-1, P], "int32")
        dist = paddle.static.data("mdist", [-1, P], dtype)
        ins = {"ClsLoss": [cls], "MatchIndices": [idx], "MatchDist": [dist]}
        feed_vars = [cls, idx, dist]
        if with_loc:
            loc = paddle.static.data("loc", [-1, P], dtype)
            ins["LocLoss"] = [loc]
            feed_vars.append(loc)
        neg = b.create_var(name="neg_indices", dtype="int32", lod_level=1)
        upd = b.create_var(name="updated_indices", dtype="int32")
        raw_op(b, "mine_hard_examples", ins, {"NegIndices": [neg], "UpdatedMatchIndices": [upd]},
               dict(mining_type=mining_type, **attrs))
        return feed_vars, [neg, upd]
    return build


def mine_values(seed, dtype=F32, P=12):
    rng = np.random.RandomState(seed)
    idx = np.full((3, P), -1, "int32")
    for n, k in ((0, 3), (1, 1), (2, 0)):
        idx[n, rng.choice(P, k, replace=False)] = rng.randint(0, 4, k)
    dist = rng.uniform(0, 1, (3, P)).astype(dtype)
    return {"cls": (rng.uniform(0, 5, (3, P)).astype(dtype), None), "midx": (idx, None),
            "mdist": (dist, None), "loc": (rng.uniform(0, 2, (3, P)).astype(dtype), None)}


def row_conv_case(dtype, batch):
    """row_conv over LoD sequences [T, D] or a batch [B, T, D]."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        shape = [-1, 4] if not batch else [-1, 5, 4]
        x = paddle.static.data("x", shape, dtype, lod_level=0 if batch else 1)
        f = paddle.static.data("f", [3, 4], dtype)
        out = b.create_var(name="rowconv", dtype=dtype, lod_level=0 if batch else 1)
        raw_op(b, "row_conv", {"X": [x], "Filter": [f]}, {"Out": [out]})
        return [x, f], [out]
    return build


def seq_erase(dtype, tokens):
    """sequence_erase of ids with LoD (the last level recounted)."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        x = paddle.static.data("ids", [-1, 1], dtype, lod_level=1)
        out = b.create_var(name="erased", dtype=dtype, lod_level=1)
        raw_op(b, "sequence_erase", {"X": [x]}, {"Out": [out]}, {"tokens": tokens})
        return [x], [out]
    return build


def seq_enumerate(dtype, win, pad):
    """sequence_enumerate: windows of win ids from each id, padded at each sequence's end."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        x = paddle.static.data("ids", [-1, 1], dtype, lod_level=1)
        out = b.create_var(name="windows", dtype=dtype, lod_level=1)
        raw_op(b, "sequence_enumerate", {"X": [x]}, {"Out": [out]},
               {"win_size": win, "pad_value": pad})
        return [x], [out]
    return build


def edit_distance_lod(feeds):
    """edit_distance in LoD mode (strings split by the first LoD level; an empty hypothesis),
    normalized false and true."""
    b = paddle.static.default_main_program().global_block()
    h = paddle.static.data("hyps", [-1, 1], "int64", lod_level=1)
    r = paddle.static.data("refs", [-1, 1], "int64", lod_level=1)
    outs = []
    for norm in (False, True):
        n = b.create_var(name="seqnum_%d" % norm, dtype="int64")
        d = b.create_var(name="dist_%d" % norm, dtype=F32)
        raw_op(b, "edit_distance", {"Hyps": [h], "Refs": [r]},
               {"SequenceNum": [n], "Out": [d]}, {"normalized": norm})
        outs += [d, n]
    return [h, r], outs


def retinanet_out(dtype):
    """retinanet_detection_output over 2 FPN levels of a batch of 2 (3 classes): the default
    -like settings and an adaptive one (nms_eta 0.7, keep_top_k 5, nms_top_k -1); Out's LoD
    splits the images."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        ins = {"BBoxes": [], "Scores": [], "Anchors": []}
        for l in range(2):
            ins["BBoxes"].append(paddle.static.data("d%d" % l, [-1, feeds["d%d" % l][0].shape[1], 4],
                                                    dtype))
            ins["Scores"].append(paddle.static.data("s%d" % l, [-1, feeds["s%d" % l][0].shape[1], 3],
                                                    dtype))
            ins["Anchors"].append(paddle.static.data("a%d" % l, list(feeds["a%d" % l][0].shape),
                                                     dtype))
        ins["ImInfo"] = [paddle.static.data("im", [-1, 3], dtype)]
        outs = []
        for k, (thr, top, nms, eta, keep) in enumerate(((0.3, 10, 0.45, 1.0, 100),
                                                       (0.2, -1, 0.6, 0.7, 5))):
            o = b.create_var(name="dets_%d" % k, dtype=dtype, lod_level=1)
            raw_op(b, "retinanet_detection_output", ins, {"Out": [o]},
                   {"score_threshold": thr, "nms_top_k": top, "nms_threshold": nms,
                    "nms_eta": eta, "keep_top_k": keep})
            outs.append(o)
        feed_vars = [v for k in ("BBoxes", "Scores", "Anchors", "ImInfo") for v in ins[k]]
        return feed_vars, outs
    return build


def retinanet_values(seed, dtype):
    rng = np.random.RandomState(seed)
    v = {}
    for l, m in enumerate((12, 6)):
        xy = rng.uniform(0, 16, (m, 2))  # crowded: NMS suppresses
        v["a%d" % l] = (np.concatenate([xy, xy + rng.uniform(8, 24, (m, 2))], 1).astype(dtype),
                        None)
        v["d%d" % l] = (rng.uniform(-0.3, 0.3, (2, m, 4)).astype(dtype), None)
        # quarter steps: ties in score
        v["s%d" % l] = ((rng.randint(0, 5, (2, m, 3)) * 0.25).astype(dtype), None)
    v["im"] = (np.array([[64, 64, 1.0], [90, 70, 1.5]], dtype), None)
    return v


def lanms(dtype, configs):
    """locality_aware_nms of a batch of 2 images (10 boxes in overlapping runs, 3 classes),
    one op per config (background_label, score_threshold, nms_top_k, nms_threshold, nms_eta,
    keep_top_k, normalized); Out's LoD splits the images."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        bx = paddle.static.data("boxes", [-1, 10, 4], dtype)
        sc = paddle.static.data("scores", [-1, 3, 10], dtype)
        outs = []
        for k, (bg, thr, top, nms, eta, keep, norm) in enumerate(configs):
            o = b.create_var(name="lanms_%d" % k, dtype=dtype, lod_level=1)
            raw_op(b, "locality_aware_nms", {"BBoxes": [bx], "Scores": [sc]}, {"Out": [o]},
                   {"background_label": bg, "score_threshold": thr, "nms_top_k": top,
                    "nms_threshold": nms, "nms_eta": eta, "keep_top_k": keep,
                    "normalized": norm})
            outs.append(o)
        return [bx, sc], outs
    return build


def lanms_values(seed, dtype, scale=1.0):
    """Boxes in runs of neighbours (each a small shift of the one before, so that the
    locality merge absorbs them), jumps between runs."""
    rng = np.random.RandomState(seed)
    boxes = np.zeros((2, 10, 4))
    for n in range(2):
        cur = rng.uniform(0, 20, 2)
        for i in range(10):
            cur = cur + (rng.uniform(-1, 1, 2) if rng.rand() < 0.7 else rng.uniform(5, 15, 2))
            wh = rng.uniform(6, 12, 2)
            boxes[n, i] = np.concatenate([cur, cur + wh])
    scores = (rng.randint(1, 9, (2, 3, 10)) * 0.1)
    return {"boxes": ((boxes * scale).astype(dtype), None), "scores": (scores.astype(dtype), None)}


LANMS_CONFIGS = [(-1, 0.3, -1, 0.3, 1.0, -1, False), (0, 0.2, 5, 0.4, 0.8, 6, False),
                 (1, 0.5, -1, 0.2, 1.0, 4, True)]


def lanms_poly(dtype, npts, configs):
    """locality_aware_nms over polygons of npts points ([N, 10, 2 * npts] boxes, 2 classes)."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        bx = paddle.static.data("boxes", [-1, 10, 2 * npts], dtype)
        sc = paddle.static.data("scores", [-1, 2, 10], dtype)
        outs = []
        for k, (bg, thr, top, nms, eta, keep, norm) in enumerate(configs):
            o = b.create_var(name="lanms_%d" % k, dtype=dtype, lod_level=1)
            raw_op(b, "locality_aware_nms", {"BBoxes": [bx], "Scores": [sc]}, {"Out": [o]},
                   {"background_label": bg, "score_threshold": thr, "nms_top_k": top,
                    "nms_threshold": nms, "nms_eta": eta, "keep_top_k": keep,
                    "normalized": norm})
            outs.append(o)
        return [bx, sc], outs
    return build


def lanms_poly_values(seed, dtype, npts, concave=False):
    """Polygons in runs of neighbours: a rotated rectangle (4 points) or a ring of npts points
    around a centre (every other one pulled in when concave), each a small shift and turn of
    the one before; counter-clockwise in image 0, clockwise in image 1."""
    rng = np.random.RandomState(seed)
    boxes = np.zeros((2, 10, 2 * npts))
    for n in range(2):
        cur, ang = rng.uniform(10, 30, 2), rng.uniform(0, 1)
        for i in range(10):
            if rng.rand() < 0.7:
                cur, ang = cur + rng.uniform(-1.5, 1.5, 2), ang + rng.uniform(-0.1, 0.1)
            else:
                cur, ang = cur + rng.uniform(8, 15, 2), rng.uniform(0, 1)
            t = ang + np.arange(npts) * 2 * np.pi / npts
            r = rng.uniform(6, 10, npts) if npts > 4 else np.full(npts, 8.0)
            if npts == 4:
                t = ang + np.array([0.6, np.pi - 0.6, np.pi + 0.6, 2 * np.pi - 0.6])
            if concave:
                r[1::2] *= 0.45
            pts = np.stack([cur[0] + r * np.cos(t), cur[1] + r * np.sin(t)], 1)
            if n == 1:  # image 1 clockwise (merging opposite orders would twist a polygon)
                pts = pts[::-1]
            boxes[n, i] = pts.reshape(-1)
    scores = rng.randint(1, 9, (2, 2, 10)) * 0.1
    return {"boxes": (boxes.astype(dtype), None), "scores": (scores.astype(dtype), None)}


LANMS_POLY_CONFIGS = [(-1, 0.3, -1, 0.3, 1.0, -1, False), (0, 0.2, 5, 0.2, 0.8, 4, True)]


def ifelse_split_merge(level, dtype, xlod_level, merge_type="merge_lod_tensor", short=False):
    """fluid IfElse's data path without its blocks: split_lod_tensor of X by a bool Mask at
    LoD `level`, each branch scaled differently (scale keeps the LoD), merge_lod_tensor (or
    merge_lod_tensor_infer) back in Mask's order; both branches and the merge fetched with
    their LoD. short: also a split by a Mask shorter than X's sequences (the rest dropped)."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        x = paddle.static.data("x", [-1] + list(feeds["x"][0].shape[1:]), dtype,
                               lod_level=xlod_level)
        mask = paddle.static.data("mask", [-1, 1], "bool")
        out_lod = max(xlod_level - level, 0)
        t = b.create_var(name="x_true", dtype=dtype, lod_level=out_lod)
        f = b.create_var(name="x_false", dtype=dtype, lod_level=out_lod)
        raw_op(b, "split_lod_tensor", {"X": [x], "Mask": [mask]},
               {"OutTrue": [t], "OutFalse": [f]}, {"level": level})
        t2 = b.create_var(name="true_scaled", dtype=dtype, lod_level=out_lod)
        f2 = b.create_var(name="false_scaled", dtype=dtype, lod_level=out_lod)
        raw_op(b, "scale", {"X": [t]}, {"Out": [t2]}, {"scale": 2.0, "bias": 1.0})
        raw_op(b, "scale", {"X": [f]}, {"Out": [f2]}, {"scale": -3.0, "bias": 0.0})
        m = b.create_var(name="merged", dtype=dtype, lod_level=xlod_level)
        raw_op(b, merge_type, {"X": [x], "Mask": [mask], "InTrue": [t2], "InFalse": [f2]},
               {"Out": [m]}, {"level": level})
        feed_vars, fetch_vars = [x, mask], [t, f, m]
        if short:
            m2 = paddle.static.data("mask2", [-1, 1], "bool")
            t3 = b.create_var(name="x_true2", dtype=dtype, lod_level=out_lod)
            f3 = b.create_var(name="x_false2", dtype=dtype, lod_level=out_lod)
            raw_op(b, "split_lod_tensor", {"X": [x], "Mask": [m2]},
                   {"OutTrue": [t3], "OutFalse": [f3]}, {"level": level})
            feed_vars.append(m2)
            fetch_vars += [t3, f3]
        return feed_vars, fetch_vars
    return build


def ifelse_mask(*bits):
    return np.array(bits, "bool").reshape(-1, 1)


IFELSE_RNG = np.random.RandomState(80)


def ifelse_rand(*shape):
    return IFELSE_RNG.uniform(-1.0, 1.0, shape).astype(F32)


def ifelse_blocks(feeds):
    """fluid's IfElse as it built programs: split_lod_tensor of x by cond (level 0), a
    conditional_block per branch whose Cond is cond itself (is_scalar_condition false: both
    blocks run whenever cond has rows, a branch's ops then seeing 0 rows when cond picks
    none for it), tanh(x) * 2 + 1 in the true block, x * -3 in the false one, written to
    variables of the main block, and merge_lod_tensor with X = Mask = cond, level 0."""
    from paddle.static.nn.control_flow import ConditionalBlock
    prog = paddle.static.default_main_program()
    b = prog.global_block()
    x = paddle.static.data("x", [-1, 3], F32)
    cond = paddle.static.data("cond", [-1, 1], "bool")
    t = b.create_var(name="x_true", dtype=F32, lod_level=0)
    f = b.create_var(name="x_false", dtype=F32, lod_level=0)
    raw_op(b, "split_lod_tensor", {"X": [x], "Mask": [cond]}, {"OutTrue": [t], "OutFalse": [f]},
           {"level": 0})
    t_out = b.create_var(name="true_out", dtype=F32, lod_level=0)
    f_out = b.create_var(name="false_out", dtype=F32, lod_level=0)
    cb = ConditionalBlock([cond], is_scalar_condition=False)
    with cb.block():
        sb = prog.current_block()
        th = sb.create_var(name="true_tanh", dtype=F32)
        raw_op(sb, "tanh", {"X": [t]}, {"Out": [th]})
        raw_op(sb, "scale", {"X": [th]}, {"Out": [t_out]}, {"scale": 2.0, "bias": 1.0})
    cb2 = ConditionalBlock([cond], is_scalar_condition=False)
    with cb2.block():
        sb = prog.current_block()
        raw_op(sb, "scale", {"X": [f]}, {"Out": [f_out]}, {"scale": -3.0, "bias": 0.0})
    m = b.create_var(name="merged", dtype=F32, lod_level=0)
    raw_op(b, "merge_lod_tensor", {"X": [cond], "Mask": [cond], "InTrue": [t_out],
                                   "InFalse": [f_out]}, {"Out": [m]}, {"level": 0})
    return [x, cond], [m, t_out, f_out]
def fusion_rnn(op, attrs, dtype, h0, bias, outs):
    """fusion_gru / fusion_lstm (Paddle's fc + recurrent fusions) over a one-level LoD X with
    the weights fed (LoD cases keep no parameters); outs names the output slots fetched."""
    gates = 3 if op == "fusion_gru" else 4

    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        m, d = feeds["x"][0].shape[1], feeds["wh"][0].shape[0]
        x = paddle.static.data("x", [-1, m], dtype, lod_level=1)
        wx = paddle.static.data("wx", [m, gates * d], dtype)
        wh = paddle.static.data("wh", [d, gates * d], dtype)
        ins = {"X": [x], "WeightX": [wx], "WeightH": [wh]}
        feed_vars = [x, wx, wh]
        if bias:
            bv = paddle.static.data("bias", list(feeds["bias"][0].shape), dtype)
            ins["Bias"] = [bv]
            feed_vars.append(bv)
        if h0:
            ins["H0"] = [paddle.static.data("h0", [-1, d], dtype)]
            feed_vars.append(ins["H0"][0])
            if op == "fusion_lstm":
                ins["C0"] = [paddle.static.data("c0", [-1, d], dtype)]
                feed_vars.append(ins["C0"][0])
        slots = (["ReorderedH0", "XX", "BatchedInput", "BatchedOut", "Hidden"]
                 if op == "fusion_gru" else
                 ["Hidden", "Cell", "XX", "BatchedInput", "BatchedHidden", "BatchedCell",
                  "ReorderedH0", "ReorderedC0", "CheckedCell"])
        made = {k: b.create_var(name="%s_%s" % (op, k.lower()), dtype=dtype, lod_level=1)
                for k in slots}
        raw_op(b, op, ins, {k: [v] for k, v in made.items()}, attrs)
        return feed_vars, [made[k] for k in outs]
    return build


def fusion_rnn_values(seed, op, lod, m, d, dtype=F32, h0=False, bias=True, peep=False):
    rng = np.random.RandomState(seed)
    gates = 3 if op == "fusion_gru" else 4
    r = lambda *sh: rng.uniform(-1, 1, sh).astype(dtype)  # noqa: E731
    ns = len(lod) - 1
    v = {"x": (r(lod[-1], m), [lod]), "wx": (r(m, gates * d), None),
         "wh": (r(d, gates * d), None)}
    if bias:
        v["bias"] = (r(1, (7 if peep else gates) * d), None)
    if h0:
        v["h0"] = (r(ns, d), None)
        if op == "fusion_lstm":
            v["c0"] = (r(ns, d), None)
    return v


def seqpool_concat(op, pooltype, dtype=F32, n=3, width=4):
    """fusion_seqpool_concat / fusion_seqpool_cvm_concat over n LoD inputs of one width."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        xs = [paddle.static.data("x%d" % i, [-1, width], dtype, lod_level=1) for i in range(n)]
        ins = {"X": xs}
        feed_vars = list(xs)
        attrs = {"pooltype": pooltype, "axis": 1}
        if op == "fusion_seqpool_cvm_concat":
            cvm = paddle.static.data("cvm", [-1, 2], dtype)
            ins["CVM"] = [cvm]
            feed_vars.append(cvm)
            attrs["use_cvm"] = True
        out = b.create_var(name="%s_out" % op, dtype=dtype, lod_level=1)
        raw_op(b, op, ins, {"Out": [out]}, attrs)
        return feed_vars, [out]
    return build


def seqpool_concat_values(seed, lods, width=4, dtype=F32, cvm=False, lo=-1.0):
    rng = np.random.RandomState(seed)
    v = {"x%d" % i: (rng.uniform(lo, 1, (lod[-1], width)).astype(dtype), [lod])
         for i, lod in enumerate(lods)}
    if cvm:
        v["cvm"] = (rng.uniform(0, 1, (len(lods[0]) - 1, 2)).astype(dtype), None)
    return v


def seqexpand_concat_fc(act, dtype=F32, widths=(3, 2, 4), bias=True):
    """fusion_seqexpand_concat_fc: X_0 with the sequences, X_1.. one row per sequence."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        xs = [paddle.static.data("x%d" % i, [-1, m], dtype, lod_level=1)
              for i, m in enumerate(widths)]
        d = feeds["w"][0].shape[1]
        w = paddle.static.data("w", [sum(widths), d], dtype)
        ins = {"X": xs, "FCWeight": [w]}
        feed_vars = xs + [w]
        if bias:
            bv = paddle.static.data("b", list(feeds["b"][0].shape), dtype)
            ins["FCBias"] = [bv]
            feed_vars.append(bv)
        out = b.create_var(name="secf_out", dtype=dtype, lod_level=1)
        fc = b.create_var(name="secf_fcout", dtype=dtype)
        raw_op(b, "fusion_seqexpand_concat_fc", ins, {"Out": [out], "FCOut": [fc]},
               {"fc_activation": act})
        return feed_vars, [out, fc]
    return build


def seqexpand_concat_fc_values(seed, lod, widths, d, dtype=F32, bias_shape=None):
    rng = np.random.RandomState(seed)
    n = len(lod) - 1
    v = {"x0": (rng.uniform(-1, 1, (lod[-1], widths[0])).astype(dtype), [lod])}
    for i, m in enumerate(widths[1:], 1):
        v["x%d" % i] = (rng.uniform(-1, 1, (n, m)).astype(dtype), [list(range(n + 1))])
    v["w"] = (rng.uniform(-1, 1, (sum(widths), d)).astype(dtype), None)
    if bias_shape:
        v["b"] = (rng.uniform(-1, 1, bias_shape).astype(dtype), None)
    return v


def multi_gru_case(layers, origin, bias, dims):
    """multi_gru (oneDNN only: Paddle 3.3.1's predictor runs it) over a one-level LoD X,
    weights fed; dims lists the hidden size of each layer."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        m = feeds["x"][0].shape[1]
        x = paddle.static.data("x", [-1, m], F32, lod_level=1)
        wx, wh, bs = [], [], []
        ic = m
        for layer in range(layers):
            d = dims[layer]
            for k in range(2):
                i = 2 * layer + k
                wx.append(paddle.static.data("wx%d" % i, [ic, 3 * d], F32))
                wh.append(paddle.static.data("wh%d" % i, [d, 3 * d], F32))
                if bias:
                    bs.append(paddle.static.data("b%d" % i, [1, 3 * d], F32))
            ic = 2 * d
        ins = {"X": [x], "WeightX": wx, "WeightH": wh}
        if bias:
            ins["Bias"] = bs
        out = b.create_var(name="multi_gru_hidden", dtype=F32, lod_level=1)
        raw_op(b, "multi_gru", ins, {"Hidden": [out]},
               {"activation": "tanh", "gate_activation": "sigmoid", "layers": layers,
                "origin_mode": origin, "mkldnn_data_type": "float32", "Scale_data": 1.0,
                "Shift_data": 0.0, "force_fp32_output": False, "use_mkldnn": True})
        return [x] + wx + wh + bs, [out]
    build.onednn = True
    return build


def multi_gru_values(seed, lod, m, dims, bias):
    rng = np.random.RandomState(seed)
    v = {"x": (rng.uniform(-1, 1, (lod[-1], m)).astype(F32), [lod])}
    ic = m
    for layer, d in enumerate(dims):
        for k in range(2):
            i = 2 * layer + k
            v["wx%d" % i] = (rng.uniform(-1, 1, (ic, 3 * d)).astype(F32), None)
            v["wh%d" % i] = (rng.uniform(-1, 1, (d, 3 * d)).astype(F32), None)
            if bias:
                v["b%d" % i] = (rng.uniform(-1, 1, (1, 3 * d)).astype(F32), None)
        ic = 2 * d
    return v


SEQ_IDS = np.array([[3], [1], [4], [1], [5], [9], [2], [6], [5], [3], [5]], "int64")

CTC_TOKENS = np.array([[0], [3], [3], [0], [5], [5], [5], [0], [0], [2], [2], [1]], "int32")

LOD_CASES = {
    # lengths 2, 5, 1, 4: ranked 1, 3, 0, 2
    "dynamic_rnn": (dynamic_rnn, {"x": (lrand(12, 3), [[0, 2, 7, 8, 12]]),
                                  "h0": (lrand(4, 4), None), "w": (lrand(3, 4), None),
                                  "u": (lrand(4, 4), None)}),
    # an empty sequence and ties (lengths 3, 0, 3, 1, 3): the stable sort keeps index order
    "dynamic_rnn_ties_empty": (dynamic_rnn, {"x": (lrand(10, 3), [[0, 3, 3, 6, 7, 10]]),
                                             "h0": (lrand(5, 4), None),
                                             "w": (lrand(3, 4), None),
                                             "u": (lrand(4, 4), None)}),
    # 3 sequences of 2, 1 and 3 sub-sequences (rows 2 3 | 1 | 2 1 4)
    "lod_array_level0": (two_level(0, 1), {"x": (lrand(13, 2),
                                                 [[0, 2, 3, 6], [0, 2, 5, 6, 8, 9, 13]])}),
    "lod_array_level1": (two_level(1, 2), {"x": (lrand(13, 2),
                                                 [[0, 2, 3, 6], [0, 2, 5, 6, 8, 9, 13]])}),
    # lengths 2, 1, 3, 1, 4 (ranked 4, 2, 0, 1, 3)
    "lod_array_one_level": (one_level, {"x": (lrand(11, 3), [[0, 2, 3, 6, 7, 11]])}),
    # 3 sources, beams that end at different steps, the loop running to BS_MAXLEN
    "beam_search_decoder": (beam_search_decoder, bs_values(3, 7)),
    # 2 sources whose beams all end early: beam_search prunes them and the loop stops on
    # is_empty before BS_MAXLEN
    "beam_search_decoder_early_end": (beam_search_decoder, bs_values(2, 18)),
    # 3 images of 16 shared boxes, 4 classes (background 0)
    "multiclass_nms_batched": (nms_legacy("multiclass_nms", False, 0.6), nms_values(False, 31)),
    "multiclass_nms2_batched": (nms_legacy("multiclass_nms2", False, 0.6), nms_values(False, 32)),
    # 3 images of 6, 0 and 9 rows, a box per class (the empty image gets no rows)
    "multiclass_nms2_per_class": (nms_legacy("multiclass_nms2", True, 0.5),
                                  nms_values(True, 33, [[0, 6, 6, 15]])),
    "multiclass_nms_none_kept": (nms_legacy("multiclass_nms", False, 2.0), nms_values(False, 34)),
    "multiclass_nms2_none_kept": (nms_legacy("multiclass_nms2", False, 2.0),
                                  nms_values(False, 35)),
    # 90 candidates per image: the best 40 with NMS; all, NMS off; min_size 12 (the second
    # image's scale 0.5 doubles its boxes' sides for that test)
    "generate_proposals_nms": (proposals_legacy(40, 15, 0.5, 12.0), proposals_values(41)),
    "generate_proposals_all": (proposals_legacy(0, 0, 0.0, 4.0), proposals_values(42)),
    "generate_proposals_nth": (proposals_legacy(25, 0, 0.0, 1.0), proposals_values(43)),
    "box_clip_rows": (box_clip_rows, {
        "boxes": (np.random.RandomState(45).uniform(-30, 130, (7, 2, 4)).astype(F32),
                  [[0, 3, 7]]),
        "im_info": (np.array([[80, 100, 1.0], [120, 90, 2.0]], F32), None)}),
    "collect_fpn_proposals_lod": (collect_fpn, collect_values()),
    "distribute_fpn_proposals_lod": (distribute_fpn(False), {"rois": (DFP_ROIS, [[0, 3, 7]])}),
    "distribute_fpn_proposals_num": (distribute_fpn(True), {
        "rois": (DFP_ROIS, [[0, 3, 7]]), "num": (np.array([3, 4], "int32"), None)}),
    # fusion_gru: use_seq over lengths 2, 5, 1, 4 (XX: the gates as the kernel leaves them);
    # reversed with H0 and relu / identity; batch mode (use_seq false) with ties and H0,
    # XX the batched X (M <= 3D); batch mode with M > 3D (XX the projection), no Bias,
    # float64, reversed, tanh gates
    "fusion_gru_seq": (fusion_rnn("fusion_gru", {}, F32, False, True, ["Hidden", "XX"]),
                       fusion_rnn_values(61, "fusion_gru", [0, 2, 7, 8, 12], 3, 4)),
    "fusion_gru_seq_reverse_h0": (
        fusion_rnn("fusion_gru", {"is_reverse": True, "activation": "relu",
                                  "gate_activation": "identity", "origin_mode": True},
                   F32, True, True, ["Hidden", "XX"]),
        fusion_rnn_values(62, "fusion_gru", [0, 3, 4, 9], 5, 3, h0=True)),
    "fusion_gru_batch": (
        fusion_rnn("fusion_gru", {"use_seq": False}, F32, True, True,
                   ["Hidden", "XX", "BatchedInput", "BatchedOut", "ReorderedH0"]),
        fusion_rnn_values(63, "fusion_gru", [0, 3, 3, 6, 7, 10], 4, 3, h0=True)),
    "fusion_gru_batch_wide_f64": (
        fusion_rnn("fusion_gru", {"use_seq": False, "is_reverse": True,
                                  "gate_activation": "tanh", "activation": "sigmoid"},
                   "float64", False, False, ["Hidden", "XX", "BatchedInput", "BatchedOut"]),
        fusion_rnn_values(64, "fusion_gru", [0, 4, 5, 8], 9, 2, "float64", bias=False)),
    # fusion_lstm: use_seq with peepholes (CheckedCell); reversed with H0/C0, no peepholes,
    # relu / identity / sigmoid activations; batch mode with peepholes and H0/C0 (every
    # intermediate); batch mode with M > 4D, float64, reversed, no peepholes
    "fusion_lstm_seq_peep": (
        fusion_rnn("fusion_lstm", {}, F32, False, True, ["Hidden", "Cell", "XX",
                                                         "CheckedCell"]),
        fusion_rnn_values(65, "fusion_lstm", [0, 2, 7, 8, 12], 3, 4, peep=True)),
    "fusion_lstm_seq_reverse_h0": (
        fusion_rnn("fusion_lstm", {"use_peepholes": False, "is_reverse": True,
                                   "gate_activation": "sigmoid", "cell_activation": "relu",
                                   "candidate_activation": "identity"},
                   F32, True, True, ["Hidden", "Cell", "XX"]),
        fusion_rnn_values(66, "fusion_lstm", [0, 3, 4, 9], 5, 3, h0=True)),
    "fusion_lstm_batch_peep_h0": (
        fusion_rnn("fusion_lstm", {"use_seq": False}, F32, True, True,
                   ["Hidden", "Cell", "XX", "BatchedInput", "BatchedHidden", "BatchedCell",
                    "ReorderedH0", "ReorderedC0", "CheckedCell"]),
        fusion_rnn_values(67, "fusion_lstm", [0, 3, 3, 6, 7, 10], 4, 3, h0=True, peep=True)),
    "fusion_lstm_batch_wide_f64": (
        fusion_rnn("fusion_lstm", {"use_seq": False, "is_reverse": True,
                                   "use_peepholes": False, "cell_activation": "sigmoid",
                                   "gate_activation": "tanh"},
                   "float64", False, True, ["Hidden", "Cell", "XX", "BatchedInput",
                                            "BatchedHidden", "BatchedCell"]),
        fusion_rnn_values(68, "fusion_lstm", [0, 4, 5, 8], 9, 2, "float64")),
    # fusion_seqpool_concat / fusion_seqpool_cvm_concat: three inputs of 3 sequences each
    # (different lengths per input), SUM, AVERAGE, SQRT, float64; the cvm variant on
    # non-negative show / click columns. No empty sequence: Paddle's float32 jit SeqPool
    # (xbyak) then yields the next sequence's first row instead of the sum 0 (its reference
    # kernel, used for float64, gives 0, as icore does)
    "fusion_seqpool_concat_sum": (seqpool_concat("fusion_seqpool_concat", "SUM"),
                                  seqpool_concat_values(71, [[0, 2, 3, 5], [0, 1, 4, 6],
                                                             [0, 3, 4, 5]])),
    "fusion_seqpool_concat_avg": (seqpool_concat("fusion_seqpool_concat", "AVERAGE", n=2),
                                  seqpool_concat_values(72, [[0, 2, 3, 7], [0, 4, 5, 6]])),
    "fusion_seqpool_concat_sqrt_f64": (
        seqpool_concat("fusion_seqpool_concat", "SQRT", "float64", 3, 3),
        seqpool_concat_values(73, [[0, 3, 4, 6, 8], [0, 1, 2, 3, 4], [0, 2, 5, 6, 9]], 3,
                              "float64")),
    "fusion_seqpool_cvm_concat_sum": (
        seqpool_concat("fusion_seqpool_cvm_concat", "SUM"),
        seqpool_concat_values(74, [[0, 2, 3, 5], [0, 1, 4, 6], [0, 3, 4, 5]], cvm=True,
                              lo=0.0)),
    "fusion_seqpool_cvm_concat_avg_f64": (
        seqpool_concat("fusion_seqpool_cvm_concat", "AVERAGE", "float64", 2, 3),
        seqpool_concat_values(75, [[0, 2, 3, 7], [0, 4, 5, 6]], 3, "float64", True, 0.0)),
    "fusion_seqpool_cvm_concat_sqrt": (
        seqpool_concat("fusion_seqpool_cvm_concat", "SQRT", n=2, width=2),
        seqpool_concat_values(76, [[0, 2, 3, 7], [0, 4, 5, 6]], 2, cvm=True, lo=0.0)),
    # fusion_seqexpand_concat_fc: 3 inputs (lengths 2, 3, 1, 4), tanh, bias [1, D];
    # 2 inputs, identity, no bias, float64; sigmoid with bias [D]; relu
    "fusion_seqexpand_concat_fc_tanh": (
        seqexpand_concat_fc("tanh"),
        seqexpand_concat_fc_values(81, [0, 2, 5, 6, 10], (3, 2, 4), 5, bias_shape=(1, 5))),
    "fusion_seqexpand_concat_fc_f64": (
        seqexpand_concat_fc("identity", "float64", (4, 3), False),
        seqexpand_concat_fc_values(82, [0, 3, 4, 7], (4, 3), 2, "float64")),
    "fusion_seqexpand_concat_fc_sigmoid": (
        seqexpand_concat_fc("sigmoid", F32, (2, 2, 1, 3)),
        seqexpand_concat_fc_values(83, [0, 1, 3, 6], (2, 2, 1, 3), 4, bias_shape=(4,))),
    "fusion_seqexpand_concat_fc_relu": (
        seqexpand_concat_fc("relu", F32, (3, 2)),
        seqexpand_concat_fc_values(84, [0, 2, 5, 6, 10], (3, 2), 6, bias_shape=(1, 6))),
    # multi_gru (oneDNN; Paddle 3.3.1's predictor, run as
    # `FLAGS_enable_pir_api=0 /work/pdenv/bin/python tools/gen_ctrl_oracle.py multi_gru_...`):
    # two layers (hidden 3 then 2) with biases; one layer, origin_mode, no bias
    "multi_gru_two_layers": (multi_gru_case(2, False, True, [3, 2]),
                             multi_gru_values(91, [0, 2, 5, 6, 10], 4, [3, 2], True)),
    "multi_gru_origin": (multi_gru_case(1, True, False, [3]),
                         multi_gru_values(92, [0, 3, 4, 8], 5, [3], False)),
    "sequence_reverse": (seq_reverse, {"x": (lrand(9, 3), [[0, 2, 2, 6, 9]])}),
    "ctc_align_merge": (ctc_align_lod(True, 0), {"tokens": (CTC_TOKENS, [[0, 4, 4, 12]])}),
    "ctc_align_keep": (ctc_align_lod(False, 5), {"tokens": (CTC_TOKENS, [[0, 7, 12]])}),
    "ctc_align_none": (ctc_align_lod(True, 0), {"tokens": (np.zeros([5, 1], "int32"),
                                                          [[0, 2, 5]])}),
    # steps 4, 6, 1, 5 (labels 2, 3 with a repeat, 0, and 3 repeats that cannot fit 5 steps)
    "warpctc_lod": (warpctc_lod(0), {
        "logits": ((lrand(16, 5) * 2.5), [[0, 4, 10, 11, 16]]),
        "label": (np.array([[1], [3], [2], [2], [4], [1], [1], [1]], "int32"),
                  [[0, 2, 5, 5, 8]])}),
    "warpctc_lod_fp64": (warpctc_lod(2, "float64"), {
        "logits": ((lrand(9, 5) * 3).astype("float64"), [[0, 3, 9]]),
        "label": (np.array([[0], [4], [1], [3], [1]], "int32"), [[0, 2, 5]])}),
    "ctc_align_padded": (ctc_align_padded, {
        "tokens": (np.array([[1, 1, 0, 2, 2, 3, 0, 0], [0, 4, 4, 4, 0, 4, 9, 9],
                             [7, 0, 7, 7, 1, 1, 1, 1]], "int64"), None),
        "lens": (np.array([[6], [8], [3]], "int64"), None)}),
    "im2sequence": (im2seq(False), {"img": (lrand(2, 3, 5, 7), None)}),
    "im2sequence_real_size": (im2seq(True), {"img": (lrand(2, 3, 5, 7), None),
                                             "real": (np.array([[9, 18], [5, 10]], F32), None)}),
    "iou_similarity_lod": (iou_lod, {
        "x": (np.array([[1, 1, 5, 6], [2, 3, 9, 9], [0, 0, 3, 3], [4, 4, 4, 4], [7, 1, 9, 8]],
                       F32), [[0, 2, 5]]),
        "y": (np.array([[1, 1, 5, 6], [3, 2, 8, 8], [20, 20, 21, 25]], F32), None)}),
    "box_decoder_and_assign_lod": (box_decoder_assign_lod, box_values()),
    # slices (offset, length): (1, 2), (0, 0) of an empty sequence, (3, 1), (0, 3)
    "sequence_slice": (seq_slice(F32), {
        "x": (lrand(12, 2), [[0, 4, 4, 8, 12]]),
        "off": (np.array([[1], [0], [3], [0]], "int64"), None),
        "len": (np.array([[2], [0], [1], [3]], "int64"), None)}),
    "sequence_slice_int64": (seq_slice("int64"), {
        "x": (np.arange(14, dtype="int64").reshape(7, 2), [[0, 3, 7]]),
        "off": (np.array([[2], [1]], "int64"), None),
        "len": (np.array([[1], [3]], "int64"), None)}),
    # a sequence that loses every id, an empty one
    "sequence_erase": (seq_erase("int64", [5, 1]), {"ids": (SEQ_IDS, [[0, 2, 4, 4, 7, 11]])}),
    "sequence_erase_two_level": (seq_erase("int32", [3, 9, 6]), {
        "ids": (SEQ_IDS.astype("int32"), [[0, 2, 4], [0, 3, 5, 9, 11]])}),
    "sequence_enumerate": (seq_enumerate("int64", 3, -1), {"ids": (SEQ_IDS,
                                                                   [[0, 4, 4, 5, 11]])}),
    "sequence_enumerate_int32": (seq_enumerate("int32", 2, 0), {
        "ids": (SEQ_IDS.astype("int32"), [[0, 3, 5, 11]])}),
    "edit_distance_lod": (edit_distance_lod, {
        "hyps": (SEQ_IDS, [[0, 4, 4, 7, 11]]),
        "refs": (np.array([[3], [4], [1], [5], [9], [9], [2], [5], [5], [3]], "int64"),
                 [[0, 3, 5, 6, 10]])}),
    "retinanet_detection_output": (retinanet_out(F32), retinanet_values(47, F32)),
    "retinanet_detection_output_fp64": (retinanet_out("float64"),
                                        retinanet_values(48, "float64")),
    "locality_aware_nms": (lanms(F32, LANMS_CONFIGS), lanms_values(49, F32)),
    # normalized coordinates (x 1/32), float64
    "locality_aware_nms_fp64": (lanms("float64", LANMS_CONFIGS),
                                lanms_values(50, "float64", 1 / 32.0)),
    # a score threshold nothing passes: Out [[-1]], LoD {0, 1}
    "locality_aware_nms_none": (lanms(F32, [(-1, 5.0, -1, 0.3, 1.0, -1, True)]),
                                lanms_values(51, F32)),
    # EAST's quadrilaterals (8 coordinates)
    "locality_aware_nms_quad": (lanms_poly(F32, 4, LANMS_POLY_CONFIGS),
                                lanms_poly_values(52, F32, 4)),
    # 8-point (16 coordinates) polygons, concave ones in float64
    "locality_aware_nms_poly16": (lanms_poly(F32, 8, LANMS_POLY_CONFIGS),
                                  lanms_poly_values(53, F32, 8)),
    "locality_aware_nms_concave": (lanms_poly("float64", 8, LANMS_POLY_CONFIGS),
                                   lanms_poly_values(54, "float64", 8, concave=True)),
    # fused_embedding_seq_pool: one id column with padding_idx 2; two columns, no padding;
    # float64 with padding_idx 0
    "fused_embedding_seq_pool": (fused_emb_pool(1, 2),
                                 {"ids": (np.array([[1], [2], [6], [2], [0], [5]], "int64"),
                                          [[0, 3, 3, 6]]), "w": (lrand(7, 3), None)}),
    "fused_embedding_seq_pool_k2": (fused_emb_pool(2, -1),
                                    {"ids": (np.array([[[1], [4]], [[2], [2]], [[6], [0]], [[3], [5]]], "int64"),
                                             [[0, 1, 4]]), "w": (lrand(7, 3), None)}),
    "fused_embedding_seq_pool_fp64": (fused_emb_pool(1, 0, "float64"),
                                      {"ids": (np.array([[0], [3], [0], [4], [1]], "int64"),
                                               [[0, 2, 5]]),
                                       "w": (lrand(7, 3).astype("float64"), None)}),
    # bipartite_match: three images (one without rows), greedy matching then per_prediction
    # with threshold 0.4; float64; one image of 140 rows (Paddle's sorted-pairs path)
    "bipartite_match": (bipartite("bipartite", 0.5), bipartite_values(7, 9, [[0, 3, 3, 7]], 60)),
    "bipartite_match_per_pred": (bipartite("per_prediction", 0.4),
                                 bipartite_values(7, 9, [[0, 3, 3, 7]], 61)),
    "bipartite_match_fp64": (bipartite("per_prediction", 0.6, "float64"),
                             bipartite_values(5, 6, [[0, 2, 5]], 62, "float64")),
    "bipartite_match_many": (bipartite("bipartite", 0.5),
                             bipartite_values(140, 150, [[0, 140]], 63, F32, 0.5)),
    # mine_hard_examples: max_negative (ratio 1.5, threshold 0.6; an image without positives),
    # hard_example with and without LocLoss, float64
    "mine_hard_examples": (mine_hard("max_negative", False,
                                     dict(neg_pos_ratio=1.5, neg_dist_threshold=0.6)),
                           mine_values(70)),
    "mine_hard_examples_hard": (mine_hard("hard_example", True, dict(sample_size=4)),
                                mine_values(71)),
    "mine_hard_examples_hard_noloc": (mine_hard("hard_example", False, dict(sample_size=5)),
                                      mine_values(72)),
    "mine_hard_examples_fp64": (mine_hard("max_negative", False,
                                          dict(neg_pos_ratio=3.0, neg_dist_threshold=0.5),
                                          "float64"), mine_values(73, "float64")),
    # row_conv: context 3 over sequences of 4, 1 and 4 steps (Paddle refuses empty ones);
    # a batch [2, 5, 4] (Paddle's CPU kernel is float32 only)
    "row_conv": (row_conv_case(F32, False), {"x": (lrand(9, 4), [[0, 4, 5, 9]]),
                                             "f": (lrand(3, 4), None)}),
    "row_conv_batch": (row_conv_case(F32, True), {"x": (lrand(2, 5, 4), None),
                                                  "f": (lrand(3, 4), None)}),
    "linear_chain_crf_lod": (linear_chain_crf_case(F32, False), crf_values(F32, False)),
    "linear_chain_crf_padded": (linear_chain_crf_case(F32, True), crf_values(F32, True)),
    "linear_chain_crf_f64": (linear_chain_crf_case("float64", False),
                             crf_values("float64", False)),
}

# split_lod_tensor / merge_lod_tensor (fluid IfElse). An empty sequence never comes before
# another sequence of its branch: Paddle's merge would then stall on it and leave rows
# unwritten (garbage in Paddle's output; icore writes zeros, see merge_lod_tensor.c).
LOD_CASES.update({
    # 4 sequences (one empty, last of the true branch), split and merged at level 0
    "ifelse_split_merge": (ifelse_split_merge(0, F32, 1), {
        "x": (ifelse_rand(9, 3), [[0, 2, 5, 5, 9]]), "mask": (ifelse_mask(1, 0, 1, 0), None)}),
    # two levels, split at level 1 (6 sub-sequences): the merge puts X's level 0 back on top
    "ifelse_split_merge_level1": (ifelse_split_merge(1, F32, 2), {
        "x": (ifelse_rand(10, 3), [[0, 2, 6], [0, 1, 3, 5, 6, 8, 10]]),
        "mask": (ifelse_mask(1, 1, 0, 1, 0, 0), None)}),
    # two levels split at level 0: each branch keeps both levels
    "ifelse_split_merge_two_level": (ifelse_split_merge(0, "float64", 2), {
        "x": (ifelse_rand(10, 2).astype("float64"), [[0, 2, 3, 6], [0, 1, 3, 5, 6, 8, 10]]),
        "mask": (ifelse_mask(0, 1, 0), None)}),
    # no LoD: rows are the sequences (int64, merge_lod_tensor_infer); a shorter Mask2
    "ifelse_split_merge_rows": (ifelse_split_merge(0, "int64", 0, "merge_lod_tensor_infer",
                                                   short=True), {
        "x": (np.arange(12, dtype="int64").reshape(6, 2) - 5, None),
        "mask": (ifelse_mask(0, 1, 1, 0, 1, 0), None), "mask2": (ifelse_mask(1, 0, 1), None)}),
    # every sequence to one branch: the other is empty (no rows, no LoD)
    "ifelse_split_merge_all_true": (ifelse_split_merge(0, F32, 1), {
        "x": (ifelse_rand(5, 2), [[0, 3, 5]]), "mask": (ifelse_mask(1, 1), None)}),
})

LOD_CASES.update({
    # fluid IfElse with its two conditional_blocks (a cond all true is not a case: Paddle's
    # scale then fails on the false block's 0-row tensor, "holds no memory")
    "ifelse_blocks": (ifelse_blocks, {"x": (ifelse_rand(6, 3), None),
                                      "cond": (ifelse_mask(1, 0, 0, 1, 1, 0), None)}),
})


# Detection training targets (rpn_target_assign, retinanet_target_assign,
# generate_proposal_labels): ground truths of 3 images split by LoD, one image with a crowd
# box, one with a tiny box (its best anchor is also a bg candidate: a "fake" location entry);
# Paddle refuses an image without ground truth (an empty slice) and crashes (SIGFPE) on one
# whose truths are all crowd, so no case has them (icore makes every inside anchor a bg
# candidate there); use_random false (Paddle's random picks are not reproducible).
def det_anchors(dtype):
    """48 anchors: 4 x 4 positions of stride 16 over a 64 x 64 image, sides 12, 24 and 40
    (the largest straddle the border)."""
    out = []
    for y in range(4):
        for x in range(4):
            cx, cy = 8 + 16 * x, 8 + 16 * y
            for s in (12, 24, 40):
                out.append([cx - s / 2, cy - s / 2, cx + s / 2 - 1, cy + s / 2 - 1])
    return np.array(out, dtype)


def det_gts(dtype):
    gt = np.array([[2, 3, 26, 30], [30, 28, 60, 58], [5, 40, 20, 62],     # image 0 (last crowd)
                   [10, 6, 40, 22], [50, 50, 52, 51],                     # image 1 (scale 0.5)
                   [8, 8, 30, 30]], dtype)                                # image 2
    return {"gt": (gt, [[0, 3, 5, 6]]),
            "crowd": (np.array([[0], [0], [1], [0], [0], [0]], "int32"), [[0, 3, 5, 6]]),
            "labels": (np.array([[3], [1], [2], [2], [5], [4]], "int32"), [[0, 3, 5, 6]]),
            "im_info": (np.array([[64, 64, 1.0], [60, 56, 2.0], [64, 64, 1.0]], dtype), None)}


def rpn_assign(dtype, attrs):
    """rpn_target_assign over det_anchors and det_gts."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        an = paddle.static.data("anchor", [-1, 4], dtype)
        gt = paddle.static.data("gt", [-1, 4], dtype, lod_level=1)
        cr = paddle.static.data("crowd", [-1, 1], "int32", lod_level=1)
        im = paddle.static.data("im_info", [-1, 3], dtype)
        outs = {k: b.create_var(name=k.lower(), dtype=("int32" if k in (
            "LocationIndex", "ScoreIndex", "TargetLabel") else dtype), lod_level=1)
            for k in ("LocationIndex", "ScoreIndex", "TargetBBox", "TargetLabel",
                      "BBoxInsideWeight")}
        raw_op(b, "rpn_target_assign", {"Anchor": [an], "GtBoxes": [gt], "IsCrowd": [cr],
                                        "ImInfo": [im]},
               {k: [v] for k, v in outs.items()}, dict(use_random=False, **attrs))
        return [an, gt, cr, im], list(outs.values())
    return build


def retina_assign(dtype, attrs):
    """retinanet_target_assign over det_anchors and det_gts (with GtLabels)."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        an = paddle.static.data("anchor", [-1, 4], dtype)
        gt = paddle.static.data("gt", [-1, 4], dtype, lod_level=1)
        lb = paddle.static.data("labels", [-1, 1], "int32", lod_level=1)
        cr = paddle.static.data("crowd", [-1, 1], "int32", lod_level=1)
        im = paddle.static.data("im_info", [-1, 3], dtype)
        outs = {k: b.create_var(name=k.lower(), dtype=("int32" if k in (
            "LocationIndex", "ScoreIndex", "TargetLabel", "ForegroundNumber") else dtype),
            lod_level=1)
            for k in ("LocationIndex", "ScoreIndex", "TargetBBox", "TargetLabel",
                      "BBoxInsideWeight", "ForegroundNumber")}
        raw_op(b, "retinanet_target_assign", {"Anchor": [an], "GtBoxes": [gt], "GtLabels": [lb],
                                              "IsCrowd": [cr], "ImInfo": [im]},
               {k: [v] for k, v in outs.items()}, attrs)
        return [an, gt, lb, cr, im], list(outs.values())
    return build


def det_values(dtype, *names):
    v = det_gts(dtype)
    v["anchor"] = (det_anchors(dtype), None)
    return {k: v[k] for k in names}


RPN_FEEDS = ("anchor", "gt", "crowd", "im_info")
LOD_CASES.update({
    # straddling anchors dropped (thresh 0), batch 16 with fg fraction 0.25: fg cut to 4
    "rpn_target_assign": (rpn_assign(F32, dict(
        rpn_batch_size_per_im=16, rpn_straddle_thresh=0.0, rpn_positive_overlap=0.5,
        rpn_negative_overlap=0.3, rpn_fg_fraction=0.25)), det_values(F32, *RPN_FEEDS)),
    # every anchor (thresh -1), no sampling (fraction 0), float64
    "rpn_target_assign_all": (rpn_assign("float64", dict(
        rpn_batch_size_per_im=256, rpn_straddle_thresh=-1.0, rpn_positive_overlap=0.6,
        rpn_negative_overlap=0.2, rpn_fg_fraction=0.0)), det_values("float64", *RPN_FEEDS)),
    # a large straddle margin (8 pixels), batch 40, fraction 0.5 (bg cut)
    "rpn_target_assign_straddle": (rpn_assign(F32, dict(
        rpn_batch_size_per_im=40, rpn_straddle_thresh=8.0, rpn_positive_overlap=0.7,
        rpn_negative_overlap=0.3, rpn_fg_fraction=0.5)), det_values(F32, *RPN_FEEDS)),
    "retinanet_target_assign": (retina_assign(F32, dict(positive_overlap=0.5,
                                                        negative_overlap=0.4)),
                                det_values(F32, "anchor", "gt", "labels", "crowd", "im_info")),
    "retinanet_target_assign_fp64": (retina_assign("float64", dict(positive_overlap=0.35,
                                                                   negative_overlap=0.2)),
                                     det_values("float64", "anchor", "gt", "labels", "crowd",
                                                "im_info")),
})


def proposal_labels(dtype, attrs, cascade=False):
    """generate_proposal_labels over gpl_values (MaxOverlap with is_cascade_rcnn)."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        ro = paddle.static.data("rois", [-1, 4], dtype, lod_level=1)
        cl = paddle.static.data("classes", [-1, 1], "int32", lod_level=1)
        cr = paddle.static.data("crowd", [-1, 1], "int32", lod_level=1)
        gt = paddle.static.data("gt", [-1, 4], dtype, lod_level=1)
        im = paddle.static.data("im_info", [-1, 3], dtype)
        ins = {"RpnRois": [ro], "GtClasses": [cl], "IsCrowd": [cr], "GtBoxes": [gt],
               "ImInfo": [im]}
        feed_vars = [ro, cl, cr, gt, im]
        if cascade:
            mo = paddle.static.data("max_overlap", [-1], dtype, lod_level=1)
            ins["MaxOverlap"] = [mo]
            feed_vars.append(mo)
        names = ("Rois", "LabelsInt32", "BboxTargets", "BboxInsideWeights",
                 "BboxOutsideWeights", "MaxOverlapWithGT")
        outs = {k: b.create_var(name="gpl_" + k.lower(), dtype="int32" if k == "LabelsInt32" else dtype,
                                lod_level=1) for k in names}
        raw_op(b, "generate_proposal_labels", ins, {k: [v] for k, v in outs.items()},
               dict(use_random=False, is_cascade_rcnn=cascade, **attrs))
        return feed_vars, list(outs.values())
    return build


def gpl_values(seed, dtype, rois_lod, cascade=False):
    """3 images of 64 x 64 (scales 1, 2, 0.5) with 3, 2 and 2 ground truths (image 0's last
    one crowd); rois jittered around the truths (in the scaled image) and random ones."""
    rng = np.random.RandomState(seed)
    gt = np.array([[2, 3, 26, 30], [30, 28, 60, 58], [5, 40, 20, 62],
                   [10, 6, 40, 22], [12, 30, 33, 55],
                   [4, 4, 28, 20], [20, 30, 50, 60]], "float64")
    glod = [0, 3, 5, 7]
    scales = [1.0, 2.0, 0.5]
    rois = []
    for i in range(3):
        n = rois_lod[i + 1] - rois_lod[i]
        for k in range(n):
            if k % 3 != 2:
                g = gt[glod[i] + k % (glod[i + 1] - glod[i])]
                b = g + rng.uniform(-6, 6, 4)
            else:
                xy = rng.uniform(0, 50, 2)
                b = np.concatenate([xy, xy + rng.uniform(4, 30, 2)])
            rois.append(b * scales[i])
    v = {"rois": (np.array(rois, dtype).reshape(-1, 4), [rois_lod]),
         "classes": (np.array([[3], [1], [2], [5], [4], [2], [1]], "int32"), [glod]),
         "crowd": (np.array([[0], [0], [1], [0], [0], [0], [0]], "int32"), [glod]),
         "gt": (gt.astype(dtype), [glod]),
         "im_info": (np.array([[64, 64, 1.0], [128, 128, 2.0], [32, 32, 0.5]], dtype), None)}
    if cascade:
        mo = rng.uniform(0.2, 0.9, rois_lod[-1])
        mo[::4] = 1.0
        mo[rois_lod[1]:rois_lod[2]] = 1.0   # image 1: every roi filtered (one zero box)
        v["max_overlap"] = (mo.astype(dtype), [rois_lod])
    return v


GPL_ATTRS = dict(batch_size_per_im=12, fg_fraction=0.5, fg_thresh=0.5, bg_thresh_hi=0.5,
                 bg_thresh_lo=0.0, bbox_reg_weights=[0.1, 0.1, 0.2, 0.2], class_nums=6,
                 is_cls_agnostic=False)
LOD_CASES.update({
    # fg cut to floor(12 * 0.5) = 6, bg to 12 - fg; image 1 without rois
    "generate_proposal_labels": (proposal_labels(F32, GPL_ATTRS),
                                 gpl_values(80, F32, [0, 14, 14, 26])),
    # class-agnostic targets (class_nums 2), float64, bg between 0.1 and 0.6, a large batch
    "generate_proposal_labels_agnostic": (proposal_labels("float64", dict(
        GPL_ATTRS, batch_size_per_im=64, fg_fraction=0.5, fg_thresh=0.6, bg_thresh_hi=0.6,
        bg_thresh_lo=0.1, class_nums=2, is_cls_agnostic=True,
        bbox_reg_weights=[1.0, 1.0, 1.0, 1.0])), gpl_values(81, "float64", [0, 9, 15, 24])),
    # Cascade R-CNN: no sampling, rois with MaxOverlap 1 dropped (all of image 1's: one zero
    # box)
    "generate_proposal_labels_cascade": (proposal_labels(F32, dict(
        GPL_ATTRS, fg_thresh=0.6, bg_thresh_hi=0.6, bbox_reg_weights=[0.05, 0.05, 0.1, 0.1]),
        cascade=True), gpl_values(82, F32, [0, 10, 16, 25], cascade=True)),
})


def mask_labels(num_classes, resolution):
    """generate_mask_labels (float32 only in Paddle) over mask_values."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        im = paddle.static.data("im_info", [-1, 3], F32)
        cl = paddle.static.data("classes", [-1, 1], "int32", lod_level=1)
        cr = paddle.static.data("crowd", [-1, 1], "int32", lod_level=1)
        sg = paddle.static.data("segms", [-1, 2], F32, lod_level=3)
        ro = paddle.static.data("rois", [-1, 4], F32, lod_level=1)
        lb = paddle.static.data("labels", [-1, 1], "int32", lod_level=1)
        outs = {k: b.create_var(name="gml_" + k.lower(), dtype=F32 if k == "MaskRois" else "int32",
                                lod_level=1) for k in ("MaskRois", "RoiHasMaskInt32", "MaskInt32")}
        raw_op(b, "generate_mask_labels", {"ImInfo": [im], "GtClasses": [cl], "IsCrowd": [cr],
                                           "GtSegms": [sg], "Rois": [ro], "LabelsInt32": [lb]},
               {k: [v] for k, v in outs.items()},
               dict(num_classes=num_classes, resolution=resolution))
        return [im, cl, cr, sg, ro, lb], list(outs.values())
    return build


def mask_values():
    """4 images: 3 truths (one of two polygons, one crowd) and 5 rois (3 fg); 1 truth and 3 bg
    rois (one all -1 row); 2 truths (one of class 0) and 3 rois (scale 1.5, one fg roi far
    from its truth: an empty mask); 1 truth and no roi (no row). Paddle 2.6.2 crashes (heap
    corruption, "malloc(): invalid size") on these values with resolution 16 or 28, and with a
    polygon vertex left of its roi it set one edge pixel that its own mask_util.cc (truncating
    int casts) does not: no case has either."""
    polys = [[[4, 4], [20, 6], [10, 22]],                                  # image 0, gt 0
             [[30, 30], [44, 28], [50, 40], [40, 52], [28, 44]],            # gt 1, polygon 1
             [[52, 10], [60, 12], [58, 24], [50, 20]],                     # gt 1, polygon 2
             [[5, 40], [20, 40], [20, 60], [5, 60]],                       # gt 2 (crowd)
             [[10, 10], [30, 10], [30, 30], [10, 30]],                     # image 1, gt 3
             [[8, 6], [22, 4], [30, 12], [26, 26], [12, 28], [4, 16]],     # image 2, gt 4
             [[34, 34], [50, 34], [50, 50], [34, 50]],                     # gt 5 (class 0)
             [[1, 1], [9, 1], [5, 9]]]                                     # image 3, gt 6
    pts = np.array([p for poly in polys for p in poly], F32)
    lod2 = [0]
    for poly in polys:
        lod2.append(lod2[-1] + len(poly))
    segm_lod = [[0, 3, 4, 6, 7], [0, 1, 3, 4, 5, 6, 7, 8], lod2]
    glod = [[0, 3, 4, 6, 7]]
    rois = np.array([[3, 5, 21, 21], [29, 27, 51, 50], [0, 0, 8, 8], [48, 8, 61, 26],
                     [40, 40, 60, 60],
                     [2, 2, 12, 12], [20, 20, 40, 40], [0, 30, 10, 50],
                     [3, 3, 46, 44], [40, 40, 60, 60], [50, 48, 76, 76]], F32)
    return {"im_info": (np.array([[64, 64, 1.0], [48, 48, 1.0], [96, 96, 1.5], [16, 16, 1.0]],
                                 F32), None),
            "classes": (np.array([[1], [3], [2], [2], [1], [0], [3]], "int32"), glod),
            "crowd": (np.array([[0], [0], [1], [0], [0], [0], [0]], "int32"), glod),
            "segms": (pts, segm_lod),
            "rois": (rois, [[0, 5, 8, 11, 11]]),
            "labels": (np.array([[1], [3], [0], [3], [0], [0], [0], [0], [1], [0], [2]], "int32"),
                       [[0, 5, 8, 11, 11]])}


LOD_CASES.update({
    "generate_mask_labels": (mask_labels(4, 12), mask_values()),
})


def m_dpsroi(attrs):
    """(helper M) deformable_psroi_pooling (Paddle 2.6's CPU kernel; 3.x dropped the op):
    Input [2, C, 6, 7], ROIs split into the 2 images by their LoD, Trans; Output and
    TopCount."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        x = paddle.static.data("x", list(feeds["x"][0].shape), F32)
        rois = paddle.static.data("rois", [-1, 4], F32, lod_level=1)
        trans = paddle.static.data("trans", list(feeds["trans"][0].shape), F32)
        out = b.create_var(name="dpsroi_out", dtype=F32)
        cnt = b.create_var(name="dpsroi_count", dtype=F32)
        raw_op(b, "deformable_psroi_pooling", {"Input": [x], "ROIs": [rois], "Trans": [trans]},
               {"Output": [out], "TopCount": [cnt]}, attrs)
        return [x, rois, trans], [out, cnt]
    return build


def m_dpsroi_values(seed, c_in, n_cls, part):
    rng = np.random.RandomState(seed)
    rois = np.array([[1.2, 0.6, 9.7, 8.4], [-3.0, 2.0, 6.0, 15.0], [4.0, 4.0, 4.0, 4.0],
                     [0.0, 0.0, 13.0, 11.0]], F32)
    return {"x": (rng.uniform(-1, 1, (2, c_in, 6, 7)).astype(F32), None),
            "rois": (rois, [[0, 3, 4]]),
            "trans": (rng.uniform(-1, 1, (4, 2 * n_cls) + part).astype(F32), None)}


LOD_CASES.update({
    # classes in Trans, boxes partly outside the map and a degenerate one, scale 0.5
    "m_dpsroi_trans": (m_dpsroi(dict(no_trans=False, spatial_scale=0.5, output_dim=2,
                                     group_size=[2, 2], pooled_height=2, pooled_width=2,
                                     part_size=[2, 2], sample_per_part=2, trans_std=0.1)),
                       m_dpsroi_values(71, 8, 2, (2, 2))),
    # no_trans (Trans present but unread), 3 x 3 samples per bin
    "m_dpsroi_no_trans": (m_dpsroi(dict(no_trans=True, spatial_scale=1.0, output_dim=3,
                                        group_size=[1, 1], pooled_height=3, pooled_width=2,
                                        part_size=[3, 2], sample_per_part=3, trans_std=0.1)),
                          m_dpsroi_values(72, 4, 1, (3, 2))),
    # a part grid wider than high, large offsets (trans_std 0.5)
    "m_dpsroi_part_wide": (m_dpsroi(dict(no_trans=False, spatial_scale=0.5, output_dim=2,
                                         group_size=[1, 2], pooled_height=3, pooled_width=3,
                                         part_size=[2, 3], sample_per_part=2, trans_std=0.5)),
                           m_dpsroi_values(73, 4, 1, (2, 3))),
})


def l7_seq_scatter(dtypes):
    """(helper L) sequence_scatter: for each dtype k a program input xk (no LoD), idsk (int64
    [K, 1], one-level LoD) and updk (the same LoD); Out = X plus the updates scattered into
    row s (the sequence) at column Ids."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        ins, outs = [], []
        for k, dt in enumerate(dtypes):
            x = paddle.static.data("x%d" % k, list(feeds["x%d" % k][0].shape), dt)
            ids = paddle.static.data("ids%d" % k, [-1, 1], "int64", lod_level=1)
            upd = paddle.static.data("upd%d" % k, [-1, 1], dt, lod_level=1)
            out = b.create_var(name="seq_scatter_out%d" % k, dtype=dt)
            raw_op(b, "sequence_scatter", {"X": [x], "Ids": [ids], "Updates": [upd]},
                   {"Out": [out]})
            ins += [x, ids, upd]
            outs.append(out)
        return ins, outs
    return build


def l7_seq_scatter_values():
    rng = np.random.RandomState(701)
    v = {}
    # Paddle's documented example: 3 sequences over X [3, 6], repeated columns add up
    v["x0"] = (rng.uniform(-1, 1, (3, 6)).astype(F32), None)
    ids = np.array([0, 1, 2, 5, 4, 3, 2, 1, 3, 2, 5, 4, 2], "int64").reshape(-1, 1)
    v["ids0"] = (ids, [[0, 3, 8, 13]])
    v["upd0"] = (rng.uniform(-1, 1, (13, 1)).astype(F32), [[0, 3, 8, 13]])
    # float64 X [4, 2, 3] (rows of 6 elements): an empty sequence, fewer sequences than rows
    v["x1"] = (rng.uniform(-1, 1, (4, 2, 3)).astype("float64"), None)
    v["ids1"] = (np.array([[5], [0], [3], [3], [1], [4]], "int64"), [[0, 2, 2, 6]])
    v["upd1"] = (rng.uniform(-1, 1, (6, 1)).astype("float64"), [[0, 2, 2, 6]])
    # int64 and int32 X
    v["x2"] = (rng.randint(-50, 50, (2, 4)).astype("int64"), None)
    v["ids2"] = (np.array([[3], [3], [0], [2]], "int64"), [[0, 1, 4]])
    v["upd2"] = (rng.randint(-9, 9, (4, 1)).astype("int64"), [[0, 1, 4]])
    v["x3"] = (rng.randint(-50, 50, (3, 3)).astype("int32"), None)
    v["ids3"] = (np.array([[2], [0], [1], [1]], "int64"), [[0, 0, 3, 4]])
    v["upd3"] = (rng.randint(-9, 9, (4, 1)).astype("int32"), [[0, 0, 3, 4]])
    return v


def l7_pos_enc(specs):
    """(helper L) add_position_encoding: for each (dtype, alpha, beta, lod) one input xk, with
    a one-level LoD ([T, D]) or without ([B, L, D]); Out keeps X's LoD."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        ins, outs = [], []
        for k, (dt, alpha, beta, lod) in enumerate(specs):
            shape = list(feeds["x%d" % k][0].shape)
            x = paddle.static.data("x%d" % k, [-1] + shape[1:], dt, lod_level=1 if lod else 0)
            out = b.create_var(name="pos_enc_out%d" % k, dtype=dt, lod_level=1 if lod else 0)
            raw_op(b, "add_position_encoding", {"X": [x]}, {"Out": [out]},
                   {"alpha": alpha, "beta": beta})
            ins.append(x)
            outs.append(out)
        return ins, outs
    return build


def l7_pos_enc_values():
    rng = np.random.RandomState(702)
    return {
        # lengths 2, 0, 4 (an empty sequence), D 8
        "x0": (rng.uniform(-1, 1, (6, 8)).astype(F32), [[0, 2, 2, 6]]),
        # float64, D 2 (half size 1: j / 10000), lengths 3, 1
        "x1": (rng.uniform(-1, 1, (4, 2)).astype("float64"), [[0, 3, 4]]),
        # no LoD: [B 2, L 5, D 6]
        "x2": (rng.uniform(-1, 1, (2, 5, 6)).astype(F32), None),
        # float64 without LoD, long positions (up to 40)
        "x3": (rng.uniform(-1, 1, (1, 41, 4)).astype("float64"), None),
    }


LOD_CASES.update({
    "l7_sequence_scatter": (l7_seq_scatter([F32, "float64", "int64", "int32"]),
                            l7_seq_scatter_values()),
    "l7_add_position_encoding": (l7_pos_enc([(F32, 0.7, 1.3, True), ("float64", 1.0, 1.0, True),
                                             (F32, 1.0, 1.0, False),
                                             ("float64", 0.5, 2.0, False)]),
                                 l7_pos_enc_values()),
})


def l7_match_matrix(dim_ts):
    """(helper L) match_matrix_tensor: for each dim_t one op over X (LoD) and Y (LoD) with W
    [D, dim_t, D]; Out (LoD of the blocks) and Tmp fetched."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        x = paddle.static.data("x", [-1, 3], F32, lod_level=1)
        y = paddle.static.data("y", [-1, 3], F32, lod_level=1)
        ins, outs = [x, y], []
        for k, t in enumerate(dim_ts):
            w = paddle.static.data("w%d" % k, [3, t, 3], F32)
            out = b.create_var(name="mmt_out%d" % k, dtype=F32, lod_level=1)
            tmp = b.create_var(name="mmt_tmp%d" % k, dtype=F32)
            raw_op(b, "match_matrix_tensor", {"X": [x], "Y": [y], "W": [w]},
                   {"Out": [out], "Tmp": [tmp]}, {"dim_t": t})
            ins.append(w)
            outs += [out, tmp]
        return ins, outs
    return build


def l7_match_matrix_values(dim_ts):
    rng = np.random.RandomState(703)
    # X lengths 2, 3, 0, 1; Y lengths 3, 0, 2, 2: empty sequences on either side
    v = {"x": (rng.uniform(-1, 1, (6, 3)).astype(F32), [[0, 2, 5, 5, 6]]),
         "y": (rng.uniform(-1, 1, (7, 3)).astype(F32), [[0, 3, 3, 5, 7]])}
    for k, t in enumerate(dim_ts):
        v["w%d" % k] = (rng.uniform(-1, 1, (3, t, 3)).astype(F32), None)
    return v


def l7_var_conv(specs):
    """(helper L) var_conv_2d: X (LoD: each sample's first element), ROW and COLUMN (only their
    LoD, the samples' heights and widths), W; for each attribute set one op; Out and Col
    (each with the LoD of its samples) fetched."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        x = paddle.static.data("x", [-1, 1], F32, lod_level=1)
        row = paddle.static.data("row", [-1, 1], F32, lod_level=1)
        col = paddle.static.data("col", [-1, 1], F32, lod_level=1)
        ins, outs = [x, row, col], []
        for k, at in enumerate(specs):
            w = paddle.static.data("w%d" % k, list(feeds["w%d" % k][0].shape), F32)
            out = b.create_var(name="vc_out%d" % k, dtype=F32, lod_level=1)
            cm = b.create_var(name="vc_col%d" % k, dtype=F32, lod_level=1)
            raw_op(b, "var_conv_2d", {"X": [x], "ROW": [row], "COLUMN": [col], "W": [w]},
                   {"Out": [out], "Col": [cm]}, at)
            ins.append(w)
            outs += [out, cm]
        return ins, outs
    return build


def l7_var_conv_values(specs):
    rng = np.random.RandomState(704)
    # 3 samples of heights 3, 0, 5 and widths 4, 2, 3, 2 input channels
    hs, ws = [3, 0, 5], [4, 2, 3]
    sizes = [2 * h * w for h, w in zip(hs, ws)]
    xl = [0] + list(np.cumsum(sizes))
    v = {"x": (rng.uniform(-1, 1, (xl[-1], 1)).astype(F32), [[int(o) for o in xl]]),
         "row": (rng.uniform(-1, 1, (sum(hs), 1)).astype(F32),
                 [[0] + [int(o) for o in np.cumsum(hs)]]),
         "col": (rng.uniform(-1, 1, (sum(ws), 1)).astype(F32),
                 [[0] + [int(o) for o in np.cumsum(ws)]])}
    for k, at in enumerate(specs):
        v["w%d" % k] = (rng.uniform(-1, 1, (at["OutputChannel"], 2 * at["KernelH"] *
                                            at["KernelW"])).astype(F32), None)
    return v


L7_VC = [dict(InputChannel=2, OutputChannel=3, StrideH=1, StrideW=1, KernelH=3, KernelW=3),
         dict(InputChannel=2, OutputChannel=2, StrideH=2, StrideW=1, KernelH=3, KernelW=2),
         dict(InputChannel=2, OutputChannel=1, StrideH=1, StrideW=2, KernelH=1, KernelW=1)]

LOD_CASES.update({
    "l7_match_matrix_tensor": (l7_match_matrix([2, 1]), l7_match_matrix_values([2, 1])),
    "l7_var_conv_2d": (l7_var_conv(L7_VC), l7_var_conv_values(L7_VC)),
})


def l7_detection_map(specs):
    """(helper L) detection_map: per spec (suffix of the inputs, attributes, with state) one op
    over DetectRes and Label (LoD: the images), optionally HasState / PosCount / TruePos /
    FalsePos; MAP, AccumPosCount, AccumTruePos and AccumFalsePos fetched."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        made, ins, outs = {}, [], []

        def feed(name, lod):
            if name not in made:
                arr = feeds[name][0]
                made[name] = paddle.static.data(name, [-1] + list(arr.shape[1:]),
                                                str(arr.dtype), lod_level=lod)
                ins.append(made[name])
            return made[name]
        for k, (sfx, attrs, state) in enumerate(specs):
            dt = str(feeds["det" + sfx][0].dtype)
            op_in = {"DetectRes": [feed("det" + sfx, 1)], "Label": [feed("lab" + sfx, 1)]}
            if state:
                op_in.update(HasState=[feed("has" + state, 0)], PosCount=[feed("pc", 0)],
                             TruePos=[feed("tp", 1)], FalsePos=[feed("fp", 1)])
            o = [b.create_var(name="dm%d_map" % k, dtype=dt),
                 b.create_var(name="dm%d_pc" % k, dtype="int32"),
                 b.create_var(name="dm%d_tp" % k, dtype=dt, lod_level=1),
                 b.create_var(name="dm%d_fp" % k, dtype=dt, lod_level=1)]
            raw_op(b, "detection_map", op_in,
                   {"MAP": [o[0]], "AccumPosCount": [o[1]], "AccumTruePos": [o[2]],
                    "AccumFalsePos": [o[3]]}, attrs)
            outs += o
        return ins, outs
    return build


def l7_detection_map_values():
    rng = np.random.RandomState(705)

    def boxes(n):
        xy = rng.uniform(-0.1, 0.7, (n, 2))
        wh = rng.uniform(0.1, 0.5, (n, 2))
        return np.concatenate([xy, xy + wh], 1)
    # 3 images: 4 ground truths (one difficult) and 6 detections; 2 ground truths and no
    # detection; no ground truth and 3 detections
    gl = np.array([1, 1, 2, 3, 0, 2], "float64")
    gd = np.array([0, 1, 0, 0, 0, 0], "float64")
    gb = boxes(6)
    lab6 = np.concatenate([gl[:, None], gd[:, None], gb], 1)
    lab5 = np.concatenate([gl[:, None], gb], 1)
    dl = np.array([1, 1, 1, 2, 3, 0, 2, 3, 1], "float64")
    ds = rng.permutation(9) / 10.0 + 0.05
    db = np.concatenate([gb[[0, 1, 0, 2, 3, 0]] + rng.uniform(-0.05, 0.05, (6, 4)),
                         boxes(3)])
    db[2, 2] = 1.3  # clipped to 1
    det = np.concatenate([dl[:, None], ds[:, None], db], 1)
    lod_l, lod_d = [[0, 4, 6, 6]], [[0, 6, 6, 9]]
    tp = np.array([[0.9, 1], [0.4, 0], [0.8, 1], [0.7, 1], [0.3, 0]], "float32")
    fp = tp.copy()
    fp[:, 1] = 1 - fp[:, 1]
    return {"det": (det.astype(F32), lod_d), "lab": (lab6.astype(F32), lod_l),
            "det5": (det.astype(F32), lod_d), "lab5": (lab5.astype(F32), lod_l),
            "det64": (det, lod_d), "lab64": (lab6, lod_l),
            "has1": (np.array([1], "int32"), None), "has0": (np.array([0], "int32"), None),
            "pc": (np.array([[2], [3], [0], [1]], "int32"), None),
            # class 0: 1 entry, class 1: 2, class 2: none, class 3: 2
            "tp": (tp, [[0, 1, 3, 3, 5]]), "fp": (fp, [[0, 1, 3, 3, 5]])}


L7_DM = [("", dict(class_num=4, overlap_threshold=0.3, evaluate_difficult=False,
                   ap_type="integral", background_label=0), None),
         ("", dict(class_num=4, overlap_threshold=0.5, evaluate_difficult=True,
                   ap_type="11point", background_label=-1), None),
         ("", dict(class_num=4, overlap_threshold=0.3, evaluate_difficult=False,
                   ap_type="integral", background_label=0), "1"),
         ("", dict(class_num=4, overlap_threshold=0.3, evaluate_difficult=True,
                   ap_type="11point", background_label=0), "1"),
         ("", dict(class_num=4, overlap_threshold=0.3, evaluate_difficult=True,
                   ap_type="integral", background_label=0), "0"),
         ("5", dict(class_num=3, overlap_threshold=0.2, evaluate_difficult=False,
                    ap_type="11point", background_label=1), None),
         ("64", dict(class_num=4, overlap_threshold=0.3, evaluate_difficult=False,
                     ap_type="integral", background_label=0), None),
         ("64", dict(class_num=4, overlap_threshold=0.4, evaluate_difficult=True,
                     ap_type="11point", background_label=-1), None)]

LOD_CASES.update({
    # integral without difficult ground truths, 11point with them, integral after a state
    "l7_detection_map": (l7_detection_map(L7_DM[:3]), l7_detection_map_values()),
    # 11point after a state, HasState 0 (the state ignored), Label of width 5
    "l7_detection_map_state": (l7_detection_map(L7_DM[3:6]), l7_detection_map_values()),
    "l7_detection_map_f64": (l7_detection_map(L7_DM[6:]), l7_detection_map_values()),
})


def l7_attention_lstm(specs, dt=F32):
    """(helper L) attention_lstm: per spec (activations, optional inputs, fetch the
    intermediates) one op over X (LoD, an empty sequence) and C0; Hidden and Cell (and for
    the first op AttentionedX, AttentionFCOut, LSTMX, LSTMOUT) fetched."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        made, ins, outs = {}, [], []

        def feed(name, lod=0):
            if name not in made:
                arr = feeds[name][0]
                made[name] = paddle.static.data(name, list(arr.shape) if not lod else
                                                [-1] + list(arr.shape[1:]), dt, lod_level=lod)
                ins.append(made[name])
            return made[name]
        for k, (acts, opt, inter) in enumerate(specs):
            op_in = {"X": [feed("x", 1)], "C0": [feed("c0")], "AttentionWeight": [feed("aw")],
                     "LSTMWeight": [feed("lw")], "LSTMBias": [feed("lb")]}
            for slot, name in (("H0", "h0"), ("AttentionBias", "ab"),
                               ("AttentionScalar", "as"), ("AttentionScalarBias", "asb")):
                if name in opt:
                    op_in[slot] = [feed(name)]
            names = ["Hidden", "Cell", "AttentionedX", "AttentionFCOut", "LSTMX", "LSTMOUT"]
            o = [b.create_var(name="al%d_%s" % (k, s.lower()), dtype=dt,
                              lod_level=1 if s in ("Hidden", "Cell") else 0) for s in names]
            raw_op(b, "attention_lstm", op_in, dict(zip(names, [[v] for v in o])),
                   dict(zip(["gate_activation", "cell_activation", "candidate_activation"],
                            acts)))
            outs += o if inter else o[:2]
        return ins, outs
    return build


def l7_attention_lstm_values(dt=F32):
    rng = np.random.RandomState(706)
    M, D = 3, 2

    def r(*shape):
        return rng.uniform(-1, 1, shape).astype(dt)
    # lengths 3, 0, 4: an empty sequence
    return {"x": (r(7, M), [[0, 3, 3, 7]]), "c0": (r(3, D), None), "h0": (r(3, D), None),
            "aw": (r(M + D, 1), None), "ab": (r(1, 1), None),
            "as": (np.array([[1.7]], dt), None), "asb": (r(1, 1), None),
            "lw": (r(D + M, 4 * D), None), "lb": (r(1, 4 * D), None)}


L7_AL = [(("sigmoid", "tanh", "tanh"), ("h0", "ab", "as", "asb"), True),
         (("tanh", "relu", "identity"), (), False),
         (("identity", "sigmoid", "relu"), ("h0", "as"), False),
         (("sigmoid", "identity", "sigmoid"), ("ab",), False)]

LOD_CASES.update({
    "l7_attention_lstm": (l7_attention_lstm(L7_AL), l7_attention_lstm_values()),
    "l7_attention_lstm_f64": (l7_attention_lstm([L7_AL[0], L7_AL[2]], "float64"),
                              l7_attention_lstm_values("float64")),
})


def l7_pyramid_hash(specs):
    """(helper L) pyramid_hash at inference without filter lists: per spec (W's feed name,
    attributes) one op over X (int32 ids, LoD); Out (LoD: the rows per sequence) fetched, and
    X_Temp_Out of the first op. DropPos is not fetched: Paddle leaves its rows past the
    n-grams unwritten."""
    def build(feeds):
        b = paddle.static.default_main_program().global_block()
        x = paddle.static.data("x", [-1, 1], "int32", lod_level=1)
        # bloom filters (unread while their lengths are 0)
        wl = paddle.static.data("wl", list(feeds["wl"][0].shape), F32)
        bl = paddle.static.data("bl", list(feeds["bl"][0].shape), F32)
        made, ins, outs = {}, [x, wl, bl], []
        for k, (wname, attrs) in enumerate(specs):
            if wname not in made:
                arr = feeds[wname][0]
                made[wname] = paddle.static.data(wname, list(arr.shape), str(arr.dtype))
                ins.append(made[wname])
            dt = str(feeds[wname][0].dtype)
            o = b.create_var(name="ph%d_out" % k, dtype=dt, lod_level=1)
            dp = b.create_var(name="ph%d_drop" % k, dtype="int32", lod_level=1)
            xt = b.create_var(name="ph%d_xtemp" % k, dtype=F32)
            full = dict(num_emb=8, space_len=50, pyramid_layer=3, rand_len=2,
                        drop_out_percent=0.5, is_training=0, use_filter=False,
                        white_list_len=0, black_list_len=0, seed=0, lr=0.0)
            full.update(attrs)
            raw_op(b, "pyramid_hash", {"X": [x], "W": [made[wname]], "WhiteList": [wl],
                                       "BlackList": [bl]},
                   {"Out": [o], "DropPos": [dp], "X_Temp_Out": [xt]}, full)
            outs += [o, xt] if k == 0 else [o]
        return ins, outs
    return build


def l7_pyramid_hash_values():
    rng = np.random.RandomState(707)
    # sequences of 3, 0, 1 and 5 ids: no n-gram for the empty and the single one
    return {"x": (rng.randint(0, 10000, (9, 1)).astype("int32"), [[0, 3, 3, 4, 9]]),
            "w": (rng.uniform(-1, 1, (52, 1)).astype(F32), None),
            "w2": (rng.uniform(-1, 1, (67, 1)).astype(F32), None),
            "w8": (rng.randint(-128, 128, (52, 1)).astype("int8"), None),
            "wl": (np.zeros((1, 1), F32), None), "bl": (np.zeros((1, 1), F32), None)}


LOD_CASES.update({
    # layers 3, drop 0.5; layers 4 with rand_len 3 over space 64; use_filter with empty lists;
    # int8 W (not scaled)
    "l7_pyramid_hash": (l7_pyramid_hash([
        ("w", {}),
        ("w2", dict(pyramid_layer=4, rand_len=3, num_emb=9, space_len=64,
                    drop_out_percent=1.0)),
        ("w", dict(use_filter=True, drop_out_percent=0.25)),
        ("w8", dict(pyramid_layer=5))]), l7_pyramid_hash_values()),
})


M64 = (1 << 64) - 1


def l7_murmur3_128(data, seed):
    """MurmurHash3 x64-128 (Paddle's math/bloomfilter.cc) of bytes with a seed: (h1, h2)."""
    def rotl(x, r):
        return ((x << r) | (x >> (64 - r))) & M64

    def fmix(k):
        k ^= k >> 33
        k = (k * 0xff51afd7ed558ccd) & M64
        k ^= k >> 33
        k = (k * 0xc4ceb9fe1a85ec53) & M64
        return k ^ (k >> 33)
    c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
    h1 = h2 = seed
    n = len(data) // 16
    for i in range(n):
        k1 = int.from_bytes(data[16 * i:16 * i + 8], "little")
        k2 = int.from_bytes(data[16 * i + 8:16 * i + 16], "little")
        k1 = (rotl((k1 * c1) & M64, 31) * c2) & M64
        h1 = ((rotl(h1 ^ k1, 27) + h2) * 5 + 0x52dce729) & M64
        k2 = (rotl((k2 * c2) & M64, 33) * c1) & M64
        h2 = ((rotl(h2 ^ k2, 31) + h1) * 5 + 0x38495ab5) & M64
    tail = data[16 * n:]
    if len(tail) > 8:
        k2 = int.from_bytes(tail[8:], "little")
        h2 ^= (rotl((k2 * c2) & M64, 33) * c1) & M64
    if tail:
        k1 = int.from_bytes(tail[:8], "little")
        h1 ^= (rotl((k1 * c1) & M64, 31) * c2) & M64
    h1 ^= len(data)
    h2 ^= len(data)
    h1 = (h1 + h2) & M64
    h2 = (h2 + h1) & M64
    h1, h2 = fmix(h1), fmix(h2)
    h1 = (h1 + h2) & M64
    h2 = (h2 + h1) & M64
    return h1, h2


def l7_bloom(keys, m=256, k=3):
    """Paddle's bloom filter holding the given keys (bytes), as the float32 [len, 1] tensor a
    pyramid_hash WhiteList / BlackList is: magic 17070416, m, k, count, then the m bits."""
    bits = bytearray(m // 8)
    for key in keys:
        for i in range(k):
            for h in l7_murmur3_128(key, i):
                b = h % m
                bits[b >> 3] |= 0x80 >> (b & 7)
    raw = b"".join(v.to_bytes(8, "little") for v in (17070416, m, k, len(keys))) + bytes(bits)
    return np.frombuffer(raw, "<f4").copy().reshape(-1, 1)


def l7_pyramid_hash_filter_values():
    v = l7_pyramid_hash_values()
    x = v["x"][0].ravel().astype(F32)

    def gram(s, n):
        return x[s:s + n].tobytes()
    # rows 4 .. 8 are the 5-id sequence: white-list some of its 2- and 3-grams and one of the
    # first sequence's, black-list one of the white ones
    white = [gram(0, 2), gram(4, 2), gram(5, 2), gram(7, 2), gram(4, 3), gram(6, 3)]
    black = [gram(5, 2)]
    v["wl"] = (l7_bloom(white), None)
    v["bl"] = (l7_bloom(black, m=128, k=2), None)
    return v


LOD_CASES.update({
    # use_filter with a white list, with white and black lists, and a black list alone
    "l7_pyramid_hash_filter": (l7_pyramid_hash([
        ("w", dict(use_filter=True, white_list_len=16)),
        ("w", dict(use_filter=True, white_list_len=16, black_list_len=12,
                   drop_out_percent=1.0)),
        ("w2", dict(use_filter=True, black_list_len=12, pyramid_layer=4, rand_len=3,
                    num_emb=9, space_len=64))]), l7_pyramid_hash_filter_values()),
    # is_training: n-grams dropped by glibc's rand_r from seed (drop_out_percent 0.5 and
    # 0.3), after a white list; no scaling of Out
    "l7_pyramid_hash_train": (l7_pyramid_hash([
        ("w", dict(is_training=1, seed=7, drop_out_percent=0.5)),
        ("w2", dict(is_training=1, seed=12345, drop_out_percent=0.3, pyramid_layer=5,
                    rand_len=3, num_emb=9, space_len=64)),
        ("w", dict(is_training=1, seed=3, drop_out_percent=0.5, use_filter=True,
                   white_list_len=16))]), l7_pyramid_hash_filter_values()),
})


def gen_lod_case(out_dir, name, build, values):
    """Build the program, save it, run Paddle's copy of it on LoD feeds, write the case."""
    import shutil
    from paddle.base import core
    main_prog, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_prog, startup), paddle.utils.unique_name.guard():
        feed_vars, fetch_vars = build(values)
    exe = paddle.static.Executor(paddle.CPUPlace())
    d = os.path.join(out_dir, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    prefix = os.path.join(d, "inference")
    paddle.static.save_inference_model(prefix, feed_vars, fetch_vars, exe, program=main_prog)
    if os.path.exists(prefix + ".pdiparams"):
        os.remove(prefix + ".pdiparams")
    with open(prefix + ".pdmodel", "rb") as f:
        prog = paddle.static.Program.parse_from_string(f.read())
    for blk in prog.blocks:
        for op in blk.ops:
            if op.desc.has_attr("op_callstack"):
                op.desc.remove_attr("op_callstack")
    with open(prefix + ".pdmodel", "wb") as f:
        f.write(prog.desc.serialize_to_string())
    inf, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
    feed = {}
    for n in feed_names:
        arr, lod = values[n]
        t = core.LoDTensor()
        t.set(arr, paddle.CPUPlace())
        if lod:
            t.set_lod(lod)
        feed[n] = t
    if getattr(build, "onednn", False):
        got = run_onednn_lod(prefix, values, [v.name for v in fetch_targets])
    else:
        got = exe.run(inf, feed=feed, fetch_list=fetch_targets, return_numpy=False)
    lines = []
    for k, n in enumerate(feed_names):
        arr, lod = values[n]
        np.save(os.path.join(d, "in_%d.npy" % k), arr)
        lines.append("feed %s in_%d.npy" % (n, k))
        for level in lod or []:
            lines.append("lod %s %s" % (n, " ".join(map(str, level))))
    for k, (v, t) in enumerate(zip(fetch_targets, got)):
        np.save(os.path.join(d, "out_%d.npy" % k), np.array(t))
        lines.append("fetch %s out_%d.npy" % (v.name, k))
        for level in t.lod():
            lines.append("outlod %s %s" % (v.name, " ".join(map(str, level))))
    with open(os.path.join(d, "case.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", name, [np.array(t).shape for t in got], [t.lod() for t in got])


class PredictorOut:
    """A predictor output as gen_lod_case reads fetches: np.array() and lod()."""

    def __init__(self, arr, lod):
        self.arr, self._lod = arr, lod

    def __array__(self, dtype=None, copy=None):
        return self.arr if dtype is None else self.arr.astype(dtype)

    def lod(self):
        return self._lod


def run_onednn_lod(prefix, values, fetch_names):
    """Paddle's outputs for prefix.pdmodel from its inference predictor with oneDNN on (ops
    with only oneDNN kernels, such as multi_gru: see gen_paddle_oracle's case(onednn=True)),
    the LoD feeds set on the input handles."""
    from paddle import inference
    config = inference.Config()
    config.set_prog_file(prefix + ".pdmodel")
    config.disable_gpu()
    config.switch_ir_optim(False)
    config.enable_mkldnn()
    config.enable_new_ir(True)
    config.enable_new_executor(True)
    pred = inference.create_predictor(config)
    for n in pred.get_input_names():
        arr, lod = values[n]
        h = pred.get_input_handle(n)
        h.copy_from_cpu(arr)
        if lod:
            h.set_lod(lod)
    pred.run()
    outs = []
    for n in fetch_names:
        h = pred.get_output_handle(n)
        outs.append(PredictorOut(h.copy_to_cpu(), h.lod()))
    return outs


def gen_lod_cases(out_dir, only):
    names = sorted(LOD_CASES)
    os.makedirs(out_dir, exist_ok=True)
    for n in names:
        if only and n not in only:
            continue
        build, values = LOD_CASES[n]
        gen_lod_case(out_dir, n, build, values)
    with open(os.path.join(out_dir, "cases.txt"), "w") as f:
        f.write("\n".join(names) + "\n")


@case()
def beam_search_decoder_nn(g):
    """paddle.nn.BeamSearchDecoder with paddle.nn.dynamic_decode in static mode: a GRU cell,
    an embedding and a linear output layer (parameters from Paddle's seeded initializers),
    the initial state tanh(enc),
    beam 3, end token 9 (a likely one: beams end at different steps), at most 6 steps. The program is a while over tensor arrays with
    top_k_v2, gather_nd, floor division and mod for the beams' parents, reduce_all for the
    stop test, and gather_tree rebuilding the beams; fetches the predicted ids and lengths."""
    vocab, hid = 10, 8
    enc = g.data("enc", g.rand([2, hid]))
    emb = paddle.nn.Embedding(vocab, hid)
    cell = paddle.nn.GRUCell(hid, hid)
    out = paddle.nn.Linear(hid, vocab)
    dec = paddle.nn.BeamSearchDecoder(cell, start_token=0, end_token=9, beam_size=3,
                                      embedding_fn=emb, output_fn=out)
    ids, _, lengths = paddle.nn.dynamic_decode(dec, inits=paddle.tanh(enc),
                                               max_step_num=6, return_length=True)
    g.fetch(ids, lengths)


# ---------------------------------------------------------------------------------------
# recurrent: fluid's StaticRNN
# ---------------------------------------------------------------------------------------

class StaticRNN:
    """The program fluid 1.x's StaticRNN (paddle.fluid.layers.StaticRNN) writes, rebuilt here:
    Paddle 2.6.2 no longer has the Python class, but its executor still runs the recurrent
    op. As fluid's: step_input declares the step's variable in the step block under the outer
    name (shape without the leading dimension); memory(init=...) declares the previous-step
    variable there, memory(shape, batch_ref, init_value) first adds fill_constant_batch_size_like
    in the parent block (batch from dim 1 of the outer sequence); step_output and each memory
    end in a copy op inside the block whose output is the stacked output (declared again in
    the parent with [seq_len] + shape) or the state; the parameters are the names the block
    reads that it does not write, link or declare. The copy is `assign` where fluid wrote
    rnn_memory_helper (the same Out = X, which Paddle 2.6.2 no longer registers)."""

    def __init__(self, reverse=False, is_train=None):
        self.prog = paddle.static.default_main_program()
        self.reverse, self.is_train = reverse, is_train
        self.inputs, self.outputs, self.mems = [], [], []  # mems: [init, pre, new]
        self.seq_len = None

    def __enter__(self):
        self.parent = self.prog.current_block()
        self.block = self.prog._create_block()
        return self

    def step_input(self, x):
        self.seq_len = x.shape[0]
        ipt = self.block.create_var(name=x.name, dtype=x.dtype, shape=list(x.shape[1:]))
        self.inputs.append(x)
        return ipt

    def memory(self, init=None, shape=None, batch_ref=None, init_value=0.0):
        if init is None:
            boot = self.parent.create_var(name=paddle.utils.unique_name.generate("mem_boot"),
                                          shape=shape, dtype=batch_ref.dtype)
            self.parent.append_op(
                type="fill_constant_batch_size_like", inputs={"Input": [batch_ref.name]},
                outputs={"Out": [boot]},
                attrs={"value": init_value, "shape": shape, "dtype": boot.dtype,
                       "input_dim_idx": 1, "output_dim_idx": 0})
            init = boot
        pre = self.block.create_var(name=paddle.utils.unique_name.generate("rnn_mem"),
                                    dtype=init.dtype, shape=init.shape)
        self.mems.append([init, pre, None])
        return pre

    def update_memory(self, mem, var):
        for m in self.mems:
            if m[1].name == mem.name:
                m[2] = var

    def _copy(self, v):
        out = self.block.create_var(name=paddle.utils.unique_name.generate("rnn_tmp"),
                                    dtype=v.dtype, shape=v.shape)
        self.block.append_op(type="assign", inputs={"X": [v]}, outputs={"Out": [out]})
        return out

    def step_output(self, o):
        tmp = self._copy(o)
        self.outputs.append(self.parent.create_var(name=tmp.name, dtype=tmp.dtype,
                                                   shape=[self.seq_len] + list(tmp.shape)))

    def __exit__(self, *exc):
        if exc[0] is not None:
            return False
        states = [self._copy(m[2]).name for m in self.mems]
        local = set(v.name for v in self.inputs) | set(m[1].name for m in self.mems)
        for op in self.block.ops:
            for n in op.output_arg_names:
                local.add(n)
        params = []
        for op in self.block.ops:
            for n in op.input_arg_names:
                if n not in local and n not in params:
                    params.append(n)
        self.prog._rollback()
        step_scope = self.parent.create_var(type=paddle.base.core.VarDesc.VarType.STEP_SCOPES)
        attrs = {"has_states": len(self.mems) > 0, "ex_states": [m[1].name for m in self.mems],
                 "states": states, "sub_block": self.block, "reverse": self.reverse}
        if self.is_train is not None:
            attrs["is_train"] = self.is_train
        self.parent.append_op(
            type="recurrent",
            inputs={"inputs": self.inputs, "initial_states": [m[0] for m in self.mems],
                    "parameters": [self.parent._find_var_recursive(n) for n in params]},
            outputs={"outputs": self.outputs, "step_scopes": [step_scope]}, attrs=attrs)
        return False


@case()
def static_rnn_tanh(g):
    """fluid's StaticRNN: h_t = tanh(fc(concat(x_t, h_{t-1}))), one input [5, 2, 3], one
    memory initialised from a fed h0 [2, 4]; fetches the stacked h [5, 2, 4]."""
    x = g.data("x", g.rand([5, 2, 3]))
    h0 = g.data("h0", g.rand([2, 4]))
    with StaticRNN() as rnn:
        xt = rnn.step_input(x)
        h = rnn.memory(init=h0)
        nh = paddle.static.nn.fc(paddle.concat([xt, h], axis=1), 4, activation="tanh")
        rnn.update_memory(h, nh)
        rnn.step_output(nh)
    g.fetch(rnn.outputs[0])


@case()
def static_rnn_two(g):
    """StaticRNN with two inputs ([4, 3, 2] and [4, 3, 5]) and two memories, one from a fed
    tensor and one by shape from batch_ref (fill_constant_batch_size_like, value 0.5); an
    outer parameter w read inside the block, two stacked outputs; is_train false."""
    x = g.data("x", g.rand([4, 3, 2]))
    y = g.data("y", g.rand([4, 3, 5]))
    c0 = g.data("c0", g.rand([3, 2]))
    w = g.param("w", g.rand([5, 2], -0.5, 0.5))
    with StaticRNN(is_train=False) as rnn:
        xt = rnn.step_input(x)
        yt = rnn.step_input(y)
        h = rnn.memory(shape=[-1, 2], batch_ref=xt, init_value=0.5)
        c = rnn.memory(init=c0)
        nc = c * 0.5 + paddle.tanh(paddle.matmul(yt, w) + xt)
        nh = paddle.nn.functional.sigmoid(nc) * h + xt
        rnn.update_memory(h, nh)
        rnn.update_memory(c, nc)
        rnn.step_output(nh)
        rnn.step_output(nc * 2.0)
    g.fetch(*rnn.outputs)


@case()
def static_rnn_reverse(g):
    """A recurrent op with reverse set (the steps run from the last to the first; fluid's
    StaticRNN API itself never sets it): a running sum s_t = s_{t+1} * 0.9 + x_t * w over
    x [6, 2, 3], the memory by shape (init_value -1), and a stateless second output."""
    x = g.data("x", g.rand([6, 2, 3]))
    w = g.param("w", g.rand([3], 0.5, 1.5))
    with StaticRNN(reverse=True) as rnn:
        xt = rnn.step_input(x)
        s = rnn.memory(shape=[-1, 3], batch_ref=xt, init_value=-1.0)
        ns = s * 0.9 + xt * w
        rnn.update_memory(s, ns)
        rnn.step_output(ns)
        rnn.step_output(paddle.exp(xt))
    g.fetch(*rnn.outputs)


@case()
def static_rnn_stateless(g):
    """A recurrent op without memories (has_states false): out_t = relu(x_t @ w) per step."""
    x = g.data("x", g.rand([3, 2, 4]))
    w = g.param("w", g.rand([4, 3]))
    with StaticRNN() as rnn:
        xt = rnn.step_input(x)
        rnn.step_output(paddle.nn.functional.relu(paddle.matmul(xt, w)))
    g.fetch(*rnn.outputs)


@case()
def static_rnn_memory_helper(g):
    """static_rnn_two's program with fluid's rnn_memory_helper (dtype float32) where it has
    assign in the step block, as fluid 1.x wrote it: Paddle 2.6.2 no longer registers that op,
    so the outputs are Paddle's for the assign program (the same copy, Out = X)."""
    static_rnn_two(g)


@case()
def static_rnn_nested_while(g):
    """A while_loop inside the StaticRNN step block: per step, n = 3 times
    h = tanh(h * 0.5 + x_t @ w) from the memory (the nested block reads the step's input and
    the outer parameter w); the memory's initial value by shape (init_value 0.25)."""
    x = g.data("x", g.rand([4, 2, 3]))
    w = g.param("w", g.rand([3, 3], -0.5, 0.5))
    with StaticRNN() as rnn:
        xt = rnn.step_input(x)
        h = rnn.memory(shape=[-1, 3], batch_ref=xt, init_value=0.25)
        i = paddle.full([1], 0, "int64")
        n = paddle.full([1], 3, "int64")

        def body(i, hh):
            return [i + 1, paddle.tanh(hh * 0.5 + paddle.matmul(xt, w))]

        _, nh = paddle.static.nn.while_loop(lambda i, hh: i < n, body, [i, h])
        rnn.update_memory(h, nh)
        rnn.step_output(nh)
    g.fetch(*rnn.outputs)


MEMORY_HELPER_CASES = ("static_rnn_memory_helper",)


def to_memory_helper(path):
    """Rename the sub-blocks' assign ops of a saved program to rnn_memory_helper."""
    from paddle.base.proto import framework_pb2 as pb
    desc = pb.ProgramDesc()
    with open(path, "rb") as f:
        desc.ParseFromString(f.read())
    for blk in desc.blocks[1:]:
        for op in blk.ops:
            if op.type != "assign":
                continue
            op.type = "rnn_memory_helper"
            attrs = [a for a in op.attrs if a.name != "dtype"]
            dt = pb.OpDesc.Attr(name="dtype", type=pb.INT, i=5)
            attrs = sorted(attrs + [dt], key=lambda a: a.name)
            del op.attrs[:]
            op.attrs.extend(attrs)
    with open(path, "wb") as f:
        f.write(desc.SerializeToString())


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    args = sys.argv[1:]
    out_dir = os.path.join(here, "..", "tests", "data", "paddle_ctrl")
    if args and args[0] not in CASES and args[0] not in LOD_CASES:
        out_dir = args.pop(0)
    lod_dir = os.path.join(os.path.dirname(os.path.abspath(out_dir)), "paddle_ctrl_lod")
    paddle.enable_static()
    names = sorted(CASES)
    os.makedirs(out_dir, exist_ok=True)
    for n in names:
        if args and n not in args:
            continue
        gpo.gen_op_case(out_dir, n, CASES[n])
        if n in MEMORY_HELPER_CASES:
            to_memory_helper(os.path.join(out_dir, n, "model.pdmodel"))
        with open(os.path.join(out_dir, n, "case.txt")) as f:
            text = f.read().replace("tools/gen_paddle_oracle.py", "tools/gen_ctrl_oracle.py")
        with open(os.path.join(out_dir, n, "case.txt"), "w") as f:
            f.write(text)
        print("wrote", n)
    with open(os.path.join(out_dir, "cases.txt"), "w") as f:
        f.write("\n".join(names) + "\n")
    lod_only = [a for a in args if a in LOD_CASES]
    if not args or lod_only:
        gen_lod_cases(lod_dir, lod_only or None)


if __name__ == "__main__":
    main()
