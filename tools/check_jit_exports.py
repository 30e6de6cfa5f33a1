#!/usr/bin/env python3
"""Export Layers the way Paddle 3 users do (paddle.jit.save: a PIR .json program, the default
since Paddle 3.0) and check that icore runs them and computes what Paddle Inference does.

    FLAGS_enable_pir_api=1 /path/to/paddle-venv/bin/python tools/check_jit_exports.py \
        build/tools/icore WORK_DIR [CASE...]

Paddle 3.3.1 (CPU). Run by another release's Python (a venv with `pip install
paddlepaddle==VER`) it checks what that release writes: 3.0.0b2 to 3.2.2 (PIR versions 1 to
3) pass every case tried. Each case: a Layer (paddle.vision models with their random
initialization, with batch-norm statistics made non-trivial; small transformer, ERNIE-style,
ViT, LSTM/GRU, segmentation, U-Net, TCN, attention, detection head, einsum, deformable
sampling, a grab bag of tensor ops, if/while, a tensor array, the ops whose attribute types
changed between PIR versions, DBNet- and CRNN-like OCR networks), saved to
WORK_DIR/CASE/inference.json + .pdiparams, run by Paddle Inference (IR optimizations and
oneDNN off) on seeded inputs, then by `icore run --out`; every fetch is compared (integers
exactly, floats within 1e-4 relative above 1). Where Paddle Inference cannot load what its
own release saved (3.0.x: Layers without parameters; 3.0.0b2: pd_op.rnn), the reference is
the Layer's eager outputs, and a line says so. With FLAGS_enable_pir_api=0 the same Layers
are saved as .pdmodel (Paddle 3.3.1's legacy dygraph-to-static path fails on several of
them: those are reported as export failures, not icore's). Prints one line per case and a
summary, and exits 1 if icore failed or differed on any. Not part of CI (it needs Paddle);
results in the README ("Model families").
"""
import os
import subprocess
import sys

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.static import InputSpec

class TinyTransformer(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 32); self.pos = nn.Embedding(16, 32)
        layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, activation="gelu", normalize_before=True)
        self.enc = nn.TransformerEncoder(layer, 2); self.head = nn.Linear(32, 5)
    def forward(self, ids):
        pos = paddle.arange(ids.shape[1]).unsqueeze(0)
        h = self.enc(self.emb(ids) + self.pos(pos))
        return F.softmax(self.head(h.mean(axis=1)), -1)

class Seq(nn.Layer):
    def __init__(self, cell):
        super().__init__()
        self.rnn = (nn.LSTM if cell == "lstm" else nn.GRU)(16, 24, num_layers=2, direction="bidirect")
        self.fc = nn.Linear(48, 3)
    def forward(self, x):
        y, _ = self.rnn(x); return self.fc(y[:, -1])

class Seg(nn.Layer):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2D(3, 8, 3, 2, 1); self.bn = nn.BatchNorm2D(8); self.c2 = nn.Conv2D(8, 16, 3, 2, 1)
        self.up = nn.Conv2DTranspose(16, 8, 4, 2, 1); self.head = nn.Conv2D(16, 4, 1)
    def forward(self, x):
        a = F.relu(self.bn(self.c1(x))); b = F.relu6(self.c2(a))
        u = self.up(b); y = self.head(paddle.concat([u, a], 1))
        y = F.interpolate(y, size=x.shape[2:], mode="bilinear", align_corners=False)
        return paddle.argmax(y, 1), F.softmax(y, 1)

class Attn(nn.Layer):
    def __init__(self):
        super().__init__()
        self.mha = nn.MultiHeadAttention(32, 4); self.ln = nn.LayerNorm(32); self.fc = nn.Linear(32, 32)
    def forward(self, x, mask):
        h = self.mha(x, x, x, attn_mask=mask)
        h = self.ln(x + h)
        z = F.silu(self.fc(h))
        return z.max(axis=1), paddle.topk(z[:, :, 0], 3)[1]


