/* pyramid_hash (old NLP search models: hashed n-gram embeddings): X int32 [T, 1] ids with a
 * LoD of sequences; W float32 or int8 [space_len + rand_len, 1]. For each sequence of w >= 2
 * ids, every n-gram of 2 .. min(pyramid_layer, w) ids (by length, then position) that is
 * kept gives one Out row of num_emb values: the n-gram's ids as float32 bytes are hashed with
 * XXH32, and slice j (rand_len values, j = 0, rand_len, ..) of the row is W's rand_len
 * consecutive values from the hash with seed j modulo space_len. A sequence that keeps no
 * n-gram gives one zero row. At inference (is_training 0) float32 rows are then multiplied by
 * drop_out_percent (Paddle's scaling); int8 W is copied as is. Out has the LoD of the rows per
 * sequence; DropPos int32 [T * pyramid_layer, 1] holds a flag per n-gram, 1 when kept (LoD:
 * the kept n-grams per sequence; rows past them 0); X_Temp_Out float32 is X as floats.
 * With use_filter, a nonzero white_list_len / black_list_len makes WhiteList / BlackList
 * ([len, 1] float32 tensors holding Paddle's bloom filter: magic 17070416, m, k, count as
 * uint64, then m bits, the first bit the top one of its byte) keep only the n-grams the
 * white filter holds and the black one does not (k MurmurHash3 x64-128 hashes of the
 * n-gram's bytes, seeds 0 .. k - 1, both halves modulo m). With is_training nonzero, each
 * n-gram the filters keep is dropped too when rand_r(&s) / RAND_MAX (in float) falls below
 * drop_out_percent, s starting at `seed` on every run (glibc's rand_r, reproduced here, so
 * the drops are Paddle's), and Out is not scaled
 * (paddle/fluid/operators/pyramid_hash_op.cc, math/bloomfilter.cc). */
#include <string.h>
#include <xxhash.h>

#include "kernels/kernel.h"

enum { IN_X, IN_W, IN_WHITE, IN_BLACK };
enum { OUT_OUT, OUT_DROP, OUT_XTEMP };

typedef struct ph_attrs {
  int64_t num_emb, space_len, layers, rand_len, white_len, black_len;
  float drop;
  bool training;
  uint32_t seed;
} ph_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ph_attrs *a = attrs;
  a->num_emb = ic_ar_int(r, "num_emb", 0);
  a->space_len = ic_ar_int(r, "space_len", 0);
  a->layers = ic_ar_int(r, "pyramid_layer", 2);
  a->rand_len = ic_ar_int(r, "rand_len", 0);
  a->drop = (float)ic_ar_float(r, "drop_out_percent", 0.0);
  a->training = ic_ar_int(r, "is_training", 0) != 0;
  a->seed = (uint32_t)ic_ar_int(r, "seed", 0);
  const bool use_filter = ic_ar_bool(r, "use_filter", true);
  const int64_t wl = ic_ar_int(r, "white_list_len", 0), bl = ic_ar_int(r, "black_list_len", 0);
  if (r->st) return r->st;
  a->white_len = use_filter ? wl : 0;
  a->black_len = use_filter ? bl : 0;
  if (wl < 0 || bl < 0) {
    return ic_ar_fail(r, wl < 0 ? "white_list_len" : "black_list_len", "is negative");
  }
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

/* glibc's rand_r: three steps of its LCG, 11 + 10 + 10 bits. */
static int32_t glibc_rand_r(uint32_t *seed) {
  uint32_t next = *seed;
  next = next * 1103515245u + 12345u;
  uint32_t result = (next / 65536u) % 2048u;
  next = next * 1103515245u + 12345u;
  result = (result << 10) ^ ((next / 65536u) % 1024u);
  next = next * 1103515245u + 12345u;
  result = (result << 10) ^ ((next / 65536u) % 1024u);
  *seed = next;
  return (int32_t)result;
}

/* ---- Paddle's bloom filter (math/bloomfilter.cc) ---- */

#define PH_BLOOM_MAGIC 17070416u

static uint64_t ld64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

