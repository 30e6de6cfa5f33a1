/* The op and kernel interface. Each op type is one ic_opdef in src/kernels/cpu/<op>.c and
 * listed once in src/kernels/ops.def; kernels know nothing of executors, plans or threads.
 *
 * An op runs in three steps, each a function of its definition:
 *   parse(reader, attrs)  once per plan (compiled) or per run (uncompiled): attributes into
 *                         the op's own struct of attrs_size bytes;
 *   infer(ctx)            sets every output's dtype and dims from the inputs' (and, for
 *                         slots marked IC_SLOT_VALUE, their values); never touches storage;
 *   cpu(ctx)              computes. The executor has given every output a fresh buffer,
 *                         except outputs marked IC_SLOT_NO_BUFFER (left empty) and
 *                         IC_SLOT_SHARE (the kernel shares an input's buffer itself).
 * Every function returns IC_OK or sets ctx->err with a message that names the variable and
 * what was expected versus received; the executor adds which op it was. */
#ifndef IC_KERNELS_KERNEL_H
#define IC_KERNELS_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "program/program.h"
#include "scope/tensor.h"

/* Marks helpers that CPU kernels and CUDA kernels share (inline functions in headers): host
 * and device functions under nvcc, plain functions elsewhere. */
#ifndef IC_HD
#if defined(__CUDACC__)
#define IC_HD __host__ __device__
#else
#define IC_HD
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Slot flags. */
#define IC_SLOT_OPTIONAL 0x01u  /* may be absent or empty */
#define IC_SLOT_MULTI 0x02u     /* may hold several variables (Paddle's "duplicable") */
#define IC_SLOT_NO_BUFFER 0x04u /* input: only dtype/dims are read; output: meta only, no data */
#define IC_SLOT_SHARE 0x08u     /* output: the kernel shares an input's buffer */
#define IC_SLOT_VALUE 0x10u     /* input: infer() reads its values (a shape tensor); CPU only */
#define IC_SLOT_IGNORED 0x20u   /* accepted but unused (Paddle bookkeeping such as MomentumTensor) */
#define IC_SLOT_HOLDER 0x40u    /* a feed/fetch holder variable (a list), reached through vars */
#define IC_SLOT_BLOCKED 0x80u   /* input: the kernel reads it in the blocked ic_layouts of
                                   whole channel blocks (tensor.h) when the op's data_format is
                                   NCHW; the executors reject a blocked tensor in any other
                                   data slot */
#define IC_SLOT_DYNAMIC 0x100u  /* output: its dims depend on input values (NMS results), so
                                   infer() sets only what it knows (dtype, rank) and the
                                   kernel sets the dims and allocates the buffer itself with
                                   ic_kalloc_out; the executors leave it alone, and the op
                                   always runs on the host */
#define IC_SLOT_MAYBE_EMPTY 0x200u /* input: may hold no data (a branch that did not run):
                                     select_input; the kernel reads only what it picks */
#define IC_SLOT_ARRAY 0x400u     /* a LoDTensorArray (IC_VK_ARRAY variable), reached through vars;
                                     outputs also carry IC_SLOT_NO_BUFFER */
#define IC_SLOT_PAD16 0x800u     /* input (with IC_SLOT_BLOCKED): also IC_LAYOUT_NCHW16C_PAD, whose
                                     storage is larger than the plain tensor; the executors reject
                                     it in any other slot */

typedef struct ic_slotdef {
  const char *name; /* Paddle's parameter name */
  unsigned flags;   /* IC_SLOT_* */
} ic_slotdef;

/* Op flags. */
#define IC_OP_RANDOM 0x01u         /* draws random numbers: kept in program order */
#define IC_OP_EXTERNAL_STATE 0x02u /* reads or writes state outside its variables */
#define IC_OP_COMM 0x04u           /* communication op: kept in program order */
#define IC_OP_FEED 0x08u           /* reads the feed list */
#define IC_OP_FETCH 0x10u          /* writes the fetch list */
#define IC_OP_COPY 0x40u           /* memcpy_h2d / memcpy_d2h, inserted by analysis */
#define IC_OP_DERIVED 0x80u        /* computes constants from parameters (ic_fold_bn, inserted by
                                      analysis): its outputs are kept across runs and it runs
                                      again only when an input buffer changes */
#define IC_OP_LOD 0x100u           /* sets its outputs' LoD itself (ic_kset_lod) in infer, or in
                                      cpu for IC_SLOT_DYNAMIC outputs (the NMS ops); the
                                      executors share input 0's LoD with output 0 for every
                                      other op whose rows it keeps (interp/runio.c) */
