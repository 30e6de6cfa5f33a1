/* Helpers shared by the training ops: gradient ops (<op>_grad.c) and optimizers (sgd.c,
 * adam.c). Not an op file.
 *
 * In-place updates. An optimizer writes ParamOut (and Moment1Out, Beta1PowOut, ...) onto the
 * variable it reads as Param (Moment1, Beta1Pow, ...): Paddle's programs always name the same
 * variable in both slots. Those output slots are IC_SLOT_SHARE, and the kernel gives each a
 * fresh buffer from the run's allocator with ic_train_own() before writing it. Both executors
 * see that the op writes a variable it also reads (ic_instr.alias) and hand the kernel
 * snapshots of its inputs, so the kernel reads the old values while the variable receives
 * the new buffer; the DAG orders the update after every reader of the old value (WAR) and
 * after earlier writers (WAW). The variable is the run's shadow of the persistable, never the
 * caller's scope: the executors commit it to the scope after a successful run (DESIGN.md,
 * "Runs and the caller's scope"). The pairs are listed in each op's ic_train_inplace table
 * (the output slot and the input slot it updates). */
#ifndef IC_KERNELS_CPU_TRAIN_H
#define IC_KERNELS_CPU_TRAIN_H

#include "kernels/cpu/elementwise.h"
#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An output slot that updates an input slot in place. */
typedef struct ic_train_inplace {
  const char *out, *in;
} ic_train_inplace;

/* The in-place tables of the optimizers, {NULL, NULL}-terminated; every output named there
 * is an IC_SLOT_SHARE slot (test_train checks). */
extern const ic_train_inplace ic_sgd_inplace[];
extern const ic_train_inplace ic_adam_inplace[]; /* adam and adamw */
extern const ic_train_inplace ic_momentum_inplace[];
extern const ic_train_inplace ic_adagrad_inplace[];
extern const ic_train_inplace ic_rmsprop_inplace[];
extern const ic_train_inplace ic_lamb_inplace[];
extern const ic_train_inplace ic_adamax_inplace[];
extern const ic_train_inplace ic_adadelta_inplace[];
extern const ic_train_inplace ic_merged_momentum_inplace[];
extern const ic_train_inplace ic_merged_adam_inplace[];
extern const ic_train_inplace ic_nadam_inplace[];
extern const ic_train_inplace ic_radam_inplace[];
extern const ic_train_inplace ic_rprop_inplace[];
extern const ic_train_inplace ic_lars_momentum_inplace[];
extern const ic_train_inplace ic_asgd_inplace[];
extern const ic_train_inplace ic_ftrl_inplace[];
extern const ic_train_inplace ic_decayed_adagrad_inplace[];
extern const ic_train_inplace ic_proximal_gd_inplace[];
extern const ic_train_inplace ic_proximal_adagrad_inplace[];
extern const ic_train_inplace ic_dpsgd_inplace[];
extern const ic_train_inplace ic_average_accumulates_inplace[];
extern const ic_train_inplace ic_update_loss_scaling_inplace[];

/* adam and adamw (adam.c): one attribute struct, slots and kernel. Adam is the case
 * with_decay = false, lr_ratio = 1. */
typedef struct ic_adam_attrs {
  float beta1, beta2, epsilon, coeff, lr_ratio;
  bool multi_precision, use_global_beta_pow, amsgrad, with_decay;
} ic_adam_attrs;
extern const ic_slotdef ic_adam_inputs[13];
extern const ic_slotdef ic_adam_outputs[7];
ic_status ic_adam_parse(ic_attr_reader *r, void *attrs);
ic_status ic_adam_infer(ic_kctx *c);
ic_status ic_adam_run(ic_kctx *c);
ic_status ic_adam_resolve(const ic_program *p, const ic_op *op, const ic_opdef **def, ic_err *err);

/* Give output t (may be NULL) dims and dtype of `like` and a fresh buffer of its own from the
 * run's allocator (the run's shadow of a persistable; committing copies it into memory the
 * caller's scope owns). */
