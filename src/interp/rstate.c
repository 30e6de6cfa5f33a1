/* Run state: everything a run of a plan mutates. Made on demand and kept in the cache
 * entry's pool for later runs; concurrent runs of one plan each take their own. */
#include <stdlib.h>
#include <string.h>

#include "analysis/ctrlflow.h"
#include "interp/run.h"

/* Events: one per instruction that records (or is a device-to-host copy, which the copy
 * thread waits on), and one per (device variable, user stream) for variables used on
 * several streams, which the stream-aware GC records before freeing. */
static ic_status make_device_state(ic_rstate *rs, const ic_plan *plan, ic_device *dev,
                                   ic_err *err) {
  size_t ni = plan->n_instrs ? plan->n_instrs : 1, nv = plan->n_vars ? plan->n_vars : 1;
  rs->dev = dev;
  rs->events = calloc(ni, sizeof *rs->events);
  rs->gc_events = calloc(nv, sizeof *rs->gc_events);
  rs->h2d_srcs = calloc(ni, sizeof *rs->h2d_srcs);
  if (!rs->events || !rs->gc_events || !rs->h2d_srcs) {
    return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory preparing a device run");
  }
  for (size_t i = 0; i < plan->n_instrs; i++) {
    const ic_instr *in = &plan->instrs[i];
    if (!in->records && in->where != IC_WHERE_D2H) continue;
    ic_status st = dev->v->event_create(dev, &rs->events[i], err);
    if (st) return st;
  }
  for (size_t v = 0; v < plan->n_vars; v++) {
    const ic_pvar *pv = &plan->vars[v];
    if (!pv->on_device || pv->n_user_streams < 2) continue;
    rs->gc_events[v] = calloc(pv->n_user_streams, sizeof(ic_devent *));
    if (!rs->gc_events[v]) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t k = 0; k < pv->n_user_streams; k++) {
      ic_status st = dev->v->event_create(dev, &rs->gc_events[v][k], err);
      if (st) return st;
    }
  }
  return IC_OK;
}

void ic_rstate_destroy(ic_rstate *rs, const ic_plan *plan) {
  if (!rs) return;
  ic_join_destroy(rs, plan);
  for (size_t v = 0; rs->vars && v < plan->n_vars; v++) {
    ic_variable_release(&rs->vars[v]);
  }
  if (rs->dev) {
    for (size_t i = 0; rs->events && i < plan->n_instrs; i++) {
      if (rs->events[i]) rs->dev->v->event_destroy(rs->events[i]);
    }
    for (size_t v = 0; rs->gc_events && v < plan->n_vars; v++) {
      for (uint32_t k = 0; rs->gc_events[v] && k < plan->vars[v].n_user_streams; k++) {
        if (rs->gc_events[v][k]) rs->dev->v->event_destroy(rs->gc_events[v][k]);
      }
      free(rs->gc_events[v]);
    }
  }
  if (rs->h2d_srcs) ic_release_h2d_srcs(rs, plan);
  free(rs->h2d_srcs);
  if (rs->graph && rs->dev && rs->dev->v->graph_destroy) rs->dev->v->graph_destroy(rs->graph);
  for (size_t k = 0; k < rs->n_staging; k++) ic_tensor_reset(&rs->staging[k]);
  for (size_t k = 0; k < rs->n_kept; k++) ic_tensor_reset(&rs->kept[k]);
  free(rs->staging);
  free(rs->kept);
  free(rs->sig);
  free(rs->events);
  free(rs->gc_events);
  for (size_t i = 0; rs->cache_srcs && i < plan->n_instrs; i++) {
    if (!rs->cache_srcs[i]) continue;
    size_t n = 0;
    for (size_t k = 0; k < plan->instrs[i].def->n_inputs; k++) n += plan->instrs[i].in[k].n;
    for (size_t k = 0; k < n; k++) ic_buffer_release(rs->cache_srcs[i][k]);
    free(rs->cache_srcs[i]);
  }
  free(rs->cache_srcs);
  for (size_t i = 0; rs->kstate && i < plan->n_instrs; i++) {
    if (!rs->kstate[i]) continue;
    /* A CUDA instruction's state was made by its CUDA kernel, which frees it; the emulated
     * device runs the CPU kernels, whose state the op definition frees. */
    void (*free_state)(void *) =
        plan->instrs[i].where == IC_WHERE_DEVICE && rs->dev && rs->dev->place.kind == IC_PLACE_CUDA
            ? ic_registry_cuda_free_state(plan->instrs[i].def)
            : plan->instrs[i].def->free_state;
    if (free_state) free_state(rs->kstate[i]);
  }
  for (size_t i = 0; rs->snap_slots && i < plan->n_instrs; i++) {
    if (rs->snap_slots[i]) {
      for (size_t k = 0; k < plan->instrs[i].def->n_inputs; k++) free((void *)rs->snap_slots[i][k].t);
    }
    free(rs->snap_slots[i]);
    if (rs->snaps) free(rs->snaps[i]); /* NULL when creation ran out of memory there */
  }
  free(rs->vars);
  free(rs->varp);
  free(rs->slots);
  free(rs->tptr);
  free(rs->vptr);
  free(rs->patch_pos);
  free(rs->patch_var);
  free(rs->ctx);
  free(rs->kstate);
  free(rs->snap_slots);
  free(rs->snaps);
  free(rs->n_snaps);
  free(rs->deps);
  free(rs->cost_us);
  free(rs->quick);
  free(rs->root_order);
  free(rs->refs);
  for (int k = 0; k < N_CLASSES; k++) free(rs->heaps[k]);
  free(rs->first_reader);
  free(rs->found);
  free(rs->commit);
  free(rs->commit_out);
  free(rs->commit_names);
  free(rs);
}

