/* isclose and allclose share their slots, attributes and element test (isclose.c). */
#ifndef IC_KERNELS_CPU_ISCLOSE_H
#define IC_KERNELS_CPU_ISCLOSE_H

#include "kernels/kernel.h"

typedef struct isclose_attrs {
  double rtol, atol;
  bool equal_nan;
} isclose_attrs;

extern const ic_slotdef ic_isclose_inputs[4];
ic_status ic_isclose_parse(ic_attr_reader *r, void *attrs);
/* Input and Other: float32 or float64, one dtype and dims; Rtol / Atol, when given, one
 * float64 value each. */
ic_status ic_isclose_check(ic_kctx *c);
/* The test of every element into out (bool, one per element). */
void ic_isclose_run(ic_kctx *c, uint8_t *out);

#endif
