/* Private to the compiled executor (compiled.c, sched.c, rstate.c, devexec.c): the run state of a
 * plan, one run, its threads. */
#ifndef IC_INTERP_RUN_H
#define IC_INTERP_RUN_H

#include <pthread.h>
#include <stdatomic.h>

#include "device/device.h"
#include "interp/interp.h"

#define NONE UINT32_MAX

/* Thread classes: who may run an instruction. */
#define CLASS_HOST 0   /* CPU kernels: the calling thread and the host workers */
#define CLASS_DEVICE 1 /* device launches and host-to-device copies: the launch thread */
#define CLASS_COPY 2   /* device-to-host copies, which block until done: the copy thread */
#define N_CLASSES 3

static inline int instr_class(const ic_instr *in) {
  return in->where == IC_WHERE_HOST ? CLASS_HOST
         : in->where == IC_WHERE_D2H ? CLASS_COPY
                                     : CLASS_DEVICE;
}

/* A join's state in one run state (interp/join.c). off[k] is the byte offset of concat input k
 * in the output as the last run's concat found it (off[n_parts]: the whole output); valid
 * when that concat was a chunk copy with every offset a multiple of 64, so that the next run
 * may place its parts there; buf is this run's output buffer, made by the first part placed,
 * one reference held until the concat runs. */
typedef struct ic_joinrt {
  _Atomic(ic_buffer *) buf;
  bool valid;
  size_t *off;
} ic_joinrt;

/* Everything a run mutates. A cache entry keeps a pool of them: a run takes one (or makes
 * one) and gives it back, so concurrent runs of one plan never share one. */
struct ic_rstate {
  struct ic_rstate *next;   /* the entry's pool of idle run states */
  uint64_t seed;            /* this run's seed for random ops (ic_executor_run_seed) */
  size_t n_commit;          /* persistables the plan updates (ic_output_updates): committed */
  uint32_t *commit;         /* to the caller's scope after a successful run */
  ic_tensor *commit_out;    /* n_commit: what a run hands ic_commit_persistables, reset after */
  const char **commit_names; /* n_commit: the plan's names of commit[] */
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
  atomic_uint *cost_us;     /* per instruction: its kernel's last time in microseconds times
                             * the threads it had (CPU time, about), 0 before its first run */
  atomic_bool *quick;       /* per instruction: its last run took under quick_ns of CPU time,
                             * or it reads no data and wrote next to none (false before its
                             * first run) */
  uint32_t *root_order;     /* scratch, n_instrs: a run's roots, the quick host ones the
                             * caller runs itself first (schedule) */
  atomic_uint *refs;        /* remaining users before a variable is released */
  uint32_t *heaps[N_CLASSES]; /* ready instructions per thread class */
  uint32_t *first_reader;   /* per variable: first instruction reading it, for messages */
  ic_joinrt *joins;         /* per plan join (join.c) */
  atomic_uint n_joined;     /* concats of the current or last run that adopted their parts */
  /* Per persistable or external variable: what the scope lookup found (NULL: nothing), kept
   * while the scope is the one with id bound_scope and holds bound_size variables along
   * its chain (ic_scope_chain_size; variables are never removed). Looking up ~260 names in
   * a scope whose strings the kernels have evicted from the caches took 45-130 us per
   * MobileNetV2 run. bound_scope 0: nothing kept. */
  ic_variable **found;
  uint64_t bound_scope;
  size_t bound_size;
  /* Per instruction whose outputs are all kept across runs (parameter copies to the device,
   * constants derived from parameters): the input buffers it last ran on, each with a
   * reference held, so that a replaced parameter cannot reappear at the same address. NULL
   * for other instructions. */
  ic_buffer ***cache_srcs;
  /* Device plans: */
  ic_device *dev;           /* the executor's device (borrowed) */
  ic_devent **events;       /* per instruction: its event (recorders and D2H copies) */
  ic_devent ***gc_events;   /* per device variable used on several streams: one per stream */
  /* Per host-to-device copy: the host buffer its copy in flight reads, one reference held
   * from the enqueue until the run has synchronized its streams (the variable may die at
   * the copy's launch, and its memory must not be reused before the copy has read it). */
  ic_buffer **h2d_srcs;
  /* CUDA graph mode (options.cuda_graph): */
  void *graph;              /* the recorded run, or NULL */
  bool warm;                /* an eager run with the feed shapes in sig has happened */
  size_t n_sig;             /* dtype, rank and dims of each feed, as last seen */
  int64_t *sig;
  size_t n_staging;         /* per feed column: page-locked host tensors the graph copies from */
  ic_tensor *staging;
  size_t n_kept;            /* per fetch column: the host tensors the graph copies into */
  ic_tensor *kept;
};

ic_status ic_rstate_create(const ic_plan *plan, ic_device *dev, ic_rstate **out, ic_err *err);

