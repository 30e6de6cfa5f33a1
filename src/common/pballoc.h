/* A protobuf-c allocator over the library's allocation wrappers (common/mem.h), so that
 * messages unpacked by protobuf-c count for allocation-failure tests, and an unpack that
 * failed for lack of memory can be told from one that failed on bad bytes. */
#ifndef IC_COMMON_PBALLOC_H
#define IC_COMMON_PBALLOC_H

#include <protobuf-c/protobuf-c.h>
#include <stdbool.h>
#include <stdlib.h>

#include "common/mem.h"

typedef struct ic_pb_allocator {
  ProtobufCAllocator base;
  bool failed; /* an allocation failed */
} ic_pb_allocator;

static inline void *ic_pb_alloc(void *data, size_t n) {
  void *p = ic_malloc(n);
  if (!p) ((ic_pb_allocator *)data)->failed = true;
  return p;
}

static inline void ic_pb_free(void *data, void *p) {
  (void)data;
  free(p);
}

static inline ProtobufCAllocator *ic_pb_allocator_init(ic_pb_allocator *a) {
  a->base.alloc = ic_pb_alloc;
  a->base.free = ic_pb_free;
  a->base.allocator_data = a;
  a->failed = false;
  return &a->base;
}

#endif
