/* Bad input for the legacy ops of quantized models, old NLP programs, detection evaluation
 * and PaddleRec TDM (dequantize_abs_max, dequantize_log, lookup_table_dequant, quantize,
 * dequantize, requantize, sequence_scatter, add_position_encoding, similarity_focus,
 * match_matrix_tensor, var_conv_2d, attention_lstm, pyramid_hash, detection_map, tdm_child,
 * tdm_sampler):
 * wrong dtypes, ranks, LoD and attributes give errors naming the op, the variable and what
 * was expected. Their values are checked against Paddle itself (tests/data/paddle_oracle
 * lm_*, tests/data/paddle_ctrl_lod l7_*). */
#include "optest.h"

static ic_tensor *lod1(ic_tensor *t, size_t n, const uint64_t *off) {
  const uint64_t *lv[1] = {off};
  ck_assert_int_eq(ic_tensor_set_lod(t, 1, &n, lv), IC_OK);
  return t;
}

static ic_tensor *typed(ic_dtype dt, int ndim, const int64_t *dims) {
  return ot_iota(dt, ndim, dims, 1);
}

/* Run t, expect code and a message holding every needle (NULL-terminated). */
#define EXPECT(t, code, ...)                                                     \
  do {                                                                           \
    ic_status st_ = ot_run(t);                                                   \
    ck_assert_msg(st_ == (code), "got %s: %s", ic_status_name(st_), (t)->err);  \
    tu_assert_msg((t)->err, __VA_ARGS__, NULL);                                  \
    ot_end(t);                                                                   \
  } while (0)

START_TEST(quantized_model_ops) {
  optest t;
  /* dequantize_abs_max takes int8 / int16 only */
  ot_begin(&t);
  ot_feed(&t, "x", tu_f32(1, TU_DIMS(2), (const float[]){1, 2}));
  ot_feed(&t, "s", tu_f32(1, TU_DIMS(1), (const float[]){1}));
  ic_builder_op *o = ot_op(&t, "dequantize_abs_max");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Scale", "s");
  ic_builder_attr_float(o, "max_range", 127);
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "dequantize_abs_max", "X 'x'", "int8", NULL);
  /* dequantize_log needs the 128-entry Dict */
  ot_begin(&t);
  ot_feed(&t, "x", typed(IC_INT8, 1, TU_DIMS(4)));
  ot_feed(&t, "d", tu_rand_f32(1, TU_DIMS(64), 3, 0, 1));
  o = ot_op(&t, "dequantize_log");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Dict", "d");
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "dequantize_log", "Dict 'd'", "128 entries");
  /* lookup_table_dequant: an id past W's rows */
  ot_begin(&t);
  ot_feed(&t, "w", tu_rand_f32(2, TU_DIMS(3, 4), 4, 0, 1));
  ot_feed(&t, "ids", tu_i64(2, TU_DIMS(2, 1), (const int64_t[]){1, 3}));
  o = ot_op(&t, "lookup_table_dequant");
  ic_builder_in(o, "W", "w");
  ic_builder_in(o, "Ids", "ids");
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "lookup_table_dequant", "Ids 'ids'", "id 3", "0 to 2");
  /* ... and Ids whose last dimension is not 1 */
  ot_begin(&t);
  ot_feed(&t, "w", tu_rand_f32(2, TU_DIMS(3, 4), 4, 0, 1));
  ot_feed(&t, "ids", tu_i64(1, TU_DIMS(2), (const int64_t[]){1, 2}));
  o = ot_op(&t, "lookup_table_dequant");
  ic_builder_in(o, "W", "w");
  ic_builder_in(o, "Ids", "ids");
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "lookup_table_dequant", "Ids 'ids'", "last dimension of 1");
  /* quantize: a zero scale */
  ot_begin(&t);
  ot_feed(&t, "x", tu_f32(1, TU_DIMS(2), (const float[]){1, 2}));
  o = ot_op(&t, "quantize");
  ic_builder_in(o, "Input", "x");
  ic_builder_attr_float(o, "Scale", 0);
  ot_out(&t, "Output", "y");
  EXPECT(&t, IC_ERR_INVALID_PROGRAM, "quantize", "'Scale'", "nonzero");
  /* quantize: a shift past 255 */
  ot_begin(&t);
  ot_feed(&t, "x", tu_f32(1, TU_DIMS(2), (const float[]){1, 2}));
  o = ot_op(&t, "quantize");
  ic_builder_in(o, "Input", "x");
  ic_builder_attr_float(o, "Shift", 300);
  ot_out(&t, "Output", "y");
  EXPECT(&t, IC_ERR_INVALID_PROGRAM, "quantize", "'Shift'", "0 to 255");
  /* dequantize of a float tensor */
  ot_begin(&t);
  ot_feed(&t, "x", tu_f32(1, TU_DIMS(2), (const float[]){1, 2}));
  o = ot_op(&t, "dequantize");
  ic_builder_in(o, "Input", "x");
  ic_builder_attr_float(o, "Scale", 2);
  ot_out(&t, "Output", "y");
  EXPECT(&t, IC_ERR_SHAPE, "dequantize", "Input 'x'", "uint8");
  /* requantize: a shifted int8 input */
  ot_begin(&t);
  ot_feed(&t, "x", typed(IC_INT8, 1, TU_DIMS(4)));
  o = ot_op(&t, "requantize");
  ic_builder_in(o, "Input", "x");
  ic_builder_attr_float(o, "Scale_in", 2);
  ic_builder_attr_float(o, "Scale_out", 3);
  ic_builder_attr_float(o, "Shift_in", 128);
  ot_out(&t, "Output", "y");
  EXPECT(&t, IC_ERR_SHAPE, "requantize", "Input 'x'", "expected uint8", "Shift_in");
}
END_TEST

