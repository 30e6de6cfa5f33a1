/* Reductions over a set of axes, with Paddle's rules (phi ReduceInferDim and SumRawInferMeta
 * in infermeta/unary.cc, phi::Reduce in kernels/cpu/reduce.h, recompute_reduce_all):
 *
 *  - Every axis is reduced when reduce_all is set, when `dim` is empty, when X has rank 0 or
 *    when `dim` names every axis. Axes may be negative; an axis named twice is an error. A
 *    rank-0 X takes only 0 and -1.
 *  - Reduced axes are dropped, or kept as 1s with keep_dim. Reducing everything without
 *    keep_dim gives a rank-0 Out, as Paddle >= 2.5 does (older versions gave [1]).
 *  - reduce_sum's Out dtype is out_dtype when set, else int64 for bool and int32 inputs, else
 *    X's dtype. With an out_dtype that differs, Paddle casts X to it first and sums in it;
 *    icore does the same wherever that changes the result.
 *  - reduce_mean of integers truncates toward zero. The mean of nothing is NaN for floats and
 *    0 for integers (Paddle returns garbage there). reduce_max and reduce_min refuse to reduce
 *    an empty axis, as Paddle does; reduce_amax and reduce_amin give 0 there (Paddle 3.3.1
 *    returns uninitialized memory). max, min, amax and amin propagate NaN (Paddle's Eigen
 *    reductions do on CPU).
 *  - reduce_prod keeps X's dtype (integers wrap); the product of nothing is 1.
 *  - reduce_all / reduce_any give bool: whether every / some element is nonzero (NaN counts
 *    as nonzero); over nothing, true / false.
 *  - logsumexp (float32, float64; attributes axis, keepdim, reduce_all) is, per output,
 *    m + log(sum(exp(x - m))) with m the max, as phi LogsumexpFunctor computes it: an
 *    infinite max gives NaN (inf - inf), as in Paddle; over nothing it is -inf.
 *
 * Numerics: sums and products of floats accumulate in double and integers in 64 bits
 * (wrapping); logsumexp works in double. The order
 * is fixed by the shape alone (X's memory order; a contiguous reduced run is split into eight
 * interleaved partials folded in order), so results are the same at every thread count and
 * on every run.
 * The tensor is viewed as groups of adjacent axes that are all reduced or all kept (axes of
 * size 1 vanish); the innermost group is scanned contiguously and the others stepped through
 * with an odometer, so one [outer, reduced, inner] pass and any other pattern share a loop. */
#include "kernels/cpu/reduce.h"

#include <math.h>
#include <string.h>

static const int64_t k_dim0[] = {0}; /* Paddle's default `dim` for the legacy reduce ops */

static bool float_dtype(ic_dtype d) { return d == IC_FP32 || d == IC_FP64; }

ic_status ic_reduce_parse(ic_attr_reader *r, ic_reduce_attrs *a, ic_reduce_kind kind) {
  bool lse = kind == IC_REDUCE_LOGSUMEXP;
  a->kind = kind;
  a->dim = k_dim0;
  a->n_dim = 1;
  a->dim_name = lse ? "axis" : "dim";
  const int64_t *v;
  size_t n = 0;
  if (ic_ar_ints(r, a->dim_name, false, &v, &n)) {
    a->dim = v;
    a->n_dim = n;
  }
  a->keep_dim = ic_ar_bool(r, lse ? "keepdim" : "keep_dim", false);
  a->reduce_all = ic_ar_bool(r, "reduce_all", false);
  a->out_dtype = -1;
  if (kind == IC_REDUCE_SUM) {
    int64_t od = ic_ar_int(r, "out_dtype", -1);
    if (!r->st && od != -1 && od != IC_INT32 && od != IC_INT64 && od != IC_FP32 &&
        od != IC_FP64) {
      const char *name = od >= 0 && od < 64 ? ic_dtype_name((int)od) : NULL;
      ic_ar_fail(r, "out_dtype", "is %lld (%s); supported are -1, int32, int64, float32 and "
                 "float64", (long long)od, name ? name : "not a dtype");
      if (name) r->st = r->err->code = IC_ERR_UNSUPPORTED;
    }
    a->out_dtype = (int)od;
  }
  return r->st;
}

