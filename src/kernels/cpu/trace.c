/* trace: the sums of the diagonals that diagonal takes (diagonal.c says which), summed in
 * order along each diagonal in Input's dtype; Out is Input without axis1 and axis2 (0-D for
 * a matrix). float32, float64, int32, int64 (integers wrap)
 * (paddle/phi/kernels/cpu/trace_kernel.cc, TraceInferMeta). */
#include "kernels/cpu/diagonal.h"

static const ic_slotdef k_inputs[1] = {{"Input", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  diag_plan p;
  st = ic_diagonal_plan(c, &p);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, p.n, p.dims);
  return IC_OK;
}

#define TRACE(T, U)                                                                    \
  do {                                                                                 \
    const T *xp = x->data;                                                             \
    T *op = ic_out(c, 0, 0)->data;                                                     \
    for (int64_t r = 0; r < outer; r++) {                                              \
      U acc = 0;                                                                       \
      for (int64_t k = 0; k < p.len; k++) acc = (U)(acc + (U)xp[off + p.start + k * p.step]); \
      op[r] = (T)acc;                                                                  \
      for (int i = p.n - 1; i >= 0; i--) {                                             \
        off += p.stride[i];                                                            \
        if (++idx[i] < p.dims[i]) break;                                               \
        off -= p.stride[i] * p.dims[i];                                                \
        idx[i] = 0;                                                                    \
      }                                                                                \
    }                                                                                  \
  } while (0)

static ic_status run(ic_kctx *c) {
  diag_plan p;
  ic_status st = ic_diagonal_plan(c, &p);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  int64_t outer = ic_numel(p.n, p.dims), idx[IC_MAX_RANK] = {0}, off = 0;
  switch (x->dtype) {
    case IC_FP32: TRACE(float, float); break;
    case IC_FP64: TRACE(double, double); break;
    case IC_INT32: TRACE(int32_t, uint32_t); break;
    default: TRACE(int64_t, uint64_t); break;
  }
  return IC_OK;
}

const ic_opdef ic_op_trace = {
    .name = "trace", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1, .outputs = k_outputs,
    .attrs_size = sizeof(diagonal_attrs), .parse = ic_diagonal_parse, .infer = infer, .cpu = run,
};