static ic_status make_snapshots(ic_rstate *rs, const ic_instr *in, size_t i) {
  size_t n = 0;
  for (size_t k = 0; k < in->def->n_inputs; k++) n += in->in[k].n;
  rs->snaps[i] = calloc(n ? n : 1, sizeof(ic_tensor));
  rs->snap_slots[i] = calloc(in->def->n_inputs + 1, sizeof(ic_kslot));
  if (!rs->snaps[i] || !rs->snap_slots[i]) return IC_ERR_OUT_OF_MEMORY;
  rs->n_snaps[i] = n;
  size_t at = 0;
  for (size_t k = 0; k < in->def->n_inputs; k++) {
    ic_kslot s = rs->ctx[i].in[k];
    ic_tensor **t = calloc(s.n ? s.n : 1, sizeof *t);
    if (!t) return IC_ERR_OUT_OF_MEMORY;
    for (size_t j = 0; j < s.n; j++) t[j] = &rs->snaps[i][at++];
    s.t = t;
    rs->snap_slots[i][k] = s;
  }
  return IC_OK;
}

/* The persistables of the plan that instruction `in` updates (ic_output_updates) join the
 * commit list. `in` belongs to the sub-plan at the top of `chain` (NULL: the plan itself);
 * its variables reach the plan's table through each sub-plan's outer indexes. */
typedef struct subchain {
  const ic_subplan *sp;
  const struct subchain *up;
} subchain;

static uint32_t to_plan_var(const subchain *c, uint32_t v) {
  for (; c && v != NONE; c = c->up) v = c->sp->outer[v];
  return v;
}

static void add_commits(ic_rstate *rs, const ic_plan *plan, const ic_instr *in,
                        const subchain *chain) {
  for (size_t k = 0; k < in->def->n_outputs; k++) {
    if (!ic_output_updates(in->op, in->def, k)) continue;
    for (uint32_t j = 0; j < in->out[k].n; j++) {
      uint32_t v = to_plan_var(chain, in->out[k].vars[j]);
      bool seen = v == NONE || plan->vars[v].kind != IC_PV_PERSIST;
      for (size_t c = 0; c < rs->n_commit && !seen; c++) seen = rs->commit[c] == v;
      if (!seen) rs->commit[rs->n_commit++] = v;
    }
  }
}

/* The same for every instruction of a control-flow op's sub-plan, nested ones included. */
static void add_commits_sub(ic_rstate *rs, const ic_plan *plan, const ic_subplan *sp,
                            const subchain *up) {
  subchain c = {.sp = sp, .up = up};
  for (uint32_t i = 0; i < sp->n_instrs; i++) {
    const ic_instr *in = &sp->instrs[i];
    if (in->sub) add_commits_sub(rs, plan, in->sub, &c);
    else add_commits(rs, plan, in, &c);
  }
}

