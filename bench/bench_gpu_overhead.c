/* GPU benchmark 1: per-instruction overhead of the device executor. A chain of N `scale` ops
 * on one-element tensors on cuda:0, so the kernels cost almost nothing:
 *   launch loop   the same CUDA kernel launched N times on preallocated device tensors, one
 *                 stream, then one synchronize (the limit: CUDA's own launch cost)
 *   compiled      the executor on cuda:0 (single stream)
 *   cuda graph    the executor recording the run as a CUDA graph and replaying it
 * Target: compiled within 1.2x of the launch loop. Built only with CUDA; run by
 * tools/gpu_run.sh on a GPU machine (no arguments; N and rounds may be given). */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "bench_util.h"
#include "kernels/kernel.h"
#include "scope/tensor.h"

/* The limit: the scale kernel launched n times in a row on one stream. */
static double launch_loop(const ic_program *p, int n, int rounds, double *t) {
  const ic_opdef *def = ic_registry_find("scale");
  ic_kernel_fn fn = ic_registry_cuda(def);
  if (!fn) {
    fprintf(stderr, "bench_gpu_overhead: scale has no CUDA kernel\n");
    exit(1);
  }
  ic_err err;
  void *attrs = calloc(1, def->attrs_size);
  BU_CHECK(ic_opdef_parse(def, &p->blocks[0].ops[1], attrs, &err));
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  float *mem;
  cudaMalloc((void **)&mem, sizeof(float) * (size_t)(n + 1));
  ic_tensor *ts = calloc((size_t)n + 1, sizeof *ts);
  ic_tensor **ptr = calloc(2 * (size_t)n, sizeof *ptr);
  ic_kslot *in = calloc((size_t)n, sizeof *in), *out = calloc((size_t)n, sizeof *out);
  ic_kctx *ctx = calloc((size_t)n, sizeof *ctx);
  ic_kenv env = {.stream = s, .intra_threads = 1};
  for (int i = 0; i <= n; i++) {
    ic_tensor_init(&ts[i]);
    ic_tensor_set_meta(&ts[i], IC_FP32, 1, (const int64_t[]){1});
    ts[i].data = mem + i;
  }
  for (int i = 0; i < n; i++) {
    ptr[2 * i] = &ts[i];
    ptr[2 * i + 1] = &ts[i + 1];
    in[i] = (ic_kslot){.n = 1, .t = &ptr[2 * i]};
    out[i] = (ic_kslot){.n = 1, .t = &ptr[2 * i + 1]};
    ctx[i] = (ic_kctx){.def = def, .op = &p->blocks[0].ops[1], .attrs = attrs, .in = &in[i],
                       .out = &out[i], .err = &err, .env = &env};
  }
  for (int r = -2; r < rounds; r++) {
    double t0 = bu_now();
    for (int i = 0; i < n; i++) fn(&ctx[i]);
    cudaStreamSynchronize(s);
    if (r >= 0) t[r] = bu_now() - t0;
  }
  double med = bu_quantile(t, (size_t)rounds, 0.5);
  cudaFree(mem);
  cudaStreamDestroy(s);
  free(ts);
  free(ptr);
  free(in);
  free(out);
  free(ctx);
  free(attrs);
  return med;
}

static double executor(const ic_program *p, int n, int rounds, bool graph, double *t) {
  ic_options o;
  ic_options_default(&o);
  o.device = (ic_place){IC_PLACE_CUDA, 0};
  o.streams = IC_STREAMS_SINGLE;
  o.threads = 1;
  o.cuda_graph = graph;
  ic_executor *e;
  BU_CHECK(ic_executor_create(&o, &e));
  ic_tensor *x;
  BU_CHECK(ic_tensor_create(IC_FP32, 1, (const int64_t[]){1}, &x));
  char fetch[32];
  snprintf(fetch, sizeof fetch, "t%d", n - 1);
  const char *feed = "x", *fn = fetch;
  for (int r = -3; r < rounds; r++) {
    ic_tensor *out;
    double t0 = bu_now();
    ic_status st = ic_executor_run(e, p, NULL, 1, &feed, (const ic_tensor *const *)&x, 1, &fn, &out);
    if (st) {
      fprintf(stderr, "bench_gpu_overhead: %s\n", ic_executor_errmsg(e));
      exit(1);
    }
    if (r >= 0) t[r] = bu_now() - t0;
    ic_tensor_destroy(out);
  }
  ic_tensor_destroy(x);
  ic_executor_destroy(e);
  return bu_quantile(t, (size_t)rounds, 0.5);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000, rounds = argc > 2 ? atoi(argv[2]) : 20;
  ic_program *p = bu_scale_chain(n);
  double *t = calloc((size_t)rounds, sizeof *t);
  double loop = launch_loop(p, n, rounds, t);
  double comp = executor(p, n, rounds, false, t);
  double graph = executor(p, n, rounds, true, t);
  printf("# GPU scheduling overhead: chain of %d scale ops on 1-element tensors, cuda:0, %d rounds\n",
         n, rounds);
  printf("%-22s %10s %12s %10s\n", "mode", "run (ms)", "us per op", "vs loop");
  printf("%-22s %10.3f %12.2f %9.2fx\n", "kernel launch loop", loop * 1e3, loop / n * 1e6, 1.0);
  printf("%-22s %10.3f %12.2f %9.2fx\n", "compiled", comp * 1e3, comp / n * 1e6, comp / loop);
  printf("%-22s %10.3f %12.2f %9.2fx\n", "compiled, cuda graph", graph * 1e3, graph / n * 1e6,
         graph / loop);
  free(t);
  ic_program_destroy(p);
  return 0;
}
