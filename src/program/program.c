/* Loading a ProgramDesc: protobuf-c parses the bytes, then every block, variable, op and
 * attribute is converted once into the plain structs of program.h and validated. */
#include "program/program.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

#include "common/arena.h"
#include "common/pballoc.h"
#include "framework.pb-c.h"
#include "program/ctrlspec.h"
#include "program/pir_json.h"

typedef Paddle__Framework__Proto__ProgramDesc pb_program;
typedef Paddle__Framework__Proto__BlockDesc pb_block;
typedef Paddle__Framework__Proto__VarDesc pb_var;
typedef Paddle__Framework__Proto__OpDesc pb_op;
typedef Paddle__Framework__Proto__OpDesc__Attr pb_attr;
typedef Paddle__Framework__Proto__OpDesc__Var pb_slot;
typedef Paddle__Framework__Proto__VarType__TensorDesc pb_tensor_desc;

/* The variable name Paddle uses for "no variable" in grad programs. */
static const char k_empty_var[] = "@EMPTY@";

const char *ic_attr_type_name(int type) {
  static const char *const names[] = {
      "INT",  "FLOAT", "STRING", "INTS",     "FLOATS", "STRINGS", "BOOLEAN", "BOOLEANS", "BLOCK",
      "LONG", "BLOCKS", "LONGS", "FLOAT64S", "VAR",    "VARS",    "FLOAT64", "SCALAR",   "SCALARS"};
  if (type < 0 || type >= (int)(sizeof names / sizeof names[0])) return "UNKNOWN";
  return names[type];
}

static bool is_known_dtype(int t) { return ic_dtype_name(t) != NULL; }

static const char *paddle_type_name(int t) {
  switch (t) {
    case 19: return "SIZE_T";
    case 23: return "COMPLEX64";
    case 24: return "COMPLEX128";
    case 32: return "FP8_E4M3FN";
    case 33: return "FP8_E5M2";
  }
  const char *n = ic_dtype_name(t);
  return n ? n : "unknown";
}

/* Variable kinds icore knows; anything else is rejected at load with its number. */
static bool is_known_var_type(int t) {
  switch (t) {
    case 7: case 8: case 9: case 10: case 11: case 12: case 13: case 14: case 15: case 17:
    case 18: case 25: case 26: case 27: case 28: case 29: case 30: case 31:
      return true;
  }
  return false;
}

static int attr_cmp(const void *a, const void *b) {
  return strcmp(((const ic_attr *)a)->name, ((const ic_attr *)b)->name);
}

static ic_status convert_attr(ic_program *p, const pb_attr *in, ic_attr *out, ic_err *err,
                              const char *where) {
  ic_arena *a = p->arena;
  out->name = in->name;
  out->type = (ic_attr_type)in->type;
  int type = (int)in->type;
  switch (type) {
    case IC_ATTR_INT: out->i = in->i; break;
    case IC_ATTR_LONG: out->i = in->l; break;
    case IC_ATTR_BOOLEAN: out->i = in->b ? 1 : 0; break;
    case IC_ATTR_BLOCK: out->i = in->block_idx; break;
    case IC_ATTR_FLOAT: out->f = in->f; break;
    case IC_ATTR_FLOAT64: out->f = in->float64; break;
    case IC_ATTR_STRING: out->s = in->s ? in->s : ""; break;
    case IC_ATTR_VAR: out->s = in->var_name ? in->var_name : ""; break;
    case IC_ATTR_STRINGS:
      out->n = in->n_strings;
      out->strings = (const char *const *)in->strings;
      break;
    case IC_ATTR_VARS:
      out->n = in->n_vars_name;
      out->strings = (const char *const *)in->vars_name;
      break;
    case IC_ATTR_INTS:
    case IC_ATTR_LONGS:
    case IC_ATTR_BOOLEANS:
    case IC_ATTR_BLOCKS: {
      size_t n = type == IC_ATTR_INTS     ? in->n_ints
                 : type == IC_ATTR_LONGS  ? in->n_longs
                 : type == IC_ATTR_BOOLEANS ? in->n_bools
                                                : in->n_blocks_idx;
      int64_t *v = ic_arena_calloc(a, n ? n : 1, sizeof *v);
      if (!v) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      for (size_t k = 0; k < n; k++) {
        v[k] = type == IC_ATTR_INTS      ? in->ints[k]
               : type == IC_ATTR_LONGS   ? in->longs[k]
               : type == IC_ATTR_BOOLEANS ? (in->bools[k] ? 1 : 0)
                                              : in->blocks_idx[k];
      }
      out->n = n;
      out->ints = v;
      break;
    }
    case IC_ATTR_FLOATS:
    case IC_ATTR_FLOAT64S:
    case IC_ATTR_SCALARS: {
      size_t n = type == IC_ATTR_FLOATS ? in->n_floats
                 : type == IC_ATTR_FLOAT64S ? in->n_float64s
                                                : in->n_scalars;
      double *v = ic_arena_calloc(a, n ? n : 1, sizeof *v);
      if (!v) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      for (size_t k = 0; k < n; k++) {
        if (type == IC_ATTR_FLOATS) {
          v[k] = in->floats[k];
        } else if (type == IC_ATTR_FLOAT64S) {
          v[k] = in->float64s[k];
        } else {
          const Paddle__Framework__Proto__Scalar *s = in->scalars[k];
          v[k] = s->has_r ? s->r : s->has_i ? (double)s->i : s->has_b ? (double)s->b : 0.0;
        }
      }
      out->n = n;
      out->floats = v;
      break;
    }
    case IC_ATTR_SCALAR:
      if (!in->scalar) {
        return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                          "%s: attribute '%s' is SCALAR but holds no value", where, in->name);
      }
      if (in->scalar->has_r) {
        out->f = in->scalar->r;
        out->scalar_is_float = true;
      } else if (in->scalar->has_i) {
        out->i = in->scalar->i;
        out->f = (double)in->scalar->i;
      } else {
        out->i = in->scalar->has_b && in->scalar->b;
        out->f = (double)out->i;
      }
      break;
    default:
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                        "%s: attribute '%s' has unknown type %d", where, in->name, (int)in->type);
  }
  return IC_OK;
}

