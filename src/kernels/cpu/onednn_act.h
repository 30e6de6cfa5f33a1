/* The activations Paddle's oneDNN fused ops append as a post-op (fuse_activation with
 * fuse_alpha, fuse_beta: phi/backends/onednn/onednn_reuse.h OneDNNActivationMap), with
 * oneDNN's eltwise definitions: abs; clip and relu6 clamp to [alpha, beta]; gelu / gelu_erf
 * x/2 (1 + erf(x / sqrt 2)); gelu_tanh x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)));
 * hard_sigmoid max(0, min(1, alpha x + beta)); hard_swish x times that; relu and leaky_relu
 * x > 0 ? x : alpha x; mish x tanh(log(1 + e^x)); sigmoid; sqrt; swish x / (1 + e^(-alpha x));
 * tanh. Shared by fused_matmul.c and fused_softplus.c; computed in double. */
#ifndef IC_KERNELS_CPU_ONEDNN_ACT_H
#define IC_KERNELS_CPU_ONEDNN_ACT_H

#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

enum {
  IC_ODA_NONE, IC_ODA_ABS, IC_ODA_CLIP, IC_ODA_GELU_ERF, IC_ODA_GELU_TANH, IC_ODA_HSIGMOID,
  IC_ODA_HSWISH, IC_ODA_RELU, IC_ODA_MISH, IC_ODA_SIGMOID, IC_ODA_SQRT, IC_ODA_SWISH,
  IC_ODA_TANH
};

typedef struct ic_oda {
  int act;
  double alpha, beta; /* Paddle's float attributes, widened */
} ic_oda;

static inline ic_status ic_oda_parse(ic_attr_reader *r, ic_oda *o) {
  static const struct {
    const char *name;
    int act;
  } map[] = {{"", IC_ODA_NONE},           {"abs", IC_ODA_ABS},
             {"clip", IC_ODA_CLIP},       {"relu6", IC_ODA_CLIP},
             {"gelu", IC_ODA_GELU_ERF},   {"gelu_erf", IC_ODA_GELU_ERF},
             {"gelu_tanh", IC_ODA_GELU_TANH}, {"hard_sigmoid", IC_ODA_HSIGMOID},
             {"hard_swish", IC_ODA_HSWISH}, {"leaky_relu", IC_ODA_RELU},
             {"relu", IC_ODA_RELU},       {"mish", IC_ODA_MISH},
             {"sigmoid", IC_ODA_SIGMOID}, {"sqrt", IC_ODA_SQRT},
             {"swish", IC_ODA_SWISH},     {"tanh", IC_ODA_TANH}};
  const char *s = ic_ar_str(r, "fuse_activation", "");
  o->alpha = (float)ic_ar_float(r, "fuse_alpha", 0.0);
  o->beta = (float)ic_ar_float(r, "fuse_beta", 0.0);
  if (r->st) return r->st;
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
    if (!strcmp(s, map[i].name)) {
      o->act = map[i].act;
      return IC_OK;
    }
  }
  return ic_ar_fail(r, "fuse_activation",
                    "is \"%s\", expected one of oneDNN's: abs, clip, gelu, gelu_erf, gelu_tanh, "
                    "hard_sigmoid, hard_swish, leaky_relu, mish, relu, relu6, sigmoid, sqrt, "
                    "swish, tanh (or empty)",
                    s);
}

static inline double ic_oda_apply(const ic_oda *o, double x) {
  const double a = o->alpha, b = o->beta;
  switch (o->act) {
    case IC_ODA_ABS: return fabs(x);
    case IC_ODA_CLIP: return x <= a ? a : x > b ? b : x;
    case IC_ODA_GELU_ERF: return 0.5 * x * (1.0 + erf(x * 0.70710678118654752440));
    case IC_ODA_GELU_TANH:
      return 0.5 * x * (1.0 + tanh(0.79788456080286535588 * (x + 0.044715 * x * x * x)));
    case IC_ODA_HSIGMOID: {
      const double t = a * x + b;
      return t < 0 ? 0 : t > 1 ? 1 : t;
    }
    case IC_ODA_HSWISH: {
      const double t = a * x + b;
      return x * (t < 0 ? 0 : t > 1 ? 1 : t);
    }
    case IC_ODA_RELU: return x > 0 ? x : a * x;
    case IC_ODA_MISH: return x * tanh(log1p(exp(x)));
    case IC_ODA_SIGMOID: return 1.0 / (1.0 + exp(-x));
    case IC_ODA_SQRT: return sqrt(x);
    case IC_ODA_SWISH: return x / (1.0 + exp(-a * x));
    case IC_ODA_TANH: return tanh(x);
    default: return x;
  }
}

#endif
