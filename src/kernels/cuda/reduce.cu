/* Reductions on the GPU with the CPU kernel's rules and numerics (see cpu/reduce.c): the
 * host computes the same axis groups (ic_reduce_geometry), float sums accumulate in double
 * and integer sums in wrapping 64 bits, X is converted to out_dtype element by element
 * exactly where the CPU converts it first, and max keeps NaN. Only the order of float sums
 * differs from the CPU (and with it the last bits of fp64 sums), and which of two equal
 * values -0.0 and 0.0 a max returns.
 *
 * Each output element is one block when the reduced elements are contiguous (the innermost
 * group is reduced) or when there are few outputs; otherwise one thread per output, so that
 * neighbouring threads read neighbouring kept elements. */
#include "kernels/cpu/reduce.h"
#include "kernels/cuda/cuda_kit.cuh"
#include "kernels/cuda/cureduce.h"

/* The geometry in the form the kernels walk: kept groups (Out's index, row-major) and reduced
 * groups (the reduction index, row-major), each with X's element stride. */
typedef struct rplan {
  int nk, nr;
  int64_t ks[IC_MAX_RANK], kst[IC_MAX_RANK];
  int64_t rs[IC_MAX_RANK], rst[IC_MAX_RANK];
  int64_t out_n, count;  /* outputs, and reduced elements per output */
  int xdt, odt;          /* ic_dtype of X and of Out */
  bool mean;
} rplan;

static __device__ inline int64_t kept_off(const rplan &p, int64_t o) {
  int64_t off = 0;
  for (int i = p.nk - 1; i >= 0; i--) {
    off += (o % p.ks[i]) * p.kst[i];
    o /= p.ks[i];
  }
  return off;
}

static __device__ inline int64_t red_off(const rplan &p, int64_t r) {
  if (p.nr == 1) return r * p.rst[0];
  int64_t off = 0;
  for (int i = p.nr - 1; i >= 0; i--) {
    off += (r % p.rs[i]) * p.rst[i];
    r /= p.rs[i];
  }
  return off;
}

/* Sums (and means) into a double: X converted to Out's float type first, as the CPU does. */
struct sum_f {
  typedef double acc;
  static __device__ acc init() { return 0.0; }
  static __device__ acc combine(acc a, acc b) { return a + b; }
  static __device__ acc load(const rplan &p, const void *x, int64_t k) {
    double f = 0;
    int64_t i = 0;
    bool fl = false;
    switch (p.xdt) {
      case IC_FP32: f = ((const float *)x)[k]; fl = true; break;
      case IC_FP64: f = ((const double *)x)[k]; fl = true; break;
      case IC_INT32: i = ((const int32_t *)x)[k]; break;
      case IC_INT64: i = ((const int64_t *)x)[k]; break;
      default: i = ((const uint8_t *)x)[k] != 0; break;
    }
    if (p.odt == IC_FP32) return fl ? (double)(float)f : (double)(float)i;
    return fl ? f : (double)i;
  }
  static __device__ void store(const rplan &p, void *out, int64_t o, acc v) {
    if (p.mean) v /= (double)p.count; /* 0/0 is NaN, as on the CPU */
    if (p.odt == IC_FP32) ((float *)out)[o] = (float)v;
    else ((double *)out)[o] = v;
  }
};

/* Integer sums (and means) in wrapping 64 bits; floats converted to out_dtype first, bools
 * summed as their bytes (as the CPU's unconverted path does). */
struct sum_i {
  typedef unsigned long long acc;
  static __device__ acc init() { return 0; }
  static __device__ acc combine(acc a, acc b) { return a + b; }
  static __device__ acc load(const rplan &p, const void *x, int64_t k) {
    int64_t v;
    switch (p.xdt) {
      case IC_FP32:
      case IC_FP64: {
        const double f = p.xdt == IC_FP32 ? (double)((const float *)x)[k] : ((const double *)x)[k];
        v = p.odt == IC_INT32 ? (int64_t)ic_reduce_f2i32(f) : ic_reduce_f2i64(f);
        break;
      }
      case IC_INT32: v = ((const int32_t *)x)[k]; break;
      case IC_INT64: v = ((const int64_t *)x)[k]; break;
      default: v = ((const uint8_t *)x)[k]; break;
    }
    return (acc)v;
  }
  static __device__ void store(const rplan &p, void *out, int64_t o, acc a) {
    int64_t v = (int64_t)a;
    if (p.mean) v = p.count ? v / p.count : 0;
    if (p.odt == IC_INT32) ((int32_t *)out)[o] = (int32_t)(uint32_t)v;
    else ((int64_t *)out)[o] = v;
  }
};

template <typename T>
struct max_f {
  typedef T acc;
  static __device__ acc init() { return (T)-INFINITY; }
  static __device__ acc combine(acc a, acc b) { return (b > a || isnan(b)) ? b : a; }
  static __device__ acc load(const rplan &, const void *x, int64_t k) { return ((const T *)x)[k]; }
  static __device__ void store(const rplan &, void *out, int64_t o, acc v) { ((T *)out)[o] = v; }
};

