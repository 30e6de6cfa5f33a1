/* Layout pass (CPU plans with options.fuse): keep convolution activations in oneDNN's
 * blocked layout between layers.
 *
 * The float32 convolutions run oneDNN's direct kernels on channel-blocked activations
 * (nChw8c on AVX2) and would otherwise reorder NCHW -> blocked before and blocked -> NCHW
 * after every layer: 40 to 66 % of a layer's time at 112 x 112 (docs/conv_measurements.md).
 * After the rewrites of fuse.c a CNN is mostly a chain of convolutions, so most activations
 * are read only by other convolutions, which take blocked input as it is.
 *
 * This pass marks a conv2d, depthwise_conv2d or pool2d with the internal attribute
 * ic_blocked_out (a copy of the op with one more attribute, as fuse.c adds attributes) when
 * its output may stay blocked:
 *   - the op is NCHW and writes exactly one Output / Out variable, declared float32 4-D with
 *     a known channel count divisible by 8 (the smallest block: a blocked tensor then has the
 *     plain tensor's size), or any count where padded channels are allowed (below);
 *   - that variable is written by no other op, is not persistable, fetched or fed, is not
 *     also an input of the op, and is referenced by no sub-block;
 *   - every op reading it reads it in a slot that accepts a blocked tensor (IC_SLOT_BLOCKED,
 *     with the reader's data_format not NHWC) or only for its shape (IC_SLOT_NO_BUFFER,
 *     IC_SLOT_IGNORED): another convolution's Input or ResidualData, a transposed
 *     convolution's Input, pool2d's X, concat's X, an arithmetic elementwise op's X and Y.
 * The arithmetic elementwise ops (elementwise_add, _sub, _mul, _div, _max, _min, _pow,
 * _floordiv, _mod) are marked by the same rules; one whose output must stay plain would only
 * unpack blocked operands, so its inputs are kept plain as well (to a fixed point). The
 * kernel keeps the layout when both operands are blocked alike with the output's dims, or
 * one is and the other holds one value per channel (a squeeze-and-excitation scale, a bias).
 * A concat along the channels (axis 1 of 4-D tensors) is marked by the same rules: it keeps
 * its inputs' blocked layout when they all hold the same one (concat.c). So is assign, whose
 * Out shares X's buffer and layout (a view): where Out must stay plain, so must X.
 * A convolution's output whose every reader is another convolution's Input or ResidualData
 * (IC_SLOT_PAD16) is also marked ic_blocked_pad, whatever its channel count: its kernel may
 * then write nChw16c with the channels padded to 16 (tensor.h IC_LAYOUT_NCHW16C_PAD), which
 * is what oneDNN's AVX-512 convolutions take for 24, 40 or 56 channels.
 * The kernel decides at run time: it writes a blocked Output (and says so in the tensor's
 * layout) only when oneDNN's destination is one of the layouts a tensor may hold; readers
 * look at the layout of what they receive. The values are bitwise those of the plain
 * program, since each primitive is the same and only reorders are dropped. The executors
 * reject a blocked tensor in any other slot, so a wrongly marked program fails loudly. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/opseq.h"

typedef struct lpass {
  ic_strmap writers;  /* name -> number of output arguments naming it (uintptr_t) */
  ic_strmap readers;  /* name -> number of input arguments naming it */
  ic_strmap barred;   /* names that must stay plain (any non-NULL value) */
  ic_strmap no_pad;   /* names some reader cannot take with padded channels */
} lpass;

static const void *const k_mark = &k_mark;

static size_t count(const ic_strmap *m, const char *name) {
  return (uintptr_t)ic_strmap_get(m, name);
}

static bool bump(ic_strmap *m, const char *name) {
  return ic_strmap_put(m, name, (void *)(uintptr_t)(count(m, name) + 1));
}

static bool bar(lpass *l, const char *name) {
  return ic_strmap_put(&l->barred, name, (void *)k_mark);
}

static bool nearest_interp(const ic_op *op) {
  return !strcmp(op->type, "nearest_interp_v2") || !strcmp(op->type, "nearest_interp");
}

/* Channel-last: data_format NHWC (convolutions, pooling, elementwise), or for the
 * interpolations any data_layout but NCHW (interp.c reads only "NCHW" channel-first). */
static bool is_nhwc(const ic_op *op) {
  if (nearest_interp(op)) {
    const ic_attr *l = ic_op_attr(op, "data_layout");
    return l && (l->type != IC_ATTR_STRING || strcmp(l->s, "NCHW") != 0);
  }
  const ic_attr *a = ic_op_attr(op, "data_format");
  return a && a->type == IC_ATTR_STRING && strcmp(a->s, "NHWC") == 0;
}

