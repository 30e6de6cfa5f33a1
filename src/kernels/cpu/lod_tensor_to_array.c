/* lod_tensor_to_array: split LoD tensor X into time steps by RankTable (fluid's DynamicRNN
 * input): Out becomes an array of max-length elements, element t holding step t of every
 * sequence of the table's level still running at t, in rank order (longest first). A step
 * of a sequence is one entry of the level below the table's level, with all it spans: its
 * rows, and as the element's LoD the lengths of the levels under it (Paddle's
 * lod_tensor_to_array_op.cc with GetSubLoDAndAbsoluteOffset and AppendLoD). */
#include "kernels/cpu/rank_table.h"
#include "scope/scope.h"

static ic_status check(ic_kctx *c, ic_rank_table *rt) {
  ic_status st = ic_rank_table_read(c, 1, rt);
  if (!st) st = ic_check_lod_input(c, 0, 0, false);
  if (st) return st;
  const ic_lod *lod = ic_in(c, 0, 0)->lod;
  if ((size_t)rt->level >= lod->n_levels) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "RankTable '%s' ranks LoD level %lld, but input X '%s' has %zu level(s)",
                    ic_in_name(c, 1, 0), (long long)rt->level, ic_in_name(c, 0, 0), lod->n_levels);
  }
  size_t nseq = lod->lens[rt->level] - 1;
  for (size_t k = 0; k < rt->n; k++) {
    int64_t idx = rt->items[2 * k], len = rt->items[2 * k + 1];
    if ((size_t)idx >= nseq || lod->offsets[rt->level][idx] + (uint64_t)len > lod->offsets[rt->level][idx + 1]) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT,
                      "RankTable '%s' item %zu (sequence %lld of length %lld) does not fit LoD level %lld of input X '%s' (%zu sequences)",
                      ic_in_name(c, 1, 0), k, (long long)idx, (long long)len, (long long)rt->level, ic_in_name(c, 0, 0), nseq);
    }
  }
  if (c->out[0].vars[0]->kind == IC_VK_LIST) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "output Out '%s' is a feed/fetch list, expected a tensor array",
                    ic_out_name(c, 0, 0));
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  ic_rank_table rt;
  return check(c, &rt);
}

static ic_status run(ic_kctx *c) {
  ic_rank_table rt;
  ic_status st = check(c, &rt);
  if (st) return st;
  const ic_tensor *x = ic_in(c, 0, 0);
  const ic_lod *lod = x->lod;
  size_t sub = lod->n_levels - (size_t)rt.level - 1; /* LoD levels of each element */
  size_t max_len = rt.n ? (size_t)rt.items[1] : 0;
  size_t row = ic_row_bytes(x);
  ic_variable *v = c->out[0].vars[0];
  ic_variable_clear(v);
  if (max_len && !ic_variable_array_at(v, max_len - 1)) {
    return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory growing array '%s'", ic_out_name(c, 0, 0));
  }
  uint64_t *lens[IC_RT_MAX_LEVELS] = {0};
  uint64_t one[IC_RT_MAX_LEVELS];
  for (size_t l = 0; l < sub; l++) lens[l] = &one[l];
  for (size_t t = 0; t < max_len && !st; t++) {
    ic_tensor *e = &v->list[t];
    /* rows first: the element's height */
    int64_t height = 0;
    for (size_t k = 0; k < rt.n && (size_t)rt.items[2 * k + 1] > t; k++) {
      size_t start = lod->offsets[rt.level][rt.items[2 * k]] + t;
      uint64_t r0, r1;
      ic_sub_lod(lod, start, start + 1, (size_t)rt.level + 1, NULL, &r0, &r1);
      height += (int64_t)(r1 - r0);
    }
    int64_t dims[IC_MAX_RANK];
    memcpy(dims, x->dims, (size_t)x->ndim * sizeof *dims);
    dims[0] = height;
    ic_tensor_set_meta(e, x->dtype, x->ndim, dims);
    if ((st = ic_tensor_alloc(e, c->env->alloc, c->err))) break;
    ic_lod_builder b;
    ic_lodb_init(&b, sub);
    char *dst = e->data;
    for (size_t k = 0; k < rt.n && (size_t)rt.items[2 * k + 1] > t; k++) {
      size_t start = lod->offsets[rt.level][rt.items[2 * k]] + t;
      uint64_t r0, r1;
      ic_sub_lod(lod, start, start + 1, (size_t)rt.level + 1, lens, &r0, &r1);
      for (size_t l = 0; l < sub; l++) ic_lodb_push(&b, l, one[l]);
      if (r1 > r0) memcpy(dst, (const char *)x->data + r0 * row, (r1 - r0) * row);
      dst += (r1 - r0) * row;
    }
    bool oom;
    ic_lod *el = ic_lodb_finish(&b, &oom);
    if (oom) st = ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
    else ic_tensor_take_lod(e, el);
  }
  return st;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"RankTable", IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_ARRAY | IC_SLOT_NO_BUFFER}};

const ic_opdef ic_op_lod_tensor_to_array = {
    .name = "lod_tensor_to_array",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
