/* Paddle's serialized LoDTensor: reading and writing one record (the format parameter files,
 * the save / load ops and single-tensor files share).
 *
 * One serialized LoDTensor (Paddle's SerializeToStream / DeserializeFromStream in
 * paddle/phi/core/framework/lod_tensor_serialize.cc, TensorToStream / TensorFromStream in
 * dense_tensor_serialize.cc), all integers little-endian:
 *
 *   uint32  LoDTensor version, 0
 *   uint64  number of LoD levels L
 *   L times: uint64 byte length B (a multiple of 8), then B/8 uint64 offsets
 *   uint32  tensor version, 0
 *   int32   byte length D of the TensorDesc message
 *   D bytes VarType.TensorDesc (data_type, dims)
 *   numel * sizeof(dtype) bytes of raw data, C order
 *
 * A combined file (X.pdiparams, __params__) is the parameters of block 0 sorted by name,
 * concatenated with nothing between and nothing after; the separate layout is one such
 * record per file, named after its variable (params.c). Every size read is checked against
 * the bytes that remain in the file before anything is allocated for it, so a corrupt or
 * hostile file costs at most its own size in memory. */
#include "scope/lodtensor_io.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "common/pballoc.h"
#include "framework.pb-c.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "icore reads and writes Paddle's little-endian parameter files on little-endian hosts only"
#endif

typedef Paddle__Framework__Proto__VarType__TensorDesc pb_tensor_desc;
/* protobuf-c generates pack/unpack only for top-level messages; TensorDesc is nested. */
#define k_desc_descriptor paddle__framework__proto__var_type__tensor_desc__descriptor

/* ---------------------------------------------------------------------------------------
 * Reading: a file with its size and a cursor, so that every length can be bounded by the
 * bytes that remain
 * ------------------------------------------------------------------------------------- */

ic_status ic_lt_fail(const ic_lt_src *s, const char *var, uint64_t off, ic_status code,
                          const char *fmt, ...) {
  char msg[IC_ERRMSG_MAX / 2];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (var) {
    return ic_err_set(s->err, code, "%s: variable '%s' at byte offset %llu: %s", s->path, var,
                      (unsigned long long)off, msg);
  }
  return ic_err_set(s->err, code, "%s: at byte offset %llu: %s", s->path,
                    (unsigned long long)off, msg);
}

uint64_t ic_lt_left(const ic_lt_src *s) { return s->size - s->off; }

/* Open path for reading and learn its size. A missing file is IC_ERR_NOT_FOUND. */
ic_status ic_lt_open(ic_lt_src *s, const char *path, const char *var, ic_err *err) {
  *s = (ic_lt_src){.path = path, .err = err};
  /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  s->f = fd >= 0 ? fdopen(fd, "rb") : NULL;
  if (!s->f) {
    int e = errno;
    if (fd >= 0) close(fd);
    const char *what = var ? "cannot open the file of variable '" : "cannot open";
    return ic_err_set(err, e == ENOENT ? IC_ERR_NOT_FOUND : IC_ERR_IO, "%s: %s%s%s: %s", path,
                      what, var ? var : "", var ? "'" : "", strerror(e));
  }
  struct stat st;
  const char *bad = fstat(fileno(s->f), &st) != 0 ? strerror(errno)
                    : S_ISDIR(st.st_mode)          ? "is a directory, expected a file"
                    : !S_ISREG(st.st_mode)         ? "is not a regular file"
                                                   : NULL;
  if (bad) {
    fclose(s->f);
    s->f = NULL;
    return ic_err_set(err, IC_ERR_IO, "%s: %s", path, bad);
  }
  s->size = (uint64_t)st.st_size;
  return IC_OK;
}

void ic_lt_close(ic_lt_src *s) {
  if (s->f) fclose(s->f);
  s->f = NULL;
}