template <typename T>
struct max_i {
  typedef T acc;
  static __device__ acc init() { return sizeof(T) == 8 ? (T)INT64_MIN : (T)INT32_MIN; }
  static __device__ acc combine(acc a, acc b) { return b > a ? b : a; }
  static __device__ acc load(const rplan &, const void *x, int64_t k) { return ((const T *)x)[k]; }
  static __device__ void store(const rplan &, void *out, int64_t o, acc v) { ((T *)out)[o] = v; }
};

template <class P>
__global__ void reduce_blocks(rplan p, const void *x, void *out) {
  typedef typename P::acc acc;
  __shared__ acc shared[32];
  for (int64_t o = blockIdx.x; o < p.out_n; o += gridDim.x) {
    const int64_t base = kept_off(p, o);
    acc a = P::init();
    for (int64_t r = threadIdx.x; r < p.count; r += blockDim.x) {
      a = P::combine(a, P::load(p, x, base + red_off(p, r)));
    }
    a = ic_cuda_block_reduce(a, [](acc u, acc v) { return P::combine(u, v); }, shared);
    if (threadIdx.x == 0) P::store(p, out, o, a);
  }
}

template <class P>
__global__ void reduce_threads(rplan p, const void *x, void *out) {
  typedef typename P::acc acc;
  IC_CUDA_FOR(o, p.out_n) {
    const int64_t base = kept_off(p, o);
    acc a = P::init();
    for (int64_t r = 0; r < p.count; r++) a = P::combine(a, P::load(p, x, base + red_off(p, r)));
    P::store(p, out, o, a);
  }
}

template <class P>
static ic_status launch(ic_kctx *c, const rplan &p, bool per_block, const void *x, void *out) {
  cudaStream_t s = ic_cuda_stream(c);
  if (per_block) {
    reduce_blocks<P><<<ic_cuda_row_blocks(p.out_n), ic_cuda_row_threads(p.count), 0, s>>>(p, x,
                                                                                       out);
    return ic_cuda_launched(c, "reduce_blocks");
  }
  reduce_threads<P><<<ic_cuda_blocks(p.out_n), IC_CUDA_THREADS, 0, s>>>(p, x, out);
  return ic_cuda_launched(c, "reduce_threads");
}

ic_status ic_cureduce_run(ic_kctx *c) {
  const ic_reduce_attrs *a = (const ic_reduce_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  ic_status st = ic_cuda_need_env(c, false);
  if (st) return st;
  if (x->dtype == IC_INT8 || x->dtype == IC_UINT8 || x->dtype == IC_INT16) {
    return ic_kfail_in(c, 0, 0, "is %s, which the CUDA kernel does not reduce (the CPU "
                       "kernel does)", ic_dtype_name(x->dtype));
  }
  ic_reduce_geom g;
  if ((st = ic_reduce_geometry(c, &g))) return st;
  if (ic_numel(out->ndim, out->dims) == 0) return IC_OK;
  if (a->kind == IC_REDUCE_MAX && g.in_n == 0) {
    return ic_kfail_in(c, 0, 0, "cannot take the max of no elements");
  }
  rplan p = {};
  int64_t stride = 1;
  int kept[IC_MAX_RANK], reduced[IC_MAX_RANK], nk = 0, nr = 0;
  int64_t gstride[IC_MAX_RANK];
  for (int i = g.n - 1; i >= 0; i--) {
    gstride[i] = stride;
    stride *= g.size[i];
  }
  for (int i = 0; i < g.n; i++) {
    if (g.red[i]) reduced[nr++] = i;
    else kept[nk++] = i;
  }
  p.nk = nk;
  p.nr = nr;
  for (int i = 0; i < nk; i++) {
    p.ks[i] = g.size[kept[i]];
    p.kst[i] = gstride[kept[i]];
  }
  for (int i = 0; i < nr; i++) {
    p.rs[i] = g.size[reduced[i]];
    p.rst[i] = gstride[reduced[i]];
  }
  if (nr == 0) { /* nothing reduced: one element per output */
    p.nr = 1;
    p.rs[0] = 1;
    p.rst[0] = 0;
  }
  p.out_n = g.out_n;
  p.count = g.out_n ? g.in_n / g.out_n : 0;
  p.xdt = x->dtype;
  p.odt = out->dtype;
  p.mean = a->kind == IC_REDUCE_MEAN;
  /* Contiguous reduced elements, or too few outputs to fill the device one thread each. */
  const bool per_block = g.red[g.n - 1] || g.out_n < 2048;
  const void *xp = x->data;
  void *op = out->data;
  if (a->kind == IC_REDUCE_MAX) {
    switch (x->dtype) {
      case IC_FP32: return launch<max_f<float>>(c, p, per_block, xp, op);
      case IC_FP64: return launch<max_f<double>>(c, p, per_block, xp, op);
      case IC_INT32: return launch<max_i<int32_t>>(c, p, per_block, xp, op);
      default: return launch<max_i<int64_t>>(c, p, per_block, xp, op);
    }
  }
  if (out->dtype == IC_FP32 || out->dtype == IC_FP64) {
    return launch<sum_f>(c, p, per_block, xp, op);
  }
  return launch<sum_i>(c, p, per_block, xp, op);
}
