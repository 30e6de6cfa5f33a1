/* Control-flow ops' sub_block and a recurrent op's links, checked (ctrlspec.h). */
#include "program/ctrlspec.h"

#include <string.h>

int ic_ctrl_sub_block(const ic_program *p, const ic_op *op, ic_err *err) {
  const ic_attr *sb = ic_op_attr(op, "sub_block");
  char where[160];
  if (!sb || sb->type != IC_ATTR_BLOCK || sb->i <= 0 || (size_t)sb->i >= p->n_blocks ||
      p->blocks[sb->i].parent != op->block) {
    ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: bad sub_block attribute",
               ic_op_where(op, where, sizeof where));
    return -1;
  }
  return (int)sb->i;
}

static const char *const *strings_attr(const ic_op *op, const char *name, size_t *n, bool *bad) {
  const ic_attr *a = ic_op_attr(op, name);
  *n = 0;
  if (!a) return NULL;
  if (a->type != IC_ATTR_STRINGS) {
    *bad = true;
    return NULL;
  }
  *n = a->n;
  return (const char *const *)a->strings;
}

ic_status ic_ctrl_rnn_spec(const ic_program *p, const ic_op *op, ic_rnn_spec *s, ic_err *err) {
  char where[160];
  memset(s, 0, sizeof *s);
  if ((s->block = ic_ctrl_sub_block(p, op, err)) < 0) return err->code;
  ic_op_where(op, where, sizeof where);
  const ic_slot *in = ic_op_input(op, "inputs"), *init = ic_op_input(op, "initial_states");
  /* recurrent_grad reads the forward's outputs (an input slot there); its links are the
   * forward step block's variables, its sub_block is the grad block of that block */
  bool grad = strcmp(op->type, "recurrent_grad") == 0;
  const ic_slot *out = grad ? ic_op_input(op, "outputs") : ic_op_output(op, "outputs");
  int fblk = s->block;
  if (grad) {
    fblk = p->blocks[s->block].forward;
    if (fblk < 0 || (size_t)fblk >= p->n_blocks) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: its sub_block (block %d) is not the "
                        "grad block of a step block (no forward block)", where, s->block);
    }
  }
  if (!in || !in->n) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: no `inputs` variable (the sequence "
                      "length is their leading dimension)", where);
  }
  s->n_in = in->n;
  s->in = (const char *const *)in->args;
  s->n_out = out ? out->n : 0;
  s->out = out ? (const char *const *)out->args : NULL;
  if (grad) {
    /* each gradient slot lists one name (or @EMPTY@) per variable of its slot, as Paddle's
     * grad op maker writes them */
    static const char *const pairs[][2] = {{"inputs", "inputs@GRAD"},
                                           {"initial_states", "initial_states@GRAD"},
                                           {"parameters", "parameters@GRAD"},
                                           {"outputs", "outputs@GRAD"}};
    for (size_t k = 0; k < 4; k++) {
      const ic_slot *x = ic_op_input(op, pairs[k][0]);
      const ic_slot *g = k < 3 ? ic_op_output(op, pairs[k][1]) : ic_op_input(op, pairs[k][1]);
      size_t nx = x ? x->n : 0, ng = g ? g->n : 0;
      if (ng != nx && !(k < 2 && ng == 0)) {
        return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: %zu %s for %zu %s, expected one "
                          "per variable", where, ng, pairs[k][1], nx, pairs[k][0]);
      }
    }
  }
  const ic_attr *rev = ic_op_attr(op, "reverse");
  s->reverse = rev && rev->i != 0;
  bool bad = false;
  size_t n_ex, n_st;
  s->ex = strings_attr(op, "ex_states", &n_ex, &bad);
  s->st = strings_attr(op, "states", &n_st, &bad);
  if (bad) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: ex_states and states must be string "
                      "lists", where);
  }
  const ic_attr *hs = ic_op_attr(op, "has_states");
  s->has_states = hs ? hs->i != 0 : n_ex > 0;
  if (!s->has_states) return IC_OK;
  size_t n_init = init ? init->n : 0;
  if (n_ex != n_st || n_ex != n_init) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: %zu ex_states, %zu states and %zu "
                      "initial_states: each memory needs one of each", where, n_ex, n_st, n_init);
  }
  for (size_t k = 0; k < 2 * n_ex; k++) {
    const char *nm = k < n_ex ? s->ex[k] : s->st[k - n_ex];
    const ic_vardesc *d = ic_program_find_var(p, fblk, nm);
    if (!d || d->block != fblk) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: %s '%s' is not a variable of the "
                        "step block (block %d)", where, k < n_ex ? "ex_states" : "states", nm,
                        fblk);
    }
  }
  s->n_states = n_ex;
  s->init = (const char *const *)init->args;
  return IC_OK;
}

