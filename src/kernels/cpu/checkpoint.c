/* The checkpoint ops' shared code (checkpoint.h). Paddle's semantics (phi SaveKernel,
 * SaveCombineTensorKernel, LoadKernel, LoadCombineKernel): save refuses an existing file when
 * overwrite is false and creates the file's directories; save_as_fp16 / load_as_fp16 convert a
 * float tensor to float16 (round to nearest even) before writing / after reading; a tensor's
 * LoD is written and read with it. Every error names the op's variable and the file. */
#include "kernels/cpu/checkpoint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scope/lodtensor_io.h"

/* Fail the reader with IC_ERR_UNSUPPORTED: a mode of the op icore does not implement. */
static ic_status unsupported(ic_attr_reader *r, const char *name, const char *msg) {
  ic_ar_fail(r, name, "%s", msg);
  r->st = r->err->code = IC_ERR_UNSUPPORTED;
  return r->st;
}

ic_status ic_ckpt_parse_save(ic_attr_reader *r, void *attrs) {
  ic_ckpt_attrs *a = attrs;
  a->file_path = ic_ar_str(r, "file_path", "");
  a->overwrite = ic_ar_bool(r, "overwrite", true);
  a->as_fp16 = ic_ar_bool(r, "save_as_fp16", false);
  bool to_memory = ic_ar_bool(r, "save_to_memory", false);
  if (r->st) return r->st;
  if (to_memory) {
    return unsupported(r, "save_to_memory", "is true: saving into a variable (a RAW string) "
                       "is not supported by icore; save to file_path");
  }
  if (!a->file_path[0]) return ic_ar_fail(r, "file_path", "is empty, expected a file name");
  return IC_OK;
}

ic_status ic_ckpt_parse_load(ic_attr_reader *r, void *attrs) {
  ic_ckpt_attrs *a = attrs;
  a->file_path = ic_ar_str(r, "file_path", "");
  a->as_fp16 = ic_ar_bool(r, "load_as_fp16", false);
  bool from_memory = ic_ar_bool(r, "model_from_memory", false);
  int64_t seek = ic_ar_int(r, "seek", -1);
  const int64_t *shape;
  size_t n_shape;
  (void)ic_ar_ints(r, "shape", false, &shape, &n_shape); /* only read with seek */
  if (r->st) return r->st;
  if (from_memory) {
    return unsupported(r, "model_from_memory", "is true: parameters held in the file_path "
                       "string are not supported by icore (its strings end at the first NUL "
                       "byte); load from a file");
  }
  if (seek != -1) {
    char msg[96];
    snprintf(msg, sizeof msg, "is %lld: loading part of a tensor is not supported by icore",
             (long long)seek);
    return unsupported(r, "seek", msg);
  }
  if (!a->file_path[0]) return ic_ar_fail(r, "file_path", "is empty, expected a file name");
  return IC_OK;
}

/* dst (initialized here) = src as float16; src is float16 (copied), float32 or float64. */
static ic_status to_fp16(ic_kctx *c, const ic_tensor *src, const char *var, ic_tensor *dst) {
  ic_tensor_init(dst);
  if (src->dtype != IC_FP16 && src->dtype != IC_FP32 && src->dtype != IC_FP64) {
    return ic_kfail(c, IC_ERR_UNSUPPORTED, "variable '%s' is %s: float16 conversion "
                    "(save_as_fp16 / load_as_fp16) takes float32 or float64", var,
                    ic_dtype_name(src->dtype));
  }
  ic_tensor_set_meta(dst, IC_FP16, src->ndim, src->dims);
  ic_status st = ic_tensor_alloc(dst, NULL, c->err);
  if (st) return st;
  const int64_t n = ic_tensor_numel_(src);
  uint16_t *o = dst->data;
  for (int64_t k = 0; k < n; k++) {
    if (src->dtype == IC_FP16) o[k] = ((const uint16_t *)src->data)[k];
    else if (src->dtype == IC_FP32) o[k] = ic_f32_to_f16(((const float *)src->data)[k]);
    else o[k] = ic_f32_to_f16((float)((const double *)src->data)[k]);
  }
  if (src->lod) {
    ic_lod *lod = ic_lod_clone(src->lod);
    if (!lod) {
      ic_tensor_reset(dst);
      return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory for a LoD");
    }
    ic_tensor_take_lod(dst, lod);
  }
  return IC_OK;
}

