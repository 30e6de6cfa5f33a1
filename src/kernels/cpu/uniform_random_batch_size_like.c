/* uniform_random_batch_size_like: Out = values uniform in [min, max) (defaults -1 and 1;
 * min < max) of dims `shape` whose dim output_dim_idx is replaced by Input's dim
 * input_dim_idx (the batch size), in `dtype` (default float32; also float64, float16,
 * bfloat16); Input is read for its dims only (paddle/fluid/operators/
 * uniform_random_batch_size_like_op.cc, BatchSizeLikeOp). A non-zero `seed` fixes the stream,
 * 0 takes the executor's; the values come from icore's Philox stream exactly as
 * uniform_random draws them (philox.h), so they do not match Paddle's mt19937 bits. With
 * diag_num > 0, elements i * (diag_step + 1) for i < diag_num are then set to diag_val, as
 * Paddle does (which requires (diag_num - 1) * (diag_step + 1) < numel). */
#include <string.h>

#include "kernels/cpu/fill.h"
#include "kernels/cpu/half.h"
#include "kernels/cpu/philox.h"

#define DTYPES (IC_DT(IC_FP32) | IC_DT(IC_FP64) | IC_DT(IC_FP16) | IC_DT(IC_BF16))

typedef struct urbsl_attrs {
  int n_shape;
  int64_t shape[IC_MAX_RANK];
  int64_t input_dim_idx, output_dim_idx;
  ic_dtype dtype;
  float min, max;
  int64_t seed;
  int64_t diag_num, diag_step;
  float diag_val;
} urbsl_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  urbsl_attrs *a = attrs;
  const int64_t *shape = NULL;
  size_t n = 0;
  ic_ar_ints(r, "shape", true, &shape, &n);
  a->input_dim_idx = ic_ar_int(r, "input_dim_idx", 0);
  a->output_dim_idx = ic_ar_int(r, "output_dim_idx", 0);
  ic_fill_parse_dtype(r, "dtype", IC_FP32, DTYPES, &a->dtype);
  a->min = (float)ic_ar_float(r, "min", -1.0);
  a->max = (float)ic_ar_float(r, "max", 1.0);
  a->seed = ic_ar_int(r, "seed", 0);
  a->diag_num = ic_ar_int(r, "diag_num", 0);
  a->diag_step = ic_ar_int(r, "diag_step", 0);
  a->diag_val = (float)ic_ar_float(r, "diag_val", 1.0);
  if (r->st) return r->st;
  if (n == 0 || n > IC_MAX_RANK) {
    return ic_ar_fail(r, "shape", "has %zu dims, expected 1 to %d", n, IC_MAX_RANK);
  }
  a->n_shape = (int)n;
  memcpy(a->shape, shape, n * sizeof *shape);
  if (a->input_dim_idx < 0) {
    return ic_ar_fail(r, "input_dim_idx", "is %lld, expected >= 0", (long long)a->input_dim_idx);
  }
  if (a->output_dim_idx < 0 || a->output_dim_idx >= (int64_t)n) {
    return ic_ar_fail(r, "output_dim_idx", "is %lld, expected in [0, %zu) for shape of rank %zu",
                      (long long)a->output_dim_idx, n, n);
  }
  if (!(a->min < a->max)) {
    return ic_ar_fail(r, "min", "is %g, expected less than attribute 'max' (%g)", (double)a->min,
                      (double)a->max);
  }
  if (a->diag_num < 0 || a->diag_step < 0) {
    return ic_ar_fail(r, a->diag_num < 0 ? "diag_num" : "diag_step", "is %lld, expected >= 0",
                      (long long)(a->diag_num < 0 ? a->diag_num : a->diag_step));
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const urbsl_attrs *a = c->attrs;
  const ic_tensor *in = ic_in(c, 0, 0);
  if (a->input_dim_idx >= in->ndim) {
    return ic_kfail_in(c, 0, 0, "attribute 'input_dim_idx' is %lld, expected < its rank %d",
                       (long long)a->input_dim_idx, in->ndim);
  }
  int64_t dims[IC_MAX_RANK];
  memcpy(dims, a->shape, sizeof dims);
  dims[a->output_dim_idx] = in->dims[a->input_dim_idx];
  char buf[128];
  for (int d = 0; d < a->n_shape; d++) {
    if (dims[d] < 0) {
      return ic_kfail(c, IC_ERR_SHAPE,
                      "attribute 'shape' is %s with dim %lld replaced by dim %lld of input Input "
                      "'%s': dim %d is %lld, expected >= 0",
                      ic_dims_str(a->n_shape, a->shape, buf, sizeof buf),
                      (long long)a->output_dim_idx, (long long)a->input_dim_idx,
                      ic_in_name(c, 0, 0), d, (long long)dims[d]);
    }
  }
  const int64_t n = ic_numel(a->n_shape, dims);
  if (a->diag_num > 0 && (a->diag_num - 1) * (a->diag_step + 1) >= n) {
    return ic_kfail(c, IC_ERR_SHAPE,
                    "attributes diag_num %lld and diag_step %lld reach element %lld, beyond "
                    "the output's %lld elements (shape %s)",
                    (long long)a->diag_num, (long long)a->diag_step,
                    (long long)((a->diag_num - 1) * (a->diag_step + 1)), (long long)n,
                    ic_dims_str(a->n_shape, dims, buf, sizeof buf));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, a->n_shape, dims);
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
    for (int64_t d = 0; d < a->diag_num; d++) p[d * (a->diag_step + 1)] = STORE(a->diag_val); \
  } while (0)

#define SAME(v) (v)

static ic_status run(ic_kctx *c) {
  const urbsl_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(o);
  const uint64_t key = ic_philox_key(a->seed, c->env->seed, c->op_key);
  switch (o->dtype) {
    case IC_FP64: GEN(double, double, a->min, (double)a->max - a->min, SAME); break;
    case IC_FP16: GEN(uint16_t, float, a->min, a->max - a->min, ic_f32_to_f16); break;
    case IC_BF16: GEN(uint16_t, float, a->min, a->max - a->min, ic_f32_to_bf16); break;
    default: GEN(float, float, a->min, a->max - a->min, SAME); break;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", IC_SLOT_NO_BUFFER}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_uniform_random_batch_size_like = {
    .name = "uniform_random_batch_size_like",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(urbsl_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_RANDOM,
};
