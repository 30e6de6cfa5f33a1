/* The compiled executor: runs a cached plan. Per instruction the only work is what the
 * plan could not decide: shape inference (batch sizes arrive with the feeds), output
 * allocation from the caching allocator, the kernel call, counting down successors and
 * releasing variables. No strings, hash lookups or attribute parsing happen here.
 *
 * Scheduling: the calling thread and the pool's workers take ready instructions from a
 * shared heap ordered by (scheduling_priority, program order). When an instruction
 * finishes, the best of its newly ready successors runs next in the same thread and the
 * others go to the heap. `pending` counts instructions that are ready or running; the run
 * is over when it reaches zero. The first failure wins a compare-and-swap, raises `abort`,
 * and from then on nothing new starts; the run returns once every thread is idle.
 *
 * Lock order: pool->lock is the only lock taken here; kernels and the allocator take
 * their own locks beneath it never (they are called with pool->lock released). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interp/interp.h"

#define NONE UINT32_MAX

uint64_t ic_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---------------------------------------------------------------------------------------
 * Run state: everything a run mutates, allocated on a plan's first run and reused.
 * ------------------------------------------------------------------------------------- */
struct ic_rstate {
  ic_variable *vars;        /* local variables, one per plan variable */
  ic_variable **varp;       /* the variable each index is bound to in this run */
  ic_kslot *slots;          /* per instruction: its input slots, then its output slots */
  ic_tensor **tptr;         /* backing arrays of slots[].t */
  ic_variable **vptr;       /* backing arrays of slots[].vars */
  size_t n_patch;           /* positions in tptr/vptr naming persistables, rebound per run */
  uint32_t *patch_pos;
  uint32_t *patch_var;
  ic_kctx *ctx;             /* per instruction, filled once */
  void **kstate;            /* per instruction kernel state (ic_opdef.free_state) */
  ic_kslot **snap_slots;    /* per aliasing instruction: input slots over snapshots */
  ic_tensor **snaps;        /* per aliasing instruction: its snapshot tensors */
  size_t *n_snaps;
  atomic_uint *deps;        /* remaining predecessors */
  atomic_uint *refs;        /* remaining users before a variable is released */
  uint32_t *heap;           /* ready instructions */
  uint32_t *first_reader;   /* per variable: first instruction reading it, for messages */
};

