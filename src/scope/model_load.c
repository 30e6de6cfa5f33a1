/* Model loading (ic_model_load): where a model's program and parameters are (a directory with
 * __model__ and __params__ or one file per parameter, X.pdmodel / X.json with X.pdiparams, or
 * paths given by the caller), then the program and its parameters. */
#include <stdlib.h>
#include <string.h>

#include "scope/params.h"
#include "scope/scope.h"

/* ---------------------------------------------------------------------------------------
 * Model loading
 * ------------------------------------------------------------------------------------- */

static char *str_concat(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  char *s = malloc(na + nb + 1);
  if (!s) return NULL;
  memcpy(s, a, na);
  memcpy(s + na, b, nb + 1);
  return s;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Where a model's program and parameters are. Owned strings. */
typedef struct model_paths {
  char *model;             /* the ProgramDesc file */
  char *params;            /* parameter file or directory */
  ic_params_format fmt;
  bool params_explicit;    /* given by the caller */
} model_paths;

static ic_status resolve_model(const char *path, const char *params_path, model_paths *m,
                               ic_err *err) {
  memset(m, 0, sizeof *m);
  if (!ic_path_exists(path)) {
    return ic_err_set(err, IC_ERR_NOT_FOUND, "%s: no such model file or directory", path);
  }
  char *dir = NULL;
  if (ic_path_is_dir(path)) {
    dir = str_concat(path, "");
  } else if (strcmp(path, "__model__") == 0 || ends_with(path, "/__model__")) {
    dir = str_concat(path, "");
    if (dir) dir[strlen(dir) - strlen("__model__")] = '\0';
    if (dir && !dir[0]) {
      free(dir);
      dir = str_concat(".", "");
    }
  }
  if (dir) {
    m->model = str_concat(dir, ends_with(dir, "/") ? "__model__" : "/__model__");
    char *combined = str_concat(dir, ends_with(dir, "/") ? "__params__" : "/__params__");
    if (combined && ic_path_exists(combined)) {
      m->params = combined;
      m->fmt = IC_PARAMS_COMBINED;
    } else {
      free(combined);
      m->params = str_concat(dir, "");
      m->fmt = IC_PARAMS_SEPARATE;
    }
    free(dir);
  } else {
    m->model = str_concat(path, "");
    /* X.pdmodel or X.json -> X.pdiparams, as paddle.static.save_inference_model and
     * paddle.jit.save name them (Paddle 3 writes X.json by default) */
    char *base = str_concat(path, "");
    if (base && ends_with(base, ".pdmodel")) base[strlen(base) - strlen(".pdmodel")] = '\0';
    else if (base && ends_with(base, ".json")) base[strlen(base) - strlen(".json")] = '\0';
    m->params = base ? str_concat(base, ".pdiparams") : NULL;
    free(base);
    m->fmt = IC_PARAMS_COMBINED;
  }
  if (params_path) {
    free(m->params);
    m->params = str_concat(params_path, "");
    m->fmt = IC_PARAMS_AUTO;
    m->params_explicit = true;
  }
  if (!m->model || !m->params) {
    free(m->model);
    free(m->params);
    return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  }
  return IC_OK;
}

static ic_status load_model(const char *path, const char *params_path, unsigned flags,
                            ic_program **prog, ic_scope **params, ic_err *err) {
  model_paths m;
  ic_program *p = NULL;
  ic_scope *s = NULL;
  ic_status st = resolve_model(path, params_path, &m, err);
  if (st) return st;
  if ((st = ic_program_from_file(m.model, &p, err->msg, sizeof err->msg))) {
    err->code = st;
    goto done;
  }
  if ((st = ic_scope_create(NULL, &s))) {
    st = ic_err_set(err, st, "out of memory");
    goto done;
  }
  if (flags & IC_LOAD_NO_PARAMS) goto done;
  const ic_vardesc **vars;
  size_t n;
  if ((st = ic_params_list(p, &vars, &n, err))) goto done;
  free(vars);
  if (!m.params_explicit && m.fmt == IC_PARAMS_COMBINED && !ic_path_exists(m.params)) {
    if (n) {
      st = ic_err_set(err, IC_ERR_NOT_FOUND,
                      "%s: the program has %zu parameters, but their file %s does not exist "
                      "(give the parameter path, or load the program only)",
                      m.model, n, m.params);
    }
    goto done;
  }
  if (!m.params_explicit && m.fmt == IC_PARAMS_SEPARATE && n == 0) goto done;
  st = ic_params_load_err(p, m.params, m.fmt, s, err);
done:
  if (st) {
    ic_scope_destroy(s);
    ic_program_destroy(p);
    s = NULL;
    p = NULL;
  }
  *prog = p;
  *params = s;
  free(m.model);
  free(m.params);
  return st;
}
ic_status ic_model_load(const char *path, const char *params_path, unsigned flags,
                        ic_program **prog, ic_scope **params, char *errbuf, size_t errlen) {
  if (prog) *prog = NULL;
  if (params) *params = NULL;
  if (!path || !prog || !params) return ic_api_null_arg("ic_model_load", errbuf, errlen);
  ic_err err;
  ic_err_clear(&err);
  return ic_api_finish(load_model(path, params_path, flags, prog, params, &err), &err, errbuf,
                       errlen);
}
