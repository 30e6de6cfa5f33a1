/* unpool: max unpooling, the inverse of max_pool2d_with_index (SegNet's decoder;
 * paddle/phi/kernels/cpu/unpool_kernel.cc, UnpoolInferMeta).
 *
 * X and Indices are [N, C, H, W] (Indices int32, or int64, as Mask of max_pool2d_with_index
 * gives it: the flat h * Wo + w in the output plane). Out is [N, C, output_size[0],
 * output_size[1]], zero except Out[n, c].flat[Indices[n, c, i]] = X[n, c, i]; later writes to
 * the same place win. Without output_size (older programs) the size is (H - 1) * stride - 2 *
 * padding + ksize per axis. The optional input OutputSize (Paddle 3's IntArray computed at run
 * time: one int tensor per axis, or one of two values) takes priority over the attribute. Only unpooling_type "max" and data_format "NCHW" exist in Paddle;
 * an index outside [0, output plane size) is refused (Paddle checks only the upper bound). */
#include <string.h>

#include "kernels/cpu/shapeops.h"
#include "kernels/kernel.h"

typedef struct unpool_attrs {
  int64_t k[2], s[2], p[2], osize[2];
  bool has_osize;
} unpool_attrs;

static ic_status pair(ic_attr_reader *r, const char *name, int64_t dflt, int64_t *out,
                      bool *present) {
  const int64_t *v = NULL;
  size_t n = 0;
  bool got = ic_ar_ints(r, name, false, &v, &n);
  if (present) *present = got && n;
  if (!got || !n) {
    out[0] = out[1] = dflt;
    return r->st;
  }
  if (n != 2) return ic_ar_fail(r, name, "has %zu values, expected 2 (height, width)", n);
  out[0] = v[0], out[1] = v[1];
  return IC_OK;
}

static ic_status parse(ic_attr_reader *r, void *attrs) {
  unpool_attrs *a = attrs;
  const char *type = ic_ar_str(r, "unpooling_type", "max");
  const char *fmt = ic_ar_str(r, "data_format", "NCHW");
  if (r->st) return r->st;
  if (strcmp(type, "max") != 0) {
    return ic_ar_fail(r, "unpooling_type", "is \"%s\", expected \"max\"", type);
  }
  if (strcmp(fmt, "NCHW") != 0) return ic_ar_fail(r, "data_format", "is \"%s\", expected \"NCHW\"", fmt);
  if (pair(r, "ksize", 0, a->k, NULL) || pair(r, "strides", 1, a->s, NULL) ||
      pair(r, "paddings", 0, a->p, NULL) || pair(r, "output_size", 0, a->osize, &a->has_osize)) {
    return r->st;
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const unpool_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st || (st = ic_kcheck_dtype(c, 1, 0, IC_DT_INT))) return st;
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 (NCHW)");
  bool same = idx->ndim == 4;
  for (int i = 0; same && i < 4; i++) same = idx->dims[i] == x->dims[i];
  if (!same) return ic_kfail_in(c, 1, 0, "expected X's dims (one index per element of X)");
  int64_t o[2], os[2] = {a->osize[0], a->osize[1]};
  bool has = a->has_osize;
  if (c->in[2].n) {
    size_t n = 0;
    st = ic_shapeops_read_ints(c, 2, c->in[2].n > 1, "output size", os, 2, &n);
    if (st) return st;
    if (n != 2) return ic_kfail_in(c, 2, 0, "gives %zu values, expected 2 (height, width)", n);
    has = true;
  }
  for (int i = 0; i < 2; i++) {
    o[i] = has ? os[i] : (x->dims[2 + i] - 1) * a->s[i] - 2 * a->p[i] + a->k[i];
    if (o[i] < 0 || (o[i] == 0 && x->dims[2 + i] > 0)) {
      return ic_kfail_in(c, 0, 0, "gives an output %s of %lld (attribute '%s'), expected > 0",
                         i ? "width" : "height", (long long)o[i],
                         has ? "output_size" : "ksize/strides/paddings");
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4,
                     (int64_t[]){x->dims[0], x->dims[1], o[0], o[1]});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *idx = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t planes = x->dims[0] * x->dims[1], in_sz = x->dims[2] * x->dims[3];
  const int64_t out_sz = out->dims[2] * out->dims[3];
  const size_t es = ic_dtype_size(x->dtype);
  memset(out->data, 0, (size_t)(planes * out_sz) * es);
  for (int64_t pl = 0; pl < planes; pl++) {
    const char *src = (const char *)x->data + (size_t)(pl * in_sz) * es;
    char *dst = (char *)out->data + (size_t)(pl * out_sz) * es;
    for (int64_t i = 0; i < in_sz; i++) {
      const int64_t at = ic_read_i64(idx, pl * in_sz + i);
      if (at < 0 || at >= out_sz) {
        return ic_kfail_in(c, 1, 0, "entry %lld is %lld, expected in [0, %lld) (output height x "
                           "width)", (long long)(pl * in_sz + i), (long long)at, (long long)out_sz);
      }
      memcpy(dst + (size_t)at * es, src + (size_t)i * es, es);
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", 0}, {"Indices", 0}, {"OutputSize", IC_SLOT_OPTIONAL | IC_SLOT_MULTI | IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_unpool = {
    .name = "unpool",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(unpool_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