/* Create the directories above the file (Paddle: MkDirRecursively(DirName(file_path))). */
static ic_status make_dirs(ic_kctx *c, const char *path) {
  size_t n = strlen(path);
  char *p = malloc(n + 1);
  if (!p) return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
  memcpy(p, path, n + 1);
  ic_status st = IC_OK;
  for (char *s = p + 1; (s = strchr(s, '/')); s++) {
    *s = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
      st = ic_kfail(c, IC_ERR_IO, "cannot create the directory %s of file_path '%s': %s", p,
                    path, strerror(errno));
      break;
    }
    *s = '/';
  }
  free(p);
  return st;
}

ic_status ic_ckpt_save(ic_kctx *c) {
  const ic_ckpt_attrs *a = c->attrs;
  const char *path = a->file_path;
  struct stat sb;
  if (!a->overwrite && stat(path, &sb) == 0) {
    return ic_kfail(c, IC_ERR_IO, "file_path '%s' exists and attribute overwrite is false "
                    "(saving input X '%s'%s)", path, ic_in_name(c, 0, 0),
                    c->in[0].n > 1 ? ", ..." : "");
  }
  for (size_t i = 0; i < c->in[0].n; i++) {
    const ic_tensor *t = ic_in(c, 0, i);
    if (!t || (!t->data && ic_tensor_numel_(t) != 0)) {
      return ic_kfail(c, IC_ERR_INVALID_ARGUMENT, "input X '%s' holds no tensor to save to %s",
                      ic_in_name(c, 0, i), path);
    }
  }
  ic_status st = make_dirs(c, path);
  if (st) return st;
  FILE *f;
  if ((st = ic_lt_create(path, &f, c->err))) return st;
  for (size_t i = 0; i < c->in[0].n && !st; i++) {
    const ic_tensor *t = ic_in(c, 0, i);
    const char *var = ic_in_name(c, 0, i);
    if (a->as_fp16) {
      ic_tensor h;
      if ((st = to_fp16(c, t, var, &h))) break;
      st = ic_lt_write_tensor(f, path, var, &h, c->err);
      ic_tensor_reset(&h);
    } else {
      st = ic_lt_write_tensor(f, path, var, t, c->err);
    }
  }
  st = ic_lt_close_out(f, path, st, c->err);
  if (st) remove(path); /* no partial checkpoint stays behind */
  return st;
}

ic_status ic_ckpt_load(ic_kctx *c, bool whole) {
  const ic_ckpt_attrs *a = c->attrs;
  const char *path = a->file_path;
  const size_t n = c->out[0].n;
  ic_lt_src s;
  ic_status st = ic_lt_open(&s, path, n == 1 ? ic_out_name(c, 0, 0) : NULL, c->err);
  if (st) return st;
  for (size_t i = 0; i < n && !st; i++) {
    const char *var = ic_out_name(c, 0, i);
    ic_tensor t, h;
    if ((st = ic_lt_read_tensor(&s, var, NULL, &t))) break;
    ic_tensor *src = &t;
    if (a->as_fp16) {
      if ((st = to_fp16(c, &t, var, &h))) {
        ic_tensor_reset(&t);
        break;
      }
      src = &h;
    }
    ic_tensor *o = ic_out(c, 0, i);
    st = ic_kalloc_out(c, 0, i, src->dtype, src->ndim, src->dims);
    if (!st && o) {
      memcpy(o->data, src->data, ic_tensor_nbytes(src));
      if (src->lod) {
        ic_lod *lod = ic_lod_clone(src->lod);
        st = ic_kset_lod(c, o, lod, true);
      } else {
        ic_tensor_take_lod(o, NULL);
      }
    }
    if (a->as_fp16) ic_tensor_reset(&h);
    ic_tensor_reset(&t);
  }
  if (!st && whole && ic_lt_left(&s)) {
    st = ic_lt_fail(&s, NULL, s.off, IC_ERR_INVALID_ARGUMENT,
                    "%llu bytes remain after the %zu tensors of output Out (%s%s): the file "
                    "holds more variables than the op loads",
                    (unsigned long long)ic_lt_left(&s), n, n ? ic_out_name(c, 0, 0) : "",
                    n > 1 ? ", ..." : "");
  }
  ic_lt_close(&s);
  return st;
}
