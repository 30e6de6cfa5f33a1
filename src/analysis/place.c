/* Placement: which ops run on the device, and the copies between places. */
#include <stdio.h>
#include <string.h>

#include "analysis/ctrlflow.h"
#include "analysis/opseq.h"
#include "device/device.h"

/* Where each value's latest version is: on the host (its own name), on the device
 * (NAME@PLACE), or both. */
typedef struct loc {
  bool host, dev;
  const char *dev_name;
} loc;

typedef struct placer {
  ic_opseq *seq;
  const ic_program *prog;
  const ic_device *dev;
  char suffix[32];        /* "@cuda:0" */
  ic_strmap locs;         /* name -> loc* */
  const ic_op **ops;      /* the new sequence */
  uint8_t *where;
  ic_kernel_fn *fns;
  size_t n, cap;
  ic_err *err;
} placer;

static ic_status oom(ic_err *err) { return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory"); }

static loc *loc_of(placer *pl, const char *name) {
  loc *l = ic_strmap_get(&pl->locs, name);
  if (l) return l;
  l = ic_arena_alloc(pl->seq->arena, sizeof *l);
  if (!l || !ic_strmap_put(&pl->locs, name, l)) return NULL;
  l->host = true; /* fed, a parameter, or read before written: it starts on the host */
  return l;
}

static const char *dev_name(placer *pl, const char *name, loc *l) {
  if (l->dev_name) return l->dev_name;
  char *n = ic_arena_alloc(pl->seq->arena, strlen(name) + strlen(pl->suffix) + 1);
  if (!n) return NULL;
  sprintf(n, "%s%s", name, pl->suffix);
  return l->dev_name = n;
}

static bool append(placer *pl, const ic_op *op, uint8_t where, ic_kernel_fn fn) {
  if (pl->n == pl->cap) {
    size_t cap = pl->cap * 2;
    const ic_op **o = ic_arena_calloc(pl->seq->arena, cap, sizeof *o);
    uint8_t *w = ic_arena_calloc(pl->seq->arena, cap, 1);
    ic_kernel_fn *f = ic_arena_calloc(pl->seq->arena, cap, sizeof *f);
    if (!o || !w || !f) return false;
    memcpy(o, pl->ops, pl->n * sizeof *o);
    memcpy(w, pl->where, pl->n);
    memcpy(f, pl->fns, pl->n * sizeof *f);
    pl->ops = o;
    pl->where = w;
    pl->fns = f;
    pl->cap = cap;
  }
  pl->ops[pl->n] = op;
  pl->where[pl->n] = where;
  pl->fns[pl->n++] = fn;
  return true;
}

/* A synthetic copy op: src -> dst. */
static bool add_copy(placer *pl, bool to_dev, const char *src, const char *dst) {
  ic_arena *a = pl->seq->arena;
  ic_op *op = ic_arena_alloc(a, sizeof *op);
  ic_slot *in = ic_arena_alloc(a, sizeof *in), *out = ic_arena_alloc(a, sizeof *out);
  const char **ia = ic_arena_alloc(a, sizeof *ia), **oa = ic_arena_alloc(a, sizeof *oa);
  if (!op || !in || !out || !ia || !oa) return false;
  *ia = src;
  *oa = dst;
  *in = (ic_slot){.name = "X", .n = 1, .args = ia};
  *out = (ic_slot){.name = "Out", .n = 1, .args = oa};
  *op = (ic_op){.type = to_dev ? "memcpy_h2d" : "memcpy_d2h", .block = 0, .index = -1,
                .n_inputs = 1, .inputs = in, .n_outputs = 1, .outputs = out};
  return append(pl, op, to_dev ? IC_WHERE_H2D : IC_WHERE_D2H, NULL);
}

static unsigned slot_flags(const ic_opdef *def, bool out, const char *name) {
  size_t n = out ? def->n_outputs : def->n_inputs;
  const ic_slotdef *sd = out ? def->outputs : def->inputs;
  for (size_t k = 0; k < n; k++) {
    if (strcmp(sd[k].name, name) == 0) return sd[k].flags;
  }
  return 0;
}

/* Tensor arrays live on the host (as Paddle's LoDTensorArray ops run on the CPU): an op
 * reading or writing one runs there. */
static bool has_array_slot(const ic_opdef *def) {
  for (size_t k = 0; k < def->n_inputs; k++) {
    if (def->inputs[k].flags & IC_SLOT_ARRAY) return true;
  }
  for (size_t k = 0; k < def->n_outputs; k++) {
    if (def->outputs[k].flags & IC_SLOT_ARRAY) return true;
  }
  return false;
}

/* Parameters, and constants derived from them: their device copies are made once. */
static bool is_persistable(const placer *pl, const char *name) {
  const ic_vardesc *v = ic_program_find_var(pl->prog, 0, name);
  if (v && v->persistable) return true;
  for (size_t i = 0; i < pl->seq->n_derived; i++) {
    if (strcmp(pl->seq->derived[i], name) == 0) return true;
  }
  return false;
}

/* A control-flow op runs on the host with its sub-blocks (as Paddle keeps while and
 * conditional_block on the CPU): before it (after=false), every outer variable its
 * sub-blocks read or write gets its host version back (a copy from the device where the
 * latest version is there only), and after it (after=true) every outer variable they write
 * has its latest version on the host. Its own slots (Condition, X, Out, ...) are placed as
 * any host op's by place_op. */
static ic_status place_ctrl(placer *pl, const ic_op *op, bool after) {
  int blk = ic_ctrl_sub_block(pl->prog, op, pl->err);
  if (blk < 0) return pl->err->code;
  ic_outer_io io;
  ic_status st = ic_ctrl_outer_io(pl->prog, op, pl->seq->arena, &io, pl->err);
  if (st) return st;
  /* Written ones too: a conditional_block that does not run, or a while that runs no
   * iteration, leaves them as they were. */
  for (size_t k = 0; !after && k < io.n_reads + io.n_writes; k++) {
    const char *name = k < io.n_reads ? io.reads[k] : io.writes[k - io.n_reads];
    loc *l = loc_of(pl, name);
    if (!l) return oom(pl->err);
    if (!l->host) {
      if (!add_copy(pl, false, l->dev_name, name)) return oom(pl->err);
      l->host = true;
    }
  }
  for (size_t k = 0; after && k < io.n_writes; k++) {
    loc *l = loc_of(pl, io.writes[k]);
    if (!l) return oom(pl->err);
    l->host = true;
    l->dev = false;
  }
  return IC_OK;
}

/* The op rewritten with its arguments renamed for its place, copies added before it. */
static ic_status place_op(placer *pl, const ic_op *op) {
  /* resolved as the plan will (sum over tensor arrays has an array slot); an unknown op
   * stays on the host and is reported by plan building */
  const ic_opdef *def = NULL;
  ic_err e;
  if (ic_opdef_resolve(pl->prog, op, &def, &e)) def = ic_registry_find(op->type);
  ic_kernel_fn fn = NULL;
  bool on_dev = false;
  if (def && (def->flags & IC_OP_SUBBLOCK)) {
    ic_status st = place_ctrl(pl, op, false);
    if (st) return st;
  } else if (def && !(def->flags & (IC_OP_FEED | IC_OP_FETCH)) && !has_array_slot(def)) {
    fn = pl->dev->v->kernel(def);
    if (fn && (def->flags & IC_OP_VIEW)) {
      /* A view stays where its input is. */
      const ic_slot *x = op->n_inputs ? &op->inputs[0] : NULL;
      loc *l = x && x->n ? loc_of(pl, x->args[0]) : NULL;
      on_dev = l && l->dev && !l->host;
    } else {
      on_dev = fn != NULL;
    }
  }
  ic_arena *a = pl->seq->arena;
  ic_op *nop = ic_arena_alloc(a, sizeof *nop);
  ic_slot *ins = ic_arena_calloc(a, op->n_inputs + 1, sizeof *ins);
  ic_slot *outs = ic_arena_calloc(a, op->n_outputs + 1, sizeof *outs);
  if (!nop || !ins || !outs) return oom(pl->err);
  *nop = *op;
  for (int io = 0; io < 2; io++) {
    size_t ns = io ? op->n_outputs : op->n_inputs;
    const ic_slot *src = io ? op->outputs : op->inputs;
    ic_slot *dst = io ? outs : ins;
    for (size_t s = 0; s < ns; s++) {
      unsigned fl = def ? slot_flags(def, io, src[s].name) : 0;
      const char **args = ic_arena_calloc(a, src[s].n + 1, sizeof *args);
      if (!args) return oom(pl->err);
      dst[s] = src[s];
      dst[s].args = args;
      for (size_t i = 0; i < src[s].n; i++) {
        const char *name = src[s].args[i];
        args[i] = name;
        if (fl & IC_SLOT_HOLDER) continue;
        loc *l = loc_of(pl, name);
        if (!l) return oom(pl->err);
        if (io) { /* a new version where the op runs */
          if (on_dev && !(dev_name(pl, name, l))) return oom(pl->err);
          if (on_dev) args[i] = l->dev_name;
          l->dev = on_dev;
          l->host = !on_dev;
          continue;
        }
        bool want_dev = on_dev && !(fl & IC_SLOT_VALUE);
        if (fl & IC_SLOT_NO_BUFFER) want_dev = l->dev && !l->host; /* meta only: no copy */
        if (want_dev && !l->dev) {
          const char *dn = dev_name(pl, name, l);
          if (!dn || !add_copy(pl, true, name, dn)) return oom(pl->err);
          l->dev = true;
          if (is_persistable(pl, name)) {
            /* Parameters are copied once and kept on the device across runs. */
            const char **c = ic_arena_calloc(a, pl->seq->n_cached + 1, sizeof *c);
            if (!c) return oom(pl->err);
            if (pl->seq->n_cached) memcpy(c, pl->seq->cached, pl->seq->n_cached * sizeof *c);
            c[pl->seq->n_cached++] = dn;
            pl->seq->cached = c;
          }
        } else if (!want_dev && !l->host) {
          if (!add_copy(pl, false, l->dev_name, name)) return oom(pl->err);
          l->host = true;
        }
        if (want_dev) args[i] = l->dev_name;
      }
    }
  }
  nop->inputs = ins;
  nop->outputs = outs;
  if (def && (def->flags & IC_OP_SUBBLOCK)) {
    ic_status st = place_ctrl(pl, op, true);
    if (st) return st;
  }
  return append(pl, nop, on_dev ? IC_WHERE_DEVICE : IC_WHERE_HOST, on_dev ? fn : NULL)
             ? IC_OK
             : oom(pl->err);
}

ic_status ic_opseq_place(ic_opseq *seq, const ic_program *p, const ic_device *dev, ic_err *err) {
  placer pl = {.seq = seq, .prog = p, .dev = dev, .err = err, .cap = seq->n_ops * 2 + 8};
  char name[24];
  snprintf(pl.suffix, sizeof pl.suffix, "@%s", ic_place_name(dev->place, name, sizeof name));
  ic_strmap_init(&pl.locs);
  pl.ops = ic_arena_calloc(seq->arena, pl.cap, sizeof *pl.ops);
  pl.where = ic_arena_calloc(seq->arena, pl.cap, 1);
  pl.fns = ic_arena_calloc(seq->arena, pl.cap, sizeof *pl.fns);
  ic_status st = pl.ops && pl.where && pl.fns ? IC_OK : oom(err);
  for (size_t i = 0; i < seq->n_ops && !st; i++) st = place_op(&pl, seq->ops[i]);
  ic_strmap_free(&pl.locs);
  if (st) return st;
  seq->ops = pl.ops;
  seq->n_ops = pl.n;
  seq->where = pl.where;
  seq->dev_fn = pl.fns;
  return IC_OK;
}
