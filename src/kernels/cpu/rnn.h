/* rnn's attributes, shared by the CPU kernel (rnn.c) and the CUDA kernel (cuda/rnn.cu). */
#ifndef IC_KERNELS_CPU_RNN_H
#define IC_KERNELS_CPU_RNN_H

#include <stdbool.h>
#include <stdint.h>

enum { MODE_LSTM, MODE_GRU, MODE_RNN_TANH, MODE_RNN_RELU };

typedef struct rnn_attrs {
  int mode;        /* MODE_* */
  bool bidirec;
  bool is_test;
  int64_t hidden;  /* H */
  int64_t layers;  /* L */
} rnn_attrs;

#endif
