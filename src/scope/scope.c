/* Scopes: owned variables by name, with lookups falling back to the parent. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_rwlockattr_setkind_np */
#endif
#include "scope/scope.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

void ic_variable_clear(ic_variable *v) {
  ic_tensor_reset(&v->tensor);
  for (size_t i = 0; i < v->n_list; i++) ic_tensor_reset(&v->list[i]);
  if (v->kind == IC_VK_ARRAY) v->n_list = 0;
  for (size_t i = 0; i < v->n_kept; i++) ic_variable_release(&v->kept[i]);
  v->n_kept = 0;
  v->has_steps = false;
  v->steps = 0;
}

void ic_variable_release(ic_variable *v) {
  ic_variable_clear(v);
  free(v->list);
  free(v->kept);
  v->list = NULL;
  v->kept = NULL;
  v->n_list = v->cap_list = v->cap_kept = 0;
}

void ic_variable_move(ic_variable *dst, ic_variable *src) {
  if (dst == src) return;
  char *name = dst->name;
  ic_variable_release(dst);
  *dst = *src;
  dst->name = name;
  ic_tensor_init(&src->tensor);
  src->list = NULL;
  src->kept = NULL;
  src->n_list = src->cap_list = src->n_kept = src->cap_kept = 0;
  src->has_steps = false;
  src->steps = 0;
}

ic_variable *ic_variable_kept_at(ic_variable *v, size_t i) {
  if (i >= v->cap_kept) {
    size_t cap = v->cap_kept ? v->cap_kept : 4;
    while (cap <= i) cap *= 2;
    ic_variable *k = realloc(v->kept, cap * sizeof *k);
    if (!k) return NULL;
    v->kept = k;
    v->cap_kept = cap;
  }
  for (; v->n_kept <= i; v->n_kept++) {
    memset(&v->kept[v->n_kept], 0, sizeof v->kept[v->n_kept]);
    ic_tensor_init(&v->kept[v->n_kept].tensor);
  }
  return &v->kept[i];
}

ic_tensor *ic_variable_array_at(ic_variable *v, size_t i) {
  if (v->kind == IC_VK_LIST) return NULL;
  if (v->kind == IC_VK_TENSOR) {
    ic_tensor_reset(&v->tensor);
    v->kind = IC_VK_ARRAY;
    v->n_list = 0;
  }
  if (i >= v->cap_list) {
    size_t cap = v->cap_list ? v->cap_list : 4;
    while (cap <= i) cap *= 2;
    ic_tensor *l = realloc(v->list, cap * sizeof *l);
    if (!l) return NULL;
    v->list = l;
    v->cap_list = cap;
  }
  for (; v->n_list <= i; v->n_list++) ic_tensor_init(&v->list[v->n_list]);
  return &v->list[i];
}

static void variable_free(ic_variable *v) {
  if (!v) return;
  ic_variable_release(v);
  free(v->name);
  free(v);
}

bool ic_variable_make_list(ic_variable *v, size_t n) {
  ic_tensor *list = calloc(n ? n : 1, sizeof *list);
  if (!list) return false;
  for (size_t i = 0; i < n; i++) ic_tensor_init(&list[i]);
  ic_variable_clear(v);
  free(v->list);
  v->kind = IC_VK_LIST;
  v->list = list;
  v->n_list = n;
  return true;
}

ic_variable *ic_scope_find(const ic_scope *s, const char *name) {
  for (; s; s = s->parent) {
    ic_variable *v = ic_strmap_get(&s->vars, name);
    if (v) return v;
  }
  return NULL;
}

ic_variable *ic_scope_var(ic_scope *s, const char *name) {
  ic_variable *v = ic_strmap_get(&s->vars, name);
  if (v) return v;
  v = calloc(1, sizeof *v);
  if (!v) return NULL;
  ic_tensor_init(&v->tensor);
  v->name = strdup(name);
  if (!v->name || !ic_strmap_put(&s->vars, v->name, v)) {
    variable_free(v);
    return NULL;
  }
  return v;
}

/* The one piece of process-wide mutable state in the scope layer: a counter giving every
 * scope an id never reused, so that what a run state remembers of one scope (its lookups)
 * can never be taken for another scope created later at the freed one's address. */
static atomic_uint_fast64_t next_scope_id = 1;

ic_status ic_scope_create(ic_scope *parent, ic_scope **out) {
  if (!out) return IC_ERR_INVALID_ARGUMENT;
  *out = calloc(1, sizeof **out);
  if (!*out) return IC_ERR_OUT_OF_MEMORY;
  (*out)->parent = parent;
  (*out)->id = (uint64_t)atomic_fetch_add_explicit(&next_scope_id, 1, memory_order_relaxed);
  ic_strmap_init(&(*out)->vars);
  pthread_rwlockattr_t ra;
  pthread_rwlockattr_init(&ra);
#ifdef __GLIBC__
  pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
#endif
  pthread_rwlock_init(&(*out)->lock, &ra);
  pthread_rwlockattr_destroy(&ra);
  pthread_mutex_init(&(*out)->writer, NULL);
  return IC_OK;
}

size_t ic_scope_chain_size(const ic_scope *s) {
  size_t n = 0;
  for (; s; s = s->parent) n += s->vars.n;
  return n;
}

ic_scope *ic_scope_root(ic_scope *s) {
  while (s && s->parent) s = s->parent;
  return s;
}

void ic_scope_destroy(ic_scope *s) {
  if (!s) return;
  size_t it = 0;
  const char *k;
  void *v;
  while (ic_strmap_next(&s->vars, &it, &k, &v)) variable_free(v);
  ic_strmap_free(&s->vars);
  pthread_rwlock_destroy(&s->lock);
  pthread_mutex_destroy(&s->writer);
  free(s);
}

ic_status ic_scope_set(ic_scope *s, const char *name, const ic_tensor *t) {
  if (!s || !name || !t) return IC_ERR_INVALID_ARGUMENT;
  ic_scope *root = ic_scope_root(s);
  pthread_rwlock_wrlock(&root->lock);
  ic_status st = IC_ERR_OUT_OF_MEMORY;
  ic_variable *v = ic_scope_var(s, name);
  if (v) {
    ic_err err;
    v->kind = IC_VK_TENSOR;
    st = ic_tensor_copy(&v->tensor, t, NULL, &err);
  }
  pthread_rwlock_unlock(&root->lock);
  return st;
}

const ic_tensor *ic_scope_get(const ic_scope *s, const char *name) {
  if (!s || !name) return NULL;
  ic_variable *v = ic_scope_find(s, name);
  return v && v->kind == IC_VK_TENSOR && v->tensor.data ? &v->tensor : NULL;
}

size_t ic_scope_size(const ic_scope *s) { return s ? s->vars.n : 0; }
