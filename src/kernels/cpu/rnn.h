/* rnn's attributes, shared by the CPU kernels (rnn.c, rnn_grad.c) and the CUDA kernel
 * (cuda/rnn.cu), and the layout of the Reserve output that the CPU forward writes in training
 * (is_test false) and rnn_grad reads. */
#ifndef IC_KERNELS_CPU_RNN_H
#define IC_KERNELS_CPU_RNN_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MODE_LSTM, MODE_GRU, MODE_RNN_TANH, MODE_RNN_RELU };

typedef struct rnn_attrs {
  int mode;        /* MODE_* */
  bool bidirec;
  bool is_test;
  int64_t hidden;  /* H */
  int64_t layers;  /* L */
  double dropout;  /* dropout_prob: between layers, in training only */
} rnn_attrs;

/* Parse rnn's (and rnn_grad's) attributes (rnn.c). */
ic_status ic_rnn_parse(ic_attr_reader *r, void *attrs);

/* Reserve in training: icore's own layout (Paddle's rnn_grad is never given it), a uint8
 * tensor holding elements of Input's dtype:
 *   for each layer l < L - 1: its output Y_l [T, B, D * H] (the next layer's input);
 *   for each layer l and direction d (row l * D + d), a block of T * B * (G + 3H):
 *     A  [T, B, G]  the activated gates of every step (LSTM: i, f, c~, o; GRU: r, z, c~;
 *                   RNN_*: the new h)
 *     C  [T, B, H]  LSTM: the new cell; GRU: W_hh,c h + b_hh,c (the part r multiplies)
 *     HP [T, B, H]  the hidden state the step started from
 *     CP [T, B, H]  LSTM: the cell the step started from
 *   Rows of steps past a sequence's length are zero. */
static inline int64_t ic_rnn_gates(const rnn_attrs *a) {
  return (a->mode == MODE_LSTM ? 4 : a->mode == MODE_GRU ? 3 : 1) * a->hidden;
}
static inline int64_t ic_rnn_block(const rnn_attrs *a, int64_t T, int64_t B) {
  return T * B * (ic_rnn_gates(a) + 3 * a->hidden);
}
static inline int64_t ic_rnn_reserve_elems(const rnn_attrs *a, int64_t T, int64_t B) {
  const int64_t D = a->bidirec ? 2 : 1;
  return (a->layers - 1) * T * B * D * a->hidden + a->layers * D * ic_rnn_block(a, T, B);
}

#ifdef __cplusplus
}
#endif

#endif
