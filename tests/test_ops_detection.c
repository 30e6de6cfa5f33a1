/* Detection ops: prior_box, density_prior_box, box_coder, yolo_box, anchor_generator,
 * box_clip, roi_align, roi_pool, psroi_pool, multiclass_nms, multiclass_nms3, matrix_nms,
 * distribute_fpn_proposals, collect_fpn_proposals, generate_proposals_v2 (roi_pool and
 * psroi_pool against the Paddle oracle, here their LoD path and errors). Each is checked against a reference written here in
 * double precision from Paddle's documented semantics (paddle/phi/kernels/cpu/), in every executor
 * configuration (tu_run), for every attribute mode; bad attributes and shapes must fail naming the
 * op and what is wrong. */
#include <math.h>

#include "kernels/cpu/polyiou.h"
#include "optest.h"

#define F32S(...) ((const float[]){__VA_ARGS__})
#define NF(...) (sizeof((const float[]){__VA_ARGS__}) / sizeof(float)), F32S(__VA_ARGS__)

static double rnd(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(*s >> 11) / 9007199254740992.0;
}

static ic_tensor *rand_t(ic_dtype dt, int nd, const int64_t *dims, uint64_t seed, double lo,
                         double hi) {
  int64_t n = ot_numel(nd, dims);
  double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
  for (int64_t i = 0; i < n; i++) v[i] = lo + (hi - lo) * rnd(&seed);
  ic_tensor *t;
  if (dt == IC_FP64) {
    t = tu_f64(nd, dims, v);
  } else {
    float *f = malloc((size_t)(n ? n : 1) * sizeof *f);
    for (int64_t i = 0; i < n; i++) f[i] = (float)v[i];
    t = tu_f32(nd, dims, f);
    free(f);
  }
  free(v);
  return t;
}

/* ------------------------------------------------------------------ prior_box */

typedef struct pb_case {
  size_t n_min, n_max, n_ar;
  float min[3], max[3], ar[4];
  bool flip, clip, mm;
  float step_w, step_h, offset;
  float var[4];
} pb_case;

/* Expanded aspect ratios: 1, then each new ratio and (flip) its reciprocal. */
static size_t expand_ar(const pb_case *p, double *out) {
  size_t n = 0;
  out[n++] = 1.0;
  for (size_t i = 0; i < p->n_ar; i++) {
    bool dup = false;
    for (size_t k = 0; k < n; k++) dup |= fabs(p->ar[i] - out[k]) < 1e-6;
    if (dup) continue;
    out[n++] = p->ar[i];
    if (p->flip) out[n++] = 1.0 / p->ar[i];
  }
  return n;
}

static void prior_box_case(ic_dtype dt, const pb_case *p, int64_t H, int64_t W, int64_t IH,
                           int64_t IW) {
  double ars[16];
  size_t n_ar = expand_ar(p, ars);
  const int64_t np = (int64_t)(n_ar * p->n_min + p->n_max);
  optest t;
  ot_begin(&t);
  ot_feed(&t, "feat", rand_t(dt, 4, TU_DIMS(2, 3, H, W), 1, 0, 1));
  ot_feed(&t, "img", rand_t(dt, 4, TU_DIMS(2, 3, IH, IW), 2, 0, 1));
  ot_op(&t, "prior_box");
  ic_builder_in(t.op, "Input", "feat");
  ic_builder_in(t.op, "Image", "img");
  ic_builder_attr_floats(t.op, "min_sizes", p->n_min, p->min);
  if (p->n_max) ic_builder_attr_floats(t.op, "max_sizes", p->n_max, p->max);
  ic_builder_attr_floats(t.op, "aspect_ratios", p->n_ar, p->ar);
  ic_builder_attr_floats(t.op, "variances", 4, p->var);
  ic_builder_attr_bool(t.op, "flip", p->flip);
  ic_builder_attr_bool(t.op, "clip", p->clip);
  ic_builder_attr_float(t.op, "step_w", p->step_w);
  ic_builder_attr_float(t.op, "step_h", p->step_h);
  ic_builder_attr_float(t.op, "offset", p->offset);
  ic_builder_attr_bool(t.op, "min_max_aspect_ratios_order", p->mm);
  ot_out(&t, "Boxes", "boxes");
  ot_out(&t, "Variances", "vars");
  ot_ok(&t);
  const int64_t n = H * W * np * 4;
  double *rb = malloc((size_t)n * sizeof *rb), *rv = malloc((size_t)n * sizeof *rv);
  double sw = p->step_w, sh = p->step_h;
  if (sw == 0 || sh == 0) sw = (double)IW / (double)W, sh = (double)IH / (double)H;
  int64_t k = 0;
  for (int64_t h = 0; h < H; h++) {
    for (int64_t w = 0; w < W; w++) {
      double cx = (w + p->offset) * sw, cy = (h + p->offset) * sh;
      double half[64][2];
      int nb = 0;
      for (size_t s = 0; s < p->n_min; s++) {
        double m = p->min[s];
        if (p->mm) {
          half[nb][0] = half[nb][1] = m / 2, nb++;
          if (p->n_max) half[nb][0] = half[nb][1] = sqrt(m * p->max[s]) / 2, nb++;
          for (size_t r = 0; r < n_ar; r++) {
            if (ars[r] == 1.0) continue;
            half[nb][0] = m * sqrt(ars[r]) / 2, half[nb][1] = m / sqrt(ars[r]) / 2, nb++;
          }
        } else {
          for (size_t r = 0; r < n_ar; r++) {
            half[nb][0] = m * sqrt(ars[r]) / 2, half[nb][1] = m / sqrt(ars[r]) / 2, nb++;
          }
          if (p->n_max) half[nb][0] = half[nb][1] = sqrt(m * p->max[s]) / 2, nb++;
        }
      }
      ck_assert_int_eq(nb, np);
      for (int b = 0; b < nb; b++) {
        double v[4] = {(cx - half[b][0]) / IW, (cy - half[b][1]) / IH, (cx + half[b][0]) / IW,
                       (cy + half[b][1]) / IH};
        for (int q = 0; q < 4; q++) {
          if (p->clip) v[q] = fmin(fmax(v[q], 0), 1);
          rv[k] = p->var[q];
          rb[k++] = v[q];
        }
      }
    }
  }
  tu_assert_shape(t.out[0], dt, 4, TU_DIMS(H, W, np, 4));
  tu_assert_shape(t.out[1], dt, 4, TU_DIMS(H, W, np, 4));
  double tol = dt == IC_FP64 ? 1e-7 : 2e-6;
  tu_assert_close(t.out[0], rb, (size_t)n, tol, tol);
  tu_assert_close(t.out[1], rv, (size_t)n, 1e-7, 0);
  free(rb);
  free(rv);
  ot_end(&t);
}

START_TEST(prior_box_modes) {
  /* SSD-style: max sizes, flipped ratios (2 and 3), default order, automatic steps */
  pb_case a = {.n_min = 2, .n_max = 2, .n_ar = 2, .min = {16, 32}, .max = {32, 64},
               .ar = {2, 3}, .flip = true, .offset = 0.5f, .var = {0.1f, 0.1f, 0.2f, 0.2f}};
  prior_box_case(IC_FP64, &a, 3, 4, 48, 64);
  prior_box_case(IC_FP32, &a, 3, 4, 48, 64);
  /* Caffe order, clipping, explicit steps and offset, a repeated ratio, no flip */
  pb_case b = {.n_min = 1, .n_max = 1, .n_ar = 3, .min = {40}, .max = {90}, .ar = {2, 1, 2},
               .clip = true, .mm = true, .step_w = 10, .step_h = 12, .offset = 0.25f,
               .var = {0.5f, 0.25f, 1, 2}};
  prior_box_case(IC_FP64, &b, 4, 5, 40, 50);
  /* no max sizes, one ratio of 1 (BlazeFace style), Caffe order with flip */
  pb_case c = {.n_min = 3, .n_ar = 1, .min = {8, 12, 20}, .ar = {1}, .flip = true, .mm = true,
               .offset = 0.5f, .var = {0.1f, 0.1f, 0.2f, 0.2f}};
  prior_box_case(IC_FP64, &c, 2, 2, 16, 16);
  /* clip in default order with a fractional ratio and one explicit step of 0 (auto) */
  pb_case d = {.n_min = 1, .n_ar = 1, .min = {30}, .ar = {0.5f}, .flip = true, .clip = true,
               .step_w = 0, .step_h = 9, .offset = 0.5f, .var = {1, 1, 1, 1}};
  prior_box_case(IC_FP64, &d, 2, 3, 20, 30);
}
END_TEST

static void prior_box_bad(const char *attr, size_t n, const float *v, const char *needle) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "feat", rand_t(IC_FP32, 4, TU_DIMS(1, 1, 2, 2), 1, 0, 1));
  ot_feed(&t, "img", rand_t(IC_FP32, 4, TU_DIMS(1, 1, 8, 8), 2, 0, 1));
  ot_op(&t, "prior_box");
  ic_builder_in(t.op, "Input", "feat");
  ic_builder_in(t.op, "Image", "img");
  ic_builder_attr_floats(t.op, "min_sizes", NF(4, 6));
  if (strcmp(attr, "min_sizes") == 0) ic_builder_attr_floats(t.op, "min_sizes", n, v);
  else if (attr[0]) ic_builder_attr_floats(t.op, attr, n, v);
  ot_out(&t, "Boxes", "boxes");
  ot_out(&t, "Variances", "vars");
  ck_assert_int_ne(ot_run(&t), IC_OK);
  tu_assert_msg(t.err, "prior_box", attr, needle, NULL);
  ot_end(&t);
}

START_TEST(prior_box_errors) {
  prior_box_bad("max_sizes", NF(8), "expected one per min size");
  prior_box_bad("max_sizes", NF(8, 5), "expected more than min size");
  prior_box_bad("variances", NF(0.1f, 0.2f), "expected 4");
  prior_box_bad("min_sizes", NF(-1), "expected > 0");
  /* rank of Input */
  optest t;
  ot_begin(&t);
  ot_feed(&t, "feat", rand_t(IC_FP32, 3, TU_DIMS(1, 2, 2), 1, 0, 1));
  ot_feed(&t, "img", rand_t(IC_FP32, 4, TU_DIMS(1, 1, 8, 8), 2, 0, 1));
  ot_op(&t, "prior_box");
  ic_builder_in(t.op, "Input", "feat");
  ic_builder_in(t.op, "Image", "img");
  ic_builder_attr_floats(t.op, "min_sizes", NF(4));
  ot_out(&t, "Boxes", "boxes");
  ot_out(&t, "Variances", "vars");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "prior_box", "Input", "'feat'", "rank 4", NULL);
  ot_end(&t);
}
END_TEST

/* ------------------------------------------------------------------ box_coder */

typedef enum { VAR_NONE, VAR_ATTR, VAR_INPUT } var_mode;

/* Boxes with x0 < x1, y0 < y1 (n rows of 4). */
static ic_tensor *rand_boxes(ic_dtype dt, int nd, const int64_t *dims, uint64_t seed) {
  ic_tensor *t = rand_t(dt, nd, dims, seed, 0, 1);
  int64_t n = ic_tensor_numel(t) / 4;
  for (int64_t i = 0; i < n; i++) {
    double v[4];
    for (int q = 0; q < 4; q++) v[q] = ot_val(t, i * 4 + q);
    double x0 = v[0] * 20, y0 = v[1] * 20, w = 1 + v[2] * 10, h = 1 + v[3] * 10;
    double o[4] = {x0, y0, x0 + w, y0 + h};
    for (int q = 0; q < 4; q++) {
      if (dt == IC_FP64) ((double *)ic_tensor_data(t))[i * 4 + q] = o[q];
      else ((float *)ic_tensor_data(t))[i * 4 + q] = (float)o[q];
    }
  }
  return t;
}

static void box_coder_case(ic_dtype dt, bool decode, bool normalized, int axis, var_mode vm) {
  const int64_t N = 3, M = 4;
  const float var_attr[4] = {0.1f, 0.2f, 0.5f, 0.25f};
  const int64_t PM = decode && axis == 1 ? N : M;
  ic_tensor *prior = rand_boxes(dt, 2, TU_DIMS(PM, 4), 11);
  ic_tensor *pvar = rand_t(dt, 2, TU_DIMS(PM, 4), 12, 0.1, 1.0);
  ic_tensor *target = decode ? rand_t(dt, 3, TU_DIMS(N, M, 4), 13, -1, 1)
                             : rand_boxes(dt, 2, TU_DIMS(N, 4), 14);
  optest t;
  ot_begin(&t);
  ot_feed(&t, "prior", prior);
  if (vm == VAR_INPUT) ot_feed(&t, "pvar", pvar);
  ot_feed(&t, "target", target);
  ot_op(&t, "box_coder");
  ic_builder_in(t.op, "PriorBox", "prior");
  if (vm == VAR_INPUT) ic_builder_in(t.op, "PriorBoxVar", "pvar");
  ic_builder_in(t.op, "TargetBox", "target");
  ic_builder_attr_string(t.op, "code_type", decode ? "decode_center_size" : "encode_center_size");
  ic_builder_attr_bool(t.op, "box_normalized", normalized);
  ic_builder_attr_int(t.op, "axis", axis);
  if (vm == VAR_ATTR) ic_builder_attr_floats(t.op, "variance", 4, var_attr);
  ot_out(&t, "OutputBox", "out");
  ot_ok(&t);
  double *ref = malloc((size_t)(N * M * 4) * sizeof *ref);
  const double one = normalized ? 0 : 1;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < M; j++) {
      int64_t pj = decode && axis == 1 ? i : j;
      double p[4], v[4] = {1, 1, 1, 1};
      for (int q = 0; q < 4; q++) {
        p[q] = ot_val(prior, pj * 4 + q);
        if (vm == VAR_ATTR) v[q] = var_attr[q];
        if (vm == VAR_INPUT) v[q] = ot_val(pvar, pj * 4 + q);
      }
      double pw = p[2] - p[0] + one, ph = p[3] - p[1] + one;
      double pcx = p[0] + pw / 2, pcy = p[1] + ph / 2;
      double *r = ref + (i * M + j) * 4;
      if (!decode) {
        double b[4];
        for (int q = 0; q < 4; q++) b[q] = ot_val(target, i * 4 + q);
        double bw = b[2] - b[0] + one, bh = b[3] - b[1] + one;
        r[0] = ((b[0] + b[2]) / 2 - pcx) / pw / v[0];
        r[1] = ((b[1] + b[3]) / 2 - pcy) / ph / v[1];
        r[2] = log(bw / pw) / v[2];
        r[3] = log(bh / ph) / v[3];
      } else {
        double d[4];
        for (int q = 0; q < 4; q++) d[q] = ot_val(target, (i * M + j) * 4 + q);
        double cx = v[0] * d[0] * pw + pcx, cy = v[1] * d[1] * ph + pcy;
        double w = exp(v[2] * d[2]) * pw, h = exp(v[3] * d[3]) * ph;
        r[0] = cx - w / 2, r[1] = cy - h / 2, r[2] = cx + w / 2 - one, r[3] = cy + h / 2 - one;
      }
    }
  }
  tu_assert_shape(t.out[0], dt, 3, TU_DIMS(N, M, 4));
  double tol = dt == IC_FP64 ? 1e-12 : 2e-5;
  tu_assert_close(t.out[0], ref, (size_t)(N * M * 4), tol, tol);
  free(ref);
  if (vm != VAR_INPUT) ic_tensor_destroy(pvar);
  ot_end(&t);
}

START_TEST(box_coder_modes) {
  for (int dec = 0; dec < 2; dec++) {
    for (int nz = 0; nz < 2; nz++) {
      for (int vm = VAR_NONE; vm <= VAR_INPUT; vm++) {
        for (int axis = 0; axis < (dec ? 2 : 1); axis++) {
          box_coder_case(IC_FP64, dec, nz, axis, (var_mode)vm);
        }
      }
    }
  }
  box_coder_case(IC_FP32, true, true, 0, VAR_INPUT);
  box_coder_case(IC_FP32, false, false, 0, VAR_ATTR);
}
END_TEST

