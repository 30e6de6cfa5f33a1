/* The binary elementwise ops on the GPU (elementwise_add, _sub, _mul, _div, _max, _min,
 * _pow). The broadcast is planned on the host by the CPU's ic_bcast_plan (Paddle's axis
 * rule, simplified dims and strides); the device computes the same scalar operations
 * (ic_ew_* in cpu/elementwise.h). Two kernels per dtype:
 *   - flat: the simplified broadcast has one dim, each operand contiguous or a single value
 *     (same shapes, a scalar operand);
 *   - strided: any other broadcast; each thread turns its output index into the operands'
 *     offsets by dividing through the simplified dims, in 32-bit arithmetic when the output
 *     has fewer than 2^31 elements (64-bit division is several times slower).
 * Differences from the CPU kernel: integer division by a zero element cannot fail on the
 * device (the CPU scans Y first and fails); it writes 0 there. float pow goes through CUDA's
 * powf/pow, a few ulps from the host's. */
#ifndef IC_KERNELS_CUDA_ELEMENTWISE_CUH
#define IC_KERNELS_CUDA_ELEMENTWISE_CUH

#include "kernels/cpu/elementwise.h"
#include "kernels/cuda/cuda_util.cuh"

template <typename I>
struct ic_ew_geom {
  int n;                     /* simplified dims */
  I dims[IC_MAX_RANK];
  I sx[IC_MAX_RANK], sy[IC_MAX_RANK];
};

/* o[i] = op(x[i * sx], y[i * sy]) with sx, sy in {0, 1}. */
template <typename T, typename Op>
__global__ void ic_ew_flat_kernel(T *__restrict__ o, const T *__restrict__ x,
                                  const T *__restrict__ y, int64_t n, int64_t sx, int64_t sy,
                                  Op op) {
  IC_CUDA_FOR(i, n) o[i] = op(x[i * sx], y[i * sy]);
}

template <typename T, typename I, typename Op>
__global__ void ic_ew_strided_kernel(T *__restrict__ o, const T *__restrict__ x,
                                     const T *__restrict__ y, I n, ic_ew_geom<I> g, Op op) {
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (I)blockDim.x * gridDim.x) {
    I rem = i, ox = 0, oy = 0;
    for (int d = g.n - 1; d >= 0; d--) {
      I q = rem / g.dims[d], r = rem - q * g.dims[d];
      ox += r * g.sx[d];
      oy += r * g.sy[d];
      rem = q;
    }
    o[i] = op(x[ox], y[oy]);
  }
}

template <typename I>
static ic_ew_geom<I> ic_ew_geom_of(const ic_bcast *b) {
  ic_ew_geom<I> g;
  g.n = b->n;
  for (int d = 0; d < IC_MAX_RANK; d++) {
    g.dims[d] = d < b->n ? (I)b->dims[d] : 1;
    g.sx[d] = d < b->n ? (I)b->sx[d] : 0;
    g.sy[d] = d < b->n ? (I)b->sy[d] : 0;
  }
  return g;
}

/* Out = op(X, Y) over Paddle's broadcast (slots X, Y, Out; attribute axis). */
template <typename Op>
static ic_status ic_cuda_elementwise(ic_kctx *c, Op op) {
  const ic_elementwise_attrs *a = (const ic_elementwise_attrs *)c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0), *y = ic_in(c, 1, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  ic_bcast b;
  ic_status st = ic_bcast_plan(c, 0, 1, a->axis, &b);
  if (st || b.numel == 0) return st;
  cudaStream_t s = ic_cuda_stream(c);
  const unsigned blocks = ic_cuda_blocks(b.numel);
  auto launch = [&](auto z) {
    using T = decltype(z);
    T *o = (T *)out->data;
    const T *xp = (const T *)x->data, *yp = (const T *)y->data;
    if (b.n == 1) {
      ic_ew_flat_kernel<T, Op><<<blocks, IC_CUDA_THREADS, 0, s>>>(o, xp, yp, b.numel, b.sx[0],
                                                                  b.sy[0], op);
    } else if (b.numel < INT32_MAX) {
      ic_ew_strided_kernel<T, uint32_t, Op><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          o, xp, yp, (uint32_t)b.numel, ic_ew_geom_of<uint32_t>(&b), op);
    } else {
      ic_ew_strided_kernel<T, int64_t, Op><<<blocks, IC_CUDA_THREADS, 0, s>>>(
          o, xp, yp, b.numel, ic_ew_geom_of<int64_t>(&b), op);
    }
    return ic_cuda_launched(c, c->def->name);
  };
  if (x->dtype == IC_BOOL) {
    /* bool bytes (elementwise_add and _mul: the functor's kBool) */
    if constexpr (Op::kBool) {
      return launch(uint8_t());
    } else {
      return ic_kfail(c, IC_ERR_INTERNAL, "%s: CUDA kernel reached with dtype bool",
                      c->def->name);
    }
  }
  return ic_cuda_dispatch_num(c, x->dtype, launch);
}

/* Defines ic_cuda_elementwise_OP from the scalar functions ic_ew_OP_{f32,f64,i32,i64};
 * IC_CUDA_ELEMENTWISE_BOOL(OP, EXPR) also takes bool bytes, EXPR of bools a and b (as the CPU
 * kernel: add is a || b, mul a && b). */
#define IC_CUDA_EW_NUM_OPS_(OP)                                                            \
  __device__ float operator()(float a, float b) const { return ic_ew_##OP##_f32(a, b); }   \
  __device__ double operator()(double a, double b) const { return ic_ew_##OP##_f64(a, b); } \
  __device__ int32_t operator()(int32_t a, int32_t b) const { return ic_ew_##OP##_i32(a, b); } \
  __device__ int64_t operator()(int64_t a, int64_t b) const { return ic_ew_##OP##_i64(a, b); }
#define IC_CUDA_EW_ENTRY_(OP)                                                              \
  extern "C" ic_status ic_cuda_elementwise_##OP(ic_kctx *c) {                              \
    return ic_cuda_elementwise(c, OP##_fn{});                                              \
  }
#define IC_CUDA_ELEMENTWISE(OP)                                                            \
  namespace {                                                                              \
  struct OP##_fn {                                                                         \
    static constexpr bool kBool = false;                                                   \
    IC_CUDA_EW_NUM_OPS_(OP)                                                                \
  };                                                                                       \
  }                                                                                        \
  IC_CUDA_EW_ENTRY_(OP)
#define IC_CUDA_ELEMENTWISE_BOOL(OP, EXPR)                                                 \
  namespace {                                                                              \
  struct OP##_fn {                                                                         \
    static constexpr bool kBool = true;                                                    \
    IC_CUDA_EW_NUM_OPS_(OP)                                                                \
    __device__ uint8_t operator()(uint8_t x, uint8_t y) const {                            \
      const bool a = x != 0, b = y != 0;                                                   \
      return (uint8_t)(EXPR);                                                              \
    }                                                                                      \
  };                                                                                       \
  }                                                                                        \
  IC_CUDA_EW_ENTRY_(OP)

#endif
