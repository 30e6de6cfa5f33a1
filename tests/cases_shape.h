/* The case tables of the data-movement ops with CUDA kernels: transpose2, concat, split and slice.
 * Header-only so that every backend's suite runs the same cases: the CPU suites
 * (tests/test_ops_shape.c for transpose2, tests/test_ops_concat_split.c for the others) on the CPU
 * executors against references that compute each output element's source index,
 * tests/test_cuda_shape.c on the CUDA kernels against the CPU kernels, bit for bit. Rows with
 * `every_dt` run in every dtype of csh_dts (every element size: 1, 2, 4 and 8 bytes), except that
 * the CPU suites run the `large` ones (sized for the GPU's grids and tiles) in float32 only, their
 * references being element-by-element loops; the expected shapes written in split and slice rows
 * follow Paddle 3.x. */
#ifndef IC_TESTS_CASES_SHAPE_H
#define IC_TESTS_CASES_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "icore/icore.h"

static const ic_dtype csh_dts[] = {IC_FP32, IC_FP64, IC_INT32, IC_INT64, IC_UINT8,
                                   IC_BOOL, IC_FP16, IC_INT16};
#define CSH_N_DTS (sizeof csh_dts / sizeof csh_dts[0])

/* How many dtypes of csh_dts the CPU suites run a row in: all for an every_dt row, only the
 * first (float32) for a large one, 1 (the row's own) otherwise. */
static inline size_t csh_cpu_dts(bool every_dt, bool large) {
  return every_dt && !large ? CSH_N_DTS : 1;
}

/* ---- transpose2 ---- */

/* Every permutation of the first nd dims of `dims` (dtype dt; every_dt: each of csh_dts). */
typedef struct ctp_sweep {
  ic_dtype dt;
  bool every_dt;
  int nd;
  int64_t dims[6];
  bool large;
} ctp_sweep;

static const ctp_sweep ctp_sweeps[] = {
    {IC_FP32, false, 2, {3, 5}, false},       {IC_FP32, false, 3, {3, 5, 2}, false},
    {IC_FP32, false, 4, {3, 5, 2, 7}, false}, {IC_INT64, false, 4, {1, 6, 1, 5}, false},
    {IC_FP32, false, 5, {2, 3, 4, 3, 5}, false},
    /* odd sizes, not multiples of the GPU's 32-wide tiles */
    {0, true, 2, {7, 35}, false},      {0, true, 3, {33, 7, 35}, true},
    {0, true, 4, {5, 33, 7, 35}, true},
};
#define CTP_N_SWEEPS (sizeof ctp_sweeps / sizeof ctp_sweeps[0])

/* One transpose: dims and axis (as written, possibly negative). */
typedef struct ctp_case {
  ic_dtype dt;
  bool every_dt;
  int nd;
  int64_t dims[6];
  int32_t axis[6];
} ctp_case;

static const ctp_case ctp_cases[] = {
    /* plain 2-D, sizes that are not multiples of the tile; batched 2-D */
    {0, true, 2, {67, 131}, {1, 0}},
    {0, true, 2, {1, 17}, {1, 0}},
    {0, true, 2, {33, 32}, {1, 0}},
    {0, true, 3, {3, 37, 41}, {0, 2, 1}},
    /* whole 8 x 8 tiles over several blocks (CRNN's sequence transpose) */
    {IC_FP32, false, 3, {1, 480, 80}, {0, 2, 1}},
    /* NCHW <-> NHWC */
    {0, true, 4, {2, 3, 34, 35}, {0, 2, 3, 1}},
    {0, true, 4, {2, 34, 35, 3}, {0, 3, 1, 2}},
    /* the innermost axis stays: rows move whole */
    {0, true, 3, {4, 5, 6}, {1, 0, 2}},
    {0, true, 4, {3, 4, 5, 9}, {2, 0, 1, 3}},
    {0, true, 4, {3, 5, 7, 9}, {2, 0, 1, 3}},
    {0, true, 3, {3, 5, 8}, {1, 0, 2}},
    /* merges into a 2-D transpose of [6, 20] */
    {0, true, 4, {2, 3, 4, 5}, {2, 3, 0, 1}},
    /* negative entries count from the end */
    {0, true, 3, {4, 6, 9}, {-1, 0, -2}},
    {IC_FP32, false, 3, {2, 3, 4}, {-1, 0, -2}},
    {IC_FP32, false, 2, {2, 3}, {-1, -2}},
    /* size-1 axes, ranks 5 and 6 */
    {0, true, 6, {2, 1, 3, 1, 5, 4}, {5, 4, 3, 2, 1, 0}},
    {0, true, 5, {3, 1, 4, 5, 2}, {0, 3, 1, 4, 2}},
    {IC_FP64, false, 6, {2, 3, 2, 4, 3, 2}, {5, 4, 3, 2, 1, 0}},
    /* nothing moves (identity; only size-1 axes move): a copy */
    {0, true, 3, {3, 4, 5}, {0, 1, 2}},
    {0, true, 3, {1, 4, 1}, {2, 1, 0}},
    {IC_INT64, false, 3, {1, 1, 1}, {2, 0, 1}},
    /* empty, one element, 0-D */
    {0, true, 3, {0, 5, 3}, {2, 0, 1}},
    {IC_FP32, false, 3, {2, 0, 4}, {2, 1, 0}},
    {0, true, 2, {1, 1}, {1, 0}},
    {0, true, 0, {0}, {0}},
};
#define CTP_N_CASES (sizeof ctp_cases / sizeof ctp_cases[0])

