/* Polygon overlap (polyiou.h) shared by multiclass_nms* (nms.c) and locality_aware_nms.
 *
 * Paddle's PolyIoU: each polygon's area by the shoelace formula in the input's precision; 0
 * when either area or the overlap is 0; else overlap / (area_a + area_b - overlap). Paddle
 * gets the overlap from gpc clipping; here it is computed in double as the sum over the pairs
 * of fan triangles (p0, pi, pi+1) x (q0, qj, qj+1) of the two polygons of their clipped
 * (Sutherland-Hodgman) areas, signed by the triangles' orientations: the integral of the
 * product of the two winding numbers, which is the overlap area of simple polygons of either
 * orientation, convex or not. That is where gpc agrees with it; the two may differ in the
 * last bits, which matters only for an IoU within rounding of a threshold. A polygon whose
 * edges cross (self-intersecting, where gpc fills by even-odd parity and Paddle sums the
 * areas of the contours it returns, holes included) is detected and left to the caller to
 * refuse. */
#include "kernels/cpu/polyiou.h"

#include <math.h>
#include <string.h>

typedef struct pt {
  double x, y;
} pt;

static double cross3(pt o, pt a, pt b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/* Whether segments ab and cd cross at a point inside both (a proper crossing). */
static bool crosses(pt a, pt b, pt c, pt d) {
  const double d1 = cross3(a, b, c), d2 = cross3(a, b, d), d3 = cross3(c, d, a),
               d4 = cross3(c, d, b);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

static bool self_crossing(const pt *p, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = i + 2; j < n; j++) {
      if (i == 0 && j == n - 1) continue; /* adjacent through the closing edge */
      if (crosses(p[i], p[(i + 1) % n], p[j], p[(j + 1) % n])) return true;
    }
  }
  return false;
}

/* Area of the intersection of triangles a and b (each counter-clockwise): b's points
 * clipped by a's three edges. */
static double tri_overlap(const pt *a, const pt *b) {
  pt buf[2][12];
  int n = 3;
  memcpy(buf[0], b, 3 * sizeof *b);
  int cur = 0;
  for (int e = 0; e < 3 && n > 0; e++) {
    const pt p = a[e], q = a[(e + 1) % 3];
    const pt *in = buf[cur];
    pt *out = buf[cur ^ 1];
    int m = 0;
    for (int i = 0; i < n; i++) {
      const pt u = in[i], v = in[(i + 1) % n];
      const double su = cross3(p, q, u), sv = cross3(p, q, v);
      if (su >= 0) out[m++] = u;
      if ((su >= 0) != (sv >= 0)) {
        const double t = su / (su - sv);
        out[m++] = (pt){u.x + t * (v.x - u.x), u.y + t * (v.y - u.y)};
      }
    }
    n = m;
    cur ^= 1;
  }
  double area = 0;
  for (int i = 0; i < n; i++) {
    const pt u = buf[cur][i], v = buf[cur][(i + 1) % n];
    area += u.x * v.y - u.y * v.x;
  }
  return fabs(area / 2);
}

static double overlap(const pt *p, int np, const pt *q, int nq) {
  double sum = 0;
  for (int i = 1; i + 1 < np; i++) {
    pt ta[3] = {p[0], p[i], p[i + 1]};
    const double sa = cross3(ta[0], ta[1], ta[2]);
    if (sa == 0) continue;
    if (sa < 0) {
      const pt t = ta[1];
      ta[1] = ta[2];
      ta[2] = t;
    }
    for (int j = 1; j + 1 < nq; j++) {
      pt tb[3] = {q[0], q[j], q[j + 1]};
      const double sb = cross3(tb[0], tb[1], tb[2]);
      if (sb == 0) continue;
      if (sb < 0) {
        const pt t = tb[1];
        tb[1] = tb[2];
        tb[2] = t;
      }
      const double ov = tri_overlap(ta, tb);
      sum += (sa > 0) == (sb > 0) ? ov : -ov;
    }
  }
  return fabs(sum);
}

#define POLY_DEFINE(SUF, T)                                                                   \
  static int points_##SUF(const T *xy, int n, pt *p) {                                        \
    if (n > IC_POLY_MAX_POINTS) n = IC_POLY_MAX_POINTS;                                       \
    for (int i = 0; i < n; i++) p[i] = (pt){xy[2 * i], xy[2 * i + 1]};                        \
    return n;                                                                                 \
  }                                                                                           \
  bool ic_poly_self_crossing_##SUF(const T *xy, int n) {                                      \
    pt p[IC_POLY_MAX_POINTS] = {{0, 0}};                                                      \
    n = points_##SUF(xy, n, p);                                                               \
    return self_crossing(p, n);                                                               \
  }                                                                                           \
  T ic_poly_area_##SUF(const T *xy, int n) {                                                  \
    T area = 0;                                                                               \
    for (int i = 0; i < n; i++) {                                                             \
      const int j = (i + 1) % n;                                                              \
      area += xy[2 * i] * xy[2 * j + 1] - xy[2 * i + 1] * xy[2 * j];                          \
    }                                                                                         \
    return (T)fabs(area / 2.0);                                                               \
  }                                                                                           \
  double ic_poly_overlap_##SUF(const T *a, const T *b, int n) {                               \
    pt pa[IC_POLY_MAX_POINTS], pb[IC_POLY_MAX_POINTS];                                        \
    const int na = points_##SUF(a, n, pa), nb = points_##SUF(b, n, pb);                       \
    return overlap(pa, na, pb, nb);                                                           \
  }                                                                                           \
  T ic_poly_ratio_##SUF(T area_a, T area_b, double overlap_area) {                            \
    const T inter = (T)overlap_area;                                                          \
    if (area_a == 0 || area_b == 0 || inter == 0) return (T)0;                                \
    return inter / (area_a + area_b - inter);                                                 \
  }                                                                                           \
  T ic_poly_iou_##SUF(const T *a, const T *b, int D, bool *bad) {                             \
    const int n = D / 2;                                                                      \
    if (ic_poly_self_crossing_##SUF(a, n) || ic_poly_self_crossing_##SUF(b, n)) {             \
      *bad = true;                                                                            \
      return (T)0;                                                                            \
    }                                                                                         \
    return ic_poly_ratio_##SUF(ic_poly_area_##SUF(a, n), ic_poly_area_##SUF(b, n),            \
                               ic_poly_overlap_##SUF(b, a, n));                               \
  }

POLY_DEFINE(f32, float)
POLY_DEFINE(f64, double)
