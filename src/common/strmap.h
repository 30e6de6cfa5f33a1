/* An open-addressing hash map from borrowed NUL-terminated strings to pointers.
 * Keys are not copied: they must outlive the map. Not thread-safe. */
#ifndef IC_COMMON_STRMAP_H
#define IC_COMMON_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_strmap_slot {
  const char *key; /* NULL marks an empty slot */
  uint64_t hash;   /* cached hash of key */
  void *value;     /* the mapped pointer */
} ic_strmap_slot;

typedef struct ic_strmap {
  size_t n;              /* live entries */
  size_t cap;            /* slot count, a power of two (0 before the first insert) */
  ic_strmap_slot *slots; /* cap slots */
} ic_strmap;

void ic_strmap_init(ic_strmap *m);
void ic_strmap_free(ic_strmap *m);
/* The value for key, or NULL. */
void *ic_strmap_get(const ic_strmap *m, const char *key);
/* Insert or replace; false on allocation failure (the map is unchanged). */
bool ic_strmap_put(ic_strmap *m, const char *key, void *value);
/* Iterate: returns the next occupied slot index >= *i and advances *i, or false at the end. */
bool ic_strmap_next(const ic_strmap *m, size_t *i, const char **key, void **value);
uint64_t ic_hash_str(const char *s);

#ifdef __cplusplus
}
#endif

#endif