void ic_rstate_destroy(ic_rstate *rs, const ic_plan *plan) {
  if (!rs) return;
  for (size_t v = 0; rs->vars && v < plan->n_vars; v++) {
    ic_variable_clear(&rs->vars[v]);
    free(rs->vars[v].list);
  }
  for (size_t i = 0; rs->kstate && i < plan->n_instrs; i++) {
    if (rs->kstate[i] && plan->instrs[i].def->free_state) {
      plan->instrs[i].def->free_state(rs->kstate[i]);
    }
  }
  for (size_t i = 0; rs->snap_slots && i < plan->n_instrs; i++) {
    if (rs->snap_slots[i]) {
      for (size_t k = 0; k < plan->instrs[i].def->n_inputs; k++) free((void *)rs->snap_slots[i][k].t);
    }
    free(rs->snap_slots[i]);
    free(rs->snaps[i]);
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
  free(rs->refs);
  free(rs->heap);
  free(rs->first_reader);
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

static ic_status rstate_create(const ic_plan *plan, ic_rstate **out, ic_err *err) {
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
  rs->refs = calloc(nv, sizeof *rs->refs);
  rs->heap = calloc(ni, sizeof *rs->heap);
  rs->first_reader = calloc(nv, sizeof *rs->first_reader);
  if (!rs->vars || !rs->varp || !rs->slots || !rs->tptr || !rs->vptr || !rs->patch_pos ||
      !rs->patch_var || !rs->ctx || !rs->kstate || !rs->snap_slots || !rs->snaps ||
      !rs->n_snaps || !rs->deps || !rs->refs || !rs->heap || !rs->first_reader) {
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
                           .out = s0 + in->def->n_inputs, .op_key = (uint64_t)i,
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
  *out = rs;
  return IC_OK;
oom:
  ic_rstate_destroy(rs, plan);
  return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory preparing a run");
}

/* ---------------------------------------------------------------------------------------
 * One run.
 * ------------------------------------------------------------------------------------- */
typedef struct crun {
  const ic_plan *plan;
  ic_rstate *rs;
  ic_executor *e;
  ic_pool *pool;            /* NULL: serial in the calling thread */
  size_t heap_n;            /* ready instructions in rs->heap (guarded by pool->lock) */
  atomic_long pending;      /* ready or running instructions */
  atomic_bool abort;        /* a failure happened: start nothing new */
  atomic_int failed;        /* 0 until the first failure's compare-and-swap */
  bool done;                /* pending reached 0 (guarded by pool->lock) */
  ic_err err;               /* the first failure */
  bool profile;
} crun;

typedef struct worker {
  struct ic_pool *pool;
  uint32_t id;              /* 1.. for pool workers, 0 for the calling thread */
  pthread_t thread;
  ic_err err;
  ic_kenv env;
} worker;

struct ic_pool {
  pthread_mutex_t lock;     /* guards run, run->heap_n, run->done, active, shutdown */
  pthread_cond_t cv;        /* work pushed, a run finished, or shutdown */
  int n_workers;
  worker *workers;
  crun *run;                /* the run in progress, NULL between runs */
  int active;               /* workers executing instructions of the current run */
  bool shutdown;
};

static inline bool before(const ic_plan *p, uint32_t a, uint32_t b) {
  int64_t pa = p->instrs[a].priority, pb = p->instrs[b].priority;
  return pa < pb || (pa == pb && a < b);
}

static void heap_push(crun *r, uint32_t x) {
  uint32_t *h = r->rs->heap;
  size_t i = r->heap_n++;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!before(r->plan, x, h[parent])) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = x;
}

static uint32_t heap_pop(crun *r) {
  uint32_t *h = r->rs->heap;
  uint32_t top = h[0], last = h[--r->heap_n];
  size_t i = 0, n = r->heap_n;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && before(r->plan, h[c + 1], h[c])) c++;
    if (!before(r->plan, h[c], last)) break;
    h[i] = h[c];
    i = c;
  }
  if (n) h[i] = last;
  return top;
}

static void fail(crun *r, ic_err *err) {
  int zero = 0;
  if (atomic_compare_exchange_strong(&r->failed, &zero, 1)) r->err = *err;
  atomic_store(&r->abort, true);
}

