/* sampling_id: Out[b] (int64 [batch]) = an index drawn from row b of X [batch, width] read as
 * weights (paddle/fluid/operators/sampling_id_op.h, Paddle 2.x): r uniform in [min, max)
 * (defaults 0 and 1), then the first j where r minus the weights X[b, 0..j] turns negative,
 * else width - 1. A non-zero `seed` fixes the stream, 0 takes the executor's; the draws are
 * icore's Philox stream, not Paddle's. float32 and float64. */
#include "kernels/cpu/randutil.h"
#include "kernels/kernel.h"

typedef struct sampling_id_attrs {
  float min, max;
  int64_t seed;
} sampling_id_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  sampling_id_attrs *a = attrs;
  a->min = (float)ic_ar_float(r, "min", 0.0);
  a->max = (float)ic_ar_float(r, "max", 1.0);
  a->seed = ic_ar_int(r, "seed", 0);
  if (!r->st && !(a->min <= a->max)) {
    return ic_ar_fail(r, "min", "is %g, expected at most attribute 'max' (%g)", (double)a->min,
                      (double)a->max);
  }
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 2) return ic_kfail_in(c, 0, 0, "expected rank 2 [batch, width]");
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_INT64, 1, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const sampling_id_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t *o = ic_out(c, 0, 0)->data;
  const int64_t rows = x->dims[0], w = x->dims[1];
  const uint64_t key = ic_philox_key(a->seed, c->env->seed, c->op_key);
  const bool f32 = x->dtype == IC_FP32;
  for (int64_t b = 0; b < rows; b++) {
    ic_rstream s = ic_rstream_at(key, (uint64_t)b);
    const double u = ic_rstream_u53(&s);
    int64_t idx = w - 1;
    if (f32) {
      float r = a->min + (float)u * (a->max - a->min);
      for (int64_t j = 0; j < w; j++) {
        if ((r -= ((const float *)x->data)[b * w + j]) < 0) {
          idx = j;
          break;
        }
      }
    } else {
      double r = a->min + u * ((double)a->max - a->min);
      for (int64_t j = 0; j < w; j++) {
        if ((r -= ((const double *)x->data)[b * w + j]) < 0) {
          idx = j;
          break;
        }
      }
    }
    o[b] = idx;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sampling_id = {
    .name = "sampling_id", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(sampling_id_attrs), .parse = parse,
    .infer = infer, .cpu = run, .flags = IC_OP_RANDOM,
};