ic_status ic_rstate_create(const ic_plan *plan, ic_device *dev, ic_rstate **out, ic_err *err) {
  ic_rstate *rs = calloc(1, sizeof *rs);
  size_t nv = plan->n_vars ? plan->n_vars : 1, ni = plan->n_instrs ? plan->n_instrs : 1;
  size_t n_slots = 0, n_args = 0;
  for (size_t i = 0; i < plan->n_instrs; i++) {
    const ic_instr *in = &plan->instrs[i];
    n_slots += in->def->n_inputs + in->def->n_outputs;
    for (size_t k = 0; k < in->def->n_inputs; k++) n_args += in->in[k].n;
    for (size_t k = 0; k < in->def->n_outputs; k++) n_args += in->out[k].n;
  }
  if (!rs) goto oom;
  rs->vars = calloc(nv, sizeof *rs->vars);
  rs->varp = calloc(nv, sizeof *rs->varp);
  rs->slots = calloc(n_slots ? n_slots : 1, sizeof *rs->slots);
  rs->tptr = calloc(n_args ? n_args : 1, sizeof *rs->tptr);
  rs->vptr = calloc(n_args ? n_args : 1, sizeof *rs->vptr);
  rs->patch_pos = calloc(n_args ? n_args : 1, sizeof *rs->patch_pos);
  rs->patch_var = calloc(n_args ? n_args : 1, sizeof *rs->patch_var);
  rs->ctx = calloc(ni, sizeof *rs->ctx);
  rs->kstate = calloc(ni, sizeof *rs->kstate);
  rs->snap_slots = calloc(ni, sizeof *rs->snap_slots);
  rs->snaps = calloc(ni, sizeof *rs->snaps);
  rs->n_snaps = calloc(ni, sizeof *rs->n_snaps);
  rs->deps = calloc(ni, sizeof *rs->deps);
  rs->cost_us = calloc(ni, sizeof *rs->cost_us);
  rs->quick = calloc(ni, sizeof *rs->quick);
  rs->root_order = calloc(ni, sizeof *rs->root_order);
  rs->refs = calloc(nv, sizeof *rs->refs);
  for (int k = 0; k < N_CLASSES; k++) rs->heaps[k] = calloc(ni, sizeof(uint32_t));
  rs->first_reader = calloc(nv, sizeof *rs->first_reader);
  rs->found = calloc(nv, sizeof *rs->found);
  if (!rs->vars || !rs->varp || !rs->slots || !rs->tptr || !rs->vptr || !rs->patch_pos ||
      !rs->patch_var || !rs->ctx || !rs->kstate || !rs->snap_slots || !rs->snaps ||
      !rs->n_snaps || !rs->deps || !rs->cost_us || !rs->quick || !rs->root_order || !rs->refs || !rs->heaps[0] || !rs->heaps[1] ||
      !rs->heaps[2] || !rs->first_reader || !rs->found || ic_join_create(rs, plan)) {
    goto oom;
  }
  for (size_t v = 0; v < plan->n_vars; v++) {
    ic_tensor_init(&rs->vars[v].tensor);
    rs->vars[v].name = (char *)plan->vars[v].name; /* borrowed; never freed through here */
    rs->varp[v] = &rs->vars[v];
    rs->first_reader[v] = NONE;
  }
  size_t si = 0, ai = 0;
  for (size_t i = 0; i < plan->n_instrs; i++) {
    const ic_instr *in = &plan->instrs[i];
    ic_kslot *s0 = &rs->slots[si];
    for (int io = 0; io < 2; io++) {
      size_t ns = io ? in->def->n_outputs : in->def->n_inputs;
      const ic_islot *is = io ? in->out : in->in;
      for (size_t k = 0; k < ns; k++) {
        ic_kslot *s = &rs->slots[si++];
        s->n = is[k].n;
        s->t = &rs->tptr[ai];
        s->vars = &rs->vptr[ai];
        s->names = NULL;
        for (uint32_t j = 0; j < is[k].n; j++, ai++) {
          uint32_t v = is[k].vars[j];
          rs->tptr[ai] = &rs->vars[v].tensor;
          rs->vptr[ai] = &rs->vars[v];
          if (plan->vars[v].kind == IC_PV_PERSIST) {
            rs->patch_pos[rs->n_patch] = (uint32_t)ai;
            rs->patch_var[rs->n_patch++] = v;
          }
          if (!io && rs->first_reader[v] == NONE) rs->first_reader[v] = (uint32_t)i;
        }
      }
    }
    rs->ctx[i] = (ic_kctx){.def = in->def, .op = in->op, .attrs = in->attrs, .in = s0,
                           .out = s0 + in->def->n_inputs, .op_key = ic_op_key(in->op, i),
                           .state = &rs->kstate[i]};
  }
  /* Slot names come from the op itself, in the definition's order. */
  for (size_t i = 0; i < plan->n_instrs; i++) {
    const ic_instr *in = &plan->instrs[i];
    for (int io = 0; io < 2; io++) {
      size_t ns = io ? in->def->n_outputs : in->def->n_inputs;
      const ic_slotdef *sd = io ? in->def->outputs : in->def->inputs;
      ic_kslot *ks = (ic_kslot *)(io ? rs->ctx[i].out : rs->ctx[i].in);
      for (size_t k = 0; k < ns; k++) {
        const ic_slot *os = io ? ic_op_output(in->op, sd[k].name) : ic_op_input(in->op, sd[k].name);
        ks[k].names = os && os->n ? os->args : NULL;
      }
    }
  }
  for (size_t i = 0; i < plan->n_instrs; i++) {
    if (plan->instrs[i].alias && make_snapshots(rs, &plan->instrs[i], i)) goto oom;
  }
  if (!(rs->cache_srcs = calloc(ni, sizeof *rs->cache_srcs))) goto oom;
  for (size_t i = 0; i < plan->n_instrs; i++) {
    const ic_instr *in = &plan->instrs[i];
    bool cached = in->def->n_outputs > 0;
    size_t n_in = 0;
    for (size_t k = 0; k < in->def->n_outputs && cached; k++) {
      for (uint32_t j = 0; j < in->out[k].n; j++) cached &= plan->vars[in->out[k].vars[j]].kind == IC_PV_CACHED;
    }
    for (size_t k = 0; k < in->def->n_inputs; k++) n_in += in->in[k].n;
    if (cached && !(rs->cache_srcs[i] = calloc(n_in ? n_in : 1, sizeof(ic_buffer *)))) goto oom;
  }
  /* Persistables the run updates (not those fed, nor batch_norm's unchanged statistics in
   * inference): bound to run-local shadows, committed to the caller's scope at the end. */
  if (!(rs->commit = calloc(nv, sizeof *rs->commit))) goto oom;
  for (size_t i = 0; i < plan->n_instrs; i++) {
    const ic_instr *in = &plan->instrs[i];
    if (in->sub) add_commits_sub(rs, plan, in->sub, NULL);
    else add_commits(rs, plan, in, NULL);
  }
  if (rs->n_commit) {
    rs->commit_out = calloc(rs->n_commit, sizeof *rs->commit_out);
    rs->commit_names = calloc(rs->n_commit, sizeof *rs->commit_names);
    if (!rs->commit_out || !rs->commit_names) goto oom;
    for (size_t k = 0; k < rs->n_commit; k++) {
      ic_tensor_init(&rs->commit_out[k]);
      rs->commit_names[k] = plan->vars[rs->commit[k]].name;
    }
  }
  if (plan->device && make_device_state(rs, plan, dev, err)) {
    ic_rstate_destroy(rs, plan);
    return err->code;
  }
  *out = rs;
  return IC_OK;
oom:
  ic_rstate_destroy(rs, plan);
  return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory preparing a run");
}


bool ic_cache_valid(ic_rstate *rs, const ic_instr *in, const ic_kctx *c, uint32_t i) {
  ic_buffer **src = rs->cache_srcs[i];
  if (!src) return false;
  for (size_t k = 0; k < in->def->n_outputs; k++) {
    for (size_t j = 0; j < c->out[k].n; j++) {
      if (!c->out[k].t[j]->data) return false;
    }
  }
  size_t at = 0;
  for (size_t k = 0; k < in->def->n_inputs; k++) {
    for (size_t j = 0; j < c->in[k].n; j++, at++) {
      if (c->in[k].t[j]->buf != src[at]) return false;
    }
  }
  return true;
}

void ic_cache_remember(ic_rstate *rs, const ic_instr *in, const ic_kctx *c, uint32_t i) {
  ic_buffer **src = rs->cache_srcs[i];
  if (!src) return;
  size_t at = 0;
  for (size_t k = 0; k < in->def->n_inputs; k++) {
    for (size_t j = 0; j < c->in[k].n; j++, at++) {
      ic_buffer *b = c->in[k].t[j]->buf;
      if (b) ic_buffer_retain(b);
      ic_buffer_release(src[at]);
      src[at] = b;
    }
  }
}
