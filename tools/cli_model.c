/* Model loading, feeds, fetches and executor options shared by run, bench and inspect. */
#include "cli_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/streams.h"
#include "npy.h"
#include "program/program.h"
#include "scope/tensor.h"

const char *cli_var_desc(const ic_program *p, const char *name, char *buf, size_t len) {
  const ic_vardesc *v = ic_program_find_var(p, 0, name);
  char dims[160];
  if (!v || !v->is_tensor) snprintf(buf, len, "(not a tensor)");
  else snprintf(buf, len, "%s%s", ic_dtype_name(v->dtype), ic_dims_str(v->ndim, v->dims, dims, sizeof dims));
  return buf;
}

static bool add_feed(cli_model *m, const char *spec, const char *opt, char **name_out) {
  const char *eq = strchr(spec, '=');
  if (!eq || eq == spec || !eq[1]) {
    cli_error(CLI_USAGE, "%s '%s': expected NAME=%s", opt, spec,
              strcmp(opt, "--feed") ? "D0,D1,..." : "FILE.npy");
    return false;
  }
  char *name = strndup(spec, (size_t)(eq - spec));
  if (!name) {
    cli_error(CLI_FAIL, "out of memory");
    return false;
  }
  m->name_bufs[m->n_feeds] = name;
  m->feed_names[m->n_feeds++] = name;
  for (size_t j = 0; j + 1 < m->n_feeds; j++) {
    if (strcmp(m->feed_names[j], name) == 0) {
      cli_error(CLI_USAGE, "feed '%s' is given twice", name);
      return false;
    }
  }
  *name_out = name;
  return true;
}

