/* Private interfaces of the executors. */
#ifndef IC_INTERP_INTERP_H
#define IC_INTERP_INTERP_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/opseq.h"
#include "analysis/plan.h"
#include "gc/alloc.h"
#include <pthread.h>
#include <stdatomic.h>
#include "common/err.h"
#include "icore/icore.h"
#include "kernels/kernel.h"
#include "program/program.h"
#include "scope/scope.h"

/* Whether output slot k of op (definition def) updates the variables it names: false for
 * feed ops (a fed persistable shadows the parameter for that run only) and for outputs that
 * Paddle leaves equal to an input (batch_norm's MeanOut/VarianceOut with global
 * statistics), and for control-flow ops (IC_OP_SUBBLOCK), whose sub-block's ops decide
 * for themselves. A run commits the persistables such outputs write to the caller's scope. */
bool ic_output_updates(const ic_op *op, const ic_opdef *def, size_t k);

/* Put vals[k] (tensors the run copied into system storage; empty ones are skipped) into
 * the variable names[k] of scope (found in it or its ancestors, else created in it), all
 * at once under the root's exclusive lock. Moved tensors are left empty; on failure nothing
 * is replaced. */
ic_status ic_commit_persistables(ic_scope *scope, size_t n, const char *const *names,
                                 ic_tensor *vals, ic_err *err);

/* Check each feed tensor against its VarDesc (dtype, rank, dims where not -1). */
ic_status ic_check_feeds(const ic_program *p, size_t n_feeds, const char *const *feed_names,
                         const ic_tensor *const *feeds, ic_err *err);

/* Make the holders lists of the right sizes, empty, and put each feed in its column. */
ic_status ic_fill_holders(const ic_opseq *seq, ic_variable *feed_h, ic_variable *fetch_h,
                          size_t n_feeds, const ic_tensor *const *feeds, ic_err *err);
/* Move (when the run is their only owner and `own` made them) or copy the fetched tensors
 * out of the fetch holder into new caller-owned tensors. Call after the run's other
 * variables are released, so that fetched temporaries move instead of being copied. */
ic_status ic_collect_fetches(const ic_opseq *seq, ic_variable *fetch_h, ic_allocator *own,
                             size_t n_fetches, const char *const *fetch_names,
                             ic_tensor **fetches, ic_err *err);

/* Check that no input of an op holds a blocked layout (tensor.h ic_layout) in a slot that is
 * not IC_SLOT_BLOCKED: kernels that do not know blocked layouts must never see one. Only a
 * program whose own ops carry the internal ic_blocked_out attribute can fail this; the
 * layout pass marks an op only when every reader accepts it. */
ic_status ic_check_layouts(const ic_kctx *c, ic_err *err);

/* Check that every input an op reads for data (not IC_SLOT_NO_BUFFER, _IGNORED or _HOLDER)
 * has storage. A variable can lack it when it was never written, or when its writer left it
 * meta-only (an IC_SLOT_NO_BUFFER output such as XShape, or an inference batch_norm's
 * SavedMean, which the kernel leaves without storage). Both executors call it before the op
 * runs, so both report the same error. */
ic_status ic_check_input_data(const ic_kctx *c, ic_err *err);

/* Check every float output of an op for NaN and Inf. */
ic_status ic_check_finite(const ic_kctx *c, ic_err *err);
/* After infer: Paddle's ShareLoD for ops without IC_OP_LOD. Output 0 gets input 0's LoD when
 * it keeps input 0's rows (same dims[0]), and none otherwise. Allocates only when input 0
 * has LoD. An input 0 read for its dims only (NO_BUFFER: shape, fill_constant_batch_size_like)
 * gives none: the GC may release it (LoD included) while the op runs. */
ic_status ic_share_lod_slow(const ic_kctx *c, ic_err *err);
static inline ic_status ic_share_lod(const ic_kctx *c, ic_err *err) {
  const ic_opdef *d = c->def;
  if ((d->flags & IC_OP_LOD) || !d->n_outputs ||
      (d->outputs[0].flags & (IC_SLOT_HOLDER | IC_SLOT_NO_BUFFER))) {
    return IC_OK;
  }
  const ic_tensor *x = d->n_inputs && c->in[0].n &&
                               !(d->inputs[0].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_HOLDER))
                           ? c->in[0].t[0]
                           : NULL;
  if (x && x->lod) return ic_share_lod_slow(c, err);
  for (size_t j = 0; j < c->out[0].n; j++) {
    ic_tensor *t = c->out[0].t[j];
    if (t && t->lod && t != x) ic_tensor_take_lod(t, NULL);
  }
  return IC_OK;
}

