/* update_loss_scaling: AMP's dynamic loss scale (phi UpdateLossScalingKernel, CPU; X float32
 * or float64, PrevLossScaling of X's dtype, InGoodSteps and InBadSteps one int32 each,
 * FoundInfinite and the optional StopUpdate one bool each). With found = FoundInfinite:
 *   Out[i] = 0 (X[i]'s dims) when found, else X[i] (Paddle leaves Out unwritten then: its
 *            programs name X[i] itself);
 *   stop = StopUpdate when given, else the stop_update attribute; when stop, LossScaling,
 *          OutGoodSteps and OutBadSteps keep PrevLossScaling, InGoodSteps and InBadSteps;
 *   found:     good = 0, bad = InBadSteps + 1; when bad == decr_every_n_nan_or_inf:
 *              LossScaling = max(PrevLossScaling decr_ratio, 1) and bad = 0;
 *   otherwise: bad = 0, good = InGoodSteps + 1; when good == incr_every_n_steps:
 *              LossScaling = PrevLossScaling incr_ratio if that is finite (else
 *              PrevLossScaling) and good = 0;
 *   LossScaling otherwise keeps PrevLossScaling. The four step and ratio attributes are
 *   required (Paddle's op has no defaults for them); stop_update defaults to false.
 * Every output updates its input in place (ic_update_loss_scaling_inplace, train.h). */
#include <math.h>
#include <string.h>

#include "kernels/cpu/train.h"

typedef struct uls_attrs {
  int64_t incr_every, decr_every;
  float incr_ratio, decr_ratio;
  bool stop_update;
} uls_attrs;

enum { IN_X, IN_FOUND, IN_PREV, IN_GOOD, IN_BAD, IN_STOP };
enum { OUT_OUT, OUT_SCALE, OUT_GOOD, OUT_BAD };

const ic_train_inplace ic_update_loss_scaling_inplace[] = {{"Out", "X"},
                                                           {"LossScaling", "PrevLossScaling"},
                                                           {"OutGoodSteps", "InGoodSteps"},
                                                           {"OutBadSteps", "InBadSteps"},
                                                           {NULL, NULL}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  uls_attrs *a = attrs;
  a->incr_every = ic_ar_int_req(r, "incr_every_n_steps");
  a->decr_every = ic_ar_int_req(r, "decr_every_n_nan_or_inf");
  a->incr_ratio = (float)ic_ar_float_req(r, "incr_ratio");
  a->decr_ratio = (float)ic_ar_float_req(r, "decr_ratio");
  a->stop_update = ic_ar_bool(r, "stop_update", false);
  return r->st;
}