START_TEST(nlp_ops) {
  optest t;
  /* sequence_scatter: Ids without LoD */
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(2, TU_DIMS(2, 3), 5, -1, 1));
  ot_feed(&t, "ids", tu_i64(2, TU_DIMS(2, 1), (const int64_t[]){0, 2}));
  ot_feed(&t, "u", lod1(tu_rand_f32(2, TU_DIMS(2, 1), 6, -1, 1), 3, (const uint64_t[]){0, 1, 2}));
  ic_builder_op *o = ot_op(&t, "sequence_scatter");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Ids", "ids");
  ic_builder_in(o, "Updates", "u");
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "sequence_scatter", "Ids 'ids'", "one-level LoD");
  /* sequence_scatter: a column past X's row */
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(2, TU_DIMS(2, 3), 5, -1, 1));
  ot_feed(&t, "ids", lod1(tu_i64(2, TU_DIMS(2, 1), (const int64_t[]){0, 3}), 3,
                          (const uint64_t[]){0, 1, 2}));
  ot_feed(&t, "u", lod1(tu_rand_f32(2, TU_DIMS(2, 1), 6, -1, 1), 3, (const uint64_t[]){0, 1, 2}));
  o = ot_op(&t, "sequence_scatter");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Ids", "ids");
  ic_builder_in(o, "Updates", "u");
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "sequence_scatter", "Ids 'ids'", "holds 3", "0 to 2");
  /* add_position_encoding: an odd encoding size */
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(3, TU_DIMS(1, 2, 3), 7, -1, 1));
  o = ot_op(&t, "add_position_encoding");
  ic_builder_in(o, "X", "x");
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "add_position_encoding", "X 'x'", "even");
  /* add_position_encoding: rank 2 without LoD */
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(2, TU_DIMS(2, 4), 7, -1, 1));
  o = ot_op(&t, "add_position_encoding");
  ic_builder_in(o, "X", "x");
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "add_position_encoding", "X 'x'", "rank 3");
  /* similarity_focus: axis 0 */
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(4, TU_DIMS(1, 2, 2, 2), 8, -1, 1));
  o = ot_op(&t, "similarity_focus");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_int(o, "axis", 0);
  ic_builder_attr_ints(o, "indexes", 1, (const int32_t[]){0});
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_INVALID_PROGRAM, "similarity_focus", "'axis'", "1, 2 or 3");
  /* similarity_focus: an index past the axis */
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(4, TU_DIMS(1, 2, 2, 2), 8, -1, 1));
  o = ot_op(&t, "similarity_focus");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_int(o, "axis", 2);
  ic_builder_attr_ints(o, "indexes", 1, (const int32_t[]){2});
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "similarity_focus", "X 'x'", "indexes holds 2");
  /* match_matrix_tensor: X and Y split into different numbers of sequences */
  ot_begin(&t);
  ot_feed(&t, "x", lod1(tu_rand_f32(2, TU_DIMS(3, 2), 9, -1, 1), 3, (const uint64_t[]){0, 1, 3}));
  ot_feed(&t, "yy", lod1(tu_rand_f32(2, TU_DIMS(3, 2), 9, -1, 1), 2, (const uint64_t[]){0, 3}));
  ot_feed(&t, "w", tu_rand_f32(3, TU_DIMS(2, 1, 2), 10, -1, 1));
  o = ot_op(&t, "match_matrix_tensor");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Y", "yy");
  ic_builder_in(o, "W", "w");
  ic_builder_out(o, "Tmp", "tmp");
  ic_builder_var(t.b, 0, "tmp", IC_FP32, 0, NULL, false);
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "match_matrix_tensor", "Y 'yy'", "1 sequences", "expected 2");
  /* var_conv_2d: W of the wrong width */
  ot_begin(&t);
  ot_feed(&t, "x", lod1(tu_rand_f32(2, TU_DIMS(4, 1), 11, -1, 1), 2, (const uint64_t[]){0, 4}));
  ot_feed(&t, "r", lod1(tu_rand_f32(2, TU_DIMS(2, 1), 11, -1, 1), 2, (const uint64_t[]){0, 2}));
  ot_feed(&t, "c", lod1(tu_rand_f32(2, TU_DIMS(2, 1), 11, -1, 1), 2, (const uint64_t[]){0, 2}));
  ot_feed(&t, "w", tu_rand_f32(2, TU_DIMS(1, 4), 12, -1, 1));
  o = ot_op(&t, "var_conv_2d");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "ROW", "r");
  ic_builder_in(o, "COLUMN", "c");
  ic_builder_in(o, "W", "w");
  ic_builder_attr_int(o, "KernelH", 3);
  ic_builder_attr_int(o, "KernelW", 3);
  ic_builder_out(o, "Col", "col");
  ic_builder_var(t.b, 0, "col", IC_FP32, 0, NULL, false);
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "var_conv_2d", "W 'w'", "expected [1, 9]");
  /* attention_lstm: X without LoD */
  ot_begin(&t);
  ot_feed(&t, "x", tu_rand_f32(2, TU_DIMS(3, 2), 13, -1, 1));
  ot_feed(&t, "c0", tu_rand_f32(2, TU_DIMS(1, 1), 13, -1, 1));
  ot_feed(&t, "aw", tu_rand_f32(2, TU_DIMS(3, 1), 13, -1, 1));
  ot_feed(&t, "lw", tu_rand_f32(2, TU_DIMS(3, 4), 13, -1, 1));
  ot_feed(&t, "lb", tu_rand_f32(2, TU_DIMS(1, 4), 13, -1, 1));
  o = ot_op(&t, "attention_lstm");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "C0", "c0");
  ic_builder_in(o, "AttentionWeight", "aw");
  ic_builder_in(o, "LSTMWeight", "lw");
  ic_builder_in(o, "LSTMBias", "lb");
  ic_builder_out(o, "Cell", "cell");
  ic_builder_var(t.b, 0, "cell", IC_FP32, 0, NULL, false);
  ot_out(&t, "Hidden", "h");
  EXPECT(&t, IC_ERR_SHAPE, "attention_lstm", "X 'x'", "one-level LoD");
  /* attention_lstm: an activation Paddle's vector kernels lack */
  ot_begin(&t);
  ot_feed(&t, "x", lod1(tu_rand_f32(2, TU_DIMS(3, 2), 13, -1, 1), 2, (const uint64_t[]){0, 3}));
  o = ot_op(&t, "attention_lstm");
  ic_builder_in(o, "X", "x");
  ic_builder_attr_string(o, "cell_activation", "linear");
  ot_out(&t, "Hidden", "h");
  EXPECT(&t, IC_ERR_INVALID_PROGRAM, "attention_lstm", "'cell_activation'", "linear");
  /* pyramid_hash: a white list that is not a bloom filter */
  ot_begin(&t);
  ot_feed(&t, "x", lod1(tu_i32(2, TU_DIMS(3, 1), (const int32_t[]){1, 2, 3}), 2,
                        (const uint64_t[]){0, 3}));
  ot_feed(&t, "w", tu_rand_f32(2, TU_DIMS(12, 1), 15, -1, 1));
  ot_feed(&t, "wl", tu_rand_f32(2, TU_DIMS(10, 1), 16, -1, 1));
  o = ot_op(&t, "pyramid_hash");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "W", "w");
  ic_builder_in(o, "WhiteList", "wl");
  ic_builder_attr_int(o, "num_emb", 4);
  ic_builder_attr_int(o, "space_len", 10);
  ic_builder_attr_int(o, "rand_len", 2);
  ic_builder_attr_bool(o, "use_filter", true);
  ic_builder_attr_int(o, "white_list_len", 10);
  ic_builder_out(o, "DropPos", "dp");
  ic_builder_var(t.b, 0, "dp", IC_FP32, 0, NULL, false);
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "pyramid_hash", "WhiteList 'wl'", "bloom filter");
  /* pyramid_hash: use_filter with a black list length but no BlackList */
  ot_begin(&t);
  ot_feed(&t, "x", lod1(tu_i32(2, TU_DIMS(3, 1), (const int32_t[]){1, 2, 3}), 2,
                        (const uint64_t[]){0, 3}));
  ot_feed(&t, "w", tu_rand_f32(2, TU_DIMS(12, 1), 15, -1, 1));
  o = ot_op(&t, "pyramid_hash");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "W", "w");
  ic_builder_attr_int(o, "num_emb", 4);
  ic_builder_attr_int(o, "space_len", 10);
  ic_builder_attr_int(o, "rand_len", 2);
  ic_builder_attr_bool(o, "use_filter", true);
  ic_builder_attr_int(o, "black_list_len", 4);
  ic_builder_out(o, "DropPos", "dp");
  ic_builder_var(t.b, 0, "dp", IC_FP32, 0, NULL, false);
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "pyramid_hash", "BlackList is absent", "length 4");
  /* pyramid_hash: W not [space_len + rand_len, 1] */
  ot_begin(&t);
  ot_feed(&t, "x", lod1(tu_i32(2, TU_DIMS(3, 1), (const int32_t[]){1, 2, 3}), 2,
                        (const uint64_t[]){0, 3}));
  ot_feed(&t, "w", tu_rand_f32(2, TU_DIMS(10, 1), 15, -1, 1));
  o = ot_op(&t, "pyramid_hash");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "W", "w");
  ic_builder_attr_int(o, "num_emb", 4);
  ic_builder_attr_int(o, "space_len", 10);
  ic_builder_attr_int(o, "rand_len", 2);
  ic_builder_attr_bool(o, "use_filter", false);
  ic_builder_out(o, "DropPos", "dp");
  ic_builder_var(t.b, 0, "dp", IC_FP32, 0, NULL, false);
  ot_out(&t, "Out", "y");
  EXPECT(&t, IC_ERR_SHAPE, "pyramid_hash", "W 'w'", "[12, 1]");
}
END_TEST

