/* Run-time plumbing shared by both executors: feeds in, fetches out, NaN/Inf checks. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"

static ic_status oom(ic_err *err) { return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory"); }

bool ic_output_updates(const ic_op *op, const ic_opdef *def, size_t k) {
  if (def->flags & IC_OP_FEED) return false; /* a fed persistable shadows it for one run */
  if (def->flags & IC_OP_SUBBLOCK) return false; /* its sub-block's ops decide (Out is theirs) */
  if (def->outputs[k].flags & IC_SLOT_HOLDER) return false; /* the fetch list, never a tensor */
  if (def->output_unchanged && def->output_unchanged(op, k)) return false;
  return true;
}

ic_status ic_check_feeds(const ic_program *p, size_t n_feeds, const char *const *feed_names,
                         const ic_tensor *const *feeds, ic_err *err) {
  for (size_t i = 0; i < n_feeds; i++) {
    const ic_vardesc *v = ic_program_find_var(p, 0, feed_names[i]);
    const ic_tensor *t = feeds[i];
    char want[160], got[160];
    if (!t || (!t->data && ic_numel(t->ndim, t->dims) != 0)) {
      return ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "feed '%s': no tensor given",
                        feed_names[i]);
    }
    if (t->lod && !ic_lod_valid(t->lod, t->ndim ? t->dims[0] : 1, got, sizeof got)) {
      return ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "feed '%s': invalid LoD %s: %s",
                        feed_names[i], ic_lod_str(t->lod, want, sizeof want), got);
    }
    if (!v || !v->is_tensor) continue; /* checked by ic_opseq_build / not a tensor desc */
    /* Declared dims are hints (Paddle runs a program declared [-1, 3, 32, 100] on 48 x 192
     * images): only dtype and rank are checked; a shape an op cannot take fails in that op. */
    if (v->dtype != t->dtype || v->ndim != t->ndim) {
      snprintf(want, sizeof want, "%s", ic_dtype_name(v->dtype));
      ic_dims_str(v->ndim, v->dims, want + strlen(want), sizeof want - strlen(want));
      return ic_err_set(err, IC_ERR_INVALID_ARGUMENT,
                        "feed '%s': expected %s (as the program declares it: the dtype and "
                        "the rank are checked, not the sizes), received %s",
                        feed_names[i], want, ic_tensor_describe(t, got, sizeof got));
    }
  }
  return IC_OK;
}

ic_status ic_fill_holders(const ic_opseq *seq, ic_variable *feed_h, ic_variable *fetch_h,
                          size_t n_feeds, const ic_tensor *const *feeds, ic_err *err) {
  if (feed_h->kind != IC_VK_LIST || feed_h->n_list != seq->n_feed_cols) {
    if (!ic_variable_make_list(feed_h, seq->n_feed_cols)) return oom(err);
  }
  if (fetch_h->kind != IC_VK_LIST || fetch_h->n_list != seq->n_fetch_cols) {
    if (!ic_variable_make_list(fetch_h, seq->n_fetch_cols)) return oom(err);
  }
  ic_variable_clear(feed_h);
  ic_variable_clear(fetch_h);
  for (size_t i = 0; i < n_feeds; i++) {
    ic_tensor *col = &feed_h->list[seq->feed_col[i]];
    ic_tensor_share(col, feeds[i]);
    if (feeds[i]->lod && !(col->lod = ic_lod_clone(feeds[i]->lod))) return oom(err);
  }
  return IC_OK;
}

/* Hand a fetched tensor to the caller: its buffer itself when this run made it and nothing
 * else holds it (no copy, and nobody else can see it change), a deep copy otherwise (a
 * parameter, a feed, a buffer still shared with another variable). */
static ic_status hand_out(ic_tensor *t, ic_allocator *own, ic_tensor **out) {
  if (!(t->buf && t->buf->alloc == own && atomic_load(&t->buf->refs) == 1)) {
    return ic_tensor_clone(t, out);
  }
  ic_tensor *u = malloc(sizeof *u);
  if (!u) return IC_ERR_OUT_OF_MEMORY;
  *u = *t;
  t->lod = NULL; /* the LoD goes with the buffer */
  t->buf = NULL;
  t->data = NULL;
  *out = u;
  return IC_OK;
}

ic_status ic_collect_fetches(const ic_opseq *seq, ic_variable *fetch_h, ic_allocator *own,
                             size_t n_fetches, const char *const *fetch_names,
                             ic_tensor **fetches, ic_err *err) {
  for (size_t i = 0; i < n_fetches; i++) {
    size_t col = seq->fetch_col[i];
    ic_tensor *t = fetch_h && fetch_h->kind == IC_VK_LIST && col < fetch_h->n_list
                       ? &fetch_h->list[col]
                       : NULL;
    size_t same = i;
    for (size_t j = 0; j < i && same == i; j++) {
      if (seq->fetch_col[j] == col) same = j;
    }
    ic_status st;
    if (same < i) {
      st = ic_tensor_clone(fetches[same], &fetches[i]);
    } else if (!t || !t->buf) {
      return ic_err_set(err, IC_ERR_NOT_FOUND,
                        "fetch '%s': no op wrote it (is it computed by block 0?)",
                        fetch_names[i]);
    } else {
      st = hand_out(t, own, &fetches[i]);
    }
    if (st) return ic_err_set(err, st, "fetch '%s': out of memory copying it out", fetch_names[i]);
  }
  return IC_OK;
}

