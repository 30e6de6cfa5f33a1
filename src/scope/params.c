/* Parameter sets in Paddle's formats: which variables are parameters, and loading and saving
 * all of them as one combined file (X.pdiparams, __params__: the parameters of block 0 sorted
 * by name, one record after the other with nothing between and nothing after) or as a
 * directory with one record per file, named after its variable; single-tensor files. The
 * record format is in lodtensor_io.c, synthetic parameters in params_random.c, model loading
 * in model_load.c. */
#include "scope/params.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "scope/lodtensor_io.h"
#include "scope/scope.h"

enum { k_lod_tensor = 7 };

/* ---------------------------------------------------------------------------------------
 * Which variables are parameters
 * ------------------------------------------------------------------------------------- */

bool ic_is_param(const ic_vardesc *v) {
  return v->persistable && v->type == k_lod_tensor && v->is_tensor && v->block == 0;
}

static int vardesc_cmp(const void *a, const void *b) {
  return strcmp((*(const ic_vardesc *const *)a)->name, (*(const ic_vardesc *const *)b)->name);
}

ic_status ic_params_list(const ic_program *p, const ic_vardesc ***out, size_t *n, ic_err *err) {
  *out = NULL;
  *n = 0;
  const ic_block *b = &p->blocks[0];
  size_t k = 0;
  for (size_t i = 0; i < b->n_vars; i++) k += ic_is_param(&b->vars[i]);
  if (k == 0) return IC_OK;
  const ic_vardesc **list = malloc(k * sizeof *list);
  if (!list) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory listing parameters");
  k = 0;
  for (size_t i = 0; i < b->n_vars; i++) {
    if (ic_is_param(&b->vars[i])) list[k++] = &b->vars[i];
  }
  qsort(list, k, sizeof *list, vardesc_cmp);
  *out = list;
  *n = k;
  return IC_OK;
}

/* ---------------------------------------------------------------------------------------
 * Parameter sets
 * ------------------------------------------------------------------------------------- */

/* Store t in scope under name, taking over its storage and LoD. */
ic_status ic_params_put(ic_scope *scope, const char *name, ic_tensor *t, ic_err *err) {
  ic_variable *v = ic_scope_var(scope, name);
  if (!v) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory storing '%s'", name);
  ic_variable_clear(v);
  v->kind = IC_VK_TENSOR;
  v->tensor = *t;
  ic_tensor_init(t);
  return IC_OK;
}

/* dir + "/" + name; names that would leave the directory are refused. */
static ic_status join_path(const char *dir, const char *name, char **out, ic_err *err) {
  *out = NULL;
  bool bad = name[0] == '\0' || name[0] == '/';
  for (const char *c = name; !bad && *c;) {
    size_t n = strcspn(c, "/");
    bad = n == 2 && c[0] == '.' && c[1] == '.';
    c += n + (c[n] == '/');
  }
  if (bad) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "%s: variable '%s' cannot be stored as a file of that directory: its "
                      "name is empty, absolute or contains '..'",
                      dir, name);
  }
  size_t n = strlen(dir) + strlen(name) + 2;
  if (!(*out = malloc(n))) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  snprintf(*out, n, "%s/%s", dir, name);
  return IC_OK;
}

bool ic_path_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool ic_path_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static ic_params_format resolve_format(const char *path, ic_params_format fmt) {
  if (fmt != IC_PARAMS_AUTO) return fmt;
  return ic_path_is_dir(path) ? IC_PARAMS_SEPARATE : IC_PARAMS_COMBINED;
}

