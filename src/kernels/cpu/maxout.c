/* maxout: Out[.., c, ..] = the largest of X[.., c * groups + j, ..] for j < groups along the
 * channel axis (`axis` 1, or -1 / 3 for channels last), as paddle/phi/kernels/funcs/maxouting.cc:
 * starting from -FLT_MAX, each element replaces the running value unless the running value is
 * greater (so a NaN is kept only when it comes last). float32, float64. */
#include <float.h>

#include "kernels/cpu/maxout.h"

ic_status ic_maxout_parse(ic_attr_reader *r, void *attrs) {
  ic_maxout_attrs *a = attrs;
  a->groups = ic_ar_int_req(r, "groups");
  a->axis = ic_ar_int(r, "axis", 1);
  if (r->st) return r->st;
  if (a->groups < 1) return ic_ar_fail(r, "groups", "is %lld, expected >= 1", (long long)a->groups);
  if (a->axis != 1 && a->axis != -1 && a->axis != 3) {
    return ic_ar_fail(r, "axis", "is %lld, expected 1, -1 or 3", (long long)a->axis);
  }
  return IC_OK;
}

ic_status ic_maxout_out_dims(ic_kctx *c, int64_t d[4]) {
  const ic_maxout_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4");
  const int ax = a->axis == 1 ? 1 : 3;
  if (x->dims[ax] % a->groups) {
    return ic_kfail_in(c, 0, 0, "has %lld channels, expected a multiple of groups %lld",
                       (long long)x->dims[ax], (long long)a->groups);
  }
  for (int k = 0; k < 4; k++) d[k] = x->dims[k];
  d[ax] /= a->groups;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  int64_t d[4];
  ic_status st = ic_maxout_out_dims(c, d);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 4, d);
  return IC_OK;
}

#define MAXOUT_BODY(T, LOWEST)                                                  \
  do {                                                                          \
    const T *xd = x->data;                                                      \
    T *od = o->data;                                                            \
    for (int64_t b = 0; b < N; b++)                                             \
      for (int64_t p = 0; p < HW; p++)                                          \
        for (int64_t ch = 0; ch < OC; ch++) {                                   \
          T e = LOWEST;                                                         \
          for (int64_t j = 0; j < G; j++) {                                     \
            const int64_t ic = ch * G + j;                                      \
            const T v = last ? xd[(b * HW + p) * C + ic] : xd[(b * C + ic) * HW + p]; \
            e = e > v ? e : v;                                                  \
          }                                                                     \
          if (last) od[(b * HW + p) * OC + ch] = e;                             \
          else od[(b * OC + ch) * HW + p] = e;                                  \
        }                                                                       \
  } while (0)

static ic_status run(ic_kctx *c) {
  const ic_maxout_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const bool last = a->axis != 1;
  const int64_t N = x->dims[0], C = last ? x->dims[3] : x->dims[1];
  const int64_t HW = last ? x->dims[1] * x->dims[2] : x->dims[2] * x->dims[3];
  const int64_t G = a->groups, OC = C / G;
  if (x->dtype == IC_FP32) MAXOUT_BODY(float, -FLT_MAX);
  else MAXOUT_BODY(double, -DBL_MAX);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_maxout = {
    .name = "maxout", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_maxout_attrs), .parse = ic_maxout_parse, .infer = infer, .cpu = run,
};