#define IC_OP_SUBBLOCK 0x200u      /* runs a sub-block (while, conditional_block): the executors
                                      run it through the instruction's sub-plan, never cpu() */
#define IC_OP_VIEW 0x20u           /* only shares buffers and sets dims, never touches data: on a
                                      device it runs at launch, as metadata */

/* Variables of one slot as the kernel sees them. */
typedef struct ic_variable ic_variable;

typedef struct ic_kslot {
  size_t n;                   /* 0 for an absent optional slot */
  ic_tensor *const *t;        /* the tensors (inputs must be treated as read-only) */
  ic_variable *const *vars;   /* the variables (IC_SLOT_HOLDER slots use these) */
  const char *const *names;   /* variable names, for messages */
} ic_kslot;

/* What a kernel gets from whoever runs it: the allocator for scratch space and outputs,
 * and the seed for random ops. One per worker thread. */
typedef struct ic_kenv {
  ic_allocator *alloc;      /* buffers for outputs and scratch; on a device, stream-ordered on
                               `stream`, so scratch released at the end of a kernel is safe */
  uint64_t seed;            /* seed for random ops whose `seed` attribute is 0 */
  int intra_threads;        /* threads a kernel may use inside itself (BLAS, oneDNN) */
  /* Device kernels only (NULL on the CPU): the backend's handles, as void * so that this
   * header needs no CUDA headers. A CUDA kernel launches asynchronously on `stream` and
   * returns; tensors' data pointers are device pointers. */
  void *stream;             /* cudaStream_t */
  void *blas;               /* cublasHandle_t bound to `stream` */
  void *dnn;                /* cudnnHandle_t bound to `stream` (NULL if built without cuDNN) */
} ic_kenv;

typedef struct ic_opdef ic_opdef;

/* The threads a kernel's own OpenMP loops may use out of env->intra_threads (at least 1).
 * Under ThreadSanitizer, 1: GNU OpenMP is not instrumented, so TSan cannot see its barriers
 * and would report every write of such a loop's members as racing with the caller's later
 * reads (oneDNN's own threads write from uninstrumented code and need no such care). */
#if defined(__SANITIZE_THREAD__)
#define IC_OMP_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define IC_OMP_UNDER_TSAN 1
#endif
#endif
/* Inside any OpenMP region, even an inactive one (`parallel if (0)`), also 1: a team opened
 * there is a nested one, a second set of libgomp threads spinning beside the caller's
 * (matmul_v2 once ran its one product's GEMM inside its batch loop's `if (0)` region: SVTR
 * batch 1 at 2 threads, 0.13 -> 11 ms of matmuls per run). */
#ifdef _OPENMP
#include <omp.h>
#endif
static inline int ic_omp_threads(const ic_kenv *env) {
#ifdef IC_OMP_UNDER_TSAN
  (void)env;
  return 1;
#else
  if (!env || env->intra_threads <= 1) return 1;
#ifdef _OPENMP
  if (omp_get_level() > 0) return 1;
#endif
  return env->intra_threads;
#endif
}

typedef struct ic_kctx {
  const ic_opdef *def;
  const ic_op *op;        /* the op being run (names and attributes, for messages) */
  const void *attrs;      /* the parsed attribute struct */
  const ic_kslot *in;     /* def->n_inputs slots, in the def's order */
  const ic_kslot *out;    /* def->n_outputs slots */
  ic_err *err;
  ic_kenv *env;
  uint64_t op_key;        /* stable per-op number (program position) for random streams */
  void **state;           /* this instruction's kernel state slot (see ic_opdef.free_state) */
} ic_kctx;

/* The op_key of an op: its place in the program (block, index), so that a random op draws
 * the same values whatever runs around it (ops pruned, fused or inserted before it, either
 * executor); an op the executor made (index -1: feed/fetch, folded constants) gets its
 * position in the run's sequence, in a range of its own. */
static inline uint64_t ic_op_key(const ic_op *op, size_t seq_index) {
  if (op->index >= 0) return ((uint64_t)(uint32_t)op->block << 32) | (uint32_t)op->index;
  return (1ull << 63) | (uint64_t)seq_index;
}

typedef ic_status (*ic_parse_fn)(ic_attr_reader *r, void *attrs);
typedef ic_status (*ic_infer_fn)(ic_kctx *ctx);
typedef ic_status (*ic_kernel_fn)(ic_kctx *ctx);

