"""icore against Paddle Inference (oneDNN), ONNX Runtime and OpenVINO on real programs.

    python bench/peers.py BUILD_DIR WORK_DIR [--rounds R] [--iters N] [--models a,b]
                          [--batches 1,8] [--threads 1,2] [--no-contention] [--winograd]

--models also takes the paddle-zoo detectors ppocrv4_det (PP-OCRv4 DB, 1x3x640x640) and
ppyoloe_plus (PP-YOLOE+, image 1x3x640x640 and scale_factor [[1, 1]]), e.g.
    /work/pdenv/bin/python bench/peers.py build /tmp/peers --models ppocrv4_det,ppyoloe_plus \
        --batches 1 --threads 1,2 --no-contention

Run by `./run.sh bench-peers` (which makes the Python environments); needs paddlepaddle,
onnxruntime, paddle2onnx and numpy. --p2o-fallback (or PEERS_P2O_FALLBACK) names a
paddle2onnx 1.2 executable (from a Paddle 2.6 environment) tried when the environment's own
paddle2onnx fails or writes a file ONNX Runtime cannot load. icore never depends on Python: this is a benchmark only.

For each program in ../shared/models/paddle it writes icore's synthetic parameters (seed 1)
as a combined .pdiparams file (bench_model --save-params), converts program + parameters to
ONNX with paddle2onnx, and then, for each batch and thread count, runs the three contenders
one after the other in separate processes, ROUNDS times (so that a noisy machine hits all
alike), each timing ITERS runs after warm-up with the same input (element i of the feed is
((i * 7919) % 2001) / 1000 - 1, bench_model's). Each peer's output must agree with icore's
within 1e-4 (absolute, or relative above 1); a disagreement is printed and fails the run.
Thread counts: icore --threads T; Paddle set_cpu_math_library_num_threads(T); ONNX Runtime
intra_op_num_threads=T, one inter-op thread, sequential execution; OpenVINO (when the
environment has the `openvino` package: its Paddle front end reads the .pdmodel and
.pdiparams directly) INFERENCE_NUM_THREADS=T, one stream, the LATENCY hint, float32
(INFERENCE_PRECISION_HINT; its default is bfloat16 where the CPU has AVX512_BF16 or AMX).

--winograd adds the row icore-wg: icore with its Winograd option (bench_model --winograd:
batch-1 3x3 convolutions by Winograd's algorithm, results about 1e-6 relative from the
direct convolution's), its output compared with icore's default one as the peers' are.

The table per program x batch x threads gives the median over rounds of each contender's
median, p10-p90 (likewise), cores busy (user + system CPU time over wall time of the timed
runs) and the contender's median over icore's. The contention rows repeat batch 1 at each
thread count with another process spinning on one core for the whole measurement.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

os.environ.setdefault("FLAGS_enable_pir_api", "0")

MODELS = {
    "mobilenet_v2": ("inputs", (3, 224, 224)),
    "pphgnet_plate": ("x", (3, 224, 224)),
    "ppocr_rec_svtr": ("x", (3, 48, 320)),
    "crnn_rec": ("x", (3, 32, 320)),
    # paddle-zoo programs (not in the default --models): path under ../shared/models
    "ppocrv4_det": ("x", (3, 640, 640)),
    "ppyoloe_plus": ("image", (3, 640, 640)),
}
SOURCES = {
    "ppocrv4_det": "paddle-zoo/ppocrv4_det/inference.pdmodel",
    "ppyoloe_plus": "paddle-zoo/ppyoloe_plus/model.pdmodel",
}
# Side feeds, float32 [batch, ...] filled with one value (bench_model --const-feed).
CONST_FEEDS = {"ppyoloe_plus": [("scale_factor", (2,), 1.0)]}
# Programs whose first fetch is a multiclass_nms3 box list: with synthetic parameters many
# scores tie, so the peers' row order (and which ties survive the top-k cut) may differ from
# icore's; only the shape is compared, and the diff column says "nms".
NMS_OUTPUT = {"ppyoloe_plus"}
DEFAULT_MODELS = "mobilenet_v2,pphgnet_plate,ppocr_rec_svtr,crnn_rec"
TOL = 1e-4


def feed_value(shape):
    import numpy as np

    n = 1
    for d in shape:
        n *= d
    i = np.arange(n, dtype=np.int64)
    v = ((i * 7919) % 2001).astype(np.float32) / np.float32(1000) - np.float32(1)
    return v.reshape(shape)


def cpu_seconds():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def quantile(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))]


def time_loop(run, iters, warmup):
    for _ in range(warmup):
        run()
    t = []
    c0, w0 = cpu_seconds(), time.perf_counter()
    for _ in range(iters):
        s = time.perf_counter()
        run()
        t.append(time.perf_counter() - s)
    busy = (cpu_seconds() - c0) / (time.perf_counter() - w0)
    return {"median_ms": quantile(t, 0.5) * 1e3, "p10_ms": quantile(t, 0.1) * 1e3,
            "p90_ms": quantile(t, 0.9) * 1e3, "cores_busy": busy}


def worker(a):
    """One contender in this process: prints one JSON line."""
    import numpy as np

    feed, dims = MODELS[a.model]
    x = feed_value((a.batch,) + dims)
    feeds = {feed: x}
    for name, shape, v in CONST_FEEDS.get(a.model, []):
        feeds[name] = np.full((a.batch,) + shape, v, dtype=np.float32)
    stem = os.path.join(a.work, a.model)
    if a.worker == "paddle":
        import paddle.inference as pi

        cfg = pi.Config(stem + ".pdmodel", stem + ".pdiparams")
        cfg.disable_gpu()
        cfg.enable_mkldnn()
        cfg.set_cpu_math_library_num_threads(a.threads)
        cfg.switch_ir_optim(True)
        cfg.enable_memory_optim()
        cfg.disable_glog_info()
        pred = pi.create_predictor(cfg)
        hs = [(pred.get_input_handle(n), feeds[n]) for n in pred.get_input_names()]
        out = pred.get_output_handle(pred.get_output_names()[0])

        def run():
            for h, v in hs:
                h.reshape(v.shape)
                h.copy_from_cpu(v)
            pred.run()
            return out.copy_to_cpu()
    elif a.worker == "openvino":
        import openvino as ov

        core = ov.Core()
        # OpenVINO's Paddle front end reads the program and its .pdiparams directly
        model = core.read_model(stem + ".pdmodel")
        # float32 like the others: on a CPU with AVX512_BF16 or AMX OpenVINO would otherwise
        # compute in bfloat16 (2x faster here, outputs ~1e-3 off)
        comp = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": str(a.threads),
                                                 "NUM_STREAMS": "1",
                                                 "PERFORMANCE_HINT": "LATENCY",
                                                 "INFERENCE_PRECISION_HINT": "f32"})
        req = comp.create_infer_request()
        ins = {port.get_any_name(): feeds[port.get_any_name()] for port in comp.inputs}

        def run():
            req.infer(ins)
            return req.get_output_tensor(0).data.copy()
    else:
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = a.threads
        so.inter_op_num_threads = 1
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        sess = ort.InferenceSession(stem + ".onnx", so, providers=["CPUExecutionProvider"])
        ins = {i.name: feeds[i.name] for i in sess.get_inputs()}

        def run():
            return sess.run(None, ins)[0]

    y = np.asarray(run()).ravel()
    ref = np.fromfile("%s.b%d.out" % (stem, a.batch), dtype=np.float32)
    if y.size != ref.size and a.model not in NMS_OUTPUT:
        diff = float("inf")
    elif a.model in NMS_OUTPUT:
        diff = 0.0 if y.size == ref.size else float("nan")
    else:
        diff = float(np.max(np.abs(y - ref) / np.maximum(1.0, np.abs(ref))))
    r = time_loop(run, a.iters, a.warmup)
    r["diff"] = diff
    print(json.dumps(r))


def const_feed_args(model, batch):
    args = []
    for name, shape, v in CONST_FEEDS.get(model, []):
        args += ["--const-feed", "%s=%s=%g" % (name, ",".join(str(d) for d in (batch,) + shape), v)]
    return args


def run_icore(a, model, batch, threads, winograd=False):
    """icore's row; with winograd, the "icore-wg" row (--winograd), its output compared with
    icore's default one as the peers' are."""
    feed, dims = MODELS[model]
    stem = os.path.join(a.work, model)
    cmd = [os.path.join(a.build, "bench", "bench_model"), stem + ".pdmodel",
           feed, ",".join(str(d) for d in (batch,) + dims), "--threads", str(threads),
           "--iters", str(a.iters), "--warmup", str(a.warmup)] + const_feed_args(model, batch)
    if winograd:
        cmd += ["--winograd", "--save-output", "%s.b%d.wg.out" % (stem, batch)]
    line = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()
    kv = dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)
    r = {k: float(kv[k]) for k in ("median_ms", "p10_ms", "p90_ms", "cores_busy")}
    if winograd:
        import numpy as np
        y = np.fromfile("%s.b%d.wg.out" % (stem, batch), dtype=np.float32)
        ref = np.fromfile("%s.b%d.out" % (stem, batch), dtype=np.float32)
        if model in NMS_OUTPUT:
            r["diff"] = 0.0 if y.size == ref.size else float("nan")
        elif y.size != ref.size:
            r["diff"] = float("inf")
        else:
            r["diff"] = float(np.max(np.abs(y - ref) / np.maximum(1.0, np.abs(ref))))
    return r


def run_peer(a, who, model, batch, threads):
    cmd = [sys.executable, os.path.abspath(__file__), a.build, a.work, "--worker", who,
           "--model", model, "--batch", str(batch), "--threads", str(threads),
           "--iters", str(a.iters), "--warmup", str(a.warmup)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        err = p.stderr.strip().splitlines()
        print("%s failed on %s: %s" % (who, model, err[-1] if err else "?"), flush=True)
        return None
    return json.loads(lines[-1])


def prepare(a, model):
    feed, dims = MODELS[model]
    src = os.path.join(a.shared, "models", SOURCES.get(model, "paddle/%s/inference.pdmodel" % model))
    stem = os.path.join(a.work, model)
    if not os.path.exists(stem + ".pdmodel"):
        with open(src, "rb") as f, open(stem + ".pdmodel", "wb") as g:
            g.write(f.read())
    bm = os.path.join(a.build, "bench", "bench_model")
    for b in a.batches:
        subprocess.run([bm, stem + ".pdmodel", feed, ",".join(str(d) for d in (b,) + dims),
                        "--threads", "1", "--iters", "1", "--warmup", "0", "--save-params",
                        stem + ".pdiparams", "--save-output", "%s.b%d.out" % (stem, b)]
                       + const_feed_args(model, b), check=True, capture_output=True)
    if not os.path.exists(stem + ".onnx"):
        # paddle2onnx 2.x (beside Paddle 3) rejects crnn_rec ("unsupported operators"), the
        # detectors (a PIR attribute it cannot read) and writes an SVTR file ONNX Runtime
        # cannot load; paddle2onnx 1.2 (beside Paddle 2.6, --p2o-fallback) converts all four.
        tried = []
        for p2o in [os.path.join(os.path.dirname(sys.executable), "paddle2onnx"), a.p2o_fallback]:
            if not p2o:
                continue
            p = subprocess.run([p2o, "--model_dir", a.work, "--model_filename", model + ".pdmodel",
                                "--params_filename", model + ".pdiparams", "--save_file",
                                stem + ".onnx", "--opset_version", "13"], capture_output=True,
                               text=True, cwd=a.work)  # it leaves temporary files in its cwd
            why = ort_loads(stem + ".onnx") if p.returncode == 0 else None
            if p.returncode == 0 and why is None:
                print("%s: converted by %s" % (model, p2o), flush=True)
                break
            if p.returncode != 0:
                last = [ln for ln in (p.stdout + p.stderr).splitlines() if "ERROR" in ln][-1:]
                why = last[0].strip() if last else "exit status %d" % p.returncode
            tried.append("%s: %s" % (p2o, why))
            if os.path.exists(stem + ".onnx"):
                os.remove(stem + ".onnx")
        if not os.path.exists(stem + ".onnx"):
            print("%s: no usable ONNX conversion (%s); no ONNX Runtime figures for it\n" % (
                model, "; ".join(tried)), flush=True)
            return ("icore", "paddle") + openvino_if_installed()
    return ("icore", "paddle", "ort") + openvino_if_installed()


def openvino_if_installed():
    try:
        import openvino  # noqa: F401
        return ("openvino",)
    except ImportError:
        return ()


def ort_loads(path):
    """None if ONNX Runtime can load the file, else why not."""
    try:
        import onnxruntime
        onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
        return None
    except Exception as e:  # noqa: BLE001 (any load failure disqualifies the file)
        return "ONNX Runtime cannot load it: %s" % str(e).splitlines()[0][:200]


def table(title, rows):
    print("== " + title)
    print("%-8s %10s %19s %6s %9s %10s" % ("", "median", "p10-p90", "cores", "vs icore", "max diff"))
    base = statistics.median(r["median_ms"] for r in rows["icore"])
    for who in rows:
        rs = rows[who]
        med = statistics.median(r["median_ms"] for r in rs)
        p10 = statistics.median(r["p10_ms"] for r in rs)
        p90 = statistics.median(r["p90_ms"] for r in rs)
        busy = statistics.median(r["cores_busy"] for r in rs)
        diff = max(r.get("diff", 0.0) for r in rs)
        print("%-8s %8.2f ms %8.2f-%-8.2f %6.2f %8.2fx %10s" % (
            who, med, p10, p90, busy, med / base,
            "-" if who == "icore" else "nms" if diff == 0.0 and title.split()[0] in NMS_OUTPUT
            else "%.1e" % diff))
    print(flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("work")
    ap.add_argument("--worker", choices=["paddle", "ort", "openvino"])
    ap.add_argument("--model")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--models", default=DEFAULT_MODELS)
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--no-contention", action="store_true")
    ap.add_argument("--winograd", action="store_true",
                    help="also time icore with --winograd (row icore-wg)")
    ap.add_argument("--p2o-fallback", default=os.environ.get("PEERS_P2O_FALLBACK"),
                    help="a paddle2onnx 1.2 executable to try when the venv's own fails")
    ap.add_argument("--shared", default=os.environ.get(
        "IC_SHARED_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                      "shared")))
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    a.work = os.path.abspath(a.work)
    if a.worker:
        a.threads = int(a.threads)
        return worker(a)
    a.batches = [int(b) for b in a.batches.split(",")]
    threads = [int(t) for t in a.threads.split(",")]
    os.makedirs(a.work, exist_ok=True)
    bad = []
    for model in a.models.split(","):
        who_all = prepare(a, model)
        if a.winograd:
            who_all = ("icore", "icore-wg") + who_all[1:]
        cases = [(b, t, False) for b in a.batches for t in threads]
        if not a.no_contention:
            cases += [(1, t, True) for t in threads]
        for b, t, busy in cases:
            rows = {who: [] for who in who_all}
            spinner = None
            if busy:
                spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
                time.sleep(0.3)
            try:
                for _ in range(a.rounds):
                    rows["icore"].append(run_icore(a, model, b, t))
                    for who in who_all[1:]:
                        r = (run_icore(a, model, b, t, winograd=True) if who == "icore-wg"
                             else run_peer(a, who, model, b, t))
                        if r is None:  # e.g. ONNX Runtime rejects the converted program
                            who_all = tuple(w for w in who_all if w != who)
                            del rows[who]
                        else:
                            rows[who].append(r)
            finally:
                if spinner:
                    spinner.kill()
                    spinner.wait()
            for who in who_all[1:]:
                if not max(r["diff"] for r in rows[who]) <= TOL:
                    bad.append("%s %s batch %d" % (who, model, b))
            table("%s batch %d, %d thread%s%s (%d rounds of %d runs)" % (
                model, b, t, "" if t == 1 else "s", ", one core busy" if busy else "", a.rounds,
                a.iters), rows)
    if bad:
        raise SystemExit("outputs disagree with icore's beyond %g: %s" % (TOL, "; ".join(bad)))


if __name__ == "__main__":
    main()
