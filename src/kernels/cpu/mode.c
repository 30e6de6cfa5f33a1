/* mode: along `axis` (default -1) of X, the most frequent value into Out and a position of it
 * into Indices (int64); `keepdim` keeps the axis with size 1. As Paddle's kernel
 * (paddle/phi/kernels/funcs/mode.h GetMode): the row is ordered by libstdc++'s std::sort
 * (a NaN above every number), runs of equal values counted in that order, the first longest
 * run wins (so the smallest of the most frequent values), and its position is that of the
 * run's last element in the sorted order. A NaN equals nothing, so it is a run of one. A 0-D
 * X gives itself and 0. float32, float64, int32, int64. */
#include <string.h>

#include "kernels/cpu/shapeops.h"
#include "kernels/cpu/sortutil.h"

typedef struct mode_attrs {
  int64_t axis;
  bool keepdim;
} mode_attrs;

static const ic_slotdef k_inputs[1] = {{"X", 0}};
static const ic_slotdef k_outputs[2] = {{"Out", 0}, {"Indices", 0}};

static ic_status parse(ic_attr_reader *r, void *attrs) {
  mode_attrs *a = attrs;
  a->axis = ic_ar_int(r, "axis", -1);
  a->keepdim = ic_ar_bool(r, "keepdim", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  const mode_attrs *a = c->attrs;
  int ax;
  return ic_kth_infer(c, a->axis, a->keepdim, &ax);
}

static bool same(ic_dtype dt, const char *p, size_t es, int64_t i, int64_t j) {
  switch (dt) {
    case IC_FP32: { float u, v; memcpy(&u, p + i * es, 4); memcpy(&v, p + j * es, 4); return u == v; }
    case IC_FP64: { double u, v; memcpy(&u, p + i * es, 8); memcpy(&v, p + j * es, 8); return u == v; }
    case IC_INT32: { int32_t u, v; memcpy(&u, p + i * es, 4); memcpy(&v, p + j * es, 4); return u == v; }
    default: { int64_t u, v; memcpy(&u, p + i * es, 8); memcpy(&v, p + j * es, 8); return u == v; }
  }
}

/* The most frequent value of a row (the smallest of equally frequent ones: the first such run
 * in ascending order), its position the last of its run in Paddle's sort. */
static int64_t pick_mode(const ic_kctx *c, const char *row, int64_t stride, int64_t len,
                         int64_t *idx) {
  const ic_dtype dt = ic_in(c, 0, 0)->dtype;
  const size_t es = ic_dtype_size(dt);
  ic_std_order_row(dt, row, stride, len, len, false, IC_SORT_STD, idx);
  int64_t best = 0, best_freq = 0, freq = 0;
  for (int64_t j = 0; j < len; j++) {
    freq++;
    if (j == len - 1 || !same(dt, row, es * (size_t)stride, idx[j + 1], idx[j])) {
      if (freq > best_freq) {
        best_freq = freq;
        best = idx[j];
      }
      freq = 0;
    }
  }
  return best;
}

static ic_status run(ic_kctx *c) {
  const mode_attrs *a = c->attrs;
  return ic_kth_run(c, a->axis, pick_mode);
}

const ic_opdef ic_op_mode = {
    .name = "mode", .n_inputs = 1, .inputs = k_inputs, .n_outputs = 2, .outputs = k_outputs,
    .attrs_size = sizeof(mode_attrs), .parse = parse, .infer = infer, .cpu = run,
};
