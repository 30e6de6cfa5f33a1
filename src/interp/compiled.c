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

#include "interp/cpuload.h"
#include "interp/ctrl.h"
#include "interp/run.h"

uint64_t ic_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---------------------------------------------------------------------------------------
 * Scheduling
 * ------------------------------------------------------------------------------------- */

static inline bool before(const ic_plan *p, uint32_t a, uint32_t b) {
  int64_t pa = p->instrs[a].priority, pb = p->instrs[b].priority;
  return pa < pb || (pa == pb && a < b);
}

/* Which of two newly ready successors a thread goes on with: by priority, then the taller
 * (the longer path to the end: the main line, not a side branch such as SVTR's shape and
 * slice ops that feed a reshape 80 instructions on), then program order. */
static inline bool go_on_with(const ic_plan *p, uint32_t a, uint32_t b) {
  const ic_instr *x = &p->instrs[a], *y = &p->instrs[b];
  if (x->priority != y->priority) return x->priority < y->priority;
  if (x->height != y->height) return x->height > y->height;
  return a < b;
}

static void heap_push(crun *r, int k, uint32_t x) {
  uint32_t *h = r->rs->heaps[k];
  size_t i = r->heap_n[k]++;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!before(r->plan, x, h[parent])) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = x;
}

static uint32_t heap_pop(crun *r, int k) {
  uint32_t *h = r->rs->heaps[k];
  uint32_t top = h[0], last = h[--r->heap_n[k]];
  size_t i = 0, n = r->heap_n[k];
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

void ic_snapshot_inputs(ic_rstate *rs, const ic_instr *in, ic_kctx *c, uint32_t i) {
  size_t at = 0;
  for (size_t k = 0; k < in->def->n_inputs; k++) {
    for (size_t j = 0; j < c->in[k].n; j++) {
      ic_tensor *s = &rs->snaps[i][at++];
      *s = *c->in[k].t[j];
      /* its own copy of the LoD: infer may replace the output's, which is this one */
      if (s->lod) s->lod = ic_lod_clone(s->lod);
      if (s->buf) ic_buffer_retain(s->buf);
    }
  }
  c->in = rs->snap_slots[i];
}

void ic_release_snapshots(ic_rstate *rs, const ic_instr *in, ic_kctx *c, uint32_t i,
                          const ic_kslot *shared_in) {
  (void)in;
  for (size_t s = 0; s < rs->n_snaps[i]; s++) {
    ic_buffer_release(rs->snaps[i][s].buf);
    ic_lod_free(rs->snaps[i][s].lod);
    rs->snaps[i][s].lod = NULL;
  }
  c->in = shared_in;
}

void ic_drop_refs(crun *r, const ic_instr *in) {
  for (uint32_t k = 0; k < in->n_gc; k++) {
    uint32_t v = in->gc[k];
    if (atomic_fetch_sub_explicit(&r->rs->refs[v], 1, memory_order_acq_rel) == 1) {
      ic_release_var(r, v);
    }
  }
}

/* The threads of the budget that no chain and no kernel holds become the kernel's
 * (w->env.intra_threads), unless a ready host instruction is waiting for one (and `even_if_ready`
 * is false); returns how many it took beyond its own. */
static int take_threads(crun *r, worker *w, bool even_if_ready) {
  ic_pool *pool = r->pool;
  int k = 0;
  int team = ic_cpuload_budget(r->e->load, pool->budget);
  pthread_mutex_lock(&pool->lock);
  if (even_if_ready || r->heap_n[CLASS_HOST] == 0) {
    k = pool->budget - atomic_load_explicit(&pool->busy, memory_order_relaxed) - pool->lent;
    if (k > team - 1) k = team - 1;
    if (k < 0) k = 0;
    pool->lent += k;
  }
  pthread_mutex_unlock(&pool->lock);
  w->env.intra_threads = 1 + k;
  return k;
}

static int borrow_threads(crun *r, worker *w) { return take_threads(r, w, false); }

/* Give them back, and wake a thread for any work that became ready meanwhile. */
static void return_threads(crun *r, int k) {
  ic_pool *pool = r->pool;
  pthread_mutex_lock(&pool->lock);
  pool->lent -= k;
  if (r->heap_n[CLASS_HOST]) pthread_cond_broadcast(&pool->cv[CLASS_HOST]);
  pthread_mutex_unlock(&pool->lock);
}

/* The threads a kernel may use when it wants `want`: fewer while other processes hold
 * cores (cpuload.c), so that its OpenMP team never waits on a descheduled member. */
static int kernel_threads(const crun *r, int want) {
  return want > 1 ? ic_cpuload_budget(r->e->load, want) : want;
}

/* OpenMP teams are per master thread, and an idle team spins for ~3 ms after its region
 * (cpuload.c): teams started from two threads of one pool would keep each other's spinning
 * members on the cores. So only the calling thread runs kernels with more than one thread;
 * a pool thread runs them single-threaded, and hands an instruction that runs alone to the
 * caller instead (leave_to_caller). */
#define CALLER_SPIN_NS 50000 /* how long the caller waits awake for a handoff */

static inline void ic_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static int team_threads(const crun *r, const worker *w, int want) {
  if (r->pool && w->id != 0) return 1;
  return kernel_threads(r, want);
}

/* A long instruction (its last run took this many CPU microseconds or more) that a pool
 * thread reaches while the calling thread is idle or nearly done is left to the caller, which
 * runs it with a team: single-threaded beside a short one, it would keep one core for its
 * whole length (the DB detector's 10 ms convolution after a 2 ms one). */
#define LONG_US 1000

/* Whether the calling thread is idle or expected to finish what it runs within a quarter of
 * cost_us (from its instruction's last time). */
static bool caller_nearly_free(const crun *r, uint32_t cost_us) {
  uint32_t ci = atomic_load_explicit(&r->caller_instr, memory_order_acquire);
  if (ci == NONE) return true;
  uint64_t elapsed_us = (ic_now_ns() - atomic_load_explicit(&r->caller_t0, memory_order_relaxed)) / 1000;
  int team = atomic_load_explicit(&r->caller_team, memory_order_relaxed);
  uint64_t expect_us = atomic_load_explicit(&r->rs->cost_us[ci], memory_order_relaxed) /
                       (uint64_t)(team > 0 ? team : 1);
  uint64_t left_us = expect_us > elapsed_us ? expect_us - elapsed_us : 0;
  return left_us * 4 <= cost_us;
}

/* Wake the calling thread if it sleeps in schedule (pool->lock held). */
static void wake_caller(ic_pool *pool) {
  if (pool->caller_waiting) pthread_cond_broadcast(&pool->cv[CLASS_HOST]);
}

/* A pool thread about to run instruction i, which runs alone and could use a team, or is
 * long while the caller is (nearly) free: leave it (and the rest of its chain) to the calling
 * thread. False if it must run here. */
static bool leave_to_caller(crun *r, const worker *w, uint32_t i) {
  if (!r->pool || w->id == 0 || w->cls != CLASS_HOST ||
      kernel_threads(r, r->e->total_threads) < 2) {
    return false;
  }
  if (!r->plan->instrs[i].alone) {
    uint32_t cost = atomic_load_explicit(&r->rs->cost_us[i], memory_order_relaxed);
    if (cost < LONG_US || !caller_nearly_free(r, cost)) return false;
  }
  ic_pool *pool = r->pool;
  pthread_mutex_lock(&pool->lock);
  bool ok = r->handoff == NONE;
  if (ok) {
    r->handoff = i;
    wake_caller(pool);
  }
  pthread_mutex_unlock(&pool->lock);
  return ok;
}

/* A host thread may start a chain (pool->lock held). */
static bool host_thread_free(const ic_pool *pool) {
  return atomic_load_explicit(&pool->busy, memory_order_relaxed) + pool->lent < pool->budget &&
         !(pool->run && atomic_load_explicit(&pool->run->want_team, memory_order_relaxed));
}

/* The caller is about to run a long instruction (not alone in the plan): it asks the pool
 * threads to start nothing new, waits briefly for those still running to finish, and takes
 * the threads that are then free as its team (w->env.intra_threads); returns how many it
 * took beyond its own. Given back by release_team. */
#define TEAM_WAIT_NS 300000

static int reserve_team(crun *r, worker *w) {
  ic_pool *pool = r->pool;
  pthread_mutex_lock(&pool->lock);
  atomic_store_explicit(&r->want_team, true, memory_order_relaxed);
  pthread_mutex_unlock(&pool->lock);
  uint64_t t0 = ic_now_ns();
  for (unsigned k = 1; atomic_load_explicit(&pool->busy, memory_order_relaxed) > 1; k++) {
    ic_cpu_relax();
    if (!(k & 63) && ic_now_ns() - t0 > TEAM_WAIT_NS) break;
  }
  return take_threads(r, w, true);
}

static void release_team(crun *r, int k) {
  ic_pool *pool = r->pool;
  pthread_mutex_lock(&pool->lock);
  pool->lent -= k;
  atomic_store_explicit(&r->want_team, false, memory_order_relaxed);
  /* Pool threads held back from starting chains meanwhile (host_thread_free). */
  if (r->heap_n[CLASS_HOST]) pthread_cond_broadcast(&pool->cv[CLASS_HOST]);
  pthread_mutex_unlock(&pool->lock);
}

/* Quick by nature, whatever its time measured (a preempted run, an instrumented build): a
 * view, or an op that reads no input's data (in->meta_only) and wrote at most QUICK_ELEMS
 * elements (shape). Under ThreadSanitizer shape measured 0.8-1.7 us of IC_QUICK_NS's 2 here, and
 * test_interp's side_ops_stay_on_the_chain failed wherever it went over. */
#define QUICK_ELEMS 64
static bool few_outputs(const ic_opdef *def, const ic_kctx *c) {
  if (def->flags & IC_OP_VIEW) return true;
  int64_t n = 0;
  for (size_t k = 0; k < def->n_outputs; k++) {
    for (size_t j = 0; j < c->out[k].n; j++) {
      const ic_tensor *t = c->out[k].t[j];
      if (t->data) n += ic_tensor_numel_(t);
      if (n > QUICK_ELEMS) return false;
    }
  }
  return true;
}

/* Run a host instruction's kernel in the calling thread. */
static ic_status exec_host(crun *r, worker *w, uint32_t i) {
  const ic_instr *in = &r->plan->instrs[i];
  ic_rstate *rs = r->rs;
  ic_kctx *c = &rs->ctx[i];
  const ic_opdef *def = in->def;
  if (in->n_waits) {
    ic_status st = ic_exec_host_waits(r, w, i);
    if (st) return st;
  }
  c->err = &w->err;
  c->env = &w->env;
  w->env.seed = rs->seed;
  /* Constants derived from parameters are recomputed only when a parameter changed. */
  if (rs->cache_srcs[i] && ic_cache_valid(rs, in, c, i)) {
    /* A check of its sources: quick (ic_fold_bn's ~50 roots in MobileNetV2 were pushed to
     * the heap, and a pool thread woken for them, every run, from their first run's time). */
    atomic_store_explicit(&rs->cost_us[i], 0, memory_order_relaxed);
    atomic_store_explicit(&rs->quick[i], true, memory_order_relaxed);
    return IC_OK;
  }
  if (def->flags & IC_OP_SUBBLOCK) {
    /* Its sub-block runs here, serially; its kernels get the thread budget as others do
     * when the instruction is alone, else the executor's per-kernel threads (no borrowing:
     * a loop would hold the borrowed threads for its whole duration). Outer variables are
     * this run's bindings (rs->varp): persistables it writes are the run's shadows,
     * committed with the others after a successful run. */
    w->env.intra_threads = team_threads(r, w, in->alone ? r->e->total_threads : r->e->env.intra_threads);
    ic_ctrl_env ce = {.alloc = r->e->alloc, .env = &w->env, .check_nan_inf = r->e->opt.check_nan_inf};
    ic_status st = ic_exec_ctrl(in, rs->varp, &ce, &w->err);
    if (st) {
      char where[160];
      ic_err_prefix(&w->err, "%s: ", ic_op_where(in->op, where, sizeof where));
      return st;
    }
    ic_drop_refs(r, in);
    return IC_OK;
  }
  if (ic_check_input_data(c, &w->err)) {
    char where[160];
    return ic_err_prefix(&w->err, "%s: ", ic_op_where(in->op, where, sizeof where));
  }
  /* Alone in the plan: no other instruction can be ready now, so take every thread. Else,
   * in a pool, borrow the threads that no ready instruction is waiting for. */
  int borrowed = 0;
  bool reserved = false;
  if (in->alone) {
    w->env.intra_threads = team_threads(r, w, r->e->total_threads);
  } else if (r->pool && w->id == 0) {
    reserved = atomic_load_explicit(&rs->cost_us[i], memory_order_relaxed) >= LONG_US &&
               kernel_threads(r, r->e->total_threads) >= 2;
    borrowed = reserved ? reserve_team(r, w) : borrow_threads(r, w);
  } else {
    w->env.intra_threads = team_threads(r, w, r->e->env.intra_threads);
  }
  const ic_kslot *shared_in = c->in;
  if (in->alias) ic_snapshot_inputs(rs, in, c, i);
  for (size_t k = 0; k < def->n_outputs; k++) {
    if (!(def->outputs[k].flags & IC_SLOT_NO_BUFFER)) continue;
    for (size_t j = 0; j < c->out[k].n; j++) ic_tensor_reset(c->out[k].t[j]);
  }
  /* Only plans with blocked-layout producers can hand a kernel a blocked tensor. */
  ic_status st = r->plan->blocked ? ic_check_layouts(c, &w->err) : IC_OK;
  if (!st) st = def->infer(c);
  if (!st) st = ic_share_lod(c, &w->err);
  for (size_t k = 0; !st && k < def->n_outputs; k++) {
    if (def->outputs[k].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_SHARE | IC_SLOT_HOLDER | IC_SLOT_DYNAMIC)) continue;
    for (size_t j = 0; !st && j < c->out[k].n; j++) {
      st = ic_tensor_alloc(c->out[k].t[j], r->e->alloc, &w->err);
    }
  }
  if (!st) {
    const uint64_t t0 = ic_now_ns();
    const bool caller = r->pool && w->id == 0;
    if (caller) {
      atomic_store_explicit(&r->caller_t0, t0, memory_order_relaxed);
      atomic_store_explicit(&r->caller_team, w->env.intra_threads, memory_order_relaxed);
      atomic_store_explicit(&r->caller_instr, i, memory_order_release);
    }
    st = r->e->fail_at == (long)i ? ic_err_set(&w->err, IC_ERR_KERNEL, "injected failure")
                                  : def->cpu(c);
    const uint64_t ns = (ic_now_ns() - t0) * (uint64_t)(w->env.intra_threads > 0 ? w->env.intra_threads : 1);
    const uint64_t us = ns / 1000;
    atomic_store_explicit(&rs->cost_us[i], us > UINT32_MAX ? UINT32_MAX : (uint32_t)us,
                          memory_order_relaxed);
    atomic_store_explicit(&rs->quick[i], ns < r->e->quick_ns || (in->meta_only && few_outputs(def, c)),
                          memory_order_relaxed);
    if (caller) atomic_store_explicit(&r->caller_instr, NONE, memory_order_release);
  }
  if (reserved) release_team(r, borrowed);
  else if (borrowed) return_threads(r, borrowed);
  if (!st && r->e->opt.check_nan_inf) st = ic_check_finite(c, &w->err);
  if (in->alias) ic_release_snapshots(rs, in, c, i, shared_in);
  if (st) {
    char where[160];
    ic_err_prefix(&w->err, "%s: ", ic_op_where(in->op, where, sizeof where));
    return st;
  }
  if (rs->cache_srcs[i]) ic_cache_remember(rs, in, c, i);
  ic_drop_refs(r, in);
  return IC_OK;
}

