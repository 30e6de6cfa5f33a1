/* PIR JSON programs over LoD tensors: the pd_ops Paddle 3.3.1 emits translating a
 * ProgramDesc whose kernels read their input's LoD (sequence_pool, sequence_conv,
 * sequence_expand, sequence_softmax, fusion_gru, fusion_lstm, attention_lstm,
 * fusion_seqpool_concat, fusion_seqpool_cvm_concat, match_matrix_tensor), each run by Paddle
 * on LoD feeds (tests/data/pir/lod8, written by tools/gen_pir_pairs.py export_lod8): icore
 * reads model.json and gives Paddle's values (float within 1e-5, integers exactly) and
 * Paddle's output LoD in every executor configuration (tu_run_scope). */
#define SEQ_DIR "pir/lod8"
#define SEQ_SUITE "pir_lod"
#define SEQ_MIN_CASES 3
#define SEQ_TOOL "tools/gen_pir_pairs.py (export_lod8)"
#define SEQ_MODEL "model.json"
#include "test_paddle_seq.c"
