/* Strided box copies (see copy.cuh). Not an op: shared by the data-movement kernels. */
#include "kernels/cuda/copy.cuh"

namespace {

/* 16 bytes moved as one unit. */
struct alignas(16) unit16 {
  uint64_t lo, hi;
};

template <typename I>
struct geom {
  int n;
  I dims[IC_MAX_RANK];
  I sd[IC_MAX_RANK], ss[IC_MAX_RANK];
};

template <typename U, typename I>
__global__ void copy_box_kernel(U *__restrict__ dst, const U *__restrict__ src, I total,
                                geom<I> g) {
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < total;
       i += (I)blockDim.x * gridDim.x) {
    I rem = i, od = 0, os = 0;
    for (int k = g.n - 1; k >= 0; k--) {
      I q = rem / g.dims[k], r = rem - q * g.dims[k];
      od += r * g.sd[k];
      os += r * g.ss[k];
      rem = q;
    }
    dst[od] = src[os];
  }
}

template <typename U, typename I>
ic_status launch(ic_kctx *c, void *dst, const void *src, int n, const int64_t *dims,
                 const int64_t *sd, const int64_t *ss, int64_t total) {
  geom<I> g;
  g.n = n;
  for (int k = 0; k < IC_MAX_RANK; k++) {
    g.dims[k] = k < n ? (I)dims[k] : 1;
    g.sd[k] = k < n ? (I)sd[k] : 0;
    g.ss[k] = k < n ? (I)ss[k] : 0;
  }
  copy_box_kernel<U, I><<<ic_cuda_blocks(total), IC_CUDA_THREADS, 0, ic_cuda_stream(c)>>>(
      (U *)dst, (const U *)src, (I)total, g);
  return ic_cuda_launched(c, "copy_box");
}

template <typename U>
ic_status launch_unit(ic_kctx *c, void *dst, const void *src, int n, const int64_t *dims,
                      const int64_t *sd, const int64_t *ss, int64_t total, bool small) {
  return small ? launch<U, uint32_t>(c, dst, src, n, dims, sd, ss, total)
               : launch<U, int64_t>(c, dst, src, n, dims, sd, ss, total);
}

}  // namespace

ic_status ic_cuda_copy_box(ic_kctx *c, void *dst, const void *src, int n, const int64_t *dims_in,
                           const int64_t *sdst, const int64_t *ssrc, size_t es) {
  /* Simplify: drop size-1 dims, merge a dim into its inner neighbour when both sides are
   * contiguous across them. Strides become bytes. */
  int64_t dims[IC_MAX_RANK], sd[IC_MAX_RANK], ss[IC_MAX_RANK], total = 1;
  int m = 0;
  for (int k = 0; k < n; k++) {
    if (dims_in[k] == 0) return IC_OK;
    total *= dims_in[k];
    if (dims_in[k] == 1) continue;
    dims[m] = dims_in[k];
    sd[m] = sdst[k] * (int64_t)es;
    ss[m] = ssrc[k] * (int64_t)es;
    m++;
  }
  int w = 0;
  for (int k = 0; k < m; k++) {
    if (w > 0 && sd[w - 1] == sd[k] * dims[k] && ss[w - 1] == ss[k] * dims[k]) {
      dims[w - 1] *= dims[k];
      sd[w - 1] = sd[k];
      ss[w - 1] = ss[k];
    } else {
      dims[w] = dims[k];
      sd[w] = sd[k];
      ss[w] = ss[k];
      w++;
    }
  }
  m = w;
  if (m == 0) { /* one element */
    dims[0] = 1;
    sd[0] = ss[0] = (int64_t)es;
    m = 1;
  }
  /* The unit: the widest that divides the inner run, every stride and both addresses when
   * the inner dim is contiguous on both sides; else the element. */
  size_t unit = es;
  if (sd[m - 1] == (int64_t)es && ss[m - 1] == (int64_t)es) {
    for (size_t u = 16; u > es; u /= 2) {
      bool ok = (dims[m - 1] * (int64_t)es) % (int64_t)u == 0 && (uintptr_t)dst % u == 0 &&
                (uintptr_t)src % u == 0;
      for (int k = 0; k < m - 1 && ok; k++) ok = sd[k] % (int64_t)u == 0 && ss[k] % (int64_t)u == 0;
      if (ok) {
        unit = u;
        break;
      }
    }
    if (unit != es) {
      dims[m - 1] = dims[m - 1] * (int64_t)es / (int64_t)unit;
      sd[m - 1] = ss[m - 1] = (int64_t)unit; /* still contiguous, in the wider unit */
    }
  }
  int64_t max_d = 0, max_s = 0;
  total = 1;
  for (int k = 0; k < m; k++) {
    sd[k] /= (int64_t)unit;
    ss[k] /= (int64_t)unit;
    total *= dims[k];
    max_d += (dims[k] - 1) * sd[k];
    max_s += (dims[k] - 1) * ss[k];
  }
  const bool small = total < INT32_MAX && max_d < INT32_MAX && max_s < INT32_MAX;
  switch (unit) {
    case 1: return launch_unit<uint8_t>(c, dst, src, m, dims, sd, ss, total, small);
    case 2: return launch_unit<uint16_t>(c, dst, src, m, dims, sd, ss, total, small);
    case 4: return launch_unit<uint32_t>(c, dst, src, m, dims, sd, ss, total, small);
    case 8: return launch_unit<uint64_t>(c, dst, src, m, dims, sd, ss, total, small);
    case 16: return launch_unit<unit16>(c, dst, src, m, dims, sd, ss, total, small);
    default:
      return ic_kfail(c, IC_ERR_INTERNAL, "%s: no copy for %zu-byte elements", c->def->name, es);
  }
}
