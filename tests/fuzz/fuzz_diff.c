/* libFuzzer target, differential: the input describes a small program (the op mix of the
 * random-program stress test in tests/test_stress.c plus shape ops, split/concat and an
 * inference batch_norm, with output names the input chooses freely, so aliased outputs and
 * meta-only outputs read as data come up too). It runs uncompiled, then compiled in program
 * order (sequential), with 1 thread and with 2, rewrites off (fuse = false), freed buffers
 * poisoned. Every run must succeed or fail alike; the sequential run must fail with the same
 * status and message as the uncompiled one, and successes give bitwise-equal fetches. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icore/icore.h"
#include "interp/interp.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LEN 6
#define MAX_V 6
#define MAX_OPS 48
#define N_EXEC 4

static ic_executor *g_exec[N_EXEC];
static const char *const k_exec_name[N_EXEC] = {"uncompiled", "compiled/sequential",
                                                 "compiled/1", "compiled/2"};

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  for (int c = 0; c < N_EXEC; c++) {
    ic_options o;
    ic_options_default(&o);
    o.mode = c == 0 ? IC_MODE_UNCOMPILED : IC_MODE_COMPILED;
    o.threads = c == 3 ? 2 : 1;
    o.serial = c < 3;
    o.sequential = c == 1;
    o.fuse = false;
    o.cache_capacity = 2;
    if (ic_executor_create(&o, &g_exec[c]) != IC_OK) abort();
    ic_executor_poison_freed(g_exec[c], true);
  }
  return 0;
}

typedef struct src {
  const uint8_t *d;
  size_t n, at;
} src;

static unsigned take(src *s) { return s->at < s->n ? s->d[s->at++] : 0; }
static bool more(const src *s) { return s->at < s->n; }

static const char *const k_v[MAX_V] = {"v0", "v1", "v2", "v3", "v4", "v5"};

/* One of the [LEN] variables, or now and then another variable (hostile names). */
static const char *pick(src *s, int nv) {
  unsigned b = take(s);
  if (b >= 250) {
    static const char *const odd[] = {"m", "xs", "sm", "p", "q", "m2"};
    return odd[b - 250];
  }
  return k_v[b % (unsigned)nv];
}