ic_status ic_params_load_err(const ic_program *p, const char *path, ic_params_format fmt,
                             ic_scope *scope, ic_err *err) {
  const ic_vardesc **vars = NULL;
  size_t n = 0, loaded = 0;
  ic_tensor *ts = NULL;
  ic_lt_src s = {0};
  ic_status st = ic_params_list(p, &vars, &n, err);
  if (st) return st;
  fmt = resolve_format(path, fmt);
  if (fmt != IC_PARAMS_COMBINED && fmt != IC_PARAMS_SEPARATE) {
    st = ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "%s: unknown parameter format %d", path,
                    (int)fmt);
    goto done;
  }
  ts = calloc(n ? n : 1, sizeof *ts);
  if (!ts) {
    st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory loading %s", path);
    goto done;
  }
  if (fmt == IC_PARAMS_COMBINED) {
    if ((st = ic_lt_open(&s, path, NULL, err))) goto done;
    for (; loaded < n; loaded++) {
      if ((st = ic_lt_read_tensor(&s, vars[loaded]->name, vars[loaded], &ts[loaded]))) goto done;
    }
    if (n == 0 && ic_lt_left(&s)) {
      st = ic_lt_fail(&s, NULL, 0, IC_ERR_INVALID_PROGRAM,
                      "%llu bytes, but the program has no parameters; the file is longer than "
                      "declared",
                      (unsigned long long)ic_lt_left(&s));
      goto done;
    }
    if (n && (st = ic_lt_expect_end(&s, vars[n - 1]->name, "the last expected variable"))) {
      goto done;
    }
  } else {
    if (!ic_path_is_dir(path)) {
      st = ic_err_set(err, ic_path_exists(path) ? IC_ERR_IO : IC_ERR_NOT_FOUND,
                      "%s: expected a directory with one file per parameter", path);
      goto done;
    }
    for (; loaded < n; loaded++) {
      char *file;
      const char *name = vars[loaded]->name;
      if ((st = join_path(path, name, &file, err))) goto done;
      st = ic_lt_open(&s, file, name, err);
      if (!st) st = ic_lt_read_tensor(&s, name, vars[loaded], &ts[loaded]);
      if (!st) st = ic_lt_expect_end(&s, name, "its tensor");
      ic_lt_close(&s);
      free(file);
      if (st) goto done;
    }
  }
  /* Only a fully read set reaches the scope, so a failed load leaves it as it was. */
  for (size_t i = 0; i < n && !st; i++) st = ic_params_put(scope, vars[i]->name, &ts[i], err);
done:
  ic_lt_close(&s);
  for (size_t i = 0; ts && i < n; i++) ic_tensor_reset(&ts[i]);
  free(ts);
  free(vars);
  return st;
}

/* The scope's tensor for parameter v, checked against the VarDesc. */
static ic_status param_tensor(const ic_scope *scope, const ic_vardesc *v, const char *path,
                              const ic_tensor **out, ic_err *err) {
  const ic_variable *var = ic_scope_find(scope, v->name);
  char got[160], exp[160];
  *out = NULL;
  if (!var || var->kind != IC_VK_TENSOR ||
      (!var->tensor.data && ic_numel(var->tensor.ndim, var->tensor.dims) != 0)) {
    return ic_err_set(err, IC_ERR_NOT_FOUND,
                      "%s: parameter '%s' has no tensor in the scope to save", path, v->name);
  }
  const ic_tensor *t = &var->tensor;
  if (!ic_lt_dtype_match((int)v->dtype, (int)t->dtype) || !ic_lt_dims_match(v, t->ndim, t->dims)) {
    return ic_err_set(err, IC_ERR_INVALID_ARGUMENT,
                      "%s: parameter '%s' is %s in the scope, the program declares %s", path,
                      v->name, ic_tensor_describe(t, got, sizeof got),
                      ic_lt_describe(v->dtype, v->ndim, v->dims, exp, sizeof exp));
  }
  *out = t;
  return IC_OK;
}

/* Create the directories of file below its first `from` bytes: a parameter named "fc/w"
 * is the file fc/w of the layout, as Paddle's save op writes it. */
static ic_status make_parents(char *file, size_t from, ic_err *err) {
  for (char *c = file + from; (c = strchr(c, '/')); c++) {
    *c = '\0';
    bool ok = mkdir(file, 0777) == 0 || errno == EEXIST;
    int e = errno;
    *c = '/';
    if (!ok) {
      *c = '\0';
      ic_err_set(err, IC_ERR_IO, "%s: cannot create the directory: %s", file, strerror(e));
      *c = '/';
      return err->code;
    }
  }
  return IC_OK;
}

ic_status ic_params_save_err(const ic_program *p, const ic_scope *scope, const char *path,
                             ic_params_format fmt, ic_err *err) {
  const ic_vardesc **vars = NULL;
  size_t n = 0;
  FILE *f = NULL;
  ic_status st = ic_params_list(p, &vars, &n, err);
  if (st) return st;
  fmt = resolve_format(path, fmt);
  /* Check every tensor before writing anything, so a bad scope leaves no partial files. */
  for (size_t i = 0; i < n && !st; i++) {
    const ic_tensor *t;
    st = param_tensor(scope, vars[i], path, &t, err);
  }
  if (st) goto done;
  if (fmt == IC_PARAMS_COMBINED) {
    if ((st = ic_lt_create(path, &f, err))) goto done;
    for (size_t i = 0; i < n && !st; i++) {
      const ic_tensor *t;
      st = param_tensor(scope, vars[i], path, &t, err);
      if (!st) st = ic_lt_write_tensor(f, path, vars[i]->name, t, err);
    }
    st = ic_lt_close_out(f, path, st, err);
  } else if (fmt == IC_PARAMS_SEPARATE) {
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
      st = ic_err_set(err, IC_ERR_IO, "%s: cannot create the directory: %s", path,
                      strerror(errno));
      goto done;
    }
    for (size_t i = 0; i < n && !st; i++) {
      const ic_tensor *t;
      char *file;
      if ((st = param_tensor(scope, vars[i], path, &t, err))) break;
      if ((st = join_path(path, vars[i]->name, &file, err))) break;
      st = make_parents(file, strlen(path) + 1, err);
      if (!st && !(st = ic_lt_create(file, &f, err))) {
        st = ic_lt_write_tensor(f, file, vars[i]->name, t, err);
        st = ic_lt_close_out(f, file, st, err);
      }
      free(file);
    }
  } else {
    st = ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "%s: unknown parameter format %d", path,
                    (int)fmt);
  }