/* Deterministic values in [-1, 1) of the variable's declared dtype and the given dims. */
static int random_feed(cli_model *m, const char *name, const char *dims_s, ic_tensor **out) {
  const ic_vardesc *v = ic_program_find_var(m->prog, 0, name);
  if (!v || !v->is_tensor) {
    return cli_error(CLI_USAGE, "--random-feed %s: the program declares no tensor of that name", name);
  }
  int64_t dims[IC_MAX_RANK];
  int nd = 0;
  for (const char *c = dims_s; *c;) {
    char *end;
    long long d = strtoll(c, &end, 10);
    if (end == c || d < 0 || nd == IC_MAX_RANK || (*end && *end != ',' && *end != 'x')) {
      return cli_error(CLI_USAGE, "--random-feed %s=%s: expected dims like 1,3,224,224", name, dims_s);
    }
    dims[nd++] = d;
    c = *end ? end + 1 : end;
  }
  if (ic_tensor_create(v->dtype, nd, dims, out)) {
    return cli_error(CLI_FAIL, "--random-feed %s: cannot make a %s tensor of %s", name,
                     ic_dtype_name(v->dtype), dims_s);
  }
  uint64_t s = 0x9E3779B97F4A7C15ull ^ ic_tensor_nbytes(*out);
  int64_t n = ic_tensor_numel(*out);
  void *d = ic_tensor_data(*out);
  for (int64_t i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    double u = (double)(s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
    switch (v->dtype) {
      case IC_FP32: ((float *)d)[i] = (float)u; break;
      case IC_FP64: ((double *)d)[i] = u; break;
      case IC_INT32: ((int32_t *)d)[i] = (int32_t)(s % 7); break;
      case IC_INT64: ((int64_t *)d)[i] = (int64_t)(s % 7); break;
      default: break; /* zeros */
    }
  }
  return CLI_OK;
}

/* Parse every --lod NAME=LEVELS and set the LoD of those feeds (each flag adds its levels
 * after the ones already given for NAME). */
static int apply_lods(cli_model *m, const cli_args *a) {
  size_t n;
  const char *const *specs = cli_all(a, "--lod", &n);
  for (size_t i = 0; i < m->n_feeds; i++) {
    size_t n_levels = 0, lens[16];
    uint64_t *levels[16];
    int rc = CLI_OK;
    for (size_t k = 0; k < n && !rc; k++) {
      const char *eq = strchr(specs[k], '=');
      if (!eq || eq == specs[k] || !eq[1]) {
        return cli_error(CLI_USAGE, "--lod '%s': expected NAME=0,3,7", specs[k]);
      }
      if (strlen(m->feed_names[i]) != (size_t)(eq - specs[k]) ||
          strncmp(specs[k], m->feed_names[i], (size_t)(eq - specs[k]))) {
        continue;
      }
      for (const char *c = eq + 1; *c && !rc;) {
        if (n_levels == 16) {
          rc = cli_error(CLI_USAGE, "--lod %s: more than 16 levels", m->feed_names[i]);
          break;
        }
        size_t cap = strlen(c) / 2 + 2, len = 0;
        uint64_t *o = malloc(cap * sizeof *o);
        if (!o) return cli_error(CLI_FAIL, "out of memory");
        levels[n_levels] = o;
        lens[n_levels++] = 0;
        for (;;) {
          char *end;
          long long v = strtoll(c, &end, 10);
          if (end == c || v < 0 || len == cap || (*end && *end != ',' && *end != ';')) {
            rc = cli_error(CLI_USAGE, "--lod %s: expected offsets like 0,3,7 (levels separated by "
                           "';'), got '%s'", m->feed_names[i], eq + 1);
            break;
          }
          o[len++] = (uint64_t)v;
          lens[n_levels - 1] = len;
          c = end;
          if (*c == ',') c++;
          if (*c == ';' || !*c) break;
        }
        if (*c == ';') c++;
      }
    }
    if (!rc && n_levels) {
      ic_lod lod = {.n_levels = n_levels, .lens = lens, .offsets = levels};
      char why[160], s[200];
      const ic_tensor *t = m->feeds[i];
      if (!ic_lod_valid(&lod, t->ndim ? t->dims[0] : 1, why, sizeof why)) {
        rc = cli_error(CLI_USAGE, "--lod %s=%s: %s (the feed has %lld rows)", m->feed_names[i],
                       ic_lod_str(&lod, s, sizeof s), why, (long long)(t->ndim ? t->dims[0] : 1));
      } else if (ic_tensor_set_lod(m->feeds[i], n_levels, lens, (const uint64_t *const *)levels)) {
        rc = cli_error(CLI_FAIL, "out of memory");
      }
    }
    for (size_t l = 0; l < n_levels; l++) free(levels[l]);
    if (rc) return rc;
  }
  for (size_t k = 0; k < n; k++) {
    const char *eq = strchr(specs[k], '=');
    bool fed = false;
    for (size_t i = 0; eq && i < m->n_feeds && !fed; i++) {
      fed = strlen(m->feed_names[i]) == (size_t)(eq - specs[k]) &&
            strncmp(specs[k], m->feed_names[i], (size_t)(eq - specs[k])) == 0;
    }
    if (!fed) {
      return cli_error(CLI_USAGE, "--lod '%s': no --feed or --random-feed of that name", specs[k]);
    }
  }
  return CLI_OK;
}

int cli_model_open(const cli_args *a, bool need_feeds, cli_model *m) {
  memset(m, 0, sizeof *m);
  long long seed = -1;
  const char *rp = cli_get(a, "--random-params");
  if (rp && !cli_int("--random-params", rp, 0, INT64_MAX, &seed)) return CLI_USAGE;
  if (rp && cli_get(a, "--params")) {
    return cli_error(CLI_USAGE, "--params and --random-params exclude each other");
  }
  char err[1024];
  if (ic_model_load(a->pos[0], cli_get(a, "--params"), rp ? IC_LOAD_NO_PARAMS : 0, &m->prog,
                    &m->scope, err, sizeof err)) {
    return cli_error(CLI_FAIL, "%s", err);
  }
  if (rp && ic_params_random(m->prog, (uint64_t)seed, m->scope, err, sizeof err)) {
    return cli_error(CLI_FAIL, "%s", err);
  }
  size_t nf, nr;
  const char *const *files = cli_all(a, "--feed", &nf);
  const char *const *rands = cli_all(a, "--random-feed", &nr);
  m->feed_names = calloc(nf + nr + 1, sizeof *m->feed_names);
  m->name_bufs = calloc(nf + nr + 1, sizeof *m->name_bufs);
  m->feeds = calloc(nf + nr + 1, sizeof *m->feeds);
  if (!m->feed_names || !m->name_bufs || !m->feeds) return cli_error(CLI_FAIL, "out of memory");
  for (size_t i = 0; i < nf + nr; i++) {
    char *name;
    bool file = i < nf;
    const char *spec = file ? files[i] : rands[i - nf];
    if (!add_feed(m, spec, file ? "--feed" : "--random-feed", &name)) return CLI_USAGE;
    const char *value = strchr(spec, '=') + 1;
    if (file && ic_npy_load(value, &m->feeds[m->n_feeds - 1], err, sizeof err)) {
      return cli_error(CLI_FAIL, "feed '%s': %s", name, err);
    }
    if (!file) {
      int rc = random_feed(m, name, value, &m->feeds[m->n_feeds - 1]);
      if (rc) return rc;
    }
  }
  int lrc = apply_lods(m, a);
  if (lrc) return lrc;
  for (size_t t = 0; need_feeds && t < ic_program_n_feed_targets(m->prog); t++) {
    const char *target = ic_program_feed_target(m->prog, t);
    bool given = false;
    for (size_t i = 0; i < m->n_feeds && !given; i++) given = strcmp(m->feed_names[i], target) == 0;
    if (!given) {
      char d[200];
      return cli_error(CLI_USAGE,
                       "feed target '%s' (%s) is not given; pass --feed %s=FILE.npy or "
                       "--random-feed %s=DIMS",
                       target, cli_var_desc(m->prog, target, d, sizeof d), target, target);
    }
  }
  size_t n_fetch;
  const char *const *given = cli_all(a, "--fetch", &n_fetch);
  if (!n_fetch) n_fetch = ic_program_n_fetch_targets(m->prog);
  if (!n_fetch) {
    return cli_error(CLI_USAGE, "the program has no fetch targets; name one with --fetch NAME");
  }
  m->fetch_names = calloc(n_fetch, sizeof *m->fetch_names);
  if (!m->fetch_names) return cli_error(CLI_FAIL, "out of memory");
  for (size_t i = 0; i < n_fetch; i++) {
    m->fetch_names[i] = given ? given[i] : ic_program_fetch_target(m->prog, i);
  }
  m->n_fetches = n_fetch;
  return CLI_OK;
}

void cli_model_close(cli_model *m) {
  for (size_t i = 0; i < m->n_feeds; i++) {
    free(m->name_bufs[i]);
    ic_tensor_destroy(m->feeds[i]);
  }
  free(m->feed_names);
  free(m->name_bufs);
  free(m->feeds);
  free(m->fetch_names);
  ic_scope_destroy(m->scope);
  ic_program_destroy(m->prog);
  memset(m, 0, sizeof *m);
}

int cli_exec_options(const cli_args *a, ic_options *o) {
  char err[1024];
  long long v;
  ic_options_default(o);
  if (ic_options_from_env(o, err, sizeof err)) return cli_error(CLI_USAGE, "%s", err);
  const char *mode = cli_get(a, "--mode");
  if (mode && strcmp(mode, "compiled") == 0) o->mode = IC_MODE_COMPILED;
  else if (mode && strcmp(mode, "uncompiled") == 0) o->mode = IC_MODE_UNCOMPILED;
  else if (mode) return cli_error(CLI_USAGE, "--mode '%s': expected compiled or uncompiled", mode);
  const char *threads = cli_get(a, "--threads");
  if (threads) {
    if (!cli_int("--threads", threads, 0, 1024, &v)) return CLI_USAGE;
    o->threads = (int)v;
  }
  if (cli_get(a, "--no-fuse")) o->fuse = false;
  if (cli_get(a, "--cuda-graph")) o->cuda_graph = true;
  if (cli_get(a, "--winograd")) o->winograd = true;
  if (cli_get(a, "--prune")) o->prune = true;
  const char *dev = cli_get(a, "--device");
  if (dev && ic_place_parse(dev, &o->device)) {
    return cli_error(CLI_USAGE, "--device '%s': expected cpu, cuda:N or emu:N", dev);
  }
  const char *st = cli_get(a, "--streams");
  if (st && !ic_stream_policy_parse(st, &o->streams)) {
    return cli_error(CLI_USAGE, "--streams '%s': expected single, per-backend or per-operator", st);
  }
  return CLI_OK;
}
