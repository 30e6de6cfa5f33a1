/* vmath.h (vectorized expf, sigmoid, tanh, row softmax and moments) and gemv.h (rnn's recurrent GEMV): accuracy against
 * libm in double, special values, and results that never depend on an element's position or
 * on the blocking (what keeps the kernels using them bitwise equal at any thread count). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/gemv.h"
#include "kernels/cpu/vmath.h"
#include "testutil.h"

static double ulp_of(double v) { return nextafterf((float)fabs(v), INFINITY) - (float)fabs(v); }

START_TEST(expf_accuracy) {
  /* Every 1/4096 over the clamped range, whole arrays (vector blocks and a tail). */
  const int64_t n = (int64_t)(175 * 4096) + 1; /* up to 88 exactly; a tail of 1 */
  float *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
  for (int64_t i = 0; i < n; i++) x[i] = -87.0f + (float)i / 4096.0f;
  ic_vexpf(y, x, n);
  double worst = 0;
  for (int64_t i = 0; i < n; i++) {
    double want = exp((double)x[i]), err = fabs((double)y[i] - want) / ulp_of(want);
    if (err > worst) worst = err;
  }
  ck_assert_msg(worst <= 3.0, "vectorized expf is off by %.2f ulp, expected at most 3", worst);
  free(x);
  free(y);
}
END_TEST

START_TEST(expf_special_values) {
  float x[7] = {NAN, -INFINITY, INFINITY, -1000.0f, 1000.0f, 0.0f, -0.0f}, y[7];
  ic_vexpf(y, x, 7);
  ck_assert(isnan(y[0]));
  /* Clamped to [-87, 88]: always a normal, finite float. */
  ck_assert_float_eq(y[1], y[3]);
  ck_assert(y[1] > 0 && y[1] < 2e-38f && isnormal(y[1]));
  ck_assert_float_eq(y[2], y[4]);
  ck_assert(isfinite(y[2]) && y[2] > 1e38f);
  ck_assert_float_eq(y[5], 1.0f);
  ck_assert_float_eq(y[6], 1.0f);
  /* sigmoid and tanh at their limits. */
  float s[4] = {-200.0f, 200.0f, 0.0f, NAN}, r[4];
  ic_vsigmoidf(r, s, 4);
  ck_assert(r[0] >= 0 && r[0] < 1e-37f);
  ck_assert_float_eq(r[1], 1.0f);
  ck_assert_float_eq(r[2], 0.5f);
  ck_assert(isnan(r[3]));
  ic_vtanhf(r, s, 4);
  ck_assert_float_eq(r[0], -1.0f);
  ck_assert_float_eq(r[1], 1.0f);
  ck_assert_float_eq(r[2], 0.0f);
  ck_assert(isnan(r[3]));
}
END_TEST

START_TEST(activations_accuracy) {
  float x[1001], y[1001];
  for (int i = 0; i < 1001; i++) x[i] = -20.0f + 0.04f * (float)i;
  ic_vsigmoidf(y, x, 1001);
  for (int i = 0; i < 1001; i++) {
    double want = 1.0 / (1.0 + exp(-(double)x[i]));
    ck_assert_msg(fabs(y[i] - want) <= 1e-6 * want + 1e-30, "sigmoid(%g) = %.9g, want %.9g", x[i],
                  y[i], want);
  }
  ic_vtanhf(y, x, 1001);
  for (int i = 0; i < 1001; i++) {
    double want = tanh((double)x[i]);
    ck_assert_msg(fabs(y[i] - want) <= 1e-6, "tanh(%g) = %.9g, want %.9g", x[i], y[i], want);
  }
}
END_TEST