static ic_status exec_instr(crun *r, worker *w, uint32_t i) {
  switch (instr_class(&r->plan->instrs[i])) {
    case CLASS_DEVICE: return ic_exec_device(r, w, i);
    case CLASS_COPY: return ic_exec_d2h(r, w, i);
    default: return exec_host(r, w, i);
  }
}

/* Only the calling thread waits for the end of a run (schedule); pool threads wait for work
 * alone. */
static void finish_run(crun *r) {
  if (r->pool) {
    pthread_mutex_lock(&r->pool->lock);
    r->done = true;
    wake_caller(r->pool);
    pthread_mutex_unlock(&r->pool->lock);
  } else {
    r->done = true;
  }
}

static void push_ready(crun *r, uint32_t x) {
  int k = instr_class(&r->plan->instrs[x]);
  /* Counted before it is pushed, so nobody can finish it first and see zero. */
  atomic_fetch_add_explicit(&r->pending, 1, memory_order_relaxed);
  if (r->pool) {
    pthread_mutex_lock(&r->pool->lock);
    heap_push(r, k, x);
    pthread_cond_signal(&r->pool->cv[k]);
    pthread_mutex_unlock(&r->pool->lock);
  } else {
    heap_push(r, k, x);
  }
}

/* Run i, then keep going with the best newly ready successor this thread may run (the
 * tallest, go_on_with), after any quick ones: those this thread runs itself too, first (a
 * shape or a view op beside the main line; handing one to a sleeping pool thread costs
 * this thread a futex wake-up, 6-30 us on the 2-core VM, for well under one of work). The
 * others go to their class's heap.
 *
 * Counting: the running instruction holds one count of r->pending, passed on to the
 * instruction that follows it in the chain; each other instruction kept on the chain's
 * stack holds one of its own, taken when it is stacked. */