class ViT(nn.Layer):
    def __init__(self):
        super().__init__()
        self.patch = nn.Conv2D(3, 32, 8, 8)
        self.cls = self.create_parameter([1, 1, 32], default_initializer=nn.initializer.Normal())
        self.pos = self.create_parameter([1, 17, 32], default_initializer=nn.initializer.Normal())
        layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, activation="gelu", normalize_before=True)
        self.enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(32)); self.head = nn.Linear(32, 10)
    def forward(self, x):
        p = self.patch(x).flatten(2).transpose([0, 2, 1])
        cls = self.cls.expand([x.shape[0], -1, -1])
        h = self.enc(paddle.concat([cls, p], 1) + self.pos)
        return self.head(h[:, 0])

class UNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2D(3, 8, 3, padding=1, padding_mode="reflect"); self.gn = nn.GroupNorm(2, 8)
        self.c2 = nn.Conv2D(8, 16, 3, stride=2, padding=1); self.inn = nn.InstanceNorm2D(16); self.pr = nn.PReLU(16)
        self.c3 = nn.Conv2D(24, 4, 3, padding=1)
        self.pool = nn.MaxPool2D(2, 2); self.ap = nn.AvgPool2D(3, 1, 1, exclusive=False)
    def forward(self, x):
        a = F.leaky_relu(self.gn(self.c1(x)), 0.1)
        b = self.pr(self.inn(self.c2(a)))
        b = self.ap(b) + F.adaptive_avg_pool2d(b, 1)
        u = F.interpolate(b, scale_factor=2, mode="nearest")
        y = self.c3(paddle.concat([u, a], 1))
        return F.sigmoid(y), self.pool(y)

class TCN(nn.Layer):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1D(8, 16, 3, dilation=2); self.ln = nn.LayerNorm(16); self.c2 = nn.Conv1D(8, 8, 1)
    def forward(self, x):
        y = self.c1(F.pad(x, [4, 0], data_format="NCL"))
        y = self.ln(y.transpose([0, 2, 1])).transpose([0, 2, 1])
        y = F.glu(y, axis=1)
        return F.gelu(self.c2(y) + x, approximate=True)

class Misc(nn.Layer):
    def forward(self, x, idx):
        a = paddle.cumsum(x, axis=1)
        b = paddle.gather(x, idx, axis=1)
        c = paddle.where(x > 0, x, paddle.zeros_like(x) - 1.0)
        d = paddle.roll(x, 2, axis=1) * paddle.flip(x, [0])
        e = paddle.clip(x, -0.5, 0.5).pow(2.0) + paddle.sqrt(paddle.abs(x)) + paddle.erf(x)
        f = paddle.index_select(x, idx, axis=1)
        g = F.one_hot(paddle.argmax(x, -1), 6)
        h = paddle.tile(x[:, :2], [1, 3]) + paddle.expand_as(x[:, :1], x)
        m = paddle.masked_fill(x, x < -0.5, 9.0)
        s = paddle.sort(x, axis=-1, descending=True) + paddle.cumprod(x, dim=0)
        return a, b, c, d, e, f, g, h, m, s, paddle.max(x, axis=0, keepdim=True), paddle.std(x, axis=1)

class Det(nn.Layer):
    def forward(self, x, img_size):
        boxes, scores = paddle.vision.ops.yolo_box(x, img_size, anchors=[10, 13, 16, 30, 33, 23], class_num=2, conf_thresh=0.01, downsample_ratio=8)
        return boxes, scores

