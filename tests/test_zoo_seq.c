/* Three real Paddle-zoo programs end to end against Paddle Inference 3.3.1's outputs, which
 * tools/gen_zoo_seq_oracle.py committed under tests/data/zoo/<name>/ (in_*.npy, out_*.npy,
 * lod.txt): nlp_hh_youth (a CNN text classifier over LoD sequences: lookup_table,
 * sequence_conv, sequence_pool), lac_lac (BiGRU-CRF: fluid gru, crf_decoding; its missing
 * word_emb filled by the generator's formula) and thisisbaiy (LSTNet: rnn in GRU mode). The
 * programs
 * themselves are read from ../shared/models/paddle-zoo (ICORE_SHARED_DIR). Every executor
 * configuration runs (tu_run_scope) and must agree bitwise; icore must match Paddle within
 * 1e-4 relative. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "testutil.h"

static const char *data_path(const char *name, const char *file, char *buf, size_t len) {
  snprintf(buf, len, "%s/tests/data/zoo/%s/%s", IC_SOURCE_DIR, name, file);
  return buf;
}

/* Apply lod.txt ("FEED o0 o1 ..." per level, outermost first) to the feed called `feed`. */
static void apply_lod(const char *name, const char *feed, ic_tensor *t) {
  char path[4096], line[4096];
  FILE *f = fopen(data_path(name, "lod.txt", path, sizeof path), "r");
  ck_assert_msg(f != NULL, "missing %s: run tools/gen_zoo_seq_oracle.py", path);
  size_t n_levels = 0, lens[8];
  uint64_t *levels[8];
  while (fgets(line, sizeof line, f)) {
    char who[256];
    int off;
    if (sscanf(line, "%255s%n", who, &off) != 1 || strcmp(who, feed)) continue;
    ck_assert_uint_lt(n_levels, 8);
    levels[n_levels] = malloc(sizeof(uint64_t) * (strlen(line) + 1));
    size_t k = 0;
    unsigned long long v;
    int used;
    while (sscanf(line + off, "%llu%n", &v, &used) == 1) levels[n_levels][k++] = v, off += used;
    lens[n_levels++] = k;
  }
  fclose(f);
  if (n_levels) {
    ck_assert_int_eq(ic_tensor_set_lod(t, n_levels, lens, (const uint64_t *const *)levels), IC_OK);
  }
  for (size_t l = 0; l < n_levels; l++) free(levels[l]);
}

/* lac_lac's parameters: every file of its directory except word_emb, which the model ships
 * without and which gets gen_zoo_seq_oracle.py's word_emb_value(k) (exact integer arithmetic,
 * one rounding to float32). */
static ic_scope *lac_params(const ic_program *p, const char *dir) {
  static const char *const files[] = {"crfw", "fc_0.b_0", "fc_0.w_0", "fc_1.b_0", "fc_1.w_0",
                                      "fc_2.b_0", "fc_2.w_0", "fc_3.b_0", "fc_3.w_0", "fc_4.b_0",
                                      "fc_4.w_0", "gru_0.b_0", "gru_0.w_0", "gru_1.b_0",
                                      "gru_1.w_0", "gru_2.b_0", "gru_2.w_0", "gru_3.b_0",
                                      "gru_3.w_0"};
  (void)p;
  ic_scope *s;
  ck_assert_int_eq(ic_scope_create(NULL, &s), IC_OK);
  char path[4400], err[1024];
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    ic_tensor *t;
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    ck_assert_msg(ic_tensor_load_file(path, &t, err, sizeof err) == IC_OK, "%s", err);
    ck_assert_int_eq(ic_scope_set(s, files[i], t), IC_OK);
    ic_tensor_destroy(t);
  }
  ic_tensor *emb;
  ck_assert_int_eq(ic_tensor_create(IC_FP32, 2, TU_DIMS(58224, 128), &emb), IC_OK);
  float *e = ic_tensor_data(emb);
  for (int64_t k = 0; k < 58224 * 128; k++) {
    e[k] = (float)((double)((k * 2654435761LL) % 2001 - 1000) / 5000.0);
  }
  ck_assert_int_eq(ic_scope_set(s, "word_emb", emb), IC_OK);
  ic_tensor_destroy(emb);
  return s;
}

