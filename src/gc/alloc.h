/* Buffers and allocators. A buffer is one reference-counted block of tensor storage; every
 * tensor that shares it holds a reference, and the last release returns it to the allocator
 * that made it. Kernels never write into a buffer they did not receive as a fresh output of
 * the instruction they run, so sharing a buffer between variables is always safe (the parts
 * of a concat joined in place receive fresh, disjoint regions of one buffer: interp/join.c). */
#ifndef IC_GC_ALLOC_H
#define IC_GC_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/atomic.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_allocator ic_allocator;

typedef struct ic_buffer {
  ic_atomic_int refs;      /* tensors holding this buffer */
  size_t bytes;            /* usable bytes at data */
  void *data;              /* 64-byte aligned (borrowed memory: the element size's alignment) */
  ic_allocator *alloc;     /* where the last release sends it; NULL: the system */
  size_t bin;              /* allocator's size class, or SIZE_MAX */
  void (*borrowed)(void *ctx); /* borrowed (caller) memory: called once by the last release, */
  void *borrowed_ctx;          /* with this; the header alone is freed. NULL otherwise */
} ic_buffer;

typedef struct ic_alloc_stats {
  size_t live_bytes;      /* bytes in buffers handed out and not yet released */
  size_t peak_bytes;      /* highest live_bytes since the last reset */
  size_t cached_bytes;    /* bytes held in free lists for reuse */
  size_t system_allocs;   /* calls to the system allocator */
  size_t reuses;          /* requests served from a free list */
} ic_alloc_stats;

/* A plain allocator: every buffer comes from and goes back to the system allocator. */
ic_allocator *ic_allocator_plain(void);
/* A caching allocator: released buffers go to size-binned free lists (bins by powers of two
 * with four steps each) and are handed out again, so steady-state runs make no system calls.
 * At most max_cached bytes are kept; beyond that, releases go back to the system. */
ic_allocator *ic_allocator_caching(size_t max_cached);
/* Memory that is not host memory (a device's): buffers get a separate host header and their
 * data from ops->alloc(ctx, bytes); the last release calls ops->free(ctx, data, bytes). */
typedef struct ic_mem_ops {
  void *(*alloc)(void *ctx, size_t bytes);
  void (*free)(void *ctx, void *p, size_t bytes);
  void (*release)(void *ctx); /* called once the allocator itself is gone (may be NULL) */
} ic_mem_ops;
ic_allocator *ic_allocator_custom(const ic_mem_ops *ops, void *ctx);
/* The ctx and ops a custom allocator was made with (NULL for host allocators). */
void *ic_allocator_ctx(const ic_allocator *a);
const ic_mem_ops *ic_allocator_mem_ops(const ic_allocator *a);
void ic_allocator_destroy(ic_allocator *a);
/* A buffer of at least `bytes` bytes (uninitialized), refs = 1; NULL when out of memory.
 * a == NULL takes it straight from the system, untracked (tensors made by API users). */
ic_buffer *ic_buffer_new(ic_allocator *a, size_t bytes);
void ic_buffer_retain(ic_buffer *b);
/* A buffer over caller memory (ic_tensor_wrap): refs = 1, alloc NULL, nothing copied; the
 * last release calls release(ctx) (when not NULL) instead of freeing data. NULL when out of
 * memory (release is then not called). */
ic_buffer *ic_buffer_borrow(void *data, size_t bytes, void (*release)(void *ctx), void *ctx);
/* Drop one reference; the last one returns the buffer to its allocator. NULL is ignored. */
void ic_buffer_release(ic_buffer *b);
void ic_allocator_stats(ic_allocator *a, ic_alloc_stats *out);
/* Restart peak tracking from the current live bytes. */
void ic_allocator_reset_peak(ic_allocator *a);
/* Testing aid: fill every buffer with 0xFF bytes (a NaN pattern) when it is released to
 * the cache, so a read after free shows up as a wrong value. */
void ic_allocator_set_poison(ic_allocator *a, bool on);
/* Return every cached buffer to the system. */
void ic_allocator_trim(ic_allocator *a);

#ifdef __cplusplus
}
#endif

#endif
