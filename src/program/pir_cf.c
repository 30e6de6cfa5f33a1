/* PIR control flow in a ProgramDesc: regions become sub-blocks; pd_op.if becomes the ops of
 * Paddle's legacy cond (two conditional_blocks and select_input), pd_op.while the legacy
 * while over variables holding its results, and the cf.yield ending a branch or a body the
 * assigns to them (translate_if, translate_while, translate_yield); any other op with
 * regions, and any other cf op, keeps its PIR name (no kernel). The dense tensor arrays
 * (create_array, array_write_, a negative-index slice_array_dense) are here too: they are
 * the state the loops of these programs carry. */
#include <stdio.h>
#include <string.h>

#include "program/pir_json_impl.h"

/* A fresh tensor value named "<base><suffix>" of type `like` (declared in the current block
 * when first written). */
static pval *derived(ctx *c, const pval *like, const char *base, const char *suffix) {
  pval *v = ic_pj_new_value(c, 0);
  if (!v) return NULL;
  char name[160];
  snprintf(name, sizeof name, "%s%s", base, suffix);
  if (!(v->name = ic_arena_strdup(c->arena, name))) return NULL;
  v->has_type = v->tensor = true;
  v->dtype = like->dtype;
  v->dtype_name = like->dtype_name;
  v->ndim = like->ndim;
  memcpy(v->dims, like->dims, sizeof v->dims);
  return v;
}

static ic_status emit_assign(ctx *c, pval *from, pval *to) {
  ic_builder_op *a = ic_builder_add_op(c->b, c->block, "assign");
  ic_status st = ic_pj_emit_values(c, a, true, "X", 1, &from);
  return st ? st : ic_pj_emit_values(c, a, false, "Out", 1, &to);
}

static ic_status cf_tensor_results(ctx *c, pval **vs, size_t n, const char *what) {
  for (size_t k = 0; k < n; k++) {
    if (!vs[k] || ic_pj_resolve(vs[k])->is_vec || !ic_pj_resolve(vs[k])->has_type) {
      return ic_pj_fail(c, "%s %zu is not a tensor; icore translates tensor values only", what, k);
    }
  }
  return IC_OK;
}

/* One region with one block: the block's index after walking it with frame f. */
static ic_status cf_region(ctx *c, const json_t *r, const cfframe *f, int *blk) {
  const int block = c->block;
  const long opindex = c->op;
  const char *opname = c->opname;
  const cfframe *saved = c->cf;
  int fb = -1, nb = 0;
  c->cf = f;
  ic_status st = ic_pj_walk_region(c, r, block, &fb, &nb);
  c->cf = saved;
  c->block = block;
  c->op = opindex;
  c->opname = opname;
  if (st) return st;
  if (nb != 1) return ic_pj_fail(c, "a region has %d blocks, expected 1", nb);
  *blk = fb;
  return IC_OK;
}

/* pd_op.if(cond) {true} {false} -> results, as paddle.static.nn.cond writes it:
 *   %ID.not = logical_not(cond); %ID.mask = cast(cond, int32)
 *   conditional_block(Cond = cond) {true branch; its yield assigns %R.t}
 *   conditional_block(Cond = %ID.not) {false branch; its yield assigns %R.f}
 *   R = select_input(X = [%R.f, %R.t], Mask = %ID.mask)   for each result R
 * (the blocks' Input and Out are left to analysis, which widens them to what they touch). */
