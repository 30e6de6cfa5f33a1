#!/usr/bin/env python3
"""Write tests/data/zoo/<model>/: Paddle Inference's outputs for a real exported detection
program from ../shared/models/paddle-zoo/, on its own sample image, so that a test can check
that icore computes what Paddle computes on real weights and real data.

    /work/pdenv/bin/python tools/gen_zoo_oracle.py [--zoo DIR] [--out DIR] [--max-side N]
                                                   [--model face_det|bdpan_restore|all]

Tested with PaddlePaddle 3.3.1 (CPU, Paddle Inference with IR optimisation off, so that
Paddle runs the program's own ops). The output is deterministic.

face_det (PaddleDetection BlazeFace, exported with feeds im_shape, image, scale_factor):
  preprocessing as its TestReader (configs/face_detection/_base_/face_reader.yml) and the
  model's own serving code do it: decode to RGB, NormalizeImage with mean [123, 117, 104],
  std 127.502231 on 0..255 values (is_scale false), Permute to CHW, batch of 1; im_shape is
  the image's [H, W] and scale_factor [1, 1]. The TestReader does not resize; to keep the
  committed input small, the image is first scaled (bilinear, PIL) so that its longer side
  is --max-side pixels (default 320; 0 keeps test.jpg's 1024 x 734).

bdpan_restore (an image restoration net with its real weights, feed inp [-1, 3, 1024, 1024]
  of RGB values in [0, 1], output the restored image of the same shape): the program is fully
  convolutional, so a small input runs; the model ships no sample, so the input is
  face_det/test.jpg scaled (bilinear, PIL) to --restore-side x --restore-side (default 64),
  RGB / 255, CHW, batch of 1.

Each directory holds
    in_<feed>.npy                                        the feeds (float32)
    out<k>.npy                                           Paddle's fetches, in fetch order
    case.txt      'feed NAME FILE', 'fetch NAME FILE', 'model', 'params' lines and the
                  tolerance: rtol 1e-4 (float32 through ~200 ops of a real network)
"""
import argparse
import os

import numpy as np
from PIL import Image
import paddle
import paddle.inference as pi

MEAN = np.array([123.0, 117.0, 104.0], dtype=np.float32)
STD = np.array([127.502231] * 3, dtype=np.float32)


def face_det_inputs(img_path, max_side):
    im = Image.open(img_path).convert("RGB")
    if max_side:
        w, h = im.size
        s = max_side / float(max(w, h))
        im = im.resize((max(1, round(w * s)), max(1, round(h * s))), Image.BILINEAR)
    x = np.asarray(im, dtype=np.float32)
    x = (x - MEAN) / STD
    x = x.transpose(2, 0, 1)[None].astype(np.float32)
    return {
        "image": np.ascontiguousarray(x),
        "im_shape": np.array([[x.shape[2], x.shape[3]]], dtype=np.float32),
        "scale_factor": np.array([[1.0, 1.0]], dtype=np.float32),
    }


def bdpan_restore_inputs(img_path, side):
    im = Image.open(img_path).convert("RGB").resize((side, side), Image.BILINEAR)
    x = np.asarray(im, dtype=np.float32) / np.float32(255.0)
    return {"inp": np.ascontiguousarray(x.transpose(2, 0, 1)[None].astype(np.float32))}


def run_paddle(model_dir, feeds):
    cfg = pi.Config(os.path.join(model_dir, "model.pdmodel"),
                    os.path.join(model_dir, "model.pdiparams"))
    cfg.disable_gpu()
    cfg.switch_ir_optim(False)
    cfg.set_cpu_math_library_num_threads(1)
    pred = pi.create_predictor(cfg)
    for name in pred.get_input_names():
        h = pred.get_input_handle(name)
        h.reshape(feeds[name].shape)
        h.copy_from_cpu(feeds[name])
    pred.run()
    return [(n, pred.get_output_handle(n).copy_to_cpu()) for n in pred.get_output_names()]


def write_case(out_dir, name, header, feeds, outs):
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    lines = ["# written by tools/gen_zoo_oracle.py with PaddlePaddle %s (Paddle Inference, "
             "IR optimisation off)" % paddle.__version__, header,
             "model %s/model.pdmodel" % name, "params %s/model.pdiparams" % name]
    for fname in sorted(feeds):
        np.save(os.path.join(d, "in_%s.npy" % fname), feeds[fname])
        lines.append("feed %s in_%s.npy" % (fname, fname))
    for k, (oname, val) in enumerate(outs):
        np.save(os.path.join(d, "out%d.npy" % k), val)
        lines.append("fetch %s out%d.npy" % (oname, k))
        print("%s %s: %s %s" % (name, oname, val.dtype, list(val.shape)))
    lines.append("rtol 1e-4")
    with open(os.path.join(d, "case.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--zoo", default=os.path.join(here, "..", "..", "shared", "models",
                                                  "paddle-zoo"))
    ap.add_argument("--out", default=os.path.join(here, "..", "tests", "data", "zoo"))
    ap.add_argument("--max-side", type=int, default=320)
    ap.add_argument("--restore-side", type=int, default=64)
    ap.add_argument("--model", default="all", choices=["face_det", "bdpan_restore", "all"])
    args = ap.parse_args()
    face_jpg = os.path.join(args.zoo, "face_det", "test.jpg")
    if args.model in ("face_det", "all"):
        feeds = face_det_inputs(face_jpg, args.max_side)
        outs = run_paddle(os.path.join(args.zoo, "face_det"), feeds)
        write_case(args.out, "face_det",
                   "# ../shared/models/paddle-zoo/face_det/test.jpg scaled to longer side %d, "
                   "BlazeFace TestReader preprocessing" % args.max_side, feeds, outs)
    if args.model in ("bdpan_restore", "all"):
        feeds = bdpan_restore_inputs(face_jpg, args.restore_side)
        outs = run_paddle(os.path.join(args.zoo, "bdpan_restore"), feeds)
        write_case(args.out, "bdpan_restore",
                   "# ../shared/models/paddle-zoo/face_det/test.jpg scaled to %d x %d, "
                   "RGB / 255" % (args.restore_side, args.restore_side), feeds, outs)


if __name__ == "__main__":
    main()
