#include "common/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct chunk {
  struct chunk *next;
  size_t size; /* usable bytes after the header */
  size_t used;
  _Alignas(16) unsigned char data[];
} chunk;

struct ic_arena {
  chunk *head;
  size_t bytes;
};

ic_arena *ic_arena_create(void) { return calloc(1, sizeof(ic_arena)); }

void ic_arena_destroy(ic_arena *a) {
  if (!a) return;
  for (chunk *c = a->head, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  free(a);
}

void *ic_arena_alloc(ic_arena *a, size_t size) {
  size = (size + 15) & ~(size_t)15;
  if (size == 0) size = 16;
  chunk *c = a->head;
  if (!c || c->size - c->used < size) {
    size_t want = size > 32768 ? size : 32768;
    if (want > SIZE_MAX - sizeof(chunk)) return NULL;
    c = malloc(sizeof(chunk) + want);
    if (!c) return NULL;
    c->size = want;
    c->used = 0;
    c->next = a->head;
    a->head = c;
    a->bytes += sizeof(chunk) + want;
  }
  void *p = c->data + c->used;
  c->used += size;
  memset(p, 0, size);
  return p;
}

void *ic_arena_calloc(ic_arena *a, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return NULL;
  return ic_arena_alloc(a, n * size);
}

char *ic_arena_strdup(ic_arena *a, const char *s) {
  size_t n = strlen(s) + 1;
  char *d = ic_arena_alloc(a, n);
  if (d) memcpy(d, s, n);
  return d;
}

size_t ic_arena_bytes(const ic_arena *a) { return a->bytes; }
