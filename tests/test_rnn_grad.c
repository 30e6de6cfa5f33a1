/* fluid's LoD gru and lstm with their gradients (gru_grad, lstm_grad) in programs built and
 * run by PaddlePaddle 2.6.2 itself (tests/data/paddle_rnn_grad, written by
 * tools/gen_paddle_rnn_grad.py): loss = sum(Hidden * K) over Input with 3 sequences of lengths
 * 3, 1 and 5, and Paddle's backward. icore gives Paddle's forward outputs, the batch-ordered
 * intermediates included (values and Paddle's three-level batch LoD), and Paddle's gradient of
 * every input (Input, H0, C0, Weight, Bias), within 1e-5 relative for float32
 * (|icore - paddle| <= 1e-5 (|paddle| + 0.1 max|paddle|): values that float32 sums cancel
 * to near zero keep only an absolute accuracy) and 1e-10 for float64, in every executor
 * configuration, bitwise equal among them (tu_run_scope). */
#define SEQ_DIR "paddle_rnn_grad"
#define SEQ_SUITE "rnn_grad"
#define SEQ_MIN_CASES 18
#define SEQ_REL_FLOOR 0.1
#define SEQ_TOOL "tools/gen_paddle_rnn_grad.py (Paddle 2.6.2)"
#include "test_paddle_seq.c"
