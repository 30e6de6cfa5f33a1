/* Parameters: which variables of a program Paddle's loaders treat as parameters. The file
 * formats themselves are private to params.c; the public entry points are in icore.h. */
#ifndef IC_SCOPE_PARAMS_H
#define IC_SCOPE_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "program/program.h"

/* A parameter is a persistable LOD_TENSOR of block 0. Feed and fetch holders are persistable
 * too but hold lists, so the LOD_TENSOR test excludes them (as Paddle's IsPersistable does by
 * listing FEED_MINIBATCH, FETCH_LIST and RAW). */
bool ic_is_param(const ic_vardesc *v);

/* Block 0's parameters sorted by name (strcmp), the order of a combined parameter file.
 * *out is malloc'd (the caller frees it; NULL when there are none), *n its length. */
ic_status ic_params_list(const ic_program *p, const ic_vardesc ***out, size_t *n, ic_err *err);

#endif
