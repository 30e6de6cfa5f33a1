/* Program loading, validation, attributes and the builder. */
#include <stdlib.h>
#include <string.h>

#include "program/program.h"
#include "testutil.h"

START_TEST(real_models_parse) {
  static const struct {
    const char *rel;
    size_t ops;
  } models[] = {{"paddle/mobilenet_v2/inference.pdmodel", 160},
                {"paddle/pphgnet_plate/inference.pdmodel", 194},
                {"paddle/ppocr_rec_svtr/inference.pdmodel", 210},
                {"paddle/crnn_rec/inference.pdmodel", 214}};
  for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
    char path[4096], err[1024];
    ck_assert_msg(tu_shared(models[i].rel, path, sizeof path), "missing %s", models[i].rel);
    ic_program *p;
    ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
    ck_assert_uint_eq(p->blocks[0].n_ops, models[i].ops);
    ck_assert_uint_eq(ic_program_n_feed_targets(p), 1);
    ck_assert_uint_ge(ic_program_n_fetch_targets(p), 1);
    size_t n;
    const void *bytes = ic_program_bytes(p, &n);
    void *file = tu_read_file(path, NULL);
    ck_assert(file && memcmp(bytes, file, n) == 0);
    free(file);
    ic_program_destroy(p);
  }
}
END_TEST

START_TEST(mobilenet_details) {
  char path[4096], err[1024];
  ck_assert(tu_shared("paddle/mobilenet_v2/inference.pdmodel", path, sizeof path));
  ic_program *p;
  ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_str_eq(ic_program_feed_target(p, 0), "inputs");
  const ic_vardesc *v = ic_program_find_var(p, 0, "inputs");
  ck_assert_ptr_nonnull(v);
  ck_assert_int_eq(v->dtype, IC_FP32);
  ck_assert_int_eq(v->ndim, 4);
  ck_assert_int_eq(v->dims[0], -1);
  ck_assert_int_eq(v->dims[1], 3);
  ck_assert_int_eq(v->dims[2], 224);
  ck_assert(!v->persistable);
  /* the first conv2d has its strides and paddings as INTS */
  const ic_op *conv = NULL;
  for (size_t i = 0; i < p->blocks[0].n_ops && !conv; i++) {
    if (!strcmp(p->blocks[0].ops[i].type, "conv2d")) conv = &p->blocks[0].ops[i];
  }
  ck_assert_ptr_nonnull(conv);
  ic_err e;
  ic_attr_reader r;
  ic_ar_init(&r, conv, &e);
  const int64_t *strides;
  size_t n;
  ck_assert(ic_ar_ints(&r, "strides", true, &strides, &n));
  ck_assert_uint_eq(n, 2);
  ck_assert_int_eq(strides[0], 2);
  ck_assert_int_eq(ic_ar_int(&r, "groups", 0), 1);
  ck_assert_int_eq(r.st, IC_OK);
  const ic_slot *filt = ic_op_input(conv, "Filter");
  ck_assert_ptr_nonnull(filt);
  const ic_vardesc *w = ic_program_find_var(p, 0, filt->args[0]);
  ck_assert(w && w->persistable && w->ndim == 4);
  ic_program_destroy(p);
}
END_TEST

static ic_builder *small_program(void) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 2, TU_DIMS(-1, 4));
  tu_var(b, "y", IC_FP32, 2, TU_DIMS(-1, 4));
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "scale");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_float(op, "scale", 2.5f);
  ic_builder_attr_long(op, "big", 1ll << 40);
  ic_builder_attr_ints(op, "ints", 3, (const int32_t[]){1, -2, 3});
  ic_builder_attr_floats(op, "floats", 2, (const float[]){0.5f, -1.0f});
  ic_builder_attr_string(op, "s", "hello");
  ic_builder_attr_bool(op, "flag", true);
  ic_builder_attr_double(op, "d", 0.1);
  ic_builder_attr_scalar_double(op, "sc", 1.5);
  ic_builder_attr_strings(op, "names", 2, TU_NAMES("a", "b"));
  ic_builder_fetch(b, "y");
  return b;
}