static ic_status convert_slots(ic_program *p, size_t n, pb_slot **in, const ic_slot **out,
                               ic_err *err) {
  ic_slot *s = ic_arena_calloc(p->arena, n ? n : 1, sizeof *s);
  if (!s) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t k = 0; k < n; k++) {
    s[k].name = in[k]->parameter;
    s[k].n = in[k]->n_arguments;
    s[k].args = (const char *const *)in[k]->arguments;
  }
  *out = s;
  return IC_OK;
}

static ic_status convert_var(ic_program *p, int block, const pb_var *in, ic_vardesc *out,
                             ic_err *err) {
  out->name = in->name;
  out->block = block;
  out->persistable = in->has_persistable && in->persistable;
  out->type = in->type ? (int)in->type->type : -1;
  if (!in->type || !is_known_var_type(out->type)) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "%s: block %d, variable '%s': unknown variable type %d", p->origin,
                      block, in->name, out->type);
  }
  const pb_tensor_desc *td = NULL;
  if (out->type == 7 && in->type->lod_tensor) {
    td = in->type->lod_tensor->tensor;
    out->lod_level = in->type->lod_tensor->lod_level;
  } else if (out->type == 8 && in->type->selected_rows) {
    td = in->type->selected_rows;
  } else if (out->type == 13 && in->type->tensor_array) {
    td = in->type->tensor_array->tensor;
  }
  if (out->type == 7 && !td) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "%s: block %d, variable '%s': LOD_TENSOR without a tensor description",
                      p->origin, block, in->name);
  }
  if (!td) return IC_OK;
  out->is_tensor = out->type == 7 || out->type == 8;
  if (!is_known_dtype((int)td->data_type)) {
    return ic_err_set(err, IC_ERR_UNSUPPORTED,
                      "%s: block %d, variable '%s': data type %d (%s) is not supported; "
                      "expected one of bool, int8, uint8, int16, int32, int64, float16, "
                      "bfloat16, float32, float64",
                      p->origin, block, in->name, (int)td->data_type,
                      paddle_type_name((int)td->data_type));
  }
  out->dtype = (ic_dtype)td->data_type;
  if (td->n_dims > IC_MAX_RANK) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "%s: block %d, variable '%s': %zu dims, at most %d allowed", p->origin,
                      block, in->name, td->n_dims, IC_MAX_RANK);
  }
  out->ndim = (int)td->n_dims;
  for (size_t k = 0; k < td->n_dims; k++) {
    /* Paddle's static shape inference writes other negative numbers too (-50, -1917): any
     * negative dim is unknown, kept as -1. */
    out->dims[k] = td->dims[k] < 0 ? -1 : td->dims[k];
  }
  return IC_OK;
}

