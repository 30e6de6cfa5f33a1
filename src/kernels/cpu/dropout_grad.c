/* dropout_grad: the gradient of dropout (phi DropoutGradRawKernel, CPU), in X's precision,
 * with p = dropout_prob:
 *   training (is_test false): X@GRAD = Out@GRAD * Mask, divided by (1 - p) with
 *     dropout_implementation "upscale_in_train" (0 everywhere when p = 1);
 *   is_test: X@GRAD = Out@GRAD with upscale_in_train, Out@GRAD * (1 - p) with the default
 *     "downgrade_in_infer".
 * Mask is the forward's uint8 mask (dropout.c), read only in training. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct dg_attrs {
  float p;
  bool is_test, upscale;
} dg_attrs;

enum { IN_MASK, IN_DOUT };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  dg_attrs *a = attrs;
  a->p = (float)ic_ar_float(r, "dropout_prob", 0.5);
  a->is_test = ic_ar_bool(r, "is_test", false);
  const char *impl = ic_ar_str(r, "dropout_implementation", "downgrade_in_infer");
  if (r->st) return r->st;
  if (!(a->p >= 0.0f && a->p <= 1.0f)) {
    return ic_ar_fail(r, "dropout_prob", "is %g, expected in [0, 1]", (double)a->p);
  }
  if (!strcmp(impl, "upscale_in_train")) a->upscale = true;
  else if (strcmp(impl, "downgrade_in_infer")) {
    return ic_ar_fail(r, "dropout_implementation", "is '%s', expected downgrade_in_infer or "
                      "upscale_in_train", impl);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const dg_attrs *a = c->attrs;
  const ic_tensor *m = ic_in(c, IN_MASK, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_status st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT);
  if (st) return st;
  if (!a->is_test) {
    if (!m || !m->data) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input Mask is needed in training (is_test "
                      "false): the forward dropout must write it");
    }
    if (m->dtype != IC_UINT8 || !ic_dims_equal(m->ndim, m->dims, g->ndim, g->dims)) {
      char d[128];
      return ic_kfail_in(c, IN_MASK, 0, "expected uint8%s like Out@GRAD",
                         ic_dims_str(g->ndim, g->dims, d, sizeof d));
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), g->dtype, g->ndim, g->dims);
  return IC_OK;
}

#define GRAD(T)                                                                            \
  do {                                                                                     \
    const T *restrict gp = g->data;                                                        \
    T *restrict o = dx->data;                                                              \
    const T keep = (T)(1.0f - a->p);                                                       \
    for (int64_t i = 0; i < n; i++) {                                                      \
      if (a->is_test) o[i] = a->upscale ? gp[i] : gp[i] * keep;                            \
      else if (a->upscale) o[i] = a->p == 1.0f ? (T)0 : gp[i] * (T)mp[i] / keep;           \
      else o[i] = gp[i] * (T)mp[i];                                                        \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const dg_attrs *a = c->attrs;
  const ic_tensor *m = ic_in(c, IN_MASK, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const uint8_t *mp = !a->is_test ? m->data : NULL;
  int64_t n = ic_tensor_numel_(g);
  if (g->dtype == IC_FP32) GRAD(float);
  else GRAD(double);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Mask", IC_SLOT_OPTIONAL}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_dropout_grad = {
    .name = "dropout_grad",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(dg_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
