/* The allocation wrappers and their failure hook (see mem.h). */
#include "common/mem.h"

/* This file calls the real functions: undo the force-included common/mem_redirect.h. */
#undef malloc
#undef calloc
#undef realloc
#undef strdup
#undef strndup
#undef aligned_alloc

#include <stdlib.h>
#include <string.h>

/* Per thread: allocations since arming, and the index that fails (-1: none). */
static _Thread_local long t_count, t_fail = -1;

static inline int fail_now(void) {
  if (__builtin_expect(t_fail < 0, 1)) return 0;
  return t_count++ == t_fail;
}

void ic_alloc_fail_at(long k) {
  t_fail = k < 0 ? -1 : k;
  t_count = 0;
}

long ic_alloc_count(void) { return t_count; }

void *ic_malloc(size_t n) { return fail_now() ? NULL : malloc(n); }
void *ic_calloc(size_t n, size_t size) { return fail_now() ? NULL : calloc(n, size); }
void *ic_realloc(void *p, size_t n) { return fail_now() ? NULL : realloc(p, n); }
void *ic_aligned_alloc(size_t align, size_t n) {
  return fail_now() ? NULL : aligned_alloc(align, n);
}

char *ic_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = ic_malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

char *ic_strndup(const char *s, size_t n) {
  size_t l = strnlen(s, n);
  char *d = ic_malloc(l + 1);
  if (d) {
    memcpy(d, s, l);
    d[l] = 0;
  }
  return d;
}
