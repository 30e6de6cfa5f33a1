/* The bundled example's MLP, built with the program builder (public API only); written out
 * by make_example.c and built again by tests/test_alloc_fail.c:
 *
 *   x [-1, 16] -> mul(fc1.w [16, 32]) -> elementwise_add(fc1.b, axis 1) -> relu
 *              -> mul(fc2.w [32, 10]) -> elementwise_add(fc2.b, axis 1) -> softmax -> fetch */
#ifndef IC_TOOLS_EXAMPLE_MLP_H
#define IC_TOOLS_EXAMPLE_MLP_H

#include "icore/icore.h"

enum { IC_MLP_IN = 16, IC_MLP_HIDDEN = 32, IC_MLP_OUT = 10 };

/* The builder holding the program (feed x, fetch softmax.tmp_0), or NULL when out of
 * memory; the caller destroys it. */
static inline ic_builder *ic_example_mlp(void) {
  ic_builder *b = ic_builder_create();
  if (!b) return NULL;
  ic_builder_var(b, 0, "x", IC_FP32, 2, (const int64_t[]){-1, IC_MLP_IN}, false);
  ic_builder_var(b, 0, "fc1.w", IC_FP32, 2, (const int64_t[]){IC_MLP_IN, IC_MLP_HIDDEN}, true);
  ic_builder_var(b, 0, "fc1.b", IC_FP32, 1, (const int64_t[]){IC_MLP_HIDDEN}, true);
  ic_builder_var(b, 0, "fc2.w", IC_FP32, 2, (const int64_t[]){IC_MLP_HIDDEN, IC_MLP_OUT}, true);
  ic_builder_var(b, 0, "fc2.b", IC_FP32, 1, (const int64_t[]){IC_MLP_OUT}, true);
  static const char *const hidden[] = {"fc1.tmp_0", "fc1.tmp_1", "relu.tmp_0"};
  static const char *const out[] = {"fc2.tmp_0", "fc2.tmp_1", "softmax.tmp_0"};
  for (int i = 0; i < 3; i++) {
    ic_builder_var(b, 0, hidden[i], IC_FP32, 2, (const int64_t[]){-1, IC_MLP_HIDDEN}, false);
    ic_builder_var(b, 0, out[i], IC_FP32, 2, (const int64_t[]){-1, IC_MLP_OUT}, false);
  }
  ic_builder_feed(b, "x");
  const char *in = "x";
  for (int layer = 0; layer < 2; layer++) {
    const char *const *t = layer ? out : hidden;
    ic_builder_op *mul = ic_builder_add_op(b, 0, "mul");
    ic_builder_in(mul, "X", in);
    ic_builder_in(mul, "Y", layer ? "fc2.w" : "fc1.w");
    ic_builder_out(mul, "Out", t[0]);
    ic_builder_attr_int(mul, "x_num_col_dims", 1);
    ic_builder_attr_int(mul, "y_num_col_dims", 1);
    ic_builder_op *add = ic_builder_add_op(b, 0, "elementwise_add");
    ic_builder_in(add, "X", t[0]);
    ic_builder_in(add, "Y", layer ? "fc2.b" : "fc1.b");
    ic_builder_out(add, "Out", t[1]);
    ic_builder_attr_int(add, "axis", 1);
    ic_builder_op *act = ic_builder_add_op(b, 0, layer ? "softmax" : "relu");
    ic_builder_in(act, "X", t[1]);
    ic_builder_out(act, "Out", t[2]);
    if (layer) ic_builder_attr_int(act, "axis", -1);
    in = t[2];
  }
  ic_builder_fetch(b, "softmax.tmp_0");
  return b;
}

#endif
