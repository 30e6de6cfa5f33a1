/* edit_distance: the Levenshtein distance (insertions, deletions and substitutions cost 1)
 * between each hypothesis and its reference (paddle/phi/kernels/cpu/edit_distance_kernel.cc,
 * EditDistanceInferMeta). Token ids are int64 (int32 accepted too).
 *   - LoD mode: Hyps and Refs [N, 1] split into the same number of strings by their first
 *     LoD level.
 *   - Padded mode (HypsLength and RefsLength, int64 [B] or [B, 1], both given): Hyps [B, Th]
 *     and Refs [B, Tr], string b being the first HypsLength[b] / RefsLength[b] tokens of row b.
 * Out float32 [strings, 1] the distances, divided (in float32) by the reference's length
 * with `normalized` (default false; a reference must not be empty then); SequenceNum int64
 * [1] the number of strings. */
#include "kernels/kernel.h"

typedef struct ed_attrs {
  bool normalized;
} ed_attrs;

enum { IN_HYPS, IN_REFS, IN_HLEN, IN_RLEN };
enum { OUT_NUM, OUT_OUT };
static const ic_slotdef k_inputs[4] = {{"Hyps", 0},
                                       {"Refs", 0},
                                       {"HypsLength", IC_SLOT_OPTIONAL},
                                       {"RefsLength", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[2] = {{"SequenceNum", IC_SLOT_OPTIONAL}, {"Out", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((ed_attrs *)attrs)->normalized = ic_ar_bool(r, "normalized", false);
  return r->st;
}

/* The strings: *n of them, string k spanning [hb[k], hb[k] + hl[k]) of Hyps' elements (and
 * likewise for Refs), in scratch the caller releases. */
typedef struct ed_spans {
  int64_t n;
  ic_buffer *buf;
  int64_t *hb, *hl, *rb, *rl;
} ed_spans;

static ic_status spans(ic_kctx *c, ed_spans *s) {
  const ic_tensor *h = ic_in(c, IN_HYPS, 0), *r = ic_in(c, IN_REFS, 0),
                  *hl = ic_in(c, IN_HLEN, 0), *rl = ic_in(c, IN_RLEN, 0);
  const bool padded = hl || rl;
  const uint64_t *ho = NULL, *ro = NULL;
  if (padded) {
    if (!hl || !rl) {
      return ic_kfail(c, IC_ERR_SHAPE, "edit_distance needs both HypsLength and RefsLength, "
                                       "or neither (LoD mode)");
    }
    if (h->ndim != 2 || r->ndim != 2 || h->dims[0] != r->dims[0]) {
      return ic_kfail_in(c, IN_REFS, 0, "expected [B, T] like Hyps '%s' with the same B "
                         "(padded mode)", ic_in_name(c, IN_HYPS, 0));
    }
    s->n = h->dims[0];
    for (size_t k = IN_HLEN; k <= IN_RLEN; k++) {
      const ic_tensor *t = ic_in(c, k, 0);
      if (ic_kcheck_dtype(c, k, 0, IC_DT_INT)) return c->err->code;
      if (ic_tensor_numel_(t) != s->n || t->ndim < 1 || t->dims[0] != s->n) {
        return ic_kfail_in(c, k, 0, "expected %lld lengths (Hyps' rows)", (long long)s->n);
      }
    }
  } else {
    for (size_t k = IN_HYPS; k <= IN_REFS; k++) {
      const ic_tensor *t = ic_in(c, k, 0);
      if (t->ndim != 2 || t->dims[1] != 1) {
        return ic_kfail_in(c, k, 0, "expected [N, 1] tokens with LoD (no lengths given)");
      }
      if (!t->lod || !t->lod->n_levels) return ic_kfail_in(c, k, 0, "expected a LoD");
      const uint64_t *o = t->lod->offsets[0];
      const size_t len = t->lod->lens[0];
      if (o[len - 1] > (uint64_t)t->dims[0]) {
        return ic_kfail_in(c, k, 0, "has a LoD of %llu rows", (unsigned long long)o[len - 1]);
      }
      if (k == IN_HYPS) ho = o;
      else ro = o;
    }
    s->n = (int64_t)h->lod->lens[0] - 1;
    if ((int64_t)r->lod->lens[0] - 1 != s->n) {
      return ic_kfail_in(c, IN_REFS, 0, "has %lld strings, expected %lld (as Hyps '%s')",
                         (long long)r->lod->lens[0] - 1, (long long)s->n,
                         ic_in_name(c, IN_HYPS, 0));
    }
  }
  s->buf = ic_kscratch(c, (size_t)(s->n ? s->n : 1) * 4 * sizeof(int64_t));
  if (!s->buf) return c->err->code;
  s->hb = s->buf->data;
  s->hl = s->hb + s->n;
  s->rb = s->hl + s->n;
  s->rl = s->rb + s->n;
  for (int64_t k = 0; k < s->n; k++) {
    if (padded) {
      s->hb[k] = k * h->dims[1];
      s->rb[k] = k * r->dims[1];
      s->hl[k] = ic_read_i64(hl, k);
      s->rl[k] = ic_read_i64(rl, k);
      const int64_t lh = s->hl[k], lr = s->rl[k];
      if (lh < 0 || lh > h->dims[1] || lr < 0 || lr > r->dims[1]) {
        ic_buffer_release(s->buf);
        return ic_kfail(c, IC_ERR_SHAPE, "edit_distance: string %lld has lengths %lld / %lld, "
                        "expected in [0, %lld] / [0, %lld]", (long long)k, (long long)lh,
                        (long long)lr, (long long)h->dims[1], (long long)r->dims[1]);
      }
    } else {
      s->hb[k] = (int64_t)ho[k];
      s->hl[k] = (int64_t)(ho[k + 1] - ho[k]);
      s->rb[k] = (int64_t)ro[k];
      s->rl[k] = (int64_t)(ro[k + 1] - ro[k]);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_status st = ic_kcheck_dtype(c, IN_HYPS, 0, IC_DT_INT);
  if (st || (st = ic_kcheck_dtype(c, IN_REFS, 0, IC_DT_INT))) return st;
  ed_spans s;
  if ((st = spans(c, &s))) return st;
  ic_buffer_release(s.buf);
  if (ic_out(c, OUT_NUM, 0)) ic_tensor_set_meta(ic_out(c, OUT_NUM, 0), IC_INT64, 1, (int64_t[]){1});
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), IC_FP32, 2, (int64_t[]){s.n, 1});
  if (ic_out(c, OUT_NUM, 0) && (st = ic_kset_lod(c, ic_out(c, OUT_NUM, 0), NULL, false))) return st;
  return ic_kset_lod(c, ic_out(c, OUT_OUT, 0), NULL, false);
}

static ic_status run(ic_kctx *c) {
  const bool norm = ((const ed_attrs *)c->attrs)->normalized;
  const ic_tensor *h = ic_in(c, IN_HYPS, 0), *r = ic_in(c, IN_REFS, 0);
  ed_spans s;
  ic_status st = spans(c, &s);
  if (st) return st;
  int64_t maxr = 0;
  for (int64_t k = 0; k < s.n; k++) maxr = s.rl[k] > maxr ? s.rl[k] : maxr;
  ic_buffer *rowb = ic_kscratch(c, (size_t)(maxr + 1) * 2 * sizeof(int64_t));
  if (!rowb) {
    ic_buffer_release(s.buf);
    return c->err->code;
  }
  int64_t *prev = rowb->data, *cur = prev + maxr + 1;
  float *out = ic_out(c, OUT_OUT, 0)->data;
  for (int64_t k = 0; k < s.n; k++) {
    const int64_t m = s.hl[k], n = s.rl[k];
    if (norm && n == 0) {
      st = ic_kfail_in(c, IN_REFS, 0, "has an empty reference (string %lld) with normalized",
                       (long long)k);
      break;
    }
    int64_t d;
    if (m == 0) {
      d = n;
    } else if (n == 0) {
      d = m;
    } else {
      for (int64_t j = 0; j <= n; j++) prev[j] = j;
      for (int64_t i = 1; i <= m; i++) {
        const int64_t hi = ic_read_i64(h, s.hb[k] + i - 1);
        cur[0] = i;
        for (int64_t j = 1; j <= n; j++) {
          const int64_t cost = hi == ic_read_i64(r, s.rb[k] + j - 1) ? 0 : 1;
          int64_t v = prev[j] + 1;
          if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
          if (prev[j - 1] + cost < v) v = prev[j - 1] + cost;
          cur[j] = v;
        }
        int64_t *t = prev;
        prev = cur;
        cur = t;
      }
      d = prev[n];
    }
    out[k] = norm ? (float)d / (float)n : (float)d;
  }
  if (!st && ic_out(c, OUT_NUM, 0)) ((int64_t *)ic_out(c, OUT_NUM, 0)->data)[0] = s.n;
  ic_buffer_release(rowb);
  ic_buffer_release(s.buf);
  return st;
}

const ic_opdef ic_op_edit_distance = {
    .name = "edit_distance", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(ed_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD, /* Out has no LoD */
};