/* Which axes of X are reduced. */
static ic_status reduced_axes(ic_kctx *c, const ic_reduce_attrs *a, const ic_tensor *x,
                              bool *red) {
  int rank = x->ndim;
  memset(red, 0, sizeof(bool) * IC_MAX_RANK);
  for (size_t k = 0; k < a->n_dim; k++) {
    int64_t d = a->dim[k];
    if (rank == 0) {
      if (d != 0 && d != -1) {
        return ic_kfail_in(c, 0, 0, "attribute '%s' holds %lld, expected 0 or -1 for rank 0",
                           a->dim_name, (long long)d);
      }
      continue;
    }
    if (d < -rank || d >= rank) {
      return ic_kfail_in(c, 0, 0, "attribute '%s' holds %lld, expected in [%d, %d)",
                         a->dim_name, (long long)d, -rank, rank);
    }
    int ax = (int)(d < 0 ? d + rank : d);
    if (red[ax]) {
      return ic_kfail_in(c, 0, 0, "attribute '%s' names axis %d twice", a->dim_name, ax);
    }
    red[ax] = true;
  }
  if (a->reduce_all || a->n_dim == 0) {
    for (int i = 0; i < rank; i++) red[i] = true;
  }
  return IC_OK;
}

/* reduce_sum also takes int8, uint8 and int16 as Paddle's CPU kernel does: summed as int64
 * (exact), Out in X's dtype (wrapping) unless out_dtype says otherwise. */
#define SMALL_INTS (IC_DT(IC_INT8) | IC_DT(IC_UINT8) | IC_DT(IC_INT16))
static bool small_int(ic_dtype d) { return d == IC_INT8 || d == IC_UINT8 || d == IC_INT16; }

static bool bool_kind(ic_reduce_kind k) { return k == IC_REDUCE_ALL || k == IC_REDUCE_ANY; }

static ic_dtype out_dtype(const ic_reduce_attrs *a, ic_dtype in) {
  if (bool_kind(a->kind)) return IC_BOOL;
  if (a->kind != IC_REDUCE_SUM) return in;
  if (a->out_dtype >= 0) return (ic_dtype)a->out_dtype;
  return in == IC_BOOL || in == IC_INT32 ? IC_INT64 : in;
}

ic_status ic_reduce_infer(ic_kctx *c) {
  const ic_reduce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_status st;
  uint64_t ok = IC_DT_NUM;
  if (a->kind == IC_REDUCE_SUM || bool_kind(a->kind)) ok |= IC_DT(IC_BOOL);
  if (a->kind == IC_REDUCE_SUM) ok |= SMALL_INTS;
  if (a->kind == IC_REDUCE_LOGSUMEXP) ok = IC_DT_FLOAT;
  if ((st = ic_kcheck_dtype(c, 0, 0, ok))) return st;
  bool red[IC_MAX_RANK];
  if ((st = reduced_axes(c, a, x, red))) return st;
  int64_t dims[IC_MAX_RANK];
  int n = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (!red[i]) dims[n++] = x->dims[i];
    else if (a->keep_dim) dims[n++] = 1;
    if (red[i] && x->dims[i] == 0 && (a->kind == IC_REDUCE_MAX || a->kind == IC_REDUCE_MIN)) {
      return ic_kfail_in(c, 0, 0, "cannot take the %s over axis %d, which is empty",
                         a->kind == IC_REDUCE_MAX ? "max" : "min", i);
    }
  }
  ic_tensor_set_meta(ic_out(c, 0, 0), out_dtype(a, x->dtype), n, dims);
  return IC_OK;
}

typedef ic_reduce_geom geom;

static void make_geom(const ic_tensor *x, const bool *red, geom *g) {
  memset(g, 0, sizeof *g);
  for (int i = 0; i < x->ndim; i++) {
    if (x->dims[i] == 1) continue;
    if (g->n > 0 && g->red[g->n - 1] == red[i]) {
      g->size[g->n - 1] *= x->dims[i];
    } else {
      g->size[g->n] = x->dims[i];
      g->red[g->n++] = red[i];
    }
  }
  if (g->n == 0) g->size[g->n++] = 1; /* one element */
  g->in_n = g->out_n = 1;
  for (int i = g->n - 1; i >= 0; i--) {
    g->in_n *= g->size[i];
    g->ostride[i] = g->red[i] ? 0 : g->out_n;
    if (!g->red[i]) g->out_n *= g->size[i];
  }
}