#define CHAIN_STACK 16

/* A chain that stops early puts what its stack held on the heaps (pool runs; each already
 * holds its count). */
static void spill(crun *r, const uint32_t *stack, int depth) {
  if (!depth) return;
  pthread_mutex_lock(&r->pool->lock);
  for (int k = 0; k < depth; k++) {
    int c = instr_class(&r->plan->instrs[stack[k]]);
    heap_push(r, c, stack[k]);
    pthread_cond_signal(&r->pool->cv[c]);
  }
  wake_caller(r->pool);
  pthread_mutex_unlock(&r->pool->lock);
}

static void run_chain(crun *r, worker *w, uint32_t i) {
  const ic_plan *p = r->plan;
  ic_span *spans = r->profile ? r->spans : NULL;
  uint32_t stack[CHAIN_STACK];
  int depth = 0;
  while (i != NONE) {
    const ic_instr *in = &p->instrs[i];
    uint32_t next = NONE;
    uint32_t quick[CHAIN_STACK];
    int n_quick = 0;
    if (!atomic_load_explicit(&r->abort, memory_order_relaxed)) {
      /* The chain goes on in the caller, which finishes it: pending stays as it is. */
      if (leave_to_caller(r, w, i)) {
        spill(r, stack, depth);
        return;
      }
      /* The caller is gathering a team: this chain goes back to the heap, counted again
       * before this one's count is dropped (so pending cannot reach zero). */
      if (r->pool && w->id != 0 && w->cls == CLASS_HOST &&
          atomic_load_explicit(&r->want_team, memory_order_relaxed)) {
        spill(r, stack, depth);
        push_ready(r, i);
        atomic_fetch_sub(&r->pending, 1);
        return;
      }
      if (spans) spans[i].start_ns = ic_now_ns();
      ic_status st = exec_instr(r, w, i);
      if (spans) {
        spans[i].end_ns = ic_now_ns();
        spans[i].thread = w->id;
        spans[i].threads = (uint32_t)w->env.intra_threads;
      }
      if (st) {
        fail(r, &w->err);
      } else {
        for (uint32_t k = 0; k < in->n_succ; k++) {
          uint32_t s = in->succ[k];
          if (atomic_fetch_sub_explicit(&r->rs->deps[s], 1, memory_order_acq_rel) != 1) continue;
          if (!(w->classes & (1u << instr_class(&p->instrs[s])))) {
            push_ready(r, s);
          } else if (r->pool && depth + n_quick + 1 < CHAIN_STACK &&
                     atomic_load_explicit(&r->rs->quick[s], memory_order_relaxed)) {
            quick[n_quick++] = s;
          } else if (next == NONE) {
            next = s;
          } else if (go_on_with(p, s, next)) {
            push_ready(r, next);
            next = s;
          } else {
            push_ready(r, s);
          }
        }
      }
    }
    /* The quick ones (counted first) run next, then `next` (with this count), then what
     * the stack held before. */
    if (n_quick) atomic_fetch_add_explicit(&r->pending, n_quick, memory_order_relaxed);
    if (next != NONE) stack[depth++] = next;
    else if (n_quick || depth) atomic_fetch_sub(&r->pending, 1); /* cannot reach 0 here */
    else if (atomic_fetch_sub(&r->pending, 1) == 1) finish_run(r);
    while (n_quick) stack[depth++] = quick[--n_quick];
    i = depth ? stack[--depth] : NONE;
  }
}