ic_status ic_share_lod_slow(const ic_kctx *c, ic_err *err) {
  const ic_tensor *x = c->in[0].t[0];
  for (size_t j = 0; j < c->out[0].n; j++) {
    ic_tensor *t = c->out[0].t[j];
    if (!t || t == x) continue;
    bool keeps_rows = t->ndim >= 1 && x->ndim >= 1 && t->dims[0] == x->dims[0];
    if (!keeps_rows) {
      ic_tensor_take_lod(t, NULL);
    } else if (!ic_lod_equal(t->lod, x->lod)) {
      ic_lod *l = ic_lod_clone(x->lod);
      if (!l) return oom(err);
      ic_tensor_take_lod(t, l);
    }
  }
  return IC_OK;
}

ic_status ic_check_layouts(const ic_kctx *c, ic_err *err) {
  for (size_t s = 0; s < c->def->n_inputs; s++) {
    const unsigned f = c->def->inputs[s].flags;
    if ((f & (IC_SLOT_NO_BUFFER | IC_SLOT_IGNORED | IC_SLOT_HOLDER)) ||
        ((f & IC_SLOT_BLOCKED) && (f & IC_SLOT_PAD16))) {
      continue;
    }
    for (size_t i = 0; i < c->in[s].n; i++) {
      const ic_tensor *t = c->in[s].t[i];
      if (t && t->layout == IC_LAYOUT_NCHW16C_PAD && (f & IC_SLOT_BLOCKED)) {
        return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                          "input %s '%s' holds oneDNN's blocked layout %s (its producer was "
                          "marked ic_blocked_pad), which %s cannot read: expected whole "
                          "channel blocks (ic_blocked_pad is for convolutions whose every "
                          "reader is a convolution)",
                          c->def->inputs[s].name, c->in[s].names[i], ic_layout_name(t->layout),
                          c->def->name);
      }
      if (t && t->layout != IC_LAYOUT_PLAIN && !(f & IC_SLOT_BLOCKED)) {
        return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                          "input %s '%s' holds oneDNN's blocked layout %s (its producer was "
                          "marked ic_blocked_out), which %s cannot read: expected the plain "
                          "layout (ic_blocked_out is for ops whose every reader is a "
                          "convolution or pool2d)",
                          c->def->inputs[s].name, c->in[s].names[i], ic_layout_name(t->layout),
                          c->def->name);
      }
    }
  }
  return IC_OK;
}

ic_status ic_check_input_data(const ic_kctx *c, ic_err *err) {
  for (size_t s = 0; s < c->def->n_inputs; s++) {
    /* Meta-only, ignored and holder slots read no data; a tensor array's elements and a
     * select_input branch that did not run are checked by their ops. */
    if (c->def->inputs[s].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_IGNORED | IC_SLOT_HOLDER |
                                   IC_SLOT_MAYBE_EMPTY | IC_SLOT_ARRAY)) {
      continue;
    }
    for (size_t i = 0; i < c->in[s].n; i++) {
      const ic_tensor *t = c->in[s].t[i];
      if (t && t->data) continue;
      return ic_err_set(err, IC_ERR_NOT_FOUND,
                        "input %s '%s' holds no data (a parameter that was not loaded, a "
                        "variable read before any op writes it, or an output its op leaves "
                        "without storage, such as XShape or an inference batch_norm's "
                        "SavedMean)",
                        c->def->inputs[s].name, c->in[s].names[i]);
    }
  }
  return IC_OK;
}

ic_status ic_check_finite(const ic_kctx *c, ic_err *err) {
  for (size_t s = 0; s < c->def->n_outputs; s++) {
    for (size_t i = 0; i < c->out[s].n; i++) {
      const ic_tensor *t = c->out[s].t[i];
      if (!t || !t->data || (t->dtype != IC_FP32 && t->dtype != IC_FP64)) continue;
      int64_t n = ic_tensor_storage_elems(t); /* padded channels are zeros */
      for (int64_t k = 0; k < n; k++) {
        double v = t->dtype == IC_FP32 ? ((const float *)t->data)[k] : ((const double *)t->data)[k];
        if (v != v || v - v != 0) {
          return ic_err_set(err, IC_ERR_NUMERIC, "output %s '%s' has %s at element %lld",
                            c->def->outputs[s].name, c->out[s].names[i],
                            v != v ? "NaN" : "Inf", (long long)k);
        }
      }
    }
  }
  return IC_OK;
}

ic_status ic_commit_persistables(ic_scope *scope, size_t n, const char *const *names,
                                 ic_tensor *vals, ic_err *err) {
  ic_variable **dst = calloc(n ? n : 1, sizeof *dst);
  if (!dst) return oom(err);
  ic_scope *root = ic_scope_root(scope);
  ic_status st = IC_OK;
  pthread_rwlock_wrlock(&root->lock);
  for (size_t k = 0; k < n && !st; k++) {
    if (!vals[k].buf) continue;
    ic_variable *v = ic_scope_find(scope, names[k]);
    if (v && v->kind != IC_VK_TENSOR) {
      st = ic_err_set(err, IC_ERR_INVALID_ARGUMENT,
                      "persistable '%s': the scope holds a feed/fetch list under that name, "
                      "expected a tensor", names[k]);
    } else if (!v && !(v = ic_scope_var(scope, names[k]))) {
      st = oom(err);
    }
    dst[k] = v;
  }
  for (size_t k = 0; k < n && !st; k++) {
    if (!vals[k].buf) continue;
    ic_tensor_reset(&dst[k]->tensor);
    dst[k]->tensor = vals[k];
    ic_tensor_init(&vals[k]);
  }
  pthread_rwlock_unlock(&root->lock);
  free(dst);
  return st;
}