class Ops2(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4, padding_idx=0)
        self.c3 = nn.Conv3D(2, 3, 3, padding=1)
        self.ps = nn.PixelShuffle(2)
    def forward(self, x, ids, v):
        a = F.unfold(x, 2, 2)
        b = self.ps(x)
        c = self.emb(ids)
        d = F.normalize(v, axis=-1) + paddle.linalg.norm(v, p=2, axis=-1, keepdim=True)
        e = F.pixel_unshuffle(x, 2)
        f1, f2 = paddle.chunk(v, 2, axis=-1)
        g = paddle.stack([f1, f2], 1).sum(1)
        h = F.adaptive_max_pool2d(x, 3) + F.avg_pool2d(x, 2, 2, ceil_mode=True)[:, :, :3, :3]
        i = self.c3(x.unsqueeze(2).tile([1, 1, 3, 1, 1])[:, :2])
        j = paddle.argsort(v, axis=-1, descending=True)
        k = F.hardswish(v) * F.hardsigmoid(v) + F.mish(v) + F.softplus(v) + F.elu(v) + F.selu(v)
        l = paddle.bmm(v, v.transpose([0, 2, 1])).max(-1)
        n = F.log_softmax(v, -1)
        o = paddle.nn.functional.pad(x, [1, 1, 2, 0], mode="replicate")
        q = paddle.nn.functional.interpolate(x, scale_factor=1.5, mode="bicubic", align_corners=True)
        r = paddle.nonzero(v > 0.5)
        return a, b, c, d, e, g, h, i, j, k, l, n, o, q, r

class Ein(nn.Layer):
    def forward(self, v, w, q):
        return (paddle.einsum("bij,bjk->bik", v, w), paddle.einsum("bij->bj", v),
                paddle.einsum("...j,...j->...", v, v), paddle.einsum("ij->ji", v[0]),
                paddle.einsum("ii->", q), paddle.einsum("ii->i", q), paddle.einsum("i,j->ij", q[0], q[1]),
                paddle.einsum("bhqd,bhkd->bhqk", v.unsqueeze(1), v.unsqueeze(1)),
                paddle.einsum("bij,jk", v, q[:4, :2]), paddle.einsum("abc,cd,db->a", v, q[:4], q[:, :3]),
                paddle.einsum("bij,kj->bki", v, q[:1, :4]))

class Ernie(nn.Layer):
    def __init__(self):
        super().__init__()
        self.we = nn.Embedding(50, 32); self.te = nn.Embedding(2, 32); self.pe = nn.Embedding(16, 32)
        self.ln = nn.LayerNorm(32)
        layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, activation="gelu")
        self.enc = nn.TransformerEncoder(layer, 2); self.pool = nn.Linear(32, 32); self.cls = nn.Linear(32, 3)
    def forward(self, ids, tt, mask):
        pos = paddle.arange(ids.shape[1], dtype="int64").expand_as(ids)
        h = self.ln(self.we(ids) + self.te(tt) + self.pe(pos))
        am = (1.0 - mask.unsqueeze(1).unsqueeze(2).astype("float32")) * -1e4
        h = self.enc(h, am)
        p = paddle.tanh(self.pool(h[:, 0]))
        return F.softmax(self.cls(p), -1), h

class Deform(nn.Layer):
    def __init__(self):
        super().__init__()
        self.q = nn.Linear(16, 16); self.off = nn.Linear(16, 16)
    def forward(self, value, query):
        off = F.sigmoid(self.off(query)).reshape([1, 4, 2, 2]) * 2 - 1
        v = value.reshape([1, 4, 4, 4])
        samp = F.grid_sample(v, off, mode="bilinear", padding_mode="zeros", align_corners=False)
        logits = self.q(query)
        topv, topi = paddle.topk(logits, 3, axis=-1)
        g = paddle.gather_nd(query, paddle.stack([paddle.zeros_like(topi[:, :1]), topi[:, :1]], -1))
        inv = paddle.log(paddle.clip(F.sigmoid(logits), 1e-5, 1 - 1e-5) / (1 - paddle.clip(F.sigmoid(logits), 1e-5, 1 - 1e-5)))
        return samp, topv, topi, g, inv

class NmsNet(nn.Layer):
    def forward(self, boxes, scores):
        keep = paddle.vision.ops.nms(boxes, 0.5, scores)
        return keep

class LCNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.c = nn.Conv2D(3, 16, 3, 2, 1, bias_attr=False); self.bn = nn.BatchNorm2D(16)
        self.scale = self.create_parameter([1], default_initializer=nn.initializer.Constant(1.2))
        self.bias = self.create_parameter([1], default_initializer=nn.initializer.Constant(0.1))
        self.dw = nn.Conv2D(16, 16, 5, 1, 2, groups=16); self.se1 = nn.Conv2D(16, 4, 1); self.se2 = nn.Conv2D(4, 16, 1)
    def forward(self, x):
        y = F.hardswish(self.bn(self.c(x)) * self.scale + self.bias)
        y = self.dw(y)
        s = F.hardsigmoid(self.se2(F.relu(self.se1(F.adaptive_avg_pool2d(y, 1)))))
        return (y * s).flatten(1)

class Ctrl(nn.Layer):
    """if and while with data-dependent conditions (pd_op.if, pd_op.while)."""
    def __init__(self):
        super().__init__(); self.fc = nn.Linear(4, 4)
    def forward(self, x, n):
        i = paddle.zeros([1], "int64"); s = x
        while i < n:
            s = paddle.tanh(self.fc(s))
            if s.mean() > 0:
                s = s * 0.9
            else:
                s = s + 0.1
            i = i + 1
        if x.sum() > 0:
            y = s * 2.0
        else:
            y = s - 1.0
        return s, y, i

class TArray(nn.Layer):
    """a Python list appended in a loop: a tensor array (create_array, array_write_, ...)."""
    def __init__(self):
        super().__init__(); self.fc = nn.Linear(4, 4)
    def forward(self, x, n):
        h = self.fc(x); res = []; j = paddle.zeros([1], "int64")
        while j < n:
            res.append(h * j.astype("float32")); j = j + 1
        return paddle.concat(res, 0), res[-1]

class Patched(nn.Layer):
    """ops whose attribute types changed between PIR serializer versions (Paddle's
    serialize_deserialize/patch/*.yaml): float -> double, int32 -> int64 arrays."""
    def __init__(self):
        super().__init__(); self.gn = nn.GroupNorm(2, 4, epsilon=1e-3)
    def forward(self, x, v):
        a = F.leaky_relu(x, 0.15) + F.softplus(x, beta=2.0, threshold=1.5)
        b = paddle.logit(F.sigmoid(x), eps=1e-2)
        c = F.pad(x, [1, 2, 0, 1], mode="constant", value=0.5)
        d = self.gn(x)
        e = paddle.linalg.norm(v, p=3, axis=-1) + paddle.linalg.norm(v, p=2, axis=-1)
        f = F.max_pool2d(x, 2, 2) + F.avg_pool2d(x, 3, 2, 1)
        g = F.max_pool3d(x.unsqueeze(1), 2, 2)
        h = paddle.expand_as(v[:, :1], v)
        kv, ki = paddle.kthvalue(v, 2, axis=-1)
        r = paddle.repeat_interleave(v, 2, axis=1)
        i1 = F.interpolate(x, scale_factor=[1.5, 2.0], mode="bilinear")
        i2 = F.interpolate(x, scale_factor=2.0, mode="nearest")
        i3 = F.interpolate(v, scale_factor=1.5, mode="linear", data_format="NCW")
        i4 = F.interpolate(x.unsqueeze(2), scale_factor=[1.0, 1.5, 1.5], mode="trilinear")
        i5 = F.interpolate(x, scale_factor=1.5, mode="bicubic")
        return a, b, c, d, e, f, g, h, kv, ki, r, i1, i2, i3, i4, i5

