#!/usr/bin/env python3
"""Write tests/data/grad_oracle_misc/: Paddle's own gradients for deformable_conv(_v1),
pad2d, set_value and the fake quantize-dequantize ops, which tests/test_ops_grad_misc.c
feeds to icore's grad ops.

Each case builds the forward op in a legacy static program, takes its gradients with
paddle.static.gradients against a fixed random upstream gradient G (the gradient of
loss = sum(out * G)), and records the grad op exactly as Paddle wrote it: its type, the
variables of its input slots (forward inputs and Out@GRAD = G), its attributes and the
gradients Paddle computed. Run it with both Paddle versions (Paddle 2.x's
stright_throuth_estimator_grad exists only in 2.6, and set_value_grad is taken from both;
the rest from 3.3.1, whose fake quantize grad ops are named <forward>_grad). pad2d has no
kernel in either version: its reference is pad3d's gradient with a depth of 1 (run_pad2d):

    /work/pdenv26/bin/python tools/gen_paddle_misc_grad_oracle.py 26
    FLAGS_enable_pir_api=0 /work/pdenv/bin/python tools/gen_paddle_misc_grad_oracle.py 33

With 26 it also writes sv26_program.*: a whole Paddle 2.x training program whose set_value
and set_value_grad ops read end -1 with a negative step as 2.x does (write_sv26_program).

Further keys name one op family's cases ("33m" for the math grads, say: run with that key,
Paddle 3.3.1, and it writes cases33m.txt beside the others); the test lists every key.

cases<VER>.txt: one line per case: NAME GRAD_OP IN_SLOTS OUT_SLOTS ATTR=T:VALUE..., the slot
lists comma-separated (grad op input slot j's tensor in NAME.i<j>.npy, Paddle's gradient for
output slot j in NAME.o<j>.npy), T one of f (float), i (int), b (bool), s (string),
L (list of ints); empty lists are left out.
"""
import os
import sys
import zlib

os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.base.layer_helper import LayerHelper  # noqa: E402

SKIP_ATTRS = {"op_role", "op_role_var", "op_namescope", "op_callstack", "op_device",
              "with_quant_attr"}


