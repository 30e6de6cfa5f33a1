/* deformable_conv_grad and deformable_conv_v1_grad: the gradients of deform_conv.c's
 * convolution as paddle/phi/kernels/impl/deformable_conv_grad_kernel_impl.h and
 * cpu/deformable_conv_grad_kernel.cc define them. With the forward's notation (sample
 * position (hy, wx) of channel c, tap k, output point p; its deformable group d; m the mask
 * value, 1 without Mask) and the column gradient
 *
 *   colg[c, k, p] = sum over o of the group of Filter[o, c mod (C / groups), k] * dOut[o, p],
 *
 *   Input@GRAD[c, corner] += colg * m * bilinear weight of the corner, for each of the four
 *       corners inside the image, when -1 < hy < H and -1 < wx < W (else nothing);
 *   Offset@GRAD[2 k] (dh) = sum over the channels c of group d of colg * m * dV/dhy, and
 *   Offset@GRAD[2 k + 1] (dw) likewise with dV/dwx, where dV/dhy is
 *       (1 - lw) (v(hl + 1, wl) - v(hl, wl)) + lw (v(hl + 1, wl + 1) - v(hl, wl + 1)),
 *       corners outside the image counting 0, and 0 unless -1 < hy < H and -1 < wx < W;
 *   Mask@GRAD = sum over the channels c of group d of colg * V(c, hy, wx) (V as the forward
 *       samples it: 0 outside the open range);
 *   Filter@GRAD[o, i, k] = sum over images and p of dOut[o, p] * col[c, k, p], col the
 *       forward's masked samples.
 *
 * im2col_step S, as Paddle's grad kernel uses it (its forward ignores it): the images are
 * taken in N / S blocks of S (N must be a multiple of S when N > S; when S > N no block
 * exists and every gradient is 0), and within a block Output@GRAD is read as
 * [C_out, S, OH * OW] although the forward wrote [S, C_out, OH * OW]: with S = 1 (what
 * paddle.vision.ops.deform_conv2d writes) this is the plain gradient; with S > 1 it is
 * Paddle's result, which mixes the images' gradients.
 *
 * Sample positions are computed in the data's type as the forward does; everything else
 * in double, each output rounded once. Per image, the intra-op threads share out rows
 * (channel and tap of the column gradient; deformable group and tap for the offset and mask
 * gradients; channel for Input@GRAD; output channel for Filter@GRAD, summed over the images
 * in order), each computed in a fixed order: the results do not depend on the thread
 * count. float32 and float64. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/deform_conv.h"

enum { OUT_DX, OUT_DOFF, OUT_DW, OUT_DMASK };

static ic_status check_step(ic_kctx *c, const ic_dcn_geom *g) {
  const ic_dcn_attrs *a = c->attrs;
  if (a->im2col_step < 1) {
    return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "attribute 'im2col_step' is %lld, expected >= 1",
                    (long long)a->im2col_step);
  }
  if (g->n > a->im2col_step && g->n % a->im2col_step) {
    return ic_kfail_in(c, IC_DCN_INPUT, 0,
                       "has batch %lld, expected a multiple of attribute 'im2col_step' %lld "
                       "(or at most it)",
                       (long long)g->n, (long long)a->im2col_step);
  }
  return IC_OK;
}

ic_status ic_dcn_grad_infer(ic_kctx *c, size_t mask_slot, size_t dout_slot) {
  ic_dcn_geom g;
  ic_status st = ic_dcn_geometry(c, mask_slot, &g);
  if (st || (st = check_step(c, &g))) return st;
  const ic_tensor *x = ic_in(c, IC_DCN_INPUT, 0), *go = ic_in(c, dout_slot, 0);
  const int64_t od[4] = {g.n, g.oc, g.oh, g.ow};
  if (go->dtype != x->dtype || !ic_dims_equal(go->ndim, go->dims, 4, od)) {
    char s[96];
    return ic_kfail_in(c, dout_slot, 0, "expected %s%s, the op's Output",
                       ic_dtype_name(x->dtype), ic_dims_str(4, od, s, sizeof s));
  }
  const size_t src[4] = {IC_DCN_INPUT, IC_DCN_OFFSET, IC_DCN_FILTER, mask_slot};
  for (size_t k = 0; k < c->def->n_outputs && k < 4; k++) {
    ic_tensor *o = ic_out(c, k, 0);
    if (!o) continue;
    const ic_tensor *in = src[k] == IC_DCN_NO_MASK ? NULL : ic_in(c, src[k], 0);
    if (!in) {
      return ic_kfail(c, IC_ERR_INVALID_PROGRAM, "output %s '%s' is written, but the op has no %s",
                      c->def->outputs[k].name, ic_out_name(c, k, 0), "Mask");
    }
    ic_tensor_set_meta(o, x->dtype, 4, in->dims);
  }
  return IC_OK;
}

static inline double ld(const void *p, bool f64, int64_t i) {
  return f64 ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

/* The sample position of tap (ky, kx) at output (y, x): in the data's type, as the forward. */
static inline void sample_pos(const ic_dcn_attrs *a, const void *off, bool f64, int64_t ih,
                              int64_t iw, int64_t ky, int64_t kx, int64_t y, int64_t x,
                              double *h, double *w) {
  const int64_t bh = y * a->strides[0] - a->paddings[0] + ky * a->dilations[0];
  const int64_t bw = x * a->strides[1] - a->paddings[1] + kx * a->dilations[1];
  if (f64) {
    *h = (double)bh + ((const double *)off)[ih];
    *w = (double)bw + ((const double *)off)[iw];
  } else {
    *h = (double)((float)bh + ((const float *)off)[ih]);
    *w = (double)((float)bw + ((const float *)off)[iw]);
  }
}

