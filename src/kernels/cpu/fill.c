/* Shapes, dtypes and values for the tensor-creating ops (see fill.h). */
#include "kernels/cpu/fill.h"

#include <stdint.h>
#include <stdio.h>


/* Where a shape comes from: input slot's variable k, the slot's list (k < 0), or the
 * attribute 'shape' (slot SIZE_MAX). Formatted only for an error: the shapes are checked
 * before every run. */
static const char *where(ic_kctx *c, size_t slot, long k, char *buf, size_t len) {
  if (slot == SIZE_MAX) return "attribute 'shape'";
  if (k < 0) snprintf(buf, len, "input %s", c->def->inputs[slot].name);
  else
    snprintf(buf, len, "input %s '%s'", c->def->inputs[slot].name, ic_in_name(c, slot, (size_t)k));
  return buf;
}

static ic_status check_dim(ic_kctx *c, size_t slot, long k_var, size_t k, int64_t d) {
  if (d >= 0) return IC_OK;
  char buf[160];
  return ic_kfail(c, IC_ERR_SHAPE, "%s gives dim %zu = %lld, expected >= 0",
                  where(c, slot, k_var, buf, sizeof buf), k, (long long)d);
}

static ic_status check_rank(ic_kctx *c, size_t slot, long k_var, size_t n) {
  if (n <= IC_MAX_RANK) return IC_OK;
  char buf[160];
  return ic_kfail(c, IC_ERR_SHAPE, "%s has %zu dims, expected at most %d",
                  where(c, slot, k_var, buf, sizeof buf), n, IC_MAX_RANK);
}

ic_status ic_fill_shape(ic_kctx *c, size_t s_tensor, size_t s_list, const int64_t *attr,
                        size_t n_attr, int *ndim, int64_t *dims) {
  ic_status st;
  const ic_tensor *t = ic_in(c, s_tensor, 0);
  if (t) {
    if ((st = ic_kcheck_dtype(c, s_tensor, 0, IC_DT_INT))) return st;
    if (t->ndim != 1) return ic_kfail_in(c, s_tensor, 0, "expected rank 1 (the dims)");
    if ((st = check_rank(c, s_tensor, 0, (size_t)t->dims[0]))) return st;
    for (int64_t k = 0; k < t->dims[0]; k++) {
      dims[k] = ic_read_i64(t, k);
      if ((st = check_dim(c, s_tensor, 0, (size_t)k, dims[k]))) return st;
    }
    *ndim = (int)t->dims[0];
    return IC_OK;
  }
  size_t n = c->in[s_list].n;
  if (n > 0) {
    if ((st = check_rank(c, s_list, -1, n))) return st;
    for (size_t k = 0; k < n; k++) {
      if ((st = ic_kcheck_dtype(c, s_list, k, IC_DT_INT))) return st;
      if (ic_tensor_numel_(ic_in(c, s_list, k)) != 1) {
        return ic_kfail_in(c, s_list, k, "expected one element (dim %zu of the shape)", k);
      }
      dims[k] = ic_read_i64(ic_in(c, s_list, k), 0);
      if ((st = check_dim(c, s_list, (long)k, k, dims[k]))) return st;
    }
    *ndim = (int)n;
    return IC_OK;
  }
  if ((st = check_rank(c, SIZE_MAX, 0, n_attr))) return st;
  for (size_t k = 0; k < n_attr; k++) {
    dims[k] = attr[k];
    if ((st = check_dim(c, SIZE_MAX, 0, k, dims[k]))) return st;
  }
  *ndim = (int)n_attr;
  return IC_OK;
}

ic_status ic_fill_infer_shaped(ic_kctx *c, size_t s_tensor, size_t s_list, const int64_t *attr,
                               size_t n_attr, ic_dtype dt) {
  int ndim;
  int64_t dims[IC_MAX_RANK];
  ic_status st = ic_fill_shape(c, s_tensor, s_list, attr, n_attr, &ndim, dims);
  if (st) return st;
  ic_tensor_set_meta(ic_out(c, 0, 0), dt, ndim, dims);
  return IC_OK;
}

void ic_fill_parse_dtype(ic_attr_reader *r, const char *name, int64_t dflt, uint64_t allowed,
                         ic_dtype *dt) {
  int64_t v = ic_ar_int(r, name, dflt);
  if (r->st) return;
  if (v < 0 || v >= 64 || !ic_dtype_size((int)v) || !(allowed & IC_DT(v))) {
    char want[160] = "";
    size_t off = 0;
    for (int d = 0; d < 64 && off < sizeof want; d++) {
      if (!(allowed & IC_DT(d)) || !ic_dtype_name(d)) continue;
      int k = snprintf(want + off, sizeof want - off, "%s%d (%s)", off ? ", " : "", d,
                       ic_dtype_name(d));
      if (k > 0) off += (size_t)k;
    }
    ic_ar_fail(r, name, "is %lld, expected a data type among %s", (long long)v, want);
    return;
  }
  *dt = (ic_dtype)v;
}

ic_fill_scalar ic_fill_scalar_of(const ic_tensor *t) {
  return ic_fill_scalar_at(t->data, t->dtype);
}

#define STORE(T)                                     \
  do {                                               \
    T v_ = (T)bits, *p_ = data;                      \
    for (int64_t k_ = 0; k_ < n; k_++) p_[k_] = v_;  \
  } while (0)

void ic_fill_store_bits(void *data, size_t es, int64_t n, uint64_t bits) {
  switch (es) {
    case 1: STORE(uint8_t); break;
    case 2: STORE(uint16_t); break;
    case 4: STORE(uint32_t); break;
    default: STORE(uint64_t); break;
  }
}

void ic_fill_store(void *data, ic_dtype dt, int64_t n, ic_fill_scalar v) {
  ic_fill_store_bits(data, ic_dtype_size(dt), n, ic_fill_bits(dt, v));
}
