/*
 * icore: a static-graph interpreter executor for PaddlePaddle programs.
 *
 * Usage, loading a model exported by Paddle and running it once:
 *
 *   char err[1024];
 *   ic_program *prog;  ic_scope *params;
 *   if (ic_model_load("model.pdmodel", NULL, 0, &prog, &params, err, sizeof err))
 *     { fprintf(stderr, "%s\n", err); return 1; }
 *   ic_options opt;  ic_options_default(&opt);
 *   ic_executor *ex;  ic_executor_create(&opt, &ex);
 *   int64_t dims[2] = {1, 784};
 *   ic_tensor *x;  ic_tensor_create(IC_FP32, 2, dims, &x);
 *   ... fill ic_tensor_data(x) ...
 *   const char *feed_names[] = {"x"};  const char *fetch_names[] = {"softmax_0.tmp_0"};
 *   ic_tensor *out[1];
 *   if (ic_executor_run(ex, prog, params, 1, feed_names, (const ic_tensor *const *)&x,
 *                       1, fetch_names, out))
 *     fprintf(stderr, "%s\n", ic_executor_errmsg(ex));
 *   ... read ic_tensor_data(out[0]) ..., then ic_tensor_destroy(out[0]);
 *   ic_tensor_destroy(x); ic_executor_destroy(ex);
 *   ic_scope_destroy(params); ic_program_destroy(prog);
 *
 * Error contract: every fallible call returns an ic_status (IC_OK is 0). Loaders write a
 * message naming the file, byte offset, block, op and variable into a caller buffer;
 * ic_executor_errmsg() gives the calling thread's last message for an executor.
 * Out-parameters are NULL on failure.
 *
 * Threads and scopes (the rules):
 * - Handles are not thread-safe unless a function says otherwise. ic_executor_run is: any
 *   number of threads may run one executor at once (each run takes its own run state; a
 *   CPU executor's worker pool serves one run at a time and the others run in their own
 *   thread; a device executor runs one at a time). Programs, once loaded, are immutable and
 *   may be shared by any number of runs.
 * - One model loaded once and served by N executors on N threads with one parameter scope
 *   is safe: a run reads the caller's scope and never writes it while it runs. Persistables
 *   that a program writes are run-local shadows; feeding a parameter's name shadows it for
 *   that run only (later runs see the parameter again). batch_norm in inference mode
 *   (global statistics) updates nothing, as in Paddle, so inference leaves the scope as it
 *   was.
 * - A program that updates persistables (batch_norm training, a program computing a
 *   persistable) commits them to the scope after a successful run, in storage the scope
 *   owns (never an executor's), replacing the variable where the scope or an ancestor has
 *   it, else creating it in the given scope. Such runs are serialized per root scope, and
 *   the commit excludes concurrent readers; a failed run commits nothing.
 * - Changing a scope (ic_scope_set excepted, which takes the scope's lock), loading into it
 *   or destroying it while a run uses it is not allowed; tensors returned by ic_scope_get
 *   are borrowed and may be replaced by a commit.
 */
#ifndef ICORE_ICORE_H
#define ICORE_ICORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ICORE_VERSION_MAJOR 0
#define ICORE_VERSION_MINOR 1
#define ICORE_VERSION_PATCH 0
#define ICORE_VERSION "0.1.0"

/* The library's version string, "MAJOR.MINOR.PATCH". */
const char *ic_version(void);

/* ----------------------------------------------------------------------------------------
 * Status codes
 * -------------------------------------------------------------------------------------- */
typedef enum ic_status {
  IC_OK = 0,
  IC_ERR_INVALID_ARGUMENT = 1, /* caller misuse: NULL handle, bad option, feed that does not fit */
  IC_ERR_INVALID_PROGRAM = 2,  /* the program or parameter bytes are malformed or inconsistent */
  IC_ERR_NOT_FOUND = 3,        /* a named variable, file or attribute does not exist */
  IC_ERR_UNSUPPORTED = 4,      /* valid Paddle input that icore does not implement */
  IC_ERR_OUT_OF_MEMORY = 5,
  IC_ERR_IO = 6,               /* a file could not be opened, read or written */
  IC_ERR_KERNEL = 7,           /* a kernel failed at run time */
  IC_ERR_DEVICE = 8,           /* the device runtime failed */
  IC_ERR_SHAPE = 9,            /* inputs of an op have shapes or dtypes it cannot take */
  IC_ERR_NUMERIC = 10,         /* a NaN or Inf was found with check_nan_inf on */
  IC_ERR_INTERNAL = 11         /* a bug in icore; the message says where */
} ic_status;