class OcrDet(nn.Layer):
    """DBNet-like text detection: conv backbone, FPN with nearest upsampling, a head with
    Conv2DTranspose and sigmoid (PaddleOCR's det architecture in miniature)."""
    def __init__(self):
        super().__init__()
        self.s1 = nn.Sequential(nn.Conv2D(3, 8, 3, 2, 1), nn.BatchNorm2D(8), nn.Hardswish())
        self.s2 = nn.Sequential(nn.Conv2D(8, 16, 3, 2, 1, groups=8), nn.BatchNorm2D(16), nn.ReLU())
        self.s3 = nn.Sequential(nn.Conv2D(16, 32, 3, 2, 1), nn.BatchNorm2D(32), nn.ReLU())
        self.l2 = nn.Conv2D(16, 8, 1); self.l3 = nn.Conv2D(32, 8, 1)
        self.head = nn.Sequential(nn.Conv2D(16, 4, 3, padding=1), nn.BatchNorm2D(4), nn.ReLU(),
                                  nn.Conv2DTranspose(4, 4, 2, 2), nn.ReLU(), nn.Conv2DTranspose(4, 1, 2, 2))
    def forward(self, x):
        c2 = self.s2(self.s1(x)); c3 = self.s3(c2)
        p3 = self.l3(c3); p2 = self.l2(c2) + F.upsample(p3, scale_factor=2, mode="nearest")
        f = paddle.concat([p2, F.upsample(p3, scale_factor=2, mode="nearest")], 1)
        return F.sigmoid(self.head(f))

class OcrRec(nn.Layer):
    """CRNN-like text recognition: conv stack, pooling the height away, BiLSTM, CTC head."""
    def __init__(self):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2D(3, 8, 3, 1, 1), nn.BatchNorm2D(8), nn.ReLU(), nn.MaxPool2D(2, 2),
                                 nn.Conv2D(8, 16, 3, 1, 1), nn.BatchNorm2D(16), nn.ReLU(), nn.MaxPool2D((2, 1), (2, 1)))
        self.rnn = nn.LSTM(16, 16, direction="bidirect", num_layers=2); self.fc = nn.Linear(32, 11)
    def forward(self, x):
        f = self.cnn(x).mean(axis=2)
        y, _ = self.rnn(f.transpose([0, 2, 1]))
        p = F.softmax(self.fc(y), -1)
        return p, paddle.argmax(p, -1)

def vision(name, **kw):
    import paddle.vision.models as M
    return getattr(M, name)(**kw)

CASES = {
    "resnet18": (lambda: vision("resnet18", num_classes=10), [("x", [1, 3, 64, 64], "float32")]),
    "mobilenet_v3_small": (lambda: vision("mobilenet_v3_small", num_classes=10), [("x", [1, 3, 64, 64], "float32")]),
    "mobilenet_v3_large": (lambda: vision("mobilenet_v3_large", num_classes=10), [("x", [2, 3, 64, 64], "float32")]),
    "shufflenet_v2_x0_5": (lambda: vision("shufflenet_v2_x0_5", num_classes=10), [("x", [1, 3, 64, 64], "float32")]),
    "squeezenet1_1": (lambda: vision("squeezenet1_1", num_classes=10), [("x", [1, 3, 64, 64], "float32")]),
    "densenet121": (lambda: vision("densenet121", num_classes=10), [("x", [1, 3, 64, 64], "float32")]),
    "googlenet": (lambda: vision("googlenet", num_classes=10), [("x", [1, 3, 224, 224], "float32")]),
    "inception_v3": (lambda: vision("inception_v3", num_classes=10), [("x", [1, 3, 160, 160], "float32")]),
    "vgg11": (lambda: vision("vgg11", num_classes=10), [("x", [1, 3, 64, 64], "float32")]),
    "alexnet": (lambda: vision("alexnet", num_classes=10), [("x", [1, 3, 224, 224], "float32")]),
    "mobilenet_v1": (lambda: vision("mobilenet_v1", num_classes=10), [("x", [1, 3, 64, 64], "float32")]),
    "resnext50_32x4d": (lambda: vision("resnext50_32x4d", num_classes=10), [("x", [1, 3, 64, 64], "float32")]),
    "wide_resnet50_2": (lambda: vision("wide_resnet50_2", num_classes=10), [("x", [1, 3, 64, 64], "float32")]),
    "lenet": (lambda: vision("LeNet"), [("x", [2, 1, 28, 28], "float32")]),
    "transformer": (TinyTransformer, [("ids", [2, 12], "int64")]),
    "lstm": (lambda: Seq("lstm"), [("x", [2, 7, 16], "float32")]),
    "gru": (lambda: Seq("gru"), [("x", [2, 7, 16], "float32")]),
    "seg": (Seg, [("x", [1, 3, 32, 48], "float32")]),
    "vit": (ViT, [("x", [2, 3, 32, 32], "float32")]),
    "unet": (UNet, [("x", [1, 3, 16, 24], "float32")]),
    "tcn": (TCN, [("x", [2, 8, 20], "float32")]),
    "misc": (Misc, [("x", [4, 6], "float32"), ("idx", [3], "int64")]),
    "det": (Det, [("x", [1, 21, 8, 8], "float32"), ("img_size", [1, 2], "int32")]),
    "ops2": (Ops2, [("x", [2, 4, 6, 6], "float32"), ("ids", [2, 5], "int64"), ("v", [2, 3, 4], "float32")]),
    "ein": (Ein, [("v", [2, 3, 4], "float32"), ("w", [2, 4, 5], "float32"), ("q", [5, 5], "float32")]),
    "ernie": (Ernie, [("ids", [2, 10], "int64"), ("tt", [2, 10], "int64"), ("mask", [2, 10], "int64")]),
    "deform": (Deform, [("value", [1, 64], "float32"), ("query", [1, 16], "float32")]),
    "nms": (NmsNet, [("boxes", [6, 4], "float32"), ("scores", [6], "float32")]),
    "lcnet": (LCNet, [("x", [1, 3, 32, 32], "float32")]),
    "attn": (Attn, [("x", [2, 6, 32], "float32"), ("mask", [2, 4, 6, 6], "float32")]),
    "ctrl": (Ctrl, [("x", [2, 4], "float32"), ("n", [1], "int64")]),
    "tarray": (TArray, [("x", [2, 4], "float32"), ("n", [1], "int64")]),
    "patched": (Patched, [("x", [1, 4, 6, 6], "float32"), ("v", [2, 3, 4], "float32")]),
    "ocr_det": (OcrDet, [("x", [1, 3, 32, 32], "float32")]),
    "ocr_rec": (OcrRec, [("x", [1, 3, 16, 40], "float32")]),
}