/* The seeded sample of 6-axis permutations: permutation r (Fisher-Yates from an LCG). */
static inline void ctp_random_perm6(int r, int32_t q[6]) {
  uint64_t s = 12345;
  for (int k = 0; k <= r; k++) {
    for (int i = 0; i < 6; i++) q[i] = i;
    for (int i = 5; i > 0; i--) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      int j = (int)((s >> 33) % (uint64_t)(i + 1));
      int32_t tmp = q[i];
      q[i] = q[j];
      q[j] = tmp;
    }
  }
}
#define CTP_N_RANDOM6 60
static const int64_t ctp_random6_dims[6] = {2, 3, 1, 4, 3, 2};

/* Next permutation in lexicographic order; false after the last. */
static inline bool ctp_next_perm(int32_t *p, int n) {
  int i = n - 2;
  while (i >= 0 && p[i] > p[i + 1]) i--;
  if (i < 0) return false;
  int j = n - 1;
  while (p[j] < p[i]) j--;
  int32_t tmp = p[i];
  p[i] = p[j];
  p[j] = tmp;
  for (int a = i + 1, b = n - 1; a < b; a++, b--) {
    tmp = p[a];
    p[a] = p[b];
    p[b] = tmp;
  }
  return true;
}

/* ---- concat ---- */

/* n inputs of dims `base` but sizes[i] along axis (written as `axis`, possibly negative, or
 * given by an AxisTensor holding it while the attribute says 0). */
typedef struct ccat_case {
  ic_dtype dt;
  bool every_dt;
  int nd;
  int64_t base[4];
  int axis;
  bool axis_tensor;
  size_t n;
  int64_t sizes[6];
  bool large;
} ccat_case;

#define CCAT_AX4(ax)                                                  \
  {0, true, 4, {3, 5, 7, 2}, ax, false, 3, {2, 0, 5}, false},                \
      {0, true, 4, {3, 5, 7, 2}, ax, (ax) % 2 == 0, 1, {3}, false}

