/* array_to_lod_tensor: join the time-step array X back into one LoD tensor by RankTable
 * (fluid's DynamicRNN output; the inverse of lod_tensor_to_array): for every sequence of the
 * table in index order, its steps 0 .. length-1, step t being row (or sub-sequence) r of
 * element t where r is the sequence's rank. Out's LoD is the table's coarse LoD, a level of
 * the sequences' lengths, and the elements' own LoD levels appended below (Paddle's
 * array_to_lod_tensor_op.cc). The elements must agree in dtype and dims after the first, and
 * together hold exactly the rows joined. */
#include "kernels/cpu/rank_table.h"
#include "scope/scope.h"

typedef struct plan {
  ic_rank_table rt;
  size_t *order;   /* item positions by sequence index */
  int64_t rows;
  size_t sub;      /* LoD levels of the elements */
} plan;

static ic_status make_plan(ic_kctx *c, plan *p) {
  ic_status st = ic_rank_table_read(c, 1, &p->rt);
  if (st) return st;
  const ic_variable *v = c->in[0].vars[0];
  size_t n = v->kind == IC_VK_ARRAY ? v->n_list : 0;
  if (!n) return ic_kfail(c, IC_ERR_SHAPE, "array X '%s' has no element", ic_in_name(c, 0, 0));
  const ic_tensor *e0 = &v->list[0];
  int64_t all_rows = 0;
  for (size_t k = 0; k < n; k++) {
    const ic_tensor *e = &v->list[k];
    char d0[96], d1[96];
    if (!e->data) return ic_kfail(c, IC_ERR_NOT_FOUND, "element %zu of array X '%s' was never written", k, ic_in_name(c, 0, 0));
    bool ok = e->dtype == e0->dtype && e->ndim == e0->ndim && e->ndim >= 1;
    for (int j = 1; ok && j < e->ndim; j++) ok = e->dims[j] == e0->dims[j];
    size_t levels = e->lod ? e->lod->n_levels : 0;
    char why[160];
    if (!ok || (k && levels != (e0->lod ? e0->lod->n_levels : 0)) || levels > IC_RT_MAX_LEVELS ||
        (levels && !ic_lod_valid(e->lod, e->dims[0], why, sizeof why))) {
      return ic_kfail(c, IC_ERR_SHAPE, "element %zu of array X '%s' is %s, element 0 is %s: expected the same dtype, rank >= 1, dims after the first and LoD levels, and a valid LoD",
                      k, ic_in_name(c, 0, 0), ic_tensor_describe(e, d0, sizeof d0), ic_tensor_describe(e0, d1, sizeof d1));
    }
    all_rows += e->dims[0];
  }
  p->sub = e0->lod ? e0->lod->n_levels : 0;
  p->order = malloc((p->rt.n + 1) * sizeof *p->order);
  if (!p->order) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  /* positions sorted by sequence index (insertion: tables are small) */
  for (size_t k = 0; k < p->rt.n; k++) {
    size_t at = k;
    while (at > 0 && p->rt.items[2 * p->order[at - 1]] > p->rt.items[2 * k]) {
      p->order[at] = p->order[at - 1];
      at--;
    }
    p->order[at] = k;
  }
  p->rows = 0;
  for (size_t q = 0; q < p->rt.n; q++) {
    size_t pos = p->order[q];
    size_t len = (size_t)p->rt.items[2 * pos + 1];
    if (len > n) {
      return ic_kfail(c, IC_ERR_SHAPE, "RankTable '%s' has a sequence of length %zu, but array X '%s' has %zu elements",
                      ic_in_name(c, 1, 0), len, ic_in_name(c, 0, 0), n);
    }
    for (size_t t = 0; t < len; t++) {
      const ic_tensor *e = &v->list[t];
      size_t seqs = e->lod ? e->lod->lens[0] - 1 : (size_t)e->dims[0];
      if (pos >= seqs) {
        return ic_kfail(c, IC_ERR_SHAPE, "element %zu of array X '%s' has %zu sequences, but RankTable '%s' needs the one at rank %zu",
                        t, ic_in_name(c, 0, 0), seqs, ic_in_name(c, 1, 0), pos);
      }
      uint64_t r0, r1;
      ic_sub_lod(e->lod, pos, pos + 1, 0, NULL, &r0, &r1);
      p->rows += (int64_t)(r1 - r0);
    }
  }
  if (p->rows != all_rows) {
    return ic_kfail(c, IC_ERR_SHAPE, "the elements of array X '%s' hold %lld rows, but RankTable '%s' joins %lld of them",
                    ic_in_name(c, 0, 0), (long long)all_rows, ic_in_name(c, 1, 0), (long long)p->rows);
  }
  return IC_OK;
}

