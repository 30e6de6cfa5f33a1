/* The compiled executor: runs a cached plan. Per instruction the only work is what the
 * plan could not decide: shape inference (batch sizes arrive with the feeds), output
 * allocation from the caching allocator, the kernel call, counting down successors and
 * releasing variables. No strings, hash lookups or attribute parsing happen here.
 *
 * This file binds a run's variables to the scope, stages the feeds, checks the plan's
 * shapes and runs the plan; how instructions are scheduled on threads is sched.c. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interp/cpuload.h"
#include "interp/ctrl.h"
#include "interp/run.h"

/* Bind variables to this run: persistables it only reads to the caller's scope variables
 * themselves (the caller's scope lock is held shared for the whole run), persistables it
 * writes to run-local shadows that start as a share of the scope's tensor (ic_tensor_alloc
 * gives outputs fresh buffers, so the scope's storage is never written), values read before
 * any op writes them to local copies of the scope's tensors. */
static ic_status bind(crun *r, ic_scope *scope, ic_err *err) {
  const ic_plan *p = r->plan;
  ic_rstate *rs = r->rs;
  char where[160];
  /* The lookups of the last run through this scope, unless it gained variables since. */
  const size_t scope_size = ic_scope_chain_size(scope);
  const bool kept = scope && rs->bound_scope == scope->id && rs->bound_size == scope_size;
  rs->bound_scope = 0;
  /* Each kept variable is read once below, most of them out of the caches after the last
   * run's kernels: start every load first so that the misses overlap. */
  for (size_t v = 0; kept && v < p->n_vars; v++) {
    if (rs->found[v]) __builtin_prefetch(rs->found[v]);
  }
  for (size_t v = 0; v < p->n_vars; v++) {
    const ic_pvar *pv = &p->vars[v];
    if (pv->kind != IC_PV_PERSIST && pv->kind != IC_PV_EXTERNAL) continue;
    ic_variable *sv = kept ? rs->found[v] : scope ? ic_scope_find(scope, pv->name) : NULL;
    rs->found[v] = sv;
    uint32_t reader = rs->first_reader[v];
    if (sv && sv->kind != IC_VK_TENSOR) sv = NULL;
    bool read_first =
        reader != NONE && !(pv->first_write >= 0 && (uint32_t)pv->first_write < reader);
    if (pv->kind == IC_PV_PERSIST && pv->first_write < 0) {
      rs->varp[v] = sv ? sv : &rs->vars[v];
      if (!read_first) continue;
    } else if (pv->kind == IC_PV_PERSIST) {
      rs->varp[v] = &rs->vars[v];
      if (sv && read_first) ic_tensor_share(&rs->vars[v].tensor, &sv->tensor);
      if (!read_first) continue;
    } else if (sv) {
      ic_tensor_share(&rs->vars[v].tensor, &sv->tensor);
    }
    const ic_instr *in = &p->instrs[reader];
    /* A tensor array nobody wrote yet is an empty array (Paddle's create_array adds no op). */
    if (!sv && pv->desc && pv->desc->type == 13) continue;
    if (!sv) {
      const char *slot = "?";
      unsigned flags = 0;
      for (size_t k = 0; k < in->def->n_inputs; k++) {
        for (uint32_t j = 0; j < in->in[k].n; j++) {
          if (in->in[k].vars[j] == v && !strcmp(slot, "?")) {
            slot = in->def->inputs[k].name;
            flags = in->def->inputs[k].flags;
          }
        }
      }
      /* A slot that may be empty (shuffle_batch's Seed before its own SeedOut wrote it)
       * reads an unset variable as empty on every run, as the uncompiled executor does. */
      if (flags & IC_SLOT_MAYBE_EMPTY) {
        ic_tensor_reset(&rs->vars[v].tensor);
        continue;
      }
      return ic_err_set(err, IC_ERR_NOT_FOUND,
                        "%s: input %s '%s' has not been set: no earlier op writes it, and it "
                        "is neither fed nor a parameter in the scope",
                        ic_op_where(in->op, where, sizeof where), slot, pv->name);
    }
    /* A variable without data is refused by the instruction that reads it for data
     * (ic_check_input_data), in program order as the uncompiled executor does. */
  }
  if (scope) {
    rs->bound_scope = scope->id;
    rs->bound_size = scope_size;
  }
  for (size_t k = 0; k < rs->n_patch; k++) {
    ic_variable *v = rs->varp[rs->patch_var[k]];
    rs->tptr[rs->patch_pos[k]] = &v->tensor;
    rs->vptr[rs->patch_pos[k]] = v;
  }
  for (size_t i = 0; i < p->n_instrs; i++) {
    atomic_store_explicit(&rs->deps[i], p->instrs[i].n_preds, memory_order_relaxed);
  }
  for (size_t v = 0; v < p->n_vars; v++) {
    atomic_store_explicit(&rs->refs[v], p->vars[v].n_uses, memory_order_relaxed);
  }
  return IC_OK;
}