/* Fail unless n more bytes remain for `what`. */
static ic_status ic_lt_need(const ic_lt_src *s, const char *var, uint64_t n, const char *what) {
  if (n <= ic_lt_left(s)) return IC_OK;
  return ic_lt_fail(s, var, s->off, IC_ERR_INVALID_PROGRAM,
                    "truncated: %s needs %llu bytes, only %llu remain in the file", what,
                    (unsigned long long)n, (unsigned long long)ic_lt_left(s));
}

static ic_status ic_lt_read(ic_lt_src *s, const char *var, void *dst, uint64_t n,
                            const char *what) {
  ic_status st = ic_lt_need(s, var, n, what);
  if (st) return st;
  if (n && fread(dst, 1, (size_t)n, s->f) != (size_t)n) {
    return ic_lt_fail(s, var, s->off, IC_ERR_IO, "read error in %s: %s", what,
                      ferror(s->f) ? strerror(errno) : "unexpected end of file");
  }
  s->off += n;
  return IC_OK;
}

static ic_status ic_lt_u32(ic_lt_src *s, const char *var, uint32_t *v, const char *what) {
  unsigned char b[4];
  ic_status st = ic_lt_read(s, var, b, 4, what);
  if (!st) *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  return st;
}

static ic_status ic_lt_u64(ic_lt_src *s, const char *var, uint64_t *v, const char *what) {
  unsigned char b[8];
  ic_status st = ic_lt_read(s, var, b, 8, what);
  if (st) return st;
  *v = 0;
  for (int i = 7; i >= 0; i--) *v = *v << 8 | b[i];
  return IC_OK;
}

/* "float32[2, 3]" for a dtype and dims pair. */
const char *ic_lt_describe(int dtype, int ndim, const int64_t *dims, char *buf, size_t len) {
  const char *name = ic_dtype_name(dtype);
  int n = snprintf(buf, len, "%s", name ? name : "?");
  if (n > 0 && (size_t)n < len) ic_dims_str(ndim, dims, buf + n, len - (size_t)n);
  return buf;
}

/* Whether a file's dtype may stand for the declared one (lodtensor_io.h). */
bool ic_lt_dtype_match(int declared, int held) {
  return declared == held || (held == IC_INT8 && (declared == IC_FP32 || declared == IC_FP64 ||
                                                  declared == IC_FP16 || declared == IC_BF16));
}

/* Whether file dims match a VarDesc's, where the VarDesc's -1 matches anything. */
bool ic_lt_dims_match(const ic_vardesc *v, int ndim, const int64_t *dims) {
  if (v->ndim != ndim) {
    /* dims that differ only by axes of size 1 ([] for [1], [1, 104] for [104]): Paddle's
     * PostTrainingQuantization saves its scales so, and Paddle's loader takes the file's dims */
    int i = 0, k = 0;
    for (;;) {
      while (i < v->ndim && v->dims[i] == 1) i++;
      while (k < ndim && dims[k] == 1) k++;
      if (i == v->ndim || k == ndim) return i == v->ndim && k == ndim;
      if (v->dims[i] < 0 || v->dims[i] != dims[k]) return false;
      i++;
      k++;
    }
  }
  for (int i = 0; i < ndim; i++) {
    if (v->dims[i] >= 0 && v->dims[i] != dims[i]) return false;
  }
  return true;
}

