#!/usr/bin/env python3
"""Write PIR-only JSON cases of tests/data/pir/ with an OLDER Paddle 3 release than the one
tools/gen_pir_pairs.py uses (3.3.1): programs as that release's paddle.jit.save writes them
(its own "base_code" version, op layouts and attribute spellings), with its outputs.

    /path/to/venv-of-RELEASE/bin/python tools/gen_pir_oldver.py [OUT_DIR] CASE...

Each case names the release that must write it (OLD_CASES[case][0]); the script refuses to
run a case under another one. OUT_DIR defaults to tests/data/pir. A case directory holds
model.json (as Paddle wrote it), model.pdiparams, the feeds in<k>.npy in the order of the
program's pd_op.data ops and Paddle's outputs out<k>.npy: from Paddle Inference when that
release can load its own program, else the Layer's eager outputs (the same ops). Add the case
to k_json_cases in tests/test_pir.c; json_cases.txt lists OLD_CASES after the cases of
gen_pir_pairs.py, which writes that file.

Cases:
  v1_mean   Paddle 3.0.0b2 (PIR version 1): pd_op.mean with its axes as an IntArray
            attribute "axis" (later releases pass them as an operand, a full_int_array),
            axes one, several, negative and none (all), with keepdim both ways.
  v1_attrs, v2_attrs, v3_attrs
            the same Layer written by Paddle 3.0.0 (PIR version 1), 3.1.1 (version 2) and
            3.2.2 (version 3): the ops whose attribute types Paddle's serializer patches
            (paddle/fluid/pir/serialize_deserialize/patch/*.yaml) convert on load, in their
            old spellings: leaky_relu's negative_slope, softplus's beta and threshold,
            logit's eps, pad3d's pad_value and group_norm's epsilon as a_f32 (3.3: a_f64),
            kthvalue's k as a_i32 (3.1: a_i64) and repeat_interleave without output_size
            (3.2 adds it).
"""
import json
import os
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "tests", "data", "pir")


def seed_of(name):
    return zlib.crc32(name.encode()) & 0x7FFFFFFF


def data_names(path):
    ops = json.load(open(path))["program"]["regions"][0]["blocks"][0]["ops"]
    names = []
    for op in ops:
        if op.get("#") == "1.data":
            names += [a["AT"]["D"] for a in op["A"] if a["N"] == "name"]
    return names


def save_jit(paddle, np, net, d, specs, values):
    """net with seeded parameters through paddle.jit.save into d/model.json, then the
    reference outputs for `values` (by feed name): in<k>.npy and out<k>.npy."""
    os.makedirs(d, exist_ok=True)
    paddle.seed(0)
    net.eval()
    for prm in net.parameters():
        rv = np.random.RandomState(seed_of(prm.name))
        prm.set_value(rv.uniform(-0.5, 0.5, prm.shape).astype("float32"))
    paddle.jit.save(net, os.path.join(d, "model"), input_spec=specs)
    order = data_names(os.path.join(d, "model.json"))
    try:
        import paddle.inference as pi
        cfg = pi.Config()
        cfg.set_prog_file(os.path.join(d, "model.json"))
        if os.path.exists(os.path.join(d, "model.pdiparams")):
            cfg.set_params_file(os.path.join(d, "model.pdiparams"))
        cfg.disable_gpu()
        cfg.switch_ir_optim(False)
        cfg.disable_mkldnn()
        pred = pi.create_predictor(cfg)
        for n, v in values.items():
            h = pred.get_input_handle(n)
            h.reshape(v.shape)
            h.copy_from_cpu(v)
        pred.run()
        outs = [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]
    except Exception as e:  # (3.0 betas fail to load some of their own programs)
        print(f"{d}: Paddle Inference failed ({str(e).splitlines()[0][:80]}), eager outputs")
        ys = net(*[paddle.to_tensor(values[n]) for n in order])
        outs = [y.numpy() for y in (ys if isinstance(ys, (list, tuple)) else [ys])]
    for k, n in enumerate(order):
        np.save(os.path.join(d, f"in{k}.npy"), values[n])
    for k, o in enumerate(outs):
        np.save(os.path.join(d, f"out{k}.npy"), o)


def case_v1_mean(paddle, np, d):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)

        def forward(self, x):
            h = self.fc(x)
            return (h.mean(axis=1), h.mean(axis=[0, 2], keepdim=True), h.mean(),
                    paddle.mean(h, axis=-1, keepdim=True))

    rv = np.random.RandomState(31)
    values = {"x": rv.uniform(-1, 1, (2, 3, 4)).astype("float32")}
    save_jit(paddle, np, Net(), d, [paddle.static.InputSpec([2, 3, 4], "float32", "x")], values)


def case_attrs(paddle, np, d):
    F = paddle.nn.functional

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.gn = paddle.nn.GroupNorm(2, 4, epsilon=1e-3)

        def forward(self, x, v):
            kv, ki = paddle.kthvalue(v, 2, axis=-1)
            return (F.leaky_relu(x, 0.15), F.softplus(x, beta=2.0, threshold=1.5),
                    paddle.logit(F.sigmoid(x), eps=0.05),
                    F.pad(x, [1, 2, 0, 1], mode="constant", value=0.5), self.gn(x), kv, ki,
                    paddle.repeat_interleave(v, 2, axis=1))

    rv = np.random.RandomState(32)
    values = {"x": rv.uniform(-2, 2, (1, 4, 3, 3)).astype("float32"),
              "v": rv.uniform(-1, 1, (2, 3, 4)).astype("float32")}
    spec = paddle.static.InputSpec
    save_jit(paddle, np, Net(), d, [spec([1, 4, 3, 3], "float32", "x"),
                                    spec([2, 3, 4], "float32", "v")], values)


OLD_CASES = {"v1_mean": ("3.0.0-beta2", case_v1_mean), "v1_attrs": ("3.0.0", case_attrs),
             "v2_attrs": ("3.1.1", case_attrs), "v3_attrs": ("3.2.2", case_attrs)}


def main():
    args = sys.argv[1:]
    out = DEFAULT_OUT
    if args and args[0] not in OLD_CASES:
        out = args.pop(0)
    import numpy as np
    import paddle
    paddle.set_device("cpu")
    for name in args:
        ver, fn = OLD_CASES[name]
        if paddle.__version__ != ver:
            sys.exit(f"{name} must be written by Paddle {ver}, this is {paddle.__version__}")
        fn(paddle, np, os.path.join(out, name))
        print("wrote", os.path.join(out, name))


if __name__ == "__main__":
    main()
