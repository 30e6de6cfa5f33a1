/* cvm (continuous_value_model, PaddleRec's CTR models; phi CVMOpKernel): each row of X [N, D]
 * starts with its show and click counts. use_cvm (default true) keeps them, as
 *   Y[i, 0] = log(X[i, 0] + 1),   Y[i, 1] = log(X[i, 1] + 1) - Y[i, 0],
 * the other columns copied (Y [N, D]); otherwise Y [N, D - 2] drops them. CVM [N, 2] (the
 * show / click pairs) is read by the gradient only; its dims are still checked, as Paddle's
 * InferShape does. Y keeps X's LoD. float32 or float64. */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_CVM };

typedef struct cvm_attrs {
  bool use_cvm;
} cvm_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((cvm_attrs *)attrs)->use_cvm = ic_ar_bool(r, "use_cvm", true);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const cvm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *cvm = ic_in(c, IN_CVM, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2 || x->dims[1] < 2) {
    return ic_kfail_in(c, IN_X, 0, "expected rank 2 [rows, width >= 2] (show, click, ...)");
  }
  if (cvm->ndim != 2 || cvm->dims[1] != 2) {
    return ic_kfail_in(c, IN_CVM, 0, "expected rank 2 [rows, 2] (show, click)");
  }
  ic_tensor *y = ic_out(c, 0, 0);
  ic_tensor_set_meta(y, x->dtype, 2, (int64_t[]){x->dims[0], x->dims[1] - (a->use_cvm ? 0 : 2)});
  return ic_kset_lod(c, y, x->lod ? ic_lod_clone(x->lod) : NULL, x->lod != NULL);
}

#define DEFINE_CVM(T, SUF, LOG)                                                                \
  static void cvm_##SUF(const T *x, T *y, int64_t n, int64_t d, bool use) {                    \
    for (int64_t i = 0; i < n; i++, x += d) {                                                  \
      if (use) {                                                                               \
        memcpy(y, x, (size_t)d * sizeof(T));                                                   \
        y[0] = LOG(x[0] + 1);                                                                  \
        y[1] = LOG(x[1] + 1) - y[0];                                                           \
        y += d;                                                                                \
      } else {                                                                                 \
        memcpy(y, x + 2, (size_t)(d - 2) * sizeof(T));                                         \
        y += d - 2;                                                                            \
      }                                                                                        \
    }                                                                                          \
  }
DEFINE_CVM(float, f32, logf)
DEFINE_CVM(double, f64, log)

static ic_status run(ic_kctx *c) {
  const cvm_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_tensor *y = ic_out(c, 0, 0);
  if (x->dtype == IC_FP64) cvm_f64(x->data, y->data, x->dims[0], x->dims[1], a->use_cvm);
  else cvm_f32(x->data, y->data, x->dims[0], x->dims[1], a->use_cvm);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"CVM", 0}};
static const ic_slotdef outputs[] = {{"Y", 0}};

const ic_opdef ic_op_cvm = {
    .name = "cvm",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(cvm_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
