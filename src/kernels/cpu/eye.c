/* eye: Out [num_rows, num_columns] (num_columns -1: num_rows) with ones on the diagonal, in
 * `dtype` (paddle/phi/kernels/cpu/eye_kernel.cc, EyeInferMeta). */
#include <string.h>

#include "kernels/cpu/fill.h"

typedef struct eye_attrs {
  int64_t rows, cols;
  ic_dtype dtype;
} eye_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  eye_attrs *a = attrs;
  a->rows = ic_ar_int_req(r, "num_rows");
  a->cols = ic_ar_int(r, "num_columns", -1);
  ic_fill_parse_dtype(r, "dtype", IC_FP32,
                      IC_DT(IC_FP32) | IC_DT(IC_FP64) | IC_DT(IC_INT32) | IC_DT(IC_INT64) |
                          IC_DT(IC_BOOL),
                      &a->dtype);
  if (r->st) return r->st;
  if (a->rows < 0) return ic_ar_fail(r, "num_rows", "is %lld, expected >= 0", (long long)a->rows);
  if (a->cols < 0) a->cols = a->rows;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const eye_attrs *a = c->attrs;
  ic_tensor_set_meta(ic_out(c, 0, 0), a->dtype, 2, (int64_t[]){a->rows, a->cols});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const eye_attrs *a = c->attrs;
  ic_tensor *o = ic_out(c, 0, 0);
  const size_t es = ic_dtype_size(a->dtype);
  memset(o->data, 0, (size_t)(a->rows * a->cols) * es);
  const int64_t n = a->rows < a->cols ? a->rows : a->cols;
  for (int64_t i = 0; i < n; i++) {
    char *p = (char *)o->data + (size_t)(i * a->cols + i) * es;
    switch (a->dtype) {
      case IC_FP32: *(float *)p = 1.0f; break;
      case IC_FP64: *(double *)p = 1.0; break;
      case IC_INT32: *(int32_t *)p = 1; break;
      case IC_INT64: *(int64_t *)p = 1; break;
      default: *(uint8_t *)p = 1; break;
    }
  }
  return IC_OK;
}

static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_eye = {
    .name = "eye", .n_inputs = 0, .inputs = NULL, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(eye_attrs), .parse = parse, .infer = infer, .cpu = run,
};
