/* dropout's attributes and slots, shared by its CPU kernel (dropout.c) and its CUDA kernel. */
#ifndef IC_KERNELS_CPU_DROPOUT_H
#define IC_KERNELS_CPU_DROPOUT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct dropout_attrs {
  float p;
  bool is_test;
  bool upscale; /* upscale_in_train */
  int64_t seed; /* `seed` when fix_seed, else 0 */
} dropout_attrs;

enum { IC_DROPOUT_X, IC_DROPOUT_SEED };     /* input slots */
enum { IC_DROPOUT_OUT, IC_DROPOUT_MASK };   /* output slots */

#endif
