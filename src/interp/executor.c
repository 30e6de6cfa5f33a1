/* The public executor: options, creation, and run dispatch to the compiled or uncompiled
 * executor. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gc/alloc.h"
#include "analysis/streams.h"
#include "interp/cpuload.h"
#include "interp/ompwait.h"
#include "interp/run.h"
#include "kernels/cpu/philox.h"

/* Cached free buffers are bounded so an executor never hoards more than this. */
#define IC_MAX_CACHED_BYTES ((size_t)1 << 30)

void ic_options_default(ic_options *o) {
  memset(o, 0, sizeof *o);
  o->mode = IC_MODE_COMPILED;
  o->gc = true;
  o->cache_capacity = 8;
  o->fuse = true;
  o->device = (ic_place){IC_PLACE_CPU, 0};
  o->streams = IC_STREAMS_PER_OPERATOR;
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
  if (!st) st = env_bool("ICORE_PROFILE", &o->profile, &err);
  if (!st) st = env_bool("ICORE_CUDA_GRAPH", &o->cuda_graph, &err);
  if (!st) st = env_bool("ICORE_WINOGRAD", &o->winograd, &err);
  if (!st) st = env_bool("ICORE_PRUNE", &o->prune, &err);
  const char *dev = getenv("ICORE_DEVICE");
  if (!st && dev && ic_place_parse(dev, &o->device)) {
    st = ic_err_set(&err, IC_ERR_INVALID_ARGUMENT, "ICORE_DEVICE='%s': expected cpu, cuda:N or emu:N",
                    dev);
  }
  const char *streams = getenv("ICORE_STREAMS");
  if (!st && streams && !ic_stream_policy_parse(streams, &o->streams)) {
    st = ic_err_set(&err, IC_ERR_INVALID_ARGUMENT,
                    "ICORE_STREAMS='%s': expected single, per-backend or per-operator", streams);
  }
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
  /* ICORE_ALLOC=system bypasses the caching allocator (sanitizer runs: a use after free is
   * then reported as one instead of reading a recycled buffer). */
  const char *alloc = getenv("ICORE_ALLOC");
  if (alloc && strcmp(alloc, "system") != 0 && strcmp(alloc, "caching") != 0) {
    return IC_ERR_INVALID_ARGUMENT;
  }
  ic_executor *e = calloc(1, sizeof *e);
  if (!e) return IC_ERR_OUT_OF_MEMORY;
  e->opt = *o;
  e->alloc = alloc && !strcmp(alloc, "system") ? ic_allocator_plain()
                                                : ic_allocator_caching(IC_MAX_CACHED_BYTES);
  if (!e->alloc) {
    free(e);
    return IC_ERR_OUT_OF_MEMORY;
  }
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (cores < 1) cores = 1;
  int total = o->threads > 0 ? o->threads : (int)cores;
  e->n_threads = o->serial || o->mode == IC_MODE_UNCOMPILED ? 1 : total;
  /* Kernels may use the threads the pool leaves idle, and no more: a serial executor's
   * kernels get them all, a pool of `total` threads runs single-threaded kernels. */
  int intra = total / e->n_threads;
  e->total_threads = total;
  e->env = (ic_kenv){.alloc = e->alloc, .seed = o->seed, .intra_threads = intra < 1 ? 1 : intra};
  pthread_mutex_init(&e->lock, NULL);
  pthread_mutex_init(&e->dev_lock, NULL);
  atomic_init(&e->pool_busy, false);
  atomic_init(&e->n_runs, 0);
  e->entries = calloc((size_t)o->cache_capacity, sizeof *e->entries);
  ic_status st = e->entries ? IC_OK : IC_ERR_OUT_OF_MEMORY;
  /* The device itself is opened at the first run, whose error message can say what went
   * wrong (no GPU, a build without CUDA); the pool gets its launch and copy threads now. */
  bool device = o->device.kind != IC_PLACE_CPU && o->mode == IC_MODE_COMPILED;
  if (!st && (e->n_threads > 1 || device) && !o->serial && o->mode == IC_MODE_COMPILED) {
    st = ic_pool_create(e->n_threads > 1 ? e->n_threads - 1 : 0, device, &e->env, &e->pool);
  }
  /* Kernels may run OpenMP teams of up to `total` threads: size them to the cores other
   * processes leave free (cpuload.c), or, where that cannot be measured, keep OpenMP's
   * waits short (ompwait.c). */
  if (!st) st = ic_cpuload_create(total, &e->load);
  if (!st && !e->load) st = ic_omp_ballast_start(total, &e->omp_ballast);
  if (st) {
    ic_executor_destroy(e);
    return st;
  }
  e->fail_at = -1;
  e->quick_ns = IC_QUICK_NS;
  *out = e;
  return IC_OK;
}

void ic_executor_inject_failure(ic_executor *e, long index) { e->fail_at = index; }
bool ic_executor_inject_load(ic_executor *e, int others_milli) {
  ic_cpuload_inject(e->load, others_milli);
  return e->load != NULL;
}
void ic_executor_emu_testing(ic_executor *e, int max_delay_us, bool poison, uint64_t seed) {
  e->has_emu_options = true;
  e->emu.max_delay_us = max_delay_us;
  e->emu.poison = poison;
  e->emu.seed = seed;
}

