/* Helpers shared by the oneDNN-backed kernels. */
#include "kernels/cpu/onednn.h"

#include <dnnl_debug.h>
#include <omp.h>
#include <stdbool.h>
#include <string.h>

ic_status ic_dnnl_fail(ic_kctx *c, dnnl_status_t st, const char *what) {
  /* An allocation oneDNN (or icore beside it) could not make is the caller's out-of-memory,
   * like every other failed allocation, not a kernel fault. */
  if (st == dnnl_out_of_memory) {
    return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "oneDNN %s failed: out of memory (dnnl_%s)", what,
                    dnnl_status2str(st));
  }
  return ic_kfail(c, IC_ERR_KERNEL, "oneDNN %s failed: dnnl_%s", what, dnnl_status2str(st));
}

ic_status ic_dnnl_rt_init(ic_kctx *c, ic_dnnl_rt *rt) {
  rt->eng = NULL;
  rt->strm = NULL;
  dnnl_status_t st = dnnl_engine_create(&rt->eng, dnnl_cpu, 0);
  if (st != dnnl_success) {
    rt->eng = NULL;
    return ic_dnnl_fail(c, st, "dnnl_engine_create");
  }
  st = dnnl_stream_create(&rt->strm, rt->eng, dnnl_stream_in_order);
  if (st != dnnl_success) {
    rt->strm = NULL;
    ic_dnnl_rt_free(rt);
    return ic_dnnl_fail(c, st, "dnnl_stream_create");
  }
  return IC_OK;
}

void ic_dnnl_rt_free(ic_dnnl_rt *rt) {
  if (rt->strm) dnnl_stream_destroy(rt->strm);
  if (rt->eng) dnnl_engine_destroy(rt->eng);
  rt->strm = NULL;
  rt->eng = NULL;
}

int ic_dnnl_threads(const ic_kctx *c) {
  return c->env && c->env->intra_threads > 0 ? c->env->intra_threads : 1;
}

int ic_dnnl_threads_set(int n) {
  int prev = omp_get_max_threads();
  if (prev != n) omp_set_num_threads(n);
  return prev;
}

void ic_dnnl_threads_restore(int prev) {
  if (omp_get_max_threads() != prev) omp_set_num_threads(prev);
}

dnnl_status_t ic_dnnl_md4(dnnl_memory_desc_t *md, const int64_t *dims, dnnl_format_tag_t tag) {
  dnnl_dims_t d = {dims[0], dims[1], dims[2], dims[3]};
  return dnnl_memory_desc_init_by_tag(md, 4, d, dnnl_f32, tag);
}

dnnl_status_t ic_dnnl_attr(dnnl_primitive_attr_t *attr, const_dnnl_post_ops_t post_ops) {
  dnnl_status_t st = dnnl_primitive_attr_create(attr);
  if (st != dnnl_success) {
    *attr = NULL;
    return st;
  }
  st = dnnl_primitive_attr_set_scratchpad_mode(*attr, dnnl_scratchpad_mode_user);
  if (st == dnnl_success && post_ops) st = dnnl_primitive_attr_set_post_ops(*attr, post_ops);
  if (st != dnnl_success) {
    dnnl_primitive_attr_destroy(*attr);
    *attr = NULL;
  }
  return st;
}

/* The convolution implementations whose sums run in an order fixed by the shapes alone:
 * oneDNN's direct jit kernels ("jit", "jit_1x1", "jit_dw", on every ISA) give each thread
 * whole outputs and add input channels in ascending blocks (measured on 1 to 4 threads,
 * test_ops_conv's thread_counts). Not listed: the GEMM-based convolution ("gemm:jit"),
 * which splits reductions by thread; the reference ones ("ref:any"), slower than icore's
 * own fallback; the AVX-512 brgemm convolutions ("brgconv", "brgconv_1x1"), which choose
 * their channel blocking, and so the order of the sums, from the thread count when the
 * primitive is created (ppocr_rec_svtr's 1024 -> 64 3 x 3 convolution differed between 1
 * and 2 threads); and the depthwise "brdgmm_dw", which chose NHWC activations and so
 * broke chains of blocked ones (conv_dnnl.c asks depthwise ones for channel blocks). An
 * allow-list, so that an implementation new to some CPU or oneDNN version is not trusted
 * unmeasured. */