static void box_coder_bad(ic_tensor *prior, ic_tensor *pvar, ic_tensor *target, const char *code,
                          int axis, size_t n_var, ic_status want, const char *n1, const char *n2) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "prior", prior);
  if (pvar) ot_feed(&t, "pvar", pvar);
  ot_feed(&t, "target", target);
  ot_op(&t, "box_coder");
  ic_builder_in(t.op, "PriorBox", "prior");
  if (pvar) ic_builder_in(t.op, "PriorBoxVar", "pvar");
  ic_builder_in(t.op, "TargetBox", "target");
  ic_builder_attr_string(t.op, "code_type", code);
  ic_builder_attr_int(t.op, "axis", axis);
  if (n_var) ic_builder_attr_floats(t.op, "variance", n_var, F32S(1, 1, 1, 1, 1));
  ot_out(&t, "OutputBox", "out");
  ck_assert_int_eq(ot_run(&t), want);
  tu_assert_msg(t.err, "box_coder", n1, n2, NULL);
  ot_end(&t);
}

START_TEST(box_coder_errors) {
  const char *dec = "decode_center_size", *enc = "encode_center_size";
  box_coder_bad(rand_boxes(IC_FP32, 2, TU_DIMS(4, 4), 1), NULL,
                rand_t(IC_FP32, 3, TU_DIMS(2, 3, 4), 2, 0, 1), dec, 0, 0, IC_ERR_SHAPE,
                "'target'", "PriorBox's 4 priors");
  box_coder_bad(rand_boxes(IC_FP32, 2, TU_DIMS(4, 4), 1), NULL,
                rand_t(IC_FP32, 3, TU_DIMS(2, 4, 4), 2, 0, 1), enc, 0, 0, IC_ERR_SHAPE,
                "'target'", "[N, 4]");
  box_coder_bad(rand_boxes(IC_FP32, 2, TU_DIMS(4, 4), 1), NULL,
                rand_boxes(IC_FP32, 2, TU_DIMS(2, 4), 2), "corner_size", 0, 0,
                IC_ERR_INVALID_PROGRAM, "code_type", "'corner_size'");
  box_coder_bad(rand_boxes(IC_FP32, 2, TU_DIMS(4, 4), 1), NULL,
                rand_boxes(IC_FP32, 2, TU_DIMS(2, 4), 2), enc, 2, 0, IC_ERR_INVALID_PROGRAM,
                "axis", "expected 0 or 1");
  box_coder_bad(rand_boxes(IC_FP32, 2, TU_DIMS(4, 4), 1), NULL,
                rand_boxes(IC_FP32, 2, TU_DIMS(2, 4), 2), enc, 0, 5, IC_ERR_INVALID_PROGRAM,
                "variance", "expected 4");
  box_coder_bad(rand_boxes(IC_FP32, 2, TU_DIMS(4, 4), 1),
                rand_t(IC_FP32, 2, TU_DIMS(4, 4), 3, 0, 1),
                rand_boxes(IC_FP32, 2, TU_DIMS(2, 4), 2), enc, 0, 4, IC_ERR_SHAPE, "'pvar'",
                "together with the 'variance' attribute");
  box_coder_bad(rand_boxes(IC_FP32, 2, TU_DIMS(4, 4), 1),
                rand_t(IC_FP32, 2, TU_DIMS(3, 4), 3, 0, 1),
                rand_boxes(IC_FP32, 2, TU_DIMS(2, 4), 2), enc, 0, 0, IC_ERR_SHAPE, "'pvar'",
                "[4, 4]");
}
END_TEST

/* ------------------------------------------------------------------ yolo_box */

static double sigmoid(double v) { return 1 / (1 + exp(-v)); }

static void yolo_case(ic_dtype dt, bool iou_aware, bool clip, float scale, float conf_thresh,
                      int ds) {
  const int64_t N = 2, A = 2, C = 3, H = 3, W = 4, E = C + (iou_aware ? 6 : 5);
  const int anchors[4] = {10, 13, 30, 61};
  const int32_t imgs[4] = {50, 70, 96, 40};
  ic_tensor *x = rand_t(dt, 4, TU_DIMS(N, A * E, H, W), 21, -3, 3);
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", x);
  ot_feed(&t, "img", tu_i32(2, TU_DIMS(N, 2), imgs));
  ot_op(&t, "yolo_box");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "ImgSize", "img");
  ic_builder_attr_ints(t.op, "anchors", 4, (const int32_t[]){10, 13, 30, 61});
  ic_builder_attr_int(t.op, "class_num", (int)C);
  ic_builder_attr_float(t.op, "conf_thresh", conf_thresh);
  ic_builder_attr_int(t.op, "downsample_ratio", ds);
  ic_builder_attr_bool(t.op, "clip_bbox", clip);
  ic_builder_attr_float(t.op, "scale_x_y", scale);
  ic_builder_attr_bool(t.op, "iou_aware", iou_aware);
  ic_builder_attr_float(t.op, "iou_aware_factor", 0.4f);
  ot_out(&t, "Boxes", "boxes");
  ot_out(&t, "Scores", "scores");
  ot_ok(&t);
  const int64_t nb = A * H * W;
  double *rb = calloc((size_t)(N * nb * 4), sizeof *rb),
         *rs = calloc((size_t)(N * nb * C), sizeof *rs);
  int kept = 0;
  for (int64_t n = 0; n < N; n++) {
    double ih = imgs[2 * n], iw = imgs[2 * n + 1];
    for (int64_t a = 0; a < A; a++) {
      for (int64_t k = 0; k < H; k++) {
        for (int64_t l = 0; l < W; l++) {
          /* channel ch of anchor a at (k, l), after the A IoU channels when iou_aware */
#define XV(ch) ot_val(x, ((n * A * E + (iou_aware ? A : 0) + a * (C + 5) + (ch)) * H + k) * W + l)
          double conf = sigmoid(XV(4));
          if (iou_aware) {
            double iou = sigmoid(ot_val(x, ((n * A * E + a) * H + k) * W + l));
            conf = pow(conf, 1.0 - (double)0.4f) *
                   pow(iou, (double)0.4f); /* the attribute is a float */
          }
          if (conf < conf_thresh) continue;
          kept++;
          double bias = (float)(-0.5f * (scale - 1.f)); /* Paddle keeps it in float */
          double cx = (l + sigmoid(XV(0)) * scale + bias) * iw / W;
          double cy = (k + sigmoid(XV(1)) * scale + bias) * ih / H;
          double bw = exp(XV(2)) * anchors[2 * a] * iw / (ds * W);
          double bh = exp(XV(3)) * anchors[2 * a + 1] * ih / (ds * H);
          double b[4] = {cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2};
          if (clip) {
            b[0] = fmax(b[0], 0), b[1] = fmax(b[1], 0);
            b[2] = fmin(b[2], iw - 1), b[3] = fmin(b[3], ih - 1);
          }
          int64_t bi = n * nb + a * H * W + k * W + l;
          for (int q = 0; q < 4; q++) rb[bi * 4 + q] = b[q];
          for (int64_t c = 0; c < C; c++) rs[bi * C + c] = conf * sigmoid(XV(5 + c));
#undef XV
        }
      }
    }
  }
  ck_assert_msg(kept > 0 && (conf_thresh == 0 || kept < N * nb), "case exercises the threshold");
  tu_assert_shape(t.out[0], dt, 3, TU_DIMS(N, nb, 4));
  tu_assert_shape(t.out[1], dt, 3, TU_DIMS(N, nb, C));
  double tol = dt == IC_FP64 ? 1e-10 : 1e-5;
  tu_assert_close(t.out[0], rb, (size_t)(N * nb * 4), tol, tol * 100);
  tu_assert_close(t.out[1], rs, (size_t)(N * nb * C), tol, tol);
  free(rb);
  free(rs);
  ot_end(&t);
}

START_TEST(yolo_box_modes) {
  yolo_case(IC_FP64, false, true, 1.0f, 0.5f, 32);
  yolo_case(IC_FP64, false, false, 1.05f, 0.3f, 16);
  yolo_case(IC_FP64, true, true, 1.2f, 0.4f, 8);
  yolo_case(IC_FP64, true, false, 1.0f, 0.0f, 32);
  yolo_case(IC_FP32, false, true, 1.1f, 0.5f, 32);
}
END_TEST

START_TEST(yolo_box_errors) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", rand_t(IC_FP32, 4, TU_DIMS(1, 15, 2, 2), 1, 0, 1));
  ot_feed(&t, "img", tu_i32(2, TU_DIMS(1, 2), (const int32_t[]){8, 8}));
  ot_op(&t, "yolo_box");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "ImgSize", "img");
  ic_builder_attr_ints(t.op, "anchors", 4, (const int32_t[]){1, 2, 3, 4});
  ic_builder_attr_int(t.op, "class_num", 3);
  ot_out(&t, "Boxes", "b");
  ot_out(&t, "Scores", "s");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "yolo_box", "'x'", "expected 16 channels", NULL);
  ot_end(&t);

  ot_begin(&t);
  ot_feed(&t, "x", rand_t(IC_FP32, 4, TU_DIMS(1, 8, 2, 2), 1, 0, 1));
  ot_feed(&t, "img", tu_i32(2, TU_DIMS(1, 2), (const int32_t[]){8, 8}));
  ot_op(&t, "yolo_box");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "ImgSize", "img");
  ic_builder_attr_ints(t.op, "anchors", 3, (const int32_t[]){1, 2, 3});
  ic_builder_attr_int(t.op, "class_num", 3);
  ot_out(&t, "Boxes", "b");
  ot_out(&t, "Scores", "s");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "yolo_box", "anchors", "even", NULL);
  ot_end(&t);

  ot_begin(&t);
  ot_feed(&t, "x", rand_t(IC_FP32, 4, TU_DIMS(2, 8, 2, 2), 1, 0, 1));
  ot_feed(&t, "img", tu_i32(2, TU_DIMS(1, 2), (const int32_t[]){8, 8}));
  ot_op(&t, "yolo_box");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "ImgSize", "img");
  ic_builder_attr_ints(t.op, "anchors", 2, (const int32_t[]){1, 2});
  ic_builder_attr_int(t.op, "class_num", 3);
  ot_out(&t, "Boxes", "b");
  ot_out(&t, "Scores", "s");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "yolo_box", "ImgSize", "'img'", "[2, 2]", NULL);
  ot_end(&t);
}
END_TEST

/* ------------------------------------------------------------------ density_prior_box */

static void density_case(ic_dtype dt, bool clip, bool flatten, float step_w, float step_h,
                         float offset) {
  const int64_t H = 2, W = 3, IH = 40, IW = 48;
  const float sizes[2] = {16, 32}, ratios[2] = {1, 2}, vars[4] = {0.1f, 0.1f, 0.2f, 0.2f};
  const int32_t dens[2] = {2, 1};
  optest t;
  ot_begin(&t);
  ot_feed(&t, "feat", rand_t(dt, 4, TU_DIMS(1, 2, H, W), 1, 0, 1));
  ot_feed(&t, "img", rand_t(dt, 4, TU_DIMS(1, 3, IH, IW), 2, 0, 1));
  ot_op(&t, "density_prior_box");
  ic_builder_in(t.op, "Input", "feat");
  ic_builder_in(t.op, "Image", "img");
  ic_builder_attr_floats(t.op, "fixed_sizes", 2, sizes);
  ic_builder_attr_floats(t.op, "fixed_ratios", 2, ratios);
  ic_builder_attr_ints(t.op, "densities", 2, dens);
  ic_builder_attr_floats(t.op, "variances", 4, vars);
  ic_builder_attr_bool(t.op, "clip", clip);
  ic_builder_attr_bool(t.op, "flatten_to_2d", flatten);
  ic_builder_attr_float(t.op, "step_w", step_w);
  ic_builder_attr_float(t.op, "step_h", step_h);
  ic_builder_attr_float(t.op, "offset", offset);
  ot_out(&t, "Boxes", "boxes");
  ot_out(&t, "Variances", "vars");
  ot_ok(&t);
  const int64_t np = 2 * (4 + 1), n = H * W * np * 4;
  double *rb = malloc((size_t)n * sizeof *rb);
  double sw = step_w, sh = step_h;
  if (sw == 0 || sh == 0) sw = (double)IW / W, sh = (double)IH / H;
  int avg = (int)((sw + sh) / 2);
  int64_t k = 0;
  for (int64_t h = 0; h < H; h++) {
    for (int64_t w = 0; w < W; w++) {
      double cx = (w + offset) * sw, cy = (h + offset) * sh;
      for (int s = 0; s < 2; s++) {
        int shift = avg / dens[s];
        for (int r = 0; r < 2; r++) {
          double bw = sizes[s] * sqrt(ratios[r]), bh = sizes[s] / sqrt(ratios[r]);
          for (int di = 0; di < dens[s]; di++) {
            for (int dj = 0; dj < dens[s]; dj++) {
              double x = cx - avg / 2.0 + shift / 2.0 + dj * shift;
              double y = cy - avg / 2.0 + shift / 2.0 + di * shift;
              double v[4] = {fmax((x - bw / 2) / IW, 0), fmax((y - bh / 2) / IH, 0),
                             fmin((x + bw / 2) / IW, 1), fmin((y + bh / 2) / IH, 1)};
              for (int q = 0; q < 4; q++) rb[k++] = clip ? fmin(fmax(v[q], 0), 1) : v[q];
            }
          }
        }
      }
    }
  }
  if (flatten) tu_assert_shape(t.out[0], dt, 2, TU_DIMS(H * W * np, 4));
  else tu_assert_shape(t.out[0], dt, 4, TU_DIMS(H, W, np, 4));
  tu_assert_close(t.out[0], rb, (size_t)n, 1e-6, 1e-6);
  for (int64_t i = 0; i < n; i++) rb[i] = vars[i % 4];
  tu_assert_close(t.out[1], rb, (size_t)n, 1e-7, 0);
  free(rb);
  ot_end(&t);
}

START_TEST(density_prior_box_modes) {
  density_case(IC_FP64, true, false, 0, 0, 0.5f);
  density_case(IC_FP64, false, true, 16, 20, 0.25f);
  density_case(IC_FP32, false, false, 0, 0, 0.5f);
}
END_TEST

START_TEST(density_prior_box_errors) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "feat", rand_t(IC_FP32, 4, TU_DIMS(1, 2, 2, 2), 1, 0, 1));
  ot_feed(&t, "img", rand_t(IC_FP32, 4, TU_DIMS(1, 3, 8, 8), 2, 0, 1));
  ot_op(&t, "density_prior_box");
  ic_builder_in(t.op, "Input", "feat");
  ic_builder_in(t.op, "Image", "img");
  ic_builder_attr_floats(t.op, "fixed_sizes", 2, F32S(4, 8));
  ic_builder_attr_floats(t.op, "fixed_ratios", 1, F32S(1));
  ic_builder_attr_ints(t.op, "densities", 1, (const int32_t[]){2});
  ic_builder_attr_floats(t.op, "variances", 4, F32S(0.1f, 0.1f, 0.2f, 0.2f));
  ot_out(&t, "Boxes", "boxes");
  ot_out(&t, "Variances", "vars");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "density_prior_box", "densities", "one per fixed size", NULL);
  ot_end(&t);
}
END_TEST

/* ------------------------------------------------------------------ anchor_generator */

