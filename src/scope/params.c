/* Parameters on disk in Paddle's formats, synthetic parameters, and model loading.
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
 * record per file, named after its variable. Every size read is checked against the bytes
 * that remain in the file before anything is allocated for it, so a corrupt or hostile file
 * costs at most its own size in memory. */
#include "scope/params.h"

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
#include <xxhash.h>

#include "common/pballoc.h"
#include "framework.pb-c.h"
#include "scope/scope.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "icore reads and writes Paddle's little-endian parameter files on little-endian hosts only"
#endif

typedef Paddle__Framework__Proto__VarType__TensorDesc pb_tensor_desc;
/* protobuf-c generates pack/unpack only for top-level messages; TensorDesc is nested. */
#define k_desc_descriptor paddle__framework__proto__var_type__tensor_desc__descriptor

enum { k_lod_tensor = 7 };

/* ---------------------------------------------------------------------------------------
 * Which variables are parameters
 * ------------------------------------------------------------------------------------- */

bool ic_is_param(const ic_vardesc *v) {
  return v->persistable && v->type == k_lod_tensor && v->is_tensor && v->block == 0;
}

static int vardesc_cmp(const void *a, const void *b) {
  return strcmp((*(const ic_vardesc *const *)a)->name, (*(const ic_vardesc *const *)b)->name);
}

ic_status ic_params_list(const ic_program *p, const ic_vardesc ***out, size_t *n, ic_err *err) {
  *out = NULL;
  *n = 0;
  const ic_block *b = &p->blocks[0];
  size_t k = 0;
  for (size_t i = 0; i < b->n_vars; i++) k += ic_is_param(&b->vars[i]);
  if (k == 0) return IC_OK;
  const ic_vardesc **list = malloc(k * sizeof *list);
  if (!list) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory listing parameters");
  k = 0;
  for (size_t i = 0; i < b->n_vars; i++) {
    if (ic_is_param(&b->vars[i])) list[k++] = &b->vars[i];
  }
  qsort(list, k, sizeof *list, vardesc_cmp);
  *out = list;
  *n = k;
  return IC_OK;
}

/* ---------------------------------------------------------------------------------------
 * Reading: a file with its size and a cursor, so that every length can be bounded by the
 * bytes that remain
 * ------------------------------------------------------------------------------------- */

typedef struct src {
  FILE *f;
  const char *path;
  uint64_t size; /* file size in bytes */
  uint64_t off;  /* bytes consumed so far */
  ic_err *err;
} src;

