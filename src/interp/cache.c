/* The executor's plan cache: an LRU keyed by XXH64 of the program's bytes (hashed once at
 * load), the feed names, the fetch names and the place. A hit does no analysis. The names
 * are kept and compared on a hit, and the program's hash and size too, so a hash
 * collision on the key alone cannot return the wrong plan. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "interp/run.h"

/* The names blob: feed names, then fetch names, each NUL-terminated, with counts up front,
 * then the place. */
static char *names_blob(size_t n_feeds, const char *const *feed_names, size_t n_fetches,
                        const char *const *fetch_names, const char *k_place, size_t *len) {
  size_t n = 2 * sizeof(uint64_t) + strlen(k_place) + 1;
  for (size_t i = 0; i < n_feeds; i++) n += strlen(feed_names[i]) + 1;
  for (size_t i = 0; i < n_fetches; i++) n += strlen(fetch_names[i]) + 1;
  char *b = malloc(n);
  if (!b) return NULL;
  uint64_t counts[2] = {n_feeds, n_fetches};
  memcpy(b, counts, sizeof counts);
  size_t at = sizeof counts;
  for (size_t i = 0; i < n_feeds; i++) {
    size_t l = strlen(feed_names[i]) + 1;
    memcpy(b + at, feed_names[i], l);
    at += l;
  }
  for (size_t i = 0; i < n_fetches; i++) {
    size_t l = strlen(fetch_names[i]) + 1;
    memcpy(b + at, fetch_names[i], l);
    at += l;
  }
  memcpy(b + at, k_place, strlen(k_place) + 1);
  *len = n;
  return b;
}

static void entry_free(ic_cache_entry *ce) {
  while (ce->idle) {
    ic_rstate *rs = ce->idle;
    ce->idle = rs->next;
    ic_rstate_destroy(rs, ce->plan);
  }
  ic_plan_destroy(ce->plan);
  free(ce->names);
  free(ce);
}

/* Drop one reference (e->lock held). */
static void entry_unref(ic_executor *e, ic_cache_entry *ce) {
  if (--ce->refs) return;
  if (e->last_plan == ce->plan) {
    e->last_plan = NULL;
    e->last_rs = NULL;
  }
  entry_free(ce);
}

void ic_cache_clear(ic_executor *e) {
  pthread_mutex_lock(&e->lock);
  for (size_t i = 0; i < e->n_entries; i++) entry_unref(e, e->entries[i]);
  e->n_entries = 0;
  e->last_plan = NULL;
  e->last_rs = NULL;
  pthread_mutex_unlock(&e->lock);
}

void ic_cache_release(ic_executor *e, ic_cache_entry *ce, ic_rstate *rs) {
  pthread_mutex_lock(&e->lock);
  if (rs) {
    rs->next = ce->idle;
    ce->idle = rs;
    e->last_plan = ce->plan;
    e->last_rs = rs;
  }
  entry_unref(e, ce);
  pthread_mutex_unlock(&e->lock);
}

/* Find or build the entry (e->lock held); it gets a reference for the caller. */
static ic_status lookup(ic_executor *e, const ic_program *p, char *names, size_t len,
                        size_t n_feeds, const char *const *feed_names, size_t n_fetches,
                        const char *const *fetch_names, ic_cache_entry **entry, bool *built,
                        ic_err *err) {
  uint64_t key = XXH64(names, len, (XXH64_hash_t)p->hash);
  for (size_t i = 0; i < e->n_entries; i++) {
    ic_cache_entry *ce = e->entries[i];
    if (ce->key == key && ce->prog_hash == p->hash && ce->prog_size == p->size &&
        ce->names_len == len && memcmp(ce->names, names, len) == 0) {
      free(names);
      ce->last_used = ++e->clock;
      ce->refs++;
      e->hits++;
      *entry = ce;
      return IC_OK;
    }
  }
  e->misses++;
  ic_cache_entry *ce = calloc(1, sizeof *ce);
  if (!ce) {
    free(names);
    return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  }
  ic_plan_options po = {.gc = e->opt.gc, .sequential = e->opt.sequential, .device = e->dev,
                        .streams = e->opt.cuda_graph ? IC_STREAMS_SINGLE : e->opt.streams,
                        .fuse = e->opt.fuse, .plain_layout = e->plain_layout, .no_joins = e->no_joins,
                        .winograd = e->opt.winograd, .prune = e->opt.prune};
  ic_status st = ic_plan_build(p, n_feeds, feed_names, n_fetches, fetch_names, &po, &ce->plan,
                               err);
  if (st) {
    free(names);
    free(ce);
    return st;
  }
  *built = true;
  e->last_analysis_ms = ce->plan->stats.analysis_ms;
  if (e->n_entries == (size_t)e->opt.cache_capacity) {
    size_t lru = 0;
    for (size_t i = 1; i < e->n_entries; i++) {
      if (e->entries[i]->last_used < e->entries[lru]->last_used) lru = i;
    }
    entry_unref(e, e->entries[lru]); /* freed now, or by the last run still using it */
    e->entries[lru] = e->entries[--e->n_entries];
  }
  ce->key = key;
  ce->names = names;
  ce->names_len = len;
  ce->prog_hash = p->hash;
  ce->prog_size = p->size;
  ce->last_used = ++e->clock;
  ce->refs = 2; /* the cache's and the caller's */
  e->entries[e->n_entries++] = ce;
  *entry = ce;
  return IC_OK;
}

ic_status ic_cache_acquire(ic_executor *e, const ic_program *p, size_t n_feeds,
                           const char *const *feed_names, size_t n_fetches,
                           const char *const *fetch_names, ic_cache_entry **entry,
                           ic_rstate **rs, bool *built, ic_err *err) {
  size_t len;
  char place[32];
  *built = false;
  *rs = NULL;
  ic_place_name(e->opt.device, place, sizeof place);
  char *names = names_blob(n_feeds, feed_names, n_fetches, fetch_names, place, &len);
  if (!names) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  /* Analysis runs under the lock: concurrent first runs of one program build it once. */
  pthread_mutex_lock(&e->lock);
  ic_cache_entry *ce = NULL;
  ic_status st = lookup(e, p, names, len, n_feeds, feed_names, n_fetches, fetch_names, &ce,
                        built, err);
  if (!st && ce->idle) {
    *rs = ce->idle;
    ce->idle = (*rs)->next;
    (*rs)->next = NULL;
  }
  pthread_mutex_unlock(&e->lock);
  if (st) return st;
  if (!*rs && (st = ic_rstate_create(ce->plan, e->dev, rs, err))) {
    ic_cache_release(e, ce, NULL);
    return st;
  }
  *entry = ce;
  return IC_OK;
}
