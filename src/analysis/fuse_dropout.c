/* Inference dropouts as views (CPU plans; Paddle's delete_dropout_op_pass, ONNX Runtime's
 * Dropout elimination). A dropout that computes Out = X (kernels/cpu/dropout.c: inference,
 * is_test or no Mask output, with upscale_in_train, or dropout_prob 0, where X * (1 - 0) is X
 * for every float) copies X; as `assign`, whose Out shares X's buffer, it costs no pass and no
 * temporary, with the same bits. Taken only where nothing else changes: X float32 or float64
 * (the dropout kernel's dtypes) and not persistable, Out another variable, not persistable,
 * no Seed input (the dropout checks it) and a Mask nothing reads (an inference dropout never
 * writes it). Every transformer block Paddle exports has two or three of these (SVTR: 8). */
#include <string.h>

#include "analysis/fuse.h"

/* Whether op as written computes Out = X (dropout.c's run: is_test or no Mask, then
 * upscale_in_train copies and downgrade_in_infer multiplies by 1 - p). */
static bool computes_identity(const ic_op *op) {
  const bool is_test = ic_fuse_num_attr(op, "is_test", 0) != 0;
  const bool mask = ic_fuse_arg(op, true, "Mask") != NULL;
  if (!is_test && mask) return false;
  const ic_attr *impl = ic_op_attr(op, "dropout_implementation");
  if (impl && impl->type != IC_ATTR_STRING) return false;
  if (impl && !strcmp(impl->s, "upscale_in_train")) return true;
  if (impl && strcmp(impl->s, "downgrade_in_infer") != 0) return false;
  const ic_attr *p = ic_op_attr(op, "dropout_prob");
  return p && ic_fuse_num_attr(op, "dropout_prob", 0.5) == 0;
}

static bool plain_var(const fuser *f, const char *name, bool floats) {
  const ic_vardesc *v = name ? ic_program_find_var(f->prog, 0, name) : NULL;
  return v && v->is_tensor && !v->persistable &&
         (!floats || v->dtype == IC_FP32 || v->dtype == IC_FP64);
}

ic_status ic_fuse_dropout(fuser *f, size_t i) {
  const ic_op *op = f->seq->ops[i];
  if (strcmp(op->type, "dropout") != 0 || !computes_identity(op)) return IC_OK;
  const char *x = ic_fuse_arg(op, false, "X"), *out = ic_fuse_arg(op, true, "Out");
  const char *mask = ic_fuse_arg(op, true, "Mask");
  const ic_slot *seed = NULL;
  for (size_t s = 0; s < op->n_inputs; s++) {
    if (!strcmp(op->inputs[s].name, "Seed")) seed = &op->inputs[s];
  }
  if (!x || !out || !strcmp(x, out) || !plain_var(f, x, true) || !plain_var(f, out, true) ||
      (seed && seed->n) || (mask && !ic_fuse_unread(f, mask))) {
    return IC_OK;
  }
  for (size_t s = 0; s < op->n_outputs; s++) {
    if (op->outputs[s].n > 1) return IC_OK;
  }
  ic_arena *a = f->seq->arena;
  ic_op *as = ic_arena_alloc(a, sizeof *as);
  ic_slot *ins = ic_arena_calloc(a, 1, sizeof *ins);
  ic_slot *outs = ic_arena_calloc(a, 1, sizeof *outs);
  if (!as || !ins || !outs) return ic_err_set(f->err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  ins[0] = ic_fuse_slot1(a, "X", x);
  outs[0] = ic_fuse_slot1(a, "Out", out);
  /* The dropout's identity (block, index: errors name it) with assign's type and arguments. */
  ic_fuse_set_op(as, op, ins, 1, outs, NULL, 0);
  as->type = "assign";
  f->removed[i] = true;
  f->replace[i] = as;
  return IC_OK;
}
