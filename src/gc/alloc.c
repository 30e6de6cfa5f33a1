/* Plain and caching CPU allocators. A buffer is one aligned block: a 64-byte header (the
 * ic_buffer) followed by the data, so a cached buffer is reused whole.
 *
 * An allocator is reference-counted: its owner holds one reference and every buffer it has
 * handed out holds one, so a buffer that outlives the executor (a kernel's output stored in
 * the caller's scope, a tensor fetched by sharing) is still released safely; the last
 * reference frees the allocator. After its owner lets go, releases skip the cache. */
#include "gc/alloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define HEADER 64
#define STEPS 4            /* size classes per power of two */
#define N_BINS (64 * STEPS)

typedef struct free_node {
  struct free_node *next;
} free_node;

struct ic_allocator {
  const ic_mem_ops *mem;      /* custom memory (a device's), or NULL for host memory */
  void *mem_ctx;
  bool caching;
  bool poison;                /* fill released buffers with 0xFF (tests) */
  size_t max_cached;
  pthread_mutex_t lock;       /* guards bins and cached_bytes */
  free_node *bins[N_BINS];    /* cached buffers by size class; the node overlays the header */
  size_t cached_bytes;
  atomic_size_t live_bytes;
  atomic_size_t peak_bytes;
  atomic_size_t system_allocs;
  atomic_size_t reuses;
  atomic_size_t refs;         /* the owner's reference plus one per outstanding buffer */
  atomic_bool closed;         /* the owner destroyed it: stop caching */
};

_Static_assert(sizeof(ic_buffer) <= HEADER, "buffer header must fit in 64 bytes");

static ic_allocator *make(bool caching, size_t max_cached) {
  ic_allocator *a = calloc(1, sizeof *a);
  if (!a) return NULL;
  a->caching = caching;
  a->max_cached = max_cached;
  atomic_init(&a->refs, 1);
  atomic_init(&a->closed, false);
  pthread_mutex_init(&a->lock, NULL);
  return a;
}

ic_allocator *ic_allocator_plain(void) { return make(false, 0); }

ic_allocator *ic_allocator_custom(const ic_mem_ops *ops, void *ctx) {
  ic_allocator *a = make(false, 0);
  if (a) {
    a->mem = ops;
    a->mem_ctx = ctx;
  }
  return a;
}

void *ic_allocator_ctx(const ic_allocator *a) { return a ? a->mem_ctx : NULL; }
const ic_mem_ops *ic_allocator_mem_ops(const ic_allocator *a) { return a ? a->mem : NULL; }

/* A buffer of custom memory: the header on the host, the data wherever the memory lives. */
static ic_buffer *custom_new(ic_allocator *a, size_t bytes) {
  ic_buffer *b = malloc(sizeof *b);
  if (!b) return NULL;
  size_t cap = (bytes + 255) & ~(size_t)255;
  b->data = a->mem->alloc(a->mem_ctx, cap ? cap : 256);
  if (!b->data) {
    free(b);
    return NULL;
  }
  atomic_init(&b->refs, 1);
  b->bytes = cap;
  b->alloc = a;
  b->bin = SIZE_MAX;
  b->borrowed = NULL;
  b->borrowed_ctx = NULL;
  atomic_fetch_add_explicit(&a->refs, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&a->system_allocs, 1, memory_order_relaxed);
  return b;
}
ic_allocator *ic_allocator_caching(size_t max_cached) { return make(true, max_cached); }

/* Size class of n bytes: classes are 2^k * (4 + j) / 4 for j in 0..3; returns the class
 * index and its capacity. */
static size_t size_class(size_t n, size_t *cap) {
  if (n <= 64) {
    *cap = 64;
    return 0;
  }
  int k = 63 - __builtin_clzll((unsigned long long)(n - 1)); /* 2^k < n <= 2^(k+1) */
  size_t base = (size_t)1 << k, step = base / STEPS;
  size_t j = (n - base + step - 1) / step;                   /* 1..4 */
  *cap = base + j * step;
  return (size_t)k * STEPS + (j - 1);
}

static void note_live(ic_allocator *a, size_t bytes) {
  size_t live = atomic_fetch_add(&a->live_bytes, bytes) + bytes;
  size_t peak = atomic_load(&a->peak_bytes);
  while (live > peak && !atomic_compare_exchange_weak(&a->peak_bytes, &peak, live)) {
  }
}

static void allocator_free(ic_allocator *a) {
  ic_allocator_trim(a);
  if (a->mem && a->mem->release) a->mem->release(a->mem_ctx);
  pthread_mutex_destroy(&a->lock);
  free(a);
}

static void unref(ic_allocator *a) {
  if (atomic_fetch_sub_explicit(&a->refs, 1, memory_order_acq_rel) == 1) allocator_free(a);
}

