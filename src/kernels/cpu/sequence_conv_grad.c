/* sequence_conv_grad: the gradient of sequence_conv (Paddle's SequenceConvGradKernel; its grad
 * maker emits X, Filter, PaddingData (with paddingTrainable), Out@GRAD -> X@GRAD,
 * Filter@GRAD, PaddingData@GRAD, each output optional, with the forward's attributes).
 * With col the forward's im2col rows ([T, contextLength * M]: row k of a sequence holds its
 * context rows k + contextStart + j, j < contextLength, each a row of X, a row of PaddingData
 * (paddingTrainable) or zeros) and dcol = Out@GRAD * Filter^T:
 *   X@GRAD           every dcol block added back to the row of X it was copied from;
 *   PaddingData@GRAD the blocks copied from PaddingData (zeros when paddingTrainable is false);
 *   Filter@GRAD      col^T * Out@GRAD.
 * X@GRAD has X's LoD. contextStride must be 1, as in Paddle. Sums in double. */
#include <string.h>

#include "kernels/cpu/sequence_conv.h"

enum { IN_X, IN_FILTER, IN_PADDING, IN_DOUT };
enum { OUT_DX, OUT_DFILTER, OUT_DPADDING };

static ic_status infer(ic_kctx *c) {
  const seqconv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *f = ic_in(c, IN_FILTER, 0), *g = ic_in(c, IN_DOUT, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [rows, width]");
  size_t n;
  const uint64_t *off = ic_kseq(c, IN_X, 0, 0, &n);
  if (!off) return c->err->code;
  if (x->lod->n_levels != 1) {
    return ic_kfail_in(c, IN_X, 0, "with %zu LoD levels, expected 1", x->lod->n_levels);
  }
  if (off[n] != (uint64_t)x->dims[0]) {
    return ic_kfail_in(c, IN_X, 0, "has a LoD that does not end at its %lld rows",
                       (long long)x->dims[0]);
  }
  const int64_t M = x->dims[1];
  if (f->dtype != x->dtype || f->ndim != 2 || f->dims[0] != a->length * M) {
    return ic_kfail_in(c, IN_FILTER, 0, "expected %s[%lld, N] (contextLength * X's width)",
                       ic_dtype_name(x->dtype), (long long)(a->length * M));
  }
  const int64_t gd[2] = {x->dims[0], f->dims[1]};
  if (g->dtype != x->dtype || !ic_dims_equal(g->ndim, g->dims, 2, gd)) {
    return ic_kfail_in(c, IN_DOUT, 0, "expected %s[%lld, %lld] (Out: X's rows, Filter's width)",
                       ic_dtype_name(x->dtype), (long long)gd[0], (long long)gd[1]);
  }
  const ic_tensor *p = ic_in(c, IN_PADDING, 0);
  if (a->trainable) {
    const int64_t rows = ic_seqconv_up_pad(a) + ic_seqconv_down_pad(a);
    if (!p) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                      "paddingTrainable is true but input PaddingData is missing");
    }
    if (p->dtype != x->dtype || p->ndim != 2 || p->dims[0] != rows || p->dims[1] != M) {
      return ic_kfail_in(c, IN_PADDING, 0, "expected %s[%lld, %lld] (up_pad + down_pad, width)",
                         ic_dtype_name(x->dtype), (long long)rows, (long long)M);
    }
  }
  ic_tensor *dx = ic_out(c, OUT_DX, 0), *df = ic_out(c, OUT_DFILTER, 0);
  ic_tensor *dp = ic_out(c, OUT_DPADDING, 0);
  if (dp && !p) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                    "output PaddingData@GRAD '%s' is wanted but input PaddingData is missing",
                    ic_out_name(c, OUT_DPADDING, 0));
  }
  if (dx) {
    ic_tensor_set_meta(dx, x->dtype, 2, x->dims);
    if (ic_kset_lod(c, dx, ic_lod_clone(x->lod), true)) return c->err->code;
  }
  if (df) ic_tensor_set_meta(df, f->dtype, 2, f->dims);
  if (dp) ic_tensor_set_meta(dp, p->dtype, p->ndim, p->dims);
  return IC_OK;
}

