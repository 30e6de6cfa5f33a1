/* make_example DIR: write the bundled example into DIR, a small MLP classifier built with
 * the program builder:
 *
 *   x [-1, 16] -> mul(W1 [16, 32]) -> elementwise_add(b1, axis 1) -> relu
 *              -> mul(W2 [32, 10]) -> elementwise_add(b2, axis 1) -> softmax -> fetch
 *
 * DIR/mlp.pdmodel    the program (a ProgramDesc, as Paddle writes it)
 * DIR/mlp.pdiparams  its parameters, deterministic (seeded), saved with ic_params_save
 * DIR/x.npy          an input of 4 rows
 *
 * Then: icore run DIR/mlp.pdmodel --feed x=DIR/x.npy */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example_mlp.h"
#include "icore/icore.h"
#include "npy.h"

enum { IN = IC_MLP_IN, HIDDEN = IC_MLP_HIDDEN, OUT = IC_MLP_OUT, ROWS = 4 };

/* splitmix64: uniform doubles in [lo, hi) from a seed, reproducible everywhere. */
static double uniform(uint64_t *state, double lo, double hi) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return lo + (hi - lo) * (double)(z >> 11) * 0x1.0p-53;
}

/* A parameter tensor uniform in [-limit, limit). */
static int put_param(ic_scope *s, const char *name, int ndim, const int64_t *dims,
                     double limit, uint64_t *rng) {
  ic_tensor *t;
  if (ic_tensor_create(IC_FP32, ndim, dims, &t)) return 1;
  float *d = ic_tensor_data(t);
  for (int64_t k = 0; k < ic_tensor_numel(t); k++) d[k] = (float)uniform(rng, -limit, limit);
  int rc = ic_scope_set(s, name, t) != IC_OK;
  ic_tensor_destroy(t);
  return rc;
}

static int write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return 1;
  int bad = fwrite(data, 1, n, f) != n;
  return fclose(f) != 0 || bad;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: make_example DIR\n");
    return 2;
  }
  char path[4096], err[1024];
  int rc = 1;
  ic_builder *b = ic_example_mlp();
  ic_program *p = NULL;
  ic_scope *s = NULL;
  ic_tensor *x = NULL;
  void *bytes = NULL;
  size_t n;
  if (!b || ic_builder_serialize(b, &bytes, &n) || ic_builder_build(b, &p, err, sizeof err)) {
    fprintf(stderr, "make_example: cannot build the program\n");
    goto done;
  }
  snprintf(path, sizeof path, "%s/mlp.pdmodel", argv[1]);
  if (write_file(path, bytes, n)) {
    fprintf(stderr, "make_example: cannot write %s\n", path);
    goto done;
  }
  /* Glorot-uniform weights, small biases. */
  uint64_t rng = 20240611;
  double l1 = sqrt(6.0 / (IN + HIDDEN)), l2 = sqrt(6.0 / (HIDDEN + OUT));
  if (ic_scope_create(NULL, &s) ||
      put_param(s, "fc1.w", 2, (const int64_t[]){IN, HIDDEN}, l1, &rng) ||
      put_param(s, "fc1.b", 1, (const int64_t[]){HIDDEN}, 0.1, &rng) ||
      put_param(s, "fc2.w", 2, (const int64_t[]){HIDDEN, OUT}, l2, &rng) ||
      put_param(s, "fc2.b", 1, (const int64_t[]){OUT}, 0.1, &rng)) {
    fprintf(stderr, "make_example: out of memory\n");
    goto done;
  }
  snprintf(path, sizeof path, "%s/mlp.pdiparams", argv[1]);
  if (ic_params_save(p, s, path, IC_PARAMS_COMBINED, err, sizeof err)) {
    fprintf(stderr, "make_example: %s\n", err);
    goto done;
  }
  if (ic_tensor_create(IC_FP32, 2, (const int64_t[]){ROWS, IN}, &x)) goto done;
  float *xd = ic_tensor_data(x);
  for (int k = 0; k < ROWS * IN; k++) xd[k] = (float)uniform(&rng, -1, 1);
  snprintf(path, sizeof path, "%s/x.npy", argv[1]);
  if (ic_npy_save(path, x, err, sizeof err)) {
    fprintf(stderr, "make_example: %s\n", err);
    goto done;
  }
  rc = 0;
done:
  ic_tensor_destroy(x);
  ic_scope_destroy(s);
  ic_program_destroy(p);
  free(bytes);
  ic_builder_destroy(b);
  return rc;
}