static ic_status translate_if(ctx *c, const json_t *regions, pval **in, size_t n_in, pval **out,
                              size_t n_out) {
  if (json_array_size(regions) != 2) {
    return ic_pj_fail(c, "has %zu regions, expected 2 (true and false)", json_array_size(regions));
  }
  if (n_in != 1 || !in[0] || ic_pj_resolve(in[0])->is_vec) return ic_pj_fail(c, "expected one condition operand");
  ic_status st = cf_tensor_results(c, out, n_out, "result");
  if (st) return st;
  pval *cond = ic_pj_resolve(in[0]);
  char base[64];
  snprintf(base, sizeof base, "%%if%ld.%d", c->op, c->block);
  pval *notc = derived(c, cond, base, ".not"), *mask = derived(c, cond, base, ".mask");
  pval **br[2];
  br[0] = ic_arena_calloc(c->arena, n_out ? n_out : 1, sizeof **br);
  br[1] = ic_arena_calloc(c->arena, n_out ? n_out : 1, sizeof **br);
  if (!notc || !mask || !br[0] || !br[1]) return ic_pj_oom(c);
  mask->dtype = IC_INT32;
  for (size_t k = 0; k < n_out; k++) {
    const pval *r = ic_pj_resolve(out[k]);
    if (!(br[0][k] = derived(c, r, r->name, ".t")) || !(br[1][k] = derived(c, r, r->name, ".f"))) {
      return ic_pj_oom(c);
    }
    if ((st = ic_pj_declare(c, br[0][k])) || (st = ic_pj_declare(c, br[1][k]))) return st;
  }
  ic_builder_op *op = ic_builder_add_op(c->b, c->block, "logical_not");
  if ((st = ic_pj_emit_values(c, op, true, "X", 1, &cond)) || (st = ic_pj_emit_values(c, op, false, "Out", 1, &notc))) {
    return st;
  }
  op = ic_builder_add_op(c->b, c->block, "cast");
  ic_builder_attr_int(op, "in_dtype", cond->dtype);
  ic_builder_attr_int(op, "out_dtype", IC_INT32);
  if ((st = ic_pj_emit_values(c, op, true, "X", 1, &cond)) || (st = ic_pj_emit_values(c, op, false, "Out", 1, &mask))) {
    return st;
  }
  ic_builder_op *cb[2];
  for (int b = 0; b < 2; b++) {
    cb[b] = ic_builder_add_op(c->b, c->block, "conditional_block");
    ic_builder_attr_bool(cb[b], "is_scalar_condition", true);
    if ((st = ic_pj_emit_values(c, cb[b], true, "Cond", 1, b ? &notc : &cond))) return st;
  }
  for (int b = 0; b < 2; b++) {
    const cfframe f = {.is_while = false, .n = n_out, .dst = br[b]};
    int blk;
    if ((st = cf_region(c, json_array_get(regions, (size_t)b), &f, &blk))) return st;
    ic_builder_attr_block(cb[b], "sub_block", blk);
  }
  for (size_t k = 0; k < n_out; k++) {
    op = ic_builder_add_op(c->b, c->block, "select_input");
    pval *xs[2] = {br[1][k], br[0][k]};
    if ((st = ic_pj_emit_values(c, op, true, "X", 2, xs)) || (st = ic_pj_emit_values(c, op, true, "Mask", 1, &mask)) ||
        (st = ic_pj_emit_values(c, op, false, "Out", 1, &out[k]))) {
      return st;
    }
  }
  return IC_OK;
}

/* pd_op.while(cond, init...) {body(args...); yield(cond', next...)} -> results, as Paddle's
 * legacy while: the results are the loop variables (R = assign(init) before the loop, the
 * body's arguments read R), the condition a variable %whileOP.B.cond, and the body's yield
 * assigns both (through copies %R.next when a yielded value is another loop variable, so a
 * swap reads the old values). */
