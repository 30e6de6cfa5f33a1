/* Whole programs on a GPU through the executor (cuda:0): the bundled MLP-like programs and
 * the real models against the CPU executor, random multi-stream DAGs under every stream
 * policy, and CUDA graph mode (eager, recording, replay) against eager runs. Skipped with a
 * printed reason where there is no GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plan.h"
#include "cuda_harness.h"
#include "interp/interp.h"

static ic_executor *exec_on(ic_place pl, ic_stream_policy pol, int threads, bool graph) {
  ic_options o;
  ic_options_default(&o);
  o.device = pl;
  o.streams = pol;
  o.threads = threads;
  o.cuda_graph = graph;
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  return e;
}

static void close_enough(const ic_tensor *got, const ic_tensor *ref, double rtol, double atol,
                         const char *what) {
  int64_t n = ic_tensor_numel(ref);
  ck_assert_msg(ic_tensor_numel(got) == n, "%s: sizes differ", what);
  const float *a = ic_tensor_cdata(got), *b = ic_tensor_cdata(ref);
  for (int64_t k = 0; k < n; k++) {
    ck_assert_msg(fabs((double)a[k] - b[k]) <= atol + rtol * fabs((double)b[k]),
                  "%s: element %lld is %.9g on the GPU, %.9g on the CPU", what, (long long)k,
                  a[k], b[k]);
  }
}

static ic_tensor *run(ic_executor *e, const ic_program *p, ic_scope *s, const char *feed,
                      ic_tensor *x, const char *fetch) {
  ic_tensor *out;
  ic_status st = ic_executor_run(e, p, s, 1, &feed, (const ic_tensor *const *)&x, 1, &fetch, &out);
  ck_assert_msg(st == IC_OK, "%s", ic_executor_errmsg(e));
  return out;
}

/* The four real models: GPU (every policy, and graph mode) against the CPU. Under
 * compute-sanitizer (ch_quick) each model runs once at batch 1 under the one policy that
 * uses several streams and events, IC_STREAMS_PER_OPERATOR: the full suite (6.6 s on an H200)
 * had not finished after 230 s under memcheck there (2026-11-28). */
START_TEST(real_models_on_gpu) {
  static const struct {
    const char *rel, *feed;
    int64_t dims[4];
  } models[] = {{"paddle/mobilenet_v2/inference.pdmodel", "inputs", {2, 3, 224, 224}},
                {"paddle/pphgnet_plate/inference.pdmodel", "x", {2, 3, 224, 224}},
                {"paddle/ppocr_rec_svtr/inference.pdmodel", "x", {1, 3, 48, 96}},
                {"paddle/crnn_rec/inference.pdmodel", "x", {2, 3, 32, 64}}};
  char path[4096], err[1024];
  ck_assert(tu_shared(models[_i].rel, path, sizeof path));
  ic_program *p;
  ic_scope *s;
  ck_assert_int_eq(ic_model_load(path, NULL, IC_LOAD_NO_PARAMS, &p, &s, err, sizeof err), IC_OK);
  ck_assert_int_eq(ic_params_random(p, 3, s, err, sizeof err), IC_OK);
  const bool quick = ch_quick();
  int64_t dims[4];
  memcpy(dims, models[_i].dims, sizeof dims);
  if (quick) dims[0] = 1;
  ic_tensor *x = tu_rand_f32(4, dims, 5, -1, 1);
  const char *fetch = ic_program_fetch_target(p, 0);
  ic_executor *cpu = exec_on((ic_place){IC_PLACE_CPU, 0}, IC_STREAMS_SINGLE, 2, false);
  ic_tensor *ref = run(cpu, p, s, models[_i].feed, x, fetch);
  for (int pol = quick ? IC_STREAMS_PER_OPERATOR : 0; pol < 3; pol++) {
    ic_executor *g = exec_on((ic_place){IC_PLACE_CUDA, 0}, (ic_stream_policy)pol, 2, false);
    for (int rep = 0; rep < (quick ? 1 : 2); rep++) {
      ic_tensor *out = run(g, p, s, models[_i].feed, x, fetch);
      close_enough(out, ref, 1e-3, 1e-5, models[_i].rel);
      ic_tensor_destroy(out);
    }
    ic_executor_destroy(g);
  }
  ic_tensor_destroy(ref);
  ic_executor_destroy(cpu);
  ic_tensor_destroy(x);
  ic_scope_destroy(s);
  ic_program_destroy(p);
}
END_TEST

/* CUDA graphs: the first run is eager, the second records and replays, later ones replay;
 * all equal the eager result, and new feed values give new results. */
