/* NumPy .npy reading and writing. The format (numpy/lib/format.py): the magic "\x93NUMPY",
 * a major and minor version byte, the header length (uint16 little-endian for 1.0, uint32
 * for 2.0 and 3.0), then the header: a Python dict literal with exactly the keys 'descr',
 * 'fortran_order' and 'shape', padded with spaces and ended by '\n'; then the raw data. */
#include "npy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char k_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

static ic_status fail(char *err, size_t errlen, ic_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static ic_status fail(char *err, size_t errlen, ic_status code, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return code;
}

/* ---- dtypes ---- */

typedef struct npy_type {
  char kind;    /* 'b', 'i', 'u', 'f' */
  int size;     /* bytes */
  ic_dtype dtype;
} npy_type;

static const npy_type k_types[] = {
    {'b', 1, IC_BOOL},  {'i', 1, IC_INT8},  {'u', 1, IC_UINT8}, {'i', 2, IC_INT16},
    {'i', 4, IC_INT32}, {'i', 8, IC_INT64}, {'f', 2, IC_FP16},  {'f', 4, IC_FP32},
    {'f', 8, IC_FP64},  {'c', 8, IC_COMPLEX64}, {'c', 16, IC_COMPLEX128},
};
#define N_TYPES (sizeof k_types / sizeof k_types[0])

#define SUPPORTED \
  "bool, int8, uint8, int16, int32, int64, float16, float32, float64, complex64, complex128"

/* ---- the header: a small Python literal parser ---- */

typedef struct hp {
  const char *p, *end;
  ic_status code;  /* IC_ERR_INVALID_ARGUMENT (malformed) or IC_ERR_UNSUPPORTED */
  char why[256];   /* what is wrong */
} hp;

/* Record a failure; returns false for `return bad(...)`. */
static bool bad(hp *h, ic_status code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool bad(hp *h, ic_status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(h->why, sizeof h->why, fmt, ap);
  va_end(ap);
  h->code = code;
  return false;
}

static void skip_ws(hp *h) {
  while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r')) {
    h->p++;
  }
}

static bool eat(hp *h, char c) {
  skip_ws(h);
  if (h->p < h->end && *h->p == c) {
    h->p++;
    return true;
  }
  return false;
}

/* Map a descr string ("<f4") to a dtype. */
static bool descr_dtype(hp *h, const char *d, ic_dtype *out) {
  char order = '=';
  const char *p = d;
  if (*p == '<' || *p == '>' || *p == '|' || *p == '=') order = *p++;
  char kind = *p ? *p++ : '\0';
  char *end = (char *)p;
  long size = 0;
  if (*p >= '0' && *p <= '9') size = strtol(p, &end, 10);
  if (kind == 'O') return bad(h, IC_ERR_UNSUPPORTED, "object arrays ('%s') are not supported", d);
  for (size_t i = 0; *end == '\0' && i < N_TYPES; i++) {
    if (k_types[i].kind != kind || k_types[i].size != size) continue;
    if (order == '>' && size > 1) {
      return bad(h, IC_ERR_UNSUPPORTED,
                 "dtype '%s' is big-endian; only little-endian data is read", d);
    }
    if (order == '|' && size > 1) {
      return bad(h, IC_ERR_INVALID_ARGUMENT,
                 "dtype '%s': byte order '|' is only valid for one-byte types", d);
    }
    *out = k_types[i].dtype;
    return true;
  }
  return bad(h, IC_ERR_UNSUPPORTED, "dtype '%s' is not supported; expected one of " SUPPORTED, d);
}

/* A quoted string without escapes into buf. */
static bool parse_str(hp *h, char *buf, size_t len) {
  skip_ws(h);
  if (h->p >= h->end || (*h->p != '\'' && *h->p != '"')) return false;
  char q = *h->p++;
  size_t n = 0;
  while (h->p < h->end && *h->p != q) {
    if (*h->p == '\\' || n + 1 >= len) return false;
    buf[n++] = *h->p++;
  }
  if (h->p >= h->end) return false;
  h->p++;
  buf[n] = '\0';
  return true;
}

static bool parse_word(hp *h, const char *w) {
  skip_ws(h);
  size_t n = strlen(w);
  if ((size_t)(h->end - h->p) < n || memcmp(h->p, w, n) != 0) return false;
  const char *after = h->p + n;
  if (after < h->end && ((*after >= 'a' && *after <= 'z') || (*after >= 'A' && *after <= 'Z') ||
                         (*after >= '0' && *after <= '9') || *after == '_')) {
    return false;
  }
  h->p = after;
  return true;
}

/* A tuple of non-negative integers: "()", "(3,)", "(2, 3)", "(2, 3,)". */
static bool parse_shape(hp *h, int *ndim, int64_t *dims) {
  const ic_status M = IC_ERR_INVALID_ARGUMENT;
  if (!eat(h, '(')) return bad(h, M, "'shape' must be a tuple such as (2, 3)");
  *ndim = 0;
  bool comma = true; /* an element may follow */
  while (!eat(h, ')')) {
    if (!comma) return bad(h, M, "'shape' is not a tuple of integers");
    skip_ws(h);
    if (h->p >= h->end || *h->p < '0' || *h->p > '9') {
      return bad(h, M, "'shape' must hold non-negative integers");
    }
    int64_t v = 0;
    while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
      if (v > (INT64_MAX - 9) / 10) return bad(h, M, "a dimension of 'shape' is too large");
      v = v * 10 + (*h->p++ - '0');
    }
    if (h->p < h->end && (*h->p == 'L' || *h->p == 'l')) h->p++; /* Python 2 longs */
    if (*ndim >= IC_MAX_RANK) {
      return bad(h, IC_ERR_UNSUPPORTED, "'shape' has more than %d dimensions", IC_MAX_RANK);
    }
    dims[(*ndim)++] = v;
    comma = eat(h, ',');
    /* "(3)" is the integer 3 in Python, not a tuple; numpy refuses it too */
    if (!comma && *ndim == 1 && h->p < h->end && *h->p == ')') {
      return bad(h, M, "'shape' (%lld) is not a tuple; write (%lld,)", (long long)v,
                 (long long)v);
    }
  }
  return true;
}

