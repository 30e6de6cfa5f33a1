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
    ap.add_argument("--device", default="cpu", help="cpu or cuda")
    ap.add_argument("--cuda-graph", action="store_true", help="replay a CUDA graph (GPU)")
    a = ap.parse_args()
    import torch
    import torchvision

    torch.set_num_threads(a.threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(0)
    model = torchvision.models.mobilenet_v2().eval()
    x = torch.rand(a.batch, 3, 224, 224)
    times = []
    with torch.no_grad():
        if a.device == "cuda":
            # The GPU peer: eager PyTorch, or its CUDA graph replay; input copied in and the
            # result copied out each run, as icore does.
            model = model.cuda()
            xs = torch.empty_like(x, device="cuda")
            if a.cuda_graph:
                xs.copy_(x)
                s = torch.cuda.Stream()
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    for _ in range(3):
                        model(xs)
                torch.cuda.current_stream().wait_stream(s)
                g = torch.cuda.CUDAGraph()
                with torch.cuda.graph(g):
                    ys = model(xs)
                step = lambda: (xs.copy_(x), g.replay(), ys.cpu())
            else:
                step = lambda: model(x.cuda()).cpu()
        else:
            m = torch.jit.optimize_for_inference(torch.jit.script(model))
            step = lambda: m(x)
        for _ in range(a.warmup):
            step()
        for _ in range(a.iters):
            t0 = time.perf_counter()
            step()
            times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    p90 = times[min(len(times) - 1, int(0.9 * (len(times) - 1) + 0.5))]
    print(f"torch device={a.device}{' graph' if a.cuda_graph else ''} batch={a.batch} "
          f"threads={a.threads} median_ms={statistics.median(times):.3f} p90_ms={p90:.3f}")


if __name__ == "__main__":
    main()
