/* Inference rewrites (options.fuse): a convolution (without Bias, optionally followed by an
 * elementwise_add of a [C_out] parameter along axis 1: its bias) followed by an inference
 * batch_norm, a residual elementwise_add and/or an activation becomes one convolution, as Paddle's own
 * oneDNN passes produce it: the batch_norm folded into the filter and bias (by an
 * ic_fold_bn instruction whose results are kept across runs), the residual as
 * ResidualData with fuse_residual_connection, the activation as fuse_activation /
 * fuse_alpha / fuse_beta. On CPU plans a scalar affine after all of that (an elementwise_mul
 * by a one-element float32 parameter, then an elementwise_add of one, either alone: PP-HGNetV2's
 * LearnableAffineBlock after each convolution) joins too, as icore's own inputs ic_AffineScale
 * and ic_AffineBias, which the CPU kernel applies as a oneDNN post-op (conv.h); the CUDA
 * kernels do not take them. Such an affine may also come between the convolution (its
 * batch_norm, residual) and the activation, with a second one after the activation
 * (PP-LCNetV3, PP-OCRv4's backbone: conv, affine, hard_swish, affine): the first becomes
 * ic_PreAffineScale / ic_PreAffineBias, a post-op before the activation's. On CPU plans an
 * elementwise_mul(x, s) followed by elementwise_add(x, that product) becomes one
 * ic_scale_residual (bitwise the same; see try_scale_residual). On CPU plans a transposed
 * convolution takes the bias add, batch_norm and activation after it too (transposed_conv).
 * Results stay within float32 tolerance of the plain program
 * (tests check it); with fuse off, compiled and uncompiled runs stay bitwise equal.
 *
 * A pattern is rewritten only when every intermediate value has exactly one reader (the
 * next op of the pattern) and is not fetched, and when no op between the convolution and
 * the pattern's last op writes anything the pattern reads: the fused op takes the last
 * op's place, so all of its inputs exist by then. Where that fails, the pattern is cut back
 * (without the affine before the activation; then without the residual add and what follows
 * it) and tried again.
 *
 * The rounds after the first (CPU plans) take 1 x 1 and depthwise pairs, squeeze-and-excitation
 * scales into the next convolution, and linear layers (a matrix product and its bias add,
 * and a relu after them, into fc: fuse_linear.c, through fuse.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fuse.h"

static size_t n_readers(const fuser *f, const char *name) {
  return (uintptr_t)ic_strmap_get(&f->readers, name);
}

static const char *arg(const ic_op *op, bool out, const char *slot) {
  const ic_slot *s = out ? ic_op_output(op, slot) : ic_op_input(op, slot);
  return s && s->n == 1 ? s->args[0] : NULL;
}

/* The only later op reading `name` (which must have one reader and not be fetched). */
static size_t sole_reader(const fuser *f, size_t from, const char *name) {
  if (!name || n_readers(f, name) != 1 || ic_strmap_get(&f->keep, name)) return SIZE_MAX;
  for (size_t j = from + 1; j < f->seq->n_ops; j++) {
    const ic_op *op = f->seq->ops[j];
    for (size_t s = 0; s < op->n_inputs; s++) {
      for (size_t k = 0; k < op->inputs[s].n; k++) {
        if (strcmp(op->inputs[s].args[k], name) == 0) return f->removed[j] ? SIZE_MAX : j;
      }
    }
  }
  return SIZE_MAX;
}

static bool str_attr_is(const ic_op *op, const char *name, const char *want, bool absent_ok) {
  const ic_attr *a = ic_op_attr(op, name);
  if (!a) return absent_ok;
  return a->type == IC_ATTR_STRING && strcmp(a->s, want) == 0;
}

static double num_attr(const ic_op *op, const char *name, double dflt) {
  const ic_attr *a = ic_op_attr(op, name);
  if (!a) return dflt;
  switch (a->type) {
    case IC_ATTR_FLOAT: case IC_ATTR_FLOAT64: case IC_ATTR_SCALAR: return a->f;
    case IC_ATTR_INT: case IC_ATTR_LONG: case IC_ATTR_BOOLEAN: return (double)a->i;
    default: return dflt;
  }
}

static bool layout_nhwc(const ic_op *op, const char *attr) {
  const ic_attr *a = ic_op_attr(op, attr);
  return a && a->type == IC_ATTR_STRING && strcmp(a->s, "NHWC") == 0;
}

/* An inference batch_norm on `y` whose other outputs nobody reads. */
static bool foldable_bn(const fuser *f, const ic_op *bn, const char *y, bool conv_nhwc) {
  if (strcmp(bn->type, "batch_norm") != 0) return false;
  if (num_attr(bn, "is_test", 0) == 0 && num_attr(bn, "use_global_stats", 0) == 0) return false;
  if (num_attr(bn, "trainable_statistics", 0) != 0) return false;
  if (layout_nhwc(bn, "data_layout") != conv_nhwc) return false;
  const char *x = arg(bn, false, "X");
  if (!x || strcmp(x, y) != 0 || !arg(bn, true, "Y")) return false;
  static const char *const need[] = {"Scale", "Bias", "Mean", "Variance"};
  for (int k = 0; k < 4; k++) {
    const char *p = arg(bn, false, need[k]);
    const ic_vardesc *v = p ? ic_program_find_var(f->prog, 0, p) : NULL;
    if (!v || !v->persistable || v->dtype != IC_FP32) return false;
  }
  static const char *const other[] = {"MeanOut", "VarianceOut", "SavedMean", "SavedVariance",
                                      "ReserveSpace"};
  for (int k = 0; k < 5; k++) {
    const ic_slot *s = ic_op_output(bn, other[k]);
    for (size_t j = 0; s && j < s->n; j++) {
      const char *o = s->args[j];
      /* MeanOut/VarianceOut are Mean/Variance themselves in exported programs. */
      if (strcmp(o, arg(bn, false, "Mean")) == 0 || strcmp(o, arg(bn, false, "Variance")) == 0) {
        continue;
      }
      if (n_readers(f, o) || ic_strmap_get(&f->keep, o)) return false;
    }
  }
  return true;
}

static bool same_declared_dims(const fuser *f, const char *a, const char *b) {
  const ic_vardesc *va = ic_program_find_var(f->prog, 0, a), *vb = ic_program_find_var(f->prog, 0, b);
  return va && vb && va->is_tensor && vb->is_tensor && va->dtype == vb->dtype &&
         ic_dims_equal(va->ndim, va->dims, vb->ndim, vb->dims);
}

typedef struct act {
  const char *name;
  double alpha, beta;
} act;

