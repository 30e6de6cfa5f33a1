/* The GPU test harness (see cuda_harness.h). */
#include "cuda_harness.h"

#include <check.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef IC_WITH_CUDNN
#include <cudnn.h>
#endif

#include "kernels/cpu/half.h"
#include "kernels/kernel.h"
#include "program/program.h"
#include "scope/tensor.h"

/* ---- the device probe ---- */

/* Probe in a child process: CUDA must not be initialized in a process that forks later
 * (Check forks a child per test), and the child's answer is all the parent needs. */
int ch_require_gpu(void) {
  const char *req = getenv("ICORE_REQUIRE_GPU");
  bool required = req && strcmp(req, "1") == 0;
  char reason[512] = "";
  int fd[2];
  if (pipe(fd) != 0) {
    snprintf(reason, sizeof reason, "pipe() failed, cannot probe for a CUDA device");
  } else {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
      close(fd[0]);
      char msg[400] = "";
      int n = 0;
      cudaError_t e = cudaGetDeviceCount(&n);
      if (e != cudaSuccess) {
        snprintf(msg, sizeof msg, "no usable CUDA device (cudaGetDeviceCount: %s)",
                 cudaGetErrorString(e));
      } else if (n == 0) {
        snprintf(msg, sizeof msg, "no CUDA device");
      } else if ((e = cudaSetDevice(0)) != cudaSuccess || (e = cudaFree(NULL)) != cudaSuccess) {
        snprintf(msg, sizeof msg, "CUDA device 0 is unusable: %s", cudaGetErrorString(e));
      }
      ssize_t w = write(fd[1], msg, strlen(msg));
      (void)w;
      close(fd[1]);
      _exit(msg[0] ? 1 : 0);
    }
    close(fd[1]);
    if (pid < 0) {
      snprintf(reason, sizeof reason, "fork() failed, cannot probe for a CUDA device");
    } else {
      ssize_t got = read(fd[0], reason, sizeof reason - 1);
      reason[got > 0 ? got : 0] = '\0';
      int status = 0;
      waitpid(pid, &status, 0);
      if (!reason[0] && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        snprintf(reason, sizeof reason, "the CUDA probe process crashed (status %d)", status);
      }
    }
    close(fd[0]);
  }
  if (!reason[0]) return 0;
  if (required) {
    printf("FAIL: %s, and ICORE_REQUIRE_GPU=1\n", reason);
    return 1;
  }
  printf("SKIP: %s\n", reason);
  return 77;
}

bool ch_quick(void) {
  const char *q = getenv("ICORE_GPU_QUICK");
  return q && strcmp(q, "1") == 0;
}

/* ---- running one op on one side ---- */

#define CUDA_OK(call)                                                                      \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    ck_assert_msg(e_ == cudaSuccess, "%s failed: %s", #call, cudaGetErrorString(e_));      \
  } while (0)

/* One side's view of the op: slots, tensors and the kernel context. */
typedef struct side {
  ic_kslot *in, *out;
  ic_tensor *tin, *tout;     /* input copies (GPU side) and outputs, flattened */
  ic_tensor **pin, **pout;   /* pointers the slots hold */
  ic_variable **vars;        /* all NULL: no holder slots here */
  void **dev_in;             /* GPU side: cudaMalloc'd input storage to free, or NULL */
  ic_err err;
  ic_kenv env;
  void *state;
} side;

typedef struct opinfo {
  const ic_op *op;
  const ic_opdef *def;
  void *attrs;
  const ic_slot **ins, **outs;
  size_t n_tin, n_tout;      /* tensors over all slots */
} opinfo;

static const ic_tensor *find_input(const char *name, size_t n_in, const char *const *in_names,
                                   ic_tensor *const *inputs) {
  for (size_t i = 0; i < n_in; i++) {
    if (strcmp(in_names[i], name) == 0) return inputs[i];
  }
  return NULL;
}

