/* beam_search: one step of fluid's LoD beam search (Paddle's BeamSearchFunctor, CPU).
 *
 * scores (float [rows, K], two-level LoD: sources -> prefixes -> rows) holds K candidates per
 * prefix row, with their ids in `ids` (int64, same shape; absent: the column index). For each
 * sequence of LoD level `level` (a source sentence), the beam_size best (score, row) pairs
 * over its rows are kept, score descending, ties to the later row; a row whose pre_ids is
 * end_id (a finished branch) offers end_id alone with its pre_scores. Scores are taken as they
 * are (is_accumulated) or as pre_scores + log(score). Sources all of whose kept candidates are
 * end_id continuing an end_id are dropped (one step after they finish, so the end tokens are
 * written out once). Outputs, row by row in the candidates' prefix order: selected_ids
 * (int64 [n, 1]), selected_scores (float [n, 1]), both with LoD [sources in rows, candidates
 * per row], and parent_idx (int32 [n], each candidate's prefix row). */
#include <math.h>
#include <stdlib.h>

#include "kernels/kernel.h"

typedef struct attrs {
  int64_t level, beam_size, end_id;
  bool is_accumulated;
} attrs;

static ic_status parse(ic_attr_reader *r, void *p) {
  attrs *a = p;
  a->level = ic_ar_int(r, "level", 0);
  a->beam_size = ic_ar_int(r, "beam_size", 1);
  a->end_id = ic_ar_int(r, "end_id", 0);
  a->is_accumulated = ic_ar_bool(r, "is_accumulated", true);
  return r->st;
}

enum { IN_PRE_IDS, IN_PRE_SCORES, IN_IDS, IN_SCORES };
enum { OUT_IDS, OUT_SCORES, OUT_PARENT };

typedef struct item {
  size_t row;
  int64_t id;
  float score;
} item;

/* Paddle's Item::operator<: by score, then by row. */
static bool item_less(const item *a, const item *b) {
  return a->score < b->score || (a->score == b->score && a->row < b->row);
}

/* Insert into top (n kept, at most beam, best first) as Paddle's Insert does. */
static void insert(item *top, size_t *n, size_t beam, item it) {
  size_t m = *n;
  if (m < beam) {
    m = ++*n;
  } else if (item_less(&it, &top[beam - 1])) {
    return;
  }
  for (size_t k = m - 1; k-- > 0;) {
    if (item_less(&top[k], &it)) {
      top[k + 1] = top[k];
    } else {
      top[k + 1] = it;
      return;
    }
  }
  top[0] = it;
}

typedef struct result {
  size_t n_src;      /* sources */
  uint64_t *high;    /* n_src + 1 absolute row offsets */
  size_t rows;       /* prefix rows (high[n_src]) */
  size_t *count;     /* per row: selected candidates */
  item *sel;         /* selected, row by row */
  size_t n_sel;
} result;

static void result_free(result *r) {
  free(r->high);
  free(r->count);
  free(r->sel);
}

