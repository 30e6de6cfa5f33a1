/* Every allocation of the library goes through these wrappers (SQLite's and Lua's way), so
 * that a test can make the k-th one fail and check that each out-of-memory path returns a
 * clean error, leaks nothing and leaves the library usable. The library's C sources are
 * compiled with src/common/mem_redirect.h force-included, which maps malloc, calloc,
 * realloc, strdup, strndup and aligned_alloc onto them; free is not wrapped.
 *
 * The failure hook is per thread (a thread-local countdown, documented in DESIGN.md): it
 * affects only allocations made by the thread that armed it, so tests run executors serial
 * (every allocation of a run in the calling thread). Unarmed, the cost is one thread-local
 * load and compare per allocation. */
#ifndef IC_COMMON_MEM_H
#define IC_COMMON_MEM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void *ic_malloc(size_t n);
void *ic_calloc(size_t n, size_t size);
void *ic_realloc(void *p, size_t n);
char *ic_strdup(const char *s);
char *ic_strndup(const char *s, size_t n);
void *ic_aligned_alloc(size_t align, size_t n);

/* Testing: make the k-th allocation (0 = the next one) of the calling thread fail, once;
 * k < 0 disarms. Resets the count below. */
void ic_alloc_fail_at(long k);
/* Allocations the calling thread made since its last ic_alloc_fail_at (failed one
 * included). */
long ic_alloc_count(void);

#ifdef __cplusplus
}
#endif

#endif
