/* The CUDA device backend: non-blocking streams each with a cuBLAS (and cuDNN) handle bound
 * to it, events without timing, and stream-ordered memory from the device's default memory
 * pool with a release threshold high enough that freed memory stays in the pool (no
 * cudaMalloc or device-wide synchronization on the hot path). Kernels are called at launch:
 * they enqueue their work on the stream and return. */
#ifdef IC_WITH_CUDA
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef IC_WITH_CUDNN
#include <cudnn.h>
#endif

#include "device/device.h"

typedef struct cuda_device {
  ic_device base;
  int index;
} cuda_device;

struct ic_dstream {
  cuda_device *dev;
  cudaStream_t stream;
  cublasHandle_t blas;
  void *dnn;              /* cudnnHandle_t when built with cuDNN */
};

struct ic_devent {
  cudaEvent_t ev;
};

static ic_status cuda_fail(ic_err *err, cudaError_t e, const char *what) {
  return ic_err_set(err, IC_ERR_DEVICE, "CUDA %s failed: %s (%s)", what, cudaGetErrorName(e),
                    cudaGetErrorString(e));
}

/* Every thread that calls into CUDA for this device makes it current first (cheap). */
static bool use(const cuda_device *d) {
  int cur = -1;
  if (cudaGetDevice(&cur) == cudaSuccess && cur == d->index) return true;
  return cudaSetDevice(d->index) == cudaSuccess;
}

static ic_status stream_create(ic_device *base, ic_dstream **out, ic_err *err) {
  cuda_device *d = (cuda_device *)base;
  ic_dstream *s = calloc(1, sizeof *s);
  if (!s) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  s->dev = d;
  use(d);
  cudaError_t e = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking);
  if (e != cudaSuccess) {
    free(s);
    return cuda_fail(err, e, "cudaStreamCreateWithFlags");
  }
  if (cublasCreate(&s->blas) != CUBLAS_STATUS_SUCCESS ||
      cublasSetStream(s->blas, s->stream) != CUBLAS_STATUS_SUCCESS) {
    cudaStreamDestroy(s->stream);
    free(s);
    return ic_err_set(err, IC_ERR_DEVICE, "cuBLAS: cannot create a handle for a stream");
  }
#ifdef IC_WITH_CUDNN
  cudnnHandle_t h;
  if (cudnnCreate(&h) != CUDNN_STATUS_SUCCESS || cudnnSetStream(h, s->stream) != CUDNN_STATUS_SUCCESS) {
    cublasDestroy(s->blas);
    cudaStreamDestroy(s->stream);
    free(s);
    return ic_err_set(err, IC_ERR_DEVICE, "cuDNN: cannot create a handle for a stream");
  }
  s->dnn = h;
#endif
  *out = s;
  return IC_OK;
}

static void stream_destroy(ic_dstream *s) {
  if (!s) return;
  use(s->dev);
  cudaStreamSynchronize(s->stream);
#ifdef IC_WITH_CUDNN
  if (s->dnn) cudnnDestroy((cudnnHandle_t)s->dnn);
#endif
  cublasDestroy(s->blas);
  cudaStreamDestroy(s->stream);
  free(s);
}

static ic_status event_create(ic_device *base, ic_devent **out, ic_err *err) {
  use((cuda_device *)base);
  ic_devent *e = calloc(1, sizeof *e);
  if (!e) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  cudaError_t r = cudaEventCreateWithFlags(&e->ev, cudaEventDisableTiming);
  if (r != cudaSuccess) {
    free(e);
    return cuda_fail(err, r, "cudaEventCreateWithFlags");
  }
  *out = e;
  return IC_OK;
}

static void event_destroy(ic_devent *e) {
  if (!e) return;
  cudaEventDestroy(e->ev);
  free(e);
}

static ic_status record(ic_devent *e, ic_dstream *s, ic_err *err) {
  use(s->dev);
  cudaError_t r = cudaEventRecord(e->ev, s->stream);
  return r == cudaSuccess ? IC_OK : cuda_fail(err, r, "cudaEventRecord");
}

static ic_status wait(ic_dstream *s, ic_devent *e, ic_err *err) {
  use(s->dev);
  cudaError_t r = cudaStreamWaitEvent(s->stream, e->ev, 0);
  return r == cudaSuccess ? IC_OK : cuda_fail(err, r, "cudaStreamWaitEvent");
}

static ic_status host_wait(ic_devent *e, ic_err *err) {
  cudaError_t r = cudaEventSynchronize(e->ev);
  return r == cudaSuccess ? IC_OK : cuda_fail(err, r, "cudaEventSynchronize");
}

static ic_status sync_stream(ic_dstream *s, ic_err *err) {
  use(s->dev);
  cudaError_t r = cudaStreamSynchronize(s->stream);
  return r == cudaSuccess ? IC_OK : cuda_fail(err, r, "cudaStreamSynchronize (a kernel failed)");
}

static void *cu_malloc(ic_dstream *s, size_t bytes) {
  use(s->dev);
  void *p = NULL;
  return cudaMallocAsync(&p, bytes, s->stream) == cudaSuccess ? p : NULL;
}

static void cu_free(ic_dstream *s, void *p, size_t bytes) {
  (void)bytes;
  use(s->dev);
  cudaFreeAsync(p, s->stream);
}