const ic_vardesc *ic_program_find_var(const ic_program *p, int block, const char *name) {
  /* Parents were validated acyclic at load, so this walk ends. */
  while (block >= 0 && (size_t)block < p->n_blocks) {
    const ic_block *b = &p->blocks[block];
    const ic_vardesc *v = ic_strmap_get(&b->var_index, name);
    if (v) return v;
    /* A grad block reads the forward block's variables (Paddle runs it in the forward's
     * step scope); forward is checked at load to be another block's index. */
    if (b->forward >= 0 && (v = ic_strmap_get(&p->blocks[b->forward].var_index, name))) return v;
    block = b->parent;
  }
  return NULL;
}

const ic_vardesc *ic_program_find_var_global(const ic_program *p, int block, const char *name) {
  const ic_vardesc *v = ic_program_find_var(p, block, name);
  for (size_t b = 0; !v && b < p->n_blocks; b++) {
    const ic_vardesc *d = ic_strmap_get(&p->blocks[b].var_index, name);
    if (d && d->persistable) v = d;
  }
  return v;
}

static ic_status check_blocks(const ic_program *p, const pb_program *pb, ic_err *err) {
  if (pb->n_blocks == 0) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: the program has no blocks", p->origin);
  }
  for (size_t i = 0; i < pb->n_blocks; i++) {
    const pb_block *b = pb->blocks[i];
    if (b->idx != (int32_t)i) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                        "%s: block at position %zu has idx %d, expected %zu", p->origin, i,
                        b->idx, i);
    }
    bool ok = i == 0 ? b->parent_idx == -1 || b->parent_idx == 0
                     : b->parent_idx >= 0 && (size_t)b->parent_idx < pb->n_blocks &&
                           (size_t)b->parent_idx != i;
    if (!ok) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                        "%s: block %zu has parent_idx %d, expected %s", p->origin, i,
                        b->parent_idx, i == 0 ? "-1" : "another block's index");
    }
    if (b->has_forward_block_idx && b->forward_block_idx != -1 &&
        (b->forward_block_idx <= 0 || (size_t)b->forward_block_idx >= pb->n_blocks ||
         (size_t)b->forward_block_idx == i)) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                        "%s: block %zu has forward_block_idx %d, expected -1 or another "
                        "sub-block's index", p->origin, i, b->forward_block_idx);
    }
  }
  /* Acyclic, and nested at most IC_MAX_BLOCK_DEPTH deep: each block's depth is found once,
   * walking up only to the first block whose depth is known, so this is linear in the number
   * of blocks (walking every chain to the root was quadratic for deeply nested programs). */
  size_t n = pb->n_blocks;
  int32_t *depth = malloc(n * sizeof *depth); /* -1 unknown, -2 on the current walk */
  size_t *path = malloc(n * sizeof *path);
  if (!depth || !path) {
    free(depth);
    free(path);
    return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  }
  for (size_t i = 0; i < n; i++) depth[i] = -1;
  depth[0] = 0;
  ic_status st = IC_OK;
  for (size_t i = 1; i < n && !st; i++) {
    size_t len = 0, cur = i;
    while (depth[cur] == -1) {
      depth[cur] = -2;
      path[len++] = cur;
      cur = (size_t)pb->blocks[cur]->parent_idx;
    }
    if (depth[cur] == -2) {
      st = ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "%s: block %zu: its parent chain is a cycle that never reaches block 0",
                      p->origin, cur);
      break;
    }
    int32_t d = depth[cur];
    while (len > 0) {
      size_t b = path[--len];
      depth[b] = ++d;
      if (d > IC_MAX_BLOCK_DEPTH) {
        st = ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                        "%s: block %zu is nested %d blocks deep, at most %d supported",
                        p->origin, b, (int)d, IC_MAX_BLOCK_DEPTH);
        break;
      }
    }
  }
  free(depth);
  free(path);
  return st;
}

/* while, recurrent (and recurrent_grad) and conditional_block (and conditional_block_infer): a sub_block
 * attribute naming a block whose parent is the op's own block (so sub-blocks form a tree and
 * every run of them terminates); for while exactly one Condition variable; for recurrent
 * links that fit (ic_ctrl_rnn_spec). */
static ic_status check_control_flow(const ic_program *p, const ic_op *op, const char *where,
                                    ic_err *err) {
  bool is_while = strcmp(op->type, "while") == 0;
  bool is_rnn = strcmp(op->type, "recurrent") == 0 || strcmp(op->type, "recurrent_grad") == 0;
  if (!is_while && !is_rnn && strcmp(op->type, "conditional_block") != 0 &&
      strcmp(op->type, "conditional_block_infer") != 0) {
    return IC_OK;
  }
  const ic_attr *sb = ic_op_attr(op, "sub_block");
  if (!sb || sb->type != IC_ATTR_BLOCK) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "%s: expected a BLOCK attribute 'sub_block', got %s", where,
                      sb ? ic_attr_type_name(sb->type) : "none");
  }
  const ic_block *b = &p->blocks[sb->i];
  if (b->parent != op->block) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "%s: sub_block %lld has parent block %d, expected the op's block %d",
                      where, (long long)sb->i, b->parent, op->block);
  }
  if (is_while) {
    const ic_slot *c = ic_op_input(op, "Condition");
    if (!c || c->n != 1) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                        "%s: expected exactly one Condition variable, got %zu", where,
                        c ? c->n : (size_t)0);
    }
  }
  if (is_rnn) {
    ic_rnn_spec r; /* its links (ctrlspec.c) */
    return ic_ctrl_rnn_spec(p, op, &r, err);
  }
  return IC_OK;
}

