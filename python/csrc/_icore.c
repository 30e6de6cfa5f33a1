/* icore._icore: the CPython extension module behind the `icore` package (python/icore/).
 *
 * Types: Program (an ic_program), Scope (a root ic_scope), Executor (an ic_executor) and
 * Tensor, the owner of one fetched ic_tensor whose memory NumPy arrays view through the
 * buffer protocol (no copy; the array keeps its owner alive, so fetched arrays outlive the
 * executor, the program and the scope). Feeds come from any object with the buffer protocol
 * (NumPy arrays of bool, int8/16/32/64, uint8, float16/32/64): a C-contiguous, aligned one is
 * run in place (ic_tensor_wrap, the buffer held until icore drops the memory: zero copy);
 * anything else is copied once (lists and non-contiguous arrays through
 * numpy.ascontiguousarray). Errors raise icore.Error (a RuntimeError) with icore's message and its status
 * name in .status. ic_executor_run runs with the GIL released. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "icore/icore.h"

/* Module-level constants set once at import (types, the exception class, numpy.asarray). */
static PyObject *g_error;     /* icore.Error */
static PyObject *g_np_asarray; /* numpy.asarray, imported lazily */
static PyObject *g_np_ascontig; /* numpy.ascontiguousarray, imported lazily */

static PyObject *raise_ic(ic_status st, const char *msg) {
  PyObject *text = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
  if (!text) return NULL;
  PyObject *exc = PyObject_CallOneArg(g_error, text);
  Py_DECREF(text);
  if (!exc) return NULL;
  PyObject *name = PyUnicode_FromString(ic_status_name(st));
  if (name) {
    PyObject_SetAttrString(exc, "status", name);
    Py_DECREF(name);
  }
  PyErr_SetObject(g_error, exc);
  Py_DECREF(exc);
  return NULL;
}

static int load_numpy(void) {
  if (g_np_asarray) return 0;
  PyObject *np = PyImport_ImportModule("numpy");
  if (!np) return -1;
  g_np_asarray = PyObject_GetAttrString(np, "asarray");
  g_np_ascontig = PyObject_GetAttrString(np, "ascontiguousarray");
  Py_DECREF(np);
  if (!g_np_asarray || !g_np_ascontig) {
    Py_CLEAR(g_np_asarray);
    Py_CLEAR(g_np_ascontig);
    return -1;
  }
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * Tensor: owns an ic_tensor, exports its memory.
 * ------------------------------------------------------------------------------------- */
typedef struct {
  PyObject_HEAD
  ic_tensor *t;
  int exports;
  Py_ssize_t shape[IC_MAX_RANK];
  Py_ssize_t strides[IC_MAX_RANK];
  char dummy; /* the address of an empty tensor's elements */
} TensorObject;

static PyTypeObject TensorType;

static const char *dtype_format(ic_dtype d) {
  switch (d) {
    case IC_BOOL: return "?";
    case IC_INT8: return "b";
    case IC_UINT8: return "B";
    case IC_INT16: return "h";
    case IC_INT32: return "i";
    case IC_INT64: return "q";
    case IC_FP16: return "e";
    case IC_FP32: return "f";
    case IC_FP64: return "d";
    default: return NULL;
  }
}

static void tensor_dealloc(TensorObject *self) {
  ic_tensor_destroy(self->t);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int tensor_getbuffer(TensorObject *self, Py_buffer *view, int flags) {
  const char *fmt = dtype_format(ic_tensor_dtype(self->t));
  if (!fmt) {
    PyErr_Format(PyExc_BufferError, "icore: a %s tensor has no NumPy dtype",
                 ic_dtype_name(ic_tensor_dtype(self->t)) ? ic_dtype_name(ic_tensor_dtype(self->t))
                                                         : "bfloat16");
    return -1;
  }
  void *data = ic_tensor_data(self->t);
  view->buf = data ? data : &self->dummy;
  view->obj = (PyObject *)self;
  Py_INCREF(self);
  view->len = (Py_ssize_t)ic_tensor_nbytes(self->t);
  view->itemsize = (Py_ssize_t)ic_dtype_size(ic_tensor_dtype(self->t));
  view->readonly = 0;
  view->format = (flags & PyBUF_FORMAT) ? (char *)fmt : NULL;
  view->ndim = ic_tensor_ndim(self->t);
  view->shape = (flags & PyBUF_ND) == PyBUF_ND ? self->shape : NULL;
  view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? self->strides : NULL;
  view->suboffsets = NULL;
  view->internal = NULL;
  self->exports++;
  return 0;
}

static void tensor_releasebuffer(TensorObject *self, Py_buffer *view) { self->exports--; }

static PyBufferProcs tensor_as_buffer = {(getbufferproc)tensor_getbuffer,
                                         (releasebufferproc)tensor_releasebuffer};

static PyObject *tensor_wrap(ic_tensor *t) { /* takes t */
  TensorObject *o = PyObject_New(TensorObject, &TensorType);
  if (!o) {
    ic_tensor_destroy(t);
    return NULL;
  }
  o->t = t;
  o->exports = 0;
  int nd = ic_tensor_ndim(t);
  const int64_t *dims = ic_tensor_dims(t);
  Py_ssize_t stride = (Py_ssize_t)ic_dtype_size(ic_tensor_dtype(t));
  for (int i = nd - 1; i >= 0; i--) {
    o->shape[i] = (Py_ssize_t)dims[i];
    o->strides[i] = stride;
    stride *= dims[i] > 0 ? (Py_ssize_t)dims[i] : 1;
  }
  return (PyObject *)o;
}

/* A NumPy array viewing t (taken). */
static PyObject *tensor_to_array(ic_tensor *t) {
  if (load_numpy()) {
    ic_tensor_destroy(t);
    return NULL;
  }
  PyObject *owner = tensor_wrap(t);
  if (!owner) return NULL;
  PyObject *arr = PyObject_CallOneArg(g_np_asarray, owner);
  Py_DECREF(owner);
  return arr;
}

static PyObject *lod_to_list(const ic_tensor *t) {
  size_t levels = ic_tensor_lod_levels(t);
  PyObject *out = PyList_New((Py_ssize_t)levels);
  if (!out) return NULL;
  for (size_t l = 0; l < levels; l++) {
    size_t n;
    const uint64_t *o = ic_tensor_lod(t, l, &n);
    PyObject *lv = PyList_New((Py_ssize_t)n);
    if (!lv) goto fail;
    PyList_SET_ITEM(out, (Py_ssize_t)l, lv);
    for (size_t k = 0; k < n; k++) {
      PyObject *v = PyLong_FromUnsignedLongLong(o[k]);
      if (!v) goto fail;
      PyList_SET_ITEM(lv, (Py_ssize_t)k, v);
    }
  }
  return out;
fail:
  Py_DECREF(out);
  return NULL;
}

static PyTypeObject TensorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "icore._icore.Tensor",
    .tp_basicsize = sizeof(TensorObject),
    .tp_dealloc = (destructor)tensor_dealloc,
    .tp_as_buffer = &tensor_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The owner of a fetched tensor's memory (NumPy arrays view it).",
};

/* ---------------------------------------------------------------------------------------
 * Converting Python values into ic_tensors.
 * ------------------------------------------------------------------------------------- */
static int format_dtype(const char *fmt, Py_ssize_t itemsize, ic_dtype *out) {
  if (!fmt) fmt = "B";
  if (*fmt == '@' || *fmt == '=' || *fmt == '<') fmt++;
  else if (*fmt == '>' || *fmt == '!') return -1;
  if (!fmt[0] || fmt[1]) return -1;
  switch (fmt[0]) {
    case '?': *out = IC_BOOL; return itemsize == 1 ? 0 : -1;
    case 'b': case 'h': case 'i': case 'l': case 'q':
      switch (itemsize) {
        case 1: *out = IC_INT8; return 0;
        case 2: *out = IC_INT16; return 0;
        case 4: *out = IC_INT32; return 0;
        case 8: *out = IC_INT64; return 0;
        default: return -1;
      }
    case 'B': *out = IC_UINT8; return itemsize == 1 ? 0 : -1;
    case 'e': *out = IC_FP16; return itemsize == 2 ? 0 : -1;
    case 'f': *out = IC_FP32; return itemsize == 4 ? 0 : -1;
    case 'd': *out = IC_FP64; return itemsize == 8 ? 0 : -1;
    default: return -1;
  }
}

/* Set t's LoD from a sequence of sequences of offsets. */
static int apply_lod(ic_tensor *t, PyObject *lod, const char *name) {
  PyObject *levels = PySequence_Fast(lod, "a LoD must be a list of lists of offsets");
  if (!levels) return -1;
  Py_ssize_t nl = PySequence_Fast_GET_SIZE(levels);
  int rc = -1;
  size_t lens[16];
  uint64_t *offs[16] = {0};
  if (nl > 16) {
    PyErr_Format(PyExc_ValueError, "feed '%s': a LoD of %zd levels (at most 16)", name, nl);
    goto done;
  }
  for (Py_ssize_t l = 0; l < nl; l++) {
    PyObject *lv = PySequence_Fast(PySequence_Fast_GET_ITEM(levels, l),
                                   "a LoD level must be a list of offsets");
    if (!lv) goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(lv);
    offs[l] = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(uint64_t));
    lens[l] = (size_t)n;
    if (!offs[l]) {
      Py_DECREF(lv);
      PyErr_NoMemory();
      goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
      unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(lv, k));
      if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        Py_DECREF(lv);
        goto done;
      }
      offs[l][k] = v;
    }
    Py_DECREF(lv);
  }
  ic_status st = ic_tensor_set_lod(t, (size_t)nl, lens, (const uint64_t *const *)offs);
  if (st) {
    char msg[256];
    snprintf(msg, sizeof msg, "feed '%s': the LoD does not fit a tensor of %lld rows "
             "(each level starts at 0, never decreases, ends at the next level's count)",
             name, ic_tensor_ndim(t) ? (long long)ic_tensor_dims(t)[0] : 1LL);
    raise_ic(st, msg);
    goto done;
  }
  rc = 0;