/* A static, human-readable name for a status ("IC_ERR_IO"). */
const char *ic_status_name(ic_status st);

/* ----------------------------------------------------------------------------------------
 * Data types: the values are Paddle's VarType.Type numbers.
 * -------------------------------------------------------------------------------------- */
typedef enum ic_dtype {
  IC_BOOL = 0,
  IC_INT16 = 1,
  IC_INT32 = 2,
  IC_INT64 = 3,
  IC_FP16 = 4, /* storage only: loaded, saved, copied and cast */
  IC_FP32 = 5,
  IC_FP64 = 6,
  IC_UINT8 = 20,
  IC_INT8 = 21,
  IC_BF16 = 22, /* storage only */
  IC_COMPLEX64 = 23,  /* two float32 (real, imaginary): the FFT ops and their complex helpers */
  IC_COMPLEX128 = 24  /* two float64 */
} ic_dtype;

/* Bytes per element, or 0 for a value that is not a supported dtype. */
size_t ic_dtype_size(int dtype);
/* NumPy-style name ("float32"), or NULL for a value that is not a supported dtype. */
const char *ic_dtype_name(int dtype);

/* The most dimensions a tensor may have (Paddle's limit). */
#define IC_MAX_RANK 9

/* ----------------------------------------------------------------------------------------
 * Places: where instructions run and tensors live.
 * -------------------------------------------------------------------------------------- */
typedef enum ic_place_kind {
  IC_PLACE_CPU = 0,
  IC_PLACE_CUDA = 1,     /* an NVIDIA GPU (icore built with CUDA) */
  IC_PLACE_EMULATED = 2  /* the emulated-stream device: "device" kernels on CPU threads with real
                            stream semantics, for testing multi-stream plans without a GPU */
} ic_place_kind;

typedef struct ic_place {
  ic_place_kind kind;
  int index;           /* device ordinal; 0 for the CPU */
} ic_place;

/* Parse "cpu", "cuda:N" or "emu:N" (N defaults to 0). */
ic_status ic_place_parse(const char *s, ic_place *out);
/* "cpu", "cuda:0", "emu:1" into buf; returns buf. */
const char *ic_place_name(ic_place p, char *buf, size_t len);

/* Stream assignment policies for device instructions. */
typedef enum ic_stream_policy {
  IC_STREAMS_SINGLE = 0,       /* one compute stream */
  IC_STREAMS_PER_BACKEND = 1,  /* compute, host-to-device copies, device-to-host copies */
  IC_STREAMS_PER_OPERATOR = 2  /* the fewest streams that let independent device ops overlap */
} ic_stream_policy;

/* ----------------------------------------------------------------------------------------
 * Tensors
 * -------------------------------------------------------------------------------------- */
typedef struct ic_tensor ic_tensor;

/* A new zero-filled CPU tensor. Dims must be >= 0; ndim 0 is a scalar of one element. */
ic_status ic_tensor_create(ic_dtype dtype, int ndim, const int64_t *dims, ic_tensor **out);
/* A CPU tensor over caller memory, without a copy (zero-copy feeds). `data` holds the
 * numel * ic_dtype_size(dtype) bytes of the elements in C order, aligned to the element size
 * (NULL only for an empty tensor). Ownership:
 * - icore never writes through `data`: runs read feeds and never write them (a kernel writes
 *   only the fresh buffers of its own outputs; a fetch of a fed variable, and a persistable
 *   a run commits, are copies). ic_tensor_data(t) hands the pointer back to the caller, who
 *   must not write through it while a run reads t either ("Feed tensors must stay unchanged
 *   during the call").
 * - The memory must stay valid until release(ctx) is called (release may be NULL: then
 *   until ic_tensor_destroy(t) returns and no run that was given t is still going).
 *   icore calls release(ctx) exactly once, when the last reference to the memory goes: t
 *   and whatever a run shares it with (a run drops those before ic_executor_run returns).
 *   In practice that is inside ic_tensor_destroy(t), on the thread calling it; code that
 *   destroys t while another thread still runs with it gets the call on that thread.
 * - On failure release is not called and *out is NULL: the caller still owns its memory.
 * ic_tensor_clone of t makes an owning deep copy; LoD is set on t as on any tensor. */
