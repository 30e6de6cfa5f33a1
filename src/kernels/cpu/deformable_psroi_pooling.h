/* deformable_psroi_pooling's attributes, checks and bin geometry, shared by
 * deformable_psroi_pooling.c and deformable_psroi_pooling_grad.c. See
 * deformable_psroi_pooling.c for Paddle's semantics. */
#ifndef IC_KERNELS_CPU_DEFORMABLE_PSROI_POOLING_H
#define IC_KERNELS_CPU_DEFORMABLE_PSROI_POOLING_H

#include "kernels/kernel.h"

typedef struct ic_dpsroi_attrs {
  bool no_trans;
  double scale, trans_std; /* float attributes, held as read */
  int64_t output_dim, group_h, group_w, ph, pw, part_h, part_w, spp;
} ic_dpsroi_attrs;

/* Input, ROIs, Trans: the forward's and the grad's first three inputs. */
enum { IC_DPSROI_INPUT, IC_DPSROI_ROIS, IC_DPSROI_TRANS };

ic_status ic_dpsroi_parse(ic_attr_reader *r, void *attrs); /* ic_dpsroi_attrs */
/* Check Input, ROIs (with a LoD of one sequence per image) and Trans; *num_classes and
 * *per_class receive Trans's class count and output channels per class. */
ic_status ic_dpsroi_check(ic_kctx *c, int64_t *num_classes, int64_t *per_class);

/* One output bin's sampling geometry, in T as Paddle computes it. part_w_scale is the
 * factor of the bin's part column: part_width in the forward, part_height in Paddle's grad
 * kernel (which uses it there; the two differ only when part_size is not square). */
#define IC_DPSROI_BIN(T, ROUND, FLOOR)                                                        \
  typedef struct dpsroi_bin_##T {                                                           \
    T roi_w, roi_h, wstart, hstart, sub_w, sub_h;                                           \
    int64_t chan, trans_x, trans_y; /* input channel; Trans element indices (or -1) */      \
  } dpsroi_bin_##T;                                                                         \
  static void dpsroi_bin_##T##_of(const ic_dpsroi_attrs *a, const T *roi, const T *trans,  \
                                  int64_t n, int64_t ctop, int64_t py, int64_t px,         \
                                  int64_t nc, int64_t per_class, int64_t part_w_scale,     \
                                  dpsroi_bin_##T *b) {                                     \
    const T sc = (T)(float)a->scale;                                                        \
    const T x0 = (T)((double)((T)ROUND(roi[0]) * sc) - 0.5);                                \
    const T y0 = (T)((double)((T)ROUND(roi[1]) * sc) - 0.5);                                \
    const T x1 = (T)((double)((T)((double)ROUND(roi[2]) + 1.) * sc) - 0.5);                 \
    const T y1 = (T)((double)((T)((double)ROUND(roi[3]) + 1.) * sc) - 0.5);                 \
    b->roi_w = x1 - x0 > (T)0.1 ? x1 - x0 : (T)0.1;                                         \
    b->roi_h = y1 - y0 > (T)0.1 ? y1 - y0 : (T)0.1;                                         \
    const T bh = b->roi_h / (T)a->ph, bw = b->roi_w / (T)a->pw;                             \
    b->sub_h = bh / (T)a->spp;                                                              \
    b->sub_w = bw / (T)a->spp;                                                              \
    const int64_t part_h = (int64_t)FLOOR((T)py / (T)a->ph * (T)a->part_h);                 \
    const int64_t part_w = (int64_t)FLOOR((T)px / (T)a->pw * (T)part_w_scale);              \
    const int64_t cls = ctop / per_class;                                                   \
    T tx = 0, ty = 0;                                                                       \
    b->trans_x = b->trans_y = -1;                                                           \
    if (!a->no_trans) {                                                                     \
      b->trans_x = (((n * nc + cls) * 2) * a->part_h + part_h) * a->part_w + part_w;        \
      b->trans_y = (((n * nc + cls) * 2 + 1) * a->part_h + part_h) * a->part_w + part_w;    \
      tx = trans[b->trans_x] * (T)(float)a->trans_std;                                      \
      ty = trans[b->trans_y] * (T)(float)a->trans_std;                                      \
    }                                                                                       \
    b->wstart = (T)px * bw + x0;                                                            \
    b->wstart += tx * b->roi_w;                                                             \
    b->hstart = (T)py * bh + y0;                                                            \
    b->hstart += ty * b->roi_h;                                                             \
    int64_t gw = (int64_t)FLOOR((T)px * (T)a->group_w / (T)a->pw);                          \
    int64_t gh = (int64_t)FLOOR((T)py * (T)a->group_h / (T)a->ph);                          \
    gw = gw < 0 ? 0 : gw > a->group_w - 1 ? a->group_w - 1 : gw;                            \
    gh = gh < 0 ? 0 : gh > a->group_h - 1 ? a->group_h - 1 : gh;                            \
    b->chan = (ctop * a->group_h + gh) * a->group_w + gw;                                   \
  }

#endif
