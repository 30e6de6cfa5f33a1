/* Helpers shared by the kernels that run oneDNN primitives (conv2d family, pool2d).
 *
 * Every such kernel keeps a oneDNN engine and stream of its own in its per-instruction
 * state (kernel.h: ctx->state): there is no process-wide engine because icore has no global
 * mutable state, and a CPU engine plus stream cost a few microseconds, once per
 * instruction (docs/conv_measurements.md). Primitives are created with a user-managed
 * scratchpad so that every byte they use at run time comes from ic_kscratch, and so that
 * two instructions executing on two threads never share library-owned scratch memory. */
#ifndef IC_KERNELS_CPU_ONEDNN_H
#define IC_KERNELS_CPU_ONEDNN_H

#include <dnnl.h>

#include "kernels/cpu/conv.h"
#include "kernels/kernel.h"

/* An engine and its stream. */
typedef struct ic_dnnl_rt {
  dnnl_engine_t eng;
  dnnl_stream_t strm;
} ic_dnnl_rt;

/* Fail with IC_ERR_KERNEL naming the oneDNN call and its status ("dnnl_unimplemented"). */
ic_status ic_dnnl_fail(ic_kctx *c, dnnl_status_t st, const char *what);

/* Create the CPU engine and an in-order stream; on failure nothing is left allocated. */
ic_status ic_dnnl_rt_init(ic_kctx *c, ic_dnnl_rt *rt);
void ic_dnnl_rt_free(ic_dnnl_rt *rt);

/* The OpenMP team size the kernel may use (ctx->env->intra_threads, at least 1). */
int ic_dnnl_threads(const ic_kctx *c);
/* Set the calling thread's OpenMP team size to n for the primitives that follow (oneDNN
 * reads it both when a primitive is created and when it runs); returns the previous value
 * for ic_dnnl_threads_restore, so the worker thread's own setting is left as it was. */
int ic_dnnl_threads_set(int n);
void ic_dnnl_threads_restore(int prev);

/* A 4-D f32 memory descriptor with the given format tag (dnnl_format_tag_any allowed). */
dnnl_status_t ic_dnnl_md4(dnnl_memory_desc_t *md, const int64_t *dims, dnnl_format_tag_t tag);
/* Primitive attributes with a user-managed scratchpad (post-ops may be NULL). */
dnnl_status_t ic_dnnl_attr(dnnl_primitive_attr_t *attr, const_dnnl_post_ops_t post_ops);
/* A primitive descriptor for a convolution op_desc from the first implementation (in
 * oneDNN's order of preference) whose results do not depend on the thread count: icore's
 * executors must agree bitwise whatever threads a kernel gets, and oneDNN's GEMM-based
 * convolution splits its reductions by thread, while its AVX-512 brgemm convolutions pick
 * their blocking (the order of the sums) by thread count (measured on 1, 2 and 4 threads;
 * the direct jit kernels do not). Only an allow-list of implementation names is taken
 * (onednn.c); the reference implementations are skipped too, the caller's own fallback
 * being faster. dnnl_unimplemented when no implementation qualifies. */
dnnl_status_t ic_dnnl_pd_deterministic(dnnl_primitive_desc_t *pd, const_dnnl_op_desc_t desc,
                                       const_dnnl_primitive_attr_t attr, ic_dnnl_rt *rt);

/* A primitive with its scratchpad memory object (user mode: the kernel hands it a slice of
 * an ic_kscratch buffer on every call). */
typedef struct ic_dnnl_prim {
  dnnl_primitive_t p;  /* NULL when absent */
  dnnl_memory_t pad;   /* scratchpad memory, data handle set per call; NULL when none needed */
  size_t pad_bytes;
} ic_dnnl_prim;

/* Create a primitive from a descriptor; on failure *out is left empty. */
dnnl_status_t ic_dnnl_prim_create(ic_dnnl_rt *rt, const_dnnl_primitive_desc_t pd,
                                  ic_dnnl_prim *out);
