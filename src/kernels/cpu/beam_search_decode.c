/* beam_search_decode: the hypotheses of fluid's LoD beam search, walked back from the last
 * step through the arrays Ids (int64) and Scores (float or double) that beam_search's steps
 * filled (Paddle's BeamSearchDecoder::Backtrace). Every element has the two-level LoD beam_search
 * gives (sources -> prefixes, prefixes -> candidates). Each source starts with beam_size
 * hypotheses; a source gets its hypotheses from the candidates of the last step it has any
 * in, and each hypothesis then follows its candidate's prefix back one step at a time,
 * skipping a repeated end_id. Per source the hypotheses are ordered by their last score,
 * best first (ties keep their order), and written first word first: SentenceIds (int64 [n])
 * and SentenceScores ([n]), both with LoD [hypotheses per source, words per hypothesis]. */
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"
#include "scope/scope.h"

typedef struct attrs {
  int64_t beam_size, end_id;
} attrs;

static ic_status parse(ic_attr_reader *r, void *p) {
  attrs *a = p;
  a->beam_size = ic_ar_int(r, "beam_size", 1);
  a->end_id = ic_ar_int(r, "end_id", 0);
  return r->st;
}

typedef struct hyp {
  size_t n, cap;
  int64_t *ids;   /* last step first */
  double *sc;
} hyp;

typedef struct decoded {
  size_t n_src, beam;
  hyp *h;            /* n_src * beam */
  size_t words;
  ic_dtype dtype;
} decoded;

static void decoded_free(decoded *d) {
  for (size_t k = 0; d->h && k < d->n_src * d->beam; k++) {
    free(d->h[k].ids);
    free(d->h[k].sc);
  }
  free(d->h);
}

static bool push(hyp *h, int64_t id, double sc) {
  if (h->n == h->cap) {
    size_t cap = h->cap ? 2 * h->cap : 8;
    int64_t *i = realloc(h->ids, cap * sizeof *i);
    if (!i) return false;
    h->ids = i;
    double *s = realloc(h->sc, cap * sizeof *s);
    if (!s) return false;
    h->sc = s;
    h->cap = cap;
  }
  h->ids[h->n] = id;
  h->sc[h->n++] = sc;
  return true;
}

static double score_at(const ic_tensor *t, size_t k) {
  return t->dtype == IC_FP64 ? ((const double *)t->data)[k] : ((const float *)t->data)[k];
}

