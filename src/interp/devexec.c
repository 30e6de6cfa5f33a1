/* Device plans at run time: launching device instructions on their streams (after their
 * event waits, with a record after when someone waits on them), device-to-host copies that
 * block until the data is on the host, host instructions waiting for the device work they
 * consume, and freeing device variables only once every stream that used them is past it. */
#include <stdlib.h>
#include <string.h>

#include "interp/run.h"

static ic_status prefix(ic_err *err, const ic_instr *in) {
  char where[160];
  return ic_err_prefix(err, "%s: ", ic_op_where(in->op, where, sizeof where));
}

ic_status ic_executor_streams(ic_executor *e, uint32_t n, ic_err *err) {
  if (n <= e->n_dstreams) return IC_OK;
  ic_dstream **s = realloc(e->dstreams, n * sizeof *s);
  if (!s) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  e->dstreams = s;
  ic_allocator **a = realloc(e->dallocs, n * sizeof *a);
  if (!a) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  e->dallocs = a;
  while (e->n_dstreams < n) {
    uint32_t k = e->n_dstreams;
    ic_status st = e->dev->v->stream_create(e->dev, &e->dstreams[k], err);
    if (st) return st;
    if (!(e->dallocs[k] = ic_allocator_device(e->dev, e->dstreams[k]))) {
      e->dev->v->stream_destroy(e->dstreams[k]);
      return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    e->n_dstreams++;
  }
  return IC_OK;
}

ic_status ic_sync_streams(ic_executor *e, uint32_t n, ic_err *err) {
  ic_status first = IC_OK;
  for (uint32_t k = 0; k < n && k < e->n_dstreams; k++) {
    ic_err e2;
    ic_err_clear(&e2);
    ic_status st = e->dev->v->sync(e->dstreams[k], &e2);
    if (st && !first) {
      first = st;
      *err = e2;
    }
  }
  return first;
}

/* The event waits in front of instruction i, on its stream. */
static ic_status wait_events(crun *r, const ic_instr *in, ic_dstream *s, ic_err *err) {
  if (r->e->no_events) return IC_OK;
  ic_device *dev = r->e->dev;
  for (uint32_t k = 0; k < in->n_waits; k++) {
    ic_devent *ev = r->rs->events[in->waits[k]];
    if (ev) {
      ic_status st = dev->v->wait(s, ev, err);
      if (st) return st;
    }
  }
  return IC_OK;
}

ic_status ic_exec_host_waits(crun *r, worker *w, uint32_t i) {
  if (r->capturing) return IC_OK; /* nothing runs while a graph is recorded */
  const ic_instr *in = &r->plan->instrs[i];
  ic_device *dev = r->e->dev;
  for (uint32_t k = 0; k < in->n_waits; k++) {
    ic_devent *ev = r->rs->events[in->waits[k]];
    if (!ev) continue;
    ic_status st = dev->v->host_wait(ev, &w->err);
    if (st) return prefix(&w->err, in);
  }
  return IC_OK;
}

ic_status ic_exec_device(crun *r, worker *w, uint32_t i) {
  const ic_instr *in = &r->plan->instrs[i];
  ic_rstate *rs = r->rs;
  ic_executor *e = r->e;
  ic_device *dev = e->dev;
  ic_dstream *s = e->dstreams[in->stream];
  ic_kctx *c = &rs->ctx[i];
  const ic_opdef *def = in->def;
  ic_err *err = &w->err;
  ic_status st = wait_events(r, in, s, err);
  if (st) return prefix(err, in);
  w->env.alloc = e->dallocs[in->stream];
  dev->v->kenv(s, &w->env);
  c->err = err;
  c->env = &w->env;
  w->env.seed = rs->seed;
  if ((st = ic_check_input_data(c, err))) return prefix(err, in);
  const ic_kslot *shared_in = c->in;
  if (in->alias) ic_snapshot_inputs(rs, in, c, i);
  for (size_t k = 0; k < def->n_outputs; k++) {
    if (!(def->outputs[k].flags & IC_SLOT_NO_BUFFER)) continue;
    for (size_t j = 0; j < c->out[k].n; j++) ic_tensor_reset(c->out[k].t[j]);
  }
  st = ic_check_layouts(c, err);
  if (!st) st = def->infer(c);
  if (!st) st = ic_share_lod(c, err);
  if (!st && (def->flags & IC_OP_VIEW)) {
    st = def->cpu(c); /* metadata only: share and set dims, now */
  } else if (!st && in->where == IC_WHERE_H2D) {
    const ic_tensor *src = ic_in(c, 0, 0);
    ic_tensor *dst = ic_out(c, 0, 0);
    /* A parameter copied in an earlier run from this very buffer is still valid. */
    if (!(rs->cache_srcs[i] && ic_cache_valid(rs, in, c, i))) {
      size_t n = (size_t)ic_numel(src->ndim, src->dims) * ic_dtype_size(src->dtype);
      st = ic_tensor_alloc(dst, w->env.alloc, err);
      if (!st && n) st = dev->v->memcpy(s, dst->data, src->data, n, IC_COPY_H2D, err);
      if (!st && n && src->buf && rs->h2d_srcs[i] != src->buf) {
        /* The copy reads src when the stream gets to it, and src may be released right
         * below (its last use): hold its buffer until the run's end synchronization, or a
         * host op allocating meanwhile could reuse the memory before it is read. */
        ic_buffer_retain(src->buf);
        if (rs->h2d_srcs[i]) ic_buffer_release(rs->h2d_srcs[i]);
        rs->h2d_srcs[i] = src->buf;
      }
      if (!st && rs->cache_srcs[i]) ic_cache_remember(rs, in, c, i);
    }
  } else if (!st) {
    for (size_t k = 0; !st && k < def->n_outputs; k++) {
      if (def->outputs[k].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_SHARE | IC_SLOT_HOLDER | IC_SLOT_DYNAMIC)) continue;
      for (size_t j = 0; !st && j < c->out[k].n; j++) st = ic_tensor_alloc(c->out[k].t[j], w->env.alloc, err);
    }
    if (!st) {
      st = e->fail_at == (long)i ? ic_err_set(err, IC_ERR_KERNEL, "injected failure")
                                 : dev->v->launch(s, in->dev_fn, c, err);
    }
  }
  if (in->alias) ic_release_snapshots(rs, in, c, i, shared_in);
  if (!st && in->records) st = dev->v->record(rs->events[i], s, err);
  if (!st && e->opt.sync_after_op && !r->capturing) st = dev->v->sync(s, err);
  if (st) return prefix(err, in);
  ic_drop_refs(r, in);
  return IC_OK;
}

