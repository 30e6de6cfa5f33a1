/* The case table of the activations relu ... leaky_relu (the unary math ops silu ... pow are
 * in cases_unary.h): op, attributes, a double-precision reference written here
 * independently of the kernels, the input range, and whether a GPU kernel must agree with
 * the CPU kernel bit for bit. Header-only so that every backend's suite runs the same
 * cases: tests/test_ops_activation.c on the CPU executors against the reference,
 * tests/test_cuda_activation.c on the CUDA kernels against the CPU kernels. */
#ifndef IC_TESTS_CASES_ACTIVATION_H
#define IC_TESTS_CASES_ACTIVATION_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

typedef double (*cact_ref)(double x, const double *p);

static inline double cact_relu(double x, const double *p) { (void)p; return x > 0 ? x : 0; }
static inline double cact_relu6(double x, const double *p) { return fmin(fmax(x, 0), p[0]); }
static inline double cact_sigmoid(double x, const double *p) { (void)p; return 1 / (1 + exp(-x)); }
static inline double cact_tanh(double x, const double *p) { (void)p; return tanh(x); }
static inline double cact_exp(double x, const double *p) { (void)p; return exp(x); }
static inline double cact_sqrt(double x, const double *p) { (void)p; return sqrt(x); }
static inline double cact_abs(double x, const double *p) { (void)p; return fabs(x); }
static inline double cact_gelu(double x, const double *p) {
  (void)p;
  return 0.5 * x * (1 + erf(x / sqrt(2.0)));
}
static inline double cact_gelu_tanh(double x, const double *p) {
  (void)p;
  return 0.5 * x * (1 + tanh(sqrt(2 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
}
static inline double cact_swish(double x, const double *p) { return x / (1 + exp(-p[0] * x)); }
static inline double cact_hard_swish(double x, const double *p) {
  return x * fmin(fmax(x + p[2], 0), p[0]) / p[1];
}
static inline double cact_hard_sigmoid(double x, const double *p) {
  return fmin(fmax(p[0] * x + p[1], 0), 1);
}
static inline double cact_leaky_relu(double x, const double *p) { return x >= 0 ? x : p[0] * x; }

/* One op configuration: attributes set (names NULL when left to the default) and the values
 * the reference uses (the attribute or Paddle's default). */
typedef struct cact_case {
  const char *type;
  const char *names[3];
  double vals[3];
  int approximate; /* gelu: -1 absent, else the bool written */
  cact_ref ref;
  double lo, hi;   /* input range */
  bool gpu_exact;  /* plain arithmetic and comparisons (and correctly rounded sqrt): the GPU
                      must agree bit for bit; else within CUDA's few ulp of expf/tanhf/erff */
} cact_case;

static const cact_case cact_cases[] = {
    {"relu", {NULL}, {0}, -1, cact_relu, -3, 3, true},
    {"relu6", {NULL}, {6}, -1, cact_relu6, -4, 10, true},
    {"relu6", {"threshold"}, {2.5}, -1, cact_relu6, -4, 10, true},
    {"sigmoid", {NULL}, {0}, -1, cact_sigmoid, -12, 12, false},
    {"tanh", {NULL}, {0}, -1, cact_tanh, -6, 6, false},
    {"exp", {NULL}, {0}, -1, cact_exp, -20, 20, false},
    {"sqrt", {NULL}, {0}, -1, cact_sqrt, 0, 50, true},
    {"abs", {NULL}, {0}, -1, cact_abs, -5, 5, true},
    {"gelu", {NULL}, {0}, -1, cact_gelu, -6, 6, false},
    {"gelu", {NULL}, {0}, 0, cact_gelu, -6, 6, false},
    {"gelu", {NULL}, {0}, 1, cact_gelu_tanh, -6, 6, false},
    {"swish", {NULL}, {1}, -1, cact_swish, -8, 8, false},
    {"swish", {"beta"}, {2.5}, -1, cact_swish, -8, 8, false},
    {"hard_swish", {NULL}, {6, 6, 3}, -1, cact_hard_swish, -5, 5, true},
    {"hard_swish", {"threshold", "scale", "offset"}, {5, 4, 2}, -1, cact_hard_swish, -5, 5, true},
    {"hard_sigmoid", {NULL}, {0.2, 0.5}, -1, cact_hard_sigmoid, -5, 5, true},
    {"hard_sigmoid", {"slope", "offset"}, {0.1666667, 0.5}, -1, cact_hard_sigmoid, -5, 5, true},
    {"leaky_relu", {NULL}, {0.02}, -1, cact_leaky_relu, -5, 5, true},
    {"leaky_relu", {"alpha"}, {0.1}, -1, cact_leaky_relu, -5, 5, true},
    {"leaky_relu", {"alpha"}, {1.5}, -1, cact_leaky_relu, -5, 5, true},
    {"leaky_relu", {"alpha"}, {-0.5}, -1, cact_leaky_relu, -5, 5, true},
};
#define CACT_N_CASES (sizeof cact_cases / sizeof cact_cases[0])

#endif
