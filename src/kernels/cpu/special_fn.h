/* Special functions of the gamma family and the modified Bessel functions, evaluated the way
 * Paddle's CPU kernels evaluate them, in the data's precision (float32 in float, float64 in
 * double), so that icore's digamma, polygamma, i0, i0e, i1 and i1e give Paddle's values:
 *
 *   digamma   Cephes' psi as Eigen's numext::digamma computes it (Paddle's DigammaFunctor,
 *             paddle/phi/kernels/impl/digamma_kernel_impl.h): for x <= 0 the reflection
 *             psi(x) = psi(1 - x) - pi / tan(pi x), with pi / tan(pi (x - nearest integer))
 *             (0 at x - floor(x) = 1/2) and NaN at the poles x = 0, -1, -2, ...; then the
 *             recurrence psi(s) = psi(s + 1) - 1 / s up to s >= 10, and the asymptotic series
 *             psi(s) = log(s) - 1 / (2 s) - sum_k B_2k / (2k s^2k) (Bernoulli numbers B_2k,
 *             4 terms in float, 7 in double; dropped from s >= 1e8 / 1e17). Paddle's functor
 *             then gives -inf at +0 and +inf at -0. Accuracy: a few ulp of float / double away
 *             from the poles (the reflection's tan loses relative accuracy near the negative
 *             zeros of psi, as Paddle's does too).
 *   zeta      the Hurwitz zeta function zeta(x, q) = sum_k (q + k)^-x by Cephes' zeta.c
 *             (paddle/phi/kernels/impl/polygamma_kernel_impl.h): at least 9 terms and up to
 *             q + k > 9, stopping when a term is below 1.11e-16 of the sum, then the
 *             Euler-Maclaurin tail with up to 12 Bernoulli terms (2k)! / B_2k. inf at x = 1
 *             and at q a non-positive integer, NaN for x < 1 and for q < 0 with x not an
 *             integer. The 1.11e-16 bound is double's epsilon / 2 in both precisions, as in
 *             Paddle (float never meets it early, so float always sums the whole series).
 *   polygamma psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x), n! as exp(lgamma(n + 1)), for every n
 *             as Paddle's PolygammaFunctor computes it: n = 0 gives -inf (zeta(1, x) = inf;
 *             Paddle's Python API sends n = 0 to digamma instead) and n < 0 NaN.
 *   trigamma  psi^(1)(x) as Eigen's numext::polygamma(1, x) computes it, for digamma_grad
 *             (paddle/phi/kernels/impl/digamma_grad_kernel_impl.h): zeta(2, x) by Eigen's
 *             zeta_impl, which differs from Paddle's own zeta above in float32 (it stops the
 *             direct sum after 9 terms, and stops a series when a term is below float's
 *             epsilon / 2 relative to the sum) and at the poles (q a non-positive integer:
 *             inf for an even x, here 2, else NaN); in float64 both give the same values.
 *   i0 i0e i1 i1e  Cephes' i0.c, i0e.c, i1.c, i1e.c (paddle/phi/kernels/impl/
 *             bessel_kernel_impl.h): Chebyshev series of exp(-|x|) I(|x|) on [0, 8] in
 *             |x| / 2 - 2, and of exp(-|x|) sqrt(|x|) I(|x|) on (8, inf] in 32 / |x| - 2,
 *             evaluated by Clenshaw's recurrence; I0 even, I1 odd. float32 evaluates the i0
 *             tables rounded to float, and shorter i1 tables (Paddle's float coefficients,
 *             written as float literals). The coefficients are Cephes' (S. L. Moshier). */
#ifndef IC_KERNELS_CPU_SPECIAL_FN_H
#define IC_KERNELS_CPU_SPECIAL_FN_H

#include <math.h>
#include <stdint.h>

/* ---- digamma ---- */

static inline float ic_digamma_f32(float x) {
  if (x == 0.0f) return signbit(x) ? INFINITY : -INFINITY;
  const float pi = (float)3.14159265358979323846;
  float refl = 0.0f;
  int neg = 0;
  if (x <= 0.0f) {
    float fl = floorf(x);
    if (fl == x) return NAN;
    float frac = x - fl;
    if (frac != 0.5f) {
      if (frac > 0.5f) frac = x - (fl + 1.0f);
      refl = pi / tanf(pi * frac);
    }
    neg = 1;
    x = 1.0f - x;
  }
  float s = x, w = 0.0f;
  while (s < 10.0f) {
    w += 1.0f / s;
    s += 1.0f;
  }
  float series = 0.0f;
  if (s < 1.0e8f) {
    float z = 1.0f / (s * s);
    /* B_2k / (2k) for k = 4, 3, 2, 1 (Horner in z), times z */
    float p = -4.16666666666666666667E-3f;
    p = p * z + 3.96825396825396825397E-3f;
    p = p * z + -8.33333333333333333333E-3f;
    p = p * z + 8.33333333333333333333E-2f;
    series = z * p;
  }
  float y = logf(s) - (0.5f / s) - series - w;
  return neg ? y - refl : y;
}

