/* Synthetic parameters (ic_params_random): every parameter of block 0 filled from a stream
 * keyed by (seed, name), small uniform values, batch-norm variances positive. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "common/strmap.h"
#include "scope/lodtensor_io.h"
#include "scope/params.h"
#include "scope/scope.h"

/* ---------------------------------------------------------------------------------------
 * Synthetic parameters
 * ------------------------------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}


/* Variables read as the Variance of a batch norm: synthetic variances must be positive. */
static ic_status collect_variances(const ic_program *p, ic_strmap *out, ic_err *err) {
  static const char *const bn_types[] = {"batch_norm", "sync_batch_norm"};
  for (size_t b = 0; b < p->n_blocks; b++) {
    for (size_t i = 0; i < p->blocks[b].n_ops; i++) {
      const ic_op *op = &p->blocks[b].ops[i];
      bool bn = false;
      for (size_t k = 0; k < sizeof bn_types / sizeof bn_types[0]; k++) {
        bn |= strcmp(op->type, bn_types[k]) == 0;
      }
      const ic_slot *s = bn ? ic_op_input(op, "Variance") : NULL;
      for (size_t k = 0; s && k < s->n; k++) {
        if (!ic_strmap_put(out, s->args[k], (void *)s->args[k])) {
          return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
        }
      }
    }
  }
  return IC_OK;
}

/* Element k of the stream keyed by (seed, name): uniform in [0, 1), a pure function of its
 * arguments so values do not depend on declaration order or on other variables. */
static double uniform_at(uint64_t stream, uint64_t k) {
  return (double)(splitmix64(stream ^ splitmix64(k)) >> 11) * 0x1.0p-53;
}

static void fill_random(ic_tensor *t, uint64_t stream, double lo, double hi) {
  int64_t n = ic_numel(t->ndim, t->dims);
  for (int64_t k = 0; k < n; k++) {
    double v = lo + (hi - lo) * uniform_at(stream, (uint64_t)k);
    switch (t->dtype) {
      case IC_FP32: ((float *)t->data)[k] = (float)v; break;
      case IC_FP64: ((double *)t->data)[k] = v; break;
      case IC_FP16: ((uint16_t *)t->data)[k] = ic_f32_to_f16((float)v); break;
      case IC_BF16: ((uint16_t *)t->data)[k] = ic_f32_to_bf16((float)v); break;
      default: return; /* integers and bools stay zero */
    }
  }
}

static ic_status random_params(const ic_program *p, uint64_t seed, ic_scope *scope,
                               ic_err *err) {
  const ic_vardesc **vars = NULL;
  size_t n = 0;
  ic_strmap variances;
  ic_strmap_init(&variances);
  ic_status st = ic_params_list(p, &vars, &n, err);
  if (!st) st = collect_variances(p, &variances, err);
  for (size_t i = 0; i < n && !st; i++) {
    const ic_vardesc *v = vars[i];
    char d[160];
    if (ic_numel(v->ndim, v->dims) < 0) {
      st = ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "%s: parameter '%s' is declared %s: synthetic values need every dim "
                      ">= 0",
                      p->origin, v->name, ic_lt_describe(v->dtype, v->ndim, v->dims, d, sizeof d));
    }
  }
  for (size_t i = 0; i < n && !st; i++) {
    const ic_vardesc *v = vars[i];
    ic_tensor t;
    ic_tensor_init(&t);
    ic_tensor_set_meta(&t, v->dtype, v->ndim, v->dims);
    if ((st = ic_tensor_alloc(&t, NULL, err))) {
      ic_err_prefix(err, "%s: parameter '%s': ", p->origin, v->name);
      break;
    }
    memset(t.data, 0, ic_tensor_nbytes(&t));
    uint64_t stream = splitmix64(seed ^ splitmix64(XXH3_64bits(v->name, strlen(v->name))));
    bool var = ic_strmap_get(&variances, v->name) != NULL;
    fill_random(&t, stream, var ? 0.5 : -0.1, var ? 1.5 : 0.1);
    st = ic_params_put(scope, v->name, &t, err);
    ic_tensor_reset(&t);
  }
  ic_strmap_free(&variances);
  free(vars);
  return st;
}
ic_status ic_params_random(const ic_program *p, uint64_t seed, ic_scope *scope, char *errbuf,
                           size_t errlen) {
  if (!p || !scope) return ic_api_null_arg("ic_params_random", errbuf, errlen);
  ic_err err;
  ic_err_clear(&err);
  return ic_api_finish(random_params(p, seed, scope, &err), &err, errbuf, errlen);
}
