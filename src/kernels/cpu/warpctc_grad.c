/* warpctc_grad: Logits@GRAD from the gradient warpctc saved (WarpCTCGrad [Tmax, B, C], the
 * loss's gradient with respect to the logits) and Loss@GRAD [B, 1]: each sequence's slice
 * times its Loss@GRAD, and with norm_by_times also divided by its number of steps
 * (paddle/phi/kernels/impl/warpctc_grad_kernel_impl.h).
 *   - Padded mode (LogitsLength given): Logits@GRAD [Tmax, B, C] like WarpCTCGrad.
 *   - LoD mode: Logits@GRAD has the dims and LoD of Logits ([sum T, C]): the rows of sequence
 *     b are WarpCTCGrad[t, b, :] for its steps t. */
#include <string.h>

#include "kernels/kernel.h"

enum { IN_LOGITS, IN_GRAD, IN_DLOSS, IN_LOGITS_LEN };
/* Logits is read for its dims and LoD only (the executors keep a meta-only input of an
 * IC_OP_LOD op alive, LoD included, until the op has run: test_train's ctc_lod). */
static const ic_slotdef k_inputs[4] = {{"Logits", IC_SLOT_NO_BUFFER},
                                       {"WarpCTCGrad", 0},
                                       {"Loss@GRAD", 0},
                                       {"LogitsLength", IC_SLOT_OPTIONAL}};
static const ic_slotdef k_outputs[1] = {{"Logits@GRAD", 0}};

typedef struct ctcg_attrs {
  int64_t blank;
  bool norm_by_times;
} ctcg_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ctcg_attrs *a = attrs;
  a->blank = ic_ar_int(r, "blank", 0);
  a->norm_by_times = ic_ar_bool(r, "norm_by_times", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, IN_LOGITS, 0), *wg = ic_in(c, IN_GRAD, 0);
  const ic_tensor *dl = ic_in(c, IN_DLOSS, 0), *xl = ic_in(c, IN_LOGITS_LEN, 0);
  ic_status st = ic_kcheck_dtype(c, IN_GRAD, 0, IC_DT_FLOAT);
  if (!st) st = ic_kcheck_dtype(c, IN_DLOSS, 0, IC_DT(wg->dtype));
  if (st) return st;
  if (wg->ndim != 3) {
    return ic_kfail_in(c, IN_GRAD, 0, "expected [max time, batch, classes] (warpctc's output)");
  }
  const int64_t Tmax = wg->dims[0], B = wg->dims[1], C = wg->dims[2];
  if (ic_tensor_numel_(dl) != B) {
    return ic_kfail_in(c, IN_DLOSS, 0, "expected %lld values (one per sequence)", (long long)B);
  }
  ic_tensor *dx = ic_out(c, 0, 0);
  if (xl) {
    if ((st = ic_kcheck_dtype(c, IN_LOGITS_LEN, 0, IC_DT_INT))) return st;
    if (ic_tensor_numel_(xl) != B) {
      return ic_kfail_in(c, IN_LOGITS_LEN, 0, "expected %lld lengths (one per sequence)",
                         (long long)B);
    }
    ic_tensor_set_meta(dx, wg->dtype, 3, wg->dims);
    return ic_kset_lod(c, dx, NULL, false);
  }
  size_t ns;
  const uint64_t *off = ic_kseq(c, IN_LOGITS, 0, 0, &ns);
  if (!off) return c->err->code;
  if ((int64_t)ns != B || x->ndim < 1 || x->dims[0] <= 0 ||
      off[ns] != (uint64_t)x->dims[0] || ic_tensor_numel_(x) / x->dims[0] != C) {
    return ic_kfail_in(c, IN_LOGITS, 0, "expected %lld sequences of rows of %lld values covered "
                       "by its LoD (those of WarpCTCGrad '%s')", (long long)B, (long long)C,
                       ic_in_name(c, IN_GRAD, 0));
  }
  for (size_t b = 0; b < ns; b++) {
    if (off[b + 1] - off[b] > (uint64_t)Tmax) {
      return ic_kfail_in(c, IN_LOGITS, 0, "has a sequence of %llu steps, more than the %lld of "
                         "WarpCTCGrad '%s'", (unsigned long long)(off[b + 1] - off[b]),
                         (long long)Tmax, ic_in_name(c, IN_GRAD, 0));
    }
  }
  ic_tensor_set_meta(dx, wg->dtype, x->ndim, x->dims);
  ic_lod *l = ic_lod_new(x->lod->n_levels, x->lod->lens); /* Logits' LoD */
  if (l) {
    for (size_t k = 0; k < l->n_levels; k++) {
      memcpy(l->offsets[k], x->lod->offsets[k], l->lens[k] * sizeof(uint64_t));
    }
  }
  return ic_kset_lod(c, dx, l, true);
}

static ic_status run(ic_kctx *c) {
  const ctcg_attrs *a = c->attrs;
  const ic_tensor *wg = ic_in(c, IN_GRAD, 0), *dl = ic_in(c, IN_DLOSS, 0);
  const ic_tensor *xl = ic_in(c, IN_LOGITS_LEN, 0), *x = ic_in(c, IN_LOGITS, 0);
  ic_tensor *dx = ic_out(c, 0, 0);
  const int64_t Tmax = wg->dims[0], B = wg->dims[1], C = wg->dims[2];
  const bool f64 = wg->dtype == IC_FP64;
  const uint64_t *off = NULL;
  if (!xl) off = x->lod->offsets[x->lod->n_levels - 1];
  for (int64_t b = 0; b < B; b++) {
    const int64_t T = xl ? ic_read_i64(xl, b) : (int64_t)(off[b + 1] - off[b]);
    double scale = ic_read_f64(dl, b);
    if (a->norm_by_times) {
      /* Paddle divides by the length as the logits' type: a zero length gives inf (or nan) */
      scale = f64 ? scale * (1.0 / (double)T) : (double)((float)scale * (1.0f / (float)T));
    }
    /* Padded: every step t < Tmax (WarpCTCGrad is zero past the end); LoD: the T rows. */
    const int64_t steps = xl ? Tmax : T;
    for (int64_t t = 0; t < steps; t++) {
      const int64_t src = (t * B + b) * C;
      const int64_t dst = xl ? src : ((int64_t)off[b] + t) * C;
      if (f64) {
        const double *s = (const double *)wg->data + src;
        double *d = (double *)dx->data + dst;
        for (int64_t k = 0; k < C; k++) d[k] = s[k] * scale;
      } else {
        const float *s = (const float *)wg->data + src;
        float *d = (float *)dx->data + dst;
        const float fs = (float)scale;
        for (int64_t k = 0; k < C; k++) d[k] = s[k] * fs;
      }
    }
  }
  return IC_OK;
}

const ic_opdef ic_op_warpctc_grad = {
    .name = "warpctc_grad", .n_inputs = 4, .inputs = k_inputs, .n_outputs = 1,
    .outputs = k_outputs, .attrs_size = sizeof(ctcg_attrs), .parse = parse, .infer = infer,
    .cpu = run, .flags = IC_OP_LOD, /* Logits@GRAD: Logits' LoD in LoD mode */
};