/* Ops that read one of their outputs' previous value (Paddle's kernel uses the output
 * tensor as it finds it, without naming it as an input): in the mode where it does so
 * (is_test, absent meaning false, equal to `when_test`) such an op gets an input slot of the
 * output's name naming the same variables, so that the executors bind it as read (the
 * scope's value) and order it, and commit it when written, as they do an optimizer's
 * Param/ParamOut. fake_quantize_range_abs_max reads its window of scales OutScales in
 * training; fake_channel_wise_quantize_abs_max quantizes with the scales OutScale holds at
 * inference, where moving_average_abs_max_scale leaves its OutScale as it is: there only a
 * persistable OutScale has a value to leave (a temporary, such as every value of a PIR
 * program, starts each run empty in Paddle, and stays so: the kernel gives an empty tensor),
 * so only a persistable one is read back (`persistable`). */
static const struct {
  const char *op, *slot;
  bool when_test, persistable;
} k_read_back[] = {{"fake_quantize_range_abs_max", "OutScales", false, false},
                   {"fake_channel_wise_quantize_abs_max", "OutScale", true, false},
                   {"moving_average_abs_max_scale", "OutScale", true, true}};

static ic_status add_read_back(ic_program *p, ic_op *op, ic_err *err) {
  for (size_t k = 0; k < sizeof k_read_back / sizeof k_read_back[0]; k++) {
    if (strcmp(op->type, k_read_back[k].op) != 0) continue;
    const ic_attr *t = ic_op_attr(op, "is_test");
    const ic_slot *o = ic_op_output(op, k_read_back[k].slot);
    /* read as ic_ar_bool reads it: BOOLEAN, INT or LONG */
    bool is_test = t && t->i &&
                   (t->type == IC_ATTR_BOOLEAN || t->type == IC_ATTR_INT ||
                    t->type == IC_ATTR_LONG);
    if (is_test != k_read_back[k].when_test || !o || !o->n ||
        ic_op_input(op, k_read_back[k].slot)) {
      continue;
    }
    if (k_read_back[k].persistable) {
      const ic_vardesc *d = ic_program_find_var_global(p, op->block, o->args[0]);
      if (!d || !d->persistable) continue;
    }
    ic_slot *s = ic_arena_calloc(p->arena, op->n_inputs + 1, sizeof *s);
    if (!s) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    if (op->n_inputs) memcpy(s, op->inputs, op->n_inputs * sizeof *s);
    s[op->n_inputs] = *o;
    op->inputs = s;
    op->n_inputs++;
  }
  return IC_OK;
}

static ic_status check_op(const ic_program *p, const ic_op *op, ic_err *err) {
  char where[160];
  snprintf(where, sizeof where, "%s: op #%d (%s) in block %d", p->origin, op->index, op->type,
           op->block);
  for (int io = 0; io < 2; io++) {
    size_t n = io ? op->n_outputs : op->n_inputs;
    const ic_slot *slots = io ? op->outputs : op->inputs;
    for (size_t s = 0; s < n; s++) {
      for (size_t k = 0; k < slots[s].n; k++) {
        const char *v = slots[s].args[k];
        if (strcmp(v, k_empty_var) == 0) continue;
        if (!ic_program_find_var(p, op->block, v)) {
          return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                            "%s: %s %s names variable '%s', which is not declared in block %d "
                            "or its ancestors",
                            where, io ? "output" : "input", slots[s].name, v, op->block);
        }
      }
    }
  }
  for (size_t a = 0; a < op->n_attrs; a++) {
    const ic_attr *at = &op->attrs[a];
    if (a > 0 && strcmp(at->name, op->attrs[a - 1].name) == 0) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM, "%s: attribute '%s' appears twice", where,
                        at->name);
    }
    size_t nb = at->type == IC_ATTR_BLOCK ? 1 : at->type == IC_ATTR_BLOCKS ? at->n : 0;
    for (size_t k = 0; k < nb; k++) {
      int64_t bi = at->type == IC_ATTR_BLOCK ? at->i : at->ints[k];
      if (bi < 0 || (size_t)bi >= p->n_blocks) {
        return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                          "%s: attribute '%s' names block %lld, but the program has %zu blocks",
                          where, at->name, (long long)bi, p->n_blocks);
      }
    }
  }
  return check_control_flow(p, op, where, err);
}

