/* ctc_align: CTC greedy decoding's last step (fluid's ctc_greedy_decoder). Tokens equal to
 * `blank` are dropped and, with merge_repeated (default true), a token equal to the one just
 * before it (blank or not) too (paddle/phi/kernels/cpu/ctc_align_kernel.cc).
 *   - LoD mode: Input int32/int64 [T, 1] with one LoD level; Output [K, 1] with the kept
 *     tokens and their per-sequence LoD, or [[-1]] with LoD {0, ..., 0} when nothing is kept.
 *   - Padded mode (InputLength [B, 1] given): Input [B, T]; Output [B, T] holds each row's kept
 *     tokens then padding_value, OutputLength [B, 1] their counts.
 * Tokens are compared with blank as 32-bit unsigned values, as Paddle does. */
#include <string.h>

#include "kernels/kernel.h"

typedef struct ctc_attrs {
  int64_t blank, pad;
  bool merge;
} ctc_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ctc_attrs *a = attrs;
  a->blank = ic_ar_int(r, "blank", 0);
  a->merge = ic_ar_bool(r, "merge_repeated", true);
  a->pad = ic_ar_int(r, "padding_value", 0);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0), *len = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_INT);
  if (st) return st;
  if (len) {
    if ((st = ic_kcheck_dtype(c, 1, 0, IC_DT_INT))) return st;
    if (x->ndim != 2) return ic_kfail_in(c, 0, 0, "expected [batch, time] with InputLength");
    if (ic_tensor_numel_(len) != x->dims[0]) {
      return ic_kfail_in(c, 1, 0, "expected one length per row of Input (%lld)",
                         (long long)x->dims[0]);
    }
    ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, x->dims);
    if (ic_out(c, 1, 0)) {
      ic_tensor_set_meta(ic_out(c, 1, 0), len->dtype, 2, (int64_t[]){x->dims[0], 1});
    }
    return IC_OK;
  }
  size_t ns;
  if (!ic_kseq(c, 0, 0, 0, &ns)) return c->err->code;
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, (int64_t[]){0, 1});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ctc_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *len = ic_in(c, 1, 0);
  const uint32_t blank = (uint32_t)a->blank;
  if (len) {
    const int64_t B = x->dims[0], T = x->dims[1];
    ic_tensor *o = ic_out(c, 0, 0), *ol = ic_out(c, 1, 0);
    ic_status st = ic_kalloc_out(c, 0, 0, x->dtype, 2, x->dims);
    if (!st && ol) st = ic_kalloc_out(c, 1, 0, len->dtype, 2, (int64_t[]){B, 1});
    if (st) return st;
    o = ic_out(c, 0, 0);
    ol = ic_out(c, 1, 0);
    for (int64_t b = 0; b < B; b++) {
      int64_t n = ic_read_i64(len, b), k = 0, prev = -1;
      if (n < 0 || n > T) {
        return ic_kfail_in(c, 1, 0, "entry %lld is %lld, expected in [0, %lld]", (long long)b,
                           (long long)n, (long long)T);
      }
      for (int64_t i = 0; i < n; i++) {
        const int64_t tok = ic_read_i64(x, b * T + i);
        if ((uint32_t)tok != blank && !(a->merge && tok == prev)) {
          if (x->dtype == IC_INT32) ((int32_t *)o->data)[b * T + k] = (int32_t)tok;
          else ((int64_t *)o->data)[b * T + k] = tok;
          k++;
        }
        prev = tok;
      }
      for (int64_t j = k; j < T; j++) {
        if (x->dtype == IC_INT32) ((int32_t *)o->data)[b * T + j] = (int32_t)a->pad;
        else ((int64_t *)o->data)[b * T + j] = a->pad;
      }
      if (ol) {
        if (ol->dtype == IC_INT32) ((int32_t *)ol->data)[b] = (int32_t)k;
        else ((int64_t *)ol->data)[b] = k;
      }
    }
    return IC_OK;
  }
  size_t ns;
  const uint64_t *off = ic_kseq(c, 0, 0, 0, &ns);
  if (!off) return c->err->code;
  const int64_t rows = x->ndim ? x->dims[0] : 1;
  if (off[ns] > (uint64_t)rows || (rows && ic_tensor_numel_(x) != rows)) {
    return ic_kfail_in(c, 0, 0, "expected [T, 1] tokens covered by its LoD");
  }
  /* Count, then write. */
  const size_t n_off = ns + 1;
  ic_lod *lod = ic_lod_new(1, &n_off);
  if (!lod) return ic_kset_lod(c, ic_out(c, 0, 0), NULL, true);
  lod->offsets[0][0] = 0;
  uint64_t kept = 0;
  for (size_t s = 0; s < ns; s++) {
    int64_t prev = -1;
    for (uint64_t i = off[s]; i < off[s + 1]; i++) {
      const int64_t tok = ic_read_i64(x, (int64_t)i);
      if ((uint32_t)tok != blank && !(a->merge && tok == prev)) kept++;
      prev = tok;
    }
    lod->offsets[0][s + 1] = kept;
  }
  ic_status st = ic_kalloc_out(c, 0, 0, x->dtype, 2, (int64_t[]){kept ? (int64_t)kept : 1, 1});
  if (st) {
    ic_lod_free(lod);
    return st;
  }
  ic_tensor *o = ic_out(c, 0, 0);
  if (!kept) {
    if (x->dtype == IC_INT32) ((int32_t *)o->data)[0] = -1;
    else ((int64_t *)o->data)[0] = -1;
  }
  int64_t w = 0;
  for (size_t s = 0; s < ns; s++) {
    int64_t prev = -1;
    for (uint64_t i = off[s]; i < off[s + 1]; i++) {
      const int64_t tok = ic_read_i64(x, (int64_t)i);
      if ((uint32_t)tok != blank && !(a->merge && tok == prev)) {
        if (x->dtype == IC_INT32) ((int32_t *)o->data)[w++] = (int32_t)tok;
        else ((int64_t *)o->data)[w++] = tok;
      }
      prev = tok;
    }
  }
  return ic_kset_lod(c, o, lod, true);
}

static const ic_slotdef inputs[] = {{"Input", 0}, {"InputLength", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Output", IC_SLOT_DYNAMIC},
                                     {"OutputLength", IC_SLOT_OPTIONAL | IC_SLOT_DYNAMIC}};

const ic_opdef ic_op_ctc_align = {
    .name = "ctc_align", .n_inputs = 2, .inputs = inputs, .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(ctc_attrs), .parse = parse,
    .flags = IC_OP_LOD, /* Output's LoD: the kept tokens per sequence */
    .infer = infer, .cpu = run,
};
