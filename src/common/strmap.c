#include "common/strmap.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

uint64_t ic_hash_str(const char *s) { return XXH3_64bits(s, strlen(s)); }

void ic_strmap_init(ic_strmap *m) { memset(m, 0, sizeof *m); }

void ic_strmap_free(ic_strmap *m) {
  free(m->slots);
  memset(m, 0, sizeof *m);
}

static ic_strmap_slot *find(const ic_strmap_slot *slots, size_t cap, const char *key,
                            uint64_t h) {
  size_t mask = cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    const ic_strmap_slot *s = &slots[i];
    if (!s->key || (s->hash == h && strcmp(s->key, key) == 0)) return (ic_strmap_slot *)s;
  }
}

void *ic_strmap_get(const ic_strmap *m, const char *key) {
  if (m->cap == 0) return NULL;
  ic_strmap_slot *s = find(m->slots, m->cap, key, ic_hash_str(key));
  return s->key ? s->value : NULL;
}

static bool grow(ic_strmap *m) {
  size_t cap = m->cap ? m->cap * 2 : 16;
  ic_strmap_slot *slots = calloc(cap, sizeof *slots);
  if (!slots) return false;
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->slots[i].key) continue;
    *find(slots, cap, m->slots[i].key, m->slots[i].hash) = m->slots[i];
  }
  free(m->slots);
  m->slots = slots;
  m->cap = cap;
  return true;
}

bool ic_strmap_put(ic_strmap *m, const char *key, void *value) {
  if ((m->n + 1) * 4 > m->cap * 3 && !grow(m)) return false;
  uint64_t h = ic_hash_str(key);
  ic_strmap_slot *s = find(m->slots, m->cap, key, h);
  if (!s->key) {
    s->key = key;
    s->hash = h;
    m->n++;
  }
  s->value = value;
  return true;
}

bool ic_strmap_next(const ic_strmap *m, size_t *i, const char **key, void **value) {
  for (; *i < m->cap; (*i)++) {
    if (!m->slots[*i].key) continue;
    *key = m->slots[*i].key;
    *value = m->slots[*i].value;
    (*i)++;
    return true;
  }
  return false;
}