/* One run of the uncompiled (op-by-op, reference) executor. */
typedef struct ic_uncompiled_args {
  const ic_program *prog;
  ic_scope *scope;          /* the caller's (parameters); may be NULL */
  size_t n_feeds;
  const char *const *feed_names;
  const ic_tensor *const *feeds;
  size_t n_fetches;
  const char *const *fetch_names;
  ic_tensor **fetches;
  const ic_options *opt;
  ic_kenv *env;
  long fail_at;             /* testing: op index whose kernel fails, -1 for none */
} ic_uncompiled_args;

ic_status ic_run_uncompiled(const ic_uncompiled_args *a, ic_err *err);


/* ---- the compiled executor (compiled.c, sched.c, cache.c) ---- */

typedef struct ic_rstate ic_rstate;
typedef struct ic_pool ic_pool;

/* One cached plan with its idle run states. Reference-counted under the executor's lock:
 * the cache holds one reference while the entry is listed, every run using it one more, so
 * evicting an entry that runs elsewhere frees it when the last of those runs ends. */
typedef struct ic_cache_entry {
  uint64_t key;          /* XXH64 of program hash, feed and fetch names, place */
  char *names;           /* the names as hashed, to rule out collisions */
  size_t names_len;
  uint64_t prog_hash;
  size_t prog_size;
  ic_plan *plan;         /* immutable, shared by every run */
  ic_rstate *idle;       /* run states not in use, linked by ->next */
  size_t refs;
  uint64_t last_used;    /* LRU clock */
} ic_cache_entry;

/* Under this much CPU time in its last run, a newly ready instruction is run by the thread
 * that made it ready (sched.c's run_chain). */
#define IC_QUICK_NS 2000

/* A profile span: one instruction on one thread. */
typedef struct ic_span {
  uint64_t start_ns, end_ns;
  uint32_t thread;       /* 0 = the calling thread, 1.. = pool workers */
  uint32_t threads;      /* the threads its kernel was given (intra-op) */
} ic_span;

struct ic_executor {
  ic_options opt;
  ic_allocator *alloc;     /* caching allocator for every run's buffers */
  ic_kenv env;             /* kernel environment of the calling thread (read-only) */
  pthread_mutex_t lock;    /* guards the cache, its counters, last_* and the profile */
  pthread_mutex_t dev_lock; /* device executors: held through each run (one at a time) */
  atomic_bool pool_busy;   /* a run owns the pool; concurrent runs go serial in their thread */
  atomic_uint_fast64_t n_runs; /* runs started: the k of ic_executor_run_seed */
  int n_threads;           /* executing threads: the caller plus n_threads - 1 workers */
  int total_threads;       /* the CPU budget: what an instruction that runs alone may use */
  ic_pool *pool;           /* NULL when serial or single-threaded */
  struct ic_cpuload *load;            /* threads other processes leave us (cpuload.c), or NULL */
  struct ic_omp_ballast *omp_ballast; /* keeps OpenMP's waits short where load is NULL, or NULL */
  size_t n_entries;        /* plan cache, at most opt.cache_capacity */
  ic_cache_entry **entries;
  uint64_t clock;          /* LRU clock */
  uint64_t hits, misses;
  double last_analysis_ms; /* analysis time of the last miss */
  ic_plan *last_plan;      /* plan of the last compiled run (borrowed from the cache) */
  ic_rstate *last_rs;      /* and its run state */
  ic_span *spans;          /* profile of the last compiled run, one per instruction */
  size_t n_spans;
  uint64_t profile_t0;     /* run start, for the profile */
  uint64_t analysis_t0;    /* analysis span of the last run that built a plan (0 if none) */
  uint64_t analysis_t1;
  long fail_at;            /* testing: instruction/op index whose kernel fails (-1: none) */
  uint32_t quick_ns;       /* under this much CPU time in its last run an instruction is quick
                            * (IC_QUICK_NS; a test sets 0 to stand for a slow machine) */
  struct ic_device *dev;   /* the device of options.device, or NULL */
  uint32_t n_dstreams;     /* device streams made so far (plans ask for as many as they use) */
  struct ic_dstream **dstreams;
  ic_allocator **dallocs;  /* per stream: device memory in that stream's order */
  ic_allocator *pinned;    /* page-locked host memory (graph mode's copies), or NULL */
  bool no_events;          /* testing: skip cross-stream event waits */
  bool no_gc_events;       /* testing: free device variables without waiting for other streams */
  bool plain_layout;       /* testing: plans keep every tensor plain (no layout pass) */
  bool no_joins;           /* testing: plans join no concat in place (analysis/join.c) */
  bool has_emu_options;    /* testing: options for the emulated device (delays, poison) */
  struct ic_emu_options_priv {
    int max_delay_us;
    bool poison;
    uint64_t seed;
  } emu;
};

