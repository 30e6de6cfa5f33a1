/* assign's kernel, shared with share_data (Paddle 2.x's name for the same view). */
#ifndef IC_KERNELS_CPU_ASSIGN_H
#define IC_KERNELS_CPU_ASSIGN_H

#include "kernels/kernel.h"

ic_status ic_assign_infer(ic_kctx *c);
ic_status ic_assign_run(ic_kctx *c);
extern const ic_slotdef ic_assign_inputs[1];
extern const ic_slotdef ic_assign_outputs[1];

#endif
