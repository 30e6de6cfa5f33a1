/* A linear layer: a matrix product and the bias add after it, into one fc (CPU plans; Paddle's
 * own fc_fuse_pass does the same). A product m whose rows X's first k >= 1 dims index:
 *
 *   matmul_v2(X, W) -> m        trans_x and trans_y false, no oneDNN fuse attributes, X
 *                               float32 of declared rank k + 1
 *   matmul(X, W) -> m           the v1 op likewise: transpose_X and transpose_Y false,
 *                               alpha 1, head_number 1 (MobileNetV2's head)
 *   mul(X, W) -> m              x_num_col_dims k, y_num_col_dims 1 (fluid's fc layer)
 *
 * with W float32 [K, N], and
 *
 *   elementwise_add(m, b) -> y  plain (fuse.h), m's only reader, b float32 declared [N],
 *                               axis -1 or k (m's last axis)
 *
 * become fc(Input X, W, Bias b, in_num_col_dims k) -> y; with a relu as y's only reader, fc
 * with activation_type relu writing the relu's output. nn.Linear exports the first form
 * (SVTR's mixer and head, transformer encoders, MLPs), fluid's fc layer the third. Each is
 * one product of [prod(X.dims[:k]), K] by [K, N] (matmul_v2 and matmul stack their batches
 * as rows when W is 2-D: matmul_v2.c, matmul.c), the product fc computes, and fc adds the
 * bias per element in float32 as elementwise_add does, and applies relu by the relu kernel's
 * own expression: the
 * same bits, with one or two instructions, temporaries and passes fewer. The fc runs where
 * the pattern's last op was: nothing in between may write X, W or b. */
#include <string.h>

#include "analysis/fuse.h"

/* Whether the oneDNN fuse attributes matmul_v2 and matmul refuse (matmul_v2.c, matmul.c) are
 * all absent or empty: fc ignores them, so a program the kernel would refuse stays unfused. */
static bool no_fused_attrs(const ic_op *op) {
  static const char *const names[] = {"fused_reshape_X",   "fused_reshape_Y",
                                      "fused_reshape_Out", "fused_transpose_X",
                                      "fused_transpose_Y", "fused_transpose_Out"};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    const ic_attr *a = ic_op_attr(op, names[k]);
    if (a && a->n) return false;
  }
  return true;
}

static const ic_vardesc *fp32_var(const fuser *f, const char *name) {
  const ic_vardesc *v = name ? ic_program_find_var(f->prog, 0, name) : NULL;
  return v && v->is_tensor && v->dtype == IC_FP32 ? v : NULL;
}

/* k, the number of X's leading dims that index the product's rows (fc's in_num_col_dims),
 * when op is a product fc computes (see the top), else 0. */
static int64_t row_dims(const fuser *f, const ic_op *op) {
  const char *x = ic_fuse_arg(op, false, "X"), *w = ic_fuse_arg(op, false, "Y");
  const char *m = ic_fuse_arg(op, true, "Out");
  const ic_vardesc *xv = fp32_var(f, x), *wv = fp32_var(f, w), *mv = fp32_var(f, m);
  if (op->n_outputs != 1 || !xv || !wv || !mv || wv->ndim != 2 || wv->dims[1] < 1) return 0;
  if (!strcmp(op->type, "matmul_v2")) {
    if (ic_fuse_num_attr(op, "trans_x", 0) != 0 || ic_fuse_num_attr(op, "trans_y", 0) != 0 ||
        !no_fused_attrs(op) || xv->ndim < 2 || mv->ndim != xv->ndim) {
      return 0;
    }
    return xv->ndim - 1;
  }
  if (!strcmp(op->type, "matmul")) {
    /* the v1 op: a 2-D Y meets every matrix of X in one product of the rows (matmul.c) */
    if (ic_fuse_num_attr(op, "transpose_X", 0) != 0 ||
        ic_fuse_num_attr(op, "transpose_Y", 0) != 0 || ic_fuse_num_attr(op, "alpha", 1) != 1 ||
        ic_fuse_num_attr(op, "head_number", 1) != 1 ||
        !no_fused_attrs(op) || xv->ndim < 2 || mv->ndim != xv->ndim) {
      return 0;
    }
    return xv->ndim - 1;
  }
  if (!strcmp(op->type, "mul")) {
    const double xn = ic_fuse_num_attr(op, "x_num_col_dims", 1);
    if (ic_fuse_num_attr(op, "y_num_col_dims", 1) != 1 || xn < 1 || xn >= xv->ndim ||
        mv->ndim != (int)xn + 1) {
      return 0;
    }
    return (int64_t)xn;
  }
  return 0;
}

