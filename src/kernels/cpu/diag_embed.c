/* diag_embed (paddle.diag_embed; paddle/phi/kernels/cpu/diag_embed_kernel.cc,
 * funcs/diag_embed_impl.h, DiagEmbedInferMeta): Input [..., N] to Out of rank + 1 whose
 * dims dim1 and dim2 (in [-(rank+1), rank], distinct) are N + |offset| each and whose other
 * dims are Input's leading dims in order; Input's last dim is written on the diagonal of
 * (dim1, dim2) at `offset` (above it for offset > 0: Out[.., i, .., i + offset, ..] along
 * dim1, dim2; below for < 0), everything else 0. float32, float64, int32, int64. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct diag_embed_attrs {
  int64_t offset, dim1, dim2;
} diag_embed_attrs;

static const ic_slotdef k_inputs[1] = {{"Input", 0}};
static const ic_slotdef k_outputs[1] = {{"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  diag_embed_attrs *a = attrs;
  a->offset = ic_ar_int(r, "offset", 0);
  a->dim1 = ic_ar_int(r, "dim1", -2);
  a->dim2 = ic_ar_int(r, "dim2", -1);
  return r->st;
}

static ic_status dims_of(ic_kctx *c, int *d1, int *d2) {
  const diag_embed_attrs *a = c->attrs;
  const int R = ic_in(c, 0, 0)->ndim + 1;
  if (a->dim1 < -R || a->dim1 >= R || a->dim2 < -R || a->dim2 >= R) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "diag_embed: dim1 %lld / dim2 %lld out of range [%d, %d) for the rank %d output",
                    (long long)a->dim1, (long long)a->dim2, -R, R, R);
  }
  *d1 = (int)(a->dim1 < 0 ? a->dim1 + R : a->dim1);
  *d2 = (int)(a->dim2 < 0 ? a->dim2 + R : a->dim2);
  if (*d1 == *d2) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "diag_embed: dim1 and dim2 are both dim %d", *d1);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const diag_embed_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_NUM);
  if (st) return st;
  if (x->ndim < 1) return ic_kfail_in(c, 0, 0, "expected rank >= 1");
  if (x->ndim + 1 > IC_MAX_RANK) return ic_kfail_in(c, 0, 0, "is of too high a rank");
  int d1, d2;
  if ((st = dims_of(c, &d1, &d2))) return st;
  const int R = x->ndim + 1;
  const int64_t n = x->dims[x->ndim - 1] + (a->offset < 0 ? -a->offset : a->offset);
  int64_t d[IC_MAX_RANK];
  for (int i = 0, k = 0; i < R; i++) d[i] = (i == d1 || i == d2) ? n : x->dims[k++];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, R, d);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const diag_embed_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  int d1, d2;
  ic_status st = dims_of(c, &d1, &d2);
  if (st) return st;
  const int R = o->ndim;
  const size_t es = ic_dtype_size(x->dtype);
  memset(o->data, 0, (size_t)ic_tensor_numel_(o) * es);
  int64_t stride[IC_MAX_RANK], bstride[IC_MAX_RANK], bdims[IC_MAX_RANK];
  stride[R - 1] = 1;
  for (int i = R - 2; i >= 0; i--) stride[i] = stride[i + 1] * o->dims[i + 1];
  int nb = 0;
  for (int i = 0; i < R; i++) {
    if (i != d1 && i != d2) {
      bdims[nb] = o->dims[i];
      bstride[nb++] = stride[i];
    }
  }
  const int64_t N = x->dims[x->ndim - 1];
  const int64_t base = a->offset >= 0 ? a->offset * stride[d2] : -a->offset * stride[d1];
  const int64_t step = stride[d1] + stride[d2];
  const int64_t B = N ? ic_tensor_numel_(x) / N : 0;
  int64_t coord[IC_MAX_RANK] = {0};
  const char *src = x->data;
  char *dst = o->data;
  for (int64_t b = 0; b < B; b++) {
    int64_t off = base;
    for (int i = 0; i < nb; i++) off += coord[i] * bstride[i];
    for (int64_t j = 0; j < N; j++) {
      memcpy(dst + (size_t)(off + j * step) * es, src + (size_t)(b * N + j) * es, es);
    }
    for (int i = nb - 1; i >= 0; i--) {
      if (++coord[i] < bdims[i]) break;
      coord[i] = 0;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_diag_embed = {
    .name = "diag_embed", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(diag_embed_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