static ic_status cu_memcpy(ic_dstream *s, void *dst, const void *src, size_t n, ic_copy_kind kind,
                           ic_err *err) {
  use(s->dev);
  enum cudaMemcpyKind k = kind == IC_COPY_H2D   ? cudaMemcpyHostToDevice
                          : kind == IC_COPY_D2H ? cudaMemcpyDeviceToHost
                                                : cudaMemcpyDeviceToDevice;
  cudaError_t r = cudaMemcpyAsync(dst, src, n, k, s->stream);
  return r == cudaSuccess ? IC_OK : cuda_fail(err, r, "cudaMemcpyAsync");
}

static ic_status launch(ic_dstream *s, ic_kernel_fn fn, const ic_kctx *ctx, ic_err *err) {
  use(s->dev);
  ic_status st = fn((ic_kctx *)ctx);
  if (st) {
    *err = *ctx->err;
    return st;
  }
  cudaError_t r = cudaGetLastError();
  return r == cudaSuccess ? IC_OK : cuda_fail(err, r, "a kernel launch");
}

static void kenv(ic_dstream *s, ic_kenv *env) {
  env->stream = s->stream;
  env->blas = s->blas;
  env->dnn = s->dnn;
}

static ic_kernel_fn kernel(const ic_opdef *def) {
  if (def->flags & IC_OP_VIEW) return def->cpu;
  return ic_registry_cuda(def);
}

/* Relaxed capture: other threads keep using CUDA normally meanwhile, and the capturing
 * thread may still call cudaMallocHost (a page-locked fetch buffer the graph copies into is
 * allocated during the recording run; thread-local mode refuses that call as "unsafe" and it
 * surfaced as an out-of-memory error on the first GPU run). Stream work is recorded as
 * usual, and cudaMallocAsync becomes a graph memory node. */
static ic_status capture_begin(ic_dstream *s, ic_err *err) {
  use(s->dev);
  cudaError_t r = cudaStreamBeginCapture(s->stream, cudaStreamCaptureModeRelaxed);
  return r == cudaSuccess ? IC_OK : cuda_fail(err, r, "cudaStreamBeginCapture");
}

static ic_status capture_end(ic_dstream *s, void **graph, ic_err *err) {
  cudaGraph_t g = NULL;
  cudaGraphExec_t x = NULL;
  *graph = NULL;
  cudaError_t r = cudaStreamEndCapture(s->stream, &g);
  if (r != cudaSuccess) return cuda_fail(err, r, "cudaStreamEndCapture");
  r = cudaGraphInstantiate(&x, g, 0);
  cudaGraphDestroy(g);
  if (r != cudaSuccess) return cuda_fail(err, r, "cudaGraphInstantiate");
  *graph = x;
  return IC_OK;
}

static ic_status graph_launch(ic_dstream *s, void *graph, ic_err *err) {
  use(s->dev);
  cudaError_t r = cudaGraphLaunch((cudaGraphExec_t)graph, s->stream);
  return r == cudaSuccess ? IC_OK : cuda_fail(err, r, "cudaGraphLaunch");
}

static void graph_destroy(void *graph) {
  if (graph) cudaGraphExecDestroy((cudaGraphExec_t)graph);
}

static void *host_alloc(ic_device *base, size_t bytes) {
  use((cuda_device *)base);
  void *p = NULL;
  return cudaMallocHost(&p, bytes) == cudaSuccess ? p : NULL;
}

static void host_free(ic_device *base, void *p) {
  (void)base;
  cudaFreeHost(p);
}

static void destroy(ic_device *base) { free(base); }

static const ic_device_vtbl k_cuda = {
    .name = "cuda",
    .destroy = destroy,
    .stream_create = stream_create,
    .stream_destroy = stream_destroy,
    .event_create = event_create,
    .event_destroy = event_destroy,
    .record = record,
    .wait = wait,
    .host_wait = host_wait,
    .sync = sync_stream,
    .malloc = cu_malloc,
    .free = cu_free,
    .memcpy = cu_memcpy,
    .launch = launch,
    .kenv = kenv,
    .kernel = kernel,
    .capture_begin = capture_begin,
    .capture_end = capture_end,
    .graph_launch = graph_launch,
    .graph_destroy = graph_destroy,
    .host_alloc = host_alloc,
    .host_free = host_free,
};

ic_status ic_cuda_open(int index, ic_device **out, ic_err *err) {
  *out = NULL;
  int n = 0;
  cudaError_t r = cudaGetDeviceCount(&n);
  if (r != cudaSuccess) return cuda_fail(err, r, "cudaGetDeviceCount (is there a GPU and a driver?)");
  if (index < 0 || index >= n) {
    return ic_err_set(err, IC_ERR_DEVICE, "cuda:%d: the machine has %d CUDA device%s", index, n,
                      n == 1 ? "" : "s");
  }
  if ((r = cudaSetDevice(index)) != cudaSuccess) return cuda_fail(err, r, "cudaSetDevice");
  /* Freed memory stays in the stream-ordered pool for reuse instead of going back to the
   * driver at every synchronization. */
  cudaMemPool_t pool;
  if (cudaDeviceGetDefaultMemPool(&pool, index) == cudaSuccess) {
    uint64_t threshold = UINT64_MAX;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  }
  cuda_device *d = calloc(1, sizeof *d);
  if (!d) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  d->base.v = &k_cuda;
  d->base.place = (ic_place){IC_PLACE_CUDA, index};
  d->index = index;
  *out = &d->base;
  return IC_OK;
}
#else
typedef int ic_cuda_backend_unused; /* keeps the translation unit non-empty without CUDA */
#endif