done:
  for (Py_ssize_t l = 0; l < nl && l < 16; l++) PyMem_Free(offs[l]);
  Py_DECREF(levels);
  return rc;
}

/* A borrowed feed: the Py_buffer (which holds a reference to its exporter) stays acquired
 * until icore drops the last reference to the memory (ic_tensor_wrap's release). That is in
 * ic_tensor_destroy, with the GIL held, after the run; the GIL is taken anyway in case the
 * last reference goes on a thread without it. */
static void release_view(void *ctx) {
  PyGILState_STATE g = PyGILState_Ensure();
  PyBuffer_Release((Py_buffer *)ctx);
  PyMem_RawFree(ctx);
  PyGILState_Release(g);
}

/* A new ic_tensor for value (a buffer, or anything numpy can make one of); value may be a
 * 2-tuple (array, lod). A C-contiguous buffer of a supported dtype in native byte order,
 * aligned to its element size, is wrapped without a copy (ic_tensor_wrap; *borrowed set to
 * 1); anything else is copied once: by numpy (numpy.ascontiguousarray when it has no
 * C-contiguous buffer, or in the native byte order), the copy then wrapped, or into a new
 * ic_tensor (unaligned memory). */
static ic_tensor *value_to_tensor(PyObject *value, const char *name, int *borrowed) {
  PyObject *lod = NULL;
  if (borrowed) *borrowed = 0;
  if (PyTuple_Check(value) && PyTuple_GET_SIZE(value) == 2) {
    lod = PyTuple_GET_ITEM(value, 1);
    value = PyTuple_GET_ITEM(value, 0);
  }
  Py_buffer *view = PyMem_RawMalloc(sizeof *view);
  if (!view) return (ic_tensor *)PyErr_NoMemory();
  PyObject *conv = NULL;
  if (PyObject_GetBuffer(value, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
    PyErr_Clear();
    if (load_numpy()) goto fail_raw;
    conv = PyObject_CallOneArg(g_np_ascontig, value);
    if (!conv) goto fail_raw;
    if (PyObject_GetBuffer(conv, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) goto fail_raw;
  }
  ic_tensor *t = NULL;
  ic_dtype dt;
  if (format_dtype(view->format, view->itemsize, &dt) && !conv && view->format &&
      (view->format[0] == '>' || view->format[0] == '!')) {
    /* the other byte order: one copy in native order (numpy converts) */
    PyBuffer_Release(view);
    if (load_numpy()) goto fail_raw;
    PyObject *arr = PyObject_CallOneArg(g_np_asarray, value);
    PyObject *dtype = arr ? PyObject_GetAttrString(arr, "dtype") : NULL;
    PyObject *native = dtype ? PyObject_CallMethod(dtype, "newbyteorder", "s", "=") : NULL;
    conv = native ? PyObject_CallFunctionObjArgs(g_np_ascontig, arr, native, NULL) : NULL;
    Py_XDECREF(arr);
    Py_XDECREF(dtype);
    Py_XDECREF(native);
    if (!conv || PyObject_GetBuffer(conv, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) goto fail_raw;
  }
  if (format_dtype(view->format, view->itemsize, &dt)) {
    PyErr_Format(PyExc_TypeError,
                 "feed '%s': unsupported element type '%s' (%zd bytes); icore takes bool, "
                 "int8, uint8, int16, int32, int64, float16, float32 and float64 in native "
                 "byte order", name, view->format ? view->format : "B", view->itemsize);
    goto done;
  }
  if (view->ndim > IC_MAX_RANK) {
    PyErr_Format(PyExc_ValueError, "feed '%s': %d dims (icore takes at most %d)", name,
                 view->ndim, IC_MAX_RANK);
    goto done;
  }
  int64_t dims[IC_MAX_RANK];
  for (int i = 0; i < view->ndim; i++) {
    dims[i] = view->shape ? (int64_t)view->shape[i] : (int64_t)(view->len / view->itemsize);
  }
  /* A conversion made by numpy above is the one copy: wrapped in turn (the view holds it). */
  if (((uintptr_t)view->buf % (uintptr_t)view->itemsize) == 0 &&
      ic_tensor_wrap(dt, view->ndim, dims, view->len ? view->buf : NULL, release_view, view,
                     &t) == IC_OK) {
    if (borrowed) *borrowed = !conv;
    view = NULL; /* released with t's memory */
  } else {
    ic_status st = ic_tensor_create(dt, view->ndim, dims, &t);
    if (st) {
      raise_ic(st, "cannot allocate a feed tensor");
      goto done;
    }
    if (view->len) memcpy(ic_tensor_data(t), view->buf, (size_t)view->len);
  }
  if (lod && lod != Py_None && apply_lod(t, lod, name)) {
    ic_tensor_destroy(t);
    t = NULL;
  }
done:
  if (view) {
    PyBuffer_Release(view);
    PyMem_RawFree(view);
  }
  Py_XDECREF(conv);
  return t;
fail_raw:
  PyMem_RawFree(view);
  Py_XDECREF(conv);
  return NULL;
}

/* ---------------------------------------------------------------------------------------
 * Program
 * ------------------------------------------------------------------------------------- */
typedef struct {
  PyObject_HEAD
  ic_program *p;
} ProgramObject;

static PyTypeObject ProgramType;

static void program_dealloc(ProgramObject *self) {
  ic_program_destroy(self->p);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *program_wrap(ic_program *p) {
  ProgramObject *o = PyObject_New(ProgramObject, &ProgramType);
  if (!o) {
    ic_program_destroy(p);
    return NULL;
  }
  o->p = p;
  return (PyObject *)o;
}

static PyObject *names_list(const ic_program *p, bool feeds) {
  size_t n = feeds ? ic_program_n_feed_targets(p) : ic_program_n_fetch_targets(p);
  PyObject *l = PyList_New((Py_ssize_t)n);
  if (!l) return NULL;
  for (size_t i = 0; i < n; i++) {
    PyObject *s = PyUnicode_FromString(feeds ? ic_program_feed_target(p, i)
                                             : ic_program_fetch_target(p, i));
    if (!s) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, (Py_ssize_t)i, s);
  }
  return l;
}

static PyObject *program_feeds(ProgramObject *self, void *c) { return names_list(self->p, true); }
static PyObject *program_fetches(ProgramObject *self, void *c) { return names_list(self->p, false); }

static PyObject *program_bytes(ProgramObject *self, PyObject *unused) {
  size_t n;
  const void *b = ic_program_bytes(self->p, &n);
  return PyBytes_FromStringAndSize(b, (Py_ssize_t)n);
}

static PyObject *program_params(ProgramObject *self, void *c) {
  const char **names;
  size_t n;
  ic_status st = ic_params_names(self->p, &names, &n);
  if (st) return raise_ic(st, "cannot list the program's parameters");
  PyObject *l = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; l && i < n; i++) {
    PyObject *s = PyUnicode_FromString(names[i]);
    if (!s) {
      Py_CLEAR(l);
      break;
    }
    PyList_SET_ITEM(l, (Py_ssize_t)i, s);
  }
  free(names);
  return l;
}

static PyGetSetDef program_getset[] = {
    {"feed_target_names", (getter)program_feeds, NULL, "Feed targets, in column order.", NULL},
    {"fetch_target_names", (getter)program_fetches, NULL, "Fetch targets, in column order.", NULL},
    {"param_names", (getter)program_params, NULL,
     "The persistable variables save/load write and read (sorted by name).", NULL},
    {NULL}};

static PyMethodDef program_methods[] = {
    {"serialize", (PyCFunction)program_bytes, METH_NOARGS,
     "The ProgramDesc bytes the program was parsed from."},
    {NULL}};

static PyTypeObject ProgramType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "icore.Program",
    .tp_basicsize = sizeof(ProgramObject),
    .tp_dealloc = (destructor)program_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A parsed, validated Paddle program (immutable).",
    .tp_getset = program_getset,
    .tp_methods = program_methods,
};

/* ---------------------------------------------------------------------------------------
 * Scope
 * ------------------------------------------------------------------------------------- */
typedef struct {
  PyObject_HEAD
  ic_scope *s;
} ScopeObject;

static PyTypeObject ScopeType;

static void scope_dealloc(ScopeObject *self) {
  ic_scope_destroy(self->s);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *scope_wrap(ic_scope *s) {
  ScopeObject *o = PyObject_New(ScopeObject, &ScopeType);
  if (!o) {
    ic_scope_destroy(s);
    return NULL;
  }
  o->s = s;
  return (PyObject *)o;
}

static PyObject *scope_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  if (!PyArg_ParseTuple(args, ":Scope") || (kw && PyDict_Size(kw))) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "Scope() takes no arguments");
    return NULL;
  }
  ic_scope *s;
  ic_status st = ic_scope_create(NULL, &s);
  if (st) return raise_ic(st, "cannot create a scope");
  ScopeObject *o = (ScopeObject *)type->tp_alloc(type, 0);
  if (!o) {
    ic_scope_destroy(s);
    return NULL;
  }
  o->s = s;
  return (PyObject *)o;
}

