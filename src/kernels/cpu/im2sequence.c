/* im2sequence: each image of X [N, C, H, W] becomes a sequence of its kernels[0] x kernels[1]
 * patches (row-major over the output positions), each row [C * kh * kw] in (c, i, j) order,
 * zeros where a patch leaves the padded image; Out [sum of positions, C * kh * kw] has one LoD
 * sequence per image (paddle/fluid/operators/im2sequence_op.h: im2col in the OCF layout).
 * paddings are [up, left, down, right]; positions per axis (size + pad0 + pad1 - k) / stride + 1.
 * With Y (each image's real height and width, in X's dtype) and more than one image, an image's
 * positions come from its real size divided by out_stride, rounded up, as Paddle's batch path
 * does. float32, float64. */
#include "kernels/kernel.h"

typedef struct i2s_attrs {
  const int64_t *k, *s, *p, *os;
  size_t nk, ns, np, nos;
} i2s_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  i2s_attrs *a = attrs;
  ic_ar_ints(r, "kernels", true, &a->k, &a->nk);
  ic_ar_ints(r, "strides", false, &a->s, &a->ns);
  ic_ar_ints(r, "paddings", false, &a->p, &a->np);
  ic_ar_ints(r, "out_stride", false, &a->os, &a->nos);
  if (r->st) return r->st;
  if (a->nk != 2 || a->k[0] < 1 || a->k[1] < 1) {
    return ic_ar_fail(r, "kernels", "expected two sizes >= 1");
  }
  if (a->ns && (a->ns != 2 || a->s[0] < 1 || a->s[1] < 1)) {
    return ic_ar_fail(r, "strides", "expected two strides >= 1");
  }
  if (a->np && a->np != 4) return ic_ar_fail(r, "paddings", "expected [up, left, down, right]");
  for (size_t i = 0; i < a->np; i++) {
    if (a->p[i] < 0) return ic_ar_fail(r, "paddings", "expected paddings >= 0");
  }
  if (a->nos && (a->nos != 2 || a->os[0] < 1 || a->os[1] < 1)) {
    return ic_ar_fail(r, "out_stride", "expected two strides >= 1");
  }
  return IC_OK;
}

typedef struct geom {
  int64_t kh, kw, sh, sw, pu, pl, pd, pr;
} geom;

static geom geom_of(const i2s_attrs *a) {
  return (geom){a->k[0], a->k[1], a->ns ? a->s[0] : 1, a->ns ? a->s[1] : 1,
                a->np ? a->p[0] : 0, a->np ? a->p[1] : 0, a->np ? a->p[2] : 0,
                a->np ? a->p[3] : 0};
}

/* Output positions (oh, ow) of image i. */
static void positions(const i2s_attrs *a, const geom *g, const ic_tensor *x, const ic_tensor *y,
                      int64_t i, int64_t *oh, int64_t *ow) {
  int64_t h = x->dims[2], w = x->dims[3];
  if (y && x->dims[0] > 1) {
    const int64_t s0 = a->nos ? a->os[0] : 1, s1 = a->nos ? a->os[1] : 1;
    h = (int64_t)ic_read_f64(y, 2 * i), w = (int64_t)ic_read_f64(y, 2 * i + 1);
    h = h % s0 == 0 ? h / s0 : h / s0 + 1;
    w = w % s1 == 0 ? w / s1 : w / s1 + 1;
  }
  *oh = (h + g->pu + g->pd - g->kh) / g->sh + 1;
  *ow = (w + g->pl + g->pr - g->kw) / g->sw + 1;
}

static ic_status infer(ic_kctx *c) {
  const i2s_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_status st = ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 [N, C, H, W]");
  if (y && x->dims[0] > 1 && ic_tensor_numel_(y) < 2 * x->dims[0]) {
    return ic_kfail_in(c, 1, 0, "expected a height and a width for each of the %lld images",
                       (long long)x->dims[0]);
  }
  const geom g = geom_of(a);
  const size_t n_off = (size_t)x->dims[0] + 1;
  ic_lod *lod = ic_lod_new(1, &n_off);
  if (!lod) return ic_kset_lod(c, ic_out(c, 0, 0), NULL, true);
  lod->offsets[0][0] = 0;
  for (int64_t i = 0; i < x->dims[0]; i++) {
    int64_t oh, ow;
    positions(a, &g, x, y, i, &oh, &ow);
    if (oh < 1 || ow < 1) {
      ic_lod_free(lod);
      return ic_kfail_in(c, y && x->dims[0] > 1 ? 1 : 0, 0,
                         "gives image %lld %lld x %lld patch positions for kernels %lld x %lld, "
                         "expected at least one", (long long)i, (long long)oh, (long long)ow,
                         (long long)g.kh, (long long)g.kw);
    }
    lod->offsets[0][i + 1] = lod->offsets[0][i] + (uint64_t)(oh * ow);
  }
  const int64_t rows = (int64_t)lod->offsets[0][x->dims[0]];
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2,
                     (int64_t[]){rows, x->dims[1] * g.kh * g.kw});
  return ic_kset_lod(c, ic_out(c, 0, 0), lod, true);
}

static ic_status run(ic_kctx *c) {
  const i2s_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const geom g = geom_of(a);
  const int64_t N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3];
  const bool f32 = x->dtype == IC_FP32;
  int64_t row = 0;
  for (int64_t n = 0; n < N; n++) {
    int64_t oh, ow;
    positions(a, &g, x, y, n, &oh, &ow);
    for (int64_t ph = 0; ph < oh; ph++) {
      for (int64_t pw = 0; pw < ow; pw++, row++) {
        int64_t col = 0;
        for (int64_t ch = 0; ch < C; ch++) {
          for (int64_t i = 0; i < g.kh; i++) {
            for (int64_t j = 0; j < g.kw; j++, col++) {
              const int64_t hh = ph * g.sh - g.pu + i, ww = pw * g.sw - g.pl + j;
              const bool in = hh >= 0 && hh < H && ww >= 0 && ww < W;
              const int64_t src = ((n * C + ch) * H + hh) * W + ww;
              const int64_t dst = row * C * g.kh * g.kw + col;
              if (f32) ((float *)o->data)[dst] = in ? ((const float *)x->data)[src] : 0.0f;
              else ((double *)o->data)[dst] = in ? ((const double *)x->data)[src] : 0.0;
            }
          }
        }
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}, {"Y", IC_SLOT_OPTIONAL | IC_SLOT_VALUE}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_im2sequence = {
    .name = "im2sequence", .n_inputs = 2, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(i2s_attrs), .parse = parse,
    .flags = IC_OP_LOD, /* one sequence per image */
    .infer = infer, .cpu = run,
};
