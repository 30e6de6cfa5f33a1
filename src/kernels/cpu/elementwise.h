/* Binary elementwise ops with Paddle's broadcasting (elementwise_add, _sub, _mul, _div, _max,
 * _min, _pow): the shared broadcast plan, slots, attribute parsing, shape inference and the
 * CPU engine. Each op file only names its operation:
 *
 *   static ic_status run(ic_kctx *c) { return ic_elementwise_run(c, IC_EW_ADD); }
 *   const ic_opdef ic_op_elementwise_add = IC_ELEMENTWISE_DEF("elementwise_add", run);
 */
#ifndef IC_KERNELS_CPU_ELEMENTWISE_H
#define IC_KERNELS_CPU_ELEMENTWISE_H

#include "kernels/kernel.h"

typedef enum ic_ew_op {
  IC_EW_ADD = 0,
  IC_EW_SUB,
  IC_EW_MUL,
  IC_EW_DIV,
  IC_EW_MAX,
  IC_EW_MIN,
  IC_EW_POW,
  IC_EW_N_OPS
} ic_ew_op;

/* A broadcast of two operands, simplified for the loops: dims where the output is 1 are
 * dropped and neighbouring dims that broadcast the same way are merged, so a same-shape op
 * is one dim, a bias add [N,C,H,W] + [C] (axis 1) is [N, C, H*W] with Y's strides
 * [0, 1, 0], and a scalar Y is one dim with Y's stride 0. */
typedef struct ic_bcast {
  int ndim;                     /* output rank */
  int64_t out[IC_MAX_RANK];     /* output dims */
  int64_t numel;                /* output elements */
  int n;                        /* simplified dims (>= 1) */
  int64_t dims[IC_MAX_RANK];    /* simplified dims, outermost first */
  int64_t sx[IC_MAX_RANK];      /* X's element stride per simplified dim (0: broadcast) */
  int64_t sy[IC_MAX_RANK];      /* Y's */
} ic_bcast;

/* Plan the broadcast of inputs (s_x, 0) and (s_y, 0) with Paddle's `axis` rule (see
 * elementwise.c); fails with IC_ERR_SHAPE naming both inputs and their shapes. */
ic_status ic_bcast_plan(ic_kctx *c, size_t s_x, size_t s_y, int64_t axis, ic_bcast *b);

typedef struct ic_elementwise_attrs {
  int64_t axis;
} ic_elementwise_attrs;

extern const ic_slotdef ic_elementwise_inputs[2];
extern const ic_slotdef ic_elementwise_outputs[1];
ic_status ic_elementwise_parse(ic_attr_reader *r, void *attrs);
/* X and Y: the same dtype among float32, float64, int32 and int64; Out: X's dtype and the
 * broadcast shape. */
ic_status ic_elementwise_infer(ic_kctx *c);
/* Out = op(X, Y) over the broadcast. */
ic_status ic_elementwise_run(ic_kctx *c, ic_ew_op op);

#define IC_ELEMENTWISE_DEF(NAME, RUN)                                                      \
  {                                                                                        \
    .name = NAME, .n_inputs = 2, .inputs = ic_elementwise_inputs, .n_outputs = 1,          \
    .outputs = ic_elementwise_outputs, .attrs_size = sizeof(ic_elementwise_attrs),         \
    .parse = ic_elementwise_parse, .infer = ic_elementwise_infer, .cpu = RUN,              \
  }

#endif
