/* fc: Out = act(flatten(Input) * W + Bias), the fully-connected op that Paddle Inference's
 * fc_fuse_pass writes into optimized programs and fluid-era exporters emit
 * (paddle/fluid/operators/fc_op.cc, phi/kernels/funcs/fc_functor.cc).
 *
 * Input is read as the matrix [M, K], M = prod(dims[:in_num_col_dims]), K the product of the
 * rest; W is [K, N] (float32 or float64, Input's dtype); Out is dims[:in_num_col_dims] + [N].
 * Bias (optional) is [N] or [1, N], added to every row. activation_type "" or "relu" (relu
 * needs a Bias, as Paddle's functor enforces). padding_weights: W is stored [K + 4, N + 4]
 * and its top-left [K, N] block is the weight (Paddle's padded layout for its JIT kernels);
 * N and K are then W's dims less 4. The oneDNN and quantization attributes (use_mkldnn,
 * use_quantizer, Scale_*, ...) change nothing here and are ignored.
 *
 * ic_matmul_axis (icore's, set by the linear-layer rewrite, analysis/fuse_linear.c, on an fc
 * that was matmul_v2 or matmul + elementwise_add): the rows are all of Input's dims but the
 * last at run time, as the product's are, whatever rank Input's VarDesc declared; -1 when the
 * add's axis was -1, else that axis, which then must be Input's rank less 1 at run time (the
 * add aligned the bias there). Absent or 0: in_num_col_dims, as Paddle's fc. */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/rowbias.h"
#include "kernels/kernel.h"

typedef struct fc_attrs {
  int64_t in_num_col_dims;
  int64_t matmul_axis; /* ic_matmul_axis: 0 absent, -1, or the add's axis */
  bool relu, padding_weights;
} fc_attrs;

enum { IN_X, IN_W, IN_BIAS };

static ic_status parse(ic_attr_reader *r, void *attrs) {
  fc_attrs *a = attrs;
  a->in_num_col_dims = ic_ar_int(r, "in_num_col_dims", 1);
  a->padding_weights = ic_ar_bool(r, "padding_weights", false);
  a->matmul_axis = ic_ar_int(r, "ic_matmul_axis", 0);
  const char *act = ic_ar_str(r, "activation_type", "");
  if (r->st) return r->st;
  if (a->matmul_axis < -1) {
    return ic_ar_fail(r, "ic_matmul_axis", "is %lld, expected -1 or >= 0",
                      (long long)a->matmul_axis);
  }
  if (a->in_num_col_dims < 1) {
    return ic_ar_fail(r, "in_num_col_dims", "is %lld, expected >= 1",
                      (long long)a->in_num_col_dims);
  }
  if (strcmp(act, "") != 0 && strcmp(act, "relu") != 0) {
    return ic_ar_fail(r, "activation_type", "is '%s', expected '' or 'relu'", act);
  }
  a->relu = act[0] != '\0';
  return IC_OK;
}

/* How many of Input's leading dims index the rows: in_num_col_dims, or for a rewritten
 * matrix product all but the last at run time. */
static int64_t row_dims(const fc_attrs *a, const ic_tensor *x) {
  return a->matmul_axis ? x->ndim - 1 : a->in_num_col_dims;
}