def dcn(name, mask, xs, ks, oc, attrs, seed, off_range=3.0):
    """deformable_conv(_v1): Input xs, Filter [oc, C / groups, kh, kw]; offsets uniform in
    +-off_range (samples land outside the image), mask in [0, 1)."""
    rng = np.random.default_rng(seed)
    n, c, h, w = xs
    kh, kw = ks
    s, p, d = attrs["strides"], attrs["paddings"], attrs["dilations"]
    oh = (h + 2 * p[0] - (d[0] * (kh - 1) + 1)) // s[0] + 1
    ow = (w + 2 * p[1] - (d[1] * (kw - 1) + 1)) // s[1] + 1
    dg = attrs["deformable_groups"]
    ins = {"Input": rng.standard_normal(xs).astype("float32"),
           "Offset": rng.uniform(-off_range, off_range, (n, 2 * dg * kh * kw, oh, ow)).astype(
               "float32"),
           "Filter": rng.standard_normal((oc, c // attrs["groups"], kh, kw)).astype("float32")}
    if mask:
        ins["Mask"] = rng.uniform(0, 1, (n, dg * kh * kw, oh, ow)).astype("float32")
    op = "deformable_conv" if mask else "deformable_conv_v1"
    return (name, op, ins, {}, ["Output"], attrs, list(ins))


def pad2d(name, mode, fmt, pads, tensor, seed):
    rng = np.random.default_rng(seed)
    shape = (2, 3, 4, 5) if fmt == "NCHW" else (2, 4, 5, 3)
    ins = {"X": rng.standard_normal(shape).astype("float32")}
    if tensor:
        ins["Paddings"] = np.array(pads, "int32")
    attrs = {"paddings": [0, 0, 0, 0] if tensor else pads, "mode": mode, "pad_value": 0.5,
             "data_format": fmt}
    return (name, "pad2d", ins, {}, ["Out"], attrs, ["X"])


def set_value(name, xs, vs, attrs, seed):
    rng = np.random.default_rng(seed)
    ins = {"Input": rng.standard_normal(xs).astype("float32")}
    diff = ["Input"]
    if vs is not None:
        ins["ValueTensor"] = rng.standard_normal(vs).astype("float32")
        diff.append("ValueTensor")
    a = {"axes": [], "starts": [], "ends": [], "steps": [], "decrease_axes": [], "none_axes": [],
         "shape": [], "dtype": 5}
    a.update(attrs)
    return (name, "set_value", ins, {}, ["Out"], a, diff)


def fq(name, op, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((3, 4, 5)).astype("float32")
    if op == "fake_channel_wise_quantize_dequantize_abs_max":
        return (name, op, {"X": x}, {}, ["Out", "OutScale"],
                {"bit_length": 8, "quant_axis": 1}, ["X"])
    ins = {"X": x, "InScale": np.array([1.5], "float32"), "InAccum": np.array([1.0], "float32"),
           "InState": np.array([1.0], "float32")}
    return (name, op, ins, {}, ["Out", "OutScale", "OutAccum", "OutState"],
            {"bit_length": 8, "moving_rate": 0.9, "is_test": False}, ["X"])


def k_rng(seed):
    return np.random.default_rng(1000 + seed)


def k_f(rng, *shape):
    return rng.standard_normal(shape).astype("float32")


def k_case(name, op, ins, outs, attrs, diff):
    """helper K's cases: ins as {slot: array}; integer/bool slots are fed, not differentiated."""
    return (name, op, ins, {}, outs, attrs, diff)


def k_cases():
    r = k_rng(0)
    c = []
    c.append(k_case("k_bmm", "bmm", {"X": k_f(r, 3, 2, 4), "Y": k_f(r, 3, 4, 5)}, ["Out"], {},
                    ["X", "Y"]))
    c.append(k_case("k_bmm_xonly", "bmm", {"X": k_f(r, 2, 3, 3), "Y": k_f(r, 2, 3, 2)}, ["Out"],
                    {}, ["X"]))
    c.append(k_case("k_dot_1d", "dot", {"X": k_f(r, 7), "Y": k_f(r, 7)}, ["Out"], {}, ["X", "Y"]))
    c.append(k_case("k_dot_2d", "dot", {"X": k_f(r, 3, 5), "Y": k_f(r, 3, 5)}, ["Out"], {},
                    ["X", "Y"]))
    c.append(k_case("k_dot_yonly", "dot", {"X": k_f(r, 2, 4), "Y": k_f(r, 2, 4)}, ["Out"], {},
                    ["Y"]))
    c.append(k_case("k_mv", "mv", {"X": k_f(r, 4, 6), "Vec": k_f(r, 6)}, ["Out"], {},
                    ["X", "Vec"]))
    c.append(k_case("k_addmm", "addmm", {"Input": k_f(r, 3, 5), "X": k_f(r, 3, 4),
                                         "Y": k_f(r, 4, 5)}, ["Out"],
                    {"Alpha": 0.7, "Beta": -1.5}, ["Input", "X", "Y"]))
    c.append(k_case("k_addmm_bcast_row", "addmm", {"Input": k_f(r, 1, 5), "X": k_f(r, 3, 4),
                                                   "Y": k_f(r, 4, 5)}, ["Out"],
                    {"Alpha": 2.0, "Beta": 0.5}, ["Input", "X", "Y"]))
    c.append(k_case("k_addmm_bcast_1d", "addmm", {"Input": k_f(r, 5), "X": k_f(r, 3, 4),
                                                  "Y": k_f(r, 4, 5)}, ["Out"],
                    {"Alpha": 1.0, "Beta": 1.0}, ["Input", "X", "Y"]))
    c.append(k_case("k_addmm_bcast_col", "addmm", {"Input": k_f(r, 3, 1), "X": k_f(r, 3, 4),
                                                   "Y": k_f(r, 4, 5)}, ["Out"],
                    {"Alpha": -1.0, "Beta": 3.0}, ["Input", "X", "Y"]))
    c.append(k_case("k_addmm_bcast_11", "addmm", {"Input": k_f(r, 1, 1), "X": k_f(r, 2, 4),
                                                  "Y": k_f(r, 4, 3)}, ["Out"],
                    {"Alpha": 1.0, "Beta": 2.0}, ["Input", "X"]))
    c.append(k_case("k_index_sample", "index_sample", {
        "X": k_f(r, 3, 5), "Index": np.array([[0, 4, 4, 1], [2, 2, 2, 2], [3, 0, 1, 4]], "int64")},
        ["Out"], {}, ["X"]))
    c.append(k_case("k_index_sample_i32", "index_sample", {
        "X": k_f(r, 2, 4), "Index": np.array([[3, 3], [0, 1]], "int32")}, ["Out"], {}, ["X"]))
    c.append(k_case("k_take_along_axis", "take_along_axis", {
        "Input": k_f(r, 3, 4, 2), "Index": r.integers(0, 4, (3, 3, 2)).astype("int64")},
        ["Result"], {"Axis": 1}, ["Input"]))
    c.append(k_case("k_take_along_axis_i32", "take_along_axis", {
        "Input": k_f(r, 3, 4), "Index": np.array([[1], [3], [3]], "int32")},
        ["Result"], {"Axis": 1}, ["Input"]))
    for red in ("assign", "add", "mul", "multiply", "mean", "amax", "amin"):
        for inc in (True, False):
            inp = k_f(r, 3, 4)
            val = k_f(r, 2, 4)
            idx = np.array([[0, 1, 2, 0], [0, 2, 2, 1]], "int64")
            if red in ("amax", "amin"):
                val[1, 0] = val[0, 0]  # two values tie at one position
                inp[0, 0] = val[0, 0]  # and tie the input
            c.append(k_case("k_put_along_axis_%s_%d" % (red, inc), "put_along_axis", {
                "Input": inp, "Index": idx, "Value": val}, ["Result"],
                {"Axis": 0, "Reduce": red, "Include_self": inc}, ["Input", "Value"]))
    m = np.array([[True, False, True], [False, False, True]])
    c.append(k_case("k_masked_select", "masked_select", {"X": k_f(r, 2, 3), "Mask": m}, ["Y"], {},
                    ["X"]))
    c.append(k_case("k_masked_select_bcast", "masked_select", {
        "X": k_f(r, 2, 3), "Mask": np.array([True, False, True])}, ["Y"], {}, ["X"]))
    c.append(k_case("k_roll_axes", "roll", {"X": k_f(r, 3, 4, 2)}, ["Out"],
                    {"shifts": [1, -5], "axis": [0, -2]}, ["X"]))
    c.append(k_case("k_roll_flat", "roll", {"X": k_f(r, 3, 4)}, ["Out"],
                    {"shifts": [5], "axis": []}, ["X"]))
    c.append(k_case("k_roll_tensor", "roll", {"X": k_f(r, 3, 4),
                                              "ShiftsTensor": np.array([2, -1], "int64")},
                    ["Out"], {"shifts": [0, 0], "axis": [1, 0]}, ["X"]))
    c.append(k_case("k_flip", "flip", {"X": k_f(r, 2, 3, 4)}, ["Out"], {"axis": [0, -1]}, ["X"]))
    # Index smaller than Input off the axis (dims 0 and 2)
    c.append(k_case("k_take_along_axis_small", "take_along_axis", {
        "Input": k_f(r, 3, 4, 3), "Index": r.integers(0, 4, (2, 5, 2)).astype("int64")},
        ["Result"], {"Axis": 1}, ["Input"]))
    c.append(k_case("k_take_along_axis_small4", "take_along_axis", {
        "Input": k_f(r, 2, 3, 4, 3), "Index": r.integers(0, 3, (2, 2, 3, 2)).astype("int64")},
        ["Result"], {"Axis": 1}, ["Input"]))
    c.append(k_case("k_put_along_axis_small", "put_along_axis", {
        "Input": k_f(r, 3, 4, 3), "Index": r.integers(0, 4, (2, 2, 2)).astype("int64"),
        "Value": k_f(r, 2, 2, 2)}, ["Result"], {"Axis": 1, "Reduce": "add",
                                                "Include_self": True}, ["Input", "Value"]))
    c.append(k_case("k_masked_select_xbcast", "masked_select", {
        "X": k_f(r, 1, 3), "Mask": np.array([[True, False, True], [True, True, False]])},
        ["Y"], {}, ["X"]))
    c.append(k_case("k_index_add", "index_add", {
        "X": k_f(r, 3, 4), "Index": np.array([1, 3, 1], "int64"), "AddValue": k_f(r, 3, 3)},
        ["Out"], {"axis": 1}, ["X", "AddValue"]))
    c.append(k_case("k_index_add_neg", "index_add", {
        "X": k_f(r, 4, 2), "Index": np.array([0, -1], "int32"), "AddValue": k_f(r, 2, 2)},
        ["Out"], {"axis": -2}, ["X", "AddValue"]))
    for ow in (True, False):
        c.append(k_case("k_scatter_ow%d" % ow, "scatter", {
            "X": k_f(r, 5, 3), "Ids": np.array([1, 3, 1, 0], "int64"), "Updates": k_f(r, 4, 3)},
            ["Out"], {"overwrite": ow}, ["X", "Updates"]))
    c.append(k_case("k_scatter_i32", "scatter", {
        "X": k_f(r, 4, 2), "Ids": np.array([2, 0], "int32"), "Updates": k_f(r, 2, 2)},
        ["Out"], {"overwrite": True}, ["X", "Updates"]))
    c.append(k_case("k_scatter_nd_add", "scatter_nd_add", {
        "X": k_f(r, 3, 4, 2), "Index": np.array([[1, 2], [0, 0], [1, 2]], "int64"),
        "Updates": k_f(r, 3, 2)}, ["Out"], {}, ["X", "Updates"]))
    c.append(k_case("k_scatter_nd_add_rows", "scatter_nd_add", {
        "X": k_f(r, 4, 3), "Index": np.array([[[3], [1]], [[3], [0]]], "int32"),
        "Updates": k_f(r, 2, 2, 3)}, ["Out"], {}, ["X", "Updates"]))
    c.append(k_case("k_repeat_interleave_int", "repeat_interleave", {"X": k_f(r, 3, 4)}, ["Out"],
                    {"Repeats": 3, "dim": 1}, ["X"]))
    c.append(k_case("k_repeat_interleave_tensor", "repeat_interleave", {
        "X": k_f(r, 3, 4), "RepeatsTensor": np.array([2, 0, 3], "int64")}, ["Out"],
        {"Repeats": 0, "dim": -2}, ["X"]))
    c.append(k_case("k_repeat_interleave_i32", "repeat_interleave", {
        "X": k_f(r, 2, 3), "RepeatsTensor": np.array([1, 2, 1], "int32")}, ["Out"],
        {"Repeats": 0, "dim": 1}, ["X"]))

    return c


def k_cases2():
    r = k_rng(1)
    c = []
    for lower, dg in ((True, 0), (True, -1), (False, 1), (False, -2)):
        c.append(k_case("k_tril_triu_%s_%d" % ("l" if lower else "u", dg), "tril_triu",
                        {"X": k_f(r, 2, 3, 4)}, ["Out"], {"diagonal": dg, "lower": lower},
                        ["X"]))
    c.append(k_case("k_diagonal", "diagonal", {"Input": k_f(r, 3, 4)}, ["Out"],
                    {"offset": 1, "axis1": 0, "axis2": 1}, ["Input"]))
    c.append(k_case("k_diagonal_3d", "diagonal", {"Input": k_f(r, 3, 2, 4)}, ["Out"],
                    {"offset": -1, "axis1": 2, "axis2": -3}, ["Input"]))
    c.append(k_case("k_diag_v2_vec", "diag_v2", {"X": k_f(r, 3)}, ["Out"],
                    {"offset": -1, "padding_value": 2.0}, ["X"]))
    c.append(k_case("k_diag_v2_mat", "diag_v2", {"X": k_f(r, 3, 4)}, ["Out"],
                    {"offset": 2, "padding_value": 0.0}, ["X"]))
    c.append(k_case("k_trace", "trace", {"Input": k_f(r, 3, 4)}, ["Out"],
                    {"offset": 1, "axis1": 0, "axis2": 1}, ["Input"]))
    c.append(k_case("k_trace_3d", "trace", {"Input": k_f(r, 2, 3, 3)}, ["Out"],
                    {"offset": -1, "axis1": -1, "axis2": 1}, ["Input"]))
    c.append(k_case("k_kron", "kron", {"X": k_f(r, 2, 3), "Y": k_f(r, 2, 2)}, ["Out"], {},
                    ["X", "Y"]))
    c.append(k_case("k_kron_rank", "kron", {"X": k_f(r, 3), "Y": k_f(r, 2, 2, 2)}, ["Out"], {},
                    ["X", "Y"]))
    c.append(k_case("k_cross", "cross", {"X": k_f(r, 3, 4), "Y": k_f(r, 3, 4)}, ["Out"],
                    {"dim": 0}, ["X", "Y"]))
    c.append(k_case("k_cross_neg", "cross", {"X": k_f(r, 2, 3), "Y": k_f(r, 2, 3)}, ["Out"],
                    {"dim": -1}, ["X", "Y"]))
    c.append(k_case("k_meshgrid", "meshgrid", {"X": [k_f(r, 2), k_f(r, 3), k_f(r, 4)]},
                    [("Out", 3)], {}, ["X"]))
    c.append(k_case("k_broadcast_tensors", "broadcast_tensors", {
        "X": [k_f(r, 2, 1, 4), k_f(r, 3, 1), k_f(r, 2, 3, 4)]}, [("Out", 3)], {}, ["X"]))
    c.append(k_case("k_unfold", "unfold", {"X": k_f(r, 2, 2, 5, 6)}, ["Y"], {
        "kernel_sizes": [2, 3], "strides": [2, 1], "paddings": [1, 0, 1, 2],
        "dilations": [1, 2]}, ["X"]))
    c.append(k_case("k_fold", "fold", {"X": k_f(r, 2, 8, 12)}, ["Y"], {
        "output_sizes": [4, 5], "kernel_sizes": [2, 2], "strides": [1, 1],
        "paddings": [0, 0, 0, 0], "dilations": [1, 1]}, ["X"]))
    c.append(k_case("k_fold_pad", "fold", {"X": k_f(r, 1, 4, 9)}, ["Y"], {
        "output_sizes": [4, 4], "kernel_sizes": [2, 2], "strides": [2, 2],
        "paddings": [1, 1, 1, 1], "dilations": [1, 1]}, ["X"]))
    c.append(k_case("k_crop_tensor", "crop_tensor", {"X": k_f(r, 3, 5, 4)}, ["Out"], {
        "shape": [2, -1, 2], "offsets": [1, 1, 2]}, ["X"]))
    c.append(k_case("k_crop_tensor_t", "crop_tensor", {
        "X": k_f(r, 4, 5), "Shape": np.array([2, 3], "int32"),
        "Offsets": np.array([2, 1], "int32")}, ["Out"], {"shape": [], "offsets": []}, ["X"]))
    c.append(k_case("k_crop_tensor_list", "crop_tensor", {
        "X": k_f(r, 4, 5), "OffsetsTensor": [np.array([1], "int64"), np.array([3], "int64")],
        "ShapeTensor": [np.array([3], "int32"), np.array([2], "int32")]}, ["Out"],
        {"shape": [], "offsets": []}, ["X"]))
    c.append(k_case("k_multiplex", "multiplex", {
        "X": [k_f(r, 4, 3), k_f(r, 4, 3), k_f(r, 4, 3)],
        "Ids": np.array([[2], [0], [2], [1]], "int32")}, ["Out"], {}, ["X"]))
    return c


def k_cases3():
    r = k_rng(2)
    c = []
    x = k_f(r, 3, 5)
    x[1, 2] = x[1, 4]  # a tie
    c.append(k_case("k_kthvalue", "kthvalue", {"X": x}, ["Out", "Indices"],
                    {"k": 2, "axis": 1, "keepdim": False}, ["X"]))
    c.append(k_case("k_kthvalue_keep", "kthvalue", {"X": k_f(r, 4, 3, 2)}, ["Out", "Indices"],
                    {"k": 3, "axis": -3, "keepdim": True}, ["X"]))
    m = np.array([[1, 2, 2, 3, 1], [4, 4, 4, 0, 0], [5, 6, 7, 8, 9]], "float32")
    c.append(k_case("k_mode", "mode", {"X": m}, ["Out", "Indices"],
                    {"axis": -1, "keepdim": False}, ["X"]))
    c.append(k_case("k_mode_keep", "mode", {"X": m.T.copy()}, ["Out", "Indices"],
                    {"axis": 0, "keepdim": True}, ["X"]))
    cm = np.array([[1, 3, 3, 2, 5], [0, -1, 0, 4, 4]], "float32")
    for op in ("cummax", "cummin"):
        c.append(k_case("k_%s" % op, op, {"x": cm}, ["out", "indices"],
                        {"axis": 1, "dtype": 3}, ["x"]))
        c.append(k_case("k_%s_ax0" % op, op, {"x": k_f(r, 4, 3)}, ["out", "indices"],
                        {"axis": -2, "dtype": 2}, ["x"]))
    t = np.array([[1, 5, 5, 2], [3, 3, 3, 3], [0, -1, 2, 2]], "float32")
    for op in ("reduce_amax", "reduce_amin"):
        c.append(k_case("k_%s" % op, op, {"X": t}, ["Out"],
                        {"dim": [1], "keep_dim": False, "reduce_all": False}, ["X"]))
        c.append(k_case("k_%s_all" % op, op, {"X": t}, ["Out"],
                        {"dim": [0, 1], "keep_dim": True, "reduce_all": True}, ["X"]))
        c.append(k_case("k_%s_ax0" % op, op, {"X": t}, ["Out"],
                        {"dim": [-2], "keep_dim": True, "reduce_all": False}, ["X"]))
    a = k_f(r, 2, 3, 3) + 3 * np.eye(3, dtype="float32")
    c.append(k_case("k_inverse", "inverse", {"Input": a}, ["Output"], {}, ["Input"]))
    b = k_f(r, 3, 3) * 0.5 + np.eye(3, dtype="float32")
    for n in (3, 1, 0, -1, -2):
        c.append(k_case("k_matrix_power_%s" % str(n).replace("-", "m"), "matrix_power",
                        {"X": b}, ["Out"], {"n": n}, ["X"]))
    c.append(k_case("k_matrix_power_batch", "matrix_power", {"X": k_f(r, 2, 2, 2)}, ["Out"],
                    {"n": 2}, ["X"]))
    c.append(k_case("k_determinant", "determinant", {"Input": k_f(r, 2, 3, 3)}, ["Out"], {},
                    ["Input"]))
    sing = np.array([[[1, 2, 3], [2, 4, 6], [0, 1, 1]], [[2, 0, 0], [0, 1, 0], [0, 0, 3]]],
                    "float32")
    c.append(k_case("k_determinant_singular", "determinant", {"Input": sing}, ["Out"], {},
                    ["Input"]))
    c.append(k_case("k_slogdeterminant_singular", "slogdeterminant", {"Input": sing}, ["Out"],
                    {}, ["Input"]))
    c.append(k_case("k_slogdeterminant", "slogdeterminant", {"Input": k_f(r, 2, 3, 3)},
                    ["Out"], {}, ["Input"]))
    c.append(k_case("k_bilinear_tp", "bilinear_tensor_product", {
        "X": k_f(r, 3, 4), "Y": k_f(r, 3, 2), "Weight": k_f(r, 5, 4, 2),
        "Bias": k_f(r, 1, 5)}, ["Out"], {}, ["X", "Y", "Weight", "Bias"]))
    c.append(k_case("k_bilinear_tp_nobias", "bilinear_tensor_product", {
        "X": k_f(r, 2, 3), "Y": k_f(r, 2, 3), "Weight": k_f(r, 2, 3, 3)}, ["Out"], {},
        ["X", "Weight"]))
    for nm, eq, shapes in (("mm", "ij,jk->ik", [(2, 3), (3, 4)]),
                           ("batch", "bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
                           ("trace", "ii->", [(3, 3)]),
                           ("outer", "i,j->ij", [(3,), (2,)]),
                           ("sum", "ijk->j", [(2, 3, 2)]),
                           ("bcast1", "bi,bi->b", [(1, 3), (4, 3)]),
                           ("groups", "acbd,dcbe->ae", [(2, 4, 3, 5), (5, 4, 3, 6)]),
                           ("batch2", "xbyc,cybz->ybxz", [(2, 3, 4, 5), (5, 4, 3, 6)]),
                           ("reduce", "ijm,jk->ik", [(2, 3, 2), (3, 4)]),
                           ("bcast_free", "ij,jk->ijk", [(2, 1), (3, 4)]),
                           # "...ij,...jk->...ik" on [2, 2, 3] and [3, 2] as paddle.einsum
                           # writes it: "..." -> l, the second operand unsqueezed to [1, 3, 2]
                           ("ellipsis", "lij,ljk->lik", [(2, 2, 3), (1, 3, 2)])):
        c.append(k_case("k_einsum_" + nm, "einsum",
                        {"Operands": [k_f(r, *sh) for sh in shapes]},
                        ["Out", ("InnerCache", len(shapes)), ("XShape", len(shapes))],
                        {"equation": eq}, ["Operands"]))
    return c
def j_arr(rng, shape, lo, hi, dtype="float32"):
    return rng.uniform(lo, hi, shape).astype(dtype)


def j_un(name, op, shape, lo, hi, seed, attrs=None):
    """A unary op with X in [lo, hi)."""
    rng = np.random.default_rng(seed)
    return (name, op, {"X": j_arr(rng, shape, lo, hi)}, {}, ["Out"], dict(attrs or {}), ["X"])


def j_kldiv(name, reduction, log_target, seed):
    """kldiv_loss on [4, 5]: Target with zeros and negatives (the Target > 0 mask) unless
    log_target."""
    rng = np.random.default_rng(seed)
    x = j_arr(rng, (4, 5), -2, 0)
    t = j_arr(rng, (4, 5), -1, 1) if log_target else j_arr(rng, (4, 5), -0.3, 1)
    if not log_target:
        t[0, :2] = 0
    return (name, "kldiv_loss", {"X": x, "Target": t}, {}, ["Loss"],
            {"reduction": reduction, "log_target": log_target}, ["X"])


def j_nll(name, shape, reduction, weight, ignore, seed):
    """nll_loss: X [N, C] or [N, C, H, W]; labels in [0, C), some set to ignore_index."""
    rng = np.random.default_rng(seed)
    c = shape[1]
    x = j_arr(rng, shape, -3, 0)
    lab = rng.integers(0, c, (shape[0],) + tuple(shape[2:])).astype("int64")
    if ignore is not None and 0 <= ignore < c:  # ignore_index only where placed below
        lab = np.where(lab == ignore, (ignore + 1) % c, lab)
    if ignore is not None and reduction == "none":
        lab.reshape(-1)[::3] = ignore
    elif ignore is not None:
        # Paddle 3.3.1's forward kernel (2-D and 4-D) writes 0 to Out[i] for each ignored label
        # i even when Out is one element (sum, mean): past its end, which corrupts the heap,
        # except at element 0 (then overwritten by the sum)
        lab.reshape(-1)[0] = ignore
    ins = {"X": x, "Label": lab}
    if weight:
        ins["Weight"] = j_arr(rng, (c,), 0.2, 2)
    return (name, "nll_loss", ins, {}, ["Out", "Total_weight"],
            {"reduction": reduction, "ignore_index": -100 if ignore is None else ignore}, ["X"])


def j_bin(name, op, xs, ys, lo, hi, seed, diff=("X", "Y"), attrs=None, slots=("X", "Y")):
    rng = np.random.default_rng(seed)
    return (name, op, {slots[0]: j_arr(rng, xs, lo, hi), slots[1]: j_arr(rng, ys, lo, hi)}, {},
            ["Out"], dict(attrs or {}), list(diff))


def j_cumprod(name, shape, attrs, seed):
    """cumprod with zeros in X: one zero in some scan lines, two in another."""
    rng = np.random.default_rng(seed)
    x = j_arr(rng, shape, -1.5, 1.5)
    flat = x.reshape(-1)
    flat[[1, 7, 8]] = 0
    flat[-2] = 0
    return (name, "cumprod", {"X": x}, {}, ["Out"], dict(attrs), ["X"])


def j_dist(name, xs, ys, p, seed, ties=False):
    rng = np.random.default_rng(seed)
    x, y = j_arr(rng, xs, -2, 2), j_arr(rng, ys, -2, 2)
    if ties:  # two elements of |x - y| at the same extreme, one of them of the other sign;
        # on a grid of 1/8, so x - y and the norm are exact in float32 and float64 alike
        x, y = np.round(x * 8) / 8, np.round(y * 8) / 8
        x.reshape(-1)[0] = y.reshape(-1)[0] + 5.0
        x.reshape(-1)[1] = y.reshape(-1)[1] - 5.0
        x.reshape(-1)[2] = y.reshape(-1)[2]
    return (name, "dist", {"X": x, "Y": y}, {}, ["Out"], {"p": p}, ["X", "Y"])


def j_lerp(name, xs, ys, ws, seed, diff=("X", "Y")):
    rng = np.random.default_rng(seed)
    return (name, "lerp", {"X": j_arr(rng, xs, -2, 2), "Y": j_arr(rng, ys, -2, 2),
                           "Weight": j_arr(rng, ws, -0.5, 1.5)}, {}, ["Out"], {}, list(diff))


def j_fsel(name, op, xs, ys, seed):
    """fmax / fmin / heaviside with ties, NaN on either side and on both, zeros in X."""
    rng = np.random.default_rng(seed)
    x, y = j_arr(rng, xs, -2, 2), j_arr(rng, ys, -2, 2)
    xf, yf = x.reshape(-1), y.reshape(-1)
    yb = np.broadcast_to(y, x.shape).reshape(-1)
    if op == "elementwise_heaviside":
        xf[[0, 3, 5]] = 0
    else:
        xf[0], xf[2] = yb[0], yb[2]  # ties
        xf[5] = np.nan
        yf[1] = np.nan
        xf[1] = np.nan  # both NaN where y[1] is used first
    return (name, op, {"X": x, "Y": y}, {}, ["Out"], {}, ["X", "Y"])


def j_maxout(name, shape, groups, axis, seed):
    """maxout with ties inside groups (the first equal element takes the gradient)."""
    rng = np.random.default_rng(seed)
    x = np.round(j_arr(rng, shape, -2, 2) * 2) / 2  # coarse values: many ties
    return (name, "maxout", {"X": x.astype("float32")}, {}, ["Out"],
            {"groups": groups, "axis": axis}, ["X"])


def j_cvm(name, use_cvm, seed):
    rng = np.random.default_rng(seed)
    x = j_arr(rng, (4, 5), 0, 3)
    cvm = j_arr(rng, (4, 2), 0, 5)
    return (name, "cvm", {"X": x, "CVM": cvm}, {}, ["Y"], {"use_cvm": use_cvm}, ["X"])


def j_logloss(name, eps, seed):
    rng = np.random.default_rng(seed)
    p = j_arr(rng, (6, 1), 0.01, 0.99)
    lab = j_arr(rng, (6, 1), 0, 1)
    lab[:2, 0] = [0, 1]
    return (name, "log_loss", {"Predicted": p, "Labels": lab}, {}, ["Loss"], {"epsilon": eps},
            ["Predicted"])


def j_fixed(name, op, ins, attrs, diff, outs=("Out",)):
    """A case on given inputs (float32 unless given otherwise)."""
    ins = {k: np.asarray(v, dtype=getattr(v, "dtype", "float32")) for k, v in ins.items()}
    return (name, op, ins, {}, list(outs), dict(attrs), list(diff))
# ---- helper M's grad ops (key "33m") ----
def m_case(name, op, ins, outs, attrs, diff, seed=None):
    return (name, op, ins, {}, outs, attrs, diff)


def m_rand(seed, shape, lo=-1.0, hi=1.0):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype("float32")


def m_c3t(name, xs, fs, attrs, seed):
    a = {"strides": [1, 1, 1], "paddings": [0, 0, 0], "padding_algorithm": "EXPLICIT",
         "dilations": [1, 1, 1], "groups": 1, "output_padding": [], "output_size": [],
         "data_format": "NCDHW"}
    a.update(attrs)
    ins = {"Input": m_rand(seed, xs), "Filter": m_rand(seed + 1, fs)}
    return m_case(name, "conv3d_transpose", ins, ["Output"], a, ["Input", "Filter"])


def m_unpool_idx(seed, n, c, h, w, k, dt):
    """For each input position, a flat index inside its k x k window of the output plane."""
    rng = np.random.default_rng(seed)
    ow = w * k[1]
    hh = np.arange(h)[:, None] * k[0] + rng.integers(0, k[0], (n, c, h, w))
    ww = np.arange(w)[None, :] * k[1] + rng.integers(0, k[1], (n, c, h, w))
    return (hh * ow + ww).astype(dt)


def m_unpool3d_idx(seed, shape):
    """For each input voxel, a flat index inside its 2 x 2 x 2 window of the output volume."""
    rng = np.random.default_rng(seed)
    n, c, d, h, w = shape
    zz = np.arange(d)[:, None, None] * 2 + rng.integers(0, 2, shape)
    yy = np.arange(h)[None, :, None] * 2 + rng.integers(0, 2, shape)
    xx = np.arange(w)[None, None, :] * 2 + rng.integers(0, 2, shape)
    return ((zz * 2 * h + yy) * 2 * w + xx).astype("int32")


def m_mpi(name, op, xs, attrs, seed, ties=False):
    x = m_rand(seed, xs, -2, 2)
    if ties:
        x = np.round(x * 2) / 2
    a = {"global_pooling": False, "adaptive": False, "paddings": [0] * (len(xs) - 2),
         "strides": [1] * (len(xs) - 2)}
    a.update(attrs)
    return m_case(name, op, {"X": x.astype("float32")}, ["Out", "Mask"], a, ["X"])


def m_gru(name, b, d, bias, attrs, seed):
    ins = {"Input": m_rand(seed, (b, 3 * d)), "HiddenPrev": m_rand(seed + 1, (b, d)),
           "Weight": m_rand(seed + 2, (d, 3 * d))}
    if bias:
        ins["Bias"] = m_rand(seed + 3, (1, 3 * d))
    return m_case(name, "gru_unit", ins, ["Hidden", "Gate", "ResetHiddenPrev"], attrs,
                  list(ins))


def m_dn(name, xs, attrs, seed):
    """data_norm: statistics of a few hundred rows, scale_w and bias when shifting; with
    slot_dim the shows (first column of each slot) of some slots are 0 in some rows."""
    rng = np.random.default_rng(seed)
    n, c = xs
    x = rng.uniform(-2, 2, xs).astype("float32")
    if attrs["slot_dim"] > 0:
        for r in range(n):
            for j in range(0, c, attrs["slot_dim"]):
                x[r, j] = 0.0 if (r + j) % 3 == 0 else abs(x[r, j]) + 1
    ins = {"X": x, "BatchSize": np.full(c, 100.0, "float32") + rng.integers(0, 5, c),
           "BatchSum": rng.uniform(-20, 20, c).astype("float32"),
           "BatchSquareSum": rng.uniform(80, 120, c).astype("float32")}
    ins["BatchSize"] = ins["BatchSize"].astype("float32")
    if attrs["enable_scale_and_shift"]:
        ins["scale_w"] = rng.uniform(0.5, 1.5, c).astype("float32")
        ins["bias"] = rng.uniform(-1, 1, c).astype("float32")
    a = {"epsilon": 1e-4, "summary_decay_rate": 0.9999999, "sync_stats": False,
         "data_layout": "NCHW"}
    a.update(attrs)
    return m_case(name, "data_norm", ins, ["Y", "Means", "Scales"], a, list(ins))


M_CASES = [
    m_c3t("m_c3t_basic", (2, 4, 3, 4, 3), (4, 3, 2, 3, 2),
          {"strides": [2, 1, 2], "paddings": [1, 0, 1], "dilations": [1, 2, 1],
           "output_padding": [1, 0, 1]}, 101),
    m_c3t("m_c3t_groups_ndhwc", (2, 3, 4, 3, 4), (4, 2, 3, 2, 2),
          {"strides": [1, 2, 2], "paddings": [1, 0, 0, 1, 2, 1], "groups": 2,
           "data_format": "NHWC"}, 103),
    m_c3t("m_c3t_same", (1, 2, 3, 5, 4), (2, 3, 3, 2, 3),
          {"strides": [2, 2, 1], "padding_algorithm": "SAME", "dilations": [2, 1, 2]}, 105),
    m_c3t("m_c3t_valid_osize", (1, 2, 3, 3, 2), (2, 2, 2, 2, 2),
          {"strides": [2, 3, 2], "paddings": [1, 1, 1], "padding_algorithm": "VALID",
           "output_size": [7, 9, 5]}, 107),
    m_case("m_lrn_nchw", "lrn", {"X": m_rand(111, (2, 7, 3, 4), -2, 2)}, ["Out", "MidOut"],
           {"n": 5, "k": 1.5, "alpha": 0.02, "beta": 0.75, "data_format": "NCHW"}, ["X"]),
    m_case("m_lrn_nhwc", "lrn", {"X": m_rand(112, (2, 3, 4, 6), -2, 2)}, ["Out", "MidOut"],
           {"n": 3, "k": 1.0, "alpha": 0.3, "beta": 1.25, "data_format": "NHWC"}, ["X"]),
    m_case("m_lrn_n7_wide", "lrn", {"X": m_rand(113, (1, 4, 2, 3), -2, 2)}, ["Out", "MidOut"],
           {"n": 7, "k": 2.0, "alpha": 0.1, "beta": 0.5, "data_format": "AnyLayout"}, ["X"]),
    m_case("m_lrn_n1", "lrn", {"X": m_rand(114, (1, 3, 2, 2), -2, 2)}, ["Out", "MidOut"],
           {"n": 1, "k": 0.5, "alpha": 1.0, "beta": 2.0, "data_format": "NCHW"}, ["X"]),
    m_case("m_pixel_unshuffle_nchw", "pixel_unshuffle", {"X": m_rand(121, (2, 3, 4, 6))},
           ["Out"], {"downscale_factor": 2, "data_format": "NCHW"}, ["X"]),
    m_case("m_pixel_unshuffle_nhwc", "pixel_unshuffle", {"X": m_rand(122, (1, 6, 3, 2))},
           ["Out"], {"downscale_factor": 3, "data_format": "NHWC"}, ["X"]),
    m_case("m_channel_shuffle_nchw", "channel_shuffle", {"X": m_rand(123, (2, 6, 2, 3))},
           ["Out"], {"groups": 3, "data_format": "NCHW"}, ["X"]),
    m_case("m_channel_shuffle_nhwc", "channel_shuffle", {"X": m_rand(124, (2, 2, 3, 8))},
           ["Out"], {"groups": 2, "data_format": "NHWC"}, ["X"]),
    m_case("m_affine_grid_align", "affine_grid", {"Theta": m_rand(131, (2, 2, 3))}, ["Output"],
           {"output_shape": [2, 3, 4, 5], "align_corners": True}, ["Theta"]),
    m_case("m_affine_grid_noalign", "affine_grid", {"Theta": m_rand(132, (2, 2, 3))},
           ["Output"], {"output_shape": [2, 1, 3, 6], "align_corners": False}, ["Theta"]),
    m_case("m_affine_grid_tensor", "affine_grid",
           {"Theta": m_rand(133, (3, 2, 3)), "OutputShape": np.array([3, 2, 5, 2], "int32")},
           ["Output"], {"output_shape": [], "align_corners": False}, ["Theta"]),
    m_case("m_affine_grid_3d", "affine_grid", {"Theta": m_rand(134, (2, 3, 4))}, ["Output"],
           {"output_shape": [2, 1, 3, 4, 2], "align_corners": True}, ["Theta"]),
    m_case("m_affine_grid_3d_noalign", "affine_grid", {"Theta": m_rand(135, (1, 3, 4))},
           ["Output"], {"output_shape": [1, 2, 2, 3, 4], "align_corners": False}, ["Theta"]),
    m_case("m_unpool_i32", "unpool",
           {"X": m_rand(141, (2, 3, 2, 3)),
            "Indices": m_unpool_idx(142, 2, 3, 2, 3, (2, 2), "int32")}, ["Out"],
           {"unpooling_type": "max", "ksize": [2, 2], "strides": [2, 2], "paddings": [0, 0],
            "output_size": [4, 6], "data_format": "NCHW"}, ["X"]),
    m_case("m_unpool_i64_pad", "unpool",
           {"X": m_rand(143, (1, 2, 3, 2)),
            "Indices": m_unpool_idx(144, 1, 2, 3, 2, (3, 2), "int64")}, ["Out"],
           {"unpooling_type": "max", "ksize": [3, 2], "strides": [3, 2], "paddings": [0, 0],
            "output_size": [9, 4], "data_format": "NCHW"}, ["X"]),
    m_case("m_unpool3d", "unpool3d",
           {"X": m_rand(145, (1, 2, 2, 2, 3)), "Indices": m_unpool3d_idx(146, (1, 2, 2, 2, 3))},
           ["Out"], {"unpooling_type": "max", "ksize": [2, 2, 2], "strides": [2, 2, 2],
                     "paddings": [0, 0, 0], "output_size": [4, 4, 6],
                     "data_format": "NCDHW"}, ["X"]),
    m_mpi("m_mpi2d_pad", "max_pool2d_with_index", (2, 3, 5, 6),
          {"ksize": [3, 3], "strides": [2, 2], "paddings": [1, 1]}, 151, ties=True),
    m_mpi("m_mpi2d_overlap", "max_pool2d_with_index", (1, 2, 4, 5),
          {"ksize": [3, 2], "strides": [1, 1]}, 152, ties=True),
    m_mpi("m_mpi2d_adaptive", "max_pool2d_with_index", (2, 2, 5, 7),
          {"ksize": [2, 3], "adaptive": True}, 153),
    m_mpi("m_mpi2d_global", "max_pool2d_with_index", (2, 3, 3, 4),
          {"ksize": [2, 2], "global_pooling": True}, 154, ties=True),
    m_mpi("m_mpi3d_pad", "max_pool3d_with_index", (1, 2, 4, 5, 4),
          {"ksize": [2, 3, 2], "strides": [2, 2, 1], "paddings": [1, 1, 0]}, 155, ties=True),
    m_mpi("m_mpi3d_adaptive", "max_pool3d_with_index", (2, 1, 3, 5, 4),
          {"ksize": [2, 2, 3], "adaptive": True}, 156),
    m_mpi("m_mpi2d_ceil", "max_pool2d_with_index", (1, 2, 5, 6),
          {"ksize": [2, 3], "strides": [2, 2], "paddings": [0, 1], "ceil_mode": True}, 158,
          ties=True),
    m_case("m_shuffle_channel", "shuffle_channel", {"X": m_rand(125, (2, 6, 2, 2))}, ["Out"],
           {"group": 2}, ["X"]),
    m_case("m_roi_pool_num", "roi_pool",
           {"X": m_rand(161, (2, 3, 6, 7), -2, 2),
            "ROIs": np.array([[0.4, 1.2, 5.6, 4.4], [2, 2, 2, 2], [1.5, 0.2, 9.6, 7.7],
                              [-2, -1, 3.4, 2.5], [3, 1, 6, 5]], "float32"),
            "RoisNum": np.array([2, 3], "int32")}, ["Out", "Argmax"],
           {"pooled_height": 3, "pooled_width": 2, "spatial_scale": 1.0}, ["X"]),
    m_case("m_roi_pool_scale", "roi_pool",
           {"X": np.round(m_rand(162, (2, 2, 5, 5), -2, 2) * 2) / 2,
            "ROIs": np.array([[0, 0, 9, 9], [3.2, 2.1, 7.9, 8.8], [1, 5, 5, 8]], "float32"),
            "RoisNum": np.array([1, 2], "int32")}, ["Out", "Argmax"],
           {"pooled_height": 4, "pooled_width": 3, "spatial_scale": 0.5}, ["X"]),
    m_case("m_psroi_pool_num", "psroi_pool",
           {"X": m_rand(163, (2, 8, 5, 6), -2, 2),
            "ROIs": np.array([[0.4, 1.2, 4.6, 3.4], [2, 2, 2, 2], [1.5, 0.2, 9.6, 7.7],
                              [-2, -1, 3.4, 2.5]], "float32"),
            "RoisNum": np.array([1, 3], "int32")}, ["Out"],
           {"pooled_height": 2, "pooled_width": 2, "output_channels": 2,
            "spatial_scale": 1.0}, ["X"]),
    m_case("m_psroi_pool_scale", "psroi_pool",
           {"X": m_rand(164, (1, 18, 4, 5), -2, 2),
            "ROIs": np.array([[0, 0, 9, 7], [3.2, 2.1, 7.9, 8.8]], "float32"),
            "RoisNum": np.array([2], "int32")}, ["Out"],
           {"pooled_height": 3, "pooled_width": 3, "output_channels": 2,
            "spatial_scale": 0.5}, ["X"]),
    m_case("m_spectral_norm_dim0", "spectral_norm",
           {"Weight": m_rand(171, (4, 3, 2)), "U": m_rand(172, (4,)), "V": m_rand(173, (6,))},
           ["Out"], {"dim": 0, "power_iters": 2, "eps": 1e-12}, ["Weight"]),
    m_case("m_spectral_norm_dim1", "spectral_norm",
           {"Weight": m_rand(174, (3, 5, 2, 2)), "U": m_rand(175, (5,)),
            "V": m_rand(176, (12,))},
           ["Out"], {"dim": 1, "power_iters": 3, "eps": 1e-4}, ["Weight"]),
    m_case("m_spectral_norm_iters0", "spectral_norm",
           {"Weight": m_rand(177, (3, 4)), "U": m_rand(178, (3,)), "V": m_rand(179, (4,))},
           ["Out"], {"dim": 0, "power_iters": 0, "eps": 1e-12}, ["Weight"]),
    m_gru("m_gru_unit_default", 3, 4, True, {"activation": 2, "gate_activation": 1,
                                             "origin_mode": False}, 181),
    m_gru("m_gru_unit_origin", 2, 3, True, {"activation": 2, "gate_activation": 1,
                                            "origin_mode": True}, 182),
    m_gru("m_gru_unit_relu_id", 3, 2, False, {"activation": 3, "gate_activation": 0,
                                              "origin_mode": False}, 183),
    m_gru("m_gru_unit_id_tanh", 2, 3, True, {"activation": 0, "gate_activation": 2,
                                             "origin_mode": True}, 184),
    m_case("m_row_conv_batch", "row_conv",
           {"X": m_rand(191, (2, 5, 3)), "Filter": m_rand(192, (3, 3))}, ["Out"], {},
           ["X", "Filter"]),
    m_case("m_row_conv_long_ctx", "row_conv",
           {"X": m_rand(193, (3, 2, 2)), "Filter": m_rand(194, (4, 2))}, ["Out"], {},
           ["X", "Filter"]),
    m_case("m_im2sequence_pad", "im2sequence", {"X": m_rand(195, (2, 2, 5, 4))}, ["Out"],
           {"kernels": [2, 3], "strides": [2, 1], "paddings": [1, 0, 1, 2],
            "out_stride": [1, 1]}, ["X"]),
    m_case("m_im2sequence_overlap", "im2sequence", {"X": m_rand(196, (1, 3, 4, 4))}, ["Out"],
           {"kernels": [3, 3], "strides": [1, 1], "paddings": [0, 0, 0, 0],
            "out_stride": [1, 1]}, ["X"]),
    m_mpi("m_mpi3d_global", "max_pool3d_with_index", (1, 2, 2, 3, 2),
          {"ksize": [1, 1, 1], "global_pooling": True}, 157),
]


def m_interp(name, op, xs, attrs, seed, ins=None):
    a = {"data_layout": "NCHW", "out_d": -1, "out_h": -1, "out_w": -1,
         "align_corners": False, "align_mode": 1, "scale": 0.0,
         "interp_method": op.split("_")[0]}
    a.update(attrs)
    i = {"X": m_rand(seed, xs)}
    i.update(ins or {})
    return m_case(name, op, i, ["Out"], a, ["X"])


# Paddle 2.6.2: the v1 interpolate ops (3.3.1 no longer registers them)
M26_CASES = [
    m_interp("m26_linear_up_mode0", "linear_interp", (2, 3, 5), {"out_w": 8, "align_mode": 0},
             201),
    m_interp("m26_linear_down_mode1", "linear_interp", (2, 2, 7), {"out_w": 3}, 202),
    m_interp("m26_linear_align", "linear_interp", (1, 2, 4), {"out_w": 9,
             "align_corners": True}, 203),
    m_interp("m26_linear_scale", "linear_interp", (1, 3, 5), {"scale": 1.7, "align_mode": 0},
             204),
    m_interp("m26_linear_outsize_nwc", "linear_interp", (2, 4, 3),
             {"data_layout": "NHWC", "align_mode": 0}, 205,
             {"OutSize": np.array([6], "int32")}),
    m_interp("m26_linear_scale_tensor_down", "linear_interp", (1, 2, 8), {"align_mode": 1},
             206, {"Scale": np.array([0.6], "float32")}),
    m_interp("m26_trilinear_mode0", "trilinear_interp", (1, 2, 3, 4, 3),
             {"out_d": 5, "out_h": 3, "out_w": 4, "align_mode": 0}, 211),
    m_interp("m26_trilinear_align", "trilinear_interp", (1, 2, 2, 3, 4),
             {"out_d": 3, "out_h": 5, "out_w": 2, "align_corners": True}, 212),
    m_interp("m26_trilinear_scale", "trilinear_interp", (1, 1, 3, 2, 3), {"scale": 1.5}, 213),
    m_interp("m26_trilinear_outsize_ndhwc", "trilinear_interp", (1, 3, 2, 4, 2),
             {"data_layout": "NHWC"}, 214,
             {"OutSize": np.array([4, 2, 5], "int32")}),
    m_interp("m26_bicubic_align", "bicubic_interp", (2, 2, 4, 5),
             {"out_h": 7, "out_w": 3, "align_corners": True}, 221),
    m_interp("m26_bicubic_noalign", "bicubic_interp", (1, 2, 4, 5), {"out_h": 3, "out_w": 9},
             222),
    m_interp("m26_bicubic_scale", "bicubic_interp", (1, 2, 3, 4), {"scale": 1.7}, 223),
    m_interp("m26_bicubic_scale_tensor_down", "bicubic_interp", (1, 1, 6, 7), {}, 225,
             {"Scale": np.array([0.6], "float32")}),
    m_dn("m26_data_norm_plain", (4, 6), {"slot_dim": -1, "enable_scale_and_shift": False}, 231),
    m_dn("m26_data_norm_shift", (3, 4), {"slot_dim": -1, "enable_scale_and_shift": True}, 232),
    m_dn("m26_data_norm_slots", (4, 6), {"slot_dim": 3, "enable_scale_and_shift": False}, 233),
    m_dn("m26_data_norm_slots_shift", (4, 6), {"slot_dim": 2, "enable_scale_and_shift": True},
         234),
    m_interp("m26_bicubic_outsize_nhwc", "bicubic_interp", (1, 3, 4, 2),
             {"data_layout": "NHWC"}, 224,
             {"OutSize": np.array([6, 5], "int32")}),
]


DCN_A = {"strides": [2, 2], "paddings": [1, 1], "dilations": [2, 2], "groups": 2,
         "deformable_groups": 2, "im2col_step": 1}
CASES = {
    "33": [
        dcn("dcn_v2_g2_dg2", True, (2, 4, 7, 6), (3, 3), 6, DCN_A, 1),
        dcn("dcn_v1_g2_dg2", False, (2, 4, 7, 6), (3, 3), 6, DCN_A, 2),
        dcn("dcn_v2_plain", True, (1, 3, 5, 5), (2, 3), 2,
            {"strides": [1, 1], "paddings": [0, 1], "dilations": [1, 1], "groups": 1,
             "deformable_groups": 1, "im2col_step": 1}, 3, 1.5),
        # im2col_step 2 over a batch of 2: Paddle's grad reads Output@GRAD per block as
        # [C_out, step, OH * OW] (deform_conv_grad.c)
        dcn("dcn_v2_step2", True, (2, 2, 5, 5), (3, 3), 4,
            {"strides": [1, 1], "paddings": [1, 1], "dilations": [1, 1], "groups": 1,
             "deformable_groups": 1, "im2col_step": 2}, 4),
        # large enough (C * KK * OH * OW >= 4096) for the kernel to use its intra-op threads
        dcn("dcn_v2_threads", True, (2, 4, 11, 11), (3, 3), 4,
            {"strides": [1, 1], "paddings": [1, 1], "dilations": [1, 1], "groups": 2,
             "deformable_groups": 1, "im2col_step": 1}, 5),
        set_value("sv_step_neg", (5, 6, 4), (1, 4), {
            "axes": [0, 2], "starts": [-4, 0], "ends": [5, 4], "steps": [2, 1]}, 11),
        set_value("sv_decrease_bcast", (4, 5, 6), (3,), {
            "axes": [0, 2], "starts": [-1, 1], "ends": [4, 6], "steps": [1, 2],
            "decrease_axes": [0]}, 12),
        set_value("sv_negstep", (6, 5), (3, 1), {
            "axes": [0], "starts": [-1], "ends": [0], "steps": [-2]}, 13),
        set_value("sv_none_lead", (4, 5), (1, 2, 5), {
            "axes": [0], "starts": [1], "ends": [3], "steps": [1], "none_axes": [0]}, 14),
        # a none axis after a sliced dim: Paddle's ValueTensor@GRAD ignores none_axes
        # (set_value_grad.c)
        set_value("sv_none_mid", (4, 5), (2, 1, 5), {
            "axes": [0], "starts": [1], "ends": [3], "steps": [1], "none_axes": [1]}, 16),
        set_value("sv_attr_value", (4, 5), None, {
            "axes": [1], "starts": [-3], "ends": [5], "steps": [2], "shape": [1],
            "fp32_values": [2.0]}, 15),
        fq("fq_cw", "fake_channel_wise_quantize_dequantize_abs_max", 21),
        fq("fq_mavg", "fake_quantize_dequantize_moving_average_abs_max", 22),
        pad2d("pad2d_const_nchw", "constant", "NCHW", [1, 2, 0, 3], False, 31),
        pad2d("pad2d_reflect_nchw", "reflect", "NCHW", [2, 1, 3, 4], False, 32),
        pad2d("pad2d_edge_nchw", "edge", "NCHW", [3, 0, 2, 5], False, 33),
        pad2d("pad2d_const_nhwc", "constant", "NHWC", [2, 0, 1, 1], False, 34),
        pad2d("pad2d_reflect_nhwc", "reflect", "NHWC", [3, 2, 1, 4], False, 35),
        pad2d("pad2d_edge_nhwc_tensor", "edge", "NHWC", [1, 4, 6, 2], True, 36),
        pad2d("pad2d_reflect_tensor", "reflect", "NCHW", [3, 3, 4, 4], True, 37),
    ],
    "33j": [
        j_un("j_log_softmax_ax1", "log_softmax", (3, 4, 5), -2, 2, 1, {"axis": 1}),
        j_un("j_log_softmax_last", "log_softmax", (4, 6), -3, 3, 2, {"axis": -1}),
        j_un("j_log_softmax_ax0", "log_softmax", (5, 2, 3), -3, 3, 3, {"axis": -3}),
        j_un("j_logsumexp_ax02", "logsumexp", (3, 4, 5), -2, 2, 4,
             {"axis": [0, 2], "keepdim": False, "reduce_all": False}),
        j_un("j_logsumexp_keep", "logsumexp", (3, 4, 5), -2, 2, 5,
             {"axis": [-1], "keepdim": True, "reduce_all": False}),
        j_un("j_logsumexp_all", "logsumexp", (3, 4), -2, 2, 6,
             {"axis": [0], "keepdim": False, "reduce_all": True}),
        j_un("j_logsumexp_every", "logsumexp", (2, 3, 2, 2), -2, 2, 7,
             {"axis": [0, 1, 2, 3], "keepdim": True, "reduce_all": False}),
        j_kldiv("j_kldiv_none", "none", False, 11),
        j_kldiv("j_kldiv_sum", "sum", False, 12),
        j_kldiv("j_kldiv_mean", "mean", False, 13),
        j_kldiv("j_kldiv_batchmean", "batchmean", False, 14),
        j_kldiv("j_kldiv_logt_none", "none", True, 15),
        j_kldiv("j_kldiv_logt_batchmean", "batchmean", True, 16),
        j_kldiv("j_kldiv_logt_mean", "mean", True, 17),
        j_nll("j_nll_2d_mean_w_ign", (6, 4), "mean", True, 1, 21),
        j_nll("j_nll_2d_sum", (5, 3), "sum", False, None, 22),
        j_nll("j_nll_2d_none_w", (5, 4), "none", True, 2, 23),
        j_nll("j_nll_2d_mean", (5, 4), "mean", False, None, 24),
        j_nll("j_nll_4d_mean_w", (2, 3, 3, 4), "mean", True, None, 25),
        j_nll("j_nll_4d_none_ign", (2, 3, 2, 3), "none", False, 0, 26),
        j_nll("j_nll_4d_sum_w_ign", (2, 4, 2, 2), "sum", True, 3, 27),
        j_un("j_tan", "tan", (3, 5), -1.3, 1.3, 31),
        j_un("j_asin", "asin", (3, 5), -0.95, 0.95, 32),
        j_un("j_acos", "acos", (3, 5), -0.95, 0.95, 33),
        j_un("j_atan", "atan", (3, 5), -4, 4, 34),
        j_un("j_sinh", "sinh", (3, 5), -3, 3, 35),
        j_un("j_cosh", "cosh", (3, 5), -3, 3, 36),
        j_un("j_asinh", "asinh", (3, 5), -4, 4, 37),
        j_un("j_acosh", "acosh", (3, 5), 1.1, 4, 38),
        j_un("j_atanh", "atanh", (3, 5), -0.9, 0.9, 39),
        j_un("j_expm1", "expm1", (3, 5), -2, 2, 40),
        j_un("j_erfinv", "erfinv", (3, 5), -0.95, 0.95, 41),
        j_un("j_logit_eps0", "logit", (4, 5), -0.2, 1.2, 42, {"eps": 0.0}),
        j_un("j_logit_eps", "logit", (4, 5), 0.0, 1.0, 43, {"eps": 0.1}),
        j_un("j_trunc", "trunc", (3, 5), -3, 3, 44),
        j_bin("j_atan2", "atan2", (3, 4), (3, 4), -2, 2, 45, ("X1", "X2"), slots=("X1", "X2")),
        j_bin("j_atan2_x1only", "atan2", (2, 3, 2), (2, 3, 2), -2, 2, 46, ("X1",),
              slots=("X1", "X2")),
        j_cumprod("j_cumprod_dim1", (3, 4, 2), {"dim": 1}, 51),
        j_cumprod("j_cumprod_excl", (4, 3), {"dim": 0, "exclusive": True}, 52),
        j_cumprod("j_cumprod_rev", (2, 3, 4), {"dim": -1, "reverse": True}, 53),
        j_cumprod("j_cumprod_excl_rev", (3, 5), {"dim": 1, "exclusive": True, "reverse": True},
                  54),
        j_un("j_lcse_ax1", "logcumsumexp", (3, 4, 2), -2, 2, 55,
             {"axis": 1, "flatten": False, "exclusive": False, "reverse": False}),
        j_un("j_lcse_rev_excl", "logcumsumexp", (3, 5), -2, 2, 56,
             {"axis": -1, "flatten": False, "exclusive": True, "reverse": True}),
        j_un("j_lcse_flat", "logcumsumexp", (2, 3, 2), -2, 2, 57,
             {"axis": -1, "flatten": True, "exclusive": False, "reverse": True}),
        j_un("j_lcse_excl0", "logcumsumexp", (4, 3), -2, 2, 58,
             {"axis": 0, "flatten": False, "exclusive": True, "reverse": False}),
        j_lerp("j_lerp_bcast", (2, 3, 4), (3, 4), (4,), 61),
        j_lerp("j_lerp_outer", (3, 1), (1, 4), (3, 4), 62),
        j_lerp("j_lerp_xonly", (2, 3), (2, 3), (1,), 63, ("X",)),
        j_dist("j_dist_p2", (2, 3), (3,), 2.0, 64),
        j_dist("j_dist_p3", (3, 1), (1, 4), 3.0, 65),
        j_dist("j_dist_p0", (2, 3), (2, 3), 0.0, 66),
        j_dist("j_dist_inf", (2, 3), (3,), float("inf"), 67, ties=True),
        j_dist("j_dist_ninf", (2, 3), (2, 3), float("-inf"), 68, ties=True),
        j_dist("j_dist_p1_5", (4,), (2, 4), 1.5, 69),
        j_un("j_fnorm_dim1", "frobenius_norm", (3, 4, 2), -2, 2, 71,
             {"dim": [1], "keep_dim": False, "reduce_all": False}),
        j_un("j_fnorm_keep", "frobenius_norm", (3, 4, 2), -2, 2, 72,
             {"dim": [0, -1], "keep_dim": True, "reduce_all": False}),
        j_un("j_fnorm_all", "frobenius_norm", (3, 4), -2, 2, 73,
             {"dim": [0], "keep_dim": False, "reduce_all": True}),
        j_un("j_renorm_p2", "renorm", (3, 4, 2), -2, 2, 74, {"p": 2.0, "axis": 1, "max_norm": 3.0}),
        j_un("j_renorm_p1", "renorm", (4, 3), -2, 2, 75, {"p": 1.0, "axis": 0, "max_norm": 3.5}),
        j_un("j_renorm_p3", "renorm", (2, 3, 4), -2, 2, 76, {"p": 3.0, "axis": 2, "max_norm": 2.45}),
        j_fsel("j_fmax_bcast", "elementwise_fmax", (2, 3, 4), (3, 4), 81),
        j_fsel("j_fmax_same", "elementwise_fmax", (3, 4), (3, 4), 82),
        j_fsel("j_fmin_bcast", "elementwise_fmin", (2, 3, 4), (4,), 83),
        j_fsel("j_fmin_same", "elementwise_fmin", (3, 4), (3, 4), 84),
        j_fsel("j_heaviside_bcast", "elementwise_heaviside", (2, 3, 4), (3, 4), 85),
        j_fsel("j_heaviside_same", "elementwise_heaviside", (3, 4), (3, 4), 86),
        j_logloss("j_logloss_eps", 1e-4, 87),
        j_logloss("j_logloss_eps2", 0.05, 88),
        j_maxout("j_maxout_nchw", (2, 4, 3, 3), 2, 1, 89),
        j_maxout("j_maxout_nhwc", (2, 3, 2, 6), 3, -1, 90),
        j_maxout("j_maxout_ax3", (1, 2, 3, 4), 2, 3, 91),
        j_cvm("j_cvm_use", True, 92),
        j_cvm("j_cvm_nouse", False, 93),
        j_fixed("j_log_softmax_0d", "log_softmax", {"X": np.float32(0.7)}, {"axis": -1}, ["X"]),
        j_fixed("j_cumprod_0d", "cumprod", {"X": np.float32(-1.5)}, {"dim": 0}, ["X"]),
        j_un("j_asin_nan", "asin", (3, 4), -1.5, 1.5, 94),
        j_un("j_acosh_nan", "acosh", (3, 4), 0.0, 3.0, 95),
        j_fixed("j_logit_edges", "logit",
                {"X": np.array([0, 1, 0.1, 0.9, 0.5, -0.1, 1.1, 0.09, 0.91], "float32")},
                {"eps": 0.1}, ["X"]),
        j_fixed("j_atan2_zero", "atan2", {"X1": np.array([[0, 1, 0], [-2, 0, 3]], "float32"),
                                          "X2": np.array([[0, 0, -1], [0, 2, 0]], "float32")},
                {}, ["X1", "X2"]),
        j_fixed("j_dist_p05_zero", "dist", {"X": np.array([[1, 2, 3], [0.5, -1, 2]], "float32"),
                                            "Y": np.array([1, 0, 2], "float32")},
                {"p": 0.5}, ["X", "Y"]),
        j_fixed("j_renorm_p1_zeros", "renorm",
                {"X": np.array([[0, 1, -2], [3, 0, 0.5], [-1, 2, 0]], "float32")},
                {"p": 1.0, "axis": 1, "max_norm": 2.5}, ["X"]),
    ],
    "33m": M_CASES,
    "26m": M26_CASES,
    "26": [
        set_value("sv26_step_neg_bcast", (5, 6, 4), (1, 4), {
            "axes": [0, 2], "starts": [-4, 0], "ends": [5, 4], "steps": [2, 1]}, 41),
        set_value("sv26_decrease", (4, 5, 6), (3,), {
            "axes": [0, 2], "starts": [-2, 1], "ends": [-1, 6], "steps": [1, 2],
            "decrease_axes": [0]}, 42),
        fq("fq26_cw", "fake_channel_wise_quantize_dequantize_abs_max", 43),
        fq("fq26_mavg", "fake_quantize_dequantize_moving_average_abs_max", 44),
    ],
    "33k": k_cases() + k_cases2() + k_cases3(),
}


# ---- helper P's grad ops (key "p7"): Paddle 3's gammaln, gammaincc, swiglu, reduce_as,
# lp_pool2d and fractional max pooling ----
def p_rand(seed, shape, lo=-1.0, hi=1.0):
    return np.random.default_rng(5000 + seed).uniform(lo, hi, shape).astype("float32")


def p_lp(name, xs, p, k, s, pad, algo, ceil, fmt, seed, lo=-1.0):
    attrs = {"kernel_size": k, "strides": s, "paddings": pad, "ceil_mode": ceil,
             "exclusive": True, "data_format": fmt, "pooling_type": "lp",
             "global_pooling": False, "adaptive": False, "padding_algorithm": algo,
             "norm_type": float(p)}
    return (name, "lp_pool2d", {"x": p_rand(seed, xs, lo, 1.0)}, {}, ["out"], attrs, ["x"])


def p_fmp(name, nd, xs, out, k, u, seed):
    attrs = {"output_size": out, "kernel_size": k, "random_u": u, "return_mask": True}
    return (name, "fractional_max_pool%dd" % nd, {"x": p_rand(seed, xs)}, {}, ["out", "mask"],
            attrs, ["x"])


def p_lus(name, bs, trans, seed):
    """lu_solve on the LU factors (numpy, partial pivoting as getrf) of a well-conditioned
    random matrix: b, lu and the 1-based int32 pivots fed; gradients for b and lu."""
    n = bs[-2]
    rng = np.random.default_rng(6000 + seed)
    batch = bs[:-2]
    a = rng.uniform(-1, 1, batch + (n, n)) + 2 * np.eye(n)
    lus, pivs = [], []
    for m in a.reshape(-1, n, n):
        m = m.copy()
        piv = np.zeros(n, "int32")
        for j in range(n):
            q = j + int(np.argmax(np.abs(m[j:, j])))
            piv[j] = q + 1
            m[[j, q]] = m[[q, j]]
            m[j + 1:, j] /= m[j, j]
            m[j + 1:, j + 1:] -= np.outer(m[j + 1:, j], m[j, j + 1:])
        lus.append(m)
        pivs.append(piv)
    ins = {"b": rng.uniform(-1, 1, bs).astype("float32"),
           "lu": np.array(lus).reshape(a.shape).astype("float32"),
           "pivots": np.array(pivs).reshape(batch + (n,)).astype("int32")}
    return (name, "lu_solve", ins, {}, ["out"], {"trans": trans}, ["b", "lu"])


P7_CASES = [
    ("p7_gammaln", "gammaln", {"x": np.array([[0.5, 1.0, 2.5, 7.0], [-0.5, -1.5, 1e-3, 30.0]],
                                             "float32")}, {}, ["out"], {}, ["x"]),
    ("p7_gammaincc", "gammaincc", {"x": p_rand(1, (3, 4), 0.5, 4.0),
                                   "y": p_rand(2, (3, 4), 0.1, 5.0)}, {}, ["out"], {}, ["y"]),
    ("p7_swiglu_split", "swiglu", {"x": p_rand(3, (3, 8), -4, 4)}, {}, ["out"], {}, ["x"]),
    ("p7_swiglu_xy", "swiglu", {"x": p_rand(4, (2, 3, 4), -4, 4), "y": p_rand(5, (2, 3, 4))},
     {}, ["out"], {}, ["x", "y"]),
    ("p7_reduce_as", "reduce_as", {"x": p_rand(6, (2, 3, 4)), "target": p_rand(7, (3, 1))},
     {}, ["out"], {}, ["x"]),
    ("p7_reduce_as_same", "reduce_as", {"x": p_rand(8, (2, 3)), "target": p_rand(9, (2, 3))},
     {}, ["out"], {}, ["x"]),
    p_lp("p7_lp_pool2d_p2", (2, 3, 5, 6), 2.0, [2, 2], [2, 2], [0, 0], "EXPLICIT", False,
         "NCHW", 10),
    p_lp("p7_lp_pool2d_p3_pad_ceil", (1, 2, 5, 5), 3.0, [3, 3], [2, 2], [1, 1], "EXPLICIT",
         True, "NCHW", 11, 0.1),
    p_lp("p7_lp_pool2d_p15_same_nhwc", (1, 5, 6, 2), 1.5, [2, 3], [1, 2], [0, 0], "SAME",
         False, "NHWC", 12, 0.1),
    p_lp("p7_lp_pool2d_inf_pad", (1, 2, 4, 5), float("inf"), [2, 2], [1, 1], [1, 0],
         "EXPLICIT", False, "NCHW", 17),
    ("p7_svdvals", "svdvals", {"x": p_rand(18, (4, 3))}, {}, ["s"], {}, ["x"]),
    ("p7_svdvals_batch", "svdvals", {"x": p_rand(19, (2, 3, 5))}, {}, ["s"], {}, ["x"]),
    p_lus("p7_lu_solve_n", (3, 2), "N", 20),
    p_lus("p7_lu_solve_t", (2, 4, 3), "T", 21),
    p_fmp("p7_fmp2d_disjoint", 2, (2, 2, 7, 6), [3, 4], [0, 0], 0.3, 13),
    p_fmp("p7_fmp2d_kernel", 2, (1, 3, 6, 6), [3, 3], [2, 3], 0.6, 14),
    p_fmp("p7_fmp3d", 3, (1, 2, 4, 5, 6), [2, 3, 3], [0, 0, 0], 0.45, 15),
    p_fmp("p7_fmp3d_kernel", 3, (1, 1, 5, 4, 6), [2, 2, 3], [2, 1, 2], 0.8, 16),
]
CASES["p7"] = P7_CASES


def attr_text(v):
    if isinstance(v, str):
        return "s:" + v
    if isinstance(v, bool):
        return "b:%d" % int(v)
    if isinstance(v, int):
        return "i:%d" % v
    if isinstance(v, (list, tuple)):
        if not v:
            return None
        if all(isinstance(e, int) and not isinstance(e, bool) for e in v):
            return "L:" + ",".join(str(e) for e in v)
        return None
    if isinstance(v, float):
        return "f:%r" % v
    return None


PAD3D_MODE = {"constant": "constant", "reflect": "reflect", "edge": "replicate"}


def run_pad2d(case, out_dir, grng):
    """No Paddle at hand has a pad2d kernel (2.6 keeps the op without kernels, 3.x dropped
    it): the reference is pad3d's gradient on the same data with an unpadded depth of 1,
    written as the pad2d_grad op Paddle 2.x's grad maker emits (X, Paddings, Out@GRAD)."""
    name, _, ins, _, _, attrs, _ = case
    x = ins["X"]
    cl = attrs["data_format"] == "NHWC"
    pads = [int(v) for v in ins["Paddings"]] if "Paddings" in ins else attrs["paddings"]
    x5 = x[:, None] if cl else x[:, :, None]
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        X = paddle.static.data("x", list(x5.shape), "float32")
        X.stop_gradient = False
        h = LayerHelper("pad3d")
        out = h.create_variable_for_type_inference("float32")
        h.append_op(type="pad3d", inputs={"X": X}, outputs={"Out": out},
                    attrs={"paddings": [pads[2], pads[3], pads[0], pads[1], 0, 0],
                           "mode": PAD3D_MODE[attrs["mode"]], "value": attrs["pad_value"],
                           "data_format": "NDHWC" if cl else "NCDHW"})
    exe = paddle.static.Executor(paddle.CPUPlace())
    (y,) = exe.run(main, feed={"x": x5}, fetch_list=[out])
    with paddle.static.program_guard(main, startup):
        G = paddle.static.data("g", list(np.shape(y)), "float32")
        (dx,) = paddle.static.gradients([out], [X], target_gradients=[G])
    assert "pad3d_grad" in [o.type for o in main.global_block().ops]
    g = grng.standard_normal(np.shape(y)).astype("float32")
    (rdx,) = exe.run(main, feed={"x": x5, "g": g}, fetch_list=[dx])
    g4 = g[:, 0] if cl else g[:, :, 0]
    rdx4 = np.asarray(rdx)[:, 0] if cl else np.asarray(rdx)[:, :, 0]
    islots = ["X"] + (["Paddings"] if "Paddings" in ins else []) + ["Out@GRAD"]
    arrs = [x] + ([ins["Paddings"]] if "Paddings" in ins else []) + [g4]
    for j, a in enumerate(arrs):
        np.save(os.path.join(out_dir, "%s.i%d.npy" % (name, j)), a)
    np.save(os.path.join(out_dir, "%s.o0.npy" % name), rdx4)
    kv = ["%s=%s" % (k, attr_text(attrs[k])) for k in sorted(attrs)]
    return "%s pad2d_grad %s X@GRAD %s" % (name, ",".join(islots), " ".join(kv))


def k_run(case, out_dir, grng):
    """run() for cases with duplicable slots: an input given as a list of arrays feeds one
    variable each, an output given as (slot, n) makes n variables, each a gradient target with
    its own random upstream gradient. The grad op's slots list every variable in order (a slot
    name repeated once per variable)."""
    name, op, ins, _, outs, attrs, diff = case
    main, startup = paddle.static.Program(), paddle.static.Program()
    feed = {}
    with paddle.static.program_guard(main, startup):
        vs = {}
        for k, a in ins.items():
            arrs = a if isinstance(a, list) else [a]
            lst = []
            for j, arr in enumerate(arrs):
                nm = "in_%s_%d" % (k.lower(), j)
                v = paddle.static.data(nm, list(arr.shape), str(arr.dtype))
                v.stop_gradient = k not in diff
                feed[nm] = arr
                lst.append(v)
            vs[k] = lst if isinstance(a, list) else lst[0]
        h = LayerHelper(op)
        ov = {}
        for o in outs:
            if isinstance(o, tuple):
                ov[o[0]] = [h.create_variable_for_type_inference("float32") for _ in range(o[1])]
            else:
                ov[o] = h.create_variable_for_type_inference("float32")
        h.append_op(type=op, inputs=vs, outputs=ov, attrs=dict(attrs))
    first = outs[0][0] if isinstance(outs[0], tuple) else outs[0]
    targets = ov[first] if isinstance(ov[first], list) else [ov[first]]
    exe = paddle.static.Executor(paddle.CPUPlace())
    ys = exe.run(main, feed=feed, fetch_list=targets)
    dvars = []
    for k in diff:
        dvars += vs[k] if isinstance(vs[k], list) else [vs[k]]
    with paddle.static.program_guard(main, startup):
        gs = []
        for j, (t, y) in enumerate(zip(targets, ys)):
            shp = list(t.shape)
            gs.append(paddle.static.data("g%d" % j, shp if min(shp + [0]) < 0 else
                                         list(np.shape(y)), "float32"))
            feed["g%d" % j] = grng.standard_normal(np.shape(y)).astype("float32")
        paddle.static.gradients(targets, dvars, target_gradients=gs)
    gops = [o for o in main.global_block().ops if o.type.endswith("_grad")]
    assert len(gops) == 1, [o.type for o in main.global_block().ops]
    gop = gops[0]
    islots, ivars, oslots, ovars = [], [], [], []
    for k in gop.input_names:
        for v in gop.input(k):
            islots.append(k)
            ivars.append(v)
    for k in gop.output_names:
        for v in gop.output(k):
            if v != "@EMPTY@":
                oslots.append(k)
                ovars.append(v)
    # einsum_grad's x_shape (einsum's XShape) holds no data in Paddle, only the operands'
    # dims: it is written as zeros of those dims
    xsh = {v: np.zeros(a.shape, "float32") for k, v in zip(islots, ivars) if k == "x_shape"
           for a in [ins["Operands"][[w for kk, w in zip(islots, ivars)
                                       if kk == "x_shape"].index(v)]]}
    fetch = [v for v in ivars if v not in xsh] + ovars
    got = dict(zip(fetch, exe.run(main, feed=feed, fetch_list=fetch)))
    res = [xsh[v] if v in xsh else got[v] for v in ivars] + [got[v] for v in ovars]
    for j in range(len(ivars)):
        np.save(os.path.join(out_dir, "%s.i%d.npy" % (name, j)), np.asarray(res[j]))
    for j in range(len(ovars)):
        np.save(os.path.join(out_dir, "%s.o%d.npy" % (name, j)), np.asarray(res[len(ivars) + j]))
    kv = []
    for k in sorted(gop.attr_names):
        if k in SKIP_ATTRS:
            continue
        t = attr_text(gop.attr(k))
        if t is not None:
            kv.append("%s=%s" % (k, t))
    return "%s %s %s %s %s" % (name, gop.type, ",".join(islots), ",".join(oslots), " ".join(kv))
def exe_run(exe, main, feed, fetch):
    """exe.run, or, when a fetched tensor has a LoD (im2sequence's Out), its data without it."""
    try:
        return exe.run(main, feed=feed, fetch_list=fetch)
    except RuntimeError as e:
        if "LoD" not in str(e):
            raise
        return [np.array(t) for t in exe.run(main, feed=feed, fetch_list=fetch,
                                             return_numpy=False)]


def run(case, out_dir, grng):
    name, op, ins, _, outs, attrs, diff = case
    if any(isinstance(v, list) for v in ins.values()) or any(isinstance(o, tuple) for o in outs):
        return k_run(case, out_dir, grng)
    if op == "pad2d":
        return run_pad2d(case, out_dir, grng)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        vs = {}
        for k, a in ins.items():
            v = paddle.static.data("in_" + k.lower(), list(a.shape), str(a.dtype))
            v.stop_gradient = k not in diff
            vs[k] = v
        h = LayerHelper(op)
        ov = {k: h.create_variable_for_type_inference("float32") for k in outs}
        h.append_op(type=op, inputs=vs, outputs=ov, attrs=dict(attrs))
    exe = paddle.static.Executor(paddle.CPUPlace())
    feed = {"in_" + k.lower(): a for k, a in ins.items()}
    (y,) = exe_run(exe, main, feed, [ov[outs[0]]])
    with paddle.static.program_guard(main, startup):
        # an output whose static shape is unknown (-1: masked_select's value-dependent dims,
        # a shape read from a tensor at run time) takes an upstream gradient declared with the
        # same dims; a static shape that differs from the run's (slogdeterminant's [2,
        # batch...] from Paddle's legacy infer, im2sequence's rows) is replaced by the run's
        ys, rs = list(ov[outs[0]].shape), list(np.shape(y))
        if -1 not in ys and ys != rs:
            ov[outs[0]].desc.set_shape(rs)
            ys = rs
        G = paddle.static.data("g", ys, "float32")
        grads = paddle.static.gradients([ov[outs[0]]], [vs[k] for k in diff],
                                        target_gradients=[G])
    gops = [o for o in main.global_block().ops if o.type.endswith("_grad")]
    if not gops:  # a grad Paddle writes as the forward op itself (flip's is flip)
        gops = [o for o in main.global_block().ops[1:] if o.type == op]
    assert len(gops) == 1, [o.type for o in main.global_block().ops]
    gop = gops[0]
    feed["g"] = grng.standard_normal(np.shape(y)).astype("float32")
    islots = [k for k in gop.input_names if gop.input(k)]
    # gradients only (data_norm_grad also lists the statistics it leaves untouched); a grad
    # written as the forward op (flip) has its own output slots
    oslots = [k for k in gop.output_names
              if gop.output(k) and (k.endswith("@GRAD") or gop.type == op)]
    fetch = [gop.input(k)[0] for k in islots] + [gop.output(k)[0] for k in oslots]
    res = exe_run(exe, main, feed, fetch)
    for j, _ in enumerate(islots):
        np.save(os.path.join(out_dir, "%s.i%d.npy" % (name, j)), np.asarray(res[j]))
    for j, _ in enumerate(oslots):
        np.save(os.path.join(out_dir, "%s.o%d.npy" % (name, j)),
                np.asarray(res[len(islots) + j]))
    kv = []
    for k in sorted(gop.attr_names):
        if k in SKIP_ATTRS:
            continue
        t = attr_text(gop.attr(k))
        if t is not None:
            kv.append("%s=%s" % (k, t))
    del grads
    return "%s %s %s %s %s" % (name, gop.type, ",".join(islots), ",".join(oslots), " ".join(kv))


def write_sv26_program(out):
    """sv26_program.pdmodel: a whole Paddle 2.x training program (ProgramDesc version 2006002)
    with x[::-1] = v and x[4::-2] = v2 through paddle.static.setitem (set_value with end -1
    and a negative step, which 2.x reads as "through index 0") and their set_value_grad ops
    from append_backward; its feeds sv26_program.{x,v,v2}.npy and Paddle's gradients
    sv26_program.{x,v,v2}_grad.npy."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [6], "float32")
        v = paddle.static.data("v", [6], "float32")
        v2 = paddle.static.data("v2", [3], "float32")
        for t in (x, v, v2):
            t.stop_gradient = False
        y = paddle.static.setitem(x * 1.0, slice(None, None, -1), v * 1.0)
        z = paddle.static.setitem(y * 1.0, slice(4, None, -2), v2 * 1.0)
        loss = (z * paddle.arange(1, 7, dtype="float32")).sum()
        paddle.static.append_backward(loss)
    assert [o.type for o in main.global_block().ops].count("set_value_grad") == 2
    feed = {"x": np.arange(6, dtype="float32") + 1, "v": np.arange(6, dtype="float32") * 2,
            "v2": np.array([5, 6, 7], "float32")}
    exe = paddle.static.Executor(paddle.CPUPlace())
    grads = exe.run(main, feed=feed, fetch_list=["x@GRAD", "v@GRAD", "v2@GRAD"])
    for op in main.global_block().ops:  # Python stacks with this machine's paths
        if op.desc.has_attr("op_callstack"):
            op.desc.remove_attr("op_callstack")
    with open(os.path.join(out, "sv26_program.pdmodel"), "wb") as f:
        f.write(main.desc.serialize_to_string())
    for k, a in feed.items():
        np.save(os.path.join(out, "sv26_program.%s.npy" % k), a)
    for k, a in zip(("x", "v", "v2"), grads):
        np.save(os.path.join(out, "sv26_program.%s_grad.npy" % k), np.asarray(a))


def main():
    ver = sys.argv[1] if len(sys.argv) > 1 else "33"
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "tests", "data",
                                                             "grad_oracle_misc")
    os.makedirs(out, exist_ok=True)
    paddle.enable_static()
    # "33" and "26" keep their original seeds; a family's own key ("33x") gets a stable one
    grng = np.random.default_rng(int(ver) * 7 if ver.isdigit() else zlib.crc32(ver.encode()))
    lines = ["# written by tools/gen_paddle_misc_grad_oracle.py with PaddlePaddle " +
             paddle.__version__]
    for case in CASES[ver]:
        lines.append(run(case, out, grng).rstrip())
    with open(os.path.join(out, "cases%s.txt" % ver), "w") as f:
        f.write("\n".join(lines) + "\n")
    if ver == "26":
        write_sv26_program(out)


if __name__ == "__main__":
    main()
