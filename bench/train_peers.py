"""Training steps per second: icore against paddle.static.Executor and PyTorch eager.

    python bench/train_peers.py BUILD_DIR WORK_DIR [--models mlp,cnn] [--threads 1,2]
                               [--batch 32] [--steps 200] [--block 20] [--warmup 30]
                               [--paddle-python PY] [--torch-python PY]

Run by `./run.sh bench-train` (not in CI). Needs numpy in the Python running it, Paddle 3.3.1
in --paddle-python (default: this Python) and PyTorch in --torch-python (default: python3).
icore never depends on Python: this is a benchmark only.

Networks: the training programs of tests/data/train/{mlp,cnn} written by
tools/gen_paddle_train.py (MLP 8-16-3 with relu, softmax cross-entropy, Adam; LeNet-style CNN
on 1x8x8 images with conv2d, batch_norm, max and avg pool2d, fc, Momentum with Nesterov and
L2 decay), fed BATCH rows per step (the programs' batch dimension is -1) from 8 fixed random
batches taken in turn. Every contender starts from the same persistables (the case's
init.pdiparams, Paddle's values right after its startup program):
  icore   build/bench/bench_train (the C API, no CLI in the timed loop): ic_executor_run of
          main.pdmodel with the feeds, fetching the loss; ic_options.threads = T, GC on.
  paddle  paddle.static.Executor(CPUPlace) running the same main.pdmodel (parsed with
          Program.parse_from_string, legacy IR), persistables loaded with load_vars,
          use_program_cache=True, fetching the loss; threads: OMP_NUM_THREADS,
          MKL_NUM_THREADS = T before import and core.set_num_threads(T).
  torch   the same network written with torch.nn.functional and torch.optim (Adam with
          Paddle's defaults; SGD momentum 0.9 Nesterov weight_decay 1e-3; BatchNorm momentum
          0.1 = Paddle's 0.9), weights copied from init.pdiparams (exported by the Paddle
          worker); torch.set_num_threads(T), one inter-op thread.
Each contender is its own process (its own threads and allocator), started once per model x
thread count, warmed up WARMUP steps; then the driver interleaves them, BLOCK steps each in
turn (the order rotating every round, 50 ms pause between blocks so that spinning OpenMP
threads of the previous one go to sleep), until each has run STEPS timed steps. Every block
starts from the initial persistables and the first batch (a reset, not timed), so all time
the same first BLOCK steps of one training run: on these random labels the CNN's ReLUs die
after about 300 steps, after which its gradients are zeros (and icore's conv2d_grad, which
skips zero gradients, twice as fast). A step is timed inside the contender (fetching the
loss to the host included). The first step's loss and the last timed one of each contender
are printed: icore and Paddle run the same program from the same values and must agree
within 1e-4 (relative), PyTorch within 1e-3 (its own kernels).

Memory of a step, per contender:
  icore   its allocator's peak during one step minus its live bytes before it
          (ic_executor_memory_stats / ic_executor_reset_peak), with GC on and, on another
          executor, GC off; next to the program's own sizes at this batch (every
          non-persistable tensor: activations, and @GRAD gradients) and the persistables.
  paddle  core.host_memory_stat_peak_value("Allocated") minus current, around one step
          (Paddle's host allocator statistics); it varies between steps, so the least and
          the most of 5 steps are shown.
  torch   the peak of the running sum of the allocations and frees that torch.profiler
          (profile_memory=True) records during one step, each op's own (self) bytes taken
          at its start (so approximate within an op; frees of blocks allocated before the
          step, such as the previous gradients, are not seen).
  all     RSS growth of a step, read from outside: /proc/PID/clear_refs "5" resets VmHWM,
          then VmHWM after one step minus VmRSS before it (0 once the allocators are warm),
          and the process's VmRSS.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(ROOT, "tests", "data", "train")
NB = 8  # distinct batches, fed in turn


def read_case(model):
    feeds, loss = [], None
    with open(os.path.join(DATA, model, "case.txt")) as f:
        for line in f:
            w = line.split()
            if w and w[0] == "feed":
                feeds.append(w[1])
            elif w and w[0] == "loss":
                loss = w[1]
    return feeds, loss


# --------------------------------------------------------------------------- feeds
def make_feeds(model, batch, out_dir):
    import numpy as np

    rng = np.random.default_rng(42)
    if model == "mlp":
        f = {"x": rng.standard_normal((NB, batch, 8)).astype("float32"),
             "label": rng.integers(0, 3, (NB, batch, 1)).astype("int64")}
    elif model == "cnn":
        f = {"img": rng.standard_normal((NB, batch, 1, 8, 8)).astype("float32"),
             "label": rng.integers(0, 3, (NB, batch, 1)).astype("int64")}
    else:
        raise SystemExit("unknown model " + model)
    os.makedirs(out_dir, exist_ok=True)
    paths = {}
    for k, v in f.items():
        paths[k] = os.path.join(out_dir, k + ".npy")
        np.save(paths[k], v)
    return paths


# --------------------------------------------------------------------------- workers
def proc_status(pid, key):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    return 0


class Worker:
    """A contender process speaking the line protocol of bench_train --serve."""

    def __init__(self, name, argv, env=None):
        self.name = name
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, env=env, bufsize=1)
        line = self.p.stdout.readline().split()
        if not line or line[0] != "ready":
            self.p.kill()
            raise SystemExit("%s did not start: %r" % (name, line))
        self.first_loss = float(line[1])
        self.times = []
        self.loss = None

    def run(self, n):
        self.p.stdin.write("run %d\n" % n)
        self.p.stdin.flush()
        w = self.p.stdout.readline().split()
        if not w or w[0] != "ok":
            raise SystemExit("%s failed: %r" % (self.name, w))
        self.times += [float(x) for x in w[1:1 + n]]
        self.loss = float(w[-1])

    def reset(self):
        self.p.stdin.write("reset\n")
        self.p.stdin.flush()
        w = self.p.stdout.readline().split()
        if w != ["ok"]:
            raise SystemExit("%s reset failed: %r" % (self.name, w))

    def mem(self):
        self.p.stdin.write("mem\n")
        self.p.stdin.flush()
        w = self.p.stdout.readline().split()
        if not w or w[0] != "mem":
            raise SystemExit("%s mem failed: %r" % (self.name, w))
        return dict((k, int(float(v))) for k, v in (x.split("=") for x in w[1:]))

    def rss_step(self):
        """(VmHWM after one step - VmRSS before it, VmRSS) in bytes, read from outside."""
        pid = self.p.pid
        try:
            with open("/proc/%d/clear_refs" % pid, "w") as f:
                f.write("5")
        except OSError:
            return None, proc_status(pid, "VmRSS")
        before = proc_status(pid, "VmRSS")
        loss = self.loss  # the last timed step's, compared across contenders
        self.run(1)
        self.times.pop()
        self.loss = loss
        return proc_status(pid, "VmHWM") - before, proc_status(pid, "VmRSS")

    def close(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.flush()
        except OSError:
            pass
        self.p.wait(timeout=60)


def thread_env(t):
    env = dict(os.environ)
    for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env[k] = str(t)
    env["CPU_NUM"] = "1"
    env["FLAGS_enable_pir_api"] = "0"
    env["GLOG_minloglevel"] = "2"
    return env


def serve(step_fn, mem_fn, reset_fn, warmup):
    """The worker side of the protocol (Paddle and torch)."""
    first = step_fn()
    for _ in range(warmup - 1):
        step_fn()
    print("ready %.9g" % first, flush=True)
    for line in sys.stdin:
        w = line.split()
        if w and w[0] == "run":
            n, ts, loss = int(w[1]), [], 0.0
            for _ in range(n):
                t0 = time.perf_counter()
                loss = step_fn()
                ts.append(time.perf_counter() - t0)
            print("ok " + " ".join("%.9f" % t for t in ts) + " loss %.9g" % loss, flush=True)
        elif w and w[0] == "reset":
            reset_fn()
            print("ok", flush=True)
        elif w and w[0] == "mem":
            print("mem " + " ".join("%s=%d" % kv for kv in mem_fn().items()), flush=True)
        elif w and w[0] == "quit":
            break


def load_feed_batches(work, names):
    import numpy as np

    arrs = {n: np.load(os.path.join(work, n + ".npy")) for n in names}
    return [{n: a[k] for n, a in arrs.items()} for k in range(NB)]


def persistables(prog):
    out = [v for v in prog.list_vars() if v.persistable and v.name not in ("feed", "fetch")]
    return sorted(out, key=lambda v: v.name)


def paddle_worker(a):
    import numpy as np
    import paddle
    from paddle.base import core

    paddle.enable_static()
    core.set_num_threads(a.threads)
    feeds, loss_name = read_case(a.model)
    d = os.path.join(DATA, a.model)
    with open(os.path.join(d, "main.pdmodel"), "rb") as f:
        prog = paddle.static.Program.parse_from_string(f.read())
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        def load():
            paddle.static.load_vars(exe, d, main_program=prog, vars=persistables(prog),
                                    filename="init.pdiparams")
        load()
        if a.export:  # the initial persistables for the torch worker
            np.savez(a.export, **{v.name: np.array(scope.find_var(v.name).get_tensor())
                                  for v in persistables(prog)})
            return
        batches = load_feed_batches(a.work, feeds)
        state = {"k": 0}

        def step():
            fd = batches[state["k"] % NB]
            state["k"] += 1
            out, = exe.run(prog, feed=fd, fetch_list=[loss_name], use_program_cache=True)
            return float(np.asarray(out).reshape(()))

        def mem():  # the figure varies from step to step: the least and the most of 5
            peaks = []
            for _ in range(5):
                core.host_memory_stat_reset_peak_value("Allocated", 0)
                cur = core.host_memory_stat_current_value("Allocated", 0)
                step()
                peaks.append(core.host_memory_stat_peak_value("Allocated", 0) - cur)
            return {"step_peak": min(peaks), "step_peak_max": max(peaks)}

        def reset():
            load()
            state["k"] = 0

        serve(step, mem, reset, a.warmup)


def torch_worker(a):
    import numpy as np
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(a.threads)
    torch.set_num_interop_threads(1)
    feeds, _ = read_case(a.model)
    init = np.load(os.path.join(a.work, "init.npz"))

    loaded = {}  # name -> tensor, reloaded in place by reset()

    def P(name):
        loaded[name] = torch.nn.Parameter(torch.from_numpy(np.array(init[name])))
        return loaded[name]

    def B(name):
        loaded[name] = torch.from_numpy(np.array(init[name]))
        return loaded[name]

    batches = [{k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in b.items()}
               for b in load_feed_batches(a.work, feeds)]
    if a.model == "mlp":
        w0, b0, w1, b1 = P("fc_0.w_0"), P("fc_0.b_0"), P("fc_1.w_0"), P("fc_1.b_0")
        params = [w0, b0, w1, b1]
        def make_opt():
            return torch.optim.Adam(params, lr=0.01, betas=(0.9, 0.999), eps=1e-8)

        def forward(b):
            h = torch.relu(torch.addmm(b0, b["x"], w0))
            logits = torch.addmm(b1, h, w1)
            return F.cross_entropy(logits, b["label"].reshape(-1))
    else:
        c0w, c0b = P("conv2d_0.w_0"), P("conv2d_0.b_0")
        bnw, bnb = P("batch_norm2d_0.w_0"), P("batch_norm2d_0.b_0")
        rmean, rvar = B("batch_norm2d_0.w_1"), B("batch_norm2d_0.w_2")
        c1w, c1b = P("conv2d_1.w_0"), P("conv2d_1.b_0")
        fw, fb = P("fc_0.w_0"), P("fc_0.b_0")
        params = [c0w, c0b, bnw, bnb, c1w, c1b, fw, fb]
        def make_opt():
            return torch.optim.SGD(params, lr=0.05, momentum=0.9, nesterov=True,
                                   weight_decay=1e-3)

        def forward(b):
            h = F.conv2d(b["img"], c0w, c0b, padding=1)
            h = F.batch_norm(h, rmean, rvar, bnw, bnb, training=True, momentum=0.1, eps=1e-5)
            h = F.max_pool2d(torch.relu(h), 2, 2)
            h = F.avg_pool2d(torch.relu(F.conv2d(h, c1w, c1b)), 2, 2)
            logits = torch.addmm(fb, h.reshape(h.shape[0], -1), fw)
            return F.cross_entropy(logits, b["label"].reshape(-1))

    state = {"k": 0, "opt": make_opt()}

    def step():
        b = batches[state["k"] % NB]
        state["k"] += 1
        opt = state["opt"]
        opt.zero_grad(set_to_none=True)
        loss = forward(b)
        loss.backward()
        opt.step()
        return loss.item()

    def reset():
        with torch.no_grad():
            for name, t in loaded.items():
                t.copy_(torch.from_numpy(np.array(init[name])))
        state["k"] = 0
        state["opt"] = make_opt()  # no moments yet, as after Paddle's startup

    def mem():
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            step()
        # each event's own allocations minus frees (children excluded), in start order
        cur = peak = 0
        for e in sorted(prof.events(), key=lambda e: e.time_range.start):
            cur += e.self_cpu_memory_usage
            peak = max(peak, cur)
        return {"step_peak": peak, "net": cur}

    serve(step, mem, reset, a.warmup)


# --------------------------------------------------------------------------- driver
def median_sps(times):
    return 1.0 / statistics.median(times) if times else float("nan")


def fmt_bytes(n):
    if n is None:
        return "n/a"
    if abs(n) >= 1 << 20:
        return "%.1f MiB" % (n / 1048576)
    if abs(n) >= 1024:
        return "%.1f KiB" % (n / 1024)
    return "%d B" % n


def bench_one(a, model, t, feed_paths, loss_name):
    icore = [os.path.join(a.build, "bench", "bench_train"),
             os.path.join(DATA, model, "main.pdmodel"), os.path.join(DATA, model, "init.pdiparams"),
             "--loss", loss_name, "--threads", str(t), "--warmup", str(a.warmup), "--serve"]
    for k, p in feed_paths.items():
        icore += ["--feed", "%s=%s" % (k, p)]
    me = os.path.abspath(__file__)
    work = os.path.join(a.work, model)
    peer = ["--model", model, "--threads", str(t), "--wdir", work, "--warmup", str(a.warmup)]
    env = thread_env(t)
    ws = [Worker("icore", icore, env),
          Worker("paddle", [a.paddle_python, me, "--worker", "paddle"] + peer, env),
          Worker("torch", [a.torch_python, me, "--worker", "torch"] + peer, env)]
    try:
        rounds = (a.steps + a.block - 1) // a.block
        for r in range(rounds):
            order = ws[r % 3:] + ws[:r % 3]
            for w in order:
                w.reset()
                time.sleep(0.05)
                w.run(a.block)
        for w in ws:
            w.reset()
        mems = {w.name: w.mem() for w in ws}
        rss = {w.name: w.rss_step() for w in ws}
    finally:
        for w in ws:
            w.close()
    return ws, mems, rss


def driver(a):
    load = os.getloadavg()
    print("# train_peers: batch %d, %d timed steps per contender in blocks of %d, warm-up %d; "
          "load average at start %.2f %.2f %.2f, %d CPUs"
          % (a.batch, a.steps, a.block, a.warmup, load[0], load[1], load[2], os.cpu_count()))
    rows = []
    for model in a.models.split(","):
        feeds, loss_name = read_case(model)
        work = os.path.join(a.work, model)
        feed_paths = make_feeds(model, a.batch, work)
        subprocess.run([a.paddle_python, os.path.abspath(__file__), "--worker", "paddle",
                        "--model", model, "--threads", "1", "--wdir", work,
                        "--export", os.path.join(work, "init.npz")],
                       env=thread_env(1), check=True)
        for t in [int(x) for x in a.threads.split(",")]:
            ws, mems, rss = bench_one(a, model, t, feed_paths, loss_name)
            rows.append((model, t, ws, mems, rss))
            byname = {w.name: w for w in ws}
            l0, l1 = byname["icore"].first_loss, byname["icore"].loss
            for w in ws:
                rel = max(abs(w.first_loss - l0) / max(abs(l0), 1e-30),
                          abs(w.loss - l1) / max(abs(l1), 1e-30))
                tol = 1e-3 if w.name == "torch" else 1e-4
                flag = "" if rel <= tol else "   <-- DIFFERS from icore beyond %g" % tol
                print("  %s T=%d %-6s first loss %.7f  last %.7f  (rel diff to icore %.1e)%s"
                      % (model, t, w.name, w.first_loss, w.loss, rel, flag))
    load = os.getloadavg()
    print("# load average at end %.2f %.2f %.2f" % load)
    print()
    print("steps/s (median of %d steps; p10-p90 of step time in us)" % a.steps)
    print("%-5s %3s | %22s | %22s | %22s | %8s %8s"
          % ("model", "T", "icore", "paddle", "torch", "pd/ic", "pt/ic"))
    for model, t, ws, _, _ in rows:
        cells, sps = [], {}
        for w in ws:
            sps[w.name] = median_sps(w.times)
            q = statistics.quantiles(w.times, n=10)
            cells.append("%7.0f (%5.0f-%5.0f)" % (sps[w.name], q[0] * 1e6, q[-1] * 1e6))
        print("%-5s %3d | %s | %s | %s | %8.2f %8.2f"
              % (model, t, cells[0], cells[1], cells[2], sps["paddle"] / sps["icore"],
                 sps["torch"] / sps["icore"]))
    print()
    print("memory of one step (see the header of bench/train_peers.py for how each is measured)")
    for model, t, ws, mems, rss in rows:
        m = mems["icore"]
        print("%-5s T=%d icore : step peak %s with GC (%s without GC); program: activations %s"
              " + gradients %s = %s, persistables %s"
              % (model, t, fmt_bytes(m["step_peak"]), fmt_bytes(m["step_peak_nogc"]),
                 fmt_bytes(m["act_bytes"]), fmt_bytes(m["grad_bytes"]),
                 fmt_bytes(m["act_bytes"] + m["grad_bytes"]), fmt_bytes(m["persist_bytes"])))
        print("%-5s T=%d paddle: step peak %s to %s over 5 steps (host allocator stats)"
              % (model, t, fmt_bytes(mems["paddle"]["step_peak"]),
                 fmt_bytes(mems["paddle"]["step_peak_max"])))
        print("%-5s T=%d torch : step peak %s (profiler allocations)"
              % (model, t, fmt_bytes(mems["torch"]["step_peak"])))
        print("%-5s T=%d RSS growth of a step / RSS: %s"
              % (model, t, ", ".join("%s %s / %s" % (n, fmt_bytes(r[0]), fmt_bytes(r[1]))
                                     for n, r in rss.items())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?")
    ap.add_argument("work", nargs="?")
    ap.add_argument("--models", default="mlp,cnn")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--block", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--paddle-python", default=sys.executable)
    ap.add_argument("--torch-python", default="python3")
    ap.add_argument("--worker", choices=["paddle", "torch"])
    ap.add_argument("--model")
    ap.add_argument("--wdir")
    ap.add_argument("--export")
    a = ap.parse_args()
    if a.worker:
        a.work = a.wdir
    if a.worker == "paddle":
        a.threads = int(a.threads)
        return paddle_worker(a)
    if a.worker == "torch":
        a.threads = int(a.threads)
        return torch_worker(a)
    if not a.build or not a.work:
        ap.error("BUILD_DIR and WORK_DIR are required")
    a.build, a.work = os.path.abspath(a.build), os.path.abspath(a.work)
    driver(a)


if __name__ == "__main__":
    main()
