/* memcpy: Out = X, a copy to the place dst_place_type names (Paddle's MemcpyOp: 0 CPU,
 * 1 CUDA, 2 CUDA pinned, 3 XPU, 4 a custom device; anything outside 0..4 is an error, as in
 * Paddle). icore places tensors itself (the executors move them between host and device), so
 * every place type gives the same values: Out shares X's buffer as assign does (kernels never
 * write into their inputs). Paddle 3.3.1 built for CPU only copies for 0 and 4 and fails for
 * 1, 2 and 3 (no such device); icore runs those as the same copy. Every dtype
 * (paddle/phi/kernels/memcpy_kernel.cc). */
#include "kernels/cpu/assign.h"

typedef struct memcpy_attrs {
  int32_t dst_place_type;
} memcpy_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  memcpy_attrs *a = attrs;
  int64_t t = ic_ar_int_req(r, "dst_place_type");
  if (r->st) return r->st;
  if (t < 0 || t > 4) {
    return ic_ar_fail(r, "dst_place_type",
                      "is %lld, expected 0 (CPU), 1 (CUDA), 2 (CUDA pinned), 3 (XPU) or 4 "
                      "(custom device)",
                      (long long)t);
  }
  a->dst_place_type = (int32_t)t;
  return IC_OK;
}

const ic_opdef ic_op_memcpy = {
    .name = "memcpy",
    .n_inputs = 1, .inputs = ic_assign_inputs,
    .n_outputs = 1, .outputs = ic_assign_outputs,
    .attrs_size = sizeof(memcpy_attrs), .parse = parse,
    .infer = ic_assign_infer, .cpu = ic_assign_run,
    .flags = IC_OP_VIEW,
};
