/* sequence_conv: a 1-D convolution along each sequence of a LoD tensor (Paddle's
 * paddle/fluid/operators/sequence_ops/sequence_conv_op.h). X is [T, M] with one LoD level
 * splitting its T rows into sequences; Filter is [contextLength * M, N]; Out is [T, N] with
 * X's LoD. Row k of a sequence of length len sees the context rows k + contextStart + j for
 * j in [0, contextLength): its im2col row is their concatenation, Out row = im2col row *
 * Filter. A context row outside [0, len) is zero, or with paddingTrainable a row of
 * PaddingData [up_pad + down_pad, M] (up_pad = max(0, -contextStart), down_pad =
 * max(0, contextStart + contextLength - 1)): row idx + up_pad for idx < 0 and
 * up_pad + (idx - len) for idx >= len. Sequences never see each other's rows. contextStride
 * must be 1, as in Paddle. */
#include <string.h>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/sequence_conv.h"

enum { IN_X, IN_PADDING, IN_FILTER };

ic_status ic_seqconv_parse(ic_attr_reader *r, void *attrs) {
  seqconv_attrs *a = attrs;
  a->length = ic_ar_int_req(r, "contextLength");
  a->start = ic_ar_int(r, "contextStart", 0);
  a->stride = ic_ar_int(r, "contextStride", 1);
  a->trainable = ic_ar_bool(r, "paddingTrainable", false);
  if (r->st) return r->st;
  if (a->length <= 0 || a->length > (1 << 20)) {
    return ic_ar_fail(r, "contextLength", "is %lld, expected 1 to 2^20", (long long)a->length);
  }
  if (a->stride != 1) {
    return ic_ar_fail(r, "contextStride", "is %lld, expected 1 (Paddle supports only 1)",
                      (long long)a->stride);
  }
  if (a->start < -(1 << 20) || a->start > (1 << 20)) {
    return ic_ar_fail(r, "contextStart", "is %lld, expected -2^20 to 2^20", (long long)a->start);
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const seqconv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *f = ic_in(c, IN_FILTER, 0);
  if (ic_kcheck_dtype(c, IN_X, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2 [rows, width]");
  size_t n;
  if (!ic_kseq(c, IN_X, 0, 0, &n)) return c->err->code;
  if (x->lod->n_levels != 1) {
    return ic_kfail_in(c, IN_X, 0, "with %zu LoD levels, expected 1", x->lod->n_levels);
  }
  const int64_t M = x->dims[1];
  if (f->dtype != x->dtype || f->ndim != 2 || f->dims[0] != a->length * M) {
    return ic_kfail_in(c, IN_FILTER, 0, "expected %s[%lld, N] (contextLength * X's width)",
                       ic_dtype_name(x->dtype), (long long)(a->length * M));
  }
  const ic_tensor *p = ic_in(c, IN_PADDING, 0);
  if (a->trainable) {
    int64_t rows = ic_seqconv_up_pad(a) + ic_seqconv_down_pad(a);
    if (!p) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                      "paddingTrainable is true but input PaddingData is missing");
    }
    if (p->dtype != x->dtype || p->ndim != 2 || p->dims[0] != rows || p->dims[1] != M) {
      return ic_kfail_in(c, IN_PADDING, 0, "expected %s[%lld, %lld] (up_pad + down_pad, width)",
                         ic_dtype_name(x->dtype), (long long)rows, (long long)M);
    }
  }
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t d[2] = {x->dims[0], f->dims[1]};
  ic_tensor_set_meta(out, x->dtype, 2, d);
  return ic_kset_lod(c, out, ic_lod_clone(x->lod), true);
}

static ic_status run(ic_kctx *c) {
  const seqconv_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *f = ic_in(c, IN_FILTER, 0);
  const ic_tensor *p = a->trainable ? ic_in(c, IN_PADDING, 0) : NULL;
  ic_tensor *out = ic_out(c, 0, 0);
  const int64_t T = x->dims[0], M = x->dims[1], N = f->dims[1], CL = a->length;
  const size_t es = ic_dtype_size(x->dtype), row = (size_t)M * es;
  const uint64_t *off = x->lod->offsets[0];
  const size_t ns = x->lod->lens[0] - 1;
  if (T == 0 || N == 0) return IC_OK;
  ic_gemm g = {.dtype = x->dtype, .m = T, .n = N, .k = CL * M, .lda = CL * M, .ldb = N,
               .ldc = N, .alpha = 1.0, .beta = 0.0};
  if (ic_gemm_check(c, &g)) return c->err->code;
  ic_buffer *col = ic_kscratch(c, (size_t)(T * CL) * row);
  if (!col) return c->err->code;
  const int64_t up = ic_seqconv_up_pad(a);
  for (size_t s = 0; s < ns; s++) {
    const int64_t b = (int64_t)off[s], len = (int64_t)off[s + 1] - b;
    for (int64_t k = 0; k < len; k++) {
      char *dst = (char *)col->data + (size_t)((b + k) * CL) * row;
      for (int64_t j = 0; j < CL; j++, dst += row) {
        int64_t idx = k + a->start + j;
        if (idx >= 0 && idx < len) {
          memcpy(dst, (const char *)x->data + (size_t)(b + idx) * row, row);
        } else if (p) {
          int64_t pr = idx < 0 ? idx + up : up + (idx - len);
          memcpy(dst, (const char *)p->data + (size_t)pr * row, row);
        } else {
          memset(dst, 0, row);
        }
      }
    }
  }
  ic_gemm_run(c, &g, col->data, f->data, out->data);
  ic_buffer_release(col);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"PaddingData", IC_SLOT_OPTIONAL}, {"Filter", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_sequence_conv = {
    .name = "sequence_conv",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(seqconv_attrs), .parse = ic_seqconv_parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
