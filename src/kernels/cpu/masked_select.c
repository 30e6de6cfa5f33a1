/* masked_select: Y [K] holds X's elements where Mask (bool) is true, in row-major order of
 * the broadcast of X and Mask (dims aligned at the end; each pair equal or one of them 1),
 * both broadcast as Paddle 3.3 does (paddle/phi/kernels/cpu/masked_select_kernel.cc). X of
 * any dtype; K is known only at run time. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_MASK };
static const ic_slotdef k_inputs[2] = {{"X", 0}, {"Mask", 0}};
static const ic_slotdef k_outputs[1] = {{"Y", IC_SLOT_DYNAMIC}};

/* The broadcast dims and each input's element strides over them (0 where broadcast). */
static ic_status plan(ic_kctx *c, int *nd, int64_t *dims, int64_t *sx, int64_t *sm) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *m = ic_in(c, IN_MASK, 0);
  const int n = x->ndim > m->ndim ? x->ndim : m->ndim;
  int64_t stx = 1, stm = 1;
  for (int d = n - 1; d >= 0; d--) {
    const int ix = d - (n - x->ndim), im = d - (n - m->ndim);
    const int64_t a = ix >= 0 ? x->dims[ix] : 1, b = im >= 0 ? m->dims[im] : 1;
    if (a != b && a != 1 && b != 1) {
      return ic_kfail_in(c, IN_MASK, 0, "does not broadcast with X '%s' (dim %lld vs %lld)",
                         ic_in_name(c, IN_X, 0), (long long)b, (long long)a);
    }
    dims[d] = a == 1 ? b : a;
    sx[d] = a == 1 ? 0 : stx;
    sm[d] = b == 1 ? 0 : stm;
    stx *= a;
    stm *= b;
  }
  *nd = n;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0);
  ic_status st = ic_kcheck_dtype(c, IN_MASK, 0, IC_DT(IC_BOOL));
  if (st) return st;
  if (ic_dtype_size(x->dtype) == 0) return ic_kfail_in(c, IN_X, 0, "expected a numeric dtype");
  int nd;
  int64_t dims[IC_MAX_RANK], sx[IC_MAX_RANK], sm[IC_MAX_RANK];
  if ((st = plan(c, &nd, dims, sx, sm))) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 1, (int64_t[]){0});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_X, 0), *m = ic_in(c, IN_MASK, 0);
  int nd;
  int64_t dims[IC_MAX_RANK], sx[IC_MAX_RANK], sm[IC_MAX_RANK];
  ic_status st = plan(c, &nd, dims, sx, sm);
  if (st) return st;
  const int64_t n = ic_numel(nd, dims);
  const uint8_t *mk = m->data;
  const size_t es = ic_dtype_size(x->dtype);
  for (int pass = 0; pass < 2; pass++) {
    int64_t coord[IC_MAX_RANK] = {0}, ox = 0, om = 0, k = 0;
    char *dst = pass ? ic_out(c, 0, 0)->data : NULL;
    for (int64_t i = 0; i < n; i++) {
      if (mk[om]) {
        if (pass) memcpy(dst + (size_t)k * es, (const char *)x->data + (size_t)ox * es, es);
        k++;
      }
      for (int d = nd - 1; d >= 0; d--) {
        ox += sx[d];
        om += sm[d];
        if (++coord[d] < dims[d]) break;
        ox -= sx[d] * dims[d];
        om -= sm[d] * dims[d];
        coord[d] = 0;
      }
    }
    if (!pass) {
      if ((st = ic_kalloc_out(c, 0, 0, x->dtype, 1, &k))) return st;
      if ((st = ic_kset_lod(c, ic_out(c, 0, 0), NULL, false))) return st;
      if (k == 0) break;
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_masked_select = {
    .name = "masked_select", .n_inputs = 2, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .infer = infer, .cpu = run,
    .flags = IC_OP_LOD, /* Y has no LoD */
};
