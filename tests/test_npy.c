/* NumPy .npy reading and writing (tools/npy.c): files NumPy wrote, round trips, and every
 * refusal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "testutil.h"

static const char *fixture(const char *name, char *buf, size_t len) {
  snprintf(buf, len, "%s/tests/data/npy/%s", IC_SOURCE_DIR, name);
  return buf;
}

static ic_tensor *load_fixture(const char *name) {
  char path[4096], err[1024];
  ic_tensor *t;
  ck_assert_msg(ic_npy_load(fixture(name, path, sizeof path), &t, err, sizeof err) == IC_OK,
                "%s: %s", name, err);
  return t;
}

/* ---- files written by NumPy (tools/gen_npy_fixtures.py) ---- */

START_TEST(numpy_fixtures) {
  ic_tensor *t = load_fixture("f32_2x3.npy");
  tu_assert_shape(t, IC_FP32, 2, TU_DIMS(2, 3));
  for (int k = 0; k < 6; k++) {
    ck_assert(((const float *)ic_tensor_cdata(t))[k] == (float)k / 7.0f);
  }
  ic_tensor_destroy(t);

  t = load_fixture("i64_scalar.npy");
  tu_assert_shape(t, IC_INT64, 0, NULL);
  ck_assert_int_eq(*(const int64_t *)ic_tensor_cdata(t), -(1ll << 40) - 3);
  ic_tensor_destroy(t);

  t = load_fixture("bool_5.npy");
  tu_assert_shape(t, IC_BOOL, 1, TU_DIMS(5));
  ck_assert(memcmp(ic_tensor_cdata(t), (const unsigned char[]){1, 0, 1, 1, 0}, 5) == 0);
  ic_tensor_destroy(t);

  t = load_fixture("u8_empty.npy");
  tu_assert_shape(t, IC_UINT8, 2, TU_DIMS(0, 3));
  ck_assert_int_eq(ic_tensor_numel(t), 0);
  ic_tensor_destroy(t);

  /* float16 bit patterns: 1 = 0x3C00, -2.5 = 0xC100, 65504 = 0x7BFF, 0.0001 ~ 0x068E */
  t = load_fixture("f16_4.npy");
  tu_assert_shape(t, IC_FP16, 1, TU_DIMS(4));
  const uint16_t want16[4] = {0x3C00, 0xC100, 0x7BFF, 0x068E};
  ck_assert(memcmp(ic_tensor_cdata(t), want16, 8) == 0);
  ic_tensor_destroy(t);

  t = load_fixture("i16_3.npy");
  tu_assert_close(t, (const double[]){-32768, 0, 32767}, 3, 0, 0);
  ck_assert_int_eq(ic_tensor_dtype(t), IC_INT16);
  ic_tensor_destroy(t);
  t = load_fixture("i8_2x2.npy");
  tu_assert_shape(t, IC_INT8, 2, TU_DIMS(2, 2));
  tu_assert_close(t, (const double[]){-128, -1, 0, 127}, 4, 0, 0);
  ic_tensor_destroy(t);

  t = load_fixture("f64_v2.npy");
  tu_assert_shape(t, IC_FP64, 2, TU_DIMS(2, 2));
  for (int k = 0; k < 4; k++) ck_assert(((const double *)ic_tensor_cdata(t))[k] == k * 0.1 - 1);
  ic_tensor_destroy(t);

  t = load_fixture("i32_v3.npy");
  tu_assert_shape(t, IC_INT32, 1, TU_DIMS(5));
  tu_assert_close(t, (const double[]){-3, -2, 1, 6, 13}, 5, 0, 0);
  ic_tensor_destroy(t);
}
END_TEST

/* What icore writes is what numpy.save writes, byte for byte. */
START_TEST(save_matches_numpy) {
  static const char *const names[] = {"f32_2x3.npy", "i64_scalar.npy", "bool_5.npy",
                                      "u8_empty.npy", "f16_4.npy",     "i16_3.npy",
                                      "i8_2x2.npy"};
  char *dir = tu_tmpdir();
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char path[4096], out[4096], err[1024];
    ic_tensor *t = load_fixture(names[i]);
    snprintf(out, sizeof out, "%s/%s", dir, names[i]);
    ck_assert_msg(ic_npy_save(out, t, err, sizeof err) == IC_OK, "%s", err);
    size_t n1, n2;
    void *a = tu_read_file(fixture(names[i], path, sizeof path), &n1), *b = tu_read_file(out, &n2);
    ck_assert_msg(a && b && n1 == n2 && memcmp(a, b, n1) == 0, "%s differs from numpy's",
                  names[i]);
    free(a);
    free(b);
    ic_tensor_destroy(t);
  }
  tu_rmtree(dir);
  free(dir);
}
END_TEST