static ic_status oom(ic_kctx *c) { return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory"); }

static ic_status search(ic_kctx *c, result *r) {
  const attrs *a = c->attrs;
  const ic_tensor *pre_ids = ic_in(c, IN_PRE_IDS, 0), *pre_sc = ic_in(c, IN_PRE_SCORES, 0);
  const ic_tensor *ids = ic_in(c, IN_IDS, 0), *sc = ic_in(c, IN_SCORES, 0);
  memset(r, 0, sizeof *r);
  if (ic_kcheck_dtype(c, IN_PRE_IDS, 0, IC_DT(IC_INT64)) || ic_kcheck_dtype(c, IN_PRE_SCORES, 0, IC_DT(IC_FP32)) ||
      ic_kcheck_dtype(c, IN_SCORES, 0, IC_DT(IC_FP32)) || (ids && ic_kcheck_dtype(c, IN_IDS, 0, IC_DT(IC_INT64)))) {
    return c->err->code;
  }
  if (a->beam_size < 1) return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "attribute beam_size is %lld, expected >= 1", (long long)a->beam_size);
  const ic_lod *lod = sc->lod;
  char why[160], s[200];
  if (!lod || lod->n_levels < 2 || a->level < 0 || (size_t)a->level >= lod->n_levels ||
      sc->ndim < 1 || !ic_lod_valid(lod, sc->dims[0], why, sizeof why)) {
    return ic_kfail_in(c, IN_SCORES, 0, "with LoD %s, expected a valid LoD of 2 levels or more and attribute level %lld within it",
                       ic_lod_str(lod, s, sizeof s), (long long)a->level);
  }
  int64_t width = 1;
  for (int k = 1; k < sc->ndim; k++) width *= sc->dims[k];
  int64_t rows_in = sc->dims[0];
  if (ids && (ids->ndim != sc->ndim || ic_tensor_numel_(ids) != ic_tensor_numel_(sc))) {
    char d0[96], d1[96];
    return ic_kfail(c, IC_ERR_SHAPE, "input ids '%s' is %s, scores '%s' %s: expected the same shape",
                    ic_in_name(c, IN_IDS, 0), ic_tensor_describe(ids, d0, sizeof d0), ic_in_name(c, IN_SCORES, 0),
                    ic_tensor_describe(sc, d1, sizeof d1));
  }
  if (ic_tensor_numel_(pre_ids) < rows_in || ic_tensor_numel_(pre_sc) < rows_in) {
    return ic_kfail(c, IC_ERR_SHAPE, "pre_ids '%s' and pre_scores '%s' need one element per row of scores '%s' (%lld)",
                    ic_in_name(c, IN_PRE_IDS, 0), ic_in_name(c, IN_PRE_SCORES, 0), ic_in_name(c, IN_SCORES, 0), (long long)rows_in);
  }
  /* the chosen level in absolute rows (Paddle's ToAbsOffset) */
  size_t lvl = (size_t)a->level;
  r->n_src = lod->lens[lvl] - 1;
  r->high = malloc((r->n_src + 1) * sizeof *r->high);
  if (!r->high) return oom(c);
  for (size_t k = 0; k <= r->n_src; k++) {
    uint64_t v = lod->offsets[lvl][k];
    for (size_t l = lvl + 1; l < lod->n_levels; l++) v = lod->offsets[l][v];
    r->high[k] = v;
  }
  r->rows = r->high[r->n_src];
  size_t beam = (size_t)a->beam_size;
  r->count = calloc(r->rows + 1, sizeof *r->count);
  item *top = malloc(beam * sizeof *top);
  item *all = malloc((r->n_src * beam + 1) * sizeof *all);
  size_t n_all = 0;
  if (!r->count || !top || !all) {
    free(top);
    free(all);
    return oom(c);
  }
  const int64_t *pid = pre_ids->data, *idd = ids ? ids->data : NULL;
  const float *psc = pre_sc->data, *scd = sc->data;
  for (size_t src = 0; src < r->n_src; src++) {
    size_t n = 0;
    for (size_t row = r->high[src]; row < r->high[src + 1]; row++) {
      if (pid[row] == a->end_id) {
        insert(top, &n, beam, (item){row, a->end_id, psc[row]});
        continue;
      }
      for (int64_t d = 0; d < width; d++) {
        size_t k = row * (size_t)width + (size_t)d;
        float score = a->is_accumulated ? scd[k] : psc[row] + logf(scd[k]);
        insert(top, &n, beam, (item){row, idd ? idd[k] : d, score});
      }
    }
    /* a source whose every kept candidate is end_id after end_id has finished: dropped */
    bool finished = true;
    for (size_t k = 0; k < n && finished; k++) finished = top[k].id == a->end_id && pid[top[k].row] == a->end_id;
    for (size_t k = 0; !finished && k < n; k++) all[n_all++] = top[k];
  }
  free(top);
  /* row by row, in the order each source's candidates were ranked */
  for (size_t k = 0; k < n_all; k++) r->count[all[k].row]++;
  size_t *at = calloc(r->rows + 1, sizeof *at);
  r->sel = malloc((n_all + 1) * sizeof *r->sel);
  if (!at || !r->sel) {
    free(at);
    free(all);
    return oom(c);
  }
  for (size_t row = 0, off = 0; row < r->rows; row++) {
    at[row] = off;
    off += r->count[row];
  }
  for (size_t k = 0; k < n_all; k++) r->sel[at[all[k].row]++] = all[k];
  r->n_sel = n_all;
  free(at);
  free(all);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  result r;
  ic_status st = search(c, &r);
  if (st) {
    result_free(&r);
    return st;
  }
  int64_t n = (int64_t)r.n_sel;
  size_t lens[2] = {r.n_src + 1, r.rows + 1};
  for (int o = OUT_IDS; o <= OUT_SCORES && !st; o++) {
    ic_tensor *t = ic_out(c, o, 0);
    ic_tensor_set_meta(t, o == OUT_IDS ? IC_INT64 : IC_FP32, 2, (const int64_t[]){n, 1});
    ic_lod *lod = ic_lod_new(2, lens);
    if (lod) {
      memcpy(lod->offsets[0], r.high, lens[0] * sizeof(uint64_t));
      lod->offsets[1][0] = 0;
      for (size_t row = 0; row < r.rows; row++) lod->offsets[1][row + 1] = lod->offsets[1][row] + r.count[row];
    }
    st = ic_kset_lod(c, t, lod, true);
  }
  ic_tensor *p = ic_out(c, OUT_PARENT, 0);
  if (!st && p) {
    ic_tensor_set_meta(p, IC_INT32, 1, &n);
    st = ic_kset_lod(c, p, NULL, false);
  }
  result_free(&r);
  return st;
}

static ic_status run(ic_kctx *c) {
  result r;
  ic_status st = search(c, &r);
  if (!st) {
    int64_t *ids = ic_out(c, OUT_IDS, 0)->data;
    float *sc = ic_out(c, OUT_SCORES, 0)->data;
    ic_tensor *p = ic_out(c, OUT_PARENT, 0);
    int32_t *par = p ? p->data : NULL;
    for (size_t k = 0; k < r.n_sel; k++) {
      ids[k] = r.sel[k].id;
      sc[k] = r.sel[k].score;
      if (par) par[k] = (int32_t)r.sel[k].row;
    }
  }
  result_free(&r);
  return st;
}

static const ic_slotdef inputs[] = {{"pre_ids", 0}, {"pre_scores", 0}, {"ids", IC_SLOT_OPTIONAL}, {"scores", 0}};
static const ic_slotdef outputs[] = {{"selected_ids", 0}, {"selected_scores", 0}, {"parent_idx", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_beam_search = {
    .name = "beam_search",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 3, .outputs = outputs,
    .attrs_size = sizeof(attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
