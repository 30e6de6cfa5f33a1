#!/usr/bin/env python3
"""Generate tests/data/zoo/<name>/: small inputs for three real Paddle-zoo programs and Paddle
Inference 3.3.1's outputs on them, so that tests/test_zoo_seq.c can check icore end to end
against Paddle itself:

  nlp_hh_youth  a CNN text classifier over LoD sequences (lookup_table, sequence_conv,
                sequence_pool SQRT, mul, sum, softmax), real weights. Input: word ids
                int64 [N, 1] with one LoD level (3 sentences of lengths 4, 1, 6).
  lac_lac       Baidu LAC (BiGRU-CRF word segmentation: lookup_table, mul, fluid gru both
                ways, concat, crf_decoding), real weights except word_emb, which the model
                ships without: it is filled with word_emb_value(k) below (the test computes
                the same values). Input: word ids int64 [N, 1] with one LoD level.
  thisisbaiy    LSTNet (conv2d, rnn in GRU mode, skip-RNN), real weights. Input: the last
                1204 complete rows of the CSV shipped beside the model (columns ROUND(A.POWER,0) and
                YD15, the two series its output CSV predicts), z-score normalized, as
                float32 [1, 1204, 2].

Files written per model (little-endian .npy): in_<feed>.npy, out_<fetch>.npy (fetch names with
'/' as '_'), and lod.txt (feed name then offsets, one line per fed LoD level).

Run with the Paddle oracle environment (icore never depends on Paddle):
    FLAGS_enable_pir_api=0 /work/pdenv/bin/python tools/gen_zoo_seq_oracle.py [SHARED_DIR]
SHARED_DIR defaults to ../shared beside the repository (it holds models/paddle-zoo/).
"""
import csv
import os
import shutil
import struct
import sys
import tempfile

os.environ.setdefault("FLAGS_enable_pir_api", "0")

import numpy as np  # noqa: E402
import paddle.inference as pi  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def predictor(cfg):
    cfg.disable_gpu()
    cfg.switch_ir_optim(False)  # Paddle's own kernels, no fusion passes
    cfg.disable_glog_info()
    return pi.create_predictor(cfg)


def run(pred, feeds, lods):
    for name in pred.get_input_names():
        h = pred.get_input_handle(name)
        h.reshape(feeds[name].shape)
        h.copy_from_cpu(feeds[name])
        if name in lods:
            h.set_lod(lods[name])
    pred.run()
    return {n: pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()}


def save(out_dir, feeds, lods, outs):
    os.makedirs(out_dir, exist_ok=True)
    for n, v in feeds.items():
        np.save(os.path.join(out_dir, "in_%s.npy" % n), v)
    for n, v in outs.items():
        np.save(os.path.join(out_dir, "out_%s.npy" % n.replace("/", "_")), v)
    with open(os.path.join(out_dir, "lod.txt"), "w") as f:
        for n, levels in lods.items():
            for level in levels:
                f.write("%s %s\n" % (n, " ".join(str(o) for o in level)))
    print(out_dir, {n: (v.shape, float(v.reshape(-1)[0])) for n, v in outs.items()})


def word_emb_value(k):
    """Element k (row-major) of lac_lac's missing word_emb [58224, 128]: exact integer
    arithmetic, then one rounding to float32, so C computes the same bits."""
    return ((k * 2654435761) % 2001 - 1000) / 5000.0


def varint(v):
    out = b""
    while True:
        b = v & 0x7F
        v >>= 7
        out += bytes([b | (0x80 if v else 0)])
        if not v:
            return out


def save_lod_tensor(path, arr):
    """Paddle's serialized LoDTensor (no LoD) of a float32 array."""
    desc = b"\x08\x05" + b"".join(b"\x10" + varint(d) for d in arr.shape)
    with open(path, "wb") as f:
        f.write(struct.pack("<IQIi", 0, 0, 0, len(desc)) + desc)
        f.write(np.ascontiguousarray(arr, dtype="<f4").tobytes())


def lac_lac(zoo, out_root):
    src = os.path.join(zoo, "lac_lac")
    tmp = tempfile.mkdtemp()
    try:
        d = os.path.join(tmp, "lac_lac")
        shutil.copytree(src, d)
        k = np.arange(58224 * 128, dtype=np.int64)
        emb = (((k * 2654435761) % 2001 - 1000) / 5000.0).astype(np.float32).reshape(58224, 128)
        assert emb[0, 1] == np.float32(word_emb_value(1))
        save_lod_tensor(os.path.join(d, "word_emb"), emb)
        pred = predictor(pi.Config(d))
        rng = np.random.RandomState(5)
        lod = [[0, 4, 5, 11]]
        words = rng.randint(0, 58224, size=(11, 1)).astype(np.int64)
        outs = run(pred, {"words": words}, {"words": lod})
        for n in pred.get_output_names():
            print("lac_lac", n, "lod", pred.get_output_handle(n).lod())
        save(os.path.join(out_root, "lac_lac"), {"words": words}, {"words": lod}, outs)
    finally:
        shutil.rmtree(tmp)


def nlp_hh_youth(zoo, out_root):
    d = os.path.join(zoo, "nlp_hh_youth")
    pred = predictor(pi.Config(d))
    rng = np.random.RandomState(11)
    lod = [[0, 4, 5, 11]]
    words = rng.randint(0, 4734, size=(11, 1)).astype(np.int64)
    outs = run(pred, {"words": words}, {"words": lod})
    save(os.path.join(out_root, "nlp_hh_youth"), {"words": words}, {"words": lod}, outs)


def thisisbaiy(zoo, out_root):
    d = os.path.join(zoo, "thisisbaiy")
    pred = predictor(pi.Config(os.path.join(d, "model.pdmodel"), os.path.join(d, "model.pdiparams")))
    with open(os.path.join(d, "sample_0002in.csv")) as f:
        rows = list(csv.DictReader(f))
    rows = [r for r in rows if r["ROUND(A.POWER,0)"] and r["YD15"]]  # some cells are empty
    series = np.array([[float(r["ROUND(A.POWER,0)"]), float(r["YD15"])] for r in rows[-1204:]])
    series = (series - series.mean(axis=0)) / series.std(axis=0)
    x = series.astype(np.float32)[None]
    outs = run(pred, {"past_target": x}, {})
    save(os.path.join(out_root, "thisisbaiy"), {"past_target": x}, {}, outs)


def main():
    shared = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "..", "shared")
    zoo = os.path.join(shared, "models", "paddle-zoo")
    out_root = os.path.join(REPO, "tests", "data", "zoo")
    nlp_hh_youth(zoo, out_root)
    lac_lac(zoo, out_root)
    thisisbaiy(zoo, out_root)


if __name__ == "__main__":
    main()