/* A nearest interpolation (its method attribute nearest or absent): its X takes blocked
 * tensors and its Out may keep their layout (interp.c). */
static bool blocked_interp(const ic_op *op) {
  if (!nearest_interp(op)) return false;
  const ic_attr *m = ic_op_attr(op, "interp_method");
  return !m || (m->type == IC_ATTR_STRING && strcmp(m->s, "nearest") == 0);
}

/* A concat along the channels of 4-D tensors (attribute axis 1 or -3, no AxisTensor): its
 * output may stay blocked when its inputs arrive so (concat.c decides at run time). */
static bool channel_concat(const ic_op *op) {
  if (strcmp(op->type, "concat") != 0) return false;
  const ic_slot *at = ic_op_input(op, "AxisTensor");
  if (at && at->n) return false;
  const ic_attr *a = ic_op_attr(op, "axis");
  int64_t axis = a && (a->type == IC_ATTR_INT || a->type == IC_ATTR_LONG) ? a->i : a ? 99 : 0;
  return axis == 1 || axis == -3;
}

static bool reads_blocked(const ic_op *op, const char *slot);

/* An arithmetic elementwise op whose X and Y take blocked tensors (elementwise.c). */
static bool blocked_elementwise(const ic_op *op) {
  return !strncmp(op->type, "elementwise_", 12) && reads_blocked(op, "X") &&
         reads_blocked(op, "Y");
}

/* An op whose Out is a view of its X in X's layout, X taking blocked tensors (assign.c). */
static bool blocked_view(const ic_op *op) {
  return !strcmp(op->type, "assign") && reads_blocked(op, "X");
}

static bool marks(const ic_op *op) {
  return !strcmp(op->type, "conv2d") || !strcmp(op->type, "depthwise_conv2d") ||
         !strcmp(op->type, "pool2d") || channel_concat(op) || blocked_elementwise(op) ||
         blocked_interp(op) || blocked_view(op) || !strcmp(op->type, "ic_scale_residual");
}

/* Whether input slot `slot` of op reads a blocked tensor correctly (whole channel blocks;
 * with pad, also nChw16c with padded channels: IC_SLOT_PAD16). */
static bool slot_reads(const ic_op *op, const char *slot, bool pad) {
  if (nearest_interp(op) && !blocked_interp(op)) return false; /* another method: plain X */
  const ic_opdef *def = ic_registry_find(op->type);
  for (size_t k = 0; def && k < def->n_inputs; k++) {
    if (strcmp(def->inputs[k].name, slot) != 0) continue;
    unsigned f = def->inputs[k].flags;
    if (f & (IC_SLOT_NO_BUFFER | IC_SLOT_IGNORED)) return true;
    return (f & IC_SLOT_BLOCKED) && (!pad || (f & IC_SLOT_PAD16)) && !is_nhwc(op);
  }
  return false; /* unknown op or slot: plan building reports it */
}

static bool reads_blocked(const ic_op *op, const char *slot) { return slot_reads(op, slot, false); }

static ic_status scan(lpass *l, const ic_opseq *seq, const ic_program *p, size_t n_fetches,
                      const char *const *fetch_names, ic_err *err) {
  bool ok = true;
  for (size_t i = 0; i < n_fetches; i++) ok &= bar(l, fetch_names[i]);
  for (size_t i = 0; i < seq->n_ops && ok; i++) {
    const ic_op *op = seq->ops[i];
    for (size_t s = 0; s < op->n_inputs; s++) {
      bool blocked_ok = reads_blocked(op, op->inputs[s].name);
      bool pad_ok = slot_reads(op, op->inputs[s].name, true);
      for (size_t k = 0; k < op->inputs[s].n; k++) {
        ok &= bump(&l->readers, op->inputs[s].args[k]);
        if (!blocked_ok) ok &= bar(l, op->inputs[s].args[k]);
        if (!pad_ok) ok &= ic_strmap_put(&l->no_pad, op->inputs[s].args[k], (void *)k_mark);
      }
    }
    for (size_t s = 0; s < op->n_outputs; s++) {
      for (size_t k = 0; k < op->outputs[s].n; k++) ok &= bump(&l->writers, op->outputs[s].args[k]);
    }
  }
  /* Sub-blocks read and write variables by name, outside block 0's slots. */
  for (size_t b = 1; b < p->n_blocks && ok; b++) {
    for (size_t i = 0; i < p->blocks[b].n_ops; i++) {
      const ic_op *op = &p->blocks[b].ops[i];
      for (size_t s = 0; s < op->n_inputs; s++) {
        for (size_t k = 0; k < op->inputs[s].n; k++) ok &= bar(l, op->inputs[s].args[k]);
      }
      for (size_t s = 0; s < op->n_outputs; s++) {
        for (size_t k = 0; k < op->outputs[s].n; k++) ok &= bar(l, op->outputs[s].args[k]);
      }
    }
  }
  return ok ? IC_OK : ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
}

