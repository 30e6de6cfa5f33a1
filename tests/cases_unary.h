/* The case table of the unary math ops (silu ... round): op, attributes, a double-precision
 * reference written here independently of the kernels, and the input range. Header-only so
 * that every backend's suite runs the same cases (tests/test_ops_math.c on the CPU
 * executors; a CUDA suite includes it the same way). */
#ifndef IC_TESTS_CASES_UNARY_H
#define IC_TESTS_CASES_UNARY_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

typedef double (*cu_ref)(double x, const double *p);

 /* One op configuration: attribute names (NULL-terminated, at most 3; float attributes),
 * the values written, the reference and the input range [lo, hi).
 * The reference sees the attribute values as the kernel does (floats rounded to float). */
typedef struct cu_case {
  const char *type;
  const char *names[4];
  double vals[3];
  cu_ref ref;
  double lo, hi;
  int int_too; /* 1: the op also takes int32/int64 (reference applied to the integers) */
} cu_case;

static inline double cu_silu(double x, const double *p) { (void)p; return x / (1 + exp(-x)); }
static inline double cu_log(double x, const double *p) { (void)p; return log(x); }
static inline double cu_log2(double x, const double *p) { (void)p; return log(x) / log(2.0); }
static inline double cu_log10(double x, const double *p) { (void)p; return log(x) / log(10.0); }
static inline double cu_log1p(double x, const double *p) { (void)p; return log1p(x); }
static inline double cu_rsqrt(double x, const double *p) { (void)p; return pow(x, -0.5); }
static inline double cu_erf(double x, const double *p) { (void)p; return erf(x); }
static inline double cu_recip(double x, const double *p) { (void)p; return 1 / x; }
static inline double cu_sin(double x, const double *p) { (void)p; return sin(x); }
static inline double cu_cos(double x, const double *p) { (void)p; return cos(x); }
static inline double cu_softsign(double x, const double *p) { (void)p; return x / (1 + fabs(x)); }
static inline double cu_tanh_shrink(double x, const double *p) { (void)p; return x - tanh(x); }
static inline double cu_logsigmoid(double x, const double *p) {
  (void)p;
  return x > 0 ? -log1p(exp(-x)) : x - log1p(exp(x));
}
static inline double cu_softplus1(double x, double beta, double thr) {
  return beta * x > thr ? x : log1p(exp(beta * x)) / beta;
}
static inline double cu_mish(double x, const double *p) {
  return x * tanh(x > p[0] ? x : log1p(exp(x)));
}
static inline double cu_softplus(double x, const double *p) { return cu_softplus1(x, p[0], p[1]); }
static inline double cu_elu(double x, const double *p) { return x >= 0 ? x : p[0] * expm1(x); }
static inline double cu_celu(double x, const double *p) {
  return x >= 0 ? x : p[0] * expm1(x / p[0]);
}
static inline double cu_selu(double x, const double *p) {
  return x > 0 ? p[0] * x : p[0] * p[1] * expm1(x);
}
static inline double cu_brelu(double x, const double *p) {
  return x < p[0] ? p[0] : x > p[1] ? p[1] : x;
}
static inline double cu_thresholded_relu(double x, const double *p) {
  return x > p[0] ? x : p[1];
}
static inline double cu_stanh(double x, const double *p) { return p[1] * tanh(p[0] * x); }
static inline double cu_hard_shrink(double x, const double *p) {
  return fabs(x) >= p[0] ? x : 0;
}
static inline double cu_softshrink(double x, const double *p) {
  return x > p[0] ? x - p[0] : x < -p[0] ? x + p[0] : 0;
}
static inline double cu_floor(double x, const double *p) { (void)p; return floor(x); }
static inline double cu_ceil(double x, const double *p) { (void)p; return ceil(x); }
static inline double cu_sign(double x, const double *p) {
  (void)p;
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}
static inline double cu_square(double x, const double *p) { (void)p; return x * x; }
/* Nearest whole number, halves to the even neighbour. */
static inline double cu_round_even(double x) {
  double f = floor(x), d = x - f;
  if (d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0)) f += 1;
  return f;
}
static inline double cu_round(double x, const double *p) {
  double s = pow(10.0, p[0]);
  return p[0] == 0 ? cu_round_even(x) : cu_round_even(x * s) / s;
}
static inline double cu_pow(double x, const double *p) { return pow(x, p[0]); }