/* Run instruction i's kernel in the calling thread. */
static ic_status exec_instr(crun *r, worker *w, uint32_t i) {
  const ic_instr *in = &r->plan->instrs[i];
  ic_rstate *rs = r->rs;
  ic_kctx *c = &rs->ctx[i];
  const ic_opdef *def = in->def;
  c->err = &w->err;
  c->env = &w->env;
  /* Alone in the plan: no other instruction can be ready now, so take every thread. */
  w->env.intra_threads = in->alone ? r->e->total_threads : r->e->env.intra_threads;
  const ic_kslot *shared_in = c->in;
  if (in->alias) {
    /* The op writes a variable it reads: read from snapshots of the inputs. */
    size_t at = 0;
    for (size_t k = 0; k < def->n_inputs; k++) {
      for (size_t j = 0; j < shared_in[k].n; j++) {
        ic_tensor *s = &rs->snaps[i][at++];
        *s = *shared_in[k].t[j];
        s->lod = NULL;
        if (s->buf) ic_buffer_retain(s->buf);
      }
    }
    c->in = rs->snap_slots[i];
  }
  for (size_t k = 0; k < def->n_outputs; k++) {
    if (!(def->outputs[k].flags & IC_SLOT_NO_BUFFER)) continue;
    for (size_t j = 0; j < c->out[k].n; j++) ic_tensor_reset(c->out[k].t[j]);
  }
  ic_status st = def->infer(c);
  for (size_t k = 0; !st && k < def->n_outputs; k++) {
    if (def->outputs[k].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_SHARE | IC_SLOT_HOLDER)) continue;
    for (size_t j = 0; !st && j < c->out[k].n; j++) {
      st = ic_tensor_alloc(c->out[k].t[j], w->env.alloc, &w->err);
    }
  }
  if (!st) {
    st = r->e->fail_at == (long)i ? ic_err_set(&w->err, IC_ERR_KERNEL, "injected failure")
                                  : def->cpu(c);
  }
  if (!st && r->e->opt.check_nan_inf) st = ic_check_finite(c, &w->err);
  if (in->alias) {
    for (size_t s = 0; s < rs->n_snaps[i]; s++) ic_buffer_release(rs->snaps[i][s].buf);
    c->in = shared_in;
  }
  if (st) {
    char where[160];
    ic_err_prefix(&w->err, "%s: ", ic_op_where(in->op, where, sizeof where));
    return st;
  }
  for (uint32_t k = 0; k < in->n_gc; k++) {
    uint32_t v = in->gc[k];
    if (atomic_fetch_sub_explicit(&rs->refs[v], 1, memory_order_acq_rel) == 1) {
      ic_variable_clear(rs->varp[v]);
    }
  }
  return IC_OK;
}

static void finish_run(crun *r) {
  if (r->pool) {
    pthread_mutex_lock(&r->pool->lock);
    r->done = true;
    pthread_cond_broadcast(&r->pool->cv);
    pthread_mutex_unlock(&r->pool->lock);
  } else {
    r->done = true;
  }
}

/* Run i, then keep going with the best newly ready successor; others go to the heap. */
static void run_chain(crun *r, worker *w, uint32_t i) {
  const ic_plan *p = r->plan;
  ic_span *spans = r->profile ? r->e->spans : NULL;
  while (i != NONE) {
    const ic_instr *in = &p->instrs[i];
    long ready = 0;
    uint32_t next = NONE;
    if (!atomic_load_explicit(&r->abort, memory_order_relaxed)) {
      if (spans) spans[i].start_ns = ic_now_ns();
      ic_status st = exec_instr(r, w, i);
      if (spans) {
        spans[i].end_ns = ic_now_ns();
        spans[i].thread = w->id;
      }
      if (st) {
        fail(r, &w->err);
      } else {
        for (uint32_t k = 0; k < in->n_succ; k++) {
          uint32_t s = in->succ[k];
          if (atomic_fetch_sub_explicit(&r->rs->deps[s], 1, memory_order_acq_rel) != 1) continue;
          ready++;
          if (next == NONE) {
            next = s;
            continue;
          }
          uint32_t other = s;
          if (before(p, s, next)) {
            other = next;
            next = s;
          }
          /* Counted before it is pushed, so nobody can finish it first and see zero. */
          atomic_fetch_add_explicit(&r->pending, 1, memory_order_relaxed);
          if (r->pool) {
            pthread_mutex_lock(&r->pool->lock);
            heap_push(r, other);
            pthread_cond_signal(&r->pool->cv);
            pthread_mutex_unlock(&r->pool->lock);
          } else {
            heap_push(r, other);
          }
        }
      }
    }
    if (next == NONE && atomic_fetch_sub(&r->pending, 1) == 1) finish_run(r);
    i = next;
  }
}

static void *worker_main(void *arg) {
  worker *w = arg;
  ic_pool *pool = w->pool;
  pthread_mutex_lock(&pool->lock);
  for (;;) {
    while (!pool->shutdown && !(pool->run && pool->run->heap_n > 0)) {
      pthread_cond_wait(&pool->cv, &pool->lock);
    }
    if (pool->shutdown) break;
    crun *r = pool->run;
    uint32_t i = heap_pop(r);
    pool->active++;
    pthread_mutex_unlock(&pool->lock);
    run_chain(r, w, i);
    pthread_mutex_lock(&pool->lock);
    if (--pool->active == 0 && r->done) pthread_cond_broadcast(&pool->cv);
  }
  pthread_mutex_unlock(&pool->lock);
  return NULL;
}

