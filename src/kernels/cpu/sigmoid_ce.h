/* sigmoid_cross_entropy_with_logits and its grad: shared attributes (not an op file). */
#ifndef IC_KERNELS_CPU_SIGMOID_CE_H
#define IC_KERNELS_CPU_SIGMOID_CE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel.h"

typedef struct sce_attrs {
  bool normalize;
  int64_t ignore_index;
} sce_attrs;

static inline ic_status ic_sce_parse(ic_attr_reader *r, void *attrs) {
  sce_attrs *a = attrs;
  a->normalize = ic_ar_bool(r, "normalize", false);
  a->ignore_index = ic_ar_int(r, "ignore_index", -100);
  return r->st;
}

/* The divisor of normalize: the count of labels that are not ignore_index, at least 1e-6. */
static inline double ic_sce_norm(const sce_attrs *a, const ic_tensor *label) {
  if (!a->normalize) return 1.0;
  int64_t n = ic_tensor_numel_(label), k = 0;
  for (int64_t i = 0; i < n; i++) {
    double l = label->dtype == IC_FP32 ? ((const float *)label->data)[i]
                                       : ((const double *)label->data)[i];
    k += (int64_t)l != a->ignore_index;
  }
  return k > 0 ? (double)k : 1e-6;
}

#endif
