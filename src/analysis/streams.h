/* Device streams and cross-stream events, as pure graph analysis: which stream each device
 * node runs on, and which dependencies need an event (or, for a host consumer, a blocking
 * wait) because neither stream order nor earlier waits already imply them. Knows nothing of
 * CUDA, plans or threads; the plan builder fills an ic_sgraph from its DAG.
 *
 * Execution model the results assume (the executor's side of the contract):
 *  - a stream runs its nodes in increasing node index, and the executor enqueues each
 *    node's event waits before the node and its record after it;
 *  - a producer's record is enqueued before any wait on it (launching device nodes in
 *    index order guarantees that; CUDA treats a wait on a not-yet-recorded event as done);
 *  - a host node starts once its host predecessors finished and its waits completed;
 *  - a device node is enqueued only after its host predecessors finished (LAUNCH edges). */
#ifndef IC_ANALYSIS_STREAMS_H
#define IC_ANALYSIS_STREAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "icore/icore.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ic_stream_policy (IC_STREAMS_SINGLE, _PER_BACKEND, _PER_OPERATOR) is public: icore.h.
 *  single:       every device node on stream 0;
 *  per-backend:  compute nodes stream 0, host-to-device copies 1, device-to-host copies 2;
 *  per-operator: the fewest streams that let independent device nodes overlap, a chain
 *                staying on one stream. */

typedef enum ic_node_kind {
  IC_NODE_HOST = 0,    /* runs on a CPU thread; has no stream */
  IC_NODE_DEVICE = 1,  /* a kernel launched onto a stream */
  IC_NODE_H2D = 2,     /* a host-to-device copy (on a stream) */
  IC_NODE_D2H = 3      /* a device-to-host copy (on a stream); host nodes after it need it
                          complete */
} ic_node_kind;

/* Forced stream ids (an op's `execution_stream`, numbered by the caller) must be below this. */
#define IC_STREAMS_MAX_FIXED 256
/* Per-operator chooses at most this many streams of its own (forced ones not counted):
 * CUDA maps streams onto at most 32 hardware queues (CUDA_DEVICE_MAX_CONNECTIONS), so more
 * would add streams without adding overlap. */
#define IC_STREAMS_DEFAULT_MAX_AUTO 32

/* The DAG, as analysis has it: nodes in program order (a topological order), every edge
 * forward. */
typedef struct ic_sgraph {
  size_t n;
  const uint8_t *kind;            /* ic_node_kind per node */
  const uint32_t *n_succ;         /* per node */
  const uint32_t *const *succ;    /* per node, strictly ascending, all > the node */
  const int32_t *fixed_stream;    /* per node: -1, or a stream forced by the op's
                                     `execution_stream` attribute, in [0, IC_STREAMS_MAX_FIXED)
                                     (NULL: none fixed; ignored on host nodes). Forced ids
                                     override every policy; per-operator never puts another
                                     node on a forced id. */
} ic_sgraph;

/* Edge classes, one per successor, parallel to succ. */
#define IC_SEDGE_DIRECT 1  /* same stream (stream order suffices), or host to host */
#define IC_SEDGE_EVENT 2   /* device to device on different streams: the consumer's stream
                              waits on an event the producer records */
#define IC_SEDGE_EVENT_IMPLIED 3 /* different streams, but already ordered by stream order and
                                    other waits: no event */
#define IC_SEDGE_SYNC 4    /* device (usually a D2H copy) to host: the host consumer's thread
                              blocks on the producer's event */
#define IC_SEDGE_LAUNCH 5  /* host to device: the device node is launched after the host node
                              finished */
#define IC_SEDGE_SYNC_IMPLIED 6 /* device to host, but the host node is already ordered after
                                   the producer (through host predecessors' waits): no wait */

typedef struct ic_streams {
  int32_t *stream;        /* per node: its stream, -1 for host nodes */
  uint32_t n_streams;     /* 1 + the largest stream id used (0 without device nodes); ids
                             in between may be unused (per-backend, forced ids) */
  uint8_t **edge;         /* per node, per successor: IC_SEDGE_* (edge[0] owns the storage) */
  bool *records;          /* per node: records an event after its work (someone waits on it) */
  uint32_t *n_waits;      /* per node: events its stream (or, for a host node, its thread)
                             waits on before it runs: one per EVENT or SYNC in-edge */
  uint32_t **waits;       /* per node: the producer nodes of those events, ascending
                             (waits[0] owns the storage) */
  uint32_t n_events;      /* nodes that record */
} ic_streams;

/* Assign streams and classify every edge. Bad graphs (a successor out of range, backward,
 * repeated or unsorted, an unknown kind, a forced stream out of range) are IC_ERR_INTERNAL:
 * the plan builder made them. On failure *out is left empty (safe to free). */
ic_status ic_streams_assign(const ic_sgraph *g, ic_stream_policy policy, ic_streams *out,
                            ic_err *err);
/* Same, with per-operator choosing at most max_auto (>= 1) streams of its own; when more
 * would be needed, a node joins the stream that serializes least (see streams.c). */
ic_status ic_streams_assign_max(const ic_sgraph *g, ic_stream_policy policy, uint32_t max_auto,
                                ic_streams *out, ic_err *err);
void ic_streams_free(ic_streams *s);

/* The policy's name ("single", "per-backend", "per-operator"; "unknown" otherwise) and
 * parsing it back (false, *out untouched, for anything else). */
const char *ic_stream_policy_name(ic_stream_policy p);
bool ic_stream_policy_parse(const char *s, ic_stream_policy *out);

#ifdef __cplusplus
}
#endif

#endif
