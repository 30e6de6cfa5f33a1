/* box_coder: encode boxes against priors or decode offsets back into boxes, center-size
 * style (paddle/phi/kernels/cpu/box_coder_kernel.cc, BoxCoderInferMeta).
 *
 * PriorBox is [M, 4] (xmin, ymin, xmax, ymax); the variance comes from the PriorBoxVar input
 * ([M, 4], one row per prior), else the `variance` attribute (4 values), else 1. Giving both
 * is an error, as in Paddle. Unnormalized boxes (box_normalized false) count pixels
 * inclusively: widths get +1 and decoded max corners -1.
 *   encode_center_size: TargetBox [N, 4] -> OutputBox [N, M, 4],
 *     ((tcx - pcx) / pw, (tcy - pcy) / ph, log|tw / pw|, log|th / ph|) / variance.
 *   decode_center_size: TargetBox [N, M, 4] offsets -> OutputBox [N, M, 4] boxes; with
 *     axis 0 prior j serves column j (PriorBox [M, 4]), with axis 1 prior i serves row i
 *     (PriorBox [N, 4]). Paddle's float64 kernel reads the float `variance` attribute through
 *     a double pointer (garbage); here the attribute's values are used for both dtypes.
 * OutputBox carries TargetBox's LoD, as in Paddle. */
#include <math.h>
#include <string.h>

#include "kernels/cpu/detection.h"

typedef struct bc_attrs {
  bool decode, normalized;
  int axis;
  double var[4];
  bool has_var;
} bc_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  bc_attrs *a = attrs;
  const char *code = ic_ar_str(r, "code_type", "encode_center_size");
  a->normalized = ic_ar_bool(r, "box_normalized", true);
  int64_t axis = ic_ar_int(r, "axis", 0);
  const double *v = NULL;
  size_t nv = 0;
  ic_ar_floats(r, "variance", false, &v, &nv);
  if (r->st) return r->st;
  if (strcmp(code, "encode_center_size") == 0) a->decode = false;
  else if (strcmp(code, "decode_center_size") == 0) a->decode = true;
  else {
    return ic_ar_fail(r, "code_type",
                      "is '%s', expected 'encode_center_size' or 'decode_center_size'", code);
  }
  if (axis != 0 && axis != 1) {
    return ic_ar_fail(r, "axis", "is %lld, expected 0 or 1", (long long)axis);
  }
  a->axis = (int)axis;
  if (nv != 0 && nv != 4) {
    return ic_ar_fail(r, "variance", "has %zu entries, expected 4 (or none)", nv);
  }
  a->has_var = nv == 4;
  for (size_t i = 0; i < 4; i++) a->var[i] = a->has_var ? (float)v[i] : 1.0;
  return IC_OK;
}

enum { IN_PRIOR, IN_PRIOR_VAR, IN_TARGET };

static ic_status infer(ic_kctx *c) {
  const bc_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PRIOR, 0), *pv = ic_in(c, IN_PRIOR_VAR, 0),
                  *t = ic_in(c, IN_TARGET, 0);
  ic_status st = ic_kcheck_dtype(c, IN_PRIOR, 0, IC_DT_FLOAT);
  if (st) return st;
  if (t->dtype != p->dtype) return ic_kfail_in(c, IN_TARGET, 0, "expected PriorBox's dtype");
  if (p->ndim != 2 || p->dims[1] != 4) return ic_kfail_in(c, IN_PRIOR, 0, "expected [M, 4]");
  if (pv) {
    if (a->has_var) {
      return ic_kfail_in(c, IN_PRIOR_VAR, 0,
                         "is given together with the 'variance' attribute; use one of them");
    }
    if (pv->dtype != p->dtype) return ic_kfail_in(c, IN_PRIOR_VAR, 0, "expected PriorBox's dtype");
    if (!ic_dims_equal(pv->ndim, pv->dims, p->ndim, p->dims)) {
      return ic_kfail_in(c, IN_PRIOR_VAR, 0, "expected PriorBox's dims [%lld, 4]",
                         (long long)p->dims[0]);
    }
  }
  int64_t d[3];
  if (!a->decode) {
    if (t->ndim != 2 || t->dims[1] != 4) {
      return ic_kfail_in(c, IN_TARGET, 0, "expected [N, 4] for encode_center_size");
    }
    d[0] = t->dims[0], d[1] = p->dims[0], d[2] = 4;
  } else {
    if (t->ndim != 3 || t->dims[2] != 4) {
      return ic_kfail_in(c, IN_TARGET, 0, "expected [N, M, 4] for decode_center_size");
    }
    const int pd = a->axis == 0 ? 1 : 0;
    if (t->dims[pd] != p->dims[0]) {
      return ic_kfail_in(c, IN_TARGET, 0, "dim %d should equal PriorBox's %lld priors (axis %d)",
                         pd, (long long)p->dims[0], a->axis);
    }
    d[0] = t->dims[0], d[1] = t->dims[1], d[2] = 4;
  }
  ic_tensor *o = ic_out(c, 0, 0);
  ic_tensor_set_meta(o, p->dtype, 3, d);
  /* OutputBox takes TargetBox's LoD (its rows are TargetBox's: SSD's targets per image) */
  return ic_kset_lod(c, o, t->lod ? ic_lod_clone(t->lod) : NULL, t->lod != NULL);
}