static ic_status infer(ic_kctx *c) {
  const fc_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0), *b = ic_in(c, IN_BIAS, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT);
  if (st) return st;
  if (w->dtype != x->dtype) {
    return ic_kfail_in(c, IN_W, 0, "expected the dtype of Input (%s)", ic_dtype_name(x->dtype));
  }
  if (w->ndim != 2) return ic_kfail_in(c, IN_W, 0, "expected rank 2 [K, N]");
  const int64_t pad = a->padding_weights ? 4 : 0;
  const int64_t K = w->dims[0] - pad, N = w->dims[1] - pad;
  if (K < 0 || N < 0) {
    return ic_kfail_in(c, IN_W, 0, "expected at least [4, 4] with padding_weights");
  }
  const int64_t ncd = row_dims(a, x);
  if (a->matmul_axis && x->ndim < 2) {
    return ic_kfail_in(c, IN_X, 0, "expected rank >= 2: this fc is a matrix product and its "
                       "bias add (icore's linear-layer rewrite; --no-fuse runs them as written)");
  }
  if (a->matmul_axis > 0 && a->matmul_axis != ncd) {
    return ic_kfail_in(c, IN_X, 0, "expected rank %lld: this fc is a matrix product and a "
                       "bias add along axis %lld, which its VarDesc's rank made the last "
                       "(icore's linear-layer rewrite; --no-fuse runs them as written)",
                       (long long)a->matmul_axis + 1, (long long)a->matmul_axis);
  }
  if (x->ndim <= ncd) {
    return ic_kfail_in(c, IN_X, 0, "expected rank > in_num_col_dims (%lld)", (long long)ncd);
  }
  int64_t k = 1;
  for (int i = (int)ncd; i < x->ndim; i++) k *= x->dims[i];
  if (k != K) {
    char xd[128], wd[128];
    return ic_kfail(c, IC_ERR_SHAPE,
                    "input Input '%s' %s flattened at in_num_col_dims %lld has %lld columns, "
                    "but input W '%s' %s has %lld rows%s",
                    ic_in_name(c, IN_X, 0), ic_dims_str(x->ndim, x->dims, xd, sizeof xd),
                    (long long)ncd, (long long)k, ic_in_name(c, IN_W, 0),
                    ic_dims_str(w->ndim, w->dims, wd, sizeof wd), (long long)K,
                    pad ? " (less the 4 of padding_weights)" : "");
  }
  if (b) {
    if (b->dtype != x->dtype) {
      return ic_kfail_in(c, IN_BIAS, 0, "expected the dtype of Input (%s)",
                         ic_dtype_name(x->dtype));
    }
    const bool ok = (b->ndim == 1 && b->dims[0] == N) ||
                    (b->ndim == 2 && b->dims[0] == 1 && b->dims[1] == N);
    if (!ok) return ic_kfail_in(c, IN_BIAS, 0, "expected [%lld] or [1, %lld]", (long long)N, (long long)N);
  } else if (a->relu) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                    "activation_type 'relu' needs input Bias (Paddle's fc refuses relu without it)");
  }
  int64_t dims[IC_MAX_RANK];
  int n = 0;
  for (int i = 0; i < ncd; i++) dims[n++] = x->dims[i];
  dims[n++] = N;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, n, dims);
  return IC_OK;
}

/* Elements of the product below which one thread adds the bias. */
#define PAR_MIN 65536

/* Rows [r0, r1) of the product plus the bias (rowbias.h), then relu as the relu kernel
 * computes it (x > 0 ? x : 0: a NaN becomes 0, as in Paddle's functor); each element its own
 * sum, so the same bits at any thread count. */
#define BIAS_ROWS(T, SUF)                                                                  \
  static inline void relu8_##T(T *restrict o) {                                            \
    for (int k = 0; k < 8; k++) o[k] = o[k] > 0 ? o[k] : (T)0;                             \
  }                                                                                        \
  static void bias_rows_##T(T *o, const T *bb, int64_t r0, int64_t r1, int64_t N,          \
                            bool relu) {                                                   \
    ic_rows_add_##SUF(o + r0 * N, r1 - r0, N, bb);                                         \
    for (int64_t i = r0; relu && i < r1; i++) {                                            \
      T *row = o + i * N;                                                                  \
      int64_t j = 0;                                                                       \
      for (; j + 8 <= N; j += 8) relu8_##T(row + j);                                       \
      for (; j < N; j++) row[j] = row[j] > 0 ? row[j] : (T)0;                              \
    }                                                                                      \
  }
BIAS_ROWS(float, f32)
BIAS_ROWS(double, f64)

/* The bias pass over Out [M, N]: by rows over the kernel's threads from PAR_MIN elements
 * (no OpenMP region at all below: an inactive one still costs a team start). */
#define BIAS_ACT(T)                                                                        \
  do {                                                                                     \
    T *o = out->data;                                                                      \
    const T *bb = b->data;                                                                 \
    const int nt = M * N >= PAR_MIN && M > 1 ? ic_omp_threads(c->env) : 1;                 \
    if (nt <= 1) {                                                                         \
      bias_rows_##T(o, bb, 0, M, N, a->relu);                                              \
      break;                                                                               \
    }                                                                                      \
    _Pragma("omp parallel for num_threads(nt) schedule(static)")                         \
    for (int t = 0; t < nt; t++) {                                                         \
      bias_rows_##T(o, bb, M * t / nt, M * (t + 1) / nt, N, a->relu);                      \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const fc_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0), *b = ic_in(c, IN_BIAS, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t pad = a->padding_weights ? 4 : 0;
  const int64_t K = w->dims[0] - pad, N = w->dims[1] - pad;
  const int64_t ncd = row_dims(a, x);
  int64_t M = 1;
  for (int i = 0; i < ncd; i++) M *= x->dims[i];
  ic_gemm g = {.dtype = x->dtype, .m = M, .n = N, .k = K, .lda = K, .ldb = N + pad, .ldc = N,
               .alpha = 1.0};
  ic_status st = ic_gemm_check(c, &g);
  if (st) return st;
  ic_gemm_run(c, &g, x->data, w->data, out->data);
  if (!b) return IC_OK;
  if (x->dtype == IC_FP64) {
    BIAS_ACT(double);
  } else {
    BIAS_ACT(float);
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", 0}, {"W", 0}, {"Bias", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_fc = {
    .name = "fc",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(fc_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
