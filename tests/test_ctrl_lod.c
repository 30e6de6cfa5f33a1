/* fluid's DynamicRNN pattern and the LoD tensor-array ops (lod_rank_table, max_sequence_len,
 * lod_tensor_to_array, array_to_lod_tensor, reorder_lod_tensor_by_rank, shrink_rnn_memory),
 * the legacy NMS ops with their per-image split as LoD (multiclass_nms, multiclass_nms2), warpctc
 * over LoD logits and labels,
 * in programs run by PaddlePaddle 2.6.2 itself (tests/data/paddle_ctrl_lod, written by
 * tools/gen_ctrl_oracle.py): icore gives Paddle's values (float within 1e-5, integers
 * exactly) and Paddle's output LoD in every executor configuration, bitwise equal among
 * them (tu_run_scope), and on the emulated device emu:0 bitwise the host's values and LoD. */
#define SEQ_DIR "paddle_ctrl_lod"
#define SEQ_SUITE "ctrl_lod"
#define SEQ_MIN_CASES 90
#define SEQ_TOOL "tools/gen_ctrl_oracle.py (Paddle 2.6.2)"
#define SEQ_EMU 1
#include "interp/interp.h" /* ic_executor_emu_testing */
#include "test_paddle_seq.c"