static PyObject *scope_subscript(ScopeObject *self, PyObject *key) {
  const char *name = PyUnicode_AsUTF8(key);
  if (!name) return NULL;
  const ic_tensor *t = ic_scope_get(self->s, name);
  if (!t) {
    PyErr_SetObject(PyExc_KeyError, key);
    return NULL;
  }
  ic_tensor *c;
  ic_status st = ic_tensor_clone(t, &c);
  if (st) return raise_ic(st, "cannot copy a scope variable");
  return tensor_to_array(c);
}

static int scope_ass_subscript(ScopeObject *self, PyObject *key, PyObject *value) {
  const char *name = PyUnicode_AsUTF8(key);
  if (!name) return -1;
  if (!value) {
    PyErr_SetString(PyExc_TypeError, "icore scopes cannot delete variables");
    return -1;
  }
  ic_tensor *t = value_to_tensor(value, name, NULL);
  if (!t) return -1;
  ic_status st = ic_scope_set(self->s, name, t);
  ic_tensor_destroy(t);
  if (st) {
    raise_ic(st, "cannot store a scope variable");
    return -1;
  }
  return 0;
}

static int scope_contains(ScopeObject *self, PyObject *key) {
  const char *name = PyUnicode_AsUTF8(key);
  if (!name) return -1;
  return ic_scope_get(self->s, name) != NULL;
}

