/* The plan: a program analyzed once for one set of feeds and fetches. Immutable after
 * ic_plan_build() and shared by every run of it; it knows nothing of threads. */
#ifndef IC_ANALYSIS_PLAN_H
#define IC_ANALYSIS_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/err.h"
#include "analysis/opseq.h"
#include "kernels/kernel.h"
#include "program/program.h"

/* How a run binds a variable. */
typedef enum ic_pvar_kind {
  IC_PV_TEMP = 0,     /* a temporary: local to the run, written before it is read */
  IC_PV_PERSIST = 1,  /* a persistable: the caller's scope variable itself */
  IC_PV_EXTERNAL = 2, /* read before any op writes it: a local copy sharing the scope's tensor */
  IC_PV_HOLDER = 3,   /* the feed or fetch list */
  IC_PV_CACHED = 4    /* a parameter's device copy, or a constant derived from parameters:
                         kept across runs, recomputed only when its sources change */
} ic_pvar_kind;

typedef struct ic_pvar {
  const char *name;          /* borrowed from the program or the plan */
  const ic_vardesc *desc;    /* its declaration, or NULL */
  ic_pvar_kind kind;
  bool keep;                 /* never freed: persistables, holders, feed and fetch targets */
  uint32_t n_uses;           /* instructions that release it (its refcount at run start) */
  int32_t first_write;       /* first instruction writing it, -1 if none */
  int32_t last_use;          /* last instruction (program order) using its buffer, -1 if none */
  bool on_device;            /* lives in device memory */
  uint32_t n_user_streams;   /* device variables: the streams of the instructions using it, */
  const int32_t *user_streams; /* so that freeing it waits for each (stream-aware GC) */
} ic_pvar;

/* Variables of one slot, as indexes into the plan's variable table. */
typedef struct ic_islot {
  uint32_t n;
  const uint32_t *vars;
} ic_islot;

/* Edge kinds (successor classification). */
#define IC_EDGE_DATA 0x01u     /* read-after-write, write-after-read or write-after-write */
#define IC_EDGE_IMPLICIT 0x02u /* program order kept for random, stateful, comm or sequential ops */
#define IC_EDGE_STREAM 0x04u   /* consecutive instructions of one stream, launched in order */

typedef struct ic_instr {
  const ic_op *op;
  const ic_opdef *def;
  void *attrs;               /* parsed once, def->attrs_size bytes */
  const ic_islot *in;        /* def->n_inputs */
  const ic_islot *out;       /* def->n_outputs */
  uint32_t n_succ;           /* successors after pruning, ascending */
  const uint32_t *succ;
  const uint8_t *succ_kind;  /* IC_EDGE_* per successor */
  uint32_t n_preds;          /* its dependency count at run start */
  uint32_t n_gc;             /* variables whose refcount it drops when done */
  const uint32_t *gc;
  int64_t priority;          /* scheduling_priority: lower runs first; ties by index */
  uint32_t height;           /* instructions on the longest path from it to a sink, itself
                                included: a thread goes on with its tallest ready successor */
  bool alias;                /* writes a variable it also reads: inputs are snapshotted */
  bool alone;                /* nothing can run beside it (roots and fetch ops aside): its
                                kernel may use every thread of the executor */
  bool meta_only;            /* reads no input's data: a view, or every input read for its
                                dims only (shape, fill_any_like); with a view's or a few
                                output elements it is quick whatever its last run measured */
  /* Concats joined in place (join.c): a concat instruction's join (index + 1, 0: none), and
   * for an instruction writing one of a join's parts, that join (index + 1, 0: none), the
   * part, and the output slot and position of the variable. */
  uint32_t join;
  uint32_t part_join;
  uint32_t part;
  uint16_t part_slot, part_pos;
  const struct ic_subplan *sub; /* while, conditional_block: its sub-block's plan (ctrlflow.h) */
  /* Device plans only: */
  uint8_t where;             /* IC_WHERE_HOST, _DEVICE, _H2D, _D2H */
  ic_kernel_fn dev_fn;       /* the device kernel (IC_WHERE_DEVICE) */
  int32_t stream;            /* its stream, -1 on the host */
  bool records;              /* records an event after its work */
  uint32_t n_waits;          /* events (of these producer instructions) it waits on first */
  const uint32_t *waits;
  const uint8_t *succ_sedge; /* per successor: IC_SEDGE_* (NULL in host plans) */
} ic_instr;