static void side_alloc(side *s, const opinfo *oi) {
  size_t ni = oi->def->n_inputs, no = oi->def->n_outputs;
  s->in = calloc(ni + 1, sizeof *s->in);
  s->out = calloc(no + 1, sizeof *s->out);
  s->tin = calloc(oi->n_tin + 1, sizeof *s->tin);
  s->tout = calloc(oi->n_tout + 1, sizeof *s->tout);
  s->pin = calloc(oi->n_tin + 1, sizeof *s->pin);
  s->pout = calloc(oi->n_tout + 1, sizeof *s->pout);
  s->vars = calloc(oi->n_tin + oi->n_tout + 1, sizeof *s->vars);
  s->dev_in = calloc(oi->n_tin + 1, sizeof *s->dev_in);
  ck_assert(s->in && s->out && s->tin && s->tout && s->pin && s->pout && s->vars && s->dev_in);
  for (size_t i = 0; i < oi->n_tin; i++) ic_tensor_init(&s->tin[i]);
  for (size_t i = 0; i < oi->n_tout; i++) ic_tensor_init(&s->tout[i]);
  ic_err_clear(&s->err);
}

/* Bind the slots: the CPU side reads the caller's tensors, the GPU side device copies. */
static void side_bind(side *s, const opinfo *oi, bool gpu, size_t n_in,
                      const char *const *in_names, ic_tensor *const *inputs) {
  size_t t = 0;
  for (size_t k = 0; k < oi->def->n_inputs; k++) {
    const ic_slot *sl = oi->ins[k];
    size_t n = sl ? sl->n : 0;
    unsigned flags = oi->def->inputs[k].flags;
    s->in[k] =
        (ic_kslot){.n = n, .t = s->pin + t, .vars = s->vars, .names = sl ? sl->args : NULL};
    for (size_t i = 0; i < n; i++, t++) {
      const ic_tensor *h = find_input(sl->args[i], n_in, in_names, inputs);
      ck_assert_msg(h != NULL, "ch_check_op: op %s input %s '%s' is not among the inputs given",
                    oi->op->type, sl->name, sl->args[i]);
      if (!gpu) {
        s->pin[t] = (ic_tensor *)h;
        continue;
      }
      ic_tensor *d = &s->tin[t];
      s->pin[t] = d;
      if (flags & IC_SLOT_VALUE) { /* read by infer on the host: stays there */
        ic_tensor_share(d, h);
        continue;
      }
      ic_tensor_set_meta(d, h->dtype, h->ndim, h->dims);
      if (flags & IC_SLOT_NO_BUFFER) continue; /* meta only */
      size_t bytes = ic_tensor_nbytes(h);
      CUDA_OK(cudaMalloc(&s->dev_in[t], bytes ? bytes : 1));
      if (bytes) CUDA_OK(cudaMemcpy(s->dev_in[t], h->data, bytes, cudaMemcpyHostToDevice));
      d->data = s->dev_in[t];
    }
  }
  t = 0;
  for (size_t k = 0; k < oi->def->n_outputs; k++) {
    const ic_slot *sl = oi->outs[k];
    size_t n = sl ? sl->n : 0;
    s->out[k] =
        (ic_kslot){.n = n, .t = s->pout + t, .vars = s->vars, .names = sl ? sl->args : NULL};
    for (size_t i = 0; i < n; i++, t++) s->pout[t] = &s->tout[t];
  }
}

