/* Benchmark 1: scheduling overhead per instruction. A chain of N `scale` ops on one-element
 * tensors, so the kernels cost almost nothing and what is measured is the executor:
 *   loop        a plain C loop calling the same kernel on preallocated tensors (the limit)
 *   compiled    the cached plan, serial in the calling thread
 *   compiled-2  the cached plan with a pool of 2 threads (a chain stays on one thread)
 *   uncompiled  op by op, resolving everything every run
 * Modes alternate round by round so machine noise hits them alike. */
#include <stdio.h>
#include <string.h>

#include "bench_util.h"
#include "kernels/kernel.h"
#include "scope/tensor.h"

/* The limit: the same kernel called n times on preallocated tensors. */
typedef struct loop {
  int n;
  ic_tensor *t;       /* n + 1 tensors */
  ic_kslot *in, *out; /* n each */
  ic_tensor **ptr;    /* 2n pointers */
  ic_kctx *ctx;
  void *attrs;
  ic_err err;
} loop;

static void loop_init(loop *l, const ic_program *p, int n) {
  const ic_opdef *def = ic_registry_find("scale");
  const ic_op *op = &p->blocks[0].ops[1];
  l->n = n;
  l->attrs = calloc(1, def->attrs_size);
  BU_CHECK(ic_opdef_parse(def, op, l->attrs, &l->err));
  l->t = calloc((size_t)n + 1, sizeof *l->t);
  l->in = calloc((size_t)n, sizeof *l->in);
  l->out = calloc((size_t)n, sizeof *l->out);
  l->ptr = calloc(2 * (size_t)n, sizeof *l->ptr);
  l->ctx = calloc((size_t)n, sizeof *l->ctx);
  const int64_t d[1] = {1};
  for (int i = 0; i <= n; i++) {
    ic_tensor_init(&l->t[i]);
    ic_tensor_set_meta(&l->t[i], IC_FP32, 1, d);
    BU_CHECK(ic_tensor_alloc(&l->t[i], NULL, &l->err));
    *(float *)l->t[i].data = 0;
  }
  for (int i = 0; i < n; i++) {
    l->ptr[2 * i] = &l->t[i];
    l->ptr[2 * i + 1] = &l->t[i + 1];
    l->in[i] = (ic_kslot){.n = 1, .t = &l->ptr[2 * i]};
    l->out[i] = (ic_kslot){.n = 1, .t = &l->ptr[2 * i + 1]};
    l->ctx[i] = (ic_kctx){.def = def, .op = op, .attrs = l->attrs, .in = &l->in[i],
                          .out = &l->out[i], .err = &l->err};
  }
}

static double loop_run(loop *l) {
  double t0 = bu_now();
  for (int i = 0; i < l->n; i++) {
    if (l->ctx[i].def->cpu(&l->ctx[i]) != IC_OK) exit(1);
  }
  return bu_now() - t0;
}

static void loop_free(loop *l) {
  for (int i = 0; i <= l->n; i++) ic_tensor_reset(&l->t[i]);
  free(l->t);
  free(l->in);
  free(l->out);
  free(l->ptr);
  free(l->ctx);
  free(l->attrs);
}

static double exec_run(ic_executor *e, const ic_program *p, const ic_tensor *x, const char *fetch) {
  ic_tensor *out;
  const char *feed = "x";
  double t0 = bu_now();
  BU_CHECK(ic_executor_run(e, p, NULL, 1, &feed, &x, 1, &fetch, &out));
  double t = bu_now() - t0;
  ic_tensor_destroy(out);
  return t;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  int rounds = argc > 2 ? atoi(argv[2]) : 30;
  ic_program *p = bu_scale_chain(n);
  char fetch[32];
  snprintf(fetch, sizeof fetch, "t%d", n - 1);
  ic_tensor *x;
  BU_CHECK(ic_tensor_create(IC_FP32, 1, (const int64_t[]){1}, &x));
  loop l;
  loop_init(&l, p, n);
  enum { LOOP, SERIAL, POOL, UNCOMPILED, N_MODES };
  const char *names[N_MODES] = {"plain C loop (limit)", "compiled, serial", "compiled, 2 threads",
                                "uncompiled"};
  ic_executor *ex[N_MODES] = {0};
  for (int m = SERIAL; m < N_MODES; m++) {
    ic_options o;
    ic_options_default(&o);
    o.mode = m == UNCOMPILED ? IC_MODE_UNCOMPILED : IC_MODE_COMPILED;
    o.serial = m != POOL;
    o.threads = m == POOL ? 2 : 1;
    BU_CHECK(ic_executor_create(&o, &ex[m]));
    exec_run(ex[m], p, x, fetch); /* warm-up: plan, buffers */
  }
  double *t[N_MODES];
  for (int m = 0; m < N_MODES; m++) t[m] = calloc((size_t)rounds, sizeof(double));
  for (int r = 0; r < rounds; r++) {
    t[LOOP][r] = loop_run(&l);
    for (int m = SERIAL; m < N_MODES; m++) t[m][r] = exec_run(ex[m], p, x, fetch);
  }
  double med[N_MODES];
  for (int m = 0; m < N_MODES; m++) med[m] = bu_quantile(t[m], (size_t)rounds, 0.5);
  printf("# scheduling overhead: chain of %d scale ops on 1-element tensors, %d rounds, medians\n",
         n, rounds);
  printf("%-24s %12s %14s %16s\n", "mode", "run (ms)", "ns per op", "above loop (ns)");
  for (int m = 0; m < N_MODES; m++) {
    printf("%-24s %12.3f %14.1f %16.1f\n", names[m], med[m] * 1e3, med[m] / n * 1e9,
           (med[m] - med[LOOP]) / n * 1e9);
  }
  printf("uncompiled / compiled serial: %.1fx\n", med[UNCOMPILED] / med[SERIAL]);
  for (int m = 0; m < N_MODES; m++) {
    free(t[m]);
    ic_executor_destroy(ex[m]);
  }
  loop_free(&l);
  ic_tensor_destroy(x);
  ic_program_destroy(p);
  return 0;
}