/* The conv kernel's fuse_activation for a standalone activation op, if it has one. */
static bool conv_act(const ic_op *op, act *out) {
  const char *t = op->type;
  if (!strcmp(t, "relu")) *out = (act){"relu", 0, 0};
  else if (!strcmp(t, "relu6")) *out = (act){"relu6", 0, (float)num_attr(op, "threshold", 6.0)};
  else if (!strcmp(t, "leaky_relu")) *out = (act){"leaky_relu", (float)num_attr(op, "alpha", 0.02), 0};
  else if (!strcmp(t, "sigmoid")) *out = (act){"sigmoid", 0, 0};
  else if (!strcmp(t, "tanh")) *out = (act){"tanh", 0, 0};
  else if (!strcmp(t, "swish")) *out = (act){"swish", (float)num_attr(op, "beta", 1.0), 0};
  else if (!strcmp(t, "hard_sigmoid")) {
    *out = (act){"hard_sigmoid", (float)num_attr(op, "slope", 0.2), (float)num_attr(op, "offset", 0.5)};
  } else if (!strcmp(t, "hard_swish")) {
    /* x * min(max(x + offset, 0), threshold) / scale is oneDNN's s * clip(a s + b, 0, 1)
     * only when threshold == scale. */
    float th = (float)num_attr(op, "threshold", 6.0), sc = (float)num_attr(op, "scale", 6.0);
    float of = (float)num_attr(op, "offset", 3.0);
    if (th != sc || sc == 0) return false;
    *out = (act){"hard_swish", 1.0 / sc, of / sc};
  } else {
    return false;
  }
  return arg(op, false, "X") && arg(op, true, "Out");
}

/* A one-element float32 parameter: the scalar of a LearnableAffineBlock. */
static bool scalar_param(const fuser *f, const char *name) {
  const ic_vardesc *v = name ? ic_program_find_var(f->prog, 0, name) : NULL;
  if (!v || !v->persistable || !v->is_tensor || v->dtype != IC_FP32 || v->ndim < 1) return false;
  for (int k = 0; k < v->ndim; k++) {
    if (v->dims[k] != 1) return false;
  }
  return true;
}

/* Is op `type` (elementwise_mul / elementwise_add) of `value` and a scalar parameter, with
 * nothing else fused into it? Sets the parameter and the op's output. */
static bool scalar_op(const fuser *f, const ic_op *op, const char *type, const char *value,
                      const char **param, const char **out) {
  if (strcmp(op->type, type) != 0 || !str_attr_is(op, "fuse_activation", "", true)) return false;
  static const char *const scales[] = {"Scale_x", "Scale_y", "Scale_out"};
  for (int k = 0; k < 3; k++) {
    if (num_attr(op, scales[k], 1.0) != 1.0) return false;
  }
  const char *x = arg(op, false, "X"), *y = arg(op, false, "Y"), *o = arg(op, true, "Out");
  if (!x || !y || !o || !strcmp(x, y)) return false;
  const char *p = !strcmp(x, value) ? y : !strcmp(y, value) ? x : NULL;
  if (!scalar_param(f, p) || !same_declared_dims(f, o, value)) return false;
  *param = p;
  *out = o;
  return true;
}

/* An elementwise_mul by a scalar parameter and/or an elementwise_add of one, starting at op j
 * (SIZE_MAX: none) on value *out: appends the ops found to the pattern and sets *scale /
 * *bias to their parameters, *out to the last one's output and *j to its sole reader. */
static void scalar_affine(const fuser *f, size_t *j, const char **out, size_t *pattern,
                          size_t *n_pat, size_t *last, const char **scale, const char **bias) {
  const char *o;
  if (*j != SIZE_MAX && scalar_op(f, f->seq->ops[*j], "elementwise_mul", *out, scale, &o)) {
    *out = o;
    pattern[(*n_pat)++] = *last = *j;
    *j = sole_reader(f, *j, *out);
  }
  if (*j != SIZE_MAX && scalar_op(f, f->seq->ops[*j], "elementwise_add", *out, bias, &o)) {
    *out = o;
    pattern[(*n_pat)++] = *last = *j;
    *j = sole_reader(f, *j, *out);
  }
}

/* The reshape2 op writing `y` (whose only reader is the bias add, with `axis`) from a
 * persistable float32 [c_out] parameter to dims that put c_out on the channels of an NCHW
 * tensor once aligned by axis: Paddle 2.5 and later export a convolution's bias from dygraph
 * as reshape(bias, [1, -1, 1, 1]) and an add with axis -1 (SVTR's squeeze-and-excitation
 * convolutions, PPDiffusers' VAE decoder). Its index, or SIZE_MAX; the parameter in *param.
 * Its XShape must have no reader, so the fused convolution makes it dead (removed too). */
static size_t bias_reshape(const fuser *f, const char *y, int64_t c_out, int64_t axis,
                           const char **param) {
  if (n_readers(f, y) != 1 || ic_strmap_get(&f->keep, y)) return SIZE_MAX;
  const ic_vardesc *yv = ic_program_find_var(f->prog, 0, y);
  if (!yv || !yv->is_tensor || yv->dtype != IC_FP32 || yv->ndim < 1 || yv->ndim > 4) {
    return SIZE_MAX;
  }
  const int64_t r = yv->ndim, off = axis < 0 ? 4 - r : axis;
  if (off < 0 || off + r > 4 || off > 1 || off + r < 2 || yv->dims[1 - off] != c_out) {
    return SIZE_MAX;
  }
  for (int64_t k = 0; k < r; k++) {
    if (k != 1 - off && yv->dims[k] != 1) return SIZE_MAX;
  }
  for (size_t j = 0; j < f->seq->n_ops; j++) {
    const ic_op *op = f->seq->ops[j];
    const char *o = arg(op, true, "Out");
    if (!o || strcmp(o, y) != 0) continue;
    if (f->removed[j] || strcmp(op->type, "reshape2") != 0) return SIZE_MAX;
    static const char *const dyn[] = {"Shape", "ShapeTensor"};
    for (int k = 0; k < 2; k++) {
      const ic_slot *s = ic_op_input(op, dyn[k]);
      if (s && s->n) return SIZE_MAX;
    }
    const ic_attr *sh = ic_op_attr(op, "shape");
    if (!sh || (sh->type != IC_ATTR_INTS && sh->type != IC_ATTR_LONGS) || (int64_t)sh->n != r) {
      return SIZE_MAX;
    }
    for (int64_t k = 0; k < r; k++) { /* 0 copies the input's dim k: [c_out] has only k = 0 */
      const int64_t s = sh->ints[k];
      const bool ok = k == 1 - off ? s == c_out || s == -1 || (s == 0 && k == 0) : s == 1;
      if (!ok) return SIZE_MAX;
    }
    const char *x = arg(op, false, "X"), *xs = arg(op, true, "XShape");
    const ic_vardesc *xv = x ? ic_program_find_var(f->prog, 0, x) : NULL;
    if (!xv || !xv->persistable || !xv->is_tensor || xv->dtype != IC_FP32 || xv->ndim != 1 ||
        xv->dims[0] != c_out || (xs && (n_readers(f, xs) || ic_strmap_get(&f->keep, xs)))) {
      return SIZE_MAX;
    }
    *param = x;
    return j;
  }
  return SIZE_MAX;
}

