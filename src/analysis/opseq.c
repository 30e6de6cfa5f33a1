/* Which ops a run executes, and how feeds and fetches reach them. Programs exported by
 * Paddle carry feed ops (reading column `col` of the feed list) and fetch ops (writing
 * column `col` of the fetch list); a requested name they do not cover gets a synthetic op,
 * so programs without any feed/fetch ops run too. Training programs that stream batches
 * through Paddle's data readers instead have their `read` op replaced by feed ops of its
 * outputs (feed targets after the feed ops' own: program.c), and their other reader ops
 * left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/opseq.h"

static const char k_feed_holder[] = "feed";
static const char k_fetch_holder[] = "fetch";

/* A synthetic feed or fetch op reading/writing `holder` column col. */
static const ic_op *make_op(ic_arena *a, bool feed, const char *holder, const char *target,
                            size_t col) {
  ic_op *op = ic_arena_alloc(a, sizeof *op);
  ic_slot *in = ic_arena_alloc(a, sizeof *in), *out = ic_arena_alloc(a, sizeof *out);
  const char **in_arg = ic_arena_alloc(a, sizeof *in_arg);
  const char **out_arg = ic_arena_alloc(a, sizeof *out_arg);
  ic_attr *attr = ic_arena_alloc(a, sizeof *attr);
  if (!op || !in || !out || !in_arg || !out_arg || !attr) return NULL;
  *in_arg = feed ? holder : target;
  *out_arg = feed ? target : holder;
  *in = (ic_slot){.name = "X", .n = 1, .args = in_arg};
  *out = (ic_slot){.name = "Out", .n = 1, .args = out_arg};
  *attr = (ic_attr){.name = "col", .type = IC_ATTR_INT, .i = (int64_t)col};
  *op = (ic_op){.type = feed ? "feed" : "fetch", .block = 0, .index = -1, .n_inputs = 1,
                .inputs = in, .n_outputs = 1, .outputs = out, .n_attrs = 1, .attrs = attr};
  return op;
}

/* The holder variable the program's own feed (or fetch) ops use, or the default name. */
static const char *holder_name(const ic_program *p, bool feed) {
  const ic_block *b = &p->blocks[0];
  for (size_t i = 0; i < b->n_ops; i++) {
    const ic_op *op = &b->ops[i];
    if (strcmp(op->type, feed ? "feed" : "fetch") != 0) continue;
    const ic_slot *s = feed ? ic_op_input(op, "X") : ic_op_output(op, "Out");
    if (s && s->n == 1) return s->args[0];
  }
  return feed ? k_feed_holder : k_fetch_holder;
}