typedef struct npy_header {
  ic_dtype dtype;
  int ndim;
  int64_t dims[IC_MAX_RANK];
} npy_header;

/* The header dict: exactly the keys descr, fortran_order and shape, in any order. */
static bool parse_header(hp *h, npy_header *out) {
  const ic_status M = IC_ERR_INVALID_ARGUMENT;
  bool have[3] = {false, false, false};
  static const char *const keys[3] = {"descr", "fortran_order", "shape"};
  if (!eat(h, '{')) return bad(h, M, "the header is not a dict literal");
  while (!eat(h, '}')) {
    char key[32], val[64];
    if (!parse_str(h, key, sizeof key) || !eat(h, ':')) {
      return bad(h, M, "the header dict is malformed");
    }
    int k = 0;
    while (k < 3 && strcmp(key, keys[k]) != 0) k++;
    if (k == 3) return bad(h, M, "the header has an unexpected key '%s'", key);
    if (have[k]) return bad(h, M, "the header gives '%s' twice", key);
    have[k] = true;
    if (k == 0) {
      if (!parse_str(h, val, sizeof val)) {
        return bad(h, IC_ERR_UNSUPPORTED,
                   "'descr' must be a dtype string such as '<f4'; structured dtypes are not "
                   "supported");
      }
      if (!descr_dtype(h, val, &out->dtype)) return false;
    } else if (k == 1) {
      if (parse_word(h, "True")) {
        return bad(h, IC_ERR_UNSUPPORTED,
                   "the array is in Fortran order; only C order is read");
      }
      if (!parse_word(h, "False")) return bad(h, M, "'fortran_order' must be True or False");
    } else if (!parse_shape(h, &out->ndim, out->dims)) {
      return false;
    }
    if (!eat(h, ',')) {
      if (eat(h, '}')) break;
      return bad(h, M, "the header dict is malformed after '%s'", key);
    }
  }
  skip_ws(h);
  if (h->p != h->end) return bad(h, M, "unexpected text after the header dict");
  for (int k = 0; k < 3; k++) {
    if (!have[k]) return bad(h, M, "the header lacks '%s'", keys[k]);
  }
  return true;
}

