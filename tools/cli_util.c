/* Shared helpers of the icore commands. */
#include "cli_util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scope/tensor.h"

int cli_error(int code, const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* One line: library messages never hold newlines, but file names might. */
  for (char *c = msg; *c; c++) {
    if (*c == '\n' || *c == '\r') *c = ' ';
  }
  fprintf(stderr, "icore: error: %s\n", msg);
  return code;
}

/* ---- options ---- */

static const cli_opt *find_opt(const cli_args *a, const char *name, size_t len, size_t *idx) {
  for (size_t i = 0; i < a->n_opts; i++) {
    if (strlen(a->opts[i].name) == len && strncmp(a->opts[i].name, name, len) == 0) {
      *idx = i;
      return &a->opts[i];
    }
  }
  return NULL;
}

static bool add_value(cli_args *a, size_t i, const char *v) {
  const char **nv = realloc(a->vals[i], (a->n_vals[i] + 1) * sizeof *nv);
  if (!nv) return false;
  nv[a->n_vals[i]++] = v;
  a->vals[i] = nv;
  return true;
}

int cli_parse(int argc, char **argv, const cli_opt *opts, size_t n_opts, cli_args *a) {
  memset(a, 0, sizeof *a);
  a->opts = opts;
  a->n_opts = n_opts;
  a->n_vals = calloc(n_opts + 1, sizeof *a->n_vals);
  a->vals = calloc(n_opts + 1, sizeof *a->vals);
  a->pos = calloc((size_t)argc + 1, sizeof *a->pos);
  if (!a->n_vals || !a->vals || !a->pos) return cli_error(CLI_FAIL, "out of memory");
  bool options_done = false;
  for (int k = 0; k < argc; k++) {
    const char *arg = argv[k];
    if (options_done || arg[0] != '-' || strcmp(arg, "-") == 0) {
      a->pos[a->n_pos++] = arg;
      continue;
    }
    if (strcmp(arg, "--") == 0) {
      options_done = true;
      continue;
    }
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      a->help = true;
      continue;
    }
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg), i;
    const cli_opt *o = find_opt(a, arg, len, &i);
    if (!o) return cli_error(CLI_USAGE, "unknown option '%.*s' (see --help)", (int)len, arg);
    if (a->n_vals[i] && !o->repeat) {
      return cli_error(CLI_USAGE, "option %s is given more than once", o->name);
    }
    const char *v = "";
    if (o->metavar) {
      if (eq) {
        v = eq + 1;
      } else if (k + 1 < argc) {
        v = argv[++k];
      } else {
        return cli_error(CLI_USAGE, "option %s needs a value (%s)", o->name, o->metavar);
      }
    } else if (eq) {
      return cli_error(CLI_USAGE, "option %s takes no value", o->name);
    }
    if (!add_value(a, i, v)) return cli_error(CLI_FAIL, "out of memory");
  }
  return CLI_OK;
}

void cli_args_free(cli_args *a) {
  for (size_t i = 0; a->vals && i < a->n_opts; i++) free(a->vals[i]);
  free(a->vals);
  free(a->n_vals);
  free(a->pos);
  memset(a, 0, sizeof *a);
}

const char *const *cli_all(const cli_args *a, const char *name, size_t *n) {
  size_t i;
  if (!find_opt(a, name, strlen(name), &i)) {
    *n = 0;
    return NULL;
  }
  *n = a->n_vals[i];
  return a->vals[i];
}

const char *cli_get(const cli_args *a, const char *name) {
  size_t n;
  const char *const *v = cli_all(a, name, &n);
  return n ? v[n - 1] : NULL;
}

bool cli_int(const char *opt, const char *s, long long lo, long long hi, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) {
    cli_error(CLI_USAGE, "%s '%s': expected an integer in [%lld, %lld]", opt, s, lo, hi);
    return false;
  }
  *out = v;
  return true;
}

void cli_usage(FILE *f, const char *cmd, const char *args, const char *about,
               const cli_opt *opts, size_t n_opts) {
  fprintf(f, "usage: icore %s %s\n\n%s\n", cmd, args, about);
  if (!n_opts) return;
  fprintf(f, "\noptions:\n");
  for (size_t i = 0; i < n_opts; i++) {
    char left[64];
    snprintf(left, sizeof left, "%s%s%s", opts[i].name, opts[i].metavar ? " " : "",
             opts[i].metavar ? opts[i].metavar : "");
    fprintf(f, "  %-28s %s%s\n", left, opts[i].help, opts[i].repeat ? " (repeatable)" : "");
  }
  fprintf(f, "  %-28s %s\n", "-h, --help", "show this help");
}

/* ---- tensor summaries ---- */

/* float16 and bfloat16 bits to float, for printing storage-only tensors. */
static double half_to_double(uint16_t h) {
  int e = (h >> 10) & 0x1F, m = h & 0x3FF;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}