void ic_executor_break_sync(ic_executor *e, bool no_events, bool no_gc_events) {
  e->no_events = no_events;
  e->no_gc_events = no_gc_events;
}
void ic_executor_plain_layout(ic_executor *e, bool on) { e->plain_layout = on; }

void ic_executor_no_joins(ic_executor *e, bool on) { e->no_joins = on; }

size_t ic_executor_last_joined(const ic_executor *e) {
  return e->last_rs ? atomic_load_explicit(&e->last_rs->n_joined, memory_order_relaxed) : 0;
}
void ic_executor_poison_freed(ic_executor *e, bool on) { ic_allocator_set_poison(e->alloc, on); }
const ic_plan *ic_executor_last_plan(const ic_executor *e) { return e->last_plan; }

void ic_executor_destroy(ic_executor *e) {
  if (!e) return;
  ic_pool_destroy(e->pool);
  ic_omp_ballast_stop(e->omp_ballast);
  ic_cpuload_free(e->load);
  if (e->entries) ic_cache_clear(e);
  if (e->dev) {
    ic_err err;
    ic_sync_streams(e, e->n_dstreams, &err);
    for (uint32_t k = 0; k < e->n_dstreams; k++) ic_allocator_destroy(e->dallocs[k]);
    ic_allocator_destroy(e->pinned);
    for (uint32_t k = 0; k < e->n_dstreams; k++) e->dev->v->stream_destroy(e->dstreams[k]);
    e->dev->v->destroy(e->dev);
  }
  free(e->dstreams);
  free(e->dallocs);
  free(e->entries);
  free(e->spans);
  ic_allocator_destroy(e->alloc);
  pthread_mutex_destroy(&e->lock);
  pthread_mutex_destroy(&e->dev_lock);
  free(e);
}

void ic_executor_cache_stats(const ic_executor *e, uint64_t *hits, uint64_t *misses) {
  uint64_t h = 0, m = 0;
  if (e) {
    pthread_mutex_t *lock = (pthread_mutex_t *)&e->lock; /* the counters, not the handle */
    pthread_mutex_lock(lock);
    h = e->hits;
    m = e->misses;
    pthread_mutex_unlock(lock);
  }
  if (hits) *hits = h;
  if (misses) *misses = m;
}

void ic_executor_memory_stats(const ic_executor *e, ic_memory_stats *out) {
  ic_alloc_stats s;
  ic_allocator_stats(e->alloc, &s);
  *out = (ic_memory_stats){.live_bytes = s.live_bytes, .peak_bytes = s.peak_bytes,
                           .cached_bytes = s.cached_bytes, .system_allocs = s.system_allocs};
}

void ic_executor_reset_peak(ic_executor *e) { ic_allocator_reset_peak(e->alloc); }

/* The calling thread's last failed call on an executor: errno's way, so that threads sharing
 * an executor each read their own message. The one piece of per-thread state in icore. */
static _Thread_local struct {
  const ic_executor *e;
  ic_err err;
} t_last;

/* Record the outcome of a call on e for ic_executor_errmsg; returns st. */
static ic_status record(const ic_executor *e, ic_status st, const ic_err *err) {
  if (st) {
    t_last.e = e;
    t_last.err = *err;
    if (!t_last.err.code) t_last.err.code = st;
  } else if (t_last.e == e) {
    t_last.e = NULL;
    ic_err_clear(&t_last.err);
  }
  return st;
}

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
    else fputc(*s, f);
  }
  fputc('"', f);
}

static ic_status write_profile(ic_executor *e, const char *path, ic_err *err) {
  if (!e->last_plan || !e->spans) {
    return ic_err_set(err, IC_ERR_INVALID_ARGUMENT,
                      "no profile: run a compiled program with options.profile on first");
  }
  FILE *f = fopen(path, "w");
  if (!f) return ic_err_set(err, IC_ERR_IO, "%s: cannot open for writing", path);
  const ic_plan *p = e->last_plan;
  uint64_t t0 = e->analysis_t0 ? e->analysis_t0 : e->profile_t0;
  fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  fprintf(f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
             "\"args\":{\"name\":\"caller\"}}");
  for (int t = 1; t < e->n_threads; t++) {
    fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
               "\"args\":{\"name\":\"worker %d\"}}", t, t);
  }
  if (e->analysis_t0) {
    fprintf(f, ",\n{\"name\":\"analysis\",\"cat\":\"analysis\",\"ph\":\"X\",\"pid\":1,"
               "\"tid\":0,\"ts\":%.3f,\"dur\":%.3f}",
            0.0, (e->analysis_t1 - e->analysis_t0) / 1e3);
  }
  for (size_t i = 0; i < e->n_spans && i < p->n_instrs; i++) {
    const ic_span *s = &e->spans[i];
    if (!s->end_ns) continue;
    char where[160];
    fprintf(f, ",\n{\"name\":");
    json_string(f, p->instrs[i].op->type);
    fprintf(f, ",\"cat\":\"op\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f,"
               "\"args\":{\"instr\":%zu,\"threads\":%u,\"op\":",
            s->thread, (s->start_ns - t0) / 1e3, (s->end_ns - s->start_ns) / 1e3, i, s->threads);
    json_string(f, ic_op_where(p->instrs[i].op, where, sizeof where));
    fprintf(f, "}}");
  }
  fprintf(f, "\n]}\n");
  if (fclose(f) != 0) return ic_err_set(err, IC_ERR_IO, "%s: write failed", path);
  return IC_OK;
}