static double get(const ic_tensor *t, int64_t k) {
  return t->dtype == IC_FP32 ? ((const float *)t->data)[k] : ((const double *)t->data)[k];
}

static ic_status run(ic_kctx *c) {
  const seqconv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *f = ic_in(c, IN_FILTER, 0), *g = ic_in(c, IN_DOUT, 0);
  const ic_tensor *p = a->trainable ? ic_in(c, IN_PADDING, 0) : NULL;
  ic_tensor *dx = ic_out(c, OUT_DX, 0), *df = ic_out(c, OUT_DFILTER, 0);
  ic_tensor *dp = ic_out(c, OUT_DPADDING, 0);
  const int64_t T = x->dims[0], M = x->dims[1], N = f->dims[1], CL = a->length, K = CL * M;
  const int64_t up = ic_seqconv_up_pad(a);
  const int64_t np = p ? p->dims[0] * M : (dp ? ic_tensor_numel_(dp) : 0);
  const int64_t nx = T * M, nf = K * N;
  /* accumulators: X@GRAD, PaddingData@GRAD, Filter@GRAD, then one dcol / col row */
  ic_buffer *s = ic_kscratch(c, (size_t)(nx + np + nf + K + 1) * sizeof(double));
  if (!s) return c->err->code;
  double *ax = s->data, *ap = ax + nx, *af = ap + np, *row = af + nf;
  memset(ax, 0, (size_t)(nx + np + nf) * sizeof(double));
  const uint64_t *off = x->lod->offsets[0];
  const size_t ns = x->lod->lens[0] - 1;
  for (size_t q = 0; q < ns; q++) {
    const int64_t b = (int64_t)off[q], len = (int64_t)off[q + 1] - b;
    for (int64_t k = 0; k < len; k++) {
      const int64_t t = b + k;
      /* dcol row t = Out@GRAD row t * Filter^T, scattered back to where col row t came from */
      if (dx || dp) {
        for (int64_t i = 0; i < K; i++) {
          double v = 0;
          for (int64_t o = 0; o < N; o++) v += get(g, t * N + o) * get(f, i * N + o);
          row[i] = v;
        }
        for (int64_t j = 0; j < CL; j++) {
          const int64_t idx = k + a->start + j;
          double *dst = NULL;
          if (idx >= 0 && idx < len) dst = dx ? ax + (b + idx) * M : NULL;
          else if (p && dp) dst = ap + (idx < 0 ? idx + up : up + (idx - len)) * M;
          if (dst) {
            for (int64_t m = 0; m < M; m++) dst[m] += row[j * M + m];
          }
        }
      }
      /* Filter@GRAD += col row t^T * Out@GRAD row t */
      if (df) {
        for (int64_t j = 0; j < CL; j++) {
          const int64_t idx = k + a->start + j;
          for (int64_t m = 0; m < M; m++) {
            double v = 0;
            if (idx >= 0 && idx < len) v = get(x, (b + idx) * M + m);
            else if (p) v = get(p, (idx < 0 ? idx + up : up + (idx - len)) * M + m);
            row[j * M + m] = v;
          }
        }
        for (int64_t i = 0; i < K; i++) {
          if (row[i] == 0) continue;
          for (int64_t o = 0; o < N; o++) af[i * N + o] += row[i] * get(g, t * N + o);
        }
      }
    }
  }
  if (dx) ic_store_acc(dx, ax);
  if (dp) ic_store_acc(dp, ap);
  if (df) ic_store_acc(df, af);
  ic_buffer_release(s);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0},
                                    {"Filter", 0},
                                    {"PaddingData", IC_SLOT_OPTIONAL},
                                    {"Out@GRAD", 0}};
static const ic_slotdef outputs[] = {{"X@GRAD", IC_SLOT_OPTIONAL},
                                     {"Filter@GRAD", IC_SLOT_OPTIONAL},
                                     {"PaddingData@GRAD", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_sequence_conv_grad = {
    .name = "sequence_conv_grad",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(seqconv_attrs), .parse = ic_seqconv_parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