done:
  free(vars);
  return st;
}
/* ---------------------------------------------------------------------------------------
 * Public API
 * ------------------------------------------------------------------------------------- */

ic_status ic_api_finish(ic_status st, const ic_err *err, char *buf, size_t len) {
  if (st) ic_err_out(err, buf, len);
  else if (buf && len) buf[0] = '\0';
  return st;
}

ic_status ic_api_null_arg(const char *fn, char *buf, size_t len) {
  ic_err err;
  ic_err_set(&err, IC_ERR_INVALID_ARGUMENT, "%s: NULL argument", fn);
  return ic_api_finish(err.code, &err, buf, len);
}

ic_status ic_params_load(const ic_program *p, const char *path, ic_params_format fmt,
                         ic_scope *scope, char *errbuf, size_t errlen) {
  if (!p || !path || !scope) return ic_api_null_arg("ic_params_load", errbuf, errlen);
  ic_err err;
  ic_err_clear(&err);
  return ic_api_finish(ic_params_load_err(p, path, fmt, scope, &err), &err, errbuf, errlen);
}

ic_status ic_params_names(const ic_program *p, const char ***names, size_t *n) {
  if (!names || !n) return IC_ERR_INVALID_ARGUMENT;
  *names = NULL;
  *n = 0;
  if (!p) return IC_ERR_INVALID_ARGUMENT;
  const ic_vardesc **list;
  size_t k;
  ic_err err;
  ic_status st = ic_params_list(p, &list, &k, &err);
  if (st || !k) return st;
  const char **out = malloc(k * sizeof *out);
  if (!out) {
    free(list);
    return IC_ERR_OUT_OF_MEMORY;
  }
  for (size_t i = 0; i < k; i++) out[i] = list[i]->name;
  free(list);
  *names = out;
  *n = k;
  return IC_OK;
}

ic_status ic_params_save(const ic_program *p, const ic_scope *scope, const char *path,
                         ic_params_format fmt, char *errbuf, size_t errlen) {
  if (!p || !path || !scope) return ic_api_null_arg("ic_params_save", errbuf, errlen);
  ic_err err;
  ic_err_clear(&err);
  return ic_api_finish(ic_params_save_err(p, scope, path, fmt, &err), &err, errbuf, errlen);
}

ic_status ic_tensor_save_file(const ic_tensor *t, const char *path, char *errbuf,
                              size_t errlen) {
  if (!t || !path) return ic_api_null_arg("ic_tensor_save_file", errbuf, errlen);
  ic_err err;
  ic_err_clear(&err);
  FILE *f;
  ic_status st = ic_lt_create(path, &f, &err);
  if (!st) st = ic_lt_close_out(f, path, ic_lt_write_tensor(f, path, NULL, t, &err), &err);
  return ic_api_finish(st, &err, errbuf, errlen);
}

ic_status ic_tensor_load_file(const char *path, ic_tensor **out, char *errbuf, size_t errlen) {
  if (out) *out = NULL;
  if (!out || !path) return ic_api_null_arg("ic_tensor_load_file", errbuf, errlen);
  ic_err err;
  ic_err_clear(&err);
  ic_lt_src s;
  ic_tensor *t = malloc(sizeof *t);
  ic_status st = t ? ic_lt_open(&s, path, NULL, &err)
                   : ic_err_set(&err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  if (st) {
    free(t);
    return ic_api_finish(st, &err, errbuf, errlen);
  }
  st = ic_lt_read_tensor(&s, NULL, NULL, t);
  if (!st) st = ic_lt_expect_end(&s, NULL, "the tensor");
  ic_lt_close(&s);
  if (st) {
    ic_tensor_reset(t);
    free(t);
  } else {
    *out = t;
  }
  return ic_api_finish(st, &err, errbuf, errlen);
}
