/* The op registry: sorted, unique, complete definitions. */
#include <string.h>

#include "kernels/kernel.h"
#include "testutil.h"

START_TEST(sorted_and_complete) {
  size_t n = ic_registry_count();
  ck_assert_uint_gt(n, 2);
  for (size_t i = 0; i < n; i++) {
    const ic_opdef *d = ic_registry_at(i);
    ck_assert_ptr_nonnull(d);
    ck_assert_msg(d->infer && d->cpu, "%s lacks infer or cpu", d->name);
    if (i) ck_assert_msg(strcmp(ic_registry_at(i - 1)->name, d->name) < 0,
                         "ops.def is not sorted (or has a duplicate) at %s", d->name);
    ck_assert_ptr_eq(ic_registry_find(d->name), d);
    for (size_t k = 0; k < d->n_inputs; k++) {
      for (size_t j = 0; j < k; j++) {
        ck_assert_msg(strcmp(d->inputs[j].name, d->inputs[k].name) != 0, "%s: input %s twice",
                      d->name, d->inputs[k].name);
      }
    }
  }
  ck_assert_ptr_null(ic_registry_find("no_such_op"));
  ck_assert_ptr_null(ic_registry_find(""));
}
END_TEST

static TCase *tc_registry(void) {
  TCase *tc = tcase_create("registry");
  tcase_add_test(tc, sorted_and_complete);
  return tc;
}

TU_MAIN("registry", tc_registry)