static void anchor_case(ic_dtype dt, size_t n_sizes, const float *sizes, size_t n_ratios,
                        const float *ratios, float sw, float sh, float offset) {
  const int64_t H = 3, W = 2;
  const float vars[4] = {0.1f, 0.2f, 0.3f, 0.4f};
  optest t;
  ot_begin(&t);
  ot_feed(&t, "feat", rand_t(dt, 4, TU_DIMS(1, 2, H, W), 1, 0, 1));
  ot_op(&t, "anchor_generator");
  ic_builder_in(t.op, "Input", "feat");
  ic_builder_attr_floats(t.op, "anchor_sizes", n_sizes, sizes);
  ic_builder_attr_floats(t.op, "aspect_ratios", n_ratios, ratios);
  ic_builder_attr_floats(t.op, "variances", 4, vars);
  ic_builder_attr_floats(t.op, "stride", 2, (const float[]){sw, sh});
  ic_builder_attr_float(t.op, "offset", offset);
  ot_out(&t, "Anchors", "anc");
  ot_out(&t, "Variances", "var");
  ot_ok(&t);
  const int64_t na = (int64_t)(n_sizes * n_ratios), n = H * W * na * 4;
  double *ra = malloc((size_t)n * sizeof *ra), *rv = malloc((size_t)n * sizeof *rv);
  int64_t k = 0;
  for (int64_t h = 0; h < H; h++) {
    for (int64_t w = 0; w < W; w++) {
      double xc = w * sw + offset * (sw - 1), yc = h * sh + offset * (sh - 1);
      for (size_t r = 0; r < n_ratios; r++) {
        for (size_t q = 0; q < n_sizes; q++) {
          double bw = round(sqrt(sw * sh / ratios[r])), bh = round(bw * ratios[r]);
          double aw = sizes[q] / sw * bw, ah = sizes[q] / sh * bh;
          double v[4] = {xc - (aw - 1) / 2, yc - (ah - 1) / 2, xc + (aw - 1) / 2,
                         yc + (ah - 1) / 2};
          for (int e = 0; e < 4; e++) rv[k] = vars[e], ra[k++] = v[e];
        }
      }
    }
  }
  tu_assert_shape(t.out[0], dt, 4, TU_DIMS(H, W, na, 4));
  tu_assert_close(t.out[0], ra, (size_t)n, dt == IC_FP64 ? 1e-12 : 1e-6, 1e-6);
  tu_assert_close(t.out[1], rv, (size_t)n, 1e-7, 0);
  free(ra);
  free(rv);
  ot_end(&t);
}

START_TEST(anchor_generator_modes) {
  anchor_case(IC_FP64, 2, F32S(32, 64), 3, F32S(0.5f, 1, 2), 16, 16, 0.5f);
  anchor_case(IC_FP64, 1, F32S(48), 2, F32S(1, 3), 8, 12, 0.25f);
  anchor_case(IC_FP32, 3, F32S(16, 32, 64), 1, F32S(2), 4, 4, 0);
}
END_TEST

START_TEST(anchor_generator_errors) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "feat", rand_t(IC_FP32, 4, TU_DIMS(1, 2, 2, 2), 1, 0, 1));
  ot_op(&t, "anchor_generator");
  ic_builder_in(t.op, "Input", "feat");
  ic_builder_attr_floats(t.op, "stride", 1, F32S(16));
  ot_out(&t, "Anchors", "anc");
  ot_out(&t, "Variances", "var");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "anchor_generator", "stride", "expected 2", NULL);
  ot_end(&t);
}
END_TEST

/* ------------------------------------------------------------------ box_clip */

START_TEST(box_clip_images) {
  /* [N, M, 4] boxes, one image per row of ImInfo (height, width, scale) */
  const double boxes[] = {-5, 3, 70, 40, 10, -1, 20, 100,  /* image 0: 50 x 60 at scale 1 */
                          -1, -2, 30, 31, 5, 5, 6, 6};      /* image 1: 64 x 40 at scale 2 */
  optest t;
  ot_begin(&t);
  ot_feed(&t, "b", tu_f64(3, TU_DIMS(2, 2, 4), boxes));
  ot_feed(&t, "info", tu_f64(2, TU_DIMS(2, 3), (const double[]){50, 60, 1, 64, 41, 2}));
  ot_op(&t, "box_clip");
  ic_builder_in(t.op, "Input", "b");
  ic_builder_in(t.op, "ImInfo", "info");
  ot_out(&t, "Output", "out");
  ot_ok(&t);
  /* image 1: width round(41 / 2) - 1 = 20 (21 rounds half away), height 31 */
  const double want[] = {0, 3, 59, 40, 10, 0, 20, 49, 0, 0, 20, 31, 5, 5, 6, 6};
  tu_assert_shape(t.out[0], IC_FP64, 3, TU_DIMS(2, 2, 4));
  tu_assert_close(t.out[0], want, 16, 0, 0);
  ot_end(&t);

  ot_begin(&t);
  ot_feed(&t, "b",
          tu_f32(2, TU_DIMS(4, 4),
                 (const float[]){-5, 3, 70, 40, 10, -1, 20, 100, -1, -2, 30, 31, 5, 5, 6, 6}));
  ot_feed(&t, "info", tu_f32(2, TU_DIMS(2, 3), (const float[]){50, 60, 1, 64, 41, 2}));
  ot_op(&t, "box_clip");
  ic_builder_in(t.op, "Input", "b");
  ic_builder_in(t.op, "ImInfo", "info");
  ot_out(&t, "Output", "out");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "box_clip", "'b'", "no LoD", NULL);
  ot_end(&t);
}
END_TEST

/* ------------------------------------------------------------------ roi_align */

/* Bilinear value of plane d (H x W) at (y, x) as RoIAlign samples it: 0 outside
 * [-1, H] x [-1, W], else clamped to the map. */
static double bilinear(const ic_tensor *t, int64_t base, int64_t H, int64_t W, double y, double x) {
  if (y < -1 || y > H || x < -1 || x > W) return 0;
  y = fmax(y, 0), x = fmax(x, 0);
  int64_t y0 = (int64_t)floor(y), x0 = (int64_t)floor(x);
  if (y0 >= H - 1) y0 = H - 1, y = (double)y0;
  if (x0 >= W - 1) x0 = W - 1, x = (double)x0;
  int64_t y1 = y0 + 1 < H ? y0 + 1 : y0, x1 = x0 + 1 < W ? x0 + 1 : x0;
  double fy = y - y0, fx = x - x0;
  return (1 - fy) * (1 - fx) * ot_val(t, base + y0 * W + x0) +
         (1 - fy) * fx * ot_val(t, base + y0 * W + x1) +
         fy * (1 - fx) * ot_val(t, base + y1 * W + x0) + fy * fx * ot_val(t, base + y1 * W + x1);
}

typedef enum { SPLIT_NUM32, SPLIT_NUM64, SPLIT_NONE } split_mode;

static void roi_align_case(ic_dtype dt, bool aligned, int sampling, float scale, split_mode sm) {
  const int64_t N = sm == SPLIT_NONE ? 1 : 2, C = 3, H = 7, W = 9, PH = 2, PW = 3;
  const int64_t R = 5;
  const int64_t counts[2] = {sm == SPLIT_NONE ? 5 : 3, 2};
  ic_tensor *x = rand_t(dt, 4, TU_DIMS(N, C, H, W), 41, -1, 1);
  /* boxes in image coordinates (scale 1 / spatial_scale), one partly outside the map */
  double bv[5 * 4] = {2, 3, 20, 18, 0, 0, 30, 10, -6, -4, 8, 40, 12, 6, 13, 7, 4, 4, 4.5, 30};
  for (int i = 0; i < 20; i++) bv[i] /= (scale * 2);
  ic_tensor *rois;
  if (dt == IC_FP64) {
    rois = tu_f64(2, TU_DIMS(R, 4), bv);
  } else {
    float fv[20];
    for (int i = 0; i < 20; i++) fv[i] = (float)bv[i];
    rois = tu_f32(2, TU_DIMS(R, 4), fv);
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", x);
  ot_feed(&t, "rois", rois);
  if (sm == SPLIT_NUM32) ot_feed(&t, "num", tu_i32(1, TU_DIMS(2), (const int32_t[]){3, 2}));
  if (sm == SPLIT_NUM64) ot_feed(&t, "num", tu_i64(1, TU_DIMS(2), (const int64_t[]){3, 2}));
  ot_op(&t, "roi_align");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "ROIs", "rois");
  if (sm != SPLIT_NONE) ic_builder_in(t.op, "RoisNum", "num");
  ic_builder_attr_int(t.op, "pooled_height", (int)PH);
  ic_builder_attr_int(t.op, "pooled_width", (int)PW);
  ic_builder_attr_float(t.op, "spatial_scale", scale);
  ic_builder_attr_int(t.op, "sampling_ratio", sampling);
  ic_builder_attr_bool(t.op, "aligned", aligned);
  ot_out(&t, "Out", "out");
  ot_ok(&t);
  double *ref = malloc((size_t)(R * C * PH * PW) * sizeof *ref);
  for (int64_t r = 0; r < R; r++) {
    int64_t n = r < counts[0] ? 0 : 1;
    double off = aligned ? 0.5 : 0, b[4];
    for (int q = 0; q < 4; q++) b[q] = ot_val(rois, r * 4 + q) * (double)scale - off;
    double rw = b[2] - b[0], rh = b[3] - b[1];
    if (!aligned) rw = fmax(rw, 1), rh = fmax(rh, 1);
    int gh = sampling > 0 ? sampling : (int)ceil(rh / PH),
        gw = sampling > 0 ? sampling : (int)ceil(rw / PW);
    for (int64_t ch = 0; ch < C; ch++) {
      for (int64_t py = 0; py < PH; py++) {
        for (int64_t px = 0; px < PW; px++) {
          double sum = 0;
          for (int iy = 0; iy < gh; iy++) {
            for (int ix = 0; ix < gw; ix++) {
              double y = b[1] + rh / PH * (py + (iy + 0.5) / gh),
                     xx = b[0] + rw / PW * (px + (ix + 0.5) / gw);
              sum += bilinear(x, (n * C + ch) * H * W, H, W, y, xx);
            }
          }
          ref[((r * C + ch) * PH + py) * PW + px] = sum / (gh * gw);
        }
      }
    }
  }
  tu_assert_shape(t.out[0], dt, 4, TU_DIMS(R, C, PH, PW));
  double tol = dt == IC_FP64 ? 1e-12 : 1e-5;
  tu_assert_close(t.out[0], ref, (size_t)(R * C * PH * PW), tol, tol);
  free(ref);
  ot_end(&t);
}

START_TEST(roi_align_modes) {
  roi_align_case(IC_FP64, false, -1, 0.5f, SPLIT_NUM32);
  roi_align_case(IC_FP64, true, 2, 0.25f, SPLIT_NUM64);
  roi_align_case(IC_FP64, true, 0, 1.0f, SPLIT_NONE);
  roi_align_case(IC_FP32, false, 3, 0.5f, SPLIT_NUM32);
}
END_TEST

START_TEST(roi_align_errors) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", rand_t(IC_FP32, 4, TU_DIMS(2, 1, 4, 4), 1, 0, 1));
  ot_feed(&t, "rois", rand_t(IC_FP32, 2, TU_DIMS(3, 4), 2, 0, 1));
  ot_op(&t, "roi_align");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "ROIs", "rois");
  ot_out(&t, "Out", "out");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "roi_align", "'rois'", "no LoD", "RoisNum", NULL);
  ot_end(&t);

  ot_begin(&t);
  ot_feed(&t, "x", rand_t(IC_FP32, 4, TU_DIMS(2, 1, 4, 4), 1, 0, 1));
  ot_feed(&t, "rois", rand_t(IC_FP32, 2, TU_DIMS(3, 4), 2, 0, 1));
  ot_feed(&t, "num", tu_i32(1, TU_DIMS(2), (const int32_t[]){1, 1}));
  ot_op(&t, "roi_align");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "ROIs", "rois");
  ic_builder_in(t.op, "RoisNum", "num");
  ot_out(&t, "Out", "out");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "roi_align", "'num'", "counts 2 regions, but ROIs has 3", NULL);
  ot_end(&t);

  ot_begin(&t);
  ot_feed(&t, "x", rand_t(IC_FP32, 4, TU_DIMS(1, 1, 4, 4), 1, 0, 1));
  ot_feed(&t, "rois", rand_t(IC_FP32, 2, TU_DIMS(3, 4), 2, 0, 1));
  ot_op(&t, "roi_align");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "ROIs", "rois");
  ic_builder_attr_int(t.op, "pooled_height", 0);
  ot_out(&t, "Out", "out");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "roi_align", "pooled_height", "expected > 0", NULL);
  ot_end(&t);
}
END_TEST

/* ------------------------------------------------------------------ roi_pool, psroi_pool */

/* roi_pool with regions split by ROIs' LoD (the path the Paddle oracle cannot feed): region 1
 * reads image 1; Argmax is the flat offset in its channel plane. */
START_TEST(roi_pool_lod) {
  optest t;
  ot_begin(&t);
  float xv[18];
  for (int i = 0; i < 9; i++) xv[i] = (float)i, xv[9 + i] = 100.0f + (float)i;
  ot_feed(&t, "x", tu_f32(4, TU_DIMS(2, 1, 3, 3), xv));
  ic_tensor *rois = tu_f32(2, TU_DIMS(2, 4), (const float[]){0, 0, 2, 2, 0, 0, 1, 1});
  const uint64_t off[] = {0, 1, 2};
  const uint64_t *offs[] = {off};
  ck_assert_int_eq(ic_tensor_set_lod(rois, 1, (const size_t[]){3}, offs), IC_OK);
  ot_feed(&t, "rois", rois);
  ot_op(&t, "roi_pool");
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "ROIs", "rois");
  ic_builder_attr_int(t.op, "pooled_height", 1);
  ic_builder_attr_int(t.op, "pooled_width", 1);
  ic_builder_attr_float(t.op, "spatial_scale", 1.0f);
  ot_out(&t, "Out", "out");
  ot_out(&t, "Argmax", "arg");
  ot_ok(&t);
  ck_assert_int_eq(ic_tensor_dtype(t.out[1]), IC_INT64);
  ck_assert_double_eq(ot_val(t.out[0], 0), 8.0);
  ck_assert_double_eq(ot_val(t.out[0], 1), 104.0);
  ck_assert_double_eq(ot_val(t.out[1], 0), 8.0);
  ck_assert_double_eq(ot_val(t.out[1], 1), 4.0);
  ot_end(&t);
}
END_TEST

/* target_assign (SSD; no Paddle oracle: 2.6 no longer registers it): X [3 rows, P 2, K 2]
 * split 2 | 1 among two images (X[r, p, k] = 10 ((2 r + p) K + k)), MatchIndices [2, 3];
 * column j reads X[lod[i] + id, j % 2];
 * unmatched columns get mismatch_value and weight 0; then labels (K 1) with NegIndices set
 * the negatives' weight to 1. Out of range ids fail. */
START_TEST(target_assign_values) {
  const uint64_t xo[] = {0, 2, 3}, no[] = {0, 1, 2};
  const uint64_t *xoffs[] = {xo}, *noffs[] = {no};
  for (int v = 0; v < 3; v++) {
    optest t;
    ot_begin(&t);
    const int64_t K = v == 1 ? 1 : 2;
    float xv[12];
    for (int i = 0; i < 12; i++) xv[i] = (float)(10 * i);
    ic_tensor *x = tu_f32(3, TU_DIMS(3, 2, K), xv);
    ck_assert_int_eq(ic_tensor_set_lod(x, 1, (const size_t[]){3}, xoffs), IC_OK);
    ot_feed(&t, "x", x);
    ot_feed(&t, "mi", tu_i32(2, TU_DIMS(2, 3), v == 2 ? (const int32_t[]){0, -1, 2, 0, -1, -1}
                                                        : (const int32_t[]){1, -1, 0, -1, 0, -1}));
    if (v == 1) {
      ic_tensor *neg = tu_i32(2, TU_DIMS(2, 1), (const int32_t[]){1, 2});
      ck_assert_int_eq(ic_tensor_set_lod(neg, 1, (const size_t[]){3}, noffs), IC_OK);
      ot_feed(&t, "neg", neg);
    }
    ot_op(&t, "target_assign");
    ic_builder_in(t.op, "X", "x");
    ic_builder_in(t.op, "MatchIndices", "mi");
    if (v == 1) ic_builder_in(t.op, "NegIndices", "neg");
    ic_builder_attr_int(t.op, "mismatch_value", 7);
    ot_out(&t, "Out", "out");
    ot_out(&t, "OutWeight", "w");
    if (v == 2) {
      ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
      tu_assert_msg(t.err, "target_assign", "MatchIndices", "holds 2 at [0, 2]", "2 rows", NULL);
      ot_end(&t);
      continue;
    }
    ot_ok(&t);
    tu_assert_shape(t.out[0], IC_FP32, 3, TU_DIMS(2, 3, K));
    tu_assert_shape(t.out[1], IC_FP32, 3, TU_DIMS(2, 3, 1));
    if (K == 2) {
      /* image 0: col 0 <- X[1, 0], col 2 <- X[0, 0]; image 1: col 1 <- X[2, 1] */
      tu_assert_close(t.out[0], (const double[]){40, 50, 7, 7, 0, 10, 7, 7, 100, 110, 7, 7}, 12,
                      0, 0);
      tu_assert_close(t.out[1], (const double[]){1, 0, 1, 0, 1, 0}, 6, 0, 0);
    } else {
      /* K 1: X[r, p] = 10 (2 r + p); negatives: image 0 column 1, image 1 column 2 */
      tu_assert_close(t.out[0], (const double[]){20, 7, 0, 7, 50, 7}, 6, 0, 0);
      tu_assert_close(t.out[1], (const double[]){1, 1, 1, 0, 1, 1}, 6, 0, 0);
    }
    ot_end(&t);
  }
}
END_TEST

