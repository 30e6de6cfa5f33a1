/* uniform_random: Out = values uniform in [min, max) (defaults -1 and 1; min < max), of
 * `shape` (or ShapeTensor / ShapeTensorList, see fill.h) and `dtype` (default float32; also
 * float64, float16, bfloat16). A non-zero `seed` fixes the stream, 0 takes the executor's
 * (philox.h). Element i is min + u (max - min) with u = (bits >> 8) / 2^24 from word i % 4
 * of Philox block i / 4, computed in the output's precision (float for float16 and
 * bfloat16). With diag_num > 0, elements i * (diag_step + 1) for i < diag_num are then set
 * to diag_val, as paddle/phi/kernels/legacy/cpu/uniform_kernel.cc does. */
#include "kernels/cpu/fill.h"
#include "kernels/cpu/half.h"
#include "kernels/cpu/philox.h"

#define DTYPES (IC_DT(IC_FP32) | IC_DT(IC_FP64) | IC_DT(IC_FP16) | IC_DT(IC_BF16))

static ic_status parse(ic_attr_reader *r, void *attrs) {
  uniform_random_attrs *a = attrs;
  ic_ar_ints(r, "shape", false, &a->shape, &a->n_shape);
  ic_fill_parse_dtype(r, "dtype", IC_FP32, DTYPES, &a->dtype);
  a->min = (float)ic_ar_float(r, "min", -1.0);
  a->max = (float)ic_ar_float(r, "max", 1.0);
  a->seed = ic_ar_int(r, "seed", 0);
  a->diag_num = ic_ar_int(r, "diag_num", 0);
  a->diag_step = ic_ar_int(r, "diag_step", 0);
  a->diag_val = (float)ic_ar_float(r, "diag_val", 1.0);
  if (!r->st && !(a->min < a->max)) {
    ic_ar_fail(r, "min", "is %g, expected less than attribute 'max' (%g)", (double)a->min,
               (double)a->max);
  }
  if (!r->st && (a->diag_num < 0 || a->diag_step < 0)) {
    ic_ar_fail(r, a->diag_num < 0 ? "diag_num" : "diag_step", "is %lld, expected >= 0",
               (long long)(a->diag_num < 0 ? a->diag_num : a->diag_step));
  }
  return r->st;
}

enum { IN_SHAPE, IN_SHAPE_LIST };

static ic_status infer(ic_kctx *c) {
  const uniform_random_attrs *a = c->attrs;
  int ndim;
  int64_t dims[IC_MAX_RANK];
  ic_status st = ic_fill_shape(c, IN_SHAPE, IN_SHAPE_LIST, a->shape, a->n_shape, &ndim, dims);
  if (st) return st;
  int64_t n = ic_numel(ndim, dims);
  if (a->diag_num > 0 && (n < 0 || (a->diag_num - 1) * (a->diag_step + 1) >= n)) {
    char d[128];
    return ic_kfail(c, IC_ERR_SHAPE,
                    "attributes diag_num %lld and diag_step %lld reach element %lld, beyond "
                    "the output's %lld elements (shape %s)",
                    (long long)a->diag_num, (long long)a->diag_step,
                    (long long)((a->diag_num - 1) * (a->diag_step + 1)), (long long)n,
                    ic_dims_str(ndim, dims, d, sizeof d));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, ndim, dims);
  return IC_OK;
}

#define GEN(T, U, LO, SPAN, STORE)                                                         \
  do {                                                                                     \
    T *restrict p = o->data;                                                               \
    const U lo = (LO), span = (SPAN);                                                      \
    for (int64_t i = 0; i < n; i += 4) {                                                   \
      ic_philox4 r = ic_philox_block(key, (uint64_t)i);                                    \
      for (int64_t j = i; j < n && j < i + 4; j++) {                                       \
        U v = lo + (U)ic_philox_u24(r.v[j - i]) * span;                                    \
        p[j] = STORE(v);                                                                   \
      }                                                                                    \
    }                                                                                      \
    for (int64_t d = 0; d < a->diag_num; d++) {                                            \
      p[d * (a->diag_step + 1)] = STORE(a->diag_val);                                      \
    }                                                                                      \
  } while (0)

#define SAME(v) (v)

static ic_status run(ic_kctx *c) {
  const uniform_random_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_tensor_numel_(o);
  uint64_t key = ic_philox_key(a->seed, c->env->seed, c->op_key);
  switch (o->dtype) {
    case IC_FP64: GEN(double, double, a->min, (double)a->max - a->min, SAME); break;
    case IC_FP16: GEN(uint16_t, float, a->min, a->max - a->min, ic_f32_to_f16); break;
    case IC_BF16: GEN(uint16_t, float, a->min, a->max - a->min, ic_f32_to_bf16); break;
    default: GEN(float, float, a->min, a->max - a->min, SAME); break;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"ShapeTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"ShapeTensorList", IC_SLOT_OPTIONAL | IC_SLOT_VALUE | IC_SLOT_MULTI},
};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_uniform_random = {
    .name = "uniform_random",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(uniform_random_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_RANDOM,
};