/* acc[Out index] = COMBINE(acc, X element) over X in memory order. */
#define REDUCE_LOOP(NAME, TIN, TA, INIT, COMBINE)                                       \
  static void NAME(const geom *g, const TIN *x, TA *acc) {                              \
    for (int64_t i = 0; i < g->out_n; i++) acc[i] = INIT;                               \
    const int64_t len = g->size[g->n - 1], rows = g->in_n / len;                        \
    const bool inner_red = g->red[g->n - 1];                                            \
    int64_t idx[IC_MAX_RANK] = {0}, base = 0;                                           \
    for (int64_t row = 0; row < rows; row++, x += len) {                                \
      if (inner_red) {                                                                  \
        /* eight interleaved partials, folded in a fixed order: independent chains the  \
         * compiler can vectorize, and still one result for a given shape */           \
        TA part[8] = {INIT, INIT, INIT, INIT, INIT, INIT, INIT, INIT};                  \
        int64_t j = 0;                                                                  \
        for (; j + 8 <= len; j += 8) {                                                  \
          for (int k = 0; k < 8; k++) part[k] = COMBINE(part[k], x[j + k]);             \
        }                                                                               \
        TA s = acc[base];                                                               \
        for (int k = 0; k < 8; k++) s = COMBINE(s, part[k]);                            \
        for (; j < len; j++) s = COMBINE(s, x[j]);                                      \
        acc[base] = s;                                                                  \
      } else {                                                                          \
        TA *o = acc + base;                                                             \
        for (int64_t j = 0; j < len; j++) o[j] = COMBINE(o[j], x[j]);                   \
      }                                                                                 \
      for (int d = g->n - 2; d >= 0; d--) {                                             \
        if (++idx[d] < g->size[d]) {                                                    \
          base += g->ostride[d];                                                        \
          break;                                                                        \
        }                                                                               \
        base -= g->ostride[d] * (g->size[d] - 1);                                       \
        idx[d] = 0;                                                                     \
      }                                                                                 \
    }                                                                                   \
  }

#define ADD_F(s, v) ((s) + (double)(v))
#define ADD_I(s, v) ((s) + (uint64_t)(int64_t)(v)) /* wraps like Paddle's integer sums */
#define MAX_F(s, v) ((v) > (s) || isnan(v) ? (v) : (s))
#define MAX_I(s, v) ((v) > (s) ? (v) : (s))
#define MIN_F(s, v) ((v) < (s) || isnan(v) ? (v) : (s))
#define MIN_I(s, v) ((v) < (s) ? (v) : (s))
#define MUL_F(s, v) ((s) * (double)(v))
#define MUL_I(s, v) ((s) * (uint64_t)(int64_t)(v)) /* wraps like Paddle's integer products */
#define AND_B(s, v) (uint8_t)((s) & ((v) != 0))
#define OR_B(s, v) (uint8_t)((s) | ((v) != 0))

REDUCE_LOOP(sum_f32, float, double, 0.0, ADD_F)
REDUCE_LOOP(sum_f64, double, double, 0.0, ADD_F)
REDUCE_LOOP(sum_i32, int32_t, uint64_t, 0, ADD_I)
REDUCE_LOOP(sum_i64, int64_t, uint64_t, 0, ADD_I)
REDUCE_LOOP(sum_bool, uint8_t, uint64_t, 0, ADD_I)
REDUCE_LOOP(max_f32, float, float, -INFINITY, MAX_F)
REDUCE_LOOP(max_f64, double, double, -INFINITY, MAX_F)
REDUCE_LOOP(max_i32, int32_t, int32_t, INT32_MIN, MAX_I)
REDUCE_LOOP(max_i64, int64_t, int64_t, INT64_MIN, MAX_I)
REDUCE_LOOP(min_f32, float, float, INFINITY, MIN_F)
REDUCE_LOOP(min_f64, double, double, INFINITY, MIN_F)
REDUCE_LOOP(min_i32, int32_t, int32_t, INT32_MAX, MIN_I)
REDUCE_LOOP(min_i64, int64_t, int64_t, INT64_MAX, MIN_I)
REDUCE_LOOP(prod_f32, float, double, 1.0, MUL_F)
REDUCE_LOOP(prod_f64, double, double, 1.0, MUL_F)
REDUCE_LOOP(prod_i32, int32_t, uint64_t, 1, MUL_I)
REDUCE_LOOP(prod_i64, int64_t, uint64_t, 1, MUL_I)
REDUCE_LOOP(all_f32, float, uint8_t, 1, AND_B)
REDUCE_LOOP(all_f64, double, uint8_t, 1, AND_B)
REDUCE_LOOP(all_i32, int32_t, uint8_t, 1, AND_B)
REDUCE_LOOP(all_i64, int64_t, uint8_t, 1, AND_B)
REDUCE_LOOP(all_u8, uint8_t, uint8_t, 1, AND_B)
REDUCE_LOOP(any_f32, float, uint8_t, 0, OR_B)
REDUCE_LOOP(any_f64, double, uint8_t, 0, OR_B)
REDUCE_LOOP(any_i32, int32_t, uint8_t, 0, OR_B)
REDUCE_LOOP(any_i64, int64_t, uint8_t, 0, OR_B)
REDUCE_LOOP(any_u8, uint8_t, uint8_t, 0, OR_B)