/* Find or build the plan for these names and take a run state for it: *entry holds a
 * reference and *rs is this run's own until ic_cache_release. *built says whether this call
 * analyzed the program (a miss). Thread-safe. */
ic_status ic_cache_acquire(ic_executor *e, const ic_program *p, size_t n_feeds,
                           const char *const *feed_names, size_t n_fetches,
                           const char *const *fetch_names, ic_cache_entry **entry,
                           ic_rstate **rs, bool *built, ic_err *err);
/* Give the run state back (NULL: none was made; else the entry's plan and rs become the
 * executor's last_plan/last_rs) and drop the run's reference. */
void ic_cache_release(ic_executor *e, ic_cache_entry *entry, ic_rstate *rs);
void ic_cache_clear(ic_executor *e);
void ic_rstate_destroy(ic_rstate *rs, const ic_plan *plan);

/* One compiled run. */
/* The seed of random ops (those whose `seed` attribute is 0) for the executor's next run:
 * options.seed for run 0, then options.seed mixed with the run number (see icore.h). */
uint64_t ic_executor_run_seed(ic_executor *e);

ic_status ic_run_compiled(ic_executor *e, const ic_program *p, ic_scope *scope, size_t n_feeds,
                          const char *const *feed_names, const ic_tensor *const *feeds,
                          size_t n_fetches, const char *const *fetch_names,
                          ic_tensor **fetches, uint64_t seed, ic_err *err);

/* The pool: n background workers that help the calling thread run a plan. */
ic_status ic_pool_create(int n_workers, bool device, const ic_kenv *env, ic_pool **out);
void ic_pool_destroy(ic_pool *pool);

uint64_t ic_now_ns(void);

/* ---- testing hooks (not public API) ---- */
/* Make the kernel of instruction/op `index` (program order, feed ops included) fail with
 * IC_ERR_KERNEL on every run; -1 turns it off. */
void ic_executor_inject_failure(ic_executor *e, long index);
/* Make the executor's load monitor (cpuload.c) decide as if other processes held
 * `others_milli` thousandths of a core; -1 goes back to measuring. False where the executor
 * has no monitor (one thread, one CPU, no /proc/stat). */
bool ic_executor_inject_load(ic_executor *e, int others_milli);
/* Poison buffers released to the executor's allocator (see ic_allocator_set_poison). */
void ic_executor_poison_freed(ic_executor *e, bool on);
/* Switch off the synchronisation a device plan relies on (testing that the tests notice):
 * cross-stream event waits, and the stream-aware GC rule. */
void ic_executor_break_sync(ic_executor *e, bool no_events, bool no_gc_events);
/* Emulated device knobs, before the first run: a random delay before every stream task (up
 * to max_delay_us) and poisoning of freed device memory. */
void ic_executor_emu_testing(ic_executor *e, int max_delay_us, bool poison, uint64_t seed);
/* Plans built from now on keep every activation plain even with fuse on (no layout pass):
 * comparing with it isolates what blocked activations change. Set before the first run (the
 * plan cache does not key on it). */
void ic_executor_plain_layout(ic_executor *e, bool on);
/* Plans built from now on join no concat in place (analysis/join.c): the reference the
 * joined runs are compared with. Set before the first run (the plan cache does not key on it). */
void ic_executor_no_joins(ic_executor *e, bool on);
/* Concats of the last compiled run that adopted their parts' buffer instead of copying. */
size_t ic_executor_last_joined(const ic_executor *e);
/* The plan of the last compiled run, or NULL (meaningful while no other run is going). */
const ic_plan *ic_executor_last_plan(const ic_executor *e);
/* Variable v of the last compiled run's plan as that run left it: buffers are released after
 * a run, but dtype and dims stay (for `icore inspect`). NULL if there is none. */
const ic_tensor *ic_executor_last_var(const ic_executor *e, size_t v);

#endif
