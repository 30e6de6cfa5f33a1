/* lod_array_length: Out = the element count of the LoDTensorArray X, as int64 [1]. */
#include "kernels/kernel.h"
#include "scope/scope.h"

static ic_status infer(ic_kctx *c) {
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_INT64, 1, (const int64_t[]){1});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const ic_variable *a = c->in[0].vars[0];
  *(int64_t *)ic_out(c, 0, 0)->data = a->kind == IC_VK_ARRAY ? (int64_t)a->n_list : 0;
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"X", IC_SLOT_ARRAY}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_lod_array_length = {
    .name = "lod_array_length",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .infer = infer, .cpu = run,
};
