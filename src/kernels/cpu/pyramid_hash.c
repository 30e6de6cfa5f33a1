/* pyramid_hash (old NLP search models: hashed n-gram embeddings), inference without filter
 * lists: X int32 [T, 1] ids with a LoD of sequences; W float32 or int8 [space_len +
 * rand_len, 1]. For each sequence of w >= 2 ids, every n-gram of 2 .. min(pyramid_layer, w)
 * ids (by length, then position) gives one Out row of num_emb values: the n-gram's ids as
 * float32 bytes are hashed with XXH32 under seeds 0, rand_len, 2 rand_len, .., each hash
 * modulo space_len picking rand_len consecutive values of W for the next slice of the row
 * (slice j from the hash with seed j, j counted in rand_len steps). A sequence without
 * n-grams gives one zero row. With float32 W every value is then multiplied by
 * drop_out_percent (Paddle's inference scaling); int8 W is copied as is. Out has the LoD of
 * the rows per sequence; DropPos int32 [T * pyramid_layer, 1] holds a 1 per n-gram (LoD: the
 * n-grams per sequence; rows past them 0); X_Temp_Out float32 is X as floats.
 * Unsupported (IC_ERR_UNSUPPORTED): use_filter with white_list_len or black_list_len (the
 * lists are Paddle's bloom filter structures), and is_training (random drops with
 * rand_r) (paddle/fluid/operators/pyramid_hash_op.cc). */
#include <string.h>
#include <xxhash.h>

#include "kernels/kernel.h"

enum { IN_X, IN_W, IN_WHITE, IN_BLACK };
enum { OUT_OUT, OUT_DROP, OUT_XTEMP };

typedef struct ph_attrs {
  int64_t num_emb, space_len, layers, rand_len;
  float drop;
  bool training, filter;
} ph_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ph_attrs *a = attrs;
  a->num_emb = ic_ar_int(r, "num_emb", 0);
  a->space_len = ic_ar_int(r, "space_len", 0);
  a->layers = ic_ar_int(r, "pyramid_layer", 2);
  a->rand_len = ic_ar_int(r, "rand_len", 0);
  a->drop = (float)ic_ar_float(r, "drop_out_percent", 0.0);
  a->training = ic_ar_int(r, "is_training", 0) != 0;
  const bool use_filter = ic_ar_bool(r, "use_filter", true);
  const int64_t wl = ic_ar_int(r, "white_list_len", 0), bl = ic_ar_int(r, "black_list_len", 0);
  if (r->st) return r->st;
  a->filter = use_filter && (wl != 0 || bl != 0);
  if (a->rand_len < 1 || a->rand_len > INT32_MAX) {
    return ic_ar_fail(r, "rand_len", "is %lld, expected a positive int", (long long)a->rand_len);
  }
  if (a->space_len < 1 || a->space_len > INT32_MAX) {
    return ic_ar_fail(r, "space_len", "is %lld, expected a positive int",
                      (long long)a->space_len);
  }
  if (a->num_emb < 0 || a->num_emb > INT32_MAX || a->num_emb % a->rand_len != 0) {
    return ic_ar_fail(r, "num_emb", "is %lld, expected a multiple of rand_len (%lld)",
                      (long long)a->num_emb, (long long)a->rand_len);
  }
  if (a->layers < 2 || a->layers > INT32_MAX) {
    return ic_ar_fail(r, "pyramid_layer", "is %lld, expected >= 2", (long long)a->layers);
  }
  return IC_OK;
}

static ic_status supports(const ic_op *op, const void *attrs, ic_err *err) {
  const ph_attrs *a = attrs;
  char where[160];
  if (a->filter) {
    return ic_err_set(err, IC_ERR_UNSUPPORTED, "%s: use_filter with a white or black list "
                      "(Paddle's bloom filter structures) is not implemented in icore",
                      ic_op_where(op, where, sizeof where));
  }
  if (a->training) {
    return ic_err_set(err, IC_ERR_UNSUPPORTED, "%s: is_training (random drops with rand_r) is "
                      "not implemented in icore", ic_op_where(op, where, sizeof where));
  }
  return IC_OK;
}

/* n-grams of sequence length w */
static int64_t ngrams(const ph_attrs *a, int64_t w) {
  int64_t n = 0;
  for (int64_t il = 1; il < a->layers && il < w; il++) n += w - il;
  return w < 2 ? 0 : n;
}