/* Copy the persistables the run updated into storage of the system allocator (owned by no
 * executor), ready for ic_commit_persistables; out[k] stays empty for one the run left as
 * the scope has it. */
static ic_status prepare_commit(const ic_plan *p, ic_rstate *rs, ic_scope *scope,
                                ic_tensor *out, ic_err *err) {
  for (size_t k = 0; k < rs->n_commit; k++) {
    ic_tensor_init(&out[k]);
    const ic_tensor *t = &rs->vars[rs->commit[k]].tensor;
    const ic_variable *sv = ic_scope_find(scope, p->vars[rs->commit[k]].name);
    if (!t->buf || (sv && sv->kind == IC_VK_TENSOR && sv->tensor.buf == t->buf)) continue;
    ic_status st = ic_tensor_copy(&out[k], t, NULL, err);
    if (st) return ic_err_prefix(err, "committing persistable '%s': ", p->vars[rs->commit[k]].name);
  }
  return IC_OK;
}

/* Drop every buffer the run still holds locally (the plan's state stays), except
 * variable `keep` (the fetch holder, or UINT32_MAX) and parameters' device copies. */
static void unbind(const ic_plan *p, ic_rstate *rs, uint32_t keep) {
  for (size_t v = 0; v < p->n_vars; v++) {
    if (v != keep && p->vars[v].kind != IC_PV_CACHED) ic_variable_clear(&rs->vars[v]);
  }
}

/* ---------------------------------------------------------------------------------------
 * CUDA graph mode (options.cuda_graph): the first run with given feed shapes runs eagerly
 * (kernel states, cached parameter copies and cuDNN's choices settle), the second records
 * one serial run into a graph (feeds staged in page-locked buffers the graph copies from,
 * results copied into page-locked buffers it keeps) and replays it, and later runs with the
 * same shapes and parameters only copy the feeds in, replay, and copy the fetches out.
 * ------------------------------------------------------------------------------------- */

static ic_status graph_supported(ic_executor *e, const ic_plan *p, ic_err *err) {
  char where[160];
  if (!e->dev || e->dev->place.kind != IC_PLACE_CUDA || !e->dev->v->capture_begin) {
    return ic_err_set(err, IC_ERR_UNSUPPORTED, "cuda_graph needs a CUDA device (options.device)");
  }
  if (!p->gc) return ic_err_set(err, IC_ERR_UNSUPPORTED, "cuda_graph needs GC on");
  for (size_t i = 0; i < p->n_instrs; i++) {
    const ic_instr *in = &p->instrs[i];
    /* Feeds and fetches are staged around the graph. A derived constant (ic_fold_bn) runs
     * on the host only when a parameter changed, and a parameter change destroys the graph
     * and runs eagerly first, so the recording run never executes it. */
    if (in->where == IC_WHERE_HOST &&
        !(in->def->flags & (IC_OP_FEED | IC_OP_FETCH | IC_OP_DERIVED))) {
      return ic_err_set(err, IC_ERR_UNSUPPORTED,
                        "cuda_graph: %s runs on the host; a graph needs every op between the "
                        "feeds and the fetches on the GPU",
                        ic_op_where(in->op, where, sizeof where));
    }
  }
  if (!e->pinned && !(e->pinned = ic_allocator_pinned(e->dev))) {
    return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  }
  return IC_OK;
}

