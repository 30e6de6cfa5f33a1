/* The math ops (matmul, matmul_v2, softmax, ...) exactly as the real programs in
 * ../shared/models carry them: their slots and attributes must parse and match, shape
 * inference must reproduce the output dims Paddle wrote into the program's VarDescs (with
 * every -1 taken as the same batch size), and the kernel must run and agree with a plain
 * loop on random inputs of those shapes. The programs' other ops belong to other families,
 * so each op is driven directly through its definition. */
#include "kernels/kernel.h"
#include "mathutil.h"
#include "program/program.h"
#include "scope/tensor.h"

#define BATCH 2 /* what every -1 in a VarDesc becomes */

static const char *const k_math_ops[] = {"matmul",      "matmul_v2",   "mean",
                                         "mul",         "reduce_max",  "reduce_mean",
                                         "reduce_sum",  "softmax",     "sum"};

static bool is_math(const char *type) {
  for (size_t i = 0; i < sizeof k_math_ops / sizeof k_math_ops[0]; i++) {
    if (!strcmp(type, k_math_ops[i])) return true;
  }
  return false;
}

/* A random tensor shaped like the program's declaration of name. */
static ic_tensor *from_vardesc(const ic_program *p, const char *name, uint64_t seed) {
  const ic_vardesc *v = ic_program_find_var(p, 0, name);
  ck_assert_msg(v && v->is_tensor, "no tensor VarDesc for '%s'", name);
  int64_t dims[IC_MAX_RANK];
  for (int i = 0; i < v->ndim; i++) dims[i] = v->dims[i] < 0 ? BATCH : v->dims[i];
  return mu_rand(v->dtype, v->ndim, dims, seed);
}

/* Plain-loop references for the two product ops as the models use them: X [.., M, K] times a
 * plain Y [K, N] (optionally transposed) or equal batches. */
static void check_product(const ic_tensor *x, const ic_tensor *y, bool tx, bool ty,
                          double alpha, const ic_tensor *out) {
  int xn = ic_tensor_ndim(x), yn = ic_tensor_ndim(y);
  const int64_t *xd = ic_tensor_dims(x), *yd = ic_tensor_dims(y);
  ck_assert(xn >= 2 && yn >= 2);
  int64_t M = tx ? xd[xn - 1] : xd[xn - 2], K = tx ? xd[xn - 2] : xd[xn - 1];
  int64_t N = ty ? yd[yn - 2] : yd[yn - 1];
  int64_t xb = ic_tensor_numel(x) / (M * K), yb = ic_tensor_numel(y) / (K * N);
  ck_assert(yb == 1 || yb == xb);
  double *xv = mu_f64(x), *yv = mu_f64(y), *ref = malloc(sizeof(double) * (size_t)(xb * M * N));
  for (int64_t b = 0; b < xb; b++) {
    const double *a = xv + b * M * K, *bm = yv + (yb == 1 ? 0 : b) * K * N;
    for (int64_t m = 0; m < M; m++) {
      for (int64_t n = 0; n < N; n++) {
        double s = 0;
        for (int64_t k = 0; k < K; k++) {
          s += (tx ? a[k * M + m] : a[m * K + k]) * (ty ? bm[n * K + k] : bm[k * N + n]);
        }
        ref[(b * M + m) * N + n] = alpha * s;
      }
    }
  }
  tu_assert_close(out, ref, (size_t)(xb * M * N), 1e-4, 1e-5);
  free(ref);
  free(xv);
  free(yv);
}

static void check_softmax(const ic_tensor *x, int64_t axis, const ic_tensor *out) {
  int nd = ic_tensor_ndim(x);
  ck_assert(axis == -1 || axis == nd - 1); /* what the models use */
  int64_t n = ic_tensor_dims(x)[nd - 1], rows = ic_tensor_numel(x) / n;
  double *xv = mu_f64(x), *ref = malloc(sizeof(double) * (size_t)(rows * n));
  for (int64_t r = 0; r < rows; r++) {
    double m = -INFINITY, s = 0;
    for (int64_t i = 0; i < n; i++) m = fmax(m, xv[r * n + i]);
    for (int64_t i = 0; i < n; i++) s += exp(xv[r * n + i] - m);
    for (int64_t i = 0; i < n; i++) ref[r * n + i] = exp(xv[r * n + i] - m) / s;
  }
  tu_assert_close(out, ref, (size_t)(rows * n), 1e-5, 1e-7);
  free(ref);
  free(xv);
}