/* dst (n elements of `to`) = src (of `from`) converted element by element. */
static void convert(ic_dtype to, void *dst, ic_dtype from, const void *src, int64_t n) {
  for (int64_t k = 0; k < n; k++) {
    double f = 0;
    int64_t i = 0;
    switch (from) {
      case IC_FP32: f = ((const float *)src)[k]; break;
      case IC_FP64: f = ((const double *)src)[k]; break;
      case IC_INT32: i = ((const int32_t *)src)[k]; break;
      case IC_INT64: i = ((const int64_t *)src)[k]; break;
      default: i = ((const uint8_t *)src)[k] != 0; break;
    }
    bool fl = float_dtype(from);
    switch (to) {
      case IC_FP32: ((float *)dst)[k] = fl ? (float)f : (float)i; break;
      case IC_FP64: ((double *)dst)[k] = fl ? f : (double)i; break;
      case IC_INT32: ((int32_t *)dst)[k] = fl ? ic_reduce_f2i32(f) : (int32_t)(uint32_t)i; break;
      default: ((int64_t *)dst)[k] = fl ? ic_reduce_f2i64(f) : i; break;
    }
  }
}

/* max, min, amax, amin: in X's dtype. */
static ic_status run_extreme(ic_kctx *c, const geom *g, const ic_tensor *x, ic_tensor *out) {
  ic_reduce_kind k = ((const ic_reduce_attrs *)c->attrs)->kind;
  bool is_max = k == IC_REDUCE_MAX || k == IC_REDUCE_AMAX;
  if (g->in_n == 0) {
    if (k == IC_REDUCE_MAX || k == IC_REDUCE_MIN) {
      return ic_kfail_in(c, 0, 0, "cannot take the %s of no elements", is_max ? "max" : "min");
    }
    memset(out->data, 0, (size_t)g->out_n * ic_dtype_size(out->dtype));
    return IC_OK;
  }
  switch (x->dtype) {
    case IC_FP32: (is_max ? max_f32 : min_f32)(g, x->data, out->data); break;
    case IC_FP64: (is_max ? max_f64 : min_f64)(g, x->data, out->data); break;
    case IC_INT32: (is_max ? max_i32 : min_i32)(g, x->data, out->data); break;
    default: (is_max ? max_i64 : min_i64)(g, x->data, out->data); break;
  }
  return IC_OK;
}

/* all, any: bool Out from X of any dtype (nonzero is true). */
static void run_bool(ic_reduce_kind k, const geom *g, const ic_tensor *x, ic_tensor *out) {
  bool all = k == IC_REDUCE_ALL;
  if (g->in_n == 0) {
    memset(out->data, all, (size_t)g->out_n);
    return;
  }
  switch (x->dtype) {
    case IC_FP32: (all ? all_f32 : any_f32)(g, x->data, out->data); break;
    case IC_FP64: (all ? all_f64 : any_f64)(g, x->data, out->data); break;
    case IC_INT32: (all ? all_i32 : any_i32)(g, x->data, out->data); break;
    case IC_INT64: (all ? all_i64 : any_i64)(g, x->data, out->data); break;
    default: (all ? all_u8 : any_u8)(g, x->data, out->data); break;
  }
}

