/* similarity_focus: X float32/float64 [N, A, B, C]; axis 1, 2 or 3; indexes (non-empty, each
 * below X.dims[axis]). Out (X's dtype and dims) starts at 0; for each batch n and index i, the
 * 2-D slice X[n] at position i of `axis` is walked from its largest value down, and each
 * value whose row and column (the two other axes) are both still unused marks them used and
 * sets Out to 1 along `axis` at that row and column, until min(rows, columns) are marked.
 * Equal values are taken in index order (Paddle's std::sort leaves ties unspecified)
 * (paddle/fluid/operators/similarity_focus_op.{cc,h}). */
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"

#define SF_MAX_INDEXES 64

typedef struct sf_attrs {
  int axis;
  int n_idx;
  int64_t idx[SF_MAX_INDEXES];
} sf_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  sf_attrs *a = attrs;
  a->axis = (int)ic_ar_int_req(r, "axis");
  const int64_t *v = NULL;
  size_t n = 0;
  ic_ar_ints(r, "indexes", true, &v, &n);
  if (r->st) return r->st;
  if (a->axis < 1 || a->axis > 3) {
    return ic_ar_fail(r, "axis", "is %d, expected 1, 2 or 3", a->axis);
  }
  if (n == 0 || n > SF_MAX_INDEXES) {
    return ic_ar_fail(r, "indexes", "has %zu values, expected 1 to %d", n, SF_MAX_INDEXES);
  }
  a->n_idx = (int)n;
  for (size_t i = 0; i < n; i++) {
    if (v[i] < 0) return ic_ar_fail(r, "indexes", "holds %lld, expected >= 0", (long long)v[i]);
    a->idx[i] = v[i];
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const sf_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4");
  for (int i = 0; i < a->n_idx; i++) {
    if (a->idx[i] >= x->dims[a->axis]) {
      return ic_kfail_in(c, 0, 0, "has %lld at axis %d, but attribute indexes holds %lld",
                         (long long)x->dims[a->axis], a->axis, (long long)a->idx[i]);
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 4, x->dims);
  return IC_OK;
}

typedef struct sf_item {
  double v;
  int64_t k;
} sf_item;

static int cmp_desc(const void *pa, const void *pb) {
  const sf_item *a = pa, *b = pb;
  if (a->v > b->v) return -1;
  if (a->v < b->v) return 1;
  return a->k < b->k ? -1 : a->k > b->k;
}

static ic_status run(ic_kctx *c) {
  const sf_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t *d = x->dims;
  const int64_t st[4] = {d[1] * d[2] * d[3], d[2] * d[3], d[3], 1};
  /* the two axes other than `axis`: rows p, columns q */
  const int p = a->axis == 1 ? 2 : 1, q = a->axis == 3 ? 2 : 3;
  const int64_t R = d[p], C = d[q], L = d[a->axis];
  const size_t es = ic_dtype_size(x->dtype);
  memset(out->data, 0, (size_t)ic_tensor_numel_(x) * es);
  ic_buffer *buf = ic_kscratch(c, (size_t)(R * C) * sizeof(sf_item) + (size_t)(R + C) + 1);
  if (!buf) return c->err->code;
  sf_item *arr = buf->data;
  unsigned char *used_r = (unsigned char *)(arr + R * C), *used_c = used_r + R;
  for (int64_t n = 0; n < d[0]; n++) {
    for (int t = 0; t < a->n_idx; t++) {
      const int64_t base = n * st[0] + a->idx[t] * st[a->axis];
      for (int64_t i = 0; i < R; i++) {
        for (int64_t j = 0; j < C; j++) {
          const int64_t at = base + i * st[p] + j * st[q];
          arr[i * C + j].v = x->dtype == IC_FP32 ? ((const float *)x->data)[at]
                                                  : ((const double *)x->data)[at];
          arr[i * C + j].k = i * C + j;
        }
      }
      qsort(arr, (size_t)(R * C), sizeof(sf_item), cmp_desc);
      memset(used_r, 0, (size_t)(R + C));
      const int64_t want = R < C ? R : C;
      int64_t marked = 0;
      for (int64_t e = 0; e < R * C && marked < want; e++) {
        const int64_t i = arr[e].k / C, j = arr[e].k % C;
        if (used_r[i] || used_c[j]) continue;
        used_r[i] = used_c[j] = 1;
        marked++;
        for (int64_t l = 0; l < L; l++) {
          const int64_t at = n * st[0] + l * st[a->axis] + i * st[p] + j * st[q];
          if (x->dtype == IC_FP32) ((float *)out->data)[at] = 1.0f;
          else ((double *)out->data)[at] = 1.0;
        }
      }
    }
  }
  ic_buffer_release(buf);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_similarity_focus = {
    .name = "similarity_focus", .n_inputs = 1, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(sf_attrs), .parse = parse, .infer = infer,
    .cpu = run,
};
