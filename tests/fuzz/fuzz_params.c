/* libFuzzer target: parameter files against a fixed program.
 *
 * The program declares five persistables of different dtypes and ranks (one with a -1 dim).
 * Each input is written to a file and loaded as a combined parameter file, as one serialized
 * tensor (ic_tensor_load_file), and cut into five pieces, one per variable, as the
 * one-file-per-variable layout. Loading must fail cleanly or succeed, never crash or leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "icore/icore.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define N_VARS 5
static const char *const k_names[N_VARS] = {"a.w", "b.bias", "c.ids", "d.half", "e.flag"};

static ic_program *g_prog;
static char g_dir[256], g_file[300];

static ic_program *fixed_program(void) {
  ic_builder *b = ic_builder_create();
  ic_builder_var(b, 0, k_names[0], IC_FP32, 2, (const int64_t[]){2, 3}, true);
  ic_builder_var(b, 0, k_names[1], IC_FP32, 1, (const int64_t[]){-1}, true);
  ic_builder_var(b, 0, k_names[2], IC_INT64, 1, (const int64_t[]){3}, true);
  ic_builder_var(b, 0, k_names[3], IC_FP16, 2, (const int64_t[]){2, 2}, true);
  ic_builder_var(b, 0, k_names[4], IC_BOOL, 1, (const int64_t[]){1}, true);
  ic_builder_var(b, 0, "x", IC_FP32, 1, (const int64_t[]){3}, false);
  ic_program *p = NULL;
  char err[512];
  if (ic_builder_build(b, &p, err, sizeof err) != IC_OK) {
    fprintf(stderr, "fuzz_params: %s\n", err);
    abort();
  }
  ic_builder_destroy(b);
  return p;
}

static void cleanup(void) {
  char path[400];
  for (int i = 0; i < N_VARS; i++) {
    snprintf(path, sizeof path, "%s/%s", g_dir, k_names[i]);
    unlink(path);
  }
  unlink(g_file);
  rmdir(g_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  g_prog = fixed_program();
  /* scratch files in memory where possible: every input is written out */
  const char *tmp = getenv("TMPDIR");
  if (!tmp) tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(g_dir, sizeof g_dir, "%s/icore_fuzz_params.XXXXXX", tmp);
  if (!mkdtemp(g_dir)) abort();
  snprintf(g_file, sizeof g_file, "%s/all.pdiparams", g_dir);
  atexit(cleanup);
  return 0;
}

static void put(const char *path, const uint8_t *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (n && fwrite(data, 1, n, f) != n) abort();
  fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[512];
  put(g_file, data, size);
  ic_scope *s = NULL;
  if (ic_scope_create(NULL, &s) != IC_OK) abort();
  ic_params_load(g_prog, g_file, IC_PARAMS_COMBINED, s, err, sizeof err);
  ic_tensor *t = NULL;
  if (ic_tensor_load_file(g_file, &t, err, sizeof err) == IC_OK) ic_tensor_destroy(t);
  /* one file per variable: the input cut at four points its first bytes choose */
  size_t cut[N_VARS + 1] = {0};
  size_t body = size > 4 ? size - 4 : 0;
  for (int i = 1; i < N_VARS; i++) cut[i] = size > 4 ? body * data[i - 1] / 255 : 0;
  cut[N_VARS] = body;
  for (int i = 1; i <= N_VARS; i++) {
    if (cut[i] < cut[i - 1]) cut[i] = cut[i - 1];
  }
  char path[400];
  for (int i = 0; i < N_VARS; i++) {
    snprintf(path, sizeof path, "%s/%s", g_dir, k_names[i]);
    put(path, data + (size > 4 ? 4 : size) + cut[i], cut[i + 1] - cut[i]);
  }
  ic_scope_destroy(s);
  if (ic_scope_create(NULL, &s) != IC_OK) abort();
  ic_params_load(g_prog, g_dir, IC_PARAMS_SEPARATE, s, err, sizeof err);
  ic_scope_destroy(s);
  return 0;
}