/* yolov3_loss's checks (values: the oracle case yolov3_loss_modes and test_train's yolo):
 * X's channels not anchor_mask x (5 + class_num); a ground truth centred outside the image;
 * anchor_mask naming an anchor that does not exist. */
START_TEST(yolov3_loss_bad) {
  for (int v = 0; v < 3; v++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "x", rand_t(IC_FP32, 4, TU_DIMS(1, v == 0 ? 15 : 16, 2, 2), 1, -1, 1));
    ot_feed(&t, "box", tu_f32(3, TU_DIMS(1, 1, 4),
                              (const float[]){v == 1 ? 1.2f : 0.5f, 0.5f, 0.3f, 0.3f}));
    ot_feed(&t, "lab", tu_i32(2, TU_DIMS(1, 1), (const int32_t[]){1}));
    ot_op(&t, "yolov3_loss");
    ic_builder_in(t.op, "X", "x");
    ic_builder_in(t.op, "GTBox", "box");
    ic_builder_in(t.op, "GTLabel", "lab");
    ic_builder_attr_ints(t.op, "anchors", 4, (const int32_t[]){4, 5, 8, 6});
    ic_builder_attr_ints(t.op, "anchor_mask", 2, (const int32_t[]){0, v == 2 ? 2 : 1});
    ic_builder_attr_int(t.op, "class_num", 3);
    ot_out(&t, "Loss", "loss");
    const ic_status want = v == 2 ? IC_ERR_INVALID_PROGRAM : IC_ERR_SHAPE;
    ck_assert_int_eq(ot_run(&t), want);
    if (v == 0) tu_assert_msg(t.err, "yolov3_loss", "input X 'x'", "[N, 16, H, H]", NULL);
    if (v == 1) tu_assert_msg(t.err, "yolov3_loss", "GTBox 'box'", "outside the image", NULL);
    if (v == 2) tu_assert_msg(t.err, "anchor_mask", "holds 2", "[0, 2)", NULL);
    ot_end(&t);
  }
}
END_TEST

static void roi_pool_bad(const char *op, int64_t C, int oc, int pw, const int32_t *num,
                         ic_status want, const char *n1, const char *n2) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "x", rand_t(IC_FP32, 4, TU_DIMS(2, C, 4, 4), 1, 0, 1));
  ot_feed(&t, "rois", rand_t(IC_FP32, 2, TU_DIMS(3, 4), 2, 0, 3));
  ot_feed(&t, "num", tu_i32(1, TU_DIMS(2), num));
  ot_op(&t, op);
  ic_builder_in(t.op, "X", "x");
  ic_builder_in(t.op, "ROIs", "rois");
  ic_builder_in(t.op, "RoisNum", "num");
  ic_builder_attr_int(t.op, "pooled_height", 2);
  ic_builder_attr_int(t.op, "pooled_width", pw);
  ic_builder_attr_float(t.op, "spatial_scale", 0.5f);
  if (oc) ic_builder_attr_int(t.op, "output_channels", oc);
  ot_out(&t, "Out", "out");
  if (!oc) ot_out(&t, "Argmax", "arg");
  ck_assert_int_eq(ot_run(&t), want);
  tu_assert_msg(t.err, op, n1, n2, NULL);
  ot_end(&t);
}

START_TEST(roi_pool_errors) {
  const int32_t ok[] = {1, 2}, bad[] = {1, 1};
  roi_pool_bad("roi_pool", 1, 0, 0, ok, IC_ERR_INVALID_PROGRAM, "pooled_width", "expected > 0");
  roi_pool_bad("roi_pool", 1, 0, 2, bad, IC_ERR_SHAPE, "'num'",
               "counts 2 regions, but ROIs has 3");
  roi_pool_bad("psroi_pool", 8, 2, 3, ok, IC_ERR_SHAPE, "'x'",
               "has 8 channels, expected output_channels x pooled_height x pooled_width");
  roi_pool_bad("psroi_pool", 4, 1, 2, ok, IC_ERR_INVALID_PROGRAM, "output_channels",
               "expected > 1");
  roi_pool_bad("psroi_pool", 8, 2, 2, bad, IC_ERR_SHAPE, "'num'", "counts 2 regions");
}
END_TEST

/* ------------------------------------------------------------------ NMS */

typedef struct nms_p {
  int background, nms_top_k, keep_top_k;
  float score_thr, nms_thr, eta;
  bool normalized;
} nms_p;

typedef struct det {
  double label, score, box[4];
  int index;
} det;

static double ref_iou(const double *a, const double *b, bool normalized) {
  double one = normalized ? 0 : 1;
  double iw = fmin(a[2], b[2]) - fmax(a[0], b[0]) + one;
  double ih = fmin(a[3], b[3]) - fmax(a[1], b[1]) + one;
  if (b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1]) return 0;
  double aa = (a[2] - a[0] + one) * (a[3] - a[1] + one),
         ab = (b[2] - b[0] + one) * (b[3] - b[1] + one);
  return iw * ih / (aa + ab - iw * ih);
}

/* Reference NMS of one image. score(c, m) and box(c, m) read the input; returns the number of
 * detections written to out, in Paddle's order (by label, then score order, or index order
 * when sort_idx). Greedy by repeated maximum: the best remaining candidate (lowest index on
 * ties) is kept when it overlaps no kept box by more than the threshold. */
static int ref_nms_image(const nms_p *p, int C, int M, double (*score)(void *, int, int),
                         void (*box)(void *, int, int, double *), void *ctx, bool sort_idx,
                         int index_base, int index_mul, det *out) {
  int n = 0;
  int *state = malloc((size_t)M * sizeof *state);
  for (int c = 0; c < C; c++) {
    if (c == p->background) continue;
    for (int m = 0; m < M; m++) state[m] = score(ctx, c, m) > p->score_thr ? 0 : -1;
    double thr = p->nms_thr;
    int considered = 0, first = n;
    for (;;) {
      int best = -1;
      for (int m = 0; m < M; m++) {
        if (state[m] == 0 && (best < 0 || score(ctx, c, m) > score(ctx, c, best))) best = m;
      }
      if (best < 0 || (p->nms_top_k > -1 && considered >= p->nms_top_k)) break;
      considered++;
      state[best] = -1;
      double b[4];
      box(ctx, c, best, b);
      bool keep = true;
      for (int j = first; j < n; j++) keep &= ref_iou(b, out[j].box, p->normalized) <= thr;
      if (!keep) continue;
      out[n] = (det){c, score(ctx, c, best), {b[0], b[1], b[2], b[3]},
                     index_base + best * index_mul + (index_mul > 1 ? c : 0)};
      n++;
      if (p->eta < 1 && thr > 0.5) thr *= p->eta;
    }
    if (sort_idx) {
      for (int i = first; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
          if (out[j].index < out[i].index) {
            det tmp = out[i];
            out[i] = out[j];
            out[j] = tmp;
          }
        }
      }
    }
  }
  free(state);
  if (p->keep_top_k > -1 && n > p->keep_top_k) {
    /* keep the keep_top_k best (earlier wins ties), then restore label / original order */
    bool *sel = calloc((size_t)n, sizeof *sel);
    for (int k = 0; k < p->keep_top_k; k++) {
      int best = -1;
      for (int i = 0; i < n; i++) {
        if (!sel[i] && (best < 0 || (float)out[i].score > (float)out[best].score)) best = i;
      }
      sel[best] = true;
    }
    int w = 0;
    for (int i = 0; i < n; i++) {
      if (sel[i]) out[w++] = out[i];
    }
    free(sel);
    n = p->keep_top_k;
    (void)sort_idx; /* selection keeps each label's order, index order included */
  }
  return n;
}

typedef struct shared_ctx {
  const ic_tensor *b, *s;
  int n, C, M;
} shared_ctx;
static double sh_score(void *v, int c, int m) {
  shared_ctx *x = v;
  return ot_val(x->s, ((int64_t)x->n * x->C + c) * x->M + m);
}
static void sh_box(void *v, int c, int m, double *b) {
  shared_ctx *x = v;
  (void)c;
  for (int q = 0; q < 4; q++) b[q] = ot_val(x->b, ((int64_t)x->n * x->M + m) * 4 + q);
}

typedef struct pc_ctx {
  const ic_tensor *b, *s;
  int start, C;
} pc_ctx;
static double pc_score(void *v, int c, int m) {
  pc_ctx *x = v;
  return ot_val(x->s, ((int64_t)x->start + m) * x->C + c);
}
static void pc_box(void *v, int c, int m, double *b) {
  pc_ctx *x = v;
  for (int q = 0; q < 4; q++) b[q] = ot_val(x->b, (((int64_t)x->start + m) * x->C + c) * 4 + q);
}

static void set_nms_attrs(ic_builder_op *op, const nms_p *p) {
  ic_builder_attr_int(op, "background_label", p->background);
  ic_builder_attr_float(op, "score_threshold", p->score_thr);
  ic_builder_attr_int(op, "nms_top_k", p->nms_top_k);
  ic_builder_attr_float(op, "nms_threshold", p->nms_thr);
  ic_builder_attr_float(op, "nms_eta", p->eta);
  ic_builder_attr_int(op, "keep_top_k", p->keep_top_k);
  ic_builder_attr_bool(op, "normalized", p->normalized);
}

/* Boxes that overlap often: corners on a coarse grid. */
static ic_tensor *grid_boxes(ic_dtype dt, int nd, const int64_t *dims, uint64_t seed,
                             double scale) {
  ic_tensor *t = rand_t(dt, nd, dims, seed, 0, 1);
  int64_t n = ic_tensor_numel(t) / 4;
  for (int64_t i = 0; i < n; i++) {
    double x0 = floor(ot_val(t, i * 4) * 4), y0 = floor(ot_val(t, i * 4 + 1) * 4);
    double w = 1 + floor(ot_val(t, i * 4 + 2) * 4), h = 1 + floor(ot_val(t, i * 4 + 3) * 4);
    double o[4] = {x0 * scale, y0 * scale, (x0 + w) * scale, (y0 + h) * scale};
    for (int q = 0; q < 4; q++) {
      if (dt == IC_FP64) ((double *)ic_tensor_data(t))[i * 4 + q] = o[q];
      else ((float *)ic_tensor_data(t))[i * 4 + q] = (float)o[q];
    }
  }
  return t;
}

static void check_dets(const optest *t, const det *ref, int n, int64_t box_dim, bool with_index,
                       int out_idx) {
  const ic_tensor *o = t->out[out_idx];
  if (n == 0 && !with_index) {
    tu_assert_shape(o, ic_tensor_dtype(o), 2, TU_DIMS(1, 1));
    tu_assert_close(o, (const double[]){-1}, 1, 0, 0);
    return;
  }
  tu_assert_shape(o, ic_tensor_dtype(o), 2, TU_DIMS(n, box_dim + 2));
  double *r = malloc((size_t)(n ? n : 1) * 6 * sizeof *r);
  double *ri = malloc((size_t)(n ? n : 1) * sizeof *ri);
  for (int i = 0; i < n; i++) {
    r[i * 6] = ref[i].label, r[i * 6 + 1] = ref[i].score;
    for (int q = 0; q < 4; q++) r[i * 6 + 2 + q] = ref[i].box[q];
    ri[i] = ref[i].index;
  }
  tu_assert_close(o, r, (size_t)n * 6, 0, 0);
  if (with_index) {
    tu_assert_shape(t->out[out_idx + 1], IC_INT32, 2, TU_DIMS(n, 1));
    tu_assert_close(t->out[out_idx + 1], ri, (size_t)n, 0, 0);
  }
  free(r);
  free(ri);
}

/* multiclass_nms3 (or multiclass_nms when v1) on the shared layout: BBoxes [N, M, 4],
 * Scores [N, C, M]. */
static void nms_shared_case(ic_dtype dt, const nms_p *p, bool v1, bool with_index, int N, int C,
                            int M, uint64_t seed) {
  ic_tensor *b = grid_boxes(dt, 3, TU_DIMS(N, M, 4), seed, p->normalized ? 0.125 : 3);
  ic_tensor *s = rand_t(dt, 3, TU_DIMS(N, C, M), seed + 1, 0, 1);
  if (M >= 200) {
    /* Large cases: scores in eighths, so that many tie and nms_top_k's selection (a
     * quickselect, nms.c) must keep the ties in position order as a stable sort would. */
    for (int64_t i = 0; i < ic_tensor_numel(s); i++) {
      if (dt == IC_FP32) {
        float *v = (float *)ic_tensor_data(s) + i;
        *v = floorf(*v * 8) / 8;
      } else {
        double *v = (double *)ic_tensor_data(s) + i;
        *v = floor(*v * 8) / 8;
      }
    }
  }
  optest t;
  ot_begin(&t);
  ot_feed(&t, "b", b);
  ot_feed(&t, "s", s);
  ot_op(&t, v1 ? "multiclass_nms" : "multiclass_nms3");
  ic_builder_in(t.op, "BBoxes", "b");
  ic_builder_in(t.op, "Scores", "s");
  set_nms_attrs(t.op, p);
  ot_out(&t, "Out", "out");
  if (!v1 && with_index) ot_out(&t, "Index", "idx");
  if (!v1) ot_out(&t, "NmsRoisNum", "num");
  ot_ok(&t);
  det *ref = malloc((size_t)(N * C * M + 1) * sizeof *ref);
  int total = 0, counts[16];
  for (int n = 0; n < N; n++) {
    shared_ctx x = {b, s, n, C, M};
    counts[n] = ref_nms_image(p, C, M, sh_score, sh_box, &x, false, n * M, 1, ref + total);
    total += counts[n];
  }
  check_dets(&t, ref, total, 4, !v1 && with_index, 0);
  if (!v1) {
    int64_t want[16];
    for (int n = 0; n < N; n++) want[n] = counts[n];
    if (total == 0 && !with_index) want[0] = 1;
    const ic_tensor *num = t.out[with_index ? 2 : 1];
    tu_assert_shape(num, IC_INT32, 1, TU_DIMS(N));
    for (int n = 0; n < N; n++) {
      ck_assert_int_eq(((const int32_t *)ic_tensor_cdata(num))[n], want[n]);
    }
  }
  free(ref);
  ot_end(&t);
}

START_TEST(nms_shared_layout) {
  nms_p base = {.background = -1, .nms_top_k = -1, .keep_top_k = -1, .score_thr = 0.1f,
                .nms_thr = 0.3f, .eta = 1, .normalized = true};
  nms_shared_case(IC_FP64, &base, false, true, 2, 3, 12, 1);
  nms_shared_case(IC_FP32, &base, false, true, 2, 3, 12, 2);
  nms_shared_case(IC_FP64, &base, true, false, 2, 3, 12, 3);
  nms_p bg = base;
  bg.background = 0, bg.nms_top_k = 5, bg.keep_top_k = 6, bg.nms_thr = 0.6f, bg.eta = 0.7f;
  nms_shared_case(IC_FP64, &bg, false, true, 3, 4, 15, 4);
  nms_shared_case(IC_FP64, &bg, true, false, 3, 4, 15, 5);
  /* many candidates, tied scores, nms_top_k far below them (nms.c's select_top) */
  nms_p big = base;
  big.nms_top_k = 37, big.score_thr = 0.05f, big.nms_thr = 0.5f;
  nms_shared_case(IC_FP32, &big, false, true, 2, 3, 300, 10);
  big.nms_top_k = 1;
  nms_shared_case(IC_FP64, &big, false, true, 1, 2, 257, 11);
  big.nms_top_k = 299;
  nms_shared_case(IC_FP32, &big, false, true, 1, 2, 300, 12);
  nms_p un = base;
  un.normalized = false, un.score_thr = 0.3f, un.keep_top_k = 4, un.background = 2;
  nms_shared_case(IC_FP64, &un, false, false, 2, 3, 10, 6);
  /* nothing passes the threshold: [0, 6] with Index, the -1 row without */
  nms_p none = base;
  none.score_thr = 2;
  nms_shared_case(IC_FP64, &none, false, true, 2, 2, 5, 7);
  nms_shared_case(IC_FP64, &none, false, false, 1, 2, 5, 8);
  nms_shared_case(IC_FP64, &none, true, false, 2, 2, 5, 9);
}
END_TEST