static Py_ssize_t scope_len(ScopeObject *self) { return (Py_ssize_t)ic_scope_size(self->s); }

static PyMappingMethods scope_as_mapping = {(lenfunc)scope_len, (binaryfunc)scope_subscript,
                                            (objobjargproc)scope_ass_subscript};
static PySequenceMethods scope_as_sequence = {.sq_contains = (objobjproc)scope_contains};

static PyTypeObject ScopeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "icore.Scope",
    .tp_basicsize = sizeof(ScopeObject),
    .tp_dealloc = (destructor)scope_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Scope(): name -> tensor (model parameters). scope[name] is a copy as a NumPy "
              "array; scope[name] = array stores a copy.",
    .tp_new = scope_new,
    .tp_as_mapping = &scope_as_mapping,
    .tp_as_sequence = &scope_as_sequence,
};


/* ---------------------------------------------------------------------------------------
 * Plan descriptions as plain Python values (icore/__init__.py makes dataclasses of them).
 * ------------------------------------------------------------------------------------- */
static PyObject *u32_list(const uint32_t *v, uint32_t n) {
  PyObject *l = PyList_New(n);
  for (uint32_t i = 0; l && i < n; i++) {
    PyObject *x = PyLong_FromUnsignedLong(v[i]);
    if (!x) {
      Py_CLEAR(l);
      break;
    }
    PyList_SET_ITEM(l, i, x);
  }
  return l;
}

static PyObject *subplan_to_py(const ic_subplan_desc *sp);

static PyObject *instr_to_py(const ic_plan_instr_desc *in) {
  PyObject *sub = Py_None;
  if (in->sub) {
    if (!(sub = subplan_to_py(in->sub))) return NULL;
  } else {
    Py_INCREF(sub);
  }
  PyObject *kinds = PyList_New(in->n_succ);
  for (uint32_t k = 0; kinds && k < in->n_succ; k++) {
    PyObject *x = PyLong_FromUnsignedLong(in->succ_kind[k]);
    if (!x) Py_CLEAR(kinds);
    else PyList_SET_ITEM(kinds, k, x);
  }
  if (!kinds) {
    Py_DECREF(sub);
    return NULL;
  }
  return Py_BuildValue(
      "{s:s,s:i,s:i,s:N,s:N,s:I,s:N,s:N,s:N,s:L,s:s,s:i,s:O,s:N,s:N}", "op_type", in->op_type,
      "op_block", in->op_block, "op_index", in->op_index, "inputs", u32_list(in->inputs, in->n_inputs),
      "outputs", u32_list(in->outputs, in->n_outputs), "n_preds", in->n_preds, "succ",
      u32_list(in->succ, in->n_succ), "succ_kind", kinds, "releases",
      u32_list(in->releases, in->n_releases), "priority", (long long)in->priority, "where",
      in->where, "stream", in->stream, "records", in->records ? Py_True : Py_False, "waits",
      u32_list(in->waits, in->n_waits), "sub", sub);
}

static PyObject *instrs_to_py(const ic_plan_instr_desc *ins, size_t n) {
  PyObject *l = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; l && i < n; i++) {
    PyObject *x = instr_to_py(&ins[i]);
    if (!x) {
      Py_CLEAR(l);
      break;
    }
    PyList_SET_ITEM(l, (Py_ssize_t)i, x);
  }
  return l;
}

static PyObject *subplan_to_py(const ic_subplan_desc *sp) {
  PyObject *names = PyList_New(sp->n_vars), *outer = PyList_New(sp->n_vars);
  bool ok = names && outer;
  for (uint32_t v = 0; ok && v < sp->n_vars; v++) {
    PyObject *nm = PyUnicode_FromString(sp->var_names[v]);
    PyObject *o = sp->var_outer[v] == UINT32_MAX ? Py_NewRef(Py_None)
                                                  : PyLong_FromUnsignedLong(sp->var_outer[v]);
    if (!nm || !o) {
      Py_XDECREF(nm);
      Py_XDECREF(o);
      ok = false;
      break;
    }
    PyList_SET_ITEM(names, v, nm);
    PyList_SET_ITEM(outer, v, o);
  }
  if (!ok) {
    Py_XDECREF(names);
    Py_XDECREF(outer);
    return NULL;
  }
  return Py_BuildValue("{s:i,s:N,s:N,s:N}", "block", sp->block, "instructions",
                       instrs_to_py(sp->instrs, sp->n_instrs), "var_names", names, "var_outer", outer);
}

static PyObject *plan_to_py(const ic_plan_desc *d) {
  PyObject *vars = PyList_New((Py_ssize_t)d->n_vars);
  for (size_t v = 0; vars && v < d->n_vars; v++) {
    const ic_plan_var_desc *pv = &d->vars[v];
    PyObject *shape = Py_None, *dtype = Py_None, *layout = Py_None;
    if (pv->has_meta) {
      shape = PyTuple_New(pv->ndim);
      for (int k = 0; shape && k < pv->ndim; k++) PyTuple_SET_ITEM(shape, k, PyLong_FromLongLong(pv->dims[k]));
      const char *dn = ic_dtype_name(pv->dtype);
      dtype = PyUnicode_FromString(dn ? dn : "bfloat16");
      layout = PyUnicode_FromString(pv->layout);
    } else {
      Py_INCREF(shape);
      Py_INCREF(dtype);
      Py_INCREF(layout);
    }
    PyObject *x = Py_BuildValue("{s:s,s:s,s:i,s:i,s:I,s:O,s:O,s:N,s:N,s:N}", "name", pv->name,
                                "kind", pv->kind, "first_write", pv->first_write, "last_use",
                                pv->last_use, "n_uses", pv->n_uses, "kept",
                                pv->kept ? Py_True : Py_False, "on_device",
                                pv->on_device ? Py_True : Py_False, "dtype", dtype, "shape", shape,
                                "layout", layout);
    if (!x) {
      Py_CLEAR(vars);
      break;
    }
    PyList_SET_ITEM(vars, (Py_ssize_t)v, x);
  }
  if (!vars) return NULL;
  return Py_BuildValue(
      "{s:N,s:N,s:N,s:n,s:n,s:n,s:n,s:n,s:n,s:d,s:s,s:I,s:I,s:O,s:n}", "instructions",
      instrs_to_py(d->instrs, d->n_instrs), "variables", vars, "roots",
      u32_list(d->roots, (uint32_t)d->n_roots), "edges_before_pruning",
      (Py_ssize_t)d->edges_before_pruning, "edges", (Py_ssize_t)d->edges, "implicit_edges",
      (Py_ssize_t)d->implicit_edges, "critical_path", (Py_ssize_t)d->critical_path, "max_width",
      (Py_ssize_t)d->max_width, "joins", (Py_ssize_t)d->joins, "analysis_ms", d->analysis_ms, "place", d->place, "n_streams",
      d->n_streams, "n_events", d->n_events, "ran", d->ran ? Py_True : Py_False, "peak_bytes",
      (Py_ssize_t)d->peak_bytes);
}

