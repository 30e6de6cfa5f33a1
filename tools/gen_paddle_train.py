#!/usr/bin/env python3
"""Write tests/data/train/: small training programs built by PaddlePaddle itself, with their
startup programs, the persistables right after startup, fixed input batches, Paddle's loss at
every step and Paddle's persistables after the last step, so that tests/test_train.c can check
that icore trains exactly as Paddle does.

    FLAGS_enable_pir_api=0 /work/pdenv/bin/python tools/gen_paddle_train.py [OUT_DIR] [CASE...]

Tested with PaddlePaddle 3.3.1 (CPU); the lr_* cases of legacy schedules (LEGACY below) and
the LoD gru / lstm / ctc cases (LEGACY_RNN) and the ctl_* cases of training through while_loop and
cond (CTRL) and losses_26 (LEGACY_LOSS) and the n_rnn_* cases of training through fluid's
StaticRNN (LEGACY_SRNN) need PaddlePaddle 2.6.2, which writes them when it
runs this script:
    /work/pdenv26/bin/python tools/gen_paddle_train.py
Each case is a directory <case>/ holding
    main.pdmodel      the training program (forward, backward and optimizer ops) as
                      program.desc.serialize_to_string() wrote it, minus op_callstack
    startup.pdmodel   its startup program, likewise
    init.pdiparams    every persistable of the main program right after Paddle ran startup,
                      in Paddle's combined format (sorted by name, as save_combine writes)
    final.pdiparams   the same variables after STEPS steps of training with Paddle
    <feed>.npy        each feed, STEPS batches stacked along the first dimension
    loss.npy          Paddle's fetched loss at every step, float32[STEPS]
    lr.npy            (schedule cases) the learning rate of every step, [STEPS, ...]
    case.txt          the manifest: 'steps N', 'batch B', 'feed NAME FILE', 'loss NAME',
                      'rtol X' (losses), 'ptol X' (final parameters), 'ops T1 T2 ...', and for
                      schedules 'lr NAME' (computed by the program) or 'lrfeed NAME' (fed)
and cases.txt lists every case directory. The output is deterministic (fixed seeds).
"""
import contextlib
import os
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

STEPS = 20


def strip_callstacks(data):
    """Drop op_callstack (this machine's Python stacks). Paddle 3.3.1's legacy reshape2 and
    transpose2 ops also carry some attributes twice (mkldnn_data_type) in a training program;
    icore reads a repeated attribute as Paddle does (the last one wins; test_program covers
    it), but an exact repeat is dropped here all the same (a differing one would be an error)."""
    from paddle.base.proto import framework_pb2
    prog = framework_pb2.ProgramDesc.FromString(data)
    for block in prog.blocks:
        for op in block.ops:
            keep, seen = [], {}
            for a in op.attrs:
                if a.name == "op_callstack":
                    continue
                if a.name in seen:
                    assert seen[a.name] == a.SerializeToString(), (op.type, a.name)
                    continue
                seen[a.name] = a.SerializeToString()
                keep.append(a)
            del op.attrs[:]
            op.attrs.extend(keep)
    return prog.SerializeToString()


def persistables(prog):
    out = [v for v in prog.list_vars() if v.persistable and v.name not in ("feed", "fetch")]
    return sorted(out, key=lambda v: v.name)