/* Whether the feeds have the dtypes and dims last seen; records them if not. */
static bool same_shapes(ic_rstate *rs, size_t n_feeds, const ic_tensor *const *feeds) {
  size_t n = n_feeds * (2 + IC_MAX_RANK);
  bool same = rs->sig && rs->n_sig == n;
  int64_t *sig = same ? rs->sig : calloc(n ? n : 1, sizeof *sig);
  if (!sig) return false;
  for (size_t i = 0; i < n_feeds; i++) {
    int64_t *d = sig + i * (2 + IC_MAX_RANK);
    int64_t now[2 + IC_MAX_RANK] = {feeds[i]->dtype, feeds[i]->ndim};
    for (int k = 0; k < feeds[i]->ndim; k++) now[2 + k] = feeds[i]->dims[k];
    if (same && memcmp(d, now, sizeof now) != 0) same = false;
    memcpy(d, now, sizeof now);
  }
  if (sig != rs->sig) {
    free(rs->sig);
    rs->sig = sig;
    rs->n_sig = n;
  }
  return same;
}

/* Copy the feeds into the page-locked staging tensors (same buffers every run). */
static ic_status stage_feeds(ic_executor *e, ic_rstate *rs, const ic_opseq *seq, size_t n_feeds,
                             const ic_tensor *const *feeds, const ic_tensor **staged, ic_err *err) {
  if (rs->n_staging < seq->n_feed_cols) {
    ic_tensor *t = realloc(rs->staging, seq->n_feed_cols * sizeof *t);
    if (!t) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t k = rs->n_staging; k < seq->n_feed_cols; k++) ic_tensor_init(&t[k]);
    rs->staging = t;
    rs->n_staging = seq->n_feed_cols;
  }
  for (size_t i = 0; i < n_feeds; i++) {
    ic_tensor *st = &rs->staging[seq->feed_col[i]];
    const ic_tensor *f = feeds[i];
    size_t bytes = ic_tensor_nbytes(f);
    if (!st->buf || st->dtype != f->dtype || !ic_dims_equal(st->ndim, st->dims, f->ndim, f->dims)) {
      ic_tensor_set_meta(st, f->dtype, f->ndim, f->dims);
      ic_status s = ic_tensor_alloc(st, e->pinned, err);
      if (s) return s;
    }
    if (bytes) memcpy(st->data, f->data, bytes);
    staged[i] = st;
  }
  return IC_OK;
}

/* ---------------------------------------------------------------------------------------
 * One run
 * ------------------------------------------------------------------------------------- */

/* One run of plan p with run state rs, the caller's scope lock held shared (by the caller);
 * *unlocked is set once this function has released it (before committing). */