def feed(shape, dt, name):
    if name == "ids": return np.random.randint(0, 10, shape).astype(dt)
    if name == "tt": return np.random.randint(0, 2, shape).astype(dt)
    if name == "mask": return (np.arange(shape[1])[None, :] < np.array([[7], [10]])).astype(dt) if dt == "int64" else np.where(np.random.rand(*shape) < 0.2, -1e9, 0).astype(dt)
    if name == "boxes":
        xy = np.random.uniform(0, 10, (shape[0], 2)); return np.concatenate([xy, xy + np.random.uniform(1, 5, (shape[0], 2))], 1).astype(dt)
    if name == "n": return np.array([3], dtype=dt)
    if name == "idx": return np.array([5, 0, 3], dtype=dt)
    if name == "img_size": return np.array([[64, 64]], dtype=dt)
    if dt == "int64": return np.random.randint(0, 100, shape).astype(dt)
    return np.random.uniform(-1, 1, shape).astype(dt)


def export(d, mk, ins):
    """Save the Layer, run Paddle Inference on seeded feeds: in_NAME.npy, outK.npy."""
    paddle.seed(0)
    np.random.seed(0)
    m = mk()
    m.eval()
    for p in m.parameters():  # non-trivial batch-norm statistics
        if "_mean" in p.name or "_variance" in p.name:
            lo, hi = (0.5, 1.5) if "variance" in p.name else (-0.2, 0.2)
            p.set_value(np.random.uniform(lo, hi, p.shape).astype("float32"))
    paddle.jit.save(m, os.path.join(d, "inference"),
                    input_spec=[InputSpec(s, dt, n) for n, s, dt in ins])
    mf = os.path.join(d, "inference.json")
    if not os.path.exists(mf):
        mf = os.path.join(d, "inference.pdmodel")
    feeds = [feed(s, dt, n) for n, s, dt in ins]
    for (n, _, _), v in zip(ins, feeds):
        np.save(os.path.join(d, "in_%s.npy" % n), v)
    try:
        ref = infer(d, mf, ins, feeds)
    except Exception as e:  # some releases cannot load what they saved: eager reference
        print("%-20s (Paddle Inference failed: %s; comparing with the Layer's eager outputs)"
              % (os.path.basename(d), str(e).strip().splitlines()[0][:100]), flush=True)
        ref = eager(m, feeds, mf)
    for k, (on, v) in enumerate(ref):
        np.save(os.path.join(d, "out%d.npy" % k), v)
    outs = [on for on, _ in ref]
    return mf, outs


