#!/usr/bin/env python3
"""The PyTorch peer for icore's MobileNetV2 benchmark: what a PyTorch user gets on this
machine. torchvision's mobilenet_v2 in eval mode, torch.jit.script, then
torch.jit.optimize_for_inference (which prepacks every convolution for oneDNN), with the
given intra-op thread count and one inter-op thread, so it uses exactly that many cores.

  python3 bench/mobilenet_torch.py --batch 1 --threads 2 --iters 50 --warmup 10
Prints one line: "torch batch=B threads=T median_ms=... p90_ms=...".
"""
import argparse
import statistics
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=10)
    a = ap.parse_args()
    import torch
    import torchvision

    torch.set_num_threads(a.threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(0)
    model = torchvision.models.mobilenet_v2().eval()
    x = torch.rand(a.batch, 3, 224, 224)
    with torch.no_grad():
        m = torch.jit.optimize_for_inference(torch.jit.script(model))
        for _ in range(a.warmup):
            m(x)
        times = []
        for _ in range(a.iters):
            t0 = time.perf_counter()
            m(x)
            times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    p90 = times[min(len(times) - 1, int(0.9 * (len(times) - 1) + 0.5))]
    print(f"torch batch={a.batch} threads={a.threads} median_ms={statistics.median(times):.3f} "
          f"p90_ms={p90:.3f}")


if __name__ == "__main__":
    main()