/* A value gives the same bits wherever it sits: in a full block or in the padded tail. */
START_TEST(position_independent) {
  float x[11], y[11], z[11];
  for (int i = 0; i < 11; i++) x[i] = 0.37f * (float)i - 1.9f;
  ic_vexpf(y, x, 11);
  for (int shift = 1; shift < 4; shift++) {
    ic_vexpf(z, x + shift, 11 - shift);
    ck_assert_int_eq(memcmp(z, y + shift, (size_t)(11 - shift) * sizeof *z), 0);
  }
  for (int i = 0; i < 11; i++) {
    float one;
    ic_vexpf(&one, &x[i], 1);
    ck_assert_int_eq(memcmp(&one, &y[i], sizeof one), 0);
  }
}
END_TEST

/* Every width the CPU has (16, 8, 4 lanes) gives the 4-lane inline functions' bits, for
 * every element of arrays whose lengths leave every tail size, over the clamped range and
 * the special values. */
START_TEST(widths_bitwise) {
  const int64_t n = 4096 + 37;
  float *x = malloc((size_t)n * sizeof *x), *ref = malloc((size_t)n * sizeof *ref);
  float *y = malloc((size_t)n * sizeof *y);
  for (int64_t i = 0; i < n; i++) x[i] = -100.0f + 200.0f * (float)i / (float)n;
  x[0] = NAN, x[1] = INFINITY, x[2] = -INFINITY, x[3] = -0.0f, x[4] = 1e-30f;
  typedef void arr_w(float *, const float *, int64_t, int);
  static const struct {
    const char *name;
    arr_w *fn;
    ic_v4f (*one)(ic_v4f);
  } fns[] = {{"exp", ic_vexpf_w, ic_v4_expf},
             {"sigmoid", ic_vsigmoidf_w, ic_v4_sigmoidf},
             {"tanh", ic_vtanhf_w, ic_v4_tanhf}};
  const int widest = ic_vmath_width();
  ck_assert(widest == 4 || widest == 8 || widest == 16);
  for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
    for (int64_t i = 0; i < n; i++) {
      ic_v4f v = ic_v4_splat(x[i]);
      ref[i] = fns[f].one(v)[0];
    }
    for (int w = 4; w <= widest; w *= 2) {
      for (int64_t len = n - 17; len <= n; len++) { /* every tail of 16 lanes */
        fns[f].fn(y, x, len, w);
        for (int64_t i = 0; i < len; i++) {
          ck_assert_msg(memcmp(&y[i], &ref[i], sizeof y[i]) == 0,
                        "%s(%a) at width %d, length %lld: %a, the 4-lane form gives %a",
                        fns[f].name, x[i], w, (long long)len, y[i], ref[i]);
        }
      }
    }
  }
  /* swish (silu at beta 1): every width and tail against the 4-lane form */
  static const float betas[] = {1.0f, 2.5f, -0.75f};
  for (size_t bi = 0; bi < sizeof betas / sizeof betas[0]; bi++) {
    for (int64_t i = 0; i < n; i++) ref[i] = ic_v4_swishf(ic_v4_splat(x[i]), betas[bi])[0];
    for (int w = 4; w <= widest; w *= 2) {
      for (int64_t len = n - 17; len <= n; len++) {
        ic_vswishf_w(y, x, len, betas[bi], w);
        for (int64_t i = 0; i < len; i++) {
          ck_assert_msg(memcmp(&y[i], &ref[i], sizeof y[i]) == 0,
                        "swish(%a, beta %g) at width %d, length %lld: %a, the 4-lane form "
                        "gives %a", x[i], betas[bi], w, (long long)len, y[i], ref[i]);
        }
      }
    }
  }
  free(x), free(ref), free(y);
}
END_TEST

/* rnn.c's LSTM step takes tanh(x) as 2 * sigmoid(2x) - 1 so that one sigmoid pass covers all
 * four gates: with vmath's forms that is the same float for every float x (checked for all
 * 2^32 bit patterns once; here every 4093rd, plus the special values, at every width). */
