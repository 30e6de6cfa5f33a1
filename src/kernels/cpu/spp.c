/* spp (fluid.layers.spp, spatial pyramid pooling; paddle/fluid/operators/spp_op.h): X [N, C,
 * H, W] pooled at pyramid_height levels; level p splits the image into bins = 2^p per side
 * with windows of kh = ceil(H / bins) by kw = ceil(W / bins), strides the same, paddings
 * (kh bins - H + 1) / 2 and (kw bins - W + 1) / 2, max or avg (avg over the window's cells
 * inside X; a window wholly in the padding gives -FLT_MAX or 0 / 0 = NaN, as Paddle's); each
 * level flattened to [N, C bins^2] (channel, row, column) and the levels
 * concatenated: Out [N, C (4^pyramid_height - 1) / 3]. float32, float64. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct spp_attrs {
  int64_t height;
  bool max;
} spp_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  spp_attrs *a = attrs;
  a->height = ic_ar_int_req(r, "pyramid_height");
  const char *t = ic_ar_str(r, "pooling_type", "max");
  if (r->st) return r->st;
  if (a->height < 1 || a->height > 16) {
    return ic_ar_fail(r, "pyramid_height", "is %lld, expected 1 to 16", (long long)a->height);
  }
  a->max = !strcmp(t, "max");
  if (!a->max && strcmp(t, "avg")) return ic_ar_fail(r, "pooling_type", "is \"%s\", expected max or avg", t);
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const spp_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_FLOAT)) return c->err->code;
  if (x->ndim != 4) return ic_kfail_in(c, 0, 0, "expected rank 4 [N, C, H, W]");
  const int64_t cells = ((int64_t)1 << (2 * a->height)) / 3; /* (4^h - 1) / 3 */
  ic_tensor_set_meta(ic_out(c, 0, 0), x->dtype, 2, (int64_t[]){x->dims[0], x->dims[1] * cells});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const spp_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const int64_t N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3];
  const int64_t width = o->dims[1];
  const bool f64 = x->dtype == IC_FP64;
  int64_t base = 0;
  for (int64_t p = 0; p < a->height; p++) {
    const int64_t bins = (int64_t)1 << p;
    const int64_t kh = (int64_t)ceil((double)H / (double)bins), kw = (int64_t)ceil((double)W / (double)bins);
    const int64_t ph = (kh * bins - H + 1) / 2, pw = (kw * bins - W + 1) / 2;
    for (int64_t n = 0; n < N; n++) {
      for (int64_t ch = 0; ch < C; ch++) {
        const int64_t plane = (n * C + ch) * H * W;
        for (int64_t i = 0; i < bins; i++) {
          int64_t hs = i * kh - ph, he = hs + kh < H ? hs + kh : H;
          hs = hs > 0 ? hs : 0;
          for (int64_t j = 0; j < bins; j++) {
            int64_t ws = j * kw - pw, we = ws + kw < W ? ws + kw : W;
            ws = ws > 0 ? ws : 0;
            double acc = a->max ? -FLT_MAX : 0.0; /* Paddle's MaxPool starts at -FLT_MAX */
            float accf = a->max ? -FLT_MAX : 0.0f;
            for (int64_t y = hs; y < he; y++) {
              for (int64_t xx = ws; xx < we; xx++) {
                if (f64) {
                  const double v = ((const double *)x->data)[plane + y * W + xx];
                  acc = a->max ? (v > acc ? v : acc) : acc + v;
                } else {
                  const float v = ((const float *)x->data)[plane + y * W + xx];
                  accf = a->max ? (v > accf ? v : accf) : accf + v;
                }
              }
            }
            const int64_t cnt = (he - hs) * (we - ws);
            const int64_t at = n * width + base + (ch * bins + i) * bins + j;
            /* an empty window (all padding): max gives -FLT_MAX, avg 0 / 0, as Paddle's */
            if (f64) ((double *)o->data)[at] = a->max ? acc : acc / (double)cnt;
            else ((float *)o->data)[at] = a->max ? accf : accf / (float)cnt;
          }
        }
      }
    }
    base += C * bins * bins;
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_spp = {
    .name = "spp", .n_inputs = 1, .inputs = inputs, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(spp_attrs), .parse = parse, .infer = infer, .cpu = run,
};