/* prod: in X's dtype, accumulated in double or wrapping 64-bit integers. */
static ic_status run_prod(ic_kctx *c, const geom *g, const ic_tensor *x, ic_tensor *out) {
  ic_buffer *tmp = NULL;
  void *acc = out->data;
  if (ic_dtype_size(x->dtype) != 8) {
    if (!(tmp = ic_kscratch(c, (size_t)g->out_n * 8))) return c->err->code;
    acc = tmp->data;
  }
  bool fl = float_dtype(x->dtype);
  if (g->in_n == 0) {
    for (int64_t k = 0; k < g->out_n; k++) {
      if (fl) ((double *)acc)[k] = 1.0;
      else ((uint64_t *)acc)[k] = 1;
    }
  } else {
    switch (x->dtype) {
      case IC_FP32: prod_f32(g, x->data, acc); break;
      case IC_FP64: prod_f64(g, x->data, acc); break;
      case IC_INT32: prod_i32(g, x->data, acc); break;
      default: prod_i64(g, x->data, acc); break;
    }
  }
  if (x->dtype == IC_FP32) {
    for (int64_t k = 0; k < g->out_n; k++) {
      ((float *)out->data)[k] = (float)((const double *)acc)[k];
    }
  } else if (x->dtype == IC_INT32) {
    for (int64_t k = 0; k < g->out_n; k++) {
      ((int32_t *)out->data)[k] = (int32_t)(uint32_t)((const uint64_t *)acc)[k];
    }
  }
  ic_buffer_release(tmp);
  return IC_OK;
}

/* logsumexp: X as doubles, its max per Out element, then m + log(sum(exp(x - m))). The
 * second pass walks X in the same group order as REDUCE_LOOP. */
static ic_status run_logsumexp(ic_kctx *c, const geom *g, const ic_tensor *x,
                               ic_tensor *out) {
  int64_t on = g->out_n;
  if (g->in_n == 0) {
    for (int64_t k = 0; k < on; k++) {
      if (out->dtype == IC_FP32) ((float *)out->data)[k] = -INFINITY;
      else ((double *)out->data)[k] = -INFINITY;
    }
    return IC_OK;
  }
  ic_buffer *xb = NULL, *mb = ic_kscratch(c, (size_t)on * 2 * sizeof(double));
  if (!mb) return c->err->code;
  const double *xd = x->data;
  if (x->dtype == IC_FP32) {
    if (!(xb = ic_kscratch(c, (size_t)g->in_n * sizeof(double)))) {
      ic_buffer_release(mb);
      return c->err->code;
    }
    convert(IC_FP64, xb->data, IC_FP32, x->data, g->in_n);
    xd = xb->data;
  }
  double *m = mb->data, *s = m + on;
  max_f64(g, xd, m);
  for (int64_t k = 0; k < on; k++) s[k] = 0.0;
  const int64_t len = g->size[g->n - 1], rows = g->in_n / len;
  const bool inner_red = g->red[g->n - 1];
  int64_t idx[IC_MAX_RANK] = {0}, base = 0;
  const double *xr = xd;
  for (int64_t row = 0; row < rows; row++, xr += len) {
    if (inner_red) {
      double mv = m[base], acc = 0.0;
      for (int64_t j = 0; j < len; j++) acc += exp(xr[j] - mv);
      s[base] += acc;
    } else {
      for (int64_t j = 0; j < len; j++) s[base + j] += exp(xr[j] - m[base + j]);
    }
    for (int d = g->n - 2; d >= 0; d--) {
      if (++idx[d] < g->size[d]) {
        base += g->ostride[d];
        break;
      }
      base -= g->ostride[d] * (g->size[d] - 1);
      idx[d] = 0;
    }
  }
  for (int64_t k = 0; k < on; k++) {
    double v = m[k] + log(s[k]);
    if (out->dtype == IC_FP32) ((float *)out->data)[k] = (float)v;
    else ((double *)out->data)[k] = v;
  }
  ic_buffer_release(xb);
  ic_buffer_release(mb);
  return IC_OK;
}

ic_status ic_reduce_geometry(ic_kctx *c, ic_reduce_geom *g) {
  const ic_tensor *x = ic_in(c, 0, 0);
  bool red[IC_MAX_RANK];
  ic_status st = reduced_axes(c, c->attrs, x, red);
  if (st) return st;
  make_geom(x, red, g);
  return IC_OK;
}

