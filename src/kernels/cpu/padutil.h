/* The index map of the padding modes, shared by pad3d and pad2d. */
#ifndef IC_KERNELS_CPU_PADUTIL_H
#define IC_KERNELS_CPU_PADUTIL_H

#include <stdint.h>

enum { IC_PAD_CONSTANT, IC_PAD_REFLECT, IC_PAD_REPLICATE, IC_PAD_CIRCULAR };

/* The input position for output position j of a dim of size n padded by `before`, or -1 for
 * the constant. Reflect needs each pad < n, circular each pad <= n (checked by the ops). */
static inline int64_t ic_pad_src(int mode, int64_t j, int64_t before, int64_t n) {
  int64_t i = j - before;
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case IC_PAD_REFLECT: return i < 0 ? -i : 2 * (n - 1) - i;
    case IC_PAD_REPLICATE: return i < 0 ? 0 : n - 1;
    case IC_PAD_CIRCULAR: return ((i % n) + n) % n;
    default: return -1;
  }
}

#endif
