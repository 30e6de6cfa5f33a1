/* sum over LoDTensorArrays: the `sum` op whose X variables are declared LoDTensorArrays
 * (sum.c's resolve picks this definition; Paddle's AddNArrayKernel in
 * phi/kernels/impl/add_n_kernel_impl.h, SumOpVarTypeInference in fluid's sum_op.cc). Paddle's
 * backward emits it to add up the gradient arrays of an array read more than once.
 *
 * Out is an array as long as the last index where some input holds an element with data
 * (an element never written, or with no elements, counts as absent, as in Paddle); when Out
 * is X[0] itself (Paddle's in-place form), at least as long as X[0] was. Element j is the sum
 * of the inputs' elements j that are present, in input order, with the LoD of the first;
 * Paddle requires the others' LoD to be equal, and icore requires equal dtype and dims as
 * well (Paddle's kernel adds them as flat vectors of the first one's type). An element
 * present in one input only is shared, not copied; one present in none stays unwritten.
 * Every result is computed before Out is replaced, so Out may be any of the inputs. */
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"
#include "scope/scope.h"

static size_t array_len(const ic_variable *v) { return v->kind == IC_VK_ARRAY ? v->n_list : 0; }

/* Element j of input i, or NULL when absent (past the end, never written, or empty). */
static const ic_tensor *element(const ic_kctx *c, size_t i, size_t j) {
  const ic_variable *v = c->in[0].vars[i];
  if (j >= array_len(v)) return NULL;
  const ic_tensor *e = &v->list[j];
  return e->data && ic_tensor_numel_(e) > 0 ? e : NULL;
}

/* The variables are arrays (a variable nobody wrote is an empty one), and every element j
 * agrees with the first input present at j. *n: Out's length. */
static ic_status check(ic_kctx *c, size_t *n) {
  size_t nin = c->in[0].n, len = 0;
  const ic_variable *ov = c->out[0].vars[0];
  if (ov->kind == IC_VK_LIST) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "output Out '%s' is a feed/fetch list, expected a tensor array",
                    ic_out_name(c, 0, 0));
  }
  for (size_t i = 0; i < nin; i++) {
    const ic_variable *v = c->in[0].vars[i];
    if (v->kind == IC_VK_LIST || (v->kind == IC_VK_TENSOR && v->tensor.data)) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                      "input X '%s' holds %s, expected a tensor array (it is declared one)",
                      ic_in_name(c, 0, i),
                      v->kind == IC_VK_LIST ? "a feed/fetch list" : "a tensor");
    }
    for (size_t j = array_len(v); j > len; j--) {
      if (element(c, i, j - 1)) {
        len = j;
        break;
      }
    }
  }
  if (nin && c->in[0].vars[0] == ov && array_len(ov) > len) len = array_len(ov);
  for (size_t j = 0; j < len; j++) {
    size_t first = nin;
    for (size_t i = 0; i < nin; i++) {
      const ic_tensor *e = element(c, i, j);
      if (!e) continue;
      if (first == nin) {
        if (!(IC_DT(e->dtype) & IC_DT_NUM)) {
          return ic_kfail(c, IC_ERR_SHAPE, "element %zu of input X '%s' is %s, expected "
                          "float32, float64, int32 or int64", j, ic_in_name(c, 0, i),
                          ic_dtype_name(e->dtype));
        }
        first = i;
        continue;
      }
      const ic_tensor *f = element(c, first, j);
      char d1[128], d2[128], l1[256], l2[256];
      if (e->dtype != f->dtype || !ic_dims_equal(e->ndim, e->dims, f->ndim, f->dims)) {
        return ic_kfail(c, IC_ERR_SHAPE,
                        "element %zu of input X '%s' is %s, expected %s like element %zu of "
                        "X '%s' (sum does not broadcast)",
                        j, ic_in_name(c, 0, i), ic_tensor_describe(e, d1, sizeof d1),
                        ic_tensor_describe(f, d2, sizeof d2), j, ic_in_name(c, 0, first));
      }
      if (!ic_lod_equal(e->lod, f->lod)) {
        return ic_kfail(c, IC_ERR_SHAPE,
                        "element %zu of input X '%s' has LoD %s, expected %s like element %zu "
                        "of X '%s' (Paddle requires the summed elements' LoD to be equal)",
                        j, ic_in_name(c, 0, i), ic_lod_str(e->lod, l1, sizeof l1),
                        ic_lod_str(f->lod, l2, sizeof l2), j, ic_in_name(c, 0, first));
      }
    }
  }
  *n = len;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  size_t n;
  return check(c, &n);
}