/* multiclass_nms3 on the per-class layout: BBoxes [M, C, 4], Scores [M, C], split by RoisNum
 * (int32 or int64) or, without it, one image. */
static void nms_per_class_case(ic_dtype dt, const nms_p *p, int n_img, const int *rois, int C,
                               bool int64_rois, uint64_t seed) {
  int M = 0;
  for (int i = 0; i < n_img; i++) M += rois[i];
  ic_tensor *b = grid_boxes(dt, 3, TU_DIMS(M, C, 4), seed, 0.125);
  ic_tensor *s = rand_t(dt, 2, TU_DIMS(M, C), seed + 1, 0, 1);
  optest t;
  ot_begin(&t);
  ot_feed(&t, "b", b);
  ot_feed(&t, "s", s);
  bool has_rois = n_img > 0;
  if (has_rois) {
    int64_t r64[8];
    int32_t r32[8];
    for (int i = 0; i < n_img; i++) r64[i] = rois[i], r32[i] = rois[i];
    ot_feed(&t, "rois",
            int64_rois ? tu_i64(1, TU_DIMS(n_img), r64) : tu_i32(1, TU_DIMS(n_img), r32));
  }
  ot_op(&t, "multiclass_nms3");
  ic_builder_in(t.op, "BBoxes", "b");
  ic_builder_in(t.op, "Scores", "s");
  if (has_rois) ic_builder_in(t.op, "RoisNum", "rois");
  set_nms_attrs(t.op, p);
  ot_out(&t, "Out", "out");
  ot_out(&t, "Index", "idx");
  ot_out(&t, "NmsRoisNum", "num");
  ot_ok(&t);
  det *ref = malloc((size_t)(M * C + 1) * sizeof *ref);
  int total = 0, counts[8], start = 0;
  int imgs = has_rois ? n_img : 1;
  for (int i = 0; i < imgs; i++) {
    int m = has_rois ? rois[i] : M;
    pc_ctx x = {b, s, start, C};
    counts[i] = ref_nms_image(p, C, m, pc_score, pc_box, &x, true, start * C, C, ref + total);
    total += counts[i];
    start += m;
  }
  check_dets(&t, ref, total, 4, true, 0);
  tu_assert_shape(t.out[2], IC_INT32, 1, TU_DIMS(imgs));
  for (int i = 0; i < imgs; i++) {
    ck_assert_int_eq(((const int32_t *)ic_tensor_cdata(t.out[2]))[i], counts[i]);
  }
  free(ref);
  ot_end(&t);
}

START_TEST(nms_per_class_layout) {
  nms_p p = {.background = 0, .nms_top_k = -1, .keep_top_k = -1, .score_thr = 0.2f,
             .nms_thr = 0.4f, .eta = 1, .normalized = true};
  nms_per_class_case(IC_FP64, &p, 3, (const int[]){5, 0, 7}, 3, false, 31);
  nms_per_class_case(IC_FP64, &p, 2, (const int[]){6, 4}, 4, true, 32);
  nms_per_class_case(IC_FP64, &p, 0, NULL, 3, false, 33); /* no RoisNum: one image */
  nms_p k = p;
  k.keep_top_k = 3, k.nms_top_k = 4, k.background = -1;
  nms_per_class_case(IC_FP64, &k, 2, (const int[]){8, 5}, 3, false, 34);
  nms_per_class_case(IC_FP32, &k, 2, (const int[]){8, 5}, 3, false, 35);
}
END_TEST

/* fp32 cases that keep many boxes per class, so that nms.c's vectorized overlap test runs
 * over several blocks of kept boxes and a partial last one, with enough classes x boxes
 * (>= 4096) for the classes to be shared across the kernel's threads (every executor
 * configuration, 1 to 4 threads, must give the same bits: tu_run). */
START_TEST(nms_many_kept) {
  /* a high threshold keeps nearly every distinct box of the grid */
  nms_p hi = {.background = -1, .nms_top_k = -1, .keep_top_k = -1, .score_thr = 0.05f,
              .nms_thr = 0.9f, .eta = 1, .normalized = true};
  nms_shared_case(IC_FP32, &hi, false, true, 2, 6, 800, 41);
  /* unnormalized (+1 sizes), eta shrinking the threshold, a background class, keep_top_k */
  nms_p un = {.background = 1, .nms_top_k = 500, .keep_top_k = 150, .score_thr = 0.1f,
              .nms_thr = 0.95f, .eta = 0.8f, .normalized = false};
  nms_shared_case(IC_FP32, &un, false, true, 1, 7, 700, 42);
  /* a negative threshold: even disjoint boxes (overlap 0) suppress, one box per class */
  nms_p neg = hi;
  neg.nms_thr = -0.1f;
  nms_shared_case(IC_FP32, &neg, false, true, 1, 6, 700, 43);
  /* the per-class layout, two images */
  nms_p pc = {.background = 0, .nms_top_k = -1, .keep_top_k = -1, .score_thr = 0.1f,
              .nms_thr = 0.9f, .eta = 1, .normalized = true};
  nms_per_class_case(IC_FP32, &pc, 2, (const int[]){500, 400}, 5, false, 44);
}
END_TEST

/* A hand-checked case: three boxes of class 1, the first two overlapping (IoU 0.6). */
START_TEST(nms_hand_checked) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "b", tu_f64(3, TU_DIMS(1, 3, 4),
                          (const double[]){0, 0, 10, 10, 0, 0, 10, 6, 20, 20, 30, 30}));
  ot_feed(&t, "s", tu_f64(3, TU_DIMS(1, 2, 3), (const double[]){0.9, 0.9, 0.9, 0.5, 0.8, 0.7}));
  ot_op(&t, "multiclass_nms3");
  ic_builder_in(t.op, "BBoxes", "b");
  ic_builder_in(t.op, "Scores", "s");
  nms_p p = {.background = 0, .nms_top_k = -1, .keep_top_k = -1, .score_thr = 0.05f,
             .nms_thr = 0.5f, .eta = 1, .normalized = true};
  set_nms_attrs(t.op, &p);
  ot_out(&t, "Out", "out");
  ot_out(&t, "Index", "idx");
  ot_out(&t, "NmsRoisNum", "num");
  ot_ok(&t);
  /* box 1 (0.8) first; box 0 (0.5) overlaps it by 60/100 > 0.5 and goes; box 2 stays */
  tu_assert_close(t.out[0], (const double[]){1, 0.8, 0, 0, 10, 6, 1, 0.7, 20, 20, 30, 30}, 12, 0,
                  0);
  tu_assert_close(t.out[1], (const double[]){1, 2}, 2, 0, 0);
  tu_assert_close(t.out[2], (const double[]){2}, 1, 0, 0);
  ot_end(&t);
}
END_TEST

/* A DYNAMIC output feeding another op: the consumer's infer sees the run's dims, in every
 * executor, and the kernel-allocated buffer is freed like any other (ASan checks). */
START_TEST(nms_output_consumed) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "b", tu_f64(3, TU_DIMS(1, 3, 4),
                          (const double[]){0, 0, 10, 10, 0, 0, 10, 6, 20, 20, 30, 30}));
  ot_feed(&t, "s", tu_f64(3, TU_DIMS(1, 2, 3), (const double[]){0.9, 0.9, 0.9, 0.5, 0.8, 0.7}));
  ot_op(&t, "multiclass_nms3");
  ic_builder_in(t.op, "BBoxes", "b");
  ic_builder_in(t.op, "Scores", "s");
  nms_p p = {.background = 0, .nms_top_k = -1, .keep_top_k = -1, .score_thr = 0.05f,
             .nms_thr = 0.5f, .eta = 1, .normalized = true};
  set_nms_attrs(t.op, &p);
  ic_builder_out(t.op, "Out", "dets");
  ic_builder_var(t.b, 0, "dets", IC_FP64, 2, TU_DIMS(-1, 6), false);
  ic_builder_op *sc = ic_builder_add_op(t.b, 0, "scale");
  ic_builder_in(sc, "X", "dets");
  ic_builder_attr_float(sc, "scale", 2.0f);
  ic_builder_out(sc, "Out", "twice");
  ot_fetch(&t, "twice");
  ot_ok(&t);
  tu_assert_shape(t.out[0], IC_FP64, 2, TU_DIMS(2, 6));
  tu_assert_close(t.out[0], (const double[]){2, 1.6, 0, 0, 20, 12, 2, 1.4, 40, 40, 60, 60}, 12,
                  1e-15, 0);
  ot_end(&t);
}
END_TEST

static void nms_bad(ic_tensor *b, ic_tensor *s, ic_tensor *rois, ic_status want, const char *n1,
                    const char *n2) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "b", b);
  ot_feed(&t, "s", s);
  if (rois) ot_feed(&t, "rois", rois);
  ot_op(&t, "multiclass_nms3");
  ic_builder_in(t.op, "BBoxes", "b");
  ic_builder_in(t.op, "Scores", "s");
  if (rois) ic_builder_in(t.op, "RoisNum", "rois");
  nms_p p = {.background = 0, .nms_top_k = -1, .keep_top_k = -1, .score_thr = 0.05f,
             .nms_thr = 0.5f, .eta = 1, .normalized = true};
  set_nms_attrs(t.op, &p);
  ot_out(&t, "Out", "out");
  ot_out(&t, "NmsRoisNum", "num");
  ck_assert_int_eq(ot_run(&t), want);
  tu_assert_msg(t.err, "multiclass_nms3", n1, n2, NULL);
  ot_end(&t);
}

START_TEST(nms_errors) {
  nms_bad(rand_t(IC_FP32, 3, TU_DIMS(1, 5, 4), 1, 0, 1),
          rand_t(IC_FP32, 3, TU_DIMS(1, 2, 4), 2, 0, 1), NULL, IC_ERR_SHAPE, "'b'", "[1, 4, 4]");
  nms_bad(rand_t(IC_FP32, 3, TU_DIMS(1, 4, 6), 1, 0, 1),
          rand_t(IC_FP32, 3, TU_DIMS(1, 2, 4), 2, 0, 1), NULL, IC_ERR_SHAPE, "'b'", "D = 6");
  /* polygons only in the shared layout, as in Paddle */
  nms_bad(rand_t(IC_FP32, 3, TU_DIMS(5, 2, 8), 1, 0, 1), rand_t(IC_FP32, 2, TU_DIMS(5, 2), 2, 0, 1),
          NULL, IC_ERR_SHAPE, "'b'", "polygons only in the shared layout");
  nms_bad(rand_t(IC_FP32, 3, TU_DIMS(5, 2, 4), 1, 0, 1), rand_t(IC_FP32, 2, TU_DIMS(5, 3), 2, 0, 1),
          NULL, IC_ERR_SHAPE, "'b'", "[5, 3, 4]");
  nms_bad(rand_t(IC_FP32, 3, TU_DIMS(5, 2, 4), 1, 0, 1), rand_t(IC_FP32, 2, TU_DIMS(5, 2), 2, 0, 1),
          tu_i32(1, TU_DIMS(2), (const int32_t[]){3, 3}), IC_ERR_SHAPE, "RoisNum 'rois'",
          "sum to at most the 5 rows");
  nms_bad(rand_t(IC_FP32, 3, TU_DIMS(5, 2, 4), 1, 0, 1), rand_t(IC_FP32, 1, TU_DIMS(5), 2, 0, 1),
          NULL, IC_ERR_SHAPE, "'s'", "rank 3");
}
END_TEST

/* Polygon NMS (D = 8) checked by hand, one class, four unit squares by descending score:
 * 0 axis-aligned [0, 1]^2; 1 the same turned 45 degrees about its centre, its points clockwise
 * (overlap with 0: the regular octagon of area 2(sqrt 2 - 1), IoU 1 / sqrt 2 = 0.7071); 2
 * shifted right by 0.5 (IoU with 0: 0.5 / 1.5 = 1/3; with 1: 0.296); 3 far away. */
static void nms_poly_squares(ic_dtype dt, const char *op, float thr, const int *want, int n_want) {
  const double h = sqrt(0.5);
  const double sq[4][8] = {{0, 0, 1, 0, 1, 1, 0, 1},
                           {0.5, 0.5 + h, 0.5 + h, 0.5, 0.5, 0.5 - h, 0.5 - h, 0.5},
                           {0.5, 0, 1.5, 0, 1.5, 1, 0.5, 1},
                           {5, 5, 6, 5, 6, 6, 5, 6}};
  const double sc[4] = {0.9, 0.8, 0.7, 0.6};
  ic_tensor *b = dt == IC_FP64 ? tu_f64(3, TU_DIMS(1, 4, 8), &sq[0][0]) : NULL;
  ic_tensor *s = dt == IC_FP64 ? tu_f64(3, TU_DIMS(1, 1, 4), sc) : NULL;
  if (dt == IC_FP32) {
    float bf[32], sf[4];
    for (int i = 0; i < 32; i++) bf[i] = (float)sq[i / 8][i % 8];
    for (int i = 0; i < 4; i++) sf[i] = (float)sc[i];
    b = tu_f32(3, TU_DIMS(1, 4, 8), bf);
    s = tu_f32(3, TU_DIMS(1, 1, 4), sf);
  }
  const bool v3 = strcmp(op, "multiclass_nms3") == 0;
  optest t;
  ot_begin(&t);
  ot_feed(&t, "b", b);
  ot_feed(&t, "s", s);
  ot_op(&t, op);
  ic_builder_in(t.op, "BBoxes", "b");
  ic_builder_in(t.op, "Scores", "s");
  nms_p p = {.background = -1, .nms_top_k = -1, .keep_top_k = -1, .score_thr = 0.05f,
             .nms_thr = thr, .eta = 1, .normalized = false};
  set_nms_attrs(t.op, &p);
  ot_out(&t, "Out", "out");
  if (strcmp(op, "multiclass_nms") != 0) ot_out(&t, "Index", "idx");
  if (v3) ot_out(&t, "NmsRoisNum", "num");
  ot_ok(&t);
  double ref[40], ri[4];
  for (int k = 0; k < n_want; k++) {
    const int i = want[k];
    ref[k * 10] = 0;
    ref[k * 10 + 1] = dt == IC_FP32 ? (double)(float)sc[i] : sc[i];
    for (int q = 0; q < 8; q++) {
      ref[k * 10 + 2 + q] = dt == IC_FP32 ? (double)(float)sq[i][q] : sq[i][q];
    }
    ri[k] = i;
  }
  tu_assert_shape(t.out[0], dt, 2, TU_DIMS(n_want, 10));
  tu_assert_close(t.out[0], ref, (size_t)n_want * 10, 0, 0);
  if (strcmp(op, "multiclass_nms") != 0) tu_assert_close(t.out[1], ri, (size_t)n_want, 0, 0);
  if (v3) tu_assert_close(t.out[2], (const double[]){n_want}, 1, 0, 0);
  ot_end(&t);
}

START_TEST(nms_poly_hand_checked) {
  for (int d = 0; d < 2; d++) {
    const ic_dtype dt = d ? IC_FP32 : IC_FP64;
    /* 0.7 < 1/sqrt 2: square 1 goes; 1/3 keeps square 2 */
    nms_poly_squares(dt, "multiclass_nms3", 0.7f, (const int[]){0, 2, 3}, 3);
    /* 0.71 > 1/sqrt 2: all stay */
    nms_poly_squares(dt, "multiclass_nms3", 0.71f, (const int[]){0, 1, 2, 3}, 4);
    /* 0.3 < 1/3: squares 1 and 2 go, the far one stays */
    nms_poly_squares(dt, "multiclass_nms2", 0.3f, (const int[]){0, 3}, 2);
    nms_poly_squares(dt, "multiclass_nms", 0.34f, (const int[]){0, 2, 3}, 3);
  }
}
END_TEST

