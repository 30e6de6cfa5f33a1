/* crf_decoding: Viterbi decoding of a linear-chain CRF (paddle/fluid/operators/
 * crf_decoding_op.h). Emission holds each position's tag scores, either [T, tags] with one
 * LoD level splitting it into sequences, or padded [B, S, tags] with Length [B] (int64)
 * giving each sequence's valid prefix. Transition [tags + 2, tags]: row 0 the start scores,
 * row 1 the end scores, row 2 + i the score of tag i followed by tag j (column j). For a
 * sequence x_0 .. x_{n-1}:
 *   alpha_0[i] = start[i] + x_0[i];
 *   alpha_k[i] = max_j (alpha_{k-1}[j] + trans[j][i]) + x_k[i]   (first j on ties);
 *   the last tag is argmax_i alpha_{n-1}[i] + end[i], earlier ones follow the argmaxes back.
 * ViterbiPath (int64) is [T, 1] with Emission's LoD, or [B, S] with 0 past each length. With
 * Label (int64, ViterbiPath's element count) it is 1 where the path equals the label, else 0
 * (padding positions included, as in Paddle). */
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

enum { IN_EMISSION, IN_TRANSITION, IN_LABEL, IN_LENGTH };

static ic_status infer(ic_kctx *c) {
  const ic_tensor *e = ic_in(c, IN_EMISSION, 0), *tr = ic_in(c, IN_TRANSITION, 0);
  const ic_tensor *lab = ic_in(c, IN_LABEL, 0), *len = ic_in(c, IN_LENGTH, 0);
  if (ic_kcheck_dtype(c, IN_EMISSION, 0, IC_DT_FLOAT)) return c->err->code;
  ic_tensor *out = ic_out(c, 0, 0);
  int64_t tags;
  if (len) {
    if (e->ndim != 3) return ic_kfail_in(c, IN_EMISSION, 0, "expected [batch, steps, tags] with Length");
    if (ic_kcheck_dtype(c, IN_LENGTH, 0, IC_DT(IC_INT64))) return c->err->code;
    if (ic_tensor_numel_(len) != e->dims[0]) {
      return ic_kfail_in(c, IN_LENGTH, 0, "expected %lld lengths (Emission's batch)",
                         (long long)e->dims[0]);
    }
    tags = e->dims[2];
    ic_tensor_set_meta(out, IC_INT64, 2, (int64_t[]){e->dims[0], e->dims[1]});
    ic_tensor_take_lod(out, NULL);
  } else {
    if (e->ndim != 2) return ic_kfail_in(c, IN_EMISSION, 0, "expected [rows, tags] (LoD) or [batch, steps, tags] with Length");
    size_t ns;
    if (!ic_kseq(c, IN_EMISSION, 0, 0, &ns)) return c->err->code;
    tags = e->dims[1];
    ic_tensor_set_meta(out, IC_INT64, 2, (int64_t[]){e->dims[0], 1});
    if (ic_kset_lod(c, out, ic_lod_clone(e->lod), true)) return c->err->code;
  }
  char want[96];
  if (tr->dtype != e->dtype || !ic_dims_equal(tr->ndim, tr->dims, 2, (int64_t[]){tags + 2, tags})) {
    return ic_kfail_in(c, IN_TRANSITION, 0, "expected %s%s (tags + 2, tags)",
                       ic_dtype_name(e->dtype), ic_dims_str(2, (int64_t[]){tags + 2, tags}, want, sizeof want));
  }
  if (lab) {
    if (ic_kcheck_dtype(c, IN_LABEL, 0, IC_DT(IC_INT64))) return c->err->code;
    if (ic_tensor_numel_(lab) != ic_tensor_numel_(out) || lab->dims[0] != out->dims[0]) {
      return ic_kfail_in(c, IN_LABEL, 0, "expected one label per position (%lld)",
                         (long long)ic_tensor_numel_(out));
    }
  }
  return IC_OK;
}