/* Feed and fetch targets of block 0, ordered by the ops' `col` attribute. */
static ic_status collect_targets(ic_program *p, const char *op_type, const char *slot,
                                 size_t *n_out, const char ***out, ic_err *err) {
  const ic_block *b = &p->blocks[0];
  size_t n = 0;
  for (size_t i = 0; i < b->n_ops; i++) n += strcmp(b->ops[i].type, op_type) == 0;
  const char **names = ic_arena_calloc(p->arena, n ? n : 1, sizeof *names);
  if (!names) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t i = 0; i < b->n_ops; i++) {
    const ic_op *op = &b->ops[i];
    if (strcmp(op->type, op_type) != 0) continue;
    const ic_attr *col = ic_op_attr(op, "col");
    const ic_slot *s = strcmp(slot, "Out") == 0 ? ic_op_output(op, slot) : ic_op_input(op, slot);
    if (!s || s->n != 1) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                        "%s: op #%zu (%s) in block 0: expected exactly one variable in %s",
                        p->origin, i, op_type, slot);
    }
    if (!col || (col->type != IC_ATTR_INT && col->type != IC_ATTR_LONG) || col->i < 0 ||
        (size_t)col->i >= n) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                        "%s: op #%zu (%s) in block 0: attribute 'col' must be an INT in [0, %zu)",
                        p->origin, i, op_type, n);
    }
    if (names[col->i]) {
      return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                        "%s: op #%zu (%s) in block 0: col %lld is used by two %s ops",
                        p->origin, i, op_type, (long long)col->i, op_type);
    }
    names[col->i] = s->args[0];
  }
  *n_out = n;
  *out = names;
  return IC_OK;
}

bool ic_program_is_reader_op(const char *type) {
  static const char *const k_readers[] = {"create_py_reader", "create_double_buffer_reader",
                                          "create_custom_reader", "open_files", "read"};
  for (size_t i = 0; i < sizeof k_readers / sizeof k_readers[0]; i++) {
    if (strcmp(type, k_readers[i]) == 0) return true;
  }
  return false;
}

/* The outputs of block 0's `read` ops, after the feed ops' targets: feed targets too. */
static ic_status collect_reader_targets(ic_program *p, ic_err *err) {
  const ic_block *b = &p->blocks[0];
  p->n_feed_ops = p->n_feeds;
  size_t extra = 0;
  for (size_t i = 0; i < b->n_ops; i++) {
    const ic_slot *s = strcmp(b->ops[i].type, "read") == 0 ? ic_op_output(&b->ops[i], "Out") : NULL;
    extra += s ? s->n : 0;
  }
  if (!extra) return IC_OK;
  const char **names = ic_arena_calloc(p->arena, p->n_feeds + extra, sizeof *names);
  if (!names) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  if (p->n_feeds) memcpy(names, p->feeds, p->n_feeds * sizeof *names);
  size_t n = p->n_feeds;
  for (size_t i = 0; i < b->n_ops; i++) {
    const ic_slot *s = strcmp(b->ops[i].type, "read") == 0 ? ic_op_output(&b->ops[i], "Out") : NULL;
    for (size_t k = 0; s && k < s->n; k++) {
      for (size_t j = 0; j < n; j++) {
        if (strcmp(names[j], s->args[k]) == 0) {
          return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                            "%s: op #%zu (read) in block 0: output '%s' is already a feed "
                            "target", p->origin, i, s->args[k]);
        }
      }
      names[n++] = s->args[k];
    }
  }
  p->feeds = names;
  p->n_feeds = n;
  return IC_OK;
}