START_TEST(tanh_from_sigmoid) {
  enum { N = 4096 };
  float *x = malloc(N * sizeof *x), *x2 = malloc(N * sizeof *x2);
  float *t = malloc(N * sizeof *t), *sg = malloc(N * sizeof *sg);
  const float special[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-38f, -1e-45f, 44.0f, -44.0f,
                           9.0f, -9.0f, 3.4e38f, -3.4e38f};
  const int widest = ic_vmath_width();
  uint64_t u = 0;
  for (int blk = 0; u < ((uint64_t)1 << 32); blk++) {
    int n = 0;
    if (blk == 0) {
      for (; n < (int)(sizeof special / sizeof special[0]); n++) x[n] = special[n];
    }
    for (; n < N && u < ((uint64_t)1 << 32); n++, u += 4093) {
      uint32_t b = (uint32_t)u;
      memcpy(&x[n], &b, sizeof b);
    }
    for (int i = 0; i < n; i++) x2[i] = 2.0f * x[i];
    for (int w = 4; w <= widest; w *= 2) {
      ic_vtanhf_w(t, x, n, w);
      ic_vsigmoidf_w(sg, x2, n, w);
      for (int i = 0; i < n; i++) {
        float r = 2.0f * sg[i] - 1.0f;
        ck_assert_msg(memcmp(&r, &t[i], sizeof r) == 0 || (isnan(r) && isnan(t[i])),
                      "tanh(%a) = %a at width %d, 2 sigmoid(2x) - 1 = %a", x[i], t[i], w, r);
      }
    }
  }
  free(x), free(x2), free(t), free(sg);
}
END_TEST

/* y[j] += x[k] * wt[k][j] in ascending k, each product and sum rounded: the vector code must
 * match the scalar formula bit for bit, at every width and tail. */