/* Integers add as unsigned so that overflow wraps as in Paddle without being undefined. */
#define ADD_IMPL(NAME, T, U)                                                             \
  static void NAME(void *out, const void *a, const void *b, int64_t n) {                 \
    T *o = out;                                                                          \
    const T *x = a, *y = b;                                                              \
    for (int64_t k = 0; k < n; k++) o[k] = (T)((U)x[k] + (U)y[k]);                       \
  }
ADD_IMPL(add_f32, float, float)
ADD_IMPL(add_f64, double, double)
ADD_IMPL(add_i32, int32_t, uint32_t)
ADD_IMPL(add_i64, int64_t, uint64_t)

/* res = the sum of the elements j present (at least one). */
static ic_status sum_element(ic_kctx *c, size_t j, ic_tensor *res) {
  const ic_tensor *acc = NULL;
  for (size_t i = 0; i < c->in[0].n; i++) {
    const ic_tensor *e = element(c, i, j);
    if (!e) continue;
    if (!acc) {
      acc = e;
      continue;
    }
    if (!res->data) {
      ic_tensor_set_meta(res, e->dtype, e->ndim, e->dims);
      if (ic_tensor_alloc(res, c->env ? c->env->alloc : NULL, c->err)) return c->err->code;
    }
    int64_t n = ic_tensor_numel_(e);
    switch (e->dtype) {
      case IC_FP32: add_f32(res->data, acc->data, e->data, n); break;
      case IC_FP64: add_f64(res->data, acc->data, e->data, n); break;
      case IC_INT32: add_i32(res->data, acc->data, e->data, n); break;
      default: add_i64(res->data, acc->data, e->data, n); break;
    }
    acc = res;
  }
  if (!res->data) ic_tensor_share(res, acc); /* present in one input only */
  const ic_tensor *first = NULL;
  for (size_t i = 0; i < c->in[0].n && !first; i++) first = element(c, i, j);
  ic_lod *lod = first->lod ? ic_lod_clone(first->lod) : NULL;
  if (first->lod && !lod) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
  ic_tensor_take_lod(res, lod);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  size_t n;
  ic_status st = check(c, &n);
  if (st) return st;
  ic_tensor *res = calloc(n ? n : 1, sizeof *res);
  if (!res) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t j = 0; j < n; j++) ic_tensor_init(&res[j]);
  for (size_t j = 0; j < n && !st; j++) {
    bool present = false;
    for (size_t i = 0; i < c->in[0].n && !present; i++) present = element(c, i, j) != NULL;
    if (present) st = sum_element(c, j, &res[j]);
  }
  ic_variable *ov = c->out[0].vars[0];
  if (!st) {
    /* Every input element has been read: Out (perhaps an input) can be replaced. */
    ic_variable_clear(ov);
    if (n && !ic_variable_array_at(ov, n - 1)) {
      st = ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory growing array '%s'",
                    ic_out_name(c, 0, 0));
    }
  }
  for (size_t j = 0; j < n; j++) {
    if (st) {
      ic_tensor_reset(&res[j]);
    } else {
      ov->list[j] = res[j]; /* ownership of the buffer reference and the LoD moves */
    }
  }
  free(res);
  return st;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_MULTI | IC_SLOT_ARRAY}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_ARRAY | IC_SLOT_NO_BUFFER}};

/* Not in ops.def: reached through ic_op_sum's resolve. */
const ic_opdef ic_op_sum_array = {
    .name = "sum",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
