/* conv3d_transpose, as paddle/phi/infermeta/binary.cc ConvTransposeInferMeta and
 * paddle/phi/kernels/impl/conv_transpose_kernel_impl.h define it for 3-D (conv2d_transpose's
 * rule with a depth axis, conv_transpose.c):
 *   Output[n, g*og + o, z*sd - pf + kd*dd, y*sh - pt + kh*dh, x*sw - pl + kw*dw] +=
 *       Input[n, g*cg + i, z, y, x] * Filter[g*cg + i, o, kd, kh, kw]
 * Input [N, C, D, H, W] (data_format NCDHW) or [N, D, H, W, C] (NDHWC; Paddle's Python API
 * writes these two as "NCHW" and "NHWC", which mean the same here), Filter [C, C_out /
 * groups, KD, KH, KW] either way, C_out = Filter.dims[1] * groups. paddings are 3 values or 6
 * [front, back, top, bottom, left, right]; padding_algorithm SAME pads as conv3d does for the
 * input size and resets the dilations to 1, VALID pads nothing. Per axis
 *   out = (in - 1) * s - p0 - p1 + d * (k - 1) + 1
 * plus output_padding when given (less than max(stride, dilation)), or exactly output_size
 * when given, which must lie in [out, out + s).
 *
 * Computed as Paddle's kernel does: per image and group one GEMM col = Filter_g^T * Input_g
 * ([og * KD * KH * KW] x [D * H * W]) and a col2vol that adds each column entry into the
 * output voxel it lands on; NDHWC goes through NCDHW copies. float32 and float64. */
#include <string.h>

#include "kernels/cpu/conv.h"
#include "kernels/cpu/conv3d.h"
#include "kernels/cpu/conv3d_transpose.h"
#include "kernels/cpu/gemm.h"

enum { IN_INPUT, IN_FILTER };

/* A list of 3 values >= min into out (dflt each when absent or empty). */
static void read3(ic_attr_reader *r, const char *name, int64_t out[3], int64_t dflt,
                  int64_t min, bool *present) {
  const int64_t *v;
  size_t n;
  out[0] = out[1] = out[2] = dflt;
  if (present) *present = false;
  if (!ic_ar_ints(r, name, false, &v, &n) || n == 0) return;
  if (n != 3) {
    ic_ar_fail(r, name, "has %zu values, expected 3 ([d, h, w])", n);
    return;
  }
  for (int i = 0; i < 3; i++) {
    if (v[i] < min) {
      ic_ar_fail(r, name, "holds %lld, expected values >= %lld", (long long)v[i],
                 (long long)min);
      return;
    }
    out[i] = v[i];
  }
  if (present) *present = true;
}

ic_status ic_c3t_parse(ic_attr_reader *r, void *attrs) {
  ic_c3t_attrs *a = attrs;
  read3(r, "strides", a->strides, 1, 1, NULL);
  read3(r, "dilations", a->dilations, 1, 1, NULL);
  read3(r, "output_padding", a->output_padding, 0, 0, &a->has_output_padding);
  read3(r, "output_size", a->output_size, -1, 1, &a->has_output_size);
  memset(a->pads, 0, sizeof a->pads);
  ic_read_paddings3(r, a->pads);
  a->pad_algo = ic_read_pad_algo(r);
  a->groups = ic_ar_int(r, "groups", 1);
  const char *f = ic_ar_str(r, "data_format", "NCDHW");
  if (r->st) return r->st;
  if (a->groups < 1) return ic_ar_fail(r, "groups", "is %lld, expected >= 1", (long long)a->groups);
  /* Paddle's Python API writes "NHWC" / "NCHW" here for NDHWC / NCDHW */
  a->ndhwc = !strcmp(f, "NHWC") || !strcmp(f, "NDHWC");
  if (!a->ndhwc && strcmp(f, "NCHW") && strcmp(f, "NCDHW") && strcmp(f, "AnyLayout")) {
    return ic_ar_fail(r, "data_format", "is \"%s\", expected NCHW or NHWC (NCDHW or NDHWC)", f);
  }
  return IC_OK;
}

