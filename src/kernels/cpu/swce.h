/* softmax_with_cross_entropy and its grad: shared attributes and geometry (not an op file). */
#ifndef IC_KERNELS_CPU_SWCE_H
#define IC_KERNELS_CPU_SWCE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel.h"

typedef struct swce_attrs {
  bool soft_label, use_softmax;
  int64_t ignore_index, axis;
} swce_attrs;

/* Logits seen as [n, d, r]: d classes along `axis`, n before it, r after it. */
typedef struct swce_geom {
  int axis;
  int64_t n, d, r;
} swce_geom;

ic_status ic_swce_parse(ic_attr_reader *r, void *attrs);
/* Check logits-like input (s_logits) and Label (s_label) against the attributes; *g gets
 * the geometry. `what` names the logits slot in messages. */
ic_status ic_swce_check(ic_kctx *c, size_t s_logits, size_t s_label, swce_geom *g);
/* Label value k (class index) of a hard-label tensor, checked against [0, d) unless it is
 * ignore_index; fails naming the label, its position and the range. */
ic_status ic_swce_label(ic_kctx *c, size_t s_label, int64_t k, const swce_geom *g,
                        int64_t *out);

#endif