static void build(src *s, ic_builder *b, int nv) {
  for (int v = 0; v < nv; v++) {
    ic_builder_var(b, 0, k_v[v], IC_FP32, 1, (const int64_t[]){LEN}, false);
  }
  ic_builder_var(b, 0, "m", IC_FP32, 2, (const int64_t[]){2, 3}, false);
  ic_builder_var(b, 0, "m2", IC_FP32, 2, (const int64_t[]){-1, -1}, false);
  ic_builder_var(b, 0, "xs", IC_FP32, 3, (const int64_t[]){0, -1, -1}, false);
  ic_builder_var(b, 0, "sm", IC_FP32, 1, (const int64_t[]){3}, false);
  ic_builder_var(b, 0, "sv", IC_FP32, 1, (const int64_t[]){3}, false);
  ic_builder_var(b, 0, "p", IC_FP32, 1, (const int64_t[]){-1}, false);
  ic_builder_var(b, 0, "q", IC_FP32, 1, (const int64_t[]){-1}, false);
  const char *params[] = {"bn.scale", "bn.bias", "bn.mean", "bn.var"};
  for (int i = 0; i < 4; i++) {
    ic_builder_var(b, 0, params[i], IC_FP32, 1, (const int64_t[]){3}, true);
  }
  for (int v = 0; v < nv; v++) ic_builder_feed(b, k_v[v]);
  ic_builder_feed(b, "m");
  for (int i = 0; i < MAX_OPS && more(s); i++) {
    unsigned kind = take(s) % 14;
    const char *x = pick(s, nv), *y = pick(s, nv), *out = pick(s, nv);
    unsigned a = take(s);
    ic_builder_op *op;
    switch (kind) {
      case 0: case 1: {
        static const char *const bin[] = {"elementwise_add", "elementwise_sub", "elementwise_mul",
                                          "elementwise_max", "elementwise_min", "elementwise_div"};
        op = ic_builder_add_op(b, 0, bin[a % 6]);
        ic_builder_in(op, "X", x);
        ic_builder_in(op, "Y", y);
        ic_builder_out(op, "Out", a & 0x80 ? x : out);
        break;
      }
      case 2:
        op = ic_builder_add_op(b, 0, "scale");
        ic_builder_in(op, "X", x);
        ic_builder_out(op, "Out", a & 0x80 ? x : out);
        ic_builder_attr_float(op, "scale", (float)((int)(a % 7) - 3) * 0.5f);
        ic_builder_attr_float(op, "bias", (float)(a % 5) * 0.25f);
        ic_builder_attr_bool(op, "bias_after_scale", (a & 0x40) != 0);
        break;
      case 3: {
        static const char *const un[] = {"tanh", "relu", "sigmoid", "abs", "exp", "hard_swish",
                                         "gelu", "sqrt"};
        op = ic_builder_add_op(b, 0, un[a % 8]);
        ic_builder_in(op, "X", x);
        ic_builder_out(op, "Out", out);
        break;
      }
      case 4:
        op = ic_builder_add_op(b, 0, "assign");
        ic_builder_in(op, "X", x);
        ic_builder_out(op, "Out", out);
        break;
      case 5: /* reshape there and back; XShape may be any name */
        op = ic_builder_add_op(b, 0, "reshape2");
        ic_builder_in(op, "X", x);
        ic_builder_out(op, "Out", "m");
        ic_builder_out(op, "XShape", a & 0x80 ? y : "xs");
        ic_builder_attr_ints(op, "shape", 2, (const int32_t[]){2, -1});
        op = ic_builder_add_op(b, 0, "reshape2");
        ic_builder_in(op, "X", "m");
        ic_builder_out(op, "Out", out);
        ic_builder_out(op, "XShape", "xs");
        ic_builder_attr_ints(op, "shape", 1, (const int32_t[]){LEN});
        break;
      case 6: {
        const char *ins[3] = {x, y, out};
        op = ic_builder_add_op(b, 0, "sum");
        ic_builder_input(op, "X", 1 + a % 3, ins);
        ic_builder_out(op, "Out", a & 0x80 ? x : out);
        break;
      }
      case 7:
        op = ic_builder_add_op(b, 0, "uniform_random");
        ic_builder_out(op, "Out", out);
        ic_builder_attr_longs(op, "shape", 1, (const int64_t[]){LEN});
        ic_builder_attr_int(op, "seed", (int)(a % 3));
        break;
      case 8:
        op = ic_builder_add_op(b, 0, "clip");
        ic_builder_in(op, "X", x);
        ic_builder_out(op, "Out", out);
        ic_builder_attr_float(op, "min", -(float)(a % 4));
        ic_builder_attr_float(op, "max", (float)(a % 5));
        break;
      case 9: { /* split in two and concatenate back, maybe swapped or aliased */
        const char *parts[2] = {"p", a & 0x80 ? "p" : "q"};
        op = ic_builder_add_op(b, 0, "split");
        ic_builder_in(op, "X", x);
        ic_builder_output(op, "Out", 2, parts);
        ic_builder_attr_int(op, "axis", 0);
        ic_builder_attr_int(op, "num", 2);
        const char *cat[2] = {a & 1 ? "q" : "p", a & 1 ? "p" : "q"};
        op = ic_builder_add_op(b, 0, "concat");
        ic_builder_input(op, "X", 2, cat);
        ic_builder_out(op, "Out", out);
        ic_builder_attr_int(op, "axis", 0);
        break;
      }
      case 10: { /* transpose m; XShape may be read */
        int32_t perm[2] = {1, 0};
        op = ic_builder_add_op(b, 0, "transpose2");
        ic_builder_in(op, "X", "m");
        ic_builder_out(op, "Out", "m2");
        ic_builder_out(op, "XShape", a & 0x80 ? "m2" : "xs");
        ic_builder_attr_ints(op, "axis", 2, perm);
        op = ic_builder_add_op(b, 0, "reshape2");
        ic_builder_in(op, "X", a & 0x40 ? "xs" : "m2");
        ic_builder_out(op, "Out", out);
        ic_builder_attr_ints(op, "shape", 1, (const int32_t[]){LEN});
        break;
      }
      case 11: { /* inference batch_norm on m; SavedMean may be read */
        op = ic_builder_add_op(b, 0, "batch_norm");
        ic_builder_in(op, "X", "m");
        ic_builder_in(op, "Scale", params[0]);
        ic_builder_in(op, "Bias", params[1]);
        ic_builder_in(op, "Mean", params[2]);
        ic_builder_in(op, "Variance", params[3]);
        ic_builder_out(op, "Y", a & 0x80 ? "sm" : "m2");
        ic_builder_out(op, "MeanOut", params[2]);
        ic_builder_out(op, "VarianceOut", params[3]);
        ic_builder_out(op, "SavedMean", "sm");
        ic_builder_out(op, "SavedVariance", "sv");
        ic_builder_attr_bool(op, "is_test", true);
        ic_builder_attr_float(op, "epsilon", 1e-5f);
        op = ic_builder_add_op(b, 0, a & 0x40 ? "relu" : "reshape2");
        ic_builder_in(op, "X", a & 0x20 ? "sm" : "m2");
        ic_builder_out(op, "Out", a & 0x40 ? "p" : out);
        if (!(a & 0x40)) ic_builder_attr_ints(op, "shape", 1, (const int32_t[]){-1});
        break;
      }
      case 12:
        op = ic_builder_add_op(b, 0, "softmax");
        ic_builder_in(op, "X", x);
        ic_builder_out(op, "Out", out);
        ic_builder_attr_int(op, "axis", -1);
        break;
      default:
        op = ic_builder_add_op(b, 0, "cast");
        ic_builder_in(op, "X", x);
        ic_builder_out(op, "Out", out);
        ic_builder_attr_int(op, "in_dtype", IC_FP32);
        ic_builder_attr_int(op, "out_dtype", a & 1 ? IC_FP64 : IC_FP32);
        break;
    }
  }
}