/* A self-crossing polygon (a bow tie of area 1) is refused where Paddle would clip it with
 * gpc, and only there: compared with a box whose bounding box meets its own. */
static ic_status nms_poly_bowtie(double dx, const char **msg) {
  const double b[16] = {0, 0, 1, 0, 1, 1, 0, 1,      /* unit square */
                        dx, 0, dx + 2, 2, dx + 2, 0, dx, 1}; /* bow tie */
  optest t;
  ot_begin(&t);
  ot_feed(&t, "b", tu_f64(3, TU_DIMS(1, 2, 8), b));
  ot_feed(&t, "s", tu_f64(3, TU_DIMS(1, 2, 2), (const double[]){0.1, 0.2, 0.9, 0.8}));
  ot_op(&t, "multiclass_nms3");
  ic_builder_in(t.op, "BBoxes", "b");
  ic_builder_in(t.op, "Scores", "s");
  nms_p p = {.background = 0, .nms_top_k = -1, .keep_top_k = -1, .score_thr = 0.05f,
             .nms_thr = 0.5f, .eta = 1, .normalized = true};
  set_nms_attrs(t.op, &p);
  ot_out(&t, "Out", "out");
  ot_out(&t, "Index", "idx");
  ot_out(&t, "NmsRoisNum", "num");
  const ic_status st = ot_run(&t);
  static char buf[sizeof t.err];
  snprintf(buf, sizeof buf, "%s", t.err);
  *msg = buf;
  if (!st) {
    /* apart: both kept, the bow tie's points as given */
    tu_assert_shape(t.out[0], IC_FP64, 2, TU_DIMS(2, 10));
    tu_assert_close(t.out[1], (const double[]){0, 1}, 2, 0, 0);
  }
  ot_end(&t);
  return st;
}

START_TEST(nms_poly_self_crossing) {
  const char *msg;
  ck_assert_int_eq(nms_poly_bowtie(0, &msg), IC_ERR_UNSUPPORTED);
  tu_assert_msg(msg, "multiclass_nms3", "BBoxes 'b'", "image 0", "class 1", "cross", NULL);
  ck_assert_int_eq(nms_poly_bowtie(3, &msg), IC_OK); /* bounding boxes apart: IoU 0 */
}
END_TEST

/* polyiou.c's geometry by hand: convex, concave, both orientations, a closing repeated point,
 * and the polygons it refuses (crossing, or pinched at a vertex). */
START_TEST(poly_geometry) {
  const double h = sqrt(0.5);
  const double sq[8] = {0, 0, 1, 0, 1, 1, 0, 1};
  const double turned[8] = {0.5, 0.5 + h, 0.5 + h, 0.5, 0.5, 0.5 - h, 0.5 - h, 0.5};
  const double shifted[8] = {0.5, 1, 1.5, 1, 1.5, 0, 0.5, 0}; /* clockwise */
  bool bad = false;
  ck_assert_double_eq_tol(ic_poly_iou_f64(sq, turned, 8, &bad), sqrt(0.5), 1e-14);
  ck_assert_double_eq_tol(ic_poly_iou_f64(turned, sq, 8, &bad), sqrt(0.5), 1e-14);
  ck_assert_double_eq_tol(ic_poly_iou_f64(sq, shifted, 8, &bad), 1.0 / 3, 1e-15);
  /* the L of area 3 (8 points, two of them mid-edge) and the square [0.5, 1.5]^2: overlap
   * 0.5 + 0.25, IoU 0.75 / 3.25 */
  const double ell[16] = {0, 0, 1, 0, 2, 0, 2, 1, 1, 1, 1, 2, 0, 2, 0, 1};
  double ell_cw[16];
  for (int i = 0; i < 8; i++) ell_cw[2 * i] = ell[14 - 2 * i], ell_cw[2 * i + 1] = ell[15 - 2 * i];
  const double sq16[16] = {0.5, 0.5, 1, 0.5, 1.5, 0.5, 1.5, 1, 1.5, 1.5, 1, 1.5, 0.5, 1.5, 0.5, 1};
  ck_assert_double_eq(ic_poly_area_f64(ell, 8), 3);
  ck_assert_double_eq_tol(ic_poly_iou_f64(ell, sq16, 16, &bad), 3.0 / 13, 1e-15);
  ck_assert_double_eq_tol(ic_poly_iou_f64(sq16, ell_cw, 16, &bad), 3.0 / 13, 1e-15);
  /* a triangle given with its first point repeated last: simple, area 0.5 */
  const double tri[8] = {0, 0, 1, 0, 0, 1, 0, 0};
  ck_assert(!ic_poly_self_crossing_f64(tri, 4));
  ck_assert_double_eq_tol(ic_poly_iou_f64(tri, sq, 8, &bad), 0.5, 1e-15);
  ck_assert(!bad);
  /* disjoint: 0 */
  const double far[8] = {5, 5, 6, 5, 6, 6, 5, 6};
  ck_assert_double_eq(ic_poly_iou_f64(sq, far, 8, &bad), 0);
  /* float32: the same, the areas and the ratio in float */
  const float sqf[8] = {0, 0, 1, 0, 1, 1, 0, 1}, shf[8] = {0.5f, 1, 1.5f, 1, 1.5f, 0, 0.5f, 0};
  ck_assert_float_eq(ic_poly_iou_f32(sqf, shf, 8, &bad), 0.5f / 1.5f);
  ck_assert(!bad);
  /* a bow tie: crossing edges */
  const double bow[8] = {0, 0, 2, 2, 2, 0, 0, 1};
  ck_assert(ic_poly_self_crossing_f64(bow, 4));
  ck_assert_double_eq(ic_poly_iou_f64(sq, bow, 8, &bad), 0);
  ck_assert(bad);
  /* a figure eight pinched at (1, 1), its lobes turning opposite ways: no edges cross
   * properly, yet it is not simple */
  const double eight[16] = {0, 0, 1, 1, 3, 3, 3, 1, 3, -1, 1, 1, 0, 2, 0, 1};
  ck_assert(ic_poly_self_crossing_f64(eight, 8));
  bad = false;
  ic_poly_iou_f64(sq16, eight, 16, &bad);
  ck_assert(bad);
}
END_TEST

/* ------------------------------------------------------------------ matrix_nms */

typedef struct mnms_p {
  float score_thr, post_thr, sigma;
  int nms_top_k, keep_top_k, background;
  bool gaussian, normalized;
} mnms_p;

static void matrix_nms_case(const mnms_p *p, int N, int C, int M, uint64_t seed) {
  ic_tensor *b = grid_boxes(IC_FP64, 3, TU_DIMS(N, M, 4), seed, p->normalized ? 0.125 : 3);
  ic_tensor *s = rand_t(IC_FP64, 3, TU_DIMS(N, C, M), seed + 1, 0, 1);
  optest t;
  ot_begin(&t);
  ot_feed(&t, "b", b);
  ot_feed(&t, "s", s);
  ot_op(&t, "matrix_nms");
  ic_builder_in(t.op, "BBoxes", "b");
  ic_builder_in(t.op, "Scores", "s");
  ic_builder_attr_float(t.op, "score_threshold", p->score_thr);
  ic_builder_attr_float(t.op, "post_threshold", p->post_thr);
  ic_builder_attr_int(t.op, "nms_top_k", p->nms_top_k);
  ic_builder_attr_int(t.op, "keep_top_k", p->keep_top_k);
  ic_builder_attr_bool(t.op, "use_gaussian", p->gaussian);
  ic_builder_attr_float(t.op, "gaussian_sigma", p->sigma);
  ic_builder_attr_int(t.op, "background_label", p->background);
  ic_builder_attr_bool(t.op, "normalized", p->normalized);
  ot_out(&t, "Out", "out");
  ot_out(&t, "Index", "idx");
  ot_out(&t, "RoisNum", "num");
  ot_ok(&t);
  det *ref = malloc((size_t)(N * C * M + 1) * sizeof *ref);
  int total = 0;
  int *order = malloc((size_t)M * sizeof *order);
  for (int n = 0; n < N; n++) {
    int first = total;
    for (int c = 0; c < C; c++) {
      if (c == p->background) continue;
      /* candidates above the threshold, best first (selection sort) */
      int np = 0;
      for (int m = 0; m < M; m++) {
        if (ot_val(s, ((int64_t)n * C + c) * M + m) > p->score_thr) order[np++] = m;
      }
      for (int i = 0; i < np; i++) {
        for (int j = i + 1; j < np; j++) {
          if (ot_val(s, ((int64_t)n * C + c) * M + order[j]) >
              ot_val(s, ((int64_t)n * C + c) * M + order[i])) {
            int tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
          }
        }
      }
      if (p->nms_top_k > -1 && np > p->nms_top_k) np = p->nms_top_k;
      double box[64][4];
      for (int i = 0; i < np; i++) {
        for (int q = 0; q < 4; q++) box[i][q] = ot_val(b, ((int64_t)n * M + order[i]) * 4 + q);
      }
      for (int i = 0; i < np; i++) {
        double decay = 1;
        for (int j = 0; j < i; j++) {
          double maxj = 0;
          for (int k = 0; k < j; k++) maxj = fmax(maxj, ref_iou(box[j], box[k], p->normalized));
          double v = ref_iou(box[i], box[j], p->normalized);
          decay = fmin(decay,
                       p->gaussian ? exp((maxj * maxj - v * v) * p->sigma) : (1 - v) / (1 - maxj));
        }
        double sc = decay * ot_val(s, ((int64_t)n * C + c) * M + order[i]);
        if (sc <= p->post_thr) continue;
        ref[total++] = (det){c, sc, {box[i][0], box[i][1], box[i][2], box[i][3]}, n * M + order[i]};
      }
    }
    /* best decayed score first, then cut */
    for (int i = first; i < total; i++) {
      for (int j = i + 1; j < total; j++) {
        if (ref[j].score > ref[i].score) {
          det tmp = ref[i];
          ref[i] = ref[j];
          ref[j] = tmp;
        }
      }
    }
    if (p->keep_top_k > -1 && total - first > p->keep_top_k) total = first + p->keep_top_k;
    ck_assert_int_eq(((const int32_t *)ic_tensor_cdata(t.out[2]))[n], total - first);
  }
  tu_assert_shape(t.out[0], IC_FP64, 2, TU_DIMS(total, 6));
  double *r = malloc((size_t)(total + 1) * 6 * sizeof *r),
         *ri = malloc((size_t)(total + 1) * sizeof *ri);
  for (int i = 0; i < total; i++) {
    r[i * 6] = ref[i].label, r[i * 6 + 1] = ref[i].score, ri[i] = ref[i].index;
    for (int q = 0; q < 4; q++) r[i * 6 + 2 + q] = ref[i].box[q];
  }
  ck_assert_msg(total > 0, "case keeps something");
  tu_assert_close(t.out[0], r, (size_t)total * 6, 1e-12, 1e-12);
  tu_assert_close(t.out[1], ri, (size_t)total, 0, 0);
  free(r);
  free(ri);
  free(order);
  free(ref);
  ot_end(&t);
}

START_TEST(matrix_nms_modes) {
  mnms_p lin = {.score_thr = 0.1f, .post_thr = 0.05f, .sigma = 2, .nms_top_k = -1,
                .keep_top_k = -1, .background = 0, .gaussian = false, .normalized = true};
  matrix_nms_case(&lin, 2, 3, 12, 61);
  mnms_p gau = lin;
  gau.gaussian = true, gau.sigma = 3, gau.nms_top_k = 6, gau.keep_top_k = 7, gau.background = -1;
  matrix_nms_case(&gau, 2, 3, 12, 62);
  mnms_p un = lin;
  un.normalized = false, un.post_thr = 0.3f, un.keep_top_k = 3;
  matrix_nms_case(&un, 1, 4, 10, 63);
}
END_TEST

/* ------------------------------------------------------------------ FPN proposals */

START_TEST(distribute_fpn_levels) {
  /* 7 regions of 2 images (RoisNum 4, 3) over levels 2..5, refer level 4 at scale 224 */
  const double rois[7 * 4] = {0, 0, 223, 223,   10, 10, 40, 40,   0, 0, 999, 999,  5, 5, 5, 5,
                              0, 0, 111, 111,   0, 0, 500, 400,   30, 20, 10, 50};
  const int min_l = 2, max_l = 5;
  for (int pix = 0; pix < 2; pix++) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "rois", tu_f64(2, TU_DIMS(7, 4), rois));
    ot_feed(&t, "num", tu_i32(1, TU_DIMS(2), (const int32_t[]){4, 3}));
    ot_op(&t, "distribute_fpn_proposals");
    ic_builder_in(t.op, "FpnRois", "rois");
    ic_builder_in(t.op, "RoisNum", "num");
    ic_builder_attr_int(t.op, "min_level", min_l);
    ic_builder_attr_int(t.op, "max_level", max_l);
    ic_builder_attr_int(t.op, "refer_level", 4);
    ic_builder_attr_int(t.op, "refer_scale", 224);
    ic_builder_attr_bool(t.op, "pixel_offset", pix);
    ot_outs(&t, "MultiFpnRois", 4, TU_NAMES("l2", "l3", "l4", "l5"));
    ot_out(&t, "RestoreIndex", "restore");
    ot_outs(&t, "MultiLevelRoIsNum", 4, TU_NAMES("n2", "n3", "n4", "n5"));
    ot_ok(&t);
    int level[7], count[4] = {0}, per_img[4][2] = {{0}};
    for (int r = 0; r < 7; r++) {
      const double *b = rois + r * 4;
      double w = b[2] - b[0] + pix, h = b[3] - b[1] + pix;
      double area = (b[2] < b[0] || b[3] < b[1]) ? 0 : w * h;
      int l = (int)floor(log2(sqrt(area) / 224 + 1e-6) + 4);
      level[r] = (l < min_l ? min_l : l > max_l ? max_l : l) - min_l;
      count[level[r]]++;
      per_img[level[r]][r < 4 ? 0 : 1]++;
    }
    double restore[7];
    int base = 0;
    for (int l = 0; l < 4; l++) {
      double *want = malloc((size_t)(count[l] * 4 + 1) * sizeof *want);
      int k = 0;
      for (int r = 0; r < 7; r++) {
        if (level[r] != l) continue;
        restore[r] = base + k;
        for (int q = 0; q < 4; q++) want[k * 4 + q] = rois[r * 4 + q];
        k++;
      }
      base += count[l];
      tu_assert_shape(t.out[l], IC_FP64, 2, TU_DIMS(count[l], 4));
      tu_assert_close(t.out[l], want, (size_t)count[l] * 4, 0, 0);
      tu_assert_close(t.out[5 + l], (const double[]){per_img[l][0], per_img[l][1]}, 2, 0, 0);
      free(want);
    }
    ck_assert_msg(count[0] && count[3], "regions at both ends of the level range");
    tu_assert_shape(t.out[4], IC_INT32, 2, TU_DIMS(7, 1));
    tu_assert_close(t.out[4], restore, 7, 0, 0);
    ot_end(&t);
  }
}
END_TEST