START_TEST(roundtrip_every_dtype) {
  static const ic_dtype dts[] = {IC_BOOL, IC_INT8,  IC_UINT8, IC_INT16, IC_INT32,
                                 IC_INT64, IC_FP16, IC_FP32,  IC_FP64};
  static const struct {
    int ndim;
    int64_t dims[4];
  } shapes[] = {{0, {0}}, {1, {1}}, {1, {13}}, {3, {2, 3, 5}}, {2, {0, 7}}, {4, {1, 2, 1, 3}}};
  char *dir = tu_tmpdir(), path[4096], err[1024];
  snprintf(path, sizeof path, "%s/a.npy", dir);
  for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      ic_tensor *t, *u;
      ck_assert_int_eq(ic_tensor_create(dts[d], shapes[s].ndim, shapes[s].dims, &t), IC_OK);
      unsigned char *p = ic_tensor_data(t);
      for (size_t k = 0; k < ic_tensor_nbytes(t); k++) {
        p[k] = dts[d] == IC_BOOL ? (unsigned char)(k % 3 == 0) : (unsigned char)(k * 29 + d);
      }
      ck_assert_msg(ic_npy_save(path, t, err, sizeof err) == IC_OK, "%s", err);
      ck_assert_msg(ic_npy_load(path, &u, err, sizeof err) == IC_OK, "%s", err);
      tu_assert_bitwise(t, u, ic_dtype_name(dts[d]));
      /* the data starts at a multiple of 64, as numpy.save aligns it */
      size_t n;
      unsigned char *raw = tu_read_file(path, &n);
      size_t hlen = (size_t)raw[8] | (size_t)raw[9] << 8;
      ck_assert_uint_eq((10 + hlen) % 64, 0);
      ck_assert_uint_eq(n, 10 + hlen + ic_tensor_nbytes(t));
      ck_assert_int_eq(raw[10 + hlen - 1], '\n');
      free(raw);
      ic_tensor_destroy(t);
      ic_tensor_destroy(u);
    }
  }
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* ---- headers written by hand ---- */

/* A file: magic, version, header length, header text, then n data bytes (0x11 each). */
static unsigned char *make_npy(int major, int minor, const char *header, size_t data,
                               size_t *size) {
  size_t hl = strlen(header), pre = major == 1 ? 10 : 12;
  unsigned char *b = malloc(pre + hl + data + 1);
  memcpy(b, "\x93NUMPY", 6);
  b[6] = (unsigned char)major;
  b[7] = (unsigned char)minor;
  b[8] = (unsigned char)(hl & 0xFF);
  b[9] = (unsigned char)(hl >> 8);
  if (pre == 12) {
    b[10] = (unsigned char)(hl >> 16);
    b[11] = (unsigned char)(hl >> 24);
  }
  memcpy(b + pre, header, hl);
  memset(b + pre + hl, 0x11, data);
  *size = pre + hl + data;
  return b;
}

static ic_tensor *parse_ok(int major, const char *header, size_t data) {
  size_t n;
  unsigned char *b = make_npy(major, 0, header, data, &n);
  ic_tensor *t;
  char err[1024];
  ck_assert_msg(ic_npy_parse(b, n, "hand.npy", &t, err, sizeof err) == IC_OK, "%s: %s", header,
                err);
  free(b);
  return t;
}