typedef void (*ic_release_fn)(void *ctx);
ic_status ic_tensor_wrap(ic_dtype dtype, int ndim, const int64_t *dims, void *data,
                         ic_release_fn release, void *ctx, ic_tensor **out);
/* A deep copy of t (dims, dtype, data and LoD). */
ic_status ic_tensor_clone(const ic_tensor *t, ic_tensor **out);
void ic_tensor_destroy(ic_tensor *t);
ic_dtype ic_tensor_dtype(const ic_tensor *t);
int ic_tensor_ndim(const ic_tensor *t);
/* The dims array, valid until the tensor is destroyed. */
const int64_t *ic_tensor_dims(const ic_tensor *t);
int64_t ic_tensor_numel(const ic_tensor *t);
size_t ic_tensor_nbytes(const ic_tensor *t);
/* The elements, C order; NULL for an empty tensor. */
void *ic_tensor_data(ic_tensor *t);
const void *ic_tensor_cdata(const ic_tensor *t);
/* Level-of-detail (Paddle's LoD) of a tensor that holds variable-length sequences: level l
 * lists lens[l] offsets, sequence k spanning [offsets[l][k], offsets[l][k + 1]) of the next
 * level's sequences (the last level: of the tensor's rows). ic_tensor_set_lod copies the
 * offsets (the caller keeps its arrays) after Paddle's checks: each level starts at 0, never
 * decreases, has at least 2 offsets and ends at the next level's sequence count, the last
 * level at dims[0]; otherwise IC_ERR_INVALID_ARGUMENT and t is unchanged. n_levels 0 removes
 * the LoD. A fed tensor's LoD is seen by the program's sequence ops; fetched tensors carry
 * the LoD the program gave them. */
ic_status ic_tensor_set_lod(ic_tensor *t, size_t n_levels, const size_t *lens,
                            const uint64_t *const *offsets);
/* The number of LoD levels (0: none). */
size_t ic_tensor_lod_levels(const ic_tensor *t);
/* Level `level`'s offsets and their count in *len, owned by t: valid until t's LoD is set
 * again or t is destroyed. NULL (and *len 0) for a level t does not have. */
const uint64_t *ic_tensor_lod(const ic_tensor *t, size_t level, size_t *len);

/* ----------------------------------------------------------------------------------------
 * Programs: a parsed, validated ProgramDesc. Immutable once loaded.
 * -------------------------------------------------------------------------------------- */
typedef struct ic_program ic_program;

/* Parse and validate serialized ProgramDesc bytes (copied), or a PIR JSON document (Paddle
 * 3's model.json), which is translated into a ProgramDesc first: ic_program_bytes() then
 * gives the translation. `origin` names the source in messages (a file name; NULL means
 * "<memory>"). */
ic_status ic_program_from_bytes(const void *data, size_t size, const char *origin,
                                ic_program **out, char *err, size_t errlen);
ic_status ic_program_from_file(const char *path, ic_program **out, char *err, size_t errlen);
void ic_program_destroy(ic_program *p);
/* The exact bytes the program was parsed from; valid while p lives. */
const void *ic_program_bytes(const ic_program *p, size_t *size);
/* Feed and fetch targets: the variables the program's feed and fetch ops name, by their
 * `col` attribute. Names are valid while p lives. */
size_t ic_program_n_feed_targets(const ic_program *p);
const char *ic_program_feed_target(const ic_program *p, size_t i);
size_t ic_program_n_fetch_targets(const ic_program *p);
const char *ic_program_fetch_target(const ic_program *p, size_t i);

/* ----------------------------------------------------------------------------------------
 * Scopes: name -> tensor, with a parent for lookups. Model parameters live in a root scope.
 * -------------------------------------------------------------------------------------- */
typedef struct ic_scope ic_scope;