struct ic_opdef {
  const char *name;
  size_t n_inputs;
  const ic_slotdef *inputs;
  size_t n_outputs;
  const ic_slotdef *outputs;
  size_t attrs_size;    /* bytes of the parsed attribute struct (0: none) */
  ic_parse_fn parse;    /* NULL when there are no attributes to read */
  ic_infer_fn infer;
  ic_kernel_fn cpu;
  unsigned flags;       /* IC_OP_* */
  /* Optional per-instruction state: a kernel may keep what is costly to rebuild (a oneDNN
   * primitive, packed weights) in *ctx->state, creating it on first use and rebuilding it
   * when the input shapes change. Only the thread running the instruction touches it. The
   * compiled executor keeps it for the plan's life; the uncompiled one frees it after each
   * op. free_state releases it (NULL state is never passed). */
  void (*free_state)(void *state);
  /* Optional: whether icore implements the attribute modes of this op (parsed attrs), so
   * that analysis and `icore info` refuse an op such as rnn in a mode its kernel lacks
   * before anything runs. Returns IC_OK, or sets err (IC_ERR_UNSUPPORTED, naming the op and
   * the mode) and returns its code. ic_opdef_parse calls it after parse. */
  ic_status (*supports)(const ic_op *op, const void *attrs, ic_err *err);
  /* Optional: whether output k, for this op's attributes, leaves the persistable it names
   * as it was (batch_norm's MeanOut = Mean with global statistics, as Paddle's inference
   * programs write it). Such an output does not update the scope: the executors neither
   * shadow nor commit it (ic_output_updates). NULL: every output a persistable names
   * updates it. Called at plan and run-state creation, not per instruction. */
  bool (*output_unchanged)(const ic_op *op, size_t k);
  /* Optional: the definition for this particular op, chosen from its variables' declared
   * types in program p (sum over tensors or over tensor arrays, as Paddle's kernel choice
   * follows the variables' types). Sets *def to this definition or to a variant (which has
   * the same name, no resolve of its own and is not in the registry), or fails (naming the
   * op and the variables) when no definition fits. ic_opdef_resolve calls it. */
  ic_status (*resolve)(const ic_program *p, const ic_op *op, const ic_opdef **def, ic_err *err);
};

/* ---- the registry (src/kernels/registry.c) ---- */

/* The CUDA kernel of an op, or NULL when it has none (or icore was built without CUDA). CUDA
 * kernels are listed in src/kernels/cuda/cuda_ops.def and defined in cuda/<op>.cu as
 * `extern "C" ic_status ic_cuda_<op>(ic_kctx *ctx)`; they share the op's parse and infer. */
ic_kernel_fn ic_registry_cuda(const ic_opdef *def);

/* How to free the per-instruction state (ic_kctx.state) that the op's CUDA kernel keeps, or
 * NULL when it keeps none. The state of an instruction placed on a device belongs to its
 * device kernel, not to ic_opdef.free_state (the CPU kernel's). */
void (*ic_registry_cuda_free_state(const ic_opdef *def))(void *);

/* The definition of an op type, or NULL. A binary search over a sorted table. */
const ic_opdef *ic_registry_find(const char *name);
/* Every definition, sorted by name. */
size_t ic_registry_count(void);
const ic_opdef *ic_registry_at(size_t i);

/* Match an op's slots to its definition: ins[k] / outs[k] receive the op's slot for the def's
 * k-th input / output, or NULL when absent. Fails (naming the op and slot) when a required
 * slot is missing or empty, a single slot holds several variables, the op has a non-empty
 * slot the definition does not know, two outputs name one variable, or a meta-only output
 * (IC_SLOT_NO_BUFFER, tensor arrays excepted) names an input. Any other output may name an
 * input (in-place ops such as batch_norm's MeanOut = Mean): the executors then give the
 * kernel snapshots of the inputs, so it reads the old values. */
ic_status ic_opdef_match(const ic_opdef *def, const ic_op *op, const ic_slot **ins,
                         const ic_slot **outs, ic_err *err);
/* Find the definition for op and report an unknown type as IC_ERR_UNSUPPORTED. */
ic_status ic_opdef_lookup(const ic_op *op, const ic_opdef **def, ic_err *err);
/* ic_opdef_lookup, then the definition's resolve (if any) for op as declared in p: what
 * analysis and the executors run. p may be NULL (no resolution: the registry's def). */
