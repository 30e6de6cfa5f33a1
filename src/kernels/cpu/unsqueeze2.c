/* unsqueeze2: Out = X with size-1 dims inserted (the same bytes, shared), XShape = meta only.
 *
 * The axes come from, by priority, AxesTensor (all its elements), the AxesTensorList (one
 * single-element int tensor each) or the `axes` attribute. Paddle inserts them one after the
 * other (paddle/phi/kernels/funcs/unsqueeze.h GetUnsqueezeShape): each axis indexes the
 * shape built so far, a negative one counting from the end of it (-1 appends), so [0, 0]
 * adds two leading dims and [-1, -1] two trailing ones. Paddle caps the result at rank 8 (an
 * Eigen limit); icore allows IC_MAX_RANK. */
#include <stdio.h>

#include "kernels/cpu/shapeops.h"

enum { X, AXES_TENSOR, AXES_TENSOR_LIST };
enum { OUT, XSHAPE };

ic_status ic_unsqueeze2_parse(ic_attr_reader *r, void *attrs) {
  ic_axes_attrs *a = attrs;
  ic_ar_ints(r, "axes", false, &a->axes, &a->n_axes);
  return r->st;
}

ic_status ic_unsqueeze2_infer(ic_kctx *c) {
  const ic_axes_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, X, 0);
  int64_t axes[IC_MAX_RANK];
  size_t n = 0;
  const char *from = "attribute 'axes'";
  ic_status st = IC_OK;
  if (c->in[AXES_TENSOR].n) {
    from = "input AxesTensor";
    st = ic_shapeops_read_ints(c, AXES_TENSOR, false, "axes", axes, IC_MAX_RANK, &n);
  } else if (c->in[AXES_TENSOR_LIST].n) {
    from = "input AxesTensorList";
    st = ic_shapeops_read_ints(c, AXES_TENSOR_LIST, true, "axes", axes, IC_MAX_RANK, &n);
  } else if (a->n_axes <= IC_MAX_RANK) {
    for (size_t i = 0; i < a->n_axes; i++) axes[i] = a->axes[i];
    n = a->n_axes;
  } else {
    n = a->n_axes;
  }
  if (st) return st;
  if ((size_t)x->ndim + n > IC_MAX_RANK) {
    return ic_kfail_in(c, X, 0, "inserting %zu dims (%s) gives rank %zu, at most %d supported",
                       n, from, (size_t)x->ndim + n, IC_MAX_RANK);
  }
  /* Build the result as a sequence of "new dim" / "X's next dim" marks. */
  bool is_new[IC_MAX_RANK];
  int cur = x->ndim;
  for (int i = 0; i < cur; i++) is_new[i] = false;
  for (size_t k = 0; k < n; k++) {
    int64_t pos = axes[k] < 0 ? axes[k] + cur + 1 : axes[k];
    if (pos < 0 || pos > cur) {
      return ic_kfail_in(c, X, 0,
                         "axis %lld (entry %zu of the %s) is out of range [%d, %d] for the "
                         "rank-%d shape built so far",
                         (long long)axes[k], k, from, -cur - 1, cur, cur);
    }
    for (int i = cur; i > pos; i--) is_new[i] = is_new[i - 1];
    is_new[pos] = true;
    cur++;
  }
  int64_t d[IC_MAX_RANK];
  for (int i = 0, j = 0; i < cur; i++) d[i] = is_new[i] ? 1 : x->dims[j++];
  ic_tensor_set_meta(ic_out(c, OUT, 0), x->dtype, cur, d);
  return ic_shapeops_xshape(c, XSHAPE, x);
}

const ic_slotdef ic_unsqueeze2_inputs[] = {
    {"X", 0},
    {"AxesTensor", IC_SLOT_OPTIONAL | IC_SLOT_VALUE},
    {"AxesTensorList", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE},
};

const ic_opdef ic_op_unsqueeze2 = {
    .name = "unsqueeze2",
    .n_inputs = 3, .inputs = ic_unsqueeze2_inputs,
    .n_outputs = 2, .outputs = ic_shapeops_view_outputs,
    .attrs_size = sizeof(ic_axes_attrs), .parse = ic_unsqueeze2_parse,
    .infer = ic_unsqueeze2_infer, .cpu = ic_shapeops_view_run,
    .flags = IC_OP_VIEW,
};