static ic_status oom(ic_err *err) { return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory"); }

ic_status ic_opseq_build(const ic_program *p, size_t n_feeds, const char *const *feed_names,
                         size_t n_fetches, const char *const *fetch_names, ic_opseq *s,
                         ic_err *err) {
  memset(s, 0, sizeof *s);
  ic_arena *a = s->arena = ic_arena_create();
  if (!a) return oom(err);
  const ic_block *b0 = &p->blocks[0];
  s->feed_holder = holder_name(p, true);
  s->fetch_holder = holder_name(p, false);
  s->feed_col = ic_arena_calloc(a, n_feeds ? n_feeds : 1, sizeof *s->feed_col);
  s->fetch_col = ic_arena_calloc(a, n_fetches ? n_fetches : 1, sizeof *s->fetch_col);
  size_t n_read_outs = 0; /* the feed ops that replace `read` ops */
  for (size_t i = 0; i < b0->n_ops; i++) {
    const ic_slot *o = strcmp(b0->ops[i].type, "read") == 0 ? ic_op_output(&b0->ops[i], "Out") : NULL;
    n_read_outs += o ? o->n : 0;
  }
  s->ops = ic_arena_calloc(a, b0->n_ops + n_read_outs + n_feeds + n_fetches + 1, sizeof *s->ops);
  if (!s->feed_col || !s->fetch_col || !s->ops) return oom(err);

  s->n_feed_cols = p->n_feeds;
  for (size_t i = 0; i < n_feeds; i++) {
    const char *name = feed_names[i];
    for (size_t j = 0; j < i; j++) {
      if (strcmp(feed_names[j], name) == 0) {
        return ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "feed '%s' is given twice", name);
      }
    }
    if (!ic_program_find_var(p, 0, name)) {
      return ic_err_set(err, IC_ERR_NOT_FOUND,
                        "feed '%s': the program (%s) declares no variable of that name", name,
                        p->origin);
    }
    size_t col = SIZE_MAX;
    for (size_t c = 0; c < p->n_feeds; c++) {
      if (strcmp(p->feeds[c], name) == 0) col = c;
    }
    if (col == SIZE_MAX) {
      col = s->n_feed_cols++;
      const ic_op *op = make_op(a, true, s->feed_holder, name, col);
      if (!op) return oom(err);
      s->ops[s->n_ops++] = op;
    }
    s->feed_col[i] = col;
  }
  for (size_t i = 0; i < b0->n_ops; i++) {
    const ic_op *op = &b0->ops[i];
    if (!ic_program_is_reader_op(op->type)) {
      s->ops[s->n_ops++] = op;
      continue;
    }
    /* a data reader: its `read` outputs are feed targets (program.c), fed here; the ops
     * that create the readers do nothing without Python's DataLoader behind them */
    const ic_slot *o = strcmp(op->type, "read") == 0 ? ic_op_output(op, "Out") : NULL;
    for (size_t k = 0; o && k < o->n; k++) {
      size_t col = SIZE_MAX;
      for (size_t c = p->n_feed_ops; c < p->n_feeds && col == SIZE_MAX; c++) {
        if (strcmp(p->feeds[c], o->args[k]) == 0) col = c;
      }
      if (col == SIZE_MAX) {
        return ic_err_set(err, IC_ERR_INTERNAL, "read output '%s' is not a feed target",
                          o->args[k]);
      }
      const ic_op *f = make_op(a, true, s->feed_holder, o->args[k], col);
      if (!f) return oom(err);
      s->ops[s->n_ops++] = f;
    }
  }

  s->n_fetch_cols = p->n_fetches;
  for (size_t i = 0; i < n_fetches; i++) {
    const char *name = fetch_names[i];
    if (!ic_program_find_var(p, 0, name)) {
      return ic_err_set(err, IC_ERR_NOT_FOUND,
                        "fetch '%s': the program (%s) declares no variable of that name", name,
                        p->origin);
    }
    size_t col = SIZE_MAX;
    for (size_t c = 0; c < p->n_fetches; c++) {
      if (strcmp(p->fetches[c], name) == 0) col = c;
    }
    for (size_t j = 0; j < i && col == SIZE_MAX; j++) {
      if (strcmp(fetch_names[j], name) == 0) col = s->fetch_col[j];
    }
    if (col == SIZE_MAX) {
      col = s->n_fetch_cols++;
      const ic_op *op = make_op(a, false, s->fetch_holder, name, col);
      if (!op) return oom(err);
      s->ops[s->n_ops++] = op;
    }
    s->fetch_col[i] = col;
  }
  return IC_OK;
}

ic_status ic_opseq_validate(const ic_opseq *seq, const ic_program *p, ic_err *err) {
  ic_status st = IC_OK;
  for (size_t idx = 0; idx < seq->n_ops && !st; idx++) {
    const ic_op *op = seq->ops[idx];
    const ic_opdef *def;
    if ((st = ic_opdef_resolve(p, op, &def, err))) break;
    void *attrs = calloc(1, def->attrs_size ? def->attrs_size : 1);
    const ic_slot **ins = calloc(def->n_inputs + 1, sizeof *ins);
    const ic_slot **outs = calloc(def->n_outputs + 1, sizeof *outs);
    if (!attrs || !ins || !outs) st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    if (!st) st = ic_opdef_parse(def, op, attrs, err);
    if (!st) st = ic_opdef_match(def, op, ins, outs, err);
    if (!st) { /* read by analysis for scheduling */
      ic_attr_reader r;
      ic_ar_init(&r, op, err);
      ic_ar_int(&r, "scheduling_priority", 0);
      st = r.st;
    }
    free(attrs);
    free(ins);
    free(outs);
  }
  return st;
}

void ic_opseq_free(ic_opseq *s) {
  ic_arena_destroy(s->arena);
  memset(s, 0, sizeof *s);
}

static int attr_cmp(const void *a, const void *b) {
  return strcmp(((const ic_attr *)a)->name, ((const ic_attr *)b)->name);
}

void ic_attrs_sort(ic_attr *at, size_t n) { qsort(at, n, sizeof *at, attr_cmp); }

const ic_op *ic_op_with_flags(ic_arena *a, const ic_op *op, const char *const *names, size_t n) {
  const size_t na = op->n_attrs + n;
  ic_op *m = ic_arena_alloc(a, sizeof *m);
  ic_attr *at = ic_arena_calloc(a, na, sizeof *at);
  if (!m || !at) return NULL;
  if (op->n_attrs) memcpy(at, op->attrs, op->n_attrs * sizeof *at);
  for (size_t k = 0; k < n; k++) {
    at[op->n_attrs + k] = (ic_attr){.name = names[k], .type = IC_ATTR_BOOLEAN, .i = 1};
  }
  ic_attrs_sort(at, na);
  *m = *op;
  m->attrs = at;
  m->n_attrs = na;
  return m;
}
