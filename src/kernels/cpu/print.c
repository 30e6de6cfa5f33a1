/* print (paddle.static.Print; dy2static writes it for a Python print of a tensor): Out = In,
 * and the tensor described on stderr as Paddle's TensorFormatter describes it on stdout
 * (message, name, lod, shape, dtype and the first `summarize` values, -1 all), at most
 * `first_n` times per instruction (-1: always). print_phase BACKWARD prints nothing in a
 * forward op. icore writes stderr so that a program's prints do not mix with the data a
 * caller writes to stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"

typedef struct print_attrs {
  int64_t first_n, summarize;
  const char *message;
  bool name, type, shape, layout, lod, enabled;
} print_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  print_attrs *a = attrs;
  a->first_n = ic_ar_int(r, "first_n", -1);
  a->summarize = ic_ar_int(r, "summarize", 20);
  a->message = ic_ar_str(r, "message", "");
  a->name = ic_ar_bool(r, "print_tensor_name", true);
  a->type = ic_ar_bool(r, "print_tensor_type", true);
  a->shape = ic_ar_bool(r, "print_tensor_shape", true);
  a->layout = ic_ar_bool(r, "print_tensor_layout", true);
  a->lod = ic_ar_bool(r, "print_tensor_lod", true);
  const char *phase = ic_ar_str(r, "print_phase", "BOTH");
  const bool forward = ic_ar_bool(r, "is_forward", true);
  if (r->st) return r->st;
  if (strcmp(phase, "FORWARD") && strcmp(phase, "BACKWARD") && strcmp(phase, "BOTH")) {
    return ic_ar_fail(r, "print_phase", "is \"%s\", expected FORWARD, BACKWARD or BOTH", phase);
  }
  a->enabled = !strcmp(phase, "BOTH") || (!strcmp(phase, "FORWARD")) == forward;
  return IC_OK;
}

static ic_status infer(ic_kctx *c) {
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (o) ic_tensor_set_meta(o, x->dtype, x->ndim, x->dims);
  return IC_OK;
}

static void describe(const print_attrs *a, const ic_kctx *c, const ic_tensor *x) {
  char line[256];
  if (a->name) fprintf(stderr, "Variable: %s\n", ic_in_name(c, 0, 0));
  if (a->message[0]) fprintf(stderr, "  - message: %s\n", a->message);
  if (a->lod) {
    fprintf(stderr, "  - lod: {");
    for (size_t l = 0; x->lod && l < x->lod->n_levels; l++) {
      fprintf(stderr, "%s{", l ? ", " : "");
      for (size_t k = 0; k < x->lod->lens[l]; k++) {
        fprintf(stderr, "%s%llu", k ? ", " : "", (unsigned long long)x->lod->offsets[l][k]);
      }
      fprintf(stderr, "}");
    }
    fprintf(stderr, "}\n");
  }
  if (a->type) fprintf(stderr, "  - place: Place(cpu)\n");
  if (a->shape) fprintf(stderr, "  - shape: %s\n", ic_dims_str(x->ndim, x->dims, line, sizeof line));
  if (a->layout) fprintf(stderr, "  - layout: NCHW\n");
  if (a->type) fprintf(stderr, "  - dtype: %s\n", ic_dtype_name(x->dtype));
  const int64_t n = ic_tensor_numel_(x);
  const int64_t show = a->summarize < 0 || a->summarize > n ? n : a->summarize;
  fprintf(stderr, "  - data: [");
  for (int64_t i = 0; i < show; i++) {
    if (x->dtype == IC_COMPLEX64 || x->dtype == IC_COMPLEX128) {
      const double re = x->dtype == IC_COMPLEX64 ? ((const float *)x->data)[2 * i]
                                                 : ((const double *)x->data)[2 * i];
      const double im = x->dtype == IC_COMPLEX64 ? ((const float *)x->data)[2 * i + 1]
                                                 : ((const double *)x->data)[2 * i + 1];
      fprintf(stderr, "%s%g%+gj", i ? " " : "", re, im);
    } else if (x->dtype == IC_FP32 || x->dtype == IC_FP64 || x->dtype == IC_FP16 ||
               x->dtype == IC_BF16) {
      fprintf(stderr, "%s%g", i ? " " : "", ic_read_f64(x, i));
    } else {
      fprintf(stderr, "%s%lld", i ? " " : "", (long long)ic_read_i64(x, i));
    }
  }
  fprintf(stderr, "]\n");
}

static ic_status run(ic_kctx *c) {
  const print_attrs *a = c->attrs;
  const ic_tensor *x = ic_in(c, 0, 0);
  ic_tensor *o = ic_out(c, 0, 0);
  if (o && o->data != x->data) {
    memcpy(o->data, x->data, (size_t)ic_tensor_numel_(x) * ic_dtype_size(x->dtype));
  }
  if (!a->enabled) return IC_OK;
  if (a->first_n >= 0) { /* the times printed so far, kept in the instruction's state */
    int64_t *seen = *c->state;
    if (!seen && !(seen = *c->state = calloc(1, sizeof *seen))) {
      return ic_kfail(c, IC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (*seen >= a->first_n) return IC_OK;
    (*seen)++;
  }
  describe(a, c, x);
  return IC_OK;
}

static const ic_slotdef inputs[] = {{"In", 0}};
static const ic_slotdef outputs[] = {{"Out", IC_SLOT_OPTIONAL}};

const ic_opdef ic_op_print = {
    .name = "print",
    .n_inputs = 1, .inputs = inputs,
    .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(print_attrs), .parse = parse,
    .infer = infer, .cpu = run, .free_state = free,
    .flags = IC_OP_EXTERNAL_STATE,
};
