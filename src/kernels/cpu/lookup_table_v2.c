/* lookup_table_v2 (paddle.nn.Embedding): see lookup_table.c. */
#include "kernels/cpu/lookup_table.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  lookup_attrs *a = attrs;
  a->v2 = true;
  return ic_lookup_parse(r, a);
}

static const ic_slotdef inputs[] = {{"Ids", 0}, {"W", 0}};
static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_lookup_table_v2 = {
    .name = "lookup_table_v2",
    .n_inputs = 2, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(lookup_attrs), .parse = parse,
    .infer = ic_lookup_infer, .cpu = ic_lookup_run,
    .flags = IC_OP_LOD,
};
