/* The code table of hierarchical_sigmoid and its gradient (phi MatrixBitCodeFunctor): each
 * sample i walks a path of len(i) inner nodes of a binary tree; step j of the path names a
 * row index(i, j) of W (and Bias) and a bit(i, j) (whether the path turns right there).
 *   default tree (no PathTable): c = Label[i] + num_classes, len = bit length of c - 1,
 *     index(i, j) = (c >> (j + 1)) - 1, bit(i, j) = bit j of c; the width of PreOut is the
 *     bit length of num_classes - 1;
 *   custom tree: PathTable / PathCode [N, L] int64, len = the position of the first
 *     negative PathTable entry of row i (L when none), index = PathTable[i][j],
 *     bit = PathCode[i][j] != 0; the width of PreOut is L. */
#ifndef IC_KERNELS_CPU_HSIGMOID_H
#define IC_KERNELS_CPU_HSIGMOID_H

#include "kernels/kernel.h"

typedef struct hs_attrs {
  int64_t num_classes;
  bool is_sparse;
} hs_attrs;

static inline int hs_bitlen(uint64_t v) {
  int n = 0;
  while (v) {
    n++;
    v >>= 1;
  }
  return n;
}

/* The path of one sample: at most `width` steps. */
typedef struct hs_path {
  int len;
  const int64_t *table, *code; /* custom tree rows, or NULL */
  int64_t c;                   /* default tree: Label + num_classes */
} hs_path;

static inline int64_t hs_index(const hs_path *p, int j) {
  return p->table ? p->table[j] : (p->c >> (j + 1)) - 1;
}
static inline bool hs_bit(const hs_path *p, int j) {
  return p->table ? p->code[j] != 0 : ((p->c >> j) & 1) != 0;
}

/* The path of sample i, checked: its length within width and every index in [0, rows). */
static inline ic_status hs_get_path(ic_kctx *c, const hs_attrs *a, size_t in_label,
                                    size_t in_table, size_t in_code, int64_t i, int64_t width,
                                    int64_t rows, hs_path *p) {
  const ic_tensor *tab = ic_in(c, in_table, 0), *code = ic_in(c, in_code, 0);
  if (tab) {
    p->table = (const int64_t *)tab->data + i * width;
    p->code = (const int64_t *)code->data + i * width;
    p->c = 0;
    int n = 0;
    while (n < width && p->table[n] >= 0) n++;
    p->len = n;
  } else {
    const int64_t lab = ((const int64_t *)ic_in(c, in_label, 0)->data)[i];
    p->table = p->code = NULL;
    p->c = lab + a->num_classes;
    p->len = p->c > 0 ? hs_bitlen((uint64_t)p->c) - 1 : 0;
    if (lab < 0 || lab >= a->num_classes) {
      return ic_kfail_in(c, in_label, 0, "holds %lld at row %lld, expected a class in [0, %lld)",
                         (long long)lab, (long long)i, (long long)a->num_classes);
    }
  }
  for (int j = 0; j < p->len; j++) {
    const int64_t r = hs_index(p, j);
    if (r < 0 || r >= rows) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                      "hierarchical_sigmoid: sample %lld's path step %d names node %lld, "
                      "expected a row of W in [0, %lld)",
                      (long long)i, j, (long long)r, (long long)rows);
    }
  }
  return IC_OK;
}

static inline ic_status hs_parse(ic_attr_reader *r, void *attrs) {
  hs_attrs *a = attrs;
  a->num_classes = ic_ar_int(r, "num_classes", 2);
  a->is_sparse = ic_ar_bool(r, "is_sparse", false);
  return r->st;
}

#endif

/* Checks shared by the forward op and its gradient: X float [N, D]; W X's dtype [R, D];
 * Label int64 with N elements; PathTable and PathCode both or neither, int64 [N, L]; Bias,
 * when given, X's dtype with R elements. *width receives PreOut's width. */
static inline ic_status hs_check(ic_kctx *c, const hs_attrs *a, size_t in_x, size_t in_w,
                                 size_t in_label, size_t in_table, size_t in_code,
                                 size_t in_bias, int64_t *width) {
  const ic_tensor *x = ic_in(c, in_x, 0), *w = ic_in(c, in_w, 0), *lab = ic_in(c, in_label, 0);
  const ic_tensor *tab = ic_in(c, in_table, 0), *code = ic_in(c, in_code, 0),
                  *b = ic_in(c, in_bias, 0);
  char d[128];
  ic_status st = ic_kcheck_dtype(c, in_x, 0, IC_DT_FLOAT);
  if (st || (st = ic_kcheck_dtype(c, in_label, 0, IC_DT(IC_INT64)))) return st;
  if (x->ndim != 2) return ic_kfail_in(c, in_x, 0, "expected rank 2 ([batch, features])");
  if (w->dtype != x->dtype || w->ndim != 2 || w->dims[1] != x->dims[1]) {
    return ic_kfail_in(c, in_w, 0, "expected %s [nodes, %lld] (X's dtype and width)",
                       ic_dtype_name(x->dtype), (long long)x->dims[1]);
  }
  if (ic_tensor_numel_(lab) != x->dims[0]) {
    return ic_kfail_in(c, in_label, 0, "expected %lld labels (one per row of X)",
                       (long long)x->dims[0]);
  }
  if (b && (b->dtype != x->dtype || ic_tensor_numel_(b) != w->dims[0])) {
    return ic_kfail_in(c, in_bias, 0, "expected %s with %lld elements (one per row of W)",
                       ic_dtype_name(x->dtype), (long long)w->dims[0]);
  }
  if (!tab != !code) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "hierarchical_sigmoid: PathTable and PathCode must be given together "
                    "(a custom tree) or both left out (the default tree)");
  }
  if (tab) {
    if ((st = ic_kcheck_dtype(c, in_table, 0, IC_DT(IC_INT64))) ||
        (st = ic_kcheck_dtype(c, in_code, 0, IC_DT(IC_INT64))))
      return st;
    if (tab->ndim != 2 || tab->dims[0] != x->dims[0]) {
      return ic_kfail_in(c, in_table, 0, "expected [%lld, path length] (one path per row of X)",
                         (long long)x->dims[0]);
    }
    if (!ic_dims_equal(code->ndim, code->dims, tab->ndim, tab->dims)) {
      return ic_kfail_in(c, in_code, 0, "expected PathTable's dims %s",
                         ic_tensor_describe(tab, d, sizeof d));
    }
    *width = tab->dims[1];
  } else {
    if (a->num_classes < 2) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                      "hierarchical_sigmoid: num_classes is %lld, expected at least 2",
                      (long long)a->num_classes);
    }
    *width = hs_bitlen((uint64_t)(a->num_classes - 1));
  }
  return IC_OK;
}