static ic_status run_plan(ic_executor *e, const ic_plan *p, ic_rstate *rs, ic_scope *scope,
                          size_t n_feeds, const char *const *feed_names,
                          const ic_tensor *const *feeds, size_t n_fetches,
                          const char *const *fetch_names, ic_tensor **fetches, bool *unlocked,
                          ic_span **spans_out, ic_err *err) {
  ic_status st;
  (void)feed_names;
  if (p->device && (st = ic_executor_streams(e, p->n_streams, err))) return st;
  bool graph = e->opt.cuda_graph, capture = false;
  const ic_tensor **staged = NULL;
  if (graph) {
    if ((st = graph_supported(e, p, err))) return st;
    bool same = same_shapes(rs, n_feeds, feeds);
    bool params_same = true;
    for (size_t i = 0; i < p->n_instrs && params_same; i++) {
      if (rs->cache_srcs[i]) params_same = ic_cache_valid(rs, &p->instrs[i], &rs->ctx[i], (uint32_t)i);
    }
    if (!same || !params_same) {
      if (rs->graph) e->dev->v->graph_destroy(rs->graph);
      rs->graph = NULL;
      rs->warm = false;
    }
    if (!(staged = calloc(n_feeds + 1, sizeof *staged))) {
      return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (rs->graph) {
      /* Replay: feeds into the staging buffers the graph reads, fetches from the buffers it
       * writes. */
      if ((st = stage_feeds(e, rs, &p->seq, n_feeds, feeds, staged, err)) ||
          (st = e->dev->v->graph_launch(e->dstreams[0], rs->graph, err)) ||
          (st = ic_sync_streams(e, p->n_streams, err))) {
        free(staged);
        return st;
      }
      ic_variable th = {.kind = IC_VK_LIST, .n_list = rs->n_kept, .list = rs->kept};
      st = ic_collect_fetches(&p->seq, &th, e->alloc, n_fetches, fetch_names, fetches, err);
      free(staged);
      return st;
    }
    if (rs->warm) {
      capture = true;
      if ((st = stage_feeds(e, rs, &p->seq, n_feeds, feeds, staged, err))) {
        free(staged);
        return st;
      }
      feeds = staged;
    }
  }
  /* The pool serves one run at a time: a run that finds it busy runs in its own thread. */
  bool pooled = !capture && e->pool && !atomic_exchange(&e->pool_busy, true);
  crun r = {.plan = p, .rs = rs, .e = e, .pool = pooled ? e->pool : NULL, .handoff = NONE,
            .profile = e->opt.profile && !capture, .capturing = capture};
  ic_tensor *commit = NULL;
  atomic_init(&r.pending, 0);
  atomic_init(&r.abort, false);
  atomic_init(&r.caller_instr, NONE);
  atomic_init(&r.caller_t0, 0);
  atomic_init(&r.caller_team, 1);
  atomic_init(&r.want_team, false);
  atomic_init(&r.failed, 0);
  if (r.profile && !(r.spans = calloc(p->n_instrs ? p->n_instrs : 1, sizeof *r.spans))) {
    st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory for the profile");
    goto done;
  }
  if (p->feed_holder != NONE || p->fetch_holder != NONE) {
    ic_variable spare_f, spare_t;
    memset(&spare_f, 0, sizeof spare_f);
    memset(&spare_t, 0, sizeof spare_t);
    ic_variable *fh = p->feed_holder != NONE ? &rs->vars[p->feed_holder] : &spare_f;
    ic_variable *th = p->fetch_holder != NONE ? &rs->vars[p->fetch_holder] : &spare_t;
    st = ic_fill_holders(&p->seq, fh, th, n_feeds, feeds, err);
    ic_variable_clear(&spare_f);
    ic_variable_clear(&spare_t);
    free(spare_f.list);
    free(spare_t.list);
    if (st) goto done;
  }
  if ((st = bind(&r, scope, err))) goto done;
  atomic_store_explicit(&rs->n_joined, 0, memory_order_relaxed);
  worker self = {.id = 0, .env = e->env, .cls = CLASS_HOST,
                 .classes = r.pool ? 1u << CLASS_HOST : (1u << N_CLASSES) - 1};
  if (capture && (st = e->dev->v->capture_begin(e->dstreams[0], err))) goto done;
  ic_sched_run(&r, &self);
  if (capture) {
    ic_err cerr;
    ic_status cst = e->dev->v->capture_end(e->dstreams[0], &rs->graph, &cerr);
    if (!atomic_load(&r.failed) && cst) {
      *err = cerr;
      st = cst;
      goto done;
    }
    /* Recording ran nothing: run what was recorded. */
    if (!atomic_load(&r.failed) && (st = e->dev->v->graph_launch(e->dstreams[0], rs->graph, err))) {
      goto done;
    }
  }
  /* Device work may still be in flight: wait for it (and hear of kernel failures). */
  ic_status sync_st = p->device ? ic_sync_streams(e, p->n_streams, err) : IC_OK;
  if (p->device) ic_release_h2d_srcs(rs, p); /* every copy has read its source */
  if (atomic_load(&r.failed)) {
    *err = r.err;
    st = err->code;
    goto done;
  }
  if ((st = sync_st)) goto done;
  if (graph && !capture) rs->warm = true;
  if (capture && p->fetch_holder != NONE) {
    /* Keep the buffers the graph writes the results into. */
    const ic_variable *th = &rs->vars[p->fetch_holder];
    ic_tensor *kept = calloc(th->n_list ? th->n_list : 1, sizeof *kept);
    if (!kept) {
      st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      goto done;
    }
    for (size_t k = 0; k < rs->n_kept; k++) ic_tensor_reset(&rs->kept[k]);
    free(rs->kept);
    for (size_t k = 0; k < th->n_list; k++) {
      ic_tensor_init(&kept[k]);
      ic_tensor_share(&kept[k], &th->list[k]);
    }
    rs->kept = kept;
    rs->n_kept = th->n_list;
  }
  if (rs->n_commit && scope) {
    commit = rs->commit_out;
    if ((st = prepare_commit(p, rs, scope, commit, err))) goto done;
  }
  unbind(p, rs, p->fetch_holder);
  st = ic_collect_fetches(&p->seq, p->fetch_holder != NONE ? &rs->vars[p->fetch_holder] : NULL,
                          e->alloc, n_fetches, fetch_names, fetches, err);
  if (!st && commit) {
    ic_scope *root = ic_scope_root(scope);
    pthread_rwlock_unlock(&root->lock);
    *unlocked = true;
    st = ic_commit_persistables(scope, rs->n_commit, rs->commit_names, commit, err);
  }
done:
  if (pooled) atomic_store(&e->pool_busy, false);
  for (size_t k = 0; commit && k < rs->n_commit; k++) ic_tensor_reset(&commit[k]);
  if (r.spans) {
    if (st) free(r.spans);
    else *spans_out = r.spans;
  }
  if (st && capture && rs->graph) {
    e->dev->v->graph_destroy(rs->graph);
    rs->graph = NULL;
  }
  free(staged);
  ic_join_reset(rs, p);
  unbind(p, rs, NONE);
  if (st) {
    for (size_t i = 0; i < n_fetches; i++) {
      ic_tensor_destroy(fetches[i]);
      fetches[i] = NULL;
    }
  }
  return st;
}

ic_status ic_run_compiled(ic_executor *e, const ic_program *prog, ic_scope *scope,
                          size_t n_feeds, const char *const *feed_names,
                          const ic_tensor *const *feeds, size_t n_fetches,
                          const char *const *fetch_names, ic_tensor **fetches, uint64_t seed,
                          ic_err *err) {
  ic_status st = ic_check_feeds(prog, n_feeds, feed_names, feeds, err);
  if (st) return st;
  ic_cache_entry *ce;
  ic_rstate *rs;
  bool built;
  uint64_t t0 = ic_now_ns();
  if ((st = ic_cache_acquire(e, prog, n_feeds, feed_names, n_fetches, fetch_names, &ce, &rs,
                             &built, err))) {
    return st;
  }
  /* Runs that update persistables are serialized per scope; every run reads the scope under
   * its root's shared lock, which committing takes exclusive. */
  ic_scope *root = scope ? ic_scope_root(scope) : NULL;
  bool writer = root && rs->n_commit, unlocked = false;
  if (writer) pthread_mutex_lock(&root->writer);
  if (root) pthread_rwlock_rdlock(&root->lock);
  rs->seed = seed;
  ic_span *spans = NULL;
  uint64_t run_t0 = ic_now_ns();
  st = run_plan(e, ce->plan, rs, scope, n_feeds, feed_names, feeds, n_fetches, fetch_names,
                fetches, &unlocked, &spans, err);
  if (root && !unlocked) pthread_rwlock_unlock(&root->lock);
  if (writer) pthread_mutex_unlock(&root->writer);
  if (spans) {
    pthread_mutex_lock(&e->lock);
    free(e->spans);
    e->spans = spans;
    e->n_spans = ce->plan->n_instrs;
    e->profile_t0 = run_t0;
    e->analysis_t0 = built ? t0 : 0;
    e->analysis_t1 = built ? t0 + (uint64_t)(ce->plan->stats.analysis_ms * 1e6) : 0;
    pthread_mutex_unlock(&e->lock);
  }
  ic_cache_release(e, ce, rs);
  return st;
}

const ic_tensor *ic_executor_last_var(const ic_executor *e, size_t v) {
  if (!e->last_plan || !e->last_rs || v >= e->last_plan->n_vars) return NULL;
  return &e->last_rs->varp[v]->tensor;
}
