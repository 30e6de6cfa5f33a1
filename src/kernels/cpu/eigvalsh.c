/* eigvalsh: the eigenvalues of each symmetric matrix in the last two dims of X (float32 or
 * float64, [..., n, n]; only the triangle UPLO "L" or "U" is read): Eigenvalues [..., n]
 * ascending. Eigenvectors [..., n, n] holds the eigenvectors (one per column) when is_test is
 * false (the training program keeps them for the gradient); with is_test Paddle leaves it
 * unallocated (an empty tensor when fetched), and so does icore: dims [0]. As
 * paddle/phi/kernels/impl/eigvalsh_kernel_impl.h (LAPACK syevd in X's dtype: ssyevd for
 * float32, whose vectors may differ in sign from dsyevd's). A complex64 / complex128 X is
 * Hermitian (cheevd / zheevd): real Eigenvalues (float32 / float64), complex Eigenvectors. */
#include "kernels/cpu/eigh.h"

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[2] = {{"Eigenvalues", 0}, {"Eigenvectors", 0}};

/* UPLO as eigh; the vectors unless is_test. */
static ic_status parse(ic_attr_reader *r, void *attrs) {
  ic_eigh_attrs *a = attrs;
  a->vectors = !ic_ar_bool(r, "is_test", false);
  if (r->st) return r->st;
  return ic_eigh_parse(r, a);
}

const ic_opdef ic_op_eigvalsh = {
    .name = "eigvalsh", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 2,
    .outputs = k_outputs, .attrs_size = sizeof(ic_eigh_attrs), .parse = parse,
    .infer = ic_eigh_infer, .cpu = ic_eigh_run,
};