/* One run. */
typedef struct crun {
  const ic_plan *plan;
  ic_rstate *rs;
  ic_executor *e;
  struct ic_pool *pool;     /* NULL: serial in the calling thread */
  size_t heap_n[N_CLASSES]; /* ready instructions per class (guarded by pool->lock) */
  atomic_long pending;      /* ready or running instructions */
  atomic_bool abort;        /* a failure happened: start nothing new */
  atomic_int failed;        /* 0 until the first failure's compare-and-swap */
  bool done;                /* pending reached 0 (guarded by pool->lock) */
  _Atomic uint32_t handoff; /* a chain a pool thread left for the caller, or NONE (set and
                             * taken under pool->lock; read without it while spinning) */
  /* What the calling thread runs now (pool runs): the instruction or NONE, when it started,
   * its team. Read by pool threads deciding whether to leave it a long instruction. */
  _Atomic uint32_t caller_instr;
  _Atomic uint64_t caller_t0;
  atomic_int caller_team;
  atomic_bool want_team;    /* the caller is starting a long instruction: pool threads start
                             * nothing new until it has its team (set and cleared under
                             * pool->lock) */
  ic_err err;               /* the first failure */
  bool profile;
  ic_span *spans;           /* this run's profile, one per instruction (profile only) */
  bool capturing;           /* device work is being recorded into a graph: no host waits */
} crun;

typedef struct worker {
  struct ic_pool *pool;
  uint32_t id;              /* 1.. for pool threads, 0 for the calling thread */
  int cls;                  /* the class of work it takes */
  unsigned classes;         /* bit mask of classes it may run (all, when serial) */
  pthread_t thread;
  ic_err err;
  ic_kenv env;
} worker;

struct ic_pool {
  pthread_mutex_t lock;     /* guards run, run->heap_n, run->done, active, shutdown */
  pthread_cond_t cv[N_CLASSES]; /* work of that class pushed, a run finished, or shutdown */
  int n_workers;
  worker *workers;
  crun *run;                /* the run in progress, NULL between runs */
  int active;               /* workers executing instructions of the current run */
  /* The calling thread sleeps on cv[CLASS_HOST] (schedule). Only then does an end of run, a
   * handoff or the last worker leaving a finished run broadcast to it: a wake-up costs the
   * waker a futex call (6-10 us on average on the 2-core VM, up to 89), and a broadcast
   * would also wake the idle pool threads waiting on the same variable. */
  bool caller_waiting;
  bool shutdown;
  /* The CPU budget (ic_executor.total_threads): host threads inside a chain (`busy`, the
   * caller included) plus threads lent to kernels (`lent`) never exceed it. A host thread
   * starts a chain only while busy + lent < budget; an instruction that finds no ready
   * work waiting borrows the rest for its kernel and returns them when it ends. */
  int budget;
  atomic_int busy;
  int lent;                 /* guarded by lock */
};

/* join.c: concats joined in place (analysis/join.c). Per-join state of a run state; its
 * buffers are released by ic_join_reset. */
ic_status ic_join_create(ic_rstate *rs, const ic_plan *plan);
void ic_join_destroy(ic_rstate *rs, const ic_plan *plan);
/* Drop the buffers a run still holds (a failed run may end between a part and its concat). */
void ic_join_reset(ic_rstate *rs, const ic_plan *plan);
/* Instruction in writes a part: place its output t (meta set by infer) in the join's buffer
 * when the last run's concat says it fits. False: allocate t as usual. */
bool ic_join_place(crun *r, const ic_instr *in, ic_tensor *t);
/* Instruction i is a join's concat, its output's meta set by infer: adopt the parts' buffer
 * (copying in the inputs not in place) when every input is where it belongs, setting
 * *adopted, and remember this run's offsets for the next one. */
void ic_join_concat(crun *r, uint32_t i, bool *adopted);

/* devexec.c: device and copy instructions, and freeing device variables. */
ic_status ic_exec_device(crun *r, worker *w, uint32_t i);
ic_status ic_exec_d2h(crun *r, worker *w, uint32_t i);
/* Host instructions of a device plan wait for the device work they consume. */
ic_status ic_exec_host_waits(crun *r, worker *w, uint32_t i);
/* Drop variable v's buffer; a device variable used on several streams is freed only after
 * its allocation stream has waited for every stream that used it. */
void ic_release_var(crun *r, uint32_t v);
/* The device streams and allocators a plan needs, made on first use. */
ic_status ic_executor_streams(ic_executor *e, uint32_t n, ic_err *err);
/* Wait for every stream; the first kernel failure on any of them, if any. */
ic_status ic_sync_streams(ic_executor *e, uint32_t n, ic_err *err);
/* After ic_sync_streams: drop the host buffers held for this run's host-to-device copies. */
void ic_release_h2d_srcs(ic_rstate *rs, const ic_plan *plan);

/* Whether a cached instruction's outputs are still valid for its current inputs; if not,
 * remember the inputs (after it runs, they are valid). */
bool ic_cache_valid(ic_rstate *rs, const ic_instr *in, const ic_kctx *c, uint32_t i);
void ic_cache_remember(ic_rstate *rs, const ic_instr *in, const ic_kctx *c, uint32_t i);

/* Shared by host and device execution (sched.c). */
void ic_snapshot_inputs(ic_rstate *rs, const ic_instr *in, ic_kctx *c, uint32_t i);
void ic_release_snapshots(ic_rstate *rs, const ic_instr *in, ic_kctx *c, uint32_t i,
                          const ic_kslot *shared_in);
void ic_drop_refs(crun *r, const ic_instr *in);

/* Run r's plan to the end on the calling thread (self) and, when r->pool is set, the pool's
 * workers (sched.c). */
void ic_sched_run(crun *r, worker *self);

#endif
