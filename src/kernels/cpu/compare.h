/* Comparison ops (less_than, less_equal, greater_than, greater_equal, equal, not_equal) and
 * binary logical ops (logical_and, _or, _xor): Paddle's elementwise broadcasting (the plan
 * of elementwise.h) with a bool output. An op file only names its operation:
 *
 *   static ic_status run(ic_kctx *c) { return ic_compare_run(c, IC_CMP_LT); }
 *   const ic_opdef ic_op_less_than = IC_COMPARE_DEF("less_than", run);
 */
#ifndef IC_KERNELS_CPU_COMPARE_H
#define IC_KERNELS_CPU_COMPARE_H

#include "kernels/cpu/elementwise.h"

typedef enum ic_cmp_op {
  IC_CMP_LT = 0,
  IC_CMP_LE,
  IC_CMP_GT,
  IC_CMP_GE,
  IC_CMP_EQ,
  IC_CMP_NE,
  IC_LOGIC_AND,
  IC_LOGIC_OR,
  IC_LOGIC_XOR,
} ic_cmp_op;

/* Comparisons: X and Y of one dtype among bool, uint8, int8, int16, int32, int64, float32,
 * float64; attribute `axis` as elementwise ops. Logical ops: X and Y of any of those dtypes
 * (nonzero is true), trailing alignment. Out: bool of the broadcast shape. */
ic_status ic_compare_infer(ic_kctx *c);
ic_status ic_logical_infer(ic_kctx *c);
ic_status ic_compare_run(ic_kctx *c, ic_cmp_op op);

#define IC_COMPARE_DEF(NAME, RUN)                                                          \
  {                                                                                        \
    .name = NAME, .n_inputs = 2, .inputs = ic_elementwise_inputs, .n_outputs = 1,          \
    .outputs = ic_elementwise_outputs, .attrs_size = sizeof(ic_elementwise_attrs),         \
    .parse = ic_elementwise_parse, .infer = ic_compare_infer, .cpu = RUN,                  \
  }

#define IC_LOGICAL_DEF(NAME, RUN)                                                          \
  {                                                                                        \
    .name = NAME, .n_inputs = 2, .inputs = ic_elementwise_inputs, .n_outputs = 1,          \
    .outputs = ic_elementwise_outputs, .attrs_size = sizeof(ic_elementwise_attrs),         \
    .parse = ic_logical_parse, .infer = ic_logical_infer, .cpu = RUN,                      \
  }

/* Logical ops have no axis attribute: always -1. */
ic_status ic_logical_parse(ic_attr_reader *r, void *attrs);

#endif
