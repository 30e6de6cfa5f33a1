/* libFuzzer target: .npy bytes through ic_npy_parse. A file that parses must describe exactly
 * the tensor it holds: its data is read in full (so ASan sees any overrun) and it must write
 * back (ic_npy_save) and parse again to the same dtype, dims and bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "icore/icore.h"
#include "npy.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char g_file[300];

static void cleanup(void) { unlink(g_file); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  /* scratch files in memory where possible: every input is written out */
  const char *tmp = getenv("TMPDIR");
  if (!tmp) tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(g_file, sizeof g_file, "%s/icore_fuzz_npy.XXXXXX", tmp);
  int fd = mkstemp(g_file);
  if (fd < 0) abort();
  close(fd);
  atexit(cleanup);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ic_tensor *t = NULL;
  char err[512];
  if (ic_npy_parse(data, size, "fuzz.npy", &t, err, sizeof err) != IC_OK) {
    if (t) abort(); /* a failure leaves no tensor */
    return 0;
  }
  size_t n = ic_tensor_nbytes(t);
  const unsigned char *d = ic_tensor_cdata(t);
  unsigned sum = 0;
  for (size_t i = 0; i < n; i++) sum += d[i];
  (void)sum;
  if (ic_tensor_dtype(t) != IC_BF16 && ic_npy_save(g_file, t, err, sizeof err) == IC_OK) {
    ic_tensor *u = NULL;
    if (ic_npy_load(g_file, &u, err, sizeof err) != IC_OK) {
      fprintf(stderr, "fuzz_npy: a saved tensor does not load back: %s\n", err);
      abort();
    }
    if (ic_tensor_dtype(u) != ic_tensor_dtype(t) || ic_tensor_ndim(u) != ic_tensor_ndim(t) ||
        memcmp(ic_tensor_dims(u), ic_tensor_dims(t), (size_t)ic_tensor_ndim(t) * sizeof(int64_t)) ||
        ic_tensor_nbytes(u) != n || (n && memcmp(ic_tensor_cdata(u), d, n))) {
      fprintf(stderr, "fuzz_npy: save and load changed the tensor\n");
      abort();
    }
    ic_tensor_destroy(u);
  }
  ic_tensor_destroy(t);
  return 0;
}