/* ---------------------------------------------------------------------------------------
 * Executor
 * ------------------------------------------------------------------------------------- */
typedef struct {
  PyObject_HEAD
  ic_executor *e;
  unsigned long long borrowed, copied; /* feeds run without a copy, and copied once */
} ExecutorObject;

static PyTypeObject ExecutorType;

static void executor_dealloc(ExecutorObject *self) {
  ic_executor_destroy(self->e);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int executor_init(ExecutorObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"place", "mode", "threads", "gc", "fuse", "seed", "check_nan_inf",
                           "profile", "serial", "sequential", "cache_capacity", "winograd",
                           "prune", NULL};
  const char *place = "cpu", *mode = "compiled";
  int threads = 0, gc = 1, fuse = 1, nan = 0, profile = 0, serial = 0, sequential = 0;
  int cache = 8, winograd = 0, prune = 0;
  unsigned long long seed = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|s$sippKppppipp:Executor", kwlist, &place,
                                   &mode, &threads, &gc, &fuse, &seed, &nan, &profile, &serial,
                                   &sequential, &cache, &winograd, &prune)) {
    return -1;
  }
  ic_options o;
  ic_options_default(&o);
  if (!strcmp(mode, "compiled")) o.mode = IC_MODE_COMPILED;
  else if (!strcmp(mode, "uncompiled")) o.mode = IC_MODE_UNCOMPILED;
  else {
    PyErr_Format(PyExc_ValueError, "Executor: mode '%s' (expected 'compiled' or 'uncompiled')", mode);
    return -1;
  }
  if (threads < 0 || cache < 1) {
    PyErr_Format(PyExc_ValueError, "Executor: threads must be >= 0 and cache_capacity >= 1");
    return -1;
  }
  ic_place pl;
  if (ic_place_parse(place, &pl)) {
    PyErr_Format(PyExc_ValueError, "Executor: place '%s' (expected 'cpu', 'cuda:N' or 'emu:N')", place);
    return -1;
  }
  o.device = pl;
  o.threads = threads;
  o.gc = gc;
  o.fuse = fuse;
  o.seed = seed;
  o.check_nan_inf = nan;
  o.profile = profile;
  o.serial = serial;
  o.sequential = sequential;
  o.cache_capacity = cache;
  o.winograd = winograd;
  o.prune = prune;
  ic_executor *e;
  ic_status st = ic_executor_create(&o, &e);
  if (st) {
    raise_ic(st, pl.kind == IC_PLACE_CUDA
                     ? "cannot create the executor (icore built without CUDA, or no device)"
                     : "cannot create the executor");
    return -1;
  }
  ic_executor_destroy(self->e);
  self->e = e;
  return 0;
}

static const char *name_of(PyObject *o, const char *what) {
  if (!PyUnicode_Check(o)) {
    PyErr_Format(PyExc_TypeError, "%s names must be str, not %s", what, Py_TYPE(o)->tp_name);
    return NULL;
  }
  return PyUnicode_AsUTF8(o);
}

static PyObject *executor_run(ExecutorObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"program", "feed", "fetch_list", "scope", "return_lod", NULL};
  PyObject *prog, *feed = Py_None, *fetch = Py_None, *scope = Py_None;
  int return_lod = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|OOOp:run", kwlist, &ProgramType, &prog, &feed,
                                   &fetch, &scope, &return_lod)) {
    return NULL;
  }
  if (!self->e) {
    PyErr_SetString(PyExc_RuntimeError, "Executor was not initialized");
    return NULL;
  }
  if (feed != Py_None && !PyDict_Check(feed)) {
    PyErr_Format(PyExc_TypeError, "feed must be a dict of name -> array, not %s", Py_TYPE(feed)->tp_name);
    return NULL;
  }
  if (scope != Py_None && !PyObject_TypeCheck(scope, &ScopeType)) {
    PyErr_Format(PyExc_TypeError, "scope must be an icore.Scope, not %s", Py_TYPE(scope)->tp_name);
    return NULL;
  }
  const ic_program *p = ((ProgramObject *)prog)->p;
  ic_scope *sc = NULL, *tmp_scope = NULL;
  if (scope != Py_None) sc = ((ScopeObject *)scope)->s;
  else {
    ic_status st = ic_scope_create(NULL, &tmp_scope);
    if (st) return raise_ic(st, "cannot create a scope");
    sc = tmp_scope;
  }
  PyObject *fetch_seq = NULL, *result = NULL, *keep = NULL; /* keep: names from .name */
  Py_ssize_t nfeed = feed == Py_None ? 0 : PyDict_Size(feed);
  Py_ssize_t nfetch = 0;
  /* Small runs keep their arrays on the stack. */
  enum { SMALL = 8 };
  const char *fnames_s[SMALL], *onames_s[SMALL];
  ic_tensor *feeds_s[SMALL] = {0}, *outs_s[SMALL] = {0};
  const char **fnames = fnames_s, **onames = onames_s;
  ic_tensor **feeds = feeds_s, **outs = outs_s;
  if (fetch == Py_None) {
    fetch_seq = names_list(p, false);
  } else {
    /* a tuple: code run below (a .name property) cannot change it under us */
    if (PySequence_Check(fetch) && !PyUnicode_Check(fetch)) fetch_seq = PySequence_Tuple(fetch);
    else PyErr_Format(PyExc_TypeError, "fetch_list must be a list of names, not %s",
                      Py_TYPE(fetch)->tp_name);
  }
  if (!fetch_seq) goto done;
  nfetch = PySequence_Fast_GET_SIZE(fetch_seq);
  if (nfeed > SMALL) {
    fnames = PyMem_Calloc((size_t)nfeed, sizeof *fnames);
    feeds = PyMem_Calloc((size_t)nfeed, sizeof *feeds);
    if (!fnames || !feeds) {
      PyErr_NoMemory();
      goto done;
    }
  }
  if (nfetch > SMALL) {
    onames = PyMem_Calloc((size_t)nfetch, sizeof *onames);
    outs = PyMem_Calloc((size_t)nfetch, sizeof *outs);
    if (!onames || !outs) {
      PyErr_NoMemory();
      goto done;
    }
  }
  Py_ssize_t pos = 0, i = 0;
  PyObject *k, *v;
  /* i < nfeed: numpy.ascontiguousarray may run code that grows the dict */
  while (feed != Py_None && i < nfeed && PyDict_Next(feed, &pos, &k, &v)) {
    fnames[i] = name_of(k, "feed");
    if (!fnames[i]) goto done;
    int b;
    feeds[i] = value_to_tensor(v, fnames[i], &b);
    if (!feeds[i]) goto done;
    if (b) self->borrowed++;
    else self->copied++;
    i++;
  }
  for (Py_ssize_t j = 0; j < nfetch; j++) {
    PyObject *f = PySequence_Fast_GET_ITEM(fetch_seq, j);
    /* Paddle's fetch_list also takes Variables; anything with a str .name works here. */
    if (!PyUnicode_Check(f)) {
      PyObject *nm = PyObject_GetAttrString(f, "name");
      if (!keep) keep = PyList_New(0);
      if (!keep || !nm || !PyUnicode_Check(nm) || PyList_Append(keep, nm) < 0) {
        Py_XDECREF(nm);
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "fetch_list entries must be str (or have a str .name), "
                     "not %s", Py_TYPE(f)->tp_name);
        goto done;
      }
      Py_DECREF(nm); /* `keep` holds it until the run is over */
      f = nm;
    }
    onames[j] = PyUnicode_AsUTF8(f);
    if (!onames[j]) goto done;
  }
  ic_status st;
  Py_BEGIN_ALLOW_THREADS
  st = ic_executor_run(self->e, p, sc, (size_t)i, fnames, (const ic_tensor *const *)feeds,
                       (size_t)nfetch, onames, outs);
  Py_END_ALLOW_THREADS
  if (st) {
    raise_ic(st, ic_executor_errmsg(self->e));
    goto done;
  }
  result = PyList_New(nfetch);
  if (!result) goto done;
  for (Py_ssize_t j = 0; j < nfetch; j++) {
    PyObject *lod = NULL;
    if (return_lod) {
      lod = lod_to_list(outs[j]);
      if (!lod) goto fail_result;
    }
    PyObject *arr = tensor_to_array(outs[j]);
    outs[j] = NULL;
    if (!arr) {
      Py_XDECREF(lod);
      goto fail_result;
    }
    if (return_lod) {
      PyObject *pair = PyTuple_Pack(2, arr, lod);
      Py_DECREF(arr);
      Py_DECREF(lod);
      if (!pair) goto fail_result;
      arr = pair;
    }
    PyList_SET_ITEM(result, j, arr);
  }
  goto done;