static ic_status build(ic_program *p, ic_err *err) {
  pb_program *pb = p->pb;
  ic_status st = check_blocks(p, pb, err);
  if (st) return st;
  p->version = pb->version && pb->version->has_version ? pb->version->version : 0;
  p->n_blocks = pb->n_blocks;
  p->blocks = ic_arena_calloc(p->arena, pb->n_blocks, sizeof *p->blocks);
  if (!p->blocks) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  for (size_t bi = 0; bi < pb->n_blocks; bi++) {
    const pb_block *in = pb->blocks[bi];
    ic_block *b = &p->blocks[bi];
    b->idx = (int)bi;
    b->parent = bi == 0 ? -1 : in->parent_idx;
    b->forward = in->has_forward_block_idx && in->forward_block_idx >= 0 ? in->forward_block_idx : -1;
    ic_strmap_init(&b->var_index);
    b->n_vars = in->n_vars;
    b->vars = ic_arena_calloc(p->arena, in->n_vars ? in->n_vars : 1, sizeof *b->vars);
    b->n_ops = in->n_ops;
    b->ops = ic_arena_calloc(p->arena, in->n_ops ? in->n_ops : 1, sizeof *b->ops);
    if (!b->vars || !b->ops) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t v = 0; v < in->n_vars; v++) {
      if ((st = convert_var(p, (int)bi, in->vars[v], &b->vars[v], err))) return st;
      if (ic_strmap_get(&b->var_index, b->vars[v].name)) {
        return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                          "%s: block %zu declares variable '%s' twice", p->origin, bi,
                          b->vars[v].name);
      }
      if (!ic_strmap_put(&b->var_index, b->vars[v].name, &b->vars[v])) {
        return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      }
    }
  }
  for (size_t bi = 0; bi < pb->n_blocks; bi++) {
    const pb_block *in = pb->blocks[bi];
    ic_block *b = &p->blocks[bi];
    for (size_t o = 0; o < in->n_ops; o++) {
      const pb_op *pop = in->ops[o];
      ic_op *op = &b->ops[o];
      op->type = pop->type;
      op->block = (int)bi;
      op->index = (int)o;
      op->n_inputs = pop->n_inputs;
      op->n_outputs = pop->n_outputs;
      if ((st = convert_slots(p, pop->n_inputs, pop->inputs, &op->inputs, err))) return st;
      if ((st = convert_slots(p, pop->n_outputs, pop->outputs, &op->outputs, err))) return st;
      if (strcmp(op->type, "slice") == 0) {
        /* slice of a LoDTensorArray (Paddle 2.x to_static's a_list[k]): its own kernel */
        for (size_t k = 0; k < op->n_inputs; k++) {
          const ic_slot *sl = &op->inputs[k];
          if (strcmp(sl->name, "Input") != 0 || sl->n != 1) continue;
          const ic_vardesc *d = ic_program_find_var(p, (int)bi, sl->args[0]);
          if (d && d->type == IC_VAR_LOD_TENSOR_ARRAY) op->type = "slice_array";
        }
      }
      /* strided_slice and set_value (and its grad) of a Paddle 2.x program (version 2.0.0
       * to 2.x, as 2000002 for 2.0.2): marked ic_paddle2, their negative-stride ends read as
       * 2.x did (strided_slice.c, set_value.c) */
      const bool paddle2 = p->version > 0 && p->version < 3000000 &&
                           (strcmp(op->type, "strided_slice") == 0 ||
                            strcmp(op->type, "set_value") == 0 ||
                            strcmp(op->type, "set_value_grad") == 0);
      ic_attr *attrs = ic_arena_calloc(p->arena, pop->n_attrs + 1, sizeof *attrs);
      if (!attrs) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
      char where[160];
      snprintf(where, sizeof where, "%s: op #%zu (%s) in block %zu", p->origin, o, op->type, bi);
      size_t n_attrs = 0;
      for (size_t a = 0; a < pop->n_attrs; a++) {
        /* an attribute named again later in the OpDesc (Paddle 2.6 training programs repeat
         * reshape2's use_mkldnn, mkldnn_data_type, use_quantizer): Paddle keeps the last one
         * (its OpDesc reads attrs into a map), so this one is skipped */
        bool later = false;
        for (size_t c = a + 1; c < pop->n_attrs && !later; c++) {
          later = strcmp(pop->attrs[a]->name, pop->attrs[c]->name) == 0;
        }
        if (later) continue;
        if ((st = convert_attr(p, pop->attrs[a], &attrs[n_attrs++], err, where))) return st;
      }
      bool marked = !paddle2; /* a program's own ic_paddle2 attribute is kept, not doubled */
      for (size_t a = 0; a < n_attrs && !marked; a++) marked = !strcmp(attrs[a].name, "ic_paddle2");
      if (!marked) {
        attrs[n_attrs++] = (ic_attr){.name = "ic_paddle2", .type = IC_ATTR_BOOLEAN, .i = 1};
      }
      qsort(attrs, n_attrs, sizeof *attrs, attr_cmp);
      op->n_attrs = n_attrs;
      op->attrs = attrs;
      if ((st = add_read_back(p, op, err)) || (st = check_op(p, op, err))) return st;
    }
  }
  if ((st = collect_targets(p, "feed", "Out", &p->n_feeds, &p->feeds, err))) return st;
  if ((st = collect_reader_targets(p, err))) return st;
  return collect_targets(p, "fetch", "X", &p->n_fetches, &p->fetches, err);
}


