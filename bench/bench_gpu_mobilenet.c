/* GPU benchmark 2: MobileNetV2 (../shared/models/paddle/mobilenet_v2, synthetic weights) on
 * cuda:0 at batch 1 and 64, eager and with a CUDA graph: median latency. The PyTorch side
 * (eager and CUDA graphs) is bench/mobilenet_torch.py --device cuda, run beside it by
 * tools/gpu_run.sh when the GPU machine's Python has torch. The model is looked for in
 * $ICORE_MODELS, then ../shared/models, then a models/ folder next to this binary's bundle. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

static const char *find_model(const char *argv0, char *buf, size_t len) {
  const char *rel = "paddle/mobilenet_v2/inference.pdmodel";
  const char *env = getenv("ICORE_MODELS");
  if (env) {
    snprintf(buf, len, "%s/%s", env, rel);
    if (access(buf, R_OK) == 0) return buf;
  }
  snprintf(buf, len, "../shared/models/%s", rel);
  if (access(buf, R_OK) == 0) return buf;
  const char *slash = strrchr(argv0, '/');
  snprintf(buf, len, "%.*s/../models/%s", slash ? (int)(slash - argv0) : 1, slash ? argv0 : ".", rel);
  return access(buf, R_OK) == 0 ? buf : NULL;
}

static double median_ms(ic_executor *e, ic_program *p, ic_scope *s, ic_tensor *x, int iters) {
  const char *feed = "inputs", *fetch = ic_program_fetch_target(p, 0);
  double *t = calloc((size_t)iters, sizeof *t);
  for (int i = -5; i < iters; i++) {
    ic_tensor *out;
    double t0 = bu_now();
    if (ic_executor_run(e, p, s, 1, &feed, (const ic_tensor *const *)&x, 1, &fetch, &out)) {
      fprintf(stderr, "bench_gpu_mobilenet: %s\n", ic_executor_errmsg(e));
      exit(1);
    }
    if (i >= 0) t[i] = bu_now() - t0;
    ic_tensor_destroy(out);
  }
  double m = bu_quantile(t, (size_t)iters, 0.5) * 1e3;
  free(t);
  return m;
}

int main(int argc, char **argv) {
  char path[4096], err[1024];
  if (!find_model(argv[0], path, sizeof path)) {
    printf("bench_gpu_mobilenet: SKIP: the MobileNetV2 program was not found (set ICORE_MODELS)\n");
    return 0;
  }
  ic_program *p;
  ic_scope *s;
  if (ic_model_load(path, NULL, IC_LOAD_NO_PARAMS, &p, &s, err, sizeof err) ||
      ic_params_random(p, 1, s, err, sizeof err)) {
    fprintf(stderr, "bench_gpu_mobilenet: %s\n", err);
    return 1;
  }
  printf("# MobileNetV2 on cuda:0, median of 50 runs (ms)\n");
  printf("%-7s %12s %14s\n", "batch", "icore", "icore graph");
  for (int b = 1; b <= 64; b *= 64) {
    ic_tensor *x;
    BU_CHECK(ic_tensor_create(IC_FP32, 4, (const int64_t[]){b, 3, 224, 224}, &x));
    double ms[2];
    for (int g = 0; g < 2; g++) {
      ic_options o;
      ic_options_default(&o);
      o.device = (ic_place){IC_PLACE_CUDA, 0};
      o.cuda_graph = g;
      ic_executor *e;
      BU_CHECK(ic_executor_create(&o, &e));
      ms[g] = median_ms(e, p, s, x, argc > 1 ? atoi(argv[1]) : 50);
      ic_executor_destroy(e);
    }
    printf("%-7d %12.3f %14.3f\n", b, ms[0], ms[1]);
    ic_tensor_destroy(x);
  }
  ic_scope_destroy(s);
  ic_program_destroy(p);
  return 0;
}