/* Parse, match, infer and run one op of program p on random inputs. */
static void run_exported(const ic_program *p, const ic_op *op, const char *model) {
  ic_err err = {0};
  char where[160];
  ic_op_where(op, where, sizeof where);
  const ic_opdef *def;
  ck_assert_msg(ic_opdef_lookup(op, &def, &err) == IC_OK, "%s: %s", model, err.msg);
  void *attrs = calloc(1, def->attrs_size ? def->attrs_size : 1);
  const ic_slot *ins[8] = {0}, *outs[4] = {0};
  ck_assert(def->n_inputs <= 8 && def->n_outputs <= 4);
  ck_assert_msg(ic_opdef_parse(def, op, attrs, &err) == IC_OK, "%s: %s", model, err.msg);
  ck_assert_msg(ic_opdef_match(def, op, ins, outs, &err) == IC_OK, "%s: %s", model, err.msg);

  ic_kslot kin[8] = {0}, kout[4] = {0};
  ic_tensor *in_t[8][4] = {{0}};
  for (size_t s = 0; s < def->n_inputs; s++) {
    if (!ins[s]) continue;
    ck_assert(ins[s]->n <= 4);
    for (size_t i = 0; i < ins[s]->n; i++) in_t[s][i] = from_vardesc(p, ins[s]->args[i], 7 * s + i);
    kin[s] = (ic_kslot){.n = ins[s]->n, .t = in_t[s], .names = ins[s]->args};
  }
  ic_tensor out_t;
  ic_tensor_init(&out_t);
  ic_tensor *out_p[1] = {&out_t};
  ck_assert(def->n_outputs == 1 && outs[0] && outs[0]->n == 1);
  kout[0] = (ic_kslot){.n = 1, .t = out_p, .names = outs[0]->args};
  ic_kenv env = {.alloc = NULL, .seed = 1, .intra_threads = 1};
  void *state = NULL;
  ic_kctx c = {.def = def, .op = op, .attrs = attrs, .in = kin, .out = kout, .err = &err,
               .env = &env, .op_key = 0, .state = &state};
  ck_assert_msg(def->infer(&c) == IC_OK, "%s %s: %s", model, where, err.msg);

  /* the inferred dims are the ones Paddle declared */
  const ic_vardesc *ov = ic_program_find_var(p, 0, outs[0]->args[0]);
  ck_assert(ov && ov->is_tensor);
  bool same = ov->ndim == out_t.ndim && ov->dtype == out_t.dtype;
  for (int i = 0; same && i < ov->ndim; i++) {
    same = out_t.dims[i] == (ov->dims[i] < 0 ? BATCH : ov->dims[i]);
  }
  char got[128], want[128];
  ck_assert_msg(same, "%s %s: inferred %s, declared %s%s", model, where,
                ic_tensor_describe(&out_t, got, sizeof got), ic_dtype_name(ov->dtype),
                ic_dims_str(ov->ndim, ov->dims, want, sizeof want));

  ck_assert_int_eq(ic_tensor_alloc(&out_t, NULL, &err), IC_OK);
  ck_assert_msg(def->cpu(&c) == IC_OK, "%s %s: %s", model, where, err.msg);
  ic_attr_reader r;
  ic_ar_init(&r, op, &err);
  if (!strcmp(op->type, "matmul")) {
    check_product(in_t[0][0], in_t[1][0], ic_ar_bool(&r, "transpose_X", false),
                  ic_ar_bool(&r, "transpose_Y", false), ic_ar_float(&r, "alpha", 1.0), &out_t);
  } else if (!strcmp(op->type, "matmul_v2")) {
    check_product(in_t[0][0], in_t[1][0], ic_ar_bool(&r, "trans_x", false),
                  ic_ar_bool(&r, "trans_y", false), 1.0, &out_t);
  } else if (!strcmp(op->type, "softmax")) {
    check_softmax(in_t[0][0], ic_ar_int(&r, "axis", -1), &out_t);
  } else {
    ck_abort_msg("%s %s: no reference for %s", model, where, op->type);
  }
  if (state && def->free_state) def->free_state(state);
  ic_tensor_reset(&out_t);
  for (size_t s = 0; s < 4; s++) {
    for (size_t i = 0; i < 4; i++) ic_tensor_destroy(in_t[s][i]);
  }
  free(attrs);
}

START_TEST(exported_math_ops) {
  static const struct {
    const char *rel;
    size_t n_math; /* math ops the program holds */
  } models[] = {{"paddle/mobilenet_v2/inference.pdmodel", 2},
                {"paddle/pphgnet_plate/inference.pdmodel", 2},
                {"paddle/ppocr_rec_svtr/inference.pdmodel", 16},
                {"paddle/crnn_rec/inference.pdmodel", 2}};
  for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
    char path[4096], err[1024];
    ck_assert_msg(tu_shared(models[m].rel, path, sizeof path), "missing %s", models[m].rel);
    ic_program *p;
    ck_assert_msg(ic_program_from_file(path, &p, err, sizeof err) == IC_OK, "%s", err);
    size_t n = 0;
    for (size_t i = 0; i < p->blocks[0].n_ops; i++) {
      const ic_op *op = &p->blocks[0].ops[i];
      if (!is_math(op->type)) continue;
      run_exported(p, op, models[m].rel);
      n++;
    }
    ck_assert_uint_eq(n, models[m].n_math);
    ic_program_destroy(p);
  }
}
END_TEST

static TCase *tc_models(void) {
  TCase *tc = tcase_create("models");
  tcase_add_test(tc, exported_math_ops);
  return tc;
}

TU_MAIN("ops_math_models", tc_models)