/* Is op an elementwise_add of the NCHW convolution output `value` (as X) and a persistable
 * float32 [c_out] parameter along axis 1, or that parameter reshaped onto the channels
 * (bias_reshape, *reshape its index, else SIZE_MAX): the bias of a conv2d exported without
 * one (Paddle's older layers add it as an op)? Sets the parameter and the op's output. */
static bool bias_op(const fuser *f, const ic_op *op, const char *value, int64_t c_out,
                    const char **param, const char **out, size_t *reshape) {
  *reshape = SIZE_MAX;
  if (strcmp(op->type, "elementwise_add") != 0 || !str_attr_is(op, "fuse_activation", "", true)) {
    return false;
  }
  static const char *const scales[] = {"Scale_x", "Scale_y", "Scale_out"};
  for (int k = 0; k < 3; k++) {
    if (num_attr(op, scales[k], 1.0) != 1.0) return false;
  }
  const char *x = arg(op, false, "X"), *y = arg(op, false, "Y"), *o = arg(op, true, "Out");
  if (!x || !y || !o || strcmp(x, value) != 0 || !strcmp(y, value)) return false;
  const int64_t axis = (int64_t)num_attr(op, "axis", -1);
  const ic_vardesc *v = ic_program_find_var(f->prog, 0, y);
  if (v && !v->persistable && c_out > 0 && same_declared_dims(f, o, value)) {
    const char *p = NULL;
    if ((*reshape = bias_reshape(f, y, c_out, axis, &p)) == SIZE_MAX) return false;
    *param = p;
    *out = o;
    return true;
  }
  if (axis != 1) return false;
  if (!v || !v->persistable || !v->is_tensor || v->dtype != IC_FP32 || v->ndim != 1 ||
      v->dims[0] != c_out || c_out <= 0 || !same_declared_dims(f, o, value)) {
    return false;
  }
  *param = y;
  *out = o;
  return true;
}

/* Does any op strictly between i and last (not part of the pattern) write one of names? */
static bool written_between(const fuser *f, size_t i, size_t last, const size_t *pattern,
                            size_t n_pat, const char *const *names, size_t n_names) {
  for (size_t j = i + 1; j < last; j++) {
    bool in_pat = false;
    for (size_t k = 0; k < n_pat; k++) in_pat |= pattern[k] == j;
    if (in_pat) continue;
    const ic_op *op = f->seq->ops[j];
    for (size_t s = 0; s < op->n_outputs; s++) {
      for (size_t a = 0; a < op->outputs[s].n; a++) {
        for (size_t k = 0; k < n_names; k++) {
          if (names[k] && strcmp(op->outputs[s].args[a], names[k]) == 0) return true;
        }
      }
    }
  }
  return false;
}

static ic_slot slot1(ic_arena *a, const char *name, const char *v) {
  const char **args = ic_arena_alloc(a, sizeof *args);
  if (args) *args = v;
  return (ic_slot){.name = name, .n = args ? 1 : 0, .args = args};
}

static char *fmt_name(ic_arena *a, const char *base, const char *suffix, size_t k) {
  size_t n = strlen(base) + strlen(suffix) + 24;
  char *s = ic_arena_alloc(a, n);
  if (s) snprintf(s, n, "%s%s%zu", base, suffix, k);
  return s;
}

/* In place: base with these inputs, one output slot and these attributes (sorted here, as
 * ic_op_attr's binary search needs). */
static void set_op(ic_op *nc, const ic_op *base, ic_slot *ins, size_t n_ins, ic_slot *outs,
                   ic_attr *at, size_t na) {
  if (na) ic_attrs_sort(at, na);
  *nc = *base;
  nc->inputs = ins;
  nc->n_inputs = n_ins;
  nc->outputs = outs;
  nc->n_outputs = 1;
  nc->attrs = at;
  nc->n_attrs = na;
}

/* The helpers as fuse.h names them, for the rewrites in other files. */
const char *ic_fuse_arg(const ic_op *op, bool out, const char *slot) { return arg(op, out, slot); }
size_t ic_fuse_sole_reader(const fuser *f, size_t from, const char *name) {
  return sole_reader(f, from, name);
}
double ic_fuse_num_attr(const ic_op *op, const char *name, double dflt) {
  return num_attr(op, name, dflt);
}
bool ic_fuse_written_between(const fuser *f, size_t i, size_t last, const size_t *pattern,
                             size_t n_pat, const char *const *names, size_t n_names) {
  return written_between(f, i, last, pattern, n_pat, names, n_names);
}
ic_slot ic_fuse_slot1(ic_arena *a, const char *name, const char *v) { return slot1(a, name, v); }
void ic_fuse_set_op(ic_op *nc, const ic_op *base, ic_slot *ins, size_t n_ins, ic_slot *outs,
                    ic_attr *at, size_t na) {
  set_op(nc, base, ins, n_ins, outs, at, na);
}
bool ic_fuse_unread(const fuser *f, const char *name) {
  return !n_readers(f, name) && !ic_strmap_get(&f->keep, name);
}

