/* Polygon overlap for the NMS ops that take polygon boxes (multiclass_nms*, locality_aware_nms):
 * Paddle's PolyIoU (paddle/phi/kernels/funcs/detection/nms_util.h), whose overlap Paddle gets
 * from gpc clipping. A box of D = 8, 16, 24 or 32 values is a polygon of D / 2 points
 * [x1, y1, x2, y2, ...], either orientation (polyiou.c has the method). */
#ifndef IC_KERNELS_CPU_POLYIOU_H
#define IC_KERNELS_CPU_POLYIOU_H

#include <stdbool.h>

#define IC_POLY_MAX_POINTS 16

/* Whether the closed polygon xy (n points, x and y interleaved) is not simple: repeated
 * consecutive points merged, two edges that are not neighbours meet (cross or touch). Its
 * overlap is refused. */
bool ic_poly_self_crossing_f32(const float *xy, int n);
bool ic_poly_self_crossing_f64(const double *xy, int n);

/* Paddle's PolyArea: the shoelace area of n points, summed in the input's precision. */
float ic_poly_area_f32(const float *xy, int n);
double ic_poly_area_f64(const double *xy, int n);

/* The area of the intersection of simple polygons a and b (n points each), in double. */
double ic_poly_overlap_f32(const float *a, const float *b, int n);
double ic_poly_overlap_f64(const double *a, const double *b, int n);

/* PolyIoU from the two areas and the overlap, in the input's precision: 0 when any of them is
 * 0 (the overlap rounded to that precision first). */
float ic_poly_ratio_f32(float area_a, float area_b, double overlap);
double ic_poly_ratio_f64(double area_a, double area_b, double overlap);

/* PolyIoU of polygons a and b of D values (8, 16, 24 or 32); *bad is set, and 0 returned,
 * when either crosses itself. `normalized` plays no part, as in Paddle. */
float ic_poly_iou_f32(const float *a, const float *b, int D, bool *bad);
double ic_poly_iou_f64(const double *a, const double *b, int D, bool *bad);

#endif