ic_status ic_opdef_resolve(const ic_program *p, const ic_op *op, const ic_opdef **def,
                           ic_err *err);
/* Parse op's attributes into attrs (def->attrs_size bytes, zeroed by the caller), then ask
 * def->supports whether icore implements their modes. */
ic_status ic_opdef_parse(const ic_opdef *def, const ic_op *op, void *attrs, ic_err *err);

/* ---- helpers for op files (src/kernels/kutil.c) ---- */

/* Input i of slot s, or NULL when absent. */
static inline ic_tensor *ic_in(const ic_kctx *c, size_t s, size_t i) {
  return i < c->in[s].n ? c->in[s].t[i] : NULL;
}
static inline ic_tensor *ic_out(const ic_kctx *c, size_t s, size_t i) {
  return i < c->out[s].n ? c->out[s].t[i] : NULL;
}
static inline const char *ic_in_name(const ic_kctx *c, size_t s, size_t i) {
  return i < c->in[s].n ? c->in[s].names[i] : "?";
}
static inline const char *ic_out_name(const ic_kctx *c, size_t s, size_t i) {
  return i < c->out[s].n ? c->out[s].names[i] : "?";
}

/* Fail with IC_ERR_SHAPE: "input X 'conv1.tmp' is float32[1, 3], expected rank 4". The
 * message is prefixed with "input SLOT 'name' is DESCRIPTION, " for input slot s, i. */
ic_status ic_kfail_in(ic_kctx *c, size_t s, size_t i, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Fail with a code and a free-form message. */
ic_status ic_kfail(ic_kctx *c, ic_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Require input (s, i) to have one of the dtypes in the mask (bit = 1u << dtype). */
ic_status ic_kcheck_dtype(ic_kctx *c, size_t s, size_t i, uint64_t mask);
#define IC_DT(d) (1ull << (d))
#define IC_DT_FLOAT (IC_DT(IC_FP32) | IC_DT(IC_FP64))
#define IC_DT_INT (IC_DT(IC_INT32) | IC_DT(IC_INT64))
#define IC_DT_NUM (IC_DT_FLOAT | IC_DT_INT)
#define IC_DT_COMPLEX (IC_DT(IC_COMPLEX64) | IC_DT(IC_COMPLEX128))
/* Every dtype but the complex ones, which only the FFT family and its helpers take. */
#define IC_DT_ANY (~0ull & ~IC_DT_COMPLEX)

/* infer for ops like scale and clip: input 0 numeric, the optional one-element operand tensors
 * of input slots [first, last] numeric, Out (output 0) X's dtype and dims. */
ic_status ic_infer_x_with_scalars(ic_kctx *c, size_t first, size_t last);

/* Normalize an axis in [-rank, rank) to [0, rank); -1 with an error when out of range. */
int ic_kaxis(ic_kctx *c, int64_t axis, int rank, const char *attr);
/* Set output (s, i) to dtype[dims] and give it a fresh buffer (for IC_SLOT_DYNAMIC outputs,
 * whose dims only the kernel knows); does nothing for an absent optional output. */
ic_status ic_kalloc_out(ic_kctx *c, size_t s, size_t i, ic_dtype dtype, int ndim,
                        const int64_t *dims);
/* Give output t the LoD lod (ownership taken; NULL: none). want_lod says lod should not be
 * NULL: a NULL lod then means its allocation failed, reported as out of memory. */
ic_status ic_kset_lod(ic_kctx *c, ic_tensor *t, ic_lod *lod, bool want_lod);
/* The sequence offsets of input (s, i) at LoD level `level` counted from the last (0: the
 * level that splits rows), or NULL with an error naming the op, the input and its LoD when it
 * has fewer levels. *n receives the number of sequences. */
const uint64_t *ic_kseq(ic_kctx *c, size_t s, size_t i, size_t from_last, size_t *n);
/* Scratch memory for the duration of the kernel: a buffer the caller releases. */
ic_buffer *ic_kscratch(ic_kctx *c, size_t bytes);

/* Read element k of a numeric tensor of any dtype as double / int64 (for shape tensors). */
double ic_read_f64(const ic_tensor *t, int64_t k);
int64_t ic_read_i64(const ic_tensor *t, int64_t k);

/* Store a double accumulator (one value per element of t) into a float32 or float64 tensor,
 * rounding once: how the grad kernels that sum in double write their results. */
void ic_store_acc(ic_tensor *t, const double *acc);

#ifdef __cplusplus
}
#endif

#endif