/* Build the fused convolution (and the fold op) for the pattern found at conv index i. */
static ic_status emit(fuser *f, size_t i, const char *bias, const ic_op *bn, const char *residual,
                      const act *ac, const char *pre_scale, const char *pre_bias,
                      const char *aff_scale, const char *aff_bias, const char *out, size_t last) {
  ic_arena *a = f->seq->arena;
  const ic_op *conv = f->seq->ops[i];
  const char *filter = arg(conv, false, "Filter");
  const bool transposed = strstr(conv->type, "_transpose") != NULL;
  ic_op *fold = NULL;
  if (bn) {
    fold = ic_arena_alloc(a, sizeof *fold);
    ic_slot *ins = ic_arena_calloc(a, 6, sizeof *ins), *outs = ic_arena_calloc(a, 2, sizeof *outs);
    ic_attr *at = ic_arena_calloc(a, 3, sizeof *at);
    const char *ff = fmt_name(a, filter, "@folded", i), *fb = fmt_name(a, filter, "@foldedbias", i);
    if (!fold || !ins || !outs || !at || !ff || !fb) goto oom;
    size_t n = 0;
    ins[n++] = slot1(a, "Filter", filter);
    if (bias) ins[n++] = slot1(a, "Bias", bias);
    ins[n++] = slot1(a, "Scale", arg(bn, false, "Scale"));
    ins[n++] = slot1(a, "BnBias", arg(bn, false, "Bias"));
    ins[n++] = slot1(a, "Mean", arg(bn, false, "Mean"));
    ins[n++] = slot1(a, "Variance", arg(bn, false, "Variance"));
    outs[0] = slot1(a, "FoldedFilter", ff);
    outs[1] = slot1(a, "FoldedBias", fb);
    size_t na = 0;
    at[na++] = (ic_attr){.name = "epsilon", .type = IC_ATTR_FLOAT, .f = num_attr(bn, "epsilon", 1e-5)};
    if (transposed) { /* the Filter's output channels are its dims[1] within each group */
      at[na++] = (ic_attr){.name = "groups", .type = IC_ATTR_LONG,
                           .i = (int64_t)num_attr(conv, "groups", 1)};
      at[na++] = (ic_attr){.name = "ic_transposed", .type = IC_ATTR_BOOLEAN, .i = 1};
    }
    *fold = (ic_op){.type = "ic_fold_bn", .block = 0, .index = bn->index, .n_inputs = n,
                    .inputs = ins, .n_outputs = 2, .outputs = outs, .n_attrs = na, .attrs = at};
    filter = ff;
    bias = fb;
    const char **d = ic_arena_calloc(a, f->seq->n_derived + 2, sizeof *d);
    if (!d) goto oom;
    if (f->seq->n_derived) memcpy(d, f->seq->derived, f->seq->n_derived * sizeof *d);
    d[f->seq->n_derived++] = ff;
    d[f->seq->n_derived++] = fb;
    f->seq->derived = d;
  }
  ic_op *nc = ic_arena_alloc(a, sizeof *nc);
  ic_slot *ins = ic_arena_calloc(a, 8, sizeof *ins), *outs = ic_arena_calloc(a, 1, sizeof *outs);
  ic_attr *at = ic_arena_calloc(a, conv->n_attrs + 4, sizeof *at);
  if (!nc || !ins || !outs || !at) goto oom;
  size_t n = 0;
  ins[n++] = slot1(a, "Input", arg(conv, false, "Input"));
  ins[n++] = slot1(a, "Filter", filter);
  if (bias) ins[n++] = slot1(a, "Bias", bias);
  if (residual) ins[n++] = slot1(a, "ResidualData", residual);
  if (aff_scale) ins[n++] = slot1(a, "ic_AffineScale", aff_scale);
  if (aff_bias) ins[n++] = slot1(a, "ic_AffineBias", aff_bias);
  if (pre_scale) ins[n++] = slot1(a, "ic_PreAffineScale", pre_scale);
  if (pre_bias) ins[n++] = slot1(a, "ic_PreAffineBias", pre_bias);
  outs[0] = slot1(a, "Output", out);
  size_t na = 0;
  for (size_t k = 0; k < conv->n_attrs; k++) {
    const char *nm = conv->attrs[k].name;
    if (!strcmp(nm, "fuse_activation") || !strcmp(nm, "fuse_alpha") || !strcmp(nm, "fuse_beta") ||
        !strcmp(nm, "fuse_residual_connection")) {
      continue;
    }
    at[na++] = conv->attrs[k];
  }
  at[na++] = (ic_attr){.name = "fuse_activation", .type = IC_ATTR_STRING, .s = ac ? ac->name : ""};
  at[na++] = (ic_attr){.name = "fuse_alpha", .type = IC_ATTR_FLOAT, .f = ac ? ac->alpha : 0};
  at[na++] = (ic_attr){.name = "fuse_beta", .type = IC_ATTR_FLOAT, .f = ac ? ac->beta : 0};
  if (!transposed) {
    at[na++] = (ic_attr){.name = "fuse_residual_connection", .type = IC_ATTR_BOOLEAN,
                         .i = residual != NULL};
  }
  set_op(nc, conv, ins, n, outs, at, na);
  f->replace[last] = fold ? fold : nc;
  f->replace2[last] = fold ? nc : NULL;
  return IC_OK;
oom:
  return ic_err_set(f->err, IC_ERR_OUT_OF_MEMORY, "out of memory");
}

/* A transposed convolution (CPU plans): its bias add, batch_norm and activation join it as
 * for a convolution (ic_fold_bn folds along the Filter's dims[1] per group); no residual and
 * no affine (its kernel takes neither). */
static bool transposed_conv(const fuser *f, const ic_op *op) {
  return f->cpu && (!strcmp(op->type, "conv2d_transpose") ||
                    !strcmp(op->type, "depthwise_conv2d_transpose"));
}

