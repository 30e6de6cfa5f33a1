/* The executor's plan cache: an LRU keyed by XXH64 of the program's bytes (hashed once at
 * load), the feed names, the fetch names and the place. A hit does no analysis. The names
 * are kept and compared on a hit, and the program's hash and size too, so a hash
 * collision on the key alone cannot return the wrong plan. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "interp/interp.h"

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
  ic_rstate_destroy(ce->rs, ce->plan);
  ic_plan_destroy(ce->plan);
  free(ce->names);
  memset(ce, 0, sizeof *ce);
}

void ic_cache_clear(ic_executor *e) {
  for (size_t i = 0; i < e->n_entries; i++) entry_free(&e->entries[i]);
  e->n_entries = 0;
  e->last_plan = NULL;
  e->last_rs = NULL;
}

ic_status ic_cache_get(ic_executor *e, const ic_program *p, size_t n_feeds,
                       const char *const *feed_names, size_t n_fetches,
                       const char *const *fetch_names, ic_cache_entry **entry, ic_err *err) {
  size_t len;
  char place[32];
  ic_place_name(e->opt.device, place, sizeof place);
  char *names = names_blob(n_feeds, feed_names, n_fetches, fetch_names, place, &len);
  if (!names) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  XXH64_hash_t seed = p->hash;
  uint64_t key = XXH64(names, len, seed);
  for (size_t i = 0; i < e->n_entries; i++) {
    ic_cache_entry *ce = &e->entries[i];
    if (ce->key == key && ce->prog_hash == p->hash && ce->prog_size == p->size &&
        ce->names_len == len && memcmp(ce->names, names, len) == 0) {
      free(names);
      ce->last_used = ++e->clock;
      e->hits++;
      *entry = ce;
      return IC_OK;
    }
  }
  e->misses++;
  ic_plan *plan;
  ic_plan_options po = {.gc = e->opt.gc, .sequential = e->opt.sequential, .device = e->dev,
                        .streams = e->opt.cuda_graph ? IC_STREAMS_SINGLE : e->opt.streams,
                        .fuse = e->opt.fuse, .plain_layout = e->plain_layout};
  ic_status st = ic_plan_build(p, n_feeds, feed_names, n_fetches, fetch_names, &po, &plan, err);
  if (st) {
    free(names);
    return st;
  }
  e->last_analysis_ms = plan->stats.analysis_ms;
  ic_cache_entry *slot;
  if (e->n_entries < (size_t)e->opt.cache_capacity) {
    slot = &e->entries[e->n_entries++];
  } else {
    slot = &e->entries[0];
    for (size_t i = 1; i < e->n_entries; i++) {
      if (e->entries[i].last_used < slot->last_used) slot = &e->entries[i];
    }
    if (e->last_plan == slot->plan) {
      e->last_plan = NULL;
      e->last_rs = NULL;
    }
    entry_free(slot);
  }
  *slot = (ic_cache_entry){.key = key, .names = names, .names_len = len, .prog_hash = p->hash,
                           .prog_size = p->size, .plan = plan, .last_used = ++e->clock};
  *entry = slot;
  return IC_OK;
}