static bool thread_invariant(const char *impl) {
  /* Winograd, asked for only where a plan chose it (conv_dnnl.c, wino_eligible): the 2x3 kernel
   * gave the same bits at 1, 2, 3, 4 and 8 threads on all 409 batch-1 shapes tried (24-576
   * channels in, 32-256 out, 6 x 6 to 80 x 80) and test_ops_conv's winograd cases; the 4x3
   * kernel ("jit_wino_4x3"), which oneDNN offers first for wider layers and batches, chose
   * its tile blocking from the thread count and differed on 25 of them (and at batch 2), so
   * it is not allowed: those layers run the direct kernel. */
  static const char *const ok[] = {"jit:", "jit_1x1:", "jit_dw:", "jit_fp32_wino_2x3:"};
  /* A 1 x 1 convolution with a depthwise one fused (conv_dnnl.c, ic_dw_stride) runs natively in
   * jit_1x1, or where that kernel declines, as oneDNN's sequence of the two allowed kernels
   * through a scratch buffer. */
  static const char fused[] = "ref_fused_convolution:any:jit_1x1:";
  if (impl && !strncmp(impl, fused, strlen(fused))) return strstr(impl, ":jit_dw:") != NULL;
  for (size_t i = 0; impl && i < sizeof ok / sizeof ok[0]; i++) {
    if (!strncmp(impl, ok[i], strlen(ok[i]))) return true;
  }
  return false;
}

dnnl_status_t ic_dnnl_pd_deterministic(dnnl_primitive_desc_t *pd, const_dnnl_op_desc_t desc,
                                       const_dnnl_primitive_attr_t attr, ic_dnnl_rt *rt) {
  *pd = NULL;
  dnnl_primitive_desc_iterator_t it;
  dnnl_status_t st = dnnl_primitive_desc_iterator_create(&it, desc, attr, rt->eng, NULL);
  if (st != dnnl_success) return st;
  for (;;) {
    dnnl_primitive_desc_t cand = dnnl_primitive_desc_iterator_fetch(it);
    if (!cand) {
      st = dnnl_out_of_memory;
      break;
    }
    const char *impl = NULL;
    if (dnnl_primitive_desc_query(cand, dnnl_query_impl_info_str, 0, &impl) == dnnl_success &&
        thread_invariant(impl)) {
      *pd = cand;
      st = dnnl_success;
      break;
    }
    dnnl_primitive_desc_destroy(cand);
    st = dnnl_primitive_desc_iterator_next(it);
    if (st != dnnl_success) {
      if (st == dnnl_iterator_ends) st = dnnl_unimplemented;
      break;
    }
  }
  dnnl_primitive_desc_iterator_destroy(it);
  return st;
}

dnnl_memory_t ic_dnnl_mem(ic_dnnl_rt *rt, const dnnl_memory_desc_t *md) {
  dnnl_memory_t m = NULL;
  if (dnnl_memory_create(&m, md, rt->eng, DNNL_MEMORY_NONE) != dnnl_success) return NULL;
  return m;
}

dnnl_status_t ic_dnnl_prim_create(ic_dnnl_rt *rt, const_dnnl_primitive_desc_t pd,
                                  ic_dnnl_prim *out) {
  *out = (ic_dnnl_prim){0};
  const dnnl_memory_desc_t *md = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
  size_t bytes = md ? dnnl_memory_desc_get_size(md) : 0;
  dnnl_status_t st = dnnl_primitive_create(&out->p, pd);
  if (st != dnnl_success) {
    out->p = NULL;
    return st;
  }
  if (bytes) {
    if (!(out->pad = ic_dnnl_mem(rt, md))) {
      ic_dnnl_prim_free(out);
      return dnnl_out_of_memory;
    }
    out->pad_bytes = bytes;
  }
  return dnnl_success;
}

void ic_dnnl_prim_free(ic_dnnl_prim *p) {
  if (p->pad) dnnl_memory_destroy(p->pad);
  if (p->p) dnnl_primitive_destroy(p->p);
  *p = (ic_dnnl_prim){0};
}

dnnl_status_t ic_dnnl_reorder(ic_dnnl_rt *rt, const dnnl_memory_desc_t *from,
                              const dnnl_memory_desc_t *to, ic_dnnl_prim *out) {
  *out = (ic_dnnl_prim){0};
  dnnl_primitive_attr_t attr;
  dnnl_status_t st = ic_dnnl_attr(&attr, NULL);
  if (st != dnnl_success) return st;
  dnnl_primitive_desc_t pd = NULL;
  st = dnnl_reorder_primitive_desc_create(&pd, from, rt->eng, to, rt->eng, attr);
  dnnl_primitive_attr_destroy(attr);
  if (st != dnnl_success) return st;
  st = ic_dnnl_prim_create(rt, pd, out);
  dnnl_primitive_desc_destroy(pd);
  return st;
}

