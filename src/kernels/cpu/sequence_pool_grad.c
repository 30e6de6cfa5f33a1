/* sequence_pool_grad: the gradient of sequence_pool (Paddle's SequencePoolGradFunctor), per
 * sequence of X's last LoD level: AVERAGE gives each row Out@GRAD / length, SQRT
 * Out@GRAD / sqrt(length), SUM Out@GRAD itself; MAX gives Out@GRAD to the row MaxIndex names
 * (per element); LAST / FIRST to the last / first row. Empty sequences (pad_value) give
 * nothing. Inputs X (meta and LoD only), MaxIndex (MAX only), Out@GRAD; output X@GRAD. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/sequence_pool.h"

enum { IN_X, IN_MAXINDEX, IN_DOUT };

static ic_status infer(ic_kctx *c) {
  const ic_seqpool_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  if (ic_kcheck_dtype(c, IN_DOUT, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim < 1) return ic_kfail_in(c, IN_X, 0, "expected rank >= 1 [rows, ...]");
  size_t n;
  if (!ic_kseq(c, IN_X, 0, 0, &n)) return c->err->code;
  int64_t d[IC_MAX_RANK];
  memcpy(d, x->dims, sizeof d);
  d[0] = (int64_t)n;
  if (!ic_dims_equal(g->ndim, g->dims, x->ndim, d)) {
    char s[128];
    return ic_kfail_in(c, IN_DOUT, 0, "expected dims %s (one row per sequence of X)",
                       ic_dims_str(x->ndim, d, s, sizeof s));
  }
  if (a->type == P_MAX) {
    const ic_tensor *mi = ic_in(c, IN_MAXINDEX, 0);
    if (!mi) return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "pooltype MAX needs input MaxIndex");
    if (ic_kcheck_dtype(c, IN_MAXINDEX, 0, IC_DT_INT)) return c->err->code;
    if (!ic_dims_equal(mi->ndim, mi->dims, g->ndim, g->dims)) {
      return ic_kfail_in(c, IN_MAXINDEX, 0, "expected the dims of Out@GRAD");
    }
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  ic_tensor_set_meta(dx, g->dtype, x->ndim, x->dims);
  ic_lod *l = ic_lod_new(x->lod->n_levels, x->lod->lens); /* X's LoD, as Paddle shares it */
  if (l) {
    for (size_t k = 0; k < l->n_levels; k++) {
      memcpy(l->offsets[k], x->lod->offsets[k], l->lens[k] * sizeof(uint64_t));
    }
  }
  return ic_kset_lod(c, dx, l, true);
}

static ic_status run(ic_kctx *c) {
  const ic_seqpool_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *g = ic_in(c, IN_DOUT, 0);
  const ic_tensor *mi = a->type == P_MAX ? ic_in(c, IN_MAXINDEX, 0) : NULL;
  ic_tensor *dx = ic_out(c, 0, 0);
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_X, 0, 0, &ns);
  if (!off) return c->err->code;
  int64_t W = 1;
  for (int i = 1; i < x->ndim; i++) W *= x->dims[i];
  const bool f64 = g->dtype == IC_FP64;
  const int64_t rows = x->ndim ? x->dims[0] : 0;
  memset(dx->data, 0, (size_t)ic_tensor_numel_(dx) * ic_dtype_size(dx->dtype));
#define GET(i) (f64 ? ((const double *)g->data)[i] : (double)((const float *)g->data)[i])
#define ADD(i, v)                                              \
  do {                                                         \
    if (f64) ((double *)dx->data)[i] += (v);                   \
    else ((float *)dx->data)[i] = (float)(((float *)dx->data)[i] + (v)); \
  } while (0)
  for (size_t s = 0; s < ns; s++) {
    const int64_t b = (int64_t)off[s], len = (int64_t)off[s + 1] - b;
    if (len <= 0) continue;
    if (b + len > rows) {
      return ic_kfail_in(c, IN_X, 0, "has a LoD beyond its %lld rows", (long long)rows);
    }
    for (int64_t w = 0; w < W; w++) {
      const int64_t gi = (int64_t)s * W + w;
      const double gv = GET(gi);
      switch (a->type) {
        case P_FIRST: ADD(b * W + w, gv); break;
        case P_LAST: ADD((b + len - 1) * W + w, gv); break;
        case P_MAX: {
          const int64_t r = ic_read_i64(mi, gi);
          if (r < b || r >= b + len) {
            return ic_kfail_in(c, IN_MAXINDEX, 0,
                               "holds %lld at %lld, expected a row of sequence %zu [%lld, %lld)",
                               (long long)r, (long long)gi, s, (long long)b, (long long)(b + len));
          }
          ADD(r * W + w, gv);
          break;
        }
        default: {
          const double v = a->type == P_AVERAGE ? gv / (double)len
                           : a->type == P_SQRT  ? gv / sqrt((double)len)
                                                : gv;
          for (int64_t k = 0; k < len; k++) ADD((b + k) * W + w, v);
        }
      }
    }
  }
#undef GET
#undef ADD
  return IC_OK;
}

/* X's data is never read, but its LoD is: it stays alive while the op runs. */
static const ic_slotdef inputs[] = {{"X", 0}, {"MaxIndex", IC_SLOT_OPTIONAL}, {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", 0}};

const ic_opdef ic_op_sequence_pool_grad = {
    .name = "sequence_pool_grad",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_seqpool_attrs), .parse = ic_sequence_pool_parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