/* An ONNX ModelProto (a common mix-up: files named __model__ or .pdmodel holding one): it
 * opens with ir_version (field 1, varint: 0x08) where a ProgramDesc opens with its blocks
 * (field 1, length-delimited: 0x0A), and names its producer or an "ai.onnx" opset early on.
 * Only to word the error; such a file never parses as a ProgramDesc anyway. */
static bool looks_onnx(const void *data, size_t size) {
  const unsigned char *b = data;
  if (size < 8 || b[0] != 0x08) return false;
  const size_t n = size < 4096 ? size : 4096;
  static const char *const marks[] = {"onnx", "pytorch", "paddle2onnx", "tf2onnx", "skl2onnx"};
  for (size_t m = 0; m < sizeof marks / sizeof marks[0]; m++) {
    const size_t l = strlen(marks[m]);
    for (size_t i = 0; i + l <= n; i++) {
      if (memcmp(b + i, marks[m], l) == 0) return true;
    }
  }
  return false;
}

ic_status ic_program_from_bytes(const void *data, size_t size, const char *origin,
                                ic_program **out, char *errbuf, size_t errlen) {
  ic_err err;
  ic_err_clear(&err);
  ic_status st = IC_OK;
  if (out) *out = NULL;
  if (!out || (!data && size)) {
    ic_err_set(&err, IC_ERR_INVALID_ARGUMENT, "ic_program_from_bytes: NULL argument");
    ic_err_out(&err, errbuf, errlen);
    return err.code;
  }
  if (ic_pir_json_sniff(data, size)) {
    /* Paddle 3's PIR JSON: translated into ProgramDesc bytes, then loaded as those. */
    void *pb = NULL;
    size_t pb_size = 0;
    if ((st = ic_pir_json_to_programdesc(data, size, origin, &pb, &pb_size, &err))) {
      ic_err_out(&err, errbuf, errlen);
      return st;
    }
    st = ic_program_from_bytes(pb, pb_size, origin, out, errbuf, errlen);
    free(pb);
    return st;
  }
  ic_program *p = calloc(1, sizeof *p);
  if (!p) goto oom;
  p->origin = strdup(origin ? origin : "<memory>");
  p->bytes = malloc(size ? size : 1);
  p->arena = ic_arena_create();
  if (!p->origin || !p->bytes || !p->arena) goto oom;
  if (size) memcpy(p->bytes, data, size);
  p->size = size;
  p->hash = XXH64(p->bytes, size, 0);
  atomic_init(&p->refs, 1);
  ic_pb_allocator pba;
  p->pb = paddle__framework__proto__program_desc__unpack(ic_pb_allocator_init(&pba), size,
                                                         p->bytes);
  if (!p->pb && pba.failed) goto oom;
  if (!p->pb && looks_onnx(data, size)) {
    st = ic_err_set(&err, IC_ERR_INVALID_PROGRAM,
                    "%s: this is an ONNX model (%zu bytes), not a Paddle program: icore reads "
                    "Paddle's ProgramDesc (.pdmodel, __model__) or PIR JSON (.json)",
                    p->origin, size);
    goto fail;
  }
  if (!p->pb) {
    st = ic_err_set(&err, IC_ERR_INVALID_PROGRAM,
                    "%s: not a valid ProgramDesc (%zu bytes): the protobuf message is truncated, "
                    "corrupt, or lacks a required field (icore reads Paddle programs as a "
                    "ProgramDesc protobuf, .pdmodel or __model__, or as Paddle 3's PIR JSON, "
                    ".json)",
                    p->origin, size);
    goto fail;
  }
  if ((st = build(p, &err))) goto fail;
  *out = p;
  return IC_OK;
oom:
  st = ic_err_set(&err, IC_ERR_OUT_OF_MEMORY, "out of memory loading a program");
fail:
  ic_program_destroy(p);
  ic_err_out(&err, errbuf, errlen);
  return st;
}

/* Read a whole regular file. Anything else (a FIFO, a device such as /dev/zero, a
 * directory) is refused before a byte is read: such a file can be endless, and opening it
 * never waits for a writer (O_NONBLOCK). */
