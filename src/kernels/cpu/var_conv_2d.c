/* var_conv_2d (old NLP text matching: a convolution over variable-size 2-D samples): X
 * float32 with a LoD of B samples, sample b starting at element X.lod[0][b] and holding
 * InputChannel x H x W values, H from ROW's first LoD level and W from COLUMN's (their data is
 * unread); W float32 [OutputChannel, InputChannel * KernelH * KernelW]. Each sample gives
 * ceil(H / StrideH) x ceil(W / StrideW) outputs (0 when H or W is 0), the kernel window
 * centred (offsets -KernelH/2 .. , zeros outside). Col is the im2col matrix of each sample,
 * [InputChannel * KernelH * KernelW, outputs] one after another ([total, 1], LoD of the
 * samples' offsets); Out = W . Col per sample, [OutputChannel, outputs] one after another
 * ([total, 1], LoD of the samples' offsets) (paddle/fluid/operators/var_conv_2d_op.cc). Sums
 * in double, rounded once. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_X, IN_ROW, IN_COL, IN_W };

typedef struct vc_attrs {
  int64_t ic, oc, sh, sw, kh, kw;
} vc_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  vc_attrs *a = attrs;
  a->ic = ic_ar_int(r, "InputChannel", 1);
  a->oc = ic_ar_int(r, "OutputChannel", 1);
  a->sh = ic_ar_int(r, "StrideH", 1);
  a->sw = ic_ar_int(r, "StrideW", 1);
  a->kh = ic_ar_int(r, "KernelH", 1);
  a->kw = ic_ar_int(r, "KernelW", 1);
  if (r->st) return r->st;
  const char *names[] = {"InputChannel", "OutputChannel", "StrideH", "StrideW", "KernelH",
                         "KernelW"};
  const int64_t v[] = {a->ic, a->oc, a->sh, a->sw, a->kh, a->kw};
  for (int i = 0; i < 6; i++) {
    if (v[i] < 1 || v[i] > 65536) {
      return ic_ar_fail(r, names[i], "is %lld, expected 1 to 65536", (long long)v[i]);
    }
  }
  return IC_OK;
}

static int64_t out_len(int64_t n, int64_t s) { return n == 0 ? 0 : (n - 1) / s + 1; }

static ic_status infer(ic_kctx *c) {
  const vc_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0);
  ic_status st = ic_kcheck_dtype(c, IN_X, 0, IC_DT(IC_FP32));
  if (!st) st = ic_kcheck_dtype(c, IN_W, 0, IC_DT(IC_FP32));
  if (st) return st;
  if (x->ndim != 2) return ic_kfail_in(c, IN_X, 0, "expected rank 2");
  const int64_t K = a->ic * a->kh * a->kw;
  if (w->ndim != 2 || w->dims[0] != a->oc || w->dims[1] != K) {
    return ic_kfail_in(c, IN_W, 0, "expected [%lld, %lld] ([OutputChannel, InputChannel * "
                       "KernelH * KernelW])", (long long)a->oc, (long long)K);
  }
  if (!x->lod || x->lod->n_levels == 0) return ic_kfail_in(c, IN_X, 0, "expected a LoD");
  const size_t n = x->lod->lens[0];
  const uint64_t *ox = x->lod->offsets[0];
  if (ox[n - 1] != (uint64_t)x->dims[0]) {
    return ic_kfail_in(c, IN_X, 0, "has a first LoD level ending at %llu, expected %lld (its "
                       "rows)", (unsigned long long)ox[n - 1], (long long)x->dims[0]);
  }
  for (size_t s = IN_ROW; s <= IN_COL; s++) {
    const ic_tensor *t = ic_in(c, s, 0);
    if (!t->lod || t->lod->n_levels == 0 || t->lod->lens[0] < n) {
      return ic_kfail_in(c, s, 0, "expected a LoD of at least %zu sequences (those of X '%s')",
                         n - 1, ic_in_name(c, IN_X, 0));
    }
  }
  const uint64_t *oh = ic_in(c, IN_ROW, 0)->lod->offsets[0];
  const uint64_t *ow = ic_in(c, IN_COL, 0)->lod->offsets[0];
  const int64_t numel = ic_tensor_numel_(x);
  ic_lod *lc = ic_lod_new(1, &n), *lo = ic_lod_new(1, &n);
  if (!lc || !lo) {
    ic_lod_free(lc);
    ic_lod_free(lo);
    return ic_kset_lod(c, ic_out(c, 0, 0), NULL, true);
  }
  lc->offsets[0][0] = lo->offsets[0][0] = 0;
  for (size_t b = 0; b + 1 < n; b++) {
    const int64_t H = (int64_t)(oh[b + 1] - oh[b]), W = (int64_t)(ow[b + 1] - ow[b]);
    if (H > 0 && W > 0 && (int64_t)ox[b] + a->ic * H * W > numel) {
      ic_lod_free(lc);
      ic_lod_free(lo);
      return ic_kfail_in(c, IN_X, 0, "has %lld elements, but sample %zu (from element %llu) "
                         "needs %lld x %lld x %lld", (long long)numel, b,
                         (unsigned long long)ox[b], (long long)a->ic, (long long)H,
                         (long long)W);
    }
    const uint64_t m = (uint64_t)(out_len(H, a->sh) * out_len(W, a->sw));
    lc->offsets[0][b + 1] = lc->offsets[0][b] + (uint64_t)K * m;
    lo->offsets[0][b + 1] = lo->offsets[0][b] + (uint64_t)a->oc * m;
  }
  ic_tensor *out = ic_out(c, 0, 0), *col = ic_out(c, 1, 0);
  ic_tensor_set_meta(out, IC_FP32, 2, (int64_t[]){(int64_t)lo->offsets[0][n - 1], 1});
  ic_tensor_set_meta(col, IC_FP32, 2, (int64_t[]){(int64_t)lc->offsets[0][n - 1], 1});
  st = ic_kset_lod(c, out, lo, true);
  if (st) {
    ic_lod_free(lc);
    return st;
  }
  return ic_kset_lod(c, col, lc, true);
}

static ic_status run(ic_kctx *c) {
  const vc_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_X, 0), *w = ic_in(c, IN_W, 0);
  ic_tensor *out = ic_out(c, 0, 0), *col = ic_out(c, 1, 0);
  const uint64_t *ox = x->lod->offsets[0];
  const uint64_t *oh = ic_in(c, IN_ROW, 0)->lod->offsets[0];
  const uint64_t *ow = ic_in(c, IN_COL, 0)->lod->offsets[0];
  const size_t ns = x->lod->lens[0] - 1;
  uint64_t tc = 0, to = 0; /* where sample b's Col and Out blocks start */
  const int64_t K = a->ic * a->kh * a->kw, hkh = a->kh / 2, hkw = a->kw / 2;
  const float *xs = x->data, *ws = w->data;
  float *cs = col->data, *os = out->data;
  for (size_t b = 0; b < ns; b++) {
    const int64_t H = (int64_t)(oh[b + 1] - oh[b]), W = (int64_t)(ow[b + 1] - ow[b]);
    if (H == 0 || W == 0) continue;
    const int64_t ow_n = out_len(W, a->sw), oh_n = out_len(H, a->sh), M = ow_n * oh_n;
    float *cb = cs + tc;
    float *ob = os + to;
    tc += (uint64_t)(K * M);
    to += (uint64_t)(a->oc * M);
    const float *xb = xs + ox[b];
    for (int64_t z = 0; z < a->ic; z++) {
      for (int64_t y = 0; y < H; y += a->sh) {
        for (int64_t xx = 0; xx < W; xx += a->sw) {
          const int64_t m = xx / a->sw + y / a->sh * ow_n;
          for (int64_t ky = 0; ky < a->kh; ky++) {
            for (int64_t kx = 0; kx < a->kw; kx++) {
              const int64_t iy = y + ky - hkh, ix = xx + kx - hkw;
              const int64_t row = z * a->kh * a->kw + ky * a->kw + kx;
              cb[row * M + m] = iy >= 0 && iy < H && ix >= 0 && ix < W
                                    ? xb[z * H * W + iy * W + ix]
                                    : 0.0f;
            }
          }
        }
      }
    }
    for (int64_t o = 0; o < a->oc; o++) {
      for (int64_t m = 0; m < M; m++) {
        double acc = 0.0;
        for (int64_t k = 0; k < K; k++) acc += (double)ws[o * K + k] * cb[k * M + m];
        ob[o * M + m] = (float)acc;
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"ROW", 0}, {"COLUMN", 0}, {"W", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}, {"Col", 0}};

const ic_opdef ic_op_var_conv_2d = {
    .name = "var_conv_2d", .n_inputs = 4, .inputs = inputs, .n_outputs = 2, .outputs = outputs,
    .attrs_size = sizeof(vc_attrs), .parse = parse, .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
