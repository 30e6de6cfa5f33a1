/* empty: Out = an uninitialised tensor of `shape` (or ShapeTensor / ShapeTensorList, by
 * fill.h's precedence) and `dtype` (default float32; any Paddle dtype, complex included)
 * (paddle/phi/kernels/empty_kernel.cc, CreateInferMeta). Paddle leaves the contents
 * unspecified; icore writes zeros so that runs are reproducible. */
#include <string.h>

#include "kernels/cpu/fill.h"

typedef struct empty_attrs {
  const int64_t *shape; /* borrowed from the program */
  size_t n_shape;
  ic_dtype dtype;
} empty_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  empty_attrs *a = attrs;
  ic_ar_ints(r, "shape", false, &a->shape, &a->n_shape);
  ic_fill_parse_dtype(r, "dtype", IC_FP32, IC_DT_ANY | IC_DT_COMPLEX, &a->dtype);
  return r->st;
}

enum { IN_SHAPE, IN_SHAPE_LIST };

static ic_status infer(ic_kctx *c) {
  const empty_attrs *a = c->attrs;
  return ic_fill_infer_shaped(c, IN_SHAPE, IN_SHAPE_LIST, a->shape, a->n_shape, a->dtype);
}

static ic_status run(ic_kctx *c) {
  ic_tensor *o = ic_out(c, 0, 0);
  memset(o->data, 0, (size_t)ic_tensor_numel_(o) * ic_dtype_size(o->dtype));
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"ShapeTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"ShapeTensorList", IC_SLOT_OPTIONAL | IC_SLOT_VALUE | IC_SLOT_MULTI},
};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_empty = {
    .name = "empty",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(empty_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