static ic_status ic_lt_read_lod(ic_lt_src *s, const char *var, ic_lod **out) {
  uint64_t at = s->off, n;
  ic_status st = ic_lt_u64(s, var, &n, "the LoD level count");
  if (st) return st;
  *out = NULL;
  if (n == 0) return IC_OK;
  /* Each level costs at least its 8-byte length, which bounds what a level count may be. */
  if (n > ic_lt_left(s) / 8) {
    return ic_lt_fail(s, var, at, IC_ERR_INVALID_PROGRAM,
                      "%llu LoD levels cannot fit in the %llu bytes that remain",
                      (unsigned long long)n, (unsigned long long)ic_lt_left(s));
  }
  ic_lod *lod = calloc(1, sizeof *lod);
  if (lod) lod->lens = calloc((size_t)n, sizeof *lod->lens);
  if (lod && lod->lens) lod->offsets = calloc((size_t)n, sizeof *lod->offsets);
  if (!lod || !lod->lens || !lod->offsets) {
    ic_lod_free(lod);
    return ic_lt_fail(s, var, at, IC_ERR_OUT_OF_MEMORY, "out of memory for %llu LoD levels",
                      (unsigned long long)n);
  }
  for (uint64_t l = 0; l < n; l++) {
    uint64_t lat = s->off, bytes;
    char what[64];
    snprintf(what, sizeof what, "LoD level %llu", (unsigned long long)l);
    if ((st = ic_lt_u64(s, var, &bytes, what))) goto fail;
    if (bytes % 8) {
      st = ic_lt_fail(s, var, lat, IC_ERR_INVALID_PROGRAM,
                      "LoD level %llu is %llu bytes long, expected a multiple of 8",
                      (unsigned long long)l, (unsigned long long)bytes);
      goto fail;
    }
    if ((st = ic_lt_need(s, var, bytes, what))) goto fail;
    lod->offsets[l] = malloc(bytes ? (size_t)bytes : 1);
    if (!lod->offsets[l]) {
      st = ic_lt_fail(s, var, s->off, IC_ERR_OUT_OF_MEMORY, "out of memory for %s", what);
      goto fail;
    }
    lod->n_levels = (size_t)l + 1;
    lod->lens[l] = (size_t)(bytes / 8);
    if ((st = ic_lt_read(s, var, lod->offsets[l], bytes, what))) goto fail;
  }
  *out = lod;
  return IC_OK;
fail:
  ic_lod_free(lod);
  return st;
}

/* Read one serialized LoDTensor at the cursor into t (fresh storage from the plain
 * allocator). When want is given, the stored dtype and dims must agree with it. */
