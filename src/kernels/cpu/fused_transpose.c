/* fused_transpose: transpose2 with neighbouring squeeze2 / unsqueeze2 / reshape2 and a
 * quantization scale folded in, as Paddle's oneDNN passes write it
 * (squeeze2_transpose2_onednn_fuse_pass, operator_unsqueeze2 / operator_reshape2 fuse passes,
 * quant_transpose2_dequant_onednn_fuse_pass; phi/kernels/fusion/onednn/
 * fused_transpose_kernel.cc): X is first squeezed at fused_squeeze2_axes (each of size 1,
 * negative axes counted from the end), then permuted by axis (out.dims[i] = in.dims[axis[i]];
 * a single axis copies, unscaled as in Paddle), multiplied by scale when it is not 1, and
 * finally given the dims of unsqueeze2 at fused_unsqueeze2_axes (as Paddle's kernel does it:
 * each axis a position in the final rank, negative ones from its end), else of reshape2 to
 * fused_reshape2_shape (positive sizes and one -1 for the rest; Paddle's kernel divides by
 * zero on a 0). XShape is [0] + X's dims (meta only), as transpose2's.
 * float32 in and out only: the int8 / bf16 outputs of output_data_type and a non-zero shift
 * (a quantization zero point) are refused. */
#include <string.h>

#include "kernels/cpu/shapeops.h"
#include "kernels/kernel.h"

typedef struct ftr_attrs {
  const int64_t *axis, *sq, *unsq, *reshape;
  size_t n_axis, n_sq, n_unsq, n_reshape;
  double scale;
} ftr_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ftr_attrs *a = attrs;
  ic_ar_ints(r, "axis", true, &a->axis, &a->n_axis);
  ic_ar_ints(r, "fused_squeeze2_axes", false, &a->sq, &a->n_sq);
  ic_ar_ints(r, "fused_unsqueeze2_axes", false, &a->unsq, &a->n_unsq);
  ic_ar_ints(r, "fused_reshape2_shape", false, &a->reshape, &a->n_reshape);
  a->scale = (float)ic_ar_float(r, "scale", 1.0);
  const double shift = ic_ar_float(r, "shift", 0.0);
  const char *odt = ic_ar_str(r, "output_data_type", "");
  if (r->st) return r->st;
  if ((float)shift != 0.0f) {
    return ic_ar_fail(r, "shift", "is %g: a quantization zero point, which icore does not do",
                      shift);
  }
  if (odt[0] && strcmp(odt, "fp32") != 0) {
    return ic_ar_fail(r, "output_data_type",
                      "is \"%s\": only float32 output (\"\" or \"fp32\") is supported", odt);
  }
  return IC_OK;
}