/* A new empty scope. The parent, if any, must outlive it. */
ic_status ic_scope_create(ic_scope *parent, ic_scope **out);
void ic_scope_destroy(ic_scope *s);
/* Store a copy of t under name in s, replacing any tensor of that name in s. */
ic_status ic_scope_set(ic_scope *s, const char *name, const ic_tensor *t);
/* The tensor named so in s or its ancestors, or NULL. Borrowed until s changes. */
const ic_tensor *ic_scope_get(const ic_scope *s, const char *name);
size_t ic_scope_size(const ic_scope *s);

/* ----------------------------------------------------------------------------------------
 * Parameters (persistable variables) in Paddle's formats.
 * -------------------------------------------------------------------------------------- */
typedef enum ic_params_format {
  IC_PARAMS_AUTO = 0,     /* a directory means one file per variable, a file means combined */
  IC_PARAMS_COMBINED = 1, /* X.pdiparams or __params__: every persistable, sorted by name */
  IC_PARAMS_SEPARATE = 2  /* a directory with one file per persistable, named after it */
} ic_params_format;

/* Read every persistable variable of block 0 (except feed and fetch lists) from path into
 * scope, checking dtype and dims against the program's VarDesc (-1 matches any size). A
 * combined file must end right after the last variable. On failure the scope is left as it
 * was and the message names the file, the variable and the byte offset. */
ic_status ic_params_load(const ic_program *p, const char *path, ic_params_format fmt,
                         ic_scope *scope, char *err, size_t errlen);
/* The names of the variables ic_params_load reads and ic_params_save writes (block 0's
 * persistable tensors, feed and fetch lists excepted), in the combined format's order
 * (sorted by name). *names is one malloc'd array the caller frees; the strings belong to p
 * (valid while p lives). None: *names NULL and *n 0. */
ic_status ic_params_names(const ic_program *p, const char ***names, size_t *n);
/* Write every persistable variable of block 0 from scope in Paddle's format (byte for byte
 * what Paddle writes). IC_PARAMS_SEPARATE creates the directory. Every tensor is checked
 * against its VarDesc before anything is written. */
ic_status ic_params_save(const ic_program *p, const ic_scope *scope, const char *path,
                         ic_params_format fmt, char *err, size_t errlen);
/* Fill every persistable variable with deterministic synthetic values from its VarDesc:
 * floats (float16/bfloat16 rounded to nearest even) uniform in [-0.1, 0.1]; variables read
 * as the Variance input of a batch_norm or sync_batch_norm op uniform in [0.5, 1.5];
 * integer and bool parameters zero. Dims of -1 are an error naming the variable.
 * Element k of variable NAME is a pure function of (seed, NAME, k), so values do not depend
 * on declaration order: with splitmix64 m(x),
 *   stream = m(seed ^ m(XXH3_64bits(NAME))),  u = (m(stream ^ m(k)) >> 11) * 2^-53,
 *   value = lo + (hi - lo) * u. */
ic_status ic_params_random(const ic_program *p, uint64_t seed, ic_scope *scope, char *err,
                           size_t errlen);

/* Serialized LoDTensor (one variable of a parameter file), LoD included. Loading refuses a
 * file with bytes after the tensor. */
ic_status ic_tensor_save_file(const ic_tensor *t, const char *path, char *err, size_t errlen);
ic_status ic_tensor_load_file(const char *path, ic_tensor **out, char *err, size_t errlen);

#define IC_LOAD_NO_PARAMS 1u /* ic_model_load: load the program only */

/* Load a model: path is X.pdmodel or X.json (Paddle 3's PIR program; parameters from
 * params_path, or X.pdiparams beside it), or a directory holding __model__ plus __params__
 * or one file per variable (a path to the __model__ file itself works too). params_path may be a file (combined) or a directory
 * (one file per variable). A missing X.pdiparams is an error naming it when the program
 * has parameters. *params is a new root scope holding them; IC_LOAD_NO_PARAMS leaves it
 * empty. */
ic_status ic_model_load(const char *path, const char *params_path, unsigned flags,
                        ic_program **prog, ic_scope **params, char *err, size_t errlen);

/* ----------------------------------------------------------------------------------------
 * The executor
 * -------------------------------------------------------------------------------------- */
typedef enum ic_mode {
  IC_MODE_COMPILED = 0,  /* analyze once into a cached plan, run it on the thread pool */
  IC_MODE_UNCOMPILED = 1 /* resolve, parse, infer and free op by op, every run */
} ic_mode;