/* MurmurHash3 x64-128 of len bytes with seed: out[0], out[1]. */
static void murmur3_128(const unsigned char *data, size_t len, uint32_t seed, uint64_t out[2]) {
  const size_t nblocks = len / 16;
  uint64_t h1 = seed, h2 = seed;
  const uint64_t c1 = 0x87c37b91114253d5ull, c2 = 0x4cf5ad432745937full;
  for (size_t i = 0; i < nblocks; i++) {
    uint64_t k1 = ld64(data + i * 16), k2 = ld64(data + i * 16 + 8);
    k1 *= c1;
    k1 = rotl64(k1, 31);
    k1 *= c2;
    h1 ^= k1;
    h1 = rotl64(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;
    k2 *= c2;
    k2 = rotl64(k2, 33);
    k2 *= c1;
    h2 ^= k2;
    h2 = rotl64(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  const unsigned char *tail = data + nblocks * 16;
  const size_t rest = len & 15;
  uint64_t k1 = 0, k2 = 0;
  for (size_t i = rest; i > 8; i--) k2 ^= (uint64_t)tail[i - 1] << (8 * (i - 9));
  if (rest > 8) {
    k2 *= c2;
    k2 = rotl64(k2, 33);
    k2 *= c1;
    h2 ^= k2;
  }
  for (size_t i = rest < 8 ? rest : 8; i > 0; i--) k1 ^= (uint64_t)tail[i - 1] << (8 * (i - 1));
  if (rest > 0) {
    k1 *= c1;
    k1 = rotl64(k1, 31);
    k1 *= c2;
    h1 ^= k1;
  }
  h1 ^= (uint64_t)len;
  h2 ^= (uint64_t)len;
  h1 += h2;
  h2 += h1;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 += h2;
  h2 += h1;
  out[0] = h1;
  out[1] = h2;
}

/* Whether the filter (its tensor's bytes, checked by check_bloom) holds the key. */
static bool bloom_get(const unsigned char *f, const void *key, size_t len) {
  const uint64_t m = ld64(f + 8), k = ld64(f + 16);
  const unsigned char *bits = f + 32;
  for (uint64_t i = 0; i < k; i++) {
    uint64_t h[2];
    murmur3_128(key, len, (uint32_t)i, h);
    for (int j = 0; j < 2; j++) {
      const uint64_t n = h[j] % m;
      if (!(bits[n >> 3] & (0x80u >> (n & 7)))) return false;
    }
  }
  return true;
}

static ic_status check_bloom(ic_kctx *c, size_t s, int64_t want_len) {
  const ic_tensor *t = ic_in(c, s, 0);
  if (!t) {
    return ic_kfail(c, IC_ERR_SHAPE, "input %s is absent, but use_filter and its length %lld "
                    "need it", s == IN_WHITE ? "WhiteList" : "BlackList", (long long)want_len);
  }
  ic_status st = ic_kcheck_dtype(c, s, 0, IC_DT(IC_FP32));
  if (st) return st;
  if (t->ndim != 2 || t->dims[0] != want_len || t->dims[1] != 1) {
    return ic_kfail_in(c, s, 0, "expected [%lld, 1] (its list length attribute)",
                       (long long)want_len);
  }
  return IC_OK;
}

/* At run time: the filter's header fits its tensor. */
static ic_status check_bloom_data(ic_kctx *c, size_t s) {
  const ic_tensor *t = ic_in(c, s, 0);
  const uint64_t bytes = (uint64_t)ic_tensor_numel_(t) * 4;
  const unsigned char *f = t->data;
  if (bytes < 32 || ld64(f) != PH_BLOOM_MAGIC) {
    return ic_kfail_in(c, s, 0, "does not hold a bloom filter (magic %u)", PH_BLOOM_MAGIC);
  }
  const uint64_t m = ld64(f + 8);
  if (m == 0 || m / 8 > bytes - 32) {
    return ic_kfail_in(c, s, 0, "holds a bloom filter of %llu bits, more than its %llu bytes",
                       (unsigned long long)m, (unsigned long long)bytes);
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
  if (a->white_len > 0 && (st = check_bloom(c, IN_WHITE, a->white_len))) return st;
  if (a->black_len > 0 && (st = check_bloom(c, IN_BLACK, a->black_len))) return st;
  const size_t n = x->lod->lens[0];
  const uint64_t *off = x->lod->offsets[0];
  if (off[n - 1] > (uint64_t)x->dims[0]) {
    return ic_kfail_in(c, IN_X, 0, "has a LoD ending at %llu, past its rows",
                       (unsigned long long)off[n - 1]);
  }
  /* Out's rows and both LoDs depend on the filters: set in run */
  ic_tensor_set_meta(ic_out(c, OUT_OUT, 0), w->dtype, 2, (int64_t[]){0, a->num_emb});
  ic_tensor_set_meta(ic_out(c, OUT_DROP, 0), IC_INT32, 2, (int64_t[]){0, 1});
  if (ic_out(c, OUT_XTEMP, 0)) ic_tensor_set_meta(ic_out(c, OUT_XTEMP, 0), IC_FP32, 2, x->dims);
  return IC_OK;
}

static ic_lod *lod_of(size_t n) {
  ic_lod *l = ic_lod_new(1, &n);
  if (l) l->offsets[0][0] = 0;
  return l;
}

static ic_status run(ic_kctx *c) {
  const ph_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0);
  const int64_t T = x->dims[0], E = a->num_emb, R = a->rand_len;
  const uint32_t S = (uint32_t)a->space_len;
  const size_t es = ic_dtype_size(w->dtype);
  ic_status st = IC_OK;
  if (a->white_len > 0 && (st = check_bloom_data(c, IN_WHITE))) return st;
  if (a->black_len > 0 && (st = check_bloom_data(c, IN_BLACK))) return st;
  const unsigned char *wf = a->white_len > 0 ? ic_in(c, IN_WHITE, 0)->data : NULL;
  const unsigned char *bf = a->black_len > 0 ? ic_in(c, IN_BLACK, 0)->data : NULL;
  ic_buffer *buf = ic_kscratch(c, (size_t)(T + 1) * sizeof(float));
  if (!buf) return c->err->code;
  float *xf = ic_out(c, OUT_XTEMP, 0) ? ic_out(c, OUT_XTEMP, 0)->data : buf->data;
  const int32_t *xi = x->data;
  for (int64_t i = 0; i < T; i++) xf[i] = (float)xi[i];
  const uint64_t *off = x->lod->offsets[0];
  const size_t n = x->lod->lens[0] - 1;
  /* DropPos: a flag per n-gram (kept by the filters), rows past them 0 */
  st = ic_kalloc_out(c, OUT_DROP, 0, IC_INT32, 2, (int64_t[]){T * a->layers, 1});
  ic_lod *ld = st ? NULL : lod_of(n + 1), *lt = st ? NULL : lod_of(n + 1);
  if (!st && (!ld || !lt)) st = ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
  if (st) {
    ic_lod_free(ld);
    ic_lod_free(lt);
    ic_buffer_release(buf);
    return st;
  }
  int32_t *drop = ic_out(c, OUT_DROP, 0)->data;
  memset(drop, 0, (size_t)(T * a->layers) * sizeof(int32_t));
  uint32_t seed = a->seed; /* Paddle restarts rand_r from the attribute on every run */
  int64_t d = 0;
  for (size_t i = 0; i < n; i++) {
    const int64_t len = (int64_t)(off[i + 1] - off[i]);
    int64_t kept = 0;
    for (int64_t il = 1; len >= 2 && il < a->layers && il < len; il++) {
      for (int64_t l = 0; l < len - il; l++) {
        const float *ids = xf + off[i] + l;
        const size_t nb = (size_t)(il + 1) * sizeof(float);
        bool keep = (!wf || bloom_get(wf, ids, nb)) && (!bf || !bloom_get(bf, ids, nb));
        if (keep && a->training) {
          const float rate = (float)glibc_rand_r(&seed) / (float)2147483647;
          keep = !(rate < a->drop);
        }
        drop[d++] = keep;
        kept += keep;
      }
    }
    ld->offsets[0][i + 1] = ld->offsets[0][i] + (uint64_t)kept;
    lt->offsets[0][i + 1] = lt->offsets[0][i] + (uint64_t)(kept ? kept : 1);
  }
  st = ic_kalloc_out(c, OUT_OUT, 0, w->dtype, 2, (int64_t[]){(int64_t)lt->offsets[0][n], E});
  if (st) {
    ic_lod_free(ld);
    ic_lod_free(lt);
    ic_buffer_release(buf);
    return st;
  }
  ic_tensor *out = ic_out(c, OUT_OUT, 0);
  const char *ws = w->data;
  char *os = out->data;
  int64_t row = 0;
  d = 0;
  for (size_t i = 0; i < n; i++) {
    const int64_t len = (int64_t)(off[i + 1] - off[i]);
    if (ld->offsets[0][i + 1] == ld->offsets[0][i]) { /* nothing kept: one zero row */
      memset(os + (size_t)(row++ * E) * es, 0, (size_t)E * es);
      d += ngrams(a, len);
      continue;
    }
    for (int64_t il = 1; il < a->layers && il < len; il++) {
      for (int64_t l = 0; l < len - il; l++) {
        if (!drop[d++]) continue;
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
  if (!a->training && w->dtype == IC_FP32) {
    float *o = out->data;
    const int64_t total = ic_tensor_numel_(out);
    for (int64_t k = 0; k < total; k++) o[k] = a->drop * o[k];
  }
  ic_buffer_release(buf);
  st = ic_kset_lod(c, out, lt, true);
  if (st) {
    ic_lod_free(ld);
    return st;
  }
  return ic_kset_lod(c, ic_out(c, OUT_DROP, 0), ld, true);
}

static const ic_slotdef inputs[] = {{"X", 0},
                                    {"W", 0},
                                    {"WhiteList", IC_SLOT_OPTIONAL},
                                    {"BlackList", IC_SLOT_OPTIONAL}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_DYNAMIC},
                                     {"DropPos", IC_SLOT_DYNAMIC},
                                     {"X_Temp_Out", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_pyramid_hash = {
    .name = "pyramid_hash", .n_inputs = 4, .inputs = inputs, .n_outputs = 3,
    .outputs = outputs, .attrs_size = sizeof(ph_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD,
};
