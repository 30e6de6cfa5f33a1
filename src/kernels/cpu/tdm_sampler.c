/* tdm_sampler (PaddleRec TDM): X int32/int64 [N] or [N, 1] item ids; Travel [items, layers]
 * (each item's node on every layer, 0 = padding) and Layer (every layer's node ids, one
 * layer after another, layer l at [layer_offset_lod[l], layer_offset_lod[l + 1])), both
 * int32 or both int64. For each item and layer l: the positive node (when output_positive)
 * and neg_samples_num_list[l] distinct negatives drawn uniformly from the layer's positions,
 * skipping the positive node; a padded layer gives zeros with Mask 0. Out, Labels (1 for the
 * positive) and Mask are [N, sum(neg + output_positive)] in `dtype` (2 int32, 3 int64).
 *
 * The draws are Paddle's: each layer has its own std::mt19937_64 seeded with `seed` when the
 * op runs, mapped by libstdc++'s uniform_int_distribution<int>(0, nodes - 1) (mt64.h), taken
 * item by item. With seed 0 Paddle draws from its global generator, which icore does not
 * have: icore then seeds one generator, shared by the layers as Paddle's global one is, from
 * the executor's seed and the op's position (ic_philox_key): reproducible for icore, not
 * Paddle's draws. The attribute is layer_offset_lod in Paddle 2 programs and layer_offset in
 * Paddle 3 ones (paddle/phi/kernels/cpu/tdm_sampler_kernel.cc). */
#include "kernels/cpu/mt64.h"
#include "kernels/cpu/philox.h"
#include "kernels/kernel.h"

enum { IN_X, IN_TRAVEL, IN_LAYER };
enum { OUT_OUT, OUT_LABELS, OUT_MASK };

#define TDM_MAX_LAYERS 64

typedef struct tdms_attrs {
  bool positive;
  int n_layers;
  int64_t neg[TDM_MAX_LAYERS];
  int64_t offs[TDM_MAX_LAYERS + 1];
  int64_t seed;
  ic_dtype dtype;
  int64_t width; /* outputs per item */
} tdms_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  tdms_attrs *a = attrs;
  a->positive = ic_ar_bool(r, "output_positive", true);
  a->seed = ic_ar_int(r, "seed", 0);
  const int64_t dt = ic_ar_int(r, "dtype", 2);
  const int64_t *neg = NULL, *offs = NULL;
  size_t nn = 0, no = 0;
  ic_ar_ints(r, "neg_samples_num_list", false, &neg, &nn);
  const char *oname = ic_ar_has(r, "layer_offset_lod") ? "layer_offset_lod" : "layer_offset";
  ic_ar_ints(r, oname, false, &offs, &no);
  if (r->st) return r->st;
  if (dt != 2 && dt != 3) {
    return ic_ar_fail(r, "dtype", "is %lld, expected 2 (int32) or 3 (int64)", (long long)dt);
  }
  a->dtype = dt == 2 ? IC_INT32 : IC_INT64;
  if (nn == 0 || nn > TDM_MAX_LAYERS) {
    return ic_ar_fail(r, "neg_samples_num_list", "has %zu values, expected 1 to %d", nn,
                      TDM_MAX_LAYERS);
  }
  if (no != nn + 1) {
    return ic_ar_fail(r, oname, "has %zu values, expected %zu (one more than "
                      "neg_samples_num_list)", no, nn + 1);
  }
  a->n_layers = (int)nn;
  a->width = 0;
  for (size_t l = 0; l < nn; l++) {
    if (neg[l] < 0 || offs[l + 1] < offs[l] || offs[l] < 0) {
      return ic_ar_fail(r, neg[l] < 0 ? "neg_samples_num_list" : oname,
                        "is invalid at layer %zu (negative count %lld, offsets %lld .. %lld)", l,
                        (long long)neg[l], (long long)offs[l], (long long)offs[l + 1]);
    }
    if (neg[l] > offs[l + 1] - offs[l] - 1) {
      return ic_ar_fail(r, "neg_samples_num_list", "asks %lld negatives at layer %zu, expected "
                        "at most %lld (its nodes but the positive)", (long long)neg[l], l,
                        (long long)(offs[l + 1] - offs[l] - 1));
    }
    a->neg[l] = neg[l];
    a->offs[l] = offs[l];
    a->width += neg[l] + (a->positive ? 1 : 0);
  }
  a->offs[nn] = offs[nn];
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const tdms_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *tr = ic_in(c, IN_TRAVEL, 0);
  const ic_tensor *ly = ic_in(c, IN_LAYER, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT_INT);
  if (!st) st = ic_kcheck_dtype(c, IN_TRAVEL, 0, IC_DT_INT);
  if (!st) st = ic_kcheck_dtype(c, IN_LAYER, 0, IC_DT(tr->dtype));
  if (st) return st;
  if (x->ndim < 1 || ic_tensor_numel_(x) != x->dims[0]) {
    return ic_kfail_in(c, IN_X, 0, "expected [N] or [N, 1]");
  }
  if (tr->ndim != 2) return ic_kfail_in(c, IN_TRAVEL, 0, "expected rank 2 [items, layers]");
  if (tr->dims[1] < a->n_layers) {
    return ic_kfail_in(c, IN_TRAVEL, 0, "expected at least %d columns (the layers of "
                       "neg_samples_num_list)", a->n_layers);
  }
  if (ic_tensor_numel_(ly) < a->offs[a->n_layers]) {
    return ic_kfail_in(c, IN_LAYER, 0, "expected at least %lld node ids (the last layer "
                       "offset)", (long long)a->offs[a->n_layers]);
  }
  const int64_t d[2] = {x->dims[0], a->width};
  for (size_t k = 0; k < 3; k++) ic_tensor_set_meta(ic_out(c, k, 0), a->dtype, 2, d);
  return IC_OK;
}