/* Width, height and centre of prior j. */
static void prior(const ic_tensor *p, int64_t j, bool normalized, double *g) {
  const ic_dtype dt = p->dtype;
  double x0 = det_get(p, j * 4), y0 = det_get(p, j * 4 + 1);
  g[0] = det_round(dt, det_get(p, j * 4 + 2) - x0 + !normalized);
  g[1] = det_round(dt, det_get(p, j * 4 + 3) - y0 + !normalized);
  g[2] = det_round(dt, x0 + g[0] / 2);
  g[3] = det_round(dt, y0 + g[1] / 2);
}

static ic_status run(ic_kctx *c) {
  const bc_attrs *a = c->attrs;
  const ic_tensor *p = ic_in(c, IN_PRIOR, 0), *pv = ic_in(c, IN_PRIOR_VAR, 0),
                  *t = ic_in(c, IN_TARGET, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  const ic_dtype dt = p->dtype;
  const bool nz = a->normalized;
  const int64_t rows = o->dims[0], cols = o->dims[1];
  if (ic_tensor_numel_(p) == 0 || ic_tensor_numel_(t) == 0) {
    for (int64_t i = 0; i < ic_tensor_numel_(o); i++) det_put(o, i, 0);
    return IC_OK;
  }
  for (int64_t i = 0; i < rows; i++) {
    for (int64_t j = 0; j < cols; j++) {
      const int64_t pj = a->decode && a->axis == 1 ? i : j, off = (i * cols + j) * 4;
      double g[4], v[4];
      prior(p, pj, nz, g);
      for (int k = 0; k < 4; k++) v[k] = pv ? det_get(pv, pj * 4 + k) : a->var[k];
      if (!a->decode) {
        double b[4];
        for (int k = 0; k < 4; k++) b[k] = det_get(t, i * 4 + k);
        double tcx = det_round(dt, (b[2] + b[0]) / 2), tcy = det_round(dt, (b[3] + b[1]) / 2);
        double tw = det_round(dt, b[2] - b[0] + !nz), th = det_round(dt, b[3] - b[1] + !nz);
        double r[4] = {det_round(dt, (tcx - g[2]) / g[0]), det_round(dt, (tcy - g[3]) / g[1]),
                       det_round(dt, log(fabs(tw / g[0]))), det_round(dt, log(fabs(th / g[1])))};
        for (int k = 0; k < 4; k++) det_put(o, off + k, (pv || a->has_var) ? r[k] / v[k] : r[k]);
      } else {
        double b[4];
        for (int k = 0; k < 4; k++) b[k] = det_get(t, off + k);
        double cx = det_round(dt, v[0] * b[0] * g[0] + g[2]);
        double cy = det_round(dt, v[1] * b[1] * g[1] + g[3]);
        double w = det_round(dt, exp(v[2] * b[2]) * g[0]);
        double h = det_round(dt, exp(v[3] * b[3]) * g[1]);
        det_put(o, off, cx - w / 2);
        det_put(o, off + 1, cy - h / 2);
        det_put(o, off + 2, cx + w / 2 - !nz);
        det_put(o, off + 3, cy + h / 2 - !nz);
      }
    }
  }
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"PriorBox", 0}, {"PriorBoxVar", IC_SLOT_OPTIONAL}, {"TargetBox", 0}};
static const ic_slotdef outputs[] = {{"OutputBox", 0}};

const ic_opdef ic_op_box_coder = {
    .name = "box_coder",
    .n_inputs = 3, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(bc_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_LOD,
};
