#!/usr/bin/env python3
"""Write tests/data/grad_oracle/: X, Y, a random upstream gradient G and Paddle 3.3.1's X@GRAD
and Y@GRAD for grad ops whose forward Paddle 3.x still emits in legacy static programs:
the legacy matmul (transpose_X / transpose_Y / alpha, a batched X with a plain Y) and
elementwise_max / elementwise_min with broadcasting and ties. tests/test_ops_grad.c feeds the
same X, Y and G to icore's grad op and compares.

    FLAGS_enable_pir_api=0 /work/pdenv/bin/python tools/gen_paddle_grad_oracle.py [OUT_DIR]

cases.txt: one line per case: NAME OP ATTR=VALUE... (the files are NAME.x.npy, NAME.y.npy,
NAME.g.npy, NAME.dx.npy, NAME.dy.npy); yslot=SLOT names the second input's slot when it is
not Y (prelu's Alpha); mode and data_format are string attributes.

unary_cases.txt: one-input ops (activations, reductions) at the points where their rule is
subtle (boundaries, ties, zeros), float32: one line per case,
NAME OP SLOTS ATTR=T:VALUE..., where SLOTS lists the grad op's inputs as Paddle wrote them
(X, Out, Out@GRAD) and T is f (float), i (int), b (bool) or L (list of int); the files are
NAME.x.npy, NAME.out.npy (Paddle's forward output), NAME.g.npy and NAME.dx.npy.

conv_cases.txt: the transposed convolutions (conv2d_transpose, depthwise_conv2d_transpose)
and grid_sampler (slots X, Grid, Output), float32: one line per case, NAME OP ATTR=T:VALUE... (T as above, s for a string); the files
are NAME.x.npy (Input), NAME.y.npy (Filter), NAME.g.npy (Output@GRAD), NAME.dx.npy and
NAME.dy.npy (Input@GRAD, Filter@GRAD). `--conv-only` writes only these.
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
    ("pow_bcast", "elementwise_pow", (2, 3, 4), (3, 1), {"axis": 1}),
    ("pow_zero_base", "elementwise_pow", (12,), (12,), {"axis": -1}),
    # prelu: the second input is Alpha (yslot); X with zeros and negatives
    ("prelu_all", "prelu", (2, 3, 4), (1,), {"yslot": "Alpha", "mode": "all",
                                              "data_format": "NCHW"}),
    ("prelu_channel", "prelu", (2, 3, 2, 2), (3,), {"yslot": "Alpha", "mode": "channel",
                                                      "data_format": "NCHW"}),
    ("prelu_channel_last", "prelu", (2, 2, 2, 3), (3,), {"yslot": "Alpha", "mode": "channel",
                                                           "data_format": "NHWC"}),
    ("prelu_element", "prelu", (2, 3, 4), (1, 3, 4), {"yslot": "Alpha", "mode": "element",
                                                    "data_format": "NCHW"}),
]


def _normal(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype("float32")


def pts(*v):
    return np.array(v, dtype="float32")


_R = np.random.default_rng(7)
_GEN = _R.uniform(-3, 3, 10).astype("float32")
_POS = _R.uniform(0.1, 4, 10).astype("float32")


def gen(*extra):
    return np.concatenate([pts(*extra), _GEN]).astype("float32")


# name, op, attrs, x (1-D points, or an array for the reductions)
UNARY = [
    ("leaky_relu_at0", "leaky_relu", {"alpha": 0.1}, gen(0.0, -0.0, -1e-30, 1e-30, -2, 2)),
    ("leaky_relu_big_alpha", "leaky_relu", {"alpha": 2.0}, gen(0.0, -1, 1)),
    ("relu6_bounds", "relu6", {}, gen(0.0, 6.0, -0.0, 5.999, 6.001, 7, -1)),
    ("hard_swish_bounds", "hard_swish", {"threshold": 6.0, "scale": 6.0, "offset": 3.0},
     gen(-3.0, 3.0, -3.001, -2.999, 2.999, 3.001, 0.0, -5, 5)),
    ("hard_sigmoid_bounds", "hard_sigmoid", {"slope": 0.2, "offset": 0.5},
     gen(-2.5, 2.5, -2.6, 2.6, 0.0)),
    ("swish", "swish", {"beta": 1.0}, gen(0.0, -20, 20)),  # 3.3.1 ignores beta
    ("silu", "silu", {}, gen(0.0, -20, 20)),
    ("elu_pos_alpha", "elu", {"alpha": 1.2}, gen(0.0, -0.0, -5, 5)),
    ("elu_neg_alpha", "elu", {"alpha": -0.5}, gen(0.0, -5, 5)),
    ("selu", "selu", {"scale": 1.0507009873554805, "alpha": 1.6732632423543772},
     gen(0.0, -0.0, -4, 4)),
    ("celu", "celu", {"alpha": 1.5}, gen(0.0, -0.0, -4, 4, 200)),
    ("softplus_thr", "softplus", {"beta": 2.0, "threshold": 3.0}, gen(1.5, 1.499, 1.501, -30, 30)),
    ("softsign", "softsign", {}, gen(0.0, -100, 100)),
    ("mish_thr", "mish", {"threshold": 2.0}, gen(2.0, 1.999, 2.001, -30, 30)),
    ("exp", "exp", {}, gen(0.0)),
    ("log", "log", {}, _POS),
    ("log2", "log2", {}, _POS),
    ("log10", "log10", {}, _POS),
    ("log1p", "log1p", {}, _POS - 0.05),
    ("sqrt", "sqrt", {}, _POS),
    ("rsqrt", "rsqrt", {}, _POS),
    ("square", "square", {}, gen(0.0)),
    ("abs_at0", "abs", {}, gen(0.0, -0.0)),
    ("pow_2_5", "pow", {"factor": 2.5}, _POS),
    ("pow_neg", "pow", {"factor": -1.5}, _POS),
    ("tanh_shrink", "tanh_shrink", {}, gen(0.0)),
    ("logsigmoid", "logsigmoid", {}, gen(0.0, -40, 40)),
    ("sin", "sin", {}, gen(0.0)),
    ("cos", "cos", {}, gen(0.0)),
    ("erf", "erf", {}, gen(0.0)),
    ("reciprocal", "reciprocal", {}, _POS),
    ("thresholded_relu_at_t", "thresholded_relu", {"threshold": 1.0}, gen(1.0, 0.999, 1.001)),
    ("brelu_bounds", "brelu", {"t_min": -1.0, "t_max": 2.0}, gen(-1.0, 2.0, -1.001, 1.999)),
    ("hard_shrink_at_t", "hard_shrink", {"threshold": 0.5}, gen(0.5, -0.5, 0.499, -0.501)),
    ("softshrink_at_l", "softshrink", {"lambda": 0.5}, gen(0.5, -0.5, 0.499, -0.501)),
    ("stanh", "stanh", {"scale_a": 0.67, "scale_b": 1.7159}, gen(0.0)),
    ("floor", "floor", {}, gen(0.5)),
    ("ceil", "ceil", {}, gen(0.5)),
    ("round", "round", {}, gen(0.5)),
]


def _ties(shape, seed):
    return (np.random.default_rng(seed).integers(-2, 3, shape) * 0.5).astype("float32")


def _red(dim, keep=False, all_=False):
    return {"dim": dim, "keep_dim": keep, "reduce_all": all_}


_NAN = _ties((3, 4), 5)
_NAN[1, 2] = np.nan
_NAN[2, :] = np.nan
_ZEROS = np.random.default_rng(6).uniform(0.5, 2, (3, 4, 5)).astype("float32")
_ZEROS[0, 1, 2] = 0.0  # one zero in a reduction
_ZEROS[1, 3, 0] = _ZEROS[1, 3, 4] = 0.0  # two zeros in one
_ZEROS[2, 0, 1] = -0.0
_ZEROS[2, 2, 3] = -1.5
UNARY += [
    ("reduce_max_ties", "reduce_max", _red([1]), _ties((3, 4, 5), 1)),
    ("reduce_max_ties_02_keep", "reduce_max", _red([0, 2], True), _ties((3, 4, 5), 2)),
    ("reduce_max_neg_axis", "reduce_max", _red([-1]), _ties((3, 4, 5), 3)),
    ("reduce_max_all", "reduce_max", _red([0], True, True), _ties((3, 4), 4)),
    ("reduce_max_nan", "reduce_max", _red([1]), _NAN),
    ("reduce_min_ties", "reduce_min", _red([1]), _ties((3, 4, 5), 1)),
    ("reduce_min_ties_0_keep", "reduce_min", _red([0], True), _ties((3, 4, 5), 2)),
    ("reduce_prod_zeros", "reduce_prod", _red([2]), _ZEROS),
    ("reduce_prod_zeros_01_keep", "reduce_prod", _red([0, 1], True), _ZEROS),
    ("reduce_prod_plain", "reduce_prod", _red([1]), np.random.default_rng(8).uniform(
        -2, 2, (3, 4)).astype("float32")),
    ("clip_bounds", "clip", {"min": -0.5, "max": 0.7}, gen(-0.5, 0.7, -0.499, 0.699, 0.701)),
    ("cumsum_excl", "cumsum", {"axis": 1, "exclusive": True, "reverse": False,
                               "flatten": False}, _ties((3, 4), 9)),
    ("cumsum_rev", "cumsum", {"axis": 0, "exclusive": False, "reverse": True,
                              "flatten": False}, _ties((3, 4), 10)),
    ("cumsum_flat_excl_rev", "cumsum", {"axis": -1, "exclusive": True, "reverse": True,
                                        "flatten": True}, _ties((3, 4), 11)),
]


def _pn(p, axis=-1, keep=False, vec=False):
    return {"porder": p, "axis": axis, "keepdim": keep, "asvector": vec, "epsilon": 1e-12}


_PN = _ties((4, 5), 12)
_PN[3, :] = 0.0  # a zero norm
UNARY += [
    ("p_norm_2", "p_norm", _pn(2.0), _PN),
    ("p_norm_1", "p_norm", _pn(1.0, 0, True), _PN),
    ("p_norm_3", "p_norm", _pn(3.0), _PN),
    ("p_norm_1_5_vec", "p_norm", _pn(1.5, -1, False, True), _ties((3, 4), 13)),
    ("p_norm_inf_ties", "p_norm", _pn(float("inf")), _PN),
    ("p_norm_neginf", "p_norm", _pn(float("-inf"), 0), _ties((4, 5), 14)),
    ("p_norm_0", "p_norm", _pn(0.0), _PN),
]

# pool3d / bicubic_interp_v2 on 5-D / 4-D arrays of their own (normal values: no ties)
UNARY += [
    ("pool3d_max_pad_ceil", "pool3d",
     {"pooling_type": "max", "ksize": [2, 2, 2], "strides": [2, 1, 2], "paddings": [1, 0, 1],
      "ceil_mode": True, "exclusive": True, "data_format": "NCDHW"}, _normal((2, 2, 4, 5, 4), 41)),
    ("pool3d_avg_inclusive", "pool3d",
     {"pooling_type": "avg", "ksize": [3, 2, 2], "strides": [2, 2, 1], "paddings": [1, 1, 0],
      "exclusive": False, "data_format": "NCDHW"}, _normal((2, 2, 4, 5, 4), 42)),
    ("pool3d_avg_ndhwc", "pool3d",
     {"pooling_type": "avg", "ksize": [2, 3, 2], "strides": [1, 2, 2], "paddings": [0, 1, 1],
      "exclusive": True, "data_format": "NDHWC"}, _normal((2, 4, 5, 4, 3), 43)),
    ("bicubic_up", "bicubic_interp_v2",
     {"interp_method": "bicubic", "out_h": 6, "out_w": 7, "align_corners": False,
      "data_layout": "NCHW"}, _normal((1, 2, 3, 4), 44)),
    ("bicubic_down_align", "bicubic_interp_v2",
     {"interp_method": "bicubic", "out_h": 2, "out_w": 3, "align_corners": True,
      "data_layout": "NCHW"}, _normal((1, 2, 5, 6), 45)),
]


# lgamma_grad (Out@GRAD * digamma(X)) and digamma_grad (Out@GRAD * trigamma(X), Eigen's
# polygamma): negative non-integers on both sides of the poles, small and large x (no pole
# itself: the comparison needs finite values)
_GAMMA = gen(0.5, 1.0, 2.0, -0.5, -2.5, -0.999, -1.001, 1e-3, 10.0, 30.0, 1e4)
UNARY += [
    ("lgamma", "lgamma", {}, _GAMMA),
    ("digamma", "digamma", {}, _GAMMA),
]


def run_unary(name, op, attrs, x, rng):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        X = paddle.static.data("x", list(x.shape), "float32")
        X.stop_gradient = False
        h = LayerHelper(op)
        out = h.create_variable_for_type_inference("float32")
        h.append_op(type=op, inputs={"X": X}, outputs={"Out": out}, attrs=dict(attrs))
        G = paddle.static.data("g", list(out.shape), "float32")
        dx, = paddle.static.gradients([out], [X], target_gradients=[G])
    gop = [o for o in main.global_block().ops if o.type == op + "_grad"]
    assert len(gop) == 1, [o.type for o in main.global_block().ops]
    slots = [k for k in gop[0].input_names if gop[0].input(k)]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    g = rng.standard_normal(list(out.shape)).astype("float32")
    ro, rdx = exe.run(main, feed={"x": x, "g": g}, fetch_list=[out, dx])
    return slots, (x, np.asarray(ro), g, np.asarray(rdx))


def attr_text(v):
    if isinstance(v, str):
        return "s:" + v
    if isinstance(v, bool):
        return "b:%d" % int(v)
    if isinstance(v, int):
        return "i:%d" % v
    if isinstance(v, (list, tuple)):
        return "L:" + ",".join(str(int(e)) for e in v)
    return "f:%r" % float(v)


def run_case(name, op, xs, ys, attrs, rng):
    x = rng.integers(-3, 4, xs).astype("float32") * 0.5  # small integers: many ties
    y = rng.integers(-3, 4, ys).astype("float32") * 0.5
    if op == "matmul":
        x = rng.standard_normal(xs).astype("float32")
        y = rng.standard_normal(ys).astype("float32")
    if op == "elementwise_pow":  # own generator: the earlier cases' data stay as they were
        rng = np.random.default_rng(21)
        x = rng.uniform(0.2, 2.0, xs).astype("float32")
        y = rng.uniform(-2.0, 3.0, ys).astype("float32")
        if name == "pow_zero_base":  # X = 0 against every kind of exponent, and X < 0
            x = np.array([0] * 10 + [-2, -2], "float32")
            y = np.array([-2, -1, -0.5, 0, -0.0, 0.5, 1, 1.5, 2, 3, 2, 3], "float32")
    if op == "prelu":  # own generator; X on a grid with zeros
        rng = np.random.default_rng(31)
        x = rng.integers(-3, 4, xs).astype("float32") * 0.5
        y = rng.uniform(0.05, 0.5, ys).astype("float32")
    attrs = dict(attrs)
    yslot = attrs.pop("yslot", "Y")
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        X = paddle.static.data("x", list(xs), "float32")
        Y = paddle.static.data("y", list(ys), "float32")
        X.stop_gradient = False
        Y.stop_gradient = False
        h = LayerHelper(op)
        out = h.create_variable_for_type_inference("float32")
        h.append_op(type=op, inputs={"X": X, yslot: Y}, outputs={"Out": out}, attrs=attrs)
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


# name, op, input shape, filter shape, attrs
CONV_CASES = [
    ("convt_plain", "conv2d_transpose", (2, 3, 4, 5), (3, 2, 3, 3),
     {"strides": [1, 1], "paddings": [0, 0], "dilations": [1, 1], "groups": 1,
      "padding_algorithm": "EXPLICIT", "data_format": "NCHW"}),
    ("convt_stride_pad_opad", "conv2d_transpose", (2, 4, 4, 5), (4, 3, 3, 2),
     {"strides": [2, 3], "paddings": [1, 0, 1, 1], "dilations": [2, 1], "groups": 2,
      "output_padding": [1, 2], "padding_algorithm": "EXPLICIT", "data_format": "NCHW"}),
    ("convt_nhwc_same", "conv2d_transpose", (2, 5, 4, 4), (4, 2, 3, 3),
     {"strides": [2, 2], "paddings": [0, 0], "dilations": [1, 1], "groups": 1,
      "padding_algorithm": "SAME", "data_format": "NHWC"}),
    ("convt_depthwise", "depthwise_conv2d_transpose", (2, 4, 5, 4), (4, 2, 3, 3),
     {"strides": [2, 1], "paddings": [1, 1], "dilations": [1, 2], "groups": 4,
      "padding_algorithm": "EXPLICIT", "data_format": "NCHW"}),
    # grid_sampler (slots X, Grid, Output): the grid in [-1.3, 1.3]
    ("gs_bilinear_zeros", "grid_sampler", (2, 3, 4, 5), (2, 3, 4, 2),
     {"mode": "bilinear", "padding_mode": "zeros", "align_corners": True}),
    ("gs_bilinear_border", "grid_sampler", (2, 3, 4, 5), (2, 3, 4, 2),
     {"mode": "bilinear", "padding_mode": "border", "align_corners": False}),
    ("gs_bilinear_reflection", "grid_sampler", (2, 3, 4, 5), (2, 3, 4, 2),
     {"mode": "bilinear", "padding_mode": "reflection", "align_corners": False}),
    ("gs_nearest", "grid_sampler", (2, 3, 4, 5), (2, 3, 4, 2),
     {"mode": "nearest", "padding_mode": "zeros", "align_corners": True}),
    ("gs_3d_reflection_align", "grid_sampler", (1, 2, 3, 4, 3), (1, 2, 2, 3, 3),
     {"mode": "bilinear", "padding_mode": "reflection", "align_corners": True}),
]
CONV_SLOTS = {"grid_sampler": ("X", "Grid", "Output")}


def run_conv(name, op, xs, fs, attrs, rng):
    x = rng.standard_normal(xs).astype("float32")
    f = rng.standard_normal(fs).astype("float32")
    xslot, fslot, oslot = CONV_SLOTS.get(op, ("Input", "Filter", "Output"))
    if op == "grid_sampler":
        f = (rng.uniform(-1.3, 1.3, fs)).astype("float32")
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        X = paddle.static.data("x", list(xs), "float32")
        F = paddle.static.data("f", list(fs), "float32")
        X.stop_gradient = False
        F.stop_gradient = False
        h = LayerHelper(op)
        out = h.create_variable_for_type_inference("float32")
        h.append_op(type=op, inputs={xslot: X, fslot: F}, outputs={oslot: out},
                    attrs=dict(attrs))
    exe = paddle.static.Executor(paddle.CPUPlace())
    (y,) = exe.run(main, feed={"x": x, "f": f}, fetch_list=[out])
    with paddle.static.program_guard(main, startup):
        G = paddle.static.data("g", list(np.shape(y)), "float32")
        dx, df = paddle.static.gradients([out], [X, F], target_gradients=[G])
    ops = [o.type for o in main.global_block().ops]
    assert op + "_grad" in ops, ops
    g = rng.standard_normal(np.shape(y)).astype("float32")
    rdx, rdf = exe.run(main, feed={"x": x, "f": f, "g": g}, fetch_list=[dx, df])
    return x, f, g, np.asarray(rdx), np.asarray(rdf)


# roi_align (conv_cases.txt too, files NAME.x, .y (ROIs), .n (RoisNum, int32), .g, .dx; no
# dy: ROIs get no gradient): two images, boxes inside, across and beyond the edges
ROI_BOXES = np.array([[0.6, 1.4, 8.2, 7.8], [2.4, 0.9, 11.3, 9.3], [-1.7, 0.3, 5.1, 12.1]],
                     "float32")
ROI_CASES = [
    ("roi_align_adaptive", {"pooled_height": 2, "pooled_width": 3, "spatial_scale": 0.5,
                            "sampling_ratio": -1, "aligned": False}),
    ("roi_align_aligned_s2", {"pooled_height": 3, "pooled_width": 2, "spatial_scale": 0.5,
                              "sampling_ratio": 2, "aligned": True}),
]


def run_roi(attrs, rng):
    x = rng.standard_normal((2, 2, 5, 6)).astype("float32")
    n = np.array([2, 1], "int32")
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        X = paddle.static.data("x", [2, 2, 5, 6], "float32")
        B = paddle.static.data("b", [3, 4], "float32")
        N = paddle.static.data("n", [2], "int32")
        X.stop_gradient = False
        h = LayerHelper("roi_align")
        out = h.create_variable_for_type_inference("float32")
        h.append_op(type="roi_align", inputs={"X": X, "ROIs": B, "RoisNum": N},
                    outputs={"Out": out}, attrs=dict(attrs))
        oshape = [3, 2, attrs["pooled_height"], attrs["pooled_width"]]
        G = paddle.static.data("g", oshape, "float32")
        dx, = paddle.static.gradients([out], [X], target_gradients=[G])
    assert "roi_align_grad" in [o.type for o in main.global_block().ops]
    exe = paddle.static.Executor(paddle.CPUPlace())
    g = rng.standard_normal(oshape).astype("float32")
    (rdx,) = exe.run(main, feed={"x": x, "b": ROI_BOXES, "n": n, "g": g}, fetch_list=[dx])
    return x, ROI_BOXES, n, g, np.asarray(rdx)


def conv_attr_text(v):
    return "s:" + v if isinstance(v, str) else attr_text(v)


def write_conv(out, head):
    lines = [head]
    crng = np.random.default_rng(17)
    for name, op, xs, fs, attrs in CONV_CASES:
        arrs = run_conv(name, op, xs, fs, attrs, crng)
        for suffix, a in zip(("x", "y", "g", "dx", "dy"), arrs):
            np.save(os.path.join(out, "%s.%s.npy" % (name, suffix)), a)
        kv = " ".join("%s=%s" % (k, conv_attr_text(v)) for k, v in attrs.items())
        lines.append("%s %s %s" % (name, op, kv))
    rrng = np.random.default_rng(19)
    for name, attrs in ROI_CASES:
        arrs = run_roi(attrs, rrng)
        for suffix, a in zip(("x", "y", "n", "g", "dx"), arrs):
            np.save(os.path.join(out, "%s.%s.npy" % (name, suffix)), a)
        kv = " ".join("%s=%s" % (k, conv_attr_text(v)) for k, v in attrs.items())
        lines.append("%s roi_align %s" % (name, kv))
    with open(os.path.join(out, "conv_cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    args = [a for a in sys.argv[1:] if a != "--conv-only"]
    out = args[0] if args else os.path.join(here, "..", "tests", "data", "grad_oracle")
    os.makedirs(out, exist_ok=True)
    paddle.enable_static()
    rng = np.random.default_rng(12)
    lines = ["# written by tools/gen_paddle_grad_oracle.py with PaddlePaddle " +
             paddle.__version__]
    write_conv(out, lines[0])
    if "--conv-only" in sys.argv:
        return
    for name, op, xs, ys, attrs in CASES:
        arrs = run_case(name, op, xs, ys, attrs, rng)
        for suffix, a in zip(("x", "y", "g", "dx", "dy"), arrs):
            np.save(os.path.join(out, "%s.%s.npy" % (name, suffix)), a)
        kv = " ".join("%s=%s" % (k, (int(v) if isinstance(v, bool) else v))
                      for k, v in attrs.items())
        lines.append("%s %s %s" % (name, op, kv))
    with open(os.path.join(out, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    lines = [lines[0]]
    urng = np.random.default_rng(13)  # its own: adding a binary case leaves these data alone
    for name, op, attrs, x in UNARY:
        slots, arrs = run_unary(name, op, attrs, x, urng)
        for suffix, a in zip(("x", "out", "g", "dx"), arrs):
            np.save(os.path.join(out, "%s.%s.npy" % (name, suffix)), a)
        kv = " ".join("%s=%s" % (k, attr_text(v)) for k, v in attrs.items())
        lines.append(("%s %s %s %s" % (name, op, ",".join(slots), kv)).rstrip())
    with open(os.path.join(out, "unary_cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