ic_status ic_lt_read_tensor(ic_lt_src *s, const char *var, const ic_vardesc *want, ic_tensor *t) {
  uint32_t version;
  uint64_t at = s->off;
  ic_lod *lod = NULL;
  pb_tensor_desc *desc = NULL;
  ic_pb_allocator pba;
  unsigned char *desc_bytes = NULL;
  char got[160], exp[160];
  ic_status st;
  ic_tensor_init(t);
  if ((st = ic_lt_u32(s, var, &version, "the LoDTensor version"))) goto done;
  if (version != 0) {
    st = ic_lt_fail(s, var, at, IC_ERR_INVALID_PROGRAM, "LoDTensor version is %u, expected 0",
                    version);
    goto done;
  }
  if ((st = ic_lt_read_lod(s, var, &lod))) goto done;
  at = s->off;
  if ((st = ic_lt_u32(s, var, &version, "the tensor version"))) goto done;
  if (version != 0) {
    st = ic_lt_fail(s, var, at, IC_ERR_INVALID_PROGRAM, "tensor version is %u, expected 0",
                    version);
    goto done;
  }
  at = s->off;
  uint32_t raw_len;
  if ((st = ic_lt_u32(s, var, &raw_len, "the TensorDesc length"))) goto done;
  int32_t desc_len = (int32_t)raw_len;
  if (desc_len < 0) {
    st = ic_lt_fail(s, var, at, IC_ERR_INVALID_PROGRAM, "TensorDesc length is %d, expected >= 0",
                    desc_len);
    goto done;
  }
  if ((st = ic_lt_need(s, var, (uint64_t)desc_len, "the TensorDesc"))) goto done;
  at = s->off;
  desc_bytes = malloc(desc_len ? (size_t)desc_len : 1);
  if (!desc_bytes) {
    st = ic_lt_fail(s, var, at, IC_ERR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  if ((st = ic_lt_read(s, var, desc_bytes, (uint64_t)desc_len, "the TensorDesc"))) goto done;
  desc = (pb_tensor_desc *)protobuf_c_message_unpack(&k_desc_descriptor, ic_pb_allocator_init(&pba),
                                                      (size_t)desc_len, desc_bytes);
  if (!desc && pba.failed) {
    st = ic_lt_fail(s, var, at, IC_ERR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  if (!desc) {
    st = ic_lt_fail(s, var, at, IC_ERR_INVALID_PROGRAM,
                    "the %d-byte TensorDesc does not parse (corrupt, or lacks data_type)",
                    desc_len);
    goto done;
  }
  int dtype = (int)desc->data_type;
  size_t es = ic_dtype_size(dtype);
  if (es == 0) {
    st = ic_lt_fail(s, var, at, IC_ERR_UNSUPPORTED,
                    "data type %d is not supported; expected one of bool, int8, uint8, int16, "
                    "int32, int64, float16, bfloat16, float32, float64",
                    dtype);
    goto done;
  }
  if (desc->n_dims > IC_MAX_RANK) {
    st = ic_lt_fail(s, var, at, IC_ERR_INVALID_PROGRAM, "%zu dims, at most %d allowed",
                    desc->n_dims, IC_MAX_RANK);
    goto done;
  }
  int ndim = (int)desc->n_dims;
  for (int i = 0; i < ndim; i++) {
    if (desc->dims[i] < 0) {
      st = ic_lt_fail(s, var, at, IC_ERR_INVALID_PROGRAM, "dim %d is %lld, expected >= 0", i,
                      (long long)desc->dims[i]);
      goto done;
    }
  }
  ic_lt_describe(dtype, ndim, desc->dims, got, sizeof got);
  if (want && (!ic_lt_dtype_match((int)want->dtype, dtype) || !ic_lt_dims_match(want, ndim, desc->dims))) {
    ic_lt_describe(want->dtype, want->ndim, want->dims, exp, sizeof exp);
    st = ic_lt_fail(s, var, at, IC_ERR_INVALID_PROGRAM,
                    "the file holds %s, the program declares %s", got, exp);
    goto done;
  }
  int64_t numel = ic_numel(ndim, desc->dims);
  if (numel < 0 || (uint64_t)numel > UINT64_MAX / es || (uint64_t)numel * es > SIZE_MAX) {
    st = ic_lt_fail(s, var, at, IC_ERR_INVALID_PROGRAM, "the element count of %s overflows", got);
    goto done;
  }
  uint64_t bytes = (uint64_t)numel * es;
  char what[200];
  snprintf(what, sizeof what, "the data of %s", got);
  if ((st = ic_lt_need(s, var, bytes, what))) goto done;
  ic_tensor_set_meta(t, (ic_dtype)dtype, ndim, desc->dims);
  if ((st = ic_tensor_alloc(t, NULL, s->err))) {
    ic_lt_fail(s, var, s->off, st, "%s", s->err->msg);
    goto done;
  }
  if ((st = ic_lt_read(s, var, t->data, bytes, what))) goto done;
  t->lod = lod;
  lod = NULL;
done:
  if (st) ic_tensor_reset(t);
  ic_lod_free(lod);
  if (desc) protobuf_c_message_free_unpacked(&desc->base, ic_pb_allocator_init(&pba));
  free(desc_bytes);
  return st;
}

/* Nothing may follow the last expected tensor. */
ic_status ic_lt_expect_end(const ic_lt_src *s, const char *last_var, const char *after) {
  if (ic_lt_left(s) == 0) return IC_OK;
  return ic_lt_fail(s, last_var, s->off, IC_ERR_INVALID_PROGRAM,
                    "%llu trailing bytes after %s; the file is longer than declared",
                    (unsigned long long)ic_lt_left(s), after);
}

/* ---------------------------------------------------------------------------------------
 * Writing
 * ------------------------------------------------------------------------------------- */

static void ic_lt_put_u32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static void ic_lt_put_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static ic_status ic_lt_write_bytes(FILE *f, const char *path, const char *var, const void *p,
                                   size_t n, ic_err *err) {
  if (n == 0 || fwrite(p, 1, n, f) == n) return IC_OK;
  return ic_err_set(err, IC_ERR_IO, "%s: writing variable '%s': %s", path, var ? var : "tensor",
                    strerror(errno));
}

/* Append t as one serialized LoDTensor. */
ic_status ic_lt_write_tensor(FILE *f, const char *path, const char *var, const ic_tensor *t,
                              ic_err *err) {
  char d[160];
  int64_t numel = ic_numel(t->ndim, t->dims);
  size_t es = ic_dtype_size(t->dtype);
  if (es == 0 || numel < 0 || (numel > 0 && !t->data)) {
    return ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "%s: variable '%s' (%s) %s", path,
                      var ? var : "tensor", ic_tensor_describe(t, d, sizeof d),
                      es == 0 ? "has an unsupported dtype" : "holds no data");
  }
  unsigned char head[12];
  const ic_lod *lod = t->lod;
  ic_lt_put_u32(head, 0);
  ic_lt_put_u64(head + 4, lod ? lod->n_levels : 0);
  ic_status st = ic_lt_write_bytes(f, path, var, head, 12, err);
  for (size_t l = 0; !st && lod && l < lod->n_levels; l++) {
    ic_lt_put_u64(head, (uint64_t)lod->lens[l] * 8);
    st = ic_lt_write_bytes(f, path, var, head, 8, err);
    if (!st) st = ic_lt_write_bytes(f, path, var, lod->offsets[l], lod->lens[l] * 8, err);
  }
  if (st) return st;
  pb_tensor_desc desc = PADDLE__FRAMEWORK__PROTO__VAR_TYPE__TENSOR_DESC__INIT;
  int64_t dims[IC_MAX_RANK];
  memcpy(dims, t->dims, sizeof dims);
  desc.data_type = (Paddle__Framework__Proto__VarType__Type)t->dtype;
  desc.n_dims = (size_t)t->ndim;
  desc.dims = dims;
  size_t n = protobuf_c_message_get_packed_size(&desc.base);
  unsigned char *buf = malloc(n + 8);
  if (!buf) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory writing %s", path);
  ic_lt_put_u32(buf, 0);
  ic_lt_put_u32(buf + 4, (uint32_t)n);
  protobuf_c_message_pack(&desc.base, buf + 8);
  st = ic_lt_write_bytes(f, path, var, buf, n + 8, err);
  free(buf);
  if (!st) st = ic_lt_write_bytes(f, path, var, t->data, (size_t)numel * es, err);
  return st;
}

ic_status ic_lt_create(const char *path, FILE **f, ic_err *err) {
  *f = fopen(path, "wb");
  if (*f) return IC_OK;
  return ic_err_set(err, IC_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
}

ic_status ic_lt_close_out(FILE *f, const char *path, ic_status st, ic_err *err) {
  if (fclose(f) != 0 && !st) {
    st = ic_err_set(err, IC_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  }
  return st;
}
/* ---------------------------------------------------------------------------------------
 * Storage-only float types
 * ------------------------------------------------------------------------------------- */

/* Round-to-nearest-even conversions for the storage-only float types. */
uint16_t ic_f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  uint32_t ax = x & 0x7FFFFFFFu;
  if (ax >= 0x7F800000u) return sign | (ax > 0x7F800000u ? 0x7E00u : 0x7C00u);
  if (ax >= 0x477FF000u) return sign | 0x7C00u; /* rounds past 65504 */
  if (ax < 0x38800000u) {                        /* a float16 subnormal or zero */
    float a;
    memcpy(&a, &ax, 4);
    return sign | (uint16_t)lrintf(a * 16777216.0f);
  }
  return sign | (uint16_t)((ax - 0x38000000u + 0xFFFu + ((ax >> 13) & 1u)) >> 13);
}

uint16_t ic_f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((x >> 16) | 0x40u);
  return (uint16_t)((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}
