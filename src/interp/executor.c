/* The public executor: options, creation, and run dispatch to the compiled or uncompiled
 * executor. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gc/alloc.h"
#include "interp/interp.h"

/* Cached free buffers are bounded so an executor never hoards more than this. */
#define IC_MAX_CACHED_BYTES ((size_t)1 << 30)

struct ic_executor {
  ic_options opt;
  ic_allocator *alloc;  /* caching allocator for every run's buffers */
  ic_kenv env;          /* kernel environment of the calling thread */
  ic_err err;           /* last error */
};

void ic_options_default(ic_options *o) {
  memset(o, 0, sizeof *o);
  o->mode = IC_MODE_COMPILED;
  o->gc = true;
  o->cache_capacity = 8;
  o->fuse = true;
}

static ic_status env_bool(const char *name, bool *out, ic_err *err) {
  const char *v = getenv(name);
  if (!v) return IC_OK;
  if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "yes")) {
    *out = true;
  } else if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "no")) {
    *out = false;
  } else {
    return ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "%s='%s': expected 1/0, true/false, on/off",
                      name, v);
  }
  return IC_OK;
}

static ic_status env_int(const char *name, long long lo, long long hi, long long *out,
                         ic_err *err) {
  const char *v = getenv(name);
  if (!v) return IC_OK;
  char *end;
  errno = 0;
  long long x = strtoll(v, &end, 10);
  if (errno || end == v || *end || x < lo || x > hi) {
    return ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "%s='%s': expected an integer in [%lld, %lld]",
                      name, v, lo, hi);
  }
  *out = x;
  return IC_OK;
}

ic_status ic_options_from_env(ic_options *o, char *errbuf, size_t errlen) {
  ic_err err;
  ic_err_clear(&err);
  ic_status st = IC_OK;
  long long x;
  const char *mode = getenv("ICORE_MODE");
  if (mode) {
    if (!strcmp(mode, "compiled")) o->mode = IC_MODE_COMPILED;
    else if (!strcmp(mode, "uncompiled")) o->mode = IC_MODE_UNCOMPILED;
    else st = ic_err_set(&err, IC_ERR_INVALID_ARGUMENT,
                         "ICORE_MODE='%s': expected compiled or uncompiled", mode);
  }
  x = o->threads;
  if (!st && !(st = env_int("ICORE_THREADS", 0, 1024, &x, &err))) o->threads = (int)x;
  x = o->cache_capacity;
  if (!st && !(st = env_int("ICORE_CACHE_CAPACITY", 1, 1 << 20, &x, &err))) {
    o->cache_capacity = (int)x;
  }
  x = (long long)o->seed;
  if (!st && !(st = env_int("ICORE_SEED", 0, INT64_MAX, &x, &err))) o->seed = (uint64_t)x;
  if (!st) st = env_bool("ICORE_SERIAL", &o->serial, &err);
  if (!st) st = env_bool("ICORE_SEQUENTIAL", &o->sequential, &err);
  if (!st) st = env_bool("ICORE_GC", &o->gc, &err);
  if (!st) st = env_bool("ICORE_CHECK_NAN_INF", &o->check_nan_inf, &err);
  if (!st) st = env_bool("ICORE_SYNC_AFTER_OP", &o->sync_after_op, &err);
  if (!st) st = env_bool("ICORE_FUSE", &o->fuse, &err);
  if (st) ic_err_out(&err, errbuf, errlen);
  return st;
}

ic_status ic_executor_create(const ic_options *o, ic_executor **out) {
  if (!out) return IC_ERR_INVALID_ARGUMENT;
  *out = NULL;
  ic_options def;
  ic_options_default(&def);
  if (!o) o = &def;
  if (o->threads < 0 || o->cache_capacity < 1 ||
      (o->mode != IC_MODE_COMPILED && o->mode != IC_MODE_UNCOMPILED)) {
    return IC_ERR_INVALID_ARGUMENT;
  }
  ic_executor *e = calloc(1, sizeof *e);
  if (!e) return IC_ERR_OUT_OF_MEMORY;
  e->opt = *o;
  e->alloc = ic_allocator_caching(IC_MAX_CACHED_BYTES);
  if (!e->alloc) {
    free(e);
    return IC_ERR_OUT_OF_MEMORY;
  }
  e->env = (ic_kenv){.alloc = e->alloc, .seed = o->seed, .intra_threads = 1};
  ic_err_clear(&e->err);
  *out = e;
  return IC_OK;
}

void ic_executor_destroy(ic_executor *e) {
  if (!e) return;
  ic_allocator_destroy(e->alloc);
  free(e);
}

const char *ic_executor_errmsg(const ic_executor *e) { return e ? e->err.msg : "NULL executor"; }

ic_status ic_executor_run(ic_executor *e, const ic_program *p, ic_scope *scope,
                          size_t n_feeds, const char *const *feed_names,
                          const ic_tensor *const *feeds, size_t n_fetches,
                          const char *const *fetch_names, ic_tensor **fetches) {
  if (!e) return IC_ERR_INVALID_ARGUMENT;
  ic_err_clear(&e->err);
  if (fetches) {
    for (size_t i = 0; i < n_fetches; i++) fetches[i] = NULL;
  }
  if (!p || (n_feeds && (!feed_names || !feeds)) || (n_fetches && (!fetch_names || !fetches))) {
    return ic_err_set(&e->err, IC_ERR_INVALID_ARGUMENT, "ic_executor_run: NULL argument");
  }
  for (size_t i = 0; i < n_feeds; i++) {
    if (!feed_names[i]) return ic_err_set(&e->err, IC_ERR_INVALID_ARGUMENT, "feed name %zu is NULL", i);
  }
  for (size_t i = 0; i < n_fetches; i++) {
    if (!fetch_names[i]) return ic_err_set(&e->err, IC_ERR_INVALID_ARGUMENT, "fetch name %zu is NULL", i);
  }
  ic_uncompiled_args a = {.prog = p, .scope = scope, .n_feeds = n_feeds,
                          .feed_names = feed_names, .feeds = feeds, .n_fetches = n_fetches,
                          .fetch_names = fetch_names, .fetches = fetches, .opt = &e->opt,
                          .env = &e->env};
  return ic_run_uncompiled(&a, &e->err);
}