ic_status ic_executor_write_profile(ic_executor *e, const char *path) {
  if (!e || !path) return IC_ERR_INVALID_ARGUMENT;
  ic_err err;
  ic_err_clear(&err);
  pthread_mutex_lock(&e->lock);
  ic_status st = write_profile(e, path, &err);
  pthread_mutex_unlock(&e->lock);
  return record(e, st, &err);
}

const char *ic_executor_errmsg(const ic_executor *e) {
  if (!e) return "NULL executor";
  return t_last.e == e ? t_last.err.msg : "";
}

static ic_status run(ic_executor *e, const ic_program *p, ic_scope *scope, size_t n_feeds,
                     const char *const *feed_names, const ic_tensor *const *feeds,
                     size_t n_fetches, const char *const *fetch_names, ic_tensor **fetches,
                     ic_err *err);

uint64_t ic_executor_run_seed(ic_executor *e) {
  uint64_t k = atomic_fetch_add(&e->n_runs, 1);
  return k ? ic_philox_mix(e->env.seed ^ ic_philox_mix(k)) : e->env.seed;
}

ic_status ic_executor_run(ic_executor *e, const ic_program *p, ic_scope *scope,
                          size_t n_feeds, const char *const *feed_names,
                          const ic_tensor *const *feeds, size_t n_fetches,
                          const char *const *fetch_names, ic_tensor **fetches) {
  if (!e) return IC_ERR_INVALID_ARGUMENT;
  ic_err err;
  ic_err_clear(&err);
  if (fetches) {
    for (size_t i = 0; i < n_fetches; i++) fetches[i] = NULL;
  }
  /* A device executor runs one run at a time: its streams and device memory are shared. */
  bool device = e->opt.mode == IC_MODE_COMPILED && e->opt.device.kind != IC_PLACE_CPU;
  if (device) pthread_mutex_lock(&e->dev_lock);
  ic_cpuload_enter();
  ic_status st = run(e, p, scope, n_feeds, feed_names, feeds, n_fetches, fetch_names, fetches,
                     &err);
  ic_cpuload_leave();
  if (device) pthread_mutex_unlock(&e->dev_lock);
  return record(e, st, &err);
}

static ic_status run(ic_executor *e, const ic_program *p, ic_scope *scope, size_t n_feeds,
                     const char *const *feed_names, const ic_tensor *const *feeds,
                     size_t n_fetches, const char *const *fetch_names, ic_tensor **fetches,
                     ic_err *err) {
  if (!p || (n_feeds && (!feed_names || !feeds)) || (n_fetches && (!fetch_names || !fetches))) {
    return ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "ic_executor_run: NULL argument");
  }
  for (size_t i = 0; i < n_feeds; i++) {
    if (!feed_names[i]) return ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "feed name %zu is NULL", i);
  }
  for (size_t i = 0; i < n_fetches; i++) {
    if (!fetch_names[i]) return ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "fetch name %zu is NULL", i);
  }
  /* Drawn here, before anything can fail, so that every mode numbers runs alike. */
  uint64_t seed = ic_executor_run_seed(e);
  if (e->opt.mode == IC_MODE_COMPILED) {
    if (e->opt.device.kind != IC_PLACE_CPU && !e->dev) {
      ic_status st;
      if (e->opt.device.kind == IC_PLACE_EMULATED && e->has_emu_options) {
        ic_emu_options eo = {.max_delay_us = e->emu.max_delay_us, .poison = e->emu.poison,
                             .seed = e->emu.seed};
        st = ic_emu_open(e->opt.device.index, &eo, &e->dev, err);
      } else {
        st = ic_device_open(e->opt.device, &e->dev, err);
      }
      if (st) return st;
    }
    return ic_run_compiled(e, p, scope, n_feeds, feed_names, feeds, n_fetches, fetch_names,
                           fetches, seed, err);
  }
  ic_kenv env = e->env;
  env.intra_threads = ic_cpuload_budget(e->load, env.intra_threads);
  env.seed = seed;
  ic_uncompiled_args a = {.prog = p, .scope = scope, .n_feeds = n_feeds,
                          .feed_names = feed_names, .feeds = feeds, .n_fetches = n_fetches,
                          .fetch_names = fetch_names, .fetches = fetches, .opt = &e->opt,
                          .env = &env, .fail_at = e->fail_at};
  return ic_run_uncompiled(&a, err);
}