ic_status ic_reduce_cpu(ic_kctx *c) {
  const ic_reduce_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *out = ic_out(c, 0, 0);
  geom g;
  ic_status st = ic_reduce_geometry(c, &g);
  if (st) return st;
  if (ic_numel(out->ndim, out->dims) == 0) return IC_OK;
  switch (a->kind) {
    case IC_REDUCE_MAX:
    case IC_REDUCE_MIN:
    case IC_REDUCE_AMAX:
    case IC_REDUCE_AMIN: return run_extreme(c, &g, x, out);
    case IC_REDUCE_PROD: return run_prod(c, &g, x, out);
    case IC_REDUCE_ALL:
    case IC_REDUCE_ANY: run_bool(a->kind, &g, x, out); return IC_OK;
    case IC_REDUCE_LOGSUMEXP: return run_logsumexp(c, &g, x, out);
    default: break;
  }

  ic_dtype od = out->dtype;
  bool float_acc = float_dtype(od);
  ic_buffer *cast = NULL, *tmp = NULL, *wide = NULL;
  const void *src = x->data;
  ic_dtype sd = x->dtype;
  if (small_int(sd)) { /* int8 / uint8 / int16: widened to int64 first (exact) */
    if (!(wide = ic_kscratch(c, (size_t)g.in_n * sizeof(int64_t)))) return c->err->code;
    for (int64_t k = 0; k < g.in_n; k++) ((int64_t *)wide->data)[k] = ic_read_i64(x, k);
    src = wide->data;
    sd = IC_INT64;
  }
  /* Paddle converts X to out_dtype before summing; that matters unless the conversion is
   * exact (float to double, integer to int64) or integer wrapping commutes with the sum. */
  bool exact = (sd == IC_FP32 && od == IC_FP64) || (!float_dtype(sd) && !float_acc);
  if (sd != od && !exact) {
    if (!(cast = ic_kscratch(c, (size_t)g.in_n * ic_dtype_size(od)))) {
      ic_buffer_release(wide);
      return c->err->code;
    }
    convert(od, cast->data, sd, src, g.in_n);
    src = cast->data;
    sd = od;
  }
  /* Accumulators: Out's own buffer when it holds 8-byte values, else scratch. */
  void *acc = out->data;
  if (ic_dtype_size(od) != 8) {
    if (!(tmp = ic_kscratch(c, (size_t)g.out_n * 8))) {
      ic_buffer_release(cast);
      ic_buffer_release(wide);
      return c->err->code;
    }
    acc = tmp->data;
  }
  if (g.in_n == 0) {
    memset(acc, 0, (size_t)g.out_n * 8);
  } else {
    switch (sd) {
      case IC_FP32: sum_f32(&g, src, acc); break;
      case IC_FP64: sum_f64(&g, src, acc); break;
      case IC_INT32: sum_i32(&g, src, acc); break;
      case IC_INT64: sum_i64(&g, src, acc); break;
      default: sum_bool(&g, src, acc); break;
    }
  }
  int64_t count = g.out_n ? g.in_n / g.out_n : 0;
  bool mean = a->kind == IC_REDUCE_MEAN;
  for (int64_t k = 0; k < g.out_n; k++) {
    if (float_acc) {
      double v = ((const double *)acc)[k];
      if (mean) v /= (double)count; /* 0/0 is NaN, as in Paddle */
      if (od == IC_FP32) ((float *)out->data)[k] = (float)v;
      else ((double *)out->data)[k] = v;
    } else {
      int64_t v = (int64_t)((const uint64_t *)acc)[k];
      if (mean) v = count ? v / count : 0;
      if (od == IC_INT32) ((int32_t *)out->data)[k] = (int32_t)(uint32_t)v;
      else if (od == IC_INT16) ((int16_t *)out->data)[k] = (int16_t)(uint16_t)v;
      else if (od == IC_INT8) ((int8_t *)out->data)[k] = (int8_t)(uint8_t)v;
      else if (od == IC_UINT8) ((uint8_t *)out->data)[k] = (uint8_t)v;
      else ((int64_t *)out->data)[k] = v;
    }
  }
  ic_buffer_release(cast);
  ic_buffer_release(tmp);
  ic_buffer_release(wide);
  return IC_OK;
}
