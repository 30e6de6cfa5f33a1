/* How the compiled executor's instructions run on threads: the ready heaps, the thread pool
 * and its workers, the chains a thread follows from one instruction to its successors, the
 * thread budget of each kernel (teams), and one run's schedule (ic_sched_run). compiled.c
 * binds the variables and stages the feeds around it.
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
  /* A joined concat whose inputs are in place adopts their buffer and runs no kernel. */
  bool adopted = false;
  if (!st && in->join) ic_join_concat(r, i, &adopted);
  for (size_t k = 0; !st && !adopted && k < def->n_outputs; k++) {
    if (def->outputs[k].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_SHARE | IC_SLOT_HOLDER | IC_SLOT_DYNAMIC)) continue;
    for (size_t j = 0; !st && j < c->out[k].n; j++) {
      if (in->part_join && k == in->part_slot && j == in->part_pos &&
          ic_join_place(r, in, c->out[k].t[j])) {
        continue;
      }
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
         : adopted                ? IC_OK
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
void ic_sched_run(crun *r, worker *self) {
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
