/* truncated_gaussian_random: Out = normal values with `mean` (default 0) and `std` (default 1,
 * > 0) truncated to [a, b] (defaults -2 and 2, absolute bounds as Paddle 3's kernel takes them;
 * paddle.nn.initializer.TruncatedNormal passes mean -+ 2 std), of `shape` and `dtype`
 * (float32 default, or float64). As Paddle's TruncatedNormal functor does, a uniform u in
 * [0, 1) maps to mean + std sqrt(2) erfinv(2 p - 1) with p = Phi(a') + (Phi(b') - Phi(a')) u
 * (a', b' the standardized bounds), computed in double. u is element i's Philox draw (word
 * i % 4 of block i / 4 of the op's stream, philox.h; `seed` 0 takes the executor's), so the
 * values follow Paddle's distribution but are not Paddle's mt19937 numbers. */
#include <math.h>

#include "kernels/cpu/fill.h"
#include "kernels/cpu/philox.h"

typedef struct tgr_attrs {
  const int64_t *shape;
  size_t n_shape;
  ic_dtype dtype;
  double mean, std, a, b;
  int64_t seed;
} tgr_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  tgr_attrs *a = attrs;
  ic_ar_ints(r, "shape", true, &a->shape, &a->n_shape);
  ic_fill_parse_dtype(r, "dtype", IC_FP32, IC_DT(IC_FP32) | IC_DT(IC_FP64), &a->dtype);
  a->mean = (float)ic_ar_float(r, "mean", 0.0);
  a->std = (float)ic_ar_float(r, "std", 1.0);
  a->a = (float)ic_ar_float(r, "a", -2.0);
  a->b = (float)ic_ar_float(r, "b", 2.0);
  a->seed = ic_ar_int(r, "seed", 0);
  if (!r->st && !(a->std > 0)) ic_ar_fail(r, "std", "is %g, expected > 0", a->std);
  if (!r->st && !(a->a < a->b)) {
    ic_ar_fail(r, "a", "is %g, expected less than attribute 'b' (%g)", a->a, a->b);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const tgr_attrs *a = c->attrs;
  if (a->n_shape > IC_MAX_RANK) {
    return ic_kfail(c, IC_ERR_SHAPE, "attribute 'shape' has %zu dims, at most %d", a->n_shape,
                    IC_MAX_RANK);
  }
  int64_t dims[IC_MAX_RANK];
  for (size_t i = 0; i < a->n_shape; i++) {
    if (a->shape[i] < 0) {
      return ic_kfail(c, IC_ERR_SHAPE, "attribute 'shape' holds %lld, expected sizes >= 0",
                      (long long)a->shape[i]);
    }
    dims[i] = a->shape[i];
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, (int)a->n_shape, dims);
  return IC_OK;
}

/* erf^-1(y) for y in (-1, 1): an initial guess refined by Newton steps on erf (double). */
static double erfinv(double y) {
  if (y <= -1) return -INFINITY;
  if (y >= 1) return INFINITY;
  double w = -log((1 - y) * (1 + y)), x;
  /* Giles' single-precision approximation as the start */
  if (w < 5) {
    w -= 2.5;
    double p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
    x = p * y;
  } else {
    w = sqrt(w) - 3;
    double p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
    x = p * y;
  }
  for (int k = 0; k < 2; k++) x -= (erf(x) - y) / (1.1283791670955126 * exp(-x * x));
  return x;
}

static ic_status run(ic_kctx *c) {
  const tgr_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_tensor_numel_(o);
  uint64_t key = ic_philox_key(a->seed, c->env->seed, c->op_key);
  const double pa = (1 + erf((a->a - a->mean) / a->std / sqrt(2.0))) / 2;
  const double pb = (1 + erf((a->b - a->mean) / a->std / sqrt(2.0))) / 2;
  for (int64_t i = 0; i < n; i += 4) {
    ic_philox4 r = ic_philox_block(key, (uint64_t)i);
    for (int64_t j = i; j < n && j < i + 4; j++) {
      double u = ic_philox_u24(r.v[j - i]), p = pa + (pb - pa) * u;
      double v = sqrt(2.0) * erfinv(2 * p - 1) * a->std + a->mean;
      /* keep rounding from leaving [a, b] */
      v = v < a->a ? a->a : v > a->b ? a->b : v;
      if (o->dtype == IC_FP64) ((double *)o->data)[j] = v;
      else ((float *)o->data)[j] = (float)v;
    }
  }
  return IC_OK;
}

static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_truncated_gaussian_random = {
    .name = "truncated_gaussian_random",
    .n_inputs = 0, .inputs = NULL,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(tgr_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_RANDOM,
};
