/* Parameters: which variables of a program Paddle's loaders treat as parameters, and the
 * internal entry points shared by params.c, params_random.c and model_load.c (the record
 * format is in lodtensor_io.h; the public entry points are in icore.h). */
#ifndef IC_SCOPE_PARAMS_H
#define IC_SCOPE_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "icore/icore.h"
#include "program/program.h"
#include "scope/scope.h"

/* A parameter is a persistable LOD_TENSOR of block 0. Feed and fetch holders are persistable
 * too but hold lists, so the LOD_TENSOR test excludes them (as Paddle's IsPersistable does by
 * listing FEED_MINIBATCH, FETCH_LIST and RAW). */
bool ic_is_param(const ic_vardesc *v);

/* Block 0's parameters sorted by name (strcmp), the order of a combined parameter file.
 * *out is malloc'd (the caller frees it; NULL when there are none), *n its length. */
ic_status ic_params_list(const ic_program *p, const ic_vardesc ***out, size_t *n, ic_err *err);

/* Load / save every parameter of p (ic_params_load / ic_params_save with an ic_err). A load
 * reads the whole set before it stores anything in scope; a save checks every tensor before
 * it writes anything. */
ic_status ic_params_load_err(const ic_program *p, const char *path, ic_params_format fmt,
                             ic_scope *scope, ic_err *err);
ic_status ic_params_save_err(const ic_program *p, const ic_scope *scope, const char *path,
                             ic_params_format fmt, ic_err *err);

/* Store t in scope under name, taking over its storage and LoD (t is left empty). */
ic_status ic_params_put(ic_scope *scope, const char *name, ic_tensor *t, ic_err *err);

bool ic_path_is_dir(const char *path);
bool ic_path_exists(const char *path);

/* The end of a public entry point: copy err into buf on failure (clear buf on success) and
 * return st; ic_api_null_arg fails with "FN: NULL argument". */
ic_status ic_api_finish(ic_status st, const ic_err *err, char *buf, size_t len);
ic_status ic_api_null_arg(const char *fn, char *buf, size_t len);

#endif