static const ccat_case ccat_cases[] = {
    /* an output of 1 MiB or more: the CPU kernel's threads copy different inputs (an empty
     * one among them), with streaming stores */
    {IC_FP32, false, 4, {2, 1, 96, 96}, 1, false, 4, {8, 8, 0, 5}, false},
    {IC_FP32, false, 3, {3, 96, 97}, 2, false, 3, {40, 33, 7}, false},
    /* 1.03 MiB streamed in runs of 2664, 8 and 5608 bytes, half the rows starting 8 bytes
     * off a 16-byte boundary */
    {IC_FP64, false, 2, {130, 1}, 1, false, 3, {333, 1, 701}, false},
    /* every axis, with an empty input among them */
    {IC_FP32, false, 3, {2, 3, 4}, -3, false, 3, {2, 0, 3}, false},
    {IC_FP32, false, 3, {2, 3, 4}, -2, false, 3, {2, 0, 3}, false},
    {IC_FP32, false, 3, {2, 3, 4}, -1, false, 3, {2, 0, 3}, false},
    {IC_FP32, false, 3, {2, 3, 4}, 0, false, 3, {2, 0, 3}, false},
    {IC_FP32, false, 3, {2, 3, 4}, 1, false, 3, {2, 0, 3}, false},
    {IC_FP32, false, 3, {2, 3, 4}, 2, false, 3, {2, 0, 3}, false},
    CCAT_AX4(-4), CCAT_AX4(-3), CCAT_AX4(-2), CCAT_AX4(-1),
    CCAT_AX4(0), CCAT_AX4(1), CCAT_AX4(2), CCAT_AX4(3),
    /* dtypes */
    {IC_INT64, false, 3, {2, 3, 4}, 1, false, 3, {2, 0, 3}, false},
    {IC_UINT8, false, 3, {2, 3, 4}, 2, false, 3, {2, 0, 3}, false},
    {IC_FP16, false, 3, {2, 3, 4}, -1, false, 3, {2, 0, 3}, false},
    {IC_FP64, false, 2, {5, 7}, 0, false, 2, {1, 4}, false},
    {IC_INT32, false, 2, {5, 7}, 1, false, 4, {1, 4, 9, 17}, false},
    /* five inputs, odd byte runs; one input; all empty */
    {0, true, 2, {5, 1}, 1, true, 5, {1, 3, 2, 7, 1}, false},
    {0, true, 1, {1}, 0, false, 4, {1, 0, 17, 16}, false},
    {IC_FP32, false, 1, {1}, 0, false, 1, {13}, false},
    {IC_FP32, false, 4, {2, 1, 3, 5}, 1, false, 2, {0, 0}, false},
    {IC_FP32, false, 4, {0, 1, 3, 5}, 1, false, 2, {2, 3}, false},
    {0, true, 2, {0, 4}, 1, false, 2, {2, 3}, false},
    /* an AxisTensor beats the attribute (which says 0) */
    {IC_FP32, false, 3, {2, 3, 4}, 1, true, 3, {2, 0, 3}, false},
    {IC_FP32, false, 3, {2, 3, 4}, -1, true, 3, {2, 0, 3}, false},
    /* a large one (GPU suite only: the CPU suite's element-by-element reference is slow) */
    {0, true, 3, {16, 1, 3000}, 1, false, 3, {100, 1, 37}, true},
};
#undef CCAT_AX4
#define CCAT_N_CASES (sizeof ccat_cases / sizeof ccat_cases[0])

/* ---- split ---- */

typedef struct csp_case {
  ic_dtype dt;
  int nd;
  int64_t dims[4];
  int axis;            /* the attribute, or the AxisTensor value when axis_tensor */
  bool axis_tensor;
  int num;
  size_t n_sec;        /* the `sections` attribute */
  int32_t sec[8];
  size_t n_list;       /* SectionsTensorList values (int32 [1] and int64 0-D alternately) */
  int64_t list[8];
  size_t pieces;       /* expected piece sizes along the axis */
  int64_t sizes[8];
  bool every_dt, large;
} csp_case;

#define CSP_NUM3(ax, s)                                                                     \
  {0, 3, {6, 9, 3}, .axis = ax, .num = 3, .pieces = 3, .sizes = {s, s, s}, .every_dt = true}

