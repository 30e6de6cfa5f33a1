/* fft_c2c (paddle.fft.fft / ifft / fftn of a complex input; phi FFTC2CKernel): the DFT of
 * complex X over `axes` (forward: e^(-2 pi i jk / n); inverse: e^(+...)), one axis after the
 * other; normalization as fft_r2c's with `forward` deciding the direction, n the product of
 * the transformed sizes. complex64 or complex128, the dtype kept. */
#include <string.h>

#include "kernels/cpu/fftutil.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_COMPLEX)) return c->err->code;
  int axes[IC_FFT_MAX_AXES];
  if (ic_fft_axes(c, x->ndim, axes)) return c->err->code;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_fft_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  int axes[IC_FFT_MAX_AXES];
  if (ic_fft_axes(c, x->ndim, axes)) return c->err->code;
  const int64_t n = ic_tensor_numel_(x);
  if (!n) return IC_OK;
  const int64_t nw = ic_fft_work_len(x->ndim, x->dims);
  ic_buffer *b = ic_kscratch(c, (size_t)(2 * n + nw) * sizeof(double));
  if (!b) return c->err->code;
  double *z = b->data, *work = z + 2 * n;
  ic_fft_load(x, z);
  int64_t numel = 1;
  for (int i = a->n_axes - 1; i >= 0; i--) {
    ic_fft_c2c_axis(z, x->ndim, x->dims, axes[i], a->forward ? -1 : 1, work);
    numel *= x->dims[axes[i]];
  }
  ic_fft_store(z, n, ic_fft_scale(a->norm, numel), out);
  ic_buffer_release(b);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fft_c2c = {
    .name = "fft_c2c",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_fft_attrs), .parse = ic_fft_parse,
    .infer = infer, .cpu = run,
};