static ic_status try_fuse(fuser *f, size_t i) {
  const ic_op *conv = f->seq->ops[i];
  const bool transposed = transposed_conv(f, conv);
  if (strcmp(conv->type, "conv2d") != 0 && strcmp(conv->type, "depthwise_conv2d") != 0 &&
      !transposed) {
    return IC_OK;
  }
  if (!str_attr_is(conv, "fuse_activation", "", true) || num_attr(conv, "fuse_residual_connection", 0)) {
    return IC_OK;
  }
  const ic_slot *rd = ic_op_input(conv, "ResidualData");
  const char *input = arg(conv, false, "Input"), *filter = arg(conv, false, "Filter");
  const char *out = arg(conv, true, "Output");
  const ic_vardesc *fv = filter ? ic_program_find_var(f->prog, 0, filter) : NULL;
  if ((rd && rd->n) || !input || !out || !fv || !fv->persistable || fv->dtype != IC_FP32) return IC_OK;
  bool nhwc = layout_nhwc(conv, "data_format");
  size_t pattern[9] = {i}, n_pat = 1, last = i;
  const ic_op *bn = NULL, *add = NULL, *actop = NULL;
  const char *residual = NULL, *bias = arg(conv, false, "Bias"), *bias_out;
  bool bias_added = false;
  size_t bias_shape = SIZE_MAX; /* the reshape2 of the bias parameter, if any */
  size_t j = sole_reader(f, i, out);
  const int64_t c_out = fv->ndim != 4 ? -1
                        : transposed ? fv->dims[1] * (int64_t)num_attr(conv, "groups", 1)
                                     : fv->dims[0];
  if (!bias && !nhwc && j != SIZE_MAX && fv->ndim == 4 &&
      bias_op(f, f->seq->ops[j], out, c_out, &bias, &bias_out, &bias_shape)) {
    bias_added = true;
    out = bias_out;
    pattern[n_pat++] = last = j;
    j = sole_reader(f, j, out);
  }
  if (j != SIZE_MAX && foldable_bn(f, f->seq->ops[j], out, nhwc)) {
    bn = f->seq->ops[j];
    out = arg(bn, true, "Y");
    pattern[n_pat++] = last = j;
    j = sole_reader(f, j, out);
  }
  /* Where the pattern stood before a residual add, to fall back to (below). */
  const size_t pat_before_add = n_pat, last_before_add = last;
  const char *out_before_add = out;
  if (j != SIZE_MAX && !transposed && strcmp(f->seq->ops[j]->type, "elementwise_add") == 0) {
    const ic_op *e = f->seq->ops[j];
    const char *x = arg(e, false, "X"), *y = arg(e, false, "Y"), *o = arg(e, true, "Out");
    const char *r = x && !strcmp(x, out) ? y : y && !strcmp(y, out) ? x : NULL;
    if (r && o && strcmp(r, out) != 0 && same_declared_dims(f, r, out) && same_declared_dims(f, o, out)) {
      add = e;
      residual = r;
      out = o;
      pattern[n_pat++] = last = j;
      j = sole_reader(f, j, out);
    }
  }
  /* On CPU plans: a scalar affine, then (when one follows) an activation and a second affine
   * after it (PP-LCNetV3: conv, LearnableAffineBlock, hard_swish, LearnableAffineBlock). An
   * affine with no activation after it is the one after the activation. */
  const char *aff_scale = NULL, *aff_bias = NULL, *pre_scale = NULL, *pre_bias = NULL;
  size_t pat_before_aff = n_pat, last_before_aff = last;
  const char *out_before_aff = out;
  if (f->cpu && !transposed) {
    scalar_affine(f, &j, &out, pattern, &n_pat, &last, &pre_scale, &pre_bias);
  }
  act ac;
  if (j != SIZE_MAX && conv_act(f->seq->ops[j], &ac)) {
    actop = f->seq->ops[j];
    out = arg(actop, true, "Out");
    pattern[n_pat++] = last = j;
    j = sole_reader(f, j, out);
    if (f->cpu && !transposed) {
      scalar_affine(f, &j, &out, pattern, &n_pat, &last, &aff_scale, &aff_bias);
    }
  } else {
    aff_scale = pre_scale;
    aff_bias = pre_bias;
    pre_scale = pre_bias = NULL;
  }
  if (!bias_added && !bn && !add && !actop && !aff_scale && !aff_bias) return IC_OK;
  /* The fused op runs at `last`: nothing in between may change what it reads. */
  const char *reads[12] = {input, filter, bias, residual, NULL, NULL, NULL, NULL,
                           aff_scale, aff_bias, pre_scale, pre_bias};
  if (bn) {
    reads[4] = arg(bn, false, "Scale");
    reads[5] = arg(bn, false, "Bias");
    reads[6] = arg(bn, false, "Mean");
    reads[7] = arg(bn, false, "Variance");
  }
  if (written_between(f, i, last, pattern, n_pat, reads, 12)) {
    /* Try again without the affine before the activation and what follows it, then also
     * without the residual add: one whose other operand is computed after this convolution
     * (a shortcut convolution that comes first in the program, PP-OCRv5's LKPAN neck) still
     * takes its bias and batch_norm, and the add's own convolution takes the residual. */
    bool ok = false;
    if (pre_scale || pre_bias) {
      n_pat = pat_before_aff;
      last = last_before_aff;
      out = out_before_aff;
      actop = NULL;
      aff_scale = aff_bias = pre_scale = pre_bias = NULL;
      ok = (bias_added || bn || add) && !written_between(f, i, last, pattern, n_pat, reads, 8);
    }
    if (!ok && add) {
      n_pat = pat_before_add;
      last = last_before_add;
      out = out_before_add;
      add = actop = NULL;
      residual = reads[3] = NULL;
      aff_scale = aff_bias = pre_scale = pre_bias = NULL;
      ok = (bias_added || bn) && !written_between(f, i, last, pattern, n_pat, reads, 8);
    }
    if (!ok) return IC_OK;
  }
  for (size_t k = 0; k < n_pat; k++) f->removed[pattern[k]] = true;
  if (bias_shape != SIZE_MAX) f->removed[bias_shape] = true;
  (void)add;
  return emit(f, i, bias, bn, residual, actop ? &ac : NULL, pre_scale, pre_bias, aff_scale,
              aff_bias, out, last);
}

/* Whether s's declared dims, aligned onto x's by Paddle's elementwise rule with `axis`,
 * provably broadcast onto x: each is 1 or the same known size, or both unknown in the batch
 * dimension (a squeeze-excitation scale [N, C, 1, 1] of x [N, C, H, W]). Unknown sizes
 * elsewhere could make s the larger one at run time, where the fused op could not follow the
 * two ops' broadcast. */
static bool scale_fits(const fuser *f, const char *s, const char *x, int64_t axis) {
  const ic_vardesc *sv = ic_program_find_var(f->prog, 0, s), *xv = ic_program_find_var(f->prog, 0, x);
  if (!sv || !xv || !sv->is_tensor || !xv->is_tensor || sv->ndim > xv->ndim) return false;
  int64_t off = axis < 0 ? (int64_t)xv->ndim - (int64_t)sv->ndim : axis;
  if (off < 0 || off + (int64_t)sv->ndim > (int64_t)xv->ndim) return false;
  for (int k = 0; k < sv->ndim; k++) {
    int64_t sd = sv->dims[k], xd = xv->dims[off + k];
    bool ok = sd == 1 || (sd > 0 && sd == xd) || (sd < 0 && xd < 0 && off + k == 0);
    if (!ok) return false;
  }
  return true;
}

/* On CPU plans, elementwise_mul(x, s) -> m followed by elementwise_add(x, m) (either order),
 * where m has no other reader and s broadcasts onto x (a squeeze-excitation scale and its
 * residual, PP-OCRv4's RSEFPN), becomes one ic_scale_residual(x, s): the same rounded
 * product and sum per element, so bitwise the unfused result, in one pass. */
/* Whether op is elementwise_`type` as Paddle's plain op computes it (no fused activation, the
 * legacy oneDNN scales all 1). */
static bool plain_elementwise(const ic_op *op, const char *type) {
  if (strcmp(op->type, type) != 0 || !str_attr_is(op, "fuse_activation", "", true)) return false;
  static const char *const scales[] = {"Scale_x", "Scale_y", "Scale_out"};
  for (int k = 0; k < 3; k++) {
    if (num_attr(op, scales[k], 1.0) != 1.0) return false;
  }
  return true;
}

bool ic_fuse_plain_elementwise(const ic_op *op, const char *type) {
  return plain_elementwise(op, type);
}

/* A plain elementwise_mul(x, s) -> m with x != s and m declared as x: its names, or false. */
static bool scale_mul(const fuser *f, const ic_op *mul, const char **x, const char **s,
                      const char **m) {
  if (!plain_elementwise(mul, "elementwise_mul")) return false;
  *x = arg(mul, false, "X"), *s = arg(mul, false, "Y"), *m = arg(mul, true, "Out");
  return *x && *s && *m && strcmp(*x, *s) && same_declared_dims(f, *m, *x);
}