fail_result:
  Py_CLEAR(result);
done:
  for (Py_ssize_t j = 0; j < nfeed && feeds; j++) ic_tensor_destroy(feeds[j]);
  for (Py_ssize_t j = 0; j < nfetch && outs; j++) ic_tensor_destroy(outs[j]);
  if (fnames != fnames_s) PyMem_Free(fnames);
  if (feeds != feeds_s) PyMem_Free(feeds);
  if (onames != onames_s) PyMem_Free(onames);
  if (outs != outs_s) PyMem_Free(outs);
  Py_XDECREF(fetch_seq);
  Py_XDECREF(keep);
  ic_scope_destroy(tmp_scope);
  return result;
}

static PyObject *executor_cache_stats(ExecutorObject *self, PyObject *unused) {
  uint64_t h, m;
  ic_executor_cache_stats(self->e, &h, &m);
  return Py_BuildValue("(KK)", (unsigned long long)h, (unsigned long long)m);
}

static PyObject *executor_describe_last(ExecutorObject *self, PyObject *unused) {
  ic_plan_desc *d;
  ic_status st = ic_executor_describe_last(self->e, &d);
  if (st) return raise_ic(st, st == IC_ERR_NOT_FOUND ? "no plan: this executor made no compiled run"
                                                     : "cannot describe the plan");
  PyObject *r = plan_to_py(d);
  ic_plan_desc_destroy(d);
  return r;
}

static PyObject *executor_feed_stats(ExecutorObject *self, PyObject *unused) {
  return Py_BuildValue("{s:K,s:K}", "borrowed", self->borrowed, "copied", self->copied);
}

static PyObject *executor_memory_stats(ExecutorObject *self, PyObject *unused) {
  ic_memory_stats s;
  ic_executor_memory_stats(self->e, &s);
  return Py_BuildValue("{s:n,s:n,s:n,s:n}", "live_bytes", (Py_ssize_t)s.live_bytes, "peak_bytes",
                       (Py_ssize_t)s.peak_bytes, "cached_bytes", (Py_ssize_t)s.cached_bytes,
                       "system_allocs", (Py_ssize_t)s.system_allocs);
}

static PyObject *executor_write_profile(ExecutorObject *self, PyObject *arg) {
  PyObject *b;
  if (!PyUnicode_FSConverter(arg, &b)) return NULL;
  ic_status st = ic_executor_write_profile(self->e, PyBytes_AS_STRING(b));
  Py_DECREF(b);
  if (st) return raise_ic(st, "write_profile: no profile (profile=True and a compiled run "
                              "first) or the file cannot be written");
  Py_RETURN_NONE;
}

static PyMethodDef executor_methods[] = {
    {"run", (PyCFunction)(void (*)(void))executor_run, METH_VARARGS | METH_KEYWORDS,
     "run(program, feed=None, fetch_list=None, scope=None, return_lod=False) -> list of "
     "arrays (or (array, lod) pairs). fetch_list defaults to the program's fetch targets."},
    {"cache_stats", (PyCFunction)executor_cache_stats, METH_NOARGS, "(plan cache hits, misses)"},
    {"memory_stats", (PyCFunction)executor_memory_stats, METH_NOARGS, "memory counters"},
    {"_describe_last", (PyCFunction)executor_describe_last, METH_NOARGS,
     "The last compiled run's plan as plain values (icore.Executor.inspect wraps it)."},
    {"feed_stats", (PyCFunction)executor_feed_stats, METH_NOARGS,
     "{'borrowed': feeds run in place (zero copy), 'copied': feeds copied once (not "
     "C-contiguous, a dtype needing conversion, unaligned, or not a buffer)} since creation"},
    {"write_profile", (PyCFunction)executor_write_profile, METH_O,
     "Write the last compiled run's profile as a Chrome trace (needs profile=True)."},
    {NULL}};

