/* Variables and scopes. A variable holds a dense tensor or, for Paddle's feed and fetch
 * holders, a list of tensors indexed by column. */
#ifndef IC_SCOPE_SCOPE_H
#define IC_SCOPE_SCOPE_H

#include <pthread.h>

#include "common/strmap.h"
#include "scope/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ic_var_kind {
  IC_VK_TENSOR = 0, /* a dense (LoD) tensor */
  IC_VK_LIST = 1,   /* feed/fetch holder: a list of tensors by column */
  IC_VK_ARRAY = 2   /* LoDTensorArray: n_list tensors, growing (write_to_array); clearing it
                       empties it */
} ic_var_kind;

typedef struct ic_variable {
  char *name;         /* owned */
  ic_var_kind kind;
  ic_tensor tensor;   /* IC_VK_TENSOR */
  size_t n_list;      /* IC_VK_LIST: column count */
  ic_tensor *list;    /* IC_VK_LIST, IC_VK_ARRAY: n_list tensors (owned) */
  size_t cap_list;    /* IC_VK_ARRAY: tensors allocated in list */
  bool has_steps;     /* a forward while/conditional_block kept its steps here (StepScopes,
                         Scope): `steps` iterations of n_kept / steps variables each */
  size_t steps;
  size_t n_kept, cap_kept;
  struct ic_variable *kept; /* has_steps: the kept variables (owned, unnamed): a dense
                               tensor, a tensor array or a nested StepScopes / Scope each */
} ic_variable;

/* Locking (the root scope's locks guard every scope below it): a run holds the root's
 * `lock` shared from binding to collecting its fetches; committing the persistables a run
 * updated and ic_scope_set take it exclusive (writer-preferring, so a steady stream of runs
 * cannot starve a commit). A run of a program that updates persistables also holds the
 * root's `writer` mutex from start to end, so such runs are serialized. */
struct ic_scope {
  ic_scope *parent;   /* borrowed; outlives this scope */
  uint64_t id;        /* unique in the process, never 0 (ic_scope_create) */
  ic_strmap vars;     /* name -> ic_variable* owned by this scope */
  pthread_rwlock_t lock;
  pthread_mutex_t writer;
};

/* Variables in s and its ancestors. Variables are never removed from a scope, so with s's
 * id this identifies what lookups through s can return: a run state keeps its lookups of
 * persistables while both are unchanged (compiled.c bind). */
size_t ic_scope_chain_size(const ic_scope *s);

/* The root of s's parent chain (s itself when it has no parent). */
ic_scope *ic_scope_root(ic_scope *s);

/* The variable named so in s or its ancestors, or NULL. */
ic_variable *ic_scope_find(const ic_scope *s, const char *name);
/* The variable named so in s itself, created empty if absent; NULL when out of memory. */
ic_variable *ic_scope_var(ic_scope *s, const char *name);
/* Make v a list of n empty tensors (dropping what it held); false when out of memory. */
bool ic_variable_make_list(ic_variable *v, size_t n);
/* Element i of v as a tensor array, growing it to i + 1 elements (new ones empty); v becomes
 * an array if it held no data. NULL when out of memory or v is a feed/fetch list. */
ic_tensor *ic_variable_array_at(ic_variable *v, size_t i);
/* Drop whatever v holds (storage released, meta kept for tensors). */
void ic_variable_clear(ic_variable *v);
/* ic_variable_clear, then free v's own arrays (a variable that is not a scope's, going away). */
void ic_variable_release(ic_variable *v);
/* Move everything src holds (tensor, array, kept steps) into dst, whose old contents are
 * released; src is left empty, its name and kind kept. */
void ic_variable_move(ic_variable *dst, ic_variable *src);
/* Kept entry i of a has_steps variable, grown as needed (NULL when out of memory). */
ic_variable *ic_variable_kept_at(ic_variable *v, size_t i);

#ifdef __cplusplus
}
#endif

#endif
