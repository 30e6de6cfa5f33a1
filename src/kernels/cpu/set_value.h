/* set_value's attributes, parser and slice plan (set_value.c), shared with set_value_grad
 * (whose Out@GRAD takes Input's slot 0, with ValueTensor, StartsTensorList, EndsTensorList
 * and StepsTensorList in the same slots 1-4 as set_value's). */
#ifndef IC_KERNELS_CPU_SET_VALUE_H
#define IC_KERNELS_CPU_SET_VALUE_H

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct set_value_attrs {
  const int64_t *axes, *starts, *ends, *steps, *decrease, *none, *shape, *ivals;
  const double *fvals;
  size_t n_axes, n_starts, n_ends, n_steps, n_decrease, n_none, n_shape, n_vals;
  bool paddle2; /* ic_paddle2: written by Paddle 2.x, a negative step's end -1 is "through 0" */
} set_value_attrs;

enum { IC_SV_INPUT, IC_SV_VALUE, IC_SV_STARTS, IC_SV_ENDS, IC_SV_STEPS };

/* The slice of slot 0's tensor: per dim its first index, step and length (dims that are not
 * sliced: 0, 1, the dim); the value's target dims (the slice's without decrease_axes, with a
 * 1 at each of none_axes) and the value's own dims (ValueTensor's, else attribute 'shape';
 * for the grad without ValueTensor, rank 0), checked to broadcast to the target. */
typedef struct sv_plan {
  int64_t start[IC_MAX_RANK], step[IC_MAX_RANK], len[IC_MAX_RANK];
  int nt;                   /* the value's target rank */
  int64_t target[IC_MAX_RANK];
  int nv;                   /* the value's rank and dims */
  int64_t vdims[IC_MAX_RANK];
} sv_plan;

ic_status ic_set_value_parse(ic_attr_reader *r, void *attrs);
ic_status ic_set_value_plan(ic_kctx *c, bool grad, sv_plan *p);

#ifdef __cplusplus
}
#endif

#endif