START_TEST(detection_and_tdm_ops) {
  optest t;
  /* detection_map: Label rows of 4 */
  ot_begin(&t);
  ot_feed(&t, "d", lod1(tu_rand_f32(2, TU_DIMS(2, 6), 14, 0, 1), 2, (const uint64_t[]){0, 2}));
  ot_feed(&t, "l", lod1(tu_rand_f32(2, TU_DIMS(2, 4), 14, 0, 1), 2, (const uint64_t[]){0, 2}));
  ic_builder_op *o = ot_op(&t, "detection_map");
  ic_builder_in(o, "DetectRes", "d");
  ic_builder_in(o, "Label", "l");
  ic_builder_attr_int(o, "class_num", 3);
  ic_builder_out(o, "AccumPosCount", "pc");
  ic_builder_out(o, "AccumTruePos", "tp");
  ic_builder_out(o, "AccumFalsePos", "fp");
  for (int k = 0; k < 3; k++) {
    ic_builder_var(t.b, 0, (const char *[]){"pc", "tp", "fp"}[k], IC_FP32, 0, NULL, false);
  }
  ot_out(&t, "MAP", "map");
  EXPECT(&t, IC_ERR_SHAPE, "detection_map", "Label 'l'", "[N, 6]");
  /* detection_map: an unknown ap_type */
  ot_begin(&t);
  ot_feed(&t, "d", lod1(tu_rand_f32(2, TU_DIMS(2, 6), 14, 0, 1), 2, (const uint64_t[]){0, 2}));
  o = ot_op(&t, "detection_map");
  ic_builder_in(o, "DetectRes", "d");
  ic_builder_attr_int(o, "class_num", 3);
  ic_builder_attr_string(o, "ap_type", "voc");
  ot_out(&t, "MAP", "map");
  EXPECT(&t, IC_ERR_INVALID_PROGRAM, "detection_map", "'ap_type'", "11point");
  /* tdm_child: float ids */
  ot_begin(&t);
  ot_feed(&t, "x", tu_f32(2, TU_DIMS(1, 1), (const float[]){1}));
  ot_feed(&t, "ti", typed(IC_INT64, 2, TU_DIMS(3, 5)));
  o = ot_op(&t, "tdm_child");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "TreeInfo", "ti");
  ic_builder_out(o, "LeafMask", "m");
  ic_builder_var(t.b, 0, "m", IC_FP32, 0, NULL, false);
  ot_out(&t, "Child", "ch");
  EXPECT(&t, IC_ERR_SHAPE, "tdm_child", "X 'x'", "int32");
  /* tdm_child: a node id past the tree */
  ot_begin(&t);
  ot_feed(&t, "x", tu_i64(2, TU_DIMS(1, 1), (const int64_t[]){5}));
  ot_feed(&t, "ti", tu_i64(2, TU_DIMS(3, 5), (const int64_t[15]){0}));
  o = ot_op(&t, "tdm_child");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "TreeInfo", "ti");
  ic_builder_out(o, "LeafMask", "m");
  ic_builder_var(t.b, 0, "m", IC_FP32, 0, NULL, false);
  ot_out(&t, "Child", "ch");
  EXPECT(&t, IC_ERR_SHAPE, "tdm_child", "X 'x'", "holds 5", "0 to 2");
  /* tdm_sampler: more negatives than a layer has */
  ot_begin(&t);
  ot_feed(&t, "x", tu_i64(2, TU_DIMS(1, 1), (const int64_t[]){0}));
  ot_feed(&t, "tr", tu_i64(2, TU_DIMS(1, 1), (const int64_t[]){1}));
  ot_feed(&t, "ly", tu_i64(2, TU_DIMS(2, 1), (const int64_t[]){1, 2}));
  o = ot_op(&t, "tdm_sampler");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Travel", "tr");
  ic_builder_in(o, "Layer", "ly");
  ic_builder_attr_ints(o, "neg_samples_num_list", 1, (const int32_t[]){2});
  ic_builder_attr_ints(o, "layer_offset_lod", 2, (const int32_t[]){0, 2});
  ic_builder_attr_int(o, "seed", 1);
  ic_builder_out(o, "Labels", "lab");
  ic_builder_out(o, "Mask", "mask");
  ic_builder_var(t.b, 0, "lab", IC_FP32, 0, NULL, false);
  ic_builder_var(t.b, 0, "mask", IC_FP32, 0, NULL, false);
  ot_out(&t, "Out", "out");
  EXPECT(&t, IC_ERR_INVALID_PROGRAM, "tdm_sampler", "'neg_samples_num_list'", "at most 1");
  /* tdm_sampler: an item past Travel */
  ot_begin(&t);
  ot_feed(&t, "x", tu_i64(2, TU_DIMS(1, 1), (const int64_t[]){4}));
  ot_feed(&t, "tr", tu_i64(2, TU_DIMS(1, 1), (const int64_t[]){1}));
  ot_feed(&t, "ly", tu_i64(2, TU_DIMS(2, 1), (const int64_t[]){1, 2}));
  o = ot_op(&t, "tdm_sampler");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Travel", "tr");
  ic_builder_in(o, "Layer", "ly");
  ic_builder_attr_ints(o, "neg_samples_num_list", 1, (const int32_t[]){1});
  ic_builder_attr_ints(o, "layer_offset_lod", 2, (const int32_t[]){0, 2});
  ic_builder_attr_int(o, "seed", 1);
  ic_builder_out(o, "Labels", "lab");
  ic_builder_out(o, "Mask", "mask");
  ic_builder_var(t.b, 0, "lab", IC_FP32, 0, NULL, false);
  ic_builder_var(t.b, 0, "mask", IC_FP32, 0, NULL, false);
  ot_out(&t, "Out", "out");
  EXPECT(&t, IC_ERR_SHAPE, "tdm_sampler", "X 'x'", "holds 4", "0 to 0");
}
END_TEST

static TCase *tc_l7(void) {
  TCase *tc = tcase_create("l7");
  tcase_add_test(tc, quantized_model_ops);
  tcase_add_test(tc, nlp_ops);
  tcase_add_test(tc, detection_and_tdm_ops);
  return tc;
}

TU_MAIN("ops_l7", tc_l7)