/* Fail with "FILE: variable 'x' at byte offset N: message" (no variable for a lone tensor). */
static ic_status src_fail(const src *s, const char *var, uint64_t off, ic_status code,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static ic_status src_fail(const src *s, const char *var, uint64_t off, ic_status code,
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

static uint64_t src_left(const src *s) { return s->size - s->off; }

/* Open path for reading and learn its size. A missing file is IC_ERR_NOT_FOUND. */
static ic_status src_open(src *s, const char *path, const char *var, ic_err *err) {
  *s = (src){.path = path, .err = err};
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

static void src_close(src *s) {
  if (s->f) fclose(s->f);
  s->f = NULL;
}

/* Fail unless n more bytes remain for `what`. */
static ic_status src_need(const src *s, const char *var, uint64_t n, const char *what) {
  if (n <= src_left(s)) return IC_OK;
  return src_fail(s, var, s->off, IC_ERR_INVALID_PROGRAM,
                  "truncated: %s needs %llu bytes, only %llu remain in the file", what,
                  (unsigned long long)n, (unsigned long long)src_left(s));
}

static ic_status src_read(src *s, const char *var, void *dst, uint64_t n, const char *what) {
  ic_status st = src_need(s, var, n, what);
  if (st) return st;
  if (n && fread(dst, 1, (size_t)n, s->f) != (size_t)n) {
    return src_fail(s, var, s->off, IC_ERR_IO, "read error in %s: %s", what,
                    ferror(s->f) ? strerror(errno) : "unexpected end of file");
  }
  s->off += n;
  return IC_OK;
}

static ic_status src_u32(src *s, const char *var, uint32_t *v, const char *what) {
  unsigned char b[4];
  ic_status st = src_read(s, var, b, 4, what);
  if (!st) *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  return st;
}

static ic_status src_u64(src *s, const char *var, uint64_t *v, const char *what) {
  unsigned char b[8];
  ic_status st = src_read(s, var, b, 8, what);
  if (st) return st;
  *v = 0;
  for (int i = 7; i >= 0; i--) *v = *v << 8 | b[i];
  return IC_OK;
}

/* "float32[2, 3]" for a dtype and dims pair. */
static const char *describe(int dtype, int ndim, const int64_t *dims, char *buf, size_t len) {
  const char *name = ic_dtype_name(dtype);
  int n = snprintf(buf, len, "%s", name ? name : "?");
  if (n > 0 && (size_t)n < len) ic_dims_str(ndim, dims, buf + n, len - (size_t)n);
  return buf;
}

/* Whether file dims match a VarDesc's, where the VarDesc's -1 matches anything. */
static bool dims_match(const ic_vardesc *v, int ndim, const int64_t *dims) {
  if (v->ndim != ndim) return false;
  for (int i = 0; i < ndim; i++) {
    if (v->dims[i] >= 0 && v->dims[i] != dims[i]) return false;
  }
  return true;
}

static ic_status read_lod(src *s, const char *var, ic_lod **out) {
  uint64_t at = s->off, n;
  ic_status st = src_u64(s, var, &n, "the LoD level count");
  if (st) return st;
  *out = NULL;
  if (n == 0) return IC_OK;
  /* Each level costs at least its 8-byte length, which bounds what a level count may be. */
  if (n > src_left(s) / 8) {
    return src_fail(s, var, at, IC_ERR_INVALID_PROGRAM,
                    "%llu LoD levels cannot fit in the %llu bytes that remain",
                    (unsigned long long)n, (unsigned long long)src_left(s));
  }
  ic_lod *lod = calloc(1, sizeof *lod);
  if (lod) lod->lens = calloc((size_t)n, sizeof *lod->lens);
  if (lod && lod->lens) lod->offsets = calloc((size_t)n, sizeof *lod->offsets);
  if (!lod || !lod->lens || !lod->offsets) {
    ic_lod_free(lod);
    return src_fail(s, var, at, IC_ERR_OUT_OF_MEMORY, "out of memory for %llu LoD levels",
                    (unsigned long long)n);
  }
  for (uint64_t l = 0; l < n; l++) {
    uint64_t lat = s->off, bytes;
    char what[64];
    snprintf(what, sizeof what, "LoD level %llu", (unsigned long long)l);
    if ((st = src_u64(s, var, &bytes, what))) goto fail;
    if (bytes % 8) {
      st = src_fail(s, var, lat, IC_ERR_INVALID_PROGRAM,
                    "LoD level %llu is %llu bytes long, expected a multiple of 8",
                    (unsigned long long)l, (unsigned long long)bytes);
      goto fail;
    }
    if ((st = src_need(s, var, bytes, what))) goto fail;
    lod->offsets[l] = malloc(bytes ? (size_t)bytes : 1);
    if (!lod->offsets[l]) {
      st = src_fail(s, var, s->off, IC_ERR_OUT_OF_MEMORY, "out of memory for %s", what);
      goto fail;
    }
    lod->n_levels = (size_t)l + 1;
    lod->lens[l] = (size_t)(bytes / 8);
    if ((st = src_read(s, var, lod->offsets[l], bytes, what))) goto fail;
  }
  *out = lod;
  return IC_OK;
fail:
  ic_lod_free(lod);
  return st;
}

/* Read one serialized LoDTensor at the cursor into t (fresh storage from the plain
 * allocator). When want is given, the stored dtype and dims must agree with it. */
static ic_status read_tensor(src *s, const char *var, const ic_vardesc *want, ic_tensor *t) {
  uint32_t version;
  uint64_t at = s->off;
  ic_lod *lod = NULL;
  pb_tensor_desc *desc = NULL;
  ic_pb_allocator pba;
  unsigned char *desc_bytes = NULL;
  char got[160], exp[160];
  ic_status st;
  ic_tensor_init(t);
  if ((st = src_u32(s, var, &version, "the LoDTensor version"))) goto done;
  if (version != 0) {
    st = src_fail(s, var, at, IC_ERR_INVALID_PROGRAM, "LoDTensor version is %u, expected 0",
                  version);
    goto done;
  }
  if ((st = read_lod(s, var, &lod))) goto done;
  at = s->off;
  if ((st = src_u32(s, var, &version, "the tensor version"))) goto done;
  if (version != 0) {
    st = src_fail(s, var, at, IC_ERR_INVALID_PROGRAM, "tensor version is %u, expected 0",
                  version);
    goto done;
  }
  at = s->off;
  uint32_t raw_len;
  if ((st = src_u32(s, var, &raw_len, "the TensorDesc length"))) goto done;
  int32_t desc_len = (int32_t)raw_len;
  if (desc_len < 0) {
    st = src_fail(s, var, at, IC_ERR_INVALID_PROGRAM, "TensorDesc length is %d, expected >= 0",
                  desc_len);
    goto done;
  }
  if ((st = src_need(s, var, (uint64_t)desc_len, "the TensorDesc"))) goto done;
  at = s->off;
  desc_bytes = malloc(desc_len ? (size_t)desc_len : 1);
  if (!desc_bytes) {
    st = src_fail(s, var, at, IC_ERR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  if ((st = src_read(s, var, desc_bytes, (uint64_t)desc_len, "the TensorDesc"))) goto done;
  desc = (pb_tensor_desc *)protobuf_c_message_unpack(&k_desc_descriptor, ic_pb_allocator_init(&pba),
                                                      (size_t)desc_len, desc_bytes);
  if (!desc && pba.failed) {
    st = src_fail(s, var, at, IC_ERR_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  if (!desc) {
    st = src_fail(s, var, at, IC_ERR_INVALID_PROGRAM,
                  "the %d-byte TensorDesc does not parse (corrupt, or lacks data_type)",
                  desc_len);
    goto done;
  }
  int dtype = (int)desc->data_type;
  size_t es = ic_dtype_size(dtype);
  if (es == 0) {
    st = src_fail(s, var, at, IC_ERR_UNSUPPORTED,
                  "data type %d is not supported; expected one of bool, int8, uint8, int16, "
                  "int32, int64, float16, bfloat16, float32, float64",
                  dtype);
    goto done;
  }
  if (desc->n_dims > IC_MAX_RANK) {
    st = src_fail(s, var, at, IC_ERR_INVALID_PROGRAM, "%zu dims, at most %d allowed",
                  desc->n_dims, IC_MAX_RANK);
    goto done;
  }
  int ndim = (int)desc->n_dims;
  for (int i = 0; i < ndim; i++) {
    if (desc->dims[i] < 0) {
      st = src_fail(s, var, at, IC_ERR_INVALID_PROGRAM, "dim %d is %lld, expected >= 0", i,
                    (long long)desc->dims[i]);
      goto done;
    }
  }
  describe(dtype, ndim, desc->dims, got, sizeof got);
  if (want && ((int)want->dtype != dtype || !dims_match(want, ndim, desc->dims))) {
    describe(want->dtype, want->ndim, want->dims, exp, sizeof exp);
    st = src_fail(s, var, at, IC_ERR_INVALID_PROGRAM,
                  "the file holds %s, the program declares %s", got, exp);
    goto done;
  }
  int64_t numel = ic_numel(ndim, desc->dims);
  if (numel < 0 || (uint64_t)numel > UINT64_MAX / es || (uint64_t)numel * es > SIZE_MAX) {
    st = src_fail(s, var, at, IC_ERR_INVALID_PROGRAM, "the element count of %s overflows", got);
    goto done;
  }
  uint64_t bytes = (uint64_t)numel * es;
  char what[200];
  snprintf(what, sizeof what, "the data of %s", got);
  if ((st = src_need(s, var, bytes, what))) goto done;
  ic_tensor_set_meta(t, (ic_dtype)dtype, ndim, desc->dims);
  if ((st = ic_tensor_alloc(t, NULL, s->err))) {
    src_fail(s, var, s->off, st, "%s", s->err->msg);
    goto done;
  }
  if ((st = src_read(s, var, t->data, bytes, what))) goto done;
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
static ic_status expect_end(const src *s, const char *last_var, const char *after) {
  if (src_left(s) == 0) return IC_OK;
  return src_fail(s, last_var, s->off, IC_ERR_INVALID_PROGRAM,
                  "%llu trailing bytes after %s; the file is longer than declared",
                  (unsigned long long)src_left(s), after);
}

/* ---------------------------------------------------------------------------------------
 * Writing
 * ------------------------------------------------------------------------------------- */

static void put_u32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static ic_status write_bytes(FILE *f, const char *path, const char *var, const void *p,
                             size_t n, ic_err *err) {
  if (n == 0 || fwrite(p, 1, n, f) == n) return IC_OK;
  return ic_err_set(err, IC_ERR_IO, "%s: writing variable '%s': %s", path, var ? var : "tensor",
                    strerror(errno));
}

/* Append t as one serialized LoDTensor. */
static ic_status write_tensor(FILE *f, const char *path, const char *var, const ic_tensor *t,
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
  put_u32(head, 0);
  put_u64(head + 4, lod ? lod->n_levels : 0);
  ic_status st = write_bytes(f, path, var, head, 12, err);
  for (size_t l = 0; !st && lod && l < lod->n_levels; l++) {
    put_u64(head, (uint64_t)lod->lens[l] * 8);
    st = write_bytes(f, path, var, head, 8, err);
    if (!st) st = write_bytes(f, path, var, lod->offsets[l], lod->lens[l] * 8, err);
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
  put_u32(buf, 0);
  put_u32(buf + 4, (uint32_t)n);
  protobuf_c_message_pack(&desc.base, buf + 8);
  st = write_bytes(f, path, var, buf, n + 8, err);
  free(buf);
  if (!st) st = write_bytes(f, path, var, t->data, (size_t)numel * es, err);
  return st;
}

static ic_status open_out(const char *path, FILE **f, ic_err *err) {
  *f = fopen(path, "wb");
  if (*f) return IC_OK;
  return ic_err_set(err, IC_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
}

static ic_status close_out(FILE *f, const char *path, ic_status st, ic_err *err) {
  if (fclose(f) != 0 && !st) {
    st = ic_err_set(err, IC_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  }
  return st;
}

/* ---------------------------------------------------------------------------------------
 * Parameter sets
 * ------------------------------------------------------------------------------------- */

/* Store t in scope under name, taking over its storage and LoD. */
static ic_status put_tensor(ic_scope *scope, const char *name, ic_tensor *t, ic_err *err) {
  ic_variable *v = ic_scope_var(scope, name);
  if (!v) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory storing '%s'", name);
  ic_variable_clear(v);
  v->kind = IC_VK_TENSOR;
  v->tensor = *t;
  ic_tensor_init(t);
  return IC_OK;
}

/* dir + "/" + name; names that would leave the directory are refused. */
static ic_status join_path(const char *dir, const char *name, char **out, ic_err *err) {
  *out = NULL;
  bool bad = name[0] == '\0' || name[0] == '/';
  for (const char *c = name; !bad && *c;) {
    size_t n = strcspn(c, "/");
    bad = n == 2 && c[0] == '.' && c[1] == '.';
    c += n + (c[n] == '/');
  }
  if (bad) {
    return ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "%s: variable '%s' cannot be stored as a file of that directory: its "
                      "name is empty, absolute or contains '..'",
                      dir, name);
  }
  size_t n = strlen(dir) + strlen(name) + 2;
  if (!(*out = malloc(n))) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  snprintf(*out, n, "%s/%s", dir, name);
  return IC_OK;
}

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static ic_params_format resolve_format(const char *path, ic_params_format fmt) {
  if (fmt != IC_PARAMS_AUTO) return fmt;
  return is_dir(path) ? IC_PARAMS_SEPARATE : IC_PARAMS_COMBINED;
}

static ic_status load_params(const ic_program *p, const char *path, ic_params_format fmt,
                             ic_scope *scope, ic_err *err) {
  const ic_vardesc **vars = NULL;
  size_t n = 0, loaded = 0;
  ic_tensor *ts = NULL;
  src s = {0};
  ic_status st = ic_params_list(p, &vars, &n, err);
  if (st) return st;
  fmt = resolve_format(path, fmt);
  if (fmt != IC_PARAMS_COMBINED && fmt != IC_PARAMS_SEPARATE) {
    st = ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "%s: unknown parameter format %d", path,
                    (int)fmt);
    goto done;
  }
  ts = calloc(n ? n : 1, sizeof *ts);
  if (!ts) {
    st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory loading %s", path);
    goto done;
  }
  if (fmt == IC_PARAMS_COMBINED) {
    if ((st = src_open(&s, path, NULL, err))) goto done;
    for (; loaded < n; loaded++) {
      if ((st = read_tensor(&s, vars[loaded]->name, vars[loaded], &ts[loaded]))) goto done;
    }
    if (n == 0 && src_left(&s)) {
      st = src_fail(&s, NULL, 0, IC_ERR_INVALID_PROGRAM,
                    "%llu bytes, but the program has no parameters; the file is longer than "
                    "declared",
                    (unsigned long long)src_left(&s));
      goto done;
    }
    if (n && (st = expect_end(&s, vars[n - 1]->name, "the last expected variable"))) goto done;
  } else {
    if (!is_dir(path)) {
      st = ic_err_set(err, exists(path) ? IC_ERR_IO : IC_ERR_NOT_FOUND,
                      "%s: expected a directory with one file per parameter", path);
      goto done;
    }
    for (; loaded < n; loaded++) {
      char *file;
      const char *name = vars[loaded]->name;
      if ((st = join_path(path, name, &file, err))) goto done;
      st = src_open(&s, file, name, err);
      if (!st) st = read_tensor(&s, name, vars[loaded], &ts[loaded]);
      if (!st) st = expect_end(&s, name, "its tensor");
      src_close(&s);
      free(file);
      if (st) goto done;
    }
  }
  /* Only a fully read set reaches the scope, so a failed load leaves it as it was. */
  for (size_t i = 0; i < n && !st; i++) st = put_tensor(scope, vars[i]->name, &ts[i], err);
done:
  src_close(&s);
  for (size_t i = 0; ts && i < n; i++) ic_tensor_reset(&ts[i]);
  free(ts);
  free(vars);
  return st;
}

/* The scope's tensor for parameter v, checked against the VarDesc. */
static ic_status param_tensor(const ic_scope *scope, const ic_vardesc *v, const char *path,
                              const ic_tensor **out, ic_err *err) {
  const ic_variable *var = ic_scope_find(scope, v->name);
  char got[160], exp[160];
  *out = NULL;
  if (!var || var->kind != IC_VK_TENSOR ||
      (!var->tensor.data && ic_numel(var->tensor.ndim, var->tensor.dims) != 0)) {
    return ic_err_set(err, IC_ERR_NOT_FOUND,
                      "%s: parameter '%s' has no tensor in the scope to save", path, v->name);
  }
  const ic_tensor *t = &var->tensor;
  if (t->dtype != v->dtype || !dims_match(v, t->ndim, t->dims)) {
    return ic_err_set(err, IC_ERR_INVALID_ARGUMENT,
                      "%s: parameter '%s' is %s in the scope, the program declares %s", path,
                      v->name, ic_tensor_describe(t, got, sizeof got),
                      describe(v->dtype, v->ndim, v->dims, exp, sizeof exp));
  }
  *out = t;
  return IC_OK;
}

/* Create the directories of file below its first `from` bytes: a parameter named "fc/w"
 * is the file fc/w of the layout, as Paddle's save op writes it. */
static ic_status make_parents(char *file, size_t from, ic_err *err) {
  for (char *c = file + from; (c = strchr(c, '/')); c++) {
    *c = '\0';
    bool ok = mkdir(file, 0777) == 0 || errno == EEXIST;
    int e = errno;
    *c = '/';
    if (!ok) {
      *c = '\0';
      ic_err_set(err, IC_ERR_IO, "%s: cannot create the directory: %s", file, strerror(e));
      *c = '/';
      return err->code;
    }
  }
  return IC_OK;
}

static ic_status save_params(const ic_program *p, const ic_scope *scope, const char *path,
                             ic_params_format fmt, ic_err *err) {
  const ic_vardesc **vars = NULL;
  size_t n = 0;
  FILE *f = NULL;
  ic_status st = ic_params_list(p, &vars, &n, err);
  if (st) return st;
  fmt = resolve_format(path, fmt);
  /* Check every tensor before writing anything, so a bad scope leaves no partial files. */
  for (size_t i = 0; i < n && !st; i++) {
    const ic_tensor *t;
    st = param_tensor(scope, vars[i], path, &t, err);
  }
  if (st) goto done;
  if (fmt == IC_PARAMS_COMBINED) {
    if ((st = open_out(path, &f, err))) goto done;
    for (size_t i = 0; i < n && !st; i++) {
      const ic_tensor *t;
      st = param_tensor(scope, vars[i], path, &t, err);
      if (!st) st = write_tensor(f, path, vars[i]->name, t, err);
    }
    st = close_out(f, path, st, err);
  } else if (fmt == IC_PARAMS_SEPARATE) {
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
      st = ic_err_set(err, IC_ERR_IO, "%s: cannot create the directory: %s", path,
                      strerror(errno));
      goto done;
    }
    for (size_t i = 0; i < n && !st; i++) {
      const ic_tensor *t;
      char *file;
      if ((st = param_tensor(scope, vars[i], path, &t, err))) break;
      if ((st = join_path(path, vars[i]->name, &file, err))) break;
      st = make_parents(file, strlen(path) + 1, err);
      if (!st && !(st = open_out(file, &f, err))) {
        st = write_tensor(f, file, vars[i]->name, t, err);
        st = close_out(f, file, st, err);
      }
      free(file);
    }
  } else {
    st = ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "%s: unknown parameter format %d", path,
                    (int)fmt);
  }
done:
  free(vars);
  return st;
}

/* ---------------------------------------------------------------------------------------
 * Synthetic parameters
 * ------------------------------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* Round-to-nearest-even conversions for the storage-only float types. */
static uint16_t f32_to_f16(float f) {
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

static uint16_t f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((x >> 16) | 0x40u);
  return (uint16_t)((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

/* Variables read as the Variance of a batch norm: synthetic variances must be positive. */
static ic_status collect_variances(const ic_program *p, ic_strmap *out, ic_err *err) {
  static const char *const bn_types[] = {"batch_norm", "sync_batch_norm"};
  for (size_t b = 0; b < p->n_blocks; b++) {
    for (size_t i = 0; i < p->blocks[b].n_ops; i++) {
      const ic_op *op = &p->blocks[b].ops[i];
      bool bn = false;
      for (size_t k = 0; k < sizeof bn_types / sizeof bn_types[0]; k++) {
        bn |= strcmp(op->type, bn_types[k]) == 0;
      }
      const ic_slot *s = bn ? ic_op_input(op, "Variance") : NULL;
      for (size_t k = 0; s && k < s->n; k++) {
        if (!ic_strmap_put(out, s->args[k], (void *)s->args[k])) {
          return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
        }
      }
    }
  }
  return IC_OK;
}

/* Element k of the stream keyed by (seed, name): uniform in [0, 1), a pure function of its
 * arguments so values do not depend on declaration order or on other variables. */
static double uniform_at(uint64_t stream, uint64_t k) {
  return (double)(splitmix64(stream ^ splitmix64(k)) >> 11) * 0x1.0p-53;
}

static void fill_random(ic_tensor *t, uint64_t stream, double lo, double hi) {
  int64_t n = ic_numel(t->ndim, t->dims);
  for (int64_t k = 0; k < n; k++) {
    double v = lo + (hi - lo) * uniform_at(stream, (uint64_t)k);
    switch (t->dtype) {
      case IC_FP32: ((float *)t->data)[k] = (float)v; break;
      case IC_FP64: ((double *)t->data)[k] = v; break;
      case IC_FP16: ((uint16_t *)t->data)[k] = f32_to_f16((float)v); break;
      case IC_BF16: ((uint16_t *)t->data)[k] = f32_to_bf16((float)v); break;
      default: return; /* integers and bools stay zero */
    }
  }
}

static ic_status random_params(const ic_program *p, uint64_t seed, ic_scope *scope,
                               ic_err *err) {
  const ic_vardesc **vars = NULL;
  size_t n = 0;
  ic_strmap variances;
  ic_strmap_init(&variances);
  ic_status st = ic_params_list(p, &vars, &n, err);
  if (!st) st = collect_variances(p, &variances, err);
  for (size_t i = 0; i < n && !st; i++) {
    const ic_vardesc *v = vars[i];
    char d[160];
    if (ic_numel(v->ndim, v->dims) < 0) {
      st = ic_err_set(err, IC_ERR_INVALID_PROGRAM,
                      "%s: parameter '%s' is declared %s: synthetic values need every dim "
                      ">= 0",
                      p->origin, v->name, describe(v->dtype, v->ndim, v->dims, d, sizeof d));
    }
  }
  for (size_t i = 0; i < n && !st; i++) {
    const ic_vardesc *v = vars[i];
    ic_tensor t;
    ic_tensor_init(&t);
    ic_tensor_set_meta(&t, v->dtype, v->ndim, v->dims);
    if ((st = ic_tensor_alloc(&t, NULL, err))) {
      ic_err_prefix(err, "%s: parameter '%s': ", p->origin, v->name);
      break;
    }
    memset(t.data, 0, ic_tensor_nbytes(&t));
    uint64_t stream = splitmix64(seed ^ splitmix64(XXH3_64bits(v->name, strlen(v->name))));
    bool var = ic_strmap_get(&variances, v->name) != NULL;
    fill_random(&t, stream, var ? 0.5 : -0.1, var ? 1.5 : 0.1);
    st = put_tensor(scope, v->name, &t, err);
    ic_tensor_reset(&t);
  }
  ic_strmap_free(&variances);
  free(vars);
  return st;
}

/* ---------------------------------------------------------------------------------------
 * Model loading
 * ------------------------------------------------------------------------------------- */

static char *str_concat(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  char *s = malloc(na + nb + 1);
  if (!s) return NULL;
  memcpy(s, a, na);
  memcpy(s + na, b, nb + 1);
  return s;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Where a model's program and parameters are. Owned strings. */
typedef struct model_paths {
  char *model;             /* the ProgramDesc file */
  char *params;            /* parameter file or directory */
  ic_params_format fmt;
  bool params_explicit;    /* given by the caller */
} model_paths;

static ic_status resolve_model(const char *path, const char *params_path, model_paths *m,
                               ic_err *err) {
  memset(m, 0, sizeof *m);
  if (!exists(path)) {
    return ic_err_set(err, IC_ERR_NOT_FOUND, "%s: no such model file or directory", path);
  }
  char *dir = NULL;
  if (is_dir(path)) {
    dir = str_concat(path, "");
  } else if (strcmp(path, "__model__") == 0 || ends_with(path, "/__model__")) {
    dir = str_concat(path, "");
    if (dir) dir[strlen(dir) - strlen("__model__")] = '\0';
    if (dir && !dir[0]) {
      free(dir);
      dir = str_concat(".", "");
    }
  }
  if (dir) {
    m->model = str_concat(dir, ends_with(dir, "/") ? "__model__" : "/__model__");
    char *combined = str_concat(dir, ends_with(dir, "/") ? "__params__" : "/__params__");
    if (combined && exists(combined)) {
      m->params = combined;
      m->fmt = IC_PARAMS_COMBINED;
    } else {
      free(combined);
      m->params = str_concat(dir, "");
      m->fmt = IC_PARAMS_SEPARATE;
    }
    free(dir);
  } else {
    m->model = str_concat(path, "");
    /* X.pdmodel or X.json -> X.pdiparams, as paddle.static.save_inference_model and
     * paddle.jit.save name them (Paddle 3 writes X.json by default) */
    char *base = str_concat(path, "");
    if (base && ends_with(base, ".pdmodel")) base[strlen(base) - strlen(".pdmodel")] = '\0';
    else if (base && ends_with(base, ".json")) base[strlen(base) - strlen(".json")] = '\0';
    m->params = base ? str_concat(base, ".pdiparams") : NULL;
    free(base);
    m->fmt = IC_PARAMS_COMBINED;
  }
  if (params_path) {
    free(m->params);
    m->params = str_concat(params_path, "");
    m->fmt = IC_PARAMS_AUTO;
    m->params_explicit = true;
  }
  if (!m->model || !m->params) {
    free(m->model);
    free(m->params);
    return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  }
  return IC_OK;
}

static ic_status load_model(const char *path, const char *params_path, unsigned flags,
                            ic_program **prog, ic_scope **params, ic_err *err) {
  model_paths m;
  ic_program *p = NULL;
  ic_scope *s = NULL;
  ic_status st = resolve_model(path, params_path, &m, err);
  if (st) return st;
  if ((st = ic_program_from_file(m.model, &p, err->msg, sizeof err->msg))) {
    err->code = st;
    goto done;
  }
  if ((st = ic_scope_create(NULL, &s))) {
    st = ic_err_set(err, st, "out of memory");
    goto done;
  }
  if (flags & IC_LOAD_NO_PARAMS) goto done;
  const ic_vardesc **vars;
  size_t n;
  if ((st = ic_params_list(p, &vars, &n, err))) goto done;
  free(vars);
  if (!m.params_explicit && m.fmt == IC_PARAMS_COMBINED && !exists(m.params)) {
    if (n) {
      st = ic_err_set(err, IC_ERR_NOT_FOUND,
                      "%s: the program has %zu parameters, but their file %s does not exist "
                      "(give the parameter path, or load the program only)",
                      m.model, n, m.params);
    }
    goto done;
  }
  if (!m.params_explicit && m.fmt == IC_PARAMS_SEPARATE && n == 0) goto done;
  st = load_params(p, m.params, m.fmt, s, err);
done:
  if (st) {
    ic_scope_destroy(s);
    ic_program_destroy(p);
    s = NULL;
    p = NULL;
  }
  *prog = p;
  *params = s;
  free(m.model);
  free(m.params);
  return st;
}

/* ---------------------------------------------------------------------------------------
 * Public API
 * ------------------------------------------------------------------------------------- */

static ic_status finish(ic_status st, const ic_err *err, char *buf, size_t len) {
  if (st) ic_err_out(err, buf, len);
  else if (buf && len) buf[0] = '\0';
  return st;
}

static ic_status null_arg(const char *fn, char *buf, size_t len) {
  ic_err err;
  ic_err_set(&err, IC_ERR_INVALID_ARGUMENT, "%s: NULL argument", fn);
  return finish(err.code, &err, buf, len);
}

ic_status ic_params_load(const ic_program *p, const char *path, ic_params_format fmt,
                         ic_scope *scope, char *errbuf, size_t errlen) {
  if (!p || !path || !scope) return null_arg("ic_params_load", errbuf, errlen);
  ic_err err;
  ic_err_clear(&err);
  return finish(load_params(p, path, fmt, scope, &err), &err, errbuf, errlen);
}

ic_status ic_params_names(const ic_program *p, const char ***names, size_t *n) {
  if (!names || !n) return IC_ERR_INVALID_ARGUMENT;
  *names = NULL;
  *n = 0;
  if (!p) return IC_ERR_INVALID_ARGUMENT;
  const ic_vardesc **list;
  size_t k;
  ic_err err;
  ic_status st = ic_params_list(p, &list, &k, &err);
  if (st || !k) return st;
  const char **out = malloc(k * sizeof *out);
  if (!out) {
    free(list);
    return IC_ERR_OUT_OF_MEMORY;
  }
  for (size_t i = 0; i < k; i++) out[i] = list[i]->name;
  free(list);
  *names = out;
  *n = k;
  return IC_OK;
}

ic_status ic_params_save(const ic_program *p, const ic_scope *scope, const char *path,
                         ic_params_format fmt, char *errbuf, size_t errlen) {
  if (!p || !path || !scope) return null_arg("ic_params_save", errbuf, errlen);
  ic_err err;
  ic_err_clear(&err);
  return finish(save_params(p, scope, path, fmt, &err), &err, errbuf, errlen);
}

ic_status ic_params_random(const ic_program *p, uint64_t seed, ic_scope *scope, char *errbuf,
                           size_t errlen) {
  if (!p || !scope) return null_arg("ic_params_random", errbuf, errlen);
  ic_err err;
  ic_err_clear(&err);
  return finish(random_params(p, seed, scope, &err), &err, errbuf, errlen);
}

ic_status ic_tensor_save_file(const ic_tensor *t, const char *path, char *errbuf,
                              size_t errlen) {
  if (!t || !path) return null_arg("ic_tensor_save_file", errbuf, errlen);
  ic_err err;
  ic_err_clear(&err);
  FILE *f;
  ic_status st = open_out(path, &f, &err);
  if (!st) st = close_out(f, path, write_tensor(f, path, NULL, t, &err), &err);
  return finish(st, &err, errbuf, errlen);
}

ic_status ic_tensor_load_file(const char *path, ic_tensor **out, char *errbuf, size_t errlen) {
  if (out) *out = NULL;
  if (!out || !path) return null_arg("ic_tensor_load_file", errbuf, errlen);
  ic_err err;
  ic_err_clear(&err);
  src s;
  ic_tensor *t = malloc(sizeof *t);
  ic_status st = t ? src_open(&s, path, NULL, &err)
                   : ic_err_set(&err, IC_ERR_OUT_OF_MEMORY, "out of memory");
  if (st) {
    free(t);
    return finish(st, &err, errbuf, errlen);
  }
  st = read_tensor(&s, NULL, NULL, t);
  if (!st) st = expect_end(&s, NULL, "the tensor");
  src_close(&s);
  if (st) {
    ic_tensor_reset(t);
    free(t);
  } else {
    *out = t;
  }
  return finish(st, &err, errbuf, errlen);
}

ic_status ic_model_load(const char *path, const char *params_path, unsigned flags,
                        ic_program **prog, ic_scope **params, char *errbuf, size_t errlen) {
  if (prog) *prog = NULL;
  if (params) *params = NULL;
  if (!path || !prog || !params) return null_arg("ic_model_load", errbuf, errlen);
  ic_err err;
  ic_err_clear(&err);
  return finish(load_model(path, params_path, flags, prog, params, &err), &err, errbuf,
                errlen);
}