def infer(d, mf, ins, feeds):
    """Paddle Inference's outputs (IR optimizations and oneDNN off): [(name, value)]."""
    import paddle.inference as pi
    params = os.path.join(d, "inference.pdiparams")
    cfg = pi.Config()
    cfg.set_prog_file(mf)
    if os.path.exists(params):  # a Layer without parameters has none
        cfg.set_params_file(params)
    cfg.disable_gpu()
    cfg.switch_ir_optim(False)
    cfg.disable_mkldnn()
    pred = pi.create_predictor(cfg)
    for (n, _, _), v in zip(ins, feeds):
        h = pred.get_input_handle(n)
        h.reshape(v.shape)
        h.copy_from_cpu(v)
    pred.run()
    return [(on, pred.get_output_handle(on).copy_to_cpu()) for on in pred.get_output_names()]


def eager(m, feeds, mf):
    """The Layer's dygraph outputs, named as the saved program's fetches (PIR: fetch_name_K)."""
    ys = m(*[paddle.to_tensor(v) for v in feeds])
    ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
    return [("fetch_name_%d" % k, y.numpy()) for k, y in enumerate(ys)]


def check(icore, d, mf, ins, outs):
    ic = os.path.join(d, "icore")
    os.makedirs(ic, exist_ok=True)
    cmd = [icore, "run", mf, "--out", ic]
    for n, _, _ in ins:
        cmd += ["--feed", "%s=%s" % (n, os.path.join(d, "in_%s.npy" % n))]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return False, "icore failed: " + (p.stderr.strip().splitlines() or ["?"])[-1]
    res, ok = [], True
    for k, on in enumerate(outs):
        ref = np.load(os.path.join(d, "out%d.npy" % k))
        path = os.path.join(ic, on.replace("/", "_") + ".npy")
        if not os.path.exists(path):
            return False, "icore wrote no %s" % on
        y = np.load(path)
        if y.shape != ref.shape:
            ok = False
            res.append("%s shape %s, Paddle's %s" % (on, y.shape, ref.shape))
        elif ref.dtype.kind in "iub":
            same = np.array_equal(y, ref)
            ok &= same
            res.append("%s %s" % (on, "exact" if same else "DIFFERS in %d" % (y != ref).sum()))
        else:
            e = float(np.max(np.abs(y.astype(np.float64) - ref) / np.maximum(1, np.abs(ref)))) \
                if ref.size else 0.0
            ok &= e <= 1e-4
            res.append("%s %.1e" % (on, e))
    return ok, "; ".join(res)


def main():
    icore, work = sys.argv[1], sys.argv[2]
    only = set(sys.argv[3:])
    bad = n_ok = n_exp = 0
    for name, (mk, ins) in CASES.items():
        if only and name not in only:
            continue
        d = os.path.join(work, name)
        os.makedirs(d, exist_ok=True)
        try:
            mf, outs = export(d, mk, ins)
        except Exception as e:  # Paddle's own export failures
            msg = [ln for ln in str(e).splitlines() if ln.strip()]
            print("%-20s Paddle export failed: %s" % (name, " | ".join(msg[-2:])[:200]), flush=True)
            continue
        ok, msg = check(icore, d, mf, ins, outs)
        bad += not ok
        n_ok += ok
        n_exp += 1
        print("%-20s %s %s" % (name, "ok  " if ok else "FAIL", msg), flush=True)
    print("Paddle %s: %d exported, %d match, %d fail" % (paddle.__version__, n_exp, n_ok, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