ic_status ic_c3t_geometry(ic_kctx *c, ic_c3t_geom *g) {
  const ic_c3t_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0);
  ic_status st = ic_kcheck_dtype(c, IN_INPUT, 0, IC_DT_FLOAT);
  if (st) return st;
  if (x->ndim != 5) {
    return ic_kfail_in(c, IN_INPUT, 0, "expected rank 5 (%s)", a->ndhwc ? "NDHWC" : "NCDHW");
  }
  if (f->ndim != 5 || f->dtype != x->dtype) {
    return ic_kfail_in(c, IN_FILTER, 0,
                       "expected %s of rank 5 [C_in, C_out / groups, KD, KH, KW]",
                       ic_dtype_name(x->dtype));
  }
  g->n = x->dims[0];
  g->c = a->ndhwc ? x->dims[4] : x->dims[1];
  g->g = a->groups;
  if (f->dims[0] != g->c) {
    return ic_kfail_in(c, IN_INPUT, 0,
                       "has %lld channels (data_format %s), but Filter '%s' has %lld rows: "
                       "expected Filter.dims[0] = channels",
                       (long long)g->c, a->ndhwc ? "NDHWC" : "NCDHW", ic_in_name(c, 1, 0),
                       (long long)f->dims[0]);
  }
  if (g->c % g->g != 0) {
    return ic_kfail_in(c, IN_INPUT, 0, "has %lld channels, expected a multiple of groups %lld",
                       (long long)g->c, (long long)g->g);
  }
  g->og = f->dims[1];
  g->oc = g->og * g->g;
  for (int i = 0; i < 3; i++) {
    g->in[i] = x->dims[a->ndhwc ? 1 + i : 2 + i];
    g->k[i] = f->dims[2 + i];
    if (g->k[i] < 1 || g->og < 1) return ic_kfail_in(c, IN_FILTER, 0, "expected dims >= 1");
    g->s[i] = a->strides[i];
    g->d[i] = a->dilations[i];
    g->p[2 * i] = a->pad_algo == IC_PAD_VALID ? 0 : a->pads[2 * i];
    g->p[2 * i + 1] = a->pad_algo == IC_PAD_VALID ? 0 : a->pads[2 * i + 1];
  }
  if (a->pad_algo == IC_PAD_SAME) {
    for (int i = 0; i < 3; i++) {
      ic_same_pads(g->in[i], g->s[i], g->k[i], &g->p[2 * i], &g->p[2 * i + 1]);
      g->d[i] = 1;
    }
  }
  static const char *const axis[3] = {"depth", "height", "width"};
  for (int i = 0; i < 3; i++) {
    const int64_t base =
        (g->in[i] - 1) * g->s[i] - g->p[2 * i] - g->p[2 * i + 1] + g->d[i] * (g->k[i] - 1) + 1;
    g->out[i] = base;
    if (a->has_output_size) {
      if (a->output_size[i] < base || a->output_size[i] >= base + g->s[i]) {
        return ic_kfail_in(c, IN_INPUT, 0,
                           "gives an output %s of %lld to %lld, but 'output_size' asks for %lld",
                           axis[i], (long long)base, (long long)(base + g->s[i] - 1),
                           (long long)a->output_size[i]);
      }
      g->out[i] = a->output_size[i];
    } else if (a->has_output_padding) {
      const int64_t lim = g->s[i] > g->d[i] ? g->s[i] : g->d[i];
      if (a->output_padding[i] >= lim) {
        return ic_kfail(c, IC_ERR_INVALID_PROGRAM,
                        "attribute 'output_padding' holds %lld, expected less than "
                        "max(stride, dilation) = %lld",
                        (long long)a->output_padding[i], (long long)lim);
      }
      g->out[i] += a->output_padding[i];
    }
    if (g->out[i] < 1) {
      return ic_kfail_in(c, IN_INPUT, 0,
                         "gives an output %s of %lld with paddings %lld and %lld; expected "
                         "sizes >= 1",
                         axis[i], (long long)g->out[i], (long long)g->p[2 * i],
                         (long long)g->p[2 * i + 1]);
    }
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_c3t_attrs *a = c->attrs;
  ic_c3t_geom g;
  ic_status st = ic_c3t_geometry(c, &g);
  if (st) return st;
  int64_t d[5] = {g.n, g.oc, g.out[0], g.out[1], g.out[2]};
  if (a->ndhwc) d[1] = g.out[0], d[2] = g.out[1], d[3] = g.out[2], d[4] = g.oc;
  ic_tensor_set_meta(ic_out(c, 0, 0), ic_in(c, 0, 0)->dtype, 5, d);
  return IC_OK;
}

