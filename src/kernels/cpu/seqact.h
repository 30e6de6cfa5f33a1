/* Activations of Paddle's fused recurrent ops (gru, lstm: paddle/phi/kernels/funcs/detail/
 * activation_functions.h), by name: sigmoid clips its input to [-40, 13], tanh computes
 * 2 / (1 + e^(-2x)) - 1 with -2x clipped at 40, relu, identity. Shared by gru.c and lstm.c.
 * The gradients (ic_seqact_grad) take the upstream gradient g and the activation's output y,
 * as Paddle's do: sigmoid g y (1 - y), tanh g (1 - y^2), relu g where y > 0, identity g;
 * shared by gru_grad.c and lstm_grad.c. */
#ifndef IC_KERNELS_CPU_SEQACT_H
#define IC_KERNELS_CPU_SEQACT_H

#include <math.h>
#include <string.h>

#include "kernels/kernel.h"

enum { SEQACT_IDENTITY, SEQACT_SIGMOID, SEQACT_TANH, SEQACT_RELU };

/* Parse attribute `name` (default dflt) into *out; fails the reader on an unknown name. */
static inline ic_status ic_seqact_parse(ic_attr_reader *r, const char *name, const char *dflt,
                                        int *out) {
  const char *s = ic_ar_str(r, name, dflt);
  if (r->st) return r->st;
  if (!strcmp(s, "sigmoid")) *out = SEQACT_SIGMOID;
  else if (!strcmp(s, "tanh")) *out = SEQACT_TANH;
  else if (!strcmp(s, "relu")) *out = SEQACT_RELU;
  else if (!strcmp(s, "identity") || !strcmp(s, "linear") || !s[0]) *out = SEQACT_IDENTITY;
  else return ic_ar_fail(r, name, "is \"%s\", expected sigmoid, tanh, relu or identity", s);
  return IC_OK;
}

static inline double ic_seqact(int act, double v) {
  switch (act) {
    case SEQACT_SIGMOID: {
      double t = v < -40.0 ? -40.0 : v > 13.0 ? 13.0 : v;
      return 1.0 / (1.0 + exp(-t));
    }
    case SEQACT_TANH: {
      double t = -2.0 * v;
      t = t > 40.0 ? 40.0 : t;
      return 2.0 / (1.0 + exp(t)) - 1.0;
    }
    case SEQACT_RELU: return v > 0 ? v : 0;
    default: return v;
  }
}

static inline float ic_seqactf(int act, float v) {
  switch (act) {
    case SEQACT_SIGMOID: {
      float t = v < -40.0f ? -40.0f : v > 13.0f ? 13.0f : v;
      return 1.0f / (1.0f + expf(-t));
    }
    case SEQACT_TANH: {
      float t = -2.0f * v;
      t = t > 40.0f ? 40.0f : t;
      return 2.0f / (1.0f + expf(t)) - 1.0f;
    }
    case SEQACT_RELU: return v > 0 ? v : 0;
    default: return v;
  }
}

#define IC_SEQACT_GRAD(T, NAME)                                                  \
  static inline T NAME(int act, T g, T y) {                                     \
    switch (act) {                                                              \
      case SEQACT_SIGMOID: return g * y * ((T)1 - y);                           \
      case SEQACT_TANH: return g * ((T)1 - y * y);                              \
      case SEQACT_RELU: return y > 0 ? g : (T)0 * g;                            \
      default: return g;                                                        \
    }                                                                           \
  }
IC_SEQACT_GRAD(double, ic_seqact_grad)
IC_SEQACT_GRAD(float, ic_seqact_gradf)
#undef IC_SEQACT_GRAD

/* The activations of Paddle's jit kernels (phi/kernels/funcs/jit/refer: VSigmoid, VTanh,
 * VRelu, VIdentity), which fusion_gru and fusion_lstm use: sigmoid as above, but tanh is
 * 2 sigmoid(2x) - 1 with 2x clipped to [-40, 13] like sigmoid's input. */
#define IC_SEQACT_JIT(T, NAME, EXP)                                                     \
  static inline T NAME(int act, T v) {                                                  \
    switch (act) {                                                                      \
      case SEQACT_SIGMOID: {                                                            \
        T t = v < (T)-40 ? (T)-40 : v > (T)13 ? (T)13 : v;                              \
        return (T)1 / ((T)1 + EXP(-t));                                                 \
      }                                                                                 \
      case SEQACT_TANH: {                                                               \
        T t = (T)2 * v;                                                                 \
        t = t < (T)-40 ? (T)-40 : t > (T)13 ? (T)13 : t;                                \
        return (T)2 * ((T)1 / ((T)1 + EXP(-t))) - (T)1;                                 \
      }                                                                                 \
      case SEQACT_RELU: return v > (T)0 ? v : (T)0;                                     \
      default: return v;                                                                \
    }                                                                                   \
  }
IC_SEQACT_JIT(double, ic_seqact_jit, exp)
IC_SEQACT_JIT(float, ic_seqact_jitf, expf)

#endif