def case_seed():
    """The canonical example of Paddle's static-graph documentation: fc, mean, SGD."""
    data = paddle.static.data(name="X", shape=[None, 1], dtype="float32")
    hidden = paddle.static.nn.fc(data, 10)
    loss = paddle.mean(hidden)
    paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    rng = np.random.default_rng(1)
    feeds = {"X": rng.standard_normal((STEPS * 4, 1)).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_mlp():
    """Two fc layers with relu, softmax cross-entropy on hard labels, Adam."""
    x = paddle.static.data(name="x", shape=[None, 8], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    h = paddle.static.nn.fc(x, 16, activation="relu")
    logits = paddle.static.nn.fc(h, 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    rng = np.random.default_rng(2)
    feeds = {"x": rng.standard_normal((STEPS * 8, 8)).astype("float32"),
             "label": rng.integers(0, 3, (STEPS * 8, 1)).astype("int64")}
    return loss, feeds, 8, 1e-5, 1e-4


def raw(op_type, inputs, attrs=None):
    """Append one op writing Out through LayerHelper: Paddle 3.3.1's legacy (non-PIR) static
    mode no longer accepts Variables in several tensor functions (paddle.matmul, gelu, sqrt,
    maximum, ...: "must be Value, but got Variable"), so this script emits their ops itself,
    exactly as those functions used to."""
    from paddle.base.layer_helper import LayerHelper
    h = LayerHelper(op_type)
    out = h.create_variable_for_type_inference("float32")
    h.append_op(type=op_type, inputs=inputs, outputs={"Out": out}, attrs=attrs or {})
    return out


def case_attention():
    """A transformer block: layer_norm, single-head attention (matmul_v2, scale, softmax,
    transpose2, reshape2), a gelu feed-forward and a residual, a squared-error loss, AdamW
    with ClipGradByGlobalNorm."""
    ew = {"axis": -1}
    # ClipGradByGlobalNorm calls these; route them to the ops they emit (see raw()).
    paddle.sqrt = lambda x, name=None: raw("sqrt", {"X": x})
    paddle.maximum = lambda x, y, name=None: raw("elementwise_max", {"X": x, "Y": y}, ew)
    paddle.divide = lambda x, y, name=None: raw("elementwise_div", {"X": x, "Y": y}, ew)
    paddle.multiply = lambda x, y, name=None: raw("elementwise_mul", {"X": x, "Y": y}, ew)
    x = paddle.static.data(name="x", shape=[None, 6, 8], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 6, 8], dtype="float32")
    h = paddle.nn.LayerNorm(8)(x)
    # no bias on k: softmax ignores it (its gradient is 0 up to rounding, and Adam would
    # turn that rounding noise into steps of full size, in Paddle as in icore)
    q = paddle.nn.Linear(8, 8)(h)
    k = paddle.nn.Linear(8, 8, bias_attr=False)(h)
    v = paddle.nn.Linear(8, 8)(h)
    s = raw("matmul_v2", {"X": q, "Y": k}, {"trans_x": False, "trans_y": True})
    att = raw("softmax", {"X": paddle.scale(s, 0.35)}, {"axis": -1})
    o = raw("matmul_v2", {"X": att, "Y": v}, {"trans_x": False, "trans_y": False})
    o = paddle.reshape(paddle.transpose(o, [0, 2, 1]), [-1, 6, 8])
    f = raw("gelu", {"X": paddle.nn.Linear(8, 16)(o)}, {"approximate": False})
    out = paddle.add(x, paddle.nn.Linear(16, 8)(f))
    d = paddle.subtract(out, y)
    loss = paddle.mean(raw("elementwise_mul", {"X": d, "Y": d}, ew))
    opt = paddle.optimizer.AdamW(learning_rate=0.01, weight_decay=0.01,
                                 grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
    opt.minimize(loss)
    rng = np.random.default_rng(3)
    feeds = {"x": rng.standard_normal((STEPS * 4, 6, 8)).astype("float32"),
             "y": rng.standard_normal((STEPS * 4, 6, 8)).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_cnn():
    """A LeNet-style CNN: conv2d, batch_norm (training statistics), relu, max pool2d, a second
    conv2d and avg pool2d, fc, softmax cross-entropy on hard labels, Momentum (nesterov, L2
    decay)."""
    x = paddle.static.data(name="img", shape=[None, 1, 8, 8], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    h = paddle.nn.Conv2D(1, 4, 3, padding=1)(x)
    h = raw("relu", {"X": paddle.nn.BatchNorm2D(4)(h)})
    h = paddle.nn.MaxPool2D(2, 2)(h)
    h = paddle.nn.Conv2D(4, 6, 3, stride=1, padding=0)(h)
    h = paddle.nn.AvgPool2D(2, 2)(raw("relu", {"X": h}))
    logits = paddle.static.nn.fc(h, 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9, use_nesterov=True,
                              weight_decay=paddle.regularizer.L2Decay(1e-3)).minimize(loss)
    rng = np.random.default_rng(4)
    feeds = {"img": rng.standard_normal((STEPS * 4, 1, 8, 8)).astype("float32"),
             "label": rng.integers(0, 3, (STEPS * 4, 1)).astype("int64")}
    return loss, feeds, 4, 1e-4, 1e-4


def case_branches():
    """Two branches joined by concat (tanh and sigmoid), a sigmoid cross-entropy loss with
    normalize and an ignored label, RMSProp (centered, momentum)."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 2], dtype="float32")
    a = raw("tanh", {"X": paddle.static.nn.fc(x, 5)})
    b = raw("sigmoid", {"X": paddle.static.nn.fc(x, 3)})
    h = paddle.concat([a, b], axis=1)
    logits = paddle.static.nn.fc(h, 2)
    ce = raw("sigmoid_cross_entropy_with_logits", {"X": logits, "Label": label},
             {"normalize": True, "ignore_index": -1})
    loss = paddle.mean(ce)
    paddle.optimizer.RMSProp(learning_rate=0.01, rho=0.9, momentum=0.5,
                             centered=True).minimize(loss)
    rng = np.random.default_rng(5)
    lab = rng.integers(0, 2, (STEPS * 8, 2)).astype("float32")
    lab[::7, 1] = -1  # ignored
    feeds = {"x": rng.standard_normal((STEPS * 8, 6)).astype("float32"), "label": lab}
    return loss, feeds, 8, 1e-5, 1e-4


def case_adagrad():
    """fc + softmax + cross_entropy2 (probabilities in, hard labels) with Adagrad."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    prob = raw("softmax", {"X": paddle.static.nn.fc(x, 4)}, {"axis": -1})
    from paddle.base.layer_helper import LayerHelper
    h = LayerHelper("cross_entropy2")
    y = h.create_variable_for_type_inference("float32")
    xs = h.create_variable_for_type_inference("float32")
    mx = h.create_variable_for_type_inference("float32")
    h.append_op(type="cross_entropy2", inputs={"X": prob, "Label": label},
                outputs={"Y": y, "XShape": xs, "MatchX": mx}, attrs={"ignore_index": -100})
    loss = paddle.mean(y)
    paddle.optimizer.Adagrad(learning_rate=0.1).minimize(loss)
    rng = np.random.default_rng(6)
    feeds = {"x": rng.standard_normal((STEPS * 8, 6)).astype("float32"),
             "label": rng.integers(0, 4, (STEPS * 8, 1)).astype("int64")}
    return loss, feeds, 8, 1e-5, 1e-4


def case_lamb():
    """fc, relu, fc, softmax cross-entropy with LAMB (weight decay 0.01, biases excluded so
    both the adapted and the unadapted update run)."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    h = paddle.static.nn.fc(x, 8, activation="relu")
    logits = paddle.static.nn.fc(h, 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
    paddle.optimizer.Lamb(learning_rate=0.02, lamb_weight_decay=0.01,
                          exclude_from_weight_decay_fn=lambda p: p.name.endswith(".b_0")
                          ).minimize(loss)
    rng = np.random.default_rng(7)
    feeds = {"x": rng.standard_normal((STEPS * 8, 6)).astype("float32"),
             "label": rng.integers(0, 3, (STEPS * 8, 1)).astype("int64")}
    return loss, feeds, 8, 1e-5, 1e-4


def case_lstm():
    """An embedding + LSTM classifier: lookup_table_v2, a one-layer LSTM (the cuDNN-style rnn
    op, training mode) read through its last hidden state, fc, softmax cross-entropy on hard
    labels, SGD."""
    ids = paddle.static.data(name="ids", shape=[None, 5], dtype="int64")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    emb = paddle.nn.Embedding(20, 6)(ids)
    _, (h, _) = paddle.nn.LSTM(6, 8)(emb)
    logits = paddle.static.nn.fc(paddle.squeeze(h, 0), 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
    paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)
    rng = np.random.default_rng(8)
    feeds = {"ids": rng.integers(0, 20, (STEPS * 4, 5)).astype("int64"),
             "label": rng.integers(0, 3, (STEPS * 4, 1)).astype("int64")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_gru():
    """An embedding + two-layer bidirectional GRU whose whole output sequence feeds the loss
    (Out and State both carry gradients), fc, softmax cross-entropy, SGD."""
    ids = paddle.static.data(name="ids", shape=[None, 4], dtype="int64")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    emb = paddle.nn.Embedding(16, 5)(ids)
    out, h = paddle.nn.GRU(5, 6, num_layers=2, direction="bidirect")(emb)
    feat = paddle.concat([paddle.mean(out, axis=1), paddle.mean(h, axis=0)], axis=1)
    logits = paddle.static.nn.fc(feat, 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
    paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)
    rng = np.random.default_rng(9)
    feeds = {"ids": rng.integers(0, 16, (STEPS * 4, 4)).astype("int64"),
             "label": rng.integers(0, 3, (STEPS * 4, 1)).astype("int64")}
    return loss, feeds, 4, 1e-5, 1e-4


LOD_STEP = [[0, 3, 4, 9]]  # every step's batch: 3 sequences of lengths 3, 1 and 5


def _lod_rnn_classifier(kind, hidden):
    """Features [9, 5] per step with one LoD level -> fc (the gates' projection, no bias) ->
    fluid's LoD gru / lstm op (as fluid.layers.dynamic_gru / dynamic_lstm emitted it, with its
    own Weight and Bias parameters) -> sequence_pool LAST -> fc -> softmax cross-entropy over
    3 classes -> mean, SGD. Paddle 2.6.2 has no Python API left for the op: it is added with
    Block.append_op (its executor still runs the op and its gradient)."""
    x = paddle.static.data(name="x", shape=[None, 5], dtype="float32", lod_level=1)
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    gates = 3 if kind == "gru" else 4
    proj = paddle.static.nn.fc(x, gates * hidden, bias_attr=False)
    block = paddle.static.default_main_program().current_block()
    w = paddle.static.create_parameter([hidden, gates * hidden], "float32", name=kind + "_w")
    peep = kind == "lstm"
    b = paddle.static.create_parameter([1, (7 if peep else gates) * hidden], "float32",
                                       name=kind + "_b", is_bias=True)
    def var(n):
        return block.create_var(name="%s_%s" % (kind, n), dtype="float32")
    h = var("hidden")
    if kind == "gru":
        outs = {"Hidden": [h], "BatchGate": [var("bg")], "BatchResetHiddenPrev": [var("br")],
                "BatchHidden": [var("bh")]}
        attrs = {"is_reverse": False, "origin_mode": False, "activation": "tanh",
                 "gate_activation": "sigmoid"}
    else:
        outs = {"Hidden": [h], "Cell": [var("cell")], "BatchGate": [var("bg")],
                "BatchCellPreAct": [var("bc")]}
        attrs = {"use_peepholes": True, "is_reverse": True, "gate_activation": "sigmoid",
                 "cell_activation": "tanh", "candidate_activation": "tanh"}
    block.append_op(type=kind, inputs={"Input": [proj], "Weight": [w], "Bias": [b]},
                    outputs=outs, attrs=attrs)
    last = paddle.static.nn.sequence_pool(h, "last")
    logits = paddle.static.nn.fc(last, 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
    paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)
    rng = np.random.default_rng(11 if kind == "gru" else 12)
    feeds = {"x": rng.standard_normal((STEPS * 9, 5)).astype("float32"),
             "label": rng.integers(0, 3, (STEPS * 3, 1)).astype("int64")}
    return loss, feeds, 3, 1e-5, 1e-4, {"lod": {"x": LOD_STEP}}


def case_gru_lod():
    """fluid's LoD gru (hidden 8) in a sequence classifier (_lod_rnn_classifier)."""
    return _lod_rnn_classifier("gru", 8)


def case_lstm_lod():
    """fluid's LoD lstm (hidden 6, peepholes, is_reverse) in a sequence classifier
    (_lod_rnn_classifier). Not 8: Paddle's float32 lstm_grad takes an AVX path for hidden
    sizes that are multiples of 8 that drops Hidden's gradient from the cell's gradient."""
    return _lod_rnn_classifier("lstm", 6)


def case_crf_lod():
    """A CRF sequence tagger as the Paddle book's label_semantic_roles trains it: features
    [9, 5] per step with one LoD level (sequences of 3, 1 and 5) -> fc to 4 tags ->
    linear_chain_crf against per-position labels carrying the same LoD, its Transition a
    parameter [6, 4] -> mean of the negative log-likelihoods, SGD. fluid's
    layers.linear_chain_crf is gone from Paddle 2.6.2's Python API; the op is added with
    Block.append_op and its executor still runs it and linear_chain_crf_grad."""
    x = paddle.static.data(name="x", shape=[None, 5], dtype="float32", lod_level=1)
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64", lod_level=1)
    em = paddle.static.nn.fc(x, 4)
    block = paddle.static.default_main_program().current_block()
    tr = paddle.static.create_parameter([6, 4], "float32", name="crfw")
    outs = {n: block.create_var(name="crf_" + n.lower(), dtype="float32")
            for n in ("Alpha", "EmissionExps", "TransitionExps", "LogLikelihood")}
    block.append_op(type="linear_chain_crf",
                    inputs={"Emission": [em], "Transition": [tr], "Label": [label]},
                    outputs={k: [v] for k, v in outs.items()})
    loss = paddle.mean(outs["LogLikelihood"])
    paddle.optimizer.SGD(learning_rate=0.2).minimize(loss)
    rng = np.random.default_rng(13)
    feeds = {"x": rng.standard_normal((STEPS * 9, 5)).astype("float32"),
             "label": rng.integers(0, 4, (STEPS * 9, 1)).astype("int64")}
    return loss, feeds, 9, 1e-5, 1e-4, {"lod": {"x": LOD_STEP, "label": LOD_STEP}}
CTC_X_LOD = [[0, 4, 9, 12]]  # every step: 3 sequences of 4, 5 and 3 steps
CTC_LAB_LOD = [[0, 2, 5, 6]]  # and of 2, 3 and 1 labels


def case_ctc_lod():
    """CTC training in LoD mode, as fluid's warpctc layer emitted it: features [12, 4] with
    one LoD level -> fc 4 -> 8, tanh, fc 8 -> 5 classes -> warpctc (blank 4, norm_by_times)
    over labels [6, 1] with their own LoD -> mean of Loss, SGD. Paddle 2.6.2 has no Python
    API left for the LoD form: the op is added with Block.append_op."""
    x = paddle.static.data(name="feat", shape=[None, 4], dtype="float32", lod_level=1)
    lab = paddle.static.data(name="lab", shape=[None, 1], dtype="int32", lod_level=1)
    h = paddle.static.nn.fc(x, 8, activation="tanh")
    logits = paddle.static.nn.fc(h, 5)
    block = paddle.static.default_main_program().current_block()
    loss = block.create_var(name="ctc_loss", dtype="float32")
    grad = block.create_var(name="ctc_grad", dtype="float32")
    block.append_op(type="warpctc", inputs={"Logits": [logits], "Label": [lab]},
                    outputs={"Loss": [loss], "WarpCTCGrad": [grad]},
                    attrs={"blank": 4, "norm_by_times": True})
    loss = paddle.mean(loss)
    paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)
    rng = np.random.default_rng(62)
    feeds = {"feat": rng.standard_normal((STEPS * 12, 4)).astype("float32"),
             "lab": rng.integers(0, 4, (STEPS * 6, 1)).astype("int32")}
    return loss, feeds, 3, 1e-5, 1e-4, {"lod": {"feat": CTC_X_LOD, "lab": CTC_LAB_LOD}}


def small_net(seed, steps=STEPS, batch=4):
    """fc 4->6, tanh, fc 6->1, mean squared error: the network of the schedule and
    regularization cases (what they test is the optimizer's side)."""
    x = paddle.static.data(name="x", shape=[None, 4], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 1], dtype="float32")
    h = paddle.static.nn.fc(x, 6, activation="tanh")
    d = paddle.subtract(paddle.static.nn.fc(h, 1), y)
    loss = paddle.mean(raw("elementwise_mul", {"X": d, "Y": d}, {"axis": -1}))
    rng = np.random.default_rng(seed)
    feeds = {"x": rng.standard_normal((steps * batch, 4)).astype("float32"),
             "y": rng.standard_normal((steps * batch, 1)).astype("float32")}
    return loss, feeds


def case_lr_scheduler():
    """paddle.optimizer.lr schedulers (Paddle 3.3.1): they write no op into the program. The
    optimizer reads a persistable learning_rate_0 (shape []), which Paddle's Python executor
    sets from program.lr_scheduler before every run (the user calls scheduler.step() after
    it). icore users feed that variable each step (a fed persistable shadows it for one
    run): lr.npy holds the value of every step, fed as learning_rate_0 (manifest 'lrfeed').
    Here LinearWarmup (5 steps, 0.01 -> 0.1) around CosineAnnealingDecay (T_max 8) with
    Adam."""
    loss, feeds = small_net(11)
    sched = paddle.optimizer.lr.LinearWarmup(
        paddle.optimizer.lr.CosineAnnealingDecay(0.1, T_max=8), warmup_steps=5,
        start_lr=0.01, end_lr=0.1)
    paddle.optimizer.Adam(learning_rate=sched).minimize(loss)
    return loss, feeds, 4, 1e-5, 1e-4, {"scheduler": sched}


def case_regularizer():
    """L2 and L1 regularization as Paddle emits them for SGD: weight_decay=L2Decay(0.05) on
    the optimizer (scale + sum before each sgd op), and one parameter with its own
    ParamAttr(regularizer=L1Decay(0.02)) (sign + scale + sum), which takes precedence."""
    x = paddle.static.data(name="x", shape=[None, 4], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 1], dtype="float32")
    h = paddle.static.nn.fc(x, 6, activation="tanh",
                            weight_attr=paddle.ParamAttr(
                                regularizer=paddle.regularizer.L1Decay(0.02)))
    d = paddle.subtract(paddle.static.nn.fc(h, 1), y)
    loss = paddle.mean(raw("elementwise_mul", {"X": d, "Y": d}, {"axis": -1}))
    paddle.optimizer.SGD(learning_rate=0.1,
                         weight_decay=paddle.regularizer.L2Decay(0.05)).minimize(loss)
    rng = np.random.default_rng(12)
    feeds = {"x": rng.standard_normal((STEPS * 4, 4)).astype("float32"),
             "y": rng.standard_normal((STEPS * 4, 1)).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_huber():
    """fc, tanh, fc and paddle.nn.functional.smooth_l1_loss (huber_loss, delta 0.5, mean),
    with Momentum; targets spread so that both branches of the loss are taken."""
    x = paddle.static.data(name="x", shape=[None, 4], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 1], dtype="float32")
    h = paddle.static.nn.fc(x, 6, activation="tanh")
    loss = paddle.nn.functional.smooth_l1_loss(paddle.static.nn.fc(h, 1), y, reduction="mean",
                                               delta=0.5)
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    rng = np.random.default_rng(13)
    feeds = {"x": rng.standard_normal((STEPS * 8, 4)).astype("float32"),
             "y": (1.5 * rng.standard_normal((STEPS * 8, 1))).astype("float32")}
    return loss, feeds, 8, 1e-5, 1e-4


def case_xent_soft():
    """fc + softmax + the first cross_entropy op (soft_label, as Paddle 1.x
    fluid.layers.cross_entropy(soft_label=True) wrote it; Paddle 3.3.1 runs it) with SGD;
    the soft labels are random distributions with some exact zeros."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 4], dtype="float32")
    prob = raw("softmax", {"X": paddle.static.nn.fc(x, 4)}, {"axis": -1})
    from paddle.base.layer_helper import LayerHelper
    h = LayerHelper("cross_entropy")
    y = h.create_variable_for_type_inference("float32")
    h.append_op(type="cross_entropy", inputs={"X": prob, "Label": label}, outputs={"Y": y},
                attrs={"soft_label": True, "ignore_index": -100})
    loss = paddle.mean(y)
    paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)
    rng = np.random.default_rng(14)
    lab = rng.random((STEPS * 8, 4)).astype("float32")
    lab[rng.random((STEPS * 8, 4)) < 0.3] = 0
    lab[:, 0] += 0.01
    lab /= lab.sum(axis=1, keepdims=True)
    feeds = {"x": rng.standard_normal((STEPS * 8, 6)).astype("float32"), "label": lab}
    return loss, feeds, 8, 1e-5, 1e-4


# Legacy learning-rate schedules that write their ops into the program: the functions of
# paddle.optimizer.lr (noam_decay, exponential_decay, ...; paddle.fluid.layers.* in Paddle
# 1.x/2.0-2.4). Paddle 3.3.1's legacy static mode cannot build them any more (paddle.floor,
# minimum, logical_not reject a Variable), so these cases need Paddle 2.6.2:
#     /work/pdenv26/bin/python tools/gen_paddle_train.py tests/data/train lr_noam ...
# Every program prepends `increment` on the persistable int64 @LR_DECAY_COUNTER@ (started by
# the startup program at begin - 1) and casts it to float32. Paddle 2.6.2's
# paddle.optimizer.* only take a float or an LRScheduler; a Variable learning rate goes in
# through _learning_rate_map, exactly where the old fluid optimizers put it.
def _legacy_schedules():
    L = paddle.optimizer.lr
    return {
        "lr_noam": lambda: L.noam_decay(8, 4, 0.25),
        "lr_exp": lambda: L.exponential_decay(0.1, 3, 0.7, staircase=False),
        "lr_natexp": lambda: L.natural_exp_decay(0.1, 3, 0.5, staircase=True),
        "lr_invtime": lambda: L.inverse_time_decay(0.1, 3, 0.5, staircase=False),
        "lr_poly": lambda: L.polynomial_decay(0.1, 12, 0.001, power=2.0, cycle=False),
        "lr_poly_cycle": lambda: L.polynomial_decay(0.1, 6, 0.001, power=1.0, cycle=True),
        "lr_piecewise": lambda: L.piecewise_decay([4, 9, 15], [0.1, 0.05, 0.02, 0.01]),
        "lr_cosine": lambda: L.cosine_decay(0.1, 3, 8),
        "lr_warmup": lambda: L.linear_lr_warmup(
            L.exponential_decay(0.1, 4, 0.5, staircase=True), 6, 0.0, 0.1),
        "lr_user_warmup_cosine": _user_warmup_cosine,
    }


def _user_warmup_cosine():
    """The schedule image-classification and ERNIE training scripts of the Paddle 1.x era
    wrote themselves (PaddleClas/models' cosine_decay_with_warmup,
    linear_warmup_and_cosine_decay): a persistable learning rate assigned inside a Switch
    whose cases compute it, the cosine case with floor and cos inside its conditional block."""
    import math
    step = paddle.optimizer.lr._decay_step_counter(1)
    lr = paddle.static.create_global_var(shape=[1], value=0.0, dtype="float32",
                                         persistable=True, name="learning_rate")
    warm, total, base, end = 4.0, 16.0, 0.03, 0.001
    with paddle.static.nn.control_flow.Switch() as switch:
        with switch.case(step < warm):
            paddle.assign(base * (step / warm), lr)
        with switch.case(step < total):
            epoch = paddle.floor(step / 2.0) * 2.0  # the value changes every 2 steps
            frac = 0.5 * (paddle.cos((epoch - warm) * (math.pi / (total - warm))) + 1)
            paddle.assign(end + (base - end) * frac, lr)
        with switch.default():
            paddle.assign(paddle.tensor.fill_constant([1], "float32", end), lr)
    return lr


# the LoD gru / lstm / crf / ctc cases need Paddle 2.6.2 too (written with the legacy schedules)
LEGACY_RNN = ["gru_lod", "lstm_lod", "crf_lod", "ctc_lod"]


def case_ctl_while():
    """paddle.static.nn.while_loop training: h = tanh(fc(h)) with the body's own fc parameters,
    repeated N times, N fed per step (the same value in every row of the batch; the program
    slices row 0), varying 3, 1, 4, 2; squared error to y; Adam. Paddle 2.6.2 emits while_grad
    over the body's step scopes."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 8], dtype="float32")
    n = paddle.static.data(name="n", shape=[None], dtype="int64")
    h = paddle.static.nn.fc(x, 8, activation="tanh")
    count = paddle.reshape(paddle.slice(n, axes=[0], starts=[0], ends=[1]), [1])
    i = paddle.full([1], 0, "int64")

    def cond(i, h):
        return i < count

    def body(i, h):
        return i + 1, paddle.static.nn.fc(h, 8, activation="tanh")

    i, h = paddle.static.nn.while_loop(cond, body, [i, h])
    loss = paddle.mean(paddle.square(h - y))
    paddle.optimizer.Adam(learning_rate=0.02).minimize(loss)
    rng = np.random.default_rng(31)
    feeds = {"x": rng.standard_normal((STEPS * 4, 6)).astype("float32"),
             "y": (0.5 * rng.standard_normal((STEPS * 4, 8))).astype("float32"),
             "n": np.repeat(np.array([3, 1, 4, 2] * (STEPS // 4 + 1))[:STEPS], 4).astype("int64")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_ctl_while_outer():
    """while_loop whose body reads a tensor computed before the loop (p = fc(x), not a
    parameter: while_grad sums p's gradient over the iterations and it flows on to p's fc) and
    uses the loop variable twice (the grad block sums its two gradients): h = 0.5 * h +
    0.5 * tanh(fc(h) + p), 3 iterations (a fill_constant bound); Momentum."""
    x = paddle.static.data(name="x", shape=[None, 5], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 8], dtype="float32")
    p = paddle.static.nn.fc(x, 8)
    h = paddle.static.nn.fc(x, 8, activation="tanh")
    i = paddle.full([1], 0, "int64")
    limit = paddle.full([1], 3, "int64")

    def cond(i, h):
        return i < limit

    def body(i, h):
        return i + 1, 0.5 * h + 0.5 * paddle.tanh(paddle.static.nn.fc(h, 8) + p)

    i, h = paddle.static.nn.while_loop(cond, body, [i, h])
    loss = paddle.mean(paddle.square(h - y))
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    rng = np.random.default_rng(33)
    feeds = {"x": rng.standard_normal((STEPS * 4, 5)).astype("float32"),
             "y": (0.5 * rng.standard_normal((STEPS * 4, 8))).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_ctl_cond():
    """paddle.static.nn.cond training: each branch has its own fc parameters (tanh then fc, or
    relu then fc), the branch taken chosen per step by the sign of the batch mean, which the
    data flips irregularly; squared error; SGD, so the untaken branch's parameters get a zero
    gradient (conditional_block_grad's zeros) and stay as they are."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 1], dtype="float32")
    h = paddle.static.nn.fc(x, 8)
    out = paddle.static.nn.cond(paddle.mean(x) > 0,
                                lambda: paddle.static.nn.fc(paddle.tanh(h), 1),
                                lambda: paddle.static.nn.fc(paddle.nn.functional.relu(h), 1))
    loss = paddle.mean(paddle.square(out - y))
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    rng = np.random.default_rng(32)
    sign = np.array([1, -1, -1, 1, -1, 1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, -1, 1][:STEPS])
    x = rng.standard_normal((STEPS, 4, 6)) * 0.3 + sign[:, None, None] * 0.6
    feeds = {"x": x.reshape(STEPS * 4, 6).astype("float32"),
             "y": rng.standard_normal((STEPS * 4, 1)).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_ctl_nested():
    """A cond inside a while_loop body, trained with SGD: Paddle 2.6.2 puts the
    conditional_block_grad inside the while_grad's grad block, reading the inner
    conditional_block's Scope of each outer iteration (kept per iteration by the while).
    The branches read the loop variable h itself, whose gradient fc_0.tmp_2@GRAD block 0
    already declares, so Paddle's backward declares it in neither inner grad block: Paddle's
    inner grad ops write it into the enclosing step scope (the while_grad's linked output
    gradient) and each conditional_block_grad, finding no gradient of its own, gives zeros.
    h's gradient through the loop is therefore zero and only the last iteration's branch
    trains fc_1; icore resolves such names the same way (ctl_nested_local is the case whose
    gradients are the intended ones)."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 8], dtype="float32")
    h = paddle.static.nn.fc(x, 8, activation="tanh")
    i = paddle.full([1], 0, "int64")
    limit = paddle.full([1], 3, "int64")

    def cond(i, h):
        return i < limit

    def body(i, h):
        h2 = paddle.static.nn.cond(paddle.mean(h) > 0,
                                   lambda: paddle.tanh(paddle.static.nn.fc(h, 8)),
                                   lambda: h * 0.5)
        return i + 1, h2

    i, h = paddle.static.nn.while_loop(cond, body, [i, h])
    loss = paddle.mean(paddle.square(h - y))
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    rng = np.random.default_rng(34)
    feeds = {"x": rng.standard_normal((STEPS * 4, 6)).astype("float32"),
             "y": rng.standard_normal((STEPS * 4, 8)).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_ctl_nested_local():
    """ctl_nested with the branches reading a body-local u = 0.9 h + 0.05: Paddle 2.6.2
    declares every inside gradient in the inner grad blocks, so the gradient flows through
    the loop and both branches (the branch is chosen per iteration by the sign of mean(u):
    over the 20 steps' 60 iterations the tanh branch is taken 47 times and u * 0.5 13 times,
    both within one step in 12 steps, as a numpy replay of Paddle's run shows)."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 8], dtype="float32")
    h = paddle.static.nn.fc(x, 8, activation="tanh")
    i = paddle.full([1], 0, "int64")
    limit = paddle.full([1], 3, "int64")

    def cond(i, h):
        return i < limit

    def body(i, h):
        u = paddle.scale(h, 0.9, bias=0.05)
        h2 = paddle.static.nn.cond(paddle.mean(u) > 0,
                                   lambda: paddle.tanh(paddle.static.nn.fc(u, 8)),
                                   lambda: u * 0.5)
        return i + 1, h2

    i, h = paddle.static.nn.while_loop(cond, body, [i, h])
    loss = paddle.mean(paddle.square(h - y))
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    rng = np.random.default_rng(34)
    feeds = {"x": rng.standard_normal((STEPS * 4, 6)).astype("float32"),
             "y": rng.standard_normal((STEPS * 4, 8)).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_ctl_while_in_cond():
    """A while_loop inside a cond branch, trained with Momentum: the true branch (taken per step
    by the sign of the batch mean, as in ctl_cond) applies its own fc + tanh twice in a loop,
    the false branch is relu(fc(h)) with another fc. Paddle 2.6.2 puts the while_grad inside
    the conditional_block_grad's grad block, reading the while's StepScopes that the
    conditional_block keeps in its Scope."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 8], dtype="float32")
    h = paddle.static.nn.fc(x, 8, activation="tanh")

    def looped():
        i = paddle.full([1], 0, "int64")
        limit = paddle.full([1], 2, "int64")

        def cond(i, g):
            return i < limit

        def body(i, g):
            return i + 1, paddle.static.nn.fc(g, 8, activation="tanh")

        # the loop carries a branch-local value: a loop carrying h itself would write h (a
        # block-0 variable) in place, and Paddle 2.6.2's backward then leaves h's gradient
        # undeclared in the branch's grad block, so its conditional_block_grad zeroes it
        return paddle.static.nn.while_loop(cond, body, [i, paddle.scale(h, 0.9, bias=0.05)])[1]

    out = paddle.static.nn.cond(paddle.mean(x) > 0, looped,
                                lambda: paddle.static.nn.fc(paddle.nn.functional.relu(h), 8))
    loss = paddle.mean(paddle.square(out - y))
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    rng = np.random.default_rng(35)
    sign = np.array([1, -1, 1, 1, -1, -1, 1, -1, 1, 1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1][:STEPS])
    x = rng.standard_normal((STEPS, 4, 6)) * 0.3 + sign[:, None, None] * 0.6
    feeds = {"x": x.reshape(STEPS * 4, 6).astype("float32"),
             "y": (0.5 * rng.standard_normal((STEPS * 4, 8))).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_ctl_while_in_while():
    """A while_loop in a while_loop body, SGD: the outer body starts the inner loop from a
    body-local u = 0.9 h + 0.05 and runs fc + tanh twice, the outer loop twice. The outer while
    keeps the inner while's StepScopes (with the inner iterations' kept values) per outer
    iteration; the inner while_grad, in the outer while_grad's grad block, sums the fc's
    gradients over the inner iterations into the outer step's own gradient, which the outer
    while_grad sums again."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 8], dtype="float32")
    h = paddle.static.nn.fc(x, 8, activation="tanh")
    i = paddle.full([1], 0, "int64")
    limit = paddle.full([1], 2, "int64")

    def cond(i, h):
        return i < limit

    def body(i, h):
        j = paddle.full([1], 0, "int64")
        inner = paddle.full([1], 2, "int64")

        def icond(j, g):
            return j < inner

        def ibody(j, g):
            return j + 1, paddle.static.nn.fc(g, 8, activation="tanh")

        g = paddle.static.nn.while_loop(icond, ibody, [j, paddle.scale(h, 0.9, bias=0.05)])[1]
        return i + 1, g

    i, h = paddle.static.nn.while_loop(cond, body, [i, h])
    loss = paddle.mean(paddle.square(h - y))
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    rng = np.random.default_rng(37)
    feeds = {"x": rng.standard_normal((STEPS * 4, 6)).astype("float32"),
             "y": (0.5 * rng.standard_normal((STEPS * 4, 8))).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_ctl_while_array():
    """A while_loop body with its own tensor array: tanh(h) and 0.5 h written to elements 0 and
    1, concatenated by tensor_array_to_tensor, then fc + tanh; SGD. The grad block's
    tensor_array_to_tensor_grad reads the body's array, so the while keeps it per iteration."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 8], dtype="float32")
    h = paddle.static.nn.fc(x, 8, activation="tanh")
    i = paddle.full([1], 0, "int64")
    limit = paddle.full([1], 3, "int64")

    def cond(i, h):
        return i < limit

    def body(i, h):
        arr = paddle.tensor.create_array("float32")
        paddle.tensor.array_write(paddle.tanh(h), paddle.full([1], 0, "int64"), arr)
        paddle.tensor.array_write(h * 0.5, paddle.full([1], 1, "int64"), arr)
        t, _ = paddle.tensor.manipulation.tensor_array_to_tensor(arr, axis=1)
        return i + 1, paddle.static.nn.fc(paddle.reshape(t, [-1, 16]), 8, activation="tanh")

    i, h = paddle.static.nn.while_loop(cond, body, [i, h])
    loss = paddle.mean(paddle.square(h - y))
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    rng = np.random.default_rng(38)
    feeds = {"x": rng.standard_normal((STEPS * 4, 6)).astype("float32"),
             "y": (0.5 * rng.standard_normal((STEPS * 4, 8))).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_ctl_while_unused_out():
    """A while_loop carrying h and g where the loss uses only h, and the body reads g:
    h = tanh(fc(h) + g), g = 0.5 g + 0.1. g's gradient outside the loop (an Out@GRAD of the
    while_grad) is never computed, so Paddle's WhileGradOp fills it with zeros of g's declared
    shape before the first step back: the batch is a static 4 (with -1 Paddle fails on the
    fill). SGD."""
    x = paddle.static.data(name="x", shape=[4, 6], dtype="float32")
    y = paddle.static.data(name="y", shape=[4, 8], dtype="float32")
    h = paddle.static.nn.fc(x, 8, activation="tanh")
    g = paddle.static.nn.fc(x, 8)
    i = paddle.full([1], 0, "int64")
    limit = paddle.full([1], 3, "int64")

    def cond(i, h, g):
        return i < limit

    def body(i, h, g):
        return i + 1, paddle.tanh(paddle.static.nn.fc(h, 8) + g), g * 0.5 + 0.1

    i, h, g = paddle.static.nn.while_loop(cond, body, [i, h, g])
    loss = paddle.mean(paddle.square(h - y))
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    rng = np.random.default_rng(36)
    feeds = {"x": rng.standard_normal((STEPS * 4, 6)).astype("float32"),
             "y": (0.5 * rng.standard_normal((STEPS * 4, 8))).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


# Training through control flow (while_grad, conditional_block_grad): written by Paddle 2.6.2,
# whose legacy executor runs them
CTRL = ["ctl_while", "ctl_while_outer", "ctl_cond", "ctl_nested", "ctl_while_in_cond",
        "ctl_while_unused_out", "ctl_nested_local", "ctl_while_in_while", "ctl_while_array"]

LEGACY = ["lr_noam", "lr_exp", "lr_natexp", "lr_invtime", "lr_poly", "lr_poly_cycle",
          "lr_piecewise", "lr_cosine", "lr_warmup", "lr_user_warmup_cosine"]


def legacy_case(name):
    def build():
        loss, feeds = small_net(20 + LEGACY.index(name))
        lr = _legacy_schedules()[name]()
        if name == "lr_user_warmup_cosine":  # as those scripts did
            opt = paddle.optimizer.Momentum(learning_rate=0.5, momentum=0.9,
                                            weight_decay=paddle.regularizer.L2Decay(1e-3))
        elif name in ("lr_noam", "lr_piecewise"):
            opt = paddle.optimizer.Momentum(learning_rate=0.5, momentum=0.9)
        else:
            opt = paddle.optimizer.SGD(learning_rate=0.5)
        opt._learning_rate_map[paddle.static.default_main_program()] = lr
        opt.minimize(loss)
        return loss, feeds, 4, 1e-5, 1e-4, {"lr": lr}
    return build


def _qat_net(seed, lr=0.1):
    """conv2d 1->4 (3x3, pad 1), relu, fc 256->3, softmax cross-entropy, SGD: the float
    network QuantizationTransformPass quantizes (its conv2d and mul inputs)."""
    x = paddle.static.data(name="img", shape=[None, 1, 8, 8], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    h = raw("relu", {"X": paddle.nn.Conv2D(1, 4, 3, padding=1)(x)})
    logits = paddle.static.nn.fc(h, 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
    paddle.optimizer.SGD(learning_rate=lr).minimize(loss)
    rng = np.random.default_rng(seed)
    feeds = {"img": rng.standard_normal((STEPS * 4, 1, 8, 8)).astype("float32"),
             "label": rng.integers(0, 3, (STEPS * 4, 1)).astype("int64")}
    return loss, feeds


def _qat_transform(v2=False, out_scale=False, **kw):
    """paddle.static.quantization.QuantizationTransformPass (quantization-aware training),
    applied after the startup program ran: it rewrites the training program (forward,
    backward and optimizer ops) and initialises its new persistables (scales, windows,
    moving-average state and accumulator, @STEP_COUNTER@) in the scope."""
    def transform(main, scope):
        from paddle.base.framework import IrGraph
        from paddle.framework import core
        from paddle.static.quantization import (QuantizationTransformPass,
                                                QuantizationTransformPassV2)
        graph = IrGraph(core.Graph(main.desc), for_test=False)
        cls = QuantizationTransformPassV2 if v2 else QuantizationTransformPass
        cls(scope=scope, place=paddle.CPUPlace(), **kw).apply(graph)
        if out_scale:
            from paddle.static.quantization import OutScaleForTrainingPass
            OutScaleForTrainingPass(scope=scope, place=paddle.CPUPlace(),
                                    moving_rate=0.9).apply(graph)
        return graph.to_program()
    return transform


def case_qat_range():
    """QAT with QuantizationTransformPass: activations by fake_quantize_range_abs_max in
    training mode (a window of 4 scales, so it wraps and the largest scale leaves it; Iter
    from the pass's increment of @STEP_COUNTER@), weights by fake_quantize_abs_max, each
    followed by fake_dequantize_max_abs; gradients reach the float weights as the pass
    rewires them (no grad op for the quantizers)."""
    loss, feeds = _qat_net(30)
    return loss, feeds, 4, 1e-5, 1e-4, {"transform": _qat_transform(
        activation_quantize_type="range_abs_max", weight_quantize_type="abs_max",
        window_size=4)}


def case_qat_moving_average():
    """QAT with QuantizationTransformPass: activations by fake_quantize_moving_average_abs_max
    in training mode (moving_rate 0.9: state, accum and scale updated every step), weights by
    fake_channel_wise_quantize_abs_max (conv2d filter along axis 0, the mul weight along
    axis 1) with fake_channel_wise_dequantize_max_abs."""
    loss, feeds = _qat_net(31)
    return loss, feeds, 4, 1e-5, 1e-4, {"transform": _qat_transform(
        activation_quantize_type="moving_average_abs_max",
        weight_quantize_type="channel_wise_abs_max", moving_rate=0.9)}


def case_qat_out_scale():
    """QuantizationTransformPass with its defaults (abs_max activations and weights:
    fake_quantize_abs_max + fake_dequantize_max_abs), then OutScaleForTrainingPass: a
    moving_average_abs_max_scale observer in training mode (moving_rate 0.9) on the outputs
    of conv2d, elementwise_add, relu, mul, reshape2 and mean."""
    loss, feeds = _qat_net(34)
    return loss, feeds, 4, 1e-5, 1e-4, {"transform": _qat_transform(out_scale=True)}


def case_qat_v2():
    """QAT with QuantizationTransformPassV2: quantize_linear in training mode (activations
    per tensor with the moving average, rate 0.9; weights per channel, the conv2d filter
    along axis 0 and the mul weight along axis 1) followed by dequantize_linear."""
    loss, feeds = _qat_net(33)
    return loss, feeds, 4, 1e-5, 1e-4, {"transform": _qat_transform(
        v2=True, activation_quantize_type="moving_average_abs_max",
        weight_quantize_type="channel_wise_abs_max")}


def _fake_qdq(op_type, x, state=None, **attrs):
    """Append a fake quantize-dequantize op on x (its Out, which the caller uses instead of
    x), as paddle.nn.quant's QAT layers do; state: the persistable InScale/InAccum/InState
    (also the op's OutScale/OutState/OutAccum) of the moving-average op."""
    from paddle.base.layer_helper import LayerHelper
    h = LayerHelper(op_type)
    out = h.create_variable_for_type_inference("float32")
    outs = {"Out": out}
    ins = {"X": x}
    if state is None:
        outs["OutScale"] = h.create_variable_for_type_inference("float32")
    else:
        sc, acc, st = state
        ins.update({"InScale": sc, "InAccum": acc, "InState": st})
        outs.update({"OutScale": sc, "OutAccum": acc, "OutState": st})
    h.append_op(type=op_type, inputs=ins, outputs=outs, attrs=attrs)
    return out


def case_qat_fake_qdq():
    """Quantize-dequantize ops written into the forward program before minimize, as the
    dygraph QAT layers (paddle.nn.quant) have them, so that the backward pass holds their
    straight-through-estimator grad ops: the input image by
    fake_quantize_dequantize_moving_average_abs_max (training, round_type 0, moving_rate 0.8,
    persistable scale/accum/state), the conv2d filter by
    fake_channel_wise_quantize_dequantize_abs_max (quant_axis 0, round_type 1), the relu
    output observed by moving_average_abs_max_scale (Out used; moving_rate 0.85; its grad is
    straight_through_estimator_grad) and quantized by fake_quantize_dequantize_abs_max
    (round_type 0, 7 bits), the fc weight by
    fake_channel_wise_quantize_dequantize_abs_max (quant_axis 1, round_type 0); conv2d,
    matmul_v2, softmax cross-entropy, Momentum."""
    x = paddle.static.data(name="img", shape=[None, 1, 8, 8], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    gv = lambda n, v: paddle.static.create_global_var(  # noqa: E731
        [1], v, "float32", persistable=True, name=n)
    state = (gv("img.qscale", 1.0), gv("img.qaccum", 1.0), gv("img.qstate", 1.0))
    xq = _fake_qdq("fake_quantize_dequantize_moving_average_abs_max", x, state,
                   moving_rate=0.8, bit_length=8, round_type=0, is_test=False)
    w = paddle.static.create_parameter([4, 1, 3, 3], "float32", name="conv.w")
    b = paddle.static.create_parameter([4], "float32", name="conv.b", is_bias=True)
    wq = _fake_qdq("fake_channel_wise_quantize_dequantize_abs_max", w, quant_axis=0,
                   bit_length=8, round_type=1)
    h = paddle.nn.functional.conv2d(xq, wq, b, padding=1)
    h = raw("relu", {"X": h})
    from paddle.base.layer_helper import LayerHelper
    mas = LayerHelper("moving_average_abs_max_scale")
    obs = mas.create_variable_for_type_inference("float32")
    ms = (gv("relu.scale", 1.0), gv("relu.accum", 1.0), gv("relu.state", 1.0))
    mas.append_op(type="moving_average_abs_max_scale",
                  inputs={"X": h, "InAccum": ms[1], "InState": ms[2]},
                  outputs={"Out": obs, "OutScale": ms[0], "OutAccum": ms[1], "OutState": ms[2]},
                  attrs={"moving_rate": 0.85, "is_test": False})
    h = _fake_qdq("fake_quantize_dequantize_abs_max", obs, bit_length=7, round_type=0)
    fw = paddle.static.create_parameter([256, 3], "float32", name="fc.w")
    fb = paddle.static.create_parameter([3], "float32", name="fc.b", is_bias=True)
    fwq = _fake_qdq("fake_channel_wise_quantize_dequantize_abs_max", fw, quant_axis=1,
                    bit_length=8, round_type=0)
    h = paddle.reshape(h, [-1, 256])
    logits = paddle.add(raw("matmul_v2", {"X": h, "Y": fwq}, {"trans_x": False,
                                                            "trans_y": False}), fb)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    rng = np.random.default_rng(32)
    feeds = {"img": rng.standard_normal((STEPS * 4, 1, 8, 8)).astype("float32"),
             "label": rng.integers(0, 3, (STEPS * 4, 1)).astype("int64")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_yolo():
    """A YOLOv3 head trained by its loss: conv2d (3 -> 2 anchors x (5 + 3 classes)) over an
    8 x 8 image downsampled to 4 x 4, paddle.vision.ops.yolo_loss (yolov3_loss: label
    smoothing, ignore_thresh 0.5, mixup scores), its mean, SGD: yolov3_loss_grad against
    Paddle."""
    x = paddle.static.data(name="img", shape=[None, 3, 8, 8], dtype="float32")
    box = paddle.static.data(name="gt_box", shape=[None, 4, 4], dtype="float32")
    lab = paddle.static.data(name="gt_label", shape=[None, 4], dtype="int32")
    score = paddle.static.data(name="gt_score", shape=[None, 4], dtype="float32")
    h = paddle.nn.Conv2D(3, 2 * 8, 3, stride=2, padding=1)(x)
    loss = paddle.vision.ops.yolo_loss(h, box, lab, anchors=[4, 5, 8, 6, 6, 12, 12, 10],
                                       anchor_mask=[1, 2], class_num=3, ignore_thresh=0.5,
                                       downsample_ratio=2, gt_score=score)
    loss = paddle.mean(loss)
    paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    rng = np.random.default_rng(11)
    boxes = np.zeros((STEPS * 2, 4, 4), "float32")
    for i in range(STEPS * 2):
        k = rng.integers(1, 5)
        boxes[i, :k, :2] = rng.uniform(0.05, 0.95, (k, 2))
        boxes[i, :k, 2:] = rng.uniform(0.1, 0.7, (k, 2))
    feeds = {"img": rng.standard_normal((STEPS * 2, 3, 8, 8)).astype("float32"),
             "gt_box": boxes, "gt_label": rng.integers(0, 3, (STEPS * 2, 4)).astype("int32"),
             "gt_score": rng.uniform(0.5, 1.0, (STEPS * 2, 4)).astype("float32")}
    return loss, feeds, 2, 1e-5, 1e-4
def _ctc_net(seed, opt, norm_by_times):
    """A tiny CRNN head trained by CTC, as PaddleOCR's recognizers are: features [B, 6, 4] ->
    transpose to time-major [6, B, 4] -> fc 4 -> 8, tanh, fc 8 -> 5 classes (blank 0) ->
    paddle.nn.functional.ctc_loss (the warpctc op, padded: LogitsLength / LabelLength) with
    reduction mean; labels of 1 to 3 symbols (repeats included) over 3 to 6 steps."""
    T, F, C, L = 6, 4, 5, 3
    x = paddle.static.data(name="feat", shape=[None, T, F], dtype="float32")
    lab = paddle.static.data(name="lab", shape=[None, L], dtype="int32")
    xl = paddle.static.data(name="xlen", shape=[None], dtype="int64")
    ll = paddle.static.data(name="llen", shape=[None], dtype="int64")
    h = paddle.transpose(x, [1, 0, 2])
    h = paddle.static.nn.fc(h, 8, num_flatten_dims=2, activation="tanh")
    logits = paddle.static.nn.fc(h, C, num_flatten_dims=2)
    loss = paddle.nn.functional.ctc_loss(logits, lab, xl, ll, blank=0, reduction="mean",
                                         norm_by_times=norm_by_times)
    opt.minimize(loss)
    rng = np.random.default_rng(seed)
    n = STEPS * 4
    llen = rng.integers(1, L + 1, n)
    labs = np.zeros((n, L), "int32")
    for i in range(n):
        labs[i, :llen[i]] = rng.integers(1, C, llen[i])
    xlen = np.array([rng.integers(min(2 * k, T) if k > 1 else 3, T + 1) for k in llen])
    feeds = {"feat": rng.standard_normal((n, T, F)).astype("float32"), "lab": labs,
             "xlen": xlen.astype("int64"), "llen": llen.astype("int64")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_ctc_adam():
    """CTC training (_ctc_net) with Adam: warpctc and warpctc_grad against Paddle."""
    return _ctc_net(60, paddle.optimizer.Adam(learning_rate=0.05), False)


def case_ctc_norm_sgd():
    """CTC training (_ctc_net) with norm_by_times (warpctc_grad divides each sequence's
    gradient by its steps) and SGD."""
    return _ctc_net(61, paddle.optimizer.SGD(learning_rate=0.5), True)


def _opt_net(seed, opt):
    """fc, relu, fc, softmax cross-entropy on hard labels, trained by `opt` (the optimizer
    cases below: one Paddle optimizer each)."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    h = paddle.static.nn.fc(x, 8, activation="relu")
    logits = paddle.static.nn.fc(h, 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
    opt.minimize(loss)
    rng = np.random.default_rng(seed)
    feeds = {"x": rng.standard_normal((STEPS * 8, 6)).astype("float32"),
             "label": rng.integers(0, 3, (STEPS * 8, 1)).astype("int64")}
    return loss, feeds, 8, 1e-5, 1e-4


def _sparse_embedding(seed, opt):
    """ids [batch, 4] (repeats within a row and across the batch) -> an embedding of 20 x 8 with
    is_sparse=True (Paddle's gradient is a SelectedRows of the looked-up rows; icore's the
    same values dense) -> mean over the 4 -> fc to 1 -> squared error, trained by `opt`."""
    ids = paddle.static.data(name="ids", shape=[None, 4], dtype="int64")
    y = paddle.static.data(name="y", shape=[None, 1], dtype="float32")
    emb = paddle.static.nn.embedding(ids, size=[20, 8], is_sparse=True)
    out = paddle.static.nn.fc(paddle.mean(emb, axis=1), 1)
    loss = paddle.mean(paddle.square(out - y))
    opt.minimize(loss)
    rng = np.random.default_rng(seed)
    feeds = {"ids": rng.integers(0, 12, (STEPS * 6, 4)).astype("int64"),
             "y": rng.standard_normal((STEPS * 6, 1)).astype("float32")}
    return loss, feeds, 6, 1e-5, 1e-4


def case_sparse_sgd():
    """An embedding with is_sparse and SGD (the Paddle book's word2vec trains so)."""
    return _sparse_embedding(50, paddle.optimizer.SGD(learning_rate=0.5))


def case_sparse_adam():
    """An embedding with is_sparse and Adam (lazy_mode false: every row updated)."""
    return _sparse_embedding(51, paddle.optimizer.Adam(learning_rate=0.05))


def case_sparse_adam_lazy():
    """An embedding with is_sparse and Adam with lazy_mode (PaddleRec's rank models train so):
    only the looked-up rows of the embedding and of its moments move."""
    return _sparse_embedding(52, paddle.optimizer.Adam(learning_rate=0.05, lazy_mode=True))


def case_sparse_pad_sgd():
    """An embedding with is_sparse and padding_idx 3 (ids include 3) and SGD: Paddle's sparse
    gradient ignores padding_idx, so the padding row is trained (the dense one is not)."""
    ids = paddle.static.data(name="ids", shape=[None, 4], dtype="int64")
    y = paddle.static.data(name="y", shape=[None, 1], dtype="float32")
    emb = paddle.static.nn.embedding(ids, size=[20, 8], is_sparse=True, padding_idx=3)
    out = paddle.static.nn.fc(paddle.mean(emb, axis=1), 1)
    loss = paddle.mean(paddle.square(out - y))
    paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)
    rng = np.random.default_rng(53)
    feeds = {"ids": rng.integers(0, 6, (STEPS * 6, 4)).astype("int64"),
             "y": rng.standard_normal((STEPS * 6, 1)).astype("float32")}
    return loss, feeds, 6, 1e-5, 1e-4


def case_adamax():
    """Adamax (the adamax op, then a scale op on Beta1Pow) with beta1, beta2 and epsilon set."""
    return _opt_net(40, paddle.optimizer.Adamax(learning_rate=0.02, beta1=0.85, beta2=0.98,
                                                epsilon=1e-6))


def case_adadelta():
    """Adadelta (the adadelta op) with rho and epsilon set."""
    return _opt_net(41, paddle.optimizer.Adadelta(learning_rate=0.5, rho=0.9, epsilon=1e-5))


def case_merged_momentum():
    """Momentum with use_multi_tensor: one merged_momentum op for every parameter (one
    LearningRate and one regularization_method per parameter: nesterov, L2Decay)."""
    return _opt_net(42, paddle.optimizer.Momentum(
        learning_rate=0.05, momentum=0.9, use_nesterov=True,
        weight_decay=paddle.regularizer.L2Decay(1e-3), use_multi_tensor=True))


def case_merged_adam():
    """Adam with use_multi_tensor: one merged_adam op for every parameter, with amsgrad."""
    return _opt_net(43, paddle.optimizer.Adam(learning_rate=0.01, beta1=0.85, beta2=0.99,
                                              epsilon=1e-6, amsgrad=True,
                                              use_multi_tensor=True))


def case_nadam():
    """NAdam (the nadam op) with beta1, beta2, epsilon and momentum_decay set."""
    return _opt_net(44, paddle.optimizer.NAdam(learning_rate=0.01, beta1=0.85, beta2=0.99,
                                               epsilon=1e-6, momentum_decay=0.01))


def case_radam():
    """RAdam (the radam op): beta2 0.9 makes rho_t pass 5 after a few steps, so both the
    unrectified and the rectified update run."""
    return _opt_net(45, paddle.optimizer.RAdam(learning_rate=0.01, beta1=0.85, beta2=0.9,
                                               epsilon=1e-6))


def case_rprop():
    """Rprop (the rprop op, per-element step sizes) with learning_rate_range and etas set."""
    return _opt_net(46, paddle.optimizer.Rprop(learning_rate=0.01,
                                               learning_rate_range=(1e-4, 0.02),
                                               etas=(0.4, 1.3)))


def case_lars():
    """paddle.incubate.optimizer.LarsMomentumOptimizer (one lars_momentum op per parameter),
    biases excluded from the LARS weight decay (lars_weight_decay 0: plain momentum), with
    lars_coeff, epsilon and rescale_grad set."""
    return _opt_net(47, paddle.incubate.optimizer.LarsMomentumOptimizer(
        learning_rate=0.1, momentum=0.9, lars_coeff=0.01, lars_weight_decay=0.0005,
        exclude_from_weight_decay=["b_0"], epsilon=1e-7, rescale_grad=0.5))


class _HandASGD:
    """ASGD written by hand: Paddle 3.3.1's paddle.optimizer.ASGD cannot build a legacy
    program (it calls .item() on a Variable). After append_backward, every parameter gets a
    step counter m (m += 1 by elementwise_add), n = elementwise_fmin(m, batch_num) and the asgd
    op with its d and y accumulators, as that optimizer writes them, except that y is the
    last step's gradient (one stored gradient instead of batch_num)."""

    def __init__(self, learning_rate, batch_num):
        self.lr, self.batch_num = learning_rate, batch_num

    def minimize(self, loss):
        blk = loss.block.program.global_block()
        gv = paddle.static.create_global_var
        lr = gv([1], self.lr, "float32", persistable=True, name="asgd_lr")
        one = gv([1], 1.0, "float32", persistable=True, name="asgd_one")
        nb = gv([1], float(self.batch_num), "float32", persistable=True, name="asgd_batch_num")
        for p, g in paddle.static.append_backward(loss):
            d = gv(p.shape, 0.0, "float32", persistable=True, name=p.name + "_asgd_d")
            y = gv(p.shape, 0.0, "float32", persistable=True, name=p.name + "_asgd_y")
            m = gv([1], 0.0, "float32", persistable=True, name=p.name + "_asgd_m")
            n = blk.create_var(name=p.name + "_asgd_n", shape=[1], dtype="float32")
            blk.append_op(type="elementwise_add", inputs={"X": m, "Y": one},
                          outputs={"Out": m}, attrs={"axis": -1})
            blk.append_op(type="elementwise_fmin", inputs={"X": m, "Y": nb},
                          outputs={"Out": n}, attrs={"axis": -1})
            blk.append_op(type="asgd", inputs={"param": p, "grad": g, "learning_rate": lr,
                                                "d": d, "y": y, "n": n},
                          outputs={"param_out": p, "d_out": d, "y_out": y},
                          attrs={"multi_precision": False})


def case_asgd():
    """The asgd op (see _HandASGD), n growing 1, 2, 3 and then staying at batch_num 3."""
    return _opt_net(48, _HandASGD(0.1, 3))


def _w2v_context(seed, vocab, batch):
    """ids [batch, 4] context words -> an embedding of vocab x 8 with is_sparse -> the mean
    over the 4 words: word2vec's CBOW input."""
    ids = paddle.static.data(name="ids", shape=[None, 4], dtype="int64")
    emb = paddle.static.nn.embedding(ids, size=[vocab, 8], is_sparse=True)
    rng = np.random.default_rng(seed)
    feeds = {"ids": rng.integers(0, vocab, (STEPS * batch, 4)).astype("int64")}
    return paddle.mean(emb, axis=1), feeds, rng


def case_w2v_hsigmoid():
    """word2vec (CBOW) with hierarchical sigmoid: _w2v_context over 16 words -> hsigmoid_loss
    on the default tree of 16 classes with a Bias (Paddle's is_sparse needs a custom tree) ->
    mean, SGD."""
    h, feeds, rng = _w2v_context(70, 16, 6)
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    w = paddle.static.create_parameter([15, 8], "float32", name="hs_w")
    b = paddle.static.create_parameter([15, 1], "float32", name="hs_b", is_bias=True)
    loss = paddle.mean(paddle.nn.functional.hsigmoid_loss(h, label, 16, w, b))
    paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)
    feeds["label"] = rng.integers(0, 16, (STEPS * 6, 1)).astype("int64")
    return loss, feeds, 6, 1e-5, 1e-4


HS_TREE = [  # (PathTable, PathCode) of 6 classes over 5 inner nodes, paths of 2 to 4 nodes
    ([0, 1, -1, -1], [0, 0, -1, -1]), ([0, 1, 3, -1], [0, 1, 0, -1]),
    ([0, 1, 3, 4], [0, 1, 1, 0]), ([0, 1, 3, 4], [0, 1, 1, 1]),
    ([0, 2, -1, -1], [1, 0, -1, -1]), ([0, 2, -1, -1], [1, 1, -1, -1])]


def case_hsigmoid_custom():
    """hierarchical sigmoid over a custom tree (PathTable / PathCode fed per sample, paths
    of 2 to 4 nodes padded with -1) after fc 5 -> 6 with tanh, no Bias, is_sparse (W@GRAD a
    SelectedRows in Paddle, dense in icore), Adam."""
    x = paddle.static.data(name="x", shape=[None, 5], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    pt = paddle.static.data(name="pt", shape=[None, 4], dtype="int64")
    pc = paddle.static.data(name="pc", shape=[None, 4], dtype="int64")
    h = paddle.static.nn.fc(x, 6, activation="tanh")
    w = paddle.static.create_parameter([5, 6], "float32", name="hs_w")
    loss = paddle.mean(paddle.nn.functional.hsigmoid_loss(h, label, 6, w, None, pt, pc,
                                                          is_sparse=True))
    paddle.optimizer.Adam(learning_rate=0.05).minimize(loss)
    rng = np.random.default_rng(71)
    lab = rng.integers(0, 6, (STEPS * 5, 1)).astype("int64")
    # every batch reaches node 4 (the last row of W): where a batch's paths miss W's last row,
    # Paddle's sparse Adam reads one row index past the end of the SelectedRows' rows
    # (SparseAdamFunctor<T, CPUAdam> compares each row with rows[j] without bounds), and its
    # update of that row is undefined
    lab[::5] = rng.integers(2, 4, (STEPS, 1))
    feeds = {"x": rng.standard_normal((STEPS * 5, 5)).astype("float32"), "label": lab,
             "pt": np.array([HS_TREE[k][0] for k in lab[:, 0]], "int64"),
             "pc": np.array([HS_TREE[k][1] for k in lab[:, 0]], "int64")}
    return loss, feeds, 5, 1e-5, 1e-4


def case_nce_custom_neg():
    """word2vec with NCE: _w2v_context over 12 words -> nce (12 classes, 2 true classes per
    example, a SampleWeight fed, Bias) with custom_neg_classes [3, 7, 0] in place of the
    sampler's draws (how Paddle's own nce tests make it deterministic) -> mean, SGD."""
    h, feeds, rng = _w2v_context(72, 12, 5)
    label = paddle.static.data(name="label", shape=[None, 2], dtype="int64")
    sw = paddle.static.data(name="sw", shape=[None, 1], dtype="float32")
    cost = paddle.static.nn.nce(h, label, 12, sample_weight=sw, num_neg_samples=3)
    op, = [o for o in paddle.static.default_main_program().global_block().ops
           if o.type == "nce"]
    op._set_attr("custom_neg_classes", [3, 7, 0])
    loss = paddle.mean(cost)
    paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)
    feeds["label"] = rng.integers(0, 12, (STEPS * 5, 2)).astype("int64")
    feeds["sw"] = rng.uniform(0.5, 2, (STEPS * 5, 1)).astype("float32")
    return loss, feeds, 5, 1e-5, 1e-4


def case_nce_samplers():
    """nce drawing its negatives as Paddle does: fc 6 -> 8, then three nce heads over 20
    classes with fixed seeds (Paddle reseeds its std::mt19937_64 each run; icore reproduces
    the generator and libstdc++'s distributions): uniform (seed 5, 4 negatives, is_sparse),
    log_uniform (seed 7, 6 negatives), custom_dist (seed 11, 5 negatives, the alias tables
    Paddle builds from the distribution); the sum of their mean costs, Adam."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    h = paddle.static.nn.fc(x, 8)
    dist = [0.02, 0.1, 0.05, 0.03, 0.08, 0.12, 0.04, 0.06, 0.01, 0.09,
            0.05, 0.05, 0.03, 0.07, 0.02, 0.04, 0.06, 0.02, 0.03, 0.03]
    costs = [paddle.static.nn.nce(h, label, 20, num_neg_samples=4, sampler="uniform", seed=5,
                                  is_sparse=True),
             paddle.static.nn.nce(h, label, 20, num_neg_samples=6, sampler="log_uniform",
                                  seed=7),
             paddle.static.nn.nce(h, label, 20, num_neg_samples=5, sampler="custom_dist",
                                  custom_dist=dist, seed=11)]
    loss = paddle.add_n([paddle.mean(c) for c in costs])
    paddle.optimizer.Adam(learning_rate=0.02).minimize(loss)
    rng = np.random.default_rng(73)
    feeds = {"x": rng.standard_normal((STEPS * 6, 6)).astype("float32"),
             "label": rng.integers(0, 20, (STEPS * 6, 1)).astype("int64")}
    return loss, feeds, 6, 1e-5, 1e-4

def case_ctr_auc():
    """A CTR model as PaddleRec's trains it: two sparse id slots [batch, 3] -> embeddings of
    20 x 4 (is_sparse) -> the mean over each slot -> concat with 3 dense features -> fc 11 -> 8 with
    relu -> fc 8 -> 2 -> softmax cross-entropy against click labels, mean, Adam; and in the
    main program paddle.static.auc on the softmax (num_thresholds 63): a windowed batch AUC
    (slide_steps 2) and the global one, whose int64 counts are persistables updated in place
    every step (compared with Paddle's in final.pdiparams)."""
    s1 = paddle.static.data(name="slot1", shape=[None, 3], dtype="int64")
    s2 = paddle.static.data(name="slot2", shape=[None, 3], dtype="int64")
    dense = paddle.static.data(name="dense", shape=[None, 3], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    e1 = paddle.static.nn.embedding(s1, size=[20, 4], is_sparse=True)
    e2 = paddle.static.nn.embedding(s2, size=[20, 4], is_sparse=True)
    h = paddle.concat([paddle.mean(e1, axis=1), paddle.mean(e2, axis=1), dense], axis=1)
    h = paddle.static.nn.fc(h, 8, activation="relu")
    logits = paddle.static.nn.fc(h, 2)
    predict = paddle.nn.functional.softmax(logits)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
    paddle.static.auc(input=predict, label=label, num_thresholds=63, slide_steps=2)
    paddle.optimizer.Adam(learning_rate=0.05).minimize(loss)
    rng = np.random.default_rng(74)
    feeds = {"slot1": rng.integers(0, 20, (STEPS * 8, 3)).astype("int64"),
             "slot2": rng.integers(0, 20, (STEPS * 8, 3)).astype("int64"),
             "dense": rng.standard_normal((STEPS * 8, 3)).astype("float32"),
             "label": rng.integers(0, 2, (STEPS * 8, 1)).astype("int64")}
    # every batch holds the embeddings' last row: Paddle's sparse Adam reads past the end of
    # the gradient's rows when a batch misses it (see case_hsigmoid_custom)
    feeds["slot1"][::8, 0] = feeds["slot2"][::8, 0] = 19
    return loss, feeds, 8, 1e-5, 1e-4

def case_losses_26():
    """The legacy ranking and CTR losses of Paddle 2.x, with their gradients, in one network
    (Paddle 2.6.2: 3.3.1 no longer registers them; added with Block.append_op): x [8, 6] ->
    fc 6 -> 12 with tanh -> four fc heads -> hinge_loss (labels 0 / 1), rank_loss (Left and
    Right from two heads, the same labels), bpr_loss over 4 classes, modified_huber_loss
    (labels 0 / 1, the three branches of the loss), teacher_student_sigmoid_loss (labels
    -2, -1 and teacher scores in [0, 2); bounds +-1.5, so some gradients are cut) -> the sum
    of their means, SGD."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    yb = paddle.static.data(name="yb", shape=[None, 1], dtype="float32")
    yc = paddle.static.data(name="yc", shape=[None, 1], dtype="int64")
    yt = paddle.static.data(name="yt", shape=[None, 1], dtype="float32")
    h = paddle.static.nn.fc(x, 12, activation="tanh")
    s1 = paddle.static.nn.fc(h, 1)
    s2 = paddle.static.nn.fc(h, 1)
    s3 = paddle.static.nn.fc(h, 4)
    s4 = paddle.static.nn.fc(h, 1)
    block = paddle.static.default_main_program().current_block()

    def op(t, ins, outs, attrs=None):
        vs = {k: block.create_var(name="%s_%s" % (t, k.lower()), dtype="float32") for k in outs}
        block.append_op(type=t, inputs={k: [v] for k, v in ins.items()},
                        outputs={k: [v] for k, v in vs.items()}, attrs=attrs or {})
        return vs[outs[-1]]
    losses = [op("hinge_loss", {"Logits": s1, "Labels": yb}, ["Loss"]),
              op("rank_loss", {"Label": yb, "Left": s1, "Right": s2}, ["Out"]),
              op("bpr_loss", {"X": s3, "Label": yc}, ["Y"]),
              op("modified_huber_loss", {"X": s4 * 1.5, "Y": yb}, ["IntermediateVal", "Out"]),
              op("teacher_student_sigmoid_loss", {"X": s4 * 2.0, "Label": yt}, ["Y"],
                 {"soft_max_up_bound": 1.5, "soft_max_lower_bound": -1.5})]
    loss = paddle.add_n([paddle.mean(v) for v in losses])
    paddle.optimizer.SGD(learning_rate=0.05).minimize(loss)
    rng = np.random.default_rng(75)
    n = STEPS * 8
    yt = rng.uniform(0, 2, (n, 1))
    yt[::4] = -2
    yt[1::4] = -1
    feeds = {"x": rng.standard_normal((n, 6)).astype("float32"),
             "yb": rng.integers(0, 2, (n, 1)).astype("float32"),
             "yc": rng.integers(0, 4, (n, 1)).astype("int64"),
             "yt": yt.astype("float32")}
    return loss, feeds, 8, 1e-5, 1e-4

def case_w2v_f64():
    """hierarchical_sigmoid and nce in float64, with their gradients: x [5, 5] float64 -> fc
    5 -> 6 with tanh -> hsigmoid_loss on the custom tree HS_TREE with a Bias, and nce over the
    same 6 classes (custom_neg_classes [4, 0], Bias) -> the sum of their means, cast to
    float32 as the loss, SGD on the float64 parameters."""
    x = paddle.static.data(name="x", shape=[None, 5], dtype="float64")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    pt = paddle.static.data(name="pt", shape=[None, 4], dtype="int64")
    pc = paddle.static.data(name="pc", shape=[None, 4], dtype="int64")
    h = paddle.static.nn.fc(x, 6, activation="tanh")
    w = paddle.static.create_parameter([5, 6], "float64", name="hs_w")
    b = paddle.static.create_parameter([5, 1], "float64", name="hs_b", is_bias=True)
    hs = paddle.nn.functional.hsigmoid_loss(h, label, 6, w, b, pt, pc)
    cost = paddle.static.nn.nce(h, label, 6, num_neg_samples=2)
    op, = [o for o in paddle.static.default_main_program().global_block().ops
           if o.type == "nce"]
    op._set_attr("custom_neg_classes", [4, 0])
    loss = paddle.cast(paddle.mean(hs) + paddle.mean(cost), "float32")
    paddle.optimizer.SGD(learning_rate=0.3).minimize(loss)
    rng = np.random.default_rng(76)
    lab = rng.integers(0, 6, (STEPS * 5, 1)).astype("int64")
    feeds = {"x": rng.standard_normal((STEPS * 5, 5)),
             "label": lab,
             "pt": np.array([HS_TREE[k][0] for k in lab[:, 0]], "int64"),
             "pc": np.array([HS_TREE[k][1] for k in lab[:, 0]], "int64")}
    return loss, feeds, 5, 1e-5, 1e-4


class StaticRNN:
    """fluid's StaticRNN as it wrote a program (the class of tools/gen_ctrl_oracle.py, which
    has the details; Paddle 2.6.2 no longer has the Python class, but still runs recurrent and
    builds recurrent_grad from its grad op maker). Two things make Paddle 2.6.2's backward of
    such a program train through time, as fluid 1.x did:
      - every memory's copy into `states` is `assign` (fluid's rnn_memory_helper is gone), and
        2.6.2's backward prunes the grad of an op whose gradient input no block declares
        (fluid exempted rnn_memory_helper_grad); states[k]@GRAD, which the recurrent_grad
        links from the previous step back's ex_states[k]@GRAD, is therefore declared in block
        0 (persistable, zeros from the startup program: at the last step nothing depends on
        the state, and Paddle's grad block then reads that outer variable);
      - recurrent_grad fails on an @EMPTY@ inputs@GRAD or initial_states@GRAD, so the step
        inputs and the initial memories must need a gradient (computed from parameters, or
        stop_gradient cleared).
    state_grads=False leaves the first out: the program as Paddle 2.6.2 writes it plainly,
    whose grad block never reads states@GRAD."""

    def __init__(self, reverse=False, state_grads=True):
        self.prog = paddle.static.default_main_program()
        self.reverse, self.state_grads = reverse, state_grads
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
        states = [self._copy(m[2]) for m in self.mems]
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
                 "states": [s.name for s in states], "sub_block": self.block,
                 "reverse": self.reverse}
        self.parent.append_op(
            type="recurrent",
            inputs={"inputs": self.inputs, "initial_states": [m[0] for m in self.mems],
                    "parameters": [self.parent._find_var_recursive(n) for n in params]},
            outputs={"outputs": self.outputs, "step_scopes": [step_scope]}, attrs=attrs)
        # the states' gradients at the last step: zeros, declared outside (see above)
        startup = paddle.static.default_startup_program()
        for s in states if self.state_grads else []:
            shape = list(s.shape)
            assert all(d > 0 for d in shape), shape
            for prog in (self.prog, startup):
                g = prog.global_block().create_var(name=s.name + "@GRAD", shape=shape,
                                                   dtype=s.dtype, persistable=True)
            startup.global_block().append_op(type="fill_constant", outputs={"Out": [g]},
                                             attrs={"shape": shape, "dtype": g.dtype,
                                                    "value": 0.0})
        return False


def _rnn_feed(rng, t, d, batch=4):
    """x fed [batch, t, d] per step (STEPS batches stacked), and its [t, batch, d] transpose."""
    x = paddle.static.data(name="x", shape=[batch, t, d], dtype="float32")
    return x, rng.standard_normal((STEPS * batch, t, d)).astype("float32")


def _tbd(x):
    return paddle.transpose(x, [1, 0, 2])


def case_n_rnn_sgd():
    """StaticRNN training, SGD: u = fc(x) over [4, 5, 3] (num_flatten_dims 2) transposed to
    the sequence [5, 4, 6]; one memory h from h0 = tanh(fc(x0)); per step
    h = tanh(fc(concat(u_t, h))) with the step's own fc parameters (recurrent_grad sums their
    gradient over the steps, carries h's back through them, and gives u and h0 theirs);
    squared error of the stacked h to y."""
    rng = np.random.default_rng(81)
    x, xv = _rnn_feed(rng, 5, 3)
    x0 = paddle.static.data(name="x0", shape=[4, 2], dtype="float32")
    y = paddle.static.data(name="y", shape=[4, 5, 4], dtype="float32")
    u = _tbd(paddle.static.nn.fc(x, 6, num_flatten_dims=2))
    h0 = paddle.static.nn.fc(x0, 4, activation="tanh")
    with StaticRNN() as rnn:
        ut = rnn.step_input(u)
        h = rnn.memory(init=h0)
        nh = paddle.static.nn.fc(paddle.concat([ut, h], axis=1), 4, activation="tanh")
        rnn.update_memory(h, nh)
        rnn.step_output(nh)
    loss = paddle.mean(paddle.square(_tbd(rnn.outputs[0]) - y))
    paddle.optimizer.SGD(learning_rate=0.2).minimize(loss)
    feeds = {"x": xv, "x0": rng.standard_normal((STEPS * 4, 2)).astype("float32"),
             "y": (0.5 * rng.standard_normal((STEPS * 4, 5, 4))).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_n_rnn_reverse():
    """A reverse StaticRNN (the steps from the last to the first) with two memories, two step
    inputs and two outputs, Momentum: c = 0.5 c + tanh(fc(concat(u_t, h))),
    h = sigmoid(c) * v_t + 0.5 h; the outputs h and c * w (w a parameter read in the step)."""
    rng = np.random.default_rng(82)
    x, xv = _rnn_feed(rng, 4, 3)
    y = paddle.static.data(name="y", shape=[4, 4, 5], dtype="float32")
    u = _tbd(paddle.static.nn.fc(x, 5, num_flatten_dims=2))
    v = _tbd(paddle.static.nn.fc(x, 5, num_flatten_dims=2, activation="tanh"))
    pooled = paddle.mean(x, axis=1)
    h0 = paddle.static.nn.fc(pooled, 5, activation="tanh")
    c0 = paddle.static.nn.fc(pooled, 5)
    w = paddle.static.create_parameter([5], "float32", name="rnn_w")
    with StaticRNN(reverse=True) as rnn:
        ut = rnn.step_input(u)
        vt = rnn.step_input(v)
        h = rnn.memory(init=h0)
        c = rnn.memory(init=c0)
        nc = 0.5 * c + paddle.tanh(paddle.static.nn.fc(paddle.concat([ut, h], axis=1), 5))
        nh = paddle.nn.functional.sigmoid(nc) * vt + 0.5 * h
        rnn.update_memory(h, nh)
        rnn.update_memory(c, nc)
        rnn.step_output(nh)
        rnn.step_output(nc * w)
    out = _tbd(rnn.outputs[0]) + 0.5 * _tbd(rnn.outputs[1])
    loss = paddle.mean(paddle.square(out - y))
    paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9).minimize(loss)
    feeds = {"x": xv, "y": (0.5 * rng.standard_normal((STEPS * 4, 4, 5))).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_n_rnn_adam():
    """StaticRNN whose step input s = tanh(fc(x)) is also used outside it (its gradient is
    recurrent_grad's inputs@GRAD plus that of the outside use), a parameter matrix read in
    the step by matmul, the memory from a fed h0 whose stop_gradient is cleared; Adam."""
    rng = np.random.default_rng(83)
    x, xv = _rnn_feed(rng, 6, 3)
    h0 = paddle.static.data(name="h0", shape=[4, 4], dtype="float32")
    h0.stop_gradient = False
    y = paddle.static.data(name="y", shape=[4, 6, 4], dtype="float32")
    s = _tbd(paddle.static.nn.fc(x, 4, num_flatten_dims=2, activation="tanh"))
    wm = paddle.static.create_parameter([4, 4], "float32", name="rnn_wm")
    with StaticRNN() as rnn:
        st = rnn.step_input(s)
        h = rnn.memory(init=h0)
        nh = paddle.tanh(paddle.matmul(h, wm) + st)
        rnn.update_memory(h, nh)
        rnn.step_output(nh)
    loss = (paddle.mean(paddle.square(_tbd(rnn.outputs[0]) - y)) +
            0.1 * paddle.mean(paddle.square(s)))
    paddle.optimizer.Adam(learning_rate=0.02).minimize(loss)
    feeds = {"x": xv, "h0": (0.5 * rng.standard_normal((STEPS * 4, 4))).astype("float32"),
             "y": (0.5 * rng.standard_normal((STEPS * 4, 6, 4))).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_n_rnn_batch_ref():
    """StaticRNN memories without an init tensor: memory(shape=[-1, 4], batch_ref=u_t,
    init_value=0.5) (fill_constant_batch_size_like from the sequence's dimension 1) and a
    second one with value 0; a stateless second output exp(u_t) * 0.1; SGD."""
    rng = np.random.default_rng(84)
    x, xv = _rnn_feed(rng, 5, 3)
    y = paddle.static.data(name="y", shape=[4, 5, 4], dtype="float32")
    u = _tbd(paddle.static.nn.fc(x, 4, num_flatten_dims=2))
    with StaticRNN() as rnn:
        ut = rnn.step_input(u)
        h = rnn.memory(shape=[-1, 4], batch_ref=ut, init_value=0.5)
        a = rnn.memory(shape=[-1, 4], batch_ref=ut, init_value=0.0)
        nh = paddle.static.nn.fc(paddle.concat([ut, h], axis=1), 4, activation="tanh")
        na = a * 0.8 + nh
        rnn.update_memory(h, nh)
        rnn.update_memory(a, na)
        rnn.step_output(na)
        rnn.step_output(paddle.exp(ut) * 0.1)
    out = _tbd(rnn.outputs[0]) + _tbd(rnn.outputs[1])
    loss = paddle.mean(paddle.square(out - y))
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    feeds = {"x": xv, "y": (0.5 * rng.standard_normal((STEPS * 4, 5, 4))).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4


def case_n_rnn_stateless():
    """A StaticRNN without memories (has_states false): out_t = relu(fc(u_t)) per step, the
    step fc's gradients summed over the steps; SGD."""
    rng = np.random.default_rng(85)
    x, xv = _rnn_feed(rng, 3, 4)
    y = paddle.static.data(name="y", shape=[4, 3, 3], dtype="float32")
    u = _tbd(paddle.static.nn.fc(x, 5, num_flatten_dims=2))
    with StaticRNN() as rnn:
        ut = rnn.step_input(u)
        rnn.step_output(paddle.nn.functional.relu(paddle.static.nn.fc(ut, 3)))
    loss = paddle.mean(paddle.square(_tbd(rnn.outputs[0]) - y))
    paddle.optimizer.SGD(learning_rate=0.2).minimize(loss)
    feeds = {"x": xv, "y": (0.5 * rng.standard_normal((STEPS * 4, 3, 3))).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4



def case_n_rnn_plain():
    """n_rnn_sgd's network with the program as Paddle 2.6.2's backward writes it plainly (no
    states@GRAD declared, StaticRNN(state_grads=False)): the grad block never reads the
    memory's gradient, so the gradients through time are cut at every step (each step's
    ex_states@GRAD still flows to initial_states@GRAD at the first step); Momentum."""
    rng = np.random.default_rng(86)
    x, xv = _rnn_feed(rng, 5, 3)
    x0 = paddle.static.data(name="x0", shape=[4, 2], dtype="float32")
    y = paddle.static.data(name="y", shape=[4, 5, 4], dtype="float32")
    u = _tbd(paddle.static.nn.fc(x, 6, num_flatten_dims=2))
    h0 = paddle.static.nn.fc(x0, 4, activation="tanh")
    with StaticRNN(state_grads=False) as rnn:
        ut = rnn.step_input(u)
        h = rnn.memory(init=h0)
        nh = paddle.static.nn.fc(paddle.concat([ut, h], axis=1), 4, activation="tanh")
        rnn.update_memory(h, nh)
        rnn.step_output(nh)
    loss = paddle.mean(paddle.square(_tbd(rnn.outputs[0]) - y))
    paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9).minimize(loss)
    feeds = {"x": xv, "x0": rng.standard_normal((STEPS * 4, 2)).astype("float32"),
             "y": (0.5 * rng.standard_normal((STEPS * 4, 5, 4))).astype("float32")}
    return loss, feeds, 4, 1e-5, 1e-4

def _k_op(op, ins, attrs, outs=("Out",)):
    """A legacy op appended directly (paddle.bmm and others go to PIR's _C_ops only); returns
    its first output."""
    from paddle.base.layer_helper import LayerHelper
    h = LayerHelper(op)
    ov = {}
    for k in outs:  # (slot, n): n variables
        if isinstance(k, tuple):
            ov[k[0]] = [h.create_variable_for_type_inference("float32") for _ in range(k[1])]
        else:
            ov[k] = h.create_variable_for_type_inference("float32")
    h.append_op(type=op, inputs=ins, outputs=ov, attrs=attrs)
    return ov[outs[0]]


def case_k_matrix_index_grads():
    """Helper K's grad ops in one network: x [4, 4] -> fc 4 -> 6 -> reshape [4, 2, 3] -> bmm
    with a [4, 3, 2] parameter -> reshape [4, 4] -> tril (diagonal -1 kept) -> addmm (a [1, 4]
    bias broadcast, alpha 0.5, beta 2) -> roll (shift 1 on axis 1), then the loss sums
    take_along_axis (fed indices, repeats) squared, amax over rows (ties: relu zeros), the
    diagonal of cummax along rows, 0.1 trace, kron with a [1, 2] parameter squared and einsum
    "bi,imj->bj" (m summed in the parameter alone) squared; Adam."""
    x = paddle.static.data(name="x", shape=[4, 4], dtype="float32")
    idx = paddle.static.data(name="idx", shape=[4, 3], dtype="int64")
    h = paddle.static.nn.fc(x, 6, activation="relu")
    wb = paddle.static.create_parameter([4, 3, 2], "float32", name="k_bmm_w")
    b = paddle.reshape(_k_op("bmm", {"X": paddle.reshape(h, [4, 2, 3]), "Y": wb}, {}), [4, 4])
    t = (_k_op("tril_triu", {"X": b}, {"diagonal": -1, "lower": True}) +
         _k_op("tril_triu", {"X": b}, {"diagonal": 1, "lower": False}) * 0.5)
    bias = paddle.static.create_parameter([1, 4], "float32", name="k_addmm_b", is_bias=True)
    wm = paddle.static.create_parameter([4, 4], "float32", name="k_addmm_w")
    d = _k_op("addmm", {"Input": bias, "X": t, "Y": wm}, {"Alpha": 0.5, "Beta": 2.0})
    e = _k_op("roll", {"X": d}, {"shifts": [1], "axis": [1]})
    f = _k_op("take_along_axis", {"Input": e, "Index": idx}, {"Axis": 1}, ("Result",))
    amax = _k_op("reduce_amax", {"X": paddle.nn.functional.relu(e)},
                 {"dim": [1], "keep_dim": False, "reduce_all": False})
    cm = _k_op("cummax", {"x": e}, {"axis": 1, "dtype": 3}, ("out", "indices"))
    dg = _k_op("diagonal", {"Input": cm}, {"offset": 0, "axis1": 0, "axis2": 1})
    tr = _k_op("trace", {"Input": e}, {"offset": 0, "axis1": 0, "axis2": 1})
    kp = paddle.static.create_parameter([1, 2], "float32", name="k_kron_w")
    kr = _k_op("kron", {"X": f, "Y": kp}, {})
    ke = paddle.static.create_parameter([3, 5, 2], "float32", name="k_einsum_w")
    ein = _k_op("einsum", {"Operands": [f, ke]}, {"equation": "bi,imj->bj"},
                ("Out", ("InnerCache", 2), ("XShape", 2)))
    loss = (paddle.mean(f * f) + paddle.mean(amax) + paddle.mean(dg) + tr * 0.1 +
            paddle.mean(kr * kr) + paddle.mean(ein * ein))
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    rng = np.random.default_rng(331)
    feeds = {"x": rng.standard_normal((STEPS * 4, 4)).astype("float32"),
             "idx": rng.integers(0, 4, (STEPS * 4, 3)).astype("int64")}
    return loss, feeds, 4, 1e-5, 1e-4
def case_j_grads():
    """The 33j grad ops in one network, Adam: x [8, 6] -> fc 6 -> 8 (h) -> a = atan(h) +
    0.1 (sinh, tan, expm1, asinh of scaled h) -> fc 8 -> 4 -> log_softmax -> nll_loss (class
    weights, ignore_index 3 in each batch's first row, mean) + kldiv_loss (batchmean) against soft targets; with
    logsumexp, cumprod and logcumsumexp over a, lerp / fmax / fmin / dist (p 3) between a and
    h, maxout of a as [8, 8, 1, 1] (groups 2), frobenius_norm and renorm of a, log_loss on
    sigmoid(fc(a, 1)), the means summed into the loss. The ops are appended with LayerHelper
    (3.3.1's legacy mode rejects Variables in most of these functions)."""
    from paddle.base.layer_helper import LayerHelper

    def op(t, ins, attrs=None, outs=("Out",)):
        h = LayerHelper(t)
        vs = {k: h.create_variable_for_type_inference("float32") for k in outs}
        h.append_op(type=t, inputs=ins, outputs=vs, attrs=attrs or {})
        return vs[outs[0]]
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    lab = paddle.static.data(name="lab", shape=[None], dtype="int64")
    tgt = paddle.static.data(name="tgt", shape=[None, 4], dtype="float32")
    yb = paddle.static.data(name="yb", shape=[None, 1], dtype="float32")
    h = paddle.static.nn.fc(x, 8)
    a = paddle.add_n([op("atan", {"X": h}), op("sinh", {"X": h * 0.5}) * 0.1,
                      op("tan", {"X": h * 0.3}) * 0.1, op("expm1", {"X": h * 0.3}) * 0.1,
                      op("asinh", {"X": h}) * 0.1])
    lp = op("log_softmax", {"X": paddle.static.nn.fc(a, 4)}, {"axis": -1})
    w = paddle.assign(np.array([1.0, 0.5, 2.0, 1.5], "float32"))
    half = h * 0.5
    losses = [
        op("nll_loss", {"X": lp, "Label": lab, "Weight": w},
           {"ignore_index": 3, "reduction": "mean"}, ("Out", "Total_weight")),
        op("kldiv_loss", {"X": lp, "Target": tgt}, {"reduction": "batchmean"}, ("Loss",)),
        op("logsumexp", {"X": a}, {"axis": [1], "keepdim": False, "reduce_all": False}),
        op("cumprod", {"X": op("sigmoid", {"X": a})}, {"dim": 1}),
        op("logcumsumexp", {"X": a}, {"axis": 1, "flatten": False, "exclusive": False,
                                      "reverse": False}),
        op("lerp", {"X": a, "Y": h, "Weight": paddle.assign(np.full([8], 0.3, "float32"))}),
        op("elementwise_fmax", {"X": a, "Y": half}),
        op("elementwise_fmin", {"X": a, "Y": half}),
        op("dist", {"X": a, "Y": half}, {"p": 3.0}) * 0.05,
        op("maxout", {"X": paddle.reshape(a, [-1, 8, 1, 1])}, {"groups": 2, "axis": 1}),
        op("frobenius_norm", {"X": a}, {"dim": [0, 1], "keep_dim": False,
                                        "reduce_all": False}) * 0.05,
        op("renorm", {"X": a}, {"p": 2.0, "axis": 1, "max_norm": 1.0}),
        op("log_loss", {"Predicted": op("sigmoid", {"X": paddle.static.nn.fc(a, 1)}),
                        "Labels": yb}, {"epsilon": 1e-4}, ("Loss",)),
    ]
    loss = paddle.add_n([paddle.mean(v) for v in losses])
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    rng = np.random.default_rng(77)
    n = STEPS * 8
    t = rng.uniform(0, 1, (n, 4))
    t[::5, 0] = 0
    # ignore_index only in each batch's first row: Paddle 3.3.1's nll_loss kernel writes 0 to
    # Out[i] for an ignored label i even when Out is one element (past its end) but for i = 0
    lab = rng.integers(0, 3, (n,)).astype("int64")
    lab[::8] = 3
    feeds = {"x": rng.standard_normal((n, 6)).astype("float32"),
             "lab": lab,
             "tgt": (t / t.sum(1, keepdims=True)).astype("float32"),
             "yb": rng.integers(0, 2, (n, 1)).astype("float32")}
    return loss, feeds, 8, 1e-5, 1e-4
def m_op(op_type, inputs, outs, attrs=None):
    """(helper M) one op with several outputs through LayerHelper: outs [(slot, dtype)];
    returns their variables in that order."""
    from paddle.base.layer_helper import LayerHelper
    h = LayerHelper(op_type)
    ov = {k: h.create_variable_for_type_inference(dt) for k, dt in outs}
    h.append_op(type=op_type, inputs=inputs, outputs=ov, attrs=attrs or {})
    return [ov[k] for k, _ in outs]


def case_m_vision_grads():
    """(helper M) The vision grads of one net: img [4, 4, 6, 6] -> conv2d 3x3 -> lrn (n 3) ->
    pixel_unshuffle 2 -> channel_shuffle 4 groups -> max_pool2d_with_index 2x2 stride 1;
    vol [4, 2, 3, 3, 3] -> conv3d_transpose (2 -> 3, kernel 2, stride 2, padding 1,
    output_padding 1); theta = fc of the pooled features reshaped [4, 2, 3] -> affine_grid
    [4, 3, 3, 2] (align_corners off); the pooled features times a spectral_norm'd weight
    (power_iters 2); the four feature sets concatenated -> fc 3, softmax cross-entropy, Adam."""
    img = paddle.static.data(name="img", shape=[4, 4, 6, 6], dtype="float32")
    vol = paddle.static.data(name="vol", shape=[4, 2, 3, 3, 3], dtype="float32")
    label = paddle.static.data(name="label", shape=[4, 1], dtype="int64")
    h = paddle.nn.Conv2D(4, 4, 3, padding=1)(img)
    h, _ = m_op("lrn", {"X": h}, [("Out", "float32"), ("MidOut", "float32")],
                {"n": 3, "k": 1.0, "alpha": 0.1, "beta": 0.75, "data_format": "NCHW"})
    h, = m_op("pixel_unshuffle", {"X": h}, [("Out", "float32")],
              {"downscale_factor": 2, "data_format": "NCHW"})
    h, = m_op("channel_shuffle", {"X": h}, [("Out", "float32")],
              {"groups": 4, "data_format": "NCHW"})
    pooled, _ = m_op("max_pool2d_with_index", {"X": h}, [("Out", "float32"), ("Mask", "int32")],
                     {"ksize": [2, 2], "strides": [1, 1], "paddings": [0, 0],
                      "global_pooling": False, "adaptive": False})
    v = paddle.nn.Conv3DTranspose(2, 3, 2, stride=2, padding=1, output_padding=1)(vol)
    flat = paddle.reshape(pooled, [4, 64])
    theta = paddle.reshape(paddle.static.nn.fc(flat, 6), [4, 2, 3])
    grid, = m_op("affine_grid", {"Theta": theta}, [("Output", "float32")],
                 {"output_shape": [4, 1, 3, 3], "align_corners": False})
    w = paddle.static.create_parameter([64, 5], "float32", name="m_sn_w")
    wn = paddle.static.nn.spectral_norm(w, dim=0, power_iters=2)
    proj = raw("matmul_v2", {"X": flat, "Y": wn}, {"trans_x": False, "trans_y": False})
    feats = paddle.concat([flat, paddle.reshape(v, [4, -1]), paddle.reshape(grid, [4, 18]),
                           proj], axis=1)
    logits = paddle.static.nn.fc(feats, 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    rng = np.random.default_rng(91)
    feeds = {"img": rng.standard_normal((STEPS * 4, 4, 6, 6)).astype("float32"),
             "vol": rng.standard_normal((STEPS * 4, 2, 3, 3, 3)).astype("float32"),
             "label": rng.integers(0, 3, (STEPS * 4, 1)).astype("int64")}
    return loss, feeds, 4, 1e-4, 1e-4



class _HandOptimizer:
    """An optimizer op Paddle's Python API no longer offers (fluid.optimizer's Ftrl and
    DecayedAdagrad are gone from both 2.6.2 and 3.3.1), written as fluid's optimizer wrote
    it: after paddle.static.append_backward, a float32 learning-rate variable, persistable
    accumulators per parameter (created zero, or `fill` where given) and one op per parameter
    updating the parameter and its accumulators in place."""

    def __init__(self, op, lr, accs, slots, attrs, fill=None):
        # accs: accumulator input slot -> output slot; slots: the op's Param/Grad/LR slots
        self.op, self.lr, self.accs, self.slots = op, lr, accs, slots
        self.attrs, self.fill = attrs, fill or {}

    def minimize(self, loss):
        blk = loss.block.program.global_block()
        gv = paddle.static.create_global_var
        lr = gv([1], self.lr, "float32", persistable=True, name=self.op + "_lr")
        for p, g in paddle.static.append_backward(loss):
            ins = {self.slots[0]: p, self.slots[1]: g, self.slots[2]: lr}
            outs = {self.slots[3]: p}
            for a, o in self.accs.items():
                v = gv(p.shape, self.fill.get(a, 0.0), "float32", persistable=True,
                       name="%s_%s_%s" % (p.name, self.op, a))
                ins[a], outs[o] = v, v
            blk.append_op(type=self.op, inputs=ins, outputs=outs, attrs=self.attrs)


def _ftrl(**attrs):
    return _HandOptimizer("ftrl", 0.1, {"SquaredAccumulator": "SquaredAccumOut",
                                        "LinearAccumulator": "LinearAccumOut"},
                          ("Param", "Grad", "LearningRate", "ParamOut"), attrs,
                          fill={"SquaredAccumulator": 0.1})


def case_t7_ftrl():
    """FTRL (the ftrl op, see _HandOptimizer) with l1 0.001, l2 0.01 and lr_power -0.5, the
    squared accumulators starting at 0.1 as fluid's FtrlOptimizer started them."""
    return _opt_net(70, _ftrl(l1=0.001, l2=0.01, lr_power=-0.5))


def case_t7_ftrl_pow():
    """FTRL with lr_power -0.6 (the pow branch) and l1 0 (no sparsity)."""
    return _opt_net(71, _ftrl(l1=0.0, l2=0.001, lr_power=-0.6))


def case_t7_ftrl_sparse():
    """FTRL over an is_sparse embedding's SelectedRows gradient (only the looked-up rows
    move) and the fc's dense one."""
    return _sparse_embedding(72, _ftrl(l1=0.001, l2=0.01, lr_power=-0.5))


def case_t7_decayed_adagrad():
    """DecayedAdagrad (the decayed_adagrad op, see _HandOptimizer) with decay 0.9 and epsilon
    1e-5."""
    return _opt_net(73, _HandOptimizer("decayed_adagrad", 0.05, {"Moment": "MomentOut"},
                                       ("Param", "Grad", "LearningRate", "ParamOut"),
                                       dict(decay=0.9, epsilon=1e-5)))


def case_t7_model_average():
    """Momentum, then paddle.incubate.optimizer.ModelAverage's average_accumulates op for
    every parameter (average_window_rate 0.3, min_average_window 2, max_average_window 5: its
    window restarts several times in 20 steps). After the last step Paddle runs its apply
    program (each parameter saved to its restore variable, then replaced by the average
    (sum_1 + sum_2 + sum_3) / (num_accumulates + old_num_accumulates)): apply.pdmodel, the
    persistables then in applied.pdiparams; and its restore program (restore.pdmodel), which
    brings back final.pdiparams' parameters."""
    loss, feeds, batch, rtol, ptol = _opt_net(74, paddle.optimizer.Momentum(
        learning_rate=0.1, momentum=0.9))
    ma = paddle.incubate.optimizer.ModelAverage(0.3, min_average_window=2, max_average_window=5)
    return loss, feeds, batch, rtol, ptol, {"model_average": ma}


def case_t7_amp():
    """paddle.static.amp.decorate (O1, use_dynamic_loss_scaling) around Adam on the CPU, with
    float32 kept throughout (every op on the black list: Paddle's CPU has no float16 matmul,
    and icore computes no float16 or bfloat16): the loss scaled by the loss scaling variable,
    check_finite_and_unscale on the gradients and update_loss_scaling. The loss (x 1000)
    and the initial scale 2^126 make the scaled gradients overflow: the first steps find
    infinities, zero the gradients and count bad steps, every second one dividing the scale
    by 8 (decr_every_n_nan_or_inf 2, decr_ratio 0.125) until the gradients fit;
    incr_every_n_steps 3 then doubles it after three good steps, until it overflows again."""
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    h = paddle.static.nn.fc(x, 8, activation="relu")
    logits = paddle.static.nn.fc(h, 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label)) * 1000.0
    black = {"mul", "matmul", "matmul_v2", "elementwise_add", "relu", "softmax_with_cross_entropy",
             "mean", "reduce_mean", "softmax", "cross_entropy", "cross_entropy2", "scale"}
    lists = paddle.static.amp.AutoMixedPrecisionLists(custom_white_list=set(),
                                                     custom_black_list=black)
    opt = paddle.static.amp.decorate(paddle.optimizer.Adam(learning_rate=0.01),
                                     amp_lists=lists, init_loss_scaling=2.0 ** 126,
                                     incr_every_n_steps=3, decr_every_n_nan_or_inf=2,
                                     incr_ratio=2.0, decr_ratio=0.125,
                                     use_dynamic_loss_scaling=True)
    opt.minimize(loss)
    rng = np.random.default_rng(75)
    feeds = {"x": rng.standard_normal((STEPS * 8, 6)).astype("float32"),
             "label": rng.integers(0, 3, (STEPS * 8, 1)).astype("int64")}
    return loss, feeds, 8, 1e-5, 1e-4

CASES = {"seed": case_seed, "mlp": case_mlp, "attention": case_attention, "cnn": case_cnn,
         "branches": case_branches, "adagrad": case_adagrad, "lamb": case_lamb,
         "lstm": case_lstm, "gru": case_gru, "lr_scheduler": case_lr_scheduler,
         "regularizer": case_regularizer, "huber": case_huber,
         "xent_soft": case_xent_soft, "ctl_while": case_ctl_while, "ctl_while_outer": case_ctl_while_outer,
         "ctl_cond": case_ctl_cond, "ctl_nested": case_ctl_nested, "qat_range": case_qat_range,
         "qat_moving_average": case_qat_moving_average, "qat_fake_qdq": case_qat_fake_qdq,
         "qat_v2": case_qat_v2, "qat_out_scale": case_qat_out_scale,
         "ctl_while_in_cond": case_ctl_while_in_cond,
         "ctl_while_unused_out": case_ctl_while_unused_out,
         "ctl_nested_local": case_ctl_nested_local,
         "ctl_while_in_while": case_ctl_while_in_while,
         "ctl_while_array": case_ctl_while_array, "yolo": case_yolo}
for _n in LEGACY:
    CASES[_n] = legacy_case(_n)
CASES["gru_lod"] = case_gru_lod
CASES["lstm_lod"] = case_lstm_lod
CASES["crf_lod"] = case_crf_lod
CASES["ctc_lod"] = case_ctc_lod
CASES["adamax"] = case_adamax
CASES["adadelta"] = case_adadelta
CASES["merged_momentum"] = case_merged_momentum
CASES["merged_adam"] = case_merged_adam
CASES["nadam"] = case_nadam
CASES["radam"] = case_radam
CASES["rprop"] = case_rprop
CASES["lars"] = case_lars
CASES["asgd"] = case_asgd
CASES["sparse_sgd"] = case_sparse_sgd
CASES["sparse_adam"] = case_sparse_adam
CASES["sparse_adam_lazy"] = case_sparse_adam_lazy
CASES["sparse_pad_sgd"] = case_sparse_pad_sgd
CASES["ctc_adam"] = case_ctc_adam
CASES["ctc_norm_sgd"] = case_ctc_norm_sgd
CASES["w2v_hsigmoid"] = case_w2v_hsigmoid
CASES["hsigmoid_custom"] = case_hsigmoid_custom
CASES["nce_custom_neg"] = case_nce_custom_neg
CASES["nce_samplers"] = case_nce_samplers
CASES["ctr_auc"] = case_ctr_auc
CASES["w2v_f64"] = case_w2v_f64
CASES["losses_26"] = case_losses_26
LEGACY_LOSS = ["losses_26"]  # written by Paddle 2.6.2
CASES["n_rnn_sgd"] = case_n_rnn_sgd
CASES["n_rnn_reverse"] = case_n_rnn_reverse
CASES["n_rnn_adam"] = case_n_rnn_adam
CASES["n_rnn_batch_ref"] = case_n_rnn_batch_ref
CASES["n_rnn_stateless"] = case_n_rnn_stateless
CASES["n_rnn_plain"] = case_n_rnn_plain
LEGACY_SRNN = ["n_rnn_sgd", "n_rnn_reverse", "n_rnn_adam", "n_rnn_batch_ref",
               "n_rnn_stateless", "n_rnn_plain"]  # StaticRNN training, written by Paddle 2.6.2
CASES["k_matrix_index_grads"] = case_k_matrix_index_grads
CASES["j_grads"] = case_j_grads
CASES["m_vision_grads"] = case_m_vision_grads
for _n in ("t7_ftrl", "t7_ftrl_pow", "t7_ftrl_sparse", "t7_decayed_adagrad",
           "t7_model_average", "t7_amp"):
    CASES[_n] = globals()["case_" + _n]


def save_vars(exe, prog, path):
    d, f = os.path.split(path)
    paddle.static.save_vars(exe, d, main_program=prog, vars=persistables(prog), filename=f)


def write_case(out_dir, name):
    paddle.enable_static()
    paddle.seed(1234)
    main, startup = paddle.static.Program(), paddle.static.Program()
    main.random_seed = startup.random_seed = 1234
    # Paddle 2.6.2 does not restart variable names per program: a guard keeps a legacy case's
    # names (mean_0.tmp_0, ...) independent of the cases generated before it
    names = (paddle.utils.unique_name.guard() if name in LEGACY + LEGACY_RNN + CTRL + LEGACY_LOSS + LEGACY_SRNN
             else contextlib.nullcontext())
    with names, paddle.static.program_guard(main, startup):
        loss, feeds, batch, rtol, ptol, *extra = CASES[name]()
    extra = extra[0] if extra else {}
    sched, lr_var = extra.get("scheduler"), extra.get("lr")
    lods = extra.get("lod", {})  # feed -> the LoD of every step's slice (rows: its last offset)
    if sched is not None:
        lr_var = main.lr_var  # learning_rate_N, set by Paddle's executor before each run
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        if extra.get("transform"):
            # QAT: the pass rewrites the program and adds persistables to the scope
            main = extra["transform"](main, scope)
    with open(os.path.join(d, "main.pdmodel"), "wb") as f:
        f.write(strip_callstacks(main.desc.serialize_to_string()))
    with open(os.path.join(d, "startup.pdmodel"), "wb") as f:
        f.write(strip_callstacks(startup.desc.serialize_to_string()))
    if name == "ctl_while":
        # the same program with the forward while's is_test set: it keeps no step scopes,
        # so while_grad must fail (test_train's error case); Paddle is not run on it
        bad = main.clone()
        for op in bad.global_block().ops:
            if op.type == "while":
                op._set_attr("is_test", True)
        with open(os.path.join(d, "main_is_test.pdmodel"), "wb") as f:
            f.write(strip_callstacks(bad.desc.serialize_to_string()))
    if name == "ctl_while_unused_out":
        # the same program with the unused loop output's gradient declared [-1, 8]: Paddle's
        # while_grad cannot fill it (fill_constant rejects -1), and icore refuses it by name
        # (test_train's error case); Paddle is not run on it
        bad = main.clone()
        for op in bad.global_block().ops:
            if op.type == "while_grad":
                for og in op.input("Out@GRAD"):
                    if not any(og in o.output_arg_names for o in bad.global_block().ops
                               if o.type != "while_grad"):
                        bad.global_block().var(og).desc.set_shape([-1, 8])
        with open(os.path.join(d, "main_dynamic.pdmodel"), "wb") as f:
            f.write(strip_callstacks(bad.desc.serialize_to_string()))
    if name == "n_rnn_sgd":
        # recurrent_grad's bad inputs (test_train's error cases; Paddle is not run on them):
        # the forward with is_train false (it keeps no steps), a recurrent_grad whose states
        # name no variable of the step block, one whose sub_block is the step block itself
        # (not a grad block), one whose step_scopes no recurrent writes, and one with fewer
        # parameters@GRAD than parameters
        def variant(fname, change):
            bad = main.clone()
            gb = bad.global_block()
            change(bad, [o for o in gb.ops if o.type == "recurrent"][0],
                   [o for o in gb.ops if o.type == "recurrent_grad"][0])
            with open(os.path.join(d, fname), "wb") as f:
                f.write(strip_callstacks(bad.desc.serialize_to_string()))

        def other_steps(bad, fwd, grad):
            bad.global_block().create_var(name="other_steps",
                                          type=paddle.base.core.VarDesc.VarType.STEP_SCOPES)
            grad.desc.set_input("step_scopes", ["other_steps"])

        variant("main_not_train.pdmodel", lambda b, f, g: f._set_attr("is_train", False))
        variant("main_bad_states.pdmodel", lambda b, f, g: g._set_attr("states", ["nope"]))
        variant("main_step_block.pdmodel",
                lambda b, f, g: g.desc.set_block_attr("sub_block", b.block(1).desc))
        variant("main_no_forward.pdmodel", other_steps)
        variant("main_grad_count.pdmodel", lambda b, f, g: g.desc.set_output(
            "parameters@GRAD", g.output("parameters@GRAD")[:1]))
    with paddle.static.scope_guard(scope):
        save_vars(exe, main, os.path.join(d, "init.pdiparams"))
        losses, lrs = [], []
        fetch = [loss.name] + ([lr_var.name] if lr_var is not None else [])
        for s in range(STEPS):
            fd = {}
            for k, v in feeds.items():
                if k in lods:
                    rows = lods[k][-1][-1]
                    t = paddle.base.core.LoDTensor()
                    t.set(v[s * rows:(s + 1) * rows], paddle.CPUPlace())
                    t.set_lod(lods[k])
                    fd[k] = t
                else:
                    fd[k] = v[s * batch:(s + 1) * batch]
            out = exe.run(main, feed=fd, fetch_list=fetch)
            losses.append(np.asarray(out[0], dtype="float32").reshape(()))
            if lr_var is not None:
                lrs.append(np.asarray(out[1], dtype="float32").reshape(-1)[0])
            if sched is not None:
                sched.step()
        save_vars(exe, main, os.path.join(d, "final.pdiparams"))
        ma = extra.get("model_average")
        if ma is not None:
            # ModelAverage's apply and restore programs, run by Paddle after the last step
            for fname, prog in (("apply.pdmodel", ma.apply_program),
                                ("restore.pdmodel", ma.restore_program)):
                with open(os.path.join(d, fname), "wb") as f:
                    f.write(strip_callstacks(prog.desc.serialize_to_string()))
            exe.run(ma.apply_program)
            save_vars(exe, main, os.path.join(d, "applied.pdiparams"))
            exe.run(ma.restore_program)
    np.save(os.path.join(d, "loss.npy"), np.stack(losses).astype("float32"))
    lines = ["# written by tools/gen_paddle_train.py with PaddlePaddle " + paddle.__version__,
             "steps %d" % STEPS, "batch %d" % batch]
    for k, v in feeds.items():
        np.save(os.path.join(d, k + ".npy"), v)
        lines.append("feed %s %s.npy" % (k, k))
        for level in lods.get(k, []):
            # 'lod NAME o0 o1 ...': every step's slice of NAME has this LoD, and as many
            # rows as its last offset ('batch' counts the other feeds' rows)
            lines.append("lod %s %s" % (k, " ".join(map(str, level))))
    if lr_var is not None:
        lr_shape = tuple(lr_var.shape)
        np.save(os.path.join(d, "lr.npy"),
                np.stack(lrs).astype("float32").reshape((STEPS,) + lr_shape))
        # 'lrfeed NAME': feed lr.npy's row s as NAME at step s (Paddle's executor sets it);
        # 'lr NAME': the program computes NAME, fetched and compared with lr.npy
        lines.append("%s %s" % ("lrfeed" if sched is not None else "lr", lr_var.name))
    lines += ["loss %s" % loss.name, "rtol %g" % rtol, "ptol %g" % ptol,
              "ops " + " ".join(sorted({op.type for op in main.global_block().ops}))]
    with open(os.path.join(d, "case.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


DROPOUT_STEPS = 60


def write_dropout_case(out_dir):
    """dropout/: an MLP with dropout in training mode (fc 4->32, relu, dropout 0.2
    upscale_in_train, fc 32->2, softmax cross-entropy, Adam) on a linearly separable task,
    the whole set of 64 examples as the batch of every step. The programs have random_seed 0,
    so their initializers and the dropout op (fix_seed false) draw from the executor's seed:
    icore's masks are not Paddle's, so this case is not compared with Paddle step by step
    (not in cases.txt); tests/test_train.c checks that it converges, reproducibly. Paddle's
    own losses are in loss.npy for reference."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data(name="x", shape=[None, 4], dtype="float32")
        label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
        h = paddle.static.nn.fc(x, 32, activation="relu")
        h = paddle.nn.functional.dropout(h, p=0.2, training=True, mode="upscale_in_train")
        logits = paddle.static.nn.fc(h, 2)
        loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, label))
        paddle.optimizer.Adam(learning_rate=0.05).minimize(loss)
    rng = np.random.default_rng(10)
    xs = rng.standard_normal((64, 4)).astype("float32")
    ys = (xs[:, 0] + 0.5 * xs[:, 1] - 0.25 * xs[:, 2] > 0).astype("int64").reshape(64, 1)
    d = os.path.join(out_dir, "dropout")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "main.pdmodel"), "wb") as f:
        f.write(strip_callstacks(main.desc.serialize_to_string()))
    with open(os.path.join(d, "startup.pdmodel"), "wb") as f:
        f.write(strip_callstacks(startup.desc.serialize_to_string()))
    np.save(os.path.join(d, "x.npy"), xs)
    np.save(os.path.join(d, "label.npy"), ys)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    losses = []
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for _ in range(DROPOUT_STEPS):
            out, = exe.run(main, feed={"x": xs, "label": ys}, fetch_list=[loss.name])
            losses.append(np.asarray(out, dtype="float32").reshape(()))
    np.save(os.path.join(d, "loss.npy"), np.stack(losses).astype("float32"))
    lines = ["# written by tools/gen_paddle_train.py with PaddlePaddle " + paddle.__version__,
             "steps %d" % DROPOUT_STEPS, "batch 64", "feed x x.npy", "feed label label.npy",
             "loss %s" % loss.name,
             "ops " + " ".join(sorted({op.type for op in main.global_block().ops}))]
    with open(os.path.join(d, "case.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "tests", "data", "train")
    legacy = paddle.__version__.startswith("2.")
    old = LEGACY + LEGACY_RNN + CTRL + LEGACY_LOSS + LEGACY_SRNN
    names = sys.argv[2:] or ([n for n in CASES if n in old] if legacy else
                             [n for n in CASES if n not in old] + ["dropout"])
    for n in names:
        if n == "dropout":
            write_dropout_case(out_dir)
        else:
            write_case(out_dir, n)
    with open(os.path.join(out_dir, "cases.txt"), "w") as f:
        f.write("\n".join(CASES) + "\n")


if __name__ == "__main__":
    main()