/* A concat whose inputs its producers may write straight into their places in its output
 * (join.c; run time: interp/join.c). Part k is concat input k; part_var[k] is that input's
 * variable when its producer writes it in place (a part), NONE when the concat copies it. */
typedef struct ic_join {
  uint32_t concat;           /* the concat instruction */
  uint32_t n_parts;          /* its X inputs */
  const uint32_t *part_var;
} ic_join;

typedef struct ic_plan_stats {
  size_t edges_before_pruning;  /* data + implicit edges, deduplicated */
  size_t edges;                 /* after transitive reduction */
  size_t implicit_edges;        /* implicit edges kept after pruning */
  size_t critical_path;         /* instructions on the longest dependency chain */
  size_t max_width;             /* most instructions sharing one depth level */
  size_t alone;                 /* instructions nothing else can run beside */
  size_t joins;                 /* concats whose inputs may be written in place (join.c) */
  double analysis_ms;           /* time ic_plan_build took */
} ic_plan_stats;

typedef struct ic_plan {
  ic_arena *arena;
  const ic_program *prog;    /* retained for the plan's life */
  ic_opseq seq;              /* ops in order, with added feed/fetch ops */
  size_t n_vars;
  ic_pvar *vars;
  size_t n_instrs;
  ic_instr *instrs;
  size_t n_roots;            /* instructions with no predecessors, by priority then index */
  const uint32_t *roots;
  uint32_t feed_holder;      /* variable indexes of the holders (UINT32_MAX if unused) */
  uint32_t fetch_holder;
  bool gc;                   /* built with GC on */
  ic_plan_stats stats;
  const struct ic_device *device; /* the device of a device plan, NULL on the CPU */
  uint32_t n_streams;        /* streams the plan uses */
  uint32_t n_events;         /* instructions that record an event */
  bool blocked;              /* some op writes blocked (oneDNN) layouts: readers are checked */
  size_t n_joins;            /* concats joined in place (join.c) */
  const ic_join *joins;
} ic_plan;

typedef struct ic_plan_options {
  bool gc;          /* compute release lists */
  bool sequential;  /* chain every instruction in program order */
  const struct ic_device *device; /* place device-capable ops on it (NULL: all on the CPU) */
  ic_stream_policy streams;       /* how device instructions get streams */
  bool fuse;                      /* inference rewrites (conv + batch_norm + activation), and
                                     on the CPU blocked activations between them (layout.c) */
  bool plain_layout;              /* testing: no blocked activations even with fuse */
  bool winograd;                  /* CPU: 3 x 3 convolutions by Winograd's algorithm where
                                     faster (convalgo.c) */
  bool prune;                     /* only the ops the fetches need (prune.c) */
  bool no_joins;                  /* testing: no concat joined in place (join.c) */
} ic_plan_options;

ic_status ic_plan_build(const ic_program *p, size_t n_feeds, const char *const *feed_names,
                        size_t n_fetches, const char *const *fetch_names,
                        const ic_plan_options *o, ic_plan **out, ic_err *err);
void ic_plan_destroy(ic_plan *plan);

/* ---- streams (devplan.c) ---- */

/* Streams, events and stream-order edges for a device plan (after ic_plan_build_dag). */
ic_status ic_plan_streams(ic_plan *plan, ic_stream_policy policy, ic_err *err);

/* ---- join.c ---- */
/* Find the concats whose producers may write their inputs in place (CPU plans with fuse on,
 * after classification and before the DAG). */
ic_status ic_plan_joins(ic_plan *plan, ic_err *err);

/* ---- dag.c ---- */

/* Build data and implicit edges, prune transitive ones, count predecessors, find roots and
 * compute the stats. Called by ic_plan_build once instructions and variables exist. */
ic_status ic_plan_build_dag(ic_plan *plan, bool sequential, ic_err *err);

/* Whether an op type must keep its program order among its kind (random, stateful, comm). */
unsigned ic_op_order_class(const ic_opdef *def, const char *type);

#endif
