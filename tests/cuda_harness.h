/* The GPU test harness: runs one op with its CPU kernel and with its CUDA kernel on the same
 * host inputs and compares the outputs. Built into the test_cuda_*.c suites only when icore
 * has CUDA (IC_WITH_CUDA); no executor is involved, so a kernel is tested on its own.
 *
 *   START_TEST(relu) { ...build a one-op program...; ch_check_builder(b, 1, names, xs, 0, 0); }
 *   CH_MAIN("cuda_activation", tc_relu)   // prints "SKIP: ..." and gives 77 without a device
 *
 * How the op is run, on each side: the op's attributes are parsed (ic_opdef_parse) and its
 * slots matched (ic_opdef_match) as an executor would; infer() runs on the side's tensors,
 * then every output that is neither IC_SLOT_NO_BUFFER, IC_SLOT_SHARE nor IC_SLOT_HOLDER gets
 * a fresh buffer, then the kernel runs. On the GPU side:
 *   - inputs are cudaMalloc'd copies of the host inputs, except slots marked IC_SLOT_VALUE
 *     (infer() reads their values on the host, so a device executor keeps them there and the
 *     kernel gets the host tensor) and IC_SLOT_NO_BUFFER (meta only: data is NULL);
 *   - outputs come from ic_kenv.alloc, an allocator of device memory (cudaMallocAsync on the
 *     stream), filled with 0xFF bytes before the kernel so an unwritten element shows up;
 *     a kernel may allocate a NO_BUFFER output from it itself, as dropout's Mask;
 *   - ic_kenv has a non-blocking stream, a cuBLAS handle bound to it (and a cuDNN handle when
 *     built with IC_WITH_CUDNN); both sides use seed CH_SEED and op_key = the op's index;
 *   - after the kernel the harness synchronizes the stream, checks cudaGetLastError, copies
 *     the outputs back and checks that the kernel left its device inputs unchanged.
 * CUDA is never initialized in the calling process before a test forks (ch_require_gpu probes
 * in a child), so Check's fork mode works. */
#ifndef IC_CUDA_HARNESS_H
#define IC_CUDA_HARNESS_H

#include <stdbool.h>
#include <stddef.h>

#include "icore/icore.h"
#include "testutil.h"

/* The executor seed both sides' ic_kenv get. */
#define CH_SEED 0x1C0FFEEull

/* 0 when a CUDA device is usable; otherwise prints "SKIP: <reason>" and returns 77, CTest's
 * skip code (the tests set SKIP_RETURN_CODE 77), or 1 when the environment variable
 * ICORE_REQUIRE_GPU is set to 1 (tools/gpu_run.sh sets it: on the GPU machine a skip is a
 * failure). Call first in main(). */
int ch_require_gpu(void);

/* Run the single op of block 0 of p (ops other than feed and fetch: exactly one) once with
 * its CPU kernel and once with its CUDA kernel on copies of the same host inputs, and
 * compare every output. Input variable names are looked up in in_names (n_in entries;
 * every input variable of the op must be there). Both sides must return the same status;
 * when it is IC_OK, every output must have the same dtype, dims and storage presence, and
 * every element must satisfy |gpu - cpu| <= atol + rtol * |cpu| (float16 and bfloat16 are
 * compared as floats; integers and bool exactly); rtol = atol = 0 means bitwise. NaN
 * matches NaN whatever the payload. Fails the running Check test naming the op, the output
 * and the worst element. */
void ch_check_op(const ic_program *p, size_t n_in, const char *const *in_names,
                 ic_tensor *const *inputs, double rtol, double atol);

/* Same, returning the status both sides agreed on (the test asserts what it expects) and
 * the CPU side's message in errbuf. */
ic_status ch_check_op_status(const ic_program *p, size_t n_in, const char *const *in_names,
                             ic_tensor *const *inputs, double rtol, double atol, char *errbuf,
                             size_t errlen);

/* The CUDA kernel's status and message alone, for what the CUDA kernel refuses though the
 * CPU kernel runs it (a mode with no CUDA kernel); the CPU side still runs, its status is
 * not compared. */
ic_status ch_cuda_op_status(const ic_program *p, size_t n_in, const char *const *in_names,
                            ic_tensor *const *inputs, char *errbuf, size_t errlen);

/* Whether the suites should skip their largest cases: the environment variable
 * ICORE_GPU_QUICK is 1 (tools/gpu_run.sh sets it under compute-sanitizer, which runs kernels
 * tens of times slower). */
bool ch_quick(void);

/* main() of a GPU suite: skip (or fail, see ch_require_gpu) without a device, else run the
 * suite built from the given TCase constructors (as TU_MAIN). */
#define CH_MAIN(suite, ...)                                                          \
  int main(void) {                                                                   \
    int rc_ = ch_require_gpu();                                                      \
    if (rc_) return rc_;                                                             \
    TCase *(*const cases_[])(void) = {__VA_ARGS__};                                  \
    return tu_main(suite, cases_, sizeof cases_ / sizeof cases_[0]);                 \
  }

/* Build b and ch_check_op the program. */
void ch_check_builder(const ic_builder *b, size_t n_in, const char *const *in_names,
                      ic_tensor *const *inputs, double rtol, double atol);

#endif