/* infer, allocate the outputs the executor would, run the kernel. */
static ic_status side_run(side *s, const opinfo *oi, ic_kernel_fn fn, bool gpu,
                          cudaStream_t stream) {
  ic_kctx c = {.def = oi->def, .op = oi->op, .attrs = oi->attrs, .in = s->in, .out = s->out,
               .err = &s->err, .env = &s->env, .op_key = (uint64_t)oi->op->index,
               .state = &s->state};
  ic_status st = oi->def->infer(&c);
  if (st) return st;
  for (size_t k = 0; k < oi->def->n_outputs; k++) {
    if (oi->def->outputs[k].flags & (IC_SLOT_NO_BUFFER | IC_SLOT_SHARE | IC_SLOT_HOLDER)) continue;
    for (size_t i = 0; i < s->out[k].n; i++) {
      ic_tensor *o = s->out[k].t[i];
      if ((st = ic_tensor_alloc(o, s->env.alloc, &s->err))) return st;
      size_t bytes = ic_tensor_nbytes(o);
      if (gpu && bytes) CUDA_OK(cudaMemsetAsync(o->data, 0xFF, bytes, stream));
    }
  }
  return fn(&c);
}

static void side_free(side *s, const opinfo *oi, bool gpu) {
  /* Each side's kernel made its own state: the CPU kernel's goes to the op definition's
   * free_state, the CUDA kernel's to the one the CUDA registry names. */
  void (*free_state)(void *) = gpu ? ic_registry_cuda_free_state(oi->def) : oi->def->free_state;
  if (s->state && free_state) free_state(s->state);
  for (size_t i = 0; i < oi->n_tout; i++) ic_tensor_reset(&s->tout[i]);
  for (size_t i = 0; i < oi->n_tin; i++) ic_tensor_reset(&s->tin[i]);
  for (size_t i = 0; i < oi->n_tin; i++) {
    if (s->dev_in[i]) cudaFree(s->dev_in[i]);
  }
  free(s->in);
  free(s->out);
  free(s->tin);
  free(s->tout);
  free(s->pin);
  free(s->pout);
  free(s->vars);
  free(s->dev_in);
}

/* ---- comparing ---- */

static bool is_float(ic_dtype d) {
  return d == IC_FP32 || d == IC_FP64 || d == IC_FP16 || d == IC_BF16;
}

static double float_at(const void *p, ic_dtype d, int64_t k) {
  switch (d) {
    case IC_FP32: return ((const float *)p)[k];
    case IC_FP64: return ((const double *)p)[k];
    case IC_FP16: return ic_f16_to_f32(((const uint16_t *)p)[k]);
    default: return ic_bf16_to_f32(((const uint16_t *)p)[k]);
  }
}

static int64_t int_at(const void *p, ic_dtype d, int64_t k) {
  switch (d) {
    case IC_INT64: return ((const int64_t *)p)[k];
    case IC_INT32: return ((const int32_t *)p)[k];
    case IC_INT16: return ((const int16_t *)p)[k];
    case IC_INT8: return ((const int8_t *)p)[k];
    default: return ((const uint8_t *)p)[k]; /* uint8, bool */
  }
}