static void put(ic_tensor *t, int64_t i, int64_t v) {
  if (t->dtype == IC_INT32) ((int32_t *)t->data)[i] = (int32_t)v;
  else ((int64_t *)t->data)[i] = v;
}

static ic_status run(ic_kctx *c) {
  const tdms_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *tr = ic_in(c, IN_TRAVEL, 0);
  const ic_tensor *ly = ic_in(c, IN_LAYER, 0);
  ic_tensor *out = ic_out(c, OUT_OUT, 0), *lab = ic_out(c, OUT_LABELS, 0);
  ic_tensor *mask = ic_out(c, OUT_MASK, 0);
  const int L = a->n_layers;
  const int64_t n = x->dims[0], items = tr->dims[0], tw = tr->dims[1];
  int64_t max_neg = 0;
  for (int l = 0; l < L; l++) max_neg = a->neg[l] > max_neg ? a->neg[l] : max_neg;
  /* Paddle's seed is an int read as an unsigned int */
  const uint64_t s32 = (uint32_t)a->seed;
  const int n_gen = s32 ? L : 1;
  ic_buffer *buf = ic_kscratch(c, (size_t)n_gen * sizeof(mt64) + (size_t)max_neg * 8 + 8);
  if (!buf) return c->err->code;
  mt64 *gens = buf->data;
  int64_t *chosen = (int64_t *)(gens + n_gen);
  if (s32) {
    for (int l = 0; l < L; l++) mt64_seed(&gens[l], s32);
  } else {
    mt64_seed(&gens[0], ic_philox_key(0, c->env ? c->env->seed : 0, c->op_key));
  }
  ic_status st = IC_OK;
  for (int64_t i = 0; i < n && !st; i++) {
    const int64_t id = ic_read_i64(x, i);
    if (id < 0 || id >= items) {
      st = ic_kfail_in(c, IN_X, 0, "holds %lld at index %lld, expected an item 0 to %lld (the "
                       "rows of Travel '%s')", (long long)id, (long long)i, (long long)items - 1,
                       ic_in_name(c, IN_TRAVEL, 0));
      break;
    }
    int64_t at = i * a->width;
    for (int l = 0; l < L && !st; l++) {
      const int64_t lo = a->offs[l], hi = a->offs[l + 1], k_neg = a->neg[l];
      const int64_t pos = ic_read_i64(tr, id * tw + l);
      if (pos == 0) { /* padding */
        for (int64_t k = 0; k < k_neg + (a->positive ? 1 : 0); k++, at++) {
          put(out, at, 0);
          put(lab, at, 0);
          put(mask, at, 0);
        }
        continue;
      }
      /* Paddle compares the node id with the layer's offsets */
      if (pos < lo || pos > hi) {
        st = ic_kfail_in(c, IN_TRAVEL, 0, "gives item %lld the node %lld at layer %d, expected "
                         "%lld to %lld (the layer's offsets, as Paddle checks)", (long long)id,
                         (long long)pos, l, (long long)lo, (long long)hi);
        break;
      }
      if (a->positive) {
        put(out, at, pos);
        put(lab, at, 1);
        put(mask, at, 1);
        at++;
      }
      int64_t others = 0;
      for (int64_t k = lo; k < hi; k++) others += ic_read_i64(ly, k) != pos;
      if (others < k_neg) {
        st = ic_kfail_in(c, IN_LAYER, 0, "has %lld nodes other than %lld at layer %d, fewer "
                         "than the %lld negatives asked", (long long)others, (long long)pos, l,
                         (long long)k_neg);
        break;
      }
      mt64 *g = &gens[s32 ? l : 0];
      for (int64_t k = 0; k < k_neg; k++, at++) {
        int64_t s;
        bool again;
        do {
          s = mt64_int(g, (uint64_t)(hi - lo - 1));
          again = ic_read_i64(ly, lo + s) == pos;
          for (int64_t q = 0; q < k && !again; q++) again = chosen[q] == s;
        } while (again);
        chosen[k] = s;
        const int64_t node = ic_read_i64(ly, lo + s);
        if (node > hi) {
          st = ic_kfail_in(c, IN_LAYER, 0, "holds the node %lld at layer %d, expected at most "
                           "%lld (the layer's end offset, as Paddle checks)", (long long)node, l,
                           (long long)hi);
          break;
        }
        put(out, at, node);
        put(lab, at, 0);
        put(mask, at, 1);
      }
    }
  }
  ic_buffer_release(buf);
  return st;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Travel", 0}, {"Layer", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"Labels", 0}, {"Mask", 0}};

const ic_opdef ic_op_tdm_sampler = {
    .name = "tdm_sampler", .n_inputs = 3, .inputs = inputs, .n_outputs = 3,
    .outputs = outputs, .attrs_size = sizeof(tdms_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_RANDOM,
};
