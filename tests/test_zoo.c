/* Real programs from ../shared/models/paddle-zoo (models/README.md) that icore runs end to
 * end: each is loaded, given seeded random parameters, and run on a small random input in
 * every executor configuration with the rewrites off (tu_run_scope: uncompiled, compiled
 * serial, 2 and 4 threads), which must agree bit for bit; float outputs must be finite.
 *
 * A program lands in k_zoo once every op it uses has a kernel. Should one lose a kernel (or
 * an op mode), the test fails naming the op types that are missing rather than skipping. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icore/icore.h"
#include "kernels/kernel.h"
#include "program/program.h"
#include "testutil.h"

typedef struct zoo_model {
  const char *rel;     /* under ../shared/models */
  const char *feed;    /* the image feed */
  int64_t dims[4];     /* a small input */
  const char *about;
} zoo_model;

static const zoo_model k_zoo[] = {
    {"paddle-zoo/ppocrv4_det/inference.pdmodel", "x", {1, 3, 64, 96},
     "PP-OCRv4 DB text detector: conv2d_transpose, nearest_interp_v2"},
    {"paddle-zoo/cloudseg/model.pdmodel", "x", {1, 3, 64, 64},
     "PP-LiteSeg-style segmenter: bilinear_interp_v2, arg_max"},
    {"paddle-zoo/yoda_lineation", "image", {2, 3, 64, 64},
     "PaddleX 1.x ResNet50_vd: pool2d with global_pooling and ksize [-1, -1]"},
    {"paddle-zoo/slanet_table/inference.pdmodel", "x", {1, 3, 64, 64},
     "SLANet table structure: a 500-step while decoder (set_value, one_hot_v2, arg_max)"},
};

/* Every op type of p (all blocks) that icore has no kernel for, or whose attribute mode it
 * does not implement, as one string (empty when none). */
static void missing_ops(const ic_program *p, char *buf, size_t len) {
  buf[0] = '\0';
  for (size_t b = 0; b < p->n_blocks; b++) {
    for (size_t i = 0; i < p->blocks[b].n_ops; i++) {
      const ic_op *op = &p->blocks[b].ops[i];
      const ic_opdef *def = ic_registry_find(op->type);
      char item[256];
      item[0] = '\0';
      if (!def) {
        snprintf(item, sizeof item, " %s", op->type);
      } else {
        void *attrs = calloc(1, def->attrs_size ? def->attrs_size : 1);
        ic_err e;
        ic_err_clear(&e);
        if (ic_opdef_parse(def, op, attrs, &e) == IC_ERR_UNSUPPORTED) {
          snprintf(item, sizeof item, " %s (unsupported mode)", op->type);
        }
        free(attrs);
      }
      if (item[0] && !strstr(buf, item)) strncat(buf, item, len - strlen(buf) - 1);
    }
  }
}

START_TEST(zoo_program_runs) {
  const zoo_model *m = &k_zoo[_i];
  char path[4096], err[1024], missing[2048];
  ck_assert_msg(tu_shared(m->rel, path, sizeof path), "missing ../shared/models/%s", m->rel);
  ic_program *p;
  ic_scope *params;
  ck_assert_msg(ic_model_load(path, NULL, IC_LOAD_NO_PARAMS, &p, &params, err, sizeof err) ==
                    IC_OK,
                "%s: %s", m->rel, err);
  missing_ops(p, missing, sizeof missing);
  ck_assert_msg(missing[0] == '\0', "%s (%s): no kernel yet for:%s", m->rel, m->about, missing);
  ck_assert_msg(ic_params_random(p, 7, params, err, sizeof err) == IC_OK, "%s", err);
  ic_tensor *x = tu_rand_f32(4, m->dims, 17, -1, 1);
  size_t n_fetch = ic_program_n_fetch_targets(p);
  ck_assert_uint_ge(n_fetch, 1);
  ck_assert_uint_le(n_fetch, 8);
  const char *fetch[8];
  ic_tensor *out[8];
  for (size_t k = 0; k < n_fetch; k++) fetch[k] = ic_program_fetch_target(p, k);
  ck_assert_msg(tu_run_scope(p, params, 1, &m->feed, &x, n_fetch, fetch, out, err, sizeof err) ==
                    IC_OK,
                "%s: %s", m->rel, err);
  for (size_t k = 0; k < n_fetch; k++) {
    ck_assert_int_ge(ic_tensor_ndim(out[k]), 1);
    ck_assert_int_eq(ic_tensor_dims(out[k])[0], m->dims[0]);
    ck_assert_int_gt(ic_tensor_numel(out[k]), 0);
    if (ic_tensor_dtype(out[k]) == IC_FP32) {
      const float *v = ic_tensor_cdata(out[k]);
      for (int64_t e = 0; e < ic_tensor_numel(out[k]); e++) {
        ck_assert_msg(isfinite(v[e]), "%s: fetch %s element %lld is not finite", m->rel,
                      fetch[k], (long long)e);
      }
    }
    ic_tensor_destroy(out[k]);
  }
  ic_tensor_destroy(x);
  ic_scope_destroy(params);
  ic_program_destroy(p);
}
END_TEST

/* The missing-op report itself: a program with an op type icore lacks names it. */
START_TEST(missing_ops_are_named) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 1, TU_DIMS(3));
  tu_var(b, "y", IC_FP32, 1, TU_DIMS(3));
  ic_builder_op *op = ic_builder_add_op(b, 0, "no_such_op_for_test");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  op = ic_builder_add_op(b, 0, "relu");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_program *p;
  char err[1024], missing[256];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  missing_ops(p, missing, sizeof missing);
  ck_assert_str_eq(missing, " no_such_op_for_test");
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

static TCase *tc_zoo(void) {
  TCase *tc = tcase_create("zoo");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, missing_ops_are_named);
  tcase_add_loop_test(tc, zoo_program_runs, 0, (int)(sizeof k_zoo / sizeof k_zoo[0]));
  return tc;
}

TU_MAIN("zoo", tc_zoo)