static PyTypeObject ExecutorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "icore.Executor",
    .tp_basicsize = sizeof(ExecutorObject),
    .tp_dealloc = (destructor)executor_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Executor(place='cpu', *, mode='compiled', threads=0, gc=True, fuse=True, seed=0, "
              "check_nan_inf=False, profile=False, serial=False, sequential=False, "
              "cache_capacity=8, winograd=False, prune=False)",
    .tp_init = (initproc)executor_init,
    .tp_new = PyType_GenericNew,
    .tp_methods = executor_methods,
};

/* ---------------------------------------------------------------------------------------
 * Module functions
 * ------------------------------------------------------------------------------------- */
static PyObject *mod_load_model(PyObject *m, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "params_path", "no_params", NULL};
  PyObject *path_b = NULL, *params_o = Py_None, *params_b = NULL;
  int no_params = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|Op:load_model", kwlist, PyUnicode_FSConverter,
                                   &path_b, &params_o, &no_params)) {
    return NULL;
  }
  if (params_o != Py_None && !PyUnicode_FSConverter(params_o, &params_b)) {
    Py_DECREF(path_b);
    return NULL;
  }
  ic_program *p = NULL;
  ic_scope *s = NULL;
  char err[2048];
  ic_status st;
  const char *path = PyBytes_AS_STRING(path_b);
  const char *pp = params_b ? PyBytes_AS_STRING(params_b) : NULL;
  Py_BEGIN_ALLOW_THREADS
  st = ic_model_load(path, pp, no_params ? IC_LOAD_NO_PARAMS : 0, &p, &s, err, sizeof err);
  Py_END_ALLOW_THREADS
  Py_DECREF(path_b);
  Py_XDECREF(params_b);
  if (st) return raise_ic(st, err);
  PyObject *po = program_wrap(p);
  if (!po) {
    ic_scope_destroy(s);
    return NULL;
  }
  PyObject *so = scope_wrap(s);
  if (!so) {
    Py_DECREF(po);
    return NULL;
  }
  PyObject *r = PyTuple_Pack(2, po, so);
  Py_DECREF(po);
  Py_DECREF(so);
  return r;
}

static PyObject *mod_program_from_bytes(PyObject *m, PyObject *arg) {
  Py_buffer view;
  if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
  ic_program *p;
  char err[2048];
  ic_status st = ic_program_from_bytes(view.buf, (size_t)view.len, NULL, &p, err, sizeof err);
  PyBuffer_Release(&view);
  if (st) return raise_ic(st, err);
  return program_wrap(p);
}

static PyObject *mod_random_params(PyObject *m, PyObject *args) {
  PyObject *prog;
  unsigned long long seed;
  if (!PyArg_ParseTuple(args, "O!K:random_params", &ProgramType, &prog, &seed)) return NULL;
  ic_scope *s;
  ic_status st = ic_scope_create(NULL, &s);
  if (st) return raise_ic(st, "cannot create a scope");
  char err[2048];
  st = ic_params_random(((ProgramObject *)prog)->p, (uint64_t)seed, s, err, sizeof err);
  if (st) {
    ic_scope_destroy(s);
    return raise_ic(st, err);
  }
  return scope_wrap(s);
}

static int parse_format(const char *f, ic_params_format *out) {
  if (!strcmp(f, "auto")) *out = IC_PARAMS_AUTO;
  else if (!strcmp(f, "combined")) *out = IC_PARAMS_COMBINED;
  else if (!strcmp(f, "separate")) *out = IC_PARAMS_SEPARATE;
  else {
    PyErr_Format(PyExc_ValueError, "params format '%s' (expected 'auto', 'combined' or 'separate')", f);
    return -1;
  }
  return 0;
}

static PyObject *mod_save_params(PyObject *m, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"program", "scope", "path", "format", NULL};
  PyObject *prog, *scope, *path_b = NULL;
  const char *fmt_s = "combined";
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O!O&|s:save_params", kwlist, &ProgramType, &prog,
                                   &ScopeType, &scope, PyUnicode_FSConverter, &path_b, &fmt_s)) {
    return NULL;
  }
  ic_params_format fmt;
  if (parse_format(fmt_s, &fmt)) {
    Py_DECREF(path_b);
    return NULL;
  }
  char err[2048];
  ic_status st = ic_params_save(((ProgramObject *)prog)->p, ((ScopeObject *)scope)->s,
                                PyBytes_AS_STRING(path_b), fmt, err, sizeof err);
  Py_DECREF(path_b);
  if (st) return raise_ic(st, err);
  Py_RETURN_NONE;
}

static PyObject *mod_load_params(PyObject *m, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"program", "path", "format", "scope", NULL};
  PyObject *prog, *path_b = NULL, *scope = Py_None;
  const char *fmt_s = "auto";
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O&|sO:load_params", kwlist, &ProgramType, &prog,
                                   PyUnicode_FSConverter, &path_b, &fmt_s, &scope)) {
    return NULL;
  }
  ic_params_format fmt;
  if (parse_format(fmt_s, &fmt) ||
      (scope != Py_None && !PyObject_TypeCheck(scope, &ScopeType) &&
       !PyErr_Format(PyExc_TypeError, "scope must be an icore.Scope"))) {
    Py_DECREF(path_b);
    return NULL;
  }
  ic_scope *s = NULL;
  ic_status st = IC_OK;
  if (scope == Py_None) st = ic_scope_create(NULL, &s);
  if (st) {
    Py_DECREF(path_b);
    return raise_ic(st, "cannot create a scope");
  }
  char err[2048];
  st = ic_params_load(((ProgramObject *)prog)->p, PyBytes_AS_STRING(path_b), fmt,
                      s ? s : ((ScopeObject *)scope)->s, err, sizeof err);
  Py_DECREF(path_b);
  if (st) {
    ic_scope_destroy(s);
    return raise_ic(st, err);
  }
  if (s) return scope_wrap(s);
  Py_INCREF(scope);
  return scope;
}

/* names: None, or a sequence of str (kept alive by *keep). */
static int names_arg(PyObject *o, const char *what, PyObject **keep, const char ***names, size_t *n) {
  *names = NULL;
  *n = 0;
  *keep = NULL;
  if (o == Py_None) return 0;
  *keep = PySequence_Fast(o, "feed and fetch names must be a list of str");
  if (!*keep) return -1;
  Py_ssize_t k = PySequence_Fast_GET_SIZE(*keep);
  *names = PyMem_Calloc((size_t)k + 1, sizeof **names);
  if (!*names) {
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < k; i++) {
    if (!((*names)[i] = name_of(PySequence_Fast_GET_ITEM(*keep, i), what))) return -1;
  }
  *n = (size_t)k;
  return 0;
}