START_TEST(header_variants) {
  /* keys in any order, double quotes, odd spacing, no trailing comma, Python 2 longs */
  ic_tensor *t = parse_ok(1, "{ \"shape\" :(2,3) ,'fortran_order':False,'descr':'<i4'}\n", 24);
  tu_assert_shape(t, IC_INT32, 2, TU_DIMS(2, 3));
  ic_tensor_destroy(t);
  t = parse_ok(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3L, 1L), }   \n", 24);
  tu_assert_shape(t, IC_FP64, 2, TU_DIMS(3, 1));
  ic_tensor_destroy(t);
  t = parse_ok(2, "{'descr': '|u1', 'fortran_order': False, 'shape': (), }\n", 1);
  tu_assert_shape(t, IC_UINT8, 0, NULL);
  ck_assert_int_eq(*(const unsigned char *)ic_tensor_cdata(t), 0x11);
  ic_tensor_destroy(t);
  t = parse_ok(3, "{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }\n", 6);
  tu_assert_shape(t, IC_FP16, 1, TU_DIMS(3));
  ic_tensor_destroy(t);
  /* native ('=') and unmarked byte orders are little-endian here; '<' on a one-byte type */
  t = parse_ok(1, "{'descr': '=i8', 'fortran_order': False, 'shape': (1,)}", 8);
  ck_assert_int_eq(ic_tensor_dtype(t), IC_INT64);
  ic_tensor_destroy(t);
  t = parse_ok(1, "{'descr': 'f4', 'fortran_order': False, 'shape': (1,)}", 4);
  ck_assert_int_eq(ic_tensor_dtype(t), IC_FP32);
  ic_tensor_destroy(t);
  t = parse_ok(1, "{'descr': '<b1', 'fortran_order': False, 'shape': (2, 0, 4)}", 0);
  tu_assert_shape(t, IC_BOOL, 3, TU_DIMS(2, 0, 4));
  ic_tensor_destroy(t);
  /* a big version-2 header (over 64 KiB of padding) */
  size_t big = 70000;
  char *h = malloc(big + 1);
  const char *dict = "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }";
  memset(h, ' ', big);
  memcpy(h, dict, strlen(dict));
  h[big - 1] = '\n';
  h[big] = '\0';
  t = parse_ok(2, h, 4);
  tu_assert_shape(t, IC_INT16, 1, TU_DIMS(2));
  ic_tensor_destroy(t);
  free(h);
  /* complex64 and complex128 (the FFT ops' dtypes): interleaved real, imaginary */
  t = parse_ok(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (3,)}", 24);
  tu_assert_shape(t, IC_COMPLEX64, 1, TU_DIMS(3));
  ic_tensor_destroy(t);
  t = parse_ok(1, "{'descr': '<c16', 'fortran_order': False, 'shape': (2, 1)}", 32);
  tu_assert_shape(t, IC_COMPLEX128, 2, TU_DIMS(2, 1));
  ic_tensor_destroy(t);
}
END_TEST

static void parse_bad(int major, int minor, const char *header, size_t data, ic_status code,
                      const char *needle) {
  size_t n;
  unsigned char *b = make_npy(major, minor, header, data, &n);
  ic_tensor *t = (ic_tensor *)1;
  char err[1024];
  ic_status st = ic_npy_parse(b, n, "bad.npy", &t, err, sizeof err);
  ck_assert_msg(st == code, "%s: got %s, expected %s (%s)", header, ic_status_name(st),
                ic_status_name(code), err);
  ck_assert_ptr_null(t);
  tu_assert_msg(err, "bad.npy", needle, NULL);
  free(b);
}

#define F32_2 "'descr': '<f4', 'fortran_order': False, 'shape': (2,)"
#define BAD IC_ERR_INVALID_ARGUMENT
#define UNS IC_ERR_UNSUPPORTED

START_TEST(refusals) {
  /* unsupported: Fortran order, big-endian, object, unsigned 16-bit, complex, strings,
   * structured dtypes, too many dims, versions */
  parse_bad(1, 0, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2)}", 16, UNS,
            "Fortran");
  parse_bad(1, 0, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,)}", 8, UNS,
            "big-endian");
  parse_bad(1, 0, "{'descr': '|O', 'fortran_order': False, 'shape': (2,)}", 16, UNS, "object");
  parse_bad(1, 0, "{'descr': '<u2', 'fortran_order': False, 'shape': (2,)}", 4, UNS, "'<u2'");
  parse_bad(1, 0, "{'descr': '<c32', 'fortran_order': False, 'shape': (2,)}", 64, UNS, "'<c32'");
  parse_bad(1, 0, "{'descr': '<U3', 'fortran_order': False, 'shape': (2,)}", 24, UNS, "'<U3'");
  parse_bad(1, 0, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}", 8, UNS,
            "structured");
  parse_bad(1, 0,
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1)}", 4, UNS,
            "more than 9");
  parse_bad(4, 0, "{" F32_2 "}", 8, UNS, "version 4.0");
  parse_bad(1, 1, "{" F32_2 "}", 8, UNS, "version 1.1");
  /* malformed headers */
  parse_bad(1, 0, "{'descr': '|f4', 'fortran_order': False, 'shape': (2,)}", 8, BAD, "'|'");
  parse_bad(1, 0, "['descr', '<f4']", 8, BAD, "dict");
  parse_bad(1, 0, "{'descr': '<f4', 'shape': (2,)}", 8, BAD, "fortran_order");
  parse_bad(1, 0, "{'descr': '<f4', 'fortran_order': False}", 8, BAD, "shape");
  parse_bad(1, 0, "{'fortran_order': False, 'shape': (2,)}", 8, BAD, "descr");
  parse_bad(1, 0, "{" F32_2 ", 'extra': 1}", 8, BAD, "'extra'");
  parse_bad(1, 0, "{" F32_2 ", 'shape': (2,)}", 8, BAD, "twice");
  parse_bad(1, 0, "{'descr': '<f4', 'fortran_order': false, 'shape': (2,)}", 8, BAD,
            "True or False");
  parse_bad(1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", 8, BAD, "(2,)");
  parse_bad(1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}", 8, BAD,
            "non-negative");
  parse_bad(1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", 8, BAD, "tuple");
  parse_bad(1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (2 3)}", 8, BAD, "tuple");
  parse_bad(1, 0, "{" F32_2 "} junk", 8, BAD, "after the header");
  parse_bad(1, 0, "{'descr' '<f4', 'fortran_order': False, 'shape': (2,)}", 8, BAD,
            "malformed");
  parse_bad(1, 0, "{" F32_2, 8, BAD, "malformed");
  parse_bad(1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
            8, BAD, "too large");
  parse_bad(1, 0,
            "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296, 2)}", 8,
            BAD, "overflows");
  /* data shorter and longer than the shape says */
  parse_bad(1, 0, "{" F32_2 "}", 7, BAD, "truncated data");
  parse_bad(1, 0, "{" F32_2 "}", 9, BAD, "trailing bytes");
  /* truncated preamble and header */
  size_t n;
  unsigned char *b = make_npy(1, 0, "{" F32_2 "}", 8, &n);
  for (size_t cut = 0; cut < n - 8; cut++) {
    ic_tensor *t;
    char err[1024];
    ck_assert_int_eq(ic_npy_parse(b, cut, "cut.npy", &t, err, sizeof err), BAD);
    tu_assert_msg(err, "cut.npy", NULL);
    ck_assert_ptr_null(t);
  }
  b[0] = 'X';
  ic_tensor *t;
  char err[1024];
  ck_assert_int_eq(ic_npy_parse(b, n, "magic.npy", &t, err, sizeof err), BAD);
  tu_assert_msg(err, "magic.npy", "not a .npy file", NULL);
  free(b);
}
END_TEST