/* The squeezed input dims and the permutation; fails naming X. */
static ic_status plan(ic_kctx *c, int *rank, int64_t *dims, int *perm) {
  const ftr_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  bool drop[IC_MAX_RANK] = {false};
  for (size_t i = 0; i < a->n_sq; i++) {
    int64_t ax = a->sq[i] < 0 ? a->sq[i] + x->ndim : a->sq[i];
    if (ax < 0 || ax >= x->ndim || x->dims[ax] != 1) {
      return ic_kfail_in(c, 0, 0, "cannot be squeezed at fused_squeeze2_axes entry %lld "
                         "(expected an axis of size 1)", (long long)a->sq[i]);
    }
    drop[ax] = true;
  }
  int n = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (!drop[i]) dims[n++] = x->dims[i];
  }
  *rank = n;
  if (a->n_axis != (size_t)n) {
    return ic_kfail_in(c, 0, 0, "attribute 'axis' has %zu entries, expected %d (one per dim%s)",
                       a->n_axis, n, a->n_sq ? " after the squeeze" : "");
  }
  bool seen[IC_MAX_RANK] = {false};
  for (int i = 0; i < n; i++) {
    int64_t ax = a->axis[i] < 0 ? a->axis[i] + n : a->axis[i];
    if (ax < 0 || ax >= n || seen[ax]) {
      return ic_kfail_in(c, 0, 0, "attribute 'axis' is not a permutation of %d axes", n);
    }
    seen[ax] = true;
    perm[i] = (int)ax;
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ftr_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_FP32));
  if (st) return st;
  int rank, perm[IC_MAX_RANK];
  int64_t dims[IC_MAX_RANK], od[IC_MAX_RANK];
  if ((st = plan(c, &rank, dims, perm))) return st;
  for (int i = 0; i < rank; i++) od[i] = dims[perm[i]];
  int orank = rank;
  const int64_t numel = ic_numel(rank, od);
  if (a->n_unsq) {
    /* Paddle's kernel places each axis in the final rank (negative: from its end) */
    const int fr = rank + (int)a->n_unsq;
    bool one[IC_MAX_RANK] = {false};
    if (fr > IC_MAX_RANK) return ic_kfail_in(c, 0, 0, "fused_unsqueeze2_axes: too many dims");
    for (size_t k = 0; k < a->n_unsq; k++) {
      const int64_t p = a->unsq[k] < 0 ? a->unsq[k] + fr : a->unsq[k];
      if (p < 0 || p >= fr || one[p]) {
        return ic_kfail_in(c, 0, 0, "fused_unsqueeze2_axes entry %lld is out of range or "
                           "repeated (axes of the %d-D output)", (long long)a->unsq[k], fr);
      }
      one[p] = true;
    }
    int64_t nd[IC_MAX_RANK];
    for (int i = 0, j = 0; i < fr; i++) nd[i] = one[i] ? 1 : od[j++];
    orank = fr;
    memcpy(od, nd, (size_t)fr * sizeof(int64_t));
  } else if (a->n_reshape) {
    /* Paddle's kernel takes -1 (the rest) but not 0, which divides by zero there */
    if (a->n_reshape > IC_MAX_RANK) return ic_kfail_in(c, 0, 0, "fused_reshape2_shape too long");
    int64_t known = 1, infer_at = -1, nd[IC_MAX_RANK];
    for (size_t k = 0; k < a->n_reshape; k++) {
      const int64_t v = a->reshape[k];
      if (v == -1 && infer_at < 0) {
        infer_at = (int64_t)k;
      } else if (v <= 0) {
        return ic_kfail_in(c, 0, 0, "fused_reshape2_shape has the entry %lld (expected "
                           "positive sizes and at most one -1)", (long long)v);
      } else {
        known *= v;
      }
      nd[k] = v;
    }
    if (infer_at >= 0) {
      if (numel % known) {
        return ic_kfail_in(c, 0, 0, "cannot take fused_reshape2_shape: %lld elements",
                           (long long)numel);
      }
      nd[infer_at] = numel / known;
    } else if (known != numel) {
      return ic_kfail_in(c, 0, 0, "cannot take fused_reshape2_shape: %lld elements",
                         (long long)numel);
    }
    orank = (int)a->n_reshape;
    memcpy(od, nd, (size_t)orank * sizeof(int64_t));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, orank, od);
  return ic_shapeops_xshape(c, 1, x);
}

static ic_status run(ic_kctx *c) {
  const ftr_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  int rank, perm[IC_MAX_RANK];
  int64_t dims[IC_MAX_RANK];
  ic_status st = plan(c, &rank, dims, perm);
  if (st) return st;
  /* strides of the squeezed input, walked in output order */
  int64_t istride[IC_MAX_RANK], od[IC_MAX_RANK], idx[IC_MAX_RANK] = {0};
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    istride[i] = s;
    s *= dims[i];
  }
  for (int i = 0; i < rank; i++) od[i] = dims[perm[i]];
  const int64_t n = ic_numel(rank, od);
  const float *xp = x->data;
  float *y = ic_out(c, 0, 0)->data;
  const float sc = a->n_axis == 1 ? 1.0f : (float)a->scale; /* Paddle copies a 1-D X as is */
  int64_t off = 0;
  for (int64_t k = 0; k < n; k++) {
    y[k] = sc != 1.0f ? xp[off] * sc : xp[off];
    for (int d = rank - 1; d >= 0; d--) {
      off += istride[perm[d]];
      if (++idx[d] < od[d]) break;
      off -= istride[perm[d]] * od[d];
      idx[d] = 0;
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"XShape", IC_SLOT_OPTIONAL | IC_SLOT_NO_BUFFER}};

const ic_opdef ic_op_fused_transpose = {
    .name = "fused_transpose",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(ftr_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
