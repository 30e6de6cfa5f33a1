/* allclose: Out (bool, 0-D) is whether isclose holds for every element of Input and Other
 * (isclose.c: the test, rtol / atol / equal_nan, the Rtol / Atol tensors)
 * (paddle/phi/kernels/impl/allclose_kernel_impl.h). */
#include "kernels/cpu/isclose.h"

static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_isclose_check(c);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_BOOL, 0, NULL);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t n = ic_numel(x->ndim, x->dims);
  ic_buffer *buf = ic_kscratch(c, (size_t)(n > 0 ? n : 1));
  if (!buf) return c->err->code;
  uint8_t *v = buf->data, all = 1;
  ic_isclose_run(c, v);
  for (int64_t i = 0; i < n; i++) all &= v[i];
  *(uint8_t *)ic_out(c, 0, 0)->data = all;
  ic_buffer_release(buf);
  return IC_OK;
}

const ic_opdef ic_op_allclose = {
    .name = "allclose", .n_inputs = 4, .inputs = ic_isclose_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(isclose_attrs), .parse = ic_isclose_parse,
    .infer = infer, .cpu = run,
};
