/* Tensors as the library sees them. The public ic_tensor handle is this same struct. */
#ifndef IC_SCOPE_TENSOR_H
#define IC_SCOPE_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "gc/alloc.h"
#include "icore/icore.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Level-of-detail offsets of a LoDTensor (Paddle's LoD): level l splits the entries of level
 * l + 1 (the last level splits the tensor's rows) into sequences, sequence k spanning
 * [offsets[l][k], offsets[l][k + 1]). Each tensor owns its LoD (copied, never shared), so a
 * tensor without LoD costs nothing. Ops that keep rows share their first input's LoD with
 * their first output (ic_share_lod, interp/runio.c); sequence ops (IC_OP_LOD) set it
 * themselves. */
typedef struct ic_lod {
  size_t n_levels;
  size_t *lens;        /* offsets per level (sequences + 1) */
  uint64_t **offsets;  /* offsets[level][k] */
} ic_lod;

/* How a tensor's buffer holds its elements. Dims are always the logical ones (NCHW for the
 * blocked layouts). Only convolutions and pool2d marked by the layout pass (analysis/layout.c)
 * write a blocked layout, and only input slots flagged IC_SLOT_BLOCKED accept one (the
 * executors check it): every other kernel, feed and fetch sees plain tensors. nChw8c and
 * nChw16c are used only where their size equals the plain one (C divisible by the block);
 * IC_LAYOUT_NCHW16C_PAD is larger and sized by ic_tensor_alloc (ic_tensor_storage_elems). */
typedef enum ic_layout {
  IC_LAYOUT_PLAIN = 0,    /* row-major over the dims */
  IC_LAYOUT_NCHW8C = 1,   /* oneDNN nChw8c: [N][C/8][H][W][8], float32 4-D, C % 8 == 0 */
  IC_LAYOUT_NCHW16C = 2,  /* oneDNN nChw16c: [N][C/16][H][W][16], float32 4-D, C % 16 == 0 */
  /* oneDNN nChw16c with C % 16 != 0: [N][ceil(C/16)][H][W][16], the channels past C zero.
   * The one layout larger than the plain tensor: only a convolution the layout pass marked
   * ic_blocked_pad writes it (its infer sets it on the Output before allocation, so that
   * ic_tensor_alloc makes room), and only slots flagged IC_SLOT_PAD16 read it (a
   * convolution's Input and ResidualData). */
  IC_LAYOUT_NCHW16C_PAD = 3
} ic_layout;

/* Channels per block of a blocked layout (0 for plain); its name for messages. */
static inline int ic_layout_block(int layout) {
  return layout == IC_LAYOUT_NCHW8C                                  ? 8
         : layout == IC_LAYOUT_NCHW16C || layout == IC_LAYOUT_NCHW16C_PAD ? 16
                                                                      : 0;
}
const char *ic_layout_name(int layout);

struct ic_tensor {
  ic_dtype dtype;
  uint8_t layout;              /* ic_layout; reset to plain by ic_tensor_set_meta */
  int ndim;                    /* 0 is a scalar with one element */
  int64_t dims[IC_MAX_RANK];
  void *data;                  /* first element, inside buf; NULL when no storage */
  ic_buffer *buf;              /* shared storage (one reference held), or NULL */
  ic_lod *lod;                 /* owned, or NULL */
};

/* An empty tensor: no dims set, no storage. */
void ic_tensor_init(ic_tensor *t);
/* Drop storage and LoD; the meta (dtype, dims) stays. */
void ic_tensor_reset(ic_tensor *t);
/* Set dtype and dims, and the layout to plain (meta only; storage untouched). */
void ic_tensor_set_meta(ic_tensor *t, ic_dtype dtype, int ndim, const int64_t *dims);
/* Element count, or -1 when it overflows int64. */
int64_t ic_numel(int ndim, const int64_t *dims);
static inline int64_t ic_tensor_numel_(const ic_tensor *t) { return ic_numel(t->ndim, t->dims); }
/* Elements the storage holds: the element count, or for IC_LAYOUT_NCHW16C_PAD (4-D) the count
 * with the channels rounded up to 16; -1 when it overflows int64. */
int64_t ic_tensor_storage_elems(const ic_tensor *t);
/* Replace t's storage with a fresh buffer for its current meta from allocator a (NULL:
 * the plain allocator). */
ic_status ic_tensor_alloc(ic_tensor *t, ic_allocator *a, ic_err *err);
/* Make dst share src's storage and meta, layout included (dst's old storage is released;
 * LoD not copied). */
void ic_tensor_share(ic_tensor *dst, const ic_tensor *src);
/* Deep copy into dst with fresh storage from a (NULL: plain); LoD and layout copied too. */
ic_status ic_tensor_copy(ic_tensor *dst, const ic_tensor *src, ic_allocator *a, ic_err *err);
/* "float32[2, 3]" into buf; returns buf. */
const char *ic_tensor_describe(const ic_tensor *t, char *buf, size_t len);
/* "[2, 3]" into buf. */
const char *ic_dims_str(int ndim, const int64_t *dims, char *buf, size_t len);
bool ic_dims_equal(int na, const int64_t *a, int nb, const int64_t *b);
void ic_lod_free(ic_lod *lod);
ic_lod *ic_lod_clone(const ic_lod *lod);
/* A LoD of n_levels levels with lens[l] offsets each (uninitialized), or NULL (out of memory). */
ic_lod *ic_lod_new(size_t n_levels, const size_t *lens);
/* Whether a and b hold the same offsets (NULL is the empty LoD). */
bool ic_lod_equal(const ic_lod *a, const ic_lod *b);
/* Paddle's CheckLoD: every level starts at 0, never decreases and has at least 2 offsets; a
 * level ends at the number of sequences of the next; the last level ends at rows. On failure
 * a reason goes to why and false is returned. */
bool ic_lod_valid(const ic_lod *lod, int64_t rows, char *why, size_t len);
/* "[[0, 2, 5]]" into buf (truncated with "..."); returns buf. */
const char *ic_lod_str(const ic_lod *lod, char *buf, size_t len);
/* Give t the LoD lod (taking ownership; NULL clears), freeing the old one. */
void ic_tensor_take_lod(ic_tensor *t, ic_lod *lod);

#ifdef __cplusplus
}
#endif

#endif