dnnl_status_t ic_dnnl_exec(ic_dnnl_rt *rt, ic_dnnl_prim *p, void *pad, int n,
                           dnnl_exec_arg_t *args) {
  dnnl_status_t st;
  if (p->pad) {
    if ((st = dnnl_memory_set_data_handle(p->pad, pad)) != dnnl_success) return st;
    args[n++] = (dnnl_exec_arg_t){DNNL_ARG_SCRATCHPAD, p->pad};
  }
  st = dnnl_primitive_execute(p->p, rt->strm, n, args);
  /* An in-order CPU stream runs synchronously; the wait is free and keeps that a fact. */
  return st == dnnl_success ? dnnl_stream_wait(rt->strm) : st;
}

dnnl_status_t ic_dnnl_exec_reorder(ic_dnnl_rt *rt, ic_dnnl_prim *p, void *pad,
                                   dnnl_memory_t from, dnnl_memory_t to) {
  dnnl_exec_arg_t args[3] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  return ic_dnnl_exec(rt, p, pad, 2, args);
}

dnnl_format_tag_t ic_dnnl_layout_tag(int layout, bool nhwc) {
  switch (layout) {
    case IC_LAYOUT_NCHW8C: return dnnl_nChw8c;
    case IC_LAYOUT_NCHW16C:
    case IC_LAYOUT_NCHW16C_PAD: return dnnl_nChw16c;
    default: return nhwc ? dnnl_nhwc : dnnl_nchw;
  }
}

dnnl_status_t ic_dnnl_layout_md(dnnl_memory_desc_t *md, const int64_t *dims, int layout,
                                bool nhwc) {
  return ic_dnnl_md4(md, dims, ic_dnnl_layout_tag(layout, nhwc));
}

int ic_dnnl_md_layout(const dnnl_memory_desc_t *md, const int64_t *dims) {
  return ic_dnnl_md_layout_pad(md, dims, false);
}

int ic_dnnl_md_layout_pad(const dnnl_memory_desc_t *md, const int64_t *dims, bool pad) {
  static const int layouts[] = {IC_LAYOUT_NCHW8C, IC_LAYOUT_NCHW16C, IC_LAYOUT_NCHW16C_PAD};
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
    dnnl_memory_desc_t b;
    bool whole = dims[1] % ic_layout_block(layouts[i]) == 0;
    if (layouts[i] == IC_LAYOUT_NCHW16C_PAD ? !pad || whole : !whole) continue;
    if (ic_dnnl_layout_md(&b, dims, layouts[i], false) == dnnl_success &&
        dnnl_memory_desc_equal(md, &b)) {
      return layouts[i];
    }
  }
  return IC_LAYOUT_PLAIN;
}

uint64_t ic_dnnl_filter_sample(const float *w, size_t n) {
  uint64_t h = 1469598103934665603ull;
  const size_t head = n < 32 ? n : 32, tail = n - head < 32 ? n - head : 32;
  for (size_t i = 0; i < head + tail; i++) {
    uint32_t bits;
    memcpy(&bits, &w[i < head ? i : n - tail + (i - head)], sizeof bits);
    h = (h ^ bits) * 1099511628211ull;
  }
  return h;
}

int ic_dnnl_native_block(void) {
  return (dnnl_get_effective_cpu_isa() & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core
             ? 16
             : 8;
}

void ic_blocked_to_plain(const float *src, float *dst, const int64_t *dims, int block) {
  /* A last partial block (IC_LAYOUT_NCHW16C_PAD) holds c - k * block real channels. Tiles of
   * 64 pixels (4 KiB of a 16-channel block): each channel's run of the tile is written
   * contiguously while the tile stays in L1. */
  int64_t n = dims[0], c = dims[1], cb = (c + block - 1) / block, hw = dims[2] * dims[3];
  for (int64_t i = 0; i < n; i++) {
    for (int64_t k = 0; k < cb; k++) {
      const float *s = src + (size_t)((i * cb + k) * hw * block);
      float *d = dst + (size_t)((i * c + k * block) * hw);
      int nb = c - k * block < block ? (int)(c - k * block) : block;
      for (int64_t p0 = 0; p0 < hw; p0 += 64) {
        const int64_t pn = hw - p0 < 64 ? hw - p0 : 64;
        for (int b = 0; b < nb; b++) {
          float *db = d + (size_t)(b * hw + p0);
          const float *sb = s + (size_t)(p0 * block + b);
          for (int64_t p = 0; p < pn; p++) db[p] = sb[p * block];
        }
      }
    }
  }
}
