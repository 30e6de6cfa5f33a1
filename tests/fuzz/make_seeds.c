/* Writes the small seed inputs committed under tests/fuzz/seeds/<target>/ (run once by hand:
 * make_fuzz_seeds DIR). The real programs of ../shared/models join the program corpus at
 * run time (./run.sh fuzz), never the repository. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "icore/icore.h"
#include "npy.h"

static char g_root[1024];

static void dir(const char *sub) {
  char p[1200];
  snprintf(p, sizeof p, "%s/%s", g_root, sub);
  mkdir(p, 0755);
}

static void put(const char *sub, const char *name, const void *d, size_t n) {
  char p[1400];
  snprintf(p, sizeof p, "%s/%s/%s", g_root, sub, name);
  FILE *f = fopen(p, "wb");
  if (!f || (n && fwrite(d, 1, n, f) != n)) {
    fprintf(stderr, "cannot write %s\n", p);
    exit(1);
  }
  fclose(f);
}

static void save_program(ic_builder *b, const char *name) {
  void *bytes;
  size_t n;
  if (ic_builder_serialize(b, &bytes, &n) != IC_OK) exit(1);
  put("fuzz_program", name, bytes, n);
  free(bytes);
  ic_builder_destroy(b);
}

static void programs(void) {
  /* fc + relu + softmax with feed/fetch ops */
  ic_builder *b = ic_builder_create();
  ic_builder_var(b, 0, "x", IC_FP32, 2, (const int64_t[]){-1, 4}, false);
  ic_builder_var(b, 0, "w", IC_FP32, 2, (const int64_t[]){4, 3}, true);
  ic_builder_var(b, 0, "h", IC_FP32, 2, (const int64_t[]){-1, 3}, false);
  ic_builder_var(b, 0, "y", IC_FP32, 2, (const int64_t[]){-1, 3}, false);
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "matmul_v2");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Y", "w");
  ic_builder_out(op, "Out", "h");
  op = ic_builder_add_op(b, 0, "relu");
  ic_builder_in(op, "X", "h");
  ic_builder_out(op, "Out", "h");
  op = ic_builder_add_op(b, 0, "softmax");
  ic_builder_in(op, "X", "h");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_int(op, "axis", -1);
  ic_builder_fetch(b, "y");
  save_program(b, "mlp.pdmodel");

  /* conv + batch_norm + relu (the rewrites' pattern) and a transpose2 with XShape */
  b = ic_builder_create();
  ic_builder_var(b, 0, "img", IC_FP32, 4, (const int64_t[]){-1, 2, 5, 5}, false);
  ic_builder_var(b, 0, "k", IC_FP32, 4, (const int64_t[]){3, 2, 3, 3}, true);
  const char *bn[] = {"s", "bb", "mu", "var"};
  for (int i = 0; i < 4; i++) ic_builder_var(b, 0, bn[i], IC_FP32, 1, (const int64_t[]){3}, true);
  ic_builder_var(b, 0, "c", IC_FP32, 4, (const int64_t[]){-1, 3, 3, 3}, false);
  ic_builder_var(b, 0, "n", IC_FP32, 4, (const int64_t[]){-1, 3, 3, 3}, false);
  ic_builder_var(b, 0, "sm", IC_FP32, 1, (const int64_t[]){3}, false);
  ic_builder_var(b, 0, "sv", IC_FP32, 1, (const int64_t[]){3}, false);
  ic_builder_var(b, 0, "r", IC_FP32, 4, (const int64_t[]){-1, 3, 3, 3}, false);
  ic_builder_var(b, 0, "t", IC_FP32, 4, (const int64_t[]){-1, 3, 3, 3}, false);
  ic_builder_var(b, 0, "xs", IC_FP32, 5, (const int64_t[]){0, -1, 3, 3, 3}, false);
  ic_builder_feed(b, "img");
  op = ic_builder_add_op(b, 0, "conv2d");
  ic_builder_in(op, "Input", "img");
  ic_builder_in(op, "Filter", "k");
  ic_builder_out(op, "Output", "c");
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){1, 1});
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){0, 0});
  ic_builder_attr_ints(op, "dilations", 2, (const int32_t[]){1, 1});
  ic_builder_attr_int(op, "groups", 1);
  op = ic_builder_add_op(b, 0, "batch_norm");
  ic_builder_in(op, "X", "c");
  ic_builder_in(op, "Scale", "s");
  ic_builder_in(op, "Bias", "bb");
  ic_builder_in(op, "Mean", "mu");
  ic_builder_in(op, "Variance", "var");
  ic_builder_out(op, "Y", "n");
  ic_builder_out(op, "MeanOut", "mu");
  ic_builder_out(op, "VarianceOut", "var");
  ic_builder_out(op, "SavedMean", "sm");
  ic_builder_out(op, "SavedVariance", "sv");
  ic_builder_attr_bool(op, "is_test", true);
  ic_builder_attr_float(op, "epsilon", 1e-5f);
  op = ic_builder_add_op(b, 0, "relu");
  ic_builder_in(op, "X", "n");
  ic_builder_out(op, "Out", "r");
  op = ic_builder_add_op(b, 0, "transpose2");
  ic_builder_in(op, "X", "r");
  ic_builder_out(op, "Out", "t");
  ic_builder_out(op, "XShape", "xs");
  ic_builder_attr_ints(op, "axis", 4, (const int32_t[]){0, 1, 3, 2});
  ic_builder_fetch(b, "t");
  save_program(b, "conv_bn.pdmodel");

  /* a sub-block, a split and a reshape2 */
  b = ic_builder_create();
  int sub = ic_builder_add_block(b, 0);
  ic_builder_var(b, 0, "x", IC_FP32, 1, (const int64_t[]){8}, false);
  ic_builder_var(b, 0, "a", IC_FP32, 1, (const int64_t[]){4}, false);
  ic_builder_var(b, 0, "c", IC_FP32, 1, (const int64_t[]){4}, false);
  ic_builder_var(b, 0, "m", IC_FP32, 2, (const int64_t[]){2, 2}, false);
  ic_builder_var(b, 0, "xs", IC_FP32, 2, (const int64_t[]){0, 4}, false);
  ic_builder_var(b, sub, "inner", IC_FP32, 1, (const int64_t[]){4}, false);
  ic_builder_feed(b, "x");
  op = ic_builder_add_op(b, 0, "split");
  ic_builder_in(op, "X", "x");
  ic_builder_output(op, "Out", 2, (const char *const[]){"a", "c"});
  ic_builder_attr_int(op, "axis", 0);
  ic_builder_attr_int(op, "num", 2);
  op = ic_builder_add_op(b, 0, "reshape2");
  ic_builder_in(op, "X", "a");
  ic_builder_out(op, "Out", "m");
  ic_builder_out(op, "XShape", "xs");
  ic_builder_attr_ints(op, "shape", 2, (const int32_t[]){2, 2});
  op = ic_builder_add_op(b, sub, "scale");
  ic_builder_in(op, "X", "c");
  ic_builder_out(op, "Out", "inner");
  ic_builder_attr_float(op, "scale", 2.0f);
  ic_builder_fetch(b, "m");
  save_program(b, "split_reshape_subblock.pdmodel");
}

