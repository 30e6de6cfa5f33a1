/* gather's and the repeat ops' (expand_v2, expand_as_v2, expand, tile) CUDA kernels against
 * their CPU kernels (tests/cuda_harness.h), bit for bit, on the shared case tables of
 * cases_index.h (the ones test_ops_index.c runs on the CPU executors): every axis, int32 and
 * int64 indices, a 0-D index, an empty index list, element sizes 1, 2, 4 and 8, an embedding
 * lookup; targets from attributes, tensors and lists (on the host: IC_SLOT_VALUE), Y's dims,
 * a 0-D X, empty outputs, an NCHW broadcast of a channel vector. No index out of range: the
 * CPU kernel fails there and the GPU kernel cannot (it writes zeros), so the harness's
 * same-status rule does not apply (test_ops_index.c tests the CPU's error). */
#include <stdlib.h>
#include <string.h>

#include "cases_index.h"
#include "cuda_harness.h"

START_TEST(gather_table) {
  for (size_t r = 0; r < CGA_N_CASES; r++) {
    size_t n_in;
    const char *names[4];
    ic_tensor *in[4];
    ic_builder *b = cga_program(&cga_cases[r], &n_in, names, in);
    ch_check_builder(b, n_in, names, in, 0, 0);
    for (size_t k = 0; k < n_in; k++) ic_tensor_destroy(in[k]);
    ic_builder_destroy(b);
  }
}
END_TEST

START_TEST(repeat_table) {
  for (size_t r = 0; r < CRP_N_CASES; r++) {
    size_t n_in;
    const char *names[8];
    ic_tensor *in[8];
    ic_builder *b = crp_program(&crp_cases[r], &n_in, names, in);
    ch_check_builder(b, n_in, names, in, 0, 0);
    for (size_t k = 0; k < n_in; k++) ic_tensor_destroy(in[k]);
    ic_builder_destroy(b);
  }
}
END_TEST

static TCase *tc_index(void) {
  TCase *tc = tcase_create("index");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, gather_table);
  tcase_add_test(tc, repeat_table);
  return tc;
}

CH_MAIN("cuda_index", tc_index)