static ic_status translate_while(ctx *c, const json_t *regions, pval **in, size_t n_in,
                                 pval **out, size_t n_out) {
  if (json_array_size(regions) != 1) return ic_pj_fail(c, "has %zu regions, expected 1", json_array_size(regions));
  if (n_in != n_out + 1 || !in[0] || ic_pj_resolve(in[0])->is_vec) {
    return ic_pj_fail(c, "has %zu operands and %zu results, expected a condition and one initial "
                      "value per result", n_in, n_out);
  }
  ic_status st = cf_tensor_results(c, out, n_out, "result");
  if (!st) st = cf_tensor_results(c, in + 1, n_in - 1, "initial value");
  if (st) return st;
  const json_t *blocks = json_object_get(json_array_get(regions, 0), "blocks");
  const json_t *args = json_object_get(json_array_get(blocks, 0), "args");
  if (json_array_size(blocks) != 1 || json_array_size(args) != n_out) {
    return ic_pj_fail(c, "its body has %zu block(s) with %zu arguments, expected 1 block with %zu",
                      json_array_size(blocks), json_array_size(args), n_out);
  }
  pval *cond = ic_pj_resolve(in[0]);
  char base[64];
  snprintf(base, sizeof base, "%%while%ld.%d", c->op, c->block);
  pval *cv = derived(c, cond, base, ".cond");
  if (!cv) return ic_pj_oom(c);
  for (size_t k = 0; k < n_out; k++) {
    pval *arg = ic_pj_find_value(c, json_integer_value(json_object_get(json_array_get(args, k), "#")));
    if (!arg) return ic_pj_fail(c, "its body's argument %zu is not defined", k);
    arg->alias = ic_pj_resolve(out[k]);
    if ((st = emit_assign(c, in[k + 1], out[k]))) return st;
  }
  if ((st = emit_assign(c, cond, cv))) return st;
  ic_builder_op *w = ic_builder_add_op(c->b, c->block, "while");
  ic_builder_attr_bool(w, "is_test", true);
  if ((st = ic_pj_emit_values(c, w, true, "Condition", 1, &cv))) return st;
  const cfframe f = {.is_while = true, .n = n_out, .dst = out, .cond = cv};
  int blk;
  if ((st = cf_region(c, json_array_get(regions, 0), &f, &blk))) return st;
  ic_builder_attr_block(w, "sub_block", blk);
  return IC_OK;
}

/* The cf.yield ending an if branch or a while body (c->cf). */
static ic_status translate_yield(ctx *c, pval **in, size_t n_in) {
  const cfframe *f = c->cf;
  const size_t off = f->is_while ? 1 : 0;
  if (n_in != f->n + off) {
    return ic_pj_fail(c, "yields %zu values, expected %zu", n_in, f->n + off);
  }
  ic_status st = cf_tensor_results(c, in, n_in, "yielded value");
  if (st) return st;
  /* A while's next values that read another loop variable go through copies first. */
  bool copy = false;
  for (size_t k = 0; f->is_while && k < f->n; k++) {
    for (size_t j = 0; j < f->n; j++) {
      if (j != k && ic_pj_resolve(in[k + off]) == ic_pj_resolve(f->dst[j])) copy = true;
    }
  }
  pval **src = in + off;
  if (copy) {
    src = ic_arena_calloc(c->arena, f->n ? f->n : 1, sizeof *src);
    if (!src) return ic_pj_oom(c);
    for (size_t k = 0; k < f->n; k++) {
      const pval *r = ic_pj_resolve(f->dst[k]);
      if (!(src[k] = derived(c, r, r->name, ".next"))) return ic_pj_oom(c);
      if ((st = emit_assign(c, in[k + off], src[k]))) return st;
    }
  }
  for (size_t k = 0; k < f->n; k++) {
    if (ic_pj_resolve(src[k]) == ic_pj_resolve(f->dst[k])) continue; /* unchanged loop variable */
    if ((st = emit_assign(c, src[k], f->dst[k]))) return st;
  }
  if (f->is_while && (st = emit_assign(c, in[0], f->cond))) return st;
  return IC_OK;
}

/* An empty tensor array: a LOD_TENSOR_ARRAY variable, no op (as fluid's create_array). */
ic_status ic_pj_tr_create_array(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  size_t n_out = oa->n_out;
  pval *out0 = oa->out0;
  bool first = oa->first;
  if (n_out != 1 || !out0 || !out0->is_array) return ic_pj_fail(c, "expected one tensor-array result");
  return first ? IC_OK : ic_pj_declare(c, out0);
}

