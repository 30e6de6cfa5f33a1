/* transpose2 on the GPU, planned on the host as the CPU kernel plans it (ic_transpose_plan:
 * size-1 axes dropped, runs of axes that stay together merged), then:
 *   - nothing left to permute: one device-to-device copy;
 *   - the innermost axis stays innermost: a strided box copy moving whole rows (in units of
 *     up to 16 bytes, see copy.cuh);
 *   - otherwise: a 2-D transpose between the input's innermost axis and the axis that
 *     becomes the output's innermost, through 32 x 32 shared-memory tiles (padded against
 *     bank conflicts) so that both the reads and the writes are coalesced, for every index
 *     of the remaining axes (grid z). XShape is meta only (infer). */
#include <string.h>

#include "kernels/cpu/shapeops.h"
#include "kernels/cuda/copy.cuh"

namespace {

constexpr int TILE = 32, ROWS = 8;

struct batch_geom {
  int m;                        /* remaining axes */
  int64_t size[IC_MAX_RANK];
  int64_t sin[IC_MAX_RANK], sout[IC_MAX_RANK];
};

/* out[out_off + j * os_q + i] = in[in_off + i * is_a + j] for i < ni, j < nj, where
 * (in_off, out_off) are batch index bz's offsets. */
template <typename U>
__global__ void transpose_tiled(U *__restrict__ out, const U *__restrict__ in, int64_t ni,
                                int64_t nj, int64_t is_a, int64_t os_q, int64_t batch,
                                batch_geom g) {
  __shared__ U tile[TILE][TILE + 1];
  const int64_t tiles_i = (ni + TILE - 1) / TILE, tiles_j = (nj + TILE - 1) / TILE;
  for (int64_t bz = blockIdx.z; bz < batch; bz += gridDim.z) {
    int64_t rem = bz, in_off = 0, out_off = 0;
    for (int k = g.m - 1; k >= 0; k--) {
      const int64_t q = rem / g.size[k], r = rem - q * g.size[k];
      in_off += r * g.sin[k];
      out_off += r * g.sout[k];
      rem = q;
    }
    for (int64_t ty = blockIdx.y; ty < tiles_i; ty += gridDim.y) {
      for (int64_t tx = blockIdx.x; tx < tiles_j; tx += gridDim.x) {
        const int64_t i0 = ty * TILE, j0 = tx * TILE;
        for (int k = threadIdx.y; k < TILE; k += ROWS) {
          const int64_t i = i0 + k, j = j0 + threadIdx.x;
          if (i < ni && j < nj) tile[k][threadIdx.x] = in[in_off + i * is_a + j];
        }
        __syncthreads();
        for (int k = threadIdx.y; k < TILE; k += ROWS) {
          const int64_t j = j0 + k, i = i0 + threadIdx.x;
          if (i < ni && j < nj) out[out_off + j * os_q + i] = tile[threadIdx.x][k];
        }
        __syncthreads(); /* the tile is reused by the next iteration */
      }
    }
  }
}

template <typename U>
ic_status launch_tiled(ic_kctx *c, void *out, const void *in, int64_t ni, int64_t nj,
                       int64_t is_a, int64_t os_q, int64_t batch, const batch_geom &g) {
  const int64_t ti = (ni + TILE - 1) / TILE, tj = (nj + TILE - 1) / TILE;
  dim3 grid((unsigned)(tj < 65535 ? tj : 65535), (unsigned)(ti < 65535 ? ti : 65535),
            (unsigned)(batch < 65535 ? batch : 65535));
  transpose_tiled<U><<<grid, dim3(TILE, ROWS), 0, ic_cuda_stream(c)>>>(
      (U *)out, (const U *)in, ni, nj, is_a, os_q, batch, g);
  return ic_cuda_launched(c, "transpose2");
}

}  // namespace

extern "C" ic_status ic_cuda_transpose2(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  const size_t es = ic_dtype_size(x->dtype);
  const int64_t numel = ic_tensor_numel_(x);
  if (numel == 0) return IC_OK;
  ic_tplan t;
  ic_status st = ic_transpose_plan(c, &t);
  if (st) return st;
  if (t.n <= 1) {
    return ic_cuda_check(c, cudaMemcpyAsync(out->data, x->data, (size_t)numel * es,
                                            cudaMemcpyDeviceToDevice, ic_cuda_stream(c)),
                         "transpose2: cudaMemcpyAsync");
  }
  const int n = t.n;
  int64_t is[IC_MAX_RANK], os[IC_MAX_RANK], od[IC_MAX_RANK];
  is[n - 1] = 1;
  for (int i = n - 2; i >= 0; i--) is[i] = is[i + 1] * t.d[i + 1];
  for (int i = 0; i < n; i++) od[i] = t.d[t.p[i]];
  os[n - 1] = 1;
  for (int i = n - 2; i >= 0; i--) os[i] = os[i + 1] * od[i + 1];

  if (t.p[n - 1] == n - 1) { /* rows of the innermost axis move whole */
    int64_t sin[IC_MAX_RANK];
    for (int i = 0; i < n; i++) sin[i] = is[t.p[i]];
    return ic_cuda_copy_box(c, out->data, x->data, n, od, os, sin, es);
  }
  /* output position q holds the input's innermost axis; input axis a becomes the output's
   * innermost */
  const int a = t.p[n - 1];
  int q = 0;
  while (t.p[q] != n - 1) q++;
  batch_geom g;
  memset(&g, 0, sizeof g);
  int64_t batch = 1;
  for (int i = 0; i < n - 1; i++) {
    if (i == q) continue;
    g.size[g.m] = od[i];
    g.sin[g.m] = is[t.p[i]];
    g.sout[g.m] = os[i];
    batch *= od[i];
    g.m++;
  }
  const int64_t ni = t.d[a], nj = t.d[n - 1];
  switch (es) {
    case 1: return launch_tiled<uint8_t>(c, out->data, x->data, ni, nj, is[a], os[q], batch, g);
    case 2: return launch_tiled<uint16_t>(c, out->data, x->data, ni, nj, is[a], os[q], batch, g);
    case 4: return launch_tiled<uint32_t>(c, out->data, x->data, ni, nj, is[a], os[q], batch, g);
    case 8: return launch_tiled<uint64_t>(c, out->data, x->data, ni, nj, is[a], os[q], batch, g);
    default:
      return ic_kfail_in(c, 0, 0, "has an element size of %zu bytes, not supported", es);
  }
}