START_TEST(refused_files) {
  static const struct {
    const char *name, *needle;
  } cases[] = {{"fortran.npy", "Fortran"},
               {"big_endian.npy", "big-endian"},
               {"u16.npy", "'<u2'"},
               {"object.npy", "object"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[4096], err[1024];
    ic_tensor *t;
    ck_assert_int_eq(ic_npy_load(fixture(cases[i].name, path, sizeof path), &t, err, sizeof err),
                     IC_ERR_UNSUPPORTED);
    ck_assert_ptr_null(t);
    tu_assert_msg(err, path, cases[i].needle, NULL);
  }
  char err[1024];
  ic_tensor *t;
  ck_assert_int_eq(ic_npy_load("/nonexistent/x.npy", &t, err, sizeof err), IC_ERR_NOT_FOUND);
  tu_assert_msg(err, "/nonexistent/x.npy", NULL);
  /* bfloat16 has no NumPy dtype */
  ic_tensor *bf;
  ck_assert_int_eq(ic_tensor_create(IC_BF16, 1, TU_DIMS(2), &bf), IC_OK);
  char *dir = tu_tmpdir(), out[4096];
  snprintf(out, sizeof out, "%s/bf.npy", dir);
  ck_assert_int_eq(ic_npy_save(out, bf, err, sizeof err), IC_ERR_UNSUPPORTED);
  tu_assert_msg(err, out, "bfloat16", "no NumPy dtype", NULL);
  ck_assert_int_eq(ic_npy_save("/nonexistent/dir/x.npy", bf, err, sizeof err), IC_ERR_UNSUPPORTED);
  ic_tensor *f = tu_f32(1, TU_DIMS(1), (const float[]){1});
  ck_assert_int_eq(ic_npy_save("/nonexistent/dir/x.npy", f, err, sizeof err), IC_ERR_IO);
  tu_assert_msg(err, "/nonexistent/dir/x.npy", NULL);
  ic_tensor_destroy(f);
  ic_tensor_destroy(bf);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

static TCase *tc_read(void) {
  TCase *tc = tcase_create("read");
  tcase_add_test(tc, numpy_fixtures);
  tcase_add_test(tc, header_variants);
  return tc;
}

static TCase *tc_write(void) {
  TCase *tc = tcase_create("write");
  tcase_add_test(tc, save_matches_numpy);
  tcase_add_test(tc, roundtrip_every_dtype);
  return tc;
}

static TCase *tc_refuse(void) {
  TCase *tc = tcase_create("refuse");
  tcase_add_test(tc, refusals);
  tcase_add_test(tc, refused_files);
  return tc;
}

TU_MAIN("npy", tc_read, tc_write, tc_refuse)