START_TEST(collect_fpn_topn) {
  /* 2 levels, 2 images: level 0 has 3 + 1 regions, level 1 has 2 + 2 */
  const double r0[4 * 4] = {0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4};
  const double r1[4 * 4] = {10, 10, 11, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 13, 14, 14};
  const double s0[4] = {0.9, 0.1, 0.5, 0.7}, s1[4] = {0.3, 0.8, 0.95, 0.2};
  for (int top = 3; top <= 10; top += 7) {
    optest t;
    ot_begin(&t);
    ot_feed(&t, "r0", tu_f64(2, TU_DIMS(4, 4), r0));
    ot_feed(&t, "r1", tu_f64(2, TU_DIMS(4, 4), r1));
    ot_feed(&t, "s0", tu_f64(2, TU_DIMS(4, 1), s0));
    ot_feed(&t, "s1", tu_f64(2, TU_DIMS(4, 1), s1));
    ot_feed(&t, "n0", tu_i32(1, TU_DIMS(2), (const int32_t[]){3, 1}));
    ot_feed(&t, "n1", tu_i32(1, TU_DIMS(2), (const int32_t[]){2, 2}));
    ot_op(&t, "collect_fpn_proposals");
    ic_builder_input(t.op, "MultiLevelRois", 2, TU_NAMES("r0", "r1"));
    ic_builder_input(t.op, "MultiLevelScores", 2, TU_NAMES("s0", "s1"));
    ic_builder_input(t.op, "MultiLevelRoIsNum", 2, TU_NAMES("n0", "n1"));
    ic_builder_attr_int(t.op, "post_nms_topN", top);
    ot_out(&t, "FpnRois", "out");
    ot_out(&t, "RoisNum", "num");
    ot_ok(&t);
    if (top == 3) {
      /* best three: 0.95 (r1 row 2, image 1), 0.9 (r0 row 0, image 0), 0.8 (r1 row 1, image 0) */
      const double want[] = {0, 0, 1, 1, 11, 11, 12, 12, 12, 12, 13, 13};
      tu_assert_shape(t.out[0], IC_FP64, 2, TU_DIMS(3, 4));
      tu_assert_close(t.out[0], want, 12, 0, 0);
      tu_assert_close(t.out[1], (const double[]){2, 1}, 2, 0, 0);
    } else {
      /* all eight, image 0 first, each image by score */
      const double want[] = {0, 0, 1, 1, 11, 11, 12, 12, 2, 2, 3, 3, 10, 10, 11, 11, 1, 1, 2, 2,
                             12, 12, 13, 13, 3, 3, 4, 4, 13, 13, 14, 14};
      tu_assert_shape(t.out[0], IC_FP64, 2, TU_DIMS(8, 4));
      tu_assert_close(t.out[0], want, 32, 0, 0);
      tu_assert_close(t.out[1], (const double[]){5, 3}, 2, 0, 0);
    }
    ot_end(&t);
  }
}
END_TEST

/* ------------------------------------------------------------------ generate_proposals_v2 */

static void proposals_case(bool pixel_offset, int pre_n, int post_n, float nms, float eta) {
  const int64_t N = 2, A = 2, H = 3, W = 4, M = A * H * W;
  ic_tensor *sc = rand_t(IC_FP64, 4, TU_DIMS(N, A, H, W), 71, 0, 1);
  ic_tensor *dl = rand_t(IC_FP64, 4, TU_DIMS(N, 4 * A, H, W), 72, -0.6, 0.6);
  ic_tensor *va = rand_t(IC_FP64, 4, TU_DIMS(H, W, A, 4), 73, 0.5, 1.5);
  double anc[3 * 4 * 2 * 4];
  for (int h = 0; h < H; h++) {
    for (int w = 0; w < W; w++) {
      for (int a = 0; a < A; a++) {
        double *p = anc + ((h * W + w) * A + a) * 4, half = a ? 9 : 5;
        p[0] = w * 10 - half, p[1] = h * 10 - half, p[2] = w * 10 + half, p[3] = h * 10 + half;
      }
    }
  }
  const double shape[4] = {25, 33, 28, 36};
  optest t;
  ot_begin(&t);
  ot_feed(&t, "sc", sc);
  ot_feed(&t, "dl", dl);
  ot_feed(&t, "im", tu_f64(2, TU_DIMS(N, 2), shape));
  ot_feed(&t, "an", tu_f64(4, TU_DIMS(H, W, A, 4), anc));
  ot_feed(&t, "va", va);
  ot_op(&t, "generate_proposals_v2");
  ic_builder_in(t.op, "Scores", "sc");
  ic_builder_in(t.op, "BboxDeltas", "dl");
  ic_builder_in(t.op, "ImShape", "im");
  ic_builder_in(t.op, "Anchors", "an");
  ic_builder_in(t.op, "Variances", "va");
  ic_builder_attr_int(t.op, "pre_nms_topN", pre_n);
  ic_builder_attr_int(t.op, "post_nms_topN", post_n);
  ic_builder_attr_float(t.op, "nms_thresh", nms);
  ic_builder_attr_float(t.op, "min_size", 3.0f);
  ic_builder_attr_float(t.op, "eta", eta);
  ic_builder_attr_bool(t.op, "pixel_offset", pixel_offset);
  ot_out(&t, "RpnRois", "rois");
  ot_out(&t, "RpnRoiProbs", "probs");
  ot_out(&t, "RpnRoisNum", "num");
  ot_ok(&t);
  const double off = pixel_offset ? 1 : 0;
  double *rb = malloc((size_t)(N * M * 4) * sizeof *rb), *rp = malloc((size_t)(N * M) * sizeof *rp);
  int total = 0;
  for (int64_t n = 0; n < N; n++) {
    /* candidates best first (selection), decoded, clipped, filtered */
    bool used[24] = {false};
    double kb[24][4], ks[24];
    int nk = 0;
    int64_t m = pre_n > 0 && pre_n < M ? pre_n : M;
    for (int64_t i = 0; i < m; i++) {
      int64_t best = -1;
      double bs = -1;
      for (int64_t r = 0; r < M; r++) {
        int64_t hw = r / A, a = r % A;
        double v = ot_val(sc, (n * A + a) * H * W + hw);
        if (!used[r] && v > bs) best = r, bs = v;
      }
      used[best] = true;
      int64_t hw = best / A, a = best % A;
      const double *p = anc + best * 4;
      double d[4], v[4];
      for (int q = 0; q < 4; q++) {
        d[q] = ot_val(dl, ((n * A + a) * 4 + q) * H * W + hw);
        v[q] = ot_val(va, best * 4 + q);
      }
      double aw = p[2] - p[0] + off, ah = p[3] - p[1] + off;
      double cx = v[0] * d[0] * aw + p[0] + aw / 2, cy = v[1] * d[1] * ah + p[1] + ah / 2;
      double bw = exp(fmin(v[2] * d[2], log(1000.0 / 16))) * aw,
             bh = exp(fmin(v[3] * d[3], log(1000.0 / 16))) * ah;
      double b[4] = {cx - bw / 2, cy - bh / 2, cx + bw / 2 - off, cy + bh / 2 - off};
      double ih = shape[n * 2], iw = shape[n * 2 + 1];
      for (int q = 0; q < 4; q++) b[q] = fmax(fmin(b[q], (q % 2 ? ih : iw) - off), 0);
      double ws = b[2] - b[0] + off, hs = b[3] - b[1] + off;
      bool ok = ws >= 3 && hs >= 3;
      if (ok && pixel_offset) ok = b[0] + ws / 2 <= iw && b[1] + hs / 2 <= ih;
      if (!ok) continue;
      for (int q = 0; q < 4; q++) kb[nk][q] = b[q];
      ks[nk++] = bs;
    }
    ck_assert_int_gt(nk, 0);
    int start = total;
    double thr = nms;
    for (int i = 0; i < nk; i++) {
      bool keep = true;
      for (int j = start; j < total && nms > 0; j++) {
        keep &= ref_iou(kb[i], rb + j * 4, !pixel_offset) <= thr;
      }
      if (!keep) continue;
      for (int q = 0; q < 4; q++) rb[total * 4 + q] = kb[i][q];
      rp[total++] = ks[i];
      if (nms > 0 && eta < 1 && thr > 0.5) thr *= eta;
    }
    if (nms > 0 && post_n > 0 && total - start > post_n) total = start + post_n;
    ck_assert_int_eq(((const int32_t *)ic_tensor_cdata(t.out[2]))[n], total - start);
  }
  tu_assert_shape(t.out[0], IC_FP64, 2, TU_DIMS(total, 4));
  tu_assert_close(t.out[0], rb, (size_t)total * 4, 1e-9, 1e-9);
  tu_assert_close(t.out[1], rp, (size_t)total, 0, 0);
  free(rb);
  free(rp);
  ot_end(&t);
}

START_TEST(generate_proposals_modes) {
  proposals_case(true, 12, 5, 0.5f, 0.9f);
  proposals_case(false, 0, 0, 0.3f, 1.0f);
  proposals_case(true, 30, 4, 0, 1.0f); /* NMS off: post_nms_topN does not apply either */
}
END_TEST

START_TEST(generate_proposals_errors) {
  optest t;
  ot_begin(&t);
  ot_feed(&t, "sc", rand_t(IC_FP32, 4, TU_DIMS(1, 2, 3, 3), 1, 0, 1));
  ot_feed(&t, "dl", rand_t(IC_FP32, 4, TU_DIMS(1, 4, 3, 3), 2, 0, 1));
  ot_feed(&t, "im", rand_t(IC_FP32, 2, TU_DIMS(1, 2), 3, 10, 20));
  ot_feed(&t, "an", rand_t(IC_FP32, 4, TU_DIMS(3, 3, 2, 4), 4, 0, 1));
  ot_feed(&t, "va", rand_t(IC_FP32, 4, TU_DIMS(3, 3, 2, 4), 5, 0, 1));
  ot_op(&t, "generate_proposals_v2");
  ic_builder_in(t.op, "Scores", "sc");
  ic_builder_in(t.op, "BboxDeltas", "dl");
  ic_builder_in(t.op, "ImShape", "im");
  ic_builder_in(t.op, "Anchors", "an");
  ic_builder_in(t.op, "Variances", "va");
  ot_out(&t, "RpnRois", "rois");
  ot_out(&t, "RpnRoiProbs", "probs");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "generate_proposals_v2", "'dl'", "[1, 8, 3, 3]", NULL);
  ot_end(&t);
  /* fluid's generate_proposals wants ImInfo's scale column */
  ot_begin(&t);
  ot_feed(&t, "sc", rand_t(IC_FP32, 4, TU_DIMS(1, 2, 3, 3), 1, 0, 1));
  ot_feed(&t, "dl", rand_t(IC_FP32, 4, TU_DIMS(1, 8, 3, 3), 2, 0, 1));
  ot_feed(&t, "im", rand_t(IC_FP32, 2, TU_DIMS(1, 2), 3, 10, 20));
  ot_feed(&t, "an", rand_t(IC_FP32, 4, TU_DIMS(3, 3, 2, 4), 4, 0, 1));
  ot_feed(&t, "va", rand_t(IC_FP32, 4, TU_DIMS(3, 3, 2, 4), 5, 0, 1));
  ot_op(&t, "generate_proposals");
  ic_builder_in(t.op, "Scores", "sc");
  ic_builder_in(t.op, "BboxDeltas", "dl");
  ic_builder_in(t.op, "ImInfo", "im");
  ic_builder_in(t.op, "Anchors", "an");
  ic_builder_in(t.op, "Variances", "va");
  ot_out(&t, "RpnRois", "rois");
  ot_out(&t, "RpnRoiProbs", "probs");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "generate_proposals", "'im'", "height, width, scale", NULL);
  ot_end(&t);
}
END_TEST

/* Errors of the proposal and FPN ops name the op, the variable or attribute and the rule. */
START_TEST(proposal_op_errors) {
  optest t;
  /* distribute: one MultiFpnRois per level */
  ot_begin(&t);
  ot_feed(&t, "rois", rand_t(IC_FP32, 2, TU_DIMS(3, 4), 1, 0, 10));
  ot_op(&t, "distribute_fpn_proposals");
  ic_builder_in(t.op, "FpnRois", "rois");
  ic_builder_attr_int(t.op, "min_level", 2);
  ic_builder_attr_int(t.op, "max_level", 5);
  ic_builder_attr_int(t.op, "refer_level", 4);
  ic_builder_attr_int(t.op, "refer_scale", 224);
  ot_outs(&t, "MultiFpnRois", 2, TU_NAMES("l2", "l3"));
  ot_out(&t, "RestoreIndex", "restore");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "distribute_fpn_proposals", "MultiFpnRois", "one per level (4)", NULL);
  ot_end(&t);
  /* distribute: levels out of order */
  ot_begin(&t);
  ot_feed(&t, "rois", rand_t(IC_FP32, 2, TU_DIMS(3, 4), 1, 0, 10));
  ot_op(&t, "distribute_fpn_proposals");
  ic_builder_in(t.op, "FpnRois", "rois");
  ic_builder_attr_int(t.op, "min_level", 5);
  ic_builder_attr_int(t.op, "max_level", 2);
  ic_builder_attr_int(t.op, "refer_level", 4);
  ic_builder_attr_int(t.op, "refer_scale", 224);
  ot_outs(&t, "MultiFpnRois", 1, TU_NAMES("l2"));
  ot_out(&t, "RestoreIndex", "restore");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "distribute_fpn_proposals", "max_level", "min_level", NULL);
  ot_end(&t);
  /* collect: counts that do not add up */
  ot_begin(&t);
  ot_feed(&t, "r0", rand_t(IC_FP32, 2, TU_DIMS(3, 4), 1, 0, 10));
  ot_feed(&t, "s0", rand_t(IC_FP32, 2, TU_DIMS(3, 1), 2, 0, 1));
  ot_feed(&t, "n0", tu_i32(1, TU_DIMS(2), (const int32_t[]){1, 1}));
  ot_op(&t, "collect_fpn_proposals");
  ic_builder_input(t.op, "MultiLevelRois", 1, TU_NAMES("r0"));
  ic_builder_input(t.op, "MultiLevelScores", 1, TU_NAMES("s0"));
  ic_builder_input(t.op, "MultiLevelRoIsNum", 1, TU_NAMES("n0"));
  ic_builder_attr_int(t.op, "post_nms_topN", 2);
  ot_out(&t, "FpnRois", "out");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "collect_fpn_proposals", "'n0'", "counts 2 regions", NULL);
  ot_end(&t);
  /* collect: a score per region */
  ot_begin(&t);
  ot_feed(&t, "r0", rand_t(IC_FP32, 2, TU_DIMS(3, 4), 1, 0, 10));
  ot_feed(&t, "s0", rand_t(IC_FP32, 2, TU_DIMS(2, 1), 2, 0, 1));
  ot_op(&t, "collect_fpn_proposals");
  ic_builder_input(t.op, "MultiLevelRois", 1, TU_NAMES("r0"));
  ic_builder_input(t.op, "MultiLevelScores", 1, TU_NAMES("s0"));
  ic_builder_attr_int(t.op, "post_nms_topN", 2);
  ot_out(&t, "FpnRois", "out");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "collect_fpn_proposals", "'s0'", "one score per region (3)", NULL);
  ot_end(&t);
  /* matrix_nms: boxes that do not match the scores */
  ot_begin(&t);
  ot_feed(&t, "b", rand_t(IC_FP32, 3, TU_DIMS(1, 5, 4), 1, 0, 1));
  ot_feed(&t, "s", rand_t(IC_FP32, 3, TU_DIMS(1, 2, 6), 2, 0, 1));
  ot_op(&t, "matrix_nms");
  ic_builder_in(t.op, "BBoxes", "b");
  ic_builder_in(t.op, "Scores", "s");
  ic_builder_attr_float(t.op, "score_threshold", 0.1f);
  ic_builder_attr_int(t.op, "nms_top_k", -1);
  ic_builder_attr_int(t.op, "keep_top_k", -1);
  ot_out(&t, "Out", "out");
  ck_assert_int_eq(ot_run(&t), IC_ERR_SHAPE);
  tu_assert_msg(t.err, "matrix_nms", "'b'", "[1, 6, 4]", NULL);
  ot_end(&t);
  /* matrix_nms: a required attribute missing */
  ot_begin(&t);
  ot_feed(&t, "b", rand_t(IC_FP32, 3, TU_DIMS(1, 6, 4), 1, 0, 1));
  ot_feed(&t, "s", rand_t(IC_FP32, 3, TU_DIMS(1, 2, 6), 2, 0, 1));
  ot_op(&t, "matrix_nms");
  ic_builder_in(t.op, "BBoxes", "b");
  ic_builder_in(t.op, "Scores", "s");
  ic_builder_attr_float(t.op, "score_threshold", 0.1f);
  ic_builder_attr_int(t.op, "keep_top_k", -1);
  ot_out(&t, "Out", "out");
  ck_assert_int_eq(ot_run(&t), IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(t.err, "matrix_nms", "nms_top_k", NULL);
  ot_end(&t);
}
END_TEST

