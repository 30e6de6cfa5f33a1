/* What lu_solve and lu_solve_grad share: the `trans` attribute ("C" reads as "T" for real
 * matrices), the checks of b ([..., n, k]), lu ([..., n, n], b's dtype) and pivots ([..., n]
 * int32, b's batch dims) in slots 0, 1, 2, and the pivots' range (1..n, 1-based as
 * paddle.linalg.lu writes them; LAPACK would read out of bounds otherwise). */
#ifndef IC_KERNELS_CPU_LU_SOLVE_H
#define IC_KERNELS_CPU_LU_SOLVE_H

#include <string.h>

#include "kernels/cpu/lapack.h"

typedef struct ic_lu_solve_attrs {
  char trans[2]; /* "N" or "T" */
} ic_lu_solve_attrs;

static inline ic_status ic_lu_solve_parse(ic_attr_reader *r, void *attrs) {
  ic_lu_solve_attrs *a = attrs;
  const char *t = ic_ar_str(r, "trans", "N");
  if (r->st) return r->st;
  if (strcmp(t, "N") && strcmp(t, "T") && strcmp(t, "C")) {
    return ic_ar_fail(r, "trans", "is '%s', expected \"N\", \"T\" or \"C\"", t);
  }
  a->trans[0] = t[0] == 'N' ? 'N' : 'T';
  a->trans[1] = 0;
  return IC_OK;
}

static inline ic_status ic_lu_solve_check(ic_kctx *c) {
  const ic_tensor *b = ic_in(c, 0, 0), *lu = ic_in(c, 1, 0), *p = ic_in(c, 2, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (lu->dtype != b->dtype) {
    return ic_kfail_in(c, 1, 0, "expected b's dtype %s", ic_dtype_name(b->dtype));
  }
  if ((st = ic_kcheck_dtype(c, 2, 0, IC_DT(IC_INT32)))) return st;
  if ((st = ic_la_check_size(c, 0)) || (st = ic_la_check_size(c, 1))) return st;
  if (b->ndim < 2) return ic_kfail_in(c, 0, 0, "expected rank >= 2 ([..., n, k])");
  if (lu->ndim != b->ndim) return ic_kfail_in(c, 1, 0, "expected b's rank %d", b->ndim);
  if (p->ndim != b->ndim - 1) return ic_kfail_in(c, 2, 0, "expected rank %d", b->ndim - 1);
  const int r = b->ndim;
  const int64_t n = lu->dims[r - 1];
  if (lu->dims[r - 2] != n) return ic_kfail_in(c, 1, 0, "expected square matrices");
  if (b->dims[r - 2] != n) return ic_kfail_in(c, 0, 0, "expected %lld rows (lu's)", (long long)n);
  if (p->dims[r - 2] != n) return ic_kfail_in(c, 2, 0, "expected %lld pivots", (long long)n);
  for (int k = 0; k < r - 2; k++) {
    if (lu->dims[k] != b->dims[k]) return ic_kfail_in(c, 1, 0, "expected b's batch dims");
    if (p->dims[k] != b->dims[k]) return ic_kfail_in(c, 2, 0, "expected b's batch dims");
  }
  return IC_OK;
}

/* The values of pivots (slot 2): `count` of them, each in 1..n. */
static inline ic_status ic_lu_solve_check_pivots(ic_kctx *c, int64_t count, int64_t n) {
  const int32_t *piv = ic_in(c, 2, 0)->data;
  for (int64_t i = 0; i < count; i++) {
    if (piv[i] < 1 || piv[i] > n) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                      "input pivots '%s' holds %d at element %lld, expected 1..%lld",
                      ic_in_name(c, 2, 0), piv[i], (long long)i, (long long)n);
    }
  }
  return IC_OK;
}

#endif