static ic_status read_regular_file(const char *path, unsigned char **out, size_t *size,
                                   ic_err *err) {
  *out = NULL;
  *size = 0;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return ic_err_set(err, IC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  struct stat st;
  const char *bad = fstat(fd, &st) != 0       ? strerror(errno)
                    : S_ISDIR(st.st_mode)      ? "is a directory, expected a file"
                    : !S_ISREG(st.st_mode)     ? "is not a regular file (a FIFO, socket or "
                                                 "device), expected a program file"
                    : (uint64_t)st.st_size > SIZE_MAX - 1 ? "is too large to read"
                                                          : NULL;
  if (bad) {
    close(fd);
    return ic_err_set(err, IC_ERR_IO, "%s: %s", path, bad);
  }
  size_t n = (size_t)st.st_size, got = 0;
  unsigned char *buf = malloc(n ? n : 1);
  if (!buf) {
    close(fd);
    return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "%s: out of memory reading %zu bytes", path, n);
  }
  while (got < n) {
    ssize_t r = read(fd, buf + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      ic_err_set(err, IC_ERR_IO, "%s: read error after %zu of %zu bytes: %s", path, got, n,
                 r < 0 ? strerror(errno) : "the file shrank while it was read");
      free(buf);
      close(fd);
      return IC_ERR_IO;
    }
    got += (size_t)r;
  }
  close(fd);
  *out = buf;
  *size = n;
  return IC_OK;
}

ic_status ic_program_from_file(const char *path, ic_program **out, char *errbuf, size_t errlen) {
  ic_err err;
  ic_err_clear(&err);
  if (out) *out = NULL;
  if (!path || !out) {
    ic_err_set(&err, IC_ERR_INVALID_ARGUMENT, "ic_program_from_file: NULL argument");
    ic_err_out(&err, errbuf, errlen);
    return err.code;
  }
  unsigned char *buf;
  size_t n;
  ic_status st = read_regular_file(path, &buf, &n, &err);
  if (st == IC_OK) {
    st = ic_program_from_bytes(buf, n, path, out, errbuf, errlen);
  } else {
    ic_err_out(&err, errbuf, errlen);
  }
  free(buf);
  return st;
}

void ic_program_retain(const ic_program *p) {
  atomic_fetch_add_explicit(&((ic_program *)p)->refs, 1, memory_order_relaxed);
}

void ic_program_destroy(ic_program *p) {
  if (!p) return;
  /* A program that failed to load never got past refs == 0; free it at once. */
  if (atomic_load(&p->refs) > 0 && atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) != 1) {
    return;
  }
  if (p->blocks) {
    for (size_t i = 0; i < p->n_blocks; i++) ic_strmap_free(&p->blocks[i].var_index);
  }
  ic_pb_allocator pba;
  if (p->pb) paddle__framework__proto__program_desc__free_unpacked(p->pb, ic_pb_allocator_init(&pba));
  ic_arena_destroy(p->arena);
  free(p->bytes);
  free(p->origin);
  free(p);
}

const void *ic_program_bytes(const ic_program *p, size_t *size) {
  if (size) *size = p->size;
  return p->bytes;
}

size_t ic_program_n_feed_targets(const ic_program *p) { return p->n_feeds; }
const char *ic_program_feed_target(const ic_program *p, size_t i) {
  return i < p->n_feeds ? p->feeds[i] : NULL;
}
size_t ic_program_n_fetch_targets(const ic_program *p) { return p->n_fetches; }
const char *ic_program_fetch_target(const ic_program *p, size_t i) {
  return i < p->n_fetches ? p->fetches[i] : NULL;
}

const ic_attr *ic_op_attr(const ic_op *op, const char *name) {
  size_t lo = 0, hi = op->n_attrs;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(op->attrs[mid].name, name);
    if (c == 0) return &op->attrs[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

static const ic_slot *find_slot(size_t n, const ic_slot *s, const char *name) {
  for (size_t i = 0; i < n; i++) {
    if (strcmp(s[i].name, name) == 0) return &s[i];
  }
  return NULL;
}

const ic_slot *ic_op_input(const ic_op *op, const char *name) {
  return find_slot(op->n_inputs, op->inputs, name);
}

const ic_slot *ic_op_output(const ic_op *op, const char *name) {
  return find_slot(op->n_outputs, op->outputs, name);
}

const char *ic_op_where(const ic_op *op, char *buf, size_t len) {
  if (op->index >= 0) {
    snprintf(buf, len, "op #%d (%s) in block %d", op->index, op->type, op->block);
  } else {
    const ic_slot *s = op->n_outputs ? &op->outputs[0] : op->n_inputs ? &op->inputs[0] : NULL;
    const char *v = strcmp(op->type, "fetch") == 0 && op->n_inputs ? op->inputs[0].args[0]
                    : s && s->n ? s->args[0]
                                : "?";
    snprintf(buf, len, "%s op (added for '%s')", op->type, v);
  }
  return buf;
}