/* rpn_target_assign with use_random (its exact modes are Paddle oracle cases in
 * paddle_ctrl_lod): the anchors of gen_ctrl_oracle.py's det_anchors, two images. Invariants
 * against the same op without sampling (rpn_fg_fraction 0: every candidate): per image at
 * most int(16 * 0.25) = 4 fg, the bg count min(candidates, 16 - kept fg), bg picked among the
 * bg candidates, fg among the fg or bg ones, ScoreIndex fg then bg each ascending, TargetLabel
 * 1 then 0, BBoxInsideWeight 0 rows exactly for the fake entries (LocationIndex rows beyond the
 * fg); tu_run checks that every executor configuration picks the same anchors. A bad IsCrowd
 * fails naming it. */
static void rpn_feed(optest *t, bool bad_crowd) {
  float an[48 * 4];
  int k = 0;
  for (int y = 0; y < 4; y++) {
    for (int x = 0; x < 4; x++) {
      for (int s = 12; s <= 40; s += s == 12 ? 12 : 16) {
        const float cx = 8.0f + 16.0f * (float)x, cy = 8.0f + 16.0f * (float)y;
        an[k++] = cx - (float)s / 2, an[k++] = cy - (float)s / 2;
        an[k++] = cx + (float)s / 2 - 1, an[k++] = cy + (float)s / 2 - 1;
      }
    }
  }
  static const uint64_t go[] = {0, 3, 5};
  const uint64_t *goffs[] = {go};
  ic_tensor *gt = tu_f32(2, TU_DIMS(5, 4), F32S(2, 3, 26, 30, 30, 28, 60, 58, 5, 40, 20, 62,
                                                10, 6, 40, 22, 2, 2, 30, 30));
  ck_assert_int_eq(ic_tensor_set_lod(gt, 1, (const size_t[]){3}, goffs), IC_OK);
  ic_tensor *cr = tu_i32(2, TU_DIMS(bad_crowd ? 4 : 5, 1), (const int32_t[]){0, 0, 1, 0, 0});
  static const uint64_t bo[] = {0, 3, 4};
  const uint64_t *boffs[] = {bad_crowd ? bo : go};
  ck_assert_int_eq(ic_tensor_set_lod(cr, 1, (const size_t[]){3}, boffs), IC_OK);
  ot_feed(t, "anchor", tu_f32(2, TU_DIMS(48, 4), an));
  ot_feed(t, "gt", gt);
  ot_feed(t, "crowd", cr);
  ot_feed(t, "im_info", tu_f32(2, TU_DIMS(2, 3), F32S(64, 64, 1, 60, 56, 0.5f)));
}

static void rpn_run(optest *t, bool random, float fraction, bool bad_crowd) {
  ot_begin(t);
  rpn_feed(t, bad_crowd);
  ot_op(t, "rpn_target_assign");
  ic_builder_in(t->op, "Anchor", "anchor");
  ic_builder_in(t->op, "GtBoxes", "gt");
  ic_builder_in(t->op, "IsCrowd", "crowd");
  ic_builder_in(t->op, "ImInfo", "im_info");
  ic_builder_attr_int(t->op, "rpn_batch_size_per_im", 16);
  ic_builder_attr_float(t->op, "rpn_straddle_thresh", -1.0f);
  ic_builder_attr_float(t->op, "rpn_positive_overlap", 0.5f);
  ic_builder_attr_float(t->op, "rpn_negative_overlap", 0.3f);
  ic_builder_attr_float(t->op, "rpn_fg_fraction", fraction);
  ic_builder_attr_bool(t->op, "use_random", random);
  ot_out(t, "LocationIndex", "loc");
  ot_out(t, "ScoreIndex", "score");
  ot_out(t, "TargetBBox", "tbox");
  ot_out(t, "TargetLabel", "tlbl");
  ot_out(t, "BBoxInsideWeight", "biw");
}

START_TEST(rpn_target_assign_random) {
  optest all, det_, rnd;
  rpn_run(&all, false, 0.0f, false);
  ot_ok(&all);
  rpn_run(&det_, false, 0.25f, false);
  ot_ok(&det_);
  rpn_run(&rnd, true, 0.25f, false);
  ot_ok(&rnd);
  size_t n;
  const uint64_t *al = ic_tensor_lod(all.out[1], 0, &n), *all_loc = ic_tensor_lod(all.out[0], 0, &n);
  const uint64_t *sl = ic_tensor_lod(rnd.out[1], 0, &n), *ll = ic_tensor_lod(rnd.out[0], 0, &n);
  const uint64_t *dl = ic_tensor_lod(det_.out[1], 0, &n);
  ck_assert_uint_eq(n, 3);
  const int32_t *as = ic_tensor_cdata(all.out[1]), *alb = ic_tensor_cdata(all.out[3]);
  const int32_t *rs = ic_tensor_cdata(rnd.out[1]), *rl = ic_tensor_cdata(rnd.out[3]), *rloc = ic_tensor_cdata(rnd.out[0]);
  const int32_t *ds = ic_tensor_cdata(det_.out[1]);
  const float *biw = ic_tensor_cdata(rnd.out[4]);
  bool differs = false;
  for (int im = 0; im < 2; im++) {
    int64_t afg = 0, abg = 0, fg = 0, bg = 0;
    for (uint64_t k = al[im]; k < al[im + 1]; k++) *(alb[k] ? &afg : &abg) += 1;
    const int64_t cand = (int64_t)(all_loc[im + 1] - all_loc[im]); /* fg candidates */
    for (uint64_t k = sl[im]; k < sl[im + 1]; k++) {
      const bool is_fg = rl[k] == 1;
      ck_assert(rl[k] == 0 || rl[k] == 1);
      if (k > sl[im]) { /* fg then bg, each ascending */
        ck_assert(rl[k - 1] >= rl[k]);
        if (rl[k - 1] == rl[k]) ck_assert_int_lt(rs[k - 1], rs[k]);
      }
      bool in_bg = false, in_fg = false;
      for (uint64_t q = al[im]; q < al[im + 1]; q++) {
        if (as[q] == rs[k]) *(alb[q] ? &in_fg : &in_bg) = true;
      }
      ck_assert(is_fg ? (in_fg || in_bg) : in_bg);
      *(is_fg ? &fg : &bg) += 1;
      ck_assert_int_ge(rs[k], im * 48);
      ck_assert_int_lt(rs[k], im * 48 + 48);
    }
    const int64_t kept_fg = cand < 4 ? cand : 4, want_bg = abg < 16 - kept_fg ? abg : 16 - kept_fg;
    ck_assert_int_le(fg, 4);
    ck_assert_int_eq(bg, want_bg);
    const int64_t nloc = (int64_t)(ll[im + 1] - ll[im]);
    ck_assert_int_ge(nloc, fg);
    for (int64_t k = 0; k < nloc; k++) {
      const bool fake = k < nloc - fg;
      for (int q = 0; q < 4; q++) ck_assert(biw[((int64_t)ll[im] + k) * 4 + q] == (fake ? 0.0f : 1.0f));
      if (!fake) { /* the real entries are the fg of ScoreIndex */
        ck_assert_int_eq(rloc[(int64_t)ll[im] + k], rs[sl[im] + (uint64_t)(k - (nloc - fg))]);
      }
    }
    if (sl[im + 1] - sl[im] != dl[im + 1] - dl[im] ||
        memcmp(rs + sl[im], ds + dl[im], (sl[im + 1] - sl[im]) * sizeof *rs)) {
      differs = true;
    }
  }
  ck_assert_msg(differs, "use_random picked the same anchors as use_random false");
  ot_end(&all);
  ot_end(&det_);
  ot_end(&rnd);
  optest bad;
  rpn_run(&bad, true, 0.25f, true);
  ck_assert_int_ne(ot_run(&bad), IC_OK);
  tu_assert_msg(bad.err, "rpn_target_assign", "IsCrowd", NULL);
  ot_end(&bad);
}
END_TEST

/* generate_proposal_labels with use_random (the exact modes are Paddle oracle cases in
 * paddle_ctrl_lod): 40 rois per image around 2 ground truths; batch 16, fg fraction 0.25. The
 * per-image counts (LoD) are use_random false's, fg rows have a truth's class and
 * MaxOverlapWithGT >= fg_thresh 0.5, bg rows class 0 and an overlap in [0, 0.5), and the
 * picks differ from use_random false's; tu_run checks every executor configuration picks the
 * same rows. A class >= class_nums fails naming GtClasses. */
static void gpl_run(optest *t, bool random, int bad_class) {
  ot_begin(t);
  float rois[80 * 4];
  uint64_t s = 7;
  for (int i = 0; i < 80; i++) {
    const float cx = (float)(20 + 20 * rnd(&s)), cy = (float)(20 + 20 * rnd(&s));
    const float w = (float)(8 + 24 * rnd(&s)), h = (float)(8 + 24 * rnd(&s));
    rois[i * 4] = cx - w / 2, rois[i * 4 + 1] = cy - h / 2;
    rois[i * 4 + 2] = cx + w / 2, rois[i * 4 + 3] = cy + h / 2;
  }
  static const uint64_t ro[] = {0, 40, 80}, go[] = {0, 2, 4};
  const uint64_t *roffs[] = {ro}, *goffs[] = {go};
  ic_tensor *r = tu_f32(2, TU_DIMS(80, 4), rois);
  ck_assert_int_eq(ic_tensor_set_lod(r, 1, (const size_t[]){3}, roffs), IC_OK);
  ic_tensor *cl = tu_i32(2, TU_DIMS(4, 1), (const int32_t[]){3, 1, bad_class ? bad_class : 2, 4});
  ic_tensor *cr = tu_i32(2, TU_DIMS(4, 1), (const int32_t[]){0, 0, 0, 0});
  ic_tensor *gt = tu_f32(2, TU_DIMS(4, 4), F32S(15, 15, 35, 35, 22, 18, 44, 40, 10, 20, 30, 36,
                                                26, 24, 40, 42));
  ck_assert_int_eq(ic_tensor_set_lod(cl, 1, (const size_t[]){3}, goffs), IC_OK);
  ck_assert_int_eq(ic_tensor_set_lod(cr, 1, (const size_t[]){3}, goffs), IC_OK);
  ck_assert_int_eq(ic_tensor_set_lod(gt, 1, (const size_t[]){3}, goffs), IC_OK);
  ot_feed(t, "rois", r);
  ot_feed(t, "cls", cl);
  ot_feed(t, "crowd", cr);
  ot_feed(t, "gt", gt);
  ot_feed(t, "im_info", tu_f32(2, TU_DIMS(2, 3), F32S(64, 64, 1, 64, 64, 1)));
  ot_op(t, "generate_proposal_labels");
  ic_builder_in(t->op, "RpnRois", "rois");
  ic_builder_in(t->op, "GtClasses", "cls");
  ic_builder_in(t->op, "IsCrowd", "crowd");
  ic_builder_in(t->op, "GtBoxes", "gt");
  ic_builder_in(t->op, "ImInfo", "im_info");
  ic_builder_attr_int(t->op, "batch_size_per_im", 16);
  ic_builder_attr_float(t->op, "fg_fraction", 0.25f);
  ic_builder_attr_float(t->op, "fg_thresh", 0.5f);
  ic_builder_attr_float(t->op, "bg_thresh_hi", 0.5f);
  ic_builder_attr_float(t->op, "bg_thresh_lo", 0.0f);
  ic_builder_attr_floats(t->op, "bbox_reg_weights", 4, F32S(0.1f, 0.1f, 0.2f, 0.2f));
  ic_builder_attr_int(t->op, "class_nums", 5);
  ic_builder_attr_bool(t->op, "use_random", random);
  ot_out(t, "Rois", "o_rois");
  ot_out(t, "LabelsInt32", "o_lbl");
  ot_out(t, "BboxTargets", "o_tgt");
  ot_out(t, "BboxInsideWeights", "o_iw");
  ot_out(t, "BboxOutsideWeights", "o_ow");
  ot_out(t, "MaxOverlapWithGT", "o_mo");
}

START_TEST(generate_proposal_labels_random) {
  optest det_, rnd_;
  gpl_run(&det_, false, 0);
  ot_ok(&det_);
  gpl_run(&rnd_, true, 0);
  ot_ok(&rnd_);
  size_t n, m;
  const uint64_t *dl = ic_tensor_lod(det_.out[0], 0, &n), *rl = ic_tensor_lod(rnd_.out[0], 0, &m);
  ck_assert_uint_eq(n, 3);
  ck_assert_uint_eq(m, 3);
  ck_assert_mem_eq(dl, rl, 3 * sizeof *dl);
  const int32_t *lbl = ic_tensor_cdata(rnd_.out[1]);
  const float *mo = ic_tensor_cdata(rnd_.out[5]), *iw = ic_tensor_cdata(rnd_.out[3]);
  const float *rr = ic_tensor_cdata(rnd_.out[0]), *dr = ic_tensor_cdata(det_.out[0]);
  for (int im = 0; im < 2; im++) {
    int64_t fg = 0;
    for (uint64_t k = rl[im]; k < rl[im + 1]; k++) {
      if (lbl[k] > 0) {
        ck_assert_uint_eq(k, rl[im] + (uint64_t)fg); /* fg rows first */
        fg++;
        ck_assert(mo[k] >= 0.5f);
        ck_assert(lbl[k] == (im ? 2 : 3) || lbl[k] == (im ? 4 : 1));
        for (int q = 0; q < 4; q++) ck_assert(iw[k * 20 + 4 * (uint64_t)lbl[k] + q] == 1.0f);
      } else {
        ck_assert_int_eq(lbl[k], 0);
        ck_assert(mo[k] >= 0.0f && mo[k] < 0.5f);
      }
    }
    ck_assert_int_le(fg, 4);
    ck_assert_int_le((int64_t)(rl[im + 1] - rl[im]), 16);
  }
  ck_assert_msg(memcmp(rr, dr, rl[2] * 4 * sizeof *rr) != 0,
                "use_random picked the same rois as use_random false");
  ot_end(&det_);
  ot_end(&rnd_);
  optest bad;
  gpl_run(&bad, true, 5);
  ck_assert_int_ne(ot_run(&bad), IC_OK);
  tu_assert_msg(bad.err, "generate_proposal_labels", "GtClasses", "class 5", NULL);
  ot_end(&bad);
}
END_TEST

static TCase *tc_priors(void) {
  TCase *tc = tcase_create("priors");
  tcase_add_test(tc, prior_box_modes);
  tcase_add_test(tc, prior_box_errors);
  tcase_add_test(tc, box_coder_modes);
  tcase_add_test(tc, box_coder_errors);
  tcase_add_test(tc, yolo_box_modes);
  tcase_add_test(tc, yolo_box_errors);
  tcase_add_test(tc, density_prior_box_modes);
  tcase_add_test(tc, density_prior_box_errors);
  tcase_add_test(tc, anchor_generator_modes);
  tcase_add_test(tc, anchor_generator_errors);
  tcase_add_test(tc, box_clip_images);
  tcase_add_test(tc, roi_align_modes);
  tcase_add_test(tc, roi_align_errors);
  tcase_add_test(tc, roi_pool_lod);
  tcase_add_test(tc, target_assign_values);
  tcase_add_test(tc, rpn_target_assign_random);
  tcase_add_test(tc, generate_proposal_labels_random);
  tcase_add_test(tc, yolov3_loss_bad);
  tcase_add_test(tc, roi_pool_errors);
  return tc;
}

static TCase *tc_nms(void) {
  TCase *tc = tcase_create("nms");
  tcase_add_test(tc, nms_shared_layout);
  tcase_add_test(tc, nms_per_class_layout);
  tcase_add_test(tc, nms_many_kept);
  tcase_add_test(tc, nms_hand_checked);
  tcase_add_test(tc, nms_output_consumed);
  tcase_add_test(tc, nms_errors);
  tcase_add_test(tc, nms_poly_hand_checked);
  tcase_add_test(tc, nms_poly_self_crossing);
  tcase_add_test(tc, poly_geometry);
  tcase_add_test(tc, matrix_nms_modes);
  tcase_add_test(tc, distribute_fpn_levels);
  tcase_add_test(tc, collect_fpn_topn);
  tcase_add_test(tc, generate_proposals_modes);
  tcase_add_test(tc, generate_proposals_errors);
  tcase_add_test(tc, proposal_op_errors);
  return tc;
}

TU_MAIN("ops_detection", tc_priors, tc_nms)