/* Out's LoD: coarse levels, the sequence level, then the elements' levels. */
static ic_status build_lod(ic_kctx *c, const plan *p, ic_lod **out) {
  const ic_variable *v = c->in[0].vars[0];
  size_t nc = p->rt.n_coarse;
  if (nc + 1 + p->sub > IC_RT_MAX_LEVELS) return ic_kfail(c, IC_ERR_SHAPE, "too many LoD levels");
  ic_lod_builder b;
  ic_lodb_init(&b, 1 + p->sub);
  uint64_t *lens[IC_RT_MAX_LEVELS] = {0};
  uint64_t one[IC_RT_MAX_LEVELS];
  for (size_t l = 0; l < p->sub; l++) lens[l] = &one[l];
  for (size_t q = 0; q < p->rt.n; q++) {
    size_t pos = p->order[q];
    size_t len = (size_t)p->rt.items[2 * pos + 1];
    ic_lodb_push(&b, 0, len);
    for (size_t t = 0; t < len; t++) {
      uint64_t r0, r1;
      ic_sub_lod(v->list[t].lod, pos, pos + 1, 0, lens, &r0, &r1);
      for (size_t l = 0; l < p->sub; l++) ic_lodb_push(&b, 1 + l, one[l]);
    }
  }
  bool oom;
  ic_lod *tail = ic_lodb_finish(&b, &oom);
  if (oom) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
  size_t lv[IC_RT_MAX_LEVELS];
  for (size_t l = 0; l < nc; l++) lv[l] = p->rt.coarse_len[l];
  for (size_t l = 0; l <= p->sub; l++) lv[nc + l] = tail->lens[l];
  ic_lod *lod = ic_lod_new(nc + 1 + p->sub, lv);
  if (lod) {
    for (size_t l = 0; l < nc; l++) {
      for (size_t k = 0; k < lv[l]; k++) lod->offsets[l][k] = (uint64_t)p->rt.coarse[l][k];
    }
    for (size_t l = 0; l <= p->sub; l++) memcpy(lod->offsets[nc + l], tail->offsets[l], lv[nc + l] * sizeof(uint64_t));
  }
  ic_lod_free(tail);
  if (!lod) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
  *out = lod;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  plan p = {0};
  ic_status st = make_plan(c, &p);
  ic_lod *lod = NULL;
  if (!st) st = build_lod(c, &p, &lod);
  if (!st) {
    const ic_tensor *e0 = &c->in[0].vars[0]->list[0];
    int64_t dims[IC_MAX_RANK];
    memcpy(dims, e0->dims, (size_t)e0->ndim * sizeof *dims);
    dims[0] = p.rows;
    ic_tensor *o = ic_out(c, 0, 0);
    ic_tensor_set_meta(o, e0->dtype, e0->ndim, dims);
    st = ic_kset_lod(c, o, lod, true);
  }
  free(p.order);
  return st;
}

static ic_status run(ic_kctx *c) {
  plan p = {0};
  ic_status st = make_plan(c, &p);
  if (st) {
    free(p.order);
    return st;
  }
  const ic_variable *v = c->in[0].vars[0];
  size_t row = ic_row_bytes(&v->list[0]);
  char *dst = ic_out(c, 0, 0)->data;
  for (size_t q = 0; q < p.rt.n; q++) {
    size_t pos = p.order[q];
    size_t len = (size_t)p.rt.items[2 * pos + 1];
    for (size_t t = 0; t < len; t++) {
      const ic_tensor *e = &v->list[t];
      uint64_t r0, r1;
      ic_sub_lod(e->lod, pos, pos + 1, 0, NULL, &r0, &r1);
      if (r1 > r0) memcpy(dst, (const char *)e->data + r0 * row, (r1 - r0) * row);
      dst += (r1 - r0) * row;
    }
  }
  free(p.order);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_ARRAY}, {"RankTable", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_array_to_lod_tensor = {
    .name = "array_to_lod_tensor",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