static inline double ic_digamma_f64(double x) {
  if (x == 0.0) return signbit(x) ? INFINITY : -INFINITY;
  const double pi = 3.14159265358979323846;
  double refl = 0.0;
  int neg = 0;
  if (x <= 0.0) {
    double fl = floor(x);
    if (fl == x) return NAN;
    double frac = x - fl;
    if (frac != 0.5) {
      if (frac > 0.5) frac = x - (fl + 1.0);
      refl = pi / tan(pi * frac);
    }
    neg = 1;
    x = 1.0 - x;
  }
  double s = x, w = 0.0;
  while (s < 10.0) {
    w += 1.0 / s;
    s += 1.0;
  }
  double series = 0.0;
  if (s < 1.0e17) {
    double z = 1.0 / (s * s);
    /* B_2k / (2k) for k = 7 .. 1 (Horner in z), times z */
    double p = 8.33333333333333333333E-2;
    p = p * z + -2.10927960927960927961E-2;
    p = p * z + 7.57575757575757575758E-3;
    p = p * z + -4.16666666666666666667E-3;
    p = p * z + 3.96825396825396825397E-3;
    p = p * z + -8.33333333333333333333E-3;
    p = p * z + 8.33333333333333333333E-2;
    series = z * p;
  }
  double y = log(s) - (0.5 / s) - series - w;
  return neg ? y - refl : y;
}

/* ---- Hurwitz zeta and polygamma ---- */

/* (2k)! / B_2k, k = 1 .. 12: the Euler-Maclaurin tail's divisors. */
#define IC_ZETA_EM_DIVISORS                                                                \
  12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,  \
      -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,        \
      1.8152105401943546773e17, -7.1661652561756670113e18

/* zeta(x, q) in T with pow function POW (powf / pow), floor FLOOR and fabs FABS. */
#define IC_ZETA_BODY(T, POW, FLOOR, FABS)                                                  \
  static const T em[12] = {IC_ZETA_EM_DIVISORS};                                           \
  const T eps = (T)1.11022302462515654042E-16;                                             \
  if (x == (T)1) return (T)INFINITY;                                                       \
  if (x < (T)1) return (T)NAN;                                                             \
  if (q <= (T)0) {                                                                         \
    if (q == FLOOR(q)) return (T)INFINITY;                                                 \
    if (x != FLOOR(x)) return (T)NAN;                                                      \
  }                                                                                        \
  T sum = POW(q, -x), a = q, b = 0;                                                        \
  for (int i = 0; i < 9 || a <= (T)9;) {                                                   \
    i++;                                                                                   \
    a += (T)1;                                                                             \
    b = POW(a, -x);                                                                        \
    sum += b;                                                                              \
    if (-eps * sum < b && b < eps * sum) return sum;                                       \
  }                                                                                        \
  const T w = a;                                                                           \
  sum += b * w / (x - (T)1);                                                               \
  sum -= (T)0.5 * b;                                                                       \
  T fac = 1, k = 0;                                                                        \
  for (int j = 0; j < 12; j++) {                                                           \
    fac *= x + k;                                                                          \
    b /= w;                                                                                \
    T t = fac * b / em[j];                                                                 \
    sum = sum + t;                                                                         \
    if (FABS(t / sum) < eps) return sum;                                                   \
    k += (T)1;                                                                             \
    fac *= x + k;                                                                          \
    b /= w;                                                                                \
    k += (T)1;                                                                             \
  }                                                                                        \
  return sum;

static inline float ic_zeta_f32(float x, float q) { IC_ZETA_BODY(float, powf, floorf, fabsf) }
static inline double ic_zeta_f64(double x, double q) { IC_ZETA_BODY(double, pow, floor, fabs) }

/* n + 1 as Paddle's int arithmetic wraps it. */
static inline int32_t ic_polygamma_np1(int32_t n) { return (int32_t)((uint32_t)n + 1u); }

/* psi^(n)(x) given n's factor (-1)^(n+1) n!, formed as Paddle's functor forms it:
 * sign * exp(lgamma(n + 1)) (polygamma.c computes it once per op). */
static inline float ic_polygamma_f32(int32_t n, float factor, float x) {
  return factor * ic_zeta_f32((float)ic_polygamma_np1(n), x);
}
static inline double ic_polygamma_f64(int32_t n, double factor, double x) {
  return factor * ic_zeta_f64((double)ic_polygamma_np1(n), x);
}