ic_buffer *ic_buffer_new(ic_allocator *a, size_t bytes) {
  size_t cap = bytes ? bytes : 1, bin = SIZE_MAX;
  void *block = NULL;
  if (a && a->mem) {
    ic_buffer *b = custom_new(a, bytes);
    if (b) note_live(a, b->bytes);
    return b;
  }
  if (a && a->caching) {
    bin = size_class(cap, &cap);
    if (bin >= N_BINS) return NULL;
    pthread_mutex_lock(&a->lock);
    free_node *n = a->bins[bin];
    if (n) {
      a->bins[bin] = n->next;
      a->cached_bytes -= cap;
      block = n;
    }
    pthread_mutex_unlock(&a->lock);
    if (block) atomic_fetch_add_explicit(&a->reuses, 1, memory_order_relaxed);
  } else {
    cap = (cap + 63) & ~(size_t)63;
  }
  if (!block) {
    if (cap > SIZE_MAX - HEADER - 63) return NULL;
    /* C11 wants the size a multiple of the alignment; size classes such as 80 are not. */
    block = aligned_alloc(64, (HEADER + cap + 63) & ~(size_t)63);
    if (!block) return NULL;
    if (a) atomic_fetch_add_explicit(&a->system_allocs, 1, memory_order_relaxed);
  }
  ic_buffer *b = block;
  atomic_init(&b->refs, 1);
  b->bytes = cap;
  b->data = (char *)block + HEADER;
  b->alloc = a;
  b->bin = bin;
  b->borrowed = NULL;
  b->borrowed_ctx = NULL;
  if (a) {
    atomic_fetch_add_explicit(&a->refs, 1, memory_order_relaxed);
    note_live(a, cap);
  }
  return b;
}

ic_buffer *ic_buffer_borrow(void *data, size_t bytes, void (*release)(void *ctx), void *ctx) {
  ic_buffer *b = malloc(sizeof *b);
  if (!b) return NULL;
  atomic_init(&b->refs, 1);
  b->bytes = bytes;
  b->data = data;
  b->alloc = NULL;
  b->bin = SIZE_MAX;
  b->borrowed = release;
  b->borrowed_ctx = ctx;
  return b;
}

void ic_buffer_retain(ic_buffer *b) { atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed); }

void ic_buffer_release(ic_buffer *b) {
  if (!b || atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) != 1) return;
  ic_allocator *a = b->alloc;
  if (!a) {
    if (b->borrowed) b->borrowed(b->borrowed_ctx); /* caller memory: only the header is ours */
    free(b);
    return;
  }
  size_t cap = b->bytes, bin = b->bin;
  atomic_fetch_sub(&a->live_bytes, cap);
  if (a->mem) {
    a->mem->free(a->mem_ctx, b->data, cap);
    free(b);
    unref(a);
    return;
  }
  if (a->poison) memset(b->data, 0xFF, cap);
  if (a->caching && bin != SIZE_MAX && !atomic_load_explicit(&a->closed, memory_order_acquire)) {
    pthread_mutex_lock(&a->lock);
    if (a->cached_bytes + cap <= a->max_cached) {
      free_node *n = (free_node *)b;
      n->next = a->bins[bin];
      a->bins[bin] = n;
      a->cached_bytes += cap;
      b = NULL;
    }
    pthread_mutex_unlock(&a->lock);
  }
  free(b);
  unref(a);
}

void ic_allocator_set_poison(ic_allocator *a, bool on) { a->poison = on; }

void ic_allocator_trim(ic_allocator *a) {
  pthread_mutex_lock(&a->lock);
  for (size_t i = 0; i < N_BINS; i++) {
    for (free_node *n = a->bins[i], *next; n; n = next) {
      next = n->next;
      free(n);
    }
    a->bins[i] = NULL;
  }
  a->cached_bytes = 0;
  pthread_mutex_unlock(&a->lock);
}

void ic_allocator_destroy(ic_allocator *a) {
  if (!a) return;
  atomic_store_explicit(&a->closed, true, memory_order_release);
  ic_allocator_trim(a);
  unref(a);
}

void ic_allocator_stats(ic_allocator *a, ic_alloc_stats *out) {
  pthread_mutex_lock(&a->lock);
  out->cached_bytes = a->cached_bytes;
  pthread_mutex_unlock(&a->lock);
  out->live_bytes = atomic_load(&a->live_bytes);
  out->peak_bytes = atomic_load(&a->peak_bytes);
  out->system_allocs = atomic_load(&a->system_allocs);
  out->reuses = atomic_load(&a->reuses);
}

void ic_allocator_reset_peak(ic_allocator *a) {
  atomic_store(&a->peak_bytes, atomic_load(&a->live_bytes));
}