static ic_status infer(ic_kctx *c) {
  const ph_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT(IC_INT32));
  if (!st) st = ic_kcheck_dtype(c, IN_W, 0, IC_DT(IC_FP32) | IC_DT(IC_INT8));
  if (st) return st;
  if (x->ndim != 2 || x->dims[1] != 1) return ic_kfail_in(c, IN_X, 0, "expected [T, 1]");
  if (w->ndim != 2 || w->dims[0] != a->space_len + a->rand_len || w->dims[1] != 1) {
    return ic_kfail_in(c, IN_W, 0, "expected [%lld, 1] (space_len + rand_len)",
                       (long long)(a->space_len + a->rand_len));
  }
  if (!x->lod || x->lod->n_levels == 0) return ic_kfail_in(c, IN_X, 0, "expected a LoD");
  const size_t n = x->lod->lens[0];
  const uint64_t *off = x->lod->offsets[0];
  if (off[n - 1] > (uint64_t)x->dims[0]) {
    return ic_kfail_in(c, IN_X, 0, "has a LoD ending at %llu, past its rows",
                       (unsigned long long)off[n - 1]);
  }
  ic_lod *lt = ic_lod_new(1, &n), *ld = ic_lod_new(1, &n);
  if (!lt || !ld) {
    ic_lod_free(lt);
    ic_lod_free(ld);
    return ic_kset_lod(c, ic_out(c, OUT_OUT, 0), NULL, true);
  }
  lt->offsets[0][0] = ld->offsets[0][0] = 0;
  for (size_t i = 0; i + 1 < n; i++) {
    const int64_t g = ngrams(a, (int64_t)(off[i + 1] - off[i]));
    ld->offsets[0][i + 1] = ld->offsets[0][i] + (uint64_t)g;
    lt->offsets[0][i + 1] = lt->offsets[0][i] + (uint64_t)(g ? g : 1);
  }
  ic_tensor *out = ic_out(c, OUT_OUT, 0), *dp = ic_out(c, OUT_DROP, 0);
  ic_tensor_set_meta(out, w->dtype, 2, (int64_t[]){(int64_t)lt->offsets[0][n - 1], a->num_emb});
  ic_tensor_set_meta(dp, IC_INT32, 2, (int64_t[]){x->dims[0] * a->layers, 1});
  if (ic_out(c, OUT_XTEMP, 0)) ic_tensor_set_meta(ic_out(c, OUT_XTEMP, 0), IC_FP32, 2, x->dims);
  st = ic_kset_lod(c, out, lt, true);
  if (st) {
    ic_lod_free(ld);
    return st;
  }
  return ic_kset_lod(c, dp, ld, true);
}

static ic_status run(ic_kctx *c) {
  const ph_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0);
  ic_tensor *out = ic_out(c, OUT_OUT, 0), *dp = ic_out(c, OUT_DROP, 0);
  const int64_t T = x->dims[0], E = a->num_emb, R = a->rand_len;
  const uint32_t S = (uint32_t)a->space_len;
  const size_t es = ic_dtype_size(w->dtype);
  ic_buffer *buf = NULL;
  float *xf;
  if (ic_out(c, OUT_XTEMP, 0)) {
    xf = ic_out(c, OUT_XTEMP, 0)->data;
  } else {
    buf = ic_kscratch(c, (size_t)(T + 1) * sizeof(float));
    if (!buf) return c->err->code;
    xf = buf->data;
  }
  const int32_t *xi = x->data;
  for (int64_t i = 0; i < T; i++) xf[i] = (float)xi[i];
  int32_t *drop = dp->data;
  memset(drop, 0, (size_t)(T * a->layers) * sizeof(int32_t));
  const uint64_t *off = x->lod->offsets[0];
  const size_t n = x->lod->lens[0] - 1;
  const char *ws = w->data;
  char *os = out->data;
  int64_t row = 0, d = 0;
  for (size_t i = 0; i < n; i++) {
    const int64_t len = (int64_t)(off[i + 1] - off[i]);
    const int64_t g = ngrams(a, len);
    if (g == 0) {
      memset(os + (size_t)(row++ * E) * es, 0, (size_t)E * es);
      continue;
    }
    for (int64_t il = 1; il < a->layers && il < len; il++) {
      for (int64_t l = 0; l < len - il; l++) {
        drop[d++] = 1;
        const float *ids = xf + off[i] + l;
        const size_t nb = (size_t)(il + 1) * sizeof(float);
        uint32_t p1 = XXH32(ids, nb, 0) % S, p2 = XXH32(ids, nb, (uint32_t)R) % S;
        char *top = os + (size_t)(row++ * E) * es;
        for (int64_t j = 0; j < E; j += R) {
          const uint32_t p3 = XXH32(ids, nb, (uint32_t)(j + 2 * R)) % S;
          memcpy(top + (size_t)j * es, ws + (size_t)p1 * es, (size_t)R * es);
          p1 = p2;
          p2 = p3;
        }
      }
    }
  }
  if (w->dtype == IC_FP32) {
    float *o = out->data;
    const int64_t total = ic_tensor_numel_(out);
    for (int64_t k = 0; k < total; k++) o[k] = a->drop * o[k];
  }
  if (buf) ic_buffer_release(buf);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0},
                                    {"W", 0},
                                    {"WhiteList", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED},
                                    {"BlackList", IC_SLOT_OPTIONAL | IC_SLOT_IGNORED}};
static const ic_slotdef outputs[] = {{"Out", 0},
                                     {"DropPos", 0},
                                     {"X_Temp_Out", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_pyramid_hash = {
    .name = "pyramid_hash", .n_inputs = 4, .inputs = inputs, .n_outputs = 3,
    .outputs = outputs, .attrs_size = sizeof(ph_attrs), .parse = parse, .infer = infer,
    .cpu = run, .supports = supports, .flags = IC_OP_LOD,
};