/* ---- reading ---- */

ic_status ic_npy_parse(const void *data, size_t size, const char *origin, ic_tensor **out,
                       char *err, size_t errlen) {
  if (out) *out = NULL;
  if (!out || (!data && size)) return fail(err, errlen, IC_ERR_INVALID_ARGUMENT, "NULL argument");
  if (!origin) origin = "<memory>";
  const ic_status M = IC_ERR_INVALID_ARGUMENT;
  const unsigned char *b = data;
  if (size < 10 || memcmp(b, k_magic, 6) != 0) {
    return fail(err, errlen, M, "%s: not a .npy file (%s)", origin,
                size < 10 ? "shorter than the 10-byte preamble" : "no \\x93NUMPY magic");
  }
  int major = b[6], minor = b[7];
  size_t pre = major == 1 ? 10 : 12, hlen;
  if ((major < 1 || major > 3) || minor != 0) {
    return fail(err, errlen, IC_ERR_UNSUPPORTED,
                "%s: .npy format version %d.%d is not supported (expected 1.0, 2.0 or 3.0)",
                origin, major, minor);
  }
  if (size < pre) {
    return fail(err, errlen, M, "%s: truncated .npy preamble: version %d.0 needs %zu bytes",
                origin, major, pre);
  }
  hlen = (size_t)b[8] | (size_t)b[9] << 8;
  if (major > 1) hlen |= (size_t)b[10] << 16 | (size_t)b[11] << 24;
  if (hlen > size - pre) {
    return fail(err, errlen, M, "%s: truncated .npy header: %zu bytes declared, %zu present",
                origin, hlen, size - pre);
  }
  hp h = {.p = (const char *)b + pre, .end = (const char *)b + pre + hlen};
  npy_header hd;
  if (!parse_header(&h, &hd)) return fail(err, errlen, h.code, "%s: %s", origin, h.why);

  size_t es = ic_dtype_size(hd.dtype), have = size - pre - hlen;
  uint64_t numel = 1;
  for (int i = 0; i < hd.ndim; i++) {
    if (hd.dims[i] && numel > UINT64_MAX / (uint64_t)hd.dims[i] / es) {
      return fail(err, errlen, M, "%s: the shape's size overflows", origin);
    }
    numel *= (uint64_t)hd.dims[i];
  }
  uint64_t want = numel * es;
  if (have != want) {
    char shape[200];
    int o = snprintf(shape, sizeof shape, "%s(", ic_dtype_name(hd.dtype));
    for (int i = 0; i < hd.ndim && o > 0 && (size_t)o < sizeof shape; i++) {
      o += snprintf(shape + o, sizeof shape - (size_t)o, "%s%lld", i ? ", " : "",
                    (long long)hd.dims[i]);
    }
    if (o > 0 && (size_t)o < sizeof shape) snprintf(shape + o, sizeof shape - (size_t)o, ")");
    return fail(err, errlen, M, "%s: %s: the header's shape %s needs %llu data bytes, the "
                "file has %zu",
                origin, have < want ? "truncated data" : "trailing bytes after the data", shape,
                (unsigned long long)want, have);
  }
  ic_tensor *t;
  ic_status st = ic_tensor_create(hd.dtype, hd.ndim, hd.dims, &t);
  if (st) {
    return fail(err, errlen, st, "%s: cannot create a tensor for the array (%s)", origin,
                ic_status_name(st));
  }
  if (want) memcpy(ic_tensor_data(t), b + pre + hlen, (size_t)want);
  *out = t;
  return IC_OK;
}

