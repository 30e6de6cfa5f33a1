/* Opening devices, and device memory as an icore allocator. */
#include <stdio.h>
#include <stdlib.h>

#include "device/device.h"

ic_status ic_device_open(ic_place place, ic_device **out, ic_err *err) {
  *out = NULL;
  char name[32];
  switch (place.kind) {
    case IC_PLACE_EMULATED: return ic_emu_open(place.index, NULL, out, err);
    case IC_PLACE_CUDA:
#ifdef IC_WITH_CUDA
      return ic_cuda_open(place.index, out, err);
#else
      return ic_err_set(err, IC_ERR_UNSUPPORTED,
                        "device %s: this icore was built without CUDA (configure with "
                        "-DIC_WITH_CUDA=ON where nvcc and cuBLAS are installed)",
                        ic_place_name(place, name, sizeof name));
#endif
    default:
      return ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "%s is not a device",
                        ic_place_name(place, name, sizeof name));
  }
}

/* The allocator's context is its stream; the stream knows its device. */
typedef struct dev_mem {
  ic_device *dev;
  ic_dstream *stream;
} dev_mem;

static void *dev_alloc(void *ctx, size_t bytes) {
  dev_mem *m = ctx;
  return (m->dev->v->malloc)(m->stream, bytes); /* (): not mem_redirect.h's macro */
}

static void dev_free(void *ctx, void *p, size_t bytes) {
  dev_mem *m = ctx;
  m->dev->v->free(m->stream, p, bytes);
}

static const ic_mem_ops k_dev_mem = {dev_alloc, dev_free, free};

/* The dev_mem lives as long as the allocator (freed by its release hook). */
ic_allocator *ic_allocator_device(ic_device *d, ic_dstream *s) {
  dev_mem *m = malloc(sizeof *m);
  if (!m) return NULL;
  m->dev = d;
  m->stream = s;
  ic_allocator *a = ic_allocator_custom(&k_dev_mem, m);
  if (!a) free(m);
  return a;
}

ic_dstream *ic_buffer_stream(const ic_buffer *b) {
  if (!b || !b->alloc || ic_allocator_mem_ops(b->alloc) != &k_dev_mem) return NULL;
  const dev_mem *m = ic_allocator_ctx(b->alloc);
  return m->stream;
}

static void *pin_alloc(void *ctx, size_t bytes) {
  ic_device *d = ctx;
  return d->v->host_alloc(d, bytes);
}

static void pin_free(void *ctx, void *p, size_t bytes) {
  (void)bytes;
  ic_device *d = ctx;
  d->v->host_free(d, p);
}

static const ic_mem_ops k_pinned = {pin_alloc, pin_free, NULL};

ic_allocator *ic_allocator_pinned(ic_device *d) {
  return d->v->host_alloc ? ic_allocator_custom(&k_pinned, d) : NULL;
}