/* array_write_(array, x, i): write_to_array into the array's variable; the result is
 * that same array (the op is inplace), so it names the same variable. */
ic_status ic_pj_tr_array_write(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  size_t n_out = oa->n_out;
  pval *out0 = oa->out0;
  bool first = oa->first;
  ic_status st = IC_OK;
  if (n_in != 3 || !in[0] || !in[1] || !in[2] || n_out != 1 || !out0) {
    return ic_pj_fail(c, "expected operands (array, x, i) and one result");
  }
  pval *arr = ic_pj_resolve(in[0]);
  if (!arr->is_array) return ic_pj_fail(c, "operand 0 (%s) is not a tensor array", arr->name);
  if (first) {
    out0->alias = arr;
    ic_pj_mark_use(in[1]);
    ic_pj_mark_use(in[2]);
    return IC_OK;
  }
  if ((st = ic_pj_declare(c, arr))) return st;
  ic_builder_op *bop = ic_builder_add_op(c->b, c->block, "write_to_array");
  if ((st = ic_pj_emit_values(c, bop, true, "X", 1, &in[1]))) return st;
  if ((st = ic_pj_emit_values(c, bop, true, "I", 1, &in[2]))) return st;
  return ic_pj_emit_values(c, bop, false, "Out", 1, &arr);
}

/* array[-k] (a Python list's x[-1] under to_static): read_from_array takes no negative
 * index, so I = lod_array_length(array) - k, as the phi kernel counts from the end. */
ic_status ic_pj_tr_array_read_back(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  pval **in = oa->in;
  pval *out0 = oa->out0;
  bool first = oa->first;
  ic_status st = IC_OK;
  if (first) {
    ic_pj_mark_use(in[0]);
    return IC_OK;
  }
  pval *len = ic_pj_new_value(c, out0->id), *idx = ic_pj_new_value(c, out0->id);
  if (!len || !idx) return ic_pj_oom(c);
  char tn[48];
  snprintf(tn, sizeof tn, "%s.len", out0->name);
  if (!(len->name = ic_arena_strdup(c->arena, tn))) return ic_pj_oom(c);
  snprintf(tn, sizeof tn, "%s.idx", out0->name);
  if (!(idx->name = ic_arena_strdup(c->arena, tn))) return ic_pj_oom(c);
  len->has_type = len->tensor = idx->has_type = idx->tensor = true;
  len->dtype = idx->dtype = IC_INT64;
  len->ndim = idx->ndim = 1;
  len->dims[0] = idx->dims[0] = 1;
  ic_builder_op *lo = ic_builder_add_op(c->b, c->block, "lod_array_length");
  if ((st = ic_pj_emit_values(c, lo, true, "X", 1, &in[0])) ||
      (st = ic_pj_emit_values(c, lo, false, "Out", 1, &len))) {
    return st;
  }
  ic_builder_op *sc = ic_builder_add_op(c->b, c->block, "scale");
  ic_builder_attr_float(sc, "scale", 1.0f);
  ic_builder_attr_float(sc, "bias", (float)ic_pj_resolve(in[1])->kints[0]);
  ic_builder_attr_bool(sc, "bias_after_scale", true);
  if ((st = ic_pj_emit_values(c, sc, true, "X", 1, &len)) ||
      (st = ic_pj_emit_values(c, sc, false, "Out", 1, &idx))) {
    return st;
  }
  ic_builder_op *rd = ic_builder_add_op(c->b, c->block, "read_from_array");
  if ((st = ic_pj_emit_values(c, rd, true, "X", 1, &in[0])) ||
      (st = ic_pj_emit_values(c, rd, true, "I", 1, &idx))) {
    return st;
  }
  return ic_pj_emit_values(c, rd, false, "Out", 1, &out0);
}

/* Control flow: regions become blocks. pd_op.if and pd_op.while become the ops of
 * Paddle's legacy cond and while (translate_if, translate_while); others keep their
 * PIR name (no kernel). */
