/* The op registry: one static table built from ops.def, searched by name. */
#include <stdbool.h>
#include <string.h>

#include "common/strmap.h"
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

/* Outputs that alias. Every output variable of an op is distinct: two outputs naming one
 * variable leave it with whichever meta infer() set last and a buffer sized for the other
 * (no Paddle op declares such a pair). An output may name one of the op's inputs (Paddle's
 * in-place pairs, such as batch_norm's MeanOut = Mean, and any other): the executors read the
 * inputs from snapshots then, so the kernel sees the old value. The exception is a meta-only
 * output (IC_SLOT_NO_BUFFER), which would drop the data of the input it names; a tensor-array
 * output (IC_SLOT_ARRAY) may name an input, as Paddle's in-place sum over arrays does: the
 * executors reset no element of it, and snapshot none, so such a kernel reads every input
 * element before it replaces the output's. */
static ic_status dup_output(const ic_opdef *def, const ic_op *op, size_t k1, size_t k2,
                            const char *v, ic_err *err) {
  char where[160];
  if (k1 == k2) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "%s: output %s names variable '%s' twice; %s writes each output to its "
                      "own variable",
                      ic_op_where(op, where, sizeof where), def->outputs[k1].name, v, def->name);
  }
  return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                    "%s: output %s and output %s both name variable '%s'; %s writes each "
                    "output to its own variable",
                    ic_op_where(op, where, sizeof where), def->outputs[k1].name,
                    def->outputs[k2].name, v, def->name);
}

static bool aliased_output(const ic_opdef *def, size_t k, const char *v) {
  return !(def->outputs[k].flags & IC_SLOT_HOLDER) && strcmp(v, "@EMPTY@") != 0;
}

static ic_status check_aliases(const ic_opdef *def, const ic_op *op, const ic_slot **ins,
                               const ic_slot **outs, ic_err *err) {
  char where[160];
  size_t total = 0;
  for (size_t k = 0; k < def->n_outputs; k++) total += outs[k] ? outs[k]->n : 0;
  if (total > 64) {
    /* Many outputs (a split into hundreds): a hash set keeps the check linear. */
    ic_strmap seen;
    ic_strmap_init(&seen);
    ic_status st = IC_OK;
    for (size_t k = 0; k < def->n_outputs && !st; k++) {
      for (size_t i = 0; outs[k] && i < outs[k]->n && !st; i++) {
        const char *v = outs[k]->args[i];
        if (!aliased_output(def, k, v)) continue;
        uintptr_t prev = (uintptr_t)ic_strmap_get(&seen, v);
        if (prev) st = dup_output(def, op, prev - 1, k, v, err);
        else if (!ic_strmap_put(&seen, v, (void *)(uintptr_t)(k + 1)))
          st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      }
    }
    ic_strmap_free(&seen);
    if (st) return st;
  }
  for (size_t k = 0; k < def->n_outputs; k++) {
    for (size_t i = 0; outs[k] && i < outs[k]->n; i++) {
      const char *v = outs[k]->args[i];
      if (!aliased_output(def, k, v)) continue;
      for (size_t k2 = 0; k2 <= k && total <= 64; k2++) {
        size_t n2 = !outs[k2] ? 0 : k2 == k ? i : outs[k2]->n;
        for (size_t i2 = 0; i2 < n2; i2++) {
          if (strcmp(outs[k2]->args[i2], v) == 0) return dup_output(def, op, k2, k, v, err);
        }
      }
      if ((def->outputs[k].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_ARRAY)) != IC_SLOT_NO_BUFFER) {
        continue;
      }
      for (size_t s = 0; s < def->n_inputs; s++) {
        for (size_t j = 0; ins[s] && j < ins[s]->n; j++) {
          if (strcmp(ins[s]->args[j], v) != 0) continue;
          return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                            "%s: output %s names input %s '%s'; %s holds only a shape (dtype "
                            "and dims), so writing it would drop that input's data",
                            ic_op_where(op, where, sizeof where), def->outputs[k].name,
                            def->inputs[s].name, v, def->outputs[k].name);
        }
      }
    }
  }
  return IC_OK;
}

ic_status ic_opdef_match(const ic_opdef *def, const ic_op *op, const ic_slot **ins,
                         const ic_slot **outs, ic_err *err) {
  ic_status st = match_side(def, op, false, ins, err);
  if (!st) st = match_side(def, op, true, outs, err);
  return st ? st : check_aliases(def, op, ins, outs, err);
}

ic_status ic_opdef_lookup(const ic_op *op, const ic_opdef **def, ic_err *err) {
  *def = ic_registry_find(op->type);
  if (*def) return IC_OK;
  char where[160];
  return ic_err_set(err, IC_ERR_UNSUPPORTED, "%s: op type '%s' has no kernel in icore",
                    ic_op_where(op, where, sizeof where), op->type);
}

ic_status ic_opdef_resolve(const ic_program *p, const ic_op *op, const ic_opdef **def,
                           ic_err *err) {
  ic_status st = ic_opdef_lookup(op, def, err);
  if (st || !p || !(*def)->resolve) return st;
  return (*def)->resolve(p, op, def, err);
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
