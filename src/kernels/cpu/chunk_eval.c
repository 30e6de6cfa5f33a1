/* chunk_eval: precision, recall and F1 of chunks (named-entity spans) between predicted and
 * true tag sequences (paddle/phi/kernels/impl/chunk_eval_kernel_impl.h; the metric of the
 * Paddle book's label_semantic_roles). Inference and Label are int64 [rows, 1] with the same
 * one LoD level, or padded [B, S] with SeqLength [B]. A tag value v is chunk type
 * v / num_tag_types and tag v % num_tag_types, num_tag_types being 2 (IOB: begin 0, inside
 * 1; IOE: inside 0, end 1), 4 (IOBES: begin, inside, end, single) or 1 (plain); type
 * num_chunk_types is "outside". Chunks start and end by Paddle's ChunkBegin / ChunkEnd rules
 * (a chunk still open at a sequence's end takes the last position's type). A predicted
 * chunk is correct when a true one has the same start, end and type; chunks of an excluded
 * type count nowhere. Precision = correct / predicted, Recall = correct / true (0 when the
 * divisor is 0), F1 = 2 P R / (P + R) (0 with no correct chunk), all float32 [1]; the three
 * counts int64 [1]. Values above num_chunk_types * num_tag_types or below 0 are refused. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_INFERENCE, IN_LABEL, IN_SEQLEN };
enum { OUT_P, OUT_R, OUT_F1, OUT_N_INFER, OUT_N_LABEL, OUT_N_CORRECT };

typedef struct chunk_attrs {
  int64_t types;              /* num_chunk_types */
  int ntag, begin, inside, end, single;
  int64_t excluded[64];
  size_t n_excluded;
} chunk_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  chunk_attrs *a = attrs;
  a->types = ic_ar_int(r, "num_chunk_types", 0);
  const char *scheme = ic_ar_str(r, "chunk_scheme", "IOB");
  const int64_t *ex = NULL;
  size_t n = 0;
  ic_ar_ints(r, "excluded_chunk_types", false, &ex, &n);
  if (r->st) return r->st;
  if (a->types < 1 || a->types > (1 << 24)) {
    return ic_ar_fail(r, "num_chunk_types", "is %lld, expected 1 to 16777216", (long long)a->types);
  }
  static const struct { const char *name; int ntag, b, i, e, s; } schemes[] = {
      {"IOB", 2, 0, 1, -1, -1}, {"IOE", 2, -1, 0, 1, -1}, {"IOBES", 4, 0, 1, 2, 3},
      {"plain", 1, -1, -1, -1, -1}};
  size_t k = 0;
  while (k < 4 && strcmp(scheme, schemes[k].name)) k++;
  if (k == 4) return ic_ar_fail(r, "chunk_scheme", "is \"%s\", expected IOB, IOE, IOBES or plain", scheme);
  a->ntag = schemes[k].ntag, a->begin = schemes[k].b, a->inside = schemes[k].i;
  a->end = schemes[k].e, a->single = schemes[k].s;
  if (n > sizeof a->excluded / sizeof a->excluded[0]) {
    return ic_ar_fail(r, "excluded_chunk_types", "has %zu values, expected at most 64", n);
  }
  a->n_excluded = n;
  for (size_t j = 0; j < n; j++) a->excluded[j] = ex[j];
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_INFERENCE, 0), *l = ic_in(c, IN_LABEL, 0);
  const ic_tensor *len = ic_in(c, IN_SEQLEN, 0);
  if (ic_kcheck_dtype(c, IN_INFERENCE, 0, IC_DT(IC_INT64)) || ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT(IC_INT64))) {
    return c->err->code;
  }
  char want[96];
  if (!ic_dims_equal(l->ndim, l->dims, x->ndim, x->dims)) {
    return ic_kfail_in(c, IN_LABEL, 0, "expected Inference's dims %s", ic_dims_str(x->ndim, x->dims, want, sizeof want));
  }
  if (l->lod && l->lod->n_levels) {
    if (l->lod->n_levels != 1) return ic_kfail_in(c, IN_LABEL, 0, "has %zu LoD levels, expected 1", l->lod->n_levels);
    if (!ic_lod_equal(l->lod, x->lod)) return ic_kfail_in(c, IN_INFERENCE, 0, "expected Label's LoD");
    size_t ns;
    if (!ic_kseq(c, IN_LABEL, 0, 0, &ns)) return c->err->code;
  } else {
    if (!len) return ic_kfail_in(c, IN_LABEL, 0, "has no LoD and SeqLength is absent: cannot tell the sequences");
    if (ic_kcheck_dtype(c, IN_SEQLEN, 0, IC_DT(IC_INT64))) return c->err->code;
    if (x->ndim < 2 || ic_tensor_numel_(len) != x->dims[0]) {
      return ic_kfail_in(c, IN_SEQLEN, 0, "expected one length per row of Inference [batch, steps]");
    }
  }
  for (int k = 0; k < 6; k++) {
    ic_tensor_set_meta(ic_out(c, k, 0), k < 3 ? IC_FP32 : IC_INT64, 1, (int64_t[]){1});
  }
  return IC_OK;
}

typedef struct seg {
  int64_t begin, end, type;
} seg;

static bool chunk_end(const chunk_attrs *a, int64_t pt, int64_t pty, int64_t t, int64_t ty) {
  const int64_t other = a->types;
  if (pty == other) return false;
  if (ty == other || ty != pty) return true;
  if (pt == a->begin || pt == a->inside) return t == a->begin || t == a->single;
  return pt == a->end || pt == a->single;
}

