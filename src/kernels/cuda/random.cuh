/* The random ops on the GPU (uniform_random, gaussian_random, dropout in training): the same
 * Philox streams as the CPU kernels (cpu/philox.h), element i from word i % 4 of the block for
 * counter i / 4, so a seed gives the same values on both. Each thread draws whole blocks of
 * four elements; the key is computed on the host, or on the device when it depends on a
 * device tensor (dropout's Seed). */
#ifndef IC_KERNELS_CUDA_RANDOM_CUH
#define IC_KERNELS_CUDA_RANDOM_CUH

#include "kernels/cpu/half.h"
#include "kernels/cpu/philox.h"
#include "kernels/cuda/cuda_util.cuh"

/* Conversions of a computed value to the stored element, as the CPU kernels' STORE. */
struct ic_store_same {
  template <typename V>
  __device__ V operator()(V v) const { return v; }
};
struct ic_store_f32 {
  __device__ float operator()(double v) const { return (float)v; }
};
struct ic_store_f16 {
  __device__ uint16_t operator()(float v) const { return ic_f32_to_f16(v); }
};
struct ic_store_bf16 {
  __device__ uint16_t operator()(float v) const { return ic_f32_to_bf16(v); }
};

/* Blocks of four elements for n elements. */
static inline __host__ __device__ int64_t ic_philox_blocks(int64_t n) { return (n + 3) / 4; }

#endif