static void compare_output(const opinfo *oi, const char *slot, const char *name,
                           const ic_tensor *c, const ic_tensor *g, double rtol, double atol) {
  char dc[128], dg[128];
  ck_assert_msg(c->dtype == g->dtype && ic_dims_equal(c->ndim, c->dims, g->ndim, g->dims),
                "op %s output %s '%s': CPU gives %s, GPU %s", oi->op->type, slot, name,
                ic_tensor_describe(c, dc, sizeof dc), ic_tensor_describe(g, dg, sizeof dg));
  ck_assert_msg((c->data != NULL) == (g->data != NULL),
                "op %s output %s '%s': the CPU kernel %s storage, the GPU kernel %s",
                oi->op->type, slot, name, c->data ? "gave it" : "left it without",
                g->data ? "gave it" : "did not");
  if (!c->data) return;
  int64_t n = ic_tensor_numel_(c);
  size_t bytes = ic_tensor_nbytes(c);
  if (!bytes) return;
  void *h = malloc(bytes);
  ck_assert(h != NULL);
  CUDA_OK(cudaMemcpy(h, g->data, bytes, cudaMemcpyDeviceToHost));
  const bool bitwise = rtol == 0 && atol == 0;
  int64_t bad = 0, worst = -1;
  double worst_excess = -1;
  for (int64_t k = 0; k < n; k++) {
    double excess; /* how far beyond its tolerance element k is; > 0 fails */
    if (is_float(c->dtype)) {
      double a = float_at(c->data, c->dtype, k), b = float_at(h, c->dtype, k);
      if (isnan(a) || isnan(b)) {
        excess = isnan(a) && isnan(b) ? -1 : INFINITY;
      } else if (bitwise || isinf(a) || isinf(b)) {
        size_t es = ic_dtype_size(c->dtype);
        excess = memcmp((const char *)c->data + (size_t)k * es, (const char *)h + (size_t)k * es,
                        es) == 0 ? -1 : fabs(a - b) > 0 ? fabs(a - b) : 1;
      } else {
        excess = fabs(a - b) - (atol + rtol * fabs(a));
        if (excess <= 0) excess = -1;
      }
    } else {
      excess = int_at(c->data, c->dtype, k) == int_at(h, c->dtype, k) ? -1 : 1;
    }
    if (excess > 0) {
      bad++;
      if (excess > worst_excess) {
        worst_excess = excess;
        worst = k;
      }
    }
  }
  if (bad) {
    char msg[512];
    if (is_float(c->dtype)) {
      snprintf(msg, sizeof msg, "CPU %.9g, GPU %.9g", float_at(c->data, c->dtype, worst),
               float_at(h, c->dtype, worst));
    } else {
      snprintf(msg, sizeof msg, "CPU %lld, GPU %lld", (long long)int_at(c->data, c->dtype, worst),
               (long long)int_at(h, c->dtype, worst));
    }
    free(h);
    ck_abort_msg("op %s output %s '%s' %s: %lld of %lld elements differ beyond rtol %g atol %g; "
                 "worst is element %lld: %s",
                 oi->op->type, slot, name, ic_tensor_describe(c, dc, sizeof dc), (long long)bad,
                 (long long)n, rtol, atol, (long long)worst, msg);
  }
  free(h);
}

/* The kernel must leave its device inputs as they were. */
static void check_inputs_intact(const opinfo *oi, const side *g, size_t n_in,
                                const char *const *in_names, ic_tensor *const *inputs) {
  size_t t = 0;
  for (size_t k = 0; k < oi->def->n_inputs; k++) {
    const ic_slot *sl = oi->ins[k];
    for (size_t i = 0; sl && i < sl->n; i++, t++) {
      if (!g->dev_in[t]) continue;
      const ic_tensor *h = find_input(sl->args[i], n_in, in_names, inputs);
      size_t bytes = ic_tensor_nbytes(h);
      if (!bytes) continue;
      void *back = malloc(bytes);
      ck_assert(back != NULL);
      CUDA_OK(cudaMemcpy(back, g->dev_in[t], bytes, cudaMemcpyDeviceToHost));
      bool same = memcmp(back, h->data, bytes) == 0;
      free(back);
      ck_assert_msg(same, "op %s: the CUDA kernel wrote into its input %s '%s'", oi->op->type,
                    sl->name, sl->args[i]);
    }
  }
}

/* ---- the device environment ---- */

static void *dev_alloc(void *ctx, size_t bytes) {
  void *p = NULL;
  return cudaMallocAsync(&p, bytes, (cudaStream_t)ctx) == cudaSuccess ? p : NULL;
}

static void dev_free(void *ctx, void *p, size_t bytes) {
  (void)bytes;
  cudaFreeAsync(p, (cudaStream_t)ctx);
}

static const ic_mem_ops k_dev_mem = {dev_alloc, dev_free, NULL};

