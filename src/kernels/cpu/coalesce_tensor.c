/* coalesce_tensor: Paddle's op that puts several tensors into one contiguous buffer
 * (phi CoalesceTensorKernel), as the startup programs of paddle.nn.LSTM / GRU / SimpleRNN use
 * it for their flat weight (lstm_0.w_0) and fused-gradient passes use it for allreduce.
 *
 * FusedOutput is 1-D: input i occupies elements [off_i, off_i + numel_i), off_0 = 0 and
 * off_{i+1} = off_i + chunk_i, where chunk_i = numel_i without use_align, and with use_align
 * the byte size numel_i * s rounded up to a multiple of align_size (4096 bytes when
 * align_size <= 0, Paddle's CPU minimum chunk, measured with Paddle 3.3.1), divided by s; s is
 * user_defined_size_of_dtype when positive, else the dtype's size. With copy_data the inputs
 * are copied in; otherwise set_constant fills the whole buffer with `constant`. Output[i]
 * receives input i's dims and its part of the buffer.
 *
 * Paddle makes Output[i] a view into FusedOutput, so that later in-place updates of the
 * parameters show through the fused buffer. icore copies instead: Output[i] and FusedOutput
 * hold the same values right after the op, and nothing aliases afterwards (a training step
 * updates the parameters, not the fused copy). Padding, which Paddle leaves uninitialized, is
 * zero here, as are the values when neither copy_data nor set_constant is set. concated_shapes
 * (inputs described by attributes rather than tensors) is refused. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct coalesce_attrs {
  bool copy_data, set_constant, use_align;
  double constant;
  int64_t dtype, align_size, size_of_dtype;
} coalesce_attrs;

enum { IN_INPUT };
enum { OUT_OUTPUT, OUT_FUSED };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  coalesce_attrs *a = attrs;
  a->copy_data = ic_ar_bool(r, "copy_data", false);
  a->set_constant = ic_ar_bool(r, "set_constant", false);
  a->use_align = ic_ar_bool(r, "use_align", true);
  a->constant = ic_ar_float(r, "constant", 0.0);
  a->dtype = ic_ar_int(r, "dtype", -1);
  a->align_size = ic_ar_int(r, "align_size", -1);
  a->size_of_dtype = ic_ar_int(r, "user_defined_size_of_dtype", -1);
  (void)ic_ar_bool(r, "persist_output", false);
  const int64_t *shapes;
  size_t n_shapes = 0;
  (void)ic_ar_ints(r, "concated_shapes", false, &shapes, &n_shapes);
  if (r->st) return r->st;
  if (n_shapes) {
    ic_ar_fail(r, "concated_shapes", "is not empty: inputs described by attributes are not "
               "supported by icore");
    r->st = r->err->code = IC_ERR_UNSUPPORTED;
    return r->st;
  }
  return IC_OK;
}

/* Element offsets of every input in the fused buffer; returns the total. */
static int64_t layout(const ic_kctx *c, int64_t *off) {
  const coalesce_attrs *a = c->attrs;
  const ic_tensor *x0 = ic_in(c, IN_INPUT, 0);
  const int64_t s = a->size_of_dtype > 0 ? a->size_of_dtype : (int64_t)ic_dtype_size(x0->dtype);
  const int64_t align = a->align_size > 0 ? a->align_size : 4096;
  int64_t total = 0;
  for (size_t i = 0; i < c->in[IN_INPUT].n; i++) {
    const int64_t n = ic_tensor_numel_(ic_in(c, IN_INPUT, i));
    if (off) off[i] = total;
    int64_t chunk = n;
    if (a->use_align) {
      int64_t bytes = n * s;
      if (bytes % align) bytes += align - bytes % align;
      chunk = bytes / s;
    }
    total += chunk;
  }
  return total;
}

static ic_status infer(ic_kctx *c) {
  const coalesce_attrs *a = c->attrs;
  const size_t n = c->in[IN_INPUT].n;
  const ic_tensor *x0 = ic_in(c, IN_INPUT, 0);
  if (c->out[OUT_OUTPUT].n != n) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "output Output holds %zu variables, expected "
                    "one per input (%zu)", c->out[OUT_OUTPUT].n, n);
  }
  for (size_t i = 0; i < n; i++) {
    const ic_tensor *x = ic_in(c, IN_INPUT, i);
    if (x->dtype != x0->dtype || ic_dtype_size(x->dtype) == 0) {
      return ic_kfail_in(c, IN_INPUT, i, "expected the dtype of the first input (%s)",
                         ic_dtype_name(x0->dtype));
    }
  }
  if (a->dtype >= 0 && a->dtype != (int64_t)x0->dtype) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "attribute dtype is %lld, but the inputs are %s",
                    (long long)a->dtype, ic_dtype_name(x0->dtype));
  }
  if (a->set_constant && !a->copy_data && x0->dtype != IC_FP32 && x0->dtype != IC_FP64) {
    return ic_kfail_in(c, IN_INPUT, 0, "set_constant fills float32 or float64 in icore");
  }
  for (size_t i = 0; i < n; i++) {
    const ic_tensor *x = ic_in(c, IN_INPUT, i);
    ic_tensor_set_meta(ic_out(c, OUT_OUTPUT, i), x->dtype, x->ndim, x->dims);
  }
  const int64_t dims[1] = {layout(c, NULL)};
  ic_tensor_set_meta(ic_out(c, OUT_FUSED, 0), x0->dtype, 1, dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const coalesce_attrs *a = c->attrs;
  const size_t n = c->in[IN_INPUT].n;
  ic_tensor *fused = ic_out(c, OUT_FUSED, 0);
  const size_t es = ic_dtype_size(fused->dtype);
  ic_buffer *s = ic_kscratch(c, (n ? n : 1) * sizeof(int64_t));
  if (!s) return c->err->code;
  int64_t *off = s->data;
  const int64_t total = layout(c, off);
  char *f = fused->data;
  memset(f, 0, (size_t)total * es);
  if (!a->copy_data && a->set_constant) {
    for (int64_t k = 0; k < total; k++) {
      if (fused->dtype == IC_FP32) ((float *)f)[k] = (float)a->constant;
      else ((double *)f)[k] = a->constant;
    }
  }
  for (size_t i = 0; i < n; i++) {
    const ic_tensor *x = ic_in(c, IN_INPUT, i);
    const size_t bytes = (size_t)ic_tensor_numel_(x) * es;
    if (a->copy_data && bytes) memcpy(f + (size_t)off[i] * es, x->data, bytes);
    if (bytes) memcpy(ic_out(c, OUT_OUTPUT, i)->data, f + (size_t)off[i] * es, bytes);
  }
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", IC_SLOT_MULTI}};
static const ic_slotdef outputs[] = {{"Output", IC_SLOT_MULTI}, {"FusedOutput", 0}};

const ic_opdef ic_op_coalesce_tensor = {
    .name = "coalesce_tensor",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(coalesce_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