ic_status ic_pool_create(int n_workers, const ic_kenv *env, ic_pool **out) {
  *out = NULL;
  ic_pool *pool = calloc(1, sizeof *pool);
  if (!pool) return IC_ERR_OUT_OF_MEMORY;
  pool->workers = calloc((size_t)n_workers, sizeof *pool->workers);
  if (!pool->workers) {
    free(pool);
    return IC_ERR_OUT_OF_MEMORY;
  }
  pthread_mutex_init(&pool->lock, NULL);
  pthread_cond_init(&pool->cv, NULL);
  for (int i = 0; i < n_workers; i++) {
    worker *w = &pool->workers[i];
    w->pool = pool;
    w->id = (uint32_t)i + 1;
    w->env = *env;
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
      pool->n_workers = i;
      ic_pool_destroy(pool);
      return IC_ERR_INTERNAL;
    }
    pool->n_workers = i + 1;
  }
  *out = pool;
  return IC_OK;
}

void ic_pool_destroy(ic_pool *pool) {
  if (!pool) return;
  pthread_mutex_lock(&pool->lock);
  pool->shutdown = true;
  pthread_cond_broadcast(&pool->cv);
  pthread_mutex_unlock(&pool->lock);
  for (int i = 0; i < pool->n_workers; i++) pthread_join(pool->workers[i].thread, NULL);
  pthread_cond_destroy(&pool->cv);
  pthread_mutex_destroy(&pool->lock);
  free(pool->workers);
  free(pool);
}

/* The calling thread works too, until the run is done and no worker is inside it. */
static void schedule(crun *r, worker *self) {
  const ic_plan *p = r->plan;
  atomic_store(&r->pending, (long)p->n_roots);
  if (p->n_roots == 0) {
    r->done = true;
    return;
  }
  if (!r->pool) {
    for (size_t k = 0; k < p->n_roots; k++) heap_push(r, p->roots[k]);
    while (r->heap_n) run_chain(r, self, heap_pop(r));
    return;
  }
  ic_pool *pool = r->pool;
  pthread_mutex_lock(&pool->lock);
  /* The best root runs here; the rest are offered to the workers. */
  for (size_t k = 1; k < p->n_roots; k++) heap_push(r, p->roots[k]);
  pool->run = r;
  if (r->heap_n) pthread_cond_broadcast(&pool->cv);
  pthread_mutex_unlock(&pool->lock);
  run_chain(r, self, p->roots[0]);
  pthread_mutex_lock(&pool->lock);
  for (;;) {
    if (r->heap_n) {
      uint32_t i = heap_pop(r);
      pthread_mutex_unlock(&pool->lock);
      run_chain(r, self, i);
      pthread_mutex_lock(&pool->lock);
      continue;
    }
    if (r->done && pool->active == 0) break;
    pthread_cond_wait(&pool->cv, &pool->lock);
  }
  pool->run = NULL;
  pthread_mutex_unlock(&pool->lock);
}

/* Bind variables to this run: persistables to the caller's scope, values read before any op
 * writes them to local copies of the scope's tensors. */