ic_status ic_exec_d2h(crun *r, worker *w, uint32_t i) {
  const ic_instr *in = &r->plan->instrs[i];
  ic_rstate *rs = r->rs;
  ic_executor *e = r->e;
  ic_device *dev = e->dev;
  ic_dstream *s = e->dstreams[in->stream];
  ic_kctx *c = &rs->ctx[i];
  ic_err *err = &w->err;
  c->err = err;
  c->env = &w->env;
  ic_status st = wait_events(r, in, s, err);
  if (!st) st = ic_check_layouts(c, err);
  if (!st) st = in->def->infer(c);
  if (!st) st = ic_share_lod(c, err);
  const ic_tensor *src = ic_in(c, 0, 0);
  ic_tensor *dst = ic_out(c, 0, 0);
  /* A graph copies into page-locked memory it keeps across replays. */
  if (!st) st = ic_tensor_alloc(dst, r->capturing && e->pinned ? e->pinned : e->alloc, err);
  size_t n = st ? 0 : (size_t)ic_numel(src->ndim, src->dims) * ic_dtype_size(src->dtype);
  if (!st && n) st = dev->v->memcpy(s, dst->data, src->data, n, IC_COPY_D2H, err);
  /* Host ops after this read the data: wait until it is here (a graph waits at its end). */
  if (!st && !r->capturing) st = dev->v->record(rs->events[i], s, err);
  if (!st && !r->capturing) st = dev->v->host_wait(rs->events[i], err);
  if (st) return prefix(err, in);
  ic_drop_refs(r, in);
  return IC_OK;
}

void ic_release_h2d_srcs(ic_rstate *rs, const ic_plan *plan) {
  for (size_t i = 0; i < plan->n_instrs; i++) {
    if (!rs->h2d_srcs[i]) continue;
    ic_buffer_release(rs->h2d_srcs[i]);
    rs->h2d_srcs[i] = NULL;
  }
}

void ic_release_var(crun *r, uint32_t v) {
  const ic_pvar *pv = &r->plan->vars[v];
  ic_variable *var = r->rs->varp[v];
  ic_executor *e = r->e;
  if (pv->on_device && pv->n_user_streams > 1 && var->tensor.buf && !e->no_gc_events) {
    /* Used on several streams: the stream that frees it (the one it was allocated on) first
     * waits for every other stream to be past its uses. All of them have been launched:
     * this is the last reference. */
    ic_dstream *home = ic_buffer_stream(var->tensor.buf);
    ic_err err;
    for (uint32_t k = 0; k < pv->n_user_streams; k++) {
      ic_dstream *u = e->dstreams[pv->user_streams[k]];
      if (u == home || !home) continue;
      ic_devent *ev = r->rs->gc_events[v][k];
      if (e->dev->v->record(ev, u, &err) == IC_OK) e->dev->v->wait(home, ev, &err);
    }
  }
  ic_variable_clear(var);
}
