/* cvm_grad (phi CVMGradOpKernel): row r of X@GRAD [N, D] is the show / click pair CVM[k, :]
 * in its first two columns and the row of Y@GRAD after them (Y@GRAD's columns 2.. when
 * use_cvm, its D - 2 columns otherwise), k = r without LoD, or the sequence of X's (top
 * level) LoD that row r belongs to; X@GRAD keeps X's LoD. Inputs X (dims and LoD only), CVM
 * [N or sequences, 2], Y@GRAD; attribute use_cvm (default true); float32 and float64. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_CVM, IN_DY };
static const ic_slotdef k_inputs[3] = {{"X", IC_SLOT_NO_BUFFER}, {"CVM", 0}, {"Y@GRAD", 0}};
static const ic_slotdef k_outputs[1] = {{"X@GRAD", 0}};

typedef struct cvmg_attrs {
  bool use_cvm;
} cvmg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((cvmg_attrs *)attrs)->use_cvm = ic_ar_bool(r, "use_cvm", true);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const cvmg_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *cvm = ic_in(c, IN_CVM, 0), *dy = ic_in(c, IN_DY, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2 || x->dims[1] < 2) {
    return ic_kfail_in(c, IN_X, 0, "expected rank 2 [rows, width >= 2] (show, click, ...)");
  }
  int64_t rows = x->dims[0];
  if (x->lod) {
    const uint64_t *off = x->lod->offsets[0];
    const size_t n = x->lod->lens[0];
    if (n < 1 || off[n - 1] != (uint64_t)x->dims[0]) {
      return ic_kfail_in(c, IN_X, 0, "has a LoD whose top level does not end at its %lld rows",
                         (long long)x->dims[0]);
    }
    rows = (int64_t)n - 1;
  }
  if (cvm->dtype != x->dtype || cvm->ndim != 2 || cvm->dims[1] != 2 || cvm->dims[0] < rows) {
    return ic_kfail_in(c, IN_CVM, 0, "expected %s[%lld, 2] (show, click per %s)",
                       ic_dtype_name(x->dtype), (long long)rows, x->lod ? "sequence" : "row");
  }
  const int64_t want[2] = {x->dims[0], x->dims[1] - (a->use_cvm ? 0 : 2)};
  if (dy->dtype != x->dtype || !ic_dims_equal(dy->ndim, dy->dims, 2, want)) {
    char d[96];
    return ic_kfail_in(c, IN_DY, 0, "expected %s%s", ic_dtype_name(x->dtype),
                       ic_dims_str(2, want, d, sizeof d));
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_tensor_set_meta(dx, x->dtype, 2, x->dims);
  return ic_kset_lod(c, dx, x->lod ? ic_lod_clone(x->lod) : NULL, x->lod != NULL);
}

#define CVMG(T)                                                                            \
  do {                                                                                     \
    const T *cp = cvm->data, *gp = dy->data;                                               \
    T *dp = dx->data;                                                                      \
    size_t seq = 0;                                                                        \
    for (int64_t r = 0; r < N; r++) {                                                      \
      int64_t k = r;                                                                       \
      if (off) {                                                                           \
        while (seq + 1 < nseq && off[seq + 1] <= (uint64_t)r) seq++;                       \
        k = (int64_t)seq;                                                                  \
      }                                                                                    \
      T *row = dp + r * D;                                                                 \
      if (a->use_cvm) memcpy(row, gp + r * D, sizeof(T) * (size_t)D);                      \
      else memcpy(row + 2, gp + r * (D - 2), sizeof(T) * (size_t)(D - 2));                 \
      row[0] = cp[2 * k];                                                                  \
      row[1] = cp[2 * k + 1];                                                              \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const cvmg_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *cvm = ic_in(c, IN_CVM, 0), *dy = ic_in(c, IN_DY, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t N = x->dims[0], D = x->dims[1];
  const uint64_t *off = x->lod ? x->lod->offsets[0] : NULL;
  const size_t nseq = x->lod ? x->lod->lens[0] - 1 : 0;
  if (x->dtype == IC_FP32) CVMG(float);
  else CVMG(double);
  return IC_OK;
}

const ic_opdef ic_op_cvm_grad = {
    .name = "cvm_grad", .n_inputs = 3, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(cvmg_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD, /* X@GRAD: X's LoD */
};
