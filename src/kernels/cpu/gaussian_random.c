/* gaussian_random: Out = normal values with `mean` (default 0) and `std` (default 1, >= 0),
 * of `shape` (or ShapeTensor / ShapeTensorList, see fill.h) and `dtype` (default float32;
 * also float64, float16, bfloat16). A non-zero `seed` fixes the stream, 0 takes the
 * executor's (philox.h). Philox block i / 4 gives elements i..i+3: Box-Muller turns words
 * (0, 1) into elements 0 and 1 (cosine, sine) and words (2, 3) into elements 2 and 3; the
 * value mean + std * z is computed in double and rounded to the output dtype. */
#include "kernels/cpu/fill.h"
#include "kernels/cpu/half.h"
#include "kernels/cpu/philox.h"

#define DTYPES (IC_DT(IC_FP32) | IC_DT(IC_FP64) | IC_DT(IC_FP16) | IC_DT(IC_BF16))

static ic_status parse(ic_attr_reader *r, void *attrs) {
  gaussian_random_attrs *a = attrs;
  ic_ar_ints(r, "shape", false, &a->shape, &a->n_shape);
  ic_fill_parse_dtype(r, "dtype", IC_FP32, DTYPES, &a->dtype);
  a->mean = (float)ic_ar_float(r, "mean", 0.0);
  a->std = (float)ic_ar_float(r, "std", 1.0);
  a->seed = ic_ar_int(r, "seed", 0);
  if (!r->st && !(a->std >= 0.0f)) {
    ic_ar_fail(r, "std", "is %g, expected >= 0", (double)a->std);
  }
  return r->st;
}

enum { IN_SHAPE, IN_SHAPE_LIST };

static ic_status infer(ic_kctx *c) {
  const gaussian_random_attrs *a = c->attrs;
  return ic_fill_infer_shaped(c, IN_SHAPE, IN_SHAPE_LIST, a->shape, a->n_shape, a->dtype);
}

#define GEN(T, STORE)                                                                      \
  do {                                                                                     \
    T *restrict p = o->data;                                                               \
    for (int64_t i = 0; i < n; i += 4) {                                                   \
      ic_philox4 r = ic_philox_block(key, (uint64_t)i);                                    \
      double z[4];                                                                         \
      ic_philox_normal2(r.v[0], r.v[1], &z[0], &z[1]);                                     \
      ic_philox_normal2(r.v[2], r.v[3], &z[2], &z[3]);                                     \
      for (int64_t j = i; j < n && j < i + 4; j++) p[j] = STORE(mean + sd * z[j - i]);     \
    }                                                                                      \
  } while (0)

#define TO_F32(v) ((float)(v))
#define TO_F64(v) (v)
#define TO_F16(v) ic_f32_to_f16((float)(v))
#define TO_BF16(v) ic_f32_to_bf16((float)(v))

static ic_status run(ic_kctx *c) {
  const gaussian_random_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  int64_t n = ic_tensor_numel_(o);
  uint64_t key = ic_philox_key(a->seed, c->env->seed, c->op_key);
  double mean = a->mean, sd = a->std;
  switch (o->dtype) {
    case IC_FP64: GEN(double, TO_F64); break;
    case IC_FP16: GEN(uint16_t, TO_F16); break;
    case IC_BF16: GEN(uint16_t, TO_BF16); break;
    default: GEN(float, TO_F32); break;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"ShapeTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"ShapeTensorList", IC_SLOT_OPTIONAL | IC_SLOT_VALUE | IC_SLOT_MULTI},
};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_gaussian_random = {
    .name = "gaussian_random",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(gaussian_random_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_RANDOM,
};
