/* hierarchical_sigmoid (paddle.nn.functional.hsigmoid_loss; phi HSigmoidLossKernel): the
 * loss of a binary tree of sigmoid classifiers along each sample's path (hsigmoid.h):
 *   PreOut[i][j] = Bias[index] + W[index] . X[i]  for j < len(i), 0 beyond,
 *   clipped to [-40, 40]; Out[i] = sum_j softrelu(PreOut[i][j]) - sum_{j < len, bit} PreOut[i][j]
 * with softrelu(v) = log(1 + exp(v)) over the whole row (the padding beyond len(i) adds
 * log 2 each, as Paddle's does), all in X's precision. PreOut is written after softrelu (what
 * the gradient reads). W_Out is W itself (the program names the same variable; nothing is
 * written). is_sparse only changes the gradient's type in Paddle. float32 and float64. */
#include <math.h>

#include "kernels/cpu/hsigmoid.h"

enum { IN_X, IN_W, IN_LABEL, IN_TABLE, IN_CODE, IN_BIAS };
enum { OUT_OUT, OUT_PRE, OUT_W };

static ic_status infer(ic_kctx *c) {
  const hs_attrs *a = c->attrs;
  int64_t width = 0;
  ic_status st = hs_check(c, a, IN_X, IN_W, IN_LABEL, IN_TABLE, IN_CODE, IN_BIAS, &width);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0);
  const int64_t od[2] = {x->dims[0], 1}, pd[2] = {x->dims[0], width};
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), x->dtype, 2, od);
  if (ic_out(c, OUT_PRE, 0)) ic_tensor_set_meta(ic_out(c, OUT_PRE, 0), x->dtype, 2, pd);
  if (ic_out(c, OUT_W, 0)) ic_tensor_set_meta(ic_out(c, OUT_W, 0), w->dtype, w->ndim, w->dims);
  return IC_OK;
}

#define FORWARD(T, EXP, LOG)                                                               \
  do {                                                                                     \
    const T *xp = x->data, *wp = w->data, *bp = b ? b->data : NULL;                        \
    T *pre = scratch, *op = ic_out(c, OUT_OUT, 0)->data;                                   \
    for (int64_t i = 0; i < N; i++) {                                                      \
      hs_path p;                                                                           \
      st = hs_get_path(c, a, IN_LABEL, IN_TABLE, IN_CODE, i, width, R, &p);                \
      if (st) goto done;                                                                   \
      T *row = pre + i * width;                                                            \
      for (int64_t j = 0; j < width; j++) row[j] = 0;                                      \
      for (int j = 0; j < p.len; j++) {                                                    \
        const int64_t r = hs_index(&p, j);                                                 \
        if (bp) row[j] += bp[r];                                                           \
        T dot = 0;                                                                         \
        for (int64_t k = 0; k < D; k++) dot += wp[r * D + k] * xp[i * D + k];              \
        row[j] += dot;                                                                     \
      }                                                                                    \
      T sm = 0;                                                                            \
      for (int64_t j = 0; j < width; j++) {                                                \
        row[j] = row[j] < (T)-40 ? (T)-40 : row[j] > (T)40 ? (T)40 : row[j];               \
      }                                                                                    \
      for (int j = 0; j < p.len; j++)                                                      \
        if (hs_bit(&p, j)) sm += row[j];                                                   \
      T sum = 0;                                                                           \
      for (int64_t j = 0; j < width; j++) {                                                \
        row[j] = LOG((T)1 + EXP(row[j]));                                                  \
        sum += row[j];                                                                     \
      }                                                                                    \
      op[i] = sum + (T)-1 * sm;                                                            \
    }                                                                                      \
  } while (0)

static ic_status run(ic_kctx *c) {
  const hs_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0), *b = ic_in(c, IN_BIAS, 0);
  int64_t width = 0;
  ic_status st = hs_check(c, a, IN_X, IN_W, IN_LABEL, IN_TABLE, IN_CODE, IN_BIAS, &width);
  if (st) return st;
  const int64_t N = x->dims[0], D = x->dims[1], R = w->dims[0];
  ic_tensor *pre_t = ic_out(c, OUT_PRE, 0);
  ic_buffer *sb = NULL;
  void *scratch;
  if (pre_t) {
    scratch = pre_t->data;
  } else {
    sb = ic_kscratch(c, (size_t)(N * width) * ic_dtype_size(x->dtype) + 1);
    if (!sb) return c->err->code;
    scratch = sb->data;
  }
  if (x->dtype == IC_FP32) FORWARD(float, expf, logf);
  else FORWARD(double, exp, log);
  if (ic_out(c, OUT_W, 0)) ic_tensor_share(ic_out(c, OUT_W, 0), w);
done:
  if (sb) ic_buffer_release(sb);
  return st;
}

/* W_Out names W: it never changes W. */
static bool output_unchanged(const ic_op *op, size_t k) {
  (void)op;
  return k == OUT_W;
}

static const ic_slotdef inputs[] = {{"X", 0},
                                    {"W", 0},
                                    {"Label", 0},
                                    {"PathTable", IC_SLOT_OPTIONAL},
                                    {"PathCode", IC_SLOT_OPTIONAL},
                                    {"Bias", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", 0},
                                     {"PreOut", IC_SLOT_OPTIONAL},
                                     {"W_Out", IC_SLOT_OPTIONAL | IC_SLOT_SHARE}};

const ic_opdef ic_op_hierarchical_sigmoid = {
    .name = "hierarchical_sigmoid",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(hs_attrs), .parse = hs_parse,
    .infer = infer, .cpu = run, .output_unchanged = output_unchanged,
};
