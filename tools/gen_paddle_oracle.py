#!/usr/bin/env python3
"""Write tests/data/paddle_oracle/: small programs exported by PaddlePaddle itself, with
Paddle's own outputs for fixed inputs, so that tests/test_paddle_oracle.c can check that icore
computes what Paddle computes (and not merely what we read in Paddle's source).

Run it with the Paddle oracle environment (icore never depends on Paddle; CI only reads the
committed files):

    FLAGS_enable_pir_api=0 /tmp/pdenv/bin/python tools/gen_paddle_oracle.py [OUT_DIR] [CASE...]

OUT_DIR defaults to tests/data/paddle_oracle in this repository; naming cases regenerates
only those (cases.txt still lists every case). Tested with PaddlePaddle 3.3.1 (CPU). The
cases marked paddle2 (ops 3.3.1 no longer registers) are written by Paddle 2.6.2 instead
(/work/pdenv26 or any Paddle 2.6 environment, naming them); each Paddle skips the others.
The output is deterministic: the same Paddle gives the same bytes on every run.

Each case is a directory <case>/ holding
    model.pdmodel      the program as paddle.static.save_inference_model (or paddle.jit.save)
                       wrote it, minus the op_callstack attributes (Python stacks with this
                       machine's paths: most of the bytes, and not reproducible elsewhere)
    model.pdiparams    its parameters as Paddle wrote them (only when it has any)
    in<k>.npy          the feeds, out<k>.npy  Paddle's fetches for them
    case.txt           the manifest, one directive per line ('#' starts a comment):
                         model FILE             the program
                         params file FILE       parameters: Paddle's combined file
                         params none            the program has no parameters
                         feed NAME FILE         a feed target and its value
                         fetch NAME FILE        a fetch target and Paddle's value for it
                         rtol X / atol Y        |icore - paddle| <= atol + rtol * |paddle|
                         ops T1 T2 ...          the op types of the program, sorted
and cases.txt lists every case directory, one per line.

Tolerances: values that Paddle only moves (reshape, transpose, slice, concat, cast...) and
integers must match exactly (rtol 0, atol 0). Float math gets rtol 1e-4 and an atol of 1e-5
(for values near zero, where a relative bound means nothing) unless the case says why else.

Parameters are replaced after Paddle's startup program by the values a case gives, else by
seeded uniform values in [-0.5, 0.5) (batch_norm scales and variances in [0.5, 1.5)), so
that every weight matters; the MobileNetV2
case keeps Paddle's own initial conv and fc weights and only replaces the batch_norm
statistics and affine terms (constant at initialisation, which would hide a wrong formula).
"""
import os
import re
import sys
import zlib

os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.base.layer_helper import LayerHelper  # noqa: E402

F32 = "float32"
EXACT = dict(rtol=0.0, atol=0.0)


def seed_of(*names):
    return zlib.crc32("/".join(names).encode()) & 0x7FFFFFFF


class Graph:
    """What a case builder sees: feeds, parameters, raw ops and fetches of one program."""

    def __init__(self, case):
        self.case = case
        self.rng = np.random.RandomState(seed_of(case))
        self.feeds = []    # (variable, value)
        self.fetches = []  # variables
        self.params = {}   # name -> value set after the startup program

    def rand(self, shape, lo=-1.0, hi=1.0, dtype=F32):
        return self.rng.uniform(lo, hi, shape).astype(dtype)

    def randint(self, shape, lo, hi, dtype="int32"):
        return self.rng.randint(lo, hi, shape).astype(dtype)

    def data(self, name, value, shape=None):
        """A feed target; shape may hold -1 (any size), the fed value must fit it."""
        var = paddle.static.data(name, list(value.shape) if shape is None else shape,
                                 str(value.dtype))
        self.feeds.append((var, value))
        return var

    def param(self, name, value):
        var = paddle.static.create_parameter(list(value.shape), str(value.dtype), name=name)
        self.params[name] = value
        return var

    def op(self, type, inputs, attrs=None, outs=None, dtype=F32):
        """Append one op as Paddle's legacy static graph has it. outs maps output slots to a
        count (default: one Out). Returns the single output variable, or a dict of lists."""
        helper = LayerHelper(type)
        outs = outs or {"Out": 1}
        made = {slot: [helper.create_variable_for_type_inference(dtype) for _ in range(n)]
                for slot, n in outs.items()}
        ins = {k: (v if isinstance(v, (list, tuple)) else [v]) for k, v in inputs.items()}
        helper.append_op(type=type, inputs=ins, outputs=made, attrs=attrs or {})
        if len(made) == 1 and len(next(iter(made.values()))) == 1:
            return next(iter(made.values()))[0]
        return made

    def fetch(self, *vars):
        self.fetches.extend(vars)


CASES = {}


def case(rtol=1e-4, atol=1e-5, note="", train=False, paddle2=False, unsaved=False,
         onednn=False, legacy=False):
    """train: the case's ops run in training mode: save_inference_model sets every is_test
    attribute to true, so it is set back to false in the saved model before Paddle runs it.
    (quantize_linear cannot be such a case: save_inference_model also drops its OutScale,
    OutState and OutAccum; its training mode is checked by test_train's qat_v2.)
    paddle2: the case's ops exist only in Paddle 2.x (2.6.2): it is written only when this
    script runs under Paddle 2 (named on the command line), and skipped otherwise.
    unsaved: Paddle's outputs come from running the program as built rather than the saved
    and reloaded model.pdmodel (the same ops and attributes), for ops whose reloaded program
    Paddle itself cannot run: save_inference_model drops nanmedian's MedianIndex, and Paddle
    3.3.1's NanmedianInferMeta then crashes.
    onednn: the case's ops have only oneDNN kernels (fused_matmul, fused_softplus,
    fused_transpose), which Paddle's executor cannot pick: Paddle's outputs come from its
    inference predictor running the saved model with oneDNN on, through its PIR program
    translator, IR passes off.
    legacy: the program is saved in Paddle's legacy format (save_inference_model's
    legacy_format: set_value's values as the typed lists Paddle <= 2.5 wrote)."""
    def register(fn):
        CASES[fn.__name__] = dict(build=fn, rtol=rtol, atol=atol, note=note, train=train,
                                  paddle2=paddle2, unsaved=unsaved, onednn=onednn,
                                  legacy=legacy)
        return fn
    return register


# ---------------------------------------------------------------------------------------
# conv2d / depthwise_conv2d (paddle/phi/kernels/impl/conv_kernel_impl.h, conv_util.h)
# ---------------------------------------------------------------------------------------

def conv(g, x, w, type="conv2d", strides=(1, 1), paddings=(0, 0), dilations=(1, 1), groups=1,
         algo="EXPLICIT", fmt="NCHW"):
    return g.op(type, {"Input": x, "Filter": w},
                dict(strides=list(strides), paddings=list(paddings), dilations=list(dilations),
                     groups=groups, padding_algorithm=algo, data_format=fmt),
                outs={"Output": 1})


@case()
def conv2d_stride2_dil2(g):
    x = g.data("x", g.rand([2, 3, 9, 10]), [-1, 3, 9, 10])
    w = g.param("w", g.rand([4, 3, 3, 3], -0.5, 0.5))
    b = g.param("b", g.rand([4], -0.5, 0.5))
    y = conv(g, x, w, strides=(2, 2), paddings=(1, 1), dilations=(2, 2))
    g.fetch(g.op("elementwise_add", {"X": y, "Y": b}, dict(axis=1)))


@case()
def conv2d_groups(g):
    x = g.data("x", g.rand([1, 4, 7, 6]))
    w = g.param("w", g.rand([6, 2, 3, 2], -0.5, 0.5))
    g.fetch(conv(g, x, w, strides=(1, 2), paddings=(0, 1), groups=2))


@case()
def conv2d_pad_tblr(g):
    """Four paddings are [top, bottom, left, right]."""
    x = g.data("x", g.rand([2, 2, 6, 5]))
    w = g.param("w", g.rand([3, 2, 3, 3], -0.5, 0.5))
    g.fetch(conv(g, x, w, paddings=(1, 2, 0, 3)))


@case()
def conv2d_same(g):
    """SAME pads (possibly unevenly, the extra row/col at the end) and ignores `paddings`."""
    x = g.data("x", g.rand([1, 3, 7, 8]))
    w = g.param("w", g.rand([4, 3, 3, 2], -0.5, 0.5))
    g.fetch(conv(g, x, w, strides=(2, 2), paddings=(5, 5), algo="SAME"))


@case()
def conv2d_same_dilation(g):
    """Paddle resets the dilations to 1 under SAME (UpdatePaddingAndDilation)."""
    x = g.data("x", g.rand([1, 2, 6, 7]))
    w = g.param("w", g.rand([3, 2, 3, 3], -0.5, 0.5))
    g.fetch(conv(g, x, w, dilations=(2, 2), algo="SAME"))


@case()
def conv2d_valid(g):
    """VALID pads nothing, whatever `paddings` says."""
    x = g.data("x", g.rand([1, 2, 8, 7]))
    w = g.param("w", g.rand([3, 2, 2, 3], -0.5, 0.5))
    g.fetch(conv(g, x, w, strides=(2, 1), paddings=(3, 3), algo="VALID"))


@case()
def conv2d_nhwc(g):
    x = g.data("x", g.rand([2, 6, 5, 3]))
    w = g.param("w", g.rand([4, 3, 3, 3], -0.5, 0.5))  # filters stay OIHW
    g.fetch(conv(g, x, w, strides=(2, 2), paddings=(1, 1), fmt="NHWC"))


@case()
def conv2d_1x1(g):
    x = g.data("x", g.rand([2, 8, 5, 3]))
    w = g.param("w", g.rand([16, 8, 1, 1], -0.5, 0.5))
    g.fetch(conv(g, x, w))


@case()
def depthwise_conv2d_multiplier(g):
    """groups == channels with two filters per channel."""
    x = g.data("x", g.rand([2, 4, 8, 8]), [-1, 4, 8, 8])
    w = g.param("w", g.rand([8, 1, 3, 3], -0.5, 0.5))
    g.fetch(conv(g, x, w, "depthwise_conv2d", strides=(2, 2), paddings=(1, 1), groups=4))


@case()
def depthwise_conv2d_same(g):
    x = g.data("x", g.rand([1, 3, 7, 6]))
    w = g.param("w", g.rand([3, 1, 3, 3], -0.5, 0.5))
    g.fetch(conv(g, x, w, "depthwise_conv2d", strides=(2, 2), groups=3, algo="SAME"))


@case()
def depthwise_conv2d_nhwc_dil(g):
    x = g.data("x", g.rand([1, 9, 8, 5]))
    w = g.param("w", g.rand([5, 1, 3, 3], -0.5, 0.5))
    g.fetch(conv(g, x, w, "depthwise_conv2d", paddings=(2, 1, 0, 2), dilations=(2, 1),
                 groups=5, fmt="NHWC"))


# ---------------------------------------------------------------------------------------
# pool2d (paddle/phi/kernels/funcs/pooling.cc, pool_kernel_impl.h)
# ---------------------------------------------------------------------------------------

def pool(g, x, type, ksize, strides=(1, 1), paddings=(0, 0), ceil=False, exclusive=True,
         glob=False, adaptive=False, algo="EXPLICIT", fmt="NCHW"):
    return g.op("pool2d", {"X": x},
                dict(pooling_type=type, ksize=list(ksize), strides=list(strides),
                     paddings=list(paddings), ceil_mode=ceil, exclusive=exclusive,
                     global_pooling=glob, adaptive=adaptive, padding_algorithm=algo,
                     data_format=fmt))


@case()
def pool2d_max_ceil(g):
    x = g.data("x", g.rand([2, 3, 8, 9]), [-1, 3, 8, 9])
    g.fetch(pool(g, x, "max", (3, 3), (2, 2), (1, 1), ceil=True))


@case()
def pool2d_avg_inclusive(g):
    """exclusive False divides by the window clipped to the padded input, not by ksize:
    (min(start + k, size + pad_before) - start) per dim, start counted from -pad_before.
    Paddle keeps only the top/left paddings for the kernel, so the bottom/right clip uses
    them too (the output size uses all four)."""
    x = g.data("x", g.rand([1, 2, 7, 8]))
    g.fetch(pool(g, x, "avg", (3, 3), (2, 2), (1, 1), ceil=True, exclusive=False),
            pool(g, x, "avg", (2, 3), (2, 2), (1, 0), exclusive=False),
            pool(g, x, "avg", (3, 3), (2, 2), (0, 2, 1, 0), exclusive=False))


@case()
def pool2d_avg_exclusive_tblr(g):
    x = g.data("x", g.rand([1, 2, 6, 7]))
    g.fetch(pool(g, x, "avg", (2, 3), (1, 2), (1, 0, 2, 1)))


@case()
def pool2d_global(g):
    """global_pooling ignores ksize, strides and paddings."""
    x = g.data("x", g.rand([2, 3, 5, 4]))
    g.fetch(pool(g, x, "max", (2, 2), (2, 2), (1, 1), glob=True),
            pool(g, x, "avg", (3, 3), glob=True))


@case()
def pool2d_adaptive(g):
    """adaptive: ksize is the output size; windows [floor(i*H/o), ceil((i+1)*H/o))."""
    # Not adaptive max: Paddle 3.3.1's PoolRawKernel (phi/kernels/impl/pool_kernel_impl.h)
    # calls its max functor with adaptive=false, so pool2d(max, adaptive) pools plain
    # ksize windows at the attribute strides. paddle.nn.AdaptiveMaxPool2D writes
    # max_pool2d_with_index instead, which is right.
    x = g.data("x", g.rand([2, 3, 7, 5]))
    g.fetch(pool(g, x, "avg", (3, 2), adaptive=True),
            pool(g, x, "avg", (4, 3), adaptive=True),
            pool(g, x, "avg", (1, 1), adaptive=True))


@case()
def pool2d_same_valid(g):
    x = g.data("x", g.rand([1, 2, 7, 8]))
    g.fetch(pool(g, x, "max", (3, 3), (2, 2), (4, 4), algo="SAME"),
            pool(g, x, "avg", (3, 3), (2, 2), algo="SAME"),
            pool(g, x, "avg", (3, 2), (2, 3), (1, 1), algo="VALID"))


@case()
def pool2d_nhwc(g):
    x = g.data("x", g.rand([2, 5, 6, 3]))
    g.fetch(pool(g, x, "avg", (2, 2), (2, 2), (1, 1), exclusive=True, fmt="NHWC"),
            pool(g, x, "max", (3, 2), (1, 2), ceil=True, fmt="NHWC"))


# ---------------------------------------------------------------------------------------
# normalization
# ---------------------------------------------------------------------------------------

@case()
def batch_norm_nchw(g):
    x = g.data("x", g.rand([2, 5, 3, 4], -2, 2), [-1, 5, 3, 4])
    g.fetch(paddle.nn.BatchNorm2D(5, epsilon=1e-3)(x))


@case()
def batch_norm_nhwc(g):
    x = g.data("x", g.rand([2, 3, 4, 5], -2, 2))
    g.fetch(paddle.nn.BatchNorm2D(5, data_format="NHWC")(x))


@case()
def batch_norm_2d_3d(g):
    """[N, C] and [N, C, L] inputs."""
    x = g.data("x", g.rand([4, 6], -2, 2), [-1, 6])
    y = g.data("y", g.rand([2, 3, 7], -2, 2))
    g.fetch(paddle.nn.BatchNorm1D(6)(x), paddle.nn.BatchNorm1D(3, epsilon=1e-3)(y))


@case()
def layer_norm(g):
    x = g.data("x", g.rand([2, 6, 4], -3, 3), [-1, 6, 4])
    y = g.data("y", g.rand([2, 3, 2, 5], -3, 3) + 2.0)
    g.fetch(paddle.nn.LayerNorm([6, 4], epsilon=1e-3)(x),   # begin_norm_axis 1
            paddle.nn.LayerNorm(5)(y),                        # begin_norm_axis 3
            g.op("layer_norm", {"X": y}, dict(begin_norm_axis=2, epsilon=1e-5),
                 outs={"Y": 1, "Mean": 1, "Variance": 1})["Y"][0])  # no Scale, no Bias


# ---------------------------------------------------------------------------------------
# matmul family
# ---------------------------------------------------------------------------------------

@case()
def matmul_v2_trans_bcast(g):
    x = g.data("x", g.rand([2, 1, 4, 3]))
    y = g.data("y", g.rand([3, 5, 4]))
    g.fetch(g.op("matmul_v2", {"X": x, "Y": y}, dict(trans_x=True, trans_y=True)))


@case()
def matmul_v2_vectors(g):
    """1-D operands: a vector x is [1, K] then loses that dim; a vector y is [K, 1]."""
    v = g.data("v", g.rand([4]))
    m = g.data("m", g.rand([2, 4, 3]))
    n = g.data("n", g.rand([2, 5, 4]))
    g.fetch(g.op("matmul_v2", {"X": v, "Y": m}),
            g.op("matmul_v2", {"X": n, "Y": v}),
            g.op("matmul_v2", {"X": v, "Y": v}),
            g.op("matmul_v2", {"X": m, "Y": n}, dict(trans_x=True, trans_y=True)))


@case()
def matmul_v2_params(g):
    x = g.data("x", g.rand([3, 7]), [-1, 7])
    w = g.param("w", g.rand([7, 5], -0.5, 0.5))
    g.fetch(g.op("matmul_v2", {"X": x, "Y": w}))


@case()
def matmul_alpha(g):
    """matmul (v1): transpose_X, transpose_Y and alpha."""
    x = g.data("x", g.rand([2, 4, 3]))
    y = g.data("y", g.rand([2, 5, 4]))
    g.fetch(g.op("matmul", {"X": x, "Y": y},
                 dict(transpose_X=True, transpose_Y=True, alpha=0.5)),
            g.op("matmul", {"X": x, "Y": x}, dict(transpose_X=True, alpha=-2.0)))


@case()
def mul_num_col_dims(g):
    x = g.data("x", g.rand([2, 3, 4]))
    y = g.data("y", g.rand([4, 5]))
    z = g.data("z", g.rand([2, 2, 5]))
    w = g.data("w", g.rand([3, 4, 5]))
    g.fetch(g.op("mul", {"X": x, "Y": y}, dict(x_num_col_dims=2, y_num_col_dims=1)),
            g.op("mul", {"X": x, "Y": z}, dict(x_num_col_dims=2, y_num_col_dims=2)),
            g.op("mul", {"X": x, "Y": w}, dict(x_num_col_dims=1, y_num_col_dims=2)))


# ---------------------------------------------------------------------------------------
# softmax, shapes, data movement
# ---------------------------------------------------------------------------------------

@case()
def softmax_axes(g):
    x = g.data("x", g.rand([2, 5, 3, 4], -30, 30), [-1, 5, 3, 4])
    y = g.data("y", g.rand([3, 7], -3, 3))
    g.fetch(g.op("softmax", {"X": x}, dict(axis=1)),
            g.op("softmax", {"X": x}, dict(axis=-1)),
            g.op("softmax", {"X": y}, dict(axis=0)))


@case(**EXACT)
def reshape2_zero_minus1(g):
    """0 copies the input dim at that position, -1 takes what is left."""
    x = g.data("x", g.rand([3, 4, 6]), [-1, 4, 6])
    r = lambda shape: g.op("reshape2", {"X": x}, dict(shape=shape),  # noqa: E731
                           outs={"Out": 1, "XShape": 1})["Out"][0]
    g.fetch(r([0, -1, 3]), r([-1]), r([0, 2, 0, -1]), r([2, -1, 0]))


@case(**EXACT)
def transpose2_perms(g):
    x = g.data("x", g.rand([2, 3, 4, 5]))
    y = g.data("y", g.rand([3, 1, 2, 1, 2, 3]))
    t = lambda v, perm: g.op("transpose2", {"X": v}, dict(axis=perm),  # noqa: E731
                             outs={"Out": 1, "XShape": 1})["Out"][0]
    g.fetch(t(x, [0, 2, 3, 1]), t(x, [3, 1, 0, 2]), t(y, [5, 0, 4, 2, 3, 1]))


@case(**EXACT)
def slice_negative(g):
    x = g.data("x", g.rand([3, 6, 5]), [-1, 6, 5])
    s = lambda axes, st, en, dec=(): g.op(  # noqa: E731
        "slice", {"Input": x}, dict(axes=axes, starts=st, ends=en, decrease_axis=list(dec),
                                    infer_flags=[1] * len(axes)))
    g.fetch(s([1, 2], [-3, 1], [-1, 2], [2]),      # x[:, -3:-1, 1]
            s([0, 2], [-100, -2], [10000, 1000]),  # clamped to the dims
            s([2], [-1], [2147483647], [2]),       # x[..., -1] (a negative axis crashes Paddle)
            s([1], [4], [2]))                      # end before start: empty


@case(**EXACT)
def concat_split(g):
    a = g.data("a", g.rand([2, 3, 4]), [-1, 3, 4])
    b = g.data("b", g.rand([2, 1, 4]), [-1, 1, 4])
    c = g.data("c", g.rand([2, 5, 4]), [-1, 5, 4])
    cat = g.op("concat", {"X": [a, b, c]}, dict(axis=-2))
    # Not axis=-2: Paddle's CPU split kernel passes a negative axis unnormalized to its copy
    # loop (phi/kernels/impl/split_kernel_impl.h, funcs/concat_and_split_functor.cc) and cuts
    # the flat buffer into chunks; paddle.split normalizes the axis before writing the op.
    p = g.op("split", {"X": cat}, dict(axis=1, sections=[2, -1, 3], num=0), outs={"Out": 3})
    q = g.op("split", {"X": a}, dict(axis=2, sections=[], num=2), outs={"Out": 2})
    g.fetch(cat, *p["Out"], *q["Out"], g.op("concat", {"X": [a, a]}, dict(axis=0)))


@case(**EXACT)
def flatten_squeeze_unsqueeze(g):
    x = g.data("x", g.rand([2, 1, 3, 1]))
    xs = {"Out": 1, "XShape": 1}
    g.fetch(g.op("flatten_contiguous_range", {"X": x}, dict(start_axis=1, stop_axis=-1),
                 outs=xs)["Out"][0],
            g.op("flatten_contiguous_range", {"X": x}, dict(start_axis=0, stop_axis=2),
                 outs=xs)["Out"][0],
            g.op("squeeze2", {"X": x}, dict(axes=[-1, 1]), outs=xs)["Out"][0],
            g.op("squeeze2", {"X": x}, dict(axes=[]), outs=xs)["Out"][0],
            g.op("squeeze2", {"X": x}, dict(axes=[0, 2]), outs=xs)["Out"][0],  # not size 1: kept
            g.op("unsqueeze2", {"X": x}, dict(axes=[0, -1]), outs=xs)["Out"][0],
            g.op("unsqueeze2", {"X": x}, dict(axes=[-2, 2, 6]), outs=xs)["Out"][0])


@case(**EXACT)
def shape_and_fills(g):
    x = g.data("x", g.rand([3, 4, 2]), [-1, 4, 2])
    shp = g.op("shape", {"Input": x}, dtype="int32")
    n = g.op("slice", {"Input": shp}, dict(axes=[0], starts=[0], ends=[1], decrease_axis=[0],
                                           infer_flags=[1]), dtype="int32")
    five = g.op("fill_constant", {}, dict(shape=[], dtype=2, value=5.0, str_value="5",
                                          force_cpu=True), dtype="int32")
    g.fetch(shp,
            g.op("fill_constant", {"ShapeTensorList": [five, n]},
                 dict(shape=[-1, -1], dtype=5, value=1.5, str_value="1.5")),
            g.op("fill_constant", {}, dict(shape=[2, 3], dtype=3, value=-7.0, str_value="-7"),
                 dtype="int64"),
            g.op("fill_constant_batch_size_like", {"Input": x},
                 dict(shape=[-1, 2, 5], dtype=5, value=0.25, str_value="0.25",
                      input_dim_idx=1, output_dim_idx=0)),
            g.op("assign", {"X": x}))


@case(**EXACT)
def cast_dtypes(g):
    """float to int truncates toward zero; float to bool is x != 0."""
    x = g.data("x", np.array([[-2.7, -1.5, -0.5, 0.0], [0.4, 1.5, 2.5, 3e9]], np.float32))
    i = g.data("i", np.array([-3, 0, 2**40 + 1, 7], np.int64))
    c = lambda v, out_dt, np_dt: g.op("cast", {"X": v}, dict(  # noqa: E731
        in_dtype=int(v.dtype), out_dtype=out_dt), dtype=np_dt)
    g.fetch(c(x, 2, "int32"), c(x, 3, "int64"), c(x, 6, "float64"), c(x, 0, "bool"),
            c(i, 5, "float32"), c(i, 2, "int32"))


# ---------------------------------------------------------------------------------------
# elementwise and activations
# ---------------------------------------------------------------------------------------

def ew(g, type, x, y, axis=-1, dtype=F32):
    return g.op(type, {"X": x, "Y": y}, dict(axis=axis), dtype=dtype)


@case(**EXACT, note="one IEEE operation per element: bitwise equal")
def elementwise_axis(g):
    x = g.data("x", g.rand([2, 3, 4, 5], -2, 2), [-1, 3, 4, 5])
    y = g.data("y", g.rand([3, 4], -2, 2))
    z = g.data("z", g.rand([2], 0.5, 2))
    s = g.data("s", g.rand([4, 1, 3], -2, 2))
    t = g.data("t", g.rand([2, 1], 0.5, 2))
    c = g.data("c", g.rand([3], -2, 2))
    g.fetch(ew(g, "elementwise_add", x, y, 1),
            ew(g, "elementwise_mul", x, z, 0),
            ew(g, "elementwise_sub", s, t),       # [4,1,3] - [2,1] -> [4,2,3]
            ew(g, "elementwise_div", t, s),       # the smaller rank first
            ew(g, "elementwise_max", x, c, 1),
            ew(g, "elementwise_min", x, y, 1),
            ew(g, "elementwise_sub", x, x))


@case()
def elementwise_pow(g):
    x = g.data("x", g.rand([3, 4], 0.1, 3))
    y = g.data("y", g.rand([4], -2, 3))
    g.fetch(ew(g, "elementwise_pow", x, y))


@case(**EXACT)
def elementwise_int(g):
    """Integer kernels: division truncates toward zero (C), pow of ints."""
    a = g.data("a", np.array([[7, -7, 9, -9], [1, 0, -1, 5]], np.int32))
    b = g.data("b", np.array([2, 2, -4, -4], np.int32))
    c = g.data("c", np.array([[3, -2, 10, 2**40], [0, 1, -5, -2**33]], np.int64))
    d = g.data("d", np.array([[2], [3]], np.int64))
    e = g.data("e", np.array([[2, 3, 0, 1], [1, 0, 4, 2]], np.int32))
    g.fetch(ew(g, "elementwise_add", a, b, dtype="int32"),
            ew(g, "elementwise_mul", a, b, dtype="int32"),
            ew(g, "elementwise_div", a, b, dtype="int32"),
            ew(g, "elementwise_sub", c, d, dtype="int64"),
            ew(g, "elementwise_max", c, d, dtype="int64"),
            ew(g, "elementwise_pow", b, e, dtype="int32"))


def act(g, type, x, **attrs):
    return g.op(type, {"X": x}, attrs)


def act_input(g):
    # Uniform values plus the breakpoints of relu6/hard_swish/hard_sigmoid/leaky_relu.
    v = np.concatenate([g.rand([37], -8, 8), np.array([-3, -2.5, 0, 2.5, 3, 6, -6, 4],
                                                      np.float32)])
    return g.data("x", v.reshape(5, 9), [-1, 9])


@case()
def activations(g):
    x = act_input(g)
    # Only hard_swish's default attributes: Paddle 3's kernel hard-codes threshold 6, scale 6
    # and offset 3 (phi/kernels/cpu/activation_kernel.cc), icore honours the attributes as
    # Paddle 2.x did. Likewise save_inference_model drops relu6's threshold and swish's beta,
    # which Paddle 3 no longer reads, so those cannot be exported with other values.
    g.fetch(act(g, "hard_swish", x),
            act(g, "hard_sigmoid", x),
            act(g, "hard_sigmoid", x, slope=0.1666667, offset=0.5),
            act(g, "gelu", x, approximate=False),
            act(g, "gelu", x, approximate=True),
            act(g, "swish", x),
            act(g, "relu6", x),
            act(g, "leaky_relu", x, alpha=0.1),
            act(g, "leaky_relu", x, alpha=-0.3),
            act(g, "sigmoid", x),
            act(g, "tanh", x))


@case(**EXACT)
def activations_exact(g):
    x = act_input(g)
    g.fetch(act(g, "relu", x), act(g, "abs", x), act(g, "relu6", x, threshold=6.0),
            g.op("clip", {"X": x}, dict(min=-1.5, max=2.25)))


@case()
def math_activations(g):
    """The unary math activations with default and explicit attributes."""
    x = act_input(g)
    g.fetch(act(g, "silu", x), act(g, "erf", x), act(g, "softsign", x),
            act(g, "tanh_shrink", x), act(g, "logsigmoid", x), act(g, "sin", x),
            act(g, "cos", x), act(g, "mish", x), act(g, "mish", x, threshold=1.5),
            act(g, "softplus", x), act(g, "softplus", x, beta=2.0, threshold=3.0),
            act(g, "elu", x), act(g, "elu", x, alpha=0.3), act(g, "celu", x, alpha=1.7),
            act(g, "selu", x), act(g, "selu", x, scale=1.5, alpha=0.5),
            act(g, "brelu", x), act(g, "brelu", x, t_min=-1.0, t_max=2.0),
            act(g, "thresholded_relu", x), act(g, "thresholded_relu", x, threshold=0.5),
            act(g, "stanh", x), act(g, "stanh", x, scale_a=0.5, scale_b=2.0),
            act(g, "hard_shrink", x), act(g, "hard_shrink", x, threshold=2.5),
            act(g, "softshrink", x), act(g, "softshrink", x, **{"lambda": 2.5}))


@case()
def math_activations2(g):
    """Logarithms, roots, rounding and the other unary math ops."""
    x = act_input(g)
    p = g.data("p", np.concatenate([g.rand([10], 0.01, 9), np.array([1, 0.5], np.float32)]))
    r = g.data("r", np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 1.25, -3.75, 0.049, 0.051],
                             np.float32))
    g.fetch(act(g, "log", p), act(g, "log2", p), act(g, "log10", p), act(g, "log1p", p),
            act(g, "rsqrt", p), act(g, "reciprocal", x),
            act(g, "square", x), act(g, "sign", x), act(g, "floor", x), act(g, "ceil", x),
            act(g, "round", r), act(g, "round", r, decimals=1))


@case()
def math_special_values(g):
    """The unary math ops on NaN, +-inf, +-0 and the thresholds: which ones keep a NaN."""
    x = g.data("x", np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.0, 20.0, -20.0,
                              24.0, 2.5], np.float32))
    names = ["silu", "erf", "softsign", "tanh_shrink", "logsigmoid", "mish", "softplus", "elu",
             "celu", "selu", "brelu", "thresholded_relu", "stanh", "hard_shrink", "softshrink",
             "sign", "floor", "ceil", "round", "square", "reciprocal", "log", "log1p", "rsqrt",
             "sin", "cos"]
    g.fetch(*[act(g, n, x) for n in names])


@case(**EXACT)
def math_int(g):
    """Integer kernels of the unary ops that take ints, and pow."""
    i = g.data("i", np.array([[-7, -1, 0, 3], [5, 46340, -3, 2]], np.int32))
    k = g.data("k", np.array([-(2**40), -5, 0, 9, 1, -1], np.int64))
    g.fetch(act(g, "square", i), act(g, "sign", i), act(g, "sign", k),
            act(g, "square", k), g.op("pow", {"X": i}, dict(factor=3.0), dtype="int32"),
            g.op("pow", {"X": k}, dict(factor=2.0), dtype="int64"),
            g.op("pow", {"X": k}, dict(factor=3.7), dtype="int64"))


@case()
def pow_factor(g):
    """pow with the factor attribute and with a FactorTensor input (which wins)."""
    x = g.data("x", g.rand([3, 4], 0.1, 3))
    f = g.data("f", np.array([-1.5], np.float32))
    g.fetch(g.op("pow", {"X": x}, dict(factor=2.5)), g.op("pow", {"X": x}, dict(factor=-0.5)),
            g.op("pow", {"X": x, "FactorTensor": f}, dict(factor=2.0)))


@case()
def prelu_modes(g):
    """prelu in all, channel (NCHW and NHWC) and element modes."""
    x = g.data("x", g.rand([2, 3, 4, 5], -2, 2))
    a1 = g.param("a1", g.rand([1], 0, 0.5))
    a3 = g.param("a3", g.rand([3], 0, 0.5))
    a5 = g.param("a5", g.rand([5], 0, 0.5))
    ae = g.param("ae", g.rand([1, 3, 4, 5], 0, 0.5))
    pr = lambda a, mode, fmt="NCHW": g.op(  # noqa: E731
        "prelu", {"X": x, "Alpha": a}, dict(mode=mode, data_format=fmt))
    g.fetch(pr(a1, "all"), pr(a3, "channel"), pr(a5, "channel", "NHWC"), pr(ae, "element"))


@case(**EXACT)
def floordiv_mod_special(g):
    """Float elementwise_floordiv / elementwise_mod with zero divisors, infinities and NaN."""
    x = g.data("x", np.array([5.0, -5.0, 0.0, np.inf, -np.inf, np.nan, 3.0, -3.0, 7.0, 1.0],
                             np.float32))
    y = g.data("y", np.array([0.0, 0.0, 0.0, 2.0, 2.0, 2.0, np.inf, np.inf, -np.inf, np.nan],
                             np.float32))
    g.fetch(ew(g, "elementwise_floordiv", x, y), ew(g, "elementwise_mod", x, y))


@case(**EXACT)
def floordiv_mod(g):
    """elementwise_floordiv and elementwise_mod on negatives: ints and floats."""
    a = g.data("a", np.array([[7, -7, 9, -9, 0, 6], [1, -1, -5, 5, 13, -13]], np.int32))
    b = g.data("b", np.array([2, 2, -4, -4, 3, -3], np.int32))
    c = g.data("c", np.array([[3, -(2**40), 10, 2**40 + 1]], np.int64))
    d = g.data("d", np.array([[7], [-7]], np.int64))
    x = g.data("x", np.array([[7.5, -7.5, 5.25, -5.25, 0.0, -0.0, 1e-3, 6.0]], np.float32))
    y = g.data("y", np.array([[2.0], [-2.0], [0.75]], np.float32))
    g.fetch(ew(g, "elementwise_floordiv", a, b, dtype="int32"),
            ew(g, "elementwise_mod", a, b, dtype="int32"),
            ew(g, "elementwise_floordiv", c, d, dtype="int64"),
            ew(g, "elementwise_mod", c, d, dtype="int64"),
            ew(g, "elementwise_floordiv", x, y), ew(g, "elementwise_mod", x, y))


@case(**EXACT)
def compare_logical(g):
    """Comparisons with broadcasting, NaN, ints; logical ops on bool and numbers."""
    x = g.data("x", np.array([[1.0, np.nan, -2.0, 3.0], [0.5, 2.0, -0.0, 0.0]], np.float32))
    y = g.data("y", np.array([1.0, 2.0, np.nan, 0.0], np.float32))
    j2 = g.data("j2", np.array([[0.5], [2.0]], np.float32))
    i = g.data("i", np.array([[3, -1, 7], [2, 2, -5]], np.int64))
    j = g.data("j", np.array([[2], [2]], np.int64))
    b = g.data("b", np.array([[True, False, True, False]]))
    k = g.data("k", np.array([[0, 3, 0, -2], [1, 0, 0, 5]], np.int32))
    cmp = lambda t, a, bb, axis=-1: g.op(t, {"X": a, "Y": bb}, dict(axis=axis),  # noqa: E731
                                         dtype="bool")
    lg = lambda t, a, bb: g.op(t, {"X": a, "Y": bb}, dtype="bool")  # noqa: E731
    outs = [cmp(t, x, y) for t in ("less_than", "less_equal", "greater_than", "greater_equal",
                                   "equal", "not_equal")]
    outs += [cmp("less_than", x, j2), cmp("equal", i, j), cmp("greater_equal", i, j)]
    kb = g.data("kb", np.array([[True, True, False, False], [False, True, False, True]]))
    k2 = g.data("k2", np.array([[2, 0, 0, 1], [0, 0, 7, 1]], np.int32))
    outs += [lg(t, b, kb) for t in ("logical_and", "logical_or", "logical_xor")]
    outs += [lg(t, k, k2) for t in ("logical_and", "logical_or", "logical_xor")]
    outs += [g.op("logical_not", {"X": k}, dtype="bool"), g.op("logical_not", {"X": b},
                                                               dtype="bool")]
    g.fetch(*outs)


@case(**EXACT)
def where_gather_stack(g):
    """where, gather (attribute axis and Axis tensor, 0-D index), index_select, stack."""
    x = g.data("x", g.rand([3, 4, 2]))
    y = g.data("y", g.rand([3, 4, 2]))
    c = g.data("c", g.rand([3, 4, 2]) > 0)
    idx = g.data("idx", np.array([2, 0, 2, 1], np.int32))
    idx0 = g.data("idx0", np.array(1, np.int64))
    ax = g.data("ax", np.array([1], np.int64))
    ni = g.data("ni", np.array([-1, 0, 1], np.int64))
    g.fetch(g.op("where", {"Condition": c, "X": x, "Y": y}),
            g.op("gather", {"X": x, "Index": idx}, dict(axis=0)),
            g.op("gather", {"X": x, "Index": idx, "Axis": ax}, dict(axis=0)),
            g.op("gather", {"X": x, "Index": idx0}, dict(axis=-1)),
            g.op("index_select", {"X": x, "Index": ni}, dict(dim=1)),
            g.op("stack", {"X": [x, y]}, dict(axis=0), outs={"Y": 1}),
            g.op("stack", {"X": [x, y, x]}, dict(axis=-1), outs={"Y": 1}),
            g.op("stack", {"X": [x, y]}, dict(axis=2), outs={"Y": 1}))


@case(**EXACT)
def expand_tile(g):
    """expand_v2 (attribute with -1, Shape tensor, expand_shapes_tensor), expand_as_v2, tile
    (attribute, RepeatTimes tensor, repeat_times_tensor)."""
    x = g.data("x", g.rand([3, 1]))
    y = g.data("y", g.rand([2, 3, 4]))
    shp = g.data("shp", np.array([2, 3, 5], np.int32))
    s0 = g.data("s0", np.array([4], np.int64))
    s1 = g.data("s1", np.array([2], np.int64))
    s3 = g.data("s3", np.array([3], np.int64))
    rt = g.data("rt", np.array([2, 1, 3], np.int32))
    g.fetch(g.op("expand_v2", {"X": x}, dict(shape=[2, -1, 4])),
            g.op("expand_v2", {"X": x, "Shape": shp}, dict(shape=[])),
            g.op("expand_v2", {"X": x, "expand_shapes_tensor": [s1, s3, s0]}, dict(shape=[])),
            g.op("expand_as_v2", {"X": x, "Y": y}, dict(target_shape=[2, 3, 4])),
            g.op("tile", {"X": x}, dict(repeat_times=[2, 3])),
            g.op("tile", {"X": y}, dict(repeat_times=[2])),
            g.op("tile", {"X": x, "RepeatTimes": rt}, dict(repeat_times=[])),
            g.op("tile", {"X": x, "repeat_times_tensor": [s1, s0]}, dict(repeat_times=[])))


@case()
def cumsum_modes(g):
    """cumsum: axis, flatten, exclusive, reverse; float and int."""
    x = g.data("x", g.rand([3, 4, 5]))
    i = g.data("i", np.array([[1, -2, 3], [4, 5, -6]], np.int64))
    cs = lambda v, dt=F32, **a: g.op("cumsum", {"X": v}, a, dtype=dt)  # noqa: E731
    g.fetch(cs(x), cs(x, axis=1), cs(x, axis=0, exclusive=True), cs(x, axis=-1, reverse=True),
            cs(x, axis=1, exclusive=True, reverse=True), cs(x, flatten=True),
            cs(i, "int64", axis=0), cs(i, "int64", flatten=True, reverse=True))


@case(**EXACT)
def onehot_range_fill(g):
    """one_hot_v2 (depth attribute and tensor, allow_out_of_range), range, fill_any_like."""
    lab = g.data("lab", np.array([[0, 3], [2, 1]], np.int64))
    # allow_out_of_range is not honoured by Paddle 3.3 (it raises): in-range ids only.
    bad = g.data("bad", np.array([1, 2, 0, 0], np.int32))
    dt = g.data("dt", np.array([6], np.int32))
    x = g.data("x", g.rand([2, 3]))
    st = lambda v, dtype: g.data("r%s%d" % (dtype, len(g.feeds)), np.array([v], dtype))  # noqa
    g.fetch(g.op("one_hot_v2", {"X": lab}, dict(depth=4, dtype=5, allow_out_of_range=False)),
            g.op("one_hot_v2", {"X": lab, "depth_tensor": dt}, dict(depth=-1, dtype=5)),
            g.op("one_hot_v2", {"X": bad}, dict(depth=3, dtype=5, allow_out_of_range=True)),
            g.op("range", {"Start": st(0.5, "float32"), "End": st(3.0, "float32"),
                           "Step": st(0.75, "float32")}),
            g.op("range", {"Start": st(10, "int64"), "End": st(-3, "int64"),
                           "Step": st(-4, "int64")}, dtype="int64"),
            g.op("range", {"Start": st(2, "int32"), "End": st(9, "int32"),
                           "Step": st(3, "int32")}, dtype="int32"),
            g.op("fill_any_like", {"X": x}, dict(value=2.5, dtype=-1)),
            g.op("fill_any_like", {"X": x}, dict(value=-3.7, dtype=3), dtype="int64"))


@case(**EXACT)
def sort_topk(g):
    """argsort (axis, descending, NaN) and top_k / top_k_v2 (k attribute and K tensor, axis,
    largest): distinct values, since Paddle leaves the order of equal ones unspecified."""
    x = g.data("x", g.rand([3, 5, 4]))
    y = g.data("y", np.array([[1.5, np.nan, -3.0, 7.0, 0.25]], np.float32))
    i = g.data("i", np.array([[5, -2, 9, 0], [3, 8, -7, 1]], np.int64))
    kk = g.data("kk", np.array([2], np.int32))
    srt = lambda v, dt=F32, **a: g.op("argsort", {"X": v}, a,  # noqa: E731
                                      outs={"Out": 1, "Indices": 1}, dtype=dt)
    tk = lambda v, ins=None, dt=F32, t="top_k_v2", **a: g.op(  # noqa: E731
        t, dict({"X": v}, **(ins or {})), a, outs={"Out": 1, "Indices": 1}, dtype=dt)
    outs = []
    for r in (srt(x), srt(x, axis=1, descending=True), srt(y), srt(y, descending=True),
              srt(i, "int64", axis=0), tk(x, k=2), tk(x, k=3, axis=1, largest=False),
              tk(y, k=3), tk(y, k=2, largest=False), tk(i, {"K": kk}, "int64", k=1, axis=-1),
              tk(x, t="top_k", k=3), tk(x, {"K": kk}, t="top_k", k=1)):
        outs += [r["Out"][0], r["Indices"][0]]
    g.fetch(*outs)


@case(**EXACT)
def gather_nd_unstack_flatten2(g):
    """gather_nd (partial and full index depth), unstack, flatten2, expand (v1)."""
    x = g.data("x", g.rand([3, 4, 2]))
    i1 = g.data("i1", np.array([[2], [0]], np.int64))
    i2 = g.data("i2", np.array([[[1, 3], [0, 0]], [[2, 1], [2, 2]]], np.int32))
    i3 = g.data("i3", np.array([[2, 3, 1]], np.int64))
    et = g.data("et", np.array([2, 1, 3], np.int32))
    un = g.op("unstack", {"X": x}, dict(axis=1, num=4), outs={"Y": 4})["Y"]
    fl = g.op("flatten2", {"X": x}, dict(axis=2), outs={"Out": 1, "XShape": 1})["Out"][0]
    fl0 = g.op("flatten2", {"X": x}, dict(axis=0), outs={"Out": 1, "XShape": 1})["Out"][0]
    g.fetch(g.op("gather_nd", {"X": x, "Index": i1}), g.op("gather_nd", {"X": x, "Index": i2}),
            g.op("gather_nd", {"X": x, "Index": i3}), *un, fl, fl0,
            g.op("expand", {"X": x}, dict(expand_times=[1, 2, 2])),
            g.op("expand", {"X": x, "ExpandTimes": et}, dict(expand_times=[])))


@case(**EXACT)
def pad_modes(g):
    """pad (int and float) and pad3d in every mode, NCDHW and NDHWC, Paddings tensor."""
    x = g.data("x", g.rand([2, 3]))
    i = g.data("i", np.array([[1, 2], [3, 4]], np.int64))
    v = g.data("v", g.rand([1, 2, 3, 4, 3]))
    pt = g.data("pt", np.array([1, 0, 2, 1, 0, 2], np.int32))
    p3 = lambda mode, fmt="NCDHW", pads=(2, 1, 1, 2, 1, 0), ins=None: g.op(  # noqa: E731
        "pad3d", dict({"X": v}, **(ins or {})),
        dict(paddings=list(pads), mode=mode, value=1.5, data_format=fmt))
    g.fetch(g.op("pad", {"X": x}, dict(paddings=[1, 0, 2, 3], pad_value=-2.5)),
            g.op("pad", {"X": i}, dict(paddings=[0, 1, 1, 1], pad_value=7.9), dtype="int64"),
            p3("constant"), p3("reflect"), p3("replicate"), p3("circular"),
            p3("reflect", "NDHWC", (1, 2, 2, 1, 1, 1)), p3("constant", "NDHWC"),
            p3("circular", ins={"Paddings": pt}, pads=(0, 0, 0, 0, 0, 0)))


@case()
def p_norm_modes(g):
    """p_norm: porder 2, 1, 3.5, inf, -inf, 0; axis; keepdim; asvector."""
    x = g.data("x", np.concatenate([g.rand([23], -2, 2), np.zeros(1, np.float32)]).reshape(
        2, 3, 4))
    pn = lambda **a: g.op("p_norm", {"X": x}, dict(dict(epsilon=1e-12), **a))  # noqa: E731
    g.fetch(pn(porder=2.0, axis=-1), pn(porder=1.0, axis=1, keepdim=True),
            pn(porder=3.5, axis=0), pn(porder=float("inf"), axis=2),
            pn(porder=float("-inf"), axis=1), pn(porder=0.0, axis=2),
            pn(porder=2.0, axis=-1, asvector=True), pn(porder=2.0, asvector=True, keepdim=True))


@case(**EXACT)
def strided_slice_modes(g):
    """strided_slice: positive and negative strides, clamping, empty results, decrease_axis,
    tensor and tensor-list starts/ends/strides. Not the slice op's x[-1] form (start -1, end 0,
    infer_flags -1, decrease_axis): Paddle 3.3's strided_slice returns the first element for
    it, icore the last (as the slice op and Paddle 2.x)."""
    x = g.data("x", g.rand([4, 6, 5]))
    st = g.data("st", np.array([3, -1], np.int32))
    en = g.data("en", np.array([0, -100], np.int32))
    sd = g.data("sd", np.array([-2, -2], np.int32))
    e1 = g.data("e1", np.array([5], np.int64))
    ss = lambda ins=None, **a: g.op("strided_slice", dict({"Input": x}, **(ins or {})),  # noqa
                                    dict(dict(infer_flags=[1] * len(a["axes"]),
                                              decrease_axis=[]), **a))
    g.fetch(ss(axes=[1], starts=[0], ends=[6], strides=[2]),
            ss(axes=[1, 2], starts=[5, -1], ends=[-7, 0], strides=[-1, -2]),
            ss(axes=[0], starts=[-100], ends=[100], strides=[3]),
            ss(axes=[1], starts=[4], ends=[1], strides=[-2]),
            ss(axes=[2], starts=[3], ends=[1], strides=[1]),
            ss(axes=[0, 2], starts=[-1, 1], ends=[4, 4], strides=[1, 1], decrease_axis=[0]),
            ss(axes=[1], starts=[2], ends=[3], strides=[1], decrease_axis=[1]),
            ss({"StartsTensor": st, "EndsTensor": en, "StridesTensor": sd}, axes=[1, 2],
               starts=[], ends=[], strides=[], infer_flags=[-1, -1]),
            ss({"EndsTensorList": [e1]}, axes=[2], starts=[1], ends=[0], strides=[2],
               infer_flags=[-1]))


@case(note="Paddle 2.6.2: a 2.x program's strided_slice ends (exact)", paddle2=True, **EXACT)
def strided_slice_paddle2(g):
    """strided_slice in a program Paddle 2.x wrote (ProgramDesc version 2006002): negative
    strides with end -1 (2.x's x[::-1]: through index 0), ends and starts below -n, against
    Paddle 2.6.2's kernel; tensor ends too (EndsTensor)."""
    x = g.data("x", g.rand([5, 6]))
    en = g.data("en", np.array([-1], np.int32))
    I32 = 2147483647
    ss = lambda ins=None, **a: g.op("strided_slice", dict({"Input": x}, **(ins or {})),  # noqa
                                    dict(dict(infer_flags=[1] * len(a["axes"]),
                                              decrease_axis=[]), **a))
    g.fetch(ss(axes=[0], starts=[I32], ends=[-1], strides=[-1]),
            ss(axes=[1], starts=[-1], ends=[-1], strides=[-1]),
            ss(axes=[1], starts=[2], ends=[-1], strides=[-1]),
            ss(axes=[0, 1], starts=[-2, 4], ends=[-6, -1], strides=[-1, -2]),
            ss(axes=[1], starts=[-1], ends=[-8], strides=[-1]),
            ss(axes=[0], starts=[-7], ends=[-1], strides=[-1]),
            ss(axes=[0], starts=[-7], ends=[-7], strides=[-2]),
            ss(axes=[1], starts=[-2], ends=[-1], strides=[-2]),
            ss(axes=[1], starts=[1], ends=[-1], strides=[1]),
            ss(axes=[0], starts=[-100], ends=[100], strides=[2]),
            ss({"EndsTensor": en}, axes=[1], starts=[3], ends=[], strides=[-1]))


@case(note="Paddle 2.6.2: a 2.x program's set_value ends (exact)", paddle2=True, **EXACT)
def set_value_paddle2(g):
    """x[::-1] = v, x[4::-2] = v and x[-2::-1] = v as Paddle 2.x's static setitem writes them
    (set_value with end -1 and a negative step: through index 0), against Paddle 2.6.2, with
    the matching getitems (strided_slice)."""
    x = g.data("x", g.rand([6, 3]))
    v = g.data("v", g.rand([6, 3]))
    y = paddle.static.setitem(paddle.assign(x), slice(None, None, -1), v)
    z = paddle.static.setitem(paddle.assign(x), slice(4, None, -2), paddle.ones([3, 3], "float32") * 7)
    w = paddle.static.setitem(paddle.assign(x), (slice(-2, None, -1), slice(None, None, -1)), 3.0)
    g.fetch(y, z, w, x[::-1], x[4::-2], x[-2::-1, ::-1])


@case(rtol=1e-5, atol=1e-6)
def fc_modes(g):
    """fc (Paddle Inference's fc_fuse_pass output): in_num_col_dims 1 and 2, Bias [N] and
    [1, N], relu, no Bias, padding_weights (W stored [K + 4, N + 4]), float32 and float64."""
    x = g.data("x", g.rand([3, 4, 5]))
    w1 = g.data("w1", g.rand([20, 6]))
    w2 = g.data("w2", g.rand([5, 7]))
    b1 = g.data("b1", g.rand([6]))
    b2 = g.data("b2", g.rand([1, 7]))
    wp = g.data("wp", g.rand([9, 11]))
    bp = g.data("bp", g.rand([7]))
    xd = g.data("xd", g.rand([2, 3]).astype("float64"))
    wd = g.data("wd", g.rand([3, 4]).astype("float64"))
    bd = g.data("bd", g.rand([4]).astype("float64"))
    def fc(inp, w, b=None, ncd=1, act="", pad=False, dt=F32):
        ins = {"Input": inp, "W": w}
        if b is not None:
            ins["Bias"] = b
        return g.op("fc", ins, dict(in_num_col_dims=ncd, activation_type=act,
                                    padding_weights=pad), dtype=dt)
    g.fetch(fc(x, w1, b1), fc(x, w2, b2, 2, "relu"), fc(x, w1), fc(x, wp, bp, 2, "relu", True),
            fc(xd, wd, bd, 1, "relu", dt="float64"))


@case()
def gru_unit_modes(g):
    """gru_unit (fluid's GRU step): the default activations (tanh, sigmoid gates) with a bias,
    origin_mode, relu and identity without a bias, and float64."""
    B, D = 3, 4
    x = g.data("x", g.rand([B, 3 * D], -1.0, 1.0))
    h = g.data("h", g.rand([B, D], -1.0, 1.0))
    w = g.param("w", g.rand([D, 3 * D], -0.5, 0.5))
    bias = g.param("b", g.rand([1, 3 * D], -0.5, 0.5))
    xd = g.data("xd", g.rand([2, 3 * D], -1.0, 1.0, "float64"))
    hd = g.data("hd", g.rand([2, D], -1.0, 1.0, "float64"))
    wd = g.param("wd", g.rand([D, 3 * D], -0.5, 0.5, "float64"))
    outs = dict(Gate=1, ResetHiddenPrev=1, Hidden=1)
    fetched = []
    for ins, attrs, dt in [
            (dict(Input=x, HiddenPrev=h, Weight=w, Bias=bias), {}, F32),
            (dict(Input=x, HiddenPrev=h, Weight=w, Bias=bias), dict(origin_mode=True), F32),
            (dict(Input=x, HiddenPrev=h, Weight=w), dict(activation=3, gate_activation=0), F32),
            (dict(Input=xd, HiddenPrev=hd, Weight=wd),
             dict(activation=2, gate_activation=1, origin_mode=True), "float64")]:
        o = g.op("gru_unit", ins, attrs, outs, dtype=dt)
        fetched += [o["Gate"][0], o["ResetHiddenPrev"][0], o["Hidden"][0]]
    g.fetch(*fetched)


@case()
def spectral_norm_modes(g):
    """spectral_norm (paddle.nn.SpectralNorm): an fc weight with dim 0, a conv2d weight with
    dim 1 and 3 power iterations, a conv3d weight (5-D) with dim 1 and eps 1e-3, and float64
    with no iteration (sigma from the given U and V)."""
    def sn(shape, dim, attrs, dt=F32):
        w = g.param("w%d" % len(g.fetches), g.rand(shape, -1.0, 1.0, dt))
        h = shape[dim]
        u = g.data("u%d" % len(g.fetches), g.rand([h], -1.0, 1.0, dt))
        v = g.data("v%d" % len(g.fetches), g.rand([int(np.prod(shape)) // h], -1.0, 1.0, dt))
        g.fetch(g.op("spectral_norm", dict(Weight=w, U=u, V=v), dict(dim=dim, **attrs), dtype=dt))
    sn([6, 4], 0, {})
    sn([5, 3, 3, 2], 1, dict(power_iters=3))
    sn([3, 4, 2, 2, 2], 1, dict(eps=1e-3))
    sn([4, 3, 2], 0, dict(power_iters=0), "float64")


@case()
def conv3d_transpose_modes(g):
    """conv3d_transpose: strides, three and six paddings, dilations, groups, output_padding,
    output_size, SAME, VALID, NDHWC (as Paddle's Python API writes it: data_format NHWC)
    and float64."""
    x = g.data("x", g.rand([2, 4, 3, 4, 3]), [-1, 4, -1, -1, -1])
    xl = g.data("xl", g.rand([1, 3, 3, 2, 4]), [-1, -1, -1, -1, 4])
    xd = g.data("xd", g.rand([1, 4, 2, 3, 2], -1.0, 1.0, "float64"), [-1, 4, -1, -1, -1])
    w = g.param("w", g.rand([4, 3, 3, 3, 2], -0.5, 0.5))
    wg = g.param("wg", g.rand([4, 2, 2, 3, 2], -0.5, 0.5))
    wd = g.param("wd", g.rand([4, 2, 2, 2, 3], -0.5, 0.5, "float64"))
    c3 = "conv3d_transpose"
    g.fetch(convt(g, x, w, c3, strides=(2, 2, 2), paddings=(1, 1, 0), dilations=(1, 1, 1)),
            convt(g, x, w, c3, strides=(1, 2, 3), paddings=(0, 1, 2, 1, 1, 0),
                  dilations=(2, 1, 1)),
            convt(g, x, wg, c3, strides=(2, 2, 2), paddings=(0, 0, 0), dilations=(1, 1, 1),
                  groups=2, output_padding=(1, 0, 1)),
            convt(g, x, w, c3, strides=(3, 2, 2), paddings=(1, 1, 1), dilations=(1, 1, 1),
                  output_size=(8, 7, 5)),
            convt(g, x, w, c3, strides=(2, 2, 1), paddings=(0, 0, 0), dilations=(2, 2, 2),
                  algo="SAME"),
            convt(g, x, w, c3, strides=(2, 1, 2), paddings=(3, 3, 3), dilations=(1, 1, 1),
                  algo="VALID"),
            convt(g, xl, w, c3, strides=(2, 2, 2), paddings=(1, 0, 1), dilations=(1, 1, 1),
                  fmt="NHWC"),
            g.op(c3, {"Input": xd, "Filter": wd},
                 dict(strides=[2, 1, 2], paddings=[1, 0, 1], dilations=[1, 2, 1], groups=2,
                      data_format="NCDHW"), outs={"Output": 1}, dtype="float64"))


@case()
def cvm_modes(g):
    """cvm (continuous_value_model): use_cvm keeps the show / click columns as log(show + 1)
    and log(click + 1) - log(show + 1), otherwise drops them; float64."""
    x = g.data("x", g.rand([4, 5], 0.0, 9.0))
    cv = g.data("cv", g.rand([4, 2], 0.0, 9.0))
    xd = g.data("xd", g.rand([3, 4], 0.0, 5.0, "float64"))
    cd = g.data("cd", g.rand([3, 2], 0.0, 5.0, "float64"))
    g.fetch(g.op("cvm", {"X": x, "CVM": cv}, dict(use_cvm=True), outs={"Y": 1}),
            g.op("cvm", {"X": x, "CVM": cv}, dict(use_cvm=False), outs={"Y": 1}),
            g.op("cvm", {"X": xd, "CVM": cd}, dict(use_cvm=True), outs={"Y": 1},
                 dtype="float64"))


@case(note="Paddle 2.6.2: 3.3.1 no longer registers data_norm", paddle2=True)
def data_norm_modes(g):
    """data_norm (PaddleRec): the plain normalization, slot_dim 2 with shows of zero (those
    slots give zeros), enable_scale_and_shift with and without slot_dim, and float64."""
    def dn(x, attrs, dt=F32, shift=False):
        C = x.shape[1]
        k = len(g.fetches)
        ins = dict(X=x, BatchSize=g.param("bs%d" % k, g.rand([C], 50.0, 100.0, dt)),
                   BatchSum=g.param("bsum%d" % k, g.rand([C], -20.0, 20.0, dt)),
                   BatchSquareSum=g.param("bsq%d" % k, g.rand([C], 50.0, 200.0, dt)))
        if shift:
            ins.update(scale_w=g.param("sw%d" % k, g.rand([C], 0.5, 1.5, dt)),
                       bias=g.param("sb%d" % k, g.rand([C], -1.0, 1.0, dt)))
        o = g.op("data_norm", ins, dict(epsilon=1e-4, **attrs),
                 outs=dict(Y=1, Means=1, Scales=1), dtype=dt)
        g.fetch(o["Y"][0])
    xv = g.rand([4, 6], -3.0, 3.0)
    xv[1, 0] = 0.0
    xv[2, 4] = 5e-8
    x = g.data("x", xv)
    xd = g.data("xd", g.rand([3, 4], -3.0, 3.0, "float64"))
    dn(x, {})
    dn(x, dict(slot_dim=2))
    dn(x, dict(enable_scale_and_shift=True), shift=True)
    dn(x, dict(enable_scale_and_shift=True, slot_dim=3), shift=True)
    dn(xd, dict(slot_dim=-1), "float64")


@case(note="Paddle 2.6.2: 3.3.1 no longer registers hash", paddle2=True, **EXACT)
def hash_modes(g):
    """hash (fluid.layers.hash): XXH64 of each row with seeds 0 .. num_hash - 1, modulo
    mod_by, int64 rows of width 2 and int32 rows of width 1."""
    x = g.data("x", g.randint([4, 2], 0, 1000, "int64"))
    xi = g.data("xi", g.randint([3, 1], -50, 50))
    g.fetch(g.op("hash", {"X": x}, dict(num_hash=3, mod_by=1000), dtype="int64"),
            g.op("hash", {"X": x}, dict(num_hash=1, mod_by=7), dtype="int64"),
            g.op("hash", {"X": xi}, dict(num_hash=2, mod_by=100000), dtype="int32"))


def yolo_gt(rng, n, b, valid):
    """Ground truths: centres in [0.05, 0.95), sizes in [0.05, 0.6), the rest zero-sized."""
    box = np.zeros((n, b, 4), "float32")
    for i in range(n):
        for t in range(valid[i]):
            box[i, t, :2] = rng.uniform(0.05, 0.95, 2)
            box[i, t, 2:] = rng.uniform(0.05, 0.6, 2)
    return box


@case()
def yolov3_loss_modes(g):
    """yolov3_loss: the loss per image, ObjectnessMask and GTMatchMask, with label smoothing
    (the default) and without, GTScore (mixup) given, scale_x_y 1.2, a ground truth whose
    anchor is outside anchor_mask (match -1), zero-sized boxes (no box), ignore_thresh low
    enough to ignore some predictions; float64."""
    rng = np.random.RandomState(31)
    anchors = [10, 13, 16, 30, 33, 23, 30, 61, 62, 45, 59, 119]
    C = 3
    def yl(x, box, lab, mask, attrs, score=None, dt=F32):
        ins = {"X": x, "GTBox": box, "GTLabel": lab}
        if score is not None:
            ins["GTScore"] = score
        o = g.op("yolov3_loss", ins, dict(anchors=anchors, anchor_mask=mask, class_num=C,
                                          downsample_ratio=8, **attrs),
                 outs=dict(Loss=1, ObjectnessMask=1, GTMatchMask=1), dtype=dt)
        g.fetch(o["Loss"][0], o["ObjectnessMask"][0], o["GTMatchMask"][0])
    x = g.data("x", g.rand([2, 2 * (5 + C), 4, 4], -2.0, 2.0))
    box = g.data("box", yolo_gt(rng, 2, 5, [3, 4]))
    lab = g.data("lab", rng.randint(0, C, (2, 5)).astype("int32"))
    score = g.data("score", g.rand([2, 5], 0.3, 1.0))
    yl(x, box, lab, [1, 2], dict(ignore_thresh=0.3))
    yl(x, box, lab, [0, 3], dict(ignore_thresh=0.5, use_label_smooth=False, scale_x_y=1.2),
       score)
    xd = g.data("xd", g.rand([1, 3 * (5 + C), 2, 2], -2.0, 2.0, "float64"))
    boxd = g.data("boxd", yolo_gt(rng, 1, 3, [2]).astype("float64"))
    labd = g.data("labd", rng.randint(0, C, (1, 3)).astype("int32"))
    yl(xd, boxd, labd, [0, 1, 2], dict(ignore_thresh=0.1), dt="float64")


@case(note="Paddle 2.6.2: 3.3.1's legacy static paddle.fft fails (UnboundLocalError in fft_r2c)",
      paddle2=True)
def fft_modes(g):
    """The FFT ops in a legacy program (fft_r2c, fft_c2c, fft_c2r; complex tensors inside):
    rfft with each normalization, rfftn over two axes, fft / ifft of a complex signal, irfft
    of an odd length, hfft, and the complex helpers (abs, angle, real, imag, conj, complex,
    as_real, as_complex); complex results fetched through as_real."""
    fft = paddle.fft
    x = g.data("x", g.rand([2, 8, 3]))
    y = g.data("y", g.rand([3, 5], -1.0, 1.0, "float64"))
    z = paddle.complex(y, y * 0.5)
    g.fetch(paddle.as_real(fft.rfft(x, axis=1)), paddle.as_real(fft.rfft(x, axis=1, norm="forward")),
            paddle.as_real(fft.rfftn(x, axes=(0, 1), norm="ortho")),
            paddle.as_real(fft.fft(z, axis=0)), paddle.as_real(fft.ifft(z, axis=1)),
            fft.irfft(fft.rfft(x, n=7, axis=1), n=7, axis=1), fft.hfft(z, n=8, axis=1),
            paddle.abs(fft.rfft(x, axis=2)), paddle.angle(z), paddle.real(paddle.conj(z)),
            paddle.imag(paddle.conj(z)),
            paddle.real(paddle.as_complex(paddle.stack([y, y * 3.0], -1))))


@case(note="Paddle 2.6.2: 3.3.1 no longer registers the first reshape and transpose",
      paddle2=True, **EXACT)
def reshape_transpose_v1(g):
    """fluid's first reshape (0 copies a dim, -1 infers one; the Shape tensor over the
    attribute) and transpose (no XShape), as Paddle < 1.3 programs hold them."""
    x = g.data("x", g.rand([2, 3, 4]))
    sh = g.data("sh", np.array([4, 6], "int32"))
    g.fetch(g.op("reshape", {"X": x}, dict(shape=[0, -1])),
            g.op("reshape", {"X": x}, dict(shape=[4, 0, 2])),
            g.op("reshape", {"X": x, "Shape": sh}, dict(shape=[1, 24])),
            g.op("transpose", {"X": x}, dict(axis=[2, 0, 1])),
            g.op("transpose", {"X": x}, dict(axis=[1, 0, 2])))


@case(**EXACT)
def print_seed(g):
    """print (paddle.static.Print: Out = In, described on stderr, first_n 1, summarize 4) and
    seed with a fixed value, as dy2static programs hold them. (An Assert does not survive
    save_inference_model's pruning: it writes nothing a fetch reads; test_ops_misc checks
    it.)"""
    x = g.data("x", g.rand([2, 3]))
    p = paddle.static.Print(x, first_n=1, message="icore print test", summarize=4)
    sd = g.op("seed", {}, dict(seed=1234), dtype="int32")
    g.fetch(p * 2.0, sd)


@case(note="Paddle 2.6.2: 3.3.1 no longer registers the first crop", paddle2=True, **EXACT)
def crop_v1(g):
    """fluid's first crop: the `shape` and `offsets` attributes (a -1 first dim), the shape of
    Y with the int32 Offsets tensor, a 1-D X."""
    x = g.data("x", g.rand([3, 4, 5]))
    y = g.data("y", g.rand([2, 2, 3]))
    off = g.data("off", np.array([1, 2, 1], "int32"))
    v = g.data("v", g.rand([7]))
    g.fetch(g.op("crop", {"X": x}, dict(shape=[-1, 2, 4], offsets=[0, 1, 1])),
            g.op("crop", {"X": x, "Y": y, "Offsets": off}, {}),
            g.op("crop", {"X": v}, dict(shape=[3], offsets=[4])))


@case(note="Paddle 2.6.2: 3.3.1 no longer registers spp", paddle2=True)
def spp_modes(g):
    """spp (spatial pyramid pooling): max and avg over 3 levels of a 7 x 5 image (padded
    windows), 1 level, float64."""
    x = g.data("x", g.rand([2, 3, 7, 5]))
    xd = g.data("xd", g.rand([1, 2, 4, 4], -1.0, 1.0, "float64"))
    g.fetch(g.op("spp", {"X": x}, dict(pyramid_height=3, pooling_type="max")),
            g.op("spp", {"X": x}, dict(pyramid_height=3, pooling_type="avg")),
            g.op("spp", {"X": x}, dict(pyramid_height=1, pooling_type="avg")),
            g.op("spp", {"X": xd}, dict(pyramid_height=2, pooling_type="max"), dtype="float64"))


@case()
def segment_pool_modes(g):
    """segment_pool: SUM, MEAN, MAX, MIN over sorted ids with gaps (empty segments are 0) and a
    first id above 0, int64 and int32 ids, float64, int32 and int64 X (integer MEAN
    truncates)."""
    x = g.data("x", g.rand([8, 3, 2]))
    ids = g.data("ids", np.array([1, 1, 3, 3, 3, 4, 6, 6], "int64"))
    ids32 = g.data("ids32", np.array([0, 0, 0, 2, 2, 2, 2, 5], "int32"))
    xd = g.data("xd", g.rand([8, 4], -1.0, 1.0, "float64"))
    xi = g.data("xi", g.randint([8, 3], -20, 20, "int32"))
    xl = g.data("xl", g.randint([8, 3], -20, 20, "int64"))
    outs = []
    for t in ["SUM", "MEAN", "MAX", "MIN"]:
        outs.append(g.op("segment_pool", {"X": x, "SegmentIds": ids}, dict(pooltype=t),
                         outs={"Out": 1, "SummedIds": 1})["Out"][0])
        outs.append(g.op("segment_pool", {"X": xd, "SegmentIds": ids32}, dict(pooltype=t),
                         outs={"Out": 1, "SummedIds": 1}, dtype="float64")["Out"][0])
    for t in ["SUM", "MEAN", "MAX", "MIN"]:
        outs.append(g.op("segment_pool", {"X": xi, "SegmentIds": ids}, dict(pooltype=t),
                         outs={"Out": 1, "SummedIds": 1}, dtype="int32")["Out"][0])
    outs.append(g.op("segment_pool", {"X": xl, "SegmentIds": ids32}, dict(pooltype="MEAN"),
                     outs={"Out": 1, "SummedIds": 1}, dtype="int64")["Out"][0])
    g.fetch(*outs)


@case()
def graph_send_recv_modes(g):
    """graph_send_recv (send_u_recv): SUM, MEAN, MAX, MIN into rows with no edge (0), int64
    and int32 indices, the out_size attribute and the Out_size tensor, float64, int32 and
    int64 X (integer MEAN truncates), MEAN's Dst_count."""
    x = g.data("x", g.rand([5, 2, 3]))
    src = g.data("src", np.array([0, 1, 2, 3, 0, 1, 4], "int64"))
    dst = g.data("dst", np.array([1, 2, 1, 0, 1, 4, 2], "int64"))
    src32 = g.data("src32", np.array([4, 3, 2, 2, 0], "int32"))
    dst32 = g.data("dst32", np.array([5, 0, 5, 1, 5], "int32"))
    osz = g.data("osz", np.array([7], "int32"))
    xd = g.data("xd", g.rand([5, 4], -1.0, 1.0, "float64"))
    xi = g.data("xi", g.randint([5, 3], -20, 20, "int32"))
    xl = g.data("xl", g.randint([5, 3], -20, 20, "int64"))

    def op(xv, s, d, red, dtype=F32, size=None, out_size=0):
        ins = {"X": xv, "Src_index": s, "Dst_index": d}
        if size is not None:
            ins["Out_size"] = size
        return g.op("graph_send_recv", ins, dict(reduce_op=red, out_size=[out_size]),
                    outs={"Out": 1, "Dst_count": 1}, dtype=dtype)
    outs = []
    for red in ["SUM", "MEAN", "MAX", "MIN"]:
        outs.append(op(x, src, dst, red)["Out"][0])
    m = op(x, src32, dst32, "MEAN", out_size=6)
    outs += [m["Out"][0], m["Dst_count"][0]]
    outs.append(op(xd, src32, dst32, "MAX", "float64", size=osz)["Out"][0])
    outs.append(op(xd, src, dst, "MIN", "float64")["Out"][0])
    outs.append(op(xi, src, dst, "MEAN", "int32")["Out"][0])
    outs.append(op(xl, src32, dst32, "SUM", "int64", out_size=6)["Out"][0])
    outs.append(op(xl, src, dst, "MAX", "int64")["Out"][0])
    g.fetch(*outs)


@case()
def graph_send_ue_recv_modes(g):
    """graph_send_ue_recv (send_ue_recv): ADD and MUL messages under SUM, MEAN, MAX, MIN, Y
    broadcast ([E, 1], [E, 1, 3] against X [N, 2, 1]), out_size attribute and Out_size tensor,
    int32 indices, float64 and int32 X."""
    x = g.data("x", g.rand([5, 3]))
    src = g.data("src", np.array([0, 1, 2, 3, 0, 1, 4], "int64"))
    dst = g.data("dst", np.array([1, 2, 1, 0, 1, 4, 2], "int64"))
    y = g.data("y", g.rand([7, 3]))
    y1 = g.data("y1", g.rand([7, 1]))
    x3 = g.data("x3", g.rand([5, 2, 1]))
    y3 = g.data("y3", g.rand([7, 1, 3]))
    src32 = g.data("src32", np.array([4, 3, 2, 2, 0], "int32"))
    dst32 = g.data("dst32", np.array([5, 0, 5, 1, 5], "int32"))
    osz = g.data("osz", np.array([7], "int64"))
    xd = g.data("xd", g.rand([5, 4], -1.0, 1.0, "float64"))
    yd = g.data("yd", g.rand([5, 4], -1.0, 1.0, "float64"))
    xi = g.data("xi", g.randint([5, 3], -20, 20, "int32"))
    yi = g.data("yi", g.randint([7, 3], -5, 5, "int32"))

    def op(xv, yv, s, d, msg, red, dtype=F32, size=None, out_size=0):
        ins = {"X": xv, "Y": yv, "Src_index": s, "Dst_index": d}
        if size is not None:
            ins["Out_size"] = size
        return g.op("graph_send_ue_recv", ins,
                    dict(message_op=msg, reduce_op=red, out_size=[out_size]),
                    outs={"Out": 1, "Dst_count": 1}, dtype=dtype)["Out"][0]
    outs = []
    for msg in ["ADD", "MUL"]:
        for red in ["SUM", "MEAN", "MAX", "MIN"]:
            outs.append(op(x, y, src, dst, msg, red))
    outs.append(op(x, y1, src, dst, "MUL", "SUM"))
    outs.append(op(x3, y3, src, dst, "ADD", "MAX", out_size=6))
    outs.append(op(x3, y, src, dst, "MUL", "MEAN"))
    outs.append(op(xd, yd, src32, dst32, "ADD", "MEAN", "float64", size=osz))
    outs.append(op(xi, yi, src, dst, "MUL", "MEAN", "int32"))
    outs.append(op(xi, yi, src, dst, "ADD", "MIN", "int32"))
    g.fetch(*outs)


@case()
def graph_send_uv_modes(g):
    """graph_send_uv (send_uv): ADD and MUL, broadcast rows (x [N, 1] with y [M, 3], x
    [N, 2, 1] with y [M, 3]), int32 indices, float64 and int64."""
    x = g.data("x", g.rand([5, 3]))
    y = g.data("y", g.rand([4, 3]))
    x1 = g.data("x1", g.rand([5, 1]))
    x3 = g.data("x3", g.rand([5, 2, 1]))
    src = g.data("src", np.array([0, 1, 2, 3, 0, 4], "int64"))
    dst = g.data("dst", np.array([1, 2, 1, 0, 3, 3], "int64"))
    src32 = g.data("src32", np.array([4, 3, 2], "int32"))
    dst32 = g.data("dst32", np.array([3, 0, 2], "int32"))
    xd = g.data("xd", g.rand([5, 2], -1.0, 1.0, "float64"))
    yd = g.data("yd", g.rand([4, 2], -1.0, 1.0, "float64"))
    xl = g.data("xl", g.randint([5, 3], -20, 20, "int64"))
    yl = g.data("yl", g.randint([4, 3], -20, 20, "int64"))

    def op(xv, yv, s, d, msg, dtype=F32):
        return g.op("graph_send_uv", {"x": xv, "y": yv, "src_index": s, "dst_index": d},
                    dict(message_op=msg), outs={"out": 1}, dtype=dtype)
    g.fetch(op(x, y, src, dst, "ADD"), op(x, y, src, dst, "MUL"), op(x1, y, src, dst, "MUL"),
            op(x3, y, src, dst, "ADD"), op(xd, yd, src32, dst32, "MUL", "float64"),
            op(xl, yl, src32, dst32, "ADD", "int64"), op(xl, yl, src, dst, "MUL", "int64"))


@case(note="Paddle 2.6.2: 3.3.1 no longer registers unique_with_counts", paddle2=True,
      **EXACT)
def unique_with_counts_dtypes(g):
    """unique_with_counts: values in order of first appearance, Index and Count in int64
    (default) and int32 (dtype 2), -0.0 and 0.0 one value, float64, int32 and int64 X, one
    element."""
    x = g.data("x", np.array([3.5, -1.0, 3.5, 0.0, 2.0, -0.0, -1.0, 3.5, 7.0], "float32"))
    xd = g.data("xd", g.randint([10], -3, 3, "int64").astype("float64"))
    xi = g.data("xi", g.randint([12], -4, 4, "int32"))
    xl = g.data("xl", g.randint([9], -2, 5, "int64"))
    x1 = g.data("x1", np.array([5], "int32"))
    outs = []
    for v, dt, idt in [(x, F32, 3), (xd, "float64", 2), (xi, "int32", 3), (xl, "int64", 2),
                       (x1, "int32", 3)]:
        r = g.op("unique_with_counts", {"X": v}, dict(dtype=idt),
                 outs={"Out": 1, "Index": 1, "Count": 1}, dtype=dt)
        outs += [r["Out"][0], r["Index"][0], r["Count"][0]]
    g.fetch(*outs)


@case(**EXACT)
def diag_embed_modes(g):
    """diag_embed: the default dims (-2, -1), offsets above and below, dim1 > dim2 and dims
    in front, rank-1 and rank-3 inputs, float64, int32 and int64."""
    x = g.data("x", g.rand([2, 3]))
    v = g.data("v", g.rand([4]))
    x3 = g.data("x3", g.rand([2, 2, 3]))
    xd = g.data("xd", g.rand([3, 2], -1.0, 1.0, "float64"))
    xi = g.data("xi", g.randint([2, 3], -9, 9, "int32"))
    xl = g.data("xl", g.randint([3], -9, 9, "int64"))

    def op(t, offset=0, dim1=-2, dim2=-1, dtype=F32):
        return g.op("diag_embed", {"Input": t}, dict(offset=offset, dim1=dim1, dim2=dim2),
                    dtype=dtype)
    g.fetch(op(x), op(x, 1), op(x, -2), op(v), op(v, 2, 1, 0), op(x3, 0, 0, 2),
            op(x3, -1, 3, 1), op(x3, 1, -4, -1), op(xd, 1, 0, 1, "float64"),
            op(xi, -1, 2, 0, "int32"), op(xl, 0, 0, 1, "int64"))


@case(**EXACT)
def tril_triu_indices_modes(g):
    """tril_indices / triu_indices: square and wide and tall matrices, offsets 0, positive,
    negative and past the matrix (empty), int32 and int64."""
    outs = []
    for rows, cols, off, dt in [(4, 4, 0, 3), (3, 5, 1, 2), (5, 3, -2, 3), (4, 6, 3, 3),
                                (3, 3, -5, 3), (2, 4, 7, 2), (1, 1, 0, 3)]:
        outs.append(g.op("tril_indices", {}, dict(rows=rows, cols=cols, offset=off, dtype=dt),
                         outs={"out": 1}, dtype="int64" if dt == 3 else "int32"))
        outs.append(g.op("triu_indices", {}, dict(row=rows, col=cols, offset=off, dtype=dt),
                         outs={"out": 1}, dtype="int64" if dt == 3 else "int32"))
    g.fetch(*outs)


@case(**EXACT)
def fill_diagonal_tensor_modes(g):
    """fill_diagonal_tensor: the default dims (0, 1), offsets above and below, dims (1, 2),
    (2, 0) and (2, 1) on a rank-3 X (Paddle's kernel takes no negative dims), and X of float64, int32, int64, int16, int8,
    uint8 and bool."""
    x = g.data("x", g.rand([4, 5]))
    y4 = g.data("y4", g.rand([4]))
    y3 = g.data("y3", g.rand([3]))
    x3 = g.data("x3", g.rand([2, 3, 4]))
    y23 = g.data("y23", g.rand([2, 3]))
    y42 = g.data("y42", g.rand([3, 1]))
    outs = [g.op("fill_diagonal_tensor", {"X": x, "Y": y4}, dict(offset=0, dim1=0, dim2=1)),
            g.op("fill_diagonal_tensor", {"X": x, "Y": y3}, dict(offset=2, dim1=0, dim2=1)),
            g.op("fill_diagonal_tensor", {"X": x, "Y": y3}, dict(offset=-1, dim1=0, dim2=1)),
            g.op("fill_diagonal_tensor", {"X": x3, "Y": y23}, dict(offset=0, dim1=1, dim2=2)),
            g.op("fill_diagonal_tensor", {"X": x3, "Y": y42}, dict(offset=1, dim1=2, dim2=0)),
            g.op("fill_diagonal_tensor", {"X": x3, "Y": y23}, dict(offset=-1, dim1=2, dim2=1))]
    for dt in ["float64", "int32", "int64", "int16", "int8", "uint8", "bool"]:
        if dt == "bool":
            xv, yv = g.rand([3, 4]) > 0, g.rand([3]) > 0
        else:
            xv, yv = g.randint([3, 4], -9, 9, dt), g.randint([3], 0, 9, dt)
        a = g.data("x_" + dt, xv)
        b = g.data("y_" + dt, yv)
        outs.append(g.op("fill_diagonal_tensor", {"X": a, "Y": b},
                         dict(offset=1, dim1=0, dim2=1), dtype=dt))
    g.fetch(*outs)


@case()
def multi_dot_chains(g):
    """multi_dot: two matrices, a row times a column (0-D), three in both orders (by Paddle's
    costs), four and five with 1-D ends (the chain order), float64."""
    a = g.data("a", g.rand([3, 4]))
    b = g.data("b", g.rand([4, 2]))
    v = g.data("v", g.rand([4]))
    w = g.data("w", g.rand([4]))
    c1 = g.data("c1", g.rand([2, 6]))
    t1 = g.data("t1", g.rand([10, 2]))
    t2 = g.data("t2", g.rand([2, 9]))
    t3 = g.data("t3", g.rand([9, 1]))
    u1 = g.data("u1", g.rand([1, 8]))
    u2 = g.data("u2", g.rand([8, 7]))
    u3 = g.data("u3", g.rand([7, 5]))
    r = g.data("r", g.rand([6]))
    m1 = g.data("m1", g.rand([6, 3]))
    m2 = g.data("m2", g.rand([3, 7]))
    m3 = g.data("m3", g.rand([7, 2]))
    m4 = g.data("m4", g.rand([2, 5]))
    col = g.data("col", g.rand([5]))
    da = g.data("da", g.rand([3, 4], -1.0, 1.0, "float64"))
    db = g.data("db", g.rand([4, 5], -1.0, 1.0, "float64"))
    dc = g.data("dc", g.rand([5, 2], -1.0, 1.0, "float64"))

    def md(*xs, dtype=F32):
        return g.op("multi_dot", {"X": list(xs)}, dtype=dtype)
    g.fetch(md(a, b), md(v, w), md(a, b, c1), md(t1, t2, t3), md(u1, u2, u3),
            md(r, m1, m2, m3), md(m1, m2, m3, m4, col), md(r, m1, m2, m3, m4, col),
            md(da, db, dc, dtype="float64"))


@case(rtol=1e-4, atol=1e-4,
      note="the inverse in double here, in the dtype in Paddle: float32 differs in the last bits")
def matrix_power_modes(g):
    """matrix_power: n 0 (identity), 1, 2, 3, 5, 8 (binary powering), -1, -2, -5 (powers of
    the inverse), a batch of [2, 3] 3 x 3 matrices, float64."""
    base = np.eye(3, dtype="float32") + 0.3 * g.rand([2, 3, 3, 3])
    x = g.data("x", base.astype("float32"))
    xd = g.data("xd", (np.eye(4) + 0.3 * g.rand([2, 4, 4], -1.0, 1.0, "float64")))
    outs = [g.op("matrix_power", {"X": x}, dict(n=n)) for n in [0, 1, 2, 3, 5, 8, -1, -2, -5]]
    outs += [g.op("matrix_power", {"X": xd}, dict(n=n), dtype="float64") for n in [4, 7, -3]]
    g.fetch(*outs)


@case()
def baddbmm_modes(g):
    """baddbmm: a full Input, broadcast Inputs [1, M, 1], [B, 1, N] and 2-D [B, N], Alpha and
    Beta, Beta 0 (Input not read: a NaN in it does not propagate), float64."""
    x = g.data("x", g.rand([2, 3, 4]))
    y = g.data("y", g.rand([2, 4, 5]))
    i3 = g.data("i3", g.rand([2, 3, 5]))
    ib = g.data("ib", g.rand([1, 3, 1]))
    ic = g.data("ic", g.rand([2, 1, 5]))
    i2 = g.data("i2", g.rand([2, 5]))
    inan = g.data("inan", np.full([2, 3, 5], np.nan, "float32"))
    xd = g.data("xd", g.rand([3, 2, 3], -1.0, 1.0, "float64"))
    yd = g.data("yd", g.rand([3, 3, 2], -1.0, 1.0, "float64"))
    idd = g.data("idd", g.rand([3, 2, 2], -1.0, 1.0, "float64"))

    def op(i, a, b, alpha=1.0, beta=1.0, dtype=F32):
        return g.op("baddbmm", {"Input": i, "X": a, "Y": b}, dict(Alpha=alpha, Beta=beta),
                    dtype=dtype)
    g.fetch(op(i3, x, y), op(i3, x, y, 0.5, -2.0), op(ib, x, y, 1.5, 0.25), op(ic, x, y),
            op(i2, x, y, 2.0, 3.0), op(inan, x, y, 1.0, 0.0),
            op(idd, xd, yd, -0.75, 0.5, "float64"))


@case(rtol=1e-4, atol=1e-5, note="LU in double here, in the dtype in Paddle (Eigen)")
def determinant_slogdet(g):
    """determinant and slogdeterminant: one matrix (0-D det), a [2, 2] batch of 4 x 4 with
    positive and negative determinants, an exactly singular matrix (det 0), a 5 x 5 float64."""
    m = g.data("m", np.array([[2.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.0, 2.0, 1.5]], "float32"))
    b = g.data("b", (np.eye(4) + 0.6 * g.rand([2, 2, 4, 4])).astype("float32"))
    s = g.data("s", np.array([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]]], "float32"))
    d = g.data("d", g.rand([5, 5], -1.0, 1.0, "float64"))
    outs = [g.op("determinant", {"Input": v}, dtype=dt) for v, dt in
            [(m, F32), (b, F32), (s, F32), (d, "float64")]]
    outs += [g.op("slogdeterminant", {"Input": v}, dtype=dt) for v, dt in
             [(m, F32), (b, F32), (d, "float64")]]
    g.fetch(*outs)


@case(**EXACT)
def assign_value_dtypes(g):
    """assign_value (paddle.assign of numpy constants) in float32, float64, int32, int64, bool,
    added to a fed tensor so the program has a feed."""
    x = g.data("x", g.rand([2, 3]))
    c = paddle.assign(np.array([[1.5, -2.25, 3], [4, 5e-3, -6e7]], np.float32))
    g.fetch(g.op("elementwise_add", {"X": x, "Y": c}, dict(axis=-1)),
            paddle.assign(np.array([0.1, -1e-300, 2.5], np.float64)),
            paddle.assign(np.array([[7, -8], [2**31 - 1, -(2**31)]], np.int32)),
            paddle.assign(np.array([2**40 + 3, -5], np.int64)),
            paddle.assign(np.array([True, False, True])))


def _with_abs_max(g, shape, m):
    """Seeded uniform values scaled so that max |x| is m (as float32)."""
    x = g.rand(shape)
    return (x / np.abs(x).max() * m).astype(F32)


@case(train=True, **EXACT)
def quant_train_moving_average(g):
    """Moving-average abs-max quantizers in training mode (is_test false), three steps each
    feeding the next its OutScale, OutAccum and OutState: state = r * state + 1, accum =
    r * accum + max|x|, scale = accum / state; fake_quantize_dequantize_moving_average_abs_max
    (round_type 0, 8 bits, moving_rate 0.9) and fake_quantize_moving_average_abs_max
    (round_type 1, 4 bits, moving_rate 0.7)."""
    xs = [g.data("x%d" % k, _with_abs_max(g, [3, 4, 5], m)) for k, m in
          enumerate((0.9, 1.7, 0.6))]
    fetch = []
    for p, t, rt, bits, rate in (
            ("qd", "fake_quantize_dequantize_moving_average_abs_max", 0, 8, 0.9),
            ("q", "fake_quantize_moving_average_abs_max", 1, 4, 0.7)):
        sc = g.data(p + "s", np.array([0.5], np.float32))
        acc = g.data(p + "a", np.array([1.3], np.float32))
        st = g.data(p + "t", np.array([2.0], np.float32))
        for x in xs:
            r = g.op(t, {"X": x, "InScale": sc, "InAccum": acc, "InState": st},
                     dict(is_test=False, round_type=rt, bit_length=bits, moving_rate=rate),
                     outs={"Out": 1, "OutScale": 1, "OutState": 1, "OutAccum": 1})
            sc, acc, st = r["OutScale"][0], r["OutAccum"][0], r["OutState"][0]
            fetch += [r["Out"][0], sc, acc, st]
    g.fetch(*fetch)


@case(train=True, **EXACT)
def quant_train_observer(g):
    """moving_average_abs_max_scale (OutScaleForTrainingPass's observer) in training mode,
    three steps chained through OutAccum/OutState: Out = X, the moving average of max|x|
    with moving_rate 0.85 in OutScale."""
    xs = [g.data("x%d" % k, _with_abs_max(g, [3, 4, 5], m)) for k, m in
          enumerate((0.9, 1.7, 0.6))]
    fetch = []
    acc = g.data("mas_a", np.array([0.4], np.float32))
    st = g.data("mas_t", np.array([1.5], np.float32))
    for x in xs:
        r = g.op("moving_average_abs_max_scale", {"X": x, "InAccum": acc, "InState": st},
                 dict(is_test=False, moving_rate=0.85),
                 outs={"Out": 1, "OutScale": 1, "OutState": 1, "OutAccum": 1})
        acc, st = r["OutAccum"][0], r["OutState"][0]
        fetch += [r["Out"][0], r["OutScale"][0], acc, st]
    g.fetch(*fetch)


@case(train=True, **EXACT)
def quant_train_nan(g):
    """NaN in the training-mode scales as Paddle's abs-max scans treat it: a NaN first element
    makes the scale NaN, a later NaN is skipped (fake_quantize_abs_max on x with NaN first and
    on y with NaN later); per channel along axis 0 a channel whose first element is NaN gets
    NaN, along axis 1 a NaN (row, channel) block is skipped
    (fake_channel_wise_quantize_abs_max); the moving average of x's NaN scale is NaN."""
    xv = g.rand([3, 4, 5], -1.3, 1.3)
    xv[0, 0, 0] = np.nan
    xv[1, 2, 3] = np.nan
    yv = g.rand([3, 4, 5], -1.3, 1.3)
    yv[2, 1, 4] = np.nan
    x, y = g.data("x", xv), g.data("y", yv)
    o = lambda t, v, **a: g.op(t, {"X": v}, a, outs={"Out": 1, "OutScale": 1})  # noqa: E731
    rs = [o("fake_quantize_abs_max", x, bit_length=8, round_type=1),
          o("fake_quantize_abs_max", y, bit_length=8, round_type=0),
          o("fake_channel_wise_quantize_abs_max", x, bit_length=8, round_type=0, quant_axis=0,
            is_test=False),
          o("fake_channel_wise_quantize_abs_max", x, bit_length=8, round_type=1, quant_axis=1,
            is_test=False)]
    fetch = [v for r in rs for v in (r["Out"][0], r["OutScale"][0])]
    st = [g.data(n, np.array([1.0], np.float32)) for n in ("s", "a", "t")]
    r = g.op("fake_quantize_dequantize_moving_average_abs_max",
             {"X": x, "InScale": st[0], "InAccum": st[1], "InState": st[2]},
             dict(is_test=False, round_type=0, bit_length=8, moving_rate=0.9),
             outs={"Out": 1, "OutScale": 1, "OutState": 1, "OutAccum": 1})
    g.fetch(*fetch, r["Out"][0], r["OutScale"][0])


@case(train=True, **EXACT)
def quant_train_range_abs_max(g):
    """fake_quantize_range_abs_max in training mode (is_test false, window_size 3), four
    steps on one window (OutScales, updated in place: fed, then written by each op; an assign
    after each step records it) with Iter 3, 4, 1, 0: the largest scale leaves the window and
    is recomputed over the first min(Iter, window_size) entries (none for Iter 0: entry 0),
    a larger max|x| raises it; round_type 0 then 1."""
    win = g.data("win", np.array([2.0, 0.5, 0.3], np.float32))
    sc = g.data("s0", np.array([2.0], np.float32))
    fetch = []
    for k, (it, m, rt) in enumerate(((3, 1.2, 0), (4, 1.5, 1), (1, 0.4, 0), (0, 0.2, 1))):
        x = g.data("x%d" % k, _with_abs_max(g, [2, 3, 4], m))
        i = g.data("it%d" % k, np.array([it], np.int64))
        helper = LayerHelper("fake_quantize_range_abs_max")
        out = helper.create_variable_for_type_inference(F32)
        nsc = helper.create_variable_for_type_inference(F32)
        helper.append_op(type="fake_quantize_range_abs_max",
                         inputs={"X": x, "InScale": sc, "Iter": i},
                         outputs={"Out": out, "OutScale": nsc, "OutScales": win},
                         attrs=dict(is_test=False, window_size=3, bit_length=8,
                                    round_type=rt))
        sc = nsc
        fetch += [out, nsc, g.op("assign", {"X": win})]
    g.fetch(*fetch)


@case(train=True, **EXACT)
def quant_train_abs_max(g):
    """The abs-max quantizers in training: fake_quantize_abs_max (round_type 1),
    fake_quantize_dequantize_abs_max (round_type 0, 5 bits), and
    fake_channel_wise_quantize_abs_max (is_test false: scales from the data) along axis 0
    (round_type 0) and 1 (round_type 1, 4 bits); Out and OutScale of each."""
    x = g.data("x", g.rand([3, 4, 5], -1.3, 1.3))
    o = lambda t, **a: g.op(t, {"X": x}, a, outs={"Out": 1, "OutScale": 1})  # noqa: E731
    rs = [o("fake_quantize_abs_max", bit_length=8, round_type=1),
          o("fake_quantize_dequantize_abs_max", bit_length=5, round_type=0),
          o("fake_channel_wise_quantize_abs_max", bit_length=8, round_type=0, quant_axis=0,
            is_test=False),
          o("fake_channel_wise_quantize_abs_max", bit_length=4, round_type=1, quant_axis=1,
            is_test=False)]
    g.fetch(*[v for r in rs for v in (r["Out"][0], r["OutScale"][0])])


@case()
def quant_ops(g):
    """Quantized-program ops at inference (is_test): fake quantize / dequantize with a given
    scale, channel-wise abs-max quant-dequant, fake dequantize (one and two scales),
    quantize_linear / dequantize_linear per tensor and per channel, both round types."""
    x = g.data("x", g.rand([3, 4, 5], -1.2, 1.2))
    s = g.data("s", np.array([0.8], np.float32))
    sc = g.data("sc", np.array([0.5, 1.0, 0.25], np.float32))
    sc4 = g.data("sc4", np.array([0.5, 1.0, 0.7, 0.3], np.float32))
    q8 = g.data("q8", g.randint([3, 4, 5], -128, 128, "int8"))
    zp = g.data("zp", np.zeros([1], np.float32))
    zc = g.data("zc", np.zeros([3], np.float32))
    o = lambda t, ins, outs, **a: g.op(t, ins, a, outs=outs)  # noqa: E731
    fqd = lambda rt, bits=8: o(  # noqa: E731
        "fake_quantize_dequantize_moving_average_abs_max", {"X": x, "InScale": s},
        {"Out": 1, "OutScale": 1}, is_test=True, round_type=rt, bit_length=bits,
        moving_rate=0.9)["Out"][0]
    fcq = lambda rt, axis, bits=8: o(  # noqa: E731
        "fake_channel_wise_quantize_dequantize_abs_max", {"X": x}, {"Out": 1, "OutScale": 1},
        round_type=rt, quant_axis=axis, bit_length=bits)
    fcq0, fcq1 = fcq(1, 0), fcq(0, 1, 4)
    fqr = lambda rt: o("fake_quantize_range_abs_max", {"X": x, "InScale": s},  # noqa: E731
                       {"Out": 1, "OutScale": 1}, is_test=True, round_type=rt, bit_length=8,
                       window_size=10000)["Out"][0]
    ql = lambda xx, sx, z, axis, rt=0, t="quantize_linear": o(  # noqa: E731
        t, {"X": xx, "Scale": sx, "ZeroPoint": z}, {"Y": 1}, quant_axis=axis, bit_length=8,
        qmin=-128, qmax=127, round_type=rt, is_test=True, only_observer=False)
    g.fetch(fqd(0), fqd(1), fqd(1, 4), fcq0["Out"][0], fcq0["OutScale"][0], fcq1["Out"][0],
            fcq1["OutScale"][0], fqr(0), fqr(1),
            g.op("fake_dequantize_max_abs", {"X": x, "Scale": s}, dict(max_range=127.0)),
            g.op("fake_channel_wise_dequantize_max_abs", {"X": x, "Scales": [sc]},
                 dict(quant_bits=[8], quant_axis=0)),
            g.op("fake_channel_wise_dequantize_max_abs", {"X": x, "Scales": [sc4]},
                 dict(quant_bits=[8], quant_axis=1)),
            g.op("fake_channel_wise_dequantize_max_abs", {"X": x, "Scales": [sc4, s]},
                 dict(quant_bits=[8, 8], quant_axis=0, x_num_col_dims=1)),
            ql(x, s, zp, -1), ql(x, s, zp, -1, 1), ql(x, sc, zc, 0),
            ql(x, s, zp, -1, 0, "dequantize_linear"), ql(x, sc, zc, 0, 0, "dequantize_linear"),
            ql(q8, sc, zc, 0, 0, "dequantize_linear"))


@case(**EXACT)
def set_value_modes(g):
    """set_value: ValueTensor broadcast into a strided slice, decrease_axes (SLANet's form with
    tensor-list starts and ends), negative steps, and attribute values."""
    x = g.data("x", g.rand([3, 4, 5]))
    v = g.data("v", g.rand([3, 5]))
    w = g.data("w", g.rand([4, 1]))
    st = g.data("st", np.array([2], np.int64))
    en = g.data("en", np.array([3], np.int64))
    sv = lambda ins, **a: g.op("set_value", dict({"Input": x}, **ins),  # noqa: E731
                               dict(dict(dtype=5, starts=[], ends=[], steps=[], shape=[],
                                         decrease_axes=[], none_axes=[]), **a))
    g.fetch(sv({"ValueTensor": v, "StartsTensorList": [st], "EndsTensorList": [en]}, axes=[1],
               steps=[1], decrease_axes=[1]),
            sv({"ValueTensor": w}, axes=[0, 2], starts=[-1, 4], ends=[-100, 0],
               steps=[-2, -3]),
            sv({}, axes=[2], starts=[1], ends=[5], steps=[2], shape=[1],
               values=[paddle.base.core.Scalar(2.5)]))


@case()
def python_api_ops(g):
    """The new ops as Paddle's Python API writes them into a static program (attribute forms,
    tensor operands): where with broadcasting, gather, topk, sort, cumsum, tile, expand,
    one_hot, arange, full_like, x[::-1], slice assignment, F.pad, F.prelu, pow, comparisons,
    floor_divide, remainder, stack, unstack, p-norm."""
    F = paddle.nn.functional
    x = g.data("x", g.rand([2, 3, 4]), [-1, 3, 4])
    i = g.data("i", np.array([2, 0, 1], np.int64))
    lab = g.data("lab", np.array([[1], [3]], np.int64))
    y = x * 2.0
    m = paddle.where(x > 0.1, x, paddle.zeros_like(x) - 1.0)
    v, idx = paddle.topk(x, k=2, axis=-1)
    srt = paddle.sort(x, axis=1, descending=True)
    z = paddle.static.setitem(x, (slice(None), slice(1, 3), slice(None, None, 2)),
                              paddle.ones([1, 2, 2], "float32") * 5.0)
    n = paddle.shape(x)[0]
    r = paddle.arange(0, n * 3, 2, dtype="int64")
    g.fetch(m, paddle.gather(x, i, axis=1), v, idx, srt, paddle.cumsum(x, axis=1),
            paddle.tile(x, [1, 2, 1]), paddle.expand(x[:, :1, :], [2, 3, 4]),
            F.one_hot(lab, num_classes=5), r, paddle.full_like(x, 3.5), x[:, ::-1, 1:],
            z, F.pad(x.unsqueeze(1), [1, 0, 2, 1], mode="reflect", data_format="NCHW"),
            F.prelu(x, paddle.to_tensor([0.1, 0.2, 0.3], "float32")), paddle.pow(x, 3.0),
            paddle.floor_divide(y, x * 0.0 + 0.75),
            paddle.remainder(y, x * 0.0 + 0.75), paddle.stack([x, y], axis=1),
            paddle.unstack(x, axis=2)[1], paddle.linalg.norm(x, p=3, axis=-1))


@case()
def exp_sqrt(g):
    x = g.data("x", g.rand([3, 5], -4, 4))
    y = g.data("y", np.concatenate([g.rand([7], 0, 9), np.array([0, 1, 4], np.float32)]))
    g.fetch(act(g, "exp", x), act(g, "sqrt", y))


@case()
def scale_bias_order(g):
    x = g.data("x", g.rand([2, 7], -3, 3), [-1, 7])
    i = g.data("i", np.array([[-3, 0, 5, 1000]], np.int32))
    s = lambda v, sc, b, after, dt=F32: g.op(  # noqa: E731
        "scale", {"X": v}, dict(scale=sc, bias=b, bias_after_scale=after), dtype=dt)
    g.fetch(s(x, 2.5, -0.5, False), s(x, 2.5, -0.5, True), s(x, -1.0 / 3, 0.75, False),
            s(i, 3.0, 2.0, False, "int32"), s(i, -2.0, 1.0, True, "int32"))


@case()
def dropout_inference(g):
    """downgrade_in_infer scales by 1 - p at inference; upscale_in_train passes x through."""
    x = g.data("x", g.rand([3, 8]))
    d = lambda impl: g.op("dropout", {"X": x}, dict(  # noqa: E731
        dropout_prob=0.3, is_test=True, dropout_implementation=impl, fix_seed=True, seed=1),
        outs={"Out": 1, "Mask": 1})["Out"][0]
    g.fetch(d("downgrade_in_infer"), d("upscale_in_train"))


# ---------------------------------------------------------------------------------------
# reductions
# ---------------------------------------------------------------------------------------

def reduce(g, type, x, dim, keep=False, all_=False, dtype=F32):
    return g.op(type, {"X": x}, dict(dim=dim, keep_dim=keep, reduce_all=all_), dtype=dtype)


@case()
def reductions(g):
    x = g.data("x", g.rand([2, 3, 4, 5], -2, 2), [-1, 3, 4, 5])
    g.fetch(reduce(g, "reduce_mean", x, [1, -1], keep=True),
            reduce(g, "reduce_mean", x, [], keep=False),         # no dims: every dim
            reduce(g, "reduce_sum", x, [0], all_=True),          # reduce_all wins over dim
            reduce(g, "reduce_sum", x, [2], keep=False),
            reduce(g, "reduce_max", x, [0, 3], keep=False),
            reduce(g, "reduce_max", x, [-2], keep=True),
            g.op("mean", {"X": x}),
            g.op("sum", {"X": [x, x, x]}))


@case(**EXACT)
def reductions_int(g):
    x = g.data("x", g.randint([3, 4], -50, 50, "int64"))
    g.fetch(reduce(g, "reduce_sum", x, [1], dtype="int64"),
            reduce(g, "reduce_max", x, [0], keep=True, dtype="int64"))


def with_nans(g, shape, lo=-2, hi=2, frac=0.1):
    v = g.rand(shape, lo, hi)
    v[g.rng.uniform(0, 1, shape) < frac] = np.nan
    return v


@case()
def reductions_min_prod(g):
    """reduce_min, reduce_amax, reduce_amin and reduce_prod over several axis sets; NaN wins
    in min/max/amax/amin (the NaN input y has NaNs in some but not all slices)."""
    x = g.data("x", g.rand([2, 3, 4, 5], -2, 2), [-1, 3, 4, 5])
    p = g.data("p", g.rand([2, 3, 4, 5], 0.6, 1.4), [-1, 3, 4, 5])
    y = g.data("y", with_nans(g, [3, 4, 5]))
    g.fetch(reduce(g, "reduce_min", x, [1, -1], keep=True),
            reduce(g, "reduce_min", x, [], keep=False),          # no dims: every dim
            reduce(g, "reduce_min", x, [0], all_=True),          # reduce_all wins over dim
            reduce(g, "reduce_amax", x, [0, 3]),
            reduce(g, "reduce_amax", x, [-2], keep=True),
            reduce(g, "reduce_amin", x, [2]),
            reduce(g, "reduce_amin", x, [0, 1, 2, 3], keep=True),
            reduce(g, "reduce_prod", p, [1]),
            reduce(g, "reduce_prod", p, [0, -1], keep=True),
            reduce(g, "reduce_prod", p, [], all_=True),
            reduce(g, "reduce_min", y, [2]),
            reduce(g, "reduce_min", y, [0, 1]),
            reduce(g, "reduce_amax", y, [-1]),
            reduce(g, "reduce_amin", y, [1], keep=True),
            reduce(g, "reduce_max", y, [0]))


@case(**EXACT)
def reductions_min_prod_int(g):
    """Integers: reduce_prod keeps the dtype and wraps (int32 products of 5 values up to 999
    overflow); min/amax/amin in int32 and int64."""
    a = g.data("a", g.randint([3, 4, 5], -999, 999, "int32"))
    b = g.data("b", g.randint([4, 6], -50, 50, "int64"))
    g.fetch(reduce(g, "reduce_prod", a, [2], dtype="int32"),
            reduce(g, "reduce_prod", b, [0], keep=True, dtype="int64"),
            reduce(g, "reduce_min", a, [0, -1], dtype="int32"),
            reduce(g, "reduce_min", b, [], dtype="int64"),
            reduce(g, "reduce_amax", a, [1], keep=True, dtype="int32"),
            reduce(g, "reduce_amin", b, [1], dtype="int64"))


@case(**EXACT)
def reductions_any_all(g):
    """reduce_any and reduce_all on bool (rows all-false, all-true and mixed)."""
    v = g.rng.uniform(0, 1, [3, 4, 5]) < 0.5
    v[0, 0, :] = False
    v[0, 1, :] = True
    v[1, :, :] = False
    x = g.data("x", v)
    g.fetch(reduce(g, "reduce_any", x, [2], dtype="bool"),
            reduce(g, "reduce_any", x, [0, -1], keep=True, dtype="bool"),
            reduce(g, "reduce_any", x, [], dtype="bool"),
            reduce(g, "reduce_any", x, [1], all_=True, dtype="bool"),
            reduce(g, "reduce_all", x, [2], dtype="bool"),
            reduce(g, "reduce_all", x, [-2], keep=True, dtype="bool"))


@case(**EXACT)
def reductions_any_all_num(g):
    """reduce_any and reduce_all on float32 (zeros, NaN counting as true) and int64 X."""
    v = g.rand([3, 4], -1, 1)
    v[0, :] = 0.0
    v[1, 1:] = 0.0
    v[1, 0] = np.nan
    x = g.data("x", v)
    i = g.data("i", g.randint([3, 4], 0, 2, "int64"))
    g.fetch(reduce(g, "reduce_any", x, [1], dtype="bool"),
            reduce(g, "reduce_all", x, [0], dtype="bool"),
            reduce(g, "reduce_any", i, [0], dtype="bool"),
            reduce(g, "reduce_all", i, [-1], keep=True, dtype="bool"))


@case()
def log_softmax_axes(g):
    """log_softmax along the last, a middle and the first axis, float32 and float64; a slice
    with logits 100 below its max (clipped at -64 as in Paddle) and one with -inf."""
    v = g.rand([2, 3, 4], -3, 3)
    v[0, 0, 1] = v[0, 0].max() - 100.0
    v[1, 2, 3] = -np.inf
    x = g.data("x", v)
    d = g.data("d", g.rand([3, 5], -4, 4, dtype="float64"))
    ls = lambda t, axis, dt=F32: g.op("log_softmax", {"X": t}, dict(axis=axis), dtype=dt)  # noqa: E731
    g.fetch(ls(x, -1), ls(x, 1), ls(x, 0), ls(d, -1, "float64"), ls(d, 0, "float64"))


@case()
def logsumexp_axes(g):
    """logsumexp over one axis, several (negative) axes with keepdim, every axis (reduce_all
    and an empty axis list), float32 and float64."""
    x = g.data("x", g.rand([2, 3, 4], -5, 5), [-1, 3, 4])
    d = g.data("d", g.rand([3, 5], -30, 30, dtype="float64"))
    lse = lambda t, axis, keep=False, all_=False, dt=F32: g.op(  # noqa: E731
        "logsumexp", {"X": t}, dict(axis=axis, keepdim=keep, reduce_all=all_), dtype=dt)
    g.fetch(lse(x, [1]), lse(x, [0, -1], keep=True), lse(x, [2], all_=True), lse(x, []),
            lse(d, [-1], dt="float64"), lse(d, [0], keep=True, dt="float64"))


TRIG_MORE = ["tan", "acos", "asin", "atan", "sinh", "cosh", "expm1", "trunc"]


@case()
def math_trig_more(g):
    """tan, acos, asin, atan, sinh, cosh, expm1 and trunc on float32 (acos/asin also outside
    [-1, 1]: NaN), float64, and the special values NaN, +-inf, +-0."""
    x = g.data("x", g.rand([4, 9], -1.6, 1.6), [-1, 9])
    d = g.data("d", g.rand([2, 7], -3, 3, dtype="float64"))
    s = g.data("s", np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 1e-7],
                             np.float32))
    g.fetch(*[act(g, n, x) for n in TRIG_MORE])
    g.fetch(*[g.op(n, {"X": d}, {}, dtype="float64") for n in TRIG_MORE])
    g.fetch(*[act(g, n, s) for n in TRIG_MORE])


@case(**EXACT)
def trunc_int(g):
    """trunc passes int32 and int64 through."""
    a = g.data("a", g.randint([3, 4], -50, 50, "int32"))
    b = g.data("b", g.randint([5], -50, 50, "int64"))
    g.fetch(g.op("trunc", {"X": a}, {}, dtype="int32"), g.op("trunc", {"X": b}, {}, dtype="int64"))


# ---------------------------------------------------------------------------------------
# LSTM through the rnn op
# ---------------------------------------------------------------------------------------

@case()
def lstm_bidirect_time_major(g):
    """2 layers, bidirectional, time-major, sequence lengths, zero initial states built by
    Paddle from the input's shape (shape, slice, fill_constant with ShapeTensorList)."""
    x = g.data("x", g.rand([5, 3, 4], -1.5, 1.5), [-1, -1, 4])
    seq = g.data("seq_len", np.array([5, 1, 3], np.int64), [-1])
    lstm = paddle.nn.LSTM(4, 6, num_layers=2, direction="bidirect", time_major=True)
    out, (h, c) = lstm(x, sequence_length=seq)
    g.fetch(out, h, c)


@case()
def lstm_batch_major(g):
    """Batch-major input (transpose2 around rnn), given initial states, full lengths."""
    x = g.data("x", g.rand([2, 6, 3], -1.5, 1.5), [-1, -1, 3])
    h0 = g.data("h0", g.rand([1, 2, 5], -0.8, 0.8), [1, -1, 5])
    c0 = g.data("c0", g.rand([1, 2, 5], -0.8, 0.8), [1, -1, 5])
    lstm = paddle.nn.LSTM(3, 5)
    out, (h, c) = lstm(x, (h0, c0))
    g.fetch(out, h, c)


# ---------------------------------------------------------------------------------------
# a transformer block from raw ops (dynamic batch)
# ---------------------------------------------------------------------------------------

@case()
def attention_block(g):
    B, T, D, H = 2, 5, 8, 2
    x = g.data("x", g.rand([B, T, D], -2, 2), [-1, T, D])
    ln_w, ln_b = g.param("ln.w", g.rand([D], 0.5, 1.5)), g.param("ln.b", g.rand([D], -0.2, 0.2))
    wqkv = g.param("qkv.w", g.rand([D, 3 * D], -0.5, 0.5))
    bqkv = g.param("qkv.b", g.rand([3 * D], -0.1, 0.1))
    wo, bo = g.param("o.w", g.rand([D, D], -0.5, 0.5)), g.param("o.b", g.rand([D], -0.1, 0.1))
    xs = {"Out": 1, "XShape": 1}
    ln = g.op("layer_norm", {"X": x, "Scale": ln_w, "Bias": ln_b},
              dict(begin_norm_axis=2, epsilon=1e-5),
              outs={"Y": 1, "Mean": 1, "Variance": 1})["Y"][0]
    qkv = ew(g, "elementwise_add", g.op("matmul_v2", {"X": ln, "Y": wqkv}), bqkv)
    qkv = g.op("reshape2", {"X": qkv}, dict(shape=[0, 0, 3, H, D // H]), outs=xs)["Out"][0]
    qkv = g.op("transpose2", {"X": qkv}, dict(axis=[2, 0, 3, 1, 4]), outs=xs)["Out"][0]
    q, k, v = g.op("split", {"X": qkv}, dict(axis=0, num=3, sections=[]), outs={"Out": 3})["Out"]
    sq = lambda t: g.op("squeeze2", {"X": t}, dict(axes=[0]), outs=xs)["Out"][0]  # noqa: E731
    q, k, v = sq(q), sq(k), sq(v)
    att = g.op("matmul_v2", {"X": q, "Y": k}, dict(trans_x=False, trans_y=True))
    att = g.op("scale", {"X": att}, dict(scale=(D // H) ** -0.5, bias=0.0,
                                         bias_after_scale=True))
    att = g.op("softmax", {"X": att}, dict(axis=-1))
    ctx = g.op("matmul_v2", {"X": att, "Y": v})
    ctx = g.op("transpose2", {"X": ctx}, dict(axis=[0, 2, 1, 3]), outs=xs)["Out"][0]
    ctx = g.op("reshape2", {"X": ctx}, dict(shape=[0, 0, D]), outs=xs)["Out"][0]
    o = ew(g, "elementwise_add", g.op("matmul_v2", {"X": ctx, "Y": wo}), bo)
    y = ew(g, "elementwise_add", x, g.op("gelu", {"X": o}, dict(approximate=False)))
    g.fetch(y, att)


@case(rtol=1e-10, atol=1e-12, note="float64 throughout: both sides compute in double")
def float64_ops(g):
    """The float64 kernels: a few ops of every family in double precision."""
    f64 = "float64"
    x = g.data("x", g.rand([2, 3, 4], -3, 3, f64), [-1, 3, 4])
    y = g.data("y", g.rand([4, 5], -1, 1, f64))
    w = g.param("w", g.rand([4], 0.5, 1.5, f64))
    b = g.param("b", g.rand([4], -0.5, 0.5, f64))
    ln = g.op("layer_norm", {"X": x, "Scale": w, "Bias": b}, dict(begin_norm_axis=2, epsilon=1e-5),
              outs={"Y": 1, "Mean": 1, "Variance": 1}, dtype=f64)["Y"][0]
    g.fetch(ln,
            g.op("matmul_v2", {"X": x, "Y": y}, dtype=f64),
            g.op("softmax", {"X": x}, dict(axis=1), dtype=f64),
            g.op("gelu", {"X": x}, dict(approximate=False), dtype=f64),
            g.op("tanh", {"X": x}, dtype=f64),
            g.op("hard_swish", {"X": x}, dtype=f64),
            ew(g, "elementwise_div", x, w, dtype=f64),
            reduce(g, "reduce_mean", x, [1], keep=True, dtype=f64),
            g.op("scale", {"X": x}, dict(scale=0.3, bias=0.1, bias_after_scale=False), dtype=f64))


# ---------------------------------------------------------------------------------------
# resize (paddle/phi/kernels/cpu/interpolate_kernel.cc; v1: fluid interpolate_op.h)
# ---------------------------------------------------------------------------------------

def interp(g, type, x, ins=None, **attrs):
    a = dict(data_layout="NCHW", out_d=-1, out_h=-1, out_w=-1, align_corners=False,
             align_mode=1)
    a.update(attrs)
    i = {"X": x}
    i.update(ins or {})
    return g.op(type, i, a)


@case()
def interp_nearest(g):
    """nearest_interp_v2 by a scale list, by out_h/out_w with align_corners, NHWC, 3-D, and
    nearest_interp (v1) with a float scale."""
    x = g.data("x", g.rand([1, 2, 3, 5]), [-1, 2, -1, -1])
    xl = g.data("xl", g.rand([1, 3, 4, 2]), [-1, -1, -1, 2])
    x5 = g.data("x5", g.rand([1, 2, 2, 3, 2]))
    g.fetch(interp(g, "nearest_interp_v2", x, interp_method="nearest", scale=[2.0, 1.5]),
            interp(g, "nearest_interp_v2", x, interp_method="nearest", out_h=7, out_w=3,
                   align_corners=True),
            interp(g, "nearest_interp_v2", xl, interp_method="nearest", out_h=5, out_w=7,
                   data_layout="NHWC"),
            interp(g, "nearest_interp_v2", x5, interp_method="nearest", out_d=3, out_h=5,
                   out_w=3, data_layout="NCDHW"),
            interp(g, "nearest_interp", x, interp_method="nearest", scale=1.7))


@case()
def interp_bilinear(g):
    """bilinear_interp_v2: align_corners, align_mode 0 / 1, a scale list (ratio 1 / scale),
    NHWC; bilinear_interp (v1): a float scale (ratio in / out) and out_h / out_w."""
    x = g.data("x", g.rand([2, 2, 4, 5]), [-1, 2, -1, -1])
    xl = g.data("xl", g.rand([1, 3, 4, 2]), [-1, -1, -1, 2])
    bi = "bilinear"
    g.fetch(interp(g, "bilinear_interp_v2", x, interp_method=bi, out_h=7, out_w=3,
                   align_corners=True),
            interp(g, "bilinear_interp_v2", x, interp_method=bi, out_h=7, out_w=9, align_mode=0),
            interp(g, "bilinear_interp_v2", x, interp_method=bi, out_h=3, out_w=8, align_mode=1),
            interp(g, "bilinear_interp_v2", x, interp_method=bi, scale=[1.7, 0.6], align_mode=0),
            interp(g, "bilinear_interp_v2", xl, interp_method=bi, out_h=6, out_w=5, align_mode=0,
                   data_layout="NHWC"),
            interp(g, "bilinear_interp", x, interp_method=bi, scale=1.7, align_mode=0),
            interp(g, "bilinear_interp", x, interp_method=bi, out_h=5, out_w=4,
                   align_corners=True))


@case()
def interp_size_inputs(g):
    """The size inputs and their precedence: SizeTensor over OutSize over Scale over the
    scale attribute over out_h / out_w."""
    x = g.data("x", g.rand([1, 2, 4, 5]), [-1, 2, -1, -1])
    osz = g.data("osz", np.array([6, 3], "int32"))
    s1 = g.data("s1", np.array([5], "int32"))
    s2 = g.data("s2", np.array([7], "int32"))
    sc = g.data("sc", np.array([1.5, 2.5], F32))
    sc1 = g.data("sc1", np.array([0.8], F32))
    bi = "bilinear"
    g.fetch(interp(g, "bilinear_interp_v2", x, {"OutSize": osz}, interp_method=bi, out_h=2,
                   out_w=2, scale=[3.0, 3.0], align_mode=0),
            interp(g, "bilinear_interp_v2", x, {"SizeTensor": [s1, s2], "OutSize": osz},
                   interp_method=bi, align_mode=0),
            interp(g, "bilinear_interp_v2", x, {"Scale": sc}, interp_method=bi, scale=[3.0, 3.0],
                   align_mode=0),
            interp(g, "nearest_interp_v2", x, {"Scale": sc1}, interp_method="nearest"),
            interp(g, "nearest_interp", x, {"OutSize": osz}, interp_method="nearest", scale=2.0))


@case()
def interp_linear_bicubic_trilinear(g):
    """linear_interp_v2 (NCW, NWC), bicubic_interp_v2 (align_corners, half-pixel, NHWC) and
    trilinear_interp_v2 (align_mode 0 / 1, NDHWC)."""
    x3 = g.data("x3", g.rand([2, 3, 5]))
    x4 = g.data("x4", g.rand([1, 2, 4, 5]))
    x5 = g.data("x5", g.rand([1, 2, 3, 4, 3]))
    g.fetch(interp(g, "linear_interp_v2", x3, interp_method="linear", out_w=8, align_mode=0),
            interp(g, "linear_interp_v2", x3, interp_method="linear", scale=[1.5],
                   data_layout="NHWC"),
            interp(g, "linear_interp_v2", x3, interp_method="linear", out_w=4,
                   align_corners=True),
            interp(g, "bicubic_interp_v2", x4, interp_method="bicubic", out_h=7, out_w=3,
                   align_corners=True),
            interp(g, "bicubic_interp_v2", x4, interp_method="bicubic", out_h=3, out_w=9),
            interp(g, "bicubic_interp_v2", x4, interp_method="bicubic", scale=[1.5, 2.0],
                   data_layout="NHWC"),
            interp(g, "trilinear_interp_v2", x5, interp_method="trilinear", out_d=5, out_h=3,
                   out_w=4, align_mode=0),
            interp(g, "trilinear_interp_v2", x5, interp_method="trilinear", out_d=2, out_h=6,
                   out_w=5, align_corners=True, data_layout="NDHWC"))


# ---------------------------------------------------------------------------------------
# dense prediction: conv2d_transpose, arg_max / arg_min, pixel_shuffle, group / instance norm
# ---------------------------------------------------------------------------------------

def convt(g, x, w, type="conv2d_transpose", strides=(1, 1), paddings=(0, 0), dilations=(1, 1),
          groups=1, algo="EXPLICIT", fmt="NCHW", output_padding=(), output_size=()):
    return g.op(type, {"Input": x, "Filter": w},
                dict(strides=list(strides), paddings=list(paddings), dilations=list(dilations),
                     groups=groups, padding_algorithm=algo, data_format=fmt,
                     output_padding=list(output_padding), output_size=list(output_size)),
                outs={"Output": 1})


@case()
def conv2d_transpose_modes(g):
    """conv2d_transpose: strides, four paddings, dilations, groups, output_padding,
    output_size, SAME, VALID, NHWC; depthwise_conv2d_transpose."""
    x = g.data("x", g.rand([2, 4, 5, 4]), [-1, 4, -1, -1])
    xl = g.data("xl", g.rand([1, 3, 4, 4]), [-1, -1, -1, 4])
    w = g.param("w", g.rand([4, 3, 3, 3], -0.5, 0.5))
    wg = g.param("wg", g.rand([4, 2, 3, 2], -0.5, 0.5))
    wd = g.param("wd", g.rand([4, 1, 3, 3], -0.5, 0.5))
    g.fetch(convt(g, x, w, strides=(2, 2), paddings=(1, 1)),
            convt(g, x, w, strides=(2, 3), paddings=(0, 1, 2, 1), dilations=(2, 1)),
            convt(g, x, wg, strides=(2, 2), groups=2, output_padding=(1, 1)),
            convt(g, x, w, strides=(3, 2), paddings=(1, 1), output_size=(13, 8)),
            convt(g, x, w, strides=(2, 2), algo="SAME", dilations=(2, 2)),
            convt(g, x, w, strides=(2, 1), paddings=(3, 3), algo="VALID"),
            convt(g, xl, w, strides=(2, 2), paddings=(1, 0), fmt="NHWC"),
            convt(g, x, wd, type="depthwise_conv2d_transpose", strides=(2, 2), paddings=(1, 1),
                  groups=4))


@case(**EXACT)
def arg_max_min(g):
    """arg_max / arg_min: axis (negative too), keepdims, flatten, dtype int32 / int64, ties
    (the first index wins), an int input."""
    x = g.data("x", np.round(g.rand([3, 4, 5], -2, 2) * 2) / 2)
    xi = g.data("xi", g.randint([4, 6], -5, 5))
    def am(type, v, **attrs):
        a = dict(axis=-1, keepdims=False, flatten=False, dtype=3)
        a.update(attrs)
        return g.op(type, {"X": v}, a, dtype="int64" if a["dtype"] == 3 else "int32")
    g.fetch(am("arg_max", x, axis=1),
            am("arg_max", x, axis=-1, keepdims=True, dtype=2),
            am("arg_max", x, flatten=True),
            am("arg_max", x, flatten=True, keepdims=True),
            am("arg_min", x, axis=0),
            am("arg_min", x, axis=2, keepdims=True),
            am("arg_min", xi, axis=1, dtype=2),
            am("arg_max", xi, axis=0))


@case(**EXACT)
def pixel_shuffle_modes(g):
    """pixel_shuffle: upscale_factor 2 and 3, NCHW and NHWC."""
    x = g.data("x", g.rand([2, 8, 3, 2]))
    x9 = g.data("x9", g.rand([1, 18, 2, 3]))
    xl = g.data("xl", g.rand([1, 2, 3, 8]))
    ps = lambda v, r, f="NCHW": g.op("pixel_shuffle", {"X": v},  # noqa: E731
                                     dict(upscale_factor=r, data_format=f))
    g.fetch(ps(x, 2), ps(x9, 3), ps(xl, 2, "NHWC"))


@case()
def group_instance_norm(g):
    """group_norm (NCHW and NHWC, 2 and 3 groups, with and without Scale / Bias)
    and instance_norm (with and without Scale / Bias, 3-D and 4-D inputs)."""
    x = g.data("x", g.rand([2, 6, 3, 4], -2, 2))
    xl = g.data("xl", g.rand([2, 3, 2, 6], -2, 2))
    x3 = g.data("x3", g.rand([2, 3, 7], -2, 2))
    s = g.param("s", g.rand([6], 0.5, 1.5))
    b = g.param("b", g.rand([6], -0.5, 0.5))
    s3 = g.param("s3", g.rand([3], 0.5, 1.5))
    b3 = g.param("b3", g.rand([3], -0.5, 0.5))
    gn_outs = {"Y": 1, "Mean": 1, "Variance": 1}
    def gn(v, groups, fmt="NCHW", sb=True):
        ins = {"X": v}
        if sb:
            ins.update(Scale=s, Bias=b)
        return g.op("group_norm", ins, dict(epsilon=1e-5, groups=groups, data_layout=fmt),
                    outs=gn_outs)
    def inorm(v, sb):
        ins = {"X": v}
        if sb:
            ins.update(Scale=s3, Bias=b3)
        return g.op("instance_norm", ins, dict(epsilon=1e-5),
                    outs={"Y": 1, "SavedMean": 1, "SavedVariance": 1})
    g1, g2, g3 = gn(x, 3), gn(x, 2, sb=False), gn(xl, 3, "NHWC")
    i1, i2 = inorm(x3, True), inorm(g.op("transpose2", {"X": xl}, dict(axis=[0, 3, 1, 2]),
                                         outs={"Out": 1, "XShape": 1})["Out"][0], False)
    g.fetch(g1["Y"][0], g1["Mean"][0], g1["Variance"][0], g2["Y"][0], g3["Y"][0],
            i1["Y"][0], i2["Y"][0])  # (save_inference_model drops SavedMean / SavedVariance)


@case()
def grid_sampler_modes(g):
    """grid_sampler: bilinear and nearest, padding_mode zeros / border / reflection, with and
    without align_corners, grids reaching outside [-1, 1]; one 3-D (5-D X) case."""
    x = g.data("x", g.rand([2, 3, 4, 5]))
    grid = g.data("grid", g.rand([2, 3, 6, 2], -1.4, 1.4))
    x5 = g.data("x5", g.rand([1, 2, 3, 4, 3]))
    grid5 = g.data("grid5", g.rand([1, 2, 3, 2, 3], -1.3, 1.3))
    outs = []
    for mode in ("bilinear", "nearest"):
        for pad in ("zeros", "border", "reflection"):
            for align in (True, False):
                outs.append(g.op("grid_sampler", {"X": x, "Grid": grid},
                                 dict(mode=mode, padding_mode=pad, align_corners=align),
                                 outs={"Output": 1}))
    outs.append(g.op("grid_sampler", {"X": x5, "Grid": grid5},
                     dict(mode="bilinear", padding_mode="reflection", align_corners=False),
                     outs={"Output": 1}))
    outs.append(g.op("grid_sampler", {"X": x5, "Grid": grid5},
                     dict(mode="nearest", padding_mode="zeros", align_corners=True),
                     outs={"Output": 1}))
    g.fetch(*outs)


@case()
def conv3d_pool3d(g):
    """conv3d: strides, six paddings, dilations, groups, SAME, NDHWC; pool3d: max / avg,
    ceil_mode, exclusive or not, global, adaptive (avg and max), NDHWC."""
    x = g.data("x", g.rand([2, 4, 5, 6, 5]), [-1, 4, -1, -1, -1])
    xl = g.data("xl", g.rand([1, 4, 5, 3, 4]), [-1, -1, -1, -1, 4])
    w = g.param("w", g.rand([3, 4, 3, 2, 3], -0.5, 0.5))
    wg = g.param("wg", g.rand([4, 2, 2, 3, 2], -0.5, 0.5))
    def c3(v, f, fmt="NCDHW", **kw):
        a = dict(strides=[1, 1, 1], paddings=[0, 0, 0], dilations=[1, 1, 1], groups=1,
                 padding_algorithm="EXPLICIT", data_format=fmt)
        a.update(kw)
        return g.op("conv3d", {"Input": v, "Filter": f}, a, outs={"Output": 1})
    def p3(v, type, ksize, fmt="NCDHW", **kw):
        a = dict(pooling_type=type, ksize=ksize, strides=[1, 1, 1], paddings=[0, 0, 0],
                 global_pooling=False, ceil_mode=False, exclusive=True, adaptive=False,
                 padding_algorithm="EXPLICIT", data_format=fmt)
        a.update(kw)
        return g.op("pool3d", {"X": v}, a)
    g.fetch(c3(x, w, strides=[2, 1, 2], paddings=[1, 0, 1, 1, 0, 2], dilations=[1, 2, 1]),
            c3(x, wg, groups=2, paddings=[1, 1, 1]),
            c3(x, w, strides=[2, 2, 2], padding_algorithm="SAME", dilations=[2, 2, 2]),
            c3(xl, w, fmt="NDHWC", paddings=[1, 1, 1]),
            p3(x, "max", [2, 3, 2], strides=[2, 2, 2], paddings=[1, 1, 0], ceil_mode=True),
            p3(x, "avg", [3, 3, 3], strides=[2, 2, 2], paddings=[1, 1, 1]),
            p3(x, "avg", [3, 3, 3], strides=[2, 2, 2], paddings=[1, 1, 1], exclusive=False),
            p3(x, "max", [1, 1, 1], global_pooling=True),
            p3(x, "avg", [2, 4, 3], adaptive=True),
            p3(x, "max", [2, 3, 2], adaptive=True),
            p3(xl, "avg", [2, 2, 2], fmt="NDHWC", strides=[1, 2, 1]))


@case()
def deformable_conv_modes(g):
    """deformable_conv (with Mask) and deformable_conv_v1: strides, paddings, dilations,
    groups, deformable_groups, offsets that reach outside the image."""
    x = g.data("x", g.rand([2, 4, 6, 5]))
    w = g.param("w", g.rand([6, 2, 3, 3], -0.5, 0.5))
    w1 = g.param("w1", g.rand([3, 4, 2, 3], -0.5, 0.5))
    # deformable_groups 2, groups 2, stride 1, padding 1: output 6 x 5
    off = g.data("off", g.rand([2, 2 * 2 * 9, 6, 5], -2.5, 2.5))
    mask = g.data("mask", g.rand([2, 2 * 9, 6, 5], 0, 1))
    # v1, stride 2, dilation [2, 1], padding [1, 0]: output (6 + 2 - 3) / 2 + 1 = 3 by
    # (5 - 3) / 2 + 1 = 2
    off1 = g.data("off1", g.rand([2, 2 * 6, 3, 2], -1.5, 1.5))
    a = dict(strides=[1, 1], paddings=[1, 1], dilations=[1, 1], groups=2,
             deformable_groups=2, im2col_step=1)
    a1 = dict(strides=[2, 2], paddings=[1, 0], dilations=[2, 1], groups=1,
              deformable_groups=1, im2col_step=1)
    g.fetch(g.op("deformable_conv", {"Input": x, "Offset": off, "Mask": mask, "Filter": w}, a,
                 outs={"Output": 1}),
            g.op("deformable_conv_v1", {"Input": x, "Offset": off1, "Filter": w1}, a1,
                 outs={"Output": 1}))


# ---------------------------------------------------------------------------------------
# writing a case
# ---------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------
# detection (paddle/phi/kernels/cpu/prior_box_kernel.cc, box_coder_kernel.cc,
# yolo_box_kernel.cc, multiclass_nms3_kernel.cc)
# ---------------------------------------------------------------------------------------

def det_boxes(g, n, scale=1.0, lo=0.0):
    """n boxes [x0, y0, x1, y1] with x0 < x1, y0 < y1, overlapping often."""
    xy = g.rand([n, 2], lo, 0.7 * scale)
    wh = g.rand([n, 2], 0.05 * scale, 0.4 * scale)
    return np.concatenate([xy, xy + wh], axis=1).astype(F32)


@case()
def prior_box_modes(g):
    """Default order with max sizes and flipped ratios; Caffe order (min_max_aspect_ratios_order)
    with clip, explicit steps and offset; BlazeFace-style ratio 1 only."""
    feat = g.data("feat", g.rand([1, 4, 3, 4]), [-1, 4, -1, -1])
    img = g.data("img", g.rand([1, 3, 48, 64]), [-1, 3, -1, -1])
    outs = {"Boxes": 1, "Variances": 1}
    a = g.op("prior_box", {"Input": feat, "Image": img},
             dict(min_sizes=[16.0, 24.0], max_sizes=[32.0, 40.0], aspect_ratios=[2.0, 3.0],
                  variances=[0.1, 0.1, 0.2, 0.2], flip=True, clip=False, step_w=0.0,
                  step_h=0.0, offset=0.5, min_max_aspect_ratios_order=False), outs=outs)
    b = g.op("prior_box", {"Input": feat, "Image": img},
             dict(min_sizes=[30.0], max_sizes=[60.0], aspect_ratios=[2.0, 1.0, 0.5],
                  variances=[0.5, 0.25, 1.0, 2.0], flip=False, clip=True, step_w=12.0,
                  step_h=10.0, offset=0.25, min_max_aspect_ratios_order=True), outs=outs)
    c = g.op("prior_box", {"Input": feat, "Image": img},
             dict(min_sizes=[8.0, 12.0], aspect_ratios=[1.0], variances=[0.1, 0.1, 0.2, 0.2],
                  flip=True, clip=False, step_w=16.0, step_h=16.0, offset=0.5,
                  min_max_aspect_ratios_order=True), outs=outs)
    g.fetch(a["Boxes"][0], a["Variances"][0], b["Boxes"][0], b["Variances"][0], c["Boxes"][0])


@case()
def box_coder_modes(g):
    """encode (unnormalized, variance attribute), decode axis 0 with PriorBoxVar, decode
    axis 1 with the attribute, decode without any variance."""
    prior = g.data("prior", det_boxes(g, 5, 20.0))
    pvar = g.data("pvar", g.rand([5, 4], 0.1, 1.0))
    target = g.data("target", det_boxes(g, 3, 20.0))
    deltas = g.data("deltas", g.rand([3, 5, 4], -1, 1))
    prior3 = g.data("prior3", det_boxes(g, 3, 1.0))
    outs = {"OutputBox": 1}
    enc = g.op("box_coder", {"PriorBox": prior, "TargetBox": target},
               dict(code_type="encode_center_size", box_normalized=False,
                    variance=[0.1, 0.1, 0.2, 0.2]), outs=outs)
    dec0 = g.op("box_coder", {"PriorBox": prior, "PriorBoxVar": pvar, "TargetBox": deltas},
                dict(code_type="decode_center_size", box_normalized=True, axis=0), outs=outs)
    dec1 = g.op("box_coder", {"PriorBox": prior3, "TargetBox": deltas},
                dict(code_type="decode_center_size", box_normalized=True, axis=1,
                     variance=[0.1, 0.2, 0.3, 0.4]), outs=outs)
    dec2 = g.op("box_coder", {"PriorBox": prior, "TargetBox": deltas},
                dict(code_type="decode_center_size", box_normalized=False, axis=0), outs=outs)
    g.fetch(enc, dec0, dec1, dec2)


@case()
def yolo_box_modes(g):
    """clip_bbox with conf_thresh; scale_x_y without clipping; iou_aware with its factor."""
    x = g.data("x", g.rand([2, 2 * 8, 3, 4], -3, 3))
    xi = g.data("xi", g.rand([2, 2 * 9, 3, 4], -3, 3))
    size = g.data("size", np.array([[60, 80], [96, 40]], dtype="int32"))
    outs = {"Boxes": 1, "Scores": 1}
    anchors = [10, 13, 30, 61]
    a = g.op("yolo_box", {"X": x, "ImgSize": size},
             dict(anchors=anchors, class_num=3, conf_thresh=0.3, downsample_ratio=32,
                  clip_bbox=True, scale_x_y=1.0), outs=outs)
    b = g.op("yolo_box", {"X": x, "ImgSize": size},
             dict(anchors=anchors, class_num=3, conf_thresh=0.1, downsample_ratio=16,
                  clip_bbox=False, scale_x_y=1.05), outs=outs)
    c = g.op("yolo_box", {"X": xi, "ImgSize": size},
             dict(anchors=anchors, class_num=3, conf_thresh=0.2, downsample_ratio=8,
                  clip_bbox=True, scale_x_y=1.2, iou_aware=True, iou_aware_factor=0.4),
             outs=outs)
    g.fetch(a["Boxes"][0], a["Scores"][0], b["Boxes"][0], b["Scores"][0], c["Boxes"][0],
            c["Scores"][0])


# density_prior_box: no case, Paddle 3.3.1 no longer registers the op (tests/test_ops_detection.c
# checks it against a reference).


@case()
def roi_align_modes(g):
    """RoisNum (int32) splitting 5 regions over 2 images; adaptive sampling without aligned,
    sampling_ratio 2 with aligned; a region partly outside the map."""
    x = g.data("x", g.rand([2, 3, 7, 9]))
    rois = g.data("rois", np.array([[2, 3, 20, 18], [0, 0, 30, 10], [-6, -4, 8, 40],
                                    [12, 6, 13, 7], [4, 4, 4.5, 30]], dtype=F32) / 2)
    num = g.data("num", np.array([3, 2], dtype="int32"))
    a = g.op("roi_align", {"X": x, "ROIs": rois, "RoisNum": num},
             dict(pooled_height=2, pooled_width=3, spatial_scale=0.5, sampling_ratio=-1,
                  aligned=False))
    b = g.op("roi_align", {"X": x, "ROIs": rois, "RoisNum": num},
             dict(pooled_height=3, pooled_width=2, spatial_scale=0.25, sampling_ratio=2,
                  aligned=True))
    g.fetch(a, b)


@case(**EXACT, note="regions are only moved: exact")
def fpn_proposals(g):
    """distribute_fpn_proposals over levels 2..5 with RoisNum and pixel_offset, and
    collect_fpn_proposals of two levels with MultiLevelRoIsNum and post_nms_topN."""
    rois = g.data("rois", np.array([[0, 0, 223, 223], [10, 10, 40, 40], [0, 0, 999, 999],
                                    [5, 5, 5, 5], [0, 0, 111, 111], [0, 0, 500, 400],
                                    [30, 20, 10, 50]], dtype=F32))
    num = g.data("num", np.array([4, 3], dtype="int32"))
    d = g.op("distribute_fpn_proposals", {"FpnRois": rois, "RoisNum": num},
             dict(min_level=2, max_level=5, refer_level=4, refer_scale=224, pixel_offset=True),
             outs={"MultiFpnRois": 4, "RestoreIndex": 1, "MultiLevelRoIsNum": 4},
             dtype=F32)
    r0 = g.data("r0", det_boxes(g, 4, 20.0))
    r1 = g.data("r1", det_boxes(g, 4, 20.0))
    s0 = g.data("s0", g.rand([4, 1], 0, 1))
    s1 = g.data("s1", g.rand([4, 1], 0, 1))
    n0 = g.data("n0", np.array([3, 1], dtype="int32"))
    n1 = g.data("n1", np.array([2, 2], dtype="int32"))
    c = g.op("collect_fpn_proposals",
             {"MultiLevelRois": [r0, r1], "MultiLevelScores": [s0, s1],
              "MultiLevelRoIsNum": [n0, n1]},
             dict(post_nms_topN=5), outs={"FpnRois": 1, "RoisNum": 1})
    g.fetch(*d["MultiFpnRois"], d["RestoreIndex"][0], *d["MultiLevelRoIsNum"], c["FpnRois"][0],
            c["RoisNum"][0])


@case()
def generate_proposals_v2_modes(g):
    """RPN proposals for 2 images: pre/post top-N, NMS with eta, pixel_offset on; a second op
    with pixel_offset off, all candidates and NMS off."""
    A, H, W = 3, 4, 5
    scores = g.data("scores", g.rand([2, A, H, W], 0, 1))
    deltas = g.data("deltas", g.rand([2, 4 * A, H, W], -0.5, 0.5))
    im_shape = g.data("im_shape", np.array([[64, 80], [50, 70]], dtype=F32))
    xy = np.stack(np.meshgrid(np.arange(W) * 16.0, np.arange(H) * 16.0), -1)  # [H, W, 2]
    sizes = np.array([[16, 16], [24, 12], [12, 30]], dtype=np.float64)
    anchors = np.concatenate([np.repeat(xy[:, :, None, :], A, 2) - sizes / 2,
                              np.repeat(xy[:, :, None, :], A, 2) + sizes / 2], -1)
    anc = g.data("anchors", anchors.astype(F32))
    var = g.data("variances", g.rand([H, W, A, 4], 0.5, 1.5))
    outs = {"RpnRois": 1, "RpnRoiProbs": 1, "RpnRoisNum": 1}
    ins = {"Scores": scores, "BboxDeltas": deltas, "ImShape": im_shape, "Anchors": anc,
           "Variances": var}
    a = g.op("generate_proposals_v2", ins,
             dict(pre_nms_topN=40, post_nms_topN=10, nms_thresh=0.5, min_size=2.0, eta=0.9,
                  pixel_offset=True), outs=outs)
    b = g.op("generate_proposals_v2", ins,
             dict(pre_nms_topN=0, post_nms_topN=0, nms_thresh=0.0, min_size=0.5, eta=1.0,
                  pixel_offset=False), outs=outs)
    g.fetch(a["RpnRois"][0], a["RpnRoiProbs"][0], a["RpnRoisNum"][0], b["RpnRois"][0],
            b["RpnRoiProbs"][0], b["RpnRoisNum"][0])


@case()
def generate_proposals_v2_ties(g):
    """Scores from a few values (ties everywhere): pre_nms_topN under the candidates with NMS
    off (the boxes in std::nth_element's order, unsorted) and on (equal scores: the later one
    first); all candidates std::sort-ed with NMS off."""
    A, H, W = 2, 6, 7
    scores = g.data("scores", (g.randint([2, A, H, W], 0, 4, "int32") * 0.25).astype(F32))
    deltas = g.data("deltas", g.rand([2, 4 * A, H, W], -0.3, 0.3))
    im_shape = g.data("im_shape", np.array([[90, 100], [80, 120]], dtype=F32))
    xy = np.stack(np.meshgrid(np.arange(W) * 16.0, np.arange(H) * 16.0), -1)
    sizes = np.array([[16, 16], [24, 12]], dtype=np.float64)
    anchors = np.concatenate([np.repeat(xy[:, :, None, :], A, 2) - sizes / 2,
                              np.repeat(xy[:, :, None, :], A, 2) + sizes / 2], -1)
    anc = g.data("anchors", anchors.astype(F32))
    var = g.data("variances", np.ones([H, W, A, 4], F32))
    outs = {"RpnRois": 1, "RpnRoiProbs": 1, "RpnRoisNum": 1}
    ins = {"Scores": scores, "BboxDeltas": deltas, "ImShape": im_shape, "Anchors": anc,
           "Variances": var}
    res = []
    for pre, post, nms in ((30, 0, 0.0), (30, 12, 0.6), (0, 0, 0.0)):
        res.append(g.op("generate_proposals_v2", ins,
                        dict(pre_nms_topN=pre, post_nms_topN=post, nms_thresh=nms, min_size=1.0,
                             eta=1.0, pixel_offset=True), outs=outs))
    g.fetch(*[o[k][0] for o in res for k in ("RpnRois", "RpnRoiProbs", "RpnRoisNum")])


@case()
def bmm_norm(g):
    """bmm of [3, 4, 5] by [3, 5, 2] (float32) and of float64 operands; fluid's norm
    (l2_normalize) over a middle, the last (default) and the first axis."""
    x = g.data("x", g.rand([3, 4, 5]))
    y = g.data("y", g.rand([3, 5, 2]))
    xd = g.data("xd", g.rand([2, 3, 3], dtype="float64"))
    yd = g.data("yd", g.rand([2, 3, 4], dtype="float64"))
    n1 = g.op("norm", {"X": x}, dict(axis=1, epsilon=1e-10), outs={"Out": 1, "Norm": 1})
    n2 = g.op("norm", {"X": x}, dict(axis=-1, epsilon=1e-6), outs={"Out": 1, "Norm": 1})
    n3 = g.op("norm", {"X": xd}, dict(axis=0, epsilon=1e-10), outs={"Out": 1, "Norm": 1},
              dtype="float64")
    # Norm is intermediate: save_inference_model drops it from the ops, so only Out is fetched
    g.fetch(g.op("bmm", {"X": x, "Y": y}), g.op("bmm", {"X": xd, "Y": yd}, dtype="float64"),
            n1["Out"][0], n2["Out"][0], n3["Out"][0])


@case(**EXACT, note="temporal_shift and scatter with overwrite only move values; the sums of scatter without it are of at most two terms")
def temporal_shift_scatter(g):
    """temporal_shift NCHW and NHWC with 10 channels and shift_ratio 0.27 (c1 = 2, c2 = 5:
    not 2 * c1), 3 frames per clip; scatter of rows with a repeated index, overwriting (the
    last wins) and accumulating (the rows zeroed first), int32 and [K, 1] int64 indices."""
    x = g.data("x", g.rand([6, 10, 2, 3]))
    xh = g.data("xh", g.rand([3, 2, 2, 10]))
    t1 = g.op("temporal_shift", {"X": x}, dict(seg_num=3, shift_ratio=0.27, data_format="NCHW"))
    t2 = g.op("temporal_shift", {"X": xh}, dict(seg_num=3, shift_ratio=0.27, data_format="NHWC"))
    base = g.data("base", g.rand([5, 3]))
    ids = g.data("ids", np.array([3, 0, 3, 4], dtype="int32"))
    ids64 = g.data("ids64", np.array([[1], [1], [2]], dtype="int64"))
    upd = g.data("upd", g.rand([4, 3]))
    upd3 = g.data("upd3", g.rand([3, 3]))
    s1 = g.op("scatter", {"X": base, "Ids": ids, "Updates": upd}, dict(overwrite=True))
    s2 = g.op("scatter", {"X": base, "Ids": ids, "Updates": upd}, dict(overwrite=False))
    s3 = g.op("scatter", {"X": base, "Ids": ids64, "Updates": upd3}, dict(overwrite=False))
    g.fetch(t1, t2, s1, s2, s3)


@case(rtol=0.0, atol=0.0, note="linspace rounds each value once: exact")
def linspace_modes(g):
    """float32 0..7 in 8 values (GFL's projection), a descending float64 run of 7, one
    value, int32 and int64 runs whose steps are not integers, from tensors fed at run time."""
    def lin(start, stop, num, dtype, sdt="float32"):
        st = g.data("s%d" % len(g.feeds), np.array([start], sdt))
        sp = g.data("e%d" % len(g.feeds), np.array([stop], sdt))
        nm = g.data("n%d" % len(g.feeds), np.array([num], "int32"))
        vt = {"float32": 5, "float64": 6, "int32": 2, "int64": 3}[dtype]
        return g.op("linspace", {"Start": st, "Stop": sp, "Num": nm}, dict(dtype=vt),
                    dtype=dtype)
    g.fetch(lin(0.0, 7.0, 8, "float32"), lin(1.5, -2.25, 7, "float64", "float64"),
            lin(3.0, 9.0, 1, "float32"), lin(2, 17, 4, "int32", "int32"),
            lin(-5, 40, 7, "int64", "int64"), lin(0.1, 1.0, 10, "float32"))


@case(rtol=0.0, atol=0.0, note="linspace rounds each value once: exact")
def linspace_float32_runs(g):
    """Ten random float32 runs, where float-by-float rounding shows (double arithmetic
    differs from Paddle in more than half of such runs)."""
    for k in range(10):
        a, b = g.rand([2], -10, 10)
        st = g.data("s%d" % k, np.array([a], F32))
        sp = g.data("e%d" % k, np.array([b], F32))
        nm = g.data("n%d" % k, np.array([g.randint([], 2, 40)], "int32"))
        g.fetch(g.op("linspace", {"Start": st, "Stop": sp, "Num": nm}, dict(dtype=5)))


@case()
def shuffle_lrn_maxout(g):
    """channel_shuffle (NCHW, NHWC), pixel_unshuffle (NCHW, NHWC), lrn (AlexNet's n 5, NCHW, and
    n 3, NHWC), maxout (channels first with a NaN, and last)."""
    x = g.data("x", g.rand([2, 6, 4, 4]))
    xh = g.data("xh", g.rand([2, 4, 4, 6]))
    v = g.rand([2, 6, 3, 3])
    v[0, 1, 0, 0] = np.nan
    v[1, 2, 1, 1] = np.nan
    xn = g.data("xn", v)
    outs = [g.op("channel_shuffle", {"X": x}, dict(groups=3, data_format="NCHW")),
            g.op("channel_shuffle", {"X": xh}, dict(groups=2, data_format="NHWC")),
            g.op("pixel_unshuffle", {"X": x}, dict(downscale_factor=2, data_format="NCHW")),
            g.op("pixel_unshuffle", {"X": xh}, dict(downscale_factor=2, data_format="NHWC"))]
    for n, fmt, inp in ((5, "NCHW", x), (3, "NHWC", xh)):
        outs.append(g.op("lrn", {"X": inp}, dict(n=n, k=1.5, alpha=0.3, beta=0.75,
                                                 data_format=fmt),
                         outs={"Out": 1, "MidOut": 1})["Out"][0])
    outs.append(g.op("maxout", {"X": xn}, dict(groups=2, axis=1)))
    outs.append(g.op("maxout", {"X": xh}, dict(groups=3, axis=-1)))
    g.fetch(*outs)


@case()
def atan2_cumprod(g):
    """atan2 over all four quadrants, signed zeros and int64 (float64 Out); cumprod along a
    middle and a negative dim, int32 wrapping, and Paddle 3's exclusive / reverse."""
    a = g.data("a", g.rand([3, 4]))
    b = g.data("b", np.array([[1, -1, 0, 0], [-0.0, 2, -3, 0.5], [0, -0.0, 4, -4]], F32))
    ai = g.data("ai", g.randint([5], -3, 4, "int64"))
    bi = g.data("bi", g.randint([5], -3, 4, "int64"))
    x = g.data("x", g.rand([2, 3, 4], 0.5, 1.5))
    xi = g.data("xi", np.array([[65536, 65536, 3], [7, -2, 5]], dtype="int32"))
    g.fetch(g.op("atan2", {"X1": a, "X2": b}),
            g.op("atan2", {"X1": ai, "X2": bi}, dtype="float64"),
            g.op("cumprod", {"X": x}, dict(dim=1)),
            g.op("cumprod", {"X": x}, dict(dim=-1, exclusive=True)),
            g.op("cumprod", {"X": x}, dict(dim=0, reverse=True)),
            g.op("cumprod", {"X": xi}, dict(dim=1), dtype="int32"))


@case(**EXACT, note="eye and diag only place values: exact")
def eye_diag(g):
    """eye 3 x 5 float32 and 4 x 4 int64; diag_v2 of a vector on diagonals 1 and -2 with a
    padding value, of a matrix on diagonals 0, 2 and -1, of an int64 vector."""
    v = g.data("v", g.rand([3]))
    m = g.data("m", g.rand([3, 4]))
    vi = g.data("vi", g.randint([2], -9, 9, "int64"))
    e1 = g.op("eye", {}, dict(num_rows=3, num_columns=5, dtype=5))
    e2 = g.op("eye", {}, dict(num_rows=4, num_columns=-1, dtype=3), dtype="int64")
    g.fetch(e1, e2,
            g.op("diag_v2", {"X": v}, dict(offset=1, padding_value=9.0)),
            g.op("diag_v2", {"X": v}, dict(offset=-2, padding_value=0.0)),
            g.op("diag_v2", {"X": m}, dict(offset=0, padding_value=0.0)),
            g.op("diag_v2", {"X": m}, dict(offset=2, padding_value=0.0)),
            g.op("diag_v2", {"X": m}, dict(offset=-1, padding_value=0.0)),
            g.op("diag_v2", {"X": vi}, dict(offset=0, padding_value=0.0), dtype="int64"))


@case()
def logit_kron(g):
    """logit with eps 0 (NaN outside [0, 1]) and 1e-3 (clipped); kron of matrices, of a
    vector by a matrix (rank padding) and of int64 tensors."""
    p = g.data("p", np.array([[0.0, 0.2, 0.5], [0.999, 1.0, 1.3]], F32))
    a = g.data("a", g.rand([2, 3]))
    b = g.data("b", g.rand([3, 2]))
    v = g.data("v", g.rand([4]))
    ai = g.data("ai", g.randint([2, 2], -5, 5, "int64"))
    g.fetch(g.op("logit", {"X": p}, dict(eps=0.0)), g.op("logit", {"X": p}, dict(eps=1e-3)),
            g.op("kron", {"X": a, "Y": b}), g.op("kron", {"X": v, "Y": b}),
            g.op("kron", {"X": ai, "Y": ai}, dtype="int64"))


@case()
def roi_pool_modes(g):
    """roi_pool over 2 images split by RoisNum (int32): corners rounded half away from zero
    after spatial_scale, a reversed box (forced to 1 x 1), a box beyond the map (empty bins:
    0 and Argmax -1); Out and Argmax of two attribute sets."""
    x = g.data("x", g.rand([2, 3, 8, 9]))
    rois = g.data("rois", np.array([[3, 1, 13, 9], [0, 0, 17, 15], [5, 7, 1, 2],
                                    [30, 2, 40, 9], [1, 5, 11, 14]], dtype=F32))
    num = g.data("num", np.array([3, 2], dtype="int32"))
    a = g.op("roi_pool", {"X": x, "ROIs": rois, "RoisNum": num},
             dict(pooled_height=2, pooled_width=3, spatial_scale=0.5),
             outs={"Out": 1, "Argmax": 1})
    b = g.op("roi_pool", {"X": x, "ROIs": rois / 2, "RoisNum": num},
             dict(pooled_height=3, pooled_width=4, spatial_scale=1.0),
             outs={"Out": 1, "Argmax": 1})
    g.fetch(a["Out"][0], a["Argmax"][0], b["Out"][0], b["Argmax"][0])


@case()
def psroi_pool_modes(g):
    """psroi_pool (R-FCN) of 2 images with RoisNum: 2 output channels of 2 x 3 bins from 12
    input channels and 3 of 2 x 2, fractional box corners (rounded before spatial_scale), a
    box partly outside the map and a degenerate one."""
    x = g.data("x", g.rand([2, 12, 7, 8]))
    rois = g.data("rois", np.array([[2.4, 1.5, 12.6, 10.2], [0, 0, 15, 13], [9, 9, 9, 9],
                                    [-4, 3, 30, 20]], dtype=F32))
    num = g.data("num", np.array([1, 3], dtype="int32"))
    a = g.op("psroi_pool", {"X": x, "ROIs": rois, "RoisNum": num},
             dict(output_channels=2, pooled_height=2, pooled_width=3, spatial_scale=0.5))
    b = g.op("psroi_pool", {"X": x, "ROIs": rois, "RoisNum": num},
             dict(output_channels=3, pooled_height=2, pooled_width=2, spatial_scale=0.25))
    g.fetch(a, b)


@case(**EXACT, note="max pooling and unpooling only move values: exact")
def max_pool_unpool(g):
    """max_pool2d_with_index (Out, int32 Mask) with ksize 3, stride 2, padding 1; adaptive
    3 x 4; global; then unpool of the first back to 7 x 8 from (Out, Mask) and to the size
    ksize/strides/paddings give (6 x 8 from 4 x 4 with ksize 2, stride 2, padding 1)."""
    x = g.data("x", g.rand([2, 3, 7, 8]))
    p = g.op("max_pool2d_with_index", {"X": x},
             dict(ksize=[3, 3], strides=[2, 2], paddings=[1, 1], global_pooling=False,
                  adaptive=False), outs={"Out": 1, "Mask": 1})
    q = g.op("max_pool2d_with_index", {"X": x},
             dict(ksize=[3, 4], strides=[1, 1], paddings=[0, 0], global_pooling=False,
                  adaptive=True), outs={"Out": 1, "Mask": 1})
    r = g.op("max_pool2d_with_index", {"X": x},
             dict(ksize=[2, 2], strides=[1, 1], paddings=[0, 0], global_pooling=True,
                  adaptive=False), outs={"Out": 1, "Mask": 1})
    u = g.op("unpool", {"X": p["Out"][0], "Indices": p["Mask"][0]},
             dict(unpooling_type="max", ksize=[3, 3], strides=[2, 2], paddings=[1, 1],
                  output_size=[7, 8], data_format="NCHW"))
    y = g.data("y", g.rand([1, 2, 4, 4]))
    s = g.op("max_pool2d_with_index", {"X": y},
             dict(ksize=[2, 2], strides=[2, 2], paddings=[1, 1], global_pooling=False,
                  adaptive=False), outs={"Out": 1, "Mask": 1})
    v = g.op("unpool", {"X": s["Out"][0], "Indices": s["Mask"][0]},
             dict(unpooling_type="max", ksize=[2, 2], strides=[2, 2], paddings=[1, 1],
                  output_size=[4, 4], data_format="NCHW"))
    g.fetch(p["Out"][0], p["Mask"][0], q["Out"][0], q["Mask"][0], r["Out"][0], r["Mask"][0],
            u, s["Out"][0], s["Mask"][0], v)


@case(**EXACT, note="crop_tensor only moves values: exact")
def crop_tensor_modes(g):
    """crop_tensor from attributes with -1 (to the end), from Shape and Offsets tensors
    (int32, int64) and from ShapeTensor / OffsetsTensor lists; an int64 X."""
    x = g.data("x", g.rand([3, 5, 6]))
    xi = g.data("xi", g.randint([4, 7], -50, 50, "int64"))
    shp = g.data("shp", np.array([2, 3, -1], dtype="int32"))
    off = g.data("off", np.array([0, 1, 4], dtype="int64"))
    s0 = g.data("s0", np.array([3], dtype="int32"))
    s1 = g.data("s1", np.array([2], dtype="int64"))
    o0 = g.data("o0", np.array([1], dtype="int32"))
    o1 = g.data("o1", np.array([5], dtype="int32"))
    a = g.op("crop_tensor", {"X": x}, dict(shape=[2, -1, 3], offsets=[1, 2, 2]))
    b = g.op("crop_tensor", {"X": x, "Shape": shp, "Offsets": off})
    c = g.op("crop_tensor", {"X": xi, "ShapeTensor": [s0, s1], "OffsetsTensor": [o0, o1]},
             dtype="int64")
    d = g.op("crop_tensor", {"X": xi, "ShapeTensor": [s0, s1]}, dict(offsets=[0, 5]),
             dtype="int64")
    g.fetch(a, b, c, d)


@case()
def scatter_nd_add_modes(g):
    """scatter_nd_add with Index [2, 3, 2] (int64, repeated and negative entries) into
    [4, 5, 3] rows; full-depth Index [4, 3] (int32) with repeats; int32 X with Index [3, 1]."""
    x = g.data("x", g.rand([4, 5, 3]))
    i1 = g.data("i1", np.array([[[0, 1], [3, -1], [0, 1]], [[-4, 2], [2, 2], [3, 4]]],
                               dtype="int64"))
    u1 = g.data("u1", g.rand([2, 3, 3]))
    i2 = g.data("i2", np.array([[1, 1, 1], [3, 4, 2], [1, 1, 1], [0, 0, -3]], dtype="int32"))
    u2 = g.data("u2", g.rand([4]))
    xi = g.data("xi", g.randint([5, 2], -9, 9, "int32"))
    i3 = g.data("i3", np.array([[4], [0], [4]], dtype="int64"))
    u3 = g.data("u3", g.randint([3, 2], -9, 9, "int32"))
    g.fetch(g.op("scatter_nd_add", {"X": x, "Index": i1, "Updates": u1}),
            g.op("scatter_nd_add", {"X": x, "Index": i2, "Updates": u2}),
            g.op("scatter_nd_add", {"X": xi, "Index": i3, "Updates": u3}, dtype="int32"))


@case()
def put_along_axis_modes(g):
    """put_along_axis along axis 1 with assign / add / mul (repeated and negative indices,
    int64 Index) and along axis 0 (int32 Index, int64 Input, add)."""
    x = g.data("x", g.rand([3, 4]))
    i1 = g.data("i1", np.array([[0, 0], [3, -1], [1, 2]], dtype="int64"))
    v1 = g.data("v1", g.rand([3, 2]))
    xi = g.data("xi", g.randint([3, 4], -9, 9, "int64"))
    i2 = g.data("i2", np.array([[2, 0, 1, 2], [2, 1, 1, 0]], dtype="int32"))
    v2 = g.data("v2", g.randint([2, 4], -9, 9, "int64"))
    outs = [g.op("put_along_axis", {"Input": x, "Index": i1, "Value": v1},
                 dict(Axis=1, Reduce=r, Include_self=True), outs={"Result": 1})
            for r in ("assign", "add", "mul")]
    outs.append(g.op("put_along_axis", {"Input": xi, "Index": i2, "Value": v2},
                     dict(Axis=0, Reduce="add", Include_self=True), outs={"Result": 1},
                     dtype="int64"))
    g.fetch(*outs)


@case()
def put_along_axis_reduce_modes(g):
    """put_along_axis with Reduce mean / amax / amin (ties) and Include_self true and false,
    add and mul without self, float32 along axis 1 (repeated and negative indices, places no
    index reaches), float64 mean along axis 0, int32 mean (truncating) and amax."""
    x = g.data("x", g.rand([3, 5]))
    i1 = g.data("i1", np.array([[0, 0, 2], [4, -1, 1], [1, 1, 1]], dtype="int64"))
    v1 = g.data("v1", (g.randint([3, 3], -3, 4, "int32") * 0.5).astype(F32))
    outs = [g.op("put_along_axis", {"Input": x, "Index": i1, "Value": v1},
                 dict(Axis=1, Reduce=r, Include_self=inc), outs={"Result": 1})
            for r in ("mean", "amax", "amin") for inc in (True, False)]
    outs += [g.op("put_along_axis", {"Input": x, "Index": i1, "Value": v1},
                  dict(Axis=1, Reduce=r, Include_self=False), outs={"Result": 1})
             for r in ("add", "mul")]
    xd = g.data("xd", g.rand([4, 2], dtype="float64"))
    i2 = g.data("i2", np.array([[3, 0], [3, 0], [1, 0]], dtype="int32"))
    vd = g.data("vd", g.rand([3, 2], dtype="float64"))
    outs += [g.op("put_along_axis", {"Input": xd, "Index": i2, "Value": vd},
                  dict(Axis=0, Reduce="mean", Include_self=inc), outs={"Result": 1},
                  dtype="float64") for inc in (True, False)]
    xi = g.data("xi", g.randint([2, 4], -9, 9, "int32"))
    i3 = g.data("i3", np.array([[1, 1, 3], [0, 0, 0]], dtype="int64"))
    vi = g.data("vi", g.randint([2, 3], -9, 9, "int32"))
    outs += [g.op("put_along_axis", {"Input": xi, "Index": i3, "Value": vi},
                  dict(Axis=1, Reduce=r, Include_self=inc), outs={"Result": 1}, dtype="int32")
             for r, inc in (("mean", True), ("mean", False), ("amax", False))]
    g.fetch(*outs)


@case()
def viterbi_decode_modes(g):
    """viterbi_decode of 3 sequences of lengths 5, 2 and 1 in a batch padded to 6 steps, with
    and without the start/stop tags; emissions from few values, so that maxima tie."""
    em = g.data("em", (g.randint([3, 6, 5], 0, 4, "int32") * 0.5).astype(F32))
    tr = g.data("tr", (g.randint([5, 5], -2, 3, "int32") * 0.25).astype(F32))
    ln = g.data("ln", np.array([5, 2, 1], dtype="int64"))
    emd = g.data("emd", g.rand([2, 4, 3], dtype="float64"))
    trd = g.data("trd", g.rand([3, 3], dtype="float64"))
    lnd = g.data("lnd", np.array([4, 3], dtype="int64"))
    outs = {"Scores": 1, "Path": 1}
    a = g.op("viterbi_decode", {"Input": em, "Transition": tr, "Length": ln},
             dict(include_bos_eos_tag=True), outs=outs)
    b = g.op("viterbi_decode", {"Input": em, "Transition": tr, "Length": ln},
             dict(include_bos_eos_tag=False), outs=outs)
    d = g.op("viterbi_decode", {"Input": emd, "Transition": trd, "Length": lnd},
             dict(include_bos_eos_tag=True), outs=outs, dtype="float64")
    g.fetch(*[o[k][0] for o in (a, b, d) for k in ("Scores", "Path")])


def op_typed(type, inputs, attrs, outs):
    """Append one op whose outputs have different dtypes: outs maps each output slot to its
    dtype. Returns a dict slot -> variable."""
    helper = LayerHelper(type)
    made = {slot: helper.create_variable_for_type_inference(dt) for slot, dt in outs.items()}
    helper.append_op(type=type, inputs={k: [v] for k, v in inputs.items()},
                     outputs={k: [v] for k, v in made.items()}, attrs=attrs)
    return made


def unique_op(x, xdt, idt, **attrs):
    """A unique op with every output; attrs: return_index, return_inverse, return_counts,
    axis, is_sorted; idt the index dtype name. Returns the outputs Paddle writes, in the
    order Out, Indices, Index, Counts."""
    vt = {"int32": 2, "int64": 3}[idt]
    o = op_typed("unique", {"X": x}, dict(dtype=vt, **attrs),
                 dict(Out=xdt, Indices=idt, Index=idt, Counts=idt))
    srt = attrs.get("is_sorted", False)
    want = [("Out", True), ("Indices", srt and attrs.get("return_index", False)),
            ("Index", not srt or attrs.get("return_inverse", False)),
            ("Counts", srt and attrs.get("return_counts", False))]
    return [o[k] for k, w in want if w]


@case(**EXACT, note="unique only moves values and counts: exact")
def unique_modes(g):
    """unique sorted and flattened (float32 with -0.0 and 0.0, int64 indices; int32 X with
    return_index only), along axis 0 (int32 indices), 1 (int64 X) and -1 (float64 3-D); 40
    rows of two bits along axis 0, so that std::sort's order of equal rows decides Indices;
    the legacy unsorted path (is_sorted false: first-appearance order, Index only) for int64
    and float32 X."""
    x = g.data("x", np.array([[3, 1, 2], [3, 1, 2], [0, 5, 5], [-0.0, 1, 1]], dtype=F32))
    xi = g.data("xi", g.randint([3, 5], 0, 3, "int32"))
    xl = g.data("xl", np.array([[4, 1, 4, 1, 7], [2, 0, 2, 0, 2], [9, 9, 9, 9, 9]],
                               dtype="int64"))
    xd = g.data("xd", g.randint([2, 3, 4], 0, 2, "int32").astype("float64"))
    xb = g.data("xb", g.randint([40, 2], 0, 2, "int32"))
    u1 = g.data("u1", np.array([4, 2, 4, 7, 2, 2, -1, 7, 0], dtype="int64"))
    u2 = g.data("u2", np.array([0.5, -0.0, 0.5, 0.0, 3, -2, 3], dtype=F32))
    every = dict(return_index=True, return_inverse=True, return_counts=True, is_sorted=True)
    outs = []
    outs += unique_op(x, F32, "int64", axis=[], **every)
    outs += unique_op(xi, "int32", "int64", axis=[], return_index=True, is_sorted=True)
    outs += unique_op(x, F32, "int32", axis=[0], **every)
    outs += unique_op(xl, "int64", "int64", axis=[1], **every)
    outs += unique_op(xd, "float64", "int64", axis=[-1], **every)
    outs += unique_op(xb, "int32", "int64", axis=[0], **every)
    outs += unique_op(u1, "int64", "int32", is_sorted=False)
    outs += unique_op(u2, F32, "int64", is_sorted=False)
    g.fetch(*outs)


def warpctc_raw(g, x, lab, xl, ll, blank, dtype=F32):
    """The warpctc op itself, both outputs (Loss, and WarpCTCGrad: warp-ctc's gradient with
    respect to the logits)."""
    o = g.op("warpctc", {"Logits": x, "Label": lab, "LogitsLength": xl, "LabelLength": ll},
             dict(blank=blank, norm_by_times=False), outs={"WarpCTCGrad": 1, "Loss": 1},
             dtype=dtype)
    return o["Loss"][0], o["WarpCTCGrad"][0]


@case(note="warp-ctc computes in float32, icore in double")
def warpctc_padded(g):
    """warpctc in padded mode (Logits [Tmax, B, C], LogitsLength/LabelLength int64), blank 0:
    repeated labels, an empty label, and a sequence whose labels cannot fit its steps (1, 1 in
    2 steps: loss 0 and gradient 0); paddle.nn.functional.ctc_loss with reduction none and
    mean (norm_by_times only matters to the gradient)."""
    x = g.data("x", g.rand([6, 4, 5], -2, 2))
    lab = g.data("lab", np.array([[1, 2, 2], [3, 1, 0], [4, 4, 4], [1, 1, 0]], "int32"))
    xl = g.data("xl", np.array([6, 4, 5, 2], "int64"))
    ll = g.data("ll", np.array([3, 2, 0, 2], "int64"))
    ll2 = g.data("ll2", np.array([3, 2, 1, 1], "int64"))
    loss, grad = warpctc_raw(g, x, lab, xl, ll, 0)
    F = paddle.nn.functional
    g.fetch(loss, grad, F.ctc_loss(x, lab, xl, ll, blank=0, reduction="none"),
            F.ctc_loss(x, lab, xl, ll2, blank=0, reduction="mean", norm_by_times=True))


@case(note="warp-ctc computes in double here too, in its own order")
def warpctc_padded_fp64_blank(g):
    """warpctc in float64 with the blank the last class (4), padded logits longer than every
    sequence, and ctc_loss's mean reduction."""
    x = g.data("x", g.rand([7, 3, 5], -3, 3).astype("float64"))
    lab = g.data("lab", np.array([[0, 3, 3, 1], [2, 2, 0, 0], [1, 0, 1, 0]], "int32"))
    xl = g.data("xl", np.array([6, 3, 5], "int64"))
    ll = g.data("ll", np.array([4, 2, 3], "int64"))
    loss, grad = warpctc_raw(g, x, lab, xl, ll, 4, "float64")
    g.fetch(loss, grad,
            paddle.nn.functional.ctc_loss(x, lab, xl, ll, blank=4, reduction="mean"))


@case(**EXACT, note="unique only moves values and counts: exact")
def unique_nan(g):
    """unique and unique_consecutive with NaN and -0.0: sorted flattened (each NaN distinct
    and last, with Indices 0 and Counts 0 as Paddle looks them up by value; Index is not
    fetched: Paddle leaves a NaN's unwritten), unsorted (Index), along axis 0 with rows
    holding NaN (every return), unique_consecutive (a NaN starts a run)."""
    nan = float("nan")
    x = g.data("x", np.array([2.0, nan, 1.0, nan, 2.0, -0.0, 0.0], dtype=F32))
    r = g.data("r", np.array([[1, nan], [1, 2], [1, nan], [0, 5], [1, 2]], dtype=F32))
    o = unique_op(x, F32, "int64", axis=[], return_index=True, return_counts=True,
                  is_sorted=True)
    o += unique_op(x, F32, "int64", is_sorted=False)
    o += unique_op(r, F32, "int32", axis=[0], return_index=True, return_inverse=True,
                   return_counts=True, is_sorted=True)
    u = op_typed("unique_consecutive", {"X": x}, dict(dtype=3, return_inverse=True,
                                                      return_counts=True, axis=[]),
                 dict(Out=F32, Index="int64", Counts="int64"))
    g.fetch(*o, u["Out"], u["Index"], u["Counts"])


@case(**EXACT, note="unique_consecutive only moves values and counts: exact")
def unique_consecutive_modes(g):
    """unique_consecutive flattened (float32 2-D, inverse and counts, int64), along axis 0
    (int64 X, int32 indices) and axis 1 (float64, nothing returned but Out), and along the
    negative axes -2 and -1."""
    x = g.data("x", np.array([[1, 1, 2], [2, 2, 3], [3, 1, 1]], dtype=F32))
    xl = g.data("xl", np.array([[1, 2], [1, 2], [3, 4], [1, 2], [1, 2], [1, 2]],
                               dtype="int64"))
    xd = g.data("xd", np.array([[1, 1, 2, 2, 1], [0, 0, 2, 2, 0]], dtype="float64"))

    def uc(v, vdt, idt, **attrs):
        o = op_typed("unique_consecutive", {"X": v},
                     dict(dtype={"int32": 2, "int64": 3}[idt], **attrs),
                     dict(Out=vdt, Index=idt, Counts=idt))
        return [o["Out"]] + ([o["Index"]] if attrs.get("return_inverse") else []) + \
            ([o["Counts"]] if attrs.get("return_counts") else [])
    g.fetch(*uc(x, F32, "int64", axis=[], return_inverse=True, return_counts=True),
            *uc(xl, "int64", "int32", axis=[0], return_inverse=True, return_counts=True),
            *uc(xd, "float64", "int64", axis=[1]),
            *uc(xl, "int64", "int64", axis=[-2], return_counts=True),
            *uc(xd, "float64", "int32", axis=[-1], return_inverse=True))


@case(**EXACT, note="masked_select only moves values: exact")
def masked_select_bcast(g):
    """masked_select with Mask the shape of X (float32), Mask [3] against X [2, 3] (int64),
    Mask [2, 1, 4] against X [3, 1] (both broadcast, float64), bool X, an all-false Mask."""
    x = g.data("x", g.rand([3, 4]))
    m = g.data("m", g.randint([3, 4], 0, 2, "int32").astype("bool"))
    xl = g.data("xl", g.randint([2, 3], -9, 9, "int64"))
    ml = g.data("ml", np.array([True, False, True]))
    xd = g.data("xd", g.rand([3, 1], dtype="float64"))
    md = g.data("md", g.randint([2, 1, 4], 0, 2, "int32").astype("bool"))
    xb = g.data("xb", g.randint([2, 3], 0, 2, "int32").astype("bool"))
    mf = g.data("mf", np.zeros([3, 4], dtype="bool"))
    g.fetch(g.op("masked_select", {"X": x, "Mask": m}, outs={"Y": 1}),
            g.op("masked_select", {"X": xl, "Mask": ml}, outs={"Y": 1}, dtype="int64"),
            g.op("masked_select", {"X": xd, "Mask": md}, outs={"Y": 1}, dtype="float64"),
            g.op("masked_select", {"X": xb, "Mask": ml}, outs={"Y": 1}, dtype="bool"),
            g.op("masked_select", {"X": x, "Mask": mf}, outs={"Y": 1}))


@case(**EXACT)
def shard_index_modes(g):
    """shard_index of ids [0, 20) in 2 shards (shard 0, ignore -1), 3 shards (shard 1,
    ignore -5; shard 2 on int32 ids) and 20 ids in 3 shards of size 7 with [2, 3, 1] ids."""
    x = g.data("x", np.array([[1], [6], [12], [19], [0], [10], [13], [14]], dtype="int64"))
    xi = g.data("xi", np.array([[1], [6], [12], [19], [14]], dtype="int32"))
    x3 = g.data("x3", np.array([[[0], [7], [13]], [[6], [14], [20]]], dtype="int64"))
    s = lambda v, n, k, sid, ign, dt="int64": g.op(  # noqa: E731
        "shard_index", {"X": v}, dict(index_num=n, nshards=k, shard_id=sid, ignore_value=ign),
        dtype=dt)
    g.fetch(s(x, 20, 2, 0, -1), s(x, 20, 3, 1, -5), s(xi, 20, 3, 2, -1, "int32"),
            s(x3, 21, 3, 1, 99), s(x3, 21, 3, 2, -1))


def boxes(g, n, lo=0.0, hi=20.0, dtype=F32):
    """n boxes [xmin, ymin, xmax, ymax] with sides in [0.5, 8)."""
    xy = g.rand([n, 2], lo, hi, "float64")
    return np.concatenate([xy, xy + g.rand([n, 2], 0.5, 8.0, "float64")], 1).astype(dtype)


@case(note="Paddle 2.6.2: 3.3.1 no longer registers iou_similarity", paddle2=True)
def iou_similarity_modes(g):
    """iou_similarity of 5 boxes with 4 (a copy of one, an inverted one, a disjoint one),
    box_normalized true and false, float32 and float64."""
    a = boxes(g, 5)
    b = np.concatenate([a[2:3], [[10, 10, 4, 4], [100, 100, 101, 102]], boxes(g, 1)]).astype(F32)
    x = g.data("x", a)
    y = g.data("y", b)
    xd = g.data("xd", a.astype("float64"))
    yd = g.data("yd", b.astype("float64"))
    iou = lambda u, v, norm, dt=F32: g.op(  # noqa: E731
        "iou_similarity", {"X": u, "Y": v}, dict(box_normalized=norm), dtype=dt)
    g.fetch(iou(x, y, True), iou(x, y, False), iou(xd, yd, True, "float64"),
            iou(xd, yd, False, "float64"))


@case(note="Paddle 2.6.2: 3.3.1 no longer registers box_decoder_and_assign", paddle2=True)
def box_decoder_and_assign_modes(g):
    """box_decoder_and_assign of 4 priors x 3 classes, the default box_clip and a clip of
    0.5 that bites; scores where class 0 wins, all non-background scores <= -1 (the prior is
    assigned), ties (the first wins); the same in float64 with a clip of 1."""
    pb = g.data("pb", boxes(g, 4))
    pv = g.data("pv", np.array([0.1, 0.1, 0.2, 0.2], dtype=F32))
    tb = g.data("tb", g.rand([4, 12], -3, 3))
    sc = g.data("sc", np.array([[0.9, 0.05, 0.05], [0.1, 0.3, 0.6], [0.5, -1.0, -2.0],
                                [0.2, 0.4, 0.4]], dtype=F32))
    outs = {"DecodeBox": 1, "OutputAssignBox": 1}
    ins = {"PriorBox": pb, "PriorBoxVar": pv, "TargetBox": tb, "BoxScore": sc}
    r1 = g.op("box_decoder_and_assign", ins, dict(box_clip=4.135), outs=outs)
    r2 = g.op("box_decoder_and_assign", ins, dict(box_clip=0.5), outs=outs)
    ins64 = {k: g.data(name + "_64", val.astype("float64"))  # the same values in float64
             for k, (name, val) in zip(ins, [(v.name, x) for v, x in g.feeds])}
    r3 = g.op("box_decoder_and_assign", ins64, dict(box_clip=1.0), outs=outs, dtype="float64")
    g.fetch(r1["DecodeBox"][0], r1["OutputAssignBox"][0], r2["DecodeBox"][0],
            r2["OutputAssignBox"][0], r3["DecodeBox"][0], r3["OutputAssignBox"][0])


@case(note="Paddle 2.6.2: 3.3.1 no longer registers polygon_box_transform", paddle2=True)
def polygon_box_transform_modes(g):
    """polygon_box_transform of [2, 4, 3, 5] float32 and [1, 2, 2, 3] float64."""
    x = g.data("x", g.rand([2, 4, 3, 5], -5, 5))
    xd = g.data("xd", g.rand([1, 2, 2, 3], -5, 5, "float64"))
    g.fetch(g.op("polygon_box_transform", {"Input": x}, outs={"Output": 1}),
            g.op("polygon_box_transform", {"Input": xd}, outs={"Output": 1}, dtype="float64"))


@case()
def edit_distance_padded(g):
    """edit_distance in padded mode (HypsLength, RefsLength): 4 strings of few distinct ids
    with lengths 0 to full (an empty hypothesis), normalized false and true (float32
    division), and SequenceNum."""
    h = g.data("h", g.randint([4, 6], 0, 3, "int64"))
    r = g.data("r", g.randint([4, 5], 0, 3, "int64"))
    hl = g.data("hl", np.array([6, 0, 3, 4], dtype="int64"))
    rl = g.data("rl", np.array([5, 2, 3, 1], dtype="int64"))
    ins = {"Hyps": h, "Refs": r, "HypsLength": hl, "RefsLength": rl}
    outs = {"SequenceNum": 1, "Out": 1}
    a = g.op("edit_distance", ins, dict(normalized=False), outs=outs)
    b = g.op("edit_distance", ins, dict(normalized=True), outs=outs)
    g.fetch(a["Out"][0], a["SequenceNum"][0], b["Out"][0])


@case()
def einsum_modes(g):
    """einsum through paddle.einsum (the legacy op with Operands, InnerCache and XShape): batch
    matmul, a sum, ellipsis broadcasting (a [2, 1, 4] operand against [2, 3, 4]), transpose,
    trace and diagonal (a repeated label), outer product, a contraction with an implicit
    output, three operands (paddle.einsum splits them into two ops), float64."""
    v = g.data("v", g.rand([2, 3, 4]))
    w = g.data("w", g.rand([2, 4, 5]))
    q = g.data("q", g.rand([5, 5]))
    b = g.data("b", g.rand([2, 1, 4]))
    d = g.data("d", g.rand([3, 4], dtype="float64"))
    e = paddle.einsum
    g.fetch(e("bij,bjk->bik", v, w), e("bij->bj", v), e("...j,...j->...", v, b),
            e("ij->ji", d), e("ii->", q), e("ii->i", q), e("i,j->ij", d[0], d[1]),
            e("bij,jk", v, q[:4, :2]), e("abc,cd,db->a", v, q[:4], q[:, :3]),
            e("bij,kj->bki", v, b[0]), e("ij,kj->ik", d, d))


@case(**EXACT, note="fmax/fmin and heaviside are one libm call or comparison per element")
def elementwise_fmax_fmin_heaviside(g):
    """elementwise_fmax/fmin (a NaN operand gives the other; int64 through double, as Paddle)
    and elementwise_heaviside, with broadcasting, float32, float64, int32 and int64."""
    nan = np.nan
    xv = g.rand([2, 3, 4], -2, 2)
    xv[0, 0, :] = [nan, 0.0, -0.0, 1.0]
    xv[1, 2, :2] = 0.0
    x = g.data("x", xv)
    yv = np.array([nan, -0.0, 0.0, 0.5], "float32")
    y = g.data("y", yv)
    d = g.data("d", xv.astype("float64"))
    e = g.data("e", g.rand([3, 1], -2, 2).astype("float64"))
    a = g.data("a", np.array([[2**24 + 1, -7, 0, 2**31 - 1], [-2**31, 3, 0, -1]], np.int32))
    b = g.data("b", np.array([1, -8, 4, 0], np.int32))
    big = 2**53 + 1
    c = g.data("c", np.array([[big, -big, 0, 7], [3, -(2**62) - 1, 5, 0]], np.int64))
    f = g.data("f", np.array([[2], [-9]], np.int64))
    outs = []
    for t in ("elementwise_fmax", "elementwise_fmin"):
        outs += [g.op(t, {"X": x, "Y": y}), g.op(t, {"X": y, "Y": x}),
                 g.op(t, {"X": d, "Y": e}, dtype="float64"),
                 g.op(t, {"X": a, "Y": b}, dtype="int32"),
                 g.op(t, {"X": c, "Y": f}, dtype="int64")]
    t = "elementwise_heaviside"
    outs += [g.op(t, {"X": x, "Y": y}), g.op(t, {"X": d, "Y": e}, dtype="float64"),
             g.op(t, {"X": a, "Y": b}, dtype="int32"), g.op(t, {"X": c, "Y": f}, dtype="int64")]
    g.fetch(*outs)


@case(rtol=1e-6, atol=0.0)
def acosh_asinh_atanh(g):
    """acosh (NaN below 1), asinh, atanh (+-inf at +-1, NaN outside), float32 and float64."""
    v = np.concatenate([g.rand([20], -3, 3), np.array([1, -1, 0, 0.999, 1.001, 5, -0.5, 200],
                                                      "float32")]).reshape(4, 7)
    x = g.data("x", v)
    d = g.data("d", v.astype("float64") * 1.25)
    g.fetch(*[g.op(t, {"X": x}) for t in ("acosh", "asinh", "atanh")],
            *[g.op(t, {"X": d}, dtype="float64") for t in ("acosh", "asinh", "atanh")])


@case(**EXACT)
def bitwise_ops(g):
    """bitwise_and/or/xor with broadcasting and bitwise_not on bool (logical), uint8, int8,
    int16, int32 and int64."""
    outs = []
    vals = {"bool": ([[True, False, True], [False, False, True]], [True, False, False]),
            "uint8": ([[0, 255, 17], [128, 3, 96]], [15, 240, 255]),
            "int8": ([[-128, 127, -1], [5, -6, 0]], [-1, 3, -128]),
            "int16": ([[-32768, 12345, -2], [7, 0, 255]], [255, -256, 32767]),
            "int32": ([[-2**31, 2**31 - 1, -5], [12, 0, 65535]], [-1, 1 << 20, 3]),
            "int64": ([[-2**63, 2**63 - 1, -5], [12, 0, 2**40 + 3]], [-1, 2**33, 3])}
    for dt, (xv, yv) in vals.items():
        x = g.data("x_" + dt, np.array(xv, dt))
        y = g.data("y_" + dt, np.array(yv, dt))
        outs += [g.op(t, {"X": x, "Y": y}, dtype=dt)
                 for t in ("bitwise_and", "bitwise_or", "bitwise_xor")]
        outs.append(g.op("bitwise_not", {"X": x}, dtype=dt))
    g.fetch(*outs)


@case(**EXACT, note="cross and dot: products and sums in order, as Paddle's CPU loops")
def cross_dot(g):
    """cross along the default dim (the first of size 3) and along given dims (negative too),
    float32, float64, int32 and int64 (wrapping); dot on rank 1 (0-D result) and rank 2."""
    x = g.data("x", g.rand([2, 3, 3, 4], -2, 2))
    y = g.data("y", g.rand([2, 3, 3, 4], -2, 2))
    d = g.data("d", g.rand([3, 5], -2, 2).astype("float64"))
    e = g.data("e", g.rand([3, 5], -2, 2).astype("float64"))
    i = g.data("i", np.array([[2**30, -7, 3], [1, 2**20, -5]], np.int32))
    j = g.data("j", np.array([[9, 2**12, -1], [6, 5, 2**15]], np.int32))
    k = g.data("k", np.array([[2**40, -7, 3], [1, 2**33, -5]], np.int64))
    m = g.data("m", np.array([[2**30, 2**31, -1], [6, 5, 2**28]], np.int64))
    v = g.data("v", g.rand([7], -2, 2))
    w = g.data("w", g.rand([7], -2, 2))
    cr = lambda a, b, dt="float32", **at: g.op("cross", {"X": a, "Y": b}, at, dtype=dt)  # noqa
    dot = lambda a, b, dt="float32": g.op("dot", {"X": a, "Y": b}, dtype=dt)  # noqa: E731
    g.fetch(cr(x, y), cr(x, y, dim=2), cr(x, y, dim=-3), cr(d, e, "float64"),
            cr(i, j, "int32", dim=1), cr(k, m, "int64"),
            dot(v, w), dot(d, e, "float64"),
            dot(i, j, "int32"), dot(k, m, "int64"), dot(e, d, "float64"))


@case(rtol=1e-5, atol=1e-6, note="BLAS GEMV/GEMM on Paddle's side, icore's GEMM here")
def mv_addmm(g):
    """mv (float32, float64); addmm with Input [M, N], [1, N], [M, 1], [N] and [1, 1], Alpha
    and Beta (Beta 0 drops a NaN Input), float32 and float64."""
    x = g.data("x", g.rand([4, 6], -1, 1))
    v = g.data("v", g.rand([6], -1, 1))
    xd = g.data("xd", g.rand([3, 5], -1, 1).astype("float64"))
    vd = g.data("vd", g.rand([5], -1, 1).astype("float64"))
    y = g.data("y", g.rand([6, 5], -1, 1))
    full = g.data("full", g.rand([4, 5], -1, 1))
    row = g.data("row", g.rand([1, 5], -1, 1))
    col = g.data("col", g.rand([4, 1], -1, 1))
    vec = g.data("vec", g.rand([5], -1, 1))
    nanv = np.full([1, 1], np.nan, "float32")
    one = g.data("one", nanv)
    yd = g.data("yd", g.rand([5, 2], -1, 1).astype("float64"))
    ind = g.data("ind", g.rand([3, 2], -1, 1).astype("float64"))
    am = lambda i, a, b, dt="float32", **at: g.op("addmm", {"Input": i, "X": a, "Y": b}, at,  # noqa
                                                  dtype=dt)
    g.fetch(g.op("mv", {"X": x, "Vec": v}), g.op("mv", {"X": xd, "Vec": vd}, dtype="float64"),
            am(full, x, y), am(row, x, y, Alpha=2.0, Beta=0.5), am(col, x, y, Alpha=-1.5),
            am(vec, x, y, Beta=3.0), am(one, x, y, Beta=0.0), am(ind, xd, yd, "float64",
                                                                  Alpha=0.25, Beta=-2.0))


@case(rtol=1e-5, atol=1e-6)
def bce_loss_modes(g):
    """bce_loss (X at 0 and 1: the -100 clamp), float32 and float64."""
    xv = g.rand([3, 5], 0, 1)
    xv[0, :2] = [0.0, 1.0]
    lv = g.rand([3, 5], 0, 1)
    lv[0, :2] = [1.0, 0.0]
    x = g.data("x", xv)
    lab = g.data("lab", lv)
    xd = g.data("xd", xv.astype("float64"))
    ld = g.data("ld", lv.astype("float64"))
    g.fetch(g.op("bce_loss", {"X": x, "Label": lab}),
            g.op("bce_loss", {"X": xd, "Label": ld}, dtype="float64"))


@case(rtol=1e-5, atol=1e-6, note="reductions: Paddle's Eigen sum is a tree, icore's in order")
def kldiv_loss_modes(g):
    """kldiv_loss, every reduction, log_target false (Target <= 0 gives 0) and true, float32
    and float64."""
    xv = np.log(g.rand([3, 4, 2], 0.05, 1))
    tv = g.rand([3, 4, 2], -0.2, 1)
    tv[0, 0] = [0.0, -0.0]
    x = g.data("x", xv)
    t = g.data("t", tv)
    lt = g.data("lt", np.log(g.rand([3, 4, 2], 0.05, 1)))
    xd = g.data("xd", xv.astype("float64"))
    td = g.data("td", tv.astype("float64"))
    kl = lambda a, b, red, log_target=False, dt="float32": g.op(  # noqa: E731
        "kldiv_loss", {"X": a, "Target": b}, dict(reduction=red, log_target=log_target),
        outs={"Loss": 1}, dtype=dt)
    outs = []
    for red in ("none", "sum", "mean", "batchmean"):
        outs += [kl(x, t, red), kl(x, lt, red, True)]
    outs += [kl(xd, td, "none", dt="float64"), kl(xd, td, "batchmean", dt="float64"),
             kl(xd, td, "sum", True, dt="float64")]
    g.fetch(*outs)


@case(**EXACT, note="sums in order in the dtype, as Paddle's CPU loops")
def nll_loss_modes(g):
    """nll_loss on [N, C] and [N, C, H, W], every reduction, with and without Weight,
    ignore_index (default -100 and a class), all labels ignored (mean stays the sum, 0),
    float32 and float64; Total_weight. With a reduction, Paddle's kernel writes a 0 to
    Out[i] (one element) for each ignored label i: out of bounds beyond i = 0, which
    corrupts its heap; so the reduced cases ignore only label 0."""
    x = g.data("x", np.log(g.rand([5, 4], 0.05, 1)))
    lab = g.data("lab", np.array([0, 3, -100, 1, 3], np.int64))
    lab0 = g.data("lab0", np.array([-100, 3, 2, 1, 3], np.int64))
    lab2 = g.data("lab2", np.array([3, 0, 2, 1, 2], np.int64))
    w = g.data("w", g.rand([4], 0.2, 2))
    x4 = g.data("x4", np.log(g.rand([2, 3, 2, 3], 0.05, 1)).astype("float64"))
    lab4 = g.data("lab4", np.array([[[0, 2, 1], [1, 1, 0]], [[2, 2, 0], [1, 0, 2]]], np.int64))
    lab4r = g.data("lab4r", np.array([[[1, 2, 0], [0, 2, 0]], [[2, 2, 0], [0, 0, 2]]], np.int64))
    w4 = g.data("w4", g.rand([3], 0.2, 2).astype("float64"))
    x1 = g.data("x1", np.log(g.rand([1, 4], 0.05, 1)))
    ign = g.data("ign", np.array([2], np.int64))
    outs = []

    def nll(a, b, wt, red, ii=-100, dt="float32"):
        ins = {"X": a, "Label": b}
        if wt is not None:
            ins["Weight"] = wt
        r = g.op("nll_loss", ins, dict(reduction=red, ignore_index=ii),
                 outs={"Out": 1, "Total_weight": 1}, dtype=dt)
        return [r["Out"][0], r["Total_weight"][0]]
    outs += nll(x, lab, None, "none") + nll(x, lab2, w, "none", 3)
    outs += nll(x4, lab4, w4, "none", 1, "float64")
    for red in ("sum", "mean"):
        outs += nll(x, lab0, None, red) + nll(x, lab2, w, red, 3)
        outs += nll(x4, lab4r, w4, red, 1, "float64")
    outs += nll(x1, ign, w, "mean", 2) + nll(x4, lab4, None, "mean", dt="float64")
    g.fetch(*outs)


@case(**EXACT)
def multiplex_rows(g):
    """multiplex (Ids int32: Paddle reads no other) of three [4, 2, 3] float32 inputs and of two
    int64 inputs."""
    xs = [g.data("x%d" % k, g.rand([4, 2, 3], -2, 2)) for k in range(3)]
    ids = g.data("ids", np.array([[2], [0], [1], [2]], np.int32))
    ys = [g.data("y%d" % k, g.randint([3, 2], -50, 50, "int64")) for k in range(2)]
    jds = g.data("jds", np.array([[1], [1], [0]], np.int32))
    g.fetch(g.op("multiplex", {"X": xs, "Ids": ids}),
            g.op("multiplex", {"X": ys, "Ids": jds}, dtype="int64"))


@case(**EXACT)
def cummax_cummin(g):
    """cummax and cummin along axis -1 (default), 0 and 1, ties (the later index), NaN
    (propagates, the latest NaN's index), float32, float64, int32, int64; int32 indices."""
    nan = np.nan
    xv = np.array([[[1, 3, 3, 2], [nan, 1, nan, 5], [2, 2, -1, -1]],
                   [[0, -0.0, 4, 4], [5, nan, 1, 7], [-3, -3, -3, 9]]], "float32")
    x = g.data("x", xv)
    d = g.data("d", g.rand([3, 5], -2, 2).astype("float64"))
    i = g.data("i", np.array([[4, 1, 4, 7, 7], [0, -2, 3, -2, 5]], np.int32))
    k = g.data("k", np.array([3, 3, 1, 9, 9, -5], np.int64))
    outs = []

    def cum(t, v, dt="float32", **at):
        r = g.op(t, {"x": v}, at, outs={"out": 1, "indices": 1}, dtype=dt)
        return [r["out"][0], r["indices"][0]]
    for t in ("cummax", "cummin"):
        outs += cum(t, x) + cum(t, x, axis=0) + cum(t, x, axis=1, dtype=2)
        outs += cum(t, d, "float64", axis=-2) + cum(t, i, "int32") + cum(t, k, "int64", axis=0)
    g.fetch(*outs)


@case(rtol=1e-5, atol=1e-6, note="Paddle's Eigen sum is a tree, icore's in order (in double)")
def frobenius_norm_dims(g):
    """frobenius_norm over the default dim [0], one dim, two dims (negative), keep_dim,
    reduce_all and every dim, float32 and float64."""
    x = g.data("x", g.rand([2, 3, 4], -2, 2))
    d = g.data("d", g.rand([3, 5], -2, 2).astype("float64"))
    fn = lambda v, dt="float32", **at: g.op("frobenius_norm", {"X": v}, at, dtype=dt)  # noqa
    g.fetch(fn(x), fn(x, dim=[1]), fn(x, dim=[0, -1], keep_dim=True),
            fn(x, dim=[0], reduce_all=True), fn(x, dim=[0, 1, 2]),
            fn(d, "float64", dim=[1]), fn(d, "float64", dim=[0, 1], keep_dim=True))


@case(**EXACT)
def fill_diagonal_modes(g):
    """fill_diagonal on square, wide and tall matrices (wrap or not), offsets (positive,
    negative), rank 3 (equal dims), float32, float64, int32, int64 and bool."""
    x = g.data("x", g.rand([4, 4], -2, 2))
    w = g.data("w", g.rand([3, 5], -2, 2))
    t = g.data("t", g.rand([7, 3], -2, 2).astype("float64"))
    c = g.data("c", g.rand([3, 3, 3], -2, 2))
    i = g.data("i", g.randint([4, 3], -9, 9, "int32"))
    k = g.data("k", g.randint([3, 4], -9, 9, "int64"))
    b = g.data("b", np.zeros([3, 3], bool))
    fd = lambda v, dt="float32", **at: g.op("fill_diagonal", {"X": v}, at, dtype=dt)  # noqa
    g.fetch(fd(x, value=1.5), fd(x, value=-2.0, offset=1), fd(x, value=3.0, offset=-2),
            fd(w, value=9.0, offset=2), fd(t, "float64", value=5.0, wrap=True),
            fd(t, "float64", value=5.0, wrap=False),
            fd(t, "float64", value=7.0, offset=1, wrap=True),
            fd(c, value=0.5), fd(i, "int32", value=7.9), fd(k, "int64", value=-3.0, offset=-1),
            fd(b, "bool", value=1.0))


@case(rtol=1e-5, atol=1e-6, note="a GEMM per output feature on both sides")
def bilinear_tensor_product_bias(g):
    """bilinear_tensor_product with and without Bias, float32 and float64."""
    x = g.data("x", g.rand([4, 3], -1, 1))
    y = g.data("y", g.rand([4, 5], -1, 1))
    w = g.data("w", g.rand([2, 3, 5], -1, 1))
    b = g.data("b", g.rand([1, 2], -1, 1))
    xd = g.data("xd", g.rand([3, 2], -1, 1).astype("float64"))
    yd = g.data("yd", g.rand([3, 4], -1, 1).astype("float64"))
    wd = g.data("wd", g.rand([3, 2, 4], -1, 1).astype("float64"))
    g.fetch(g.op("bilinear_tensor_product", {"X": x, "Y": y, "Weight": w, "Bias": b}),
            g.op("bilinear_tensor_product", {"X": x, "Y": y, "Weight": w}),
            g.op("bilinear_tensor_product", {"X": xd, "Y": yd, "Weight": wd}, dtype="float64"))


@case(rtol=1e-6, atol=0.0)
def logspace_dtypes(g):
    """logspace increasing and decreasing, Num 1, fractional and negative exponents, base 2
    and 10, float32, float64, int32 and int64 (values truncated)."""
    f = lambda n, v, dt="float32": g.data(n, np.array([v], dt))  # noqa: E731
    s0, s1, s2 = f("s0", 0.0), f("s1", 2.5), f("s2", -1.0)
    e0, e1 = f("e0", 3.0), f("e1", -2.0)
    b10, b2 = f("b10", 10.0), f("b2", 2.0)
    n5, n1, n7 = f("n5", 5, "int32"), f("n1", 1, "int32"), f("n7", 7, "int32")
    ls = lambda s, e, n, b, dt, npdt: g.op("logspace", {"Start": s, "Stop": e, "Num": n,  # noqa
                                                        "Base": b}, dict(dtype=dt), dtype=npdt)
    g.fetch(ls(s0, e0, n5, b10, 5, "float32"), ls(s1, e1, n7, b2, 5, "float32"),
            ls(s2, e0, n1, b10, 5, "float32"), ls(s1, e1, n7, b2, 6, "float64"),
            ls(s0, e0, n7, b10, 6, "float64"), ls(s0, e0, n5, b10, 2, "int32"),
            ls(s1, e0, n7, b2, 3, "int64"), ls(s2, e0, n1, b2, 3, "int64"))


@case(**EXACT)
def nms_boxes(g):
    """nms (paddle.vision.ops.nms's op) on overlapping boxes in the given order, thresholds
    0.3, 0.5 and the default 1 (nothing suppressed), float32 and float64."""
    corner = g.rand([12, 2], 0, 10)
    bv = np.concatenate([corner, corner + g.rand([12, 2], 1, 6)], 1).astype("float32")
    bv[5] = bv[2]          # identical boxes: IoU 1
    b = g.data("b", bv)
    bd = g.data("bd", bv.astype("float64"))
    nms = lambda v, dt="float32", **at: g.op("nms", {"Boxes": v}, at,  # noqa: E731
                                             outs={"KeepBoxesIdxs": 1}, dtype="int64")
    g.fetch(nms(b, iou_threshold=0.3), nms(b, iou_threshold=0.5), nms(b),
            nms(bd, iou_threshold=0.1))


@case(**EXACT, note="kthvalue and mode only select input values: exact")
def kthvalue_mode(g):
    """kthvalue with k on the last axis, a middle axis, keepdim, ties (values from few levels,
    so equal values compete for the index), a NaN, a row long enough for partial_sort
    (k * 64 < n); int32 and int64 and float64 inputs; mode likewise, with ties in frequency;
    both on a 0-D input."""
    x = g.data("x", (g.randint([3, 5, 7], 0, 4, "int32") * 0.5).astype(F32))
    xn = g.data("xn", np.array([[1.0, np.nan, -2.0, 3.0, 0.5], [np.nan, np.nan, 1.0, 1.0, 2.0]],
                               np.float32))
    xl = g.data("xl", (g.randint([2, 150], 0, 9, "int32") * 0.25).astype(F32))
    xi = g.data("xi", g.randint([4, 6], -3, 3, "int32"))
    xd = g.data("xd", g.randint([5, 4], 0, 3, "int64").astype("float64"))
    xj = g.data("xj", g.randint([3, 8], -2, 2, "int64"))
    x0 = g.data("x0", np.array(2.5, np.float32))
    outs = {"Out": 1, "Indices": 1}

    def kth(v, k, axis, keepdim, dt=F32):
        o = g.op("kthvalue", {"X": v}, dict(k=k, axis=axis, keepdim=keepdim), outs=outs, dtype=dt)
        return [o["Out"][0], o["Indices"][0]]

    def mode(v, axis, keepdim, dt=F32):
        o = g.op("mode", {"X": v}, dict(axis=axis, keepdim=keepdim), outs=outs, dtype=dt)
        return [o["Out"][0], o["Indices"][0]]
    f = (kth(x, 3, -1, False) + kth(x, 2, 1, True) + kth(x, 1, 0, False) + kth(xn, 4, 1, False)
         + kth(xl, 2, 1, False) + kth(xi, 5, 1, False, "int32") + kth(xd, 3, 0, True, "float64")
         + mode(x, -1, False) + mode(x, 1, True) + mode(xn, 1, False) + mode(xi, 0, False, "int32")
         + mode(xj, 1, True, "int64") + mode(xd, 0, False, "float64") + kth(x0, 1, 0, False)
         + mode(x0, -1, True))
    g.fetch(*f)


@case(**EXACT)
def searchsorted_modes(g):
    """searchsorted of a 1-D sequence and of a batch of rows (values equal to elements, below
    and above all of them, +-inf and NaN), left and right, int64 and int32 out; int32 sequence
    with float32 values, int64 with int64, float64 with float64."""
    s = g.data("s", np.array([-1.0, 0.0, 0.0, 0.5, 2.0, 2.0, 3.0], np.float32))
    v = g.data("v", np.array([[-2.0, -1.0, 0.0, 0.25], [2.0, 3.0, 9.0, np.inf],
                              [-np.inf, np.nan, 0.5, 1.0]], np.float32))
    sb = g.data("sb", np.sort(g.randint([2, 3, 6], 0, 5, "int64"), axis=-1))
    vb = g.data("vb", g.randint([2, 3, 4], -1, 6, "int64"))
    si = g.data("si", np.array([1, 3, 3, 5], np.int32))
    sd = g.data("sd", np.sort(g.rand([2, 5], dtype="float64"), axis=-1))
    vd = g.data("vd", g.rand([2, 3], dtype="float64"))

    def ss(a, b, right, i32=False):
        return g.op("searchsorted", {"SortedSequence": a, "Values": b},
                    dict(right=right, out_int32=i32), dtype="int32" if i32 else "int64")
    g.fetch(ss(s, v, False), ss(s, v, True), ss(s, v, True, True), ss(sb, vb, False),
            ss(sb, vb, True, True), ss(si, v, False), ss(si, v, True), ss(sd, vd, False),
            ss(sd, vd, True))


@case()
def lerp_broadcast(g):
    """lerp with X, Y and Weight of one shape, and each broadcast ([3, 1, 4], [5, 1], [4]);
    float64."""
    x = g.data("x", g.rand([3, 5, 4]))
    y = g.data("y", g.rand([3, 5, 4]))
    w = g.data("w", g.rand([3, 5, 4], 0, 1))
    xb = g.data("xb", g.rand([3, 1, 4]))
    yb = g.data("yb", g.rand([5, 1]))
    wb = g.data("wb", g.rand([4], -0.5, 1.5))
    xd = g.data("xd", g.rand([2, 3], dtype="float64"))
    yd = g.data("yd", g.rand([2, 3], dtype="float64"))
    wd = g.data("wd", g.rand([1], dtype="float64"))
    lerp = lambda a, b, c, dt=F32: g.op("lerp", {"X": a, "Y": b, "Weight": c}, dtype=dt)  # noqa
    g.fetch(lerp(x, y, w), lerp(xb, yb, wb), lerp(yb, x, w), lerp(xd, yd, wd, "float64"))


@case()
def logcumsumexp_modes(g):
    """logcumsumexp along the last and the first axis, flatten, exclusive, reverse, both; large
    values (no overflow), -inf; float64."""
    x = g.data("x", g.rand([3, 4, 5], -3, 3))
    xl = g.data("xl", np.array([[100.0, -np.inf, 200.0, -50.0], [-np.inf, -np.inf, 1.0, 0.0]],
                               np.float32))
    xd = g.data("xd", g.rand([4, 3], -2, 2, "float64"))

    def lcse(v, dt=F32, **a):
        return g.op("logcumsumexp", {"X": v}, dict(dict(axis=-1, flatten=False, exclusive=False,
                                                        reverse=False), **a), dtype=dt)
    g.fetch(lcse(x), lcse(x, axis=0), lcse(x, axis=1, reverse=True), lcse(x, flatten=True),
            lcse(x, axis=2, exclusive=True), lcse(x, axis=-2, exclusive=True, reverse=True),
            lcse(xl), lcse(xl, reverse=True), lcse(xd, "float64", axis=0, exclusive=True))


@case()
def diagonal_trace(g):
    """diagonal with offsets 0, 2, -1 and one past the matrix, axes (0, 1), (2, 0), (-1, -3)
    on a 3-D input, int64 and bool inputs; trace with the same attributes, float64, int32."""
    x = g.data("x", g.rand([3, 4, 5]))
    xi = g.data("xi", g.randint([4, 3], -9, 9, "int64"))
    xb = g.data("xb", g.randint([3, 3], 0, 2, "int32").astype("bool"))
    xd = g.data("xd", g.rand([2, 3, 3], dtype="float64"))
    xk = g.data("xk", g.randint([3, 2, 4], -9, 9, "int32"))

    def op(t, v, dt=F32, **a):
        return g.op(t, {"Input": v}, dict(dict(offset=0, axis1=0, axis2=1), **a), dtype=dt)
    g.fetch(op("diagonal", x), op("diagonal", x, offset=2), op("diagonal", x, offset=-1,
                                                                axis1=2, axis2=0),
            op("diagonal", x, offset=1, axis1=-1, axis2=-3), op("diagonal", x, offset=5),
            op("diagonal", xi, "int64", offset=-1), op("diagonal", xb, "bool", offset=1),
            op("trace", x), op("trace", x, offset=2, axis1=2, axis2=1),
            op("trace", x, offset=-2, axis1=-1, axis2=0), op("trace", xd, "float64", axis1=1,
                                                             axis2=2),
            op("trace", xk, "int32", offset=1, axis1=0, axis2=2), op("trace", xi, "int64",
                                                                   offset=-1))


@case(**EXACT)
def repeat_interleave_modes(g):
    """repeat_interleave by an int Repeats along dims 0, 1 and 2, and by an int64 and an int32
    RepeatsTensor (with a 0 count); int32, int64 and float64 X. (A negative dim crashes
    Paddle 3.3.1's fluid InferShape at build time: not exercised.)"""
    x = g.data("x", g.rand([2, 3, 4]))
    xi = g.data("xi", g.randint([3, 2], -9, 9, "int32"))
    xl = g.data("xl", g.randint([4], -9, 9, "int64"))
    xd = g.data("xd", g.rand([3, 2], dtype="float64"))
    r64 = g.data("r64", np.array([2, 0, 3], np.int64))
    r32 = g.data("r32", np.array([1, 3, 0, 2], np.int32))

    def ri(v, dim, reps=0, rt=None, dt=F32):
        ins = {"X": v}
        if rt is not None:
            ins["RepeatsTensor"] = rt
        return g.op("repeat_interleave", ins, dict(Repeats=reps, dim=dim), dtype=dt)
    g.fetch(ri(x, 0, 2), ri(x, 1, 3), ri(x, 2, 1), ri(xi, 0, 2, dt="int32"),
            ri(x, 1, rt=r64), ri(xi, 0, rt=r64, dt="int32"), ri(xl, 0, rt=r32, dt="int64"),
            ri(xd, 0, rt=r64, dt="float64"), ri(x, 2, rt=r32))


@case()
def index_add_modes(g):
    """index_add along axes 0, 1 and -1 with repeated and negative int64 / int32 indices;
    int32, int64 and float64 X."""
    x = g.data("x", g.rand([4, 3, 5]))
    v0 = g.data("v0", g.rand([5, 3, 5]))
    i0 = g.data("i0", np.array([0, 3, 0, -1, 2], np.int64))
    v1 = g.data("v1", g.rand([4, 2, 5]))
    i1 = g.data("i1", np.array([-3, 1], np.int32))
    v2 = g.data("v2", g.rand([4, 3, 3]))
    i2 = g.data("i2", np.array([4, 4, -5], np.int64))
    xi = g.data("xi", g.randint([3, 4], -9, 9, "int32"))
    vi = g.data("vi", g.randint([3, 3], -9, 9, "int32"))
    xl = g.data("xl", g.randint([4, 2], -9, 9, "int64"))
    vl = g.data("vl", g.randint([3, 2], -9, 9, "int64"))
    xd = g.data("xd", g.rand([2, 3], dtype="float64"))
    vd = g.data("vd", g.rand([2, 2], dtype="float64"))
    i3 = g.data("i3", np.array([3, -4, 3], np.int64))

    def ia(a, i, v, axis, dt=F32):
        return g.op("index_add", {"X": a, "Index": i, "AddValue": v}, dict(axis=axis), dtype=dt)
    g.fetch(ia(x, i0, v0, 0), ia(x, i1, v1, 1), ia(x, i2, v2, -1),
            ia(xi, i3, vi, 1, "int32"), ia(xl, i3, vl, 0, "int64"),
            ia(xd, i1, vd, 1, "float64"))


@case(**EXACT, unsaved=True,
      note="the medians of these inputs are exact in float (halves of small values); Out only: "
           "save_inference_model drops MedianIndex")
def nanmedian_modes(g):
    """nanmedian over all of X (no axes, or all listed), one axis, two axes (given out of
    order), a negative axis, with and without keepdim, modes avg and min; rows with NaNs (odd
    and even counts left), a row all NaN, ties (values from few levels); an input all NaN;
    int32, int64 and float64 X; a 1-D X."""
    xv = (g.randint([3, 4, 6], 0, 4, "int32") * 0.5).astype(F32)
    xv[0, 1, 2] = np.nan
    xv[1, 2, :] = np.nan
    xv[2, 0, 1:3] = np.nan
    x = g.data("x", xv)
    xc = g.data("xc", (g.randint([3, 4, 6], 0, 4, "int32") * 0.5).astype(F32))
    xa = g.data("xa", np.full([2, 3], np.nan, np.float32))
    xi = g.data("xi", g.randint([4, 5], -5, 5, "int32"))
    xl = g.data("xl", g.randint([3, 4], -5, 5, "int64"))
    xd = g.data("xd", np.where(g.rand([4, 3]) > 0.6, np.nan, g.randint([4, 3], 0, 3, "int32"))
                .astype("float64"))
    x1 = g.data("x1", np.array([3.0, 1.0, np.nan, 1.0, 2.0, 0.5], np.float32))

    def nm(v, axis, keepdim, mode, dt=F32):
        o = g.op("nanmedian", {"X": v}, dict(axis=axis, keepdim=keepdim, mode=mode),
                 outs={"Out": 1, "MedianIndex": 1}, dtype=dt)
        return [o["Out"][0]]
    f = (nm(x, [], False, "avg") + nm(x, [2], False, "avg") + nm(x, [2], True, "min")
         + nm(x, [2, 0], True, "avg") + nm(x, [1], False, "min") + nm(xc, [-1], True, "avg")
         + nm(xc, [0, 2], False, "min") + nm(xa, [1], False, "avg") + nm(xi, [1], False, "avg")
         + nm(xi, [0], True, "min") + nm(xl, [], True, "avg") + nm(xl, [1, 0], False, "min")
         + nm(xd, [0], False, "avg") + nm(x1, [], False, "min") + nm(x1, [0], False, "avg"))
    g.fetch(*f)


@case(rtol=1e-5, atol=1e-6)
def erfinv_values(g):
    """erfinv over (-1, 1), near +-1, at and beyond +-1 (infinities), NaN,
    zero and tiny values; float64."""
    x = g.data("x", np.concatenate([g.rand([20], -0.999, 0.999), np.array(
        [0.0, -0.0, 1e-7, -1e-30, 0.5, -0.5, 0.9999, -0.99999, 1.0, -1.0, 1.5, -2.0, np.nan],
        np.float32)]).astype(F32))
    xd = g.data("xd", np.concatenate([g.rand([10], -1, 1, "float64"), np.array(
        [1 - 1e-12, -(1 - 1e-9), 1e-300, 1.0, -1.0, 3.0], np.float64)]))
    g.fetch(g.op("erfinv", {"X": x}), g.op("erfinv", {"X": xd}, dtype="float64"))


@case()
def label_smooth_modes(g):
    """label_smooth with the uniform prior (epsilon 0.1, 0) and with PriorDist [1, K] and [K];
    3-D X; float64."""
    x = g.data("x", np.eye(5, dtype=F32)[g.randint([4], 0, 5)])
    x3 = g.data("x3", g.rand([2, 3, 4], 0, 1))
    p = g.data("p", g.rand([1, 5], 0, 1))
    p1 = g.data("p1", g.rand([4], 0, 1))
    xd = g.data("xd", g.rand([3, 4], 0, 1, "float64"))
    pd = g.data("pd", g.rand([1, 4], 0, 1, "float64"))

    def ls(v, eps, prior=None, dt=F32):
        ins = {"X": v}
        if prior is not None:
            ins["PriorDist"] = prior
        return g.op("label_smooth", ins, dict(epsilon=eps), dtype=dt)
    g.fetch(ls(x, 0.1), ls(x, 0.0), ls(x, 0.25, p), ls(x3, 0.3), ls(x3, 0.2, p1),
            ls(xd, 0.15, None, "float64"),
            ls(xd, 0.4, pd, "float64"))


@case()
def affine_grid_modes(g):
    """affine_grid 4-D (output_shape attribute, align_corners true and false, a size-2 dim) and
    5-D, and with the OutputShape tensor (int32, overriding the attribute); float64."""
    th = g.data("th", g.rand([2, 2, 3]))
    th3 = g.data("th3", g.rand([2, 3, 4]))
    shp = g.data("shp", np.array([2, 3, 5, 4], np.int32))
    thd = g.data("thd", g.rand([1, 2, 3], dtype="float64"))

    def ag(t, shape, align, st=None, dt=F32):
        ins = {"Theta": t}
        if st is not None:
            ins["OutputShape"] = st
        return g.op("affine_grid", ins, dict(output_shape=shape, align_corners=align),
                    outs={"Output": 1}, dtype=dt)
    g.fetch(ag(th, [2, 3, 4, 5], True), ag(th, [2, 1, 2, 3], False),
            ag(th3, [2, 1, 3, 2, 4], True), ag(th3, [2, 1, 2, 3, 3], False),
            ag(th, [2, 3, 7, 7], False, shp), ag(thd, [1, 1, 3, 3], True, dt="float64"))


@case()
def interp_v1_bicubic_trilinear(g):
    """Paddle 2.6 (3.3.1 no longer registers them): bicubic_interp (v1) by out_h / out_w with
    and without align_corners, by a float scale, by OutSize, NHWC, float64; trilinear_interp
    (v1) by out_d / out_h / out_w with align_mode 0 and 1 and align_corners, by a float scale,
    by OutSize, NDHWC."""
    x4 = g.data("x4", g.rand([2, 2, 4, 5]))
    xl = g.data("xl", g.rand([1, 3, 4, 2]))
    xd = g.data("xd", g.rand([1, 2, 3, 4], dtype="float64"))
    x5 = g.data("x5", g.rand([1, 2, 3, 4, 3]))
    x5l = g.data("x5l", g.rand([1, 3, 2, 4, 2]))
    os2 = g.data("os2", np.array([6, 3], "int32"))
    os3 = g.data("os3", np.array([4, 2, 5], "int32"))
    bc, tl = "bicubic", "trilinear"
    g.fetch(interp(g, "bicubic_interp", x4, interp_method=bc, out_h=7, out_w=3,
                   align_corners=True),
            interp(g, "bicubic_interp", x4, interp_method=bc, out_h=3, out_w=9),
            interp(g, "bicubic_interp", x4, interp_method=bc, scale=1.7),
            interp(g, "bicubic_interp", x4, {"OutSize": os2}, interp_method=bc, out_h=2,
                   out_w=2),
            interp(g, "bicubic_interp", xl, interp_method=bc, out_h=6, out_w=5,
                   data_layout="NHWC"),
            g.op("bicubic_interp", {"X": xd}, dict(data_layout="NCHW", out_d=-1, out_h=5,
                                                   out_w=7, align_corners=False, align_mode=1,
                                                   interp_method=bc), dtype="float64"),
            interp(g, "trilinear_interp", x5, interp_method=tl, out_d=5, out_h=3, out_w=4,
                   align_mode=0),
            interp(g, "trilinear_interp", x5, interp_method=tl, out_d=2, out_h=6, out_w=5,
                   align_mode=1),
            interp(g, "trilinear_interp", x5, interp_method=tl, out_d=4, out_h=2, out_w=5,
                   align_corners=True),
            interp(g, "trilinear_interp", x5, interp_method=tl, scale=1.5, align_mode=0),
            interp(g, "trilinear_interp", x5, {"OutSize": os3}, interp_method=tl, out_d=1,
                   out_h=1, out_w=1, align_mode=0),
            interp(g, "trilinear_interp", x5l, interp_method=tl, out_d=3, out_h=5, out_w=3,
                   align_mode=0, data_layout="NDHWC"))


@case(note="Paddle 2.6.2: 3.3.1 no longer registers linear_interp (v1)", paddle2=True)
def interp_v1_linear(g):
    """linear_interp (v1) on [N, C, W]: by out_w with align_mode 0 and 1 and align_corners, by
    a float scale (up and down), by OutSize, NWC."""
    x = g.data("x", g.rand([2, 3, 5]))
    xl = g.data("xl", g.rand([1, 4, 3]))
    osz = g.data("osz", np.array([7], "int32"))
    li = "linear"
    g.fetch(interp(g, "linear_interp", x, interp_method=li, out_w=8, align_mode=0,
                   data_layout="NCHW"),
            interp(g, "linear_interp", x, interp_method=li, out_w=3, align_mode=1,
                   data_layout="NCHW"),
            interp(g, "linear_interp", x, interp_method=li, out_w=9, align_corners=True,
                   data_layout="NCHW"),
            interp(g, "linear_interp", x, interp_method=li, scale=1.7, align_mode=0,
                   data_layout="NCHW"),
            interp(g, "linear_interp", x, interp_method=li, scale=0.6, align_mode=1,
                   data_layout="NCHW"),
            interp(g, "linear_interp", x, {"OutSize": osz}, interp_method=li, out_w=2,
                   align_mode=0, data_layout="NCHW"),
            interp(g, "linear_interp", xl, interp_method=li, out_w=6, align_mode=0,
                   data_layout="NHWC"))


@case(note="Paddle 2.6.2: 3.3.1 no longer registers soft_relu", paddle2=True)
def soft_relu_modes(g):
    """soft_relu (fluid): the default threshold 40 on values out to +-60, threshold 2, and
    float64."""
    x = g.data("x", g.rand([4, 5], -60.0, 60.0))
    xd = g.data("xd", g.rand([3, 4], -5.0, 5.0, "float64"))
    g.fetch(g.op("soft_relu", {"X": x}, {}), g.op("soft_relu", {"X": x}, dict(threshold=2.0)),
            g.op("soft_relu", {"X": xd}, dict(threshold=3.0), dtype="float64"))


@case(note="Paddle 2.6.2: 3.3.1 no longer registers the fluid isnan / isinf", paddle2=True,
      **EXACT)
def isnan_isinf_v1(g):
    """isnan and isinf (v1, fluid): one bool, whether any element is NaN / infinite, on a
    tensor with a NaN, one with -inf, a finite one, float64 and int32."""
    a = g.rand([2, 3])
    a[1, 2] = np.nan
    b = g.rand([4])
    b[0] = -np.inf
    x = g.data("x", a)
    y = g.data("y", b)
    z = g.data("z", g.rand([3, 2]))
    d = g.data("d", np.array([1.0, np.inf, 3.0]))
    i = g.data("i", np.array([1, 2, 3], "int32"))
    outs = []
    for t in ("isnan", "isinf"):
        for v in (x, y, z, d, i):
            outs.append(g.op(t, {"X": v}, {}, dtype="bool"))
    g.fetch(*outs)


@case(**EXACT)
def isclose_allclose(g):
    """isclose and allclose with the default tolerances (written as strings, as Paddle does),
    wider ones, the Rtol / Atol tensors (float64) overriding the attributes, equal_nan on and
    off, NaN and inf and near-boundary values; float64 inputs; equal_all on equal and unequal
    inputs of float32, int32, int64 and bool, and of different dims."""
    a = np.array([1.0, 1.0, 0.0, np.nan, np.nan, np.inf, -np.inf, 1e-9, 100.0, -3.0, 2.0, 5.0],
                 np.float32)
    b = np.array([1.0, 1.00001, 1e-9, np.nan, 1.0, np.inf, np.inf, 0.0, 100.001, -3.0001, 1.9,
                  5.0], np.float32)
    x = g.data("x", a.reshape(3, 4))
    y = g.data("y", b.reshape(3, 4))
    xd = g.data("xd", a.astype("float64"))
    yd = g.data("yd", b.astype("float64"))
    rt = g.data("rt", np.array([0.05], "float64"))
    at = g.data("at", np.array([1e-3], "float64"))
    outs = []
    for t in ("isclose", "allclose"):
        def op(u, v, ins=None, **attrs):
            i = {"Input": u, "Other": v}
            i.update(ins or {})
            return g.op(t, i, dict(dict(rtol="1e-05", atol="1e-08", equal_nan=False), **attrs),
                        dtype="bool")
        outs += [op(x, y), op(x, y, equal_nan=True), op(x, y, rtol="0.1", atol="0.001"),
                 op(x, y, {"Rtol": rt, "Atol": at}, equal_nan=True),
                 op(xd, yd, rtol="0.0001", atol="0.0")]
    outs.append(g.op("allclose", {"Input": x, "Other": x}, dict(rtol="1e-05", atol="1e-08",
                                                                 equal_nan=True), dtype="bool"))
    xi = g.data("xi", np.array([[1, 2], [3, 4]], "int32"))
    yi = g.data("yi", np.array([[1, 2], [3, 5]], "int32"))
    xl = g.data("xl", np.array([7, -8, 9], "int64"))
    xb = g.data("xb", np.array([True, False, True]))
    yb = g.data("yb", np.array([True, False, False]))
    ea = lambda u, v: g.op("equal_all", {"X": u, "Y": v}, dtype="bool")  # noqa: E731
    outs += [ea(xi, xi), ea(xi, yi), ea(x, x), ea(xl, xl), ea(xb, yb), ea(xb, xb),
             ea(xl, g.data("xl2", np.array([7, -8], "int64")))]
    g.fetch(*outs)


@case()
def dist_renorm_broadcast(g):
    """dist with p 2, 1, 3.5, 0, inf and -inf, X and Y broadcast ([3, 1, 4] and [2, 4]),
    float64; renorm along axes 0, 1 and 2 with p 2, 1 and 3 (some slices under max_norm, some
    over; a negative axis crashes Paddle's kernel, which the Python API spares it), float64; broadcast_tensors of three float32 tensors and of two int64 ones."""
    x = g.data("x", g.rand([3, 1, 4]))
    yv = g.rand([2, 4])
    y = g.data("y", yv)
    xd = g.data("xd", g.rand([2, 3], dtype="float64"))
    yd = g.data("yd", g.rand([2, 3], dtype="float64"))
    dist = lambda u, v, p, dt=F32: g.op("dist", {"X": u, "Y": v}, dict(p=p), dtype=dt)  # noqa
    r = g.data("r", g.rand([3, 4, 2], -2, 2))
    rd = g.data("rd", g.rand([4, 3], -2, 2, "float64"))
    renorm = lambda v, p, axis, m, dt=F32: g.op("renorm", {"X": v},  # noqa: E731
                                                dict(p=p, axis=axis, max_norm=m), dtype=dt)
    a = g.data("a", g.rand([2, 1, 3]))
    b = g.data("b", g.rand([4, 1]))
    cc = g.data("cc", g.rand([3]))
    il = g.data("il", g.randint([3, 1], -9, 9, "int64"))
    jl = g.data("jl", g.randint([1, 2], -9, 9, "int64"))
    bt = g.op("broadcast_tensors", {"X": [a, b, cc]}, outs={"Out": 3})
    bi = g.op("broadcast_tensors", {"X": [il, jl]}, outs={"Out": 2}, dtype="int64")
    g.fetch(dist(x, y, 2.0), dist(x, y, 1.0), dist(x, y, 3.5), dist(x, y, 0.0),
            dist(x, y, float("inf")), dist(x, y, float("-inf")), dist(xd, yd, 2.0, "float64"),
            renorm(r, 2.0, 0, 1.5), renorm(r, 1.0, 1, 2.0), renorm(r, 2.0, 2, 2.5),
            renorm(rd, 3.0, 1, 1.0, "float64"), *bt["Out"], *bi["Out"])


@case(**EXACT, note="counts, and weight sums of small integers: exact")
def histogram_bincount(g):
    """histogram with min / max given (values outside them dropped, the last bin closed), with
    min == max (the data's range), constant data (widened by 1), int32 and int64 and float64
    X, with Weight and with density; bincount with and without Weights (float32, float64,
    int32: float64 out), minlength below and above max(X) + 1, int64 X."""
    x = g.data("x", np.array([0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.99, 4.0, 4.5, -1.0, 2.0],
                             np.float32))
    xc = g.data("xc", np.full([4], 2.0, np.float32))
    xi = g.data("xi", g.randint([10], -3, 8, "int32"))
    xl = g.data("xl", g.randint([2, 5], 0, 20, "int64"))
    xd = g.data("xd", g.rand([9], -2, 2, "float64"))
    w = g.data("w", g.randint([12], 0, 4, "int32").astype(F32))

    def hist(v, bins, lo, hi, dt="int64", weight=None, density=False):
        ins = {"X": v}
        if weight is not None:
            ins["Weight"] = weight
        return g.op("histogram", ins, dict(bins=bins, min=lo, max=hi, density=density),
                    dtype=dt)
    bx = g.data("bx", np.array([1, 3, 3, 0, 1, 7], np.int32))
    bl = g.data("bl", np.array([2, 2, 0, 5], np.int64))
    bw = g.data("bw", g.randint([6], 0, 5, "int32").astype(F32))
    bwd = g.data("bwd", g.randint([6], 0, 5, "int32").astype("float64"))
    bwi = g.data("bwi", g.randint([6], 0, 5, "int32"))

    def bc(v, ml, weights=None, dt="int64"):
        ins = {"X": v}
        if weights is not None:
            ins["Weights"] = weights
        return g.op("bincount", ins, dict(minlength=ml), dtype=dt)
    g.fetch(hist(x, 4, 0.0, 4.0), hist(x, 5, 0.0, 0.0), hist(xc, 3, 0.0, 0.0),
            hist(xi, 4, 0.0, 0.0), hist(xi, 3, -1.0, 5.0), hist(xl, 6, 0.0, 0.0),
            hist(xd, 5, -1.0, 1.5), hist(x, 4, 0.0, 4.0, F32, weight=w),
            hist(x, 4, 0.0, 4.0, F32, density=True),
            bc(bx, 0), bc(bx, 12), bc(bl, 3), bc(bx, 0, bw, F32), bc(bx, 9, bwd, "float64"),
            bc(bx, 2, bwi, "float64"))


@case()
def fold_unfold(g):
    """unfold with 3 x 3 windows, strides, dilations and 4 uneven paddings [top, left, bottom,
    right], and a 2 x 1 window with no padding, float64; fold of overlapping windows (summed)
    with padding, and of a non-overlapping layout, float64."""
    x = g.data("x", g.rand([2, 3, 7, 6]))
    xd = g.data("xd", g.rand([1, 2, 4, 5], dtype="float64"))

    def unfold(v, k, s, p, d, dt=F32):
        return g.op("unfold", {"X": v}, dict(kernel_sizes=k, strides=s, paddings=p, dilations=d),
                    outs={"Y": 1}, dtype=dt)

    def fold(v, o, k, s, p, d, dt=F32):
        return g.op("fold", {"X": v}, dict(output_sizes=o, kernel_sizes=k, strides=s,
                                           paddings=p, dilations=d), outs={"Y": 1}, dtype=dt)
    c1 = g.data("c1", g.rand([2, 2 * 3 * 3, 5 * 3]))   # 5 x 6 image, pad 1, stride 1/2
    c2 = g.data("c2", g.rand([1, 3 * 2 * 2, 2 * 3], dtype="float64"))  # 4 x 6, 2 x 2 blocks
    g.fetch(unfold(x, [3, 3], [1, 1], [1, 1, 1, 1], [1, 1]),
            unfold(x, [3, 2], [2, 1], [0, 2, 1, 0], [2, 2]),
            unfold(xd, [2, 1], [1, 2], [0, 0, 0, 0], [1, 1], "float64"),
            fold(c1, [5, 6], [3, 3], [1, 2], [1, 1, 1, 1], [1, 1]),
            fold(c2, [4, 6], [2, 2], [2, 2], [0, 0, 0, 0], [1, 1], "float64"))


@case()
def frac_ops(g):
    """paddle.frac as Paddle 3.3.1's static graph writes it (there is no frac op): trunc, then
    elementwise_sub; negative values, halves, integers, float64."""
    x = g.data("x", np.array([-2.75, -1.5, -1.0, -0.25, 0.0, 0.5, 1.0, 2.25, 7.875, -7.875],
                             np.float32))
    xd = g.data("xd", g.rand([2, 3], -5, 5, "float64"))

    def frac(v, dt=F32):
        t = g.op("trunc", {"X": v}, dtype=dt)
        return g.op("elementwise_sub", {"X": v, "Y": t}, dict(axis=-1), dtype=dt)
    g.fetch(frac(x), frac(xd, "float64"))


@case(rtol=0.0, atol=0.0, note="linspace rounds each value once: exact")
def linspace_num_int64(g):
    """Num as an int64 tensor (what Paddle 3's PIR programs feed: SOLOv2's grid), float32,
    float64 and int64 runs, and a Num of 0 (an empty Out)."""
    def lin(start, stop, num, dtype, sdt="float32"):
        st = g.data("s%d" % len(g.feeds), np.array([start], sdt))
        sp = g.data("e%d" % len(g.feeds), np.array([stop], sdt))
        nm = g.data("n%d" % len(g.feeds), np.array([num], "int64"))
        vt = {"float32": 5, "float64": 6, "int32": 2, "int64": 3}[dtype]
        return g.op("linspace", {"Start": st, "Stop": sp, "Num": nm}, dict(dtype=vt),
                    dtype=dtype)
    g.fetch(lin(-1.0, 1.0, 9, "float32"), lin(0.5, 4.0, 6, "float64", "float64"),
            lin(-3, 20, 5, "int64", "int64"), lin(2.0, 3.0, 0, "float32"))


@case(rtol=1e-5, atol=1e-6, note="icore factors in double, Paddle (Eigen) in the dtype")
def inverse_modes(g):
    """inverse (paddle.inverse, TPS rectification): a float32 batch [2, 3, 3], a float64
    [4, 4], a 1x1, a float32 23x23 (TPS's (F+3) x (F+3)) and a rank-4 batch [2, 2, 3, 3], each
    diagonally weighted so that partial pivoting swaps rows in some and not in others."""
    outs = []
    for k, (shape, dt) in enumerate([([2, 3, 3], "float32"), ([4, 4], "float64"), ([1, 1], "float32"),
                                     ([23, 23], "float32"), ([2, 2, 3, 3], "float64")]):
        n = shape[-1]
        a = np.asarray(g.rand(shape, -1, 1), dtype=dt)
        if k % 2 == 0:
            a = a + (np.eye(n, dtype=dt) * 2.0 if k != 3 else np.eye(n, dtype=dt) * 0.5)
        x = g.data("x%d" % k, a.astype(dt))
        outs.append(g.op("inverse", {"Input": x}, {}, outs={"Output": 1}, dtype=dt))
    g.fetch(*outs)


@case()
def index_put_modes(g):
    """index_put (Paddle 3's `x[idx] = v`): two int64 index lists on a float32 [4, 5, 3] with a
    [2, 3] value (R = the last dim); int32 lists broadcasting [2, 1] x [1, 3] with a one-element
    value and negative indices; a bool [4, 5] mask with a [3] value; accumulate on int64 with a
    repeated index (both writes add); float64 with one list and a value broadcast over R; a bool
    x."""
    x = g.data("x", g.rand([4, 5, 3]))
    i0 = g.data("i0", np.array([3, 0], "int64"))
    i1 = g.data("i1", np.array([1, 4], "int64"))
    v0 = g.data("v0", g.rand([2, 3]))
    def put(x, idx, v, acc=False, dt=F32):
        return g.op("index_put", {"x": x, "indices": idx, "value": v}, dict(accumulate=acc),
                    outs={"out": 1}, dtype=dt)
    j0 = g.data("j0", np.array([[0], [-1]], "int32"))
    j1 = g.data("j1", np.array([[1, -2, 2]], "int32"))
    v1 = g.data("v1", np.array([7.5], F32))
    m = g.data("m", g.rand([4, 5]) > 0.3)
    v2 = g.data("v2", g.rand([3]))
    xi = g.data("xi", g.randint([5, 2], -9, 9, "int64"))
    ii = g.data("ii", np.array([1, 3, 1], "int64"))
    vi = g.data("vi", g.randint([3, 2], -5, 5, "int64"))
    xd = g.data("xd", g.rand([3, 4]).astype("float64"))
    id_ = g.data("id", np.array([2], "int64"))
    vd = g.data("vd", np.array([1.25], "float64"))
    xb = g.data("xb", g.rand([3, 2]) > 0)
    ib = g.data("ib", np.array([0, 2], "int64"))
    vb = g.data("vb", np.array([True, False]))
    g.fetch(put(x, [i0, i1], v0), put(x, [j0, j1], v1), put(x, [m], v2),
            put(xi, [ii], vi, True, "int64"), put(xd, [id_], vd, False, "float64"),
            put(xb, [ib], vb, False, "bool"))


@case(rtol=0.0, atol=0.0, note="integer and bool results: exact")
def legacy_2x_ops(g):
    """What Paddle 2.x to_static exports of PaddleDetection need: scale of uint8 / int8 / int16
    tensors (scale and bias converted to the dtype, wrapping: SOLOv2's mask) and share_data
    (Tensor.detach())."""
    u = g.data("u", g.randint([2, 5], 0, 256, "uint8"))
    i8 = g.data("i8", g.randint([3], -128, 128, "int8"))
    i16 = g.data("i16", g.randint([4], -3000, 3000, "int16"))
    def sc(x, dt, scale, bias, after=True):
        return g.op("scale", {"X": x}, dict(scale=scale, bias=bias, bias_after_scale=after), dtype=dt)
    x = g.data("x", g.rand([2, 3]))
    g.fetch(sc(u, "uint8", 255.0, 1.0), sc(u, "uint8", 3.0, 7.0, False), sc(i8, "int8", -2.0, 5.0),
            sc(i16, "int16", 11.5, -3.0),
            g.op("share_data", {"X": x}))


@case(rtol=0.0, atol=0.0, note="bool results: exact")
def elementwise_bool(g):
    """elementwise_add and elementwise_mul of bool tensors (Paddle 2.x exports of DINO: mask *
    mask): logical or and and, with broadcasting (trailing, axis 1, scalar)."""
    x = g.data("x", g.rand([2, 3, 4]) > 0.5)
    y = g.data("y", g.rand([3, 4]) > 0.4)
    z = g.data("z", g.rand([3]) > 0.5)
    s = g.data("s", np.array([True]))
    def ew(t, a, b, axis=-1):
        return g.op(t, {"X": a, "Y": b}, dict(axis=axis), dtype="bool")
    g.fetch(ew("elementwise_add", x, y), ew("elementwise_mul", x, y),
            ew("elementwise_add", x, z, 1), ew("elementwise_mul", x, z, 1),
            ew("elementwise_mul", y, s), ew("elementwise_add", s, y))


def poly_boxes(g, n, pts, dtype=F32):
    """n polygons of `pts` points [x1, y1, ..., xn, yn] around a few centres (so that some
    overlap a lot, some a little, some not at all): rotated rectangles when pts is 4, else
    star-shaped (points by angle, random radii: simple, often not convex); every third one
    clockwise."""
    centres = g.rand([3, 2], 1.0, 9.0)
    out = []
    for i in range(n):
        c = centres[i % 3] + g.rand([2], -1.5, 1.5)
        a = g.rand([1], 0.0, np.pi)[0]
        if pts == 4:
            w, h = g.rand([2], 0.8, 3.5)
            loc = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
        else:
            ang = np.arange(pts) * 2 * np.pi / pts
            r = g.rand([pts], 0.6, 2.0)
            loc = np.stack([r * np.cos(ang), r * np.sin(ang)], 1)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        p = loc @ rot.T + c
        if i % 3 == 2:
            p = p[::-1]
        out.append(p.reshape(-1))
    return np.array(out).astype(dtype)


def distinct_scores(g, shape, dtype=F32):
    """Scores in (0, 1), all different (no ties anywhere, so the order is well-defined)."""
    n = int(np.prod(shape))
    return ((g.rng.permutation(n) + 0.5) / n).reshape(shape).astype(dtype)


@case(**EXACT, note="NMS only selects and copies input values: exact")
def multiclass_nms3_poly(g):
    """Polygon NMS (PolyIoU) on BBoxes [2, 18, 8] (rotated rectangles), Scores [2, 4, 18]:
    background 0, nms_top_k, keep_top_k, nms_eta < 1; a second op with no background and no
    limits, unnormalized (no effect on polygons); Out, Index, NmsRoisNum; the legacy
    multiclass_nms on the same boxes (Paddle 3.3.1 no longer registers multiclass_nms2)."""
    boxes = g.data("boxes", np.stack([poly_boxes(g, 18, 4) for _ in range(2)]))
    scores = g.data("scores", distinct_scores(g, [2, 4, 18]))
    outs = {"Out": 1, "Index": 1, "NmsRoisNum": 1}
    at_a = dict(background_label=0, score_threshold=0.1, nms_top_k=9, nms_threshold=0.7,
                nms_eta=0.9, keep_top_k=11, normalized=True)
    at_b = dict(background_label=-1, score_threshold=0.05, nms_top_k=-1, nms_threshold=0.2,
                nms_eta=1.0, keep_top_k=-1, normalized=False)
    a = g.op("multiclass_nms3", {"BBoxes": boxes, "Scores": scores}, at_a, outs=outs)
    b = g.op("multiclass_nms3", {"BBoxes": boxes, "Scores": scores}, at_b, outs=outs)
    v1 = g.op("multiclass_nms", {"BBoxes": boxes, "Scores": scores}, at_b)
    g.fetch(a["Out"][0], a["Index"][0], a["NmsRoisNum"][0], b["Out"][0], b["Index"][0],
            b["NmsRoisNum"][0], v1)


@case(**EXACT, note="NMS only selects and copies input values: exact")
def multiclass_nms3_poly16(g):
    """Polygon NMS of 8-point polygons (D = 16, simple, often not convex, both orientations)
    in float64: BBoxes [2, 14, 16], Scores [2, 3, 14]; background 2, nms_eta < 1."""
    F64 = "float64"
    boxes = g.data("boxes", np.stack([poly_boxes(g, 14, 8, F64) for _ in range(2)]))
    scores = g.data("scores", distinct_scores(g, [2, 3, 14], F64))
    outs = {"Out": 1, "Index": 1, "NmsRoisNum": 1}
    a = g.op("multiclass_nms3", {"BBoxes": boxes, "Scores": scores},
             dict(background_label=2, score_threshold=0.08, nms_top_k=10, nms_threshold=0.6,
                  nms_eta=0.85, keep_top_k=9, normalized=True), outs=outs, dtype=F64)
    b = g.op("multiclass_nms3", {"BBoxes": boxes, "Scores": scores},
             dict(background_label=-1, score_threshold=0.0, nms_top_k=-1, nms_threshold=0.15,
                  nms_eta=1.0, keep_top_k=-1, normalized=True), outs=outs, dtype=F64)
    g.fetch(a["Out"][0], a["Index"][0], a["NmsRoisNum"][0], b["Out"][0], b["Index"][0],
            b["NmsRoisNum"][0])


@case(**EXACT, note="Paddle 2.6.2: 3.3.1 no longer registers multiclass_nms2", paddle2=True)
def multiclass_nms2_poly(g):
    """multiclass_nms2 (Out, Index) on polygons: BBoxes [2, 15, 8] rotated rectangles, Scores
    [2, 3, 15]; background 1, nms_top_k, keep_top_k, nms_eta < 1."""
    boxes = g.data("boxes", np.stack([poly_boxes(g, 15, 4) for _ in range(2)]))
    scores = g.data("scores", distinct_scores(g, [2, 3, 15]))
    a = g.op("multiclass_nms2", {"BBoxes": boxes, "Scores": scores},
             dict(background_label=1, score_threshold=0.1, nms_top_k=8, nms_threshold=0.65,
                  nms_eta=0.9, keep_top_k=9, normalized=True), outs={"Out": 1, "Index": 1})
    g.fetch(a["Out"][0], a["Index"][0])


SPECIAL_X = [-2.5, -1.5, -0.5, -3.7, -7.25, -1.0, -2.0, -0.0, 0.0, 1e-30, 1e-3, 0.5, 1.0,
             1.4616321, 2.0, 3.3, 7.999, 8.0, 8.5, 9.9, 10.0, 25.0, 87.0, 1e8, 1e20, np.inf,
             -np.inf, np.nan, -30.2, -0.99, 0.25, 0.75]


@case(rtol=1e-6, atol=1e-7, note="bitwise what Paddle computes on this machine; libm's "
      "lgamma/exp/pow may differ by an ulp elsewhere")
def lgamma_digamma_polygamma(g):
    """lgamma, digamma and polygamma (n = 0: -inf everywhere; 1 to 4; -1: NaN) in float32 and
    float64 over negative non-integers, the poles 0, -0 and the negative integers, tiny and
    huge values, +-inf and NaN."""
    outs = []
    for dt in ("float32", "float64"):
        x = g.data("x_" + dt, np.array(SPECIAL_X, dt).reshape(4, 8))
        outs.append(g.op("lgamma", {"X": x}, dtype=dt))
        outs.append(g.op("digamma", {"X": x}, dtype=dt))
        for n in (0, 1, 2, 3, 4, -1):
            outs.append(g.op("polygamma", {"x": x}, dict(n=n), outs={"out": 1}, dtype=dt))
    g.fetch(*outs)


@case(rtol=1e-6, atol=0.0, note="Cephes' Chebyshev series as Paddle evaluates them (bitwise "
      "on this machine; exp may differ by an ulp elsewhere)")
def bessel_i0_i1(g):
    """i0, i0e, i1, i1e in float32 and float64: both series ([0, 8] and beyond, 8 itself),
    negative x (I0 even, I1 odd), +-0, overflow (i0(100) is inf in float32), +-inf, NaN."""
    vals = [-20.0, -8.0, -7.5, -3.0, -1.0, -1e-3, -0.0, 0.0, 1e-20, 0.5, 1.0, 2.5, 7.999,
            8.0, 8.001, 12.0, 30.0, 88.0, 100.0, 700.0, 1e10, np.inf, -np.inf, np.nan]
    outs = []
    for dt in ("float32", "float64"):
        x = g.data("x_" + dt, np.array(vals, dt).reshape(4, 6))
        for t in ("i0", "i0e", "i1", "i1e"):
            outs.append(g.op(t, {"x": x}, outs={"out": 1}, dtype=dt))
    g.fetch(*outs)


@case(**EXACT, note="one IEEE operation per element (integer copysign through double, as "
      "Paddle): bitwise equal")
def nextafter_copysign(g):
    """nextafter (float32, float64; x == y, +-0, towards +-inf, from the largest finite, the
    smallest subnormal, NaN) and copysign (every dtype Paddle's CPU kernel registers but
    float16 / bfloat16: bool, uint8, int8, int16, int32, int64 with the most negative value,
    float32 and float64 with -0 and NaN signs), with broadcasting ([2, 3, 4] and [4], [3, 1])."""
    outs = []
    for dt in ("float32", "float64"):
        fi = np.finfo(dt)
        xv = np.array([[[1.0, -1.0, 0.0, -0.0], [fi.max, -fi.max, fi.tiny, 3.5],
                        [np.nan, 2.0, np.inf, -np.inf]],
                       [[0.0, 1e-30, -2.5, 1.0], [7.0, -7.0, 1e30, 5e-324 if dt == "float64"
                                                  else 1e-45], [np.nan, 1.0, 0.5, -0.5]]], dt)
        x = g.data("nx_" + dt, xv)
        y1 = g.data("ny1_" + dt, np.array([2.0, -np.inf, -0.0, np.nan], dt))
        y2 = g.data("ny2_" + dt, np.array([[np.inf], [0.0], [-1.0]], dt))
        outs.append(g.op("nextafter", {"x": x, "y": y1}, outs={"out": 1}, dtype=dt))
        outs.append(g.op("nextafter", {"x": x, "y": y2}, outs={"out": 1}, dtype=dt))
        outs.append(g.op("nextafter", {"x": x, "y": x}, outs={"out": 1}, dtype=dt))
        outs.append(g.op("copysign", {"x": x, "y": y1}, outs={"out": 1}, dtype=dt))
        outs.append(g.op("copysign", {"x": x, "y": y2}, outs={"out": 1}, dtype=dt))
    ints = {"bool": ([[True, False, True], [False, True, True]], [False, True, True]),
            "uint8": ([[0, 255, 17], [128, 3, 96]], [0, 240, 255]),
            "int8": ([[-128, 127, -1], [5, -6, 0]], [-1, 3, 0]),
            "int16": ([[-32768, 12345, -2], [7, 0, 255]], [1, -256, 0]),
            "int32": ([[-2**31, 2**31 - 1, -5], [12, 0, 65535]], [5, -1, 0]),
            "int64": ([[-2**63, 2**63 - 1, -5], [2**53 + 1, 0, -(2**60 + 3)]], [1, -2, 0])}
    for dt, (xv, yv) in ints.items():
        x = g.data("cx_" + dt, np.array(xv, dt))
        y = g.data("cy_" + dt, np.array(yv, dt))
        outs.append(g.op("copysign", {"x": x, "y": y}, outs={"out": 1}, dtype=dt))
    g.fetch(*outs)


@case(**EXACT, note="integer shifts: bitwise equal")
def bitwise_shift_modes(g):
    """bitwise_left_shift and bitwise_right_shift (is_arithmetic true and false) on uint8,
    int8, int16, int32 and int64: x [3, 8] against shift counts y [8] (broadcast) from 0 past
    the bit width, and negative counts (0, or -1 for a negative x shifted right
    arithmetically)."""
    outs = []
    for dt, bits in (("uint8", 8), ("int8", 8), ("int16", 16), ("int32", 32), ("int64", 64)):
        info = np.iinfo(dt)
        xv = [[5, 1, 100, info.max, info.min, 3, 0, 77]]
        if info.min < 0:
            xv += [[-5, -1, -100, -128, -2, -77, info.min + 1, -3]]
        else:
            xv += [[251, 255, 200, 128, 129, 64, 254, 9]]
        xv += [[1, 2, 3, 4, 5, 6, 7, 8]]
        sh = [0, 1, 3, bits - 1, bits, bits + 1, 2 * bits + 3 if bits < 64 else 127,
              -1 if info.min < 0 else 250]
        x = g.data("x_" + dt, np.array(xv, dt))
        y = g.data("y_" + dt, np.array(sh, dt))
        outs.append(g.op("bitwise_left_shift", {"x": x, "y": y}, dict(is_arithmetic=True),
                         outs={"out": 1}, dtype=dt))
        outs.append(g.op("bitwise_left_shift", {"x": x, "y": y}, dict(is_arithmetic=False),
                         outs={"out": 1}, dtype=dt))
        outs.append(g.op("bitwise_right_shift", {"x": x, "y": y}, dict(is_arithmetic=True),
                         outs={"out": 1}, dtype=dt))
        outs.append(g.op("bitwise_right_shift", {"x": x, "y": y}, dict(is_arithmetic=False),
                         outs={"out": 1}, dtype=dt))
    g.fetch(*outs)


@case(**EXACT, unsaved=True, note="one multiply or a copy per element: bitwise equal. "
      "unsaved: save_inference_model drops rrelu's Noise output, and Paddle 3.3.1 then fails "
      "running its own saved model (a null Noise tensor)")
def rrelu_memcpy_share_buffer(g):
    """rrelu with is_test true (Out = x, or x (lower + upper) / 2 below 0) for three
    (lower, upper) pairs in float32 and float64 (NaN, +-0, +-inf); the saved model has no
    Noise output (save_inference_model drops it). memcpy to dst_place_type 0 (CPU) and 4 (the
    ones a CPU-only Paddle runs) on float32 and int64; share_buffer of two float32 tensors,
    XOut the X variables themselves, as Paddle's memory passes write it."""
    outs = []
    for dt in ("float32", "float64"):
        x = g.data("x_" + dt, np.array([[-2.5, -1.0, -0.0, 0.0, 0.5, 3.0],
                                        [np.nan, np.inf, -np.inf, -1e-30, 7.0, -0.3]], dt))
        for lo, up in ((0.125, 1 / 3), (0.0, 1.0), (0.3, 0.3)):
            r = g.op("rrelu", {"X": x}, dict(lower=lo, upper=up, is_test=True),
                     outs={"Out": 1, "Noise": 1}, dtype=dt)
            outs.append(r["Out"][0])
    m = g.data("m", g.rand([3, 4]))
    mi = g.data("mi", np.array([[2**40, -3], [0, 7]], "int64"))
    outs.append(g.op("memcpy", {"X": m}, dict(dst_place_type=0)))
    outs.append(g.op("memcpy", {"X": mi}, dict(dst_place_type=4), dtype="int64"))
    a = g.data("sa", g.rand([2, 3]))
    b = g.data("sb", g.rand([4]))
    helper = LayerHelper("share_buffer")
    so = [helper.create_variable_for_type_inference(F32) for _ in range(2)]
    helper.append_op(type="share_buffer", inputs={"X": [a, b]},
                     outputs={"Out": so, "XOut": [a, b]},
                     attrs=dict(share_dims_and_dtype=[True, True]))
    outs += so
    g.fetch(*outs)


@case(note="gammaln: libm lgamma in each precision, bitwise in practice; gammaincc: the "
      "Cephes series and fraction, whose float32 steps Paddle's build may contract (FMA)")
def p7_gamma(g):
    """gammaln (float32, float64: poles 0 and -1, -2.5, +-inf, NaN, tiny, large) and gammaincc
    (float32, float64: shapes and points <= 0, the power series (y < 1 or y < x), the
    continued fraction, NaN and inf operands)."""
    outs = []
    for dt in ("float32", "float64"):
        xv = np.array([[0.0, -1.0, -2.5, 0.5, 1.0, 2.0], [np.inf, -np.inf, np.nan, 1e-30, 1e3,
                                                          -7.25]], dt)
        x = g.data("x_" + dt, xv)
        outs.append(g.op("gammaln", {"x": x}, outs={"out": 1}, dtype=dt))
        av = np.array([[0.5, 1.0, 3.0, 10.0, 0.0, -1.0, 2.0, 100.0],
                       [2.0, 0.1, 50.0, 7.5, 1e-3, 4.0, np.nan, 30.0]], dt)
        yv = np.array([[0.2, 2.0, 1.0, 12.0, 1.0, 1.0, 0.0, 90.0],
                       [-1.0, 3.0, 45.0, 7.0, 1e-3, np.inf, 1.0, 31.0]], dt)
        a = g.data("a_" + dt, av)
        y = g.data("y_" + dt, yv)
        outs.append(g.op("gammaincc", {"x": a, "y": y}, outs={"out": 1}, dtype=dt))
    g.fetch(*outs)


@case(note="sums accumulate in a different order (icore: double); integers exactly")
def p7_reduce_as(g):
    """reduce_as (leading axes, size-1 axes, no reduction; float32, float64, int32 and bool
    to int64, or kept as they are when no axis is summed (Paddle copies x), int8 / uint8 /
    int16 wrapping, int64)."""
    outs = []
    x = g.data("x", g.rand([2, 3, 4], -3, 3))
    xd = g.data("xd", g.rand([3, 4], -3, 3, "float64"))
    t1 = g.data("t1", np.zeros([3, 1], F32))
    t2 = g.data("t2", np.zeros([1, 4], "float64"))
    outs.append(g.op("reduce_as", {"x": x, "target": t1}, outs={"out": 1}))
    outs.append(g.op("reduce_as", {"x": x, "target": x}, outs={"out": 1}))
    outs.append(g.op("reduce_as", {"x": xd, "target": t2}, outs={"out": 1}, dtype="float64"))
    for dt, lo, hi, odt in (("int32", -2**31, 2**31 - 1, "int64"), ("bool", 0, 2, "int64"),
                            ("int8", -128, 127, "int8"), ("uint8", 0, 255, "uint8"),
                            ("int16", -32768, 32767, "int16"), ("int64", -2**62, 2**62, "int64")):
        v = g.data("r_" + dt, g.rng.randint(lo, hi, (4, 3, 2)).astype(dt))
        tt = g.data("rt_" + dt, np.zeros([3, 1], dt))
        outs.append(g.op("reduce_as", {"x": v, "target": tt}, outs={"out": 1}, dtype=odt))
        if dt in ("int32", "bool"):  # nothing summed: Paddle copies x, keeping its dtype
            outs.append(g.op("reduce_as", {"x": v, "target": v}, outs={"out": 1}, dtype=dt))
    g.fetch(*outs)


@case(note="one expression per element")
def p7_swiglu_trunc(g):
    """swiglu (one input split in half along the last axis, and x with y; float32, float64)
    and trunc_divide (float32 with a zero divisor and broadcasting, float64, int8 / int16 /
    int32 / int64 with negative operands, int8 and int16 min / -1 (Paddle traps on int32 /
    int64 min / -1: SIGFPE), uint8)."""
    outs = []
    for dt in ("float32", "float64"):
        a = g.data("sa_" + dt, g.rand([3, 6], -6, 6, dt))
        b = g.data("sb_" + dt, g.rand([3, 6], -2, 2, dt))
        outs.append(g.op("swiglu", {"x": a}, outs={"out": 1}, dtype=dt))
        outs.append(g.op("swiglu", {"x": a, "y": b}, outs={"out": 1}, dtype=dt))
    n = g.data("n", np.array([[7.5, -7.5, 1.0, 0.0], [-0.0, 3.0, -9.0, 1e30]], F32))
    d = g.data("d", np.array([2.0, 0.0, -0.0, 0.5], F32))
    outs.append(g.op("trunc_divide", {"x": n, "y": d}, outs={"out": 1}))
    nd = g.data("nd", np.array([7.5, -7.5, 1e300, -3.0], "float64"))
    dd = g.data("dd", np.array([2.0, 4.0, 1e-300, -3.0]))
    outs.append(g.op("trunc_divide", {"x": nd, "y": dd}, outs={"out": 1}, dtype="float64"))
    for dt in ("int8", "int16", "int32", "int64", "uint8"):
        info = np.iinfo(dt)
        lo = info.min if info.bits < 32 else info.min + 1  # Paddle traps on int32/64 min / -1
        xv = np.array([[7, -7, lo, info.max, 0, -1], [9, 5, 100 % info.max, 3, 1, 2]], dt) \
            if info.min < 0 else np.array([[7, 250, 0, 255, 9, 1], [9, 5, 100, 3, 1, 2]], dt)
        yv = np.array([2, -2, -1, 3, 5, -4], dt) if info.min < 0 else \
            np.array([2, 7, 1, 3, 5, 4], dt)
        outs.append(g.op("trunc_divide", {"x": g.data("tn_" + dt, xv),
                                          "y": g.data("td_" + dt, yv)},
                         outs={"out": 1}, dtype=dt))
    g.fetch(*outs)


@case(note="lp_pool2d: powf per element (float for float64 too), summed in window order; "
      "fractional pools only select")
def p7_pools(g):
    """lp_pool2d (norm_type 2, 3, 1.5, 0.5, -1 and inf; kernel, strides, paddings, SAME and
    VALID padding_algorithm, ceil_mode, NCHW / NHWC; float32, float64) and
    fractional_max_pool2d / 3d with a given random_u (disjoint windows and kernel_size
    windows, masks; float32, float64)."""
    outs = []
    x = g.data("x", g.rand([2, 3, 5, 6], -2, 2))
    xa = g.data("xa", g.rand([2, 3, 5, 6], 0.1, 2))
    xd = g.data("xd", g.rand([1, 2, 7, 5], 0.1, 2, "float64"))
    xn = g.data("xn", g.rand([1, 5, 6, 3], -2, 2))

    def lp(v, p, k, s, pad=(0, 0), algo="EXPLICIT", ceil=False, fmt="NCHW", dt=F32):
        return g.op("lp_pool2d", {"x": v},
                    dict(kernel_size=list(k), strides=list(s), paddings=list(pad),
                         ceil_mode=ceil, exclusive=True, data_format=fmt, pooling_type="lp",
                         global_pooling=False, adaptive=False, padding_algorithm=algo,
                         norm_type=float(p)), outs={"out": 1}, dtype=dt)
    outs += [lp(x, 2, [2, 2], [2, 2]), lp(x, 3, [3, 3], [2, 2], [1, 1], ceil=True),
             lp(xa, 1.5, [2, 3], [1, 2], algo="SAME"), lp(x, float("inf"), [2, 2], [1, 1], [1, 0]),
             lp(xn, 2, [2, 2], [1, 1], [0, 1, 1, 0], fmt="NHWC"),
             lp(xd, 0.5, [3, 3], [2, 2], algo="VALID", dt="float64"),
             lp(xd, -1, [2, 2], [2, 2], ceil=True, dt="float64")]

    def fmp(v, nd, out, k, u, dt=F32):
        r = g.op("fractional_max_pool%dd" % nd, {"x": v},
                 dict(output_size=list(out), kernel_size=list(k), random_u=u, return_mask=True),
                 outs={"out": 1, "mask": 1}, dtype=dt)
        r["mask"][0].desc.set_dtype(paddle.base.core.VarDesc.VarType.INT32)
        return [r["out"][0], r["mask"][0]]
    q = g.data("q", g.rand([1, 2, 4, 5, 6], -2, 2))
    outs += fmp(x, 2, [3, 3], [0, 0], 0.3) + fmp(xd, 2, [3, 2], [2, 2], 0.7, "float64")
    outs += fmp(x, 2, [2, 5], [3, 1], 0.5)[:1]
    outs += fmp(q, 3, [2, 2, 2], [0, 0, 0], 0.45) + fmp(q, 3, [1, 2, 3], [2, 2, 1], 0.9)
    g.fetch(*outs)


@case(note="LAPACK in another precision or order (icore solves float32 in double)")
def p7_linalg(g):
    """svdvals (one matrix, a 3-D and a 4-D batch: Paddle flattens the batch into one dim) and
    lu_solve (trans N, T, C; float32 batch, float64) on the lu op's factors."""
    outs = []
    m = g.data("m", g.rand([2, 3, 3]))
    md = g.data("md", g.rand([4, 4], dtype="float64"))
    w = g.data("w", g.rand([2, 3, 4, 5]))
    outs.append(g.op("svdvals", {"x": md}, outs={"s": 1}, dtype="float64"))
    outs.append(g.op("svdvals", {"x": m}, outs={"s": 1}))
    outs.append(g.op("svdvals", {"x": w}, outs={"s": 1}))
    for v, dt, k in ((m, F32, 2), (md, "float64", 3)):
        f = g.op("lu", {"X": v}, dict(pivots=True), outs={"Out": 1, "Pivots": 1, "Infos": 1},
                 dtype=dt)
        f["Pivots"][0].desc.set_dtype(paddle.base.core.VarDesc.VarType.INT32)
        f["Infos"][0].desc.set_dtype(paddle.base.core.VarDesc.VarType.INT32)
        shape = list(v.shape[:-1]) + [k]
        b = g.data("b_" + dt, g.rand(shape, dtype=dt))
        for tr in ("N", "T", "C"):
            outs.append(g.op("lu_solve", {"b": b, "lu": f["Out"][0], "pivots": f["Pivots"][0]},
                             dict(trans=tr), outs={"out": 1}, dtype=dt))
    g.fetch(*outs)


@case(**EXACT, note="counts and a trapezoid sum in double over few buckets: exact")
def auc_longer_stats(g):
    """auc whose StatPos / StatNeg hold more counts than it reads, as paddle.static.auc's
    slide_steps 0 batch counts do in its startup program ([(T + 1) + 1]): slide_steps 0 over
    18 counts (the first 16 read, outputs [1, 16]) and slide_steps 2 over 52 (the first 49
    read, outputs [49])."""
    p1 = g.rand([9, 1], 0, 1)
    pred2 = g.data("pred2", np.concatenate([1 - p1, p1], axis=1))
    lab = g.data("lab", np.array([1, 0, 1, 1, 0, -1, 0, 1, 0], "int64").reshape(9, 1))
    outs = _auc(g, pred2, lab, g.data("pos18", g.randint([18], 0, 5, "int64")),
                g.data("neg18", g.randint([18], 0, 5, "int64")))
    tp, tn = g.randint([52], 0, 4, "int64"), g.randint([52], 0, 4, "int64")
    tp[32:48] = tp[0:16] + tp[16:32]
    tn[32:48] = tn[0:16] + tn[16:32]
    tp[48] = tn[48] = 2
    outs += _auc(g, pred2, lab, g.data("pos52", tp), g.data("neg52", tn), slide_steps=2)
    g.fetch(*outs)


# ---------------------------------------------------------------------------------------
# au_: the completeness audit of the most common inference ops (modes, inputs and dtypes
# the cases above leave out)
# ---------------------------------------------------------------------------------------

F64 = "float64"


@case(rtol=1e-9, atol=1e-12)
def au_conv_pool_f64(g):
    """float64 conv2d (groups, NHWC, SAME), depthwise_conv2d, conv2d_transpose (groups,
    output_size), depthwise_conv2d_transpose and pool2d (max, avg, adaptive)."""
    x = g.data("x", g.rand([2, 4, 7, 6]).astype(F64))
    xh = g.data("xh", g.rand([1, 6, 5, 4]).astype(F64))
    w = g.param("w", g.rand([6, 2, 3, 3], -0.5, 0.5).astype(F64))
    wh = g.param("wh", g.rand([3, 4, 2, 3], -0.5, 0.5).astype(F64))
    dw = g.param("dw", g.rand([8, 1, 3, 3], -0.5, 0.5).astype(F64))
    tw = g.param("tw", g.rand([4, 3, 3, 3], -0.5, 0.5).astype(F64))
    td = g.param("td", g.rand([4, 1, 2, 2], -0.5, 0.5).astype(F64))
    ct = lambda v, f, ins=None, **a: g.op(a.pop("type", "conv2d_transpose"),  # noqa: E731
                                          dict({"Input": v, "Filter": f}, **(ins or {})),
                                          dict(dict(strides=[1, 1], paddings=[0, 0],
                                                    dilations=[1, 1], groups=1,
                                                    padding_algorithm="EXPLICIT",
                                                    data_format="NCHW", output_padding=[],
                                                    output_size=[]), **a),
                                          outs={"Output": 1}, dtype=F64)
    cv = lambda *a, **k: g.op(k.pop("type", "conv2d"), {"Input": a[0], "Filter": a[1]},  # noqa
                              dict(dict(strides=[1, 1], paddings=[0, 0], dilations=[1, 1],
                                        groups=1, padding_algorithm="EXPLICIT",
                                        data_format="NCHW"), **k),
                              outs={"Output": 1}, dtype=F64)
    pl = lambda v, **k: g.op("pool2d", {"X": v}, dict(dict(  # noqa: E731
        pooling_type="max", ksize=[2, 2], strides=[2, 2], paddings=[0, 0], ceil_mode=False,
        exclusive=True, global_pooling=False, adaptive=False, padding_algorithm="EXPLICIT",
        data_format="NCHW"), **k), dtype=F64)
    g.fetch(cv(x, w, groups=2, paddings=[1, 1], strides=[2, 1]),
            cv(xh, wh, padding_algorithm="SAME", strides=[2, 2], data_format="NHWC"),
            cv(x, dw, type="depthwise_conv2d", groups=4, paddings=[1, 2, 0, 1], dilations=[2, 1]),
            ct(x, tw, strides=[2, 2], paddings=[1, 1]),
            ct(x, tw, strides=[2, 2], groups=2, output_size=[16, 14]),
            ct(x, td, type="depthwise_conv2d_transpose", groups=4, strides=[2, 2]),
            pl(x), pl(x, pooling_type="avg", ksize=[3, 3], paddings=[1, 1], exclusive=False,
                      ceil_mode=True),
            pl(x, pooling_type="avg", ksize=[3, 4], adaptive=True),
            pl(xh, ksize=[3, 2], strides=[1, 1], data_format="NHWC", global_pooling=True))


@case()
def au_conv_modes(g):
    """conv2d: groups with NHWC and dilation, SAME with stride and dilation on NHWC, asymmetric
    paddings with groups; conv2d_transpose: NHWC with groups, output_padding and dilation, SAME
    with output_size, padding pairs, a 1x1 stride-1 kernel; depthwise NHWC with a channel
    multiplier."""
    x = g.data("x", g.rand([2, 6, 9, 8]), [-1, 6, -1, -1])
    xh = g.data("xh", g.rand([1, 7, 6, 4]), [-1, -1, -1, 4])
    w = g.param("w", g.rand([4, 3, 3, 2], -0.5, 0.5))
    wh = g.param("wh", g.rand([6, 2, 3, 3], -0.5, 0.5))
    dwh = g.param("dwh", g.rand([8, 1, 3, 3], -0.5, 0.5))
    tw = g.param("tw", g.rand([4, 3, 3, 2], -0.5, 0.5))
    tw1 = g.param("tw1", g.rand([6, 5, 1, 1], -0.5, 0.5))
    g.fetch(conv(g, x, w, groups=2, dilations=(2, 3), paddings=(2, 0, 1, 3), strides=(1, 2)),
            conv(g, xh, wh, groups=2, dilations=(2, 1), strides=(2, 2), algo="SAME", fmt="NHWC"),
            conv(g, xh, wh, groups=2, paddings=(1, 0, 0, 2), fmt="NHWC"),
            conv(g, xh, dwh, type="depthwise_conv2d", groups=4, strides=(2, 1), paddings=(1, 1),
                 fmt="NHWC"),
            convt(g, xh, tw, groups=2, strides=(2, 3), dilations=(1, 2), output_padding=(1, 2),
                  fmt="NHWC"),
            convt(g, x, g.param("tw6", g.rand([6, 2, 3, 3], -0.5, 0.5)), strides=(2, 2),
                  algo="SAME", output_size=(18, 17)),
            convt(g, x, tw1),
            convt(g, x, g.param("tw7", g.rand([6, 1, 3, 3], -0.5, 0.5)), groups=6,
                  strides=(1, 1), paddings=(2, 2), dilations=(2, 2)))


@case()
def au_pool_modes(g):
    """pool2d: adaptive avg on NHWC and with more outputs than inputs, ceil_mode with inclusive
    avg and four paddings, ceil_mode windows that start in the padding, SAME on NHWC, global
    max, a window larger than the input with padding, VALID max with ceil."""
    x = g.data("x", g.rand([2, 3, 7, 5], -2, 2), [-1, 3, -1, -1])
    xh = g.data("xh", g.rand([1, 6, 5, 3], -2, 2))
    g.fetch(pool(g, xh, "avg", (4, 2), adaptive=True, fmt="NHWC"),
            pool(g, x, "avg", (9, 6), adaptive=True),
            pool(g, x, "avg", (3, 2), (2, 2), (1, 0, 2, 1), ceil=True, exclusive=False),
            pool(g, x, "max", (2, 2), (3, 3), (1, 1), ceil=True),
            pool(g, x, "avg", (2, 2), (3, 3), (1, 1), ceil=True),
            pool(g, xh, "max", (3, 2), (2, 2), algo="SAME", fmt="NHWC"),
            pool(g, xh, "avg", (2, 2), (2, 3), algo="SAME", fmt="NHWC", exclusive=False),
            pool(g, x, "max", (1, 1), glob=True, fmt="NCHW"),
            pool(g, x, "avg", (9, 7), (1, 1), (1, 1)),
            pool(g, x, "max", (3, 3), (2, 2), (1, 1), ceil=True, algo="VALID"))


@case()
def au_interp_modes(g):
    """interpolate: nearest_interp_v2 with OutSize, SizeTensor and a 5-D scale; bicubic by the
    Scale input and SizeTensor; trilinear by a scale list and align_corners; linear by OutSize;
    downscaling with align_mode 0; float64 bilinear; uint8 nearest and bilinear; legacy
    bilinear_interp NHWC by OutSize, nearest_interp with align_corners; both the scale attribute
    and out_h/out_w."""
    x = g.data("x", g.rand([1, 2, 5, 6]), [-1, 2, -1, -1])
    x3 = g.data("x3", g.rand([2, 3, 5]))
    x5 = g.data("x5", g.rand([1, 2, 3, 4, 3]))
    xh = g.data("xh", g.rand([1, 4, 5, 3]))
    xd = g.data("xd", g.rand([1, 2, 4, 3]).astype(F64))
    xu = g.data("xu", g.randint([1, 2, 4, 5], 0, 256, "uint8"))
    osz = g.data("osz", np.array([7, 4], "int32"))
    s1 = g.data("s1", np.array([3], "int32"))
    s2 = g.data("s2", np.array([9], "int32"))
    sc = g.data("sc", np.array([1.6, 0.7], F32))
    o1 = g.data("o1", np.array([11], "int32"))
    it = lambda t, v, ins=None, dtype=F32, **a: g.op(  # noqa: E731
        t, dict({"X": v}, **(ins or {})),
        dict(dict(data_layout="NCHW", out_d=-1, out_h=-1, out_w=-1, align_corners=False,
                  align_mode=1, interp_method=t.split("_")[0]), **a), dtype=dtype)
    g.fetch(it("nearest_interp_v2", x, {"OutSize": osz}),
            it("nearest_interp_v2", x, {"SizeTensor": [s1, s2]}, align_corners=True),
            it("nearest_interp_v2", x5, scale=[2.0, 1.5, 0.5], data_layout="NCDHW"),
            it("bicubic_interp_v2", x, {"Scale": sc}),
            it("bicubic_interp_v2", x, {"SizeTensor": [s2, s1]}, align_corners=True),
            it("trilinear_interp_v2", x5, scale=[1.5, 0.5, 2.0], align_corners=True,
               data_layout="NCDHW"),
            it("trilinear_interp_v2", x5, scale=[2.0, 2.0, 2.0], align_mode=0,
               data_layout="NCDHW"),
            it("linear_interp_v2", x3, {"OutSize": o1}),
            it("bilinear_interp_v2", x, out_h=3, out_w=2, align_mode=0),
            it("bilinear_interp_v2", x, out_h=4, out_w=3, scale=[0.5, 0.5]),
            it("bilinear_interp_v2", xd, out_h=7, out_w=5, dtype=F64),
            it("bilinear_interp_v2", xd, scale=[1.5, 2.5], align_corners=True, dtype=F64),
            it("nearest_interp_v2", xu, out_h=7, out_w=3, dtype="uint8"),
            it("bilinear_interp_v2", xu, out_h=6, out_w=8, dtype="uint8"),
            it("bilinear_interp", xh, {"OutSize": osz}, data_layout="NHWC", align_mode=0),
            it("nearest_interp", x, out_h=8, out_w=9, align_corners=True),
            it("bilinear_interp", x, out_h=3, out_w=4, scale=2.0),
            it("bicubic_interp_v2", xh, out_h=8, out_w=4, data_layout="NHWC", align_corners=True))


@case()
def au_norm_modes(g):
    """batch_norm float64 and 2-D, NHWC use_global_stats; instance_norm and group_norm without
    Scale/Bias, float64, NHWC, one group; layer_norm without Scale/Bias and begin_norm_axis at
    the last dim."""
    x = g.data("x", g.rand([2, 4, 3, 5], -2, 2))
    xd = g.data("xd", g.rand([2, 4, 3, 2], -2, 2).astype(F64))
    x2 = g.data("x2", g.rand([5, 4], -2, 2))
    def bn(v, dt=F32, **a):
        c = v.shape[-1] if a.get("data_layout") == "NHWC" else v.shape[1]
        n = "bn%d" % len(g.params)
        p = lambda s, lo, hi: g.param(n + s, g.rand([c], lo, hi).astype(dt))  # noqa: E731
        helper = LayerHelper("batch_norm")
        mean, var = p("m", -1, 1), p("v", 0.5, 1.5)
        y, sm, sv = (helper.create_variable_for_type_inference(dt) for _ in range(3))
        helper.append_op(type="batch_norm", inputs={
            "X": [v], "Scale": [p("s", 0.5, 1.5)], "Bias": [p("b", -1, 1)], "Mean": [mean],
            "Variance": [var]}, outputs={"Y": [y], "MeanOut": [mean], "VarianceOut": [var],
                                        "SavedMean": [sm], "SavedVariance": [sv]},
            attrs=dict(dict(epsilon=1e-5, momentum=0.9, data_layout="NCHW",
                            use_global_stats=False, trainable_statistics=False), **a))
        return y
    inorm = lambda v, dt=F32, ins=None, **a: g.op(  # noqa: E731
        "instance_norm", dict({"X": v}, **(ins or {})), dict(dict(epsilon=1e-5), **a),
        outs={"Y": 1, "SavedMean": 1, "SavedVariance": 1}, dtype=dt)["Y"][0]
    gnorm = lambda v, dt=F32, ins=None, **a: g.op(  # noqa: E731
        "group_norm", dict({"X": v}, **(ins or {})),
        dict(dict(epsilon=1e-5, groups=2, data_layout="NCHW"), **a),
        outs={"Y": 1, "Mean": 1, "Variance": 1}, dtype=dt)["Y"][0]
    lnorm = lambda v, dt=F32, ins=None, **a: g.op(  # noqa: E731
        "layer_norm", dict({"X": v}, **(ins or {})), dict(dict(epsilon=1e-5), **a),
        outs={"Y": 1, "Mean": 1, "Variance": 1}, dtype=dt)["Y"][0]
    g.fetch(bn(xd, F64), bn(x2), bn(x, data_layout="NHWC", use_global_stats=True),
            bn(x, epsilon=1e-3),
            inorm(x), inorm(xd, F64, epsilon=0.01),
            inorm(x, ins={"Scale": g.param("is", g.rand([4], 0.5, 1.5))}),
            gnorm(x), gnorm(xd, F64, groups=4), gnorm(x, groups=1, data_layout="NHWC"),
            gnorm(x, ins={"Scale": g.param("gs", g.rand([5], 0.5, 1.5)),
                          "Bias": g.param("gb", g.rand([5]))}, groups=5, data_layout="NHWC"),
            lnorm(x, begin_norm_axis=3), lnorm(xd, F64, begin_norm_axis=1),
            lnorm(x, ins={"Bias": g.param("lb", g.rand([15]))}, begin_norm_axis=2))


@case(**EXACT)
def au_shape_ops(g):
    """slice by StartsTensor/EndsTensor and tensor lists, int64 and bool, every axis decreased;
    reshape2 by Shape and ShapeTensor, int64; transpose2 and concat of int64 / bool / uint8 /
    float16, concat's AxisTensor; split by SectionsTensorList and AxisTensor; squeeze2 of every
    1; unsqueeze2 by AxesTensor and AxesTensorList; flatten of int64."""
    x = g.data("x", g.rand([3, 4, 5]))
    i = g.data("i", g.randint([3, 4, 5], -50, 50, "int64"))
    b = g.data("b", g.rand([3, 4, 5]) > 0)
    u = g.data("u", g.randint([2, 3], 0, 256, "uint8"))
    h = g.data("h", g.rand([2, 3]).astype("float16"))
    st = g.data("st", np.array([1, -3], "int64"))
    en = g.data("en", np.array([3, 5], "int32"))
    one = g.data("one", np.array([1], "int64"))
    neg = g.data("neg", np.array([-1], "int32"))
    shp = g.data("shp", np.array([5, 12], "int32"))
    ax = g.data("ax", np.array([1], "int32"))
    sec = g.data("sec", np.array([3], "int32"))
    def sl(v, ins=None, dt=F32, **a):
        return g.op("slice", dict({"Input": v}, **(ins or {})),
                    dict(dict(axes=[1, 2], starts=[0, 0], ends=[1, 1], infer_flags=[1, 1],
                              decrease_axis=[]), **a), dtype=dt)
    rs = lambda v, ins=None, dt=F32, **a: g.op("reshape2", dict({"X": v}, **(ins or {})),  # noqa
                                               a, outs={"Out": 1, "XShape": 1},
                                               dtype=dt)["Out"][0]
    tp = lambda v, axis, dt: g.op("transpose2", {"X": v}, dict(axis=axis),  # noqa: E731
                                  outs={"Out": 1, "XShape": 1}, dtype=dt)["Out"][0]
    sp = g.op("split", {"X": x, "SectionsTensorList": [one, sec]},
              dict(axis=1, num=0, sections=[-1, -1]), outs={"Out": 2})["Out"]
    sp2 = g.op("split", {"X": i}, dict(axis=2, num=5, sections=[]),
               outs={"Out": 5}, dtype="int64")["Out"]
    g.fetch(sl(x, {"StartsTensor": st, "EndsTensor": en}, infer_flags=[-1, -1]),
            sl(i, {"StartsTensorList": [one, neg]}, dt="int64", ends=[4, 5],
               infer_flags=[-1, -1]),
            sl(b, {"EndsTensorList": [neg]}, dt="bool", axes=[0], starts=[1], ends=[-1],
               infer_flags=[-1]),
            sl(x, axes=[0, 1, 2], starts=[1, 2, 3], ends=[2, 3, 4], infer_flags=[1, 1, 1],
               decrease_axis=[0, 1, 2]),
            rs(x, {"Shape": shp}, shape=[]),
            rs(i, {"ShapeTensor": [one, neg, sec]}, "int64", shape=[]),
            rs(b, None, "bool", shape=[-1, 0, 1]),
            tp(i, [2, 0, 1], "int64"), tp(b, [1, 2, 0], "bool"), tp(u, [1, 0], "uint8"),
            g.op("cast", {"X": tp(h, [1, 0], "float16")}, dict(in_dtype=4, out_dtype=5)),
            g.op("concat", {"X": [i, i], "AxisTensor": ax}, dict(axis=0), dtype="int64"),
            g.op("concat", {"X": [b, b, b]}, dict(axis=-1), dtype="bool"),
            g.op("concat", {"X": [u, u]}, dict(axis=1), dtype="uint8"),
            sp[0], sp[1], sp2[4],
            g.op("squeeze2", {"X": g.data("s11", g.rand([1, 3, 1]))}, dict(axes=[]),
                 outs={"Out": 1, "XShape": 1})["Out"][0],
            g.op("unsqueeze2", {"X": i, "AxesTensor": g.data("ua", np.array([0, 4], "int32"))},
                 dict(axes=[]),
                 outs={"Out": 1, "XShape": 1}, dtype="int64")["Out"][0],
            g.op("unsqueeze2", {"X": x, "AxesTensorList": [one, neg]}, dict(axes=[]),
                 outs={"Out": 1, "XShape": 1})["Out"][0],
            g.op("flatten_contiguous_range", {"X": i}, dict(start_axis=-2, stop_axis=-1),
                 outs={"Out": 1, "XShape": 1}, dtype="int64")["Out"][0])


@case(**EXACT)
def au_gather_expand(g):
    """expand_v2 / expand_as_v2 / tile of int64, bool and float64 (expand_as_v2 by Y alone),
    gather of int64 and bool rows with an int32 Axis tensor, gather_nd of slices and of int64,
    stack and sum of ints, where with broadcast and int64 / float64."""
    x = g.data("x", g.rand([3, 1]))
    i = g.data("i", g.randint([3, 1], -9, 9, "int64"))
    b = g.data("b", g.rand([3, 4]) > 0)
    d = g.data("d", g.rand([1, 4]).astype(F64))
    y = g.data("y", g.rand([2, 3, 4]))
    m = g.data("m", g.randint([4, 3, 2], -9, 9, "int64"))
    idx = g.data("idx", np.array([2, 0, 2], "int32"))
    axt = g.data("axt", np.array([1], "int32"))
    nd = g.data("nd", np.array([[1, 2], [3, 0], [0, 1]], "int64"))
    nd1 = g.data("nd1", np.array([[[1], [0]]], "int32"))
    c = g.data("c", g.rand([3, 4]) > 0.3)
    ii = g.data("ii", g.randint([3, 4], -9, 9, "int32"))
    g.fetch(g.op("expand_v2", {"X": i}, dict(shape=[2, 3, 4]), dtype="int64"),
            g.op("expand_v2", {"X": b}, dict(shape=[2, -1, 4]), dtype="bool"),
            g.op("expand_as_v2", {"X": i, "Y": y}, dict(target_shape=[2, 3, 4]), dtype="int64"),
            g.op("expand_as_v2", {"X": d}, dict(target_shape=[3, 4]), dtype=F64),
            g.op("tile", {"X": b}, dict(repeat_times=[2, 1, 2]), dtype="bool"),
            g.op("tile", {"X": i}, dict(repeat_times=[3]), dtype="int64"),
            g.op("tile", {"X": x}, dict(repeat_times=[2, 1, 3])),
            g.op("gather", {"X": m, "Index": idx}, dict(axis=0), dtype="int64"),
            g.op("gather", {"X": b, "Index": idx, "Axis": axt}, dict(axis=0), dtype="bool"),
            g.op("gather", {"X": m, "Index": idx}, dict(axis=-2), dtype="int64"),
            g.op("gather_nd", {"X": m, "Index": nd}, dtype="int64"),
            g.op("gather_nd", {"X": y, "Index": nd1}),
            g.op("stack", {"X": [ii, ii]}, dict(axis=1), outs={"Y": 1}, dtype="int32"),
            g.op("sum", {"X": [ii, ii, ii]}, dtype="int32"),
            g.op("where", {"Condition": c, "X": ii, "Y": g.data("ij", g.randint([3, 4], 0, 5,
                                                                               "int32"))},
                 dtype="int32"),
            g.op("where", {"Condition": c, "X": g.data("wd", g.rand([3, 4]).astype(F64)),
                           "Y": g.data("we", g.rand([3, 4]).astype(F64))}, dtype=F64))


@case(**EXACT)
def au_argmax_topk_cast(g):
    """arg_max of float64 / int64 / uint8 with flatten and keepdims, dtype int32; top_k_v2 of
    float64 and int32 on a middle axis, smallest unsorted, the K input; cast between bool, int8,
    uint8, int16, int32, int64, float16, float32, float64 and bfloat16 (through float32: round
    to nearest even)."""
    xd = g.data("xd", np.round(g.rand([3, 4, 5], -2, 2) * 2).astype(F64))
    xi = g.data("xi", g.randint([4, 6], -5, 5, "int64"))
    xu = g.data("xu", g.randint([4, 6], 0, 5, "uint8"))
    am = lambda v, **a: g.op("arg_max", {"X": v}, dict(dict(  # noqa: E731
        axis=-1, keepdims=False, flatten=False, dtype=3), **a),
        dtype="int32" if a.get("dtype") == 2 else "int64")
    tk = lambda v, dt, ins=None, **a: g.op("top_k_v2", dict({"X": v}, **(ins or {})),  # noqa
                                           dict(dict(k=2, axis=-1, largest=True, sorted=True),
                                                **a), outs={"Out": 1, "Indices": 1}, dtype=dt)
    t1 = tk(xd, F64, axis=1, k=3)
    t2 = tk(g.data("ti", g.randint([3, 8], -50, 50, "int32") * 7 % 97), "int32",
            {"K": g.data("k", np.array([4], "int32"))}, largest=False)
    f = g.data("f", np.array([-300.7, -128.5, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 127.9, 255.5,
                              1e5, 65519.0, 3.14159, 1.00390625, 1.01171875, -2.5e-8],
                             F32))
    c = lambda v, o, dt: g.op("cast", {"X": v}, dict(in_dtype=int(v.dtype), out_dtype=o),  # noqa
                              dtype=dt)
    i8 = g.data("i8", np.array([-128, -1, 0, 1, 127], "int8"))
    i16 = g.data("i16", np.array([-32768, -300, 0, 255, 32767], "int16"))
    bo = g.data("bo", np.array([True, False, True]))
    hf = g.data("hf", np.array([-65504, -1.5, 0, 0.333, 6e-5, 65504], "float16"))
    g.fetch(am(xd, axis=1), am(xd, flatten=True, keepdims=True), am(xi, axis=0, dtype=2),
            am(xu, axis=1, keepdims=True), am(xi, flatten=True),
            t1["Out"][0], t1["Indices"][0], t2["Out"][0], t2["Indices"][0],
            c(c(f, 4, "float16"), 5, F32), c(c(f, 22, "uint16"), 5, F32),
            c(g.data("fi", np.array([-300.7, -1.5, -0.5, 0.5, 2.5, 32000.9], F32)), 1, "int16"),
            c(f, 6, F64), c(i8, 5, F32), c(i8, 20, "uint8"), c(i16, 21, "int8"),
            c(i16, 3, "int64"), c(bo, 5, F32), c(bo, 2, "int32"), c(hf, 5, F32),
            c(hf, 2, "int32"), c(xu, 0, "bool"), c(xd, 21, "int8"), c(xi, 0, "bool"))


@case()
def au_elementwise_matmul(g):
    """elementwise: Y with trailing ones at a middle axis, X of lower rank than Y with an axis,
    float64 and int64 add/mul/sub/div, int max/min; matmul_v2: 1-D by N-D and N-D by 1-D with
    transposes, batch broadcast both ways; matmul (legacy): 1-D operands, batch broadcast, rank
    3 by rank 2 with alpha and transposes; mul of float64."""
    x = g.data("x", g.rand([2, 3, 4, 5], -2, 2))
    y31 = g.data("y31", g.rand([3, 1], 0.5, 2))
    s = g.data("s", g.rand([4], -2, 2))
    big = g.data("big", g.rand([2, 4, 3], -2, 2))
    d = g.data("d", g.rand([3, 4], 0.5, 2).astype(F64))
    d2 = g.data("d2", g.rand([4], 0.5, 2).astype(F64))
    li = g.data("li", g.randint([3, 4], -20, 20, "int64"))
    lj = g.data("lj", g.randint([4], 1, 6, "int64"))
    ew_ = lambda t, a, b, axis=-1, dt=F32: g.op(t, {"X": a, "Y": b}, dict(axis=axis),  # noqa
                                              dtype=dt)
    v3 = g.data("v3", g.rand([3]))
    v4 = g.data("v4", g.rand([4]))
    m = g.data("m", g.rand([2, 1, 3, 4]))
    n = g.data("n", g.rand([5, 4, 6]))
    mv = lambda a, b, tx=False, ty=False: g.op("matmul_v2", {"X": a, "Y": b},  # noqa: E731
                                               dict(trans_x=tx, trans_y=ty))
    mm = lambda a, b, tx=False, ty=False, alpha=1.0: g.op(  # noqa: E731
        "matmul", {"X": a, "Y": b}, dict(transpose_X=tx, transpose_Y=ty, alpha=alpha))
    g.fetch(ew_("elementwise_add", x, y31, 1), ew_("elementwise_mul", x, y31, 1),
            ew_("elementwise_sub", s, big, 1), ew_("elementwise_div", x, s, 2),
            ew_("elementwise_add", d, d2, dt=F64), ew_("elementwise_div", d, d2, 1, F64),
            ew_("elementwise_mul", li, lj, dt="int64"), ew_("elementwise_div", li, lj,
                                                             dt="int64"),
            ew_("elementwise_sub", li, lj, dt="int64"), ew_("elementwise_max", li, lj,
                                                             dt="int64"),
            ew_("elementwise_min", li, lj, dt="int64"),
            mv(v3, m), mv(m, v4), mv(m, v3, tx=True),
            mv(m, n), mv(n, m, tx=True, ty=True), mv(v4, v4),
            mm(big, big, tx=True, alpha=0.5), mm(big, g.data("w2", g.rand([4, 5])), tx=True,
                                                   alpha=-1.5),
            mm(m, v4), mm(v3, m),
            g.op("mul", {"X": d, "Y": g.data("dm", g.rand([4, 2]).astype(F64))},
                 dict(x_num_col_dims=1, y_num_col_dims=1), dtype=F64))


@case()
def au_fill_range_clip_pad(g):
    """fill_constant by ValueTensor and ShapeTensor, of bool / int64 / float64 / uint8 / int8,
    str_value inf and -inf; range of float64 and int64 with a negative step and a fractional
    count; clip by Min / Max tensors, of float64 and int; pad of int32 and float64; pad3d by a
    Paddings tensor on NDHWC (reflect, circular, replicate)."""
    vt = g.data("vt", np.array([2.5], F32))
    st = g.data("st", np.array([2, 3], "int64"))
    fc = lambda dt, np_dt, ins=None, **a: g.op("fill_constant", ins or {}, dict(dict(  # noqa
        dtype=dt, shape=[2, 2], value=0.0, str_value="", force_cpu=False), **a), dtype=np_dt)
    rg = lambda a, b, c, dt: g.op("range", {"Start": a, "End": b, "Step": c}, dtype=dt)  # noqa
    x = g.data("x", g.rand([3, 4], -3, 3))
    xd = g.data("xd", g.rand([3, 4], -3, 3).astype(F64))
    xi = g.data("xi", g.randint([3, 4], -9, 9, "int32"))
    xl = g.data("xl", g.randint([3, 4], -9, 9, "int64"))
    x5 = g.data("x5", g.rand([1, 3, 4, 5, 2]))
    pt = g.data("pt", np.array([1, 2, 0, 3, 2, 1], "int32"))
    p3 = lambda v, mode, ins=None, **a: g.op("pad3d", dict({"X": v}, **(ins or {})), dict(  # noqa
        dict(paddings=[0] * 6, mode=mode, value=0.0, data_format="NDHWC"), **a))
    g.fetch(fc(5, F32, {"ValueTensor": vt}), fc(6, F64, {"ShapeTensor": st}, value=-1.25),
            fc(0, "bool", value=1.0), fc(3, "int64", str_value="123456789012", value=1.2e11),
            fc(20, "uint8", value=200.0), fc(21, "int8", value=-7.0),
            fc(5, F32, str_value="inf", value=float("inf")),
            fc(6, F64, str_value="-inf", value=float("-inf")),
            fc(2, "int32", {"ValueTensor": g.data("vi", np.array([7], "int32"))}),
            rg(g.data("a0", np.array([5.0], F64)), g.data("a1", np.array([-1.0], F64)),
               g.data("a2", np.array([-1.5], F64)), F64),
            rg(g.data("b0", np.array([10], "int64")), g.data("b1", np.array([-3], "int64")),
               g.data("b2", np.array([-4], "int64")), "int64"),
            rg(g.data("c0", np.array([0.5], F32)), g.data("c1", np.array([2.0], F32)),
               g.data("c2", np.array([0.4], F32)), F32),
            g.op("clip", {"X": x, "Min": g.data("mn", np.array([-1.0], F32)),
                          "Max": g.data("mx", np.array([0.5], F32))}, dict(min=-9.0, max=9.0)),
            g.op("clip", {"X": x, "Max": g.data("mx2", np.array([1.5], F32))},
                 dict(min=-0.25, max=9.0)),
            g.op("clip", {"X": xd}, dict(min=-1.0, max=2.0), dtype=F64),
            g.op("clip", {"X": xi}, dict(min=-2.0, max=3.5), dtype="int32"),
            g.op("clip", {"X": xl}, dict(min=-4.0, max=4.0), dtype="int64"),
            g.op("pad", {"X": xi}, dict(paddings=[1, 0, 0, 2], pad_value=3.0), dtype="int32"),
            g.op("pad", {"X": xd}, dict(paddings=[0, 1, 2, 0], pad_value=-0.5), dtype=F64),
            p3(x5, "reflect", {"Paddings": pt}), p3(x5, "circular", paddings=[1, 1, 2, 0, 0, 1]),
            p3(x5, "replicate", paddings=[2, 0, 1, 3, 1, 1]),
            p3(x5, "constant", {"Paddings": pt}, value=-2.0))


@case()
def au_misc_common(g):
    """scale by ScaleTensor, of int64 and float64; lookup_table_v2 with padding_idx (a negative
    one other than -1 is taken literally: it matches no id), int32 ids, float64 table;
    lookup_table (v1) with padding_idx; reduce_sum of bool / int32 with out_dtype, empty dim;
    reduce_mean / reduce_max keep_dim with reduce_all; gelu approximate; softmax on a middle
    axis; fill_constant_batch_size_like of int64; fill_any_like to bool; dropout float64."""
    x = g.data("x", g.rand([2, 3, 4], -3, 3))
    xd = g.data("xd", g.rand([2, 3, 4], -3, 3).astype(F64))
    xl = g.data("xl", g.randint([2, 3], -9, 9, "int64"))
    sct = g.data("sct", np.array([1.5], F32))
    ids = g.data("ids", np.array([[0, 3, 5], [2, 5, 1]], "int64"))
    ids32 = g.data("ids32", np.array([4, 0, 2], "int32"))
    w = g.param("w", g.rand([6, 3]))
    wd = g.param("wd", g.rand([6, 2]).astype(F64))
    b = g.data("b", g.rand([2, 3, 4]) > 0)
    xi = g.data("xi", g.randint([2, 3, 4], -9, 9, "int32"))
    lk = lambda i, t, p, dt=F32: g.op("lookup_table_v2", {"Ids": i, "W": t},  # noqa: E731
                                      dict(padding_idx=p), dtype=dt)
    rd = lambda t, v, dt=F32, **a: g.op(t, {"X": v}, dict(dict(  # noqa: E731
        dim=[0], keep_dim=False, reduce_all=False, in_dtype=-1, out_dtype=-1), **a), dtype=dt)
    a = lambda t, v, dt=F64, **k: g.op(t, {"X": v}, k, dtype=dt)  # noqa: E731
    g.fetch(g.op("scale", {"X": x, "ScaleTensor": sct}, dict(scale=9.0, bias=0.5,
                                                          bias_after_scale=True)),
            g.op("scale", {"X": xl}, dict(scale=3.0, bias=-2.0, bias_after_scale=False),
                 dtype="int64"),
            g.op("scale", {"X": xd}, dict(scale=0.1, bias=0.3, bias_after_scale=True),
                 dtype=F64),
            lk(ids, w, 5), lk(ids32, w, -1), lk(ids, wd, -2, F64), lk(ids32, w, -6),
            lk(ids32, w, -2),
            g.op("lookup_table", {"Ids": g.data("ids1", np.array([[3], [1], [3]], "int64")),
                                  "W": w}, dict(padding_idx=3)),
            g.op("lookup_table", {"Ids": g.data("ids2", np.array([[2], [0]], "int64")),
                                  "W": wd}, dict(padding_idx=-4), dtype=F64),
            rd("reduce_sum", b, "int64", dim=[1], out_dtype=3),
            rd("reduce_sum", xi, F32, dim=[0, 2], out_dtype=5, keep_dim=True),
            rd("reduce_sum", xi, "int32", dim=[]),
            rd("reduce_sum", xd, F64, dim=[-1], keep_dim=True),
            rd("reduce_mean", x, dim=[1], keep_dim=True, reduce_all=True),
            rd("reduce_max", xi, "int32", dim=[1, 2]),
            rd("reduce_min", xd, F64, dim=[0, 1]),
            rd("reduce_prod", x, dim=[2]),
            a("gelu", x, F32, approximate=True), a("gelu", xd, approximate=False),
            a("softmax", x, F32, axis=1), a("softmax", xd, axis=-2),
            g.op("fill_constant_batch_size_like", {"Input": x}, dict(
                shape=[5, -1, 2], input_dim_idx=2, output_dim_idx=1, dtype=3, value=7.0,
                str_value="7", force_cpu=False), dtype="int64"),
            g.op("fill_any_like", {"X": x}, dict(value=1.0, dtype=0), dtype="bool"),
            g.op("dropout", {"X": xd}, dict(dropout_prob=0.25,
                                             dropout_implementation="downgrade_in_infer"),
                 outs={"Out": 1, "Mask": 1}, dtype=F64)["Out"][0])


@case()
def au_act_f64(g):
    """The common activations of float64: leaky_relu, sigmoid, tanh, hard_sigmoid, swish, relu6,
    relu, exp, sqrt, hard_swish, gelu, silu, elu, log, abs."""
    xd = g.data("xd", g.rand([2, 3, 4], -8, 8).astype(F64))
    a = lambda t, v, dt=F64, **k: g.op(t, {"X": v}, k, dtype=dt)  # noqa: E731
    g.fetch(a("leaky_relu", xd, alpha=0.02), a("sigmoid", xd), a("tanh", xd),
            a("hard_sigmoid", xd, slope=0.2, offset=0.5), a("swish", xd), a("relu6", xd),
            a("relu", xd), a("exp", xd), a("sqrt", g.data("xp", g.rand([4], 0.1, 3).astype(F64))),
            a("hard_swish", xd), a("silu", xd), a("elu", xd, alpha=0.7),
            a("log", g.data("xq", g.rand([5], 0.1, 9).astype(F64))), a("abs", xd))


@case()
def au_detection(g):
    """yolo_box with 3 anchors, 5 classes, non-square ImgSize and input, clip; prior_box with
    several max_sizes, flip with ratios already inverse, non-square input and image; roi_align
    with sampling_ratio 1, spatial_scale 1, ROIs partly outside and RoisNum of int64; box_coder
    decode with a per-box variance tensor."""
    xy = g.data("xy", g.rand([2, 3 * (5 + 5), 3, 4], -3, 3))
    isz = g.data("isz", np.array([[96, 128], [60, 200]], "int32"))
    yb = g.op("yolo_box", {"X": xy, "ImgSize": isz}, dict(
        anchors=[10, 13, 16, 30, 33, 23], class_num=5, conf_thresh=0.3, downsample_ratio=32,
        clip_bbox=True, scale_x_y=1.1, iou_aware=False, iou_aware_factor=0.5),
        outs={"Boxes": 1, "Scores": 1})
    fm = g.data("fm", g.rand([1, 2, 3, 5]))
    im = g.data("im", g.rand([1, 3, 30, 48]))
    pb = g.op("prior_box", {"Input": fm, "Image": im}, dict(
        min_sizes=[6.0, 12.0], max_sizes=[10.0, 20.0], aspect_ratios=[2.0, 0.5, 3.0],
        variances=[0.1, 0.1, 0.2, 0.2], flip=True, clip=True, step_w=0.0, step_h=0.0,
        offset=0.5, min_max_aspect_ratios_order=True), outs={"Boxes": 1, "Variances": 1})
    xr = g.data("xr", g.rand([2, 3, 6, 7]))
    rois = g.data("rois", np.array([[0.5, 0.5, 4.0, 3.0], [-2.0, 1.0, 3.5, 8.0],
                                    [1.0, 2.0, 1.5, 2.2], [5.0, 4.0, 9.0, 7.5]], F32))
    rn = g.data("rn", np.array([1, 3], "int64"))
    ra = lambda **a: g.op("roi_align", {"X": xr, "ROIs": rois, "RoisNum": rn}, dict(dict(  # noqa
        pooled_height=2, pooled_width=3, spatial_scale=1.0, sampling_ratio=1,
        aligned=False), **a))
    g.fetch(yb["Boxes"][0], yb["Scores"][0], pb["Boxes"][0], pb["Variances"][0],
            ra(), ra(aligned=True, sampling_ratio=-1, spatial_scale=0.5),
            ra(pooled_height=3, pooled_width=1, sampling_ratio=3))


@case(**EXACT)
def au_compare_logic(g):
    """compare ops of float64 / int64 / bool / int32 with broadcasting, X of lower rank than Y
    (Paddle 3.3.1 ignores the legacy axis attribute, so it is left at -1); logical ops of int
    and float inputs (non-zero is true)."""
    x = g.data("x", np.round(g.rand([2, 3, 4], -2, 2) * 2) / 2)
    yc = g.data("yc", np.array([0.5, -0.5, 0.0, 1.0], F32))
    d = g.data("d", np.round(g.rand([3, 4], -2, 2)).astype(F64))
    e = g.data("e", np.round(g.rand([4], -2, 2)).astype(F64))
    i = g.data("i", g.randint([3, 4], -3, 3, "int64"))
    j = g.data("j", g.randint([3, 1], -3, 3, "int64"))
    b = g.data("b", g.rand([3, 4]) > 0)
    c = g.data("c", g.rand([4]) > 0)
    k = g.data("k", g.randint([3, 4], -2, 2, "int32"))
    cmp = lambda t, a, bb, axis=-1: g.op(t, {"X": a, "Y": bb}, dict(  # noqa: E731
        axis=axis, force_cpu=False), dtype="bool")
    lg = lambda t, a, bb=None: g.op(t, dict({"X": a}, **({"Y": bb} if bb is not None  # noqa
                                                         else {})), dtype="bool")
    g.fetch(cmp("less_than", x, yc), cmp("greater_equal", x, yc),
            cmp("equal", d, e), cmp("not_equal", e, d), cmp("greater_than", i, j),
            cmp("less_equal", j, i), cmp("equal", b, c), cmp("not_equal", k, k),
            cmp("less_than", e, d),
            lg("logical_and", k, g.data("k2", g.randint([3, 4], -1, 2, "int32"))),
            lg("logical_or", d, d), lg("logical_xor", b, c), lg("logical_not", i),
            lg("logical_not", x))


@case()
def au_misc_ops2(g):
    """one_hot_v2 of int32 ids to float64 / int64; pow of float64 and by FactorTensor; prelu of
    float64; stack of bool, unstack of int64, meshgrid of int64; cumsum of float64; shape and
    size of bool; flatten2 of int64; index_select (negative dim, int32 index); take_along_axis
    of int64 with negative indices; argsort descending of float64; flip of several axes;
    tril_triu of int64; expand (v1) by expand_times, ExpandTimes and expand_times_tensor; brelu;
    increment of int64 and float64; reduce_all / reduce_any on a middle dim; where_index of a
    float condition."""
    ids = g.data("ids", np.array([[0, 3], [2, 1]], "int32"))
    xd = g.data("xd", g.rand([2, 3, 4], 0.1, 3).astype(F64))
    x = g.data("x", g.rand([2, 3, 4], -3, 3))
    b = g.data("b", g.rand([3, 4]) > 0)
    il = g.data("il", g.randint([3, 4], -9, 9, "int64"))
    v1 = g.data("v1", np.array([1, 2, 3], "int64"))
    v2 = g.data("v2", np.array([7, 8], "int64"))
    ft = g.data("ft", np.array([1.5], F32))
    one = g.data("one", np.array([2], "int32"))
    et = g.data("et", np.array([1, 2, 1], "int32"))
    oh = lambda v, dt, np_dt: g.op("one_hot_v2", {"X": v}, dict(  # noqa: E731
        depth=5, dtype=dt, allow_out_of_range=False), dtype=np_dt)
    us = g.op("unstack", {"X": il}, dict(axis=1, num=4), outs={"Y": 4}, dtype="int64")["Y"]
    mg = g.op("meshgrid", {"X": [v1, v2]}, outs={"Out": 2}, dtype="int64")["Out"]
    srt = g.op("argsort", {"X": xd}, dict(axis=1, descending=True, stable=False),
               outs={"Out": 1, "Indices": 1}, dtype=F64)
    g.fetch(oh(ids, 6, F64), oh(ids, 3, "int64"),
            g.op("pow", {"X": xd}, dict(factor=2.5), dtype=F64),
            g.op("pow", {"X": x, "FactorTensor": ft}, dict(factor=9.0)),
            g.op("prelu", {"X": xd, "Alpha": g.param("al", g.rand([3], 0, 0.5).astype(F64))},
                 dict(mode="channel", data_format="NCHW"), dtype=F64),
            g.op("stack", {"X": [b, b]}, dict(axis=0), outs={"Y": 1}, dtype="bool"),
            us[0], us[3], mg[0], mg[1],
            g.op("cumsum", {"X": xd}, dict(axis=-2, flatten=False, exclusive=False,
                                           reverse=False), dtype=F64),
            g.op("shape", {"Input": b}, dtype="int32"),
            g.op("size", {"Input": b}, dtype="int64"),
            g.op("flatten2", {"X": il}, dict(axis=1), outs={"Out": 1, "XShape": 1},
                 dtype="int64")["Out"][0],
            g.op("index_select", {"X": x, "Index": g.data("ix", np.array([3, 0, 3], "int32"))},
                 dict(dim=-1)),
            g.op("take_along_axis", {"Input": il, "Index": g.data(
                "ta", np.array([[1, 0, -1, 2], [2, -3, 0, 1]], "int64"))}, dict(Axis=0),
                outs={"Result": 1}, dtype="int64"),
            srt["Out"][0], srt["Indices"][0],
            g.op("flip", {"X": x}, dict(axis=[0, -1])),
            g.op("tril_triu", {"X": il}, dict(diagonal=-1, lower=False), dtype="int64"),
            g.op("expand", {"X": b}, dict(expand_times=[2, 1]), dtype="bool"),
            g.op("expand", {"X": x, "ExpandTimes": et}, dict(expand_times=[]), dtype=F32),
            g.op("expand", {"X": il, "expand_times_tensor": [one, one]}, dict(expand_times=[]),
                 dtype="int64"),
            g.op("brelu", {"X": x}, dict(t_min=-1.0, t_max=2.0)),
            g.op("increment", {"X": g.data("cnt", np.array([5], "int64"))}, dict(step=3.0),
                 dtype="int64"),
            g.op("increment", {"X": g.data("cf", np.array([0.5], F64))}, dict(step=-2.0),
                 dtype=F64),
            g.op("reduce_all", {"X": b}, dict(dim=[1], keep_dim=True, reduce_all=False),
                 dtype="bool"),
            g.op("reduce_any", {"X": b}, dict(dim=[0], keep_dim=False, reduce_all=False),
                 dtype="bool"),
            g.op("where_index", {"Condition": x}, dtype="int64"))


@case()
def au_edges(g):
    """Edge sizes the common ops meet in detection programs: slices that come out empty (start
    past end, start past the dim), concat with an empty part, gather and gather_nd by an empty
    index, reshape / transpose / cast / elementwise / softmax / scale of an empty tensor,
    matmul_v2 with K = 0 (zeros), reduce_sum over an empty axis, interp to a size of 1 and from
    a size of 1, pool2d with a window larger than the padded input edge, softmax over a dim of
    1, arg_max over a dim of 1, top_k_v2 with k equal to the dim."""
    x = g.data("x", g.rand([3, 4]))
    e = g.data("e", np.zeros([0, 4], F32), [-1, 4])
    ei = g.data("ei", np.zeros([0], "int64"), [-1])
    en = g.data("en", np.zeros([0, 2], "int64"), [-1, 2])
    k0 = g.data("k0", np.zeros([3, 0], F32), [3, -1])
    k1 = g.data("k1", np.zeros([0, 5], F32), [-1, 5])
    im = g.data("im", g.rand([1, 2, 5, 4]))
    i1 = g.data("i1", g.rand([1, 2, 1, 1]))
    sl = lambda v, s, t: g.op("slice", {"Input": v}, dict(  # noqa: E731
        axes=[0], starts=[s], ends=[t], infer_flags=[1], decrease_axis=[]))
    it = lambda v, **a: g.op("bilinear_interp_v2", {"X": v}, dict(dict(  # noqa: E731
        data_layout="NCHW", out_d=-1, out_h=-1, out_w=-1, align_corners=False, align_mode=1,
        interp_method="bilinear"), **a))
    tk = g.op("top_k_v2", {"X": x}, dict(k=4, axis=-1, largest=True, sorted=True),
              outs={"Out": 1, "Indices": 1})
    g.fetch(sl(x, 2, 1), sl(x, 5, 9), sl(x, -9, -5),
            g.op("concat", {"X": [x, e]}, dict(axis=0)),
            g.op("gather", {"X": x, "Index": ei}, dict(axis=0)),
            g.op("gather_nd", {"X": x, "Index": en}),
            g.op("reshape2", {"X": e}, dict(shape=[-1, 2, 2]), outs={"Out": 1, "XShape": 1})
            ["Out"][0],
            g.op("transpose2", {"X": e}, dict(axis=[1, 0]), outs={"Out": 1, "XShape": 1})
            ["Out"][0],
            g.op("cast", {"X": e}, dict(in_dtype=5, out_dtype=3), dtype="int64"),
            g.op("elementwise_add", {"X": e, "Y": g.data("b4", g.rand([4]))}, dict(axis=-1)),
            g.op("softmax", {"X": e}, dict(axis=-1)),
            g.op("scale", {"X": e}, dict(scale=2.0, bias=1.0, bias_after_scale=True)),
            g.op("matmul_v2", {"X": k0, "Y": k1}, dict(trans_x=False, trans_y=False)),
            g.op("reduce_sum", {"X": k0}, dict(dim=[1], keep_dim=False, reduce_all=False)),
            it(im, out_h=1, out_w=1), it(im, out_h=1, out_w=3, align_corners=True),
            it(i1, out_h=3, out_w=2), it(i1, out_h=4, out_w=4, align_mode=0),
            g.op("nearest_interp_v2", {"X": i1}, dict(
                data_layout="NCHW", out_d=-1, out_h=3, out_w=2, align_corners=True,
                align_mode=1, interp_method="nearest")),
            g.op("pool2d", {"X": im}, dict(
                pooling_type="avg", ksize=[7, 7], strides=[1, 1], paddings=[1, 1],
                ceil_mode=False, exclusive=True, global_pooling=False, adaptive=False,
                padding_algorithm="EXPLICIT", data_format="NCHW")),
            g.op("softmax", {"X": i1}, dict(axis=2)),
            g.op("arg_max", {"X": i1}, dict(axis=3, keepdims=False, flatten=False, dtype=3),
                 dtype="int64"),
            tk["Out"][0], tk["Indices"][0])


@case()
def au_scale_softmax_where(g):
    """scale by ScaleTensor and BiasTensor; softmax of rows holding -inf and of a row that is
    all -inf (NaN, as Paddle) on the last and on a middle axis; where of float64 (Paddle 3.3.1's
    where wants equal shapes: no broadcasting)."""
    x = g.data("x", g.rand([2, 3, 4], -3, 3))
    m = np.where(g.rand([2, 3, 4]) > 0.3, 0.0, -np.inf).astype(F32)
    m[1, 2, :] = -np.inf
    m[0, :, 1] = -np.inf
    xm = g.data("xm", g.rand([2, 3, 4], -3, 3) + m)
    c = g.data("c", g.rand([2, 3, 4]) > 0)
    y = g.data("y", g.rand([2, 3, 4]).astype(F64))
    yx = g.data("yx", g.rand([2, 3, 4]).astype(F64))
    g.fetch(g.op("scale", {"X": x, "ScaleTensor": g.data("st", np.array([2.0], F32)),
                           "BiasTensor": g.data("bt", np.array([0.25], F32))},
                 dict(scale=5.0, bias=9.0, bias_after_scale=True)),
            g.op("scale", {"X": x, "BiasTensor": g.data("bt2", np.array([-1.0], F32))},
                 dict(scale=0.5, bias=9.0, bias_after_scale=False)),
            g.op("softmax", {"X": xm}, dict(axis=-1)),
            g.op("softmax", {"X": xm}, dict(axis=1)),
            g.op("where", {"Condition": c, "X": yx, "Y": y}, dtype=F64))


@case(**EXACT)
def au_int_dtypes(g):
    """The integer dtypes Paddle's CPU kernels take for the common ops: elementwise add / div /
    sub of int8, uint8 and int16 (integer division truncates toward zero), mul of bool;
    matmul_v2 of int32 and int64; cumsum, arg_max and sign of int16 / uint8 / int8; reduce_sum
    of bool, int8, uint8 and int16 (Out in X's dtype but for bool); reduce_mean of int32 and
    int64 (the quotient truncated); pow, abs and clip of ints; pad of int16; index_select and
    where of bool. (Paddle also takes reduce_mean of bool, which icore refuses.)"""
    i8 = g.data("i8", g.randint([3, 4], -20, 20, "int8"))
    j8 = g.data("j8", g.randint([3, 4], 1, 6, "int8"))
    u8 = g.data("u8", g.randint([3, 4], 0, 120, "uint8"))
    v8 = g.data("v8", g.randint([3, 4], 1, 6, "uint8"))
    s16 = g.data("s16", g.randint([3, 4], -300, 300, "int16"))
    t16 = g.data("t16", g.randint([3, 4], 1, 9, "int16") * np.where(g.rand([3, 4]) > 0, 1, -1)
                 .astype("int16"))
    b = g.data("b", g.rand([3, 4]) > 0)
    b2 = g.data("b2", g.rand([3, 4]) > 0)
    i32 = g.data("i32", g.randint([3, 4], -9, 9, "int32"))
    w32 = g.data("w32", g.randint([4, 2], -9, 9, "int32"))
    i64 = g.data("i64", g.randint([2, 3, 4], -9, 9, "int64"))
    w64 = g.data("w64", g.randint([4, 5], -9, 9, "int64"))
    ew_ = lambda t, x, y, dt: g.op(t, {"X": x, "Y": y}, dict(axis=-1), dtype=dt)  # noqa: E731
    rd = lambda t, x, dt, **a: g.op(t, {"X": x}, dict(dict(  # noqa: E731
        dim=[0], keep_dim=False, reduce_all=False), **a), dtype=dt)
    g.fetch(ew_("elementwise_add", i8, j8, "int8"), ew_("elementwise_div", i8, j8, "int8"),
            ew_("elementwise_add", u8, v8, "uint8"), ew_("elementwise_div", u8, v8, "uint8"),
            ew_("elementwise_sub", s16, t16, "int16"), ew_("elementwise_div", s16, t16, "int16"),
            ew_("elementwise_mul", b, b2, "bool"),
            g.op("matmul_v2", {"X": i32, "Y": w32}, dict(trans_x=False, trans_y=False),
                 dtype="int32"),
            g.op("matmul_v2", {"X": i64, "Y": w64}, dict(trans_x=False, trans_y=False),
                 dtype="int64"),
            g.op("cumsum", {"X": s16}, dict(axis=1), dtype="int16"),
            g.op("cumsum", {"X": u8}, dict(axis=0), dtype="uint8"),
            g.op("arg_max", {"X": s16}, dict(axis=1, keepdims=False, flatten=False, dtype=3),
                 dtype="int64"),
            g.op("arg_max", {"X": u8}, dict(axis=0, keepdims=True, flatten=False, dtype=2),
                 dtype="int32"),
            g.op("sign", {"X": i8}, dtype="int8"), g.op("sign", {"X": s16}, dtype="int16"),
            rd("reduce_sum", b, "int64"), rd("reduce_sum", i8, "int64", dim=[1]),
            rd("reduce_sum", u8, "int64"), rd("reduce_sum", s16, "int64", dim=[1]),
            rd("reduce_mean", i32, "int32", dim=[1]), rd("reduce_mean", i64, "int64", dim=[2]),
            g.op("pow", {"X": i32}, dict(factor=3.0), dtype="int32"),
            g.op("abs", {"X": i64}, dtype="int64"),
            g.op("clip", {"X": i32}, dict(min=-3.0, max=4.0), dtype="int32"),
            g.op("pad", {"X": s16}, dict(paddings=[1, 0, 0, 2], pad_value=-7.0), dtype="int16"),
            g.op("index_select", {"X": b, "Index": g.data("ix", np.array([2, 0], "int64"))},
                 dict(dim=0), dtype="bool"),
            g.op("where", {"Condition": b2, "X": b, "Y": g.data("b3", g.rand([3, 4]) > 0)},
                 dtype="bool"))


@case(**EXACT)
def au_small_dtypes(g):
    """Movement ops of int8 / int16 / uint8 / float16: concat, expand_v2, tile, gather, scale of
    int8, nearest_interp_v2 of int32 / int64 / float16; float16 results come back through cast
    to float32. (Paddle also computes scale of bool and float16 and top_k_v2 of float16, which
    icore, float16 being storage only there, refuses.)"""
    i8 = g.data("i8", g.randint([3, 4], -20, 20, "int8"))
    s16 = g.data("s16", g.randint([3, 4], -300, 300, "int16"))
    u8 = g.data("u8", g.randint([3, 4], 0, 255, "uint8"))
    h = g.data("h", g.rand([3, 4], -4, 4).astype("float16"))
    i32 = g.data("i32", g.randint([1, 2, 3, 4], -9, 9, "int32"))
    i64 = g.data("i64", g.randint([1, 2, 3, 4], -9, 9, "int64"))
    h4 = g.data("h4", g.rand([1, 2, 3, 4], -4, 4).astype("float16"))
    idx = g.data("idx", np.array([2, 0, 2], "int32"))
    f = lambda v: g.op("cast", {"X": v}, dict(in_dtype=4, out_dtype=5))  # noqa: E731
    nn = lambda v, dt: g.op("nearest_interp_v2", {"X": v}, dict(  # noqa: E731
        data_layout="NCHW", out_d=-1, out_h=5, out_w=7, align_corners=False, align_mode=1,
        interp_method="nearest"), dtype=dt)
    g.fetch(g.op("concat", {"X": [i8, i8]}, dict(axis=1), dtype="int8"),
            g.op("concat", {"X": [s16, s16]}, dict(axis=0), dtype="int16"),
            f(g.op("concat", {"X": [h, h]}, dict(axis=0), dtype="float16")),
            g.op("expand_v2", {"X": u8}, dict(shape=[2, 3, 4]), dtype="uint8"),
            g.op("expand_v2", {"X": i8}, dict(shape=[2, -1, -1]), dtype="int8"),
            f(g.op("tile", {"X": h}, dict(repeat_times=[1, 2]), dtype="float16")),
            g.op("tile", {"X": s16}, dict(repeat_times=[2, 1]), dtype="int16"),
            g.op("gather", {"X": i8, "Index": idx}, dict(axis=0), dtype="int8"),
            g.op("gather", {"X": u8, "Index": idx}, dict(axis=0), dtype="uint8"),
            g.op("gather", {"X": s16, "Index": idx}, dict(axis=0), dtype="int16"),
            g.op("scale", {"X": i8}, dict(scale=2.0, bias=1.0, bias_after_scale=True),
                 dtype="int8"),
            nn(i32, "int32"), nn(i64, "int64"), f(nn(h4, "float16")))


@case(rtol=1e-6, atol=1e-6, note="Paddle computes interp weights and prior_box sizes from "
      "float attributes and float coordinates: float64 agrees to about 1e-7 relative")
def au_f64_ops(g):
    """float64 through common ops not covered elsewhere: pad3d (reflect, NDHWC), pad,
    pixel_shuffle, roi_align (aligned), prior_box, yolo_box, box_coder, grid_sampler,
    affine_channel, arg_max, elementwise_pow, bilinear_interp_v2 (NHWC, align_mode 0),
    conv2d_transpose (NHWC), pool2d (NHWC adaptive), strided_slice (negative stride). box_coder
    has no variance attribute here: Paddle 3.3.1's float64 kernel with one returns the prior
    boxes unchanged (its float32 kernel decodes), which icore does not copy."""
    D = F64
    x5 = g.data("x5", g.rand([1, 2, 3, 4, 2]).astype(D))
    x = g.data("x", g.rand([1, 8, 3, 4]).astype(D))
    xh = g.data("xh", g.rand([1, 5, 4, 6]).astype(D))
    rois = g.data("rois", np.array([[0.5, 0.5, 2.0, 2.5], [0.0, 1.0, 3.5, 2.0]], D))
    rn = g.data("rn", np.array([2], "int32"))
    yx = g.data("yx", g.rand([1, 2 * 7, 2, 3], -2, 2).astype(D))
    isz = g.data("isz", np.array([[64, 96]], "int32"))
    pbx = g.data("pbx", np.array([[0.1, 0.1, 0.5, 0.6], [0.2, 0.3, 0.9, 0.8]], D))
    tb = g.data("tb", g.rand([3, 2, 4], -0.5, 0.5).astype(D))
    grid = g.data("grid", g.rand([1, 3, 5, 2], -1.1, 1.1).astype(D))
    g.fetch(
        g.op("pad3d", {"X": x5}, dict(paddings=[1, 1, 2, 0, 1, 0], mode="reflect", value=0.0,
                                      data_format="NDHWC"), dtype=D),
        g.op("pad", {"X": x}, dict(paddings=[0, 0, 1, 0, 0, 2, 1, 1], pad_value=0.5), dtype=D),
        g.op("pixel_shuffle", {"X": x}, dict(upscale_factor=2, data_format="NCHW"), dtype=D),
        g.op("roi_align", {"X": x, "ROIs": rois, "RoisNum": rn}, dict(
            pooled_height=2, pooled_width=2, spatial_scale=1.0, sampling_ratio=2,
            aligned=True), dtype=D),
        *g.op("prior_box", {"Input": x, "Image": xh}, dict(
            min_sizes=[2.0], max_sizes=[4.0], aspect_ratios=[2.0], variances=[0.1, 0.1, 0.2,
                                                                                0.2],
            flip=True, clip=True, step_w=0.0, step_h=0.0, offset=0.5,
            min_max_aspect_ratios_order=False), outs={"Boxes": 1, "Variances": 1},
            dtype=D)["Boxes"],
        *g.op("yolo_box", {"X": yx, "ImgSize": isz}, dict(
            anchors=[10, 13, 16, 30], class_num=2, conf_thresh=0.01, downsample_ratio=32,
            clip_bbox=True, scale_x_y=1.0, iou_aware=False, iou_aware_factor=0.5),
            outs={"Boxes": 1, "Scores": 1}, dtype=D)["Scores"],
        g.op("box_coder", {"PriorBox": pbx, "TargetBox": tb}, dict(
            code_type="decode_center_size", box_normalized=True, axis=0,
            variance=[]), outs={"OutputBox": 1}, dtype=D),
        g.op("grid_sampler", {"X": x, "Grid": grid}, dict(
            mode="bilinear", padding_mode="zeros", align_corners=False), outs={"Output": 1},
            dtype=D),
        g.op("affine_channel", {"X": x, "Scale": g.param("acs", g.rand([8]).astype(D)),
                                "Bias": g.param("acb", g.rand([8]).astype(D))},
             dict(data_layout="NCHW"), dtype=D),
        g.op("arg_max", {"X": x}, dict(axis=1, keepdims=False, flatten=False, dtype=3),
             dtype="int64"),
        g.op("elementwise_pow", {"X": g.data("pw", g.rand([4], 0.1, 2).astype(D)),
                                 "Y": g.data("pe", g.rand([4], -2, 2).astype(D))},
             dict(axis=-1), dtype=D),
        g.op("bilinear_interp_v2", {"X": xh}, dict(
            data_layout="NHWC", out_d=-1, out_h=7, out_w=9, align_corners=False, align_mode=0,
            interp_method="bilinear", scale=[]), dtype=D),
        g.op("conv2d_transpose", {"Input": xh, "Filter": g.param(
            "ctw", g.rand([6, 2, 3, 3], -0.5, 0.5).astype(D))}, dict(
            strides=[2, 2], paddings=[1, 1], dilations=[1, 1], groups=1, padding_algorithm=
            "EXPLICIT", data_format="NHWC", output_padding=[], output_size=[]),
            outs={"Output": 1}, dtype=D),
        g.op("pool2d", {"X": xh}, dict(
            pooling_type="avg", ksize=[3, 2], strides=[1, 1], paddings=[0, 0], ceil_mode=False,
            exclusive=True, global_pooling=False, adaptive=True, padding_algorithm="EXPLICIT",
            data_format="NHWC"), dtype=D),
        g.op("strided_slice", {"Input": x}, dict(axes=[1, 3], starts=[7, 0], ends=[0, 4],
                                                 strides=[-2, 2], infer_flags=[1, 1],
                                                 decrease_axis=[]), dtype=D),
    )


@case()
def au_conv_groups(g):
    """Group counts that are neither 1 nor the channel count on both op types: depthwise_conv2d
    with groups below C (a grouped convolution), conv2d with groups equal to C (depthwise,
    multiplier 1 and 3, NCHW and NHWC), grouped 1x1, grouped with stride and SAME, dilated
    depthwise_conv2d on NHWC with a multiplier."""
    x = g.data("x", g.rand([2, 6, 7, 8]))
    xh = g.data("xh", g.rand([1, 5, 6, 6]))
    p = lambda n, s: g.param(n, g.rand(s, -0.5, 0.5))  # noqa: E731
    g.fetch(conv(g, x, p("w1", [6, 3, 3, 3]), type="depthwise_conv2d", groups=2,
                 paddings=(1, 1)),
            conv(g, x, p("w2", [12, 2, 3, 3]), type="depthwise_conv2d", groups=3,
                 strides=(2, 2)),
            conv(g, x, p("w3", [6, 1, 3, 3]), groups=6, paddings=(1, 1)),
            conv(g, x, p("w4", [18, 1, 3, 3]), groups=6, strides=(2, 1), paddings=(0, 1)),
            conv(g, xh, p("w5", [6, 1, 3, 3]), groups=6, paddings=(1, 1), fmt="NHWC"),
            conv(g, x, p("w6", [9, 2, 1, 1]), groups=3),
            conv(g, x, p("w7", [4, 3, 3, 2]), groups=2, strides=(2, 3), algo="SAME"),
            conv(g, xh, p("w8", [12, 2, 2, 2]), type="depthwise_conv2d", groups=3,
                 dilations=(2, 2), fmt="NHWC"))


@case()
def au_rnn_modes(g):
    """The rnn op's other modes: GRU (bidirectional, 2 layers, sequence lengths, initial state),
    SimpleRNN with tanh (sequence lengths) and relu (2 layers), time-major GRU."""
    x = g.data("x", g.rand([3, 5, 4], -1.5, 1.5))
    sl = g.data("sl", np.array([5, 2, 4], "int64"))
    h0 = g.data("h0", g.rand([4, 3, 6], -0.8, 0.8))
    gru = paddle.nn.GRU(4, 6, num_layers=2, direction="bidirect")
    o1, s1 = gru(x, h0, sequence_length=sl)
    rt = paddle.nn.SimpleRNN(4, 3, activation="tanh")
    o2, s2 = rt(x, sequence_length=sl)
    rr = paddle.nn.SimpleRNN(4, 3, activation="relu", num_layers=2)
    o3, s3 = rr(x)
    xt = g.data("xt", g.rand([5, 2, 4], -1.5, 1.5))
    gt = paddle.nn.GRU(4, 3, time_major=True)
    o4, s4 = gt(xt)
    g.fetch(o1, s1, o2, s2, o3, s3, o4, s4)


@case(**EXACT)
def au_nms_empty(g):
    """Detection outputs when nothing passes score_threshold: multiclass_nms (v1, Paddle gives
    one row [-1] then), multiclass_nms3 with and without RoisNum (Out [0, 6], Index [0, 1],
    NmsRoisNum zeros); and when only some images of a batch keep boxes."""
    boxes = g.data("boxes", det_boxes(g, 8)[None].repeat(2, 0))
    low = g.data("low", g.rand([2, 3, 8], 0, 0.1))
    mix = np.concatenate([g.rand([1, 3, 8], 0, 0.1), g.rand([1, 3, 8], 0.2, 1)], 0)
    mixed = g.data("mixed", mix.astype(F32))
    at = dict(background_label=-1, score_threshold=0.5, nms_top_k=10, nms_threshold=0.45,
              nms_eta=1.0, keep_top_k=5, normalized=True)
    n3 = lambda s: g.op("multiclass_nms3", {"BBoxes": boxes, "Scores": s}, at,  # noqa: E731
                        outs={"Out": 1, "Index": 1, "NmsRoisNum": 1})
    a, b = n3(low), n3(mixed)
    g.fetch(g.op("multiclass_nms", {"BBoxes": boxes, "Scores": low}, at),
            a["Out"][0], a["Index"][0], a["NmsRoisNum"][0],
            b["Out"][0], b["Index"][0], b["NmsRoisNum"][0])


@case(rtol=2e-4, atol=2e-5)
def au_layout_chains(g):
    """Convolution chains whose outputs meet layout-sensitive ops, with channel counts that are
    not multiples of 8 or 16 (so blocked layouts pad them): concat and split on channels, slice
    of channels, per-channel elementwise by [C, 1, 1] and [1, C, 1, 1], reduce_mean and arg_max
    over channels, softmax on axis 1, channel shuffle (reshape-transpose-reshape), shape,
    flatten, interp, adaptive pool, pad2d-like pad, hard_swish, depthwise after concat, residual
    add of two convs, batch_norm between."""
    x = g.data("x", g.rand([2, 3, 12, 10]), [-1, 3, 12, 10])
    p = lambda n, s, lo=-0.5, hi=0.5: g.param(n, g.rand(s, lo, hi))  # noqa: E731
    xs = {"Out": 1, "XShape": 1}
    def bn(v, c, n):
        helper = LayerHelper("batch_norm")
        mean, var = p(n + "m", [c]), p(n + "v", [c], 0.5, 1.5)
        y, sm, sv = (helper.create_variable_for_type_inference(F32) for _ in range(3))
        helper.append_op(type="batch_norm", inputs={
            "X": [v], "Scale": [p(n + "s", [c], 0.5, 1.5)], "Bias": [p(n + "b", [c])],
            "Mean": [mean], "Variance": [var]}, outputs={
            "Y": [y], "MeanOut": [mean], "VarianceOut": [var], "SavedMean": [sm],
            "SavedVariance": [sv]}, attrs=dict(epsilon=1e-5, momentum=0.9, data_layout="NCHW",
                                               use_global_stats=False,
                                               trainable_statistics=False))
        return y
    a = conv(g, x, p("w1", [20, 3, 3, 3]), paddings=(1, 1))
    a = g.op("relu", {"X": bn(a, 20, "bn1")})
    b = conv(g, a, p("w2", [20, 20, 1, 1]))
    r = g.op("elementwise_add", {"X": a, "Y": b}, dict(axis=-1))
    c = conv(g, x, p("w3", [5, 3, 3, 3]), paddings=(1, 1))
    cat = g.op("concat", {"X": [r, c]}, dict(axis=1))            # 25 channels
    d = conv(g, cat, p("w4", [25, 1, 3, 3]), type="depthwise_conv2d", groups=25,
             paddings=(1, 1), strides=(2, 2))
    d = g.op("hard_swish", {"X": d})
    sp = g.op("split", {"X": d}, dict(axis=1, num=0, sections=[7, 18]), outs={"Out": 2})["Out"]
    sl = g.op("slice", {"Input": d}, dict(axes=[1], starts=[3], ends=[11], infer_flags=[1],
                                          decrease_axis=[]))
    pc = g.op("elementwise_mul", {"X": d, "Y": p("pc", [25, 1, 1])}, dict(axis=-1))
    pc2 = g.op("elementwise_add", {"X": d, "Y": p("pc2", [1, 25, 1, 1])}, dict(axis=-1))
    pc3 = g.op("elementwise_sub", {"X": d, "Y": p("pc3", [25])}, dict(axis=1))
    rm = g.op("reduce_mean", {"X": d}, dict(dim=[1], keep_dim=True, reduce_all=False))
    am = g.op("arg_max", {"X": d}, dict(axis=1, keepdims=False, flatten=False, dtype=3),
              dtype="int64")
    sm = g.op("softmax", {"X": d}, dict(axis=1))
    e = conv(g, d, p("w5", [24, 25, 1, 1]))
    sh = g.op("reshape2", {"X": e}, dict(shape=[0, 3, 8, 6, 5]), outs=xs)["Out"][0]
    sh = g.op("transpose2", {"X": sh}, dict(axis=[0, 2, 1, 3, 4]), outs=xs)["Out"][0]
    sh = g.op("reshape2", {"X": sh}, dict(shape=[0, 24, 6, 5]), outs=xs)["Out"][0]
    shp = g.op("shape", {"Input": e}, dtype="int32")
    fl = g.op("flatten_contiguous_range", {"X": e}, dict(start_axis=1, stop_axis=-1),
              outs=xs)["Out"][0]
    up = g.op("nearest_interp_v2", {"X": e}, dict(
        data_layout="NCHW", out_d=-1, out_h=-1, out_w=-1, scale=[2.0, 2.0],
        interp_method="nearest", align_corners=False, align_mode=1))
    bl = g.op("bilinear_interp_v2", {"X": e}, dict(
        data_layout="NCHW", out_d=-1, out_h=9, out_w=7, scale=[],
        interp_method="bilinear", align_corners=False, align_mode=0))
    ap = pool(g, e, "avg", (2, 3), adaptive=True)
    pd = g.op("pad", {"X": e}, dict(paddings=[0, 0, 0, 0, 1, 2, 0, 1], pad_value=0.0))
    f = conv(g, e, p("w6", [6, 24, 3, 3]), paddings=(1, 1))
    f2 = conv(g, e, p("w7", [6, 24, 3, 3]), paddings=(1, 1))
    res = g.op("elementwise_add", {"X": f, "Y": f2}, dict(axis=-1))
    g.fetch(sp[0], sp[1], sl, pc, pc2, pc3, rm, am, sm, sh, shp, fl, up, bl, ap, pd, res)


@case(rtol=2e-4, atol=2e-5)
def au_fusion_edges(g):
    """Patterns icore's compiled executor rewrites, at their edges: a full-tensor add with the
    conv output as Y, the conv output also fetched (used twice), conv + bias + each activation
    with non-default attributes (leaky_relu alpha, hard_sigmoid slope, clip bounds, relu6,
    swish, sigmoid, hard_swish), conv + batch_norm with a large epsilon, matmul_v2 + a bias that
    broadcasts along rows (not an fc), matmul_v2 (trans_y) + bias + gelu, mul + bias + relu, two
    scales in a row (bias before and after), add + layer_norm, attention scores + mask +
    softmax."""
    x = g.data("x", g.rand([1, 3, 9, 8]))
    p = lambda n, s, lo=-0.5, hi=0.5: g.param(n, g.rand(s, lo, hi))  # noqa: E731
    ew = lambda t, a, b, axis=-1: g.op(t, {"X": a, "Y": b}, dict(axis=axis))  # noqa: E731
    c1 = conv(g, x, p("w1", [10, 3, 3, 3]), paddings=(1, 1))
    o1 = ew("elementwise_add", g.data("full", g.rand([1, 10, 9, 8])), c1)
    c2 = conv(g, x, p("w2", [10, 3, 3, 3]), paddings=(1, 1))
    o2 = g.op("relu", {"X": ew("elementwise_add", c2, p("b2", [10]), 1)})
    acts = []
    for k, (t, at) in enumerate([("leaky_relu", dict(alpha=0.3)),
                                 ("hard_sigmoid", dict(slope=0.25, offset=0.4)),
                                 ("clip", dict(min=-0.2, max=0.3)), ("relu6", {}),
                                 ("swish", {}), ("sigmoid", {}), ("hard_swish", {})]):
        c = conv(g, x, p("wa%d" % k, [6, 3, 3, 3]), strides=(2, 2), paddings=(1, 1))
        acts.append(g.op(t, {"X": ew("elementwise_add", c, p("ba%d" % k, [6]), 1)}, at))
    c3 = conv(g, x, p("w3", [5, 3, 1, 1]))
    helper = LayerHelper("batch_norm")
    mean, var = p("bnm", [5]), p("bnv", [5], 0.5, 1.5)
    y, sm, sv = (helper.create_variable_for_type_inference(F32) for _ in range(3))
    helper.append_op(type="batch_norm", inputs={
        "X": [c3], "Scale": [p("bns", [5], 0.5, 1.5)], "Bias": [p("bnb", [5])], "Mean": [mean],
        "Variance": [var]}, outputs={"Y": [y], "MeanOut": [mean], "VarianceOut": [var],
                                     "SavedMean": [sm], "SavedVariance": [sv]},
        attrs=dict(epsilon=1e-3, momentum=0.9, data_layout="NCHW", use_global_stats=False,
                   trainable_statistics=False))
    m = g.data("m", g.rand([4, 6]))
    mm = g.op("matmul_v2", {"X": m, "Y": p("mw", [6, 5])}, dict(trans_x=False, trans_y=False))
    rowb = ew("elementwise_add", mm, p("rb", [4, 1]))
    mt = g.op("matmul_v2", {"X": m, "Y": p("mwt", [7, 6])}, dict(trans_x=False, trans_y=True))
    gl = g.op("gelu", {"X": ew("elementwise_add", mt, p("mb", [7]))}, dict(approximate=False))
    ml = g.op("mul", {"X": m, "Y": p("mlw", [6, 3])}, dict(x_num_col_dims=1, y_num_col_dims=1))
    ml = g.op("relu", {"X": ew("elementwise_add", ml, p("mlb", [3]), 1)})
    s1 = g.op("scale", {"X": m}, dict(scale=2.0, bias=0.5, bias_after_scale=False))
    s2 = g.op("scale", {"X": s1}, dict(scale=-0.5, bias=0.25, bias_after_scale=True))
    t = g.data("t", g.rand([2, 5, 8]))
    ln = g.op("layer_norm", {"X": ew("elementwise_add", t, g.data("t2", g.rand([2, 5, 8]))),
                             "Scale": p("lns", [8], 0.5, 1.5), "Bias": p("lnb", [8])},
              dict(epsilon=1e-5, begin_norm_axis=2), outs={"Y": 1, "Mean": 1, "Variance": 1})
    q = g.data("q", g.rand([2, 2, 5, 4]))
    kk = g.data("kk", g.rand([2, 2, 5, 4]))
    mask = g.data("mask", np.where(g.rand([2, 1, 1, 5]) > -0.5, 0.0, -1e4).astype(F32))
    sc = g.op("matmul_v2", {"X": q, "Y": kk}, dict(trans_x=False, trans_y=True))
    sc = g.op("scale", {"X": sc}, dict(scale=0.5, bias=0.0, bias_after_scale=True))
    att = g.op("softmax", {"X": ew("elementwise_add", sc, mask)}, dict(axis=-1))
    g.fetch(o1, c1, o2, *acts, y, rowb, gl, ml, s2, ln["Y"][0], att)


@case(**EXACT)
def au_axes_neg(g):
    """Axis attributes in the forms Paddle normalises (not slice's: Paddle's Python layers store
    them counted from 0, and its kernel leaves X unchanged for a negative one, which icore
    counts from the end instead; strided_slice refuses them): transpose2 by a permutation with
    negative entries, squeeze2 naming a dim that is not 1 (ignored), flatten_contiguous_range by
    negative start and stop, cast whose in_dtype attribute disagrees with X (X's own dtype
    wins)."""
    x = g.data("x", g.rand([2, 1, 3, 4]))
    i = g.data("i", g.randint([3, 4], -9, 9, "int64"))
    xs = {"Out": 1, "XShape": 1}
    g.fetch(g.op("transpose2", {"X": x}, dict(axis=[-1, 0, -2, 1]), outs=xs)["Out"][0],
            g.op("squeeze2", {"X": x}, dict(axes=[0, 1]), outs=xs)["Out"][0],
            g.op("flatten_contiguous_range", {"X": x}, dict(start_axis=-3, stop_axis=-2),
                 outs=xs)["Out"][0],
            g.op("cast", {"X": i}, dict(in_dtype=5, out_dtype=6), dtype=F64))


@case(**EXACT)
def au_scale_int_fraction(g):
    """scale of integer X by fractional scale / bias (bias before and after), of uint8 by 255
    and by 1/255, of int64 with a large bias: Paddle converts scale and bias to X's type."""
    i = g.data("i", g.randint([3, 4], -9, 9, "int32"))
    u = g.data("u", g.randint([3, 4], 0, 255, "uint8"))
    l = g.data("l", g.randint([3, 4], -9, 9, "int64"))
    s = lambda v, dt, sc, b, after=True: g.op("scale", {"X": v}, dict(  # noqa: E731
        scale=sc, bias=b, bias_after_scale=after), dtype=dt)
    g.fetch(s(i, "int32", 0.5, 0.7), s(i, "int32", 2.5, -1.5), s(i, "int32", -1.9, 0.0, False),
            s(i, "int32", 3.0, 2.6, False), s(u, "uint8", 1 / 255, 0.0), s(u, "uint8", 255.0, 0.0),
            s(u, "uint8", 1.5, 3.0), s(l, "int64", 1.0, 3e9), s(l, "int64", 0.99, 0.0))


@case()
def au_zero_d(g):
    """0-D tensors (Paddle 2.5+ programs hold them): elementwise between 0-D and N-D, cast,
    scale, compare and where of 0-D, reshape2 to and from 0-D, unsqueeze2 of 0-D, stack and
    concat of unsqueezed 0-D, expand_v2 and tile of 0-D, gather by a 0-D index (drops the axis),
    arg_max of 1-D to 0-D, reduce_sum of all to 0-D, shape of 0-D, slice decreasing to 0-D then
    used as a fill_constant value."""
    s = g.data("s", np.array(1.5, F32))
    t = g.data("t", np.array(-2.0, F32))
    v = g.data("v", g.rand([3, 4]))
    i0 = g.data("i0", np.array(2, "int64"))
    u = g.data("u", g.rand([5]))
    xs = {"Out": 1, "XShape": 1}
    ew = lambda op, a, b: g.op(op, {"X": a, "Y": b}, dict(axis=-1))  # noqa: E731
    us = g.op("unsqueeze2", {"X": s}, dict(axes=[0]), outs=xs)["Out"][0]
    ut = g.op("unsqueeze2", {"X": t}, dict(axes=[0]), outs=xs)["Out"][0]
    g.fetch(ew("elementwise_add", v, s), ew("elementwise_mul", s, v), ew("elementwise_sub", s, t),
            g.op("cast", {"X": s}, dict(in_dtype=5, out_dtype=3), dtype="int64"),
            g.op("scale", {"X": s}, dict(scale=2.0, bias=1.0, bias_after_scale=True)),
            g.op("less_than", {"X": s, "Y": t}, dict(axis=-1, force_cpu=False), dtype="bool"),
            g.op("where", {"Condition": g.op("greater_than", {"X": s, "Y": t}, dict(
                axis=-1, force_cpu=False), dtype="bool"), "X": s, "Y": t}),
            g.op("reshape2", {"X": s}, dict(shape=[1, 1]), outs=xs)["Out"][0],
            g.op("reshape2", {"X": g.data("one", np.array([[7.0]], F32))}, dict(shape=[]),
                 outs=xs)["Out"][0],
            us, g.op("stack", {"X": [s, t]}, dict(axis=0), outs={"Y": 1}),
            g.op("concat", {"X": [us, ut]}, dict(axis=0)),
            g.op("expand_v2", {"X": s}, dict(shape=[2, 3])),
            g.op("tile", {"X": s}, dict(repeat_times=[3])),
            g.op("gather", {"X": v, "Index": i0}, dict(axis=0)),
            g.op("arg_max", {"X": u}, dict(axis=0, keepdims=False, flatten=False, dtype=3),
                 dtype="int64"),
            g.op("reduce_sum", {"X": v}, dict(dim=[0, 1], keep_dim=False, reduce_all=True)),
            g.op("shape", {"Input": s}, dtype="int32"),
            g.op("fill_constant", {"ValueTensor": g.op("slice", {"Input": u}, dict(
                axes=[0], starts=[2], ends=[3], infer_flags=[1], decrease_axis=[0]))},
                dict(dtype=5, shape=[2, 2], value=0.0, str_value="", force_cpu=False)))


@case(**EXACT)
def au_small_int_paths(g):
    """The paths added for small integer dtypes, against Paddle: uint8 linear (Paddle 3.3.1
    truncates its weights to uint8: the lower neighbour) / bilinear (NHWC, align_corners,
    align_mode 0) / trilinear resizing; int8 / int16 / uint8 add and div with broadcasting both
    ways (a single value on either side); reduce_sum of int8 with keep_dim and of uint8 with
    out_dtype float32; cumsum of int16 reversed and exclusive. (Paddle 3.3.1 hangs on an int32
    matmul_v2 with broadcast batches, so int matmul stays with au_int_dtypes.)"""
    u3 = g.data("u3", g.randint([2, 3, 7], 0, 256, "uint8"))
    u4 = g.data("u4", g.randint([1, 5, 4, 3], 0, 256, "uint8"))
    u5 = g.data("u5", g.randint([1, 2, 3, 4, 3], 0, 256, "uint8"))
    it = lambda t, v, **a: g.op(t, {"X": v}, dict(dict(  # noqa: E731
        data_layout="NCHW", out_d=-1, out_h=-1, out_w=-1, align_corners=False, align_mode=1,
        interp_method=t.split("_")[0]), **a), dtype="uint8")
    i8 = g.data("i8", g.randint([2, 3, 4], -100, 100, "int8"))
    s8 = g.data("s8", g.randint([4], 1, 9, "int8"))
    one8 = g.data("one8", np.array([3], "int8"))
    i16 = g.data("i16", g.randint([3, 4], -3000, 3000, "int16"))
    c16 = g.data("c16", g.randint([3, 1], -7, 7, "int16") * 2 + 1)
    u8 = g.data("u8", g.randint([3, 4], 0, 256, "uint8"))
    ew = lambda t, a, b, dt: g.op(t, {"X": a, "Y": b}, dict(axis=-1), dtype=dt)  # noqa: E731
    g.fetch(it("linear_interp_v2", u3, out_w=11, align_mode=0),
            it("bilinear_interp_v2", u4, out_h=7, out_w=5, data_layout="NHWC", align_mode=0),
            it("bilinear_interp_v2", u4, out_h=3, out_w=9, align_corners=True),
            it("trilinear_interp_v2", u5, out_d=4, out_h=5, out_w=2, data_layout="NCDHW"),
            ew("elementwise_add", i8, s8, "int8"), ew("elementwise_add", one8, i8, "int8"),
            ew("elementwise_div", i8, one8, "int8"), ew("elementwise_div", i16, c16, "int16"),
            ew("elementwise_add", i16, c16, "int16"), ew("elementwise_div", u8, g.data(
                "d8", np.array([7], "uint8")), "uint8"),
            ew("elementwise_add", u8, g.data("e8", g.randint([4], 100, 256, "uint8")), "uint8"),
            g.op("reduce_sum", {"X": i8}, dict(dim=[1, 2], keep_dim=True, reduce_all=False),
                 dtype="int8"),
            g.op("reduce_sum", {"X": u8}, dict(dim=[0], keep_dim=False, reduce_all=False,
                                               out_dtype=5)),
            g.op("cumsum", {"X": i16}, dict(axis=1, exclusive=True, reverse=True),
                 dtype="int16"))


@case()
def a2_swce(g):
    """softmax_with_cross_entropy: hard int64 labels with ignore_index, numeric_stable_mode
    off, soft labels, axis 1 of a 3-D input, use_softmax false (Logits are probabilities),
    float64; cross_entropy2 (ignore_index, MatchX) and cross_entropy (hard and soft)."""
    lg = g.data("lg", g.rand([4, 5], -3, 3))
    lb = g.data("lb", np.array([[1], [2], [4], [0]], "int64"))
    soft = g.rng.uniform(0.1, 1, [4, 5]).astype(F32)
    sl = g.data("sl", soft / soft.sum(1, keepdims=True))
    l3 = g.data("l3", g.rand([2, 4, 3], -2, 2))
    b3 = g.data("b3", np.array([[[0, 3, 1]], [[2, 2, 0]]], "int64"))
    pr = g.rng.uniform(0.05, 1, [4, 5]).astype(F32)
    pb = g.data("pb", pr / pr.sum(1, keepdims=True))
    ld = g.data("ld", g.rand([3, 6], -4, 4, F64))
    bd = g.data("bd", np.array([[5], [0], [3]], "int64"))
    outs = {"Softmax": 1, "Loss": 1}

    def sw(x, y, dt=F32, **a):
        r = g.op("softmax_with_cross_entropy", {"Logits": x, "Label": y}, dict(dict(
            soft_label=False, use_softmax=True, numeric_stable_mode=True, ignore_index=-100,
            axis=-1), **a), outs=outs, dtype=dt)
        return r["Softmax"][0], r["Loss"][0]
    ce2 = g.op("cross_entropy2", {"X": pb, "Label": lb}, dict(ignore_index=2),
               outs={"Y": 1, "XShape": 1, "MatchX": 1})
    g.fetch(*sw(lg, lb, ignore_index=2), *sw(lg, lb, numeric_stable_mode=False),
            *sw(lg, sl, soft_label=True), *sw(l3, b3, axis=1, ignore_index=3),
            sw(pb, lb, use_softmax=False)[1], sw(pb, sl, use_softmax=False, soft_label=True)[1],
            *sw(ld, bd, F64, ignore_index=0), ce2["Y"][0], ce2["MatchX"][0],
            g.op("cross_entropy", {"X": pb, "Label": lb}, dict(soft_label=False,
                                                               ignore_index=4), outs={"Y": 1}),
            g.op("cross_entropy", {"X": pb, "Label": sl}, dict(soft_label=True),
                 outs={"Y": 1}))


@case(**EXACT)
def a2_bipartite(g):
    """bipartite_match (bipartite, and per_prediction with dist_threshold) of a 4 x 6
    distance matrix without LoD (one image). (box_clip without LoD crashes Paddle 3.3.1.)"""
    d = g.data("d", g.rand([4, 6], 0, 1))
    outs = {"ColToRowMatchIndices": 1, "ColToRowMatchDist": 1}
    a = g.op("bipartite_match", {"DistMat": d}, dict(match_type="bipartite",
                                                     dist_threshold=0.5), outs=outs)
    b = g.op("bipartite_match", {"DistMat": d}, dict(match_type="per_prediction",
                                                     dist_threshold=0.3), outs=outs)
    a["ColToRowMatchIndices"][0].desc.set_dtype(paddle.base.core.VarDesc.VarType.INT32)
    b["ColToRowMatchIndices"][0].desc.set_dtype(paddle.base.core.VarDesc.VarType.INT32)
    g.fetch(a["ColToRowMatchIndices"][0], a["ColToRowMatchDist"][0],
            b["ColToRowMatchIndices"][0], b["ColToRowMatchDist"][0])


@case()
def a2_quant_modes(g):
    """quantize_linear / dequantize_linear on axis 1 with 4-bit qmin/qmax, only_observer;
    an int8 weight parameter dequantized per output channel (axis 1 of a matmul weight);
    fake_quantize_abs_max (both round types, 5 bits), fake_quantize_dequantize_abs_max, fake_quantize_moving_average_abs_max and
    moving_average_abs_max_scale at is_test, dequantize_abs_max of int8, dequantize_log. (fake_channel_wise_quantize_abs_max at is_test reads its
    OutScale before writing it: Paddle 3.3.1 fails on a saved program.)"""
    x = g.data("x", g.rand([3, 4, 5], -1.2, 1.2))
    s4 = g.data("s4", np.array([0.5, 1.0, 0.7, 0.3], np.float32))
    z4 = g.data("z4", np.zeros([4], np.float32))
    s = g.data("s", np.array([0.8], np.float32))
    zp = g.data("zp", np.zeros([1], np.float32))
    o = lambda t, ins, outs, **a: g.op(t, ins, a, outs=outs)  # noqa: E731
    ql = lambda xx, sx, z, axis, t="quantize_linear", **a: o(  # noqa: E731
        t, {"X": xx, "Scale": sx, "ZeroPoint": z}, {"Y": 1}, **dict(dict(
            quant_axis=axis, bit_length=8, qmin=-128, qmax=127, round_type=0, is_test=True,
            only_observer=False), **a))
    g.params["w8"] = g.randint([5, 6], -128, 128, "int8")
    w8 = paddle.static.create_parameter([5, 6], "int8", name="w8",
                                        default_initializer=paddle.nn.initializer.Constant(0))
    ws = g.param("ws", g.rand([6], 0.1, 1.0))
    wz = g.param("wz", np.zeros([6], np.float32))
    wd = ql(w8, ws, wz, 1, "dequantize_linear")
    mm = g.op("matmul_v2", {"X": x, "Y": wd}, dict(trans_x=False, trans_y=False))
    fq = o("fake_quantize_abs_max", {"X": x}, {"Out": 1, "OutScale": 1}, bit_length=8,
           round_type=1)
    fq0 = o("fake_quantize_abs_max", {"X": x}, {"Out": 1, "OutScale": 1}, bit_length=5,
            round_type=0)
    fqd = o("fake_quantize_dequantize_abs_max", {"X": x}, {"Out": 1, "OutScale": 1},
            bit_length=8, round_type=0)
    fma = o("fake_quantize_moving_average_abs_max", {"X": x, "InScale": s},
            {"Out": 1, "OutScale": 1}, moving_rate=0.9, bit_length=8, is_test=True, round_type=0)
    mas = o("moving_average_abs_max_scale", {"X": x}, {"Out": 1, "OutScale": 1},
            moving_rate=0.9, is_test=True)
    xi = g.data("xi", g.randint([4, 3], -128, 128, "int8"))
    dq = g.op("dequantize_abs_max", {"X": xi, "Scale": s}, dict(max_range=127.0))
    dl = g.op("dequantize_log", {"X": xi, "Dict": g.data("dict", g.rand([128], 0, 2))}, {})
    g.fetch(ql(x, s4, z4, 1, bit_length=4, qmin=-8, qmax=7),
            ql(x, s4, z4, 1, "dequantize_linear", bit_length=4, qmin=-8, qmax=7),
            ql(x, s4, z4, 1, round_type=1), ql(x, s, zp, -1, only_observer=True), mm,
            fq["Out"][0], fq["OutScale"][0], fq0["Out"][0], fqd["Out"][0], fqd["OutScale"][0],
            fma["Out"][0], mas["Out"][0], dq, dl)


@case(note="Paddle 2.6.2: 3.3.1 no longer registers density_prior_box", paddle2=True)
def a2_density_prior_box(g):
    """density_prior_box: two densities with fixed sizes and ratios, clip, flatten_to_2d,
    explicit steps and offset; a second op without clip and with default steps (from the
    image size), not flattened."""
    fm = g.data("fm", g.rand([1, 2, 3, 4]))
    im = g.data("im", g.rand([1, 3, 24, 40]))
    outs = {"Boxes": 1, "Variances": 1}
    a = g.op("density_prior_box", {"Input": fm, "Image": im}, dict(
        densities=[2, 1], fixed_sizes=[8.0, 16.0], fixed_ratios=[1.0, 2.0],
        variances=[0.1, 0.1, 0.2, 0.2], clip=True, step_w=10.0, step_h=8.0, offset=0.3,
        flatten_to_2d=True), outs=outs)
    b = g.op("density_prior_box", {"Input": fm, "Image": im}, dict(
        densities=[3], fixed_sizes=[12.0], fixed_ratios=[0.5],
        variances=[0.1, 0.2, 0.3, 0.4], clip=False, step_w=0.0, step_h=0.0, offset=0.5,
        flatten_to_2d=False), outs=outs)
    g.fetch(a["Boxes"][0], a["Variances"][0], b["Boxes"][0], b["Variances"][0])


@case()
def a2_det_modes(g):
    """box_coder encode with a PriorBoxVar tensor (normalized and not), decode axis 1 with
    PriorBoxVar; prior_box without flip / clip, min_max_aspect_ratios_order false with
    max_sizes, offset 0.3 and steps; yolo_box iou_aware without clipping, downsample 8."""
    prior = g.data("prior", det_boxes(g, 4, 20.0))
    pvar = g.data("pvar", g.rand([4, 4], 0.1, 1.0))
    target = g.data("target", det_boxes(g, 3, 20.0))
    deltas = g.data("deltas", g.rand([4, 3, 4], -1, 1))
    outs = {"OutputBox": 1}
    bc = lambda ins, **a: g.op("box_coder", ins, a, outs=outs)  # noqa: E731
    fm = g.data("fm", g.rand([1, 2, 3, 4]))
    im = g.data("im", g.rand([1, 3, 30, 36]))
    pb = g.op("prior_box", {"Input": fm, "Image": im}, dict(
        min_sizes=[5.0, 9.0], max_sizes=[8.0, 14.0], aspect_ratios=[2.0, 3.0],
        variances=[0.1, 0.1, 0.2, 0.2], flip=False, clip=False, step_w=9.0, step_h=7.0,
        offset=0.3, min_max_aspect_ratios_order=False), outs={"Boxes": 1, "Variances": 1})
    xi = g.data("xi", g.rand([1, 2 * 8, 3, 4], -3, 3))
    size = g.data("size", np.array([[50, 70]], dtype="int32"))
    yb = g.op("yolo_box", {"X": xi, "ImgSize": size}, dict(
        anchors=[10, 13, 30, 61], class_num=2, conf_thresh=0.05, downsample_ratio=8,
        clip_bbox=False, scale_x_y=1.1, iou_aware=True, iou_aware_factor=0.7),
        outs={"Boxes": 1, "Scores": 1})
    g.fetch(bc({"PriorBox": prior, "PriorBoxVar": pvar, "TargetBox": target},
               code_type="encode_center_size", box_normalized=True),
            bc({"PriorBox": prior, "PriorBoxVar": pvar, "TargetBox": target},
               code_type="encode_center_size", box_normalized=False),
            bc({"PriorBox": prior, "PriorBoxVar": pvar, "TargetBox": deltas}, code_type="decode_center_size", box_normalized=False,
               axis=1),
            pb["Boxes"][0], pb["Variances"][0], yb["Boxes"][0], yb["Scores"][0])


@case(**EXACT)
def a2_misc_modes(g):
    """set_value with int64 / bool / float64 attribute values, none_axes and a negative step;
    masked_select with a broadcast mask; expand_as_v2 by target_shape alone; fill_any_like
    to int64 from float (value truncated) and keeping int32; where_index of int64 3-D;
    one_hot_v2 by depth_tensor; range of int32."""
    xi = g.data("xi", g.randint([3, 4], -5, 5, "int64"))
    xb = g.data("xb", g.rand([3, 4]) > 0)
    xd = g.data("xd", g.rand([2, 3, 4], -1, 1, F64))
    sv = lambda x, dt, **a: g.op("set_value", {"Input": x}, dict(dict(  # noqa: E731
        starts=[], ends=[], steps=[], shape=[1], decrease_axes=[], none_axes=[]), **a),
        dtype=dt)
    Sc = paddle.base.core.Scalar
    x = g.data("x", g.rand([3, 4]))
    mk = g.data("mk", np.array([[True], [False], [True]]))
    r = g.op("range", {"Start": g.data("s0", np.array([7], "int32")),
                       "End": g.data("s1", np.array([-4], "int32")),
                       "Step": g.data("s2", np.array([-3], "int32"))}, {}, dtype="int32")
    g.fetch(sv(xi, "int64", dtype=3, axes=[1], starts=[3], ends=[0], steps=[-2],
               values=[Sc(-7)]),
            sv(xb, "bool", dtype=0, axes=[0], starts=[1], ends=[3], steps=[1],
               values=[Sc(True)]),
            sv(xd, F64, dtype=6, axes=[0, 2], starts=[1, 0], ends=[2, 4], steps=[1, 3],
               values=[Sc(0.123456789012)]),
            sv(xd, F64, dtype=6, axes=[1], starts=[1], ends=[2], steps=[1], none_axes=[0],
               values=[Sc(-2.5)]),
            g.op("masked_select", {"X": x, "Mask": mk}, {}, outs={"Y": 1}),
            g.op("expand_as_v2", {"X": g.data("e", g.rand([3, 1]))},
                 dict(target_shape=[2, 3, 5])),
            g.op("fill_any_like", {"X": x}, dict(value=3.7, dtype=3), dtype="int64"),
            g.op("fill_any_like", {"X": g.data("k", g.randint([2, 2], 0, 9, "int32"))},
                 dict(value=-2.0, dtype=-1), dtype="int32"),
            g.op("where_index", {"Condition": g.data("c", g.randint([2, 3, 2], -1, 2,
                                                                    "int64"))}, {},
                 dtype="int64"),
            g.op("one_hot_v2", {"X": g.data("ids", np.array([[1], [3], [0]], "int64")),
                                "depth_tensor": g.data("dep", np.array([5], "int32"))},
                 dict(depth=-1, dtype=5, allow_out_of_range=False)), r)


@case()
def a2_rnn_modes(g):
    """rnn op modes not covered elsewhere: batch-major LSTM with 3 layers, dropout between
    layers (a no-op at is_test), initial states and int32 sequence lengths; bidirectional
    SimpleRNN relu with sequence lengths and an initial state; bidirectional time-major LSTM
    without lengths."""
    x = g.data("x", g.rand([3, 5, 4], -1.5, 1.5))
    sl = g.data("sl", np.array([4, 5, 1], "int32"))
    h0 = g.data("h0", g.rand([3, 3, 5], -0.8, 0.8))
    c0 = g.data("c0", g.rand([3, 3, 5], -0.8, 0.8))
    lstm = paddle.nn.LSTM(4, 5, num_layers=3, dropout=0.3)
    o1, (h1, c1) = lstm(x, (h0, c0), sequence_length=sl)
    r0 = g.data("r0", g.rand([2, 3, 2], -0.8, 0.8))
    rr = paddle.nn.SimpleRNN(4, 2, activation="relu", direction="bidirect")
    o2, s2 = rr(x, r0, sequence_length=sl)
    xt = g.data("xt", g.rand([4, 2, 3], -1.5, 1.5))
    lt = paddle.nn.LSTM(3, 2, direction="bidirect", time_major=True)
    o3, (h3, c3) = lt(xt)
    g.fetch(o1, h1, c1, o2, s2, o3, h3, c3)


@case()
def a2_nlp_modes(g):
    """quantize_linear / dequantize_linear with bit_length 4 but qmin / qmax of 8 bits (the
    range comes from qmax); softmax_with_cross_entropy with int32 labels; dropout with a Seed
    input at is_test; gelu of float64 (both forms); layer_norm of float64 with scale and bias;
    argsort of int32 descending and stable; top_k_v2 of float64 on axis 0 unsorted; cumsum of
    int64 exclusive and reversed on axis 0; index_select of float64 by int64 ids on dim 1;
    tril_triu of float64 with negative / positive diagonals; one_hot_v2 to int32;
    lookup_table_v2 of a float64 table with padding_idx; bmm of float64; expand_as_v2 by Y
    together with target_shape."""
    x = g.data("x", g.rand([3, 4, 5], -1.2, 1.2))
    s4 = g.data("s4", np.array([0.5, 1.0, 0.7, 0.3], np.float32))
    z4 = g.data("z4", np.zeros([4], np.float32))
    ql = lambda xx, sx, z, axis, t="quantize_linear", **a: g.op(  # noqa: E731
        t, {"X": xx, "Scale": sx, "ZeroPoint": z}, dict(dict(
            quant_axis=axis, bit_length=8, qmin=-128, qmax=127, round_type=0, is_test=True,
            only_observer=False), **a), outs={"Y": 1})
    lg = g.data("lg", g.rand([4, 5], -3, 3))
    lb = g.data("lb", np.array([[1], [2], [4], [0]], "int32"))
    sw = g.op("softmax_with_cross_entropy", {"Logits": lg, "Label": lb}, dict(
        soft_label=False, use_softmax=True, numeric_stable_mode=True, ignore_index=-100,
        axis=-1), outs={"Softmax": 1, "Loss": 1})
    dp = g.op("dropout", {"X": x, "Seed": g.data("seed", np.array([3], "int32"))},
              dict(dropout_prob=0.3, is_test=True, dropout_implementation="downgrade_in_infer"),
              outs={"Out": 1, "Mask": 1})
    xd = g.data("xd", g.rand([2, 3, 4], -2, 2, F64))
    ln = g.op("layer_norm", {"X": xd, "Scale": g.data("sc", g.rand([12], dtype=F64)),
                             "Bias": g.data("bi", g.rand([12], dtype=F64))},
              dict(begin_norm_axis=1, epsilon=1e-5), outs={"Y": 1, "Mean": 1, "Variance": 1},
              dtype=F64)
    xi = g.data("xi", g.randint([3, 6], -3, 3, "int32"))
    srt = g.op("argsort", {"X": xi}, dict(axis=1, descending=True, stable=True),
               outs={"Out": 1, "Indices": 1}, dtype="int32")
    srt["Indices"][0].desc.set_dtype(paddle.base.core.VarDesc.VarType.INT64)
    tk = g.op("top_k_v2", {"X": xd}, dict(k=2, axis=0, largest=True, sorted=False),
              outs={"Out": 1, "Indices": 1}, dtype=F64)
    tk["Indices"][0].desc.set_dtype(paddle.base.core.VarDesc.VarType.INT64)
    g.fetch(ql(x, s4, z4, 1, bit_length=4), ql(x, s4, z4, 1, "dequantize_linear", bit_length=4),
            sw["Softmax"][0], sw["Loss"][0], dp["Out"][0],
            g.op("gelu", {"X": xd}, dict(approximate=True), dtype=F64),
            g.op("gelu", {"X": xd}, dict(approximate=False), dtype=F64),
            ln["Y"][0], ln["Mean"][0], ln["Variance"][0], srt["Out"][0], srt["Indices"][0],
            tk["Out"][0], tk["Indices"][0],
            g.op("cumsum", {"X": g.data("ci", g.randint([3, 4], -9, 9, "int64"))},
                 dict(axis=0, exclusive=True, reverse=True, flatten=False), dtype="int64"),
            g.op("index_select", {"X": xd, "Index": g.data("ix", np.array([2, 0, 2], "int64"))},
                 dict(dim=1), dtype=F64),
            g.op("tril_triu", {"X": xd}, dict(diagonal=-1, lower=True), dtype=F64),
            g.op("tril_triu", {"X": xd}, dict(diagonal=2, lower=False), dtype=F64),
            g.op("one_hot_v2", {"X": g.data("ids", np.array([1, 3, 0], "int64"))},
                 dict(depth=4, dtype=2, allow_out_of_range=False), dtype="int32"),
            g.op("lookup_table_v2", {"Ids": g.data("ids2", np.array([[1, 3], [0, 2]], "int64")),
                                     "W": g.data("w", g.rand([4, 3], dtype=F64))},
                 dict(padding_idx=2), dtype=F64),
            g.op("bmm", {"X": xd, "Y": g.data("y", g.rand([2, 4, 2], dtype=F64))}, {},
                 dtype=F64),
            g.op("expand_as_v2", {"X": g.data("e", g.rand([3, 1])),
                                  "Y": g.data("ey", g.rand([2, 3, 4]))},
                 dict(target_shape=[2, 3, 4])))


@case(**EXACT, note="regions are only moved: exact")
def a2_fpn_nooffset(g):
    """distribute_fpn_proposals with pixel_offset false (areas without the +1: a region of
    zero width goes to min_level), levels 3..5 around refer_level 3, RoisNum of 3 images
    (one empty)."""
    rois = g.data("rois", np.array([[0, 0, 111, 111], [10, 10, 40, 40], [0, 0, 999, 999],
                                    [5, 5, 5, 5], [0, 0, 112, 112], [0, 0, 224, 224],
                                    [30, 20, 10, 50], [0, 0, 447, 449]], dtype=F32))
    num = g.data("num", np.array([5, 0, 3], dtype="int32"))
    d = g.op("distribute_fpn_proposals", {"FpnRois": rois, "RoisNum": num},
             dict(min_level=3, max_level=5, refer_level=3, refer_scale=112,
                  pixel_offset=False),
             outs={"MultiFpnRois": 3, "RestoreIndex": 1, "MultiLevelRoIsNum": 3}, dtype=F32)
    g.fetch(*d["MultiFpnRois"], d["RestoreIndex"][0], *d["MultiLevelRoIsNum"])


@case()
def a2_det_f64(g):
    """float64 detection ops: generate_proposals_v2 (pixel_offset false, eta < 1),
    anchor_generator, roi_align aligned with adaptive sampling, matrix_nms."""
    A, H, W = 2, 3, 4
    scores = g.data("scores", g.rand([1, A, H, W], 0, 1, F64))
    deltas = g.data("deltas", g.rand([1, 4 * A, H, W], -0.5, 0.5, F64))
    im_shape = g.data("im_shape", np.array([[40, 56]], dtype=F64))
    feat = g.data("feat", g.rand([1, 2, H, W], dtype=F64))
    ag = g.op("anchor_generator", {"Input": feat},
              dict(anchor_sizes=[16.0, 24.0], aspect_ratios=[1.0], variances=[0.1, 0.1, 0.2,
                                                                             0.2],
                   stride=[16.0, 16.0], offset=0.5), outs={"Anchors": 1, "Variances": 1},
              dtype=F64)
    gp = g.op("generate_proposals_v2", {"Scores": scores, "BboxDeltas": deltas,
                                        "ImShape": im_shape, "Anchors": ag["Anchors"][0],
                                        "Variances": ag["Variances"][0]},
              dict(pre_nms_topN=20, post_nms_topN=8, nms_thresh=0.6, min_size=1.0, eta=0.8,
                   pixel_offset=False), outs={"RpnRois": 1, "RpnRoiProbs": 1, "RpnRoisNum": 1},
              dtype=F64)
    gp["RpnRoisNum"][0].desc.set_dtype(paddle.base.core.VarDesc.VarType.INT32)
    xr = g.data("xr", g.rand([1, 2, 5, 6], dtype=F64))
    rois = g.data("rois", np.array([[0.5, 0.5, 4.0, 3.0], [1.0, 0.2, 5.5, 4.8]], F64))
    rn = g.data("rn", np.array([2], "int32"))
    ra = g.op("roi_align", {"X": xr, "ROIs": rois, "RoisNum": rn}, dict(
        pooled_height=2, pooled_width=2, spatial_scale=1.0, sampling_ratio=-1, aligned=True),
        dtype=F64)
    g.fetch(ag["Anchors"][0], gp["RpnRois"][0], gp["RpnRoiProbs"][0], gp["RpnRoisNum"][0], ra)


@case(**EXACT, note="values are only moved or compared: exact")
def a2_small_dtypes(g):
    """Moving ops on the small dtypes Paddle's CPU kernels accept (float16 checkpoints and
    int8 tables): gather / gather_nd of uint8, int8, int16, bool; masked_select and
    strided_slice of int8 / uint8 / float16; set_value (ValueTensor) of bool / float16;
    lookup_table_v2 of an int8 and a float16 table, lookup_table of an int16 one;
    fill_any_like of int8 / float16; where_index of int16; argsort of uint8 / int16 (stable)
    and float16 (std::sort, ties); take_along_axis of uint8; tril_triu of bool / float16;
    flip of bool."""
    base = (np.arange(12).reshape(3, 4) * 7 % 11 - 5)
    X = {dt: g.data("x_" + dt, (base > 0) if dt == "bool" else (np.abs(base) if dt == "uint8"
                                                                  else base).astype(dt))
         for dt in ("uint8", "int8", "int16", "bool", "float16")}
    idx = g.data("idx", np.array([2, 0, 3], "int64"))
    nd = g.data("nd", np.array([[1, 2], [2, 0]], "int64"))
    mk = g.data("mk", np.arange(12).reshape(3, 4) % 3 == 0)
    I64 = "int64"
    res = []
    for dt in ("uint8", "int8", "int16", "bool"):
        res.append(g.op("gather", {"X": X[dt], "Index": idx}, dict(axis=1), dtype=dt))
    for dt in ("uint8", "int16"):
        res.append(g.op("gather_nd", {"X": X[dt], "Index": nd}, {}, dtype=dt))
    for dt in ("int8", "float16"):
        res.append(g.op("masked_select", {"X": X[dt], "Mask": mk}, {}, outs={"Y": 1},
                        dtype=dt))
    for dt in ("uint8", "float16"):
        res.append(g.op("strided_slice", {"Input": X[dt]}, dict(
            axes=[0, 1], starts=[2, -1], ends=[-4, 0], strides=[-1, -2], infer_flags=[1, 1],
            decrease_axis=[]), dtype=dt))
    for dt in ("bool", "float16"):
        res.append(g.op("set_value", {"Input": X[dt], "ValueTensor": g.data(
            "v_" + dt, np.array([[3], [0]], dt))}, dict(
            dtype={"bool": 0, "float16": 4}[dt], axes=[0, 1], starts=[0, 1], ends=[2, 4],
            steps=[1, 2], decrease_axes=[], none_axes=[], shape=[]), dtype=dt))
    ids = g.data("ids", np.array([[0, 1], [2, 2]], "int64"))
    for dt in ("int8", "float16"):
        res.append(g.op("lookup_table_v2", {"Ids": ids, "W": X[dt]}, dict(padding_idx=-1),
                        dtype=dt))
    res.append(g.op("fill_any_like", {"X": X["int8"]}, dict(value=-3.0, dtype=-1),
                    dtype="int8"))
    res.append(g.op("fill_any_like", {"X": X["int8"]}, dict(value=2.5, dtype=4),
                    dtype="float16"))
    res.append(g.op("where_index", {"Condition": X["int16"]}, {}, dtype=I64))
    res.append(g.op("lookup_table", {"Ids": g.data("ids1", np.array([[2], [0]], "int64")),
                                     "W": X["int16"]}, dict(padding_idx=0), dtype="int16"))
    for dt in ("uint8", "int16", "float16"):
        a = g.op("argsort", {"X": X[dt]}, dict(axis=1, descending=dt != "uint8",
                                               stable=dt != "float16"),
                 outs={"Out": 1, "Indices": 1}, dtype=dt)
        a["Indices"][0].desc.set_dtype(paddle.base.core.VarDesc.VarType.INT64)
        res += [a["Out"][0], a["Indices"][0]]
    res.append(g.op("take_along_axis", {"Input": X["uint8"], "Index": g.data(
        "ta", np.array([[1], [0], [3]], "int64"))}, dict(Axis=1), outs={"Result": 1},
        dtype="uint8"))
    res.append(g.op("tril_triu", {"X": X["bool"]}, dict(diagonal=0, lower=True),
                    dtype="bool"))
    res.append(g.op("tril_triu", {"X": X["float16"]}, dict(diagonal=1, lower=False),
                    dtype="float16"))
    res.append(g.op("flip", {"X": X["bool"]}, dict(axis=[1]), dtype="bool"))
    g.fetch(*res)


@case(**EXACT, note="values are only moved: exact")
def a2_small_dtypes2(g):
    """More moving ops on bool / int8 / uint8 / int16: strided_slice with a negative stride,
    gather_nd, expand_as_v2 by target_shape, index_select of bool, masked_select,
    fill_any_like keeping the dtype, take_along_axis of int16."""
    base = (np.arange(12).reshape(3, 4) * 7 % 11 - 5)
    X = {dt: g.data("x_" + dt, (base > 0) if dt == "bool" else (np.abs(base) if dt == "uint8"
                                                                  else base).astype(dt))
         for dt in ("uint8", "int8", "int16", "bool")}
    res = []
    for dt in ("int8", "int16", "bool"):
        res.append(g.op("strided_slice", {"Input": X[dt]}, dict(
            axes=[1], starts=[-1], ends=[0], strides=[-2], infer_flags=[1],
            decrease_axis=[]), dtype=dt))
    for dt in ("bool", "int8"):
        res.append(g.op("gather_nd", {"X": X[dt], "Index": g.data(
            "nd" + dt, np.array([[1], [0]], "int64"))}, {}, dtype=dt))
    res.append(g.op("expand_as_v2", {"X": g.data("eb", np.array([[True], [False]]))},
                    dict(target_shape=[2, 3]), dtype="bool"))
    res.append(g.op("index_select", {"X": X["bool"], "Index": g.data(
        "isel", np.array([3, 1], "int64"))}, dict(dim=1), dtype="bool"))
    for dt in ("uint8", "int16", "bool"):
        res.append(g.op("masked_select", {"X": X[dt], "Mask": X["bool"]}, {}, outs={"Y": 1},
                        dtype=dt))
    for dt in ("bool", "uint8", "int16"):
        res.append(g.op("fill_any_like", {"X": X[dt]}, dict(value=1.0, dtype=-1), dtype=dt))
    res.append(g.op("take_along_axis", {"Input": X["int16"], "Index": g.data(
        "ta", np.array([[1, 0], [0, 0], [3, 2]], "int64"))}, dict(Axis=1),
        outs={"Result": 1}, dtype="int16"))
    g.fetch(*res)


@case()
def a2_nlp_f64(g):
    """softmax_with_cross_entropy with soft labels on axis 1 and use_softmax false on axis 1
    (ignore_index); cross_entropy2 of a 3-D input; a float64 LSTM (2 layers, bidirectional,
    sequence lengths) and GRU through the rnn op; dequantize_linear with float64 scales."""
    l3 = g.data("l3", g.rand([2, 4, 3], -2, 2))
    s3 = g.rng.uniform(0.1, 1, [2, 4, 3]).astype(F32)
    s3 = g.data("s3", s3 / s3.sum(1, keepdims=True))
    b3 = g.data("b3", np.array([[[0, 3, 1]], [[2, 2, 0]]], "int64"))
    outs = {"Softmax": 1, "Loss": 1}
    sw = lambda x, y, **a: g.op("softmax_with_cross_entropy", {"Logits": x, "Label": y},  # noqa
                                dict(dict(soft_label=False, use_softmax=True,
                                          numeric_stable_mode=True, ignore_index=-100,
                                          axis=1), **a), outs=outs)
    a = sw(l3, s3, soft_label=True)
    b = sw(s3, b3, use_softmax=False, ignore_index=2)
    p3 = g.data("p3", g.rng.uniform(0.05, 1, [2, 3, 4]).astype(F32))
    ce = g.op("cross_entropy2", {"X": p3, "Label": g.data("q3", np.array(
        [[[1], [3], [0]], [[2], [2], [-100]]], "int64"))}, dict(ignore_index=-100),
        outs={"Y": 1, "XShape": 1, "MatchX": 1})
    paddle.set_default_dtype("float64")
    try:
        x = g.data("x", g.rand([3, 4, 2], -1.5, 1.5, F64))
        sl = g.data("sl", np.array([4, 2, 3], "int64"))
        lstm = paddle.nn.LSTM(2, 3, num_layers=2, direction="bidirect")
        o1, (h1, c1) = lstm(x, sequence_length=sl)
        gru = paddle.nn.GRU(2, 3)
        o2, h2 = gru(x)
    finally:
        paddle.set_default_dtype("float32")
    xd = g.data("xd", g.randint([3, 4], -128, 128, "int8"))
    sd = g.data("sd", g.rand([4], 0.1, 1.0, F64))
    dq = g.op("dequantize_linear", {"X": xd, "Scale": sd, "ZeroPoint": g.data(
        "zd", np.zeros([4], F64))}, dict(quant_axis=1, bit_length=8, qmin=-128, qmax=127,
                                           round_type=0, is_test=True, only_observer=False),
        outs={"Y": 1}, dtype=F64)
    g.fetch(a["Softmax"][0], a["Loss"][0], b["Loss"][0], ce["Y"][0], ce["MatchX"][0], o1, h1,
            c1, o2, h2, dq)


@case(note="Paddle 2.6.2: its quantize_linear has no qmin / qmax", paddle2=True)
def a2_quant_linear_paddle2(g):
    """quantize_linear / dequantize_linear as Paddle 2.6.2 writes them (no qmin / qmax
    attributes): bit_length 4 and 8, per tensor and per channel, both round types."""
    x = g.data("x", g.rand([3, 4, 5], -1.2, 1.2))
    s4 = g.data("s4", np.array([0.5, 1.0, 0.7, 0.3], np.float32))
    z4 = g.data("z4", np.zeros([4], np.float32))
    s = g.data("s", np.array([0.8], np.float32))
    zp = g.data("zp", np.zeros([1], np.float32))
    ql = lambda xx, sx, z, axis, t="quantize_linear", **a: g.op(  # noqa: E731
        t, {"X": xx, "Scale": sx, "ZeroPoint": z}, dict(dict(
            quant_axis=axis, bit_length=8, round_type=0, is_test=True, only_observer=False),
            **a), outs={"Y": 1})
    g.fetch(ql(x, s4, z4, 1, bit_length=4), ql(x, s, zp, -1, bit_length=4, round_type=1),
            ql(x, s4, z4, 1, "dequantize_linear", bit_length=4),
            ql(x, s, zp, -1, "dequantize_linear", bit_length=5),
            ql(x, s4, z4, 1), ql(x, s, zp, -1, "dequantize_linear"))


@case(note="matrix_nms decays scores (exp of float sums): within an ulp, not bitwise")
def a2_nms_modes(g):
    """multiclass_nms3 in the 2-D form (BBoxes [M, C, 4], Scores [M, C], int64 RoisNum)
    unnormalized, no background, nms_eta < 1, nms_top_k and keep_top_k; matrix_nms with
    nothing above score_threshold (empty Out, Index, zero RoisNum) and with keep_top_k over
    the kept count."""
    boxes = g.data("boxes", (det_boxes(g, 12 * 2, 30.0)).reshape(12, 2, 4))
    scores = g.data("scores", g.rand([12, 2], 0, 1))
    rois = g.data("rois", np.array([5, 7], dtype="int64"))
    outs = {"Out": 1, "Index": 1, "NmsRoisNum": 1}
    a = g.op("multiclass_nms3", {"BBoxes": boxes, "Scores": scores, "RoisNum": rois},
             dict(background_label=-1, score_threshold=0.15, nms_top_k=4, nms_threshold=0.3,
                  nms_eta=0.7, keep_top_k=5, normalized=False), outs=outs)
    b3 = g.data("b3", np.stack([det_boxes(g, 10) for _ in range(2)]))
    s3 = g.data("s3", g.rand([2, 3, 10], 0, 1))
    mo = {"Out": 1, "Index": 1, "RoisNum": 1}
    m1 = g.op("matrix_nms", {"BBoxes": b3, "Scores": s3},
              dict(score_threshold=2.0, post_threshold=0.0, nms_top_k=-1, keep_top_k=-1,
                   use_gaussian=False, gaussian_sigma=2.0, background_label=0,
                   normalized=True), outs=mo)
    m2 = g.op("matrix_nms", {"BBoxes": b3, "Scores": s3},
              dict(score_threshold=0.3, post_threshold=0.2, nms_top_k=3, keep_top_k=100,
                   use_gaussian=True, gaussian_sigma=0.5, background_label=1,
                   normalized=False), outs=mo)
    g.fetch(a["Out"][0], a["Index"][0], a["NmsRoisNum"][0], m1["Out"][0], m1["Index"][0],
            m1["RoisNum"][0], m2["Out"][0], m2["Index"][0], m2["RoisNum"][0])


@case()
def a2_int8_weights(g):
    """dequantize_abs_max of int8 and int16 weights (weight-only quantized programs; Paddle
    3.3.1 registers fake_(channel_wise_)dequantize_max_abs for float X only)."""
    q8 = g.data("q8", g.randint([4, 3], -128, 128, "int8"))
    q16 = g.data("q16", g.randint([4, 3], -30000, 30000, "int16"))
    s = g.data("s", np.array([0.8], np.float32))
    g.fetch(g.op("dequantize_abs_max", {"X": q8, "Scale": s}, dict(max_range=100.0)),
            g.op("dequantize_abs_max", {"X": q16, "Scale": s}, dict(max_range=32767.0)))


@case(**EXACT, legacy=True)
def a2_set_value_legacy(g):
    """Ops with Scalar attributes saved in the legacy program format: set_value's values go to
    the typed list of the Scalars' type (a float32 op's 2.5 in fp64_values, ints in
    int64_values); assign_value's likewise (float64 values in fp32_values)."""
    Sc = paddle.base.core.Scalar
    res = []
    for dt, code, val in (("float32", 5, 2.5), ("float64", 6, -1.25), ("int32", 2, -7),
                          ("int64", 3, 9), ("bool", 0, True), ("float16", 4, 0.375)):
        base = np.arange(12).reshape(3, 4) % 5
        x = g.data("x_" + dt, (base > 1) if dt == "bool" else base.astype(dt))
        res.append(g.op("set_value", {"Input": x}, dict(
            dtype=code, axes=[1], starts=[0], ends=[4], steps=[2], decrease_axes=[],
            none_axes=[], shape=[1], values=[Sc(val)]), dtype=dt))
    for dt, code, vals in (("float64", 6, [0.1, -2.5]), ("int32", 2, [7, -3]),
                           ("int64", 3, [2 ** 40, -1]), ("bool", 0, [True, False]),
                           ("float32", 5, [1.5, 3])):
        res.append(g.op("assign_value", {}, dict(dtype=code, shape=[2], values=[
            Sc(v) for v in vals]), dtype=dt))
    g.fetch(*res)


@case()
def anchor_generator_modes(g):
    """Defaults-like sizes and ratios with stride 16; uneven strides, offset 0.25."""
    feat = g.data("feat", g.rand([1, 4, 3, 5]), [-1, 4, -1, -1])
    outs = {"Anchors": 1, "Variances": 1}
    a = g.op("anchor_generator", {"Input": feat},
             dict(anchor_sizes=[32.0, 64.0], aspect_ratios=[0.5, 1.0, 2.0],
                  variances=[0.1, 0.1, 0.2, 0.2], stride=[16.0, 16.0], offset=0.5), outs=outs)
    b = g.op("anchor_generator", {"Input": feat},
             dict(anchor_sizes=[48.0], aspect_ratios=[1.0, 3.0], variances=[1.0, 1.0, 1.0, 1.0],
                  stride=[8.0, 12.0], offset=0.25), outs=outs)
    g.fetch(a["Anchors"][0], a["Variances"][0], b["Anchors"][0])


@case(**EXACT, note="NMS only selects and copies input values: exact")
def multiclass_nms3_batched(g):
    """BBoxes [N, M, 4] shared by the classes, Scores [N, C, M]: background 0, nms_top_k,
    keep_top_k, nms_eta; a second op unnormalized without a background; Index and NmsRoisNum."""
    boxes = g.data("boxes", np.stack([det_boxes(g, 20) for _ in range(2)]))
    scores = g.data("scores", g.rand([2, 4, 20], 0, 1))
    outs = {"Out": 1, "Index": 1, "NmsRoisNum": 1}
    a = g.op("multiclass_nms3", {"BBoxes": boxes, "Scores": scores},
             dict(background_label=0, score_threshold=0.2, nms_top_k=8, nms_threshold=0.6,
                  nms_eta=0.8, keep_top_k=10, normalized=True), outs=outs)
    b = g.op("multiclass_nms3", {"BBoxes": boxes, "Scores": scores},
             dict(background_label=-1, score_threshold=0.5, nms_top_k=-1, nms_threshold=0.3,
                  nms_eta=1.0, keep_top_k=-1, normalized=False), outs=outs)
    g.fetch(a["Out"][0], a["Index"][0], a["NmsRoisNum"][0], b["Out"][0], b["Index"][0],
            b["NmsRoisNum"][0])


@case(**EXACT, note="NMS only selects and copies input values: exact")
def multiclass_nms3_rois(g):
    """BBoxes [M, C, 4] (a box per class), Scores [M, C], split into images by RoisNum."""
    boxes = g.data("boxes", det_boxes(g, 15 * 3).reshape(15, 3, 4))
    scores = g.data("scores", g.rand([15, 3], 0, 1))
    rois = g.data("rois", np.array([6, 0, 9], dtype="int32"))
    outs = {"Out": 1, "Index": 1, "NmsRoisNum": 1}
    a = g.op("multiclass_nms3", {"BBoxes": boxes, "Scores": scores, "RoisNum": rois},
             dict(background_label=0, score_threshold=0.1, nms_top_k=-1, nms_threshold=0.4,
                  nms_eta=1.0, keep_top_k=4, normalized=True), outs=outs)
    g.fetch(a["Out"][0], a["Index"][0], a["NmsRoisNum"][0])


@case()
def matrix_nms_modes(g):
    """Linear decay with a background class; Gaussian decay with nms_top_k and keep_top_k;
    Out, Index and RoisNum."""
    boxes = g.data("boxes", np.stack([det_boxes(g, 16) for _ in range(2)]))
    scores = g.data("scores", g.rand([2, 3, 16], 0, 1))
    outs = {"Out": 1, "Index": 1, "RoisNum": 1}
    a = g.op("matrix_nms", {"BBoxes": boxes, "Scores": scores},
             dict(score_threshold=0.1, post_threshold=0.05, nms_top_k=-1, keep_top_k=-1,
                  use_gaussian=False, gaussian_sigma=2.0, background_label=0,
                  normalized=True), outs=outs)
    b = g.op("matrix_nms", {"BBoxes": boxes, "Scores": scores},
             dict(score_threshold=0.2, post_threshold=0.1, nms_top_k=8, keep_top_k=10,
                  use_gaussian=True, gaussian_sigma=3.0, background_label=-1,
                  normalized=False), outs=outs)
    g.fetch(a["Out"][0], a["Index"][0], a["RoisNum"][0], b["Out"][0], b["Index"][0],
            b["RoisNum"][0])


def spd(g, shape, dt):
    """Symmetric positive-definite matrices B B^T + n I of shape [..., n, n]."""
    n = shape[-1]
    b = g.rand(shape, -1, 1, "float64")
    return (b @ np.swapaxes(b, -1, -2) + n * np.eye(n)).astype(dt)


@case(note="icore factors float32 in double (LAPACK potrf) and rounds once, Paddle in float32 "
           "(Eigen's LLT): float32 within rtol 1e-4")
def cholesky_modes(g):
    """cholesky lower and upper: float32 [4, 4], a float32 batch [2, 3, 5, 5], float64
    [2, 6, 6]."""
    outs = []
    for k, (shape, dt) in enumerate([([4, 4], F32), ([2, 3, 5, 5], F32), ([2, 6, 6], "float64")]):
        x = g.data("x%d" % k, spd(g, shape, dt))
        for upper in (False, True):
            outs.append(g.op("cholesky", {"X": x}, dict(upper=upper), dtype=dt))
    g.fetch(*outs)


@case(note="float32 solved in double (LAPACK potrs) and rounded once: within rtol 1e-4")
def cholesky_solve_modes(g):
    """cholesky_solve with lower and upper factors: float32 [4, 4] x [4, 3]; float64 batch
    [2, 5, 5] with X [5, 2] broadcast; float32 Y [3, 1, 4, 4] with X [2, 4, 1] (both
    broadcast to [3, 2])."""
    outs = []
    for k, (ys, xs, dt) in enumerate([([4, 4], [4, 3], F32), ([2, 5, 5], [5, 2], "float64"),
                                      ([3, 1, 4, 4], [2, 4, 1], F32)]):
        a = spd(g, ys, "float64")
        lo = np.linalg.cholesky(a)
        yl = g.data("yl%d" % k, lo.astype(dt))
        yu = g.data("yu%d" % k, np.swapaxes(lo, -1, -2).copy().astype(dt))
        x = g.data("x%d" % k, g.rand(xs, -1, 1, dt))
        outs.append(g.op("cholesky_solve", {"X": x, "Y": yl}, dict(upper=False), dtype=dt))
        outs.append(g.op("cholesky_solve", {"X": x, "Y": yu}, dict(upper=True), dtype=dt))
    g.fetch(*outs)


@case(note="float32 solved in double (BLAS trsm) and rounded once: within rtol 1e-4")
def triangular_solve_modes(g):
    """triangular_solve over all 8 combinations of upper, transpose and unitriangular on a
    float32 [4, 4] (full random matrix: only the named triangle may be read, a diagonal of
    0.5..1.5 ignored when unitriangular), X [2, 1, 4, 4] float64 with Y [3, 4, 2] (batch
    broadcast to [2, 3])."""
    outs = []
    a = g.rand([4, 4], -0.5, 0.5) + np.diag(g.rand([4], 1.0, 2.0))
    x = g.data("x", a.astype(F32))
    y = g.data("y", g.rand([4, 3]))
    for upper in (True, False):
        for tr in (False, True):
            for unit in (False, True):
                outs.append(g.op("triangular_solve", {"X": x, "Y": y},
                                 dict(upper=upper, transpose=tr, unitriangular=unit)))
    a2 = g.rand([2, 1, 4, 4], -0.5, 0.5, "float64") + 2.0 * np.eye(4)
    x2 = g.data("x2", a2)
    y2 = g.data("y2", g.rand([3, 4, 2], -1, 1, "float64"))
    for upper, tr, unit in [(True, False, False), (False, True, True)]:
        outs.append(g.op("triangular_solve", {"X": x2, "Y": y2},
                         dict(upper=upper, transpose=tr, unitriangular=unit), dtype="float64"))
    g.fetch(*outs)


@case(note="float32 solved in double (LAPACK getrf/getrs) and rounded once, Paddle in float32 "
           "(Eigen's PartialPivLU): within rtol 1e-4")
def solve_modes(g):
    """solve: float32 [4, 4] with a matrix [4, 2] and a vector [4]; a float64 batch
    [2, 3, 3] with a batched vector [2, 3] (Y = X's dims without the last), a rank-1 vector
    [3] and a matrix [3, 2] (broadcast over the batch); float32 X [2, 1, 3, 3] with Y
    [4, 3, 1] (broadcast to [2, 4])."""
    def mat(shape, dt):
        return (g.rand(shape, -1, 1, "float64") + 2.0 * np.eye(shape[-1])).astype(dt)
    x = g.data("x", mat([4, 4], F32))
    ym = g.data("ym", g.rand([4, 2]))
    yv = g.data("yv", g.rand([4]))
    xb = g.data("xb", mat([2, 3, 3], "float64"))
    yb = g.data("yb", g.rand([2, 3], -1, 1, "float64"))
    y1 = g.data("y1", g.rand([3], -1, 1, "float64"))
    y2 = g.data("y2", g.rand([3, 2], -1, 1, "float64"))
    xc = g.data("xc", mat([2, 1, 3, 3], F32))
    yc = g.data("yc", g.rand([4, 3, 1]))
    D = "float64"
    g.fetch(g.op("solve", {"X": x, "Y": ym}), g.op("solve", {"X": x, "Y": yv}),
            g.op("solve", {"X": xb, "Y": yb}, dtype=D), g.op("solve", {"X": xb, "Y": y1}, dtype=D),
            g.op("solve", {"X": xb, "Y": y2}, dtype=D), g.op("solve", {"X": xc, "Y": yc}))


@case(note="icore factors float32 in double (LAPACK geqrf/orgqr) and rounds once, Paddle in "
           "float32 (Eigen's Householder QR, the same reflectors and signs): within rtol 1e-4")
def qr_modes(g):
    """qr in modes reduced, complete and r on a float32 tall [5, 3], a float32 wide [3, 4],
    a float64 batch [2, 4, 3] and a float64 square batch [2, 1, 3, 3]; Q of mode r is empty
    and not fetched."""
    outs = []
    for k, (shape, dt) in enumerate([([5, 3], F32), ([3, 4], F32), ([2, 4, 3], "float64"),
                                      ([2, 1, 3, 3], "float64")]):
        x = g.data("x%d" % k, g.rand(shape, -1, 1, dt))
        for mode in ("reduced", "complete", "r"):
            a = g.op("qr", {"X": x}, dict(mode=mode), outs={"Q": 1, "R": 1}, dtype=dt)
            if mode != "r":
                outs.append(a["Q"][0])
            outs.append(a["R"][0])
    g.fetch(*outs)


@case(note="float32 factored in double (LAPACK getrf) and rounded once: within rtol 1e-4; "
           "Pivots and Infos exact")
def lu_modes(g):
    """lu (Out, Pivots, Infos) on a float32 square [4, 4], a float32 wide [3, 5], a float64
    tall batch [2, 5, 3] and a float32 batch [2, 3, 3] whose second matrix is singular
    (Infos 3: a zero pivot is reported, not an error); lu_unpack of each with both unpack
    flags, and of the first also only L/U and only Pmat (the outputs not unpacked are empty
    and not fetched)."""
    sing = g.rand([2, 3, 3])
    sing[1] = np.array([[1, 2, 3], [2, 4, 6], [1, 1, 1]], F32)
    outs = []
    for k, (v, dt) in enumerate([(g.rand([4, 4]), F32), (g.rand([3, 5]), F32),
                                 (g.rand([2, 5, 3], -1, 1, "float64"), "float64"),
                                 (sing, F32)]):
        x = g.data("x%d" % k, v)
        a = g.op("lu", {"X": x}, dict(pivots=True), outs={"Out": 1, "Pivots": 1, "Infos": 1},
                 dtype=dt)
        lu, piv = a["Out"][0], a["Pivots"][0]
        outs += [lu, piv, a["Infos"][0]]
        flags = [(True, True), (True, False), (False, True)] if k == 0 else [(True, True)]
        for ud, up in flags:
            b = g.op("lu_unpack", {"X": lu, "Pivots": piv},
                     dict(unpack_ludata=ud, unpack_pivots=up),
                     outs={"Pmat": 1, "L": 1, "U": 1}, dtype=dt)
            if up:
                outs.append(b["Pmat"][0])
            if ud:
                outs += [b["L"][0], b["U"][0]]
    g.fetch(*outs)


@case(note="icore runs LAPACK gesdd in the input's dtype as Paddle: the same algorithm, U and "
           "VH with Paddle's signs; float32 within rtol 1e-4 (atol 1e-5)")
def svd_modes(g):
    """svd with full_matrices false and true on a float32 tall [5, 3], a float32 wide [3, 4],
    a float64 batch [2, 4, 4] and a float64 batch [2, 1, 3, 5] (distinct singular values)."""
    outs = []
    for k, (shape, dt) in enumerate([([5, 3], F32), ([3, 4], F32), ([2, 4, 4], "float64"),
                                      ([2, 1, 3, 5], "float64")]):
        x = g.data("x%d" % k, g.rand(shape, -1, 1, dt))
        for full in (False, True):
            a = g.op("svd", {"X": x}, dict(full_matrices=full), outs={"U": 1, "S": 1, "VH": 1},
                     dtype=dt)
            outs += [a["U"][0], a["S"][0], a["VH"][0]]
    g.fetch(*outs)


def sym(g, shape, dt):
    """Symmetric matrices with well separated eigenvalues: Q diag(1..n spread) Q^T."""
    n = shape[-1]
    q, _ = np.linalg.qr(g.rand(shape, -1, 1, "float64"))
    ev = np.linspace(-2.0, 3.0, n) + g.rand([n], -0.1, 0.1, "float64")
    return (q @ (ev[:, None] * np.swapaxes(q, -1, -2))).astype(dt)


def eigh_inputs(g):
    """float32 [4, 4], float32 batch [2, 3, 3], float64 batch [2, 1, 5, 5], each symmetric
    with distinct eigenvalues plus a small upper-triangle perturbation, so that which triangle
    is read matters."""
    xs = []
    for k, (shape, dt) in enumerate([([4, 4], F32), ([2, 3, 3], F32), ([2, 1, 5, 5], "float64")]):
        a = sym(g, shape, "float64") + np.triu(g.rand(shape, -0.05, 0.05, "float64"), 1)
        xs.append((g.data("x%d" % k, a.astype(dt)), dt))
    return xs


@case(note="icore runs LAPACK syevd in the input's dtype as Paddle (OpenBLAS's LAPACK, Paddle's "
           "own): the same algorithm and eigenvector signs; float32 within rtol 1e-4 (atol "
           "1e-5)")
def eigh_eigvalsh_modes(g):
    """eigh with UPLO L and U, eigvalsh with L and U (is_test, as the saved inference program
    has it: Paddle leaves Eigenvectors unallocated, icore empty; not fetched) on
    eigh_inputs."""
    outs = []
    for x, dt in eigh_inputs(g):
        for uplo in ("L", "U"):
            e = g.op("eigh", {"X": x}, dict(UPLO=uplo),
                     outs={"Eigenvalues": 1, "Eigenvectors": 1}, dtype=dt)
            outs += [e["Eigenvalues"][0], e["Eigenvectors"][0]]
            e = g.op("eigvalsh", {"X": x}, dict(UPLO=uplo, is_test=True),
                     outs={"Eigenvalues": 1, "Eigenvectors": 1}, dtype=dt)
            outs.append(e["Eigenvalues"][0])
    g.fetch(*outs)


@case(train=True, note="as eigh_eigvalsh_modes: float32 within rtol 1e-4 (atol 1e-5)")
def eigvalsh_train(g):
    """eigvalsh with is_test false (a training program): Eigenvectors written too, UPLO L and
    U, on eigh_inputs."""
    outs = []
    for x, dt in eigh_inputs(g):
        for uplo in ("L", "U"):
            e = g.op("eigvalsh", {"X": x}, dict(UPLO=uplo, is_test=False),
                     outs={"Eigenvalues": 1, "Eigenvectors": 1}, dtype=dt)
            outs += [e["Eigenvalues"][0], e["Eigenvectors"][0]]
    g.fetch(*outs)


@case(**EXACT, note="integer ranks of matrices whose singular values are far from the "
                    "tolerances: exact")
def matrix_rank_modes(g):
    """matrix_rank: float32 [4, 5] of rank 2 with the default tolerance; a float64 batch
    [2, 3, 4, 4] of ranks 1..4 with use_default_tol and with tol 0.5 (singular values 0.1..3
    on both sides of it); hermitian on a symmetric float32 batch [3, 4, 4] with negative
    eigenvalues (default and tol 0.8); TolTensor float64 [2, 1] broadcast against the batch
    [2, 3] and a float32 TolTensor [3] with use_default_tol."""
    def of_sv(shape, svs, dt):
        m, n = shape[-2:]
        u, _ = np.linalg.qr(g.rand(shape[:-2] + [m, m], -1, 1, "float64"))
        v, _ = np.linalg.qr(g.rand(shape[:-2] + [n, n], -1, 1, "float64"))
        s = np.zeros(shape[:-2] + [m, n])
        svs = np.broadcast_to(np.asarray(svs, "float64"), shape[:-2] + [min(m, n)])
        for i in range(min(m, n)):
            s[..., i, i] = svs[..., i]
        return (u @ s @ np.swapaxes(v, -1, -2)).astype(dt)
    I64 = "int64"
    x0 = g.data("x0", of_sv([4, 5], [3.0, 1.5, 0, 0], F32))
    sv1 = np.array([[3.0, 0.3, 0, 0], [2.0, 1.0, 0.1, 0], [3.0, 2.0, 1.0, 0.2]])
    sv1 = np.broadcast_to(sv1, [2, 3, 4])
    x1 = g.data("x1", of_sv([2, 3, 4, 4], sv1, "float64"))
    q, _ = np.linalg.qr(g.rand([3, 4, 4], -1, 1, "float64"))
    ev = np.array([[2.0, -1.0, 0.0, 0.0], [-3.0, 0.5, 1.0, 0.0], [1.0, -1.0, 2.0, -0.3]])
    h = (q @ (ev[..., :, None] * np.swapaxes(q, -1, -2))).astype(F32)
    x2 = g.data("x2", h)
    t1 = g.data("t1", np.array([[0.05], [0.5]], "float64"))
    t2 = g.data("t2", np.array([0.2, 0.6, 1.5], F32))
    mr = lambda x, tol, hermitian, default, tt=None, dt=F32: g.op(
        "matrix_rank", dict(X=x, **({"TolTensor": tt} if tt is not None else {})),
        dict(tol=tol, hermitian=hermitian, use_default_tol=default), dtype=I64)
    g.fetch(mr(x0, 0.0, False, True), mr(x1, 0.0, False, True), mr(x1, 0.5, False, False),
            mr(x2, 0.0, True, True), mr(x2, 0.8, True, False),
            mr(x1, 0.0, False, False, t1), mr(x2, 0.0, True, True, t2))


def lstsq_outs(g, x, y, driver, rcond, dt):
    """Solution, Residuals and, for the drivers that write them, Rank and SingularValues."""
    a = g.op("lstsq", {"X": x, "Y": y}, dict(rcond=rcond, driver=driver),
             outs={"Solution": 1, "Residuals": 1, "Rank": 1, "SingularValues": 1}, dtype=dt)
    outs = [a["Solution"][0], a["Residuals"][0]]
    if driver != "gels":
        outs.append(a["Rank"][0])
    if driver in ("gelsd", "gelss"):
        outs.append(a["SingularValues"][0])
    return outs


@case(note="icore solves in double (LAPACK) and rounds once, Paddle in float32: float32 within "
           "rtol 1e-4 (atol 1e-5); ranks exact")
def lstsq_drivers(g):
    """lstsq with gels, gelsy, gelsd and gelss on a float32 overdetermined [5, 3] (Residuals
    except for gelsy) and a float32 underdetermined [3, 5] (minimum-norm solutions, Residuals
    empty), two right-hand sides each; Rank (not gels) and SingularValues (gelsd, gelss)."""
    outs = []
    for k, (xs, ys) in enumerate([([5, 3], [5, 2]), ([3, 5], [3, 2])]):
        x = g.data("x%d" % k, g.rand(xs))
        y = g.data("y%d" % k, g.rand(ys))
        for d in ("gels", "gelsy", "gelsd", "gelss"):
            outs += lstsq_outs(g, x, y, d, 1e-5, F32)
    g.fetch(*outs)


@case(note="float64 in double: within rtol 1e-4 (atol 1e-5); ranks exact")
def lstsq_batched(g):
    """lstsq on float64 batches: [2, 6, 4] whose second matrix has rank 2 (gelsy, gelsd,
    gelss with rcond 1e-8: ranks 4 and 2, minimum-norm solutions, Residuals empty as not
    every rank is n); a full-rank [2, 5, 3] with gels and gelsd (Residuals [2, 1]); a float32
    [1, 4, 3] with gelss (one matrix: Solution [3, 2], Residuals [1, 2])."""
    a = g.rand([2, 6, 4], -1, 1, "float64")
    a[1] = g.rand([6, 2], -1, 1, "float64") @ g.rand([2, 4], -1, 1, "float64")
    x = g.data("x", a)
    y = g.data("y", g.rand([2, 6, 3], -1, 1, "float64"))
    x2 = g.data("x2", g.rand([2, 5, 3], -1, 1, "float64"))
    y2 = g.data("y2", g.rand([2, 5, 1], -1, 1, "float64"))
    x3 = g.data("x3", g.rand([1, 4, 3]))
    y3 = g.data("y3", g.rand([1, 4, 2]))
    outs = []
    for d in ("gelsy", "gelsd", "gelss"):
        outs += lstsq_outs(g, x, y, d, 1e-8, "float64")
    for d in ("gels", "gelsd"):
        outs += lstsq_outs(g, x2, y2, d, 1e-8, "float64")
    outs += lstsq_outs(g, x3, y3, "gelss", 1e-5, F32)
    g.fetch(*outs)


@case(note="icore runs LAPACK geev in the input's dtype as Paddle (the same algorithm: the "
           "vectors' normalization and signs are Paddle's); float32 within rtol 1e-4 (atol "
           "1e-5); complex results fetched through as_real")
def eig_eigvals_modes(g):
    """eig (Eigenvalues, Eigenvectors) and eigvals on general real matrices with complex
    conjugate pairs and real eigenvalues: float32 [4, 4], a float32 batch [2, 3, 3], a
    float64 batch [2, 1, 5, 5] and a float64 upper triangular [3, 3] (real eigenvalues)."""
    outs = []
    tri = np.triu(g.rand([3, 3], -1, 1, "float64")) + np.diag([1.0, -2.0, 3.0])
    for k, (v, dt) in enumerate([(g.rand([4, 4]), F32), (g.rand([2, 3, 3]), F32),
                                 (g.rand([2, 1, 5, 5], -1, 1, "float64"), "float64"),
                                 (tri, "float64")]):
        x = g.data("x%d" % k, v)
        ct = "complex64" if dt == F32 else "complex128"
        e = g.op("eig", {"X": x}, {}, outs={"Eigenvalues": 1, "Eigenvectors": 1}, dtype=ct)
        w = g.op("eigvals", {"X": x}, {}, dtype=ct)
        outs += [paddle.as_real(e["Eigenvalues"][0]), paddle.as_real(e["Eigenvectors"][0]),
                 paddle.as_real(w)]
    g.fetch(*outs)


@case(note="complex inputs: icore runs the LAPACK/BLAS routines of the input's dtype as "
           "Paddle (ctrsm/ztrsm, cgetrf/zgetrf, cheevd/zheevd, cgeev/zgeev): complex64 within "
           "rtol 1e-4 (atol 1e-5); complex results fetched through as_real")
def linalg_complex(g):
    """The ops Paddle 3.3.1 also runs on complex64 and complex128: triangular_solve (upper;
    lower with transpose and unitriangular), lu and lu_unpack, eigh (UPLO L and U) and
    eigvalsh on Hermitian matrices, eig and eigvals; complex64 [3, 3] and complex128 batches
    [2, 4, 4]."""
    def cplx(shape, dt):
        return (g.rand(shape, -1, 1, "float64") + 1j * g.rand(shape, -1, 1, "float64")).astype(dt)

    def herm(shape, dt):
        a = cplx(shape, "complex128")
        return (a + np.conj(np.swapaxes(a, -1, -2)) +
                np.diag(np.linspace(-3.0, 3.0, shape[-1]))).astype(dt)
    R = paddle.as_real
    outs = []
    for k, (shape, dt) in enumerate([([3, 3], "complex64"), ([2, 4, 4], "complex128")]):
        n = shape[-1]
        x = g.data("x%d" % k, cplx(shape, dt) + (2.0 * np.eye(n)).astype(dt))
        y = g.data("y%d" % k, cplx(shape[:-1] + [2], dt))
        h = g.data("h%d" % k, herm(shape, dt))
        for upper, tr, unit in [(True, False, False), (False, True, True)]:
            outs.append(R(g.op("triangular_solve", {"X": x, "Y": y},
                               dict(upper=upper, transpose=tr, unitriangular=unit), dtype=dt)))
        a = g.op("lu", {"X": x}, dict(pivots=True), outs={"Out": 1, "Pivots": 1, "Infos": 1},
                 dtype=dt)
        u = g.op("lu_unpack", {"X": a["Out"][0], "Pivots": a["Pivots"][0]},
                 dict(unpack_ludata=True, unpack_pivots=True), outs={"Pmat": 1, "L": 1, "U": 1},
                 dtype=dt)
        outs += [R(a["Out"][0]), a["Pivots"][0], R(u["Pmat"][0]), R(u["L"][0]), R(u["U"][0])]
        for uplo in ("L", "U"):
            e = g.op("eigh", {"X": h}, dict(UPLO=uplo),
                     outs={"Eigenvalues": 1, "Eigenvectors": 1}, dtype=dt)
            outs += [e["Eigenvalues"][0], R(e["Eigenvectors"][0])]
        e = g.op("eigvalsh", {"X": h}, dict(UPLO="L", is_test=True),
                 outs={"Eigenvalues": 1, "Eigenvectors": 1}, dtype=dt)
        outs.append(e["Eigenvalues"][0])
        e = g.op("eig", {"X": x}, {}, outs={"Eigenvalues": 1, "Eigenvectors": 1}, dtype=dt)
        outs += [R(e["Eigenvalues"][0]), R(e["Eigenvectors"][0]),
                 R(g.op("eigvals", {"X": x}, {}, dtype=dt))]
    g.fetch(*outs)


@case(note="complex inputs: LAPACK cgeqrf/cungqr, zgeqrf/zungqr (Paddle: Eigen's complex "
           "Householder QR, the same reflectors) and cgesdd/zgesdd (Paddle's routines) in the "
           "input's dtype: complex64 within rtol 1e-4 (atol 1e-5); fetched through as_real")
def qr_svd_complex(g):
    """qr (reduced, complete, r) and svd (full_matrices false and true) on a complex64 tall
    [4, 3] and a complex128 wide batch [2, 3, 4]."""
    R = paddle.as_real
    outs = []
    for k, (shape, dt) in enumerate([([4, 3], "complex64"), ([2, 3, 4], "complex128")]):
        v = g.rand(shape, -1, 1, "float64") + 1j * g.rand(shape, -1, 1, "float64")
        x = g.data("x%d" % k, v.astype(dt))
        for mode in ("reduced", "complete", "r"):
            a = g.op("qr", {"X": x}, dict(mode=mode), outs={"Q": 1, "R": 1}, dtype=dt)
            if mode != "r":
                outs.append(R(a["Q"][0]))
            outs.append(R(a["R"][0]))
        for full in (False, True):
            a = g.op("svd", {"X": x}, dict(full_matrices=full), outs={"U": 1, "S": 1, "VH": 1},
                     dtype=dt)
            outs += [R(a["U"][0]), a["S"][0], R(a["VH"][0])]
    g.fetch(*outs)


@case(**EXACT, note="integer ranks of matrices whose singular values are far from the "
                    "tolerances: exact")
def matrix_rank_complex(g):
    """matrix_rank on complex inputs: a complex64 [4, 4] of rank 2 (default tolerance, tol
    0.5 below its singular values 3 and 1), a complex128 batch [2, 3, 3] of ranks 3 and 1 with
    a float64 TolTensor [2], and Hermitian complex128 [3, 3] matrices (eigenvalues 2, -1, 0)
    with hermitian true."""
    def of_sv(shape, svs, dt):
        m, n = shape[-2:]
        def unitary(k):
            q, _ = np.linalg.qr(g.rand(shape[:-2] + [k, k], -1, 1, "float64") +
                                1j * g.rand(shape[:-2] + [k, k], -1, 1, "float64"))
            return q
        u, v = unitary(m), unitary(n)
        s = np.zeros(shape[:-2] + [m, n], "complex128")
        svs = np.broadcast_to(np.asarray(svs, "float64"), shape[:-2] + [min(m, n)])
        for i in range(min(m, n)):
            s[..., i, i] = svs[..., i]
        return (u @ s @ np.conj(np.swapaxes(v, -1, -2))).astype(dt)
    I64 = "int64"
    x0 = g.data("x0", of_sv([4, 4], [3.0, 1.0, 0, 0], "complex64"))
    x1 = g.data("x1", of_sv([2, 3, 3], [[2.0, 1.0, 0.5], [2.0, 0, 0]], "complex128"))
    q, _ = np.linalg.qr(g.rand([3, 3], -1, 1, "float64") + 1j * g.rand([3, 3], -1, 1, "float64"))
    h = g.data("h", (q @ np.diag([2.0, -1.0, 0.0]) @ np.conj(q.T)).astype("complex128"))
    t = g.data("t", np.array([0.8, 0.1], "float64"))
    mr = lambda x, tol, hermitian, default, tt=None: g.op(
        "matrix_rank", dict(X=x, **({"TolTensor": tt} if tt is not None else {})),
        dict(tol=tol, hermitian=hermitian, use_default_tol=default), dtype=I64)
    g.fetch(mr(x0, 0.0, False, True), mr(x0, 0.5, False, False), mr(x1, 0.0, False, True),
            mr(x1, 0.0, False, False, t), mr(h, 0.0, True, True), mr(h, 1.5, True, False))


@case(**EXACT, note="integer ranks of matrices whose singular values are far from the "
                    "tolerances: exact")
def matrix_rank_atol_rtol_modes(g):
    """matrix_rank_atol_rtol (paddle.linalg.matrix_rank with atol / rtol, Paddle 3's API):
    atol alone (the default rtol eps * max(m, n) applies), rtol alone (atol 0), both, rtol 0
    (every nonzero singular value counts), a float64 atol tensor [2, 1]
    broadcast against the batch [2, 3], hermitian, on float32 and float64 batches with
    singular values 3, 1, 0.5, 0.1 and exact zeros."""
    def of_sv(shape, svs, dt):
        m, n = shape[-2:]
        u, _ = np.linalg.qr(g.rand(shape[:-2] + [m, m], -1, 1, "float64"))
        v, _ = np.linalg.qr(g.rand(shape[:-2] + [n, n], -1, 1, "float64"))
        s = np.zeros(shape[:-2] + [m, n])
        svs = np.broadcast_to(np.asarray(svs, "float64"), shape[:-2] + [min(m, n)])
        for i in range(min(m, n)):
            s[..., i, i] = svs[..., i]
        return (u @ s @ np.swapaxes(v, -1, -2)).astype(dt)
    x0 = g.data("x0", of_sv([2, 4, 5], [[3.0, 1.0, 0.5, 0.1], [3.0, 1.0, 0, 0]], F32))
    x1 = g.data("x1", of_sv([2, 3, 4, 4], [3.0, 1.0, 0.5, 0.1], "float64"))
    q, _ = np.linalg.qr(g.rand([4, 4], -1, 1, "float64"))
    h = g.data("h", (q @ np.diag([2.0, -1.0, 0.3, 0.0]) @ q.T).astype("float64"))
    at = g.data("at", np.array([[0.05], [0.7]], "float64"))
    mr = paddle.linalg.matrix_rank
    g.fetch(mr(x0, atol=0.2), mr(x0, rtol=0.1), mr(x0, atol=0.05, rtol=0.2),
            mr(x1, rtol=0.0), mr(x1, atol=at), mr(x1, atol=at, rtol=0.2),
            mr(h, atol=0.1, hermitian=True), mr(h, rtol=0.2, hermitian=True))


@case(**EXACT, note="NMS only selects and copies input values: exact")
def multiclass_nms_v1(g):
    """Paddle 1.x multiclass_nms (Out only) as SSD and YOLOv3 exports use it."""
    boxes = g.data("boxes", det_boxes(g, 16)[None])
    scores = g.data("scores", g.rand([1, 3, 16], 0, 1))
    g.fetch(g.op("multiclass_nms", {"BBoxes": boxes, "Scores": scores},
                 dict(background_label=0, score_threshold=0.3, nms_top_k=10,
                      nms_threshold=0.45, nms_eta=1.0, keep_top_k=5, normalized=True)))


# ---------------------------------------------------------------------------------------
# hierarchical_sigmoid (phi hsigmoid_loss_kernel.cc, funcs/matrix_bit_code.cc): word2vec's
# output layer (its gradient and nce are checked by tests/data/train: save_inference_model
# strips nce's SampleLogits, SampleLabels and custom_neg_classes as training-only)
# ---------------------------------------------------------------------------------------
def _hsigmoid(g, x, lab, nc, w, b=None, pt=None, pc=None, sparse=False):
    out = paddle.nn.functional.hsigmoid_loss(x, lab, nc, w, b, pt, pc, is_sparse=sparse)
    op = paddle.static.default_main_program().global_block().ops[-1]
    assert op.type == "hierarchical_sigmoid", op.type
    pre = paddle.static.default_main_program().global_block().var(op.output("PreOut")[0])
    return out, pre


@case()
def hsigmoid_default_tree(g):
    """The default complete binary tree: num_classes 7 with Bias (paths of 2 and 3 nodes:
    PreOut's padding adds log 2), num_classes 8 without Bias and is_sparse, float64, with
    every class as a label (X values up to +-30: the clip at +-40 matters)."""
    x = g.data("x", g.rand([7, 5], -2, 2))
    lab = g.data("lab", np.arange(7, dtype="int64").reshape(7, 1))
    w = g.param("hs_w", g.rand([6, 5]))
    b = g.param("hs_b", g.rand([6, 1]))
    o1, p1 = _hsigmoid(g, x, lab, 7, w, b)
    xd = g.data("xd", g.rand([8, 3], -30, 30, "float64"))
    labd = g.data("labd", np.array([7, 0, 3, 4, 1, 6, 2, 5], "int64"))
    wd = g.param("hs_wd", g.rand([7, 3], -1, 1, "float64"))
    o2, p2 = _hsigmoid(g, xd, labd, 8, wd, sparse=True)
    g.fetch(o1, p1, o2, p2)


@case()
def hsigmoid_custom_tree(g):
    """A custom tree: PathTable / PathCode [N, 4] with paths of 1 to 4 nodes (-1 pads a
    shorter path), with a Bias in float32 and without one in float64."""
    pt = np.array([[0, 2, 5, -1], [0, 1, 3, 4], [0, -1, -1, -1], [0, 2, 6, -1],
                   [0, 1, 3, -1]], "int64")
    pc = np.array([[1, 0, 1, -1], [0, 1, 1, 0], [1, -1, -1, -1], [1, 1, 0, -1],
                   [0, 0, 1, -1]], "int64")
    x = g.data("x", g.rand([5, 4], -2, 2))
    lab = g.data("lab", np.array([[3], [1], [0], [4], [2]], "int64"))
    t = g.data("pt", pt)
    c = g.data("pc", pc)
    w = g.param("hs_w", g.rand([7, 4]))
    b = g.param("hs_b", g.rand([7, 1]))
    o1, p1 = _hsigmoid(g, x, lab, 5, w, b, t, c)
    xd = g.data("xd", g.rand([5, 4], -2, 2, "float64"))
    wd = g.param("hs_wd", g.rand([7, 4], -1, 1, "float64"))
    o2, p2 = _hsigmoid(g, xd, lab, 5, wd, None, t, c, sparse=True)
    g.fetch(o1, p1, o2, p2)


# ---------------------------------------------------------------------------------------
# auc (phi cpu/auc_kernel.cc): CTR training's metric, its counts fed here
# ---------------------------------------------------------------------------------------
def _auc(g, pred, lab, pos, neg, tag=None, **attrs):
    ins = {"Predict": pred, "Label": lab, "StatPos": pos, "StatNeg": neg}
    if tag is not None:
        ins["InsTagWeight"] = tag
    a = dict(curve="ROC", num_thresholds=15, slide_steps=0)
    a.update(attrs)
    o = g.op("auc", ins, a,
             outs={"AUC": 1, "StatPosOut": 1, "StatNegOut": 1}, dtype="float64")
    return [o["AUC"][0], o["StatPosOut"][0], o["StatNegOut"][0]]


@case(**EXACT, note="counts and a trapezoid sum in double over few buckets: exact")
def auc_modes(g):
    """auc over fed counts (num_thresholds 15, 16 buckets): slide_steps 0 (global counts,
    Predict [N, 2], probabilities 0 and 1 included, a label -1 skipped); slide_steps 3 with a
    step counter of 5 (window 2 replaced; Predict [N, 1], curve PR, which
    Paddle computes as ROC); slide_steps 2 with InsTagWeight 0 (fake data: counted in its
    window, not in the sum); slide_steps 0 with InsTagWeight 0 (nothing changes)."""
    p1 = g.rand([9, 1], 0, 1)
    p1[0, 0], p1[1, 0] = 0.0, 1.0
    pred2 = g.data("pred2", np.concatenate([1 - p1, p1], axis=1))
    lab = g.data("lab", np.array([1, 0, 1, 1, 0, -1, 0, 1, 0], "int64").reshape(9, 1))
    pos0 = g.data("pos0", g.randint([1, 16], 0, 5, "int64"))
    neg0 = g.data("neg0", g.randint([1, 16], 0, 5, "int64"))
    outs = _auc(g, pred2, lab, pos0, neg0)
    pred1 = g.data("pred1", g.rand([7, 1], 0, 1))
    lab32 = g.data("lab1", np.array([0, 1, 1, 0, 1, 0, 0], "int64"))
    n3 = 4 * 16 + 1
    sp, sn = g.randint([n3], 0, 4, "int64"), g.randint([n3], 0, 4, "int64")
    sp[48:64] = sp[0:16] + sp[16:32] + sp[32:48]
    sn[48:64] = sn[0:16] + sn[16:32] + sn[32:48]
    sp[64] = sn[64] = 5
    pos3, neg3 = g.data("pos3", sp), g.data("neg3", sn)
    outs += _auc(g, pred1, lab32, pos3, neg3, curve="PR", slide_steps=3)
    n2 = 3 * 16 + 1
    tp, tn = g.randint([n2], 0, 4, "int64"), g.randint([n2], 0, 4, "int64")
    tp[32:48] = tp[0:16] + tp[16:32]
    tn[32:48] = tn[0:16] + tn[16:32]
    tp[48] = tn[48] = 2
    fake = g.data("fake", np.zeros([1, 1], "float32"))
    outs += _auc(g, pred1, lab32, g.data("pos2", tp), g.data("neg2", tn), fake, slide_steps=2)
    outs += _auc(g, pred2, lab, pos0, neg0, fake)[1:]
    g.fetch(*outs)


@case(paddle2=True, note="Paddle 2.6.2 (gone from 3.3.1)")
def precision_recall_modes(g):
    """precision_recall over 4 classes: with Weights and StatesInfo (float32; a class that is
    never predicted nor labelled: precision and recall 1), and without either (float64)."""
    ids = g.data("ids", np.array([[0], [1], [1], [3], [0], [1], [3], [0]], "int32"))
    labs = g.data("labs", np.array([[0], [1], [0], [3], [1], [1], [0], [0]], "int32"))
    probs = g.data("probs", g.rand([8, 1], 0, 1))
    w = g.data("w", g.rand([8, 1], 0.5, 2))
    states = g.data("states", g.randint([4, 4], 0, 6, "int64").astype("float32"))
    outs = {"BatchMetrics": 1, "AccumMetrics": 1, "AccumStatesInfo": 1}
    a = g.op("precision_recall", {"MaxProbs": probs, "Indices": ids, "Labels": labs,
                                  "Weights": w, "StatesInfo": states},
             dict(class_number=4), outs=outs)
    probsd = g.data("probsd", g.rand([8, 1], 0, 1, "float64"))
    b = g.op("precision_recall", {"MaxProbs": probsd, "Indices": ids, "Labels": labs},
             dict(class_number=5), outs=outs, dtype="float64")
    g.fetch(*(o[k][0] for o in (a, b) for k in outs))


@case(paddle2=True, note="Paddle 2.6.2 (gone from 3.3.1); weights in quarters (sums exact in any order)")
def positive_negative_pair_modes(g):
    """positive_negative_pair over 3 queries (ties in score and in label): column -1 with
    Weight and the three accumulators (float32); column 0 without them (float64)."""
    q = g.data("q", np.array([[3], [7], [3], [3], [7], [1], [3], [7], [1]], "int64"))
    sc = np.round(g.rand([9, 2], 0, 1) * 4) / 4
    sc[3, 1] = sc[0, 1]
    score = g.data("score", sc)
    label = g.data("label", np.array([[1], [0], [2], [0], [1], [1], [1], [2], [0]], "float32"))
    w = g.data("w", (g.randint([9, 1], 1, 8, "int32") / 4).astype("float32"))
    acc = [g.data("acc%d" % k, np.array([1.5 * k], "float32")) for k in range(3)]
    outs = {"PositivePair": 1, "NegativePair": 1, "NeutralPair": 1}
    a = g.op("positive_negative_pair", {"Score": score, "Label": label, "QueryID": q,
                                        "Weight": w, "AccumulatePositivePair": acc[0],
                                        "AccumulateNegativePair": acc[1],
                                        "AccumulateNeutralPair": acc[2]},
             dict(column=-1), outs=outs)
    scd = g.data("scored", sc.astype("float64"))
    labd = g.data("labeld", np.array([[1], [0], [2], [0], [1], [1], [1], [2], [0]], "float64"))
    b = g.op("positive_negative_pair", {"Score": scd, "Label": labd, "QueryID": q},
             dict(column=0), outs=outs, dtype="float64")
    g.fetch(*(o[k][0] for o in (a, b) for k in outs))


@case(paddle2=True, note="Paddle 2.6.2 (gone from 3.3.1)")
def legacy_losses(g):
    """hinge_loss, rank_loss and modified_huber_loss (float32: Paddle's only kernels; labels
    0 / 1, rank labels 0 / 0.5 / 1, values across modified_huber's three branches), bpr_loss
    (float32 and float64, 5 classes, rank 3), teacher_student_sigmoid_loss (float32 and
    float64, labels -2, -1 and teacher scores in [0, 2))."""
    x = g.data("x", g.rand([12, 1], -3, 3))
    yb = g.data("yb", g.randint([12, 1], 0, 2, "int32").astype("float32"))
    yr = g.data("yr", (g.randint([12, 1], 0, 3, "int32") / 2).astype("float32"))
    x2 = g.data("x2", g.rand([12, 1], -3, 3))
    outs = [g.op("hinge_loss", {"Logits": x, "Labels": yb}, outs={"Loss": 1}),
            g.op("rank_loss", {"Label": yr, "Left": x, "Right": x2})]
    m = g.op("modified_huber_loss", {"X": x, "Y": yb}, outs={"IntermediateVal": 1, "Out": 1})
    outs += [m["IntermediateVal"][0], m["Out"][0]]
    xc = g.rand([2, 3, 5], -4, 4)
    lab = g.randint([2, 3, 1], 0, 5, "int64")
    outs.append(g.op("bpr_loss", {"X": g.data("xc", xc), "Label": g.data("lab", lab)},
                     outs={"Y": 1}))
    outs.append(g.op("bpr_loss", {"X": g.data("xcd", xc.astype("float64")), "Label": g.data("labd", lab)}, outs={"Y": 1}, dtype="float64"))
    yt = g.rand([12, 1], 0, 2)
    yt[0::4] = -2
    yt[1::4] = -1
    xt = g.rand([12, 1], -20, 20)
    outs.append(g.op("teacher_student_sigmoid_loss", {"X": g.data("xt", xt),
                                                      "Label": g.data("yt", yt)},
                     dict(soft_max_up_bound=15.0, soft_max_lower_bound=-15.0), outs={"Y": 1}))
    outs.append(g.op("teacher_student_sigmoid_loss",
                     {"X": g.data("xtd", xt.astype("float64")),
                      "Label": g.data("ytd", yt.astype("float64"))},
                     dict(soft_max_up_bound=15.0, soft_max_lower_bound=-15.0), outs={"Y": 1},
                     dtype="float64"))
    g.fetch(*outs)


@case(**EXACT, note="sorts only move values: exact")
def sort_ties(g):
    """Rows full of equal values (and a NaN): argsort without `stable` (std::sort), with it,
    ascending and descending; top_k_v2 on both of Paddle's paths (k * 64 under the row length:
    std::partial_sort; else std::nth_element and std::sort of the first k - 1), unsorted,
    smallest first, along a leading axis; top_k; an int64 argsort. Equal values come out in
    the order libstdc++'s algorithms leave them."""
    v = g.randint([4, 200], 0, 6, "int32").astype(F32) * 0.5
    v[1, 7] = np.nan
    x = g.data("x", v)
    xi = g.data("xi", g.randint([3, 40], -2, 3, "int64"))
    def topk(inp, k, axis=-1, largest=True, sorted_=True, dtype=F32):
        return g.op("top_k_v2", {"X": inp}, dict(k=k, axis=axis, largest=largest, sorted=sorted_),
                    outs={"Out": 1, "Indices": 1}, dtype=dtype)
    def argsort(inp, desc, stable, axis=-1, dtype=F32):
        return g.op("argsort", {"X": inp}, dict(axis=axis, descending=desc, stable=stable),
                    outs={"Out": 1, "Indices": 1}, dtype=dtype)
    outs = [argsort(x, False, False), argsort(x, True, False), argsort(x, True, True),
            topk(x, 3), topk(x, 50), topk(x, 50, sorted_=False), topk(x, 2, largest=False),
            topk(x, 3, axis=0), argsort(xi, True, False, dtype="int64"),
            g.op("top_k", {"X": x}, dict(k=3), outs={"Out": 1, "Indices": 1}),
            g.op("top_k", {"X": x}, dict(k=60), outs={"Out": 1, "Indices": 1})]
    g.fetch(*[v for o in outs for v in (o["Out"][0], o["Indices"][0])])


@case()
def matrix_nms_ties(g):
    """Scores from five values, so that both of matrix_nms's std::partial_sorts (a class's
    candidates, then the image's detections) meet equal scores; nms_top_k and keep_top_k
    cutting inside runs of ties, and neither cutting."""
    boxes = g.data("boxes", np.stack([det_boxes(g, 24) for _ in range(2)]))
    scores = g.data("scores", (g.randint([2, 3, 24], 1, 6, "int32") * 0.15).astype(F32))
    outs = {"Out": 1, "Index": 1, "RoisNum": 1}
    a = g.op("matrix_nms", {"BBoxes": boxes, "Scores": scores},
             dict(score_threshold=0.2, post_threshold=0.05, nms_top_k=10, keep_top_k=12,
                  use_gaussian=False, gaussian_sigma=2.0, background_label=-1,
                  normalized=True), outs=outs)
    b = g.op("matrix_nms", {"BBoxes": boxes, "Scores": scores},
             dict(score_threshold=0.1, post_threshold=0.0, nms_top_k=-1, keep_top_k=-1,
                  use_gaussian=True, gaussian_sigma=2.0, background_label=0,
                  normalized=False), outs=outs)
    g.fetch(a["Out"][0], a["Index"][0], a["RoisNum"][0], b["Out"][0], b["Index"][0],
            b["RoisNum"][0])


@case(**EXACT, note="tril_triu only keeps or zeroes values: exact")
def tril_triu_masks(g):
    """tril and triu with diagonals 0, negative, positive and beyond the matrix, on a rank-4
    float32 tensor (a batch of causal masks), float64, int64 and bool matrices."""
    x = g.data("x", g.rand([2, 3, 4, 5]))
    xd = g.data("xd", g.rand([5, 3], dtype="float64"))
    xi = g.data("xi", g.randint([4, 6], -50, 50, "int64"))
    xb = g.data("xb", g.rand([3, 4]) > 0)
    tt = lambda v, d, lo, dt=F32: g.op("tril_triu", {"X": v}, dict(diagonal=d, lower=lo),  # noqa: E731
                                       dtype=dt)
    g.fetch(tt(x, 0, True), tt(x, -1, True), tt(x, 1, False), tt(x, -2, False),
            tt(x, 7, True), tt(x, 7, False), tt(x, -9, True),
            tt(xd, -1, False, "float64"), tt(xi, 2, True, "int64"), tt(xi, -3, False, "int64"),
            tt(xb, 1, True, "bool"))


def fconst(g, value, dtype=5, shape=(1,), vdt=F32):
    return g.op("fill_constant", {}, dict(shape=list(shape), dtype=dtype, value=float(value)),
                dtype=vdt)


@case(**EXACT, note="empty's contents are unspecified: its dims and dtype are checked "
      "through fill_any_like")
def empty_shapes(g):
    """empty from the shape attribute (float32 default, int64, bool, float64, uint8, int32,
    a zero dim, rank 0), from ShapeTensor (int32 and int64) and ShapeTensorList (an int64
    and an int32 element): each fetched as fill_any_like(Out, 0) (dims and dtype, not the
    unspecified values)."""
    st = g.data("st", np.array([2, 3, 1], dtype="int32"))
    st64 = g.data("st64", np.array([4], dtype="int64"))
    d0 = g.data("d0", np.array([3], dtype="int64"))
    d1 = g.data("d1", np.array([2], dtype="int32"))
    dts = {5: F32, 3: "int64", 0: "bool", 6: "float64", 20: "uint8", 2: "int32"}
    outs = []

    def emp(ins, shape, dtype):
        e = g.op("empty", ins, dict(shape=shape, dtype=dtype), dtype=dts[dtype])
        outs.append(g.op("fill_any_like", {"X": e}, dict(value=0.0, dtype=-1), dtype=dts[dtype]))

    emp({}, [2, 3], 5)
    emp({}, [4, 1, 2], 3)
    emp({}, [3], 0)
    emp({}, [2, 0, 3], 6)
    emp({}, [], 20)
    emp({}, [1, 5], 2)
    emp({"ShapeTensor": st}, [], 5)
    emp({"ShapeTensor": st64}, [7, 7], 3)
    emp({"ShapeTensorList": [d0, d1]}, [], 6)
    g.fetch(*outs)


@case(**EXACT, note="random values differ from Paddle's: shapes, ranges and diagonal "
      "positions are checked (bool comparisons, exact)")
def uniform_random_batch_size_like_modes(g):
    """uniform_random_batch_size_like: the batch dim from input_dim_idx 0 to output_dim_idx
    0 (float32, default range), input_dim_idx 2 to output_dim_idx 1 (float64, min 2, max 5,
    a seed), diag_num 3 / diag_step 4 with diag_val 9 (outside the range): fetched as
    Out >= min, Out < max and Out >= 9 (exactly the diagonal positions)."""
    x = g.data("x", g.rand([3, 4, 5]))
    a = g.op("uniform_random_batch_size_like", {"Input": x},
             dict(shape=[-1, 6], input_dim_idx=0, output_dim_idx=0, min=-1.0, max=1.0,
                  seed=0, diag_num=0, diag_step=0, diag_val=1.0, dtype=5))
    b = g.op("uniform_random_batch_size_like", {"Input": x},
             dict(shape=[2, -1, 3], input_dim_idx=2, output_dim_idx=1, min=2.0, max=5.0,
                  seed=7, diag_num=0, diag_step=0, diag_val=1.0, dtype=6), dtype="float64")
    c = g.op("uniform_random_batch_size_like", {"Input": x},
             dict(shape=[-1, 5], input_dim_idx=1, output_dim_idx=0, min=0.0, max=0.5,
                  seed=3, diag_num=3, diag_step=4, diag_val=9.0, dtype=5))
    outs = []
    for v, lo, hi, dt in ((a, -1, 1, F32), (b, 2, 5, "float64"), (c, 0, 0.5, F32)):
        vd = 5 if dt == F32 else 6
        outs.append(g.op("greater_equal", {"X": v, "Y": fconst(g, lo, vd, vdt=dt)}, dtype="bool"))
        outs.append(g.op("less_than", {"X": v, "Y": fconst(g, hi, vd, vdt=dt)}, dtype="bool"))
    outs.append(g.op("greater_equal", {"X": c, "Y": fconst(g, 9.0)}, dtype="bool"))
    g.fetch(*outs)


@case(**EXACT, note="fill_any only stores a value: exact")
def fill_any_inplace(g):
    """fill_any (Tensor.fill_) in place (Out names X) on float32, float64, uint8, int64
    (3.7 truncates to 3), int32 (-2.9 to -2) and bool tensors, and into a new variable."""
    helper = LayerHelper("fill_any")
    outs = []
    for name, val, dt, fill in (("xf", g.rand([2, 3]), F32, 1.25), ("xd", g.rand([3], dtype="float64"), "float64", -0.1),
                                ("xh", g.randint([2, 2], 0, 200, "uint8"), "uint8", 7.9),
                                ("xl", g.randint([4], -9, 9, "int64"), "int64", 3.7),
                                ("xi", g.randint([2, 2], -9, 9, "int32"), "int32", -2.9),
                                ("xb", g.rand([3]) > 0, "bool", 1.0)):
        x = g.data(name, val)
        v = g.op("assign", {"X": x}, dtype=dt)
        helper.append_op(type="fill_any", inputs={"X": [v]}, outputs={"Out": [v]},
                         attrs=dict(value=fill))
        outs.append(v)
    outs.append(g.op("fill_any", {"X": outs[0]}, dict(value=-7.5)))
    g.fetch(*outs)


@case()
def l1_norm_sum(g):
    """l1_norm: the sum of |X| over a rank-3 float32 tensor (a 0-D Out), and of a rank-1
    one holding zeros."""
    x = g.data("x", g.rand([3, 4, 5]))
    y0 = g.rand([6])
    y0[1] = y0[4] = 0
    y = g.data("y", y0)
    g.fetch(g.op("l1_norm", {"X": x}), g.op("l1_norm", {"X": y}))


@case(paddle2=True, note="Paddle 2.6.2: 3.3.1 no longer registers minus and fsp")
def minus_fsp(g):
    """minus (X - Y of equal dims, float32) and fsp (X [2, 3, 4, 5] with Y [2, 2, 4, 5] ->
    [2, 3, 2], and a 1 x 1 map)."""
    x = g.data("x", g.rand([3, 4]))
    y = g.data("y", g.rand([3, 4]))
    a = g.data("a", g.rand([2, 3, 4, 5]))
    b = g.data("b", g.rand([2, 2, 4, 5]))
    c = g.data("c", g.rand([1, 4, 1, 1]))
    d = g.data("d", g.rand([1, 3, 1, 1]))
    g.fetch(g.op("minus", {"X": x, "Y": y}), g.op("fsp", {"X": a, "Y": b}),
            g.op("fsp", {"X": c, "Y": d}))


@case(**EXACT, note="3-D max pooling and unpooling only move values: exact")
def max_pool3d_unpool3d(g):
    """max_pool3d_with_index (Out, int32 Mask) with ksize 2 x 3 x 2, strides 2 x 1 x 2,
    paddings 1 x 1 x 0; the same under ceil_mode; adaptive 2 x 3 x 2; global; float64; then
    unpool3d of the first back to X's size, and of a pooling whose windows tile the volume
    (output_size as ksize/strides/paddings give it: Paddle 3.3.1 crashes without one)."""
    x = g.data("x", g.rand([2, 2, 5, 6, 7]))
    xd = g.data("xd", g.rand([1, 2, 4, 3, 5], dtype="float64"))
    outs = {"Out": 1, "Mask": 1}

    def pool(v, k, s, p, gp=False, ad=False, cm=False, dt=F32):
        return g.op("max_pool3d_with_index", {"X": v},
                    dict(ksize=k, strides=s, paddings=p, global_pooling=gp, adaptive=ad,
                         ceil_mode=cm), outs=outs, dtype=dt)
    p = pool(x, [2, 3, 2], [2, 1, 2], [1, 1, 0])
    q = pool(x, [2, 3, 2], [2, 2, 2], [0, 1, 0], cm=True)
    r = pool(x, [2, 3, 2], [1, 1, 1], [0, 0, 0], ad=True)
    s = pool(x, [1, 1, 1], [1, 1, 1], [0, 0, 0], gp=True)
    t = pool(xd, [2, 2, 3], [2, 1, 2], [0, 1, 1], dt="float64")
    u = g.op("unpool3d", {"X": p["Out"][0], "Indices": p["Mask"][0]},
             dict(ksize=[2, 3, 2], strides=[2, 1, 2], paddings=[1, 1, 0],
                  output_size=[5, 6, 7], data_format="NCDHW"))
    y = g.data("y", g.rand([1, 3, 4, 6, 4]))
    w = pool(y, [2, 3, 2], [2, 3, 2], [0, 0, 0])
    v = g.op("unpool3d", {"X": w["Out"][0], "Indices": w["Mask"][0]},
             dict(ksize=[2, 3, 2], strides=[2, 3, 2], paddings=[0, 0, 0], output_size=[4, 6, 4],
                  data_format="NCDHW"))
    ud = g.op("unpool3d", {"X": t["Out"][0], "Indices": t["Mask"][0]},
              dict(ksize=[2, 2, 3], strides=[2, 1, 2], paddings=[0, 1, 1],
                   output_size=[4, 3, 5], data_format="NCDHW"), dtype="float64")
    res = []
    for m in (p, q, r, s, t, w):
        res += [m["Out"][0], m["Mask"][0]]
    g.fetch(*res, u, v, ud)


@case(note="onesided only: Paddle's two-sided stft (onesided false) fails in its kernel "
      "(complex64 read from a float32 tensor); test_ops_math checks icore's against the "
      "onesided half")
def stft_modes(g):
    """stft of a [2, 30] float32 signal with a random window: n_fft 8, hop 3, onesided, not
    normalized; n_fft 7 (odd), hop 4, normalized; a float64 signal with n_fft 6, hop 6,
    normalized. Complex results fetched through as_real."""
    x = g.data("x", g.rand([2, 30]))
    xd = g.data("xd", g.rand([3, 20], dtype="float64"))
    w8 = g.data("w8", g.rand([8], 0.0, 1.0))
    w7 = g.data("w7", g.rand([7], 0.0, 1.0))
    w6 = g.data("w6", g.rand([6], 0.0, 1.0, dtype="float64"))

    def stft(v, w, n, hop, norm, one, dt="complex64", rdt=F32):
        s = g.op("stft", {"X": v, "Window": w},
                 dict(n_fft=n, hop_length=hop, normalized=norm, onesided=one), dtype=dt)
        return g.op("as_real", {"X": s}, dtype=rdt)
    g.fetch(stft(x, w8, 8, 3, False, True), stft(x, w7, 7, 4, True, True),
            stft(xd, w6, 6, 6, True, True, "complex128", "float64"))


@case(paddle2=True, note="Paddle 2.6.2 (3.3.1 no longer registers dropout_nd); inference "
      "only (the saved model has is_test), which is exact up to the downgrade product")
def dropout_nd_infer(g):
    """dropout_nd in inference: downgrade_in_infer (X * (1 - p)) and upscale_in_train (X), with
    axis lists; float32 and float64."""
    x = g.data("x", g.rand([2, 3, 4]))
    xd = g.data("xd", g.rand([3, 5], dtype="float64"))
    outs = {"Out": 1, "Mask": 1}
    a = g.op("dropout_nd", {"X": x}, dict(dropout_prob=0.3, is_test=True,
                                          dropout_implementation="downgrade_in_infer",
                                          axis=[1]), outs=outs)
    b = g.op("dropout_nd", {"X": x}, dict(dropout_prob=0.6, is_test=True,
                                          dropout_implementation="upscale_in_train",
                                          axis=[0, 2]), outs=outs)
    c = g.op("dropout_nd", {"X": xd}, dict(dropout_prob=0.25, is_test=True,
                                           dropout_implementation="downgrade_in_infer",
                                           axis=[0]), outs=outs, dtype="float64")
    g.fetch(a["Out"][0], b["Out"][0], c["Out"][0])


@case(atol=1e-6, note="random noise, but the inputs' gaps (100) exceed any Gumbel noise "
      "difference (below 40): the one-hot or near-one-hot result is Paddle's")
def gumbel_softmax_gaps(g):
    """gumbel_softmax of distinct inputs 100 apart: hard (exact one-hot)
    along the last axis and axis 0, soft (1 and ~0) with temperature 0.5 and 2, float64."""
    x = g.data("x", (g.rng.permutation(24).reshape(2, 3, 4) * 100.0).astype(F32))
    xd = g.data("xd", (g.rng.permutation(15).reshape(5, 3) * 100.0).astype("float64"))
    gs = lambda v, t, h, ax, dt=F32: g.op("gumbel_softmax", {"X": v},  # noqa: E731
                                         dict(temperature=t, hard=h, axis=ax), dtype=dt)
    g.fetch(gs(x, 1.0, True, -1), gs(x, 0.5, True, 0), gs(x, 0.5, False, -1),
            gs(x, 2.0, False, 1), gs(xd, 1.0, True, 0, "float64"),
            gs(xd, 1.0, False, -1, "float64"))


@case(**EXACT, note="random draws: only what is exact is fetched (zeros, ranges, integrality)")
def exponential_poisson_props(g):
    """exponential_ in place (lambda 2.5) fetched as Out >= 0; poisson of zero rates (exact
    zeros) and of rates up to 40 fetched as Out >= 0 and floor(Out) == Out; float64."""
    helper = LayerHelper("exponential")
    x = g.data("x", g.rand([3, 4]))
    v = g.op("assign", {"X": x})
    helper.append_op(type="exponential", inputs={"X": [v]}, outputs={"Out": [v]},
                     attrs={"lambda": 2.5})
    zero = fconst(g, 0.0, 5, (1,))
    z = g.data("z", np.zeros([2, 3], F32))
    r = g.data("r", g.rand([4, 5], 0.0, 40.0))
    rd = g.data("rd", g.rand([6], 0.0, 3.0, dtype="float64"))
    pz = g.op("poisson", {"X": z})
    pr = g.op("poisson", {"X": r})
    pd = g.op("poisson", {"X": rd}, dtype="float64")
    ge = lambda a, b: g.op("greater_equal", {"X": a, "Y": b}, dtype="bool")  # noqa: E731
    integral = lambda a, dt=F32: g.op("equal", {"X": g.op("floor", {"X": a}, dtype=dt),  # noqa: E731
                                                "Y": a}, dtype="bool")
    g.fetch(ge(v, zero), pz, ge(pr, zero), integral(pr), integral(pd, "float64"))


@case(paddle2=True, **EXACT, note="Paddle 2.6.2 (3.3.1 no longer registers sampling_id); rows "
      "whose weights put all mass on one index (or none) draw it whatever the random number")
def sampling_id_onehot(g):
    """sampling_id of one-hot rows (each draw r in [0, 1) lands on the hot index), an all-zero
    row (width - 1), float32 and float64, min/max 0.2 / 0.9 and a seed."""
    w = np.zeros([5, 4], F32)
    for i, j in enumerate([2, 0, 3, 1]):
        w[i, j] = 1.0
    x = g.data("x", w)
    xd = g.data("xd", w[:4].astype("float64"))
    g.fetch(g.op("sampling_id", {"X": x}, dict(min=0.0, max=1.0, seed=0), dtype="int64"),
            g.op("sampling_id", {"X": xd}, dict(min=0.2, max=0.9, seed=5), dtype="int64"))


@case(**EXACT, note="the permutation is random: its sum, the rows' sum and SeedOut (a "
      "minstd_rand0 step, reproduced exactly) are fetched")
def shuffle_batch_seed(g):
    """shuffle_batch of an int64 [2, 3, 2] tensor (6 rows of 2) with Seed 7 and of a float32
    [5, 3] one whose Seed is its own SeedOut, unset before the run (startup_seed 11, as
    fluid's shuffle_batch layer builds it): SeedOut, the sums of ShuffleIdx and of Out's rows
    (permutation invariants)."""
    x = g.data("x", g.randint([2, 3, 2], -50, 50, "int64"))
    s = g.data("s", np.array([7], "int64"))
    y = g.data("y", g.randint([5, 3], -5, 5, "int64"))
    outs = {"Out": 1, "ShuffleIdx": 1, "SeedOut": 1}
    a = g.op("shuffle_batch", {"X": x, "Seed": s}, dict(startup_seed=0), outs=outs, dtype="int64")
    helper = LayerHelper("shuffle_batch")
    sv = helper.create_variable_for_type_inference("int64")
    bo, bi = (helper.create_variable_for_type_inference("int64") for _ in range(2))
    helper.append_op(type="shuffle_batch", inputs={"X": [y], "Seed": [sv]},
                     outputs={"Out": [bo], "ShuffleIdx": [bi], "SeedOut": [sv]},
                     attrs=dict(startup_seed=11))
    b = {"Out": [bo], "ShuffleIdx": [bi], "SeedOut": [sv]}
    rs = lambda v, d: g.op("reduce_sum", {"X": v}, dict(dim=d, keep_dim=False,  # noqa: E731
                                                         reduce_all=False), dtype="int64")
    g.fetch(a["SeedOut"][0], rs(a["ShuffleIdx"][0], [0]), rs(a["Out"][0], [0, 1]),
            b["SeedOut"][0], rs(b["ShuffleIdx"][0], [0]), rs(b["Out"][0], [0]))


@case(**EXACT, note="roll only moves values: exact")
def roll_axes(g):
    """roll over two axes (one negative, a shift larger than its dim), the flattened tensor
    (empty axis), an axis named twice (shifts add up), a zero shift, int64 and bool inputs,
    and shifts from ShiftsTensor."""
    x = g.data("x", g.rand([2, 3, 4, 5]))
    xi = g.data("xi", g.randint([3, 4], -50, 50, "int64"))
    xb = g.data("xb", g.rand([5, 2]) > 0)
    sh = g.data("sh", np.array([-3, 5], dtype="int64"))
    r = lambda v, s, a, dt=F32, ins=None: g.op("roll", dict({"X": v}, **(ins or {})),  # noqa: E731
                                                dict(shifts=s, axis=a), dtype=dt)
    g.fetch(r(x, [1, -2], [0, -1]), r(x, [7], []), r(x, [-25], []), r(x, [2, 3], [1, 1]),
            r(x, [0, 9], [2, 1]), r(x, [1, 1, 1], [0, 1, 3]),
            r(xi, [-5], [1], "int64"), r(xb, [3], [0], "bool"),
            r(x, [], [0, 2], ins={"ShiftsTensor": sh}))


@case(**EXACT, note="coordinates: exact")
def where_index_cases(g):
    """paddle.nonzero of float32 (zeros, -0.0 and NaN: NaN counts, -0.0 does not), bool,
    int32 and float64 tensors; an all-zero int64 tensor (no rows: [0, 2])."""
    xf = g.rand([3, 4, 2])
    xf[xf < 0.2] = 0
    xf[0, 0, 0], xf[1, 2, 1], xf[2, 3, 0] = -0.0, np.nan, np.nan
    x = g.data("x", xf)
    xb = g.data("xb", g.rand([7]) > 0.3)
    xi = g.data("xi", g.randint([2, 3, 2, 2], -1, 2, "int32"))
    xd = g.data("xd", g.rand([4, 5], dtype="float64") * (g.rand([4, 5]) > 0))
    xz = g.data("xz", np.zeros([3, 2], dtype="int64"))
    wi = lambda v: g.op("where_index", {"Condition": v}, dtype="int64")  # noqa: E731
    g.fetch(wi(x), wi(xb), wi(xi), wi(xd), wi(xz))


@case(**EXACT, note="bool results: exact")
def isnan_isinf_isfinite(g):
    """isnan_v2, isinf_v2 and isfinite_v2 on float32 and float64 with NaN, +-inf, +-0 and
    large finite values, and on int32 (finite, never NaN or infinite)."""
    vf = g.rand([3, 5])
    vf.flat[[1, 4, 7, 9, 12]] = [np.nan, np.inf, -np.inf, -0.0, 3e38]
    x = g.data("x", vf)
    vd = g.rand([2, 4], dtype="float64")
    vd.flat[[0, 5, 6]] = [-np.inf, np.nan, 1e308]
    xd = g.data("xd", vd)
    xi = g.data("xi", g.randint([4], -9, 9, "int32"))
    outs = []
    for op in ("isnan_v2", "isinf_v2", "isfinite_v2"):
        outs += [g.op(op, {"X": v}, dtype="bool") for v in (x, xd, xi)]
    g.fetch(*outs)


@case(**EXACT, note="gathers only move values: exact")
def index_sample_take_along(g):
    """index_sample with int32 and int64 indices (float32, int64 values); take_along_axis on
    axis 1, on the last axis with negative indices and Index longer than Input there, with
    Index smaller than Input off the axis, on a 1-D tensor and with int32 indices. (A negative
    Axis is not covered: Paddle 3.3.1's kernel reads dims[Axis] unnormalized, so that axis -1
    of a [3, 4, 5] Input takes indices in [-3, 3); the Python API passes a normalized axis.)"""
    x = g.data("x", g.rand([3, 6]))
    xi = g.data("xi", g.randint([2, 5], -50, 50, "int64"))
    i32 = g.data("i32", g.randint([3, 4], 0, 6, "int32"))
    i64 = g.data("i64", g.randint([2, 7], 0, 5, "int64"))
    t = g.data("t", g.rand([3, 4, 5]))
    ta = g.data("ta", g.randint([3, 2, 5], 0, 4, "int64"))
    tb = g.data("tb", g.randint([3, 4, 6], -5, 5, "int64"))
    tc = g.data("tc", g.randint([2, 3, 2], -3, 4, "int32"))
    v = g.data("v", g.rand([6], dtype="float64"))
    vi = g.data("vi", g.randint([9], -6, 6, "int64"))
    isamp = lambda a, b, dt=F32: g.op("index_sample", {"X": a, "Index": b}, dtype=dt)  # noqa: E731
    take = lambda a, b, ax, dt=F32: g.op("take_along_axis", {"Input": a, "Index": b},  # noqa: E731
                                         dict(Axis=ax), outs={"Result": 1}, dtype=dt)
    g.fetch(isamp(x, i32), isamp(xi, i64, "int64"),
            take(t, ta, 1), take(t, tb, 2), take(t, tc, 1), take(v, vi, 0, "float64"))


@case(rtol=1e-6, atol=1e-7, note="unbind and shuffle_channel exact; affine_channel one "
      "multiply-add in float32")
def unbind_shuffle_affine(g):
    """unbind on a negative axis and on axis 0 (int64); shuffle_channel with 3 and 2 groups;
    affine_channel in NCHW, NHWC and on a 2-D input."""
    x = g.data("x", g.rand([2, 3, 4]))
    xi = g.data("xi", g.randint([2, 5], -9, 9, "int64"))
    s = g.data("s", g.rand([2, 6, 2, 3]))
    a = g.data("a", g.rand([2, 3, 4, 5]))
    an = g.data("an", g.rand([2, 4, 5, 3]))
    a2 = g.data("a2", g.rand([4, 3]))
    sc = g.data("sc", g.rand([3]))
    bi = g.data("bi", g.rand([3]))
    u = g.op("unbind", {"X": x}, dict(axis=-2), outs={"Out": 3})["Out"]
    ui = g.op("unbind", {"X": xi}, dict(axis=0), outs={"Out": 2}, dtype="int64")["Out"]
    sh = lambda v, k: g.op("shuffle_channel", {"X": v}, dict(group=k))  # noqa: E731
    af = lambda v, lay: g.op("affine_channel", {"X": v, "Scale": sc, "Bias": bi},  # noqa: E731
                             dict(data_layout=lay))
    g.fetch(*u, *ui, sh(s, 3), sh(s, 2), af(a, "NCHW"), af(an, "NHWC"), af(a2, "NCHW"))


@case(**EXACT, note="flip and reverse only move values: exact")
def flip_reverse(g):
    """flip over two axes, a negative one, none (a copy) and an int64 tensor's middle axis;
    fluid's reverse with an axis named twice (reversed once, as Paddle does) and with a
    negative and a leading axis."""
    x = g.data("x", g.rand([2, 3, 4, 5]))
    xi = g.data("xi", g.randint([3, 4, 2], -50, 50, "int64"))
    g.fetch(g.op("flip", {"X": x}, dict(axis=[0, 2])),
            g.op("flip", {"X": x}, dict(axis=[-1])),
            g.op("flip", {"X": x}, dict(axis=[])),
            g.op("flip", {"X": xi}, dict(axis=[1]), dtype="int64"),
            g.op("reverse", {"X": x}, dict(axis=[1, 1])),
            g.op("reverse", {"X": x}, dict(axis=[-1, 0])),
            g.op("reverse", {"X": xi}, dict(axis=[0, 1, 2]), dtype="int64"))


# ---------------------------------------------------------------------------------------
# Fused ops that Paddle Inference's passes write (phi/kernels/fusion/cpu, fluid/operators/fused)
# ---------------------------------------------------------------------------------------

FEA_PAIRS = [["elementwise_add", "scale"], ["scale", "elementwise_add"],
             ["elementwise_add", "relu"], ["relu", "elementwise_add"],
             ["elementwise_mul", "scale"], ["tanh", "elementwise_add"],
             ["elementwise_mul", "tanh"], ["elementwise_mul", "sigmoid"],
             ["gelu", "elementwise_add"]]


def fea(g, x, y, pair, axis=-1, scale=0.0, save=True, type="fused_elemwise_activation",
        dtype=F32):
    r = g.op(type, {"X": x, "Y": y},
             dict(functor_list=pair, axis=axis, scale=scale, save_intermediate_out=save),
             outs={"Out": 1, "IntermediateOut": 1}, dtype=dtype)
    return r["Out"][0], r["IntermediateOut"][0]


@case()
def fused_elemwise_act_pairs(g):
    """fused_elemwise_activation with every functor pair Paddle's CPU kernel implements
    (Unary(Binary(X, Y)) and Binary(X, Unary(Y))), save_intermediate_out, float32: equal
    shapes, Y [4] broadcast on the last axis (axis -1), Y [3, 1] (trailing 1 dropped) at
    axis 1, and X [3, 4] smaller than Y (Out takes Y's shape) at axis 1; values reach past
    tanh/sigmoid's clipping at -40 and 13."""
    x = g.data("x", g.rand([2, 3, 4], -3, 3))
    y = g.data("y", g.rand([2, 3, 4], -3, 3))
    y4 = g.data("y4", g.rand([4], -3, 3))
    y31 = g.data("y31", g.rand([3, 1], -3, 3))
    xs = g.data("xs", g.rand([3, 4], -25, 25))
    outs = []
    for k, pair in enumerate(FEA_PAIRS):
        sc = 0.75 if "scale" in pair else 0.0
        if k % 4 == 0:
            outs += fea(g, x, y, pair, scale=sc)
        elif k % 4 == 1:
            outs += fea(g, x, y4, pair, scale=sc)
        elif k % 4 == 2:
            outs += fea(g, x, y31, pair, axis=1, scale=sc)
        else:
            outs += fea(g, xs, y, pair, axis=1, scale=sc)
    g.fetch(*outs)


@case(rtol=1e-9, atol=1e-12, note="float64 through the same functors")
def fused_elemwise_act_f64(g):
    """fused_elemwise_activation in float64 with every pair, Y [2] at axis 0 on [2, 3, 4]
    (Binary(X, Unary(Y)) keeps IntermediateOut in Y's shape), a 1-element Y, save off (Out
    only); fused_elemwise_add_activation (the same kernel) with add pairs, float32."""
    d = "float64"
    x = g.data("x", g.rand([2, 3, 4], -3, 3, dtype=d))
    y = g.data("y", g.rand([2, 3, 4], -3, 3, dtype=d))
    y2 = g.data("y2", g.rand([2], -3, 3, dtype=d))
    y1 = g.data("y1", g.rand([1], -3, 3, dtype=d))
    xf = g.data("xf", g.rand([2, 5], -3, 3))
    yf = g.data("yf", g.rand([5], -3, 3))
    outs = []
    for k, pair in enumerate(FEA_PAIRS):
        sc = -1.3 if "scale" in pair else 0.0
        if k % 3 == 0:
            outs += fea(g, x, y2, pair, axis=0, scale=sc, dtype=d)
        elif k % 3 == 1:
            outs.append(fea(g, x, y1, pair, scale=sc, save=False, dtype=d)[0])
        else:
            outs += fea(g, x, y, pair, scale=sc, dtype=d)
    for pair in (["elementwise_add", "relu"], ["scale", "elementwise_add"],
                 ["gelu", "elementwise_add"]):
        outs += fea(g, xf, yf, pair, scale=0.5, type="fused_elemwise_add_activation")
    g.fetch(*outs)


@case()
def fusion_fc_chains(g):
    """fusion_repeated_fc_relu with two and three layers (ReluOut fetched; biases [1, N] and
    [N]), float32 and float64; fusion_squared_mat_sub with scalar 0.5 and -2 (every output)
    in both dtypes."""
    d = "float64"
    x = g.data("x", g.rand([3, 5]))
    xd = g.data("xd", g.rand([2, 4], dtype=d))
    w = [g.param("rw0", g.rand([5, 6])), g.param("rw1", g.rand([6, 4])),
         g.param("rw2", g.rand([4, 3]))]
    b = [g.param("rb0", g.rand([1, 6])), g.param("rb1", g.rand([4])),
         g.param("rb2", g.rand([1, 3]))]
    wd = [g.param("rwd0", g.rand([4, 3], dtype=d)), g.param("rwd1", g.rand([3, 2], dtype=d))]
    bd = [g.param("rbd0", g.rand([3], dtype=d)), g.param("rbd1", g.rand([2], dtype=d))]
    r3 = g.op("fusion_repeated_fc_relu", {"X": x, "W": w, "Bias": b},
              outs={"ReluOut": 2, "Out": 1})
    r2 = g.op("fusion_repeated_fc_relu", {"X": xd, "W": wd, "Bias": bd},
              outs={"ReluOut": 1, "Out": 1}, dtype=d)
    sy = g.data("sy", g.rand([5, 4]))
    syd = g.data("syd", g.rand([4, 3], dtype=d))
    outs = {"SquaredX": 1, "SquaredY": 1, "SquaredXY": 1, "Out": 1}
    s1 = g.op("fusion_squared_mat_sub", {"X": x, "Y": sy}, dict(scalar=0.5), outs=outs)
    s2 = g.op("fusion_squared_mat_sub", {"X": xd, "Y": syd}, dict(scalar=-2.0), outs=outs,
              dtype=d)
    g.fetch(*r3["ReluOut"], *r3["Out"], *r2["ReluOut"], *r2["Out"],
            *[s1[k][0] for k in outs], *[s2[k][0] for k in outs])


@case(rtol=1e-5, atol=1e-6, note="Paddle's self_dp_attention computes in float32 for both "
      "dtypes (float64 values rounded to float32)")
def self_dp_attention_modes(g):
    """self_dp_attention on [2, 5, 3, 2, 4] with alpha 0.5, float32; on [1, 3, 3, 3, 2] with
    alpha -1.2 (three heads), float64."""
    x = g.data("x", g.rand([2, 5, 3, 2, 4], -2, 2))
    xd = g.data("xd", g.rand([1, 3, 3, 3, 2], -2, 2, dtype="float64"))
    g.fetch(g.op("self_dp_attention", {"X": x}, dict(alpha=0.5, head_number=2)),
            g.op("self_dp_attention", {"X": xd}, dict(alpha=-1.2, head_number=3),
                 dtype="float64"))


ONEDNN_ACTS = [("", 0.0, 0.0), ("relu", 0.0, 0.0), ("leaky_relu", 0.2, 0.0),
               ("relu6", 0.0, 6.0), ("clip", -0.3, 0.4), ("swish", 1.5, 0.0),
               ("hard_swish", 1.0 / 6, 0.5), ("hard_sigmoid", 0.2, 0.5), ("sigmoid", 0.0, 0.0),
               ("tanh", 0.0, 0.0), ("gelu", 0.0, 0.0), ("gelu_tanh", 0.0, 0.0),
               ("gelu_erf", 0.0, 0.0), ("mish", 0.0, 0.0), ("abs", 0.0, 0.0), ("sqrt", 0.0, 0.0)]


@case(onednn=True)
def fused_softplus_acts(g):
    """fused_softplus (oneDNN only: run by Paddle's predictor) with beta 1, 2 and 0.5 and
    every fuse_activation oneDNN maps (sqrt on softplus's positive output)."""
    x = g.data("x", g.rand([3, 5], -4, 4))
    outs = []
    for k, (act, al, be) in enumerate(ONEDNN_ACTS):
        beta = [1.0, 2.0, 0.5][k % 3]
        outs.append(g.op("fused_softplus", {"X": x},
                         dict(beta=beta, threshold=20.0, fuse_activation=act, fuse_alpha=al,
                              fuse_beta=be)))
        set_float64_attrs(["beta", "threshold", "fuse_alpha", "fuse_beta"])
    g.fetch(*outs)


@case(**EXACT, onednn=True, note="fused_transpose moves values; scale 0.5 and 2 are exact")
def fused_transpose_modes(g):
    """fused_transpose (oneDNN only: run by Paddle's predictor): 3-D permutations; squeeze2
    of two axes (one negative) fused before (its input used by no other op: Paddle's kernel
    resizes the input tensor itself); unsqueeze2 after, axes placed in the final rank (one
    negative); reshape2 with and without -1 after; scale 0.5 and 2; a 1-D copy (scale
    ignored, as Paddle). Not here: negative transpose axes and a 0 in fused_reshape2_shape,
    which crash Paddle 3.3.1's kernel (icore takes the first, refuses the second)."""
    x = g.data("x", g.rand([2, 3, 4]))
    xs = g.data("xs", g.rand([2, 1, 3, 1, 4]))
    xs2 = g.data("xs2", g.rand([2, 1, 3, 1, 4]))
    v = g.data("v", g.rand([5]))

    def ft(inp, axis, **kw):
        attrs = dict(axis=axis, fused_squeeze2_axes=[], fused_unsqueeze2_axes=[],
                     fused_reshape2_shape=[], scale=1.0, shift=0.0, output_data_type="")
        attrs.update(kw)
        r = g.op("fused_transpose", {"X": inp}, attrs, outs={"Out": 1, "XShape": 1})
        op = paddle.static.default_main_program().global_block().ops[-1]
        op.desc._set_attr("mkldnn_data_type", "float32")
        op.desc._set_attr("onednn_data_type", "float32")
        return r["Out"][0]
    g.fetch(ft(x, [0, 2, 1]), ft(x, [2, 0, 1]),
            ft(xs, [2, 0, 1], fused_squeeze2_axes=[1, -2]),
            ft(x, [1, 0, 2], fused_unsqueeze2_axes=[0, -1]),
            ft(x, [0, 2, 1], fused_unsqueeze2_axes=[-2, 1]),
            ft(x, [2, 1, 0], fused_reshape2_shape=[-1, 6]),
            ft(x, [1, 0, 2], fused_reshape2_shape=[2, 12]),
            ft(x, [1, 2, 0], scale=0.5), ft(xs2, [0, 1, 3, 2, 4], scale=2.0),
            ft(v, [0], scale=3.0))


def fused_matmul(g, x, y, res=None, **kw):
    attrs = dict(trans_x=False, trans_y=False, matmul_alpha=1.0, fuse_activation="",
                 fuse_alpha=0.0, fuse_beta=0.0, fused_output_scale=1.0, fused_reshape_X=[],
                 fused_transpose_X=[], fused_reshape_Y=[], fused_transpose_Y=[],
                 fused_reshape_Out=[], fused_transpose_Out=[], mkldnn_data_type="float32",
                 Scale_x=1.0, Scale_y=1.0, Scale_in_eltwise=0.0, Scale_out=1.0,
                 force_fp32_output=False)
    attrs.update(kw)
    ins = {"X": x, "Y": y}
    if res is not None:
        ins["ResidualData"] = res
    return g.op("fused_matmul", ins, attrs)


@case(note="legacy quantized models; exact float math", **EXACT)
def lm_dequantize_abs_max(g):
    """dequantize_abs_max: int8 X with max_range 127 and int16 X with max_range 32767, Scale
    [1] float32; Out = Scale * X / max_range in float."""
    x8 = g.data("x8", g.randint([3, 5], -128, 128, "int8"))
    x16 = g.data("x16", g.randint([2, 3, 4], -32768, 32768, "int16"))
    s = g.data("s", np.array([0.731], F32))
    s2 = g.data("s2", np.array([3.9], F32))
    g.fetch(g.op("dequantize_abs_max", {"X": x8, "Scale": s}, dict(max_range=127.0)),
            g.op("dequantize_abs_max", {"X": x16, "Scale": s2}, dict(max_range=32767.0)),
            g.op("dequantize_abs_max", {"X": x8, "Scale": s2}, dict(max_range=7.5)))


@case(note="legacy quantized models; values only looked up", **EXACT)
def lm_dequantize_log(g):
    """dequantize_log: every int8 value through a 128-entry Dict (negative x read Dict[x + 128]
    negated)."""
    x = g.data("x", np.arange(-128, 128).astype("int8").reshape(16, 16))
    d = g.data("dict", np.sort(g.rand([128], 0.0, 4.0)))
    g.fetch(g.op("dequantize_log", {"X": x, "Dict": d}))


@case(note="legacy quantized embeddings; exact float math", **EXACT)
def lm_lookup_table_dequant(g):
    """lookup_table_dequant: W [5, 2 + 3] rows min, max and 3 float words holding 12 uint8
    codes; Ids [2, 3, 1] and [4, 1], padding_idx 2 (a row of zeros) and -1 (none)."""
    rows = []
    for _ in range(5):
        mn = g.rng.uniform(-2.0, 0.0)
        mx = mn + g.rng.uniform(0.5, 3.0)
        codes = g.rng.randint(0, 256, 12).astype("uint8")
        codes[3] = 0  # keep every code word a finite float (no NaN bit patterns)
        codes[7] = 0
        codes[11] = 0
        rows.append(np.concatenate([np.array([mn, mx], F32), codes.view(F32)]))
    w = g.data("w", np.stack(rows).astype(F32))
    ids = g.data("ids", np.array([[[0], [2], [4]], [[1], [2], [3]]], "int64"))
    ids2 = g.data("ids2", np.array([[4], [0], [0], [3]], "int64"))
    g.fetch(g.op("lookup_table_dequant", {"W": w, "Ids": ids}, dict(padding_idx=2)),
            g.op("lookup_table_dequant", {"W": w, "Ids": ids2}, dict(padding_idx=-1)))


@case(onednn=True, note="oneDNN int8 ops (Paddle 3.3.1's predictor); integers and float "
      "math compared exactly", **EXACT)
def lm_onednn_quant(g):
    """quantize (int8 with is_negative_input, uint8 with a Shift, uint8 scaled; values on .5
    for the rounding to even and past the saturation bounds), dequantize (int8, uint8 with a
    Shift) and requantize (int8 to int8, uint8 to uint8, uint8 with Shift_in and Shift_out)."""
    xv = np.concatenate([np.arange(-8, 8, dtype=F32) + 0.5,
                         np.array([126.5, 127.5, 200.0, -200.0, 254.5, 255.5, 300.0], F32),
                         g.rand([41], -150.0, 150.0)]).astype(F32).reshape(4, 16)
    x = g.data("x", xv)
    qi = g.data("qi", np.arange(-128, 128).astype("int8").reshape(16, 16))
    qu = g.data("qu", np.arange(0, 256).astype("uint8").reshape(16, 16))

    def q(scale, shift, neg, dt):
        return g.op("quantize", {"Input": x},
                    dict(Scale=scale, Shift=shift, is_negative_input=neg,
                         output_format="NCHW", bfloat16=False),
                    outs={"Output": 1}, dtype=dt)

    def dq(v, scale, shift):
        return g.op("dequantize", {"Input": v}, dict(Scale=scale, Shift=shift),
                    outs={"Output": 1})

    def rq(v, si, so, shi, sho, dt):
        return g.op("requantize", {"Input": v},
                    dict(Scale_in=si, Scale_out=so, Shift_in=shi, Shift_out=sho),
                    outs={"Output": 1}, dtype=dt)

    g.fetch(q(1.0, 0.0, True, "int8"), q(1.0, 3.0, True, "uint8"), q(0.7, 0.0, False, "uint8"),
            q(1.3, 128.0, True, "uint8"), q(2.5, 0.0, True, "int8"),
            dq(qi, 0.3, 0.0), dq(qu, 1.7, 128.0), dq(qu, 13.7, 0.0),
            rq(qi, 2.0, 3.0, 0.0, 0.0, "int8"), rq(qi, 0.37, 11.3, 0.0, 0.0, "int8"),
            rq(qu, 1.7, 0.9, 0.0, 0.0, "uint8"), rq(qu, 2.0, 0.7, 128.0, 10.0, "uint8"),
            rq(qu, 0.5, 0.9, 3.0, 100.0, "uint8"), rq(qi, 1.0, 2.0, 0.0, 7.0, "uint8"))


@case(note="Paddle 2.6.2: 3.3.1 no longer registers similarity_focus", paddle2=True, **EXACT)
def lm_similarity_focus(g):
    """similarity_focus on X [2, 3, 4, 5] (distinct values) along axis 1 (indexes [0, 2]),
    axis 2 (indexes [3]) and axis 3 (indexes [1, 4, 0]), float32 and float64."""
    xv = g.rng.permutation(120).astype(F32).reshape(2, 3, 4, 5) / 7.0
    x = g.data("x", xv)
    xd = g.data("xd", (g.rng.permutation(36).reshape(1, 4, 3, 3) / 3.0).astype("float64"))
    g.fetch(g.op("similarity_focus", {"X": x}, dict(axis=1, indexes=[0, 2])),
            g.op("similarity_focus", {"X": x}, dict(axis=2, indexes=[3])),
            g.op("similarity_focus", {"X": x}, dict(axis=3, indexes=[1, 4, 0])),
            g.op("similarity_focus", {"X": xd}, dict(axis=1, indexes=[3, 1]), dtype="float64"),
            g.op("similarity_focus", {"X": xd}, dict(axis=3, indexes=[2]), dtype="float64"))


@case(onednn=True, note="oneDNN bfloat16 paths (Paddle 3.3.1's predictor), read back "
      "through dequantize; exact", **EXACT)
def lm_onednn_quant_bf16(g):
    """quantize with bfloat16 (scaled, rounded to nearest even), requantize of the bfloat16
    tensor (bfloat16 out) and dequantize of both to float32 (scale 1 and 0.5)."""
    x = g.data("x", g.rand([4, 8], -3.0, 3.0))
    b = g.op("quantize", {"Input": x}, dict(Scale=0.37, Shift=0.0, is_negative_input=False,
                                            output_format="NCHW", bfloat16=True),
             outs={"Output": 1}, dtype="uint16")
    r = g.op("requantize", {"Input": b}, dict(Scale_in=2.0, Scale_out=3.0, Shift_in=0.0,
                                              Shift_out=0.0), outs={"Output": 1}, dtype="uint16")
    g.fetch(g.op("dequantize", {"Input": b}, dict(Scale=1.0, Shift=0.0), outs={"Output": 1}),
            g.op("dequantize", {"Input": r}, dict(Scale=0.5, Shift=0.0), outs={"Output": 1}))


def lm_tdm_tree():
    """A TDM tree of 13 nodes (node 0 the padding node): rows item_id, layer_id, ancestor_id,
    child ids (2 per node, 0 for none); leaves 6 .. 12 carry items, node 5 has no child."""
    info = np.zeros((13, 5), "int64")
    kids = {1: (2, 3), 2: (4, 5), 3: (6, 7), 4: (8, 9), 6: (10, 11), 7: (12, 0)}
    for n in range(1, 13):
        info[n, 1] = 1 + (n > 1) + (n > 3) + (n > 7)
        if n >= 8 or n == 5:
            info[n, 0] = 100 + n
        if n in kids:
            info[n, 3:5] = kids[n]
    info[9, 0] = 0  # a leaf without an item
    return info


@case(note="PaddleRec TDM (integers, exact)", **EXACT)
def lm_tdm_child(g):
    """tdm_child: X int64 [4, 2] and int32 [3, 1] node ids (0, the padding node, a node with no
    child, leaves), TreeInfo int64 and int32, child_nums 2 (and 1), Child and LeafMask in
    int32 (dtype 2) and int64 (dtype 3)."""
    info = lm_tdm_tree()
    ti = g.data("ti", info)
    ti32 = g.data("ti32", info.astype("int32"))
    x = g.data("x", np.array([[1, 2], [0, 5], [3, 7], [6, 12]], "int64"))
    x32 = g.data("x32", np.array([[4], [1], [6]], "int32"))

    def tc(xv, t, n, dt):
        r = g.op("tdm_child", {"X": xv, "TreeInfo": t}, dict(child_nums=n, dtype=dt),
                 outs={"Child": 1, "LeafMask": 1}, dtype="int32" if dt == 2 else "int64")
        return r["Child"][0], r["LeafMask"][0]
    g.fetch(*tc(x, ti, 2, 2), *tc(x, ti32, 2, 3), *tc(x32, ti, 2, 3), *tc(x32, ti32, 1, 2))


def lm_tdm_layers():
    """A 3-layer TDM tree: layer nodes 1-2, 3-6 and 7-14 (Layer, offsets [0, 2, 6, 14]);
    Travel row i is item i's path (1 + i // 4, 3 + i // 2, 7 + i), row 8 padded (0) in its
    last layer."""
    travel = np.array([[1 + i // 4, 3 + i // 2, 7 + i] for i in range(9)], "int64")
    travel[8] = [2, 6, 0]
    layer = np.arange(1, 15, dtype="int64").reshape(-1, 1)
    return travel, layer


@case(note="Paddle 2.6.2 (attribute layer_offset_lod): the negatives are Paddle's mt19937_64 "
      "draws for seed 7 and 12345 (integers, exact)", paddle2=True, **EXACT)
def lm_tdm_sampler(g):
    """tdm_sampler: X int64 [5, 1] item ids (one with a padded layer), Travel and Layer int64
    and int32, neg_samples_num_list [1, 2, 4] over layers of 2, 4 and 8 nodes (the last draws
    4 of the 7 non-positive nodes, so it rejects repeats), output_positive true and false,
    seeds 7 and 12345, Out / Labels / Mask in int32 and int64."""
    lm_tdm_sampler_ops(g, "layer_offset_lod")


@case(note="Paddle 3.3.1 names the layer offsets layer_offset; draws as lm_tdm_sampler",
      **EXACT)
def lm_tdm_sampler_v3(g):
    """lm_tdm_sampler's ops with the attribute name Paddle 3 uses (layer_offset)."""
    lm_tdm_sampler_ops(g, "layer_offset")


def lm_tdm_sampler_ops(g, offs):
    travel, layer = lm_tdm_layers()
    tr = g.data("travel", travel)
    ly = g.data("layer", layer)
    tr32 = g.data("travel32", travel.astype("int32"))
    ly32 = g.data("layer32", layer.astype("int32"))
    x = g.data("x", np.array([[0], [5], [8], [3], [7]], "int64"))
    x32 = g.data("x32", np.array([[2], [6]], "int32"))

    def ts(xv, t, l, pos, seed, dt):
        r = g.op("tdm_sampler", {"X": xv, "Travel": t, "Layer": l},
                 dict(output_positive=pos, neg_samples_num_list=[1, 2, 4], seed=seed, dtype=dt,
                      **{offs: [0, 2, 6, 14]}),
                 outs={"Out": 1, "Labels": 1, "Mask": 1},
                 dtype="int32" if dt == 2 else "int64")
        return r["Out"][0], r["Labels"][0], r["Mask"][0]
    g.fetch(*ts(x, tr, ly, True, 7, 2), *ts(x, tr32, ly32, False, 12345, 3),
            *ts(x32, tr, ly, True, 12345, 3))


@case(onednn=True)
def fused_matmul_modes(g):
    """fused_matmul (oneDNN only: run by Paddle's predictor): batched with matmul_alpha 0.5
    and relu; trans_x and trans_y with broadcast batch dims, gelu_tanh and fused_output_scale
    1.5; ResidualData with leaky_relu; 1-D X and 1-D Y; reshape + transpose fused into X and
    Y (0 and -1 in the shapes) and transpose [0, 2, 1, 3] + reshape fused into Out; every other
    fuse_activation on a [3, 4] x [4, 5] product (sqrt on non-negative operands)."""
    x = g.data("x", g.rand([2, 3, 4]))
    y = g.data("y", g.rand([2, 4, 5]))
    xt = g.data("xt", g.rand([2, 1, 4, 3]))
    yt = g.data("yt", g.rand([3, 5, 4]))
    a = g.data("a", g.rand([3, 4]))
    b = g.data("b", g.rand([4, 6]))
    r = g.data("r", g.rand([3, 6]))
    v = g.data("v", g.rand([4]))
    xf = g.data("xf", g.rand([2, 3, 8]))
    yf = g.data("yf", g.rand([2, 5, 8]))
    p = g.data("p", g.rand([3, 4], 0.0, 1.0))
    q = g.data("q", g.rand([4, 5], 0.0, 1.0))
    w = g.data("w", g.rand([4, 5]))
    outs = [fused_matmul(g, x, y, matmul_alpha=0.5, fuse_activation="relu"),
            fused_matmul(g, xt, yt, trans_x=True, trans_y=True, fuse_activation="gelu_tanh",
                         fused_output_scale=1.5),
            fused_matmul(g, a, b, r, fuse_activation="leaky_relu", fuse_alpha=0.1),
            fused_matmul(g, v, y), fused_matmul(g, x, v, matmul_alpha=2.0),
            fused_matmul(g, xf, yf, fused_reshape_X=[2, 3, 2, 4], fused_transpose_X=[0, 2, 1, 3],
                         fused_reshape_Y=[0, 0, 2, -1], fused_transpose_Y=[0, 2, 3, 1],
                         fused_reshape_Out=[0, 0, -1], fused_transpose_Out=[0, 2, 1, 3])]
    for act, al, be in ONEDNN_ACTS:
        if act in ("", "relu", "leaky_relu", "gelu_tanh"):
            continue
        outs.append(fused_matmul(g, p if act == "sqrt" else a, q if act == "sqrt" else w,
                                 fuse_activation=act, fuse_alpha=al, fuse_beta=be))
    g.fetch(*outs)


# ---------------------------------------------------------------------------------------
# optimizers, AMP loss scaling and fill ops of training programs (opt_*): the optimizer
# outputs are new variables here (test_train runs them in place), except where Paddle leaves
# an output unwritten unless it names its input (update_loss_scaling)
# ---------------------------------------------------------------------------------------

def inplace_op(type, inputs, outputs, attrs=None):
    """Append one op whose outputs are the given existing variables (in place)."""
    helper = LayerHelper(type)
    ins = {k: (v if isinstance(v, (list, tuple)) else [v]) for k, v in inputs.items()}
    outs = {k: (v if isinstance(v, (list, tuple)) else [v]) for k, v in outputs.items()}
    helper.append_op(type=type, inputs=ins, outputs=outs, attrs=attrs or {})


def _lr(g, name, v, dtype=F32):
    return g.data(name, np.array([v], dtype))


@case()
def opt_ftrl(g):
    """ftrl (float32, the only type Paddle's CPU kernel takes) with l1 = l2 = 0 and lr_power
    -0.5 (defaults, attributes absent); l1 0.05, l2 0.1 with lr_power -0.5 (sqrt), where some
    |LinearAccumOut| fall within l1 (ParamOut 0); l1 0.02, l2 0.3 with lr_power -0.3 (pow)."""
    outs = []
    for k, attrs in enumerate([{}, dict(l1=0.05, l2=0.1, lr_power=-0.5),
                               dict(l1=0.02, l2=0.3, lr_power=-0.3)]):
        p = g.data("p%d" % k, g.rand([3, 4]))
        sq = g.data("sq%d" % k, g.rand([3, 4], 0.0, 1.0))
        lin = g.data("lin%d" % k, g.rand([3, 4], -0.1, 0.1))
        gr = g.data("g%d" % k, g.rand([3, 4], -0.2, 0.2))
        lr = _lr(g, "lr%d" % k, 0.1 + 0.05 * k)
        o = g.op("ftrl", {"Param": p, "SquaredAccumulator": sq, "LinearAccumulator": lin,
                          "Grad": gr, "LearningRate": lr}, attrs,
                 outs={"ParamOut": 1, "SquaredAccumOut": 1, "LinearAccumOut": 1})
        outs += o["ParamOut"] + o["SquaredAccumOut"] + o["LinearAccumOut"]
    g.fetch(*outs)


@case()
def opt_decayed_adagrad(g):
    """decayed_adagrad (float32 only in Paddle's CPU kernel) with its defaults (decay 0.95,
    epsilon 1e-6, attributes absent) and with decay 0.8, epsilon 1e-3."""
    outs = []
    for k, attrs in enumerate([{}, dict(decay=0.8, epsilon=1e-3)]):
        p = g.data("p%d" % k, g.rand([2, 5]))
        gr = g.data("g%d" % k, g.rand([2, 5]))
        m = g.data("m%d" % k, g.rand([2, 5], 0.0, 0.5))
        lr = _lr(g, "lr%d" % k, 0.05)
        o = g.op("decayed_adagrad", {"Param": p, "Grad": gr, "Moment": m, "LearningRate": lr},
                 attrs, outs={"ParamOut": 1, "MomentOut": 1})
        outs += o["ParamOut"] + o["MomentOut"]
    g.fetch(*outs)


@case(paddle2=True)
def opt_proximal_gd(g):
    """proximal_gd (Paddle 2.6.2 only; float32): l1 = l2 = 0 (attributes absent); l1 0.5,
    l2 0.1, where some |Param - lr Grad| fall below lr l1 (ParamOut 0) and the signs of the
    rest are kept; l1 0, l2 0.3 (only the l2 division)."""
    outs = []
    for k, attrs in enumerate([{}, dict(l1=0.5, l2=0.1), dict(l1=0.0, l2=0.3)]):
        p = g.data("p%d" % k, g.rand([3, 4]))
        gr = g.data("g%d" % k, g.rand([3, 4]))
        lr = _lr(g, "lr%d" % k, 0.2)
        outs.append(g.op("proximal_gd", {"Param": p, "Grad": gr, "LearningRate": lr}, attrs,
                         outs={"ParamOut": 1}))
    g.fetch(*outs)


@case()
def opt_dpsgd(g):
    """dpsgd with fixed seeds (Paddle reseeds std::minstd_rand with `seed` every run, so the
    Gaussian noise is reproducible): float32 with the gradient norm above clip (scaled) and
    sigma 1; float32 with a large seed, clip above the norm, sigma 0.5; float64 with sigma 2;
    sigma 0 (no noise) in float32."""
    outs = []
    for k, (dt, attrs) in enumerate([
            (F32, dict(clip=0.5, batch_size=4.0, sigma=1.0, seed=7)),
            (F32, dict(clip=100.0, batch_size=16.0, sigma=0.5, seed=2147483000)),
            ("float64", dict(clip=1.0, batch_size=8.0, sigma=2.0, seed=12345)),
            (F32, dict(clip=0.3, batch_size=2.0, sigma=0.0, seed=99))]):
        p = g.data("p%d" % k, g.rand([3, 4], dtype=dt))
        gr = g.data("g%d" % k, g.rand([3, 4], dtype=dt))
        lr = _lr(g, "lr%d" % k, 0.1, dt)
        outs.append(g.op("dpsgd", {"Param": p, "Grad": gr, "LearningRate": lr}, attrs,
                         outs={"ParamOut": 1}, dtype=dt))
    g.fetch(*outs)


def _avg_acc(g, k, dt, nacc, old, nupd, attrs):
    """One average_accumulates in place, as ModelAverage writes it (Paddle's CPU kernel
    writes the counters into the input's memory: new output variables hold none)."""
    p = g.data("p%d" % k, g.rand([2, 3], dtype=dt))
    s = [g.data("s%d_%d" % (k, j), g.rand([2, 3], -3.0, 3.0, dtype=dt)) for j in (1, 2, 3)]
    cnt = [g.data(n % k, np.array([v], "int64"))
           for n, v in (("na%d", nacc), ("no%d", old), ("nu%d", nupd))]
    inplace_op("average_accumulates",
               {"param": p, "in_sum_1": s[0], "in_sum_2": s[1], "in_sum_3": s[2],
                "in_num_accumulates": cnt[0], "in_old_num_accumulates": cnt[1],
                "in_num_updates": cnt[2]},
               {"out_sum_1": s[0], "out_sum_2": s[1], "out_sum_3": s[2],
                "out_num_accumulates": cnt[0], "out_old_num_accumulates": cnt[1],
                "out_num_updates": cnt[2]}, attrs)
    return s + cnt


@case(**EXACT, note="sums of two values and copies: exact")
def opt_average_accumulates(g):
    """average_accumulates (ModelAverage's accumulator), float32: a plain accumulation (the
    window not yet full: num_accumulates below min_average_window); the window full by
    average_window (num_accumulates + 1 >= num_updates x 0.15 > min) so the sums move to sum_3
    and restart; the window full by max_average_window (smaller than num_updates x
    average_window)."""
    outs = []
    outs += _avg_acc(g, 0, F32, 3, 0, 20, dict(average_window=0.5, min_average_window=10,
                                               max_average_window=100))
    outs += _avg_acc(g, 1, F32, 14, 5, 99, dict(average_window=0.15, min_average_window=4,
                                                max_average_window=1000))
    outs += _avg_acc(g, 2, F32, 6, 2, 500, dict(average_window=0.5, min_average_window=2,
                                                max_average_window=7))
    g.fetch(*outs)


@case(**EXACT, note="sums of two values and copies: exact")
def opt_average_accumulates_spill(g):
    """average_accumulates: num_updates reaching 16384 (sum_1, with this step's param, moves to
    sum_2) in float32; the same with the window full at once, in float64; float64
    with min_average_window holding the window open (num_accumulates + 1 below it although
    above num_updates x average_window)."""
    outs = []
    outs += _avg_acc(g, 3, F32, 3, 9, 16383, dict(average_window=0.5, min_average_window=10,
                                                  max_average_window=1000))
    outs += _avg_acc(g, 4, "float64", 8, 1, 16383, dict(average_window=0.1,
                                                        min_average_window=4,
                                                        max_average_window=9))
    outs += _avg_acc(g, 5, "float64", 5, 1, 10, dict(average_window=0.1,
                                                     min_average_window=8,
                                                     max_average_window=100))
    g.fetch(*outs)


def _cfu(g, k, dt, xs, scale):
    xv = [g.data("x%d_%d" % (k, j), v.astype(dt)) for j, v in enumerate(xs)]
    s = g.data("scale%d" % k, np.array([scale], dt))
    o = g.op("check_finite_and_unscale", {"X": xv, "Scale": s},
             outs={"Out": len(xv), "FoundInfinite": 1}, dtype=dt)
    o["FoundInfinite"][0].desc.set_dtype(paddle.base.core.VarDesc.VarType.BOOL)
    return o["Out"] + o["FoundInfinite"]


@case()
def opt_check_finite_and_unscale(g):
    """check_finite_and_unscale: float32, all finite (Out = X / 3 as X times the rounded
    reciprocal); an inf in the second of three (the first stays unscaled, the second and
    third become X * 0: NaN at the inf); a NaN in the first; float64 all finite and with an
    inf in the last."""
    outs = []
    a, b, c = g.rand([2, 3]), g.rand([4]), g.rand([3, 1])
    b_inf = b.copy()
    b_inf[2] = np.inf
    a_nan = a.copy()
    a_nan[1, 1] = np.nan
    outs += _cfu(g, 0, F32, [a, b, c], 3.0)
    outs += _cfu(g, 1, F32, [a, b_inf, c], 1024.0)
    outs += _cfu(g, 2, F32, [a_nan, b], 0.5)
    outs += _cfu(g, 3, "float64", [a, b], 7.0)
    c_inf = c.copy()
    c_inf[0, 0] = -np.inf
    outs += _cfu(g, 4, "float64", [a, c_inf], 7.0)
    g.fetch(*outs)


def _uls(g, k, dt, found, prev, good, bad, attrs, stop=None):
    x = [g.data("x%d_%d" % (k, j), g.rand(s, dtype=dt)) for j, s in enumerate(([2, 3], [4]))]
    f = g.data("found%d" % k, np.array([found], "bool"))
    pv = g.data("prev%d" % k, np.array([prev], dt))
    gi = g.data("good%d" % k, np.array([good], "int32"))
    bi = g.data("bad%d" % k, np.array([bad], "int32"))
    ins = {"X": x, "FoundInfinite": f, "PrevLossScaling": pv, "InGoodSteps": gi,
           "InBadSteps": bi}
    if stop is not None:
        ins["StopUpdate"] = g.data("stop%d" % k, np.array([stop], "bool"))
    inplace_op("update_loss_scaling", ins,
               {"Out": x, "LossScaling": pv, "OutGoodSteps": gi, "OutBadSteps": bi}, attrs)
    return x + [pv, gi, bi]


ULS = dict(incr_every_n_steps=3, decr_every_n_nan_or_inf=2, incr_ratio=2.0, decr_ratio=0.5)


@case(**EXACT, note="zeros, copies and one product per step: exact")
def opt_update_loss_scaling(g):
    """update_loss_scaling in place (as AMP programs write it: Paddle leaves an output it
    does not change unwritten), float32, infinite found: bad steps reaching
    decr_every_n_nan_or_inf (the scale halves, Out zeroed); the same from 1.5 (clamped to 1);
    bad steps not reaching it (bad + 1, good reset)."""
    outs = []
    outs += _uls(g, 0, F32, True, 1024.0, 2, 1, ULS)
    outs += _uls(g, 1, F32, True, 1.5, 0, 1, ULS)
    outs += _uls(g, 2, F32, True, 64.0, 2, 0, ULS)
    g.fetch(*outs)


@case(**EXACT, note="copies and one product per step: exact")
def opt_update_loss_scaling_good(g):
    """update_loss_scaling, float32, nothing infinite: good steps reaching incr_every_n_steps
    (the scale doubles, Out = X); the same from 3e38 (inf: the scale kept); good steps below
    it (good + 1, bad reset)."""
    outs = []
    outs += _uls(g, 3, F32, False, 512.0, 2, 1, ULS)
    outs += _uls(g, 4, F32, False, 3e38, 2, 0, ULS)
    outs += _uls(g, 5, F32, False, 8.0, 0, 1, ULS)
    g.fetch(*outs)


@case(**EXACT, note="zeros, copies and one product per step: exact")
def opt_update_loss_scaling_stop(g):
    """update_loss_scaling: the stop_update attribute true (found: Out zeroed, the scale and
    step counts kept); the StopUpdate input true over a false attribute; StopUpdate false
    over a true attribute (updates)."""
    outs = []
    outs += _uls(g, 0, F32, True, 1024.0, 2, 1, dict(ULS, stop_update=True))
    outs += _uls(g, 1, F32, False, 1024.0, 2, 1, dict(ULS, stop_update=False), stop=True)
    outs += _uls(g, 2, F32, True, 1024.0, 2, 1, dict(ULS, stop_update=True), stop=False)
    g.fetch(*outs)


@case(**EXACT, note="zeros, copies and one product per step: exact")
def opt_update_loss_scaling_f64(g):
    """update_loss_scaling: incr_every_n_steps and decr_every_n_nan_or_inf 1 (every step
    moves the scale) with ratios 4 and 0.25, found, in float32; float64 (PrevLossScaling
    float64 too) found with the scale decreasing and not found with it growing."""
    outs = []
    outs += _uls(g, 3, F32, True, 100.0, 5, 0, dict(incr_every_n_steps=1,
                                                    decr_every_n_nan_or_inf=1,
                                                    incr_ratio=4.0, decr_ratio=0.25))
    outs += _uls(g, 4, "float64", True, 96.0, 1, 1, ULS)
    outs += _uls(g, 5, "float64", False, 96.0, 2, 0, ULS)
    g.fetch(*outs)


@case(**EXACT, paddle2=True, note="zeros: exact")
def opt_fill_zeros_like2(g):
    """fill_zeros_like2 (Paddle 2.6.2 only): zeros of X's dims in each dtype its CPU kernel
    takes (bool, int32, int64, float32, float64, complex64, complex128) from a float32 X, one
    from an int64 X, and the default dtype (float32, attribute absent)."""
    x = g.data("x", g.rand([2, 3]))
    xi = g.data("xi", g.randint([4], 0, 9, "int64"))
    outs = []
    for dt, code in (("bool", 0), ("int32", 2), ("int64", 3), (F32, 5), ("float64", 6),
                     ("complex64", 23), ("complex128", 24)):
        z = g.op("fill_zeros_like2", {"X": x}, {"dtype": code}, dtype=dt)
        if dt.startswith("complex"):  # compared as the [.., 2] real view
            z = g.op("as_real", {"X": z}, dtype=F32 if dt == "complex64" else "float64")
        outs.append(z)
    outs.append(g.op("fill_zeros_like2", {"X": xi}, {"dtype": 6}, dtype="float64"))
    outs.append(g.op("fill_zeros_like2", {"X": x}))
    g.fetch(*outs)


@case(**EXACT, note="meshgrid only copies values: exact")
def meshgrid_modes(g):
    """Three 1-D inputs and a 0-D one (one element), float32; a single int64 input (a copy),
    as PicoDet's anchor grid uses meshgrid."""
    a = g.data("a", g.rand([3]))
    b = g.data("b", g.rand([4]))
    c = g.data("c", g.rand([]))
    d = g.data("d", g.rand([2]))
    i = g.data("i", g.randint([5], -9, 9, "int64"))
    m = g.op("meshgrid", {"X": [a, b, c, d]}, outs={"Out": 4})
    one = g.op("meshgrid", {"X": [i]}, outs={"Out": 1}, dtype="int64")
    g.fetch(*m["Out"], one)


def strip_callstacks(path):
    """Drop op_callstack at the protobuf level: re-serializing through Paddle's Program would
    add default attributes that Paddle did not write."""
    from paddle.base.proto import framework_pb2
    with open(path, "rb") as f:
        prog = framework_pb2.ProgramDesc.FromString(f.read())
    for block in prog.blocks:
        for op in block.ops:
            keep = [a for a in op.attrs if a.name != "op_callstack"]
            del op.attrs[:]
            op.attrs.extend(keep)
    with open(path, "wb") as f:
        f.write(prog.SerializeToString())


def write_case(out_dir, name, exe, feeds, rtol, atol, notes, got=None):
    """Run the saved model.pdmodel with Paddle on feeds (name -> array) and write the npy
    files and case.txt. got: Paddle's outputs already computed (unsaved cases)."""
    d = os.path.join(out_dir, name)
    prefix = os.path.join(d, "model")
    strip_callstacks(prefix + ".pdmodel")
    prog, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
    if got is None:
        got = exe.run(prog, feed={n: feeds[n] for n in feed_names}, fetch_list=fetch_targets,
                      return_numpy=False)
    lines = ["# written by tools/gen_paddle_oracle.py with PaddlePaddle %s" % paddle.__version__]
    lines += ["# " + n for n in notes if n]
    lines.append("model model.pdmodel")
    has_params = os.path.exists(prefix + ".pdiparams")
    lines.append("params file model.pdiparams" if has_params else "params none")
    # a case regenerated with fewer feeds or fetches leaves no stale files behind
    for f in os.listdir(d):
        if re.fullmatch(r"(in|out)\d+\.npy", f):
            os.remove(os.path.join(d, f))
    for k, n in enumerate(feed_names):
        np.save(os.path.join(d, "in%d.npy" % k), feeds[n])
        lines.append("feed %s in%d.npy" % (n, k))
    for k, (var, val) in enumerate(zip(fetch_targets, got)):
        np.save(os.path.join(d, "out%d.npy" % k), np.array(val))
        lines.append("fetch %s out%d.npy" % (var.name, k))
    lines.append("rtol %r" % rtol)
    lines.append("atol %r" % atol)
    ops = sorted({op.type for op in prog.global_block().ops})
    lines.append("ops " + " ".join(ops))
    with open(os.path.join(d, "case.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return got, fetch_targets


def fill_params(prog, scope, name, given, only_bn=False):
    """Deterministic values for every persistable of prog: given ones, else seeded uniform
    (batch_norm variances positive). only_bn: replace only batch_norm's four inputs."""
    bn = {}
    for op in prog.global_block().ops:
        if op.type == "batch_norm":
            for slot, (lo, hi) in (("Scale", (0.5, 1.5)), ("Bias", (-0.5, 0.5)),
                                   ("Mean", (-0.5, 0.5)), ("Variance", (0.5, 1.5))):
                for v in op.input(slot):
                    bn[v] = (lo, hi)
    for v in sorted(prog.list_vars(), key=lambda v: v.name):
        if not v.persistable or v.name in ("feed", "fetch") or scope.find_var(v.name) is None:
            continue
        if only_bn and v.name not in bn:
            continue
        t = scope.find_var(v.name).get_tensor()
        cur = np.array(t)
        if v.name in given:
            val = given[v.name]
        else:
            lo, hi = bn.get(v.name, (-0.5, 0.5))
            val = np.random.RandomState(seed_of(name, v.name)).uniform(lo, hi, cur.shape)
        t.set(np.asarray(val, cur.dtype).reshape(cur.shape), paddle.CPUPlace())


def set_training(path):
    """Set every op's is_test attribute in the saved program at path to false."""
    from paddle.base.proto import framework_pb2
    with open(path, "rb") as f:
        prog = framework_pb2.ProgramDesc.FromString(f.read())
    for block in prog.blocks:
        for op in block.ops:
            for a in op.attrs:
                if a.name == "is_test":
                    a.b = False
    with open(path, "wb") as f:
        f.write(prog.SerializeToString())


def run_onednn_predictor(prefix, feeds):
    """Paddle's outputs for the saved model prefix.pdmodel from its inference predictor with
    oneDNN on (see case(onednn=True)), in the order of the model's fetch targets."""
    from paddle import inference
    exe = paddle.static.Executor(paddle.CPUPlace())
    strip_callstacks(prefix + ".pdmodel")
    _, _, fetch_targets = paddle.static.load_inference_model(prefix, exe)
    config = inference.Config()
    config.set_prog_file(prefix + ".pdmodel")
    if os.path.exists(prefix + ".pdiparams"):
        config.set_params_file(prefix + ".pdiparams")
    config.disable_gpu()
    config.switch_ir_optim(False)
    config.enable_mkldnn()
    config.enable_new_ir(True)
    config.enable_new_executor(True)
    pred = inference.create_predictor(config)
    for n in pred.get_input_names():
        pred.get_input_handle(n).copy_from_cpu(feeds[n])
    pred.run()
    return [pred.get_output_handle(v.name).copy_to_cpu() for v in fetch_targets]


def set_float64_attrs(names):
    """Give the last op appended its float attributes `names` as FLOAT64 attributes: the PIR
    program translator wants doubles where the op's PIR definition has them (fused_softplus's
    beta, threshold, fuse_alpha, fuse_beta)."""
    op = paddle.static.default_main_program().global_block().ops[-1]
    for n in names:
        op.desc._set_float64_attr(n, float(op.attr(n)))


def gen_op_case(out_dir, name, spec):
    paddle.enable_static()
    main_prog, startup = paddle.static.Program(), paddle.static.Program()
    g = Graph(name)
    with paddle.static.program_guard(main_prog, startup), paddle.utils.unique_name.guard():
        paddle.seed(seed_of(name))
        spec["build"](g)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        fill_params(main_prog, scope, name, g.params)
        os.makedirs(os.path.join(out_dir, name), exist_ok=True)
        paddle.static.save_inference_model(os.path.join(out_dir, name, "model"),
                                           [v for v, _ in g.feeds], g.fetches, exe,
                                           program=main_prog,
                                           **({"legacy_format": True} if spec.get("legacy")
                                              else {}))
        feeds = {v.name: val for v, val in g.feeds}
        if spec.get("train"):
            set_training(os.path.join(out_dir, name, "model.pdmodel"))
        doc = (spec["build"].__doc__ or "").split("\n")
        got = None
        if spec.get("unsaved"):
            got = exe.run(main_prog, feed=feeds, fetch_list=g.fetches, return_numpy=False)
        if spec.get("onednn"):
            got = run_onednn_predictor(os.path.join(out_dir, name, "model"), feeds)
        write_case(out_dir, name, exe, feeds, spec["rtol"], spec["atol"],
                   [" ".join(s.strip() for s in doc), spec["note"]], got)


# ---------------------------------------------------------------------------------------
# MobileNetV2
# ---------------------------------------------------------------------------------------

MNV2_SCALE, MNV2_CLASSES = 0.5, 10


def gen_mobilenet_v2(out_dir, name="mobilenet_v2"):
    """paddle.vision.models.mobilenet_v2(scale=0.5, num_classes=10) in eval mode, saved with
    paddle.jit.save, and Paddle's output for a batch of 2. Scale 0.5 and 10 classes keep the
    parameters at 2.9 MB (the full model is 14 MB)."""
    from paddle.vision.models import mobilenet_v2
    paddle.disable_static()
    paddle.seed(20240611)
    model = mobilenet_v2(scale=MNV2_SCALE, num_classes=MNV2_CLASSES)
    model.eval()
    # batch_norm's statistics and affine terms start as 0 and 1: replace them, seeded.
    for lname, layer in sorted(model.named_sublayers(), key=lambda kv: kv[0]):
        if isinstance(layer, paddle.nn.BatchNorm2D):
            rng = np.random.RandomState(seed_of(name, lname))
            c = layer.weight.shape[0]
            layer.weight.set_value(rng.uniform(0.5, 1.5, c).astype(F32))
            layer.bias.set_value(rng.uniform(-0.5, 0.5, c).astype(F32))
            layer._mean.set_value(rng.uniform(-0.5, 0.5, c).astype(F32))
            layer._variance.set_value(rng.uniform(0.5, 1.5, c).astype(F32))
    x = np.random.RandomState(seed_of(name, "x")).uniform(-1, 1, (2, 3, 224, 224)).astype(F32)
    want_dy = model(paddle.to_tensor(x)).numpy()
    # The same in float64: how far float32 itself is from the exact answer.
    model64 = mobilenet_v2(scale=MNV2_SCALE, num_classes=MNV2_CLASSES)
    model64.set_state_dict(model.state_dict())
    model64.to(dtype="float64")
    model64.eval()
    want64 = model64(paddle.to_tensor(x.astype(np.float64))).numpy()
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    paddle.jit.save(model, os.path.join(d, "model"),
                    input_spec=[paddle.static.InputSpec([None, 3, 224, 224], F32, "x")])
    info = os.path.join(d, "model.pdiparams.info")
    if os.path.exists(info):
        os.remove(info)  # Python-side bookkeeping for paddle.jit.load, not read by icore
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    err32 = np.abs(want_dy.astype(np.float64) - want64)
    # Tolerance: float32 against float64 is off by err32 at most; icore's float32 may be off
    # as much the other way, with another summation order: allow 4x, relative to the logits'
    # scale (each logit sums ~1000 products, so a relative bound per logit means nothing for
    # the ones near zero).
    scale = float(np.abs(want64).max())
    atol = float("%.1g" % max(4 * err32.max(), 1e-6 * scale))
    with paddle.static.scope_guard(scope):
        got, _ = write_case(out_dir, name, exe, {"x": x}, 1e-4, atol, [
            "paddle.vision.models.mobilenet_v2(scale=%g, num_classes=%d), eval mode, Paddle's "
            "initial conv/fc weights (paddle.seed 20240611), seeded batch_norm statistics and "
            "affine terms; saved with paddle.jit.save, input x [None, 3, 224, 224], batch 2"
            % (MNV2_SCALE, MNV2_CLASSES),
            "float32 vs float64 in Paddle: max |diff| %.3g with logits up to %.3g; atol is 4x "
            "that" % (err32.max(), scale)])
    diff = np.abs(np.array(got[0]) - want_dy).max()
    if diff > 1e-5 * max(1.0, scale):
        sys.exit("mobilenet_v2: the saved program gives %g away from the dygraph model" % diff)
    print("%s: float32 vs float64 max |diff| %.3g, logits up to %.3g, atol %g" %
          (name, err32.max(), scale, atol))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    args = sys.argv[1:]
    out_dir = os.path.join(here, "..", "tests", "data", "paddle_oracle")
    if args and not (args[0] in CASES or args[0] == "mobilenet_v2"):
        out_dir = args.pop(0)
    paddle.enable_static()
    if paddle.framework.in_pir_mode():
        sys.exit("run with FLAGS_enable_pir_api=0: this writes legacy ProgramDesc files")
    names = sorted(CASES) + ["mobilenet_v2"]
    for n in args:
        if n not in names:
            sys.exit("no case %s; cases: %s" % (n, " ".join(names)))
    os.makedirs(out_dir, exist_ok=True)
    paddle2 = paddle.__version__.startswith("2.")
    for n in names:
        if args and n not in args:
            continue
        if n != "mobilenet_v2" and CASES[n].get("paddle2") != paddle2:
            if args:
                sys.exit("%s needs Paddle %s (this is %s)" %
                         (n, "2.6.2" if CASES[n].get("paddle2") else "3.3.1", paddle.__version__))
            print("skipped", n, "(written with Paddle %s)" %
                  ("2.6.2" if CASES[n].get("paddle2") else "3.3.1"))
            continue
        if n == "mobilenet_v2":
            gen_mobilenet_v2(out_dir)
        else:
            gen_op_case(out_dir, n, CASES[n])
        print("wrote", n)
    with open(os.path.join(out_dir, "cases.txt"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
