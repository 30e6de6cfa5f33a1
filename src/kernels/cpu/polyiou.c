/* Polygon overlap (polyiou.h) shared by multiclass_nms* (nms.c) and locality_aware_nms.
 *
 * Paddle's PolyIoU: each polygon's area by the shoelace formula in the input's precision; 0
 * when either area or the overlap is 0; else overlap / (area_a + area_b - overlap). Paddle
 * gets the overlap from gpc clipping; here it is computed in double as the sum over the pairs
 * of fan triangles (p0, pi, pi+1) x (q0, qj, qj+1) of the two polygons of their clipped
 * (Sutherland-Hodgman) areas, signed by the triangles' orientations: the integral of the
 * product of the two winding numbers, which is the overlap area of simple polygons of either
 * orientation, convex or not. That is where gpc agrees with it; the two may differ in the
 * last bits, which matters only for an IoU within rounding of a threshold. A polygon that is
 * not simple (its boundary crosses or touches itself), where gpc fills by even-odd parity and
 * Paddle sums the areas of the contours it returns, holes included, is detected and left to
 * the caller to refuse: a bow tie of lobes 1/3 and 4/3 (shoelace area 1) against the unit
 * square has IoU 5/19 in Paddle 3.3.1, the winding numbers would give 1/7. */
#include "kernels/cpu/polyiou.h"

#include <math.h>
#include <string.h>

typedef struct pt {
  double x, y;
} pt;

static double cross3(pt o, pt a, pt b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

static int sign(double v) { return (v > 0) - (v < 0); }

/* Whether p, on the line through a and b, lies on the segment ab. */
static bool within(pt a, pt b, pt p) {
  return (a.x < b.x ? a.x : b.x) <= p.x && p.x <= (a.x < b.x ? b.x : a.x) &&
         (a.y < b.y ? a.y : b.y) <= p.y && p.y <= (a.y < b.y ? b.y : a.y);
}

/* Whether the closed segments ab and cd have a point in common (crossing or touching). */
static bool meet(pt a, pt b, pt c, pt d) {
  const int d1 = sign(cross3(a, b, c)), d2 = sign(cross3(a, b, d)), d3 = sign(cross3(c, d, a)),
            d4 = sign(cross3(c, d, b));
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (d1 == 0 && within(a, b, c)) || (d2 == 0 && within(a, b, d)) ||
         (d3 == 0 && within(c, d, a)) || (d4 == 0 && within(c, d, b));
}

/* Whether the closed polygon p (n points) is not simple: once repeated consecutive points are
 * merged, two edges that are not neighbours have a point in common. That covers a proper
 * crossing and also a boundary that passes through one of its own points (a figure eight
 * pinched at a vertex), where the lobes may turn opposite ways: the overlap below then counts
 * winding numbers of -1 where gpc's even-odd filling counts +1. */
static bool self_crossing(const pt *p, int n) {
  pt q[IC_POLY_MAX_POINTS];
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (m == 0 || p[i].x != q[m - 1].x || p[i].y != q[m - 1].y) q[m++] = p[i];
  }
  while (m > 1 && q[m - 1].x == q[0].x && q[m - 1].y == q[0].y) m--;
  for (int i = 0; i < m; i++) {
    for (int j = i + 2; j < m; j++) {
      if (i == 0 && j == m - 1) continue; /* neighbours through the closing edge */
      if (meet(q[i], q[(i + 1) % m], q[j], q[(j + 1) % m])) return true;
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
