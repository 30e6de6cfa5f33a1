/* scatter_grad: for Out = X with rows Ids (1-D int32/int64, or [N, 1]) overwritten by (or,
 * overwrite false, set to the sum of) Updates' rows (scatter), X@GRAD = Out@GRAD with the
 * rows named in Ids zeroed and Updates@GRAD = Out@GRAD's rows Ids (phi ScatterGradKernel,
 * the same for both overwrite modes), each optional. Inputs Ids, Updates (meta only),
 * Out@GRAD; attribute overwrite (read, no effect). Float32 and float64. A negative or too
 * large id is an error, as in the forward op. */
#include "kernels/cpu/kgrad.h"

enum { IN_IDS, IN_UPD, IN_DOUT };
static const ic_slotdef k_inputs[3] = {
    {"Ids", 0}, {"Updates", IC_SLOT_NO_BUFFER}, {"Out@GRAD", 0}};
static const ic_slotdef k_outputs[2] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                        {"Updates@GRAD", IC_SLOT_OPTIONAL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  (void)attrs;
  (void)ic_ar_bool(r, "overwrite", true);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_IDS, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT))) return st;
  const ic_tensor *ids = ic_in(c, IN_IDS, 0), *g = ic_in(c, IN_DOUT, 0);
  if (ids->ndim > 2 || (ids->ndim == 2 && ids->dims[1] != 1)) {
    return ic_kfail_in(c, IN_IDS, 0, "expected [N] or [N, 1]");
  }
  if (g->ndim < 1) return ic_kfail_in(c, IN_DOUT, 0, "expected rank >= 1");
  int64_t d[IC_MAX_RANK];
  memcpy(d, g->dims, sizeof(int64_t) * (size_t)g->ndim);
  d[0] = ids->ndim ? ids->dims[0] : 1;
  if ((st = kg_expect(c, IN_UPD, g->dtype, g->ndim, d, "Out@GRAD's with one row per id")))
    return st;
  kg_out(c, 0, g->dtype, g->ndim, g->dims);
  kg_out(c, 1, g->dtype, g->ndim, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *ids = ic_in(c, IN_IDS, 0), *g = ic_in(c, IN_DOUT, 0);
  ic_tensor *dx = ic_out(c, 0, 0), *du = ic_out(c, 1, 0);
  const int64_t n = ic_tensor_numel_(ids), rows = g->dims[0];
  const int64_t row = rows ? ic_tensor_numel_(g) / rows : 0;
  for (int64_t j = 0; j < n; j++) {
    const int64_t k = ic_read_i64(ids, j);
    if (k < 0 || k >= rows) {
      return ic_kfail_in(c, IN_IDS, 0, "entry %lld is %lld, expected in [0, %lld)", (long long)j,
                         (long long)k, (long long)rows);
    }
  }
  const size_t es = ic_dtype_size(g->dtype);
  if (dx) {
    kg_copy(dx, g);
    for (int64_t j = 0; j < n; j++)
      memset((char *)dx->data + (size_t)(ic_read_i64(ids, j) * row) * es, 0, (size_t)row * es);
  }
  if (du) {
    for (int64_t j = 0; j < n; j++) {
      memcpy((char *)du->data + (size_t)(j * row) * es,
             (const char *)g->data + (size_t)(ic_read_i64(ids, j) * row) * es, (size_t)row * es);
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_scatter_grad = {
    .name = "scatter_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .parse = parse, .infer = infer, .cpu = run,
};