ic_status ic_pj_tr_regions(ctx *c, const json_t *op, const json_t *regions, bool pd,
                           const pir_opargs *oa) {
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  pval **out = oa->out;
  size_t n_out = oa->n_out;
  bool first = oa->first;
  const char *name = oa->name;
  ic_status st = IC_OK;
  if (!json_is_array(regions)) return ic_pj_fail(c, "\"regions\" is %s, expected an array", ic_pj_jtype(regions));
  if (!first && pd && strcmp(name, "if") == 0) return translate_if(c, regions, in, n_in, out, n_out);
  if (!first && pd && strcmp(name, "while") == 0) {
    return translate_while(c, regions, in, n_in, out, n_out);
  }
  ic_builder_op *bop = first ? NULL : ic_builder_add_op(c->b, c->block, c->opname);
  const char *opname = c->opname;
  long opindex = c->op;
  int block = c->block;
  size_t i;
  json_t *r;
  const cfframe *saved = c->cf;
  c->cf = NULL; /* a yield in these regions is not an enclosing if's or while's */
  json_array_foreach(regions, i, r) {
    int fb = -1, nb = 0;
    if ((st = ic_pj_walk_region(c, r, block, &fb, &nb))) return st;
    c->block = block;
    c->op = opindex;
    c->opname = opname;
    if (bop) {
      for (int k = 0; k < nb; k++) {
        char an[48];
        snprintf(an, sizeof an, "sub_block_%zu_%d", i, k);
        ic_builder_attr_block(bop, an, fb + k);
      }
    }
  }
  c->cf = saved;
  if (!first) {
    size_t nv = 0;
    pval **vs = ic_arena_calloc(c->arena, n_in ? n_in : 1, sizeof *vs);
    if (!vs) return ic_pj_oom(c);
    for (size_t k = 0; k < n_in; k++) if (in[k] && !ic_pj_resolve(in[k])->is_vec) vs[nv++] = in[k];
    if ((st = ic_pj_emit_values(c, bop, true, "Input", nv, vs))) return st;
    nv = 0;
    pval **os = ic_arena_calloc(c->arena, n_out ? n_out : 1, sizeof *os);
    if (!os) return ic_pj_oom(c);
    for (size_t k = 0; k < n_out; k++) if (out[k] && !out[k]->is_vec) os[nv++] = out[k];
    return ic_pj_emit_values(c, bop, false, "Out", nv, os);
  }
  for (size_t k = 0; k < n_in; k++) if (in[k]) ic_pj_mark_use(in[k]);
  return IC_OK;
}

/* cf.yield and friends, inside control-flow blocks: kept under their PIR names, but for
 * the yield that ends an if branch or a while body. */
ic_status ic_pj_tr_cf(ctx *c, const json_t *op, const pir_opargs *oa) {
  (void)op;
  pval **in = oa->in;
  size_t n_in = oa->n_in;
  pval **out = oa->out;
  size_t n_out = oa->n_out;
  bool first = oa->first;
  const char *name = oa->name;
  ic_status st = IC_OK;
  if (first) {
    for (size_t k = 0; k < n_in; k++) if (in[k]) ic_pj_mark_use(in[k]);
    return IC_OK;
  }
  if (c->cf && strcmp(name, "yield") == 0) return translate_yield(c, in, n_in);
  ic_builder_op *bop = ic_builder_add_op(c->b, c->block, c->opname);
  size_t nv = 0;
  for (size_t k = 0; k < n_in; k++) if (in[k] && !ic_pj_resolve(in[k])->is_vec) in[nv++] = in[k];
  if ((st = ic_pj_emit_values(c, bop, true, "X", nv, in))) return st;
  nv = 0;
  for (size_t k = 0; k < n_out; k++) if (out[k] && !out[k]->is_vec) out[nv++] = out[k];
  return ic_pj_emit_values(c, bop, false, "Out", nv, out);
}
