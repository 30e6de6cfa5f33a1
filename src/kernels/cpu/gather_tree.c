/* gather_tree: the full beams of a beam search from its per-step ids and parent beams
 * (phi GatherTreeKernel): Ids and Parents are [steps, batch, beam]; Out[T-1] = Ids[T-1], and
 * going back, Out[t][b][k] = Ids[t][b][p] where p starts at Parents[T-1][b][k] and becomes
 * Parents[t][b][p] after each step. int32 or int64; a parent outside [0, beam) fails. */
#include "kernels/kernel.h"

static ic_status infer(ic_kctx *c) {
  const ic_tensor *ids = ic_in(c, 0, 0), *par = ic_in(c, 1, 0);
  if (ic_kcheck_dtype(c, 0, 0, IC_DT_INT)) return c->err->code;
  if (ids->ndim != 3) return ic_kfail_in(c, 0, 0, "expected rank 3 [steps, batch, beam]");
  if (par->dtype != ids->dtype || !ic_dims_equal(par->ndim, par->dims, ids->ndim, ids->dims)) {
    char d0[96], d1[96];
    return ic_kfail(c, IC_ERR_SHAPE, "input Parents '%s' is %s, Ids '%s' %s: expected the same dtype and dims",
                    ic_in_name(c, 1, 0), ic_tensor_describe(par, d0, sizeof d0), ic_in_name(c, 0, 0),
                    ic_tensor_describe(ids, d1, sizeof d1));
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), ids->dtype, 3, ids->dims);
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_tensor *ids = ic_in(c, 0, 0), *par = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  int64_t steps = ids->dims[0], batch = ids->dims[1], beam = ids->dims[2];
  bool i64 = ids->dtype == IC_INT64;
#define AT(t, k) (i64 ? ((const int64_t *)(t)->data)[k] : (int64_t)((const int32_t *)(t)->data)[k])
  for (int64_t b = 0; steps > 0 && b < batch; b++) {
    for (int64_t k = 0; k < beam; k++) {
      int64_t idx = (steps - 1) * batch * beam + b * beam + k;
      int64_t v = AT(ids, idx), p = AT(par, idx);
      if (i64) ((int64_t *)out->data)[idx] = v;
      else ((int32_t *)out->data)[idx] = (int32_t)v;
      for (int64_t t = steps - 2; t >= 0; t--) {
        if (p < 0 || p >= beam) {
          return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input Parents '%s' holds %lld at step %lld, batch %lld: expected a beam in [0, %lld)",
                          ic_in_name(c, 1, 0), (long long)p, (long long)(t + 1), (long long)b, (long long)beam);
        }
        int64_t base = t * batch * beam + b * beam;
        v = AT(ids, base + p);
        if (i64) ((int64_t *)out->data)[base + k] = v;
        else ((int32_t *)out->data)[base + k] = (int32_t)v;
        p = AT(par, base + p);
      }
    }
  }
#undef AT
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"Ids", 0}, {"Parents", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_gather_tree = {
    .name = "gather_tree",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
