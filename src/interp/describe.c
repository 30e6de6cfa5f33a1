/* Plan descriptions (ic_plan_desc, icore.h): a plan copied into plain public structs, for
 * `icore inspect`, the Python package and any other tool, so that none of them reads the
 * plan's internals. Everything lives in one arena owned by the description. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ctrlflow.h"
#include "common/arena.h"
#include "device/device.h"
#include "interp/interp.h"

typedef struct desc_box {
  ic_plan_desc d; /* first: the public pointer is the box's */
  ic_arena *arena;
} desc_box;

static const char *kind_name(ic_pvar_kind k) {
  switch (k) {
    case IC_PV_TEMP: return "temp";
    case IC_PV_PERSIST: return "param";
    case IC_PV_EXTERNAL: return "external";
    case IC_PV_HOLDER: return "holder";
    case IC_PV_CACHED: return "cached";
  }
  return "?";
}

static const char *where_name(uint8_t w) {
  static const char *const names[] = {"host", "device", "h2d", "d2h"};
  return w < 4 ? names[w] : "?";
}

static uint32_t *copy_u32(ic_arena *a, const uint32_t *src, size_t n, bool *ok) {
  if (!n) return NULL;
  uint32_t *d = ic_arena_calloc(a, n, sizeof *d);
  if (!d) *ok = false;
  else memcpy(d, src, n * sizeof *d);
  return d;
}

/* The variables of an instruction's slots, flattened. */
static uint32_t *slot_vars(ic_arena *a, const ic_islot *is, size_t ns, uint32_t *n, bool *ok) {
  size_t total = 0;
  for (size_t k = 0; k < ns; k++) total += is[k].n;
  *n = (uint32_t)total;
  if (!total) return NULL;
  uint32_t *d = ic_arena_calloc(a, total, sizeof *d);
  if (!d) {
    *ok = false;
    return NULL;
  }
  size_t at = 0;
  for (size_t k = 0; k < ns; k++) {
    for (uint32_t j = 0; j < is[k].n; j++) d[at++] = is[k].vars[j];
  }
  return d;
}

static const ic_subplan_desc *describe_sub(ic_arena *a, const ic_subplan *sp, bool *ok);

static void describe_instr(ic_arena *a, const ic_instr *in, bool dag, ic_plan_instr_desc *o,
                           bool *ok) {
  o->op_type = ic_arena_strdup(a, in->op->type);
  if (!o->op_type) *ok = false;
  o->op_block = in->op->block;
  o->op_index = in->op->index;
  o->inputs = slot_vars(a, in->in, in->def->n_inputs, &o->n_inputs, ok);
  o->outputs = slot_vars(a, in->out, in->def->n_outputs, &o->n_outputs, ok);
  o->n_releases = in->n_gc;
  o->releases = copy_u32(a, in->gc, in->n_gc, ok);
  o->priority = in->priority;
  o->where = where_name(in->where);
  o->stream = dag ? in->stream : -1;
  if (dag) {
    o->n_preds = in->n_preds;
    o->n_succ = in->n_succ;
    o->succ = copy_u32(a, in->succ, in->n_succ, ok);
    if (in->n_succ) {
      uint8_t *k = ic_arena_alloc(a, in->n_succ);
      if (!k) *ok = false;
      else {
        for (uint32_t j = 0; j < in->n_succ; j++) {
          /* the plan's IC_EDGE_* bits are the public ones */
          k[j] = in->succ_kind[j] & (IC_PLAN_EDGE_DATA | IC_PLAN_EDGE_IMPLICIT | IC_PLAN_EDGE_STREAM);
        }
      }
      o->succ_kind = k;
    }
    o->records = in->records;
    o->n_waits = in->n_waits;
    o->waits = copy_u32(a, in->waits, in->n_waits, ok);
  }
  if (in->sub) o->sub = describe_sub(a, in->sub, ok);
}

static const ic_subplan_desc *describe_sub(ic_arena *a, const ic_subplan *sp, bool *ok) {
  ic_subplan_desc *d = ic_arena_alloc(a, sizeof *d);
  if (!d) {
    *ok = false;
    return NULL;
  }
  d->block = sp->block;
  d->n_vars = sp->n_vars;
  const char **names = sp->n_vars ? ic_arena_calloc(a, sp->n_vars, sizeof *names) : NULL;
  if (sp->n_vars && !names) *ok = false;
  for (uint32_t v = 0; names && v < sp->n_vars; v++) {
    if (!(names[v] = ic_arena_strdup(a, sp->names[v]))) *ok = false;
  }
  d->var_names = names;
  d->var_outer = copy_u32(a, sp->outer, sp->n_vars, ok);
  d->n_instrs = sp->n_instrs;
  ic_plan_instr_desc *ins = sp->n_instrs ? ic_arena_calloc(a, sp->n_instrs, sizeof *ins) : NULL;
  if (sp->n_instrs && !ins) {
    *ok = false;
    d->n_instrs = 0;
  }
  for (uint32_t i = 0; ins && i < sp->n_instrs; i++) describe_instr(a, &sp->instrs[i], false, &ins[i], ok);
  d->instrs = ins;
  return d;
}

