/* Real programs from ../shared/models/paddle-zoo (models/README.md) that icore runs end to
 * end: each is loaded, given seeded random parameters, and run on a small random input (the
 * detectors' im_shape / im_size / scale_factor feeds get constant rows matching the image) in
 * every executor configuration with the rewrites off (tu_run_scope: uncompiled, compiled
 * serial, 2 and 4 threads), which must agree bit for bit; float outputs must be finite.
 * Programs with control flow (sub-blocks) also run on the emulated device emu:0, where the
 * control-flow ops run on the host behind placement copies: bitwise the host's results.
 *
 * A program lands in k_zoo once every op it uses has a kernel. Should one lose a kernel (or
 * an op mode), the test fails naming the op types that are missing rather than skipping. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icore/icore.h"
#include "interp/interp.h" /* ic_executor_emu_testing */
#include "kernels/kernel.h"
#include "program/program.h"
#include "testutil.h"

/* One feed: random values in [lo, hi) of these dims, or (when n_const > 0) the constant row
 * c[0..n_const) repeated over dims[0] rows, as float32 or int32 (im_shape, scale_factor,
 * im_size). */
typedef struct zoo_feed {
  const char *name;
  ic_dtype dtype;
  int ndim;
  int64_t dims[4];
  float lo, hi;
  int n_const;
  double c[2];
} zoo_feed;

typedef struct zoo_model {
  const char *rel;     /* under ../shared/models */
  int n_feeds;
  zoo_feed feeds[3];   /* small inputs */
  bool batch_out;      /* every fetch has the batch as its first dim (not so for NMS) */
  const char *about;
} zoo_model;

#define ZF_IMG(name, n, c, h, w) {name, IC_FP32, 4, {n, c, h, w}, -1, 1, 0, {0, 0}}
#define ZF_ROW(name, dt, a, b) {name, dt, 2, {1, 2}, 0, 0, 2, {a, b}}

static const zoo_model k_zoo[] = {
    {"paddle-zoo/ppocrv4_det/inference.pdmodel", 1, {ZF_IMG("x", 1, 3, 64, 96)}, true,
     "PP-OCRv4 DB text detector: conv2d_transpose, nearest_interp_v2"},
    {"paddle-zoo/cloudseg/model.pdmodel", 1, {ZF_IMG("x", 1, 3, 64, 64)}, true,
     "PP-LiteSeg-style segmenter: bilinear_interp_v2, arg_max"},
    {"paddle-zoo/yoda_lineation", 1, {ZF_IMG("image", 2, 3, 64, 64)}, true,
     "PaddleX 1.x ResNet50_vd: pool2d with global_pooling and ksize [-1, -1]"},
    {"paddle-zoo/hextostring_abc/inference.pdmodel", 1, {ZF_IMG("latent_sample", 1, 4, 4, 4)},
     true, "Stable Diffusion VAE decoder: group_norm, silu, nearest_interp_v2"},
    {"paddle-zoo/nutrition_root/inference.pdmodel", 1, {ZF_IMG("x", 1, 3, 64, 256)}, true,
     "SVTR with an STN: grid_sampler, bilinear_interp_v2, expand_v2, dims such as -50"},
    {"paddle-zoo/bdpan_restore/model.pdmodel", 1, {ZF_IMG("inp", 1, 3, 64, 64)}, true,
     "image restoration net: pixel_shuffle, pow"},
    {"paddle-zoo/face_det/model.pdmodel", 3,
     {ZF_ROW("im_shape", IC_FP32, 64, 64), ZF_IMG("image", 1, 3, 64, 64),
      ZF_ROW("scale_factor", IC_FP32, 1, 1)},
     false, "BlazeFace: prior_box, multiclass_nms3, stack"},
    {"paddle-zoo/rbc_det", 2,
     {ZF_IMG("image", 1, 3, 64, 64), ZF_ROW("im_size", IC_INT32, 64, 64)}, false,
     "PaddleDetection 1.x YOLOv3: yolo_box, nearest_interp, multiclass_nms"},
    {"paddle-zoo/tt8000_det", 1, {ZF_IMG("image", 1, 3, 64, 64)}, false,
     "PaddleDetection 1.x SSD: prior_box, box_coder, multiclass_nms"},
    /* Its anchors are baked in for 640 x 640 (a reshape to [-1, 13, 400] = 20 x 20 cells at
     * stride 32), so it cannot run smaller. */
    {"paddle-zoo/ppyoloe_plus/model.pdmodel", 2,
     {ZF_IMG("image", 1, 3, 640, 640), ZF_ROW("scale_factor", IC_FP32, 1, 1)}, false,
     "PP-YOLOE+: nearest_interp_v2, multiclass_nms3"},
    {"paddle-zoo/slanet_table/inference.pdmodel", 1, {ZF_IMG("x", 1, 3, 64, 64)}, true,
     "SLANet table structure: a 500-step while decoder (set_value, one_hot_v2, arg_max)"},
};

