/* cross_entropy's attributes and parser, shared with cross_entropy_grad (cross_entropy.c). */
#ifndef IC_KERNELS_CPU_CROSS_ENTROPY_H
#define IC_KERNELS_CPU_CROSS_ENTROPY_H

#include "kernels/kernel.h"

typedef struct ce_attrs {
  bool soft_label;
  int64_t ignore_index;
} ce_attrs;

ic_status ic_cross_entropy_parse(ic_attr_reader *r, void *attrs); /* ce_attrs */

#endif