static const csp_case csp_cases[] = {
    /* num along each axis, negative included */
    {IC_FP32, 2, {5, 6}, .axis = 1, .num = 2, .pieces = 2, .sizes = {3, 3}},
    {IC_FP32, 2, {5, 6}, .axis = -1, .num = 3, .pieces = 3, .sizes = {2, 2, 2}},
    {IC_INT64, 2, {5, 6}, .axis = 0, .num = 5, .pieces = 5, .sizes = {1, 1, 1, 1, 1}},
    {IC_FP32, 2, {5, 6}, .axis = -2, .num = 1, .pieces = 1, .sizes = {5}},
    {IC_UINT8, 3, {3, 4, 10}, .axis = 2, .num = 2, .pieces = 2, .sizes = {5, 5}},
    CSP_NUM3(-3, 2), CSP_NUM3(-2, 3), CSP_NUM3(-1, 1), CSP_NUM3(0, 2), CSP_NUM3(1, 3),
    CSP_NUM3(2, 1),
    /* sections, with a -1 and with empty pieces */
    {IC_FP32, 2, {5, 6}, .axis = 1, .n_sec = 3, .sec = {1, -1, 2}, .pieces = 3,
     .sizes = {1, 3, 2}},
    {IC_FP32, 2, {5, 6}, .axis = 1, .n_sec = 3, .sec = {0, 6, 0}, .pieces = 3,
     .sizes = {0, 6, 0}},
    {IC_FP64, 3, {3, 4, 5}, .axis = -2, .n_sec = 2, .sec = {-1, 1}, .pieces = 2,
     .sizes = {3, 1}},
    {IC_INT32, 3, {7, 4, 5}, .axis = 0, .n_sec = 3, .sec = {2, 4, 1}, .pieces = 3,
     .sizes = {2, 4, 1}},
    {IC_FP16, 3, {3, 4, 5}, .axis = 2, .n_sec = 2, .sec = {2, 3}, .pieces = 2, .sizes = {2, 3}},
    {0, 3, {6, 9, 3}, .axis = 1, .n_sec = 3, .sec = {2, -1, 3}, .pieces = 3, .sizes = {2, 4, 3},
     .every_dt = true},
    {0, 3, {6, 9, 3}, .axis = 1, .n_sec = 4, .sec = {0, 4, 0, 5}, .pieces = 4,
     .sizes = {0, 4, 0, 5}, .every_dt = true},
    /* non-empty sections win over num, as Paddle's split op decides */
    {IC_FP32, 2, {5, 6}, .axis = 1, .num = 2, .n_sec = 2, .sec = {2, 4}, .pieces = 2,
     .sizes = {2, 4}},
    /* SectionsTensorList beats the sections attribute; AxisTensor beats the axis attribute */
    {IC_FP32, 2, {5, 6}, .axis = 1, .n_sec = 2, .sec = {1, 1}, .n_list = 2, .list = {2, -1},
     .pieces = 2, .sizes = {2, 4}},
    {IC_FP32, 2, {5, 6}, .axis = 1, .axis_tensor = true, .num = 3, .pieces = 3,
     .sizes = {2, 2, 2}},
    {IC_INT64, 2, {5, 6}, .axis = -2, .axis_tensor = true, .n_sec = 2, .sec = {4, 1},
     .pieces = 2, .sizes = {4, 1}},
    {0, 3, {6, 9, 3}, .axis = -1, .axis_tensor = true, .n_sec = 2, .sec = {1, 1}, .n_list = 2,
     .list = {1, -1}, .pieces = 2, .sizes = {1, 2}, .every_dt = true},
    {0, 3, {6, 9, 3}, .axis = 2, .axis_tensor = true, .n_sec = 3, .sec = {1, 1, 1}, .n_list = 3,
     .list = {2, 0, 1}, .pieces = 3, .sizes = {2, 0, 1}, .every_dt = true},
    /* X empty along the axis (every piece empty there), or elsewhere */
    {IC_FP32, 2, {0, 6}, .axis = 0, .num = 2, .pieces = 2, .sizes = {0, 0}},
    {IC_FP32, 2, {0, 6}, .axis = 0, .n_sec = 2, .sec = {2, 3}, .pieces = 2, .sizes = {0, 0}},
    {IC_FP32, 2, {0, 6}, .axis = 1, .num = 3, .pieces = 3, .sizes = {2, 2, 2}},
    {0, 2, {4, 0}, .axis = 1, .num = 3, .pieces = 3, .sizes = {0, 0, 0}, .every_dt = true},
    {0, 2, {0, 4}, .axis = 1, .num = 2, .pieces = 2, .sizes = {2, 2}, .every_dt = true},
    /* a long axis */
    {0, 2, {3, 40001}, .axis = 1, .n_sec = 3, .sec = {1, 40000, 0}, .pieces = 3,
     .sizes = {1, 40000, 0}, .every_dt = true, .large = true},
};
#undef CSP_NUM3
#define CSP_N_CASES (sizeof csp_cases / sizeof csp_cases[0])

/* ---- slice ---- */

typedef struct csl_case {
  ic_dtype dt;
  int nd;
  int64_t dims[5];
  size_t n;                    /* entries of axes/starts/ends */
  int32_t axes[6], starts[6], ends[6];
  size_t n_flags;
  int32_t flags[6];
  size_t n_dec;
  int32_t dec[6];
  int64_t start[5], len[5];    /* expected per input dim */
  int ond;                     /* expected output rank and dims */
  int64_t odims[5];
  bool every_dt, large;
} csl_case;

#define CSL_D345 IC_FP32, 3, {3, 4, 5}