#define DEFINE_DECODE(T, SUF)                                                                  \
  static void decode_##SUF(const T *x, const T *w, int64_t n, int64_t tags, T *alpha,          \
                           int64_t *track, int64_t *path) {                                    \
    for (int64_t i = 0; i < tags; i++) alpha[i] = w[i] + x[i];                                 \
    for (int64_t k = 1; k < n; k++) {                                                          \
      for (int64_t i = 0; i < tags; i++) {                                                     \
        T best = -INFINITY;                                                                    \
        int64_t at = 0;                                                                        \
        for (int64_t j = 0; j < tags; j++) {                                                   \
          T s = alpha[(k - 1) * tags + j] + w[(j + 2) * tags + i];                             \
          if (s > best) best = s, at = j;                                                      \
        }                                                                                      \
        alpha[k * tags + i] = best + x[k * tags + i];                                          \
        track[k * tags + i] = at;                                                              \
      }                                                                                        \
    }                                                                                          \
    T best = -INFINITY;                                                                        \
    int64_t at = 0;                                                                            \
    for (int64_t i = 0; i < tags; i++) {                                                       \
      T s = alpha[(n - 1) * tags + i] + w[tags + i];                                           \
      if (s > best) best = s, at = i;                                                          \
    }                                                                                          \
    path[n - 1] = at;                                                                          \
    for (int64_t k = n - 1; k >= 1; k--) path[k - 1] = at = track[k * tags + at];              \
  }

DEFINE_DECODE(float, f32)
DEFINE_DECODE(double, f64)

static ic_status run(ic_kctx *c) {
  const ic_tensor *e = ic_in(c, IN_EMISSION, 0), *tr = ic_in(c, IN_TRANSITION, 0);
  const ic_tensor *lab = ic_in(c, IN_LABEL, 0), *len = ic_in(c, IN_LENGTH, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  int64_t *path = out->data;
  const int64_t total = ic_tensor_numel_(out);
  memset(path, 0, (size_t)total * sizeof *path);
  const int64_t tags = e->dims[e->ndim - 1];
  const size_t es = ic_dtype_size(e->dtype);
  size_t ns;
  int64_t steps = 0;
  const uint64_t *off = NULL;
  if (len) {
    ns = (size_t)e->dims[0];
    steps = e->dims[1];
  } else {
    off = e->lod->offsets[e->lod->n_levels - 1];
    ns = e->lod->lens[e->lod->n_levels - 1] - 1;
  }
  int64_t longest = 0;
  for (size_t q = 0; q < ns; q++) {
    int64_t n = len ? ((const int64_t *)len->data)[q] : (int64_t)(off[q + 1] - off[q]);
    if (len && (n < 0 || n > steps)) {
      return ic_kfail_in(c, IN_LENGTH, 0, "has %lld at index %zu, expected 0 to %lld",
                         (long long)n, q, (long long)steps);
    }
    longest = n > longest ? n : longest;
  }
  if (longest && tags) {
    ic_buffer *s = ic_kscratch(c, (size_t)(longest * tags) * (es + sizeof(int64_t)));
    if (!s) return c->err->code;
    int64_t *track = s->data;
    void *alpha = track + longest * tags;
    for (size_t q = 0; q < ns; q++) {
      int64_t n = len ? ((const int64_t *)len->data)[q] : (int64_t)(off[q + 1] - off[q]);
      int64_t first = len ? (int64_t)q * steps : (int64_t)off[q];
      if (n <= 0) continue;
      const char *x = (const char *)e->data + (size_t)(first * tags) * es;
      if (e->dtype == IC_FP64) decode_f64((const double *)x, tr->data, n, tags, alpha, track, path + first);
      else decode_f32((const float *)x, tr->data, n, tags, alpha, track, path + first);
    }
    ic_buffer_release(s);
  }
  if (lab) {
    const int64_t *l = lab->data;
    for (int64_t k = 0; k < total; k++) path[k] = l[k] == path[k] ? 1 : 0;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"Emission", 0}, {"Transition", 0}, {"Label", IC_SLOT_OPTIONAL}, {"Length", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"ViterbiPath", 0}};

const ic_opdef ic_op_crf_decoding = {
    .name = "crf_decoding",
    .n_inputs = 4, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
