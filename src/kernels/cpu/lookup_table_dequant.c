/* lookup_table_dequant (the 8-bit quantized embedding of Paddle's inference models): W
 * float32 [rows, 2 + k], each row min, max, then k float words whose 4k bytes (in memory
 * order) are the row's uint8 codes; Ids int64 [..., 1]; Out float32 [..., 4k] with, for each
 * id, code * ((max - min) / 256) + min (float math in that order), or zeros where the id is
 * padding_idx (default -1: none). Out keeps Ids' LoD
 * (paddle/fluid/operators/lookup_table_dequant_op.{cc,h}). */
#include <string.h>

#include "kernels/kernel.h"

typedef struct ltd_attrs {
  int64_t padding_idx;
} ltd_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ltd_attrs *a = attrs;
  a->padding_idx = ic_ar_int(r, "padding_idx", -1);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *ids = ic_in(c, 0, 0), *w = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 1, 0, IC_DT(IC_FP32));
  if (!st) st = ic_kcheck_dtype(c, 0, 0, IC_DT(IC_INT64));
  if (st) return st;
  if (w->ndim != 2 || w->dims[1] < 2) {
    return ic_kfail_in(c, 1, 0, "expected rank 2 with at least 2 columns (min, max, codes)");
  }
  if (ids->ndim < 1 || ids->dims[ids->ndim - 1] != 1) {
    return ic_kfail_in(c, 0, 0, "expected a last dimension of 1");
  }
  int64_t dims[IC_MAX_RANK];
  for (int k = 0; k + 1 < ids->ndim; k++) dims[k] = ids->dims[k];
  dims[ids->ndim - 1] = (w->dims[1] - 2) * 4;
  ic_tensor *out = ic_out(c, 0, 0);
  ic_tensor_set_meta(out, IC_FP32, ids->ndim, dims);
  if (!ids->lod && !out->lod) return IC_OK;
  return ic_kset_lod(c, out, ids->lod ? ic_lod_clone(ids->lod) : NULL, !!ids->lod);
}

static ic_status run(ic_kctx *c) {
  const ltd_attrs *a = c->attrs;
  const ic_tensor *ids_t = ic_in(c, 0, 0), *w = ic_in(c, 1, 0);
  const int64_t rows = w->dims[0], q = w->dims[1], width = (q - 2) * 4;
  const int64_t *ids = ids_t->data;
  const int64_t n = ic_tensor_numel_(ids_t);
  const float *tab = w->data;
  float *o = ic_out(c, 0, 0)->data;
  for (int64_t i = 0; i < n; i++) {
    float *dst = o + i * width;
    if (a->padding_idx != -1 && ids[i] == a->padding_idx) {
      memset(dst, 0, (size_t)width * sizeof(float));
      continue;
    }
    if (ids[i] < 0 || ids[i] >= rows) {
      return ic_kfail_in(c, 0, 0, "has id %lld at index %lld, expected 0 to %lld (the rows of "
                         "W '%s')", (long long)ids[i], (long long)i, (long long)rows - 1,
                         ic_in_name(c, 1, 0));
    }
    const float *row = tab + ids[i] * q;
    const float mn = row[0], mx = row[1];
    const float scale = (mx - mn) / 256.0f;
    const unsigned char *codes = (const unsigned char *)(row + 2);
    for (int64_t k = 0; k < width; k++) dst[k] = scale * (float)codes[k] + mn;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Ids", 0}, {"W", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_lookup_table_dequant = {
    .name = "lookup_table_dequant", .n_inputs = 2, .inputs = inputs, .n_outputs = 1,
    .outputs = outputs, .attrs_size = sizeof(ltd_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD,
};