static const ic_op *the_op(const ic_program *p) {
  const ic_block *b = &p->blocks[0];
  const ic_op *op = NULL;
  for (size_t i = 0; i < b->n_ops; i++) {
    if (!strcmp(b->ops[i].type, "feed") || !strcmp(b->ops[i].type, "fetch")) continue;
    ck_assert_msg(op == NULL, "ch_check_op: block 0 has more than one op (%s and %s)", op->type,
                  b->ops[i].type);
    op = &b->ops[i];
  }
  ck_assert_msg(op != NULL, "ch_check_op: block 0 has no op besides feed and fetch");
  return op;
}

/* gpu_side: return the CUDA kernel's status and message whatever the CPU kernel returned
 * (ch_cuda_op_status); else both must agree (ch_check_op_status). */
static ic_status check_op(const ic_program *p, size_t n_in, const char *const *in_names,
                          ic_tensor *const *inputs, double rtol, double atol, char *errbuf,
                          size_t errlen, bool gpu_side) {
  opinfo oi = {.op = the_op(p)};
  ic_err err;
  ic_err_clear(&err);
  if (errbuf && errlen) errbuf[0] = '\0';
  ic_status st = ic_opdef_lookup(oi.op, &oi.def, &err);
  ck_assert_msg(st == IC_OK, "%s", err.msg);
  ic_kernel_fn cuda_fn = ic_registry_cuda(oi.def);
  ck_assert_msg(cuda_fn != NULL, "op %s has no CUDA kernel (src/kernels/cuda/cuda_ops.def)",
                oi.def->name);
  oi.attrs = calloc(1, oi.def->attrs_size ? oi.def->attrs_size : 1);
  oi.ins = calloc(oi.def->n_inputs + 1, sizeof *oi.ins);
  oi.outs = calloc(oi.def->n_outputs + 1, sizeof *oi.outs);
  ck_assert(oi.attrs && oi.ins && oi.outs);
  /* parse and slot matching are shared by both kernels: a failure here is both sides' */
  if ((st = ic_opdef_parse(oi.def, oi.op, oi.attrs, &err)) ||
      (st = ic_opdef_match(oi.def, oi.op, oi.ins, oi.outs, &err))) {
    if (errbuf && errlen) snprintf(errbuf, errlen, "%s", err.msg);
    free(oi.attrs);
    free(oi.ins);
    free(oi.outs);
    return st;
  }
  for (size_t k = 0; k < oi.def->n_inputs; k++) oi.n_tin += oi.ins[k] ? oi.ins[k]->n : 0;
  for (size_t k = 0; k < oi.def->n_outputs; k++) oi.n_tout += oi.outs[k] ? oi.outs[k]->n : 0;

  /* CPU */
  side cs = {0}, gs = {0};
  side_alloc(&cs, &oi);
  cs.env = (ic_kenv){.alloc = ic_allocator_plain(), .seed = CH_SEED, .intra_threads = 1};
  ck_assert(cs.env.alloc != NULL);
  side_bind(&cs, &oi, false, n_in, in_names, inputs);
  ic_status st_cpu = side_run(&cs, &oi, oi.def->cpu, false, NULL);

  /* GPU */
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cublasHandle_t blas;
  cublasStatus_t bst = cublasCreate(&blas);
  ck_assert_msg(bst == CUBLAS_STATUS_SUCCESS, "cublasCreate failed: %d", (int)bst);
  bst = cublasSetStream(blas, stream);
  ck_assert_msg(bst == CUBLAS_STATUS_SUCCESS, "cublasSetStream failed: %d", (int)bst);
  void *dnn = NULL;
#ifdef IC_WITH_CUDNN
  cudnnHandle_t dh;
  cudnnStatus_t dst = cudnnCreate(&dh);
  ck_assert_msg(dst == CUDNN_STATUS_SUCCESS, "cudnnCreate failed: %s", cudnnGetErrorString(dst));
  dst = cudnnSetStream(dh, stream);
  ck_assert_msg(dst == CUDNN_STATUS_SUCCESS, "cudnnSetStream failed: %s",
                cudnnGetErrorString(dst));
  dnn = dh;
#endif
  side_alloc(&gs, &oi);
  gs.env = (ic_kenv){.alloc = ic_allocator_custom(&k_dev_mem, stream), .seed = CH_SEED, .intra_threads = 1,
                     .stream = stream, .blas = blas, .dnn = dnn};
  ck_assert(gs.env.alloc != NULL);
  side_bind(&gs, &oi, true, n_in, in_names, inputs);
  ic_status st_gpu = side_run(&gs, &oi, cuda_fn, true, stream);
  cudaError_t sync = cudaStreamSynchronize(stream);
  cudaError_t last = cudaGetLastError();
  ck_assert_msg(sync == cudaSuccess && last == cudaSuccess,
                "op %s: the CUDA kernel failed on the device: %s", oi.op->type,
                cudaGetErrorString(sync != cudaSuccess ? sync : last));
  ck_assert_msg(gpu_side || st_cpu == st_gpu,
                "op %s: the CPU kernel returned %s (%s), the CUDA kernel %s (%s)",
                oi.op->type, ic_status_name(st_cpu), st_cpu ? cs.err.msg : "",
                ic_status_name(st_gpu), st_gpu ? gs.err.msg : "");
  if (errbuf && errlen) snprintf(errbuf, errlen, "%s", gpu_side ? gs.err.msg : cs.err.msg);
  check_inputs_intact(&oi, &gs, n_in, in_names, inputs);
  if (st_cpu == IC_OK && st_gpu == IC_OK) {
    size_t t = 0;
    for (size_t k = 0; k < oi.def->n_outputs; k++) {
      for (size_t i = 0; i < cs.out[k].n; i++, t++) {
        compare_output(&oi, oi.def->outputs[k].name, cs.out[k].names[i], &cs.tout[t],
                       &gs.tout[t], rtol, atol);
      }
    }
  }
  side_free(&cs, &oi, false);
  side_free(&gs, &oi, true); /* device outputs go back with cudaFreeAsync on the stream */
  CUDA_OK(cudaStreamSynchronize(stream));
  ic_allocator_destroy(cs.env.alloc);
  ic_allocator_destroy(gs.env.alloc);
#ifdef IC_WITH_CUDNN
  cudnnDestroy(dh);
#endif
  cublasDestroy(blas);
  CUDA_OK(cudaStreamDestroy(stream));
  free(oi.attrs);
  free(oi.ins);
  free(oi.outs);
  return gpu_side ? st_gpu : st_cpu;
}