static ic_status try_scale_residual(fuser *f, size_t i) {
  const ic_op *mul = f->seq->ops[i];
  const char *x, *s, *m;
  if (!scale_mul(f, mul, &x, &s, &m)) return IC_OK;
  const ic_vardesc *xv = ic_program_find_var(f->prog, 0, x);
  if (!xv || (xv->dtype != IC_FP32 && xv->dtype != IC_FP64)) return IC_OK;
  if (!scale_fits(f, s, x, (int64_t)num_attr(mul, "axis", -1))) return IC_OK;
  size_t j = sole_reader(f, i, m);
  if (j == SIZE_MAX) return IC_OK;
  const ic_op *add = f->seq->ops[j];
  if (!plain_elementwise(add, "elementwise_add")) return IC_OK;
  const char *ax = arg(add, false, "X"), *ay = arg(add, false, "Y"), *o = arg(add, true, "Out");
  if (!ax || !ay || !o) return IC_OK;
  const char *other = !strcmp(ax, m) ? ay : !strcmp(ay, m) ? ax : NULL;
  if (!other || strcmp(other, x) != 0 || !same_declared_dims(f, o, x)) return IC_OK;
  size_t pattern[2] = {i, j};
  const char *reads[2] = {x, s};
  if (written_between(f, i, j, pattern, 2, reads, 2)) return IC_OK;
  ic_arena *a = f->seq->arena;
  ic_op *nop = ic_arena_alloc(a, sizeof *nop);
  ic_slot *ins = ic_arena_calloc(a, 2, sizeof *ins), *outs = ic_arena_calloc(a, 1, sizeof *outs);
  ic_attr *at = ic_arena_alloc(a, sizeof *at);
  if (!nop || !ins || !outs || !at) {
    return ic_err_set(f->err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  }
  ins[0] = slot1(a, "X", x);
  ins[1] = slot1(a, "Y", s);
  outs[0] = slot1(a, "Out", o);
  *at = (ic_attr){.name = "axis", .type = IC_ATTR_INT, .i = (int64_t)num_attr(mul, "axis", -1)};
  *nop = (ic_op){.type = "ic_scale_residual", .block = 0, .index = add->index, .n_inputs = 2,
                 .inputs = ins, .n_outputs = 1, .outputs = outs, .n_attrs = 1, .attrs = at};
  f->removed[i] = f->removed[j] = true;
  f->replace[j] = nop;
  return IC_OK;
}

/* ---- a 1 x 1 convolution and the 3 x 3 depthwise convolution after it (CPU plans) ----
 *
 * conv2d (1 x 1, stride 1, no padding, groups 1, NCHW, float32, its batch_norm folded and
 * activation fused by try_fuse or none) whose Output only a depthwise convolution reads
 * (depthwise_conv2d or conv2d with groups = channels, 3 x 3, the same stride 1 or 2 both
 * ways, padding 1, no dilation) becomes one conv2d carrying the depthwise filter, bias and
 * activation as ic_DwFilter, ic_DwBias, ic_dw_stride and ic_dw_activation / ic_dw_alpha /
 * ic_dw_beta (conv.h). oneDNN's jit_1x1 kernel then computes the depthwise rows from the 1 x 1
 * rows while they are in cache, instead of writing the intermediate tensor out and reading
 * it back: the same bits. Only where that tensor is large (IC_DW_FUSE_MIN_BYTES per image):
 * for small ones oneDNN runs its sequential form, no faster. Measured one thread, oneDNN
 * 2.6, the pair timed back to back, ms: MobileNetV2's 16 -> 96 at 112 x 112 then stride 2,
 * batch 8: 3.30 -> 2.07; 24 -> 144 at 56 x 56 stride 1: 2.30 -> 1.78; batch 1: 0.27 ->
 * 0.24 and 0.20 -> 0.20; 192 channels at 28 x 28 (0.6 MiB): 0.92-0.95x, left alone. */
#define IC_DW_FUSE_MIN_BYTES (1536 * 1024)

/* Whether integer-list attribute `name` is absent (when absent_ok) or n values all `v`. */
static bool ints_all(const ic_op *op, const char *name, int64_t v, bool absent_ok) {
  const ic_attr *a = ic_op_attr(op, name);
  if (!a) return absent_ok;
  if ((a->type != IC_ATTR_INTS && a->type != IC_ATTR_LONGS) || a->n == 0) return false;
  for (size_t k = 0; k < a->n; k++) {
    if (a->ints[k] != v) return false;
  }
  return true;
}

/* An activation the conv kernel puts in oneDNN's post-ops (conv.c ic_conv_act_in_dnnl), of a fused
 * convolution's fuse_activation / fuse_alpha / fuse_beta. */
static bool dw_fusable_act(const ic_op *op, act *out) {
  const ic_attr *a = ic_op_attr(op, "fuse_activation");
  const char *name = a && a->type == IC_ATTR_STRING ? a->s : "";
  static const char *const ok[] = {"", "relu", "relu6", "clip", "swish", "sigmoid", "tanh",
                                   "hard_swish"};
  bool known = false;
  for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) known |= !strcmp(name, ok[k]);
  out->name = name;
  out->alpha = num_attr(op, "fuse_alpha", 0);
  out->beta = num_attr(op, "fuse_beta", 0);
  if (!strcmp(name, "hard_swish") &&
      ((float)out->alpha != 1.0f / 6.0f || (float)out->beta != 0.5f)) {
    return false;
  }
  return known;
}

/* Declared dims of a convolution's Filter: the program variable, or for a folded filter
 * (ic_fold_bn's FoldedFilter) the variable it was folded from. */
static const ic_vardesc *filter_var(const fuser *f, const char *name) {
  const ic_vardesc *v = ic_program_find_var(f->prog, 0, name);
  if (v) return v;
  for (size_t j = 0; j < f->seq->n_ops; j++) {
    const ic_op *op = f->seq->ops[j];
    const char *ff = strcmp(op->type, "ic_fold_bn") ? NULL : arg(op, true, "FoldedFilter");
    if (ff && !strcmp(ff, name)) {
      const char *src = arg(op, false, "Filter");
      return src ? ic_program_find_var(f->prog, 0, src) : NULL;
    }
  }
  return NULL;
}

/* A convolution without residual, affine or NHWC that the dw fusion may take part in. */
static bool dw_plain_conv(const ic_op *op) {
  if (strcmp(op->type, "conv2d") != 0 && strcmp(op->type, "depthwise_conv2d") != 0) return false;
  static const char *const extra[] = {"ResidualData", "ic_AffineScale", "ic_AffineBias",
                                      "ic_PreAffineScale", "ic_PreAffineBias", "ic_DwFilter"};
  for (size_t k = 0; k < sizeof extra / sizeof extra[0]; k++) {
    const ic_slot *sl = ic_op_input(op, extra[k]);
    if (sl && sl->n) return false;
  }
  return !num_attr(op, "fuse_residual_connection", 0) && !layout_nhwc(op, "data_format") &&
         str_attr_is(op, "padding_algorithm", "EXPLICIT", true) &&
         ints_all(op, "dilations", 1, true) && !ic_op_attr(op, "ic_dw_stride");
}