typedef struct ic_options {
  ic_mode mode;        /* ICORE_MODE=compiled|uncompiled */
  int threads;         /* host worker threads, 0 means one per core (ICORE_THREADS) */
  bool serial;         /* run every instruction in the calling thread (ICORE_SERIAL) */
  bool sequential;     /* chain every op in program order (ICORE_SEQUENTIAL) */
  bool gc;             /* free temporaries at their last use (ICORE_GC) */
  int cache_capacity;  /* plans kept in the LRU cache (ICORE_CACHE_CAPACITY) */
  bool check_nan_inf;  /* fail the run at the first op writing NaN or Inf (ICORE_CHECK_NAN_INF) */
  bool sync_after_op;  /* wait for device work after each op (ICORE_SYNC_AFTER_OP) */
  bool fuse;           /* allow inference rewrites such as conv+bn folding (ICORE_FUSE) */
  uint64_t seed;       /* seed of random ops whose `seed` attribute is 0 (ICORE_SEED); each
                          run of the executor draws from its own stream of it (see below) */
  bool profile;        /* record one span per instruction of each compiled run (ICORE_PROFILE) */
  ic_place device;     /* where device instructions run; CPU = none (ICORE_DEVICE) */
  ic_stream_policy streams; /* stream policy on a device (ICORE_STREAMS) */
  bool cuda_graph;     /* capture a run as a CUDA graph and replay it (ICORE_CUDA_GRAPH) */
  bool winograd;       /* CPU: float32 3 x 3 stride-1 convolutions by Winograd's algorithm
                          where oneDNN has it and the shapes were measured faster (1.5-2.5x
                          on wide layers); results differ from Paddle's direct convolution
                          by about 1e-6 of the output's magnitude per layer, and stay equal
                          at any thread count (ICORE_WINOGRAD) */
  bool prune;          /* run only the ops the requested fetches depend on, plus those
                          writing persistables or with effects past their outputs (save,
                          print, assert), as Paddle's Executor with use_prune: fetch an
                          intermediate of a program whose later ops icore cannot run
                          (ICORE_PRUNE) */
} ic_options;

/* Defaults: compiled, threads 0, gc on, cache 8, fuse on, device CPU, streams per-operator,
 * everything else off (winograd included: by default every convolution computes what
 * Paddle's does).
 * `threads` is the whole CPU budget: pool threads plus the threads kernels use inside
 * themselves (oneDNN's OpenMP teams) never exceed it. When it is above one and neither
 * OMP_WAIT_POLICY nor GOMP_SPINCOUNT is set, the executor keeps an idle OpenMP team asleep
 * for its lifetime, which makes GNU OpenMP sleep after a short spin instead of ~3 ms of
 * spinning (docs/DESIGN.md, "OpenMP's waits"); set either variable to choose yourself. */
void ic_options_default(ic_options *o);
/* Override o from the ICORE_* environment variables; a malformed value is an error. */
ic_status ic_options_from_env(ic_options *o, char *err, size_t errlen);

typedef struct ic_executor ic_executor;

/* A new executor. The environment variable ICORE_ALLOC=system (or caching, the default)
 * makes its tensors come straight from the system allocator, without the caching
 * allocator's reuse (sanitizer runs); another value is IC_ERR_INVALID_ARGUMENT. */
ic_status ic_executor_create(const ic_options *o, ic_executor **out);
void ic_executor_destroy(ic_executor *e);

/* Run block 0 of p. Variables are looked up in `scope` (parameters) and temporaries live in
 * the run's own variables. Feeds are read by name, fetches[i] receives a new tensor the
 * caller destroys. Feed tensors must stay unchanged during the call; a run only reads them
 * (never writes), sharing their memory without a copy (ic_tensor_wrap'd caller memory
 * included). Thread-safe: several
 * threads may run one executor at once (see "Threads and scopes" above for what a run may
 * do to `scope`). On failure every fetches[i] is NULL and ic_executor_errmsg() says why. */
ic_status ic_executor_run(ic_executor *e, const ic_program *p, ic_scope *scope,
                          size_t n_feeds, const char *const *feed_names,
                          const ic_tensor *const *feeds, size_t n_fetches,
                          const char *const *fetch_names, ic_tensor **fetches);