static ic_status decode(ic_kctx *c, decoded *d) {
  const attrs *a = c->attrs;
  const ic_variable *vi = c->in[0].vars[0], *vs = c->in[1].vars[0];
  size_t steps = vi->kind == IC_VK_ARRAY ? vi->n_list : 0;
  size_t nsc = vs->kind == IC_VK_ARRAY ? vs->n_list : 0;
  memset(d, 0, sizeof *d);
  if (!steps || steps != nsc) {
    return ic_kfail(c, IC_ERR_SHAPE, "arrays Ids '%s' and Scores '%s' have %zu and %zu elements, expected the same number, at least 1",
                    ic_in_name(c, 0, 0), ic_in_name(c, 1, 0), steps, nsc);
  }
  if (a->beam_size < 1) return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute beam_size is %lld, expected >= 1", (long long)a->beam_size);
  d->dtype = vs->list[0].dtype;
  if (d->dtype != IC_FP32 && d->dtype != IC_FP64) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "array Scores '%s' holds %s, expected float32 or float64", ic_in_name(c, 1, 0), ic_dtype_name(d->dtype));
  }
  for (size_t s = 0; s < steps; s++) {
    const ic_tensor *ti = &vi->list[s], *ts = &vs->list[s];
    char why[160];
    bool ok = ti->data && ts->data && ti->dtype == IC_INT64 && ts->dtype == d->dtype && ti->lod &&
              ti->lod->n_levels == 2 && ti->ndim >= 1 && ic_tensor_numel_(ts) >= ic_tensor_numel_(ti) &&
              ic_lod_valid(ti->lod, ti->dims[0], why, sizeof why) &&
              ti->lod->lens[1] - 1 == ti->lod->offsets[0][ti->lod->lens[0] - 1];
    if (!ok) {
      char d0[96], d1[96], l0[160];
      return ic_kfail(c, IC_ERR_SHAPE, "step %zu: Ids element is %s with LoD %s, Scores element %s: expected int64 ids with a valid 2-level LoD and as many %s scores",
                      s, ic_tensor_describe(ti, d0, sizeof d0), ic_lod_str(ti->lod, l0, sizeof l0),
                      ic_tensor_describe(ts, d1, sizeof d1), ic_dtype_name(d->dtype));
    }
  }
  d->n_src = vi->list[0].lod->lens[0] - 1;
  if (!d->n_src) return ic_kfail(c, IC_ERR_SHAPE, "element 0 of Ids '%s' has no source", ic_in_name(c, 0, 0));
  d->beam = (size_t)a->beam_size;
  d->h = calloc(d->n_src * d->beam, sizeof *d->h);
  size_t **prefix = calloc(d->n_src, sizeof *prefix);
  size_t *n_prefix = calloc(d->n_src, sizeof *n_prefix);
  ic_status st = d->h && prefix && n_prefix ? IC_OK : ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t s = steps; s-- > 0 && !st;) {
    const ic_tensor *ti = &vi->list[s], *ts = &vs->list[s];
    const uint64_t *src_off = ti->lod->offsets[0], *cand_off = ti->lod->offsets[1];
    const int64_t *ids = ti->data;
    if (ti->lod->lens[0] - 1 < d->n_src) {
      st = ic_kfail(c, IC_ERR_SHAPE, "step %zu: Ids element has %zu sources, step 0 %zu", s, ti->lod->lens[0] - 1, d->n_src);
      break;
    }
    for (size_t src = 0; src < d->n_src && !st; src++) {
      hyp *hs = &d->h[src * d->beam];
      size_t p0 = src_off[src], p1 = src_off[src + 1];
      if (!n_prefix[src]) {
        /* the last step with candidates for this source: one hypothesis per candidate */
        for (size_t p = p0; p < p1 && !st; p++) {
          for (size_t k = cand_off[p]; k < cand_off[p + 1] && !st; k++) {
            if (n_prefix[src] == d->beam) {
              st = ic_kfail(c, IC_ERR_SHAPE, "step %zu: source %zu has more than beam_size %zu candidates", s, src, d->beam);
              break;
            }
            if (!prefix[src] && !(prefix[src] = malloc(d->beam * sizeof **prefix))) {
              st = ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
              break;
            }
            prefix[src][n_prefix[src]] = p;
            if (!push(&hs[n_prefix[src]], ids[k], score_at(ts, k))) st = ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
            n_prefix[src]++;
          }
        }
        continue;
      }
      /* follow each hypothesis to its candidate at this step, then to that one's prefix */
      size_t cand0 = cand_off[p0], p = p0;
      size_t seen = cand_off[p + 1] - cand_off[p];
      for (size_t h = 0; h < n_prefix[src] && !st; h++) {
        size_t k = prefix[src][h];
        if (k >= (size_t)ti->dims[0]) {
          st = ic_kfail(c, IC_ERR_SHAPE, "step %zu: source %zu follows candidate %zu, but the step has %lld", s, src, k, (long long)ti->dims[0]);
          break;
        }
        if ((ids[k] != a->end_id || !hs[h].n) && !push(&hs[h], ids[k], score_at(ts, k))) {
          st = ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
        }
        while (cand0 + seen <= k && p + 1 < ti->lod->lens[1] - 1) {
          p++;
          seen += cand_off[p + 1] - cand_off[p];
        }
        prefix[src][h] = p;
      }
    }
  }
  for (size_t src = 0; prefix && src < d->n_src; src++) free(prefix[src]);
  free(prefix);
  free(n_prefix);
  if (st) return st;
  /* per source: by the last step's score, best first, ties in order (insertion sort, as
   * Paddle's std::sort over at most 16 hypotheses); hypotheses without words last */
  for (size_t src = 0; src < d->n_src; src++) {
    hyp *hs = &d->h[src * d->beam];
    for (size_t k = 1; k < d->beam; k++) {
      hyp x = hs[k];
      size_t j = k;
      while (j > 0 && x.n && (!hs[j - 1].n || x.sc[0] > hs[j - 1].sc[0])) {
        hs[j] = hs[j - 1];
        j--;
      }
      hs[j] = x;
    }
    for (size_t k = 0; k < d->beam; k++) d->words += hs[k].n;
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  decoded d;
  ic_status st = decode(c, &d);
  if (!st) {
    size_t lens[2] = {d.n_src + 1, d.n_src * d.beam + 1};
    for (int o = 0; o < 2 && !st; o++) {
      ic_tensor *t = ic_out(c, o, 0);
      ic_tensor_set_meta(t, o ? d.dtype : IC_INT64, 1, (const int64_t[]){(int64_t)d.words});
      ic_lod *lod = ic_lod_new(2, lens);
      if (lod) {
        for (size_t s = 0; s <= d.n_src; s++) lod->offsets[0][s] = s * d.beam;
        lod->offsets[1][0] = 0;
        for (size_t k = 0; k < d.n_src * d.beam; k++) lod->offsets[1][k + 1] = lod->offsets[1][k] + d.h[k].n;
      }
      st = ic_kset_lod(c, t, lod, true);
    }
  }
  decoded_free(&d);
  return st;
}

static ic_status run(ic_kctx *c) {
  decoded d;
  ic_status st = decode(c, &d);
  if (!st) {
    int64_t *ids = ic_out(c, 0, 0)->data;
    void *sc = ic_out(c, 1, 0)->data;
    size_t at = 0;
    for (size_t k = 0; k < d.n_src * d.beam; k++) {
      for (size_t w = d.h[k].n; w-- > 0; at++) {
        ids[at] = d.h[k].ids[w];
        if (d.dtype == IC_FP64) ((double *)sc)[at] = d.h[k].sc[w];
        else ((float *)sc)[at] = (float)d.h[k].sc[w];
      }
    }
  }
  decoded_free(&d);
  return st;
}

static const ic_slotdef inputs[] = {{"Ids", IC_SLOT_ARRAY}, {"Scores", IC_SLOT_ARRAY}};
static const ic_slotdef outputs[] = {{"SentenceIds", 0}, {"SentenceScores", 0}};

const ic_opdef ic_op_beam_search_decode = {
    .name = "beam_search_decode",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