#define DEFINE_C3T(T)                                                                        \
  /* col[((o * KD + kd) * KH + kh) * KW + kw][z, y, x] added into the og channels at ys */    \
  static void col2vol_##T(const T *col, T *ys, const ic_c3t_geom *g) {                       \
    const int64_t D = g->in[0], H = g->in[1], W = g->in[2];                                  \
    const int64_t OD = g->out[0], OH = g->out[1], OW = g->out[2];                            \
    const T *p = col;                                                                        \
    for (int64_t o = 0; o < g->og; o++)                                                      \
      for (int64_t kd = 0; kd < g->k[0]; kd++)                                               \
        for (int64_t kh = 0; kh < g->k[1]; kh++)                                             \
          for (int64_t kw = 0; kw < g->k[2]; kw++)                                           \
            for (int64_t z = 0; z < D; z++) {                                                \
              const int64_t oz = z * g->s[0] - g->p[0] + kd * g->d[0];                       \
              for (int64_t yy = 0; yy < H; yy++) {                                           \
                const int64_t oy = yy * g->s[1] - g->p[2] + kh * g->d[1];                    \
                for (int64_t xx = 0; xx < W; xx++, p++) {                                    \
                  const int64_t ox = xx * g->s[2] - g->p[4] + kw * g->d[2];                  \
                  if (oz >= 0 && oz < OD && oy >= 0 && oy < OH && ox >= 0 && ox < OW) {      \
                    ys[((o * OD + oz) * OH + oy) * OW + ox] += *p;                           \
                  }                                                                          \
                }                                                                            \
              }                                                                              \
            }                                                                                \
  }
DEFINE_C3T(float)
DEFINE_C3T(double)

static ic_status run(ic_kctx *c) {
  const ic_c3t_attrs *a = c->attrs;
  ic_c3t_geom g;
  ic_status st = ic_c3t_geometry(c, &g);
  if (st) return st;
  const ic_tensor *x = ic_in(c, IN_INPUT, 0), *f = ic_in(c, IN_FILTER, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const bool f64 = x->dtype == IC_FP64;
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t sp = ic_numel(3, g.in), osp = ic_numel(3, g.out);
  const int64_t cg = g.c / g.g, kk = g.og * ic_numel(3, g.k);
  const size_t n_out = (size_t)(g.n * g.oc * osp);
  if (n_out == 0) return IC_OK;
  /* col [og * K, sp] = Filter_g^T ([cg, og * K] stored) * Input_g [cg, sp] */
  ic_gemm gm = {.dtype = x->dtype, .trans_a = true, .m = kk, .n = sp, .k = cg, .lda = kk,
                .ldb = sp, .ldc = sp, .alpha = 1.0, .beta = 0.0};
  if ((st = ic_gemm_check(c, &gm))) return st;
  const size_t n_col = (size_t)(kk * sp), n_in = a->ndhwc ? (size_t)(g.n * g.c * sp) : 0;
  const size_t n_tmp = a->ndhwc ? n_out : 0;
  ic_buffer *sb = ic_kscratch(c, (n_col + n_in + n_tmp) * es + es);
  if (!sb) return c->err->code;
  char *col = sb->data, *xin = col + n_col * es, *yout = xin + n_in * es;
  if (a->ndhwc) {
    ic_conv3d_channels(x->data, xin, es, g.n, g.c, sp, false);
  } else {
    xin = x->data;
    yout = out->data;
  }
  memset(yout, 0, n_out * es);
  ic_kernel_threads(c);
  for (int64_t n = 0; n < g.n; n++) {
    for (int64_t gi = 0; gi < g.g; gi++) {
      const char *xs = xin + (size_t)((n * g.c + gi * cg) * sp) * es;
      char *ys = yout + (size_t)((n * g.oc + gi * g.og) * osp) * es;
      ic_gemm_run(c, &gm, (const char *)f->data + (size_t)(gi * cg * kk) * es, xs, col);
      if (f64) col2vol_double((const double *)col, (double *)ys, &g);
      else col2vol_float((const float *)col, (float *)ys, &g);
    }
  }
  if (a->ndhwc) {
    ic_conv3d_channels(yout, out->data, es, g.n, g.oc, osp, true);
  }
  ic_buffer_release(sb);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Input", 0}, {"Filter", 0}};
static const ic_slotdef outputs[] = {{"Output", 0}};

const ic_opdef ic_op_conv3d_transpose = {
    .name = "conv3d_transpose",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(ic_c3t_attrs), .parse = ic_c3t_parse,
    .infer = infer, .cpu = run,
};