/* Training. A training program (Paddle's main program after optimizer.minimize) updates its
 * persistable variables (parameters, optimizer moments, learning rates) as any program that
 * writes persistables does (the thread-safety rules at the top): the run writes shadows
 * and commits them to the scope given to ic_executor_run after it succeeds, into memory the
 * scope owns (it outlives the executor), creating in that scope any persistable it did not
 * hold yet. So a startup program is an ordinary run with no feeds and no fetches:
 *
 *   ic_scope_create(NULL, &params);
 *   ic_executor_run(e, startup, params, 0, NULL, NULL, 0, NULL, NULL); // or ic_params_load
 *   for each step: ic_executor_run(e, main, params, feeds..., fetch the loss...);
 *   ic_params_save(main, params, path, IC_PARAMS_COMBINED, ...);
 *
 * Learning-rate schedules: a paddle.optimizer.lr scheduler (Paddle 2.x and 3.x) writes no
 * op into the program; the optimizer ops read a persistable learning_rate_N that Paddle's
 * Python executor sets from program.lr_scheduler before every run. Feed that name at every
 * step with the step's value (its declared dtype and dims, float32[] for Paddle 3.x): a fed
 * persistable shadows the scope's value for that run only, so the scope (and
 * ic_params_save) keeps the value it held before. Legacy schedules (Paddle <= 2.6
 * noam_decay, piecewise_decay, cosine_decay, linear_lr_warmup, ...) are ops in the program
 * counting steps in the persistable @LR_DECAY_COUNTER@, which runs commit like any other.
 *
 * Runs that update one scope are serialized (one step after another, in some order). A
 * startup program's random initializers draw from options.seed where their `seed` attribute
 * is 0 (icore's Philox streams, not Paddle's values; see uniform_random.c).
 *
 * Random ops whose `seed` attribute is 0 (dropout in training, initializers) draw from
 * options.seed mixed with the executor's run number, k = 0, 1, 2, ... in the order runs
 * start, as Paddle's global generator advances: every training step gets a fresh dropout
 * mask, and two executors with one seed given the same sequence of runs draw the same
 * values (runs started concurrently on one executor take their numbers in some order). A
 * non-zero `seed` attribute gives the same values on every run. */

/* The message of the calling thread's last failed call on e ("" if its last call on e
 * succeeded): each thread sees its own. Valid until that thread's next call on e. */
const char *ic_executor_errmsg(const ic_executor *e);

/* Plan cache counters since the executor was created. */
void ic_executor_cache_stats(const ic_executor *e, uint64_t *hits, uint64_t *misses);

typedef struct ic_memory_stats {
  size_t live_bytes;    /* bytes of tensors the executor holds now */
  size_t peak_bytes;    /* most live bytes since creation or ic_executor_reset_peak() */
  size_t cached_bytes;  /* freed bytes kept for reuse (bounded) */
  size_t system_allocs; /* buffers obtained from the system allocator */
} ic_memory_stats;

void ic_executor_memory_stats(const ic_executor *e, ic_memory_stats *out);
void ic_executor_reset_peak(ic_executor *e);

/* Write the last compiled run's profile (options.profile must be on) as a Chrome trace-event
 * JSON file: one span per instruction on the thread that ran it, plus the analysis phase
 * when that run built its plan. Perfetto and chrome://tracing open it. */
ic_status ic_executor_write_profile(ic_executor *e, const char *path);

/* ----------------------------------------------------------------------------------------
 * Plan descriptions: what the compiled executor analyzed a program into (`icore inspect`).
 * A description is a self-contained snapshot (strings and arrays owned by it, valid until
 * ic_plan_desc_destroy); variable and instruction numbers index its own tables.
 * -------------------------------------------------------------------------------------- */
/* Edge kinds of ic_plan_instr_desc.succ_kind (bits). */
#define IC_PLAN_EDGE_DATA 0x01u     /* read-after-write, write-after-read or write-after-write */
#define IC_PLAN_EDGE_IMPLICIT 0x02u /* program order kept (random, stateful, sequential ops) */
#define IC_PLAN_EDGE_STREAM 0x04u   /* consecutive instructions of one device stream */

struct ic_subplan_desc;