static const csl_case csl_cases[] = {
    {CSL_D345, 1, {1}, {1}, {3}, .start = {0, 1, 0}, .len = {3, 2, 5}, .ond = 3,
     .odims = {3, 2, 5}},
    /* negative starts/ends count from the end */
    {CSL_D345, 1, {2}, {-3}, {-1}, .start = {0, 0, 2}, .len = {3, 4, 2}, .ond = 3,
     .odims = {3, 4, 2}},
    {0, 3, {4, 5, 6}, 2, {0, 2}, {-3, 1}, {-1, 100}, .start = {1, 0, 1}, .len = {2, 5, 5},
     .ond = 3, .odims = {2, 5, 5}, .every_dt = true},
    /* out-of-range bounds are clamped */
    {CSL_D345, 2, {0, 2}, {-100, 2}, {100, 1000}, .start = {0, 0, 2}, .len = {3, 4, 3},
     .ond = 3, .odims = {3, 4, 3}},
    /* an end before the start, a start past the end, an end before the beginning: empty */
    {CSL_D345, 1, {1}, {3}, {1}, .start = {0, 3, 0}, .len = {3, 0, 5}, .ond = 3,
     .odims = {3, 0, 5}},
    {CSL_D345, 1, {1}, {10}, {20}, .start = {0, 4, 0}, .len = {3, 0, 5}, .ond = 3,
     .odims = {3, 0, 5}},
    {CSL_D345, 1, {1}, {0}, {-10}, .start = {0, 0, 0}, .len = {3, 0, 5}, .ond = 3,
     .odims = {3, 0, 5}},
    {0, 3, {4, 5, 6}, 1, {-1}, {4}, {1}, .start = {0, 0, 4}, .len = {4, 5, 0}, .ond = 3,
     .odims = {4, 5, 0}, .every_dt = true},
    /* negative axes */
    {CSL_D345, 1, {-1}, {1}, {3}, .start = {0, 0, 1}, .len = {3, 4, 2}, .ond = 3,
     .odims = {3, 4, 2}},
    {CSL_D345, 2, {-3, 1}, {1, -2}, {3, 4}, .start = {1, 2, 0}, .len = {2, 2, 5}, .ond = 3,
     .odims = {2, 2, 5}},
    /* an axis listed twice: the last entry wins */
    {CSL_D345, 2, {1, 1}, {1, 2}, {3, 3}, .start = {0, 2, 0}, .len = {3, 1, 5}, .ond = 3,
     .odims = {3, 1, 5}},
    {0, 1, {9}, 2, {0, 0}, {1, 2}, {8, 7}, .start = {2}, .len = {5}, .ond = 1, .odims = {5},
     .every_dt = true},
    /* the outermost dim only (one contiguous block; rows), the innermost (a window), all */
    {CSL_D345, 1, {0}, {1}, {3}, .start = {1, 0, 0}, .len = {2, 4, 5}, .ond = 3,
     .odims = {2, 4, 5}},
    {0, 3, {4, 5, 6}, 1, {0}, {1}, {3}, .start = {1, 0, 0}, .len = {2, 5, 6}, .ond = 3,
     .odims = {2, 5, 6}, .every_dt = true},
    {0, 3, {4, 5, 6}, 1, {2}, {2}, {5}, .start = {0, 0, 2}, .len = {4, 5, 3}, .ond = 3,
     .odims = {4, 5, 3}, .every_dt = true},
    {0, 3, {4, 5, 6}, 1, {1}, {1}, {4}, .start = {0, 1, 0}, .len = {4, 3, 6}, .ond = 3,
     .odims = {4, 3, 6}, .every_dt = true},
    {0, 3, {4, 5, 6}, 3, {0, 1, 2}, {0, 0, 0}, {4, 5, 6}, .start = {0, 0, 0}, .len = {4, 5, 6},
     .ond = 3, .odims = {4, 5, 6}, .every_dt = true},
    /* no axes: a copy */
    {CSL_D345, 0, .start = {0, 0, 0}, .len = {3, 4, 5}, .ond = 3, .odims = {3, 4, 5}},
    /* other dtypes, deeper inputs, an empty dim, 1-D and 0-D, a long row */
    {IC_UINT8, 3, {3, 4, 5}, 2, {1, 2}, {1, 1}, {3, 4}, .start = {0, 1, 1}, .len = {3, 2, 3},
     .ond = 3, .odims = {3, 2, 3}},
    {IC_FP16, 3, {3, 4, 5}, 2, {2, 0}, {-1, 2}, {5, 3}, .start = {2, 0, 4}, .len = {1, 4, 1},
     .ond = 3, .odims = {1, 4, 1}},
    {IC_FP64, 5, {2, 3, 4, 3, 2}, 2, {1, 3}, {1, 0}, {3, 2}, .start = {0, 1, 0, 0, 0},
     .len = {2, 2, 4, 2, 2}, .ond = 5, .odims = {2, 2, 4, 2, 2}},
    {0, 4, {2, 3, 9, 11}, 3, {1, 2, 3}, {1, 2, 3}, {3, 8, 10}, .start = {0, 1, 2, 3},
     .len = {2, 2, 6, 7}, .ond = 4, .odims = {2, 2, 6, 7}, .every_dt = true},
    {IC_FP32, 2, {0, 4}, 1, {0}, {1}, {2}, .start = {0, 0}, .len = {0, 4}, .ond = 2,
     .odims = {0, 4}},
    {0, 2, {0, 7}, 1, {1}, {2}, {5}, .start = {0, 2}, .len = {0, 3}, .ond = 2, .odims = {0, 3},
     .every_dt = true},
    {IC_INT64, 1, {5}, 1, {0}, {1}, {3}, .start = {1}, .len = {2}, .ond = 1, .odims = {2}},
    {IC_INT64, 0, {0}, 0, .ond = 0},
    {0, 2, {3, 70001}, 1, {1}, {1}, {70000}, .start = {0, 1}, .len = {3, 69999}, .ond = 2,
     .odims = {3, 69999}, .every_dt = true, .large = true},
    /* decrease_axis */
    {CSL_D345, 1, {0}, {1}, {2}, .n_dec = 1, .dec = {0}, .start = {1, 0, 0}, .len = {1, 4, 5},
     .ond = 2, .odims = {4, 5}},
    {CSL_D345, 1, {0}, {1}, {2}, .n_dec = 2, .dec = {-3, 0}, .start = {1, 0, 0},
     .len = {1, 4, 5}, .ond = 2, .odims = {4, 5}},
    {CSL_D345, 2, {1, 2}, {2, 0}, {3, 5}, .n_dec = 1, .dec = {1}, .start = {0, 2, 0},
     .len = {3, 1, 5}, .ond = 2, .odims = {3, 5}},
    /* removing every dim gives a 0-D tensor (Paddle 2.5+) */
    {IC_INT64, 3, {3, 4, 5}, 3, {0, 1, 2}, {1, 1, 1}, {2, 2, 2}, .n_dec = 3, .dec = {0, 1, 2},
     .start = {1, 1, 1}, .len = {1, 1, 1}, .ond = 0},
    {IC_INT32, 1, {4}, 1, {0}, {3}, {4}, .n_dec = 1, .dec = {0}, .start = {3}, .len = {1},
     .ond = 0},
    {0, 2, {3, 7}, 2, {0, 1}, {1, 3}, {2, 4}, .n_dec = 2, .dec = {0, 1}, .start = {1, 3},
     .len = {1, 1}, .ond = 0, .every_dt = true},
    /* x[:, -1]: start -1, end 0, infer_flags -1 and the axis decreased reads to the end */
    {CSL_D345, 1, {1}, {-1}, {0}, .n_flags = 1, .flags = {-1}, .n_dec = 1, .dec = {1},
     .start = {0, 3, 0}, .len = {3, 1, 5}, .ond = 2, .odims = {3, 5}},
    {0, 3, {4, 5, 6}, 2, {1, -1}, {-1, 2}, {0, 3}, .n_flags = 2, .flags = {-1, -1}, .n_dec = 2,
     .dec = {1, 2}, .start = {0, 4, 2}, .len = {4, 1, 1}, .ond = 1, .odims = {4},
     .every_dt = true},
    /* ... but not without the decrease or without the flag */
    {CSL_D345, 1, {1}, {-1}, {0}, .n_flags = 1, .flags = {-1}, .start = {0, 3, 0},
     .len = {3, 0, 5}, .ond = 3, .odims = {3, 0, 5}},
    /* infer_flags shorter than axes: the missing ones are 1 */
    {CSL_D345, 2, {0, 1}, {1, 1}, {2, 2}, .n_flags = 1, .flags = {1}, .start = {1, 1, 0},
     .len = {1, 1, 5}, .ond = 3, .odims = {1, 1, 5}},
};
#undef CSL_D345
#define CSL_N_CASES (sizeof csl_cases / sizeof csl_cases[0])

#endif