static ic_tensor *zoo_feed_tensor(const zoo_feed *f, uint64_t seed) {
  if (f->n_const == 0) return tu_rand_f32(f->ndim, f->dims, seed, f->lo, f->hi);
  ic_tensor *t;
  ck_assert_int_eq(ic_tensor_create(f->dtype, f->ndim, f->dims, &t), IC_OK);
  for (int64_t k = 0; k < ic_tensor_numel(t); k++) {
    double v = f->c[k % f->n_const];
    if (f->dtype == IC_INT32) {
      ((int32_t *)ic_tensor_data(t))[k] = (int32_t)v;
    } else {
      ((float *)ic_tensor_data(t))[k] = (float)v;
    }
  }
  return t;
}

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
  const char *feed_names[3];
  ic_tensor *feeds[3];
  for (int f = 0; f < m->n_feeds; f++) {
    feed_names[f] = m->feeds[f].name;
    feeds[f] = zoo_feed_tensor(&m->feeds[f], 17 + (uint64_t)f);
  }
  size_t n_fetch = ic_program_n_fetch_targets(p);
  ck_assert_uint_ge(n_fetch, 1);
  ck_assert_uint_le(n_fetch, 8);
  const char *fetch[8];
  ic_tensor *out[8];
  for (size_t k = 0; k < n_fetch; k++) fetch[k] = ic_program_fetch_target(p, k);
  ck_assert_msg(tu_run_scope(p, params, (size_t)m->n_feeds, feed_names, feeds, n_fetch, fetch, out, err, sizeof err) ==
                    IC_OK,
                "%s: %s", m->rel, err);
  if (p->n_blocks > 1) {
    ic_options o;
    ic_options_default(&o);
    o.device = (ic_place){IC_PLACE_EMULATED, 0};
    o.threads = 2;
    o.fuse = false;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_executor_emu_testing(e, 20, true, 5);
    ic_tensor *dev[8] = {0};
    ck_assert_msg(ic_executor_run(e, p, params, (size_t)m->n_feeds, feed_names,
                                  (const ic_tensor *const *)feeds, n_fetch, fetch, dev) == IC_OK,
                  "%s on emu:0: %s", m->rel, ic_executor_errmsg(e));
    for (size_t k = 0; k < n_fetch; k++) {
      tu_assert_bitwise(dev[k], out[k], "emu:0");
      ic_tensor_destroy(dev[k]);
    }
    ic_executor_destroy(e);
  }
  for (size_t k = 0; k < n_fetch; k++) {
    ck_assert_int_ge(ic_tensor_ndim(out[k]), 1);
    if (m->batch_out) ck_assert_int_eq(ic_tensor_dims(out[k])[0], m->feeds[0].dims[0]);
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
  for (int f = 0; f < m->n_feeds; f++) ic_tensor_destroy(feeds[f]);
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

/* A training program with data readers (paddle-zoo/trash_train: PaddleX 1.x's SSD, whose
 * batches come from create_py_reader / create_double_buffer_reader / read): the read op's
 * outputs are the program's feed targets, in order, and one training step runs on fed
 * batches (a 96 x 96 image pair, ground-truth boxes and labels with LoD: bipartite_match,
 * target_assign, mine_hard_examples, smooth_l1_loss and their gradients, RMSProp), the same
 * bit for bit uncompiled and compiled on 2 threads, each from the same random parameters;
 * the loss is finite and positive, priors were matched, and the step changed the weights.
 * Not fed, a reader output fails naming it. */
START_TEST(zoo_training_program_with_readers) {
  char path[4096], err[1024];
  ck_assert(tu_shared("paddle-zoo/trash_train/best_model.pdmodel", path, sizeof path));
  ic_program *p;
  ic_scope *unused;
  ck_assert_msg(ic_model_load(path, NULL, IC_LOAD_NO_PARAMS, &p, &unused, err, sizeof err) ==
                    IC_OK, "%s", err);
  ic_scope_destroy(unused);
  ck_assert_uint_eq(ic_program_n_feed_targets(p), 3);
  ck_assert_str_eq(ic_program_feed_target(p, 0), "image");
  ck_assert_str_eq(ic_program_feed_target(p, 1), "gt_bbox");
  ck_assert_str_eq(ic_program_feed_target(p, 2), "gt_class");
  static const float boxes[20] = {0.1f, 0.1f, 0.5f, 0.6f, 0.4f, 0.3f, 0.9f, 0.8f, 0.05f, 0.2f,
                                  0.3f, 0.7f, 0.5f, 0.5f, 0.95f, 0.95f, 0.2f, 0.1f, 0.6f, 0.4f};
  static const int32_t labels[5] = {1, 2, 2, 1, 1};
  const uint64_t off[] = {0, 2, 5};
  const uint64_t *offs[] = {off};
  ic_tensor *feeds[3] = {tu_rand_f32(4, TU_DIMS(2, 3, 96, 96), 3, -1, 1),
                         tu_f32(2, TU_DIMS(5, 4), boxes), tu_i32(2, TU_DIMS(5, 1), labels)};
  ck_assert_int_eq(ic_tensor_set_lod(feeds[1], 1, (const size_t[]){3}, offs), IC_OK);
  ck_assert_int_eq(ic_tensor_set_lod(feeds[2], 1, (const size_t[]){3}, offs), IC_OK);
  const char *names[3] = {"image", "gt_bbox", "gt_class"};
  const char *fetch[2] = {"reduce_sum_2.tmp_0", "reduce_sum_1.tmp_0"}; /* loss, positives */
  ic_tensor *first[2] = {NULL, NULL};
  for (int cfg = 0; cfg < 2; cfg++) {
    ic_scope *params, *init;
    ck_assert_int_eq(ic_scope_create(NULL, &params), IC_OK);
    ck_assert_int_eq(ic_scope_create(NULL, &init), IC_OK);
    ck_assert_msg(ic_params_random(p, 7, params, err, sizeof err) == IC_OK, "%s", err);
    ck_assert_msg(ic_params_random(p, 7, init, err, sizeof err) == IC_OK, "%s", err);
    ic_options o;
    ic_options_default(&o);
    o.mode = cfg ? IC_MODE_COMPILED : IC_MODE_UNCOMPILED;
    o.threads = cfg ? 2 : 1;
    o.fuse = false;
    ic_executor *e;
    ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
    ic_tensor *out[2];
    ck_assert_msg(ic_executor_run(e, p, params, 3, names, (const ic_tensor *const *)feeds, 2,
                                  fetch, out) == IC_OK, "%s", ic_executor_errmsg(e));
    const float loss = *(const float *)ic_tensor_cdata(out[0]);
    ck_assert_msg(isfinite(loss) && loss > 0, "loss %g", (double)loss);
    ck_assert_float_gt(*(const float *)ic_tensor_cdata(out[1]), 0);
    const ic_tensor *w0 = ic_scope_get(init, "conv1_weights"), *w1 = ic_scope_get(params, "conv1_weights");
    ck_assert_ptr_nonnull(w0);
    ck_assert_ptr_nonnull(w1);
    ck_assert_msg(memcmp(ic_tensor_cdata(w0), ic_tensor_cdata(w1),
                         (size_t)ic_tensor_numel(w0) * sizeof(float)) != 0,
                  "the step left conv1_weights unchanged");
    for (int k = 0; k < 2; k++) {
      if (cfg == 0) {
        first[k] = out[k];
      } else {
        tu_assert_bitwise(out[k], first[k], "compiled, 2 threads");
        ic_tensor_destroy(out[k]);
      }
    }
    if (cfg == 1) { /* a reader output not fed */
      ck_assert_int_eq(ic_executor_run(e, p, params, 2, names, (const ic_tensor *const *)feeds,
                                       2, fetch, out), IC_ERR_INVALID_ARGUMENT);
      tu_assert_msg(ic_executor_errmsg(e), "gt_class", "was not fed", NULL);
    }
    ic_executor_destroy(e);
    ic_scope_destroy(params);
    ic_scope_destroy(init);
  }
  for (int k = 0; k < 2; k++) ic_tensor_destroy(first[k]);
  for (int f = 0; f < 3; f++) ic_tensor_destroy(feeds[f]);
  ic_program_destroy(p);
}
END_TEST

static TCase *tc_zoo(void) {
  TCase *tc = tcase_create("zoo");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, missing_ops_are_named);
  tcase_add_loop_test(tc, zoo_program_runs, 0, (int)(sizeof k_zoo / sizeof k_zoo[0]));
  tcase_add_test(tc, zoo_training_program_with_readers);
  return tc;
}

TU_MAIN("zoo", tc_zoo)
