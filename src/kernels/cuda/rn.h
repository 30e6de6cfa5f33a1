/* Arithmetic rounded once per operation, as the CPU kernels compute it: nvcc would otherwise
 * contract a * b + c into one fused multiply-add, whose single rounding differs from the
 * CPU's two. Kernels that promise bitwise agreement with the CPU use these. */
#ifndef IC_KERNELS_CUDA_RN_H
#define IC_KERNELS_CUDA_RN_H

static __device__ inline float mul_rn(float a, float b) { return __fmul_rn(a, b); }
static __device__ inline double mul_rn(double a, double b) { return __dmul_rn(a, b); }
static __device__ inline float add_rn(float a, float b) { return __fadd_rn(a, b); }
static __device__ inline double add_rn(double a, double b) { return __dadd_rn(a, b); }
static __device__ inline float sub_rn(float a, float b) { return __fsub_rn(a, b); }
static __device__ inline double sub_rn(double a, double b) { return __dsub_rn(a, b); }

#endif