/* Eigen's zeta_impl (SpecialFunctionsImpl.h) for x >= 1, which digamma_grad reaches through
 * numext::polygamma: the direct sum runs 9 terms (float) or at least 9 and up to q + k > 9
 * (double), each stopping early when a term is below eps / 2 of the sum (eps the type's
 * epsilon), then the same Euler-Maclaurin tail. */
#define IC_ZETA_EIGEN_BODY(T, POW, FLOOR, FABS, EPS2, DOUBLE_LOOP)                         \
  static const T em[12] = {IC_ZETA_EM_DIVISORS};                                           \
  const T eps = (T)(EPS2);                                                                 \
  if (x == (T)1) return (T)INFINITY;                                                       \
  if (x < (T)1) return (T)NAN;                                                             \
  if (q <= (T)0) {                                                                         \
    if (q == FLOOR(q)) {                                                                   \
      return (x == FLOOR(x) && (long)x % 2 == 0) ? (T)INFINITY : (T)NAN;                   \
    }                                                                                      \
    if (x != FLOOR(x)) return (T)NAN;                                                      \
  }                                                                                        \
  T sum = POW(q, -x), a = q, b = 0;                                                        \
  for (int i = 0; i < 9 || (DOUBLE_LOOP && a <= (T)9);) {                                  \
    i++;                                                                                   \
    a += (T)1;                                                                             \
    b = POW(a, -x);                                                                        \
    sum += b;                                                                              \
    if (FABS(b / sum) < eps) return sum;                                                   \
  }                                                                                        \
  const T w = a;                                                                           \
  sum += b * w / (x - (T)1);                                                               \
  sum -= (T)0.5 * b;                                                                       \
  T fac = 1, k = 0;                                                                        \
  for (int j = 0; j < 12; j++) {                                                           \
    fac *= x + k;                                                                          \
    b /= w;                                                                                \
    T t = fac * b / em[j];                                                                 \
    sum = sum + t;                                                                         \
    if (FABS(t / sum) < eps) return sum;                                                   \
    k += (T)1;                                                                             \
    fac *= x + k;                                                                          \
    b /= w;                                                                                \
    k += (T)1;                                                                             \
  }                                                                                        \
  return sum;

static inline float ic_zeta_eigen_f32(float x, float q) {
  IC_ZETA_EIGEN_BODY(float, powf, floorf, fabsf, 5.9604644775390625e-8, 0)
}
static inline double ic_zeta_eigen_f64(double x, double q) {
  IC_ZETA_EIGEN_BODY(double, pow, floor, fabs, 1.1102230246251565e-16, 1)
}

/* Eigen's polygamma(1, x) = (-1)^2 exp(lgamma(2)) zeta(2, x) = zeta(2, x) exactly (the
 * factor is 1 * 1). */
static inline float ic_trigamma_f32(float x) { return ic_zeta_eigen_f32(2.0f, x); }
static inline double ic_trigamma_f64(double x) { return ic_zeta_eigen_f64(2.0, x); }

/* ---- modified Bessel functions of order 0 and 1 ---- */

/* Clenshaw's recurrence for sum' c_k T_k(y / 2) (Cephes' chbevl), in T. */
#define IC_CHBEVL_BODY(T)                                                                  \
  T b0 = c[0], b1 = 0, b2 = 0;                                                             \
  for (int i = 1; i < n; i++) {                                                            \
    b2 = b1;                                                                               \
    b1 = b0;                                                                               \
    b0 = y * b1 - b2 + c[i];                                                               \
  }                                                                                        \
  return (T)0.5 * (b0 - b2);

static inline float ic_chbevl_f32(float y, const float *c, int n) { IC_CHBEVL_BODY(float) }
static inline double ic_chbevl_f64(double y, const double *c, int n) { IC_CHBEVL_BODY(double) }

/* exp(-x) I0(x) on [0, 8] (30 terms) and exp(-x) sqrt(x) I0(x) on (8, inf] (25 terms). */
#define IC_I0_A                                                                             \
  -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,     \
      1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,  \
      -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11, \
      9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,   \
      -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,    \
      1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,     \
      -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,    \
      1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,     \
      -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,    \
      1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1
#define IC_I0_B                                                                             \
  -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,     \
      3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16, \
      1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,  \
      -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,  \
      7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11, \
      -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,  \
      3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,      \
      2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,      \
      8.04490411014108831608E-1

/* exp(-x) I1(x) / x on [0, 8] (29 terms) and exp(-x) sqrt(x) I1(x) on (8, inf] (25 terms);
 * float32 uses the last 17 and 7 of them (float literals: the TAIL macros' argument is the
 * literal suffix, f or nothing). */
#define IC_I1_A_HEAD                                                                        \
  2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,      \
      -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14, \
      3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,  \
      -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