/* Whether the output `name` (C channels, not a multiple of 16) of a convolution, or of an
 * op that passes its input's layout on (a nearest interpolation, ic_scale_residual), may be
 * nChw16c with padded channels: every reader takes that (IC_SLOT_PAD16: a convolution's
 * Input or ResidualData, pool2d's X, those two ops' X). */
static bool paddable(const lpass *l, const ic_op *op, const char *name, int64_t c) {
  const bool writes = !strcmp(op->type, "conv2d") || !strcmp(op->type, "depthwise_conv2d") ||
                      blocked_interp(op) || !strcmp(op->type, "ic_scale_residual");
  return writes && c % 16 && !ic_strmap_get(&l->no_pad, name);
}

/* The variable op writes that may stay blocked, or NULL; *pad: it may have padded channels. */
static const char *blockable_output(const lpass *l, const ic_op *op, const ic_program *p,
                                    bool *pad) {
  *pad = false;
  if (!marks(op) || is_nhwc(op) || ic_op_attr(op, "ic_blocked_out")) return NULL;
  const bool conv = !strcmp(op->type, "conv2d") || !strcmp(op->type, "depthwise_conv2d");
  const ic_slot *o = ic_op_output(op, conv ? "Output" : "Out");
  if (!o || o->n != 1 || op->n_outputs != 1) return NULL;
  const char *name = o->args[0];
  if (count(&l->writers, name) != 1 || !count(&l->readers, name) ||
      ic_strmap_get(&l->barred, name)) {
    return NULL;
  }
  for (size_t s = 0; s < op->n_inputs; s++) {
    for (size_t k = 0; k < op->inputs[s].n; k++) {
      if (!strcmp(op->inputs[s].args[k], name)) return NULL;
    }
  }
  const ic_vardesc *v = ic_program_find_var(p, op->block, name);
  if (!v || !v->is_tensor || v->persistable || v->dtype != IC_FP32 || v->ndim != 4 ||
      v->dims[1] <= 0) {
    return NULL;
  }
  *pad = paddable(l, op, name, v->dims[1]);
  if (v->dims[1] % 8 && !*pad) return NULL;
  return name;
}

/* A copy of op with ic_blocked_out = true (and ic_blocked_pad = true when pad). */
static const ic_op *marked(ic_arena *a, const ic_op *op, bool pad) {
  static const char *const marks[] = {"ic_blocked_out", "ic_blocked_pad"};
  return ic_op_with_flags(a, op, marks, pad ? 2 : 1);
}

ic_status ic_opseq_layout(ic_opseq *seq, const ic_program *p, size_t n_fetches,
                          const char *const *fetch_names, ic_err *err) {
  lpass l;
  ic_strmap_init(&l.writers);
  ic_strmap_init(&l.readers);
  ic_strmap_init(&l.barred);
  ic_strmap_init(&l.no_pad);
  ic_status st = scan(&l, seq, p, n_fetches, fetch_names, err);
  /* An elementwise op whose output must stay plain would only unpack blocked operands, and a
   * view's output is its input: keep their inputs plain too, and again for the ops that feed
   * those, to a fixed point. */
  for (bool changed = true; changed && !st;) {
    changed = false;
    for (size_t i = 0; i < seq->n_ops && !st; i++) {
      const ic_op *op = seq->ops[i];
      bool pad;
      if (!(blocked_elementwise(op) || blocked_view(op)) || blockable_output(&l, op, p, &pad)) {
        continue;
      }
      for (size_t s = 0; s < op->n_inputs; s++) {
        for (size_t k = 0; k < op->inputs[s].n; k++) {
          const char *name = op->inputs[s].args[k];
          if (ic_strmap_get(&l.barred, name)) continue;
          if (!bar(&l, name)) st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
          changed = true;
        }
      }
    }
  }
  /* seq->ops is the opseq's own array (in its arena), rewritten in place. */
  for (size_t i = 0; i < seq->n_ops && !st; i++) {
    bool pad;
    if (!blockable_output(&l, seq->ops[i], p, &pad)) continue;
    const ic_op *m = marked(seq->arena, seq->ops[i], pad);
    if (!m) st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    else seq->ops[i] = m;
  }
  ic_strmap_free(&l.writers);
  ic_strmap_free(&l.readers);
  ic_strmap_free(&l.barred);
  ic_strmap_free(&l.no_pad);
  return st;
}