static void params(void) {
  /* the fixed program of fuzz_params.c: a combined file and each variable alone */
  ic_builder *b = ic_builder_create();
  ic_builder_var(b, 0, "a.w", IC_FP32, 2, (const int64_t[]){2, 3}, true);
  ic_builder_var(b, 0, "b.bias", IC_FP32, 1, (const int64_t[]){4}, true);
  ic_builder_var(b, 0, "c.ids", IC_INT64, 1, (const int64_t[]){3}, true);
  ic_builder_var(b, 0, "d.half", IC_FP16, 2, (const int64_t[]){2, 2}, true);
  ic_builder_var(b, 0, "e.flag", IC_BOOL, 1, (const int64_t[]){1}, true);
  ic_program *p;
  char err[512], path[1400];
  if (ic_builder_build(b, &p, err, sizeof err)) exit(1);
  ic_builder_destroy(b);
  ic_scope *s;
  ic_scope_create(NULL, &s);
  if (ic_params_random(p, 9, s, err, sizeof err)) exit(1);
  snprintf(path, sizeof path, "%s/fuzz_params/combined.pdiparams", g_root);
  if (ic_params_save(p, s, path, IC_PARAMS_COMBINED, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    exit(1);
  }
  snprintf(path, sizeof path, "%s/fuzz_params/a.w.tensor", g_root);
  if (ic_tensor_save_file(ic_scope_get(s, "a.w"), path, err, sizeof err)) exit(1);
  ic_scope_destroy(s);
  ic_program_destroy(p);
}

static void npys(void) {
  static const struct {
    ic_dtype dt;
    int ndim;
    int64_t dims[3];
    const char *name;
  } cases[] = {{IC_FP32, 2, {2, 3}, "f32_2x3.npy"},   {IC_FP64, 1, {4}, "f64_4.npy"},
               {IC_INT64, 3, {1, 2, 2}, "i64.npy"}, {IC_UINT8, 1, {5}, "u8.npy"},
               {IC_FP16, 0, {0}, "f16_scalar.npy"},  {IC_BOOL, 2, {0, 3}, "bool_empty.npy"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ic_tensor *t;
    if (ic_tensor_create(cases[i].dt, cases[i].ndim, cases[i].dims, &t)) exit(1);
    unsigned char *d = ic_tensor_data(t);
    for (size_t k = 0; k < ic_tensor_nbytes(t); k++) d[k] = (unsigned char)(k * 37 % 61);
    if (cases[i].dt == IC_BOOL) memset(d, 1, ic_tensor_nbytes(t));
    char path[1400], err[512];
    snprintf(path, sizeof path, "%s/fuzz_npy/%s", g_root, cases[i].name);
    if (ic_npy_save(path, t, err, sizeof err)) {
      fprintf(stderr, "%s\n", err);
      exit(1);
    }
    ic_tensor_destroy(t);
  }
}

static void diffs(void) {
  /* byte strings: variable count, fetch mask, then 5 bytes per op group */
  static const unsigned char a[] = {4, 0x8f, 0, 0, 1, 2, 0, 2, 1, 1, 1, 0x80, 3, 2, 3, 0, 5,
                                    5, 0, 1, 2, 0, 9, 3, 0, 1, 1, 11, 0, 0, 2, 0, 6, 0, 1, 2, 2};
  static const unsigned char c[] = {2, 3, 10, 0, 0, 1, 0, 7, 0, 0, 1, 1, 12, 1, 0, 0, 0};
  static const unsigned char h[] = {3, 0x87, 11, 0, 0, 1, 0x60, 10, 0,
                                    0, 1, 0x40, 9, 0, 1, 2, 0x80};
  put("fuzz_diff", "mix", a, sizeof a);
  put("fuzz_diff", "shapes", c, sizeof c);
  put("fuzz_diff", "hostile", h, sizeof h);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: make_fuzz_seeds DIR\n");
    return 2;
  }
  snprintf(g_root, sizeof g_root, "%s", argv[1]);
  mkdir(g_root, 0755);
  dir("fuzz_program");
  dir("fuzz_params");
  dir("fuzz_npy");
  dir("fuzz_diff");
  programs();
  params();
  npys();
  diffs();
  return 0;
}