static const cu_case cu_cases[] = {
    {"silu", {NULL}, {0}, cu_silu, -10, 10, 0},
    {"log", {NULL}, {0}, cu_log, 0.01, 50, 0},
    {"log2", {NULL}, {0}, cu_log2, 0.01, 50, 0},
    {"log10", {NULL}, {0}, cu_log10, 0.01, 50, 0},
    {"log1p", {NULL}, {0}, cu_log1p, -0.9, 50, 0},
    {"rsqrt", {NULL}, {0}, cu_rsqrt, 0.01, 50, 0},
    {"erf", {NULL}, {0}, cu_erf, -4, 4, 0},
    {"reciprocal", {NULL}, {0}, cu_recip, 0.1, 9, 0},
    {"reciprocal", {NULL}, {0}, cu_recip, -9, -0.1, 0},
    {"sin", {NULL}, {0}, cu_sin, -8, 8, 0},
    {"cos", {NULL}, {0}, cu_cos, -8, 8, 0},
    {"softsign", {NULL}, {0}, cu_softsign, -8, 8, 0},
    {"tanh_shrink", {NULL}, {0}, cu_tanh_shrink, -5, 5, 0},
    {"logsigmoid", {NULL}, {0}, cu_logsigmoid, -30, 30, 0},
    {"mish", {NULL}, {20}, cu_mish, -8, 25, 0},
    {"mish", {"threshold"}, {1.5}, cu_mish, -5, 5, 0},
    {"softplus", {NULL}, {1, 20}, cu_softplus, -8, 25, 0},
    {"softplus", {"beta", "threshold"}, {2, 3}, cu_softplus, -5, 5, 0},
    {"elu", {NULL}, {1}, cu_elu, -5, 5, 0},
    {"elu", {"alpha"}, {0.3}, cu_elu, -5, 5, 0},
    {"celu", {NULL}, {1}, cu_celu, -5, 5, 0},
    {"celu", {"alpha"}, {1.7}, cu_celu, -5, 5, 0},
    {"selu", {NULL}, {1.0507009873554804934193349852946, 1.6732632423543772848170429916717},
     cu_selu, -5, 5, 0},
    {"selu", {"scale", "alpha"}, {1.5, 0.5}, cu_selu, -5, 5, 0},
    {"brelu", {NULL}, {0, 24}, cu_brelu, -5, 30, 0},
    {"brelu", {"t_min", "t_max"}, {-1, 2}, cu_brelu, -5, 5, 0},
    {"thresholded_relu", {NULL}, {1, 0}, cu_thresholded_relu, -5, 5, 0},
    {"thresholded_relu", {"threshold", "value"}, {0.5, -2}, cu_thresholded_relu, -5, 5, 0},
    {"stanh", {NULL}, {0.67, 1.7159}, cu_stanh, -5, 5, 0},
    {"stanh", {"scale_a", "scale_b"}, {0.5, 2}, cu_stanh, -5, 5, 0},
    {"hard_shrink", {NULL}, {0.5}, cu_hard_shrink, -2, 2, 0},
    {"hard_shrink", {"threshold"}, {1.25}, cu_hard_shrink, -3, 3, 0},
    {"softshrink", {NULL}, {0.5}, cu_softshrink, -2, 2, 0},
    {"softshrink", {"lambda"}, {1.25}, cu_softshrink, -3, 3, 0},
    {"floor", {NULL}, {0}, cu_floor, -5, 5, 1},
    {"ceil", {NULL}, {0}, cu_ceil, -5, 5, 1},
    {"round", {NULL}, {0}, cu_round, -5, 5, 1},
    {"sign", {NULL}, {0}, cu_sign, -5, 5, 1},
    {"square", {NULL}, {0}, cu_square, -5, 5, 1},
    {"pow", {NULL}, {1}, cu_pow, 0.1, 5, 0},
    {"pow", {"factor"}, {2.5}, cu_pow, 0.1, 5, 0},
    {"pow", {"factor"}, {-1.5}, cu_pow, 0.1, 5, 0},
    {"pow", {"factor"}, {3}, cu_pow, -5, 5, 1},
};

/* prelu: mode, data_format (NULL: absent), X's dims and Alpha's dims. */
typedef struct cpr_case {
  const char *mode, *fmt;
  int nd;
  int64_t dims[5];
  int and_;
  int64_t adims[4];
} cpr_case;

static const cpr_case cpr_cases[] = {
    {"all", NULL, 4, {2, 3, 4, 5}, 1, {1}},
    {"channel", NULL, 4, {2, 3, 4, 5}, 1, {3}},
    {"channel", "NCHW", 2, {4, 3}, 1, {3}},
    {"channel", "NHWC", 4, {2, 3, 4, 5}, 1, {5}},
    {"channel", "NCDHW", 5, {2, 3, 2, 2, 3}, 1, {3}},
    {"element", NULL, 4, {2, 3, 4, 5}, 4, {1, 3, 4, 5}},
    {"element", NULL, 3, {3, 2, 7}, 1, {14}},
    /* larger: a channel-first feature map, and channel-last */
    {"channel", NULL, 4, {2, 32, 17, 19}, 1, {32}},
    {"channel", "NHWC", 4, {2, 17, 19, 32}, 1, {32}},
};
#define CPR_N_CASES (sizeof cpr_cases / sizeof cpr_cases[0])

#endif