ic_status ic_npy_load(const char *path, ic_tensor **out, char *err, size_t errlen) {
  if (out) *out = NULL;
  if (!out || !path) return fail(err, errlen, IC_ERR_INVALID_ARGUMENT, "NULL argument");
  /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    return fail(err, errlen, e == ENOENT ? IC_ERR_NOT_FOUND : IC_ERR_IO, "%s: cannot open: %s",
                path, strerror(e));
  }
  /* Only regular files: a FIFO or a device such as /dev/zero can be endless. */
  struct stat sb;
  const char *bad = fstat(fd, &sb) != 0   ? strerror(errno)
                    : S_ISDIR(sb.st_mode)  ? "is a directory, expected a .npy file"
                    : !S_ISREG(sb.st_mode) ? "is not a regular file (a FIFO, socket or "
                                             "device), expected a .npy file"
                    : (uint64_t)sb.st_size > SIZE_MAX - 1 ? "is too large to read"
                                                          : NULL;
  if (bad) {
    close(fd);
    return fail(err, errlen, IC_ERR_IO, "%s: %s", path, bad);
  }
  /* Read whole: feeds are small next to the model, and one parser serves files and memory. */
  size_t n = (size_t)sb.st_size, got = 0;
  unsigned char *buf = malloc(n ? n : 1);
  ic_status st = buf ? IC_OK
                     : fail(err, errlen, IC_ERR_OUT_OF_MEMORY, "%s: out of memory reading", path);
  while (!st && got < n) {
    ssize_t r = read(fd, buf + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      st = fail(err, errlen, IC_ERR_IO, "%s: read error after %zu of %zu bytes: %s", path, got,
                n, r < 0 ? strerror(errno) : "the file shrank while it was read");
    } else {
      got += (size_t)r;
    }
  }
  close(fd);
  if (!st) st = ic_npy_parse(buf, n, path, out, err, errlen);
  free(buf);
  return st;
}

/* ---- writing ---- */

ic_status ic_npy_save(const char *path, const ic_tensor *t, char *err, size_t errlen) {
  if (!path || !t) return fail(err, errlen, IC_ERR_INVALID_ARGUMENT, "NULL argument");
  ic_dtype dt = ic_tensor_dtype(t);
  const npy_type *ty = NULL;
  for (size_t i = 0; i < N_TYPES; i++) {
    if (k_types[i].dtype == dt) ty = &k_types[i];
  }
  if (!ty) {
    return fail(err, errlen, IC_ERR_UNSUPPORTED,
                "%s: %s has no NumPy dtype; cast the tensor to float32 to save it", path,
                ic_dtype_name(dt) ? ic_dtype_name(dt) : "this dtype");
  }
  char head[512];
  int n = snprintf(head, sizeof head, "{'descr': '%c%c%d', 'fortran_order': False, 'shape': (",
                   ty->size == 1 ? '|' : '<', ty->kind, ty->size);
  const int64_t *dims = ic_tensor_dims(t);
  int nd = ic_tensor_ndim(t);
  for (int i = 0; i < nd; i++) {
    n += snprintf(head + n, sizeof head - (size_t)n, "%s%lld", i ? ", " : "", (long long)dims[i]);
  }
  n += snprintf(head + n, sizeof head - (size_t)n, "%s), }", nd == 1 ? "," : "");
  /* Pad with spaces and a final newline so the data starts at a multiple of 64. */
  size_t hlen = (size_t)n + 1;
  size_t pre = 10;
  hlen += (64 - (pre + hlen) % 64) % 64;
  unsigned char preamble[10];
  memcpy(preamble, k_magic, 6);
  preamble[6] = 1;
  preamble[7] = 0;
  preamble[8] = (unsigned char)(hlen & 0xFF);
  preamble[9] = (unsigned char)(hlen >> 8);
  memset(head + n, ' ', hlen - 1 - (size_t)n);
  head[hlen - 1] = '\n';

  FILE *f = fopen(path, "wb");
  if (!f) return fail(err, errlen, IC_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
  size_t bytes = ic_tensor_nbytes(t);
  bool ok = fwrite(preamble, 1, pre, f) == pre && fwrite(head, 1, hlen, f) == hlen &&
            (bytes == 0 || fwrite(ic_tensor_cdata(t), 1, bytes, f) == bytes);
  if (fclose(f) != 0) ok = false;
  if (!ok) return fail(err, errlen, IC_ERR_IO, "%s: write error: %s", path, strerror(errno));
  return IC_OK;
}