ic_status ic_train_own(ic_kctx *c, ic_tensor *t, const ic_tensor *like);

/* Check that input (s, i) is float32 or float64 with the dtype and dims of input (s0, 0). */
ic_status ic_train_same(ic_kctx *c, size_t s, size_t i, size_t s0);
/* Check that input (s, 0) holds exactly one element of float dtype `dt`. */
ic_status ic_train_scalar(ic_kctx *c, size_t s, ic_dtype dt);

/* resolve of an optimizer whose Paddle CPU kernel takes a dense Grad only (decayed_adagrad,
 * proximal_gd, proximal_adagrad, dpsgd): a Grad declared SelectedRows (an embedding with is_sparse) is refused
 * by name, as Paddle refuses it. */
ic_status ic_train_dense_grad_resolve(const ic_program *p, const ic_op *op,
                                      const ic_opdef **def, ic_err *err);
/* Whether op's input slot `slot` names one variable declared SelectedRows in p. */
bool ic_train_selected_rows(const ic_program *p, const ic_op *op, const char *slot);

/* ---- elementwise_{add,sub,mul,div,max,min}_grad ----
 * Slots: inputs X, Y, Out (optional, div only), Out@GRAD; outputs X@GRAD, Y@GRAD (each
 * optional). add and sub read only X's and Y's dims (inputs_dims), mul, div, max and min their
 * values. dX and dY are the per-element partials summed over the dims that X or Y was
 * broadcast along (Paddle's axis rule, as the forward op), accumulated in double. */
enum { IC_EWG_X, IC_EWG_Y, IC_EWG_OUT, IC_EWG_DOUT };
extern const ic_slotdef ic_ewgrad_inputs_dims[4];
extern const ic_slotdef ic_ewgrad_inputs_values[4];
extern const ic_slotdef ic_ewgrad_outputs[2];
ic_status ic_ewgrad_infer(ic_kctx *c);
ic_status ic_ewgrad_run(ic_kctx *c, ic_ew_op op);

#define IC_EWGRAD_DEF(NAME, INPUTS, RUN)                                                   \
  {                                                                                        \
    .name = NAME, .n_inputs = 4, .inputs = INPUTS, .n_outputs = 2,                         \
    .outputs = ic_ewgrad_outputs, .attrs_size = sizeof(ic_elementwise_attrs),              \
    .parse = ic_elementwise_parse, .infer = ic_ewgrad_infer, .cpu = RUN,                   \
  }

/* The forward ops' attribute parsers, shared with their grad ops (batch_norm.c, pool2d.c). */
ic_status ic_batch_norm_parse(ic_attr_reader *r, void *attrs);
ic_status ic_pool2d_parse(ic_attr_reader *r, void *attrs);
/* conv2d_grad and depthwise_conv2d_grad (conv2d_grad.c). */
extern const ic_slotdef ic_conv_grad_inputs[3];
extern const ic_slotdef ic_conv_grad_outputs[2];
ic_status ic_conv_grad_infer(ic_kctx *c);
ic_status ic_conv_grad_run(ic_kctx *c);

/* ---- reshape2_grad, squeeze2_grad, unsqueeze2_grad, flatten_contiguous_range_grad ----
 * Inputs XShape (meta only: dims [0, X's dims...]) and Out@GRAD; output X@GRAD = Out@GRAD
 * with X's dims, sharing its buffer (the same values in the same order). */
extern const ic_slotdef ic_xshape_grad_inputs[2];
extern const ic_slotdef ic_xshape_grad_outputs[1];
ic_status ic_xshape_grad_infer(ic_kctx *c);
ic_status ic_xshape_grad_run(ic_kctx *c);
#define IC_XSHAPE_GRAD_DEF(NAME)                                                           \
  {                                                                                        \
    .name = NAME, .n_inputs = 2, .inputs = ic_xshape_grad_inputs, .n_outputs = 1,          \
    .outputs = ic_xshape_grad_outputs, .infer = ic_xshape_grad_infer,                      \
    .cpu = ic_xshape_grad_run,                                                             \
  }