/* A description of p; e (may be NULL) ran it, for variables' meta and memory. */
static ic_status describe(const ic_plan *p, const ic_executor *e, ic_plan_desc **out) {
  *out = NULL;
  desc_box *box = calloc(1, sizeof *box);
  if (!box || !(box->arena = ic_arena_create())) {
    free(box);
    return IC_ERR_OUT_OF_MEMORY;
  }
  ic_arena *a = box->arena;
  ic_plan_desc *d = &box->d;
  bool ok = true;
  d->n_instrs = p->n_instrs;
  ic_plan_instr_desc *ins = p->n_instrs ? ic_arena_calloc(a, p->n_instrs, sizeof *ins) : NULL;
  ic_plan_var_desc *vars = p->n_vars ? ic_arena_calloc(a, p->n_vars, sizeof *vars) : NULL;
  if ((p->n_instrs && !ins) || (p->n_vars && !vars)) {
    ic_plan_desc_destroy(d);
    return IC_ERR_OUT_OF_MEMORY;
  }
  for (size_t i = 0; i < p->n_instrs; i++) describe_instr(a, &p->instrs[i], true, &ins[i], &ok);
  d->instrs = ins;
  d->n_vars = p->n_vars;
  for (size_t v = 0; v < p->n_vars; v++) {
    const ic_pvar *pv = &p->vars[v];
    ic_plan_var_desc *o = &vars[v];
    if (!(o->name = ic_arena_strdup(a, pv->name))) ok = false;
    o->kind = kind_name(pv->kind);
    o->first_write = pv->first_write;
    o->last_use = pv->last_use;
    o->n_uses = pv->n_uses;
    o->kept = pv->keep;
    o->on_device = pv->on_device;
    const ic_tensor *t = e ? ic_executor_last_var(e, v) : NULL;
    if (t && pv->kind != IC_PV_HOLDER) {
      o->has_meta = true;
      o->dtype = t->dtype;
      o->ndim = t->ndim;
      memcpy(o->dims, t->dims, (size_t)t->ndim * sizeof *t->dims);
      o->layout = ic_layout_name(t->layout);
    }
  }
  d->vars = vars;
  d->n_roots = p->n_roots;
  d->roots = copy_u32(a, p->roots, p->n_roots, &ok);
  d->edges_before_pruning = p->stats.edges_before_pruning;
  d->edges = p->stats.edges;
  d->implicit_edges = p->stats.implicit_edges;
  d->critical_path = p->stats.critical_path;
  d->max_width = p->stats.max_width;
  d->joins = p->stats.joins;
  d->analysis_ms = p->stats.analysis_ms;
  if (p->device) ic_place_name(p->device->place, d->place, sizeof d->place);
  else snprintf(d->place, sizeof d->place, "cpu");
  d->n_streams = p->n_streams;
  d->n_events = p->n_events;
  if (e) {
    ic_memory_stats ms;
    ic_executor_memory_stats(e, &ms);
    d->ran = true;
    d->peak_bytes = ms.peak_bytes;
  }
  if (!ok) {
    ic_plan_desc_destroy(d);
    return IC_ERR_OUT_OF_MEMORY;
  }
  *out = d;
  return IC_OK;
}

void ic_plan_desc_destroy(ic_plan_desc *d) {
  if (!d) return;
  desc_box *box = (desc_box *)d;
  ic_arena_destroy(box->arena);
  free(box);
}

ic_status ic_executor_describe_last(ic_executor *e, ic_plan_desc **out) {
  if (!out) return IC_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (!e) return IC_ERR_INVALID_ARGUMENT;
  const ic_plan *p = ic_executor_last_plan(e);
  if (!p) return IC_ERR_NOT_FOUND;
  return describe(p, e, out);
}

ic_status ic_plan_describe(const ic_program *p, const ic_options *o, size_t n_feeds,
                           const char *const *feed_names, size_t n_fetches,
                           const char *const *fetch_names, ic_plan_desc **out, char *errbuf,
                           size_t errlen) {
  ic_err err = {0};
  if (out) *out = NULL;
  if (errbuf && errlen) errbuf[0] = 0;
  if (!p || !out || (n_feeds && !feed_names) || (n_fetches && !fetch_names)) {
    if (errbuf && errlen) snprintf(errbuf, errlen, "ic_plan_describe: NULL argument");
    return IC_ERR_INVALID_ARGUMENT;
  }
  ic_options def;
  if (!o) {
    ic_options_default(&def);
    o = &def;
  }
  /* NULL names: the program's own targets */
  size_t nf = feed_names ? n_feeds : ic_program_n_feed_targets(p);
  size_t nx = fetch_names ? n_fetches : ic_program_n_fetch_targets(p);
  const char **fn = feed_names ? NULL : calloc(nf + 1, sizeof *fn);
  const char **xn = fetch_names ? NULL : calloc(nx + 1, sizeof *xn);
  ic_status st = IC_OK;
  ic_device *dev = NULL;
  ic_plan *plan = NULL;
  if ((!feed_names && !fn) || (!fetch_names && !xn)) {
    st = ic_err_set(&err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  for (size_t i = 0; fn && i < nf; i++) fn[i] = ic_program_feed_target(p, i);
  for (size_t i = 0; xn && i < nx; i++) xn[i] = ic_program_fetch_target(p, i);
  ic_plan_options po = {.gc = o->gc, .sequential = o->sequential, .streams = o->streams,
                        .fuse = o->fuse, .winograd = o->winograd,
                        .prune = o->prune};
  if (o->device.kind != IC_PLACE_CPU && (st = ic_device_open(o->device, &dev, &err))) goto done;
  po.device = dev;
  if ((st = ic_plan_build(p, nf, feed_names ? feed_names : fn, nx,
                          fetch_names ? fetch_names : xn, &po, &plan, &err))) {
    goto done;
  }
  if ((st = describe(plan, NULL, out))) ic_err_set(&err, st, "out of memory describing the plan");
done:
  ic_plan_destroy(plan);
  if (dev) dev->v->destroy(dev);
  free(fn);
  free(xn);
  if (st && errbuf && errlen) snprintf(errbuf, errlen, "%s", err.msg);
  return st;
}