START_TEST(builder_roundtrip) {
  ic_builder *b = small_program();
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ck_assert_uint_eq(p->n_blocks, 1);
  ck_assert_uint_eq(p->blocks[0].n_ops, 3);
  ck_assert_str_eq(ic_program_feed_target(p, 0), "x");
  ck_assert_str_eq(ic_program_fetch_target(p, 0), "y");
  const ic_op *op = &p->blocks[0].ops[1];
  ic_err e;
  ic_attr_reader r;
  ic_ar_init(&r, op, &e);
  ck_assert(ic_ar_float(&r, "scale", 0) == 2.5);
  ck_assert_int_eq(ic_ar_int(&r, "big", 0), 1ll << 40);
  const int64_t *iv;
  size_t n;
  ck_assert(ic_ar_ints(&r, "ints", true, &iv, &n));
  ck_assert(n == 3 && iv[1] == -2);
  const double *fv;
  ck_assert(ic_ar_floats(&r, "floats", true, &fv, &n));
  ck_assert(n == 2 && fv[0] == 0.5);
  ck_assert_str_eq(ic_ar_str(&r, "s", ""), "hello");
  ck_assert(ic_ar_bool(&r, "flag", false));
  ck_assert(ic_ar_float(&r, "d", 0) == 0.1);
  ck_assert(ic_ar_float(&r, "sc", 0) == 1.5);
  ck_assert(ic_ar_int(&r, "absent", 42) == 42);
  ck_assert_int_eq(r.st, IC_OK);
  ck_assert(ic_op_attr(op, "names")->n == 2);
  /* a wrong type is an error naming the op and the attribute */
  (void)ic_ar_int(&r, "s", 0);
  ck_assert_int_eq(r.st, IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(e.msg, "op #1 (scale)", "'s'", "STRING", NULL);
  /* a missing required attribute too */
  ic_ar_init(&r, op, &e);
  (void)ic_ar_int_req(&r, "axis");
  ck_assert_int_eq(r.st, IC_ERR_INVALID_PROGRAM);
  tu_assert_msg(e.msg, "'axis'", "missing", NULL);
  /* re-serializing from the same builder gives the same bytes */
  void *b1, *b2;
  size_t n1, n2;
  ck_assert_int_eq(ic_builder_serialize(b, &b1, &n1), IC_OK);
  ck_assert_int_eq(ic_builder_serialize(b, &b2, &n2), IC_OK);
  ck_assert(n1 == n2 && memcmp(b1, b2, n1) == 0);
  free(b1);
  free(b2);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

START_TEST(feed_fetch_passthrough) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 2, TU_DIMS(-1, 3));
  ic_builder_feed(b, "x");
  ic_builder_fetch(b, "x");
  ic_tensor *x = tu_f32(2, TU_DIMS(2, 3), (const float[]){1, 2, 3, 4, 5, 6});
  ic_tensor *out[1];
  char err[1024];
  ck_assert_msg(tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("x"), out, err, sizeof err) == IC_OK,
                "%s", err);
  tu_assert_bitwise(out[0], x, "passthrough");
  ic_tensor_destroy(out[0]);
  /* declared dims are hints, as in Paddle: a feed of other dims runs */
  ic_tensor *other = tu_f32(2, TU_DIMS(2, 4), NULL);
  ck_assert_msg(tu_run(b, 1, TU_NAMES("x"), &other, 1, TU_NAMES("x"), out, err, sizeof err) ==
                    IC_OK, "%s", err);
  tu_assert_bitwise(out[0], other, "passthrough of other dims");
  ic_tensor_destroy(out[0]);
  /* a feed of the wrong rank is refused with what was expected and received */
  ic_tensor *bad = tu_f32(3, TU_DIMS(2, 3, 1), NULL);
  ck_assert_int_eq(tu_run(b, 1, TU_NAMES("x"), &bad, 1, TU_NAMES("x"), out, err, sizeof err),
                   IC_ERR_INVALID_ARGUMENT);
  tu_assert_msg(err, "feed 'x'", "float32[-1, 3]", "float32[2, 3, 1]", NULL);
  ic_tensor_destroy(other);
  /* fetching an unknown variable names it */
  ck_assert_int_eq(tu_run(b, 1, TU_NAMES("x"), &x, 1, TU_NAMES("nope"), out, err, sizeof err),
                   IC_ERR_NOT_FOUND);
  tu_assert_msg(err, "'nope'", NULL);
  ic_tensor_destroy(bad);
  ic_tensor_destroy(x);
  ic_builder_destroy(b);
}
END_TEST

/* An OpDesc naming an attribute twice (Paddle 2.6 and 3.3 training programs repeat reshape2's
 * use_mkldnn, mkldnn_data_type and use_quantizer) loads as Paddle reads it: the last one wins.
 * The builder replaces a repeated attribute, so the repeat is made by renaming "scalX" to
 * "scale" in the serialized bytes. */
START_TEST(repeated_attribute_last_wins) {
  ic_builder *b = ic_builder_create();
  tu_var(b, "x", IC_FP32, 2, TU_DIMS(-1, 2));
  tu_var(b, "y", IC_FP32, 2, TU_DIMS(-1, 2));
  ic_builder_feed(b, "x");
  ic_builder_op *op = ic_builder_add_op(b, 0, "scale");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "y");
  ic_builder_attr_float(op, "scale", 1.5f);
  ic_builder_attr_float(op, "bias", 0.0f);
  ic_builder_attr_float(op, "scalX", 2.5f);
  ic_builder_fetch(b, "y");
  void *bytes;
  size_t size;
  ck_assert_int_eq(ic_builder_serialize(b, &bytes, &size), IC_OK);
  size_t renamed = 0;
  for (size_t i = 0; i + 5 <= size; i++) {
    if (memcmp((char *)bytes + i, "scalX", 5) == 0) {
      ((char *)bytes)[i + 4] = 'e';
      renamed++;
    }
  }
  ck_assert_uint_eq(renamed, 1);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_program_from_bytes(bytes, size, "<repeat>", &p, err, sizeof err) == IC_OK,
                "%s", err);
  free(bytes);
  const ic_op *sc = &p->blocks[0].ops[1];
  ck_assert_str_eq(sc->type, "scale");
  ck_assert_uint_eq(sc->n_attrs, 2);
  ic_err e;
  ic_attr_reader r;
  ic_ar_init(&r, sc, &e);
  ck_assert(ic_ar_float(&r, "scale", 0) == 2.5);
  ck_assert_int_eq(r.st, IC_OK);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}
END_TEST

static TCase *tc_load(void) {
  TCase *tc = tcase_create("load");
  tcase_add_test(tc, real_models_parse);
  tcase_add_test(tc, mobilenet_details);
  tcase_add_test(tc, repeated_attribute_last_wins);
  return tc;
}

static TCase *tc_builder(void) {
  TCase *tc = tcase_create("builder");
  tcase_add_test(tc, builder_roundtrip);
  tcase_add_test(tc, feed_fetch_passthrough);
  return tc;
}

TU_MAIN("program", tc_load, tc_builder)