START_TEST(gemv_bitwise) {
  if (!ic_gemv_available()) {
    /* Not a skip of the check: rnn then never calls it (and test_ops_rnn covers its sgemm). */
    ck_assert(!__builtin_cpu_supports("avx2") && !__builtin_cpu_supports("avx512f"));
    return;
  }
  static const int64_t ns[] = {1, 4, 7, 8, 15, 16, 17, 63, 64, 65, 84, 100, 127, 128, 129, 257, 384};
  for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
    const int64_t n = ns[t], k = 37;
    float *wt = malloc((size_t)(n * k) * sizeof *wt), *x = malloc((size_t)k * sizeof *x);
    float *y = malloc((size_t)n * sizeof *y), *ref = malloc((size_t)n * sizeof *ref);
    uint32_t s = 12345u + (uint32_t)n;
    for (int64_t i = 0; i < n * k; i++) wt[i] = (float)((s = s * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
    for (int64_t i = 0; i < k; i++) x[i] = (float)((s = s * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
    for (int64_t j = 0; j < n; j++) ref[j] = y[j] = 0.25f * (float)j - 3.0f;
    for (int64_t j = 0; j < n; j++) {
      float a = ref[j];
      for (int64_t i = 0; i < k; i++) {
        volatile float p = wt[i * n + j] * x[i]; /* rounded product, no contraction */
        a = a + p;
      }
      ref[j] = a;
    }
    float *y0 = malloc((size_t)n * sizeof *y0);
    memcpy(y0, y, (size_t)n * sizeof *y);
    ic_gemv_acc_f32(wt, x, y, k, n);
    ck_assert_msg(memcmp(y, ref, (size_t)n * sizeof *y) == 0, "gemv differs from the scalar "
                  "formula at n = %lld", (long long)n);
    /* The packed form: W = wt^T ([n, k]) packed in panels, the same bits. */
    float *w = malloc((size_t)(n * k) * sizeof *w);
    for (int64_t j = 0; j < n; j++) {
      for (int64_t i = 0; i < k; i++) w[j * k + i] = wt[i * n + j];
    }
    const int64_t np = ic_gemv_packed_size(k, n);
    ck_assert_int_ge(np, n * k);
    ck_assert_int_eq(np % (ic_gemv_panel() * k), 0);
    float *wp = malloc((size_t)np * sizeof *wp);
    ic_gemv_pack_f32(w, n, k, wp);
    ic_gemv_packed_acc_f32(wp, x, y0, k, n);
    ck_assert_msg(memcmp(y0, ref, (size_t)n * sizeof *y0) == 0, "packed gemv differs from the "
                  "scalar formula at n = %lld", (long long)n);
    free(wt), free(x), free(y), free(ref), free(y0), free(w), free(wp);
  }
}
END_TEST

/* The documented row formulas, written out in scalar code: eight double lanes (element i into
 * lane i % 8, added ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7))), exponentials by the 4-lane
 * form. */
static double lanes8(const double *l) {
  return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
}

static void softmax_ref(float *y, const float *x, int64_t n) {
  float m = x[0];
  int nan = 0;
  for (int64_t i = 0; i < n; i++) {
    m = x[i] > m ? x[i] : m;
    nan |= isnan(x[i]);
  }
  if (nan) m = NAN;
  double l[8] = {0};
  for (int64_t i = 0; i < n; i++) {
    float d = x[i] - m;
    y[i] = ic_v4_expf(ic_v4_splat(d < -64.0f ? -64.0f : d))[0];
    l[i % 8] += y[i];
  }
  const double r = 1.0 / lanes8(l);
  for (int64_t i = 0; i < n; i++) y[i] = (float)((double)y[i] * r);
}

static void moments_ref(const float *x, int64_t n, double *mean, double *var) {
  double l[8] = {0};
  for (int64_t i = 0; i < n; i++) l[i % 8] += x[i];
  *mean = lanes8(l) / (double)n;
  memset(l, 0, sizeof l);
  for (int64_t i = 0; i < n; i++) l[i % 8] += ((double)x[i] - *mean) * ((double)x[i] - *mean);
  *var = lanes8(l) / (double)n;
}

/* ic_vsoftmax_rowsf, ic_vmomentsf and ic_vnormalizef: the formulas' bits at every width the
 * CPU has, for every row length up to 41 (every tail) and some longer ones, in place too,
 * with nothing written past a row's end; a NaN makes its row NaN, +inf gives a NaN row
 * (inf - inf) as in the scalar formula; and the softmax is within a few ulp of libm's. */
START_TEST(rows_bitwise) {
  static const int64_t longs[] = {63, 64, 65, 127, 1000, 6625};
  const int widest = ic_vmath_width();
  for (int64_t t = 0; t < 41 + (int64_t)(sizeof longs / sizeof longs[0]); t++) {
    const int64_t n = t < 41 ? t + 1 : longs[t - 41], rows = 4;
    float *x = malloc((size_t)(rows * n) * sizeof *x), *ref = malloc((size_t)(rows * n) * sizeof *ref);
    float *y = malloc((size_t)(rows * n + 16) * sizeof *y), *sc = malloc((size_t)n * sizeof *sc);
    float *bi = malloc((size_t)n * sizeof *bi);
    uint32_t st = 777u + (uint32_t)n;
    for (int64_t i = 0; i < rows * n; i++) {
      x[i] = 40.0f * ((float)((st = st * 1664525u + 1013904223u) >> 8) / 16777216.0f) - 20.0f;
    }
    for (int64_t i = 0; i < n; i++) sc[i] = 0.5f + (float)i / 7.0f, bi[i] = 0.25f - (float)i / 11.0f;
    x[n + n / 2] = NAN;         /* row 1 */
    x[3 * n + n - 1] = INFINITY; /* row 3 */
    for (int64_t r = 0; r < rows; r++) softmax_ref(ref + r * n, x + r * n, n);
    for (int64_t r = 0; r < rows; r++) {
      for (int64_t i = 0; i < n; i++) {
        ck_assert(r == 1 || r == 3 ? isnan(ref[r * n + i]) : !isnan(ref[r * n + i]));
      }
    }
    /* within 4 ulp of libm's exp in double of the same float differences x - max (row 0) */
    {
      float m = x[0];
      double s = 0;
      for (int64_t i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
      for (int64_t i = 0; i < n; i++) s += exp((double)(x[i] - m));
      for (int64_t i = 0; i < n; i++) {
        double want = exp((double)(x[i] - m)) / s;
        ck_assert_msg(fabs(ref[i] - want) <= 4 * ulp_of(want), "softmax n %lld element %lld: "
                      "%.9g, libm %.9g", (long long)n, (long long)i, ref[i], want);
      }
    }
    for (int w = 4; w <= widest; w *= 2) {
      for (int64_t i = 0; i < rows * n + 16; i++) y[i] = 12345.0f;
      ic_vsoftmax_rowsf_w(y, x, rows, n, w);
      for (int64_t i = 0; i < rows * n; i++) {
        ck_assert_msg(memcmp(&y[i], &ref[i], sizeof *y) == 0, "softmax width %d, n %lld, "
                      "element %lld: %a, the formula gives %a", w, (long long)n, (long long)i,
                      y[i], ref[i]);
      }
      for (int64_t i = rows * n; i < rows * n + 16; i++) ck_assert(y[i] == 12345.0f);
      memcpy(y, x, (size_t)(rows * n) * sizeof *y); /* in place */
      ic_vsoftmax_rowsf_w(y, y, rows, n, w);
      ck_assert(memcmp(y, ref, (size_t)(rows * n) * sizeof *y) == 0);
      for (int64_t r = 0; r < rows; r++) {
        if (r == 1) continue; /* the NaN row */
        const float *xr = x + r * n;
        double m, v, mr, vr;
        ic_vmomentsf_w(xr, n, &m, &v, w);
        moments_ref(xr, n, &mr, &vr);
        ck_assert_msg(m == mr && (v == vr || (isnan(v) && isnan(vr))), "moments width %d, n "
                      "%lld: %a %a, the formula gives %a %a", w, (long long)n, m, v, mr, vr);
        if (r == 3) continue;
        const double inv = 1.0 / sqrt(v + 1e-5);
        for (int k = 0; k < 4; k++) { /* scale and bias present or not */
          const float *s = k & 1 ? sc : NULL, *b = k & 2 ? bi : NULL;
          for (int64_t i = 0; i < n + 16; i++) y[i] = 12345.0f;
          ic_vnormalizef_w(y, xr, n, m, inv, s, b, w);
          for (int64_t i = 0; i < n; i++) {
            double e = ((double)xr[i] - m) * inv;
            if (s) e *= s[i];
            if (b) e += b[i];
            ck_assert_msg(y[i] == (float)e, "normalize width %d, n %lld, element %lld: %a, "
                          "the formula gives %a", w, (long long)n, (long long)i, y[i], (float)e);
          }
          for (int64_t i = n; i < n + 16; i++) ck_assert(y[i] == 12345.0f);
        }
      }
    }
    free(x), free(ref), free(y), free(sc), free(bi);
  }
  double m = 1, v = 1;
  ic_vmomentsf(NULL, 0, &m, &v);
  ck_assert(m == 0 && v == 0);
}
END_TEST

static TCase *tc_vmath(void) {
  TCase *tc = tcase_create("vmath");
  tcase_add_test(tc, expf_accuracy);
  tcase_add_test(tc, expf_special_values);
  tcase_add_test(tc, activations_accuracy);
  tcase_add_test(tc, position_independent);
  tcase_add_test(tc, widths_bitwise);
  tcase_add_test(tc, tanh_from_sigmoid);
  tcase_add_test(tc, gemv_bitwise);
  tcase_add_test(tc, rows_bitwise);
  return tc;
}

TU_MAIN("vmath", tc_vmath)