typedef struct ic_plan_instr_desc {
  const char *op_type;       /* "conv2d"; rewritten ops carry their new type */
  int op_block, op_index;    /* the op's block and position in it (-1: an op icore added) */
  uint32_t n_inputs;         /* variables read, slot by slot (the op definition's order) */
  const uint32_t *inputs;
  uint32_t n_outputs;        /* variables written */
  const uint32_t *outputs;
  uint32_t n_preds;          /* instructions it waits for (block 0's DAG) */
  uint32_t n_succ;           /* instructions waiting for it, ascending, after pruning */
  const uint32_t *succ;
  const uint8_t *succ_kind;  /* IC_PLAN_EDGE_* per successor */
  uint32_t n_releases;       /* variables whose last use it is (freed after it, GC on) */
  const uint32_t *releases;
  int64_t priority;          /* scheduling priority: lower first (0 unless set) */
  const char *where;         /* "host", "device" (a device kernel), "h2d", "d2h" (copies) */
  int32_t stream;            /* its device stream, -1 on the host */
  bool records;              /* records an event after its work */
  uint32_t n_waits;          /* instructions whose events it waits on first */
  const uint32_t *waits;
  const struct ic_subplan_desc *sub; /* while / conditional_block: its sub-block's plan */
} ic_plan_instr_desc;

/* A control-flow op's sub-block: instructions in program order (they run in that order, in
 * the thread running the op), over the sub-plan's own variable table; n_preds, succ and the
 * stream fields are empty. */
typedef struct ic_subplan_desc {
  int block;
  uint32_t n_instrs;
  const ic_plan_instr_desc *instrs;
  uint32_t n_vars;
  const char *const *var_names;
  const uint32_t *var_outer; /* per variable: its index in the parent's table, UINT32_MAX
                                for the block's own (released per iteration) */
} ic_subplan_desc;

typedef struct ic_plan_var_desc {
  const char *name;
  const char *kind;          /* "temp", "param", "external" (read before written: the scope's),
                                "holder" (feed/fetch list), "cached" (derived from parameters) */
  int32_t first_write;       /* first instruction writing it, -1 if none */
  int32_t last_use;          /* last instruction using its buffer, -1 if none */
  uint32_t n_uses;           /* instructions that release it (its reference count) */
  bool kept;                 /* never freed during a run (parameters, feeds, fetches) */
  bool on_device;
  bool has_meta;             /* descriptions of a run: dtype and dims as the run left them */
  ic_dtype dtype;
  int ndim;
  int64_t dims[IC_MAX_RANK];
  const char *layout;        /* with meta: "plain", or the oneDNN blocked layout the run left
                                it in ("nChw8c", "nChw16c"); NULL without */
} ic_plan_var_desc;

typedef struct ic_plan_desc {
  size_t n_instrs;
  const ic_plan_instr_desc *instrs;
  size_t n_vars;
  const ic_plan_var_desc *vars;
  size_t n_roots;            /* instructions with no predecessors */
  const uint32_t *roots;
  size_t edges_before_pruning, edges, implicit_edges; /* implicit: kept after pruning */
  size_t critical_path;      /* instructions on the longest dependency chain */
  size_t max_width;          /* most instructions on one depth level */
  size_t joins;              /* concats whose inputs their producers write in place (at batch
                                1 along the channels, in one layout: the concat copies nothing) */
  double analysis_ms;
  char place[32];            /* "cpu" or the device of a device plan ("cuda:0", "emu:0") */
  uint32_t n_streams, n_events;
  bool ran;                  /* from ic_executor_describe_last: variables have meta, and */
  size_t peak_bytes;         /* the executor's peak live bytes (ic_executor_memory_stats) */
} ic_plan_desc;

/* Analyze p as the compiled executor with options o would (o NULL: defaults; mode, threads
 * and the run-time switches do not matter) for these feeds and fetches (NULL names: the
 * program's feed / fetch targets), without running it. */
ic_status ic_plan_describe(const ic_program *p, const ic_options *o, size_t n_feeds,
                           const char *const *feed_names, size_t n_fetches,
                           const char *const *fetch_names, ic_plan_desc **out, char *err,
                           size_t errlen);
/* The plan of e's last compiled run, with every variable's dtype and dims as that run left
 * them. IC_ERR_NOT_FOUND when e has made no compiled run. Call it while no other run of e
 * is going. */