ic_status ch_check_op_status(const ic_program *p, size_t n_in, const char *const *in_names,
                             ic_tensor *const *inputs, double rtol, double atol, char *errbuf,
                             size_t errlen) {
  return check_op(p, n_in, in_names, inputs, rtol, atol, errbuf, errlen, false);
}

ic_status ch_cuda_op_status(const ic_program *p, size_t n_in, const char *const *in_names,
                            ic_tensor *const *inputs, char *errbuf, size_t errlen) {
  return check_op(p, n_in, in_names, inputs, 0, 0, errbuf, errlen, true);
}

void ch_check_op(const ic_program *p, size_t n_in, const char *const *in_names,
                 ic_tensor *const *inputs, double rtol, double atol) {
  char msg[1024];
  ic_status st = ch_check_op_status(p, n_in, in_names, inputs, rtol, atol, msg, sizeof msg);
  ck_assert_msg(st == IC_OK, "op %s failed on both sides with %s: %s", the_op(p)->type,
                ic_status_name(st), msg);
}

void ch_check_builder(const ic_builder *b, size_t n_in, const char *const *in_names,
                      ic_tensor *const *inputs, double rtol, double atol) {
  ic_program *p;
  char err[1024];
  ic_status st = ic_builder_build(b, &p, err, sizeof err);
  ck_assert_msg(st == IC_OK, "building the program: %s", err);
  ch_check_op(p, n_in, in_names, inputs, rtol, atol);
  ic_program_destroy(p);
}