static void check_model(const char *name, const char *model, const char *feed,
                        const char *fetch) {
  char path[4096], file[512], err[1024];
  ck_assert_msg(tu_shared(model, path, sizeof path), "missing %s", model);
  ic_program *p;
  ic_scope *params;
  bool lac = strcmp(name, "lac_lac") == 0;
  ck_assert_msg(ic_model_load(path, NULL, lac ? IC_LOAD_NO_PARAMS : 0, &p, &params, err,
                              sizeof err) == IC_OK,
                "%s", err);
  if (lac) {
    ic_scope_destroy(params);
    params = lac_params(p, path);
  }
  ic_tensor *in, *want, *got = NULL;
  snprintf(file, sizeof file, "in_%s.npy", feed);
  ck_assert_msg(ic_npy_load(data_path(name, file, path, sizeof path), &in, err, sizeof err) == IC_OK,
                "%s", err);
  apply_lod(name, feed, in);
  snprintf(file, sizeof file, "out_%s.npy", fetch);
  for (char *q = file; *q; q++) *q = *q == '/' ? '_' : *q;
  ck_assert_msg(ic_npy_load(data_path(name, file, path, sizeof path), &want, err, sizeof err) ==
                    IC_OK,
                "%s", err);
  const char *fn[1] = {feed}, *on[1] = {fetch};
  ic_status st = tu_run_scope(p, params, 1, fn, &in, 1, on, &got, err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s: %s", name, err);
  tu_assert_shape(got, ic_tensor_dtype(want), ic_tensor_ndim(want), ic_tensor_dims(want));
  int64_t n = ic_tensor_numel(want);
  ck_assert_int_gt(n, 0);
  if (ic_tensor_dtype(want) == IC_INT64) {
    /* tag paths: exactly Paddle's, with the words' LoD */
    const int64_t *g = ic_tensor_cdata(got), *w = ic_tensor_cdata(want);
    for (int64_t k = 0; k < n; k++) {
      ck_assert_msg(g[k] == w[k], "%s: tag %lld is %lld, Paddle's %lld", name, (long long)k,
                    (long long)g[k], (long long)w[k]);
    }
    size_t nl, ni;
    const uint64_t *lo = ic_tensor_lod(got, 0, &nl), *li = ic_tensor_lod(in, 0, &ni);
    ck_assert_uint_eq(ic_tensor_lod_levels(got), 1);
    ck_assert_uint_eq(nl, ni);
    ck_assert_int_eq(memcmp(lo, li, nl * sizeof *lo), 0);
  } else {
    const float *g = ic_tensor_cdata(got), *w = ic_tensor_cdata(want);
    double worst = 0;
    for (int64_t k = 0; k < n; k++) {
      double d = fabs((double)g[k] - (double)w[k]) / fmax(fabs((double)w[k]), 1e-3);
      worst = d > worst ? d : worst;
    }
    ck_assert_msg(worst <= 1e-4, "%s: worst relative error %g against Paddle", name, worst);
  }
  ic_tensor_destroy(in);
  ic_tensor_destroy(want);
  ic_tensor_destroy(got);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}

START_TEST(nlp_hh_youth_matches_paddle) {
  check_model("nlp_hh_youth", "paddle-zoo/nlp_hh_youth", "words", "fc_0.tmp_4");
}
END_TEST

START_TEST(lac_lac_matches_paddle) {
  check_model("lac_lac", "paddle-zoo/lac_lac", "words", "save_infer_model/scale_0.tmp_0");
}
END_TEST

START_TEST(thisisbaiy_matches_paddle) {
  check_model("thisisbaiy", "paddle-zoo/thisisbaiy/model.pdmodel", "past_target", "tmp_0");
}
END_TEST

static TCase *tc_zoo(void) {
  TCase *tc = tcase_create("zoo");
  tcase_add_test(tc, nlp_hh_youth_matches_paddle);
  tcase_add_test(tc, lac_lac_matches_paddle);
  tcase_add_test(tc, thisisbaiy_matches_paddle);
  return tc;
}

TU_MAIN("zoo_seq", tc_zoo)