ic_status ic_executor_describe_last(ic_executor *e, ic_plan_desc **out);
void ic_plan_desc_destroy(ic_plan_desc *d);

/* ----------------------------------------------------------------------------------------
 * Building programs in memory (tests, tools, examples).
 * -------------------------------------------------------------------------------------- */
typedef struct ic_builder ic_builder;
typedef struct ic_builder_op ic_builder_op;

/* Paddle's variable kinds (VarType.Type numbers). */
typedef enum ic_var_type {
  IC_VAR_LOD_TENSOR = 7,
  IC_VAR_SELECTED_ROWS = 8, /* a sparse gradient (an embedding's with is_sparse) */
  IC_VAR_FEED_MINIBATCH = 9,
  IC_VAR_FETCH_LIST = 10,
  IC_VAR_LOD_TENSOR_ARRAY = 13 /* a tensor array (write_to_array, read_from_array) */
} ic_var_type;

/* A builder with block 0. Every setter records an allocation failure, reported by the
 * serialize/build calls; setters therefore return nothing. */
ic_builder *ic_builder_create(void);
void ic_builder_destroy(ic_builder *b);
/* Append a block with the given parent; returns its index. */
int ic_builder_add_block(ic_builder *b, int parent);
/* Declare a dense tensor variable. */
void ic_builder_var(ic_builder *b, int block, const char *name, ic_dtype dtype, int ndim,
                    const int64_t *dims, bool persistable);
/* Declare a variable of another kind (feed and fetch holders). */
void ic_builder_var_kind(ic_builder *b, int block, const char *name, ic_var_type type,
                         bool persistable);
/* Append an op; the handle stays valid until the builder is destroyed. */
ic_builder_op *ic_builder_add_op(ic_builder *b, int block, const char *type);
void ic_builder_input(ic_builder_op *op, const char *slot, size_t n, const char *const *args);
void ic_builder_output(ic_builder_op *op, const char *slot, size_t n, const char *const *args);
/* One-argument shorthands. */
void ic_builder_in(ic_builder_op *op, const char *slot, const char *arg);
void ic_builder_out(ic_builder_op *op, const char *slot, const char *arg);
void ic_builder_attr_int(ic_builder_op *op, const char *name, int32_t v);
void ic_builder_attr_long(ic_builder_op *op, const char *name, int64_t v);
void ic_builder_attr_float(ic_builder_op *op, const char *name, float v);
void ic_builder_attr_double(ic_builder_op *op, const char *name, double v);
void ic_builder_attr_bool(ic_builder_op *op, const char *name, bool v);
void ic_builder_attr_string(ic_builder_op *op, const char *name, const char *v);
void ic_builder_attr_ints(ic_builder_op *op, const char *name, size_t n, const int32_t *v);
void ic_builder_attr_longs(ic_builder_op *op, const char *name, size_t n, const int64_t *v);
void ic_builder_attr_floats(ic_builder_op *op, const char *name, size_t n, const float *v);
void ic_builder_attr_doubles(ic_builder_op *op, const char *name, size_t n, const double *v);
void ic_builder_attr_bools(ic_builder_op *op, const char *name, size_t n, const bool *v);
void ic_builder_attr_strings(ic_builder_op *op, const char *name, size_t n,
                             const char *const *v);
void ic_builder_attr_block(ic_builder_op *op, const char *name, int32_t block);
/* SCALAR attributes (Paddle 2.5+): a float64 or an int64 value. */
void ic_builder_attr_scalar_double(ic_builder_op *op, const char *name, double v);
void ic_builder_attr_scalar_long(ic_builder_op *op, const char *name, int64_t v);
/* Feed/fetch wiring as Paddle writes it: a `feed` holder variable and a feed op per
 * target reading column i (i counts calls), likewise `fetch`. */
void ic_builder_feed(ic_builder *b, const char *target);
void ic_builder_fetch(ic_builder *b, const char *target);

/* Serialize to ProgramDesc bytes; *bytes is malloc'd, the caller frees it. */
ic_status ic_builder_serialize(const ic_builder *b, void **bytes, size_t *size);
/* Serialize and parse in one go. */
ic_status ic_builder_build(const ic_builder *b, ic_program **out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* ICORE_ICORE_H */