#define IC_I1_A_TAIL(S)                                                                     \
  9.38153738649577178388E-9##S, -4.44505912879632808065E-8##S, 2.00329475355213526229E-7##S, \
      -8.56872026469545474066E-7##S, 3.47025130813767847674E-6##S,                          \
      -1.32731636560394358279E-5##S, 4.78156510755005422638E-5##S,                          \
      -1.61760815825896745588E-4##S, 5.12285956168575772895E-4##S,                          \
      -1.51357245063125314899E-3##S, 4.15642294431288815669E-3##S,                          \
      -1.05640848946261981558E-2##S, 2.47264490306265168283E-2##S,                          \
      -5.29459812080949914269E-2##S, 1.02643658689847095384E-1##S,                          \
      -1.76416518357834055153E-1##S, 2.52587186443633654823E-1##S
#define IC_I1_B_HEAD                                                                        \
  7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,      \
      -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,  \
      -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14, \
      4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13, \
      -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,  \
      3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
#define IC_I1_B_TAIL(S)                                                                     \
  -3.83538038596423702205E-9##S, -2.63146884688951950684E-8##S,                             \
      -2.51223623787020892529E-7##S, -3.88256480887769039346E-6##S,                         \
      -1.10588938762623716291E-4##S, -9.76109749136146840777E-3##S,                         \
      7.78576235018280120474E-1##S

/* exp(-|x|) I0(|x|) (scaled) and I0(|x|): the series value, then the caller's scaling. */
static inline float ic_i0_series_f32(float ax) {
  static const float a[30] = {IC_I0_A}, b[25] = {IC_I0_B};
  if (ax <= 8.0f) return ic_chbevl_f32(ax / 2.0f - 2.0f, a, 30);
  return ic_chbevl_f32(32.0f / ax - 2.0f, b, 25);
}
static inline double ic_i0_series_f64(double ax) {
  static const double a[30] = {IC_I0_A}, b[25] = {IC_I0_B};
  if (ax <= 8.0) return ic_chbevl_f64(ax / 2.0 - 2.0, a, 30);
  return ic_chbevl_f64(32.0 / ax - 2.0, b, 25);
}

static inline float ic_i0e_f32(float x) {
  float ax = fabsf(x), s = ic_i0_series_f32(ax);
  return ax <= 8.0f ? s : s / sqrtf(ax);
}
static inline double ic_i0e_f64(double x) {
  double ax = fabs(x), s = ic_i0_series_f64(ax);
  return ax <= 8.0 ? s : s / sqrt(ax);
}
static inline float ic_i0_f32(float x) {
  float ax = fabsf(x), s = ic_i0_series_f32(ax);
  return ax <= 8.0f ? expf(ax) * s : expf(ax) * s / sqrtf(ax);
}
static inline double ic_i0_f64(double x) {
  double ax = fabs(x), s = ic_i0_series_f64(ax);
  return ax <= 8.0 ? exp(ax) * s : exp(ax) * s / sqrt(ax);
}

static inline float ic_i1_series_f32(float ax) {
  static const float a[17] = {IC_I1_A_TAIL(f)}, b[7] = {IC_I1_B_TAIL(f)};
  if (ax <= 8.0f) return ic_chbevl_f32(ax / 2.0f - 2.0f, a, 17);
  return ic_chbevl_f32(32.0f / ax - 2.0f, b, 7);
}
static inline double ic_i1_series_f64(double ax) {
  static const double a[29] = {IC_I1_A_HEAD IC_I1_A_TAIL()},
                      b[25] = {IC_I1_B_HEAD IC_I1_B_TAIL()};
  if (ax <= 8.0) return ic_chbevl_f64(ax / 2.0 - 2.0, a, 29);
  return ic_chbevl_f64(32.0 / ax - 2.0, b, 25);
}

/* I1 is odd: the value for |x|, negated for x < 0 (-0 and NaN keep the |x| value). */
static inline float ic_i1e_f32(float x) {
  float ax = fabsf(x), s = ic_i1_series_f32(ax);
  float r = ax <= 8.0f ? s * ax : s / sqrtf(ax);
  return x < 0.0f ? -r : r;
}
static inline double ic_i1e_f64(double x) {
  double ax = fabs(x), s = ic_i1_series_f64(ax);
  double r = ax <= 8.0 ? s * ax : s / sqrt(ax);
  return x < 0.0 ? -r : r;
}
static inline float ic_i1_f32(float x) {
  float ax = fabsf(x), s = ic_i1_series_f32(ax);
  float r = ax <= 8.0f ? expf(ax) * ax * s : (expf(ax) * s) / sqrtf(ax);
  return x < 0.0f ? -r : r;
}
static inline double ic_i1_f64(double x) {
  double ax = fabs(x), s = ic_i1_series_f64(ax);
  double r = ax <= 8.0 ? exp(ax) * ax * s : (exp(ax) * s) / sqrt(ax);
  return x < 0.0 ? -r : r;
}

#endif
