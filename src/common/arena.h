/* A bump allocator for data that lives and dies together (a program's arrays, a plan's
 * tables). Freed all at once. Not thread-safe. */
#ifndef IC_COMMON_ARENA_H
#define IC_COMMON_ARENA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_arena ic_arena;

ic_arena *ic_arena_create(void);
void ic_arena_destroy(ic_arena *a);
/* size bytes aligned to 16, zero-filled; NULL on allocation failure. */
void *ic_arena_alloc(ic_arena *a, size_t size);
/* n elements of size bytes with overflow checking. */
void *ic_arena_calloc(ic_arena *a, size_t n, size_t size);
char *ic_arena_strdup(ic_arena *a, const char *s);
/* Total bytes obtained from malloc. */
size_t ic_arena_bytes(const ic_arena *a);

#ifdef __cplusplus
}
#endif

#endif