ic_status ic_fuse_linear(fuser *f, size_t i) {
  const ic_op *mm = f->seq->ops[i];
  const int64_t ncd = row_dims(f, mm);
  if (!ncd) return IC_OK;
  const char *x = ic_fuse_arg(mm, false, "X"), *w = ic_fuse_arg(mm, false, "Y");
  const char *m = ic_fuse_arg(mm, true, "Out");
  const ic_vardesc *wv = fp32_var(f, w);
  size_t j = ic_fuse_sole_reader(f, i, m);
  if (j == SIZE_MAX) return IC_OK;
  const ic_op *add = f->seq->ops[j];
  if (!ic_fuse_plain_elementwise(add, "elementwise_add") || add->n_outputs != 1) return IC_OK;
  const char *ax = ic_fuse_arg(add, false, "X"), *b = ic_fuse_arg(add, false, "Y");
  const char *y = ic_fuse_arg(add, true, "Out");
  const ic_vardesc *bv = fp32_var(f, b);
  const double axis = ic_fuse_num_attr(add, "axis", -1);
  if (!ax || strcmp(ax, m) != 0 || !y || !bv || bv->ndim != 1 || bv->dims[0] != wv->dims[1] ||
      !strcmp(b, m) || (axis != -1 && axis != (double)ncd)) {
    return IC_OK;
  }
  const char *reads[3] = {x, w, b};
  size_t pattern[3] = {i, j, SIZE_MAX};
  if (ic_fuse_written_between(f, i, j, pattern, 2, reads, 3)) return IC_OK;
  /* A relu as the sum's only reader joins as fc's activation_type relu (x > 0 ? x : 0, the
   * relu kernel's own expression); the fc then runs where the relu was. */
  size_t last = j, k = ic_fuse_sole_reader(f, j, y);
  if (k != SIZE_MAX) {
    const ic_op *relu = f->seq->ops[k];
    const char *rx = ic_fuse_arg(relu, false, "X"), *ry = ic_fuse_arg(relu, true, "Out");
    pattern[2] = k;
    if (!strcmp(relu->type, "relu") && relu->n_outputs == 1 && rx && !strcmp(rx, y) && ry &&
        !ic_fuse_written_between(f, i, k, pattern, 3, reads, 3)) {
      last = k;
      y = ry;
    }
  }
  ic_arena *a = f->seq->arena;
  ic_op *fc = ic_arena_alloc(a, sizeof *fc);
  ic_slot *ins = ic_arena_calloc(a, 3, sizeof *ins);
  ic_slot *outs = ic_arena_calloc(a, 1, sizeof *outs);
  ic_attr *at = ic_arena_calloc(a, 3, sizeof *at);
  if (!fc || !ins || !outs || !at) {
    return ic_err_set(f->err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  }
  ins[0] = ic_fuse_slot1(a, "Input", x);
  ins[1] = ic_fuse_slot1(a, "W", w);
  ins[2] = ic_fuse_slot1(a, "Bias", b);
  outs[0] = ic_fuse_slot1(a, "Out", y);
  size_t na = 0;
  if (last != j) {
    at[na++] = (ic_attr){.name = "activation_type", .type = IC_ATTR_STRING, .s = "relu"};
  }
  /* A matmul's rows are all of X's dims but the last at run time, whatever its VarDesc
   * declared (fc.c): an X of another rank gives the product's result, or (an add along a
   * fixed axis) fc's error. */
  if (strcmp(mm->type, "mul") != 0) {
    at[na++] = (ic_attr){.name = "ic_matmul_axis", .type = IC_ATTR_INT, .i = axis == -1 ? -1 : ncd};
  }
  at[na++] = (ic_attr){.name = "in_num_col_dims", .type = IC_ATTR_INT, .i = ncd};
  /* The matmul's identity (block, index: errors name it) with fc's type and arguments. */
  ic_fuse_set_op(fc, mm, ins, 3, outs, at, na);
  fc->type = "fc";
  f->removed[i] = f->removed[j] = f->removed[last] = true;
  f->replace[last] = fc;
  return IC_OK;
}