static double bf16_to_double(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static double element(const ic_tensor *t, int64_t k) {
  const void *d = ic_tensor_cdata(t);
  switch (ic_tensor_dtype(t)) {
    case IC_BOOL: case IC_UINT8: return ((const uint8_t *)d)[k];
    case IC_INT8: return ((const int8_t *)d)[k];
    case IC_INT16: return ((const int16_t *)d)[k];
    case IC_INT32: return ((const int32_t *)d)[k];
    case IC_INT64: return (double)((const int64_t *)d)[k];
    case IC_FP16: return half_to_double(((const uint16_t *)d)[k]);
    case IC_BF16: return bf16_to_double(((const uint16_t *)d)[k]);
    case IC_FP32: return ((const float *)d)[k];
    case IC_FP64: return ((const double *)d)[k];
    case IC_COMPLEX64: return hypot(((const float *)d)[2 * k], ((const float *)d)[2 * k + 1]);
    case IC_COMPLEX128: return hypot(((const double *)d)[2 * k], ((const double *)d)[2 * k + 1]);
  }
  return NAN;
}

static void print_value(FILE *f, bool integral, double v) {
  if (integral) fprintf(f, "%.0f", v);
  else fprintf(f, "%.6g", v);
}

/* "NAME: lod [[0, 2, 5]]" (at most 32 offsets a level) when t has a LoD. */
static void print_lod(FILE *f, const char *name, const ic_tensor *t) {
  size_t levels = ic_tensor_lod_levels(t);
  if (!levels) return;
  fprintf(f, "%s: lod [", name);
  for (size_t l = 0; l < levels; l++) {
    size_t len;
    const uint64_t *o = ic_tensor_lod(t, l, &len);
    fprintf(f, "%s[", l ? ", " : "");
    for (size_t k = 0; k < len && k < 32; k++) fprintf(f, "%s%llu", k ? ", " : "", (unsigned long long)o[k]);
    fprintf(f, "%s]", len > 32 ? ", ..." : "");
  }
  fprintf(f, "]\n");
}

void cli_print_tensor(FILE *f, const char *name, const ic_tensor *t) {
  char dims[128];
  ic_dtype dt = ic_tensor_dtype(t);
  int64_t n = ic_tensor_numel(t);
  fprintf(f, "%s: %s%s", name, ic_dtype_name(dt),
          ic_dims_str(ic_tensor_ndim(t), ic_tensor_dims(t), dims, sizeof dims));
  if (n <= 0) {
    fprintf(f, "  (empty)\n");
    print_lod(f, name, t);
    return;
  }
  bool integral = dt != IC_FP16 && dt != IC_BF16 && dt != IC_FP32 && dt != IC_FP64;
  double mn = INFINITY, mx = -INFINITY, sum = 0;
  int64_t nan = 0;
  for (int64_t k = 0; k < n; k++) {
    double v = element(t, k);
    if (isnan(v)) {
      nan++;
      continue;
    }
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
    sum += v;
  }
  fprintf(f, "  min=");
  print_value(f, integral, mn);
  fprintf(f, " max=");
  print_value(f, integral, mx);
  fprintf(f, " mean=%.6g", nan == n ? NAN : sum / (double)(n - nan));
  if (nan) fprintf(f, " nan=%lld", (long long)nan);
  fprintf(f, "  first:");
  for (int64_t k = 0; k < n && k < 6; k++) {
    fputc(' ', f);
    print_value(f, integral, element(t, k));
  }
  fprintf(f, "%s\n", n > 6 ? " ..." : "");
  print_lod(f, name, t);
}

void cli_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", (unsigned char)*s);
    else fputc(*s, f);
  }
  fputc('"', f);
}

int cli_make_dirs(const char *opt, const char *dir) {
  size_t n = strlen(dir);
  char *path = malloc(n + 1);
  if (!path) return cli_error(CLI_FAIL, "%s %s: out of memory", opt, dir);
  memcpy(path, dir, n + 1);
  int rc = CLI_OK;
  /* Each prefix ending before a '/', then the whole path. */
  for (size_t i = 1; i <= n && rc == CLI_OK; i++) {
    if (i < n && path[i] != '/') continue;
    if (i < n && path[i - 1] == '/') continue; /* "a//b" */
    char saved = path[i];
    path[i] = '\0';
    struct stat st;
    if (mkdir(path, 0777) != 0 &&
        !(errno == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
      int e = errno == EEXIST ? ENOTDIR : errno;
      rc = cli_error(CLI_FAIL, "%s %s: cannot create the directory %s: %s", opt, dir, path,
                     strerror(e));
    }
    path[i] = saved;
  }
  free(path);
  return rc;
}