static ic_status bind(crun *r, ic_scope *scope, ic_err *err) {
  const ic_plan *p = r->plan;
  ic_rstate *rs = r->rs;
  char where[160];
  for (size_t v = 0; v < p->n_vars; v++) {
    const ic_pvar *pv = &p->vars[v];
    if (pv->kind != IC_PV_PERSIST && pv->kind != IC_PV_EXTERNAL) continue;
    ic_variable *sv = scope ? ic_scope_find(scope, pv->name) : NULL;
    uint32_t reader = rs->first_reader[v];
    if (sv && sv->kind != IC_VK_TENSOR) sv = NULL;
    if (pv->kind == IC_PV_PERSIST) {
      rs->varp[v] = sv ? sv : &rs->vars[v];
      if (reader == NONE || (pv->first_write >= 0 && (uint32_t)pv->first_write < reader)) continue;
    } else if (sv) {
      ic_tensor_share(&rs->vars[v].tensor, &sv->tensor);
    }
    const ic_instr *in = &p->instrs[reader];
    if (!sv) {
      return ic_err_set(err, IC_ERR_NOT_FOUND,
                        "%s: input '%s' has not been set: no earlier op writes it, and it is "
                        "neither fed nor a parameter in the scope",
                        ic_op_where(in->op, where, sizeof where), pv->name);
    }
    if (!sv->tensor.data && pv->last_use >= 0) {
      return ic_err_set(err, IC_ERR_NOT_FOUND,
                        "%s: input '%s' holds no data (a parameter that was not loaded, or a "
                        "variable read before any op writes it)",
                        ic_op_where(in->op, where, sizeof where), pv->name);
    }
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

/* Drop every buffer the run still holds locally (the plan's state stays), except
 * variable `keep` (the fetch holder, or UINT32_MAX). */
static void unbind(const ic_plan *p, ic_rstate *rs, uint32_t keep) {
  for (size_t v = 0; v < p->n_vars; v++) {
    if (v != keep) ic_variable_clear(&rs->vars[v]);
  }
}

ic_status ic_run_compiled(ic_executor *e, const ic_program *prog, ic_scope *scope,
                          size_t n_feeds, const char *const *feed_names,
                          const ic_tensor *const *feeds, size_t n_fetches,
                          const char *const *fetch_names, ic_tensor **fetches, ic_err *err) {
  ic_cache_entry *ce;
  ic_status st = ic_check_feeds(prog, n_feeds, feed_names, feeds, err);
  if (st) return st;
  if ((st = ic_cache_get(e, prog, n_feeds, feed_names, n_fetches, fetch_names, &ce, err))) {
    return st;
  }
  const ic_plan *p = ce->plan;
  if (!ce->rs && (st = rstate_create(p, &ce->rs, err))) return st;
  e->last_plan = ce->plan;
  e->last_rs = ce->rs;
  crun r = {.plan = p, .rs = ce->rs, .e = e, .pool = e->pool, .profile = e->opt.profile};
  atomic_init(&r.pending, 0);
  atomic_init(&r.abort, false);
  atomic_init(&r.failed, 0);
  if (r.profile) {
    ic_span *spans = realloc(e->spans, (p->n_instrs ? p->n_instrs : 1) * sizeof *spans);
    if (!spans) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory for the profile");
    memset(spans, 0, (p->n_instrs ? p->n_instrs : 1) * sizeof *spans);
    e->spans = spans;
    e->n_spans = p->n_instrs;
    e->profile_t0 = ic_now_ns();
  }
  ic_rstate *rs = ce->rs;
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
  worker self = {.id = 0, .env = e->env};
  schedule(&r, &self);
  if (atomic_load(&r.failed)) {
    *err = r.err;
    st = err->code;
    goto done;
  }
  unbind(p, rs, p->fetch_holder);
  st = ic_collect_fetches(&p->seq, p->fetch_holder != NONE ? &rs->vars[p->fetch_holder] : NULL,
                          e->alloc, n_fetches, fetch_names, fetches, err);
done:
  unbind(p, rs, NONE);
  if (st) {
    for (size_t i = 0; i < n_fetches; i++) {
      ic_tensor_destroy(fetches[i]);
      fetches[i] = NULL;
    }
  }
  return st;
}

const ic_tensor *ic_executor_last_var(const ic_executor *e, size_t v) {
  if (!e->last_plan || !e->last_rs || v >= e->last_plan->n_vars) return NULL;
  return &e->last_rs->varp[v]->tensor;
}