static PyObject *mod_describe(PyObject *m, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"program", "feed_names", "fetch_names", "place", "streams", "fuse",
                           "gc", "sequential", "prune", NULL};
  PyObject *prog, *feeds = Py_None, *fetches = Py_None;
  const char *place = "cpu", *streams = "per-operator";
  int fuse = 1, gc = 1, sequential = 0, prune = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|OOsspppp:describe", kwlist, &ProgramType, &prog,
                                   &feeds, &fetches, &place, &streams, &fuse, &gc, &sequential,
                                   &prune)) {
    return NULL;
  }
  ic_options o;
  ic_options_default(&o);
  if (ic_place_parse(place, &o.device)) {
    PyErr_Format(PyExc_ValueError, "place '%s' (expected 'cpu', 'cuda:N' or 'emu:N')", place);
    return NULL;
  }
  if (!strcmp(streams, "single")) o.streams = IC_STREAMS_SINGLE;
  else if (!strcmp(streams, "per-backend")) o.streams = IC_STREAMS_PER_BACKEND;
  else if (!strcmp(streams, "per-operator")) o.streams = IC_STREAMS_PER_OPERATOR;
  else {
    PyErr_Format(PyExc_ValueError, "streams '%s' (expected 'single', 'per-backend' or "
                 "'per-operator')", streams);
    return NULL;
  }
  o.fuse = fuse;
  o.gc = gc;
  o.sequential = sequential;
  o.prune = prune;
  PyObject *kf = NULL, *kx = NULL, *r = NULL;
  const char **fn = NULL, **xn = NULL;
  size_t nf, nx;
  if (names_arg(feeds, "feed", &kf, &fn, &nf) || names_arg(fetches, "fetch", &kx, &xn, &nx)) goto done;
  ic_plan_desc *d = NULL;
  char err[2048];
  ic_status st;
  Py_BEGIN_ALLOW_THREADS
  st = ic_plan_describe(((ProgramObject *)prog)->p, &o, nf, fn, nx, xn, &d, err, sizeof err);
  Py_END_ALLOW_THREADS
  if (st) {
    raise_ic(st, err);
    goto done;
  }
  r = plan_to_py(d);
  ic_plan_desc_destroy(d);
done:
  PyMem_Free(fn);
  PyMem_Free(xn);
  Py_XDECREF(kf);
  Py_XDECREF(kx);
  return r;
}

/* The C API baseline of bench/python_overhead.py: n runs of ic_executor_run with one feed made
 * once and each fetched tensor destroyed, in this process; returns the mean microseconds. */
static PyObject *mod_time_c_runs(PyObject *m, PyObject *args) {
  PyObject *exe, *prog, *scope, *value;
  const char *feed_name, *fetch_name;
  Py_ssize_t n;
  if (!PyArg_ParseTuple(args, "O!O!O!sOsn:_time_c_runs", &ExecutorType, &exe, &ProgramType, &prog,
                        &ScopeType, &scope, &feed_name, &value, &fetch_name, &n)) {
    return NULL;
  }
  ic_tensor *x = value_to_tensor(value, feed_name, NULL);
  if (!x) return NULL;
  ic_executor *e = ((ExecutorObject *)exe)->e;
  const ic_program *p = ((ProgramObject *)prog)->p;
  ic_scope *sc = ((ScopeObject *)scope)->s;
  ic_status st = IC_OK;
  struct timespec t0, t1;
  Py_BEGIN_ALLOW_THREADS
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (Py_ssize_t i = 0; i < n && !st; i++) {
    ic_tensor *out = NULL;
    st = ic_executor_run(e, p, sc, 1, &feed_name, (const ic_tensor *const *)&x, 1, &fetch_name, &out);
    ic_tensor_destroy(out);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  Py_END_ALLOW_THREADS
  ic_tensor_destroy(x);
  if (st) return raise_ic(st, ic_executor_errmsg(e));
  double us = (double)(t1.tv_sec - t0.tv_sec) * 1e6 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e3;
  return PyFloat_FromDouble(us / (double)(n ? n : 1));
}

static PyMethodDef module_methods[] = {
    {"load_model", (PyCFunction)(void (*)(void))mod_load_model, METH_VARARGS | METH_KEYWORDS,
     "load_model(path, params_path=None, no_params=False) -> (Program, Scope)"},
    {"program_from_bytes", mod_program_from_bytes, METH_O,
     "program_from_bytes(data) -> Program (ProgramDesc bytes or PIR JSON)"},
    {"random_params", mod_random_params, METH_VARARGS,
     "random_params(program, seed) -> Scope: `icore run --random-params SEED`'s values"},
    {"save_params", (PyCFunction)(void (*)(void))mod_save_params, METH_VARARGS | METH_KEYWORDS,
     "save_params(program, scope, path, format='combined'): Paddle's parameter format"},
    {"_describe", (PyCFunction)(void (*)(void))mod_describe, METH_VARARGS | METH_KEYWORDS,
     "_describe(program, feed_names=None, fetch_names=None, place='cpu', streams='per-operator', "
     "fuse=True, gc=True, sequential=False) -> the plan as plain values (icore.inspect)"},
    {"_time_c_runs", mod_time_c_runs, METH_VARARGS,
     "_time_c_runs(executor, program, scope, feed_name, array, fetch_name, n) -> us per "
     "ic_executor_run (bench/python_overhead.py's C baseline)"},
    {"load_params", (PyCFunction)(void (*)(void))mod_load_params, METH_VARARGS | METH_KEYWORDS,
     "load_params(program, path, format='auto', scope=None) -> Scope"},
    {NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, .m_name = "_icore",
                                        .m_doc = "icore's CPython extension module.",
                                        .m_size = -1, .m_methods = module_methods};

PyMODINIT_FUNC PyInit__icore(void) {
  if (PyType_Ready(&TensorType) < 0 || PyType_Ready(&ProgramType) < 0 ||
      PyType_Ready(&ScopeType) < 0 || PyType_Ready(&ExecutorType) < 0) {
    return NULL;
  }
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  if (!g_error) {
    g_error = PyErr_NewExceptionWithDoc("icore.Error", "An icore call failed; .status names "
                                        "icore's status code.", PyExc_RuntimeError, NULL);
  }
  if (!g_error || PyModule_AddObjectRef(m, "Error", g_error) < 0 ||
      PyModule_AddObjectRef(m, "Program", (PyObject *)&ProgramType) < 0 ||
      PyModule_AddObjectRef(m, "Scope", (PyObject *)&ScopeType) < 0 ||
      PyModule_AddObjectRef(m, "Executor", (PyObject *)&ExecutorType) < 0 ||
      PyModule_AddObjectRef(m, "Tensor", (PyObject *)&TensorType) < 0 ||
      PyModule_AddStringConstant(m, "__version__", ic_version()) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
