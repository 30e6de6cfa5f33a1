/* lookup_table_grad (fluid's v1 embedding's gradient, dense); its infer and run also serve
 * lookup_table_v2_grad (lookup_table_v2_grad.c). As lookup_table_v2_grad, with
 * v1's shapes and padding rule: Ids has a last dim of 1 and Out@GRAD has Ids' dims without it
 * + [width]; padding_idx -1 means none, other values are taken literally (as the forward
 * lookup_table). W@GRAD has W's dims and dtype; row r is the sum, in Ids' order and in W's
 * dtype, of the Out@GRAD rows whose id is r; ids equal to padding_idx contribute nothing,
 * except with is_sparse. Inputs: W (dims only), Ids (int64 or int32), Out@GRAD. An id outside
 * [0, V) is an error naming the position. With is_sparse Paddle writes a SelectedRows gradient
 * (the rows of Ids, one per position, each its Out@GRAD row: padding_idx is not looked at,
 * so a padding row is trained, as Paddle 2.6 and 3.3 do); icore writes the same values dense. SGD (checked against Paddle) and, by their
 * kernels' code, Momentum and Adagrad update a row absent from such a gradient as one whose
 * gradient is 0; Adam's sparse kernel does not, and
 * adam.c follows it where the Grad variable is declared SelectedRows (ic_adam_resolve). */
#include <string.h>

#include "kernels/cpu/lookup_table.h"

enum { IN_W, IN_IDS, IN_DOUT };

ic_status ic_lookup_grad_parse(ic_attr_reader *r, lgrad_attrs *a) {
  a->is_sparse = ic_ar_bool(r, "is_sparse", false);
  return ic_lookup_parse(r, &a->l);
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lgrad_attrs *a = attrs;
  a->l.v2 = false;
  return ic_lookup_grad_parse(r, a);
}

ic_status ic_lookup_grad_infer(ic_kctx *c) {
  const lgrad_attrs *a = c->attrs;
  const ic_tensor *w = ic_in(c, IN_W, 0), *ids = ic_in(c, IN_IDS, 0), *g = ic_in(c, IN_DOUT, 0);
  if (ic_kcheck_dtype(c, IN_IDS, 0, IC_DT_INT) || ic_kcheck_dtype(c, IN_W, 0, IC_DT_FLOAT)) {
    return c->err->code;
  }
  if (w->ndim != 2) return ic_kfail_in(c, IN_W, 0, "expected rank 2 [vocabulary, width]");
  if (!a->l.v2 && (ids->ndim < 1 || ids->dims[ids->ndim - 1] != 1)) {
    return ic_kfail_in(c, IN_IDS, 0, "expected a last dim of 1 ([N, 1] for lookup_table)");
  }
  const int nid = a->l.v2 ? ids->ndim : ids->ndim - 1; /* Ids' dims that Out@GRAD keeps */
  bool ok = nid < IC_MAX_RANK && g->ndim == nid + 1 && g->dtype == w->dtype &&
            g->dims[g->ndim - 1] == w->dims[1];
  for (int i = 0; ok && i < nid; i++) ok = g->dims[i] == ids->dims[i];
  if (!ok) {
    char d[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s with Ids' dims %s%s and a last dim of %lld "
                       "(W's width)", ic_dtype_name(w->dtype),
                       ic_dims_str(ids->ndim, ids->dims, d, sizeof d),
                       a->l.v2 ? "" : " (less the last)", (long long)w->dims[1]);
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), w->dtype, w->ndim, w->dims);
  return IC_OK;
}

ic_status ic_lookup_grad_run(ic_kctx *c) {
  const lgrad_attrs *a = c->attrs;
  const ic_tensor *ids = ic_in(c, IN_IDS, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dw = ic_out(c, 0, 0);
  const int64_t n = ic_tensor_numel_(ids), V = dw->dims[0], D = dw->dims[1];
  const int64_t pad = a->l.padding_idx; /* taken literally, as the forward op */
  memset(dw->data, 0, (size_t)(V * D) * ic_dtype_size(dw->dtype));
  for (int64_t i = 0; i < n; i++) {
    int64_t id = ic_read_i64(ids, i);
    if (pad != -1 && id == pad && !a->is_sparse) continue;
    if (id < 0 || id >= V) {
      return ic_kfail_in(c, IN_IDS, 0, "has id %lld at index %lld, expected 0 to %lld (the rows "
                         "of W '%s')", (long long)id, (long long)i, (long long)V - 1,
                         ic_in_name(c, IN_W, 0));
    }
    if (dw->dtype == IC_FP32) {
      float *dst = (float *)dw->data + id * D;
      const float *src = (const float *)g->data + i * D;
      for (int64_t j = 0; j < D; j++) dst[j] += src[j];
    } else {
      double *dst = (double *)dw->data + id * D;
      const double *src = (const double *)g->data + i * D;
      for (int64_t j = 0; j < D; j++) dst[j] += src[j];
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"W", IC_SLOT_NO_BUFFER}, {"Ids", 0}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"W@GRAD", 0}};

const ic_opdef ic_op_lookup_table_grad = {
    .name = "lookup_table_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(lgrad_attrs), .parse = parse,
    .infer = ic_lookup_grad_infer, .cpu = ic_lookup_grad_run,
};
