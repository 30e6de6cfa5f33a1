/* adamw: Adam with decoupled weight decay (phi AdamwDenseKernel, CPU). With with_decay (the
 * default) each parameter first decays, p' = p - LearningRate * lr_ratio * coeff * p, and then
 * takes the Adam step of adam.c with the learning rate scaled by lr_ratio:
 *   ParamOut = p' - LearningRate * lr_ratio * (sqrt(1 - Beta2Pow) / (1 - Beta1Pow))
 *                   * Moment1Out / (sqrt(Moment2Out) + epsilon sqrt(1 - Beta2Pow)).
 * Without with_decay it is exactly adam. coeff defaults to 0.01, lr_ratio to 1. Slots,
 * in-place pairs and the other attributes are adam's. */
#include "kernels/cpu/train.h"

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_adam_attrs *a = attrs;
  if (ic_adam_parse(r, attrs)) return r->st;
  a->coeff = (float)ic_ar_float(r, "coeff", 0.01);
  a->lr_ratio = (float)ic_ar_float(r, "lr_ratio", 1.0);
  a->with_decay = ic_ar_bool(r, "with_decay", true);
  if (!a->with_decay) a->lr_ratio = 1.0f; /* Paddle runs plain adam then */
  return r->st;
}

const ic_opdef ic_op_adamw = {
    .name = "adamw",
    .n_inputs = 13, .inputs = ic_adam_inputs,
    .n_outputs = 7, .outputs = ic_adam_outputs,
    .attrs_size = sizeof(ic_adam_attrs), .parse = parse,
    .infer = ic_adam_infer, .cpu = ic_adam_run,
    .resolve = ic_adam_resolve,
};