static inline bool in_range(double h, double w, int64_t H, int64_t W) {
  return h > -1 && w > -1 && h < (double)H && w < (double)W;
}

/* The four corners' values of channel plane xc (0 outside the image). */
static inline void corners(const void *xc, bool f64, int64_t H, int64_t W, int64_t hl,
                           int64_t wl, double v[4]) {
  const int64_t hh = hl + 1, wh = wl + 1;
  v[0] = hl >= 0 && wl >= 0 ? ld(xc, f64, hl * W + wl) : 0;
  v[1] = hl >= 0 && wh <= W - 1 ? ld(xc, f64, hl * W + wh) : 0;
  v[2] = hh <= H - 1 && wl >= 0 ? ld(xc, f64, hh * W + wl) : 0;
  v[3] = hh <= H - 1 && wh <= W - 1 ? ld(xc, f64, hh * W + wh) : 0;
}

ic_status ic_dcn_grad_cpu(ic_kctx *c, size_t mask_slot, size_t dout_slot) {
  const ic_dcn_attrs *a = c->attrs;
  ic_dcn_geom g;
  ic_status st = ic_dcn_geometry(c, mask_slot, &g);
  if (st || (st = check_step(c, &g))) return st;
  const ic_tensor *x = ic_in(c, IC_DCN_INPUT, 0), *off = ic_in(c, IC_DCN_OFFSET, 0);
  const ic_tensor *f = ic_in(c, IC_DCN_FILTER, 0), *go = ic_in(c, dout_slot, 0);
  const ic_tensor *m = mask_slot != IC_DCN_NO_MASK ? ic_in(c, mask_slot, 0) : NULL;
  ic_tensor *dx = ic_out(c, OUT_DX, 0), *doff = ic_out(c, OUT_DOFF, 0);
  ic_tensor *dw = ic_out(c, OUT_DW, 0);
  ic_tensor *dm = c->def->n_outputs > OUT_DMASK && m ? ic_out(c, OUT_DMASK, 0) : NULL;
  const bool f64 = x->dtype == IC_FP64;
  const int64_t C = g.c, H = g.h, W = g.w, KK = g.kh * g.kw, OHW = g.oh * g.ow;
  const int64_t G = a->groups, cg = C / G, og = g.oc / G, cpd = C / a->dgroups;
  const int64_t S = a->im2col_step, nimg = g.n / S * S;
  const int64_t nx = C * H * W, noff = 2 * a->dgroups * KK * OHW, nm = a->dgroups * KK * OHW;
  const int64_t nw = ic_tensor_numel_(f), ncol = C * KK * OHW;
  /* scratch (double): dx, dw accumulators for the whole op; one image's colg and col */
  const int64_t nacc = (dx ? g.n * nx : 0) + (dw ? nw : 0);
  const int64_t nod = (doff ? g.n * noff : 0) + (dm ? g.n * nm : 0);
  /* and the filter and one image's Output@GRAD in double */
  const int64_t ngo = g.oc * OHW;
  ic_buffer *buf =
      ic_kscratch(c, (size_t)(nacc + nod + 2 * ncol + nw + ngo + 1) * sizeof(double));
  if (!buf) return c->err->code;
  double *adx = buf->data, *adw = adx + (dx ? g.n * nx : 0);
  double *aoff = adw + (dw ? nw : 0), *am = aoff + (doff ? g.n * noff : 0);
  double *colg = am + (dm ? g.n * nm : 0), *col = colg + ncol, *wd = col + ncol, *gd = wd + nw;
  memset(buf->data, 0, (size_t)(nacc + nod) * sizeof(double));
  for (int64_t i = 0; i < nw; i++) wd[i] = ld(f->data, f64, i);
  const size_t es = ic_dtype_size(x->dtype);
  /* Threads share out independent rows, each computed in a fixed order: the same bits at
   * any thread count. */
  const int nt = ncol >= 4096 ? ic_omp_threads(c->env) : 1;
  for (int64_t n = 0; n < nimg; n++) {
    const int64_t blk = n / S, s = n % S;
    /* Output@GRAD of this image, as Paddle reads it: [C_out, S, OHW] per block */
    const int64_t gbase = blk * S * g.oc * OHW + s * OHW, gstride = S * OHW;
    for (int64_t oc = 0; oc < g.oc; oc++) {
      for (int64_t p = 0; p < OHW; p++) {
        gd[oc * OHW + p] = ld(go->data, f64, gbase + oc * gstride + p);
      }
    }
    const char *xn = (const char *)x->data + (size_t)(n * nx) * es;
    const void *on = (const char *)off->data + (size_t)(n * noff) * es;
    const void *mn = m ? (const char *)m->data + (size_t)(n * nm) * es : NULL;
    /* colg = Filter^T dOut per group: one row per (channel, tap) */
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t r = 0; r < C * KK; r++) {
      const int64_t ch = r / KK, k = r % KK, gi = ch / cg, i = ch % cg;
      double *row = colg + r * OHW;
      for (int64_t p = 0; p < OHW; p++) row[p] = 0;
      for (int64_t o = 0; o < og; o++) {
        const int64_t oc = gi * og + o;
        const double wv = wd[(oc * cg + i) * KK + k], *gr = gd + oc * OHW;
        for (int64_t p = 0; p < OHW; p++) row[p] += wv * gr[p];
      }
    }
    /* per (deformable group, tap): the samples (col), Offset@GRAD and Mask@GRAD */
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t dk = 0; dk < a->dgroups * KK; dk++) {
      const int64_t d = dk / KK, k = dk % KK, ky = k / g.kw, kx = k % g.kw;
      const int64_t ih = (d * 2 * KK + 2 * k) * OHW, iw = ih + OHW, im = (d * KK + k) * OHW;
      for (int64_t p = 0; p < OHW; p++) {
        double h, w;
        sample_pos(a, on, f64, ih + p, iw + p, ky, kx, p / g.ow, p % g.ow, &h, &w);
        const double mk = mn ? ld(mn, f64, im + p) : 1.0;
        const bool inside = in_range(h, w, H, W);
        const double hf = floor(h), wf = floor(w);
        const int64_t hl = (int64_t)hf, wl = (int64_t)wf;
        const double lh = h - hf, lw = w - wf, uh = 1 - lh, uw = 1 - lw;
        double vh = 0, vw = 0, vm = 0;
        for (int64_t ch = d * cpd; ch < (d + 1) * cpd; ch++) {
          const int64_t ci = (ch * KK + k) * OHW + p;
          double v[4] = {0, 0, 0, 0}, val = 0;
          if (inside) {
            corners(xn + (size_t)(ch * H * W) * es, f64, H, W, hl, wl, v);
            val = uh * uw * v[0] + uh * lw * v[1] + lh * uw * v[2] + lh * lw * v[3];
          }
          col[ci] = val * mk;
          if (!inside) continue;
          const double cgv = colg[ci];
          vm += cgv * val;
          vh += cgv * mk * (uw * (v[2] - v[0]) + lw * (v[3] - v[1]));
          vw += cgv * mk * (uh * (v[1] - v[0]) + lh * (v[3] - v[2]));
        }
        if (doff) {
          aoff[n * noff + ih + p] = vh;
          aoff[n * noff + iw + p] = vw;
        }
        if (dm) am[n * nm + im + p] = vm;
      }
    }
    /* Input@GRAD: per channel, over taps then points */
    if (dx) {
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
      for (int64_t ch = 0; ch < C; ch++) {
        const int64_t d = ch / cpd;
        double *xd = adx + n * nx + ch * H * W;
        for (int64_t k = 0; k < KK; k++) {
          const int64_t ky = k / g.kw, kx = k % g.kw;
          const int64_t ih = (d * 2 * KK + 2 * k) * OHW, iw = ih + OHW, im = (d * KK + k) * OHW;
          const double *cr = colg + (ch * KK + k) * OHW;
          for (int64_t p = 0; p < OHW; p++) {
            double h, w;
            sample_pos(a, on, f64, ih + p, iw + p, ky, kx, p / g.ow, p % g.ow, &h, &w);
            if (!in_range(h, w, H, W)) continue;
            const double t = cr[p] * (mn ? ld(mn, f64, im + p) : 1.0);
            const double hf = floor(h), wf = floor(w);
            const int64_t hl = (int64_t)hf, wl = (int64_t)wf;
            const double lh = h - hf, lw = w - wf, uh = 1 - lh, uw = 1 - lw;
            if (hl >= 0 && wl >= 0) xd[hl * W + wl] += uh * uw * t;
            if (hl >= 0 && wl + 1 <= W - 1) xd[hl * W + wl + 1] += uh * lw * t;
            if (hl + 1 <= H - 1 && wl >= 0) xd[(hl + 1) * W + wl] += lh * uw * t;
            if (hl + 1 <= H - 1 && wl + 1 <= W - 1) xd[(hl + 1) * W + wl + 1] += lh * lw * t;
          }
        }
      }
    }
    /* Filter@GRAD: per output channel, summed over the images in order */
    if (dw) {
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
      for (int64_t oc = 0; oc < g.oc; oc++) {
        const int64_t gi = oc / og;
        const double *gr = gd + oc * OHW;
        for (int64_t i = 0; i < cg; i++) {
          for (int64_t k = 0; k < KK; k++) {
            const double *cr = col + ((gi * cg + i) * KK + k) * OHW;
            double acc = 0;
            for (int64_t p = 0; p < OHW; p++) acc += gr[p] * cr[p];
            adw[(oc * cg + i) * KK + k] += acc;
          }
        }
      }
    }
  }
  if (dx) ic_store_acc(dx, adx);
  if (dw) ic_store_acc(dw, adw);
  if (doff) ic_store_acc(doff, aoff);
  if (dm) ic_store_acc(dm, am);
  ic_buffer_release(buf);
  return IC_OK;
}