START_TEST(cuda_graph_replays) {
  char path[4096], err[1024];
  ck_assert(tu_shared("paddle/mobilenet_v2/inference.pdmodel", path, sizeof path));
  ic_program *p;
  ic_scope *s;
  ck_assert_int_eq(ic_model_load(path, NULL, IC_LOAD_NO_PARAMS, &p, &s, err, sizeof err), IC_OK);
  ck_assert_int_eq(ic_params_random(p, 3, s, err, sizeof err), IC_OK);
  const char *fetch = ic_program_fetch_target(p, 0);
  ic_tensor *x1 = tu_rand_f32(4, TU_DIMS(1, 3, 224, 224), 1, -1, 1);
  ic_tensor *x2 = tu_rand_f32(4, TU_DIMS(1, 3, 224, 224), 2, -1, 1);
  ic_executor *eager = exec_on((ic_place){IC_PLACE_CUDA, 0}, IC_STREAMS_SINGLE, 1, false);
  ic_executor *graph = exec_on((ic_place){IC_PLACE_CUDA, 0}, IC_STREAMS_SINGLE, 1, true);
  ic_tensor *r1 = run(eager, p, s, "inputs", x1, fetch), *r2 = run(eager, p, s, "inputs", x2, fetch);
  for (int rep = 0; rep < (ch_quick() ? 3 : 4); rep++) {
    ic_tensor *g = run(graph, p, s, "inputs", rep % 2 ? x2 : x1, fetch);
    tu_assert_bitwise(g, rep % 2 ? r2 : r1, "graph run");
    ic_tensor_destroy(g);
  }
  ic_tensor_destroy(r1);
  ic_tensor_destroy(r2);
  ic_tensor_destroy(x1);
  ic_tensor_destroy(x2);
  ic_executor_destroy(eager);
  ic_executor_destroy(graph);
  ic_scope_destroy(s);
  ic_program_destroy(p);
}
END_TEST

/* Random wide programs on up to 8 streams: the GPU's answer equals the CPU's under every
 * policy, many times over. */
START_TEST(random_dags_on_gpu) {
  ic_executor *cpu = exec_on((ic_place){IC_PLACE_CPU, 0}, IC_STREAMS_SINGLE, 1, false);
  const int n_prog = ch_quick() ? 6 : 30, n_rep = ch_quick() ? 2 : 5;
  for (int i = 0; i < n_prog; i++) {
    ic_builder *b = ic_builder_create();
    const int64_t d[1] = {4096};
    tu_var(b, "x", IC_FP32, 1, d);
    ic_builder_feed(b, "x");
    int width = 1 + i % 8;
    char names[64][32];
    const char *ends[64];
    for (int w = 0; w < width; w++) {
      char prev[32] = "x";
      for (int k = 0; k < 6; k++) {
        snprintf(names[w], sizeof names[w], "b%d_%d", w, k);
        tu_var(b, names[w], IC_FP32, 1, d);
        ic_builder_op *op = ic_builder_add_op(b, 0, k % 2 ? "tanh" : "scale");
        ic_builder_in(op, "X", prev);
        ic_builder_out(op, "Out", names[w]);
        if (!(k % 2)) ic_builder_attr_float(op, "scale", 0.5f + (float)w);
        strcpy(prev, names[w]);
      }
      ends[w] = names[w];
    }
    tu_var(b, "out", IC_FP32, 1, d);
    ic_builder_op *sum = ic_builder_add_op(b, 0, "sum");
    ic_builder_input(sum, "X", (size_t)width, ends);
    ic_builder_out(sum, "Out", "out");
    ic_builder_fetch(b, "out");
    ic_program *p;
    ck_assert_int_eq(ic_builder_build(b, &p, NULL, 0), IC_OK);
    ic_tensor *x = tu_rand_f32(1, d, (uint64_t)i, -1, 1);
    ic_tensor *ref = run(cpu, p, NULL, "x", x, "out");
    ic_executor *g = exec_on((ic_place){IC_PLACE_CUDA, 0}, (ic_stream_policy)(i % 3), 2, false);
    for (int rep = 0; rep < n_rep; rep++) {
      ic_tensor *out = run(g, p, NULL, "x", x, "out");
      close_enough(out, ref, 1e-6, 1e-7, "random DAG");
      ic_tensor_destroy(out);
    }
    ic_executor_destroy(g);
    ic_tensor_destroy(ref);
    ic_tensor_destroy(x);
    ic_program_destroy(p);
    ic_builder_destroy(b);
  }
  ic_executor_destroy(cpu);
}
END_TEST

static TCase *tc_gpu_exec(void) {
  TCase *tc = tcase_create("gpu executor");
  tcase_set_timeout(tc, 900);
  tcase_add_loop_test(tc, real_models_on_gpu, 0, 4);
  tcase_add_test(tc, cuda_graph_replays);
  tcase_add_test(tc, random_dags_on_gpu);
  return tc;
}

CH_MAIN("cuda_executor", tc_gpu_exec)