/* ---- reduce_sum_grad, reduce_mean_grad ----
 * Slots: inputs X (dims only), Out@GRAD; output X@GRAD. The reduce_* attributes. */
ic_status ic_reduce_grad_infer(ic_kctx *c);
ic_status ic_reduce_grad_run(ic_kctx *c, bool mean);

/* ---- reduce_max_grad, reduce_min_grad, reduce_prod_grad (and the definition and infer of
 * frobenius_norm_grad and logsumexp_grad) ----
 * Slots: inputs X, Out, Out@GRAD (as Paddle 3.3.1 writes them); output X@GRAD. The reduce_*
 * attributes. In X's float type, as phi computes (checked against Paddle 3.3.1):
 *   max / min: with m = (X == Out) and n the number of such elements in X's reduction,
 *              X@GRAD = Out@GRAD m / n: ties share the gradient equally, and a reduction
 *              whose Out is NaN (no element equals it) gives 0 / 0 = NaN throughout;
 *   prod:      X@GRAD = Out@GRAD Out (1 / X): NaN where X is 0 (0 * inf), not the product
 *              of the other elements (Paddle's CPU kernel does the same). */
extern const ic_slotdef ic_reduce_sel_grad_inputs[3];
ic_status ic_reduce_sel_grad_infer(ic_kctx *c);
ic_status ic_reduce_sel_grad_run(ic_kctx *c, bool prod);
#define IC_REDUCE_SEL_GRAD_DEF(NAME, PARSE, RUN)                                           \
  {                                                                                        \
    .name = NAME, .n_inputs = 3, .inputs = ic_reduce_sel_grad_inputs, .n_outputs = 1,      \
    .outputs = ic_reduce_sel_grad_outputs, .attrs_size = sizeof(ic_reduce_attrs),          \
    .parse = PARSE, .infer = ic_reduce_sel_grad_infer, .cpu = RUN,                         \
  }
extern const ic_slotdef ic_reduce_sel_grad_outputs[1];

/* ---- gather_grad, gather_nd_grad, index_select_grad ----
 * dst[dst_row[r]] += src[r] for rows r = 0.. of `row` elements each (float32 or float64 by
 * dt), in the order given, accumulated in the data's type as Paddle's scatter-add does (so
 * repeated indices add in index order). */
static inline void ic_train_row_add(ic_dtype dt, void *dst, int64_t dst_row, const void *src,
                                    int64_t src_row, int64_t row) {
  if (dt == IC_FP32) {
    float *d = (float *)dst + dst_row * row;
    const float *s = (const float *)src + src_row * row;
    for (int64_t e = 0; e < row; e++) d[e] += s[e];
  } else {
    double *d = (double *)dst + dst_row * row;
    const double *s = (const double *)src + src_row * row;
    for (int64_t e = 0; e < row; e++) d[e] += s[e];
  }
}

/* ---- top_k_grad, top_k_v2_grad ----
 * Inputs X (meta only), Indices, K (optional, unused), Out@GRAD; output X@GRAD: zeros with
 * each Out@GRAD element at the position Indices gives along the op's axis (phi
 * TopkGradKernel). The top_k attributes (topk.h). */
extern const ic_slotdef ic_topk_grad_inputs[4];
extern const ic_slotdef ic_topk_grad_outputs[1];
ic_status ic_topk_grad_infer(ic_kctx *c);
ic_status ic_topk_grad_run(ic_kctx *c);

/* The end of a norm gradient's infer (group_norm_grad, instance_norm_grad): input slot dy
 * (Y@GRAD) must have x's dtype and dims; output 0 (X@GRAD) gets x's, outputs 1 and 2
 * (Scale@GRAD, Bias@GRAD) [C]; each output is optional. */
ic_status ic_norm_grad_outputs(ic_kctx *c, const ic_tensor *x, size_t dy, int64_t C);

#ifdef __cplusplus
}
#endif

#endif