static void fail(const char *what, const char *a, const char *b) {
  fprintf(stderr, "fuzz_diff: %s\n  uncompiled: %s\n  other:      %s\n", what, a, b);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  src s = {data, size, 0};
  int nv = 2 + (int)(take(&s) % (MAX_V - 1));
  unsigned fetch_mask = take(&s);
  ic_builder *b = ic_builder_create();
  build(&s, b, nv);
  ic_program *p = NULL;
  char err[512];
  ic_status st = ic_builder_build(b, &p, err, sizeof err);
  ic_builder_destroy(b);
  if (st) return 0; /* not a program (an undeclared name can not happen: all are declared) */
  ic_scope *scope = NULL;
  if (ic_scope_create(NULL, &scope) != IC_OK || ic_params_random(p, 5, scope, err, sizeof err)) {
    abort();
  }
  const char *fetch[MAX_V + 1];
  size_t nf = 0;
  for (int v = 0; v < nv; v++) {
    if (fetch_mask & (1u << v)) fetch[nf++] = k_v[v];
  }
  if (fetch_mask & 0x80) fetch[nf++] = "m";
  if (nf == 0) fetch[nf++] = k_v[0];
  const char *feed_names[MAX_V + 1];
  ic_tensor *feeds[MAX_V + 1];
  for (int v = 0; v <= nv; v++) {
    int64_t dims[2] = {v < nv ? LEN : 2, 3};
    if (ic_tensor_create(IC_FP32, v < nv ? 1 : 2, dims, &feeds[v]) != IC_OK) abort();
    float *f = ic_tensor_data(feeds[v]);
    for (int k = 0; k < LEN; k++) f[k] = (float)((v * 7 + k * 3) % 11) * 0.4f - 2.0f;
    feed_names[v] = v < nv ? k_v[v] : "m";
  }
  ic_tensor *ref[MAX_V + 1] = {0}, *got[MAX_V + 1];
  ic_status ref_st = IC_OK;
  char ref_msg[1024] = "";
  for (int c = 0; c < N_EXEC; c++) {
    st = ic_executor_run(g_exec[c], p, scope, (size_t)nv + 1, feed_names,
                         (const ic_tensor *const *)feeds, nf, fetch, got);
    const char *msg = st ? ic_executor_errmsg(g_exec[c]) : "";
    if (c == 0) {
      ref_st = st;
      snprintf(ref_msg, sizeof ref_msg, "%s", msg);
      if (!st) memcpy(ref, got, nf * sizeof *got);
      continue;
    }
    if (st != ref_st && (c == 1 || !st || !ref_st)) {
      char what[128];
      snprintf(what, sizeof what, "%s returned %s, uncompiled %s", k_exec_name[c],
               ic_status_name(st), ic_status_name(ref_st));
      fail(what, ref_msg, msg);
    }
    if (st) {
      /* A sequential run goes in program order and must report the very same error. In
       * the others, which of several independent failing ops runs first is up to the
       * scheduler, so there only failing (above) is compared. */
      if (c == 1 && strcmp(msg, ref_msg) != 0) fail("different error messages", ref_msg, msg);
      continue;
    }
    for (size_t f = 0; f < nf; f++) {
      const ic_tensor *x = ref[f], *y = got[f];
      if (ic_tensor_dtype(x) != ic_tensor_dtype(y) || ic_tensor_ndim(x) != ic_tensor_ndim(y) ||
          memcmp(ic_tensor_dims(x), ic_tensor_dims(y),
                 (size_t)ic_tensor_ndim(x) * sizeof(int64_t)) ||
          ic_tensor_nbytes(x) != ic_tensor_nbytes(y) ||
          memcmp(ic_tensor_cdata(x), ic_tensor_cdata(y), ic_tensor_nbytes(x)) != 0) {
        fail("fetches differ bitwise", fetch[f], k_exec_name[c]);
      }
      ic_tensor_destroy(got[f]);
    }
  }
  if (!ref_st) {
    for (size_t f = 0; f < nf; f++) ic_tensor_destroy(ref[f]);
  }
  for (int v = 0; v <= nv; v++) ic_tensor_destroy(feeds[v]);
  ic_scope_destroy(scope);
  ic_program_destroy(p);
  return 0;
}