/* A reorder primitive from one layout to another. */
dnnl_status_t ic_dnnl_reorder(ic_dnnl_rt *rt, const dnnl_memory_desc_t *from,
                              const dnnl_memory_desc_t *to, ic_dnnl_prim *out);
void ic_dnnl_prim_free(ic_dnnl_prim *p);
/* Execute with n arguments; args must have room for one more (the scratchpad, at `pad`, at
 * least p->pad_bytes bytes). Waits for completion. */
dnnl_status_t ic_dnnl_exec(ic_dnnl_rt *rt, ic_dnnl_prim *p, void *pad, int n,
                           dnnl_exec_arg_t *args);
/* Execute a reorder from one memory object to another. */
dnnl_status_t ic_dnnl_exec_reorder(ic_dnnl_rt *rt, ic_dnnl_prim *p, void *pad,
                                   dnnl_memory_t from, dnnl_memory_t to);
/* A memory object for md without storage (its handle is set per call); NULL on failure. */
dnnl_memory_t ic_dnnl_mem(ic_dnnl_rt *rt, const dnnl_memory_desc_t *md);

/* A fingerprint of up to 64 values of a float32 Filter of n values, its first 32 and its last
 * 32: with the buffer's address and size it keys a kernel's copy of the weights in oneDNN's
 * layout, so new values loaded into the same buffer (a checkpoint loaded in place, an
 * optimizer's update) are caught too (almost always: it is a sample, not a hash, so that
 * checking costs next to nothing beside the primitive). The filter is usually out of cache
 * when it is checked (the primitive reads its own copy): two runs touch two pages and a few
 * cache lines, where 64 values spread over the filter touched 64 of each (CRNN's 57 checks
 * took 1% of a one-thread run). */
uint64_t ic_dnnl_filter_sample(const float *w, size_t n);

/* ---- blocked activations (tensor.h ic_layout) ---- */

/* The oneDNN format tag of a 4-D float32 tensor in `layout` (plain: nchw, or nhwc when nhwc). */
dnnl_format_tag_t ic_dnnl_layout_tag(int layout, bool nhwc);
/* The descriptor of a 4-D float32 tensor with dims (logical NCHW) in `layout`. */
dnnl_status_t ic_dnnl_layout_md(dnnl_memory_desc_t *md, const int64_t *dims, int layout,
                                bool nhwc);
/* The ic_layout that md is, for a tensor of dims (logical NCHW), when md is one of the blocked
 * layouts a tensor may hold (nChw8c, nChw16c without channel padding: the same bytes as the
 * plain tensor); IC_LAYOUT_PLAIN otherwise. */
int ic_dnnl_md_layout(const dnnl_memory_desc_t *md, const int64_t *dims);
/* The same, and with pad also IC_LAYOUT_NCHW16C_PAD for nChw16c over channels that are not a
 * multiple of 16. */
int ic_dnnl_md_layout_pad(const dnnl_memory_desc_t *md, const int64_t *dims, bool pad);
/* Copy a float32 [n, c, h, w] tensor from a blocked layout (block 8 or 16; c a multiple of
 * it, or for nChw16c with padded channels any c) to plain NCHW: for the kernels' fallback
 * loops, which only read plain data. */
void ic_blocked_to_plain(const float *src, float *dst, const int64_t *dims, int block);

/* The channel block oneDNN's convolutions and pooling take on this CPU: 16 with AVX-512,
 * else 8. */
int ic_dnnl_native_block(void);

/* A fused activation (conv.h ic_conv_act) as oneDNN 2.6 post-ops (conv.c): whether they can
 * express it, and appending them. Shared by the convolution and transposed-convolution
 * kernels. */
bool ic_conv_act_in_dnnl(ic_conv_act act, float alpha, float beta);
void ic_conv_act_post_ops(ic_conv_act act, float al, float be, dnnl_post_ops_t po,
                          dnnl_status_t *st);

/* Round a byte count up to a 64-byte multiple so slices of one scratch buffer stay aligned. */
static inline size_t ic_dnnl_align(size_t n) { return (n + 63) & ~(size_t)63; }

#endif