static void *worker_main(void *arg) {
  worker *w = arg;
  ic_pool *pool = w->pool;
  int k = w->cls;
  pthread_mutex_lock(&pool->lock);
  for (;;) {
    while (!pool->shutdown && !(pool->run && pool->run->heap_n[k] > 0 &&
                                (k != CLASS_HOST || host_thread_free(pool)))) {
      pthread_cond_wait(&pool->cv[k], &pool->lock);
    }
    if (pool->shutdown) break;
    crun *r = pool->run;
    uint32_t i = heap_pop(r, k);
    pool->active++;
    if (k == CLASS_HOST) atomic_fetch_add_explicit(&pool->busy, 1, memory_order_relaxed);
    pthread_mutex_unlock(&pool->lock);
    run_chain(r, w, i);
    pthread_mutex_lock(&pool->lock);
    if (k == CLASS_HOST) atomic_fetch_sub_explicit(&pool->busy, 1, memory_order_relaxed);
    if (--pool->active == 0 && r->done) wake_caller(pool);
  }
  pthread_mutex_unlock(&pool->lock);
  return NULL;
}

ic_status ic_pool_create(int n_workers, bool device, const ic_kenv *env, ic_pool **out) {
  *out = NULL;
  int total = n_workers + (device ? 2 : 0);
  ic_pool *pool = calloc(1, sizeof *pool);
  if (!pool) return IC_ERR_OUT_OF_MEMORY;
  pool->workers = calloc((size_t)(total ? total : 1), sizeof *pool->workers);
  if (!pool->workers) {
    free(pool);
    return IC_ERR_OUT_OF_MEMORY;
  }
  pthread_mutex_init(&pool->lock, NULL);
  for (int k = 0; k < N_CLASSES; k++) pthread_cond_init(&pool->cv[k], NULL);
  /* The host workers and the calling thread: the executor's whole CPU budget. */
  pool->budget = n_workers + 1;
  atomic_init(&pool->busy, 0);
  for (int i = 0; i < total; i++) {
    worker *w = &pool->workers[i];
    w->pool = pool;
    w->id = (uint32_t)i + 1;
    w->cls = i < n_workers ? CLASS_HOST : i == n_workers ? CLASS_DEVICE : CLASS_COPY;
    w->classes = 1u << w->cls;
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
  for (int k = 0; k < N_CLASSES; k++) pthread_cond_broadcast(&pool->cv[k]);
  pthread_mutex_unlock(&pool->lock);
  for (int i = 0; i < pool->n_workers; i++) pthread_join(pool->workers[i].thread, NULL);
  for (int k = 0; k < N_CLASSES; k++) pthread_cond_destroy(&pool->cv[k]);
  pthread_mutex_destroy(&pool->lock);
  free(pool->workers);
  free(pool);
}

/* The calling thread works too (host work; every kind when serial), until the run is done
 * and no worker is inside it. */
static void schedule(crun *r, worker *self) {
  const ic_plan *p = r->plan;
  atomic_store(&r->pending, (long)p->n_roots);
  if (p->n_roots == 0) {
    r->done = true;
    return;
  }
  if (!r->pool) {
    for (size_t k = 0; k < p->n_roots; k++) {
      heap_push(r, instr_class(&p->instrs[p->roots[k]]), p->roots[k]);
    }
    /* Device launches first (they return at once and keep the device busy), then copies. */
    for (;;) {
      int k = r->heap_n[CLASS_DEVICE] ? CLASS_DEVICE
              : r->heap_n[CLASS_COPY] ? CLASS_COPY
                                      : CLASS_HOST;
      if (!r->heap_n[k]) break;
      run_chain(r, self, heap_pop(r, k));
    }
    return;
  }
  ic_pool *pool = r->pool;
  /* The caller goes on with the tallest host root (go_on_with), after the quick ones
   * (ic_fold_bn's check of its weights' versions, shapes of parameters: under IC_QUICK_NS in
   * their last run), which it runs itself first: waking a pool thread costs more than they
   * do (a futex wake-up, 6-30 us on the 2-core VM, and as much again when it then contends
   * for the lock). The rest go to the heaps. root_order holds the quick host roots from the
   * front, the others from the back. */
  uint32_t *mine = r->rs->root_order, *rest = r->rs->root_order + p->n_roots;
  size_t n_mine = 0, n_rest = 0;
  uint32_t first = NONE;
  for (size_t k = 0; k < p->n_roots; k++) {
    uint32_t x = p->roots[k];
    bool host = instr_class(&p->instrs[x]) == CLASS_HOST;
    if (host && atomic_load_explicit(&r->rs->quick[x], memory_order_relaxed)) {
      mine[n_mine++] = x;
      continue;
    }
    *--rest = x;
    n_rest++;
    if (host && (first == NONE || go_on_with(p, x, first))) first = x;
  }
  if (first == NONE && n_mine) first = mine[--n_mine];
  pthread_mutex_lock(&pool->lock);
  for (size_t k = 0; k < n_rest; k++) {
    if (rest[k] != first) heap_push(r, instr_class(&p->instrs[rest[k]]), rest[k]);
  }
  pool->run = r;
  if (first != NONE) atomic_fetch_add_explicit(&pool->busy, 1, memory_order_relaxed);
  for (int k = 0; k < N_CLASSES; k++) {
    if (r->heap_n[k]) pthread_cond_broadcast(&pool->cv[k]);
  }
  pthread_mutex_unlock(&pool->lock);
  if (first != NONE) {
    for (size_t k = 0; k < n_mine; k++) run_chain(r, self, mine[k]);
    run_chain(r, self, first);
    atomic_fetch_sub_explicit(&pool->busy, 1, memory_order_relaxed);
  }
  pthread_mutex_lock(&pool->lock);
  for (;;) {
    if (r->handoff != NONE) {
      uint32_t i = r->handoff;
      r->handoff = NONE;
      atomic_fetch_add_explicit(&pool->busy, 1, memory_order_relaxed);
      pthread_mutex_unlock(&pool->lock);
      run_chain(r, self, i);
      pthread_mutex_lock(&pool->lock);
      atomic_fetch_sub_explicit(&pool->busy, 1, memory_order_relaxed);
      continue;
    }
    if (r->heap_n[CLASS_HOST] && host_thread_free(pool)) {
      uint32_t i = heap_pop(r, CLASS_HOST);
      atomic_fetch_add_explicit(&pool->busy, 1, memory_order_relaxed);
      pthread_mutex_unlock(&pool->lock);
      run_chain(r, self, i);
      pthread_mutex_lock(&pool->lock);
      atomic_fetch_sub_explicit(&pool->busy, 1, memory_order_relaxed);
      continue;
    }
    if (r->done && pool->active == 0) break;
    /* A pool thread that reaches an instruction running alone hands it here: wait for that
     * briefly awake (a wake-up from the condition variable costs tens of microseconds),
     * unless other processes hold cores, then sleep. */
    if (!r->done && kernel_threads(r, r->e->total_threads) > 1) {
      pthread_mutex_unlock(&pool->lock);
      uint64_t t0 = ic_now_ns();
      for (unsigned k = 1; atomic_load_explicit(&r->handoff, memory_order_relaxed) == NONE; k++) {
        ic_cpu_relax();
        if (!(k & 63) && ic_now_ns() - t0 > CALLER_SPIN_NS) break;
      }
      pthread_mutex_lock(&pool->lock);
      if (r->handoff != NONE || (r->heap_n[CLASS_HOST] && host_thread_free(pool)) || r->done) {
        continue;
      }
    }
    pool->caller_waiting = true;
    pthread_cond_wait(&pool->cv[CLASS_HOST], &pool->lock);
    pool->caller_waiting = false;
  }
  pool->run = NULL;
  pthread_mutex_unlock(&pool->lock);
}

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
  worker self = {.id = 0, .env = e->env, .cls = CLASS_HOST,
                 .classes = r.pool ? 1u << CLASS_HOST : (1u << N_CLASSES) - 1};
  if (capture && (st = e->dev->v->capture_begin(e->dstreams[0], err))) goto done;
  schedule(&r, &self);
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