static bool chunk_begin(const chunk_attrs *a, int64_t pt, int64_t pty, int64_t t, int64_t ty) {
  const int64_t other = a->types;
  if (pty == other) return ty != other;
  if (ty == other) return false;
  if (ty != pty || t == a->begin) return true;
  if (t == a->inside || t == a->end) return pt == a->end || pt == a->single;
  return t == a->single;
}

static size_t segments(const chunk_attrs *a, const int64_t *v, int64_t n, seg *out) {
  size_t k = 0;
  int64_t start = 0, tag = -1, type = a->types;
  bool in = false;
  for (int64_t i = 0; i < n; i++) {
    const int64_t pt = tag, pty = type;
    tag = v[i] % a->ntag;
    type = v[i] / a->ntag;
    if (in && chunk_end(a, pt, pty, tag, type)) {
      out[k++] = (seg){start, i - 1, pty};
      in = false;
    }
    if (chunk_begin(a, pt, pty, tag, type)) {
      start = i;
      in = true;
    }
  }
  if (in) out[k++] = (seg){start, n - 1, type};
  return k;
}

static bool excluded(const chunk_attrs *a, int64_t type) {
  for (size_t j = 0; j < a->n_excluded; j++) {
    if (a->excluded[j] == type) return true;
  }
  return false;
}

static ic_status run(ic_kctx *c) {
  const chunk_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INFERENCE, 0), *l = ic_in(c, IN_LABEL, 0);
  const ic_tensor *len = ic_in(c, IN_SEQLEN, 0);
  const int64_t *xv = x->data, *lv = l->data, rows = ic_tensor_numel_(x);
  const int64_t top = a->types * a->ntag;
  for (int64_t i = 0; i < 2 * rows; i++) {
    const size_t s = i < rows ? IN_INFERENCE : IN_LABEL;
    const int64_t at = i < rows ? i : i - rows, v = (i < rows ? xv : lv)[at];
    if (v < 0 || v > top) {
      return ic_kfail_in(c, s, 0, "has %lld at position %lld, expected 0 to %lld (num_chunk_types %lld x %d tag types)",
                         (long long)v, (long long)at, (long long)top, (long long)a->types, a->ntag);
    }
  }
  size_t ns;
  const uint64_t *off = NULL;
  int64_t steps = 0;
  if (l->lod && l->lod->n_levels) {
    off = ic_kseq(c, IN_LABEL, 0, 0, &ns);
    if (!off) return c->err->code;
  } else {
    ns = (size_t)x->dims[0];
    steps = rows / (x->dims[0] ? x->dims[0] : 1);
    for (size_t q = 0; q < ns; q++) {
      const int64_t n = ((const int64_t *)len->data)[q];
      if (n < 0 || n > steps) {
        return ic_kfail_in(c, IN_SEQLEN, 0, "has %lld at index %zu, expected 0 to %lld", (long long)n, q, (long long)steps);
      }
    }
  }
  int64_t longest = 0;
  for (size_t q = 0; q < ns; q++) {
    const int64_t n = off ? (int64_t)(off[q + 1] - off[q]) : ((const int64_t *)len->data)[q];
    longest = n > longest ? n : longest;
  }
  ic_buffer *b = ic_kscratch(c, (size_t)(2 * longest + 2) * sizeof(seg));
  if (!b) return c->err->code;
  seg *so = b->data, *sl = so + longest + 1;
  int64_t n_inf = 0, n_lab = 0, n_cor = 0;
  for (size_t q = 0; q < ns; q++) {
    const int64_t first = off ? (int64_t)off[q] : (int64_t)q * steps;
    const int64_t n = off ? (int64_t)(off[q + 1] - off[q]) : ((const int64_t *)len->data)[q];
    const size_t no = segments(a, xv + first, n, so), nl = segments(a, lv + first, n, sl);
    for (size_t i = 0, j = 0; i < no && j < nl;) {
      if (so[i].begin == sl[j].begin && so[i].end == sl[j].end && so[i].type == sl[j].type &&
          !excluded(a, so[i].type)) {
        n_cor++;
      }
      if (so[i].end < sl[j].end) i++;
      else if (so[i].end > sl[j].end) j++;
      else i++, j++;
    }
    for (size_t j = 0; j < nl; j++) n_lab += !excluded(a, sl[j].type);
    for (size_t i = 0; i < no; i++) n_inf += !excluded(a, so[i].type);
  }
  ic_buffer_release(b);
  const float p = n_inf ? (float)n_cor / (float)n_inf : 0.0f;
  const float r = n_lab ? (float)n_cor / (float)n_lab : 0.0f;
  *(float *)ic_out(c, OUT_P, 0)->data = p;
  *(float *)ic_out(c, OUT_R, 0)->data = r;
  *(float *)ic_out(c, OUT_F1, 0)->data = n_cor ? 2 * p * r / (p + r) : 0.0f;
  *(int64_t *)ic_out(c, OUT_N_INFER, 0)->data = n_inf;
  *(int64_t *)ic_out(c, OUT_N_LABEL, 0)->data = n_lab;
  *(int64_t *)ic_out(c, OUT_N_CORRECT, 0)->data = n_cor;
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Inference", 0}, {"Label", 0}, {"SeqLength", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Precision", 0},      {"Recall", 0},
                                     {"F1-Score", 0},       {"NumInferChunks", 0},
                                     {"NumLabelChunks", 0}, {"NumCorrectChunks", 0}};

const ic_opdef ic_op_chunk_eval = {
    .name = "chunk_eval",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 6, .outputs = outputs,
    .attrs_size = sizeof(chunk_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
