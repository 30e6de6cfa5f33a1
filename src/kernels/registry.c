/* The op registry: one static table built from ops.def, searched by name. */
#include <stdbool.h>
#include <string.h>

#include "kernels/kernel.h"

#define IC_OP(n) extern const ic_opdef ic_op_##n;
#include "kernels/ops.def"
#undef IC_OP

static const ic_opdef *const table[] = {
#define IC_OP(n) &ic_op_##n,
#include "kernels/ops.def"
#undef IC_OP
};

#define N_OPS (sizeof table / sizeof table[0])

const ic_opdef *ic_registry_find(const char *name) {
  size_t lo = 0, hi = N_OPS;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(table[mid]->name, name);
    if (c == 0) return table[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

size_t ic_registry_count(void) { return N_OPS; }
const ic_opdef *ic_registry_at(size_t i) { return i < N_OPS ? table[i] : NULL; }

static const ic_slot *find_slot(size_t n, const ic_slot *slots, const char *name) {
  for (size_t i = 0; i < n; i++) {
    if (strcmp(slots[i].name, name) == 0) return &slots[i];
  }
  return NULL;
}

static ic_status match_side(const ic_opdef *def, const ic_op *op, bool out,
                            const ic_slot **bound, ic_err *err) {
  size_t nd = out ? def->n_outputs : def->n_inputs;
  const ic_slotdef *sd = out ? def->outputs : def->inputs;
  size_t no = out ? op->n_outputs : op->n_inputs;
  const ic_slot *os = out ? op->outputs : op->inputs;
  const char *side = out ? "output" : "input";
  char where[160];
  for (size_t k = 0; k < nd; k++) {
    const ic_slot *s = find_slot(no, os, sd[k].name);
    if (s && s->n == 0) s = NULL;
    if (!s && !(sd[k].flags & IC_SLOT_OPTIONAL)) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: required %s %s is missing",
                        ic_op_where(op, where, sizeof where), side, sd[k].name);
    }
    if (s && s->n > 1 && !(sd[k].flags & IC_SLOT_MULTI)) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                        "%s: %s %s holds %zu variables, expected exactly one",
                        ic_op_where(op, where, sizeof where), side, sd[k].name, s->n);
    }
    bound[k] = s;
  }
  for (size_t i = 0; i < no; i++) {
    if (os[i].n == 0) continue;
    bool known = false;
    for (size_t k = 0; k < nd && !known; k++) known = strcmp(sd[k].name, os[i].name) == 0;
    if (!known) {
      return ic_err_set(err, IC_ERR_UNSUPPORTED,
                        "%s: %s %s ('%s') is not supported by icore's %s", 
                        ic_op_where(op, where, sizeof where), side, os[i].name, os[i].args[0],
                        def->name);
    }
  }
  return IC_OK;
}

ic_status ic_opdef_match(const ic_opdef *def, const ic_op *op, const ic_slot **ins,
                         const ic_slot **outs, ic_err *err) {
  ic_status st = match_side(def, op, false, ins, err);
  return st ? st : match_side(def, op, true, outs, err);
}

ic_status ic_opdef_lookup(const ic_op *op, const ic_opdef **def, ic_err *err) {
  *def = ic_registry_find(op->type);
  if (*def) return IC_OK;
  char where[160];
  return ic_err_set(err, IC_ERR_UNSUPPORTED, "%s: op type '%s' has no kernel in icore",
                    ic_op_where(op, where, sizeof where), op->type);
}

ic_status ic_opdef_parse(const ic_opdef *def, const ic_op *op, void *attrs, ic_err *err) {
  if (def->parse) {
    ic_attr_reader r;
    ic_ar_init(&r, op, err);
    ic_status st = def->parse(&r, attrs);
    if (st) return st;
  }
  return def->supports ? def->supports(op, attrs, err) : IC_OK;
}