static ic_status check_one(ic_kctx *c, size_t s, ic_dtype dt) {
  const ic_tensor *t = ic_in(c, s, 0);
  if (t && (t->dtype != dt || ic_tensor_numel_(t) != 1)) {
    return ic_kfail_in(c, s, 0, "expected one %s value", ic_dtype_name(dt));
  }
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const size_t n = c->in[IN_X].n;
  ic_status st;
  if (c->out[OUT_OUT].n != n) {
    return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "Out holds %zu variables, expected one per X (%zu)",
                    c->out[OUT_OUT].n, n);
  }
  /* the kernel's type is X's (float32 when there is no X); PrevLossScaling is read as it */
  ic_dtype dt = n ? ic_in(c, IN_X, 0)->dtype : IC_FP32;
  for (size_t i = 0; i < n; i++) {
    const ic_tensor *x = ic_in(c, IN_X, i);
    if ((st = ic_kcheck_dtype(c, IN_X, i, IC_DT_FLOAT))) return st;
    if (x->dtype != dt) {
      return ic_kfail_in(c, IN_X, i, "expected %s like X '%s'", ic_dtype_name(dt),
                         ic_in_name(c, IN_X, 0));
    }
    ic_tensor_set_meta(ic_out(c, OUT_OUT, i), x->dtype, x->ndim, x->dims);
  }
  if ((st = check_one(c, IN_FOUND, IC_BOOL)) || (st = check_one(c, IN_PREV, dt)) ||
      (st = check_one(c, IN_GOOD, IC_INT32)) || (st = check_one(c, IN_BAD, IC_INT32)) ||
      (st = check_one(c, IN_STOP, IC_BOOL))) {
    return st;
  }
  static const int like[] = {-1, IN_PREV, IN_GOOD, IN_BAD};
  for (int k = OUT_SCALE; k <= OUT_BAD; k++) {
    const ic_tensor *t = ic_in(c, (size_t)like[k], 0);
    ic_tensor_set_meta(ic_out(c, k, 0), t->dtype, t->ndim, t->dims);
  }
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const uls_attrs *a = c->attrs;
  const bool found = *(const bool *)ic_in(c, IN_FOUND, 0)->data;
  ic_status st;
  for (size_t i = 0; i < c->in[IN_X].n; i++) {
    ic_tensor *o = ic_out(c, OUT_OUT, i);
    const ic_tensor *x = ic_in(c, IN_X, i);
    if (!found) {
      if (o != x) ic_tensor_share(o, x);
      continue;
    }
    if ((st = ic_train_own(c, o, x))) return st;
    memset(o->data, 0, ic_tensor_nbytes(o));
  }
  const ic_tensor *prev = ic_in(c, IN_PREV, 0), *gi = ic_in(c, IN_GOOD, 0),
                  *bi = ic_in(c, IN_BAD, 0);
  ic_tensor *so = ic_out(c, OUT_SCALE, 0), *go = ic_out(c, OUT_GOOD, 0), *bo = ic_out(c, OUT_BAD, 0);
  if ((st = ic_train_own(c, so, prev)) || (st = ic_train_own(c, go, gi)) ||
      (st = ic_train_own(c, bo, bi))) {
    return st;
  }
  memcpy(so->data, prev->data, ic_tensor_nbytes(prev));
  int32_t good = *(const int32_t *)gi->data, bad = *(const int32_t *)bi->data;
  const ic_tensor *stop_t = ic_in(c, IN_STOP, 0);
  const bool stop = stop_t ? *(const bool *)stop_t->data : a->stop_update;
  if (!stop) {
    const bool f64 = prev->dtype == IC_FP64;
    const double p = f64 ? *(const double *)prev->data : *(const float *)prev->data;
    if (found) {
      good = 0;
      bad = bad + 1;
      if (bad == a->decr_every) {
        if (f64) {
          const double v = p * (double)a->decr_ratio;
          *(double *)so->data = v < 1 ? 1 : v;
        } else {
          const float v = (float)p * a->decr_ratio;
          *(float *)so->data = v < 1 ? 1 : v;
        }
        bad = 0;
      }
    } else {
      bad = 0;
      good = good + 1;
      if (good == a->incr_every) {
        if (f64) {
          const double v = p * (double)a->incr_ratio;
          *(double *)so->data = isfinite(v) ? v : p;
        } else {
          const float v = (float)p * a->incr_ratio;
          *(float *)so->data = isfinite(v) ? v : (float)p;
        }
        good = 0;
      }
    }
  }
  *(int32_t *)go->data = good;
  *(int32_t *)bo->data = bad;
  return IC_OK;
}

static const ic_slotdef inputs[] = {
    {"X", IC_SLOT_MULTI | IC_SLOT_OPTIONAL},
    {"FoundInfinite", 0},
    {"PrevLossScaling", 0},
    {"InGoodSteps", 0},
    {"InBadSteps", 0},
    {"StopUpdate", IC_SLOT_OPTIONAL},
};
static const ic_slotdef outputs[] = {
    {"Out", IC_SLOT_MULTI | IC_SLOT_OPTIONAL | IC_SLOT_SHARE},
    {"LossScaling", IC_SLOT_SHARE},
    {"OutGoodSteps", IC_SLOT_SHARE},
    {"OutBadSteps", IC_SLOT_SHARE},
};

const ic_opdef ic_op_update_loss_scaling = {
    .name = "update_loss_scaling",
    .n_inputs = 6, .inputs = inputs,
    .n_outputs = 4, .outputs = outputs,
    .attrs_size = sizeof(uls_attrs), .parse = parse,
    .infer = infer, .cpu = run,
};