static ic_status try_dw(fuser *f, size_t i) {
  const ic_op *pw = f->seq->ops[i];
  act pa, da;
  if (strcmp(pw->type, "conv2d") != 0 || !dw_plain_conv(pw) || !dw_fusable_act(pw, &pa) ||
      num_attr(pw, "groups", 1) != 1 || !ints_all(pw, "strides", 1, true) ||
      !ints_all(pw, "paddings", 0, true)) {
    return IC_OK;
  }
  const char *filter = arg(pw, false, "Filter"), *out = arg(pw, true, "Output");
  const ic_vardesc *fv = filter ? filter_var(f, filter) : NULL;
  const ic_vardesc *ov = out ? ic_program_find_var(f->prog, 0, out) : NULL;
  if (!fv || fv->dtype != IC_FP32 || fv->ndim != 4 || fv->dims[2] != 1 || fv->dims[3] != 1 ||
      !ov || !ov->is_tensor || ov->dtype != IC_FP32 || ov->ndim != 4) {
    return IC_OK;
  }
  const int64_t oc = fv->dims[0];
  if (oc < 1 || ov->dims[1] != oc || ov->dims[2] < 1 || ov->dims[3] < 1 ||
      (double)oc * (double)ov->dims[2] * (double)ov->dims[3] * 4.0 < IC_DW_FUSE_MIN_BYTES) {
    return IC_OK;
  }
  size_t j = sole_reader(f, i, out);
  if (j == SIZE_MAX) return IC_OK;
  const ic_op *dw = f->seq->ops[j];
  const char *dfilter = arg(dw, false, "Filter"), *din = arg(dw, false, "Input");
  const char *dout = arg(dw, true, "Output");
  const ic_vardesc *dfv = dfilter ? filter_var(f, dfilter) : NULL;
  const ic_attr *st = ic_op_attr(dw, "strides");
  int64_t stride = st && (st->type == IC_ATTR_INTS || st->type == IC_ATTR_LONGS) && st->n == 2 &&
                           st->ints[0] == st->ints[1]
                       ? st->ints[0]
                       : 0;
  if (!dw_plain_conv(dw) || !dw_fusable_act(dw, &da) || !din || strcmp(din, out) != 0 ||
      !dout || dw->n_outputs != 1 || num_attr(dw, "groups", 1) != (double)oc || !dfv ||
      dfv->dtype != IC_FP32 || dfv->ndim != 4 || dfv->dims[0] != oc || dfv->dims[1] != 1 ||
      dfv->dims[2] != 3 || dfv->dims[3] != 3 || (stride != 1 && stride != 2) ||
      !ints_all(dw, "paddings", 1, false)) {
    return IC_OK;
  }
  /* The fused op runs at j: nothing in between may change what the 1 x 1 part reads. */
  const char *reads[3] = {arg(pw, false, "Input"), filter, arg(pw, false, "Bias")};
  size_t pattern[2] = {i, j};
  if (written_between(f, i, j, pattern, 2, reads, 3)) return IC_OK;
  ic_arena *a = f->seq->arena;
  ic_op *nc = ic_arena_alloc(a, sizeof *nc);
  ic_slot *ins = ic_arena_calloc(a, pw->n_inputs + 2, sizeof *ins);
  ic_slot *outs = ic_arena_calloc(a, 1, sizeof *outs);
  ic_attr *at = ic_arena_calloc(a, pw->n_attrs + 4, sizeof *at);
  if (!nc || !ins || !outs || !at) return ic_err_set(f->err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  size_t n = 0;
  for (size_t k = 0; k < pw->n_inputs; k++) ins[n++] = pw->inputs[k];
  ins[n++] = slot1(a, "ic_DwFilter", dfilter);
  const char *dbias = arg(dw, false, "Bias");
  if (dbias) ins[n++] = slot1(a, "ic_DwBias", dbias);
  outs[0] = slot1(a, "Output", dout);
  size_t na = 0;
  for (size_t k = 0; k < pw->n_attrs; k++) at[na++] = pw->attrs[k];
  at[na++] = (ic_attr){.name = "ic_dw_stride", .type = IC_ATTR_INT, .i = stride};
  at[na++] = (ic_attr){.name = "ic_dw_activation", .type = IC_ATTR_STRING, .s = da.name};
  at[na++] = (ic_attr){.name = "ic_dw_alpha", .type = IC_ATTR_FLOAT, .f = da.alpha};
  at[na++] = (ic_attr){.name = "ic_dw_beta", .type = IC_ATTR_FLOAT, .f = da.beta};
  set_op(nc, pw, ins, n, outs, at, na);
  f->removed[i] = f->removed[j] = true;
  f->replace[j] = nc;
  return IC_OK;
}

/* ---- a squeeze-and-excitation scale into the convolution after it (CPU plans) ----
 *
 * elementwise_mul(x, s) -> m, where x is float32 NCHW [N, C, H, W], s [N or 1, C, 1, 1]
 * (declared dims; N may be unknown in both) and m's only reader is a float32 NCHW conv2d
 * with groups 1 as its Input, becomes that convolution reading x with s as its ic_InScale
 * (conv.h): the kernel scales the filter per input channel and image instead of the
 * activation, conv(x * s, W) = conv(x, W * s), which drops the product's pass over x (read
 * x and s, write m) and the convolution then reads x instead of m. The values differ from
 * the unfused ones by the rounding of the products (x * s then * w against x * (w * s)):
 * within float32 tolerance, the same bits at any thread count. MobileNetV3 and PP-LCNet
 * backbones (CRNN, PP-OCR's recognizers and detectors, PicoDet) end each SE block so. With a
 * scale per image the kernel runs one image at a time, each with its own scaled filter. */
static ic_status try_in_scale(fuser *f, size_t i) {
  const ic_op *mul = f->seq->ops[i];
  const char *x, *s, *m;
  if (!scale_mul(f, mul, &x, &s, &m)) return IC_OK;
  const ic_vardesc *xv = ic_program_find_var(f->prog, 0, x), *sv = ic_program_find_var(f->prog, 0, s);
  if (!xv || !sv || !xv->is_tensor || !sv->is_tensor || xv->dtype != IC_FP32 ||
      sv->dtype != IC_FP32 || xv->ndim != 4 || sv->ndim != 4 || xv->dims[1] < 1 ||
      sv->dims[1] != xv->dims[1] || sv->dims[2] != 1 || sv->dims[3] != 1 ||
      !scale_fits(f, s, x, (int64_t)num_attr(mul, "axis", -1))) {
    return IC_OK;
  }
  size_t j = sole_reader(f, i, m);
  if (j == SIZE_MAX) return IC_OK;
  const ic_op *conv = f->seq->ops[j];
  const char *in = arg(conv, false, "Input"), *filter = arg(conv, false, "Filter");
  const ic_vardesc *fv = filter ? filter_var(f, filter) : NULL;
  const ic_slot *has = ic_op_input(conv, "ic_InScale");
  if (strcmp(conv->type, "conv2d") != 0 || !in || strcmp(in, m) != 0 || (has && has->n) ||
      num_attr(conv, "groups", 1) != 1 || layout_nhwc(conv, "data_format") || !fv ||
      fv->dtype != IC_FP32 || fv->ndim != 4 || fv->dims[1] != xv->dims[1]) {
    return IC_OK;
  }
  /* The convolution runs at j reading x and s: nothing in between may write them. */
  const char *reads[2] = {x, s};
  size_t pattern[2] = {i, j};
  if (written_between(f, i, j, pattern, 2, reads, 2)) return IC_OK;
  ic_arena *a = f->seq->arena;
  ic_op *nc = ic_arena_alloc(a, sizeof *nc);
  ic_slot *ins = ic_arena_calloc(a, conv->n_inputs + 1, sizeof *ins);
  if (!nc || !ins) return ic_err_set(f->err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  size_t n = 0;
  for (size_t k = 0; k < conv->n_inputs; k++) {
    ins[n++] = strcmp(conv->inputs[k].name, "Input") ? conv->inputs[k] : slot1(a, "Input", x);
  }
  ins[n++] = slot1(a, "ic_InScale", s);
  *nc = *conv;
  nc->inputs = ins;
  nc->n_inputs = n;
  f->removed[i] = f->removed[j] = true;
  f->replace[j] = nc;
  return IC_OK;
}

/* The op list with removals and replacements applied (in seq's arena); false when out of
 * memory. */
static bool apply_rewrites(fuser *f) {
  size_t n = f->seq->n_ops, m = 0;
  const ic_op **ops = ic_arena_calloc(f->seq->arena, 2 * n + 1, sizeof *ops);
  if (!ops) return false;
  for (size_t i = 0; i < n; i++) {
    if (f->replace[i]) ops[m++] = f->replace[i];
    if (f->replace2[i]) ops[m++] = f->replace2[i];
    if (!f->removed[i]) ops[m++] = f->seq->ops[i];
  }
  f->seq->ops = ops;
  f->seq->n_ops = m;
  return true;
}

/* Count the readers of every name in the current op list. */
static bool count_readers(fuser *f) {
  bool ok = true;
  ic_strmap_free(&f->readers);
  ic_strmap_init(&f->readers);
  for (size_t i = 0; i < f->seq->n_ops && ok; i++) {
    const ic_op *op = f->seq->ops[i];
    for (size_t s = 0; s < op->n_inputs; s++) {
      for (size_t k = 0; k < op->inputs[s].n; k++) {
        const char *nm = op->inputs[s].args[k];
        ok &= ic_strmap_put(&f->readers, nm, (void *)(uintptr_t)(n_readers(f, nm) + 1));
      }
    }
  }
  return ok;
}

ic_status ic_opseq_fuse(ic_opseq *seq, const ic_program *p, size_t n_fetches,
                        const char *const *fetch_names, bool cpu, ic_err *err) {
  size_t n = seq->n_ops;
  fuser f = {.seq = seq, .prog = p, .err = err, .cpu = cpu};
  ic_strmap_init(&f.readers);
  ic_strmap_init(&f.keep);
  f.removed = calloc(n + 1, sizeof *f.removed);
  f.replace = calloc(n + 1, sizeof *f.replace);
  f.replace2 = calloc(n + 1, sizeof *f.replace2);
  ic_status st = IC_OK;
  if (!f.removed || !f.replace || !f.replace2) {
    st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  bool ok = true;
  for (size_t i = 0; i < n_fetches; i++) ok &= ic_strmap_put(&f.keep, fetch_names[i], (void *)1);
  /* Values a sub-block (while, conditional_block) names are kept as they are. */
  for (size_t b = 1; b < p->n_blocks && ok; b++) {
    for (size_t i = 0; i < p->blocks[b].n_ops && ok; i++) {
      const ic_op *op = &p->blocks[b].ops[i];
      for (int io = 0; io < 2; io++) {
        size_t ns = io ? op->n_outputs : op->n_inputs;
        const ic_slot *sl = io ? op->outputs : op->inputs;
        for (size_t s = 0; s < ns; s++) {
          for (size_t k = 0; k < sl[s].n; k++) ok &= ic_strmap_put(&f.keep, sl[s].args[k], (void *)1);
        }
      }
    }
  }
  if (!ok || !count_readers(&f)) {
    st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  size_t fused = 0;
  for (size_t i = 0; i < n && !st; i++) {
    if (f.removed[i]) continue;
    st = try_fuse(&f, i);
    fused += f.removed[i];
  }
  for (size_t i = 0; i < n && !st && cpu; i++) {
    if (f.removed[i]) continue;
    st = try_scale_residual(&f, i);
    fused += f.removed[i];
  }
  if (st) goto done;
  if (fused && !apply_rewrites(&f)) {
    st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  /* Then, on CPU plans, inference dropouts as views (fuse_dropout.c), then 1 x 1 and
   * depthwise pairs over the rewritten list, then input channel scales over that, then
   * linear layers (fuse_linear.c). */
  ic_status (*const rounds[])(fuser *, size_t) = {ic_fuse_dropout, try_dw, try_in_scale,
                                                  ic_fuse_linear};
  for (size_t r = 0; cpu && r < sizeof rounds / sizeof rounds[0] && !st; r++) {
    n = seq->n_ops;
    free(f.removed);
    free(f.replace);
    free(f.replace2);
    f.removed = calloc(n + 1, sizeof *f.removed);
    f.replace = calloc(n + 1, sizeof *f.replace);
    f.replace2 = calloc(n + 1, sizeof *f.replace2);
    if (!f.removed || !f.replace || !f.replace2 || !count_readers(&f)) {
      st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      goto done;
    }
    fused = 0;
    for (size_t i = 0; i < n && !st; i++) {
      if (f.removed[i]) continue;
      st = rounds[r](&f, i);
      fused += f.removed[i];
    }
    if (!st && fused && !apply_rewrites(&f)) st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  }
done:
  ic_strmap_free(&f.readers);
  ic_strmap_free(&f.keep);
  free(f.removed);
  free(f.replace);
  free(f.replace2);
  return st;
}
