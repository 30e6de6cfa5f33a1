/* Device backends: a table of functions per backend (CUDA, or the emulated-stream backend that
 * runs "device" kernels on the CPU with real stream semantics). Only src/device/cuda*.c and
 * src/kernels/cuda/ include CUDA headers; everything else sees this interface.
 *
 * Semantics, as CUDA's: work enqueued on a stream runs in enqueue order; an event records the
 * point a stream has reached; a stream waiting on an event runs nothing enqueued after the
 * wait until the event's work is done; memory is allocated and freed in stream order (a block
 * freed on stream S is reusable by work enqueued after the free completes on S). */
#ifndef IC_DEVICE_DEVICE_H
#define IC_DEVICE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "gc/alloc.h"
#include "icore/icore.h"
#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_device ic_device;
typedef struct ic_dstream ic_dstream;
typedef struct ic_devent ic_devent;

typedef enum ic_copy_kind { IC_COPY_H2D = 0, IC_COPY_D2H = 1, IC_COPY_D2D = 2 } ic_copy_kind;

typedef struct ic_device_vtbl {
  const char *name;
  void (*destroy)(ic_device *d);
  ic_status (*stream_create)(ic_device *d, ic_dstream **out, ic_err *err);
  void (*stream_destroy)(ic_dstream *s);
  ic_status (*event_create)(ic_device *d, ic_devent **out, ic_err *err);
  void (*event_destroy)(ic_devent *e);
  /* Mark the point stream s has reached (everything enqueued on s so far). */
  ic_status (*record)(ic_devent *e, ic_dstream *s, ic_err *err);
  /* Nothing enqueued on s after this runs before e's work is done. */
  ic_status (*wait)(ic_dstream *s, ic_devent *e, ic_err *err);
  /* Block the calling thread until e's work is done / until s is idle. */
  ic_status (*host_wait)(ic_devent *e, ic_err *err);
  ic_status (*sync)(ic_dstream *s, ic_err *err);
  /* Stream-ordered memory. */
  void *(*malloc)(ic_dstream *s, size_t bytes);
  void (*free)(ic_dstream *s, void *p, size_t bytes);
  /* Copy n bytes in stream order. Host memory must stay untouched until the copy is done. */
  ic_status (*memcpy)(ic_dstream *s, void *dst, const void *src, size_t n, ic_copy_kind kind,
                      ic_err *err);
  /* Run a kernel in stream order: CUDA calls fn at once (it enqueues its launches on
   * ctx->env->stream); the emulated backend captures ctx and its tensors and runs fn later on
   * the stream's thread. */
  ic_status (*launch)(ic_dstream *s, ic_kernel_fn fn, const ic_kctx *ctx, ic_err *err);
  /* The handles a kernel on s gets (stream, BLAS, DNN). */
  void (*kenv)(ic_dstream *s, ic_kenv *env);
  /* Whether op `def` has a kernel on this device, and which. */
  ic_kernel_fn (*kernel)(const ic_opdef *def);
  /* Graphs (NULL where the backend has none): record everything enqueued on s between
   * begin and end into a replayable graph instead of running it; launch replays it on s. */
  ic_status (*capture_begin)(ic_dstream *s, ic_err *err);
  ic_status (*capture_end)(ic_dstream *s, void **graph, ic_err *err);
  ic_status (*graph_launch)(ic_dstream *s, void *graph, ic_err *err);
  void (*graph_destroy)(void *graph);
  /* Page-locked host memory (NULL where the backend has none): graphs copy only from and to
   * it. */
  void *(*host_alloc)(ic_device *d, size_t bytes);
  void (*host_free)(ic_device *d, void *p);
} ic_device_vtbl;

struct ic_device {
  const ic_device_vtbl *v;
  ic_place place;
};

/* Open the device of a place (IC_PLACE_CUDA needs a CUDA build and a GPU). */
ic_status ic_device_open(ic_place place, ic_device **out, ic_err *err);

/* The emulated-stream backend's testing knobs (tests set them; defaults all off). */
typedef struct ic_emu_options {
  int max_delay_us;     /* a random delay in [0, max] before each task, to shake out races */
  bool poison;          /* fill freed device memory with 0xFF before it can be reused */
  uint64_t seed;        /* for the delays */
} ic_emu_options;
ic_status ic_emu_open(int index, const ic_emu_options *o, ic_device **out, ic_err *err);
/* Count of tasks each emulated stream ran (tests). */
uint64_t ic_emu_tasks_run(const ic_device *d);

#ifdef IC_WITH_CUDA
ic_status ic_cuda_open(int index, ic_device **out, ic_err *err);
#endif

/* An allocator whose buffers live on device d in stream order on s: released buffers are
 * freed on s. Destroyed like any allocator; buffers still out keep it alive, and the stream
 * must outlive them. */
ic_allocator *ic_allocator_device(ic_device *d, ic_dstream *s);
/* An allocator of the device's page-locked host memory (NULL if it has none). */
ic_allocator *ic_allocator_pinned(ic_device *d);
/* The stream a device buffer was allocated on (NULL for host buffers). */
ic_dstream *ic_buffer_stream(const ic_buffer *b);

#ifdef __cplusplus
}
#endif

#endif
