/* Gradient ops against finite differences, and optimizer ops against their formulas.
 *
 * For a forward op F with upstream gradient W (random), L = sum(F(inputs) * W). The gradient
 * op, fed W as Out@GRAD, must give dL/dX for each differentiable input X; the reference is
 * the central difference (L(x + h) - L(x - h)) / 2h of F run in float64 (F's own values are
 * tested against independent references in the forward suites). Gradient ops run through
 * every executor configuration (tu_run: bitwise equal). Optimizers are checked element by
 * element against the update written out in double here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ew_testutil.h"
#include "npy.h"

#define MAXI 5

typedef void (*attr_fn)(ic_builder_op *op);

typedef struct gcase {
  const char *fwd, *grad;
  size_t n_in;
  const char *slot[MAXI];
  ic_tensor *in[MAXI];
  bool diff[MAXI];
  const char *out_slot;   /* forward output differentiated */
  const char *extra_slot; /* another forward output the grad op reads (or NULL) */
  const char *extra2_slot; /* and a third */
  bool xshape;            /* feed "xs", an XShape of in0 (dims [0, in0 dims...], no data) */
  attr_fn attrs;
  /* grad op inputs: slot <- source ("in0".."in2", "out", "extra", "dout") */
  size_t n_gin;
  const char *gin_slot[6], *gin_src[6]; /* sources: in0..in4, out, extra, extra2, xs, dout */
} gcase;

static const char *k_in_names[MAXI] = {"in0", "in1", "in2", "in3", "in4"};

/* Run F on the inputs (uncompiled, float64); out and extra (may be NULL) receive results. */
static void forward(const gcase *g, ic_tensor *const *in, ic_tensor **out, ic_tensor **extra,
                    ic_tensor **extra2) {
  ic_builder *b = ic_builder_create();
  for (size_t i = 0; i < g->n_in; i++) ew_feed(b, k_in_names[i], in[i]);
  ic_builder_op *op = ic_builder_add_op(b, 0, g->fwd);
  for (size_t i = 0; i < g->n_in; i++) ic_builder_in(op, g->slot[i], k_in_names[i]);
  ic_builder_out(op, g->out_slot, "out");
  ew_fetch(b, "out", IC_FP64);
  if (g->extra_slot) {
    ic_builder_out(op, g->extra_slot, "extra");
    ew_fetch(b, "extra", IC_FP64);
  }
  if (g->extra2_slot) {
    ic_builder_out(op, g->extra2_slot, "extra2");
    ew_fetch(b, "extra2", IC_FP64);
  }
  if (g->attrs) g->attrs(op);
  ic_program *p;
  char err[1024];
  ck_assert_msg(ic_builder_build(b, &p, err, sizeof err) == IC_OK, "%s", err);
  ic_options o;
  ic_options_default(&o);
  o.mode = IC_MODE_UNCOMPILED;
  o.threads = 1; /* thousands of runs: no intra-op threads (nor an idle OpenMP team) to start */
  ic_executor *e;
  ck_assert_int_eq(ic_executor_create(&o, &e), IC_OK);
  ic_tensor *got[3] = {0};
  size_t nfetch = g->extra2_slot ? 3 : g->extra_slot ? 2 : 1;
  ic_status st = ic_executor_run(e, p, NULL, g->n_in, k_in_names, (const ic_tensor *const *)in,
                                 nfetch, TU_NAMES("out", "extra", "extra2"), got);
  ck_assert_msg(st == IC_OK, "%s: %s", g->fwd, ic_executor_errmsg(e));
  *out = got[0];
  if (extra) *extra = got[1];
  else ic_tensor_destroy(got[1]);
  if (extra2) *extra2 = got[2];
  else ic_tensor_destroy(got[2]);
  ic_executor_destroy(e);
  ic_program_destroy(p);
  ic_builder_destroy(b);
}

static double loss_of(const gcase *g, ic_tensor *const *in, const ic_tensor *w) {
  ic_tensor *out;
  forward(g, in, &out, NULL, NULL);
  double l = 0;
  for (int64_t k = 0; k < ic_tensor_numel(out); k++) l += ew_at(out, k) * ew_at(w, k);
  ic_tensor_destroy(out);
  return l;
}

static void check_grad(const gcase *g) {
  ic_tensor *out, *extra = NULL, *extra2 = NULL, *xs = NULL;
  forward(g, g->in, &out, g->extra_slot ? &extra : NULL, g->extra2_slot ? &extra2 : NULL);
  if (g->xshape) {
    int64_t d[IC_MAX_RANK + 1] = {0};
    int nd = ic_tensor_ndim(g->in[0]);
    memcpy(d + 1, ic_tensor_dims(g->in[0]), (size_t)nd * sizeof *d);
    ck_assert_int_eq(ic_tensor_create(IC_FP64, nd + 1, d, &xs), IC_OK);
  }
  ic_tensor *w = ew_rand(IC_FP64, ic_tensor_ndim(out), ic_tensor_dims(out), 99, -1, 1);

  /* the gradient op */
  ic_builder *b = ic_builder_create();
  const char *names[10];
  ic_tensor *feeds[10];
  size_t nf = 0;
  for (size_t i = 0; i < g->n_in; i++) {
    names[nf] = k_in_names[i];
    feeds[nf++] = g->in[i];
  }
  names[nf] = "out";
  feeds[nf++] = out;
  if (extra) {
    names[nf] = "extra";
    feeds[nf++] = extra;
  }
  if (extra2) {
    names[nf] = "extra2";
    feeds[nf++] = extra2;
  }
  if (xs) {
    names[nf] = "xs";
    feeds[nf++] = xs;
  }
  names[nf] = "dout";
  feeds[nf++] = w;
  for (size_t i = 0; i < nf; i++) ew_feed(b, names[i], feeds[i]);
  ic_builder_op *op = ic_builder_add_op(b, 0, g->grad);
  for (size_t i = 0; i < g->n_gin; i++) {
    const char *src = g->gin_src[i];
    ic_builder_in(op, g->gin_slot[i], strcmp(src, "dout") == 0 ? "dout" : src[0] == 'i'
                  ? k_in_names[src[2] - '0'] : src);
  }
  const char *fetch[MAXI];
  size_t n_fetch = 0;
  char gslot[MAXI][64], gvar[MAXI][32];
  for (size_t i = 0; i < g->n_in; i++) {
    if (!g->diff[i]) continue;
    snprintf(gslot[n_fetch], 64, "%s@GRAD", g->slot[i]);
    snprintf(gvar[n_fetch], sizeof gvar[n_fetch], "g%d", (int)i);
    ic_builder_out(op, gslot[n_fetch], gvar[n_fetch]);
    ew_fetch(b, gvar[n_fetch], IC_FP64);
    fetch[n_fetch] = gvar[n_fetch];
    n_fetch++;
  }
  if (g->attrs) g->attrs(op);
  ic_tensor *got[MAXI] = {0};
  char err[1024];
  ck_assert_uint_le(nf, 10);
  ic_status st = tu_run(b, nf, names, feeds, n_fetch, fetch, got, err, sizeof err);
  ck_assert_msg(st == IC_OK, "%s: %s", g->grad, err);

  /* finite differences */
  size_t f = 0;
  for (size_t i = 0; i < g->n_in; i++) {
    if (!g->diff[i]) continue;
    tu_assert_shape(got[f], IC_FP64, ic_tensor_ndim(g->in[i]), ic_tensor_dims(g->in[i]));
    ic_tensor *x[MAXI];
    for (size_t j = 0; j < g->n_in; j++) ck_assert_int_eq(ic_tensor_clone(g->in[j], &x[j]), IC_OK);
    double *xd = ic_tensor_data(x[i]);
    for (int64_t k = 0; k < ic_tensor_numel(x[i]); k++) {
      const double h = 1e-6, x0 = xd[k];
      xd[k] = x0 + h;
      double lp = loss_of(g, x, w);
      xd[k] = x0 - h;
      double lm = loss_of(g, x, w);
      xd[k] = x0;
      double num = (lp - lm) / (2 * h), an = ew_at(got[f], k);
      ck_assert_msg(fabs(an - num) <= 1e-6 * fabs(num) + 1e-7,
                    "%s: %s[%lld] is %.12g, finite difference %.12g", g->grad, gslot[f],
                    (long long)k, an, num);
    }
    for (size_t j = 0; j < g->n_in; j++) ic_tensor_destroy(x[j]);
    f++;
  }
  for (size_t i = 0; i < n_fetch; i++) ic_tensor_destroy(got[i]);
  for (size_t i = 0; i < g->n_in; i++) ic_tensor_destroy(g->in[i]);
  ic_tensor_destroy(out);
  ic_tensor_destroy(extra);
  ic_tensor_destroy(extra2);
  ic_tensor_destroy(xs);
  ic_tensor_destroy(w);
  ic_builder_destroy(b);
}

static ic_tensor *r64(int nd, const int64_t *d, uint64_t seed) {
  return ew_rand(IC_FP64, nd, d, seed, -1, 1);
}

/* ---- elementwise ---- */

static int64_t g_axis;
static void axis_attr(ic_builder_op *op) { ic_builder_attr_int(op, "axis", (int32_t)g_axis); }

static void ew_case(const char *op, int nx, const int64_t *dx, int ny, const int64_t *dy,
                    int64_t axis) {
  char fwd[64], grad[64];
  snprintf(fwd, sizeof fwd, "elementwise_%s", op);
  snprintf(grad, sizeof grad, "elementwise_%s_grad", op);
  g_axis = axis;
  gcase g = {.fwd = fwd, .grad = grad, .n_in = 2, .slot = {"X", "Y"},
             .in = {r64(nx, dx, 1), r64(ny, dy, 2)}, .diff = {true, true}, .out_slot = "Out",
             .attrs = axis_attr, .n_gin = 3, .gin_slot = {"X", "Y", "Out@GRAD"},
             .gin_src = {"in0", "in1", "dout"}};
  if (!strcmp(op, "pow")) { /* a positive base: X in [0.5, 1.5) */
    double *x = ic_tensor_data(g.in[0]);
    for (int64_t k = 0; k < ic_tensor_numel(g.in[0]); k++) x[k] = 1.0 + 0.5 * x[k];
    g.n_gin = 3;
  }
  if (!strcmp(op, "div")) {
    /* keep Y away from 0 */
    double *y = ic_tensor_data(g.in[1]);
    for (int64_t k = 0; k < ic_tensor_numel(g.in[1]); k++) y[k] = y[k] < 0 ? y[k] - 0.5 : y[k] + 0.5;
    g.n_gin = 4;
    g.gin_slot[3] = "Out";
    g.gin_src[3] = "out";
  }
  check_grad(&g);
}

START_TEST(elementwise_grads) {
  const char *ops[] = {"add", "sub", "mul", "div"};
  for (int i = 0; i < 4; i++) {
    ew_case(ops[i], 3, TU_DIMS(2, 3, 4), 3, TU_DIMS(2, 3, 4), -1);  /* same shape */
    ew_case(ops[i], 3, TU_DIMS(2, 3, 4), 1, TU_DIMS(3), 1);         /* bias along axis 1 */
    ew_case(ops[i], 3, TU_DIMS(2, 3, 4), 2, TU_DIMS(1, 4), -1);     /* Y [1, 4] trailing */
    ew_case(ops[i], 2, TU_DIMS(3, 4), 3, TU_DIMS(2, 3, 4), -1);     /* X the smaller one */
    ew_case(ops[i], 3, TU_DIMS(2, 1, 4), 3, TU_DIMS(1, 3, 1), -1);  /* both broadcast */
    ew_case(ops[i], 2, TU_DIMS(2, 3), 0, TU_DIMS(0), -1);           /* scalar Y */
  }
}
END_TEST

/* elementwise_max / min with random values (no ties) through finite differences, and the
 * tie and NaN rule against what Paddle 3.3.1 gives (tools: elementwise_max(X, Y) and
 * elementwise_min then mean over 4 elements, legacy static mode: X = [1, 2, 3, 4],
 * Y = [1, 3, 2, 4] gives X@GRAD [0.125, 0, 0.25, 0.125] and Y@GRAD [0.125, 0.25, 0, 0.125]
 * for max (swapped for min); X = [1, nan, 3, nan], Y = [1, 3, nan, nan] gives [0.125, 0, 0, 0]
 * on both sides for both ops). */
START_TEST(elementwise_max_min_grads) {
  const char *ops[] = {"max", "min"};
  for (int i = 0; i < 2; i++) {
    ew_case(ops[i], 3, TU_DIMS(2, 3, 4), 3, TU_DIMS(2, 3, 4), -1);
    ew_case(ops[i], 3, TU_DIMS(2, 3, 4), 1, TU_DIMS(3), 1);
    ew_case(ops[i], 3, TU_DIMS(2, 1, 4), 3, TU_DIMS(1, 3, 1), -1);
    ew_case(ops[i], 2, TU_DIMS(2, 3), 0, TU_DIMS(0), -1);
  }
  /* elementwise_pow on a positive base (ew_case), broadcasting */
  ew_case("pow", 3, TU_DIMS(2, 3, 4), 3, TU_DIMS(2, 3, 4), -1);
  ew_case("pow", 3, TU_DIMS(2, 3, 4), 1, TU_DIMS(3), 1);
  ew_case("pow", 3, TU_DIMS(2, 1, 4), 3, TU_DIMS(1, 3, 1), -1);
  ew_case("pow", 2, TU_DIMS(2, 3), 0, TU_DIMS(0), -1);
  const float xs[2][4] = {{1, 2, 3, 4}, {1, NAN, 3, NAN}};
  const float ys[2][4] = {{1, 3, 2, 4}, {1, 3, NAN, NAN}};
  const float want[2][2][2][4] = {
      {{{0.125f, 0, 0.25f, 0.125f}, {0.125f, 0.25f, 0, 0.125f}},   /* max */
       {{0.125f, 0.25f, 0, 0.125f}, {0.125f, 0, 0.25f, 0.125f}}},  /* min */
      {{{0.125f, 0, 0, 0}, {0.125f, 0, 0, 0}}, {{0.125f, 0, 0, 0}, {0.125f, 0, 0, 0}}}};
  for (int v = 0; v < 2; v++) {
    for (int i = 0; i < 2; i++) {
      char grad[64];
      snprintf(grad, sizeof grad, "elementwise_%s_grad", ops[i]);
      ic_tensor *in[3] = {tu_f32(1, TU_DIMS(4), xs[v]), tu_f32(1, TU_DIMS(4), ys[v]),
                          tu_f32(1, TU_DIMS(4), (const float[]){0.25f, 0.25f, 0.25f, 0.25f})};
      ic_builder *b = ic_builder_create();
      const char *names[3] = {"x", "y", "g"};
      for (int k = 0; k < 3; k++) ew_feed(b, names[k], in[k]);
      ic_builder_op *op = ic_builder_add_op(b, 0, grad);
      ic_builder_in(op, "X", "x");
      ic_builder_in(op, "Y", "y");
      ic_builder_in(op, "Out@GRAD", "g");
      ic_builder_out(op, "X@GRAD", "gx");
      ic_builder_out(op, "Y@GRAD", "gy");
      ic_builder_attr_int(op, "axis", -1);
      ew_fetch(b, "gx", IC_FP32);
      ew_fetch(b, "gy", IC_FP32);
      ic_tensor *got[2] = {0};
      char err[1024];
      ck_assert_msg(tu_run(b, 3, names, in, 2, TU_NAMES("gx", "gy"), got, err, sizeof err) ==
                        IC_OK, "%s: %s", grad, err);
      for (int side = 0; side < 2; side++) {
        for (int k = 0; k < 4; k++) {
          const float g = ((const float *)ic_tensor_cdata(got[side]))[k];
          ck_assert_msg(g == want[v][i][side][k], "%s case %d: %s[%d] is %g, Paddle has %g",
                        grad, v, side ? "Y@GRAD" : "X@GRAD", k, (double)g,
                        (double)want[v][i][side][k]);
        }
        ic_tensor_destroy(got[side]);
      }
      for (int k = 0; k < 3; k++) ic_tensor_destroy(in[k]);
      ic_builder_destroy(b);
    }
  }
}
END_TEST

/* ---- Paddle 3.3.1's own gradients (tests/data/grad_oracle, tools/gen_paddle_grad_oracle.py):
 * the legacy matmul with transposes, alpha and a batched X against a plain Y,
 * elementwise_max / min with broadcasting and many ties, elementwise_pow with
 * broadcasting and a zero base against every kind of exponent, and prelu (second input
 * Alpha) in every mode with X on a grid that holds zeros, fed Paddle's X, Y and upstream
 * gradient; X@GRAD and Y@GRAD within 1e-6 of Paddle's (relative, floor 1e-6). ---- */
static ic_tensor *oracle_npy(const char *name, const char *part) {
  char path[1024], err[1024];
  snprintf(path, sizeof path, "%s/tests/data/grad_oracle/%s.%s.npy", IC_SOURCE_DIR, name, part);
  ic_tensor *t = NULL;
  ck_assert_msg(ic_npy_load(path, &t, err, sizeof err) == IC_OK, "%s", err);
  return t;
}

START_TEST(paddle_grad_oracle) {
  char path[1024], line[512];
  snprintf(path, sizeof path, "%s/tests/data/grad_oracle/cases.txt", IC_SOURCE_DIR);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  int n_cases = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    char name[64], op[64], grad[80];
    int used = 0;
    ck_assert_int_eq(sscanf(line, "%63s %63s %n", name, op, &used), 2);
    snprintf(grad, sizeof grad, "%s_grad", op);
    ic_tensor *in[3] = {oracle_npy(name, "x"), oracle_npy(name, "y"), oracle_npy(name, "g")};
    ic_tensor *want[2] = {oracle_npy(name, "dx"), oracle_npy(name, "dy")};
    ic_builder *b = ic_builder_create();
    const char *names[3] = {"x", "y", "g"};
    for (int k = 0; k < 3; k++) ew_feed(b, names[k], in[k]);
    ic_builder_op *o = ic_builder_add_op(b, 0, grad);
    char yslot[32] = "Y", ygrad[48];
    ic_builder_in(o, "X", "x");
    ic_builder_in(o, "Out@GRAD", "g");
    ic_builder_out(o, "X@GRAD", "gx");
    for (char *tok = strtok(line + used, " \n"); tok; tok = strtok(NULL, " \n")) {
      char *eq = strchr(tok, '=');
      ck_assert_ptr_nonnull(eq);
      *eq = '\0';
      const char *v = eq + 1;
      if (!strcmp(tok, "yslot")) snprintf(yslot, sizeof yslot, "%s", v);
      else if (!strcmp(tok, "alpha")) ic_builder_attr_float(o, tok, (float)atof(v));
      else if (!strcmp(tok, "axis")) ic_builder_attr_int(o, tok, atoi(v));
      else if (!strcmp(tok, "mode") || !strcmp(tok, "data_format")) ic_builder_attr_string(o, tok, v);
      else ic_builder_attr_bool(o, tok, atoi(v) != 0);
    }
    snprintf(ygrad, sizeof ygrad, "%s@GRAD", yslot);
    ic_builder_in(o, yslot, "y");
    ic_builder_out(o, ygrad, "gy");
    ew_fetch(b, "gx", IC_FP32);
    ew_fetch(b, "gy", IC_FP32);
    ic_tensor *got[2] = {0};
    char err[1024];
    ck_assert_msg(tu_run(b, 3, names, in, 2, TU_NAMES("gx", "gy"), got, err, sizeof err) ==
                      IC_OK, "%s %s: %s", name, grad, err);
    double worst = 0;
    for (int side = 0; side < 2; side++) {
      tu_assert_shape(got[side], IC_FP32, ic_tensor_ndim(want[side]), ic_tensor_dims(want[side]));
      for (int64_t k = 0; k < ic_tensor_numel(want[side]); k++) {
        double g = ew_at(got[side], k), w = ew_at(want[side], k);
        if (!isfinite(w)) { /* pow at X = 0: +-inf as Paddle, NaN where Paddle has NaN */
          ck_assert_msg(g == w || (isnan(g) && isnan(w)), "%s %s: %s[%lld] is %.9g, Paddle %.9g",
                        name, grad, side ? ygrad : "X@GRAD", (long long)k, g, w);
          continue;
        }
        double e = fabs(g - w) / (fabs(w) + 1.0);
        ck_assert_msg(e <= 1e-6, "%s %s: %s[%lld] is %.9g, Paddle %.9g", name, grad,
                      side ? ygrad : "X@GRAD", (long long)k, g, w);
        if (e > worst) worst = e;
      }
      ic_tensor_destroy(got[side]);
      ic_tensor_destroy(want[side]);
    }
    fprintf(stderr, "%s (%s): max error vs Paddle %.3g\n", name, grad, worst);
    for (int k = 0; k < 3; k++) ic_tensor_destroy(in[k]);
    ic_builder_destroy(b);
    n_cases++;
  }
  fclose(f);
  ck_assert_int_eq(n_cases, 13);
}
END_TEST

/* ---- one-input ops (activations, reductions) against Paddle 3.3.1 (unary_cases.txt, the
 * same script): at the points where the rule is subtle (relu6 / hard_swish / hard_sigmoid /
 * brelu / hard_shrink / softshrink / thresholded_relu boundaries, leaky_relu and abs at 0,
 * elu with both signs of alpha, celu's overflow, softplus / mish thresholds, reduce_max ties,
 * reduce_prod with zeros), plus random points; pool3d (max with padding and ceil_mode, avg
 * inclusive and exclusive, NDHWC) and bicubic_interp_v2 (up, down with align_corners) on
 * arrays of their own. The grad op gets the input slots Paddle wrote
 * (X, Out = Paddle's forward output, Out@GRAD) and must give Paddle's X@GRAD within 2e-6
 * (relative, floor 1), NaN where Paddle has NaN. ---- */
static void oracle_attr(ic_builder_op *o, char *tok) {
  char *eq = strchr(tok, '=');
  ck_assert_ptr_nonnull(eq);
  *eq = '\0';
  const char *v = eq + 1;
  ck_assert_msg(v[0] && v[1] == ':', "attribute %s: bad value %s", tok, v);
  switch (v[0]) {
    case 'f': ic_builder_attr_float(o, tok, (float)atof(v + 2)); break;
    case 'i': ic_builder_attr_int(o, tok, atoi(v + 2)); break;
    case 'b': ic_builder_attr_bool(o, tok, atoi(v + 2) != 0); break;
    case 's': ic_builder_attr_string(o, tok, v + 2); break;
    case 'L': {
      int32_t l[8];
      size_t n = 0;
      for (const char *p = v + 2; *p && n < 8;) {
        l[n++] = (int32_t)strtol(p, (char **)&p, 10);
        if (*p == ',') p++;
      }
      ic_builder_attr_ints(o, tok, n, l);
      break;
    }
    default: ck_abort_msg("attribute %s: unknown type %c", tok, v[0]);
  }
}

START_TEST(paddle_unary_grad_oracle) {
  char path[1024], line[512];
  snprintf(path, sizeof path, "%s/tests/data/grad_oracle/unary_cases.txt", IC_SOURCE_DIR);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  int n_cases = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    char name[64], op[64], slots[128], grad[80];
    int used = 0;
    ck_assert_int_eq(sscanf(line, "%63s %63s %127s %n", name, op, slots, &used), 3);
    snprintf(grad, sizeof grad, "%s_grad", op);
    ic_tensor *in[3] = {oracle_npy(name, "x"), oracle_npy(name, "out"), oracle_npy(name, "g")};
    ic_tensor *want = oracle_npy(name, "dx");
    ic_builder *b = ic_builder_create();
    const char *names[3] = {"x", "out", "g"};
    for (int k = 0; k < 3; k++) ew_feed(b, names[k], in[k]);
    ic_builder_op *o = ic_builder_add_op(b, 0, grad);
    for (char *sl = strtok(slots, ","); sl; sl = strtok(NULL, ",")) {
      if (!strcmp(sl, "X")) ic_builder_in(o, "X", "x");
      else if (!strcmp(sl, "Out")) ic_builder_in(o, "Out", "out");
      else if (!strcmp(sl, "Out@GRAD")) ic_builder_in(o, "Out@GRAD", "g");
      else ck_abort_msg("%s: unknown slot %s", name, sl);
    }
    ic_builder_out(o, "X@GRAD", "gx");
    for (char *tok = strtok(line + used, " \n"); tok; tok = strtok(NULL, " \n")) oracle_attr(o, tok);
    ew_fetch(b, "gx", IC_FP32);
    ic_tensor *got = NULL;
    char err[1024];
    ck_assert_msg(tu_run(b, 3, names, in, 1, TU_NAMES("gx"), &got, err, sizeof err) == IC_OK,
                  "%s %s: %s", name, grad, err);
    tu_assert_shape(got, IC_FP32, ic_tensor_ndim(want), ic_tensor_dims(want));
    double worst = 0;
    int64_t exact = 0, n = ic_tensor_numel(want);
    for (int64_t k = 0; k < n; k++) {
      double g = ew_at(got, k), w = ew_at(want, k);
      if (isnan(w)) {
        ck_assert_msg(isnan(g), "%s %s: X@GRAD[%lld] is %.9g, Paddle NaN (x = %.9g)", name,
                      grad, (long long)k, g, ew_at(in[0], k));
        exact++;
        continue;
      }
      double e = fabs(g - w) / (fabs(w) + 1.0);
      ck_assert_msg(e <= 2e-6, "%s %s: X@GRAD[%lld] is %.9g, Paddle %.9g (x = %.9g)", name,
                    grad, (long long)k, g, w, ew_at(in[0], k));
      if (e > worst) worst = e;
      exact += g == w;
    }
    fprintf(stderr, "%s (%s): max error vs Paddle %.3g, %lld of %lld equal\n", name, grad,
            worst, (long long)exact, (long long)n);
    ic_tensor_destroy(got);
    ic_tensor_destroy(want);
    for (int k = 0; k < 3; k++) ic_tensor_destroy(in[k]);
    ic_builder_destroy(b);
    n_cases++;
  }
  fclose(f);
  ck_assert_int_ge(n_cases, 60);
}
END_TEST

/* ---- conv2d_transpose_grad and depthwise_conv2d_transpose_grad against Paddle 3.3.1
 * (conv_cases.txt, the same script): strides, asymmetric paddings, dilations, groups,
 * output_padding, SAME, NHWC and the depthwise op, float32; and grid_sampler_grad (X, Grid:
 * bilinear with each padding_mode, nearest, 3-D), the grid in [-1.3, 1.3]; roi_align_grad
 * (X@GRAD; two images by RoisNum, boxes across the edges, adaptive and fixed sampling). Fed Paddle's Input, Filter and
 * Output@GRAD, Input@GRAD and Filter@GRAD must match Paddle's within 2e-6 (relative, floor
 * 1: sums of up to ~100 float32 products that Paddle rounds step by step; seen: 7e-7). ---- */
START_TEST(paddle_convt_grad_oracle) {
  char path[1024], line[512];
  snprintf(path, sizeof path, "%s/tests/data/grad_oracle/conv_cases.txt", IC_SOURCE_DIR);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  int n_cases = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    char name[64], op[64], grad[80];
    int used = 0;
    ck_assert_int_eq(sscanf(line, "%63s %63s %n", name, op, &used), 2);
    snprintf(grad, sizeof grad, "%s_grad", op);
    /* roi_align: X, ROIs, RoisNum (the n file), Out@GRAD; X@GRAD only */
    const bool ra = !strcmp(op, "roi_align"), gs = !strcmp(op, "grid_sampler");
    ic_tensor *in[4] = {oracle_npy(name, "x"), oracle_npy(name, "y"), oracle_npy(name, "g"),
                        ra ? oracle_npy(name, "n") : NULL};
    ic_tensor *want[2] = {oracle_npy(name, "dx"), ra ? NULL : oracle_npy(name, "dy")};
    const int n_in = ra ? 4 : 3, n_out = ra ? 1 : 2;
    ic_builder *b = ic_builder_create();
    const char *names[4] = {"x", "y", "g", "n"};
    for (int k = 0; k < n_in; k++) ew_feed(b, names[k], in[k]);
    ic_builder_op *o = ic_builder_add_op(b, 0, grad);
    const char *xs = gs || ra ? "X" : "Input", *ys = gs ? "Grid" : ra ? "ROIs" : "Filter";
    const char *xg = gs || ra ? "X@GRAD" : "Input@GRAD";
    const char *yg = gs ? "Grid@GRAD" : "Filter@GRAD";
    ic_builder_in(o, xs, "x");
    ic_builder_in(o, ys, "y");
    if (ra) ic_builder_in(o, "RoisNum", "n");
    ic_builder_in(o, ra ? "Out@GRAD" : "Output@GRAD", "g");
    ic_builder_out(o, xg, "gx");
    if (!ra) ic_builder_out(o, yg, "gy");
    for (char *tok = strtok(line + used, " \n"); tok; tok = strtok(NULL, " \n")) oracle_attr(o, tok);
    ew_fetch(b, "gx", IC_FP32);
    if (!ra) ew_fetch(b, "gy", IC_FP32);
    ic_tensor *got[2] = {0};
    char err[1024];
    ck_assert_msg(tu_run(b, (size_t)n_in, names, in, (size_t)n_out, TU_NAMES("gx", "gy"), got,
                         err, sizeof err) == IC_OK, "%s %s: %s", name, grad, err);
    double worst = 0;
    for (int side = 0; side < n_out; side++) {
      tu_assert_shape(got[side], IC_FP32, ic_tensor_ndim(want[side]), ic_tensor_dims(want[side]));
      for (int64_t k = 0; k < ic_tensor_numel(want[side]); k++) {
        double g = ew_at(got[side], k), w = ew_at(want[side], k);
        double e = fabs(g - w) / (fabs(w) + 1.0);
        ck_assert_msg(e <= 2e-6, "%s %s: %s[%lld] is %.9g, Paddle %.9g", name, grad,
                      side ? yg : xg, (long long)k, g, w);
        if (e > worst) worst = e;
      }
      ic_tensor_destroy(got[side]);
      ic_tensor_destroy(want[side]);
    }
    fprintf(stderr, "%s (%s): max error vs Paddle %.3g\n", name, grad, worst);
    for (int k = 0; k < n_in; k++) ic_tensor_destroy(in[k]);
    ic_builder_destroy(b);
    n_cases++;
  }
  fclose(f);
  ck_assert_int_eq(n_cases, 11);
}
END_TEST

/* ---- activations: every unary activation's grad op against finite differences in float64,
 * fed the forward tensors Paddle 3.3.1 gives its grad op (X, Out or both), on points drawn
 * from a range that covers each kink or threshold from both sides (the kinks themselves are
 * checked against Paddle in paddle_unary_grad_oracle). ---- */
typedef struct act_case {
  const char *op;
  const char *deps; /* "X", "Out", "X,Out" */
  double lo, hi;
  const char *an[3];
  float av[3];
} act_case;

static const act_case *g_act;
static void act_attrs(ic_builder_op *op) {
  for (int k = 0; k < 3 && g_act->an[k]; k++) ic_builder_attr_float(op, g_act->an[k], g_act->av[k]);
}

static void act_check(const act_case *a, uint64_t seed) {
  char grad[64];
  snprintf(grad, sizeof grad, "%s_grad", a->op);
  g_act = a;
  gcase g = {.fwd = a->op, .grad = grad, .n_in = 1, .slot = {"X"},
             .in = {ew_rand(IC_FP64, 2, TU_DIMS(3, 7), seed, a->lo, a->hi)}, .diff = {true},
             .out_slot = "Out", .attrs = act_attrs};
  if (!strcmp(a->deps, "X") || !strcmp(a->deps, "X,Out")) {
    g.gin_slot[g.n_gin] = "X";
    g.gin_src[g.n_gin++] = "in0";
  }
  if (!strcmp(a->deps, "Out") || !strcmp(a->deps, "X,Out")) {
    g.gin_slot[g.n_gin] = "Out";
    g.gin_src[g.n_gin++] = "out";
  }
  g.gin_slot[g.n_gin] = "Out@GRAD";
  g.gin_src[g.n_gin++] = "dout";
  check_grad(&g);
}

START_TEST(activation_grads) {
  static const act_case cs[] = {
      {"leaky_relu", "X", -2, 2, {"alpha"}, {0.1f}},
      {"leaky_relu", "X", -2, 2, {"alpha"}, {3.0f}},
      {"relu6", "Out", -2, 8, {"threshold"}, {6.0f}},
      {"hard_swish", "X", -5, 5, {"threshold", "scale", "offset"}, {6.0f, 6.0f, 3.0f}},
      {"hard_swish", "X", -4, 4, {"threshold", "scale", "offset"}, {4.0f, 4.0f, 2.0f}},
      {"hard_sigmoid", "Out", -4, 4, {"slope", "offset"}, {0.2f, 0.5f}},
      {"swish", "X", -4, 4, {"beta"}, {1.0f}},
      {"swish", "X", -4, 4, {"beta"}, {1.7f}},
      {"silu", "X,Out", -4, 4, {NULL}, {0}},
      {"elu", "X,Out", -3, 3, {"alpha"}, {1.2f}},
      {"elu", "X,Out", -3, 3, {"alpha"}, {-0.5f}},
      {"selu", "Out", -3, 3, {"scale", "alpha"}, {1.0507009873554805f, 1.6732632423543772f}},
      {"celu", "X", -3, 3, {"alpha"}, {1.5f}},
      {"celu", "X", -3, 3, {"alpha"}, {-0.7f}},
      {"softplus", "X", -3, 3, {"beta", "threshold"}, {1.0f, 20.0f}},
      {"softplus", "X", -3, 3, {"beta", "threshold"}, {2.0f, 3.0f}},
      {"softsign", "X", -3, 3, {NULL}, {0}},
      {"mish", "X", -3, 3, {"threshold"}, {20.0f}},
      {"exp", "Out", -3, 3, {NULL}, {0}},
      {"log", "X", 0.1, 4, {NULL}, {0}},
      {"log2", "X", 0.1, 4, {NULL}, {0}},
      {"log10", "X", 0.1, 4, {NULL}, {0}},
      {"log1p", "X", -0.9, 4, {NULL}, {0}},
      {"sqrt", "Out", 0.1, 4, {NULL}, {0}},
      {"rsqrt", "Out", 0.1, 4, {NULL}, {0}},
      {"square", "X", -3, 3, {NULL}, {0}},
      {"abs", "X", -3, 3, {NULL}, {0}},
      {"pow", "X", 0.1, 3, {"factor"}, {2.5f}},
      {"pow", "X", -3, 3, {"factor"}, {3.0f}},
      {"pow", "X", 0.1, 3, {"factor"}, {-1.5f}},
      {"tanh_shrink", "X", -3, 3, {NULL}, {0}},
      {"logsigmoid", "X", -5, 5, {NULL}, {0}},
      {"sin", "X", -4, 4, {NULL}, {0}},
      {"cos", "X", -4, 4, {NULL}, {0}},
      {"erf", "X", -3, 3, {NULL}, {0}},
      {"reciprocal", "Out", 0.2, 3, {NULL}, {0}},
      {"thresholded_relu", "X", -1, 3, {"threshold"}, {1.0f}},
      {"brelu", "X", -3, 3, {"t_min", "t_max"}, {-1.0f, 2.0f}},
      {"hard_shrink", "X", -2, 2, {"threshold"}, {0.5f}},
      {"softshrink", "X", -2, 2, {"lambda"}, {0.5f}},
      {"stanh", "X", -3, 3, {"scale_a", "scale_b"}, {0.67f, 1.7159f}},
      {"floor", "", -3, 3, {NULL}, {0}},
      {"ceil", "", -3, 3, {NULL}, {0}},
      {"round", "", -3, 3, {NULL}, {0}},
      {"lgamma", "X", 0.2, 5, {NULL}, {0}},
      {"lgamma", "X", -2.9, -2.1, {NULL}, {0}},
      {"digamma", "X", 0.2, 5, {NULL}, {0}},
      {"digamma", "X", -1.9, -1.1, {NULL}, {0}},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) act_check(&cs[i], 100 + i);
}
END_TEST

/* Out@GRAD of another shape or dtype than X is refused, naming the slot. */
START_TEST(activation_grad_errors) {
  ic_tensor *in[2] = {tu_f32(1, TU_DIMS(3), (const float[]){1, 2, 3}),
                      tu_f32(1, TU_DIMS(2), (const float[]){1, 2})};
  const char *names[2] = {"x", "g"};
  ic_builder *b = ic_builder_create();
  for (int k = 0; k < 2; k++) ew_feed(b, names[k], in[k]);
  ic_builder_op *o = ic_builder_add_op(b, 0, "leaky_relu_grad");
  ic_builder_in(o, "X", "x");
  ic_builder_in(o, "Out@GRAD", "g");
  ic_builder_out(o, "X@GRAD", "gx");
  ew_fetch(b, "gx", IC_FP32);
  ic_tensor *got = NULL;
  char err[1024] = "";
  ck_assert_int_ne(tu_run(b, 2, names, in, 1, TU_NAMES("gx"), &got, err, sizeof err), IC_OK);
  ck_assert_msg(strstr(err, "leaky_relu_grad") && strstr(err, "X"), "%s", err);
  ic_builder_destroy(b);
  for (int k = 0; k < 2; k++) ic_tensor_destroy(in[k]);
}
END_TEST

/* ---- index ops: gather, gather_nd, index_select against finite differences, with repeated
 * indices (a position picked twice must get both gradients) and negative ones
 * (index_select); stack_grad / unstack_grad (pure copies) element by element. ---- */
static int64_t g_ix_axis;
static void gather_attr(ic_builder_op *op) { ic_builder_attr_int(op, "axis", (int32_t)g_ix_axis); }
static void index_select_attr(ic_builder_op *op) {
  ic_builder_attr_int(op, "dim", (int32_t)g_ix_axis);
}

static void index_case(const char *fwd, attr_fn attrs, int64_t axis, ic_tensor *x, ic_tensor *idx) {
  char grad[64];
  snprintf(grad, sizeof grad, "%s_grad", fwd);
  g_ix_axis = axis;
  gcase g = {.fwd = fwd, .grad = grad, .n_in = 2, .slot = {"X", "Index"}, .in = {x, idx},
             .diff = {true, false}, .out_slot = "Out", .attrs = attrs, .n_gin = 3,
             .gin_slot = {"X", "Index", "Out@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
  check_grad(&g);
}

START_TEST(index_grads) {
  /* 7 draws from [0, 4): repeats certain */
  index_case("gather", gather_attr, 0, r64(3, TU_DIMS(4, 3, 2), 40),
             ew_rand(IC_INT64, 1, TU_DIMS(7), 41, 0, 4));
  index_case("gather", gather_attr, 1, r64(3, TU_DIMS(2, 3, 2), 42),
             ew_rand(IC_INT64, 1, TU_DIMS(5), 43, 0, 3));
  index_case("gather", gather_attr, -1, r64(2, TU_DIMS(3, 4), 44),
             ew_rand(IC_INT32, 2, TU_DIMS(6, 1), 45, 0, 4));
  index_case("gather_nd", NULL, 0, r64(3, TU_DIMS(3, 3, 2), 46),
             ew_rand(IC_INT64, 2, TU_DIMS(6, 2), 47, 0, 3));
  index_case("gather_nd", NULL, 0, r64(2, TU_DIMS(4, 3), 48),
             ew_rand(IC_INT64, 3, TU_DIMS(2, 3, 1), 49, 0, 4));
  index_case("index_select", index_select_attr, 1, r64(2, TU_DIMS(3, 4), 50),
             ew_rand(IC_INT64, 1, TU_DIMS(6), 51, -4, 4));
  index_case("index_select", index_select_attr, 0, r64(3, TU_DIMS(3, 2, 2), 52),
             ew_rand(IC_INT32, 1, TU_DIMS(5), 53, 0, 3));
}
END_TEST

/* stack_grad splits Y@GRAD [2, 3, 4] along `axis` into 3 X@GRAD of [2, 4] (axis 1) or 2 of
 * [3, 4] (axis -3); unstack_grad joins them back, bit for bit. */
START_TEST(stack_unstack_grads) {
  for (int v = 0; v < 2; v++) {
    const int axis = v ? -3 : 1, ax = v ? 0 : 1;
    const int64_t *dims = TU_DIMS(2, 3, 4);
    const size_t n = (size_t)dims[ax];
    ic_tensor *gy = ew_rand(IC_FP32, 3, dims, 60 + v, -1, 1);
    ic_builder *b = ic_builder_create();
    ew_feed(b, "gy", gy);
    ic_builder_op *o = ic_builder_add_op(b, 0, "stack_grad");
    ic_builder_in(o, "Y@GRAD", "gy");
    const char *gx[3] = {"gx0", "gx1", "gx2"};
    ic_builder_output(o, "X@GRAD", n, gx);
    ic_builder_attr_int(o, "axis", axis);
    ic_builder_op *u = ic_builder_add_op(b, 0, "unstack_grad");
    ic_builder_input(u, "Y@GRAD", n, gx);
    ic_builder_out(u, "X@GRAD", "back");
    ic_builder_attr_int(u, "axis", axis);
    ic_builder_attr_int(u, "num", (int32_t)n);
    for (size_t i = 0; i < n; i++) ew_fetch(b, gx[i], IC_FP32);
    ew_fetch(b, "back", IC_FP32);
    const char *fetch[4] = {gx[0], gx[1], n > 2 ? gx[2] : "back", "back"};
    ic_tensor *got[4] = {0};
    char err[1024];
    ck_assert_msg(tu_run(b, 1, TU_NAMES("gy"), &gy, n + 1, fetch, got, err, sizeof err) == IC_OK,
                  "%s", err);
    int64_t d0 = dims[0], d1 = dims[1], d2 = dims[2];
    for (int64_t i = 0; i < d0; i++) {
      for (int64_t j = 0; j < d1; j++) {
        for (int64_t k = 0; k < d2; k++) {
          double want = ew_at(gy, (i * d1 + j) * d2 + k);
          double part = ax == 1 ? ew_at(got[j], i * d2 + k) : ew_at(got[i], j * d2 + k);
          ck_assert_msg(part == want, "stack_grad axis %d: [%lld,%lld,%lld]", axis, (long long)i,
                        (long long)j, (long long)k);
        }
      }
    }
    tu_assert_shape(got[n], IC_FP32, 3, dims);
    for (int64_t e = 0; e < 24; e++) ck_assert(ew_at(got[n], e) == ew_at(gy, e));
    for (size_t i = 0; i <= n; i++) ic_tensor_destroy(got[i]);
    ic_tensor_destroy(gy);
    ic_builder_destroy(b);
  }
}
END_TEST

/* ---- expand / tile: X@GRAD sums Out@GRAD over the copies, against finite differences. ---- */
static const char *g_rep_attr;
static const int32_t *g_rep;
static size_t g_nrep;
static void rep_attr(ic_builder_op *op) { ic_builder_attr_ints(op, g_rep_attr, g_nrep, g_rep); }

static void repeat_case(const char *fwd, const char *attr, int nx, const int64_t *dx, size_t n,
                        const int32_t *v, uint64_t seed) {
  char grad[64];
  snprintf(grad, sizeof grad, "%s_grad", fwd);
  g_rep_attr = attr;
  g_rep = v;
  g_nrep = n;
  gcase g = {.fwd = fwd, .grad = grad, .n_in = 1, .slot = {"X"}, .in = {r64(nx, dx, seed)},
             .diff = {true}, .out_slot = "Out", .attrs = rep_attr, .n_gin = 2,
             .gin_slot = {"X", "Out@GRAD"}, .gin_src = {"in0", "dout"}};
  check_grad(&g);
}

START_TEST(repeat_grads) {
  repeat_case("expand_v2", "shape", 2, TU_DIMS(3, 1), 3, (const int32_t[]){2, 3, 4}, 70);
  repeat_case("expand_v2", "shape", 2, TU_DIMS(1, 4), 2, (const int32_t[]){3, -1}, 71);
  repeat_case("expand_v2", "shape", 2, TU_DIMS(2, 3), 2, (const int32_t[]){2, 3}, 72);
  repeat_case("tile", "repeat_times", 2, TU_DIMS(2, 3), 3, (const int32_t[]){2, 1, 2}, 73);
  repeat_case("tile", "repeat_times", 2, TU_DIMS(2, 3), 1, (const int32_t[]){3}, 74);
  repeat_case("expand", "expand_times", 2, TU_DIMS(2, 1), 2, (const int32_t[]){2, 3}, 75);
  repeat_case("expand_as_v2", "target_shape", 2, TU_DIMS(1, 4), 3, (const int32_t[]){2, 3, 4},
              76);
}
END_TEST

/* ---- pad3d (every mode, both layouts) and pad against finite differences: an edge copied
 * several times (reflect / replicate / circular) must get every copy's gradient. ---- */
static const char *g_pad_mode;
static bool g_pad_last;
static void pad3d_attr(ic_builder_op *op) {
  ic_builder_attr_ints(op, "paddings", 6, (const int32_t[]){1, 2, 0, 1, 2, 1});
  ic_builder_attr_string(op, "mode", g_pad_mode);
  ic_builder_attr_float(op, "value", 0.5f);
  ic_builder_attr_string(op, "data_format", g_pad_last ? "NDHWC" : "NCDHW");
}
static void pad_op_attr(ic_builder_op *op) {
  ic_builder_attr_ints(op, "paddings", 6, (const int32_t[]){1, 0, 0, 2, 2, 1});
  ic_builder_attr_float(op, "pad_value", 0.5f);
}

START_TEST(pad_grads) {
  const char *modes[] = {"constant", "reflect", "replicate", "circular"};
  for (int m = 0; m < 4; m++) {
    for (int last = 0; last < 2; last++) {
      g_pad_mode = modes[m];
      g_pad_last = last;
      /* D, H, W = 3, 2, 3 (each pad below its dim for reflect) */
      const int64_t *d = last ? TU_DIMS(1, 3, 2, 3, 2) : TU_DIMS(1, 2, 3, 2, 3);
      gcase g = {.fwd = "pad3d", .grad = "pad3d_grad", .n_in = 1, .slot = {"X"},
                 .in = {r64(5, d, 80 + m)}, .diff = {true}, .out_slot = "Out",
                 .attrs = pad3d_attr, .n_gin = 2, .gin_slot = {"X", "Out@GRAD"},
                 .gin_src = {"in0", "dout"}};
      check_grad(&g);
    }
  }
  gcase p = {.fwd = "pad", .grad = "pad_grad", .n_in = 1, .slot = {"X"},
             .in = {r64(3, TU_DIMS(2, 3, 2), 90)}, .diff = {true}, .out_slot = "Out",
             .attrs = pad_op_attr, .n_gin = 1, .gin_slot = {"Out@GRAD"}, .gin_src = {"dout"}};
  check_grad(&p);
}
END_TEST

/* ---- where, clip, cumsum against finite differences ---- */
static void clip_attr(ic_builder_op *op) {
  ic_builder_attr_float(op, "min", -0.5f);
  ic_builder_attr_float(op, "max", 0.7f);
}
static int64_t g_cs_axis;
static bool g_cs_flags[3]; /* flatten, exclusive, reverse */
static void cumsum_attr(ic_builder_op *op) {
  ic_builder_attr_int(op, "axis", (int32_t)g_cs_axis);
  ic_builder_attr_bool(op, "flatten", g_cs_flags[0]);
  ic_builder_attr_bool(op, "exclusive", g_cs_flags[1]);
  ic_builder_attr_bool(op, "reverse", g_cs_flags[2]);
}

START_TEST(where_clip_cumsum_grads) {
  ic_tensor *cond;
  ck_assert_int_eq(ic_tensor_create(IC_BOOL, 2, TU_DIMS(3, 4), &cond), IC_OK);
  for (int k = 0; k < 12; k++) ((uint8_t *)ic_tensor_data(cond))[k] = (uint8_t)((k * 7) % 3 == 0);
  gcase w = {.fwd = "where", .grad = "where_grad", .n_in = 3, .slot = {"Condition", "X", "Y"},
             .in = {cond, r64(2, TU_DIMS(3, 4), 91), r64(2, TU_DIMS(3, 4), 92)},
             .diff = {false, true, true}, .out_slot = "Out", .n_gin = 4,
             .gin_slot = {"Condition", "X", "Y", "Out@GRAD"},
             .gin_src = {"in0", "in1", "in2", "dout"}};
  check_grad(&w);
  gcase cl = {.fwd = "clip", .grad = "clip_grad", .n_in = 1, .slot = {"X"},
              .in = {ew_rand(IC_FP64, 2, TU_DIMS(4, 5), 93, -2, 2)}, .diff = {true},
              .out_slot = "Out", .attrs = clip_attr, .n_gin = 2, .gin_slot = {"X", "Out@GRAD"},
              .gin_src = {"in0", "dout"}};
  check_grad(&cl);
  for (int v = 0; v < 16; v++) {
    g_cs_axis = (v & 8) ? -1 : 0;
    g_cs_flags[0] = v & 1;
    g_cs_flags[1] = v & 2;
    g_cs_flags[2] = v & 4;
    gcase cs = {.fwd = "cumsum", .grad = "cumsum_grad", .n_in = 1, .slot = {"X"},
                .in = {r64(3, TU_DIMS(2, 3, 4), 94 + v)}, .diff = {true}, .out_slot = "Out",
                .attrs = cumsum_attr, .n_gin = 2, .gin_slot = {"X", "Out@GRAD"},
                .gin_src = {"in0", "dout"}};
    check_grad(&cs);
  }
}
END_TEST

/* ---- prelu: X@GRAD and Alpha@GRAD against finite differences in every mode ---- */
static const char *g_prelu_mode, *g_prelu_fmt;
static void prelu_attr(ic_builder_op *op) {
  ic_builder_attr_string(op, "mode", g_prelu_mode);
  ic_builder_attr_string(op, "data_format", g_prelu_fmt);
}

START_TEST(prelu_grad) {
  struct {
    const char *mode, *fmt;
    int na;
    int64_t adims[3];
  } cs[] = {{"all", "NCHW", 1, {1}},
            {"channel", "NCHW", 1, {3}},
            {"channel", "NHWC", 1, {2}},
            {"element", "NCHW", 3, {3, 2, 2}}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_prelu_mode = cs[i].mode;
    g_prelu_fmt = cs[i].fmt;
    gcase g = {.fwd = "prelu", .grad = "prelu_grad", .n_in = 2, .slot = {"X", "Alpha"},
               .in = {r64(4, TU_DIMS(2, 3, 2, 2), 110 + i),
                      ew_rand(IC_FP64, cs[i].na, cs[i].adims, 120 + i, 0.05, 0.5)},
               .diff = {true, true}, .out_slot = "Out", .attrs = prelu_attr, .n_gin = 3,
               .gin_slot = {"X", "Alpha", "Out@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
    check_grad(&g);
  }
}
END_TEST

/* ---- top_k / top_k_v2: the gradient goes back to the positions Indices names ---- */
static int64_t g_topk_k, g_topk_axis;
static bool g_topk_largest;
static void topk_attr(ic_builder_op *op) {
  ic_builder_attr_int(op, "k", (int32_t)g_topk_k);
  ic_builder_attr_int(op, "axis", (int32_t)g_topk_axis);
  ic_builder_attr_bool(op, "largest", g_topk_largest);
}
static void topk1_attr(ic_builder_op *op) { ic_builder_attr_int(op, "k", (int32_t)g_topk_k); }

static bool g_as_desc;
static void argsort_attr(ic_builder_op *op) {
  ic_builder_attr_int(op, "axis", (int32_t)g_topk_axis);
  ic_builder_attr_bool(op, "descending", g_as_desc);
}

/* argsort_grad: every axis, both orders (random values: no ties) */
START_TEST(argsort_grad) {
  struct {
    int64_t axis;
    bool desc;
  } cs[] = {{-1, false}, {0, true}, {1, false}, {2, true}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_topk_axis = cs[i].axis;
    g_as_desc = cs[i].desc;
    gcase g = {.fwd = "argsort", .grad = "argsort_grad", .n_in = 1, .slot = {"X"},
               .in = {r64(3, TU_DIMS(3, 4, 5), 150 + i)}, .diff = {true}, .out_slot = "Out",
               .extra_slot = "Indices", .attrs = argsort_attr, .n_gin = 3,
               .gin_slot = {"Indices", "X", "Out@GRAD"}, .gin_src = {"extra", "in0", "dout"}};
    check_grad(&g);
  }
}
END_TEST

START_TEST(topk_grads) {
  struct {
    int64_t k, axis;
    bool largest;
  } cs[] = {{2, -1, true}, {3, 0, false}, {1, 1, true}};
  for (size_t i = 0; i < 3; i++) {
    g_topk_k = cs[i].k;
    g_topk_axis = cs[i].axis;
    g_topk_largest = cs[i].largest;
    gcase g = {.fwd = "top_k_v2", .grad = "top_k_v2_grad", .n_in = 1, .slot = {"X"},
               .in = {r64(3, TU_DIMS(3, 4, 5), 130 + i)}, .diff = {true}, .out_slot = "Out",
               .extra_slot = "Indices", .attrs = topk_attr, .n_gin = 3,
               .gin_slot = {"X", "Indices", "Out@GRAD"}, .gin_src = {"in0", "extra", "dout"}};
    check_grad(&g);
  }
  g_topk_k = 2;
  gcase g1 = {.fwd = "top_k", .grad = "top_k_grad", .n_in = 1, .slot = {"X"},
              .in = {r64(2, TU_DIMS(3, 5), 140)}, .diff = {true}, .out_slot = "Out",
              .extra_slot = "Indices", .attrs = topk1_attr, .n_gin = 3,
              .gin_slot = {"X", "Indices", "Out@GRAD"}, .gin_src = {"in0", "extra", "dout"}};
  check_grad(&g1);
}
END_TEST

/* ---- pixel_shuffle (both layouts), p_norm and squared_l2_norm against finite differences ---- */
static bool g_ps_nhwc;
static void ps_attr(ic_builder_op *op) {
  ic_builder_attr_int(op, "upscale_factor", 2);
  ic_builder_attr_string(op, "data_format", g_ps_nhwc ? "NHWC" : "NCHW");
}

static int g_pn;
static void pn_attr(ic_builder_op *op) {
  static const float ps[] = {2.0f, 3.0f, 1.5f, 1.0f};
  ic_builder_attr_float(op, "porder", ps[g_pn]);
  ic_builder_attr_int(op, "axis", g_pn == 1 ? 0 : -1);
  ic_builder_attr_bool(op, "keepdim", g_pn == 1);
  ic_builder_attr_bool(op, "asvector", g_pn == 2);
}

START_TEST(pixel_shuffle_l2_grads) {
  for (int v = 0; v < 2; v++) {
    g_ps_nhwc = v;
    gcase g = {.fwd = "pixel_shuffle", .grad = "pixel_shuffle_grad", .n_in = 1, .slot = {"X"},
               .in = {r64(4, v ? TU_DIMS(2, 2, 3, 8) : TU_DIMS(2, 8, 2, 3), 150 + v)},
               .diff = {true}, .out_slot = "Out", .attrs = ps_attr, .n_gin = 1,
               .gin_slot = {"Out@GRAD"}, .gin_src = {"dout"}};
    check_grad(&g);
  }
  /* p_norm for finite p on random (nonzero) values; ties and zeros are in the oracle */
  for (int v = 0; v < 4; v++) {
    g_pn = v;
    gcase pn = {.fwd = "p_norm", .grad = "p_norm_grad", .n_in = 1, .slot = {"X"},
                .in = {r64(3, TU_DIMS(2, 3, 4), 153 + v)}, .diff = {true}, .out_slot = "Out",
                .attrs = pn_attr, .n_gin = 3, .gin_slot = {"X", "Out", "Out@GRAD"},
                .gin_src = {"in0", "out", "dout"}};
    check_grad(&pn);
  }
  gcase l2 = {.fwd = "squared_l2_norm", .grad = "squared_l2_norm_grad", .n_in = 1,
              .slot = {"X"}, .in = {r64(2, TU_DIMS(3, 4), 152)}, .diff = {true},
              .out_slot = "Out", .n_gin = 2, .gin_slot = {"X", "Out@GRAD"},
              .gin_src = {"in0", "dout"}};
  check_grad(&l2);
  gcase l1 = {.fwd = "l1_norm", .grad = "l1_norm_grad", .n_in = 1,
              .slot = {"X"}, .in = {r64(3, TU_DIMS(2, 3, 4), 159)}, .diff = {true},
              .out_slot = "Out", .n_gin = 2, .gin_slot = {"X", "Out@GRAD"},
              .gin_src = {"in0", "dout"}};
  check_grad(&l1);
}
END_TEST

/* ---- strided_slice: the gradient lands where the forward read (negative strides,
 * decrease_axis, an axis listed twice), zeros elsewhere; finite differences. ---- */
static int g_ss;
static void ss_attr(ic_builder_op *op) {
  static const int32_t ax[3][2] = {{0, 2}, {1, 1}, {1, 0}}, st[3][2] = {{1, -1}, {0, 1}, {2, 0}};
  static const int32_t en[3][2] = {{3, -5}, {4, 3}, {3, 3}}, sd[3][2] = {{1, -2}, {2, 1}, {1, 2}};
  ic_builder_attr_ints(op, "axes", 2, ax[g_ss]);
  ic_builder_attr_ints(op, "starts", 2, st[g_ss]);
  ic_builder_attr_ints(op, "ends", 2, en[g_ss]);
  ic_builder_attr_ints(op, "strides", 2, sd[g_ss]);
  ic_builder_attr_ints(op, "infer_flags", 2, (const int32_t[]){1, 1});
  if (g_ss == 2) ic_builder_attr_ints(op, "decrease_axis", 1, (const int32_t[]){1});
  else ic_builder_attr_ints(op, "decrease_axis", 0, NULL);
}

START_TEST(strided_slice_grad) {
  for (g_ss = 0; g_ss < 3; g_ss++) {
    gcase g = {.fwd = "strided_slice", .grad = "strided_slice_grad", .n_in = 1,
               .slot = {"Input"}, .in = {r64(3, TU_DIMS(3, 4, 5), 160 + g_ss)}, .diff = {true},
               .out_slot = "Out", .attrs = ss_attr, .n_gin = 2,
               .gin_slot = {"Input", "Out@GRAD"}, .gin_src = {"in0", "dout"}};
    check_grad(&g);
  }
}
END_TEST

/* ---- instance_norm: X, Scale and Bias gradients from the saved statistics, against finite
 * differences (with Scale and Bias, and without). ---- */
static void in_attr(ic_builder_op *op) { ic_builder_attr_float(op, "epsilon", 1e-5f); }

START_TEST(instance_norm_grad) {
  gcase g = {.fwd = "instance_norm", .grad = "instance_norm_grad", .n_in = 3,
             .slot = {"X", "Scale", "Bias"},
             .in = {r64(4, TU_DIMS(2, 3, 2, 3), 170), r64(1, TU_DIMS(3), 171),
                    r64(1, TU_DIMS(3), 172)},
             .diff = {true, true, true}, .out_slot = "Y", .extra_slot = "SavedMean",
             .extra2_slot = "SavedVariance", .attrs = in_attr, .n_gin = 5,
             .gin_slot = {"X", "Scale", "SavedMean", "SavedVariance", "Y@GRAD"},
             .gin_src = {"in0", "in1", "extra", "extra2", "dout"}};
  check_grad(&g);
  gcase g2 = {.fwd = "instance_norm", .grad = "instance_norm_grad", .n_in = 1, .slot = {"X"},
              .in = {r64(3, TU_DIMS(2, 2, 5), 173)}, .diff = {true}, .out_slot = "Y",
              .extra_slot = "SavedMean", .extra2_slot = "SavedVariance", .attrs = in_attr,
              .n_gin = 4, .gin_slot = {"X", "SavedMean", "SavedVariance", "Y@GRAD"},
              .gin_src = {"in0", "extra", "extra2", "dout"}};
  check_grad(&g2);
}
END_TEST

/* ---- group_norm: X, Scale and Bias gradients, both layouts, groups that do not divide C
 * evenly too, against finite differences. ---- */
static int64_t g_gn_groups;
static bool g_gn_nhwc;
static void gn_attr(ic_builder_op *op) {
  ic_builder_attr_float(op, "epsilon", 1e-5f);
  ic_builder_attr_int(op, "groups", (int32_t)g_gn_groups);
  ic_builder_attr_string(op, "data_layout", g_gn_nhwc ? "NHWC" : "NCHW");
}

START_TEST(group_norm_grad) {
  struct {
    int64_t groups, C;
    bool nhwc;
  } cs[] = {{2, 4, false}, {3, 5, false}, {2, 4, true}};
  for (size_t i = 0; i < 3; i++) {
    g_gn_groups = cs[i].groups;
    g_gn_nhwc = cs[i].nhwc;
    const int64_t C = cs[i].C;
    gcase g = {.fwd = "group_norm", .grad = "group_norm_grad", .n_in = 3,
               .slot = {"X", "Scale", "Bias"},
               .in = {r64(4, cs[i].nhwc ? TU_DIMS(2, 2, 3, C) : TU_DIMS(2, C, 2, 3), 180 + i),
                      r64(1, TU_DIMS(C), 185 + i), r64(1, TU_DIMS(C), 190 + i)},
               .diff = {true, true, true}, .out_slot = "Y", .extra_slot = "Mean",
               .extra2_slot = "Variance", .attrs = gn_attr, .n_gin = 5,
               .gin_slot = {"X", "Scale", "Mean", "Variance", "Y@GRAD"},
               .gin_src = {"in0", "in1", "extra", "extra2", "dout"}};
    check_grad(&g);
  }
}
END_TEST

/* ---- interpolation: nearest / linear / bilinear / trilinear v2 grads against finite
 * differences, up and down, align_corners and align_mode, both layouts. ---- */
static int g_ip;
static void interp_attr(ic_builder_op *op) {
  static const float sc[][3] = {{2.0f, 2.0f, 0}, {1.5f, 0.5f, 0}, {2.0f, 1.5f, 0}};
  const int v = g_ip % 3;
  ic_builder_attr_bool(op, "align_corners", g_ip & 4);
  ic_builder_attr_int(op, "align_mode", (g_ip & 8) ? 1 : 0);
  ic_builder_attr_string(op, "data_layout", (g_ip & 16) ? "NHWC" : "NCHW");
  ic_builder_attr_floats(op, "scale", 2, sc[v]);
}
static void interp1_attr(ic_builder_op *op) {
  ic_builder_attr_bool(op, "align_corners", g_ip & 4);
  ic_builder_attr_int(op, "align_mode", 0);
  ic_builder_attr_string(op, "data_layout", "NCHW");
  ic_builder_attr_floats(op, "scale", 1, (const float[]){1.7f});
}
static void interp3_attr(ic_builder_op *op) {
  ic_builder_attr_bool(op, "align_corners", g_ip & 4);
  ic_builder_attr_int(op, "align_mode", 1);
  ic_builder_attr_string(op, "data_layout", "NCDHW");
  ic_builder_attr_floats(op, "scale", 3, (const float[]){2.0f, 1.5f, 0.7f});
}

static void interp_v1_attr(ic_builder_op *op) {
  ic_builder_attr_bool(op, "align_corners", g_ip & 4);
  ic_builder_attr_int(op, "align_mode", (g_ip & 8) ? 1 : 0);
  ic_builder_attr_string(op, "data_layout", (g_ip & 16) ? "NHWC" : "NCHW");
  ic_builder_attr_float(op, "scale", (g_ip & 1) ? 1.5f : 2.0f);
}

START_TEST(interp_grads) {
  const char *ops[2][2] = {{"nearest_interp_v2", "nearest_interp_v2_grad"},
                           {"bilinear_interp_v2", "bilinear_interp_v2_grad"}};
  const int vs[] = {0, 1, 2, 4, 5, 8, 9, 16 + 1, 16 + 4 + 2};
  for (int o = 0; o < 2; o++) {
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) {
      g_ip = vs[i];
      const bool nhwc = g_ip & 16;
      gcase g = {.fwd = ops[o][0], .grad = ops[o][1], .n_in = 1, .slot = {"X"},
                 .in = {r64(4, nhwc ? TU_DIMS(1, 3, 4, 2) : TU_DIMS(1, 2, 3, 4), 200 + i)},
                 .diff = {true}, .out_slot = "Out", .attrs = interp_attr, .n_gin = 2,
                 .gin_slot = {"X", "Out@GRAD"}, .gin_src = {"in0", "dout"}};
      check_grad(&g);
    }
  }
  /* bicubic: scales up and down, align_corners, NHWC (4 x 4 neighbours clamped at the
   * borders); the v1 ops with their one float scale */
  const int bs[] = {0, 1, 2, 4, 5, 16 + 1, 16 + 4 + 2};
  for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++) {
    g_ip = bs[i];
    const bool nhwc = g_ip & 16;
    gcase g = {.fwd = "bicubic_interp_v2", .grad = "bicubic_interp_v2_grad", .n_in = 1,
               .slot = {"X"},
               .in = {r64(4, nhwc ? TU_DIMS(1, 3, 4, 2) : TU_DIMS(2, 2, 3, 4), 240 + i)},
               .diff = {true}, .out_slot = "Out", .attrs = interp_attr, .n_gin = 2,
               .gin_slot = {"X", "Out@GRAD"}, .gin_src = {"in0", "dout"}};
    check_grad(&g);
  }
  const char *v1[2][2] = {{"nearest_interp", "nearest_interp_grad"},
                          {"bilinear_interp", "bilinear_interp_grad"}};
  const int v1s[] = {0, 1, 4, 8 + 1, 16 + 4 + 1};
  for (int o = 0; o < 2; o++) {
    for (size_t i = 0; i < sizeof v1s / sizeof v1s[0]; i++) {
      g_ip = v1s[i];
      const bool nhwc = g_ip & 16;
      gcase g = {.fwd = v1[o][0], .grad = v1[o][1], .n_in = 1, .slot = {"X"},
                 .in = {r64(4, nhwc ? TU_DIMS(1, 3, 4, 2) : TU_DIMS(1, 2, 3, 4), 250 + i)},
                 .diff = {true}, .out_slot = "Out", .attrs = interp_v1_attr, .n_gin = 2,
                 .gin_slot = {"X", "Out@GRAD"}, .gin_src = {"in0", "dout"}};
      check_grad(&g);
    }
  }
  for (g_ip = 0; g_ip <= 4; g_ip += 4) {
    gcase l = {.fwd = "linear_interp_v2", .grad = "linear_interp_v2_grad", .n_in = 1,
               .slot = {"X"}, .in = {r64(3, TU_DIMS(2, 2, 4), 220 + g_ip)}, .diff = {true},
               .out_slot = "Out", .attrs = interp1_attr, .n_gin = 2,
               .gin_slot = {"X", "Out@GRAD"}, .gin_src = {"in0", "dout"}};
    check_grad(&l);
    gcase t = {.fwd = "trilinear_interp_v2", .grad = "trilinear_interp_v2_grad", .n_in = 1,
               .slot = {"X"}, .in = {r64(5, TU_DIMS(1, 2, 2, 3, 4), 230 + g_ip)},
               .diff = {true}, .out_slot = "Out", .attrs = interp3_attr, .n_gin = 2,
               .gin_slot = {"X", "Out@GRAD"}, .gin_src = {"in0", "dout"}};
    check_grad(&t);
  }
}
END_TEST

/* ---- mul ---- */

static int64_t g_xncd, g_yncd;
static void mul_attrs(ic_builder_op *op) {
  ic_builder_attr_int(op, "x_num_col_dims", (int32_t)g_xncd);
  ic_builder_attr_int(op, "y_num_col_dims", (int32_t)g_yncd);
}

START_TEST(mul_grad) {
  struct {
    int nx, ny;
    int64_t dx[4], dy[4], xncd, yncd;
  } cs[] = {{2, 2, {3, 4}, {4, 5}, 1, 1}, {3, 2, {2, 3, 4}, {4, 2}, 2, 1},
            {2, 3, {3, 4}, {2, 2, 5}, 1, 2}, {3, 2, {2, 3, 2}, {6, 2}, 1, 1}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_xncd = cs[i].xncd;
    g_yncd = cs[i].yncd;
    gcase g = {.fwd = "mul", .grad = "mul_grad", .n_in = 2, .slot = {"X", "Y"},
               .in = {r64(cs[i].nx, cs[i].dx, 3), r64(cs[i].ny, cs[i].dy, 4)},
               .diff = {true, true}, .out_slot = "Out", .attrs = mul_attrs, .n_gin = 3,
               .gin_slot = {"X", "Y", "Out@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
    check_grad(&g);
  }
}
END_TEST

/* ---- reductions ---- */

static const int64_t *g_dim;
static size_t g_ndim;
static bool g_keep, g_all;
static void reduce_attrs(ic_builder_op *op) {
  ic_builder_attr_longs(op, "dim", g_ndim, g_dim);
  ic_builder_attr_bool(op, "keep_dim", g_keep);
  ic_builder_attr_bool(op, "reduce_all", g_all);
}

START_TEST(reduce_grads) {
  const char *ops[][2] = {{"reduce_mean", "reduce_mean_grad"}, {"reduce_sum", "reduce_sum_grad"}};
  struct {
    int64_t dim[3];
    size_t n;
    bool keep, all;
  } cs[] = {{{1}, 1, false, false}, {{0, 2}, 2, true, false}, {{-1}, 1, false, false},
            {{0}, 1, false, true}, {{0}, 0, true, false}};
  for (int o = 0; o < 2; o++) {
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
      g_dim = cs[i].dim;
      g_ndim = cs[i].n;
      g_keep = cs[i].keep;
      g_all = cs[i].all;
      gcase g = {.fwd = ops[o][0], .grad = ops[o][1], .n_in = 1, .slot = {"X"},
                 .in = {r64(3, TU_DIMS(2, 3, 4), 5)}, .diff = {true}, .out_slot = "Out",
                 .attrs = reduce_attrs, .n_gin = 2, .gin_slot = {"X", "Out@GRAD"},
                 .gin_src = {"in0", "dout"}};
      check_grad(&g);
    }
  }
  /* reduce_max on random values (no ties): the gradient goes to each reduction's argmax */
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_dim = cs[i].dim;
    g_ndim = cs[i].n;
    g_keep = cs[i].keep;
    g_all = cs[i].all;
    gcase g = {.fwd = "reduce_max", .grad = "reduce_max_grad", .n_in = 1, .slot = {"X"},
               .in = {r64(3, TU_DIMS(2, 3, 4), 7)}, .diff = {true}, .out_slot = "Out",
               .attrs = reduce_attrs, .n_gin = 3, .gin_slot = {"X", "Out", "Out@GRAD"},
               .gin_src = {"in0", "out", "dout"}};
    check_grad(&g);
  }
  gcase m = {.fwd = "mean", .grad = "mean_grad", .n_in = 1, .slot = {"X"},
             .in = {r64(2, TU_DIMS(3, 4), 6)}, .diff = {true}, .out_slot = "Out", .n_gin = 2,
             .gin_slot = {"X", "Out@GRAD"}, .gin_src = {"in0", "dout"}};
  check_grad(&m);
}
END_TEST

START_TEST(relu_grad) {
  ic_tensor *x = r64(2, TU_DIMS(4, 5), 7);
  double *d = ic_tensor_data(x);
  for (int k = 0; k < 20; k++) d[k] += d[k] < 0 ? -0.1 : 0.1; /* no kink within h */
  gcase g = {.fwd = "relu", .grad = "relu_grad", .n_in = 1, .slot = {"X"}, .in = {x},
             .diff = {true}, .out_slot = "Out", .n_gin = 2, .gin_slot = {"Out", "Out@GRAD"},
             .gin_src = {"out", "dout"}};
  check_grad(&g);
}
END_TEST

/* ---- softmax_with_cross_entropy ---- */

static bool g_soft;
static int64_t g_sm_axis, g_ignore;
static void swce_attrs(ic_builder_op *op) {
  ic_builder_attr_bool(op, "soft_label", g_soft);
  ic_builder_attr_int(op, "axis", (int32_t)g_sm_axis);
  ic_builder_attr_int(op, "ignore_index", (int32_t)g_ignore);
}

static void swce_case(int nd, const int64_t *dims, int64_t axis, bool soft, int64_t ignore) {
  g_soft = soft;
  g_sm_axis = axis;
  g_ignore = ignore;
  ic_tensor *logits = ew_rand(IC_FP64, nd, dims, 8, -2, 2), *label;
  int ax = axis < 0 ? nd + (int)axis : (int)axis;
  int64_t ld[8];
  memcpy(ld, dims, (size_t)nd * sizeof *ld);
  if (soft) {
    /* a distribution along the axis: Paddle's gradient Softmax - Label assumes it sums to 1 */
    label = ew_rand(IC_FP64, nd, dims, 9, 0, 1);
    double *lv = ic_tensor_data(label);
    int64_t n = 1, d = dims[ax], r = 1;
    for (int i = 0; i < ax; i++) n *= dims[i];
    for (int i = ax + 1; i < nd; i++) r *= dims[i];
    for (int64_t i = 0; i < n; i++) {
      for (int64_t j = 0; j < r; j++) {
        double s = 0;
        for (int64_t k = 0; k < d; k++) s += lv[(i * d + k) * r + j];
        for (int64_t k = 0; k < d; k++) lv[(i * d + k) * r + j] /= s;
      }
    }
  } else {
    ld[ax] = 1;
    label = ew_rand(IC_INT64, nd, ld, 9, 0, (double)dims[ax]);
    ((int64_t *)ic_tensor_data(label))[1] = ignore; /* one ignored position */
  }
  gcase g = {.fwd = "softmax_with_cross_entropy", .grad = "softmax_with_cross_entropy_grad",
             .n_in = 2, .slot = {"Logits", "Label"}, .in = {logits, label},
             .diff = {true, false}, .out_slot = "Loss", .extra_slot = "Softmax",
             .attrs = swce_attrs, .n_gin = 3, .gin_slot = {"Label", "Softmax", "Loss@GRAD"},
             .gin_src = {"in1", "extra", "dout"}};
  check_grad(&g);
}

START_TEST(softmax_with_cross_entropy_grad) {
  swce_case(2, TU_DIMS(4, 5), -1, false, -100);
  swce_case(2, TU_DIMS(4, 5), -1, false, 2);
  swce_case(3, TU_DIMS(2, 3, 4), 1, false, -100);
  swce_case(2, TU_DIMS(4, 5), -1, true, -100);
  swce_case(3, TU_DIMS(2, 3, 4), 1, true, -100);
}
END_TEST

/* Loss values against -log(softmax) in double, and the errors. */
START_TEST(softmax_with_cross_entropy_values) {
  g_soft = false;
  g_sm_axis = -1;
  g_ignore = -100;
  ic_tensor *x = tu_f64(2, TU_DIMS(2, 3), (const double[]){1, 2, 3, -1, 0, 1000});
  ic_tensor *l = tu_i64(2, TU_DIMS(2, 1), (const int64_t[]){0, 1});
  gcase g = {.fwd = "softmax_with_cross_entropy", .n_in = 2, .slot = {"Logits", "Label"},
             .in = {x, l}, .out_slot = "Loss", .extra_slot = "Softmax", .attrs = swce_attrs};
  ic_tensor *loss, *sm;
  forward(&g, g.in, &loss, &sm, NULL);
  /* row 1: the other logits sit 1000 below the max, clipped at -64 before exp */
  double s0 = exp(1) + exp(2) + exp(3);
  tu_assert_close(loss, (const double[]){-log(exp(1) / s0), 64.0 + log(1 + 2 * exp(-64.0))}, 2,
                  1e-12, 0);
  ic_tensor_destroy(loss);
  ic_tensor_destroy(sm);
  /* a label out of range */
  ic_builder *b;
  ic_builder_op *op;
  ((int64_t *)ic_tensor_data(l))[1] = 3;
  b = ic_builder_create();
  ew_feed(b, "x", x);
  ew_feed(b, "l", l);
  op = ic_builder_add_op(b, 0, "softmax_with_cross_entropy");
  ic_builder_in(op, "Logits", "x");
  ic_builder_in(op, "Label", "l");
  ic_builder_out(op, "Loss", "out");
  ic_builder_out(op, "Softmax", "sm");
  ew_fetch(b, "out", IC_FP64);
  ic_builder_var(b, 0, "sm", IC_FP64, 0, NULL, false);
  ic_tensor *out = NULL;
  char err[1024];
  ic_status st = tu_run(b, 2, TU_NAMES("x", "l"), (ic_tensor *const[]){x, l}, 1,
                        TU_NAMES("out"), &out, err, sizeof err);
  ck_assert_int_ne(st, IC_OK);
  tu_assert_msg(err, "Label", "'l'", "element 1 is 3", "[0, 3)", NULL);
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
  ic_tensor_destroy(l);
}
END_TEST

/* ---- activations, softmax, shapes, layer_norm, matmul_v2 ---- */

static bool g_approx;
static void gelu_attr(ic_builder_op *op) { ic_builder_attr_bool(op, "approximate", g_approx); }

START_TEST(gelu_grad) {
  for (int k = 0; k < 2; k++) {
    g_approx = k == 1;
    gcase g = {.fwd = "gelu", .grad = "gelu_grad", .n_in = 1, .slot = {"X"},
               .in = {ew_rand(IC_FP64, 2, TU_DIMS(3, 5), 12, -3, 3)}, .diff = {true},
               .out_slot = "Out", .attrs = gelu_attr, .n_gin = 2,
               .gin_slot = {"X", "Out@GRAD"}, .gin_src = {"in0", "dout"}};
    check_grad(&g);
  }
}
END_TEST

START_TEST(tanh_sigmoid_grads) {
  const char *ops[][2] = {{"tanh", "tanh_grad"}, {"sigmoid", "sigmoid_grad"}};
  for (int k = 0; k < 2; k++) {
    gcase g = {.fwd = ops[k][0], .grad = ops[k][1], .n_in = 1, .slot = {"X"},
               .in = {ew_rand(IC_FP64, 2, TU_DIMS(3, 5), 21, -3, 3)}, .diff = {true},
               .out_slot = "Out", .n_gin = 2, .gin_slot = {"Out", "Out@GRAD"},
               .gin_src = {"out", "dout"}};
    check_grad(&g);
  }
}
END_TEST

static int64_t g_softmax_axis;
static void softmax_attr(ic_builder_op *op) {
  ic_builder_attr_int(op, "axis", (int32_t)g_softmax_axis);
}

START_TEST(softmax_grad) {
  const int64_t axes[] = {-1, 1, 0};
  for (int k = 0; k < 3; k++) {
    g_softmax_axis = axes[k];
    gcase g = {.fwd = "softmax", .grad = "softmax_grad", .n_in = 1, .slot = {"X"},
               .in = {ew_rand(IC_FP64, 3, TU_DIMS(2, 3, 4), 13, -2, 2)}, .diff = {true},
               .out_slot = "Out", .attrs = softmax_attr, .n_gin = 2,
               .gin_slot = {"Out", "Out@GRAD"}, .gin_src = {"out", "dout"}};
    check_grad(&g);
  }
}
END_TEST

static void reshape_attr(ic_builder_op *op) {
  ic_builder_attr_ints(op, "shape", 2, (const int32_t[]){4, -1});
}
static const int32_t *g_perm;
static void transpose_attr(ic_builder_op *op) { ic_builder_attr_ints(op, "axis", 3, g_perm); }

START_TEST(shape_grads) {
  gcase r = {.fwd = "reshape2", .grad = "reshape2_grad", .n_in = 1, .slot = {"X"},
             .in = {r64(3, TU_DIMS(2, 3, 4), 14)}, .diff = {true}, .out_slot = "Out",
             .attrs = reshape_attr, .xshape = true, .n_gin = 2,
             .gin_slot = {"XShape", "Out@GRAD"}, .gin_src = {"xs", "dout"}};
  check_grad(&r);
  const int32_t perms[][3] = {{0, 2, 1}, {2, 0, 1}, {1, 2, 0}};
  for (int k = 0; k < 3; k++) {
    g_perm = perms[k];
    gcase t = {.fwd = "transpose2", .grad = "transpose2_grad", .n_in = 1, .slot = {"X"},
               .in = {r64(3, TU_DIMS(2, 3, 4), 15)}, .diff = {true}, .out_slot = "Out",
               .attrs = transpose_attr, .xshape = true, .n_gin = 2,
               .gin_slot = {"XShape", "Out@GRAD"}, .gin_src = {"xs", "dout"}};
    check_grad(&t);
  }
}
END_TEST

static void squeeze_attr(ic_builder_op *op) { ic_builder_attr_ints(op, "axes", 1, (const int32_t[]){1}); }
static void flatten_attr(ic_builder_op *op) {
  ic_builder_attr_int(op, "start_axis", 1);
  ic_builder_attr_int(op, "stop_axis", 2);
}

static void flatten2_attr(ic_builder_op *op) { ic_builder_attr_int(op, "axis", 2); }

START_TEST(xshape_grads) {
  gcase sq = {.fwd = "squeeze2", .grad = "squeeze2_grad", .n_in = 1, .slot = {"X"},
              .in = {r64(3, TU_DIMS(3, 1, 4), 22)}, .diff = {true}, .out_slot = "Out",
              .attrs = squeeze_attr, .xshape = true, .n_gin = 2,
              .gin_slot = {"XShape", "Out@GRAD"}, .gin_src = {"xs", "dout"}};
  check_grad(&sq);
  gcase un = {.fwd = "unsqueeze2", .grad = "unsqueeze2_grad", .n_in = 1, .slot = {"X"},
              .in = {r64(2, TU_DIMS(3, 4), 23)}, .diff = {true}, .out_slot = "Out",
              .attrs = squeeze_attr, .xshape = true, .n_gin = 2,
              .gin_slot = {"XShape", "Out@GRAD"}, .gin_src = {"xs", "dout"}};
  check_grad(&un);
  gcase fl = {.fwd = "flatten_contiguous_range", .grad = "flatten_contiguous_range_grad",
              .n_in = 1, .slot = {"X"}, .in = {r64(4, TU_DIMS(2, 3, 4, 2), 24)}, .diff = {true},
              .out_slot = "Out", .attrs = flatten_attr, .xshape = true, .n_gin = 2,
              .gin_slot = {"XShape", "Out@GRAD"}, .gin_src = {"xs", "dout"}};
  check_grad(&fl);
  gcase f2 = {.fwd = "flatten2", .grad = "flatten2_grad", .n_in = 1, .slot = {"X"},
              .in = {r64(3, TU_DIMS(2, 3, 4), 25)}, .diff = {true}, .out_slot = "Out",
              .attrs = flatten2_attr, .xshape = true, .n_gin = 3,
              .gin_slot = {"XShape", "X", "Out@GRAD"}, .gin_src = {"xs", "in0", "dout"}};
  check_grad(&f2);
}
END_TEST

static bool g_sce_norm;
static void sce_attrs(ic_builder_op *op) {
  ic_builder_attr_bool(op, "normalize", g_sce_norm);
  ic_builder_attr_int(op, "ignore_index", -1);
}

START_TEST(sigmoid_cross_entropy_grad) {
  for (int k = 0; k < 2; k++) {
    g_sce_norm = k == 1;
    ic_tensor *l = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 26, 0, 1);
    ((double *)ic_tensor_data(l))[5] = -1; /* ignored */
    gcase g = {.fwd = "sigmoid_cross_entropy_with_logits",
               .grad = "sigmoid_cross_entropy_with_logits_grad", .n_in = 2,
               .slot = {"X", "Label"}, .in = {ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 25, -3, 3), l},
               .diff = {true, false}, .out_slot = "Out", .attrs = sce_attrs, .n_gin = 3,
               .gin_slot = {"X", "Label", "Out@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
    check_grad(&g);
  }
  /* the loss itself against the formula in double */
  g_sce_norm = true;
  ic_tensor *x = tu_f64(1, TU_DIMS(3), (const double[]){-2, 0.5, 30});
  ic_tensor *l = tu_f64(1, TU_DIMS(3), (const double[]){1, 0.25, -1});
  gcase g = {.fwd = "sigmoid_cross_entropy_with_logits", .n_in = 2, .slot = {"X", "Label"},
             .in = {x, l}, .out_slot = "Out", .attrs = sce_attrs};
  ic_tensor *out;
  forward(&g, g.in, &out, NULL, NULL);
  tu_assert_close(out, (const double[]){(2 + log1p(exp(-2.0))) / 2,
                                        (0.5 - 0.125 + log1p(exp(-0.5))) / 2, 0}, 3, 1e-14, 0);
  ic_tensor_destroy(out);
  ic_tensor_destroy(x);
  ic_tensor_destroy(l);
}
END_TEST

static void huber_attr(ic_builder_op *op) { ic_builder_attr_float(op, "delta", 0.5f); }

/* huber_loss (smooth_l1_loss's op) and its grad: both inputs' gradients from Residual against
 * central differences (residuals in [-2, 2] with delta 0.5: both branches), and the loss and
 * Residual themselves against the formula. */
START_TEST(huber_loss_grad) {
  gcase g = {.fwd = "huber_loss", .grad = "huber_loss_grad", .n_in = 2, .slot = {"X", "Y"},
             .in = {r64(2, TU_DIMS(4, 3), 41), r64(2, TU_DIMS(4, 3), 42)}, .diff = {true, true},
             .out_slot = "Out", .extra_slot = "Residual", .attrs = huber_attr, .n_gin = 2,
             .gin_slot = {"Residual", "Out@GRAD"}, .gin_src = {"extra", "dout"}};
  check_grad(&g);
  ic_tensor *x = tu_f64(1, TU_DIMS(4), (const double[]){0, 1, -1, 0.25});
  ic_tensor *y = tu_f64(1, TU_DIMS(4), (const double[]){0.5, -1, 0.5, 0});
  gcase f = {.fwd = "huber_loss", .n_in = 2, .slot = {"X", "Y"}, .in = {x, y},
             .out_slot = "Out", .extra_slot = "Residual", .attrs = huber_attr};
  ic_tensor *out, *res;
  forward(&f, f.in, &out, &res, NULL);
  /* r = 0.5 (|r| <= delta: 0.5 r^2), -2 and 1.5 (delta (|r| - delta / 2)), -0.25 */
  tu_assert_close(out, (const double[]){0.125, 0.875, 0.625, 0.03125}, 4, 1e-15, 0);
  tu_assert_close(res, (const double[]){0.5, -2, 1.5, -0.25}, 4, 0, 0);
  ic_tensor_destroy(out);
  ic_tensor_destroy(res);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
}
END_TEST

static void ls_attr(ic_builder_op *op) { ic_builder_attr_float(op, "epsilon", 0.1f); }
static void norm_attr(ic_builder_op *op) { ic_builder_attr_int(op, "axis", 1); }
static bool g_ts_nhwc;
static void ts_attr(ic_builder_op *op) {
  ic_builder_attr_int(op, "seg_num", 3);
  ic_builder_attr_float(op, "shift_ratio", 0.25f);
  ic_builder_attr_string(op, "data_format", g_ts_nhwc ? "NHWC" : "NCHW");
}

/* label_smooth_grad, bce_loss_grad (X in (0.05, 0.95)), norm_grad (axis 1, with the
 * forward's Norm) and temporal_shift_grad (both layouts) against central differences. */
START_TEST(loss_and_shift_grads) {
  gcase ls = {.fwd = "label_smooth", .grad = "label_smooth_grad", .n_in = 1, .slot = {"X"},
              .in = {r64(2, TU_DIMS(3, 4), 71)}, .diff = {true}, .out_slot = "Out",
              .attrs = ls_attr, .n_gin = 1, .gin_slot = {"Out@GRAD"}, .gin_src = {"dout"}};
  check_grad(&ls);
  gcase bce = {.fwd = "bce_loss", .grad = "bce_loss_grad", .n_in = 2, .slot = {"X", "Label"},
               .in = {ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 72, 0.05, 0.95),
                      ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 73, 0, 1)},
               .diff = {true, false}, .out_slot = "Out", .n_gin = 3,
               .gin_slot = {"X", "Label", "Out@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
  check_grad(&bce);
  gcase nm = {.fwd = "norm", .grad = "norm_grad", .n_in = 1, .slot = {"X"},
              .in = {r64(3, TU_DIMS(2, 4, 3), 74)}, .diff = {true}, .out_slot = "Out",
              .extra_slot = "Norm", .attrs = norm_attr, .n_gin = 3,
              .gin_slot = {"X", "Norm", "Out@GRAD"}, .gin_src = {"in0", "extra", "dout"}};
  check_grad(&nm);
  for (int l = 0; l < 2; l++) {
    g_ts_nhwc = l == 1;
    gcase ts = {.fwd = "temporal_shift", .grad = "temporal_shift_grad", .n_in = 1,
                .slot = {"X"}, .in = {r64(4, l ? TU_DIMS(6, 2, 2, 8) : TU_DIMS(6, 8, 2, 2), 75)},
                .diff = {true}, .out_slot = "Out", .attrs = ts_attr, .n_gin = 1,
                .gin_slot = {"Out@GRAD"}, .gin_src = {"dout"}};
    check_grad(&ts);
  }
}
END_TEST

static bool g_ac_nchw;
static void ac_attr(ic_builder_op *op) {
  ic_builder_attr_string(op, "data_layout", g_ac_nchw ? "NCHW" : "NHWC");
}

/* affine_channel_grad: X, Scale and Bias against central differences, channels at dim 1
 * (NCHW) and last (NHWC). */
START_TEST(affine_channel_grad) {
  for (int l = 0; l < 2; l++) {
    g_ac_nchw = l == 0;
    gcase g = {.fwd = "affine_channel", .grad = "affine_channel_grad", .n_in = 3,
               .slot = {"X", "Scale", "Bias"},
               .in = {r64(4, l ? TU_DIMS(2, 3, 2, 4) : TU_DIMS(2, 4, 3, 2), 61),
                      r64(1, TU_DIMS(4), 62), r64(1, TU_DIMS(4), 63)},
               .diff = {true, true, true}, .out_slot = "Out", .attrs = ac_attr, .n_gin = 3,
               .gin_slot = {"X", "Scale", "Out@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
    check_grad(&g);
  }
}
END_TEST

/* cos_sim_grad (fluid's cosine similarity of rows): X and Y against central differences, Y
 * with X's rows and Y with one row (compared with every row of X; its gradient sums them). */
START_TEST(cos_sim_grad) {
  for (int one = 0; one < 2; one++) {
    gcase g = {.fwd = "cos_sim", .grad = "cos_sim_grad", .n_in = 2, .slot = {"X", "Y"},
               .in = {r64(2, TU_DIMS(4, 3), 71), r64(2, one ? TU_DIMS(1, 3) : TU_DIMS(4, 3), 72)},
               .diff = {true, true}, .out_slot = "Out", .extra_slot = "XNorm",
               .extra2_slot = "YNorm", .n_gin = 6,
               .gin_slot = {"X", "Y", "Out", "XNorm", "YNorm", "Out@GRAD"},
               .gin_src = {"in0", "in1", "out", "extra", "extra2", "dout"}};
    check_grad(&g);
  }
}
END_TEST

static void sl1_attr(ic_builder_op *op) { ic_builder_attr_float(op, "sigma", 2.0f); }

/* smooth_l1_loss (fluid's, with its Diff) and smooth_l1_loss_grad: the gradients of X and Y
 * from Diff against central differences, without weights and with both weights (sigma 2:
 * |d| < 0.25 quadratic, linear beyond; the inputs reach both), and the loss and Diff against
 * the formula. */
START_TEST(smooth_l1_loss_grad) {
  for (int w = 0; w < 2; w++) {
    gcase g = {.fwd = "smooth_l1_loss", .grad = "smooth_l1_loss_grad", .n_in = w ? 4 : 2,
               .slot = {"X", "Y", "InsideWeight", "OutsideWeight"},
               .in = {r64(2, TU_DIMS(4, 3), 51), r64(2, TU_DIMS(4, 3), 52),
                      w ? r64(2, TU_DIMS(4, 3), 53) : NULL, w ? r64(2, TU_DIMS(4, 3), 54) : NULL},
               .diff = {true, true}, .out_slot = "Out", .extra_slot = "Diff", .attrs = sl1_attr,
               .n_gin = w ? 4 : 2,
               .gin_slot = {"Diff", "Out@GRAD", "InsideWeight", "OutsideWeight"},
               .gin_src = {"extra", "dout", "in2", "in3"}};
    check_grad(&g);
  }
  /* rows (0.1, -0.5) and (1, 0): d = X - Y; sigma 2: 2 d^2 below 0.25, |d| - 0.125 above */
  ic_tensor *x = tu_f64(2, TU_DIMS(2, 2), (const double[]){0.1, 0, 1, 0.2});
  ic_tensor *y = tu_f64(2, TU_DIMS(2, 2), (const double[]){0, 0.5, 0, 0.2});
  gcase f = {.fwd = "smooth_l1_loss", .n_in = 2, .slot = {"X", "Y"}, .in = {x, y},
             .out_slot = "Out", .extra_slot = "Diff", .attrs = sl1_attr};
  ic_tensor *out, *diff;
  forward(&f, f.in, &out, &diff, NULL);
  tu_assert_close(out, (const double[]){2 * 0.01 + 0.5 - 0.125, 1 - 0.125}, 2, 1e-15, 0);
  tu_assert_close(diff, (const double[]){0.1, -0.5, 1, 0}, 4, 1e-15, 0);
  ck_assert_int_eq(ic_tensor_ndim(out), 2);
  ck_assert_int_eq(ic_tensor_dims(out)[1], 1);
  ic_tensor_destroy(out);
  ic_tensor_destroy(diff);
  ic_tensor_destroy(x);
  ic_tensor_destroy(y);
}
END_TEST

static int64_t g_concat_axis;
static void concat_attr(ic_builder_op *op) { ic_builder_attr_int(op, "axis", (int32_t)g_concat_axis); }

/* concat_grad against the slices of Out@GRAD, for each axis (also negative) */
START_TEST(concat_grad) {
  for (int64_t axis = -3; axis < 3; axis++) {
    g_concat_axis = axis;
    int ax = axis < 0 ? (int)axis + 3 : (int)axis;
    int64_t d0[3] = {2, 3, 4}, d1[3] = {2, 3, 4};
    d1[ax] = 1;
    ic_tensor *a = r64(3, d0, 27), *b2 = r64(3, d1, 28);
    ic_builder *fb;
    ew_in fin[] = {{"X", "a", a}, {"X", "b", b2}};
    concat_attr(ew_op_program(&fb, "concat", 2, fin, IC_FP64));
    ic_tensor *out;
    char err[1024];
    ck_assert_msg(ew_run(fb, 2, TU_NAMES("a", "b"), (ic_tensor *const[]){a, b2}, &out, err,
                         sizeof err) == IC_OK, "%s", err);
    ic_builder_destroy(fb);
    ic_tensor *dout = r64(ic_tensor_ndim(out), ic_tensor_dims(out), 29);
    ic_builder *b = ic_builder_create();
    ew_feed(b, "a", a);
    ew_feed(b, "b", b2);
    ew_feed(b, "g", dout);
    ic_builder_op *op = ic_builder_add_op(b, 0, "concat_grad");
    ic_builder_input(op, "X", 2, TU_NAMES("a", "b"));
    ic_builder_in(op, "Out@GRAD", "g");
    ic_builder_output(op, "X@GRAD", 2, TU_NAMES("ga", "gb"));
    ew_fetch(b, "ga", IC_FP64);
    ew_fetch(b, "gb", IC_FP64);
    concat_attr(op);
    ic_tensor *got[2];
    ck_assert_msg(tu_run(b, 3, TU_NAMES("a", "b", "g"), (ic_tensor *const[]){a, b2, dout}, 2,
                         TU_NAMES("ga", "gb"), got, err, sizeof err) == IC_OK, "%s", err);
    /* the gradient of a linear op is its adjoint: <dX, X> summed equals <dOut, Out> */
    double lhs = 0, rhs = 0;
    for (int64_t k = 0; k < 24; k++) lhs += ew_at(got[0], k) * ew_at(a, k);
    for (int64_t k = 0; k < ic_tensor_numel(b2); k++) lhs += ew_at(got[1], k) * ew_at(b2, k);
    for (int64_t k = 0; k < ic_tensor_numel(out); k++) rhs += ew_at(dout, k) * ew_at(out, k);
    ck_assert_msg(fabs(lhs - rhs) < 1e-12, "axis %lld: %g vs %g", (long long)axis, lhs, rhs);
    tu_assert_shape(got[1], IC_FP64, 3, d1);
    for (int i = 0; i < 2; i++) ic_tensor_destroy(got[i]);
    ic_tensor_destroy(a);
    ic_tensor_destroy(b2);
    ic_tensor_destroy(out);
    ic_tensor_destroy(dout);
    ic_builder_destroy(b);
  }
}
END_TEST

static void ce2_attr(ic_builder_op *op) { ic_builder_attr_int(op, "ignore_index", 1); }

/* cross_entropy2 with its gradient; X are probabilities in (0.1, 1) */
START_TEST(cross_entropy2_grad) {
  ic_tensor *x = ew_rand(IC_FP64, 2, TU_DIMS(4, 3), 50, 0.1, 1);
  ic_tensor *l = tu_i64(2, TU_DIMS(4, 1), (const int64_t[]){0, 1, 2, 2});
  gcase g = {.fwd = "cross_entropy2", .grad = "cross_entropy_grad2", .n_in = 2,
             .slot = {"X", "Label"}, .in = {x, l}, .diff = {true, false}, .out_slot = "Y",
             .extra_slot = "MatchX", .attrs = ce2_attr, .xshape = true, .n_gin = 4,
             .gin_slot = {"XShape", "Label", "MatchX", "Y@GRAD"},
             .gin_src = {"xs", "in1", "extra", "dout"}};
  check_grad(&g);
}
END_TEST

static bool g_ce_soft;
static void ce_attr(ic_builder_op *op) {
  ic_builder_attr_bool(op, "soft_label", g_ce_soft);
  ic_builder_attr_int(op, "ignore_index", 1);
}

/* cross_entropy (v1) with its gradient, soft labels and hard labels (one ignored); X are
 * probabilities in (0.1, 1); then the loss against the formula, log(0) taken as -1e20. */
START_TEST(cross_entropy_grad) {
  g_ce_soft = true;
  gcase s = {.fwd = "cross_entropy", .grad = "cross_entropy_grad", .n_in = 2,
             .slot = {"X", "Label"},
             .in = {ew_rand(IC_FP64, 3, TU_DIMS(2, 2, 3), 51, 0.1, 1),
                    ew_rand(IC_FP64, 3, TU_DIMS(2, 2, 3), 52, 0, 1)},
             .diff = {true, false}, .out_slot = "Y", .attrs = ce_attr, .n_gin = 3,
             .gin_slot = {"X", "Label", "Y@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
  check_grad(&s);
  g_ce_soft = false;
  gcase h = {.fwd = "cross_entropy", .grad = "cross_entropy_grad", .n_in = 2,
             .slot = {"X", "Label"},
             .in = {ew_rand(IC_FP64, 2, TU_DIMS(4, 3), 53, 0.1, 1),
                    tu_i64(2, TU_DIMS(4, 1), (const int64_t[]){0, 1, 2, 2})},
             .diff = {true, false}, .out_slot = "Y", .attrs = ce_attr, .n_gin = 3,
             .gin_slot = {"X", "Label", "Y@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
  check_grad(&h);
  /* values: soft -(0.5 log 0.5 + 0.5 log 0) = -0.5 log 0.5 + 0.5e20; hard: row 0 ignored,
   * -log 0.75 */
  ic_tensor *x = tu_f64(2, TU_DIMS(2, 2), (const double[]){0.5, 0, 0.75, 0.25});
  ic_tensor *ls = tu_f64(2, TU_DIMS(2, 2), (const double[]){0.5, 0.5, 0, 1});
  ic_tensor *lh = tu_i64(2, TU_DIMS(2, 1), (const int64_t[]){1, 0}); /* 1 is ignore_index */
  ic_tensor *out;
  g_ce_soft = true;
  gcase f = {.fwd = "cross_entropy", .n_in = 2, .slot = {"X", "Label"}, .in = {x, ls},
             .out_slot = "Y", .attrs = ce_attr};
  forward(&f, f.in, &out, NULL, NULL);
  tu_assert_shape(out, IC_FP64, 2, TU_DIMS(2, 1));
  tu_assert_close(out, (const double[]){-0.5 * log(0.5) + 0.5e20, -log(0.25)}, 2, 1e-15, 0);
  ic_tensor_destroy(out);
  g_ce_soft = false;
  f.in[1] = lh;
  forward(&f, f.in, &out, NULL, NULL);
  tu_assert_close(out, (const double[]){0, -log(0.75)}, 2, 1e-15, 0);
  ic_tensor_destroy(out);
  /* a hard label outside [0, D) that is not ignore_index fails, forward and backward */
  ic_tensor *bad = tu_i64(2, TU_DIMS(2, 1), (const int64_t[]){0, 2});
  ic_tensor *dy1 = tu_f64(2, TU_DIMS(2, 1), (const double[]){1, 1});
  for (int k = 0; k < 2; k++) {
    ic_builder *b = ic_builder_create();
    ew_feed(b, "x", x);
    ew_feed(b, "l", bad);
    if (k) ew_feed(b, "dy", dy1);
    ic_builder_op *op = ic_builder_add_op(b, 0, k ? "cross_entropy_grad" : "cross_entropy");
    ic_builder_in(op, "X", "x");
    ic_builder_in(op, "Label", "l");
    if (k) {
      ic_builder_in(op, "Y@GRAD", "dy");
      ic_builder_out(op, "X@GRAD", "o");
    } else {
      ic_builder_out(op, "Y", "o");
    }
    ce_attr(op);
    ew_fetch(b, "o", IC_FP64);
    ic_tensor *got = NULL;
    char err[1024];
    ck_assert_int_ne(tu_run(b, k ? 3 : 2, TU_NAMES("x", "l", "dy"),
                            (ic_tensor *const[]){x, bad, dy1}, 1, TU_NAMES("o"), &got, err,
                            sizeof err), IC_OK);
    tu_assert_msg(err, k ? "cross_entropy_grad" : "cross_entropy", "'l'", "is 2", "[0, 2)",
                  NULL);
    ic_builder_destroy(b);
  }
  ic_tensor_destroy(dy1);
  ic_tensor_destroy(bad);
  ic_tensor_destroy(x);
  ic_tensor_destroy(ls);
  ic_tensor_destroy(lh);
}
END_TEST

START_TEST(accuracy_counts) {
  ic_tensor *o = tu_f32(2, TU_DIMS(4, 2), (const float[]){0, 0, 0, 0, 0, 0, 0, 0});
  ic_tensor *idx = tu_i64(2, TU_DIMS(4, 2), (const int64_t[]){1, 2, 0, 3, 4, 1, 2, 2});
  ic_tensor *l = tu_i64(2, TU_DIMS(4, 1), (const int64_t[]){2, 1, 4, 0});
  ic_builder *b = ic_builder_create();
  ew_feed(b, "o", o);
  ew_feed(b, "i", idx);
  ew_feed(b, "l", l);
  ic_builder_op *op = ic_builder_add_op(b, 0, "accuracy");
  ic_builder_in(op, "Out", "o");
  ic_builder_in(op, "Indices", "i");
  ic_builder_in(op, "Label", "l");
  ic_builder_out(op, "Accuracy", "acc");
  ic_builder_out(op, "Correct", "cor");
  ic_builder_out(op, "Total", "tot");
  ew_fetch(b, "acc", IC_FP32);
  ew_fetch(b, "cor", IC_INT32);
  ew_fetch(b, "tot", IC_INT32);
  ic_tensor *got[3];
  char err[1024];
  ck_assert_msg(tu_run(b, 3, TU_NAMES("o", "i", "l"), (ic_tensor *const[]){o, idx, l}, 3,
                       TU_NAMES("acc", "cor", "tot"), got, err, sizeof err) == IC_OK, "%s", err);
  /* rows 0 and 2 hit (label 2 in {1, 2}, label 4 in {4, 1}) */
  tu_assert_close(got[0], (const double[]){0.5}, 1, 0, 0);
  ck_assert_int_eq(*(const int32_t *)ic_tensor_cdata(got[1]), 2);
  ck_assert_int_eq(*(const int32_t *)ic_tensor_cdata(got[2]), 4);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(got[i]);
  ic_tensor_destroy(o);
  ic_tensor_destroy(idx);
  ic_tensor_destroy(l);
  ic_builder_destroy(b);
}
END_TEST

static int g_slice_case;
static void slice_attrs_fn(ic_builder_op *op) {
  if (g_slice_case == 0) {
    ic_builder_attr_ints(op, "axes", 2, (const int32_t[]){1, 2});
    ic_builder_attr_ints(op, "starts", 2, (const int32_t[]){1, -3});
    ic_builder_attr_ints(op, "ends", 2, (const int32_t[]){3, 100});
  } else { /* x[:, 2] with the axis dropped */
    ic_builder_attr_ints(op, "axes", 1, (const int32_t[]){1});
    ic_builder_attr_ints(op, "starts", 1, (const int32_t[]){2});
    ic_builder_attr_ints(op, "ends", 1, (const int32_t[]){3});
    ic_builder_attr_ints(op, "decrease_axis", 1, (const int32_t[]){1});
  }
}

START_TEST(slice_grad) {
  for (g_slice_case = 0; g_slice_case < 2; g_slice_case++) {
    gcase g = {.fwd = "slice", .grad = "slice_grad", .n_in = 1, .slot = {"Input"},
               .in = {r64(3, TU_DIMS(2, 4, 5), 61)}, .diff = {true}, .out_slot = "Out",
               .attrs = slice_attrs_fn, .n_gin = 2, .gin_slot = {"Input", "Out@GRAD"},
               .gin_src = {"in0", "dout"}};
    check_grad(&g);
  }
}
END_TEST

/* lookup_table_v2_grad: repeated ids accumulate, a padding row (also given as a negative
 * padding_idx) gets no gradient, as the forward op's zero row has none; a negative padding_idx
 * other than -1 matches no id (taken literally, as Paddle's kernels do). */
static int64_t g_pad;
static bool g_sparse;
static void pad_attr(ic_builder_op *op) {
  ic_builder_attr_int(op, "padding_idx", (int32_t)g_pad);
  if (g_sparse) ic_builder_attr_bool(op, "is_sparse", true);
}

START_TEST(lookup_table_v2_grad) {
  /* is_sparse (Paddle's SelectedRows gradient) gives the same values, dense (without a
   * padding row: with one, see lookup_sparse_padding_rows) */
  const int64_t pads[] = {-1, 2, -3, -1};
  for (size_t k = 0; k < 4; k++) {
    g_pad = pads[k];
    g_sparse = k == 3;
    ic_tensor *ids = tu_i64(2, TU_DIMS(2, 3), (const int64_t[]){2, 0, 4, 2, 2, 0});
    gcase g = {.fwd = "lookup_table_v2", .grad = "lookup_table_v2_grad", .n_in = 2,
               .slot = {"Ids", "W"}, .in = {ids, r64(2, TU_DIMS(5, 3), 71)},
               .diff = {false, true}, .out_slot = "Out", .attrs = pad_attr, .n_gin = 3,
               .gin_slot = {"W", "Ids", "Out@GRAD"}, .gin_src = {"in1", "in0", "dout"}};
    check_grad(&g);
  }
  g_sparse = false;
  /* lookup_table (v1): Ids [N, 1], padding_idx -1 (none) or a row */
  const int64_t pads1[] = {-1, 2};
  for (size_t k = 0; k < 2; k++) {
    g_pad = pads1[k];
    ic_tensor *ids = tu_i64(3, TU_DIMS(2, 3, 1), (const int64_t[]){2, 0, 4, 2, 2, 0});
    gcase g = {.fwd = "lookup_table", .grad = "lookup_table_grad", .n_in = 2,
               .slot = {"Ids", "W"}, .in = {ids, r64(2, TU_DIMS(5, 3), 74)},
               .diff = {false, true}, .out_slot = "Out", .attrs = pad_attr, .n_gin = 3,
               .gin_slot = {"W", "Ids", "Out@GRAD"}, .gin_src = {"in1", "in0", "dout"}};
    check_grad(&g);
  }
  /* an id out of range is an error naming it, is_sparse or not */
  ic_builder *b = ic_builder_create();
  ic_tensor *w = r64(2, TU_DIMS(5, 3), 72), *ids = tu_i64(1, TU_DIMS(2), (const int64_t[]){1, 5});
  ic_tensor *dout = r64(2, TU_DIMS(2, 3), 73);
  ew_feed(b, "w", w);
  ew_feed(b, "ids", ids);
  ew_feed(b, "dout", dout);
  ic_builder_op *op = ic_builder_add_op(b, 0, "lookup_table_v2_grad");
  ic_builder_in(op, "W", "w");
  ic_builder_in(op, "Ids", "ids");
  ic_builder_in(op, "Out@GRAD", "dout");
  ic_builder_out(op, "W@GRAD", "dw");
  ew_fetch(b, "dw", IC_FP64);
  ic_tensor *got = NULL;
  char err[1024];
  ic_status st = tu_run(b, 3, TU_NAMES("w", "ids", "dout"), (ic_tensor *const[]){w, ids, dout}, 1,
                        TU_NAMES("dw"), &got, err, sizeof err);
  ck_assert_int_ne(st, IC_OK);
  tu_assert_msg(err, "lookup_table_v2_grad", "Ids", "has id 5 at index 1", "0 to 4", NULL);
  ic_builder_attr_bool(op, "is_sparse", true);
  st = tu_run(b, 3, TU_NAMES("w", "ids", "dout"), (ic_tensor *const[]){w, ids, dout}, 1, TU_NAMES("dw"),
              &got, err, sizeof err);
  ck_assert_int_ne(st, IC_OK);
  tu_assert_msg(err, "lookup_table_v2_grad", "Ids", "has id 5 at index 1", "0 to 4", NULL);
  ic_builder_destroy(b);
  ic_tensor_destroy(w);
  ic_tensor_destroy(ids);
  ic_tensor_destroy(dout);
}
END_TEST

static int64_t g_bna;
static void ln_attr(ic_builder_op *op) {
  ic_builder_attr_int(op, "begin_norm_axis", (int32_t)g_bna);
  ic_builder_attr_float(op, "epsilon", 1e-5f);
}

START_TEST(layer_norm_grad) {
  for (int k = 1; k <= 2; k++) {
    g_bna = k;
    int64_t right = k == 1 ? 12 : 4;
    gcase g = {.fwd = "layer_norm", .grad = "layer_norm_grad", .n_in = 3,
               .slot = {"X", "Scale", "Bias"},
               .in = {r64(3, TU_DIMS(2, 3, 4), 16), r64(1, &right, 17), r64(1, &right, 18)},
               .diff = {true, true, true}, .out_slot = "Y", .extra_slot = "Mean",
               .extra2_slot = "Variance", .attrs = ln_attr, .n_gin = 6,
               .gin_slot = {"X", "Scale", "Bias", "Mean", "Variance", "Y@GRAD"},
               .gin_src = {"in0", "in1", "in2", "extra", "extra2", "dout"}};
    check_grad(&g);
  }
}
END_TEST

static bool g_tx, g_ty;
static void mm_attr(ic_builder_op *op) {
  ic_builder_attr_bool(op, "trans_x", g_tx);
  ic_builder_attr_bool(op, "trans_y", g_ty);
}

START_TEST(matmul_v2_grad) {
  struct {
    int nx, ny;
    int64_t dx[4], dy[4];
    bool tx, ty;
  } cs[] = {{2, 2, {3, 4}, {4, 5}, false, false}, {2, 2, {4, 3}, {4, 5}, true, false},
            {2, 2, {3, 4}, {5, 4}, false, true},  {2, 2, {4, 3}, {5, 4}, true, true},
            {3, 2, {2, 3, 4}, {4, 5}, false, false}, {2, 3, {3, 4}, {2, 4, 5}, false, false},
            {3, 3, {2, 3, 4}, {1, 5, 4}, false, true}, {1, 2, {4}, {4, 5}, false, false},
            {2, 1, {3, 4}, {4}, false, false}, {1, 1, {4}, {4}, false, false},
            {4, 3, {2, 1, 3, 4}, {3, 4, 2}, false, false}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_tx = cs[i].tx;
    g_ty = cs[i].ty;
    gcase g = {.fwd = "matmul_v2", .grad = "matmul_v2_grad", .n_in = 2, .slot = {"X", "Y"},
               .in = {r64(cs[i].nx, cs[i].dx, 19), r64(cs[i].ny, cs[i].dy, 20)},
               .diff = {true, true}, .out_slot = "Out", .attrs = mm_attr, .n_gin = 3,
               .gin_slot = {"X", "Y", "Out@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
    check_grad(&g);
  }
}
END_TEST

/* the legacy matmul: transpose_X / transpose_Y / alpha, 1-D operands (a row X, a column Y,
 * before the transposes), flat batches on both sides or one side a plain matrix paired with
 * every batch of the other (its gradient sums over them) */
static double g_alpha;
static void matmul_attrs(ic_builder_op *op) {
  ic_builder_attr_bool(op, "transpose_X", g_tx);
  ic_builder_attr_bool(op, "transpose_Y", g_ty);
  ic_builder_attr_float(op, "alpha", (float)g_alpha);
}

START_TEST(matmul_grad) {
  struct {
    int nx, ny;
    int64_t dx[4], dy[4];
    bool tx, ty;
    double alpha;
  } cs[] = {{2, 2, {3, 4}, {4, 5}, false, false, 1.0},
            {2, 2, {4, 3}, {4, 5}, true, false, 0.5},
            {2, 2, {3, 4}, {5, 4}, false, true, 2.0},
            {2, 2, {4, 3}, {5, 4}, true, true, -1.5},
            {3, 2, {2, 3, 4}, {4, 5}, false, false, 1.0},   /* Y pairs with every batch */
            {3, 2, {2, 4, 3}, {4, 5}, true, false, 0.25},
            {2, 3, {3, 4}, {2, 4, 5}, false, false, 1.0},   /* X pairs with every batch */
            {4, 3, {2, 1, 3, 4}, {2, 5, 4}, false, true, 0.5}, /* flat batches of 2 */
            {1, 2, {4}, {4, 5}, false, false, 1.0},
            {2, 1, {3, 4}, {4}, false, false, 3.0},
            {1, 1, {4}, {4}, false, false, 1.0},
            {1, 2, {4}, {1, 3}, true, false, 1.0}};          /* [4] transposed: a column */
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_tx = cs[i].tx;
    g_ty = cs[i].ty;
    g_alpha = cs[i].alpha;
    gcase g = {.fwd = "matmul", .grad = "matmul_grad", .n_in = 2, .slot = {"X", "Y"},
               .in = {r64(cs[i].nx, cs[i].dx, 21), r64(cs[i].ny, cs[i].dy, 22)},
               .diff = {true, true}, .out_slot = "Out", .attrs = matmul_attrs, .n_gin = 3,
               .gin_slot = {"X", "Y", "Out@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
    check_grad(&g);
  }
}
END_TEST

/* ---- convolution, pooling, batch_norm ---- */

typedef struct conv_cfg {
  int64_t stride, pad, dil, groups;
  bool nhwc;
  const char *algo;
} conv_cfg;
static conv_cfg g_conv;
static void conv_attrs(ic_builder_op *op) {
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){(int32_t)g_conv.stride, 1});
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){(int32_t)g_conv.pad, 1});
  ic_builder_attr_ints(op, "dilations", 2, (const int32_t[]){(int32_t)g_conv.dil, 1});
  ic_builder_attr_int(op, "groups", (int32_t)g_conv.groups);
  ic_builder_attr_string(op, "data_format", g_conv.nhwc ? "NHWC" : "NCHW");
  ic_builder_attr_string(op, "padding_algorithm", g_conv.algo);
}

static void pointwise_attrs(ic_builder_op *op) {
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){0, 0});
  ic_builder_attr_int(op, "groups", 2);
}

START_TEST(conv2d_grad) {
  const conv_cfg cs[] = {{1, 0, 1, 1, false, "EXPLICIT"}, {2, 1, 1, 1, false, "EXPLICIT"},
                         {1, 1, 2, 2, false, "EXPLICIT"}, {1, 1, 1, 1, true, "EXPLICIT"},
                         {2, 0, 1, 1, false, "SAME"}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_conv = cs[i];
    const int64_t *xd = g_conv.nhwc ? TU_DIMS(2, 5, 6, 4) : TU_DIMS(2, 4, 5, 6);
    gcase g = {.fwd = "conv2d", .grad = "conv2d_grad", .n_in = 2, .slot = {"Input", "Filter"},
               .in = {r64(4, xd, 40), r64(4, TU_DIMS(6, 4 / g_conv.groups, 3, 2), 41)},
               .diff = {true, true}, .out_slot = "Output", .attrs = conv_attrs, .n_gin = 3,
               .gin_slot = {"Input", "Filter", "Output@GRAD"},
               .gin_src = {"in0", "in1", "dout"}};
    check_grad(&g);
  }
  /* 1 x 1, stride 1, unpadded, 2 groups: the path that reads the input as its own col */
  gcase p = {.fwd = "conv2d", .grad = "conv2d_grad", .n_in = 2, .slot = {"Input", "Filter"},
             .in = {r64(4, TU_DIMS(2, 4, 3, 5), 44), r64(4, TU_DIMS(6, 2, 1, 1), 45)},
             .diff = {true, true}, .out_slot = "Output", .attrs = pointwise_attrs, .n_gin = 3,
             .gin_slot = {"Input", "Filter", "Output@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
  check_grad(&p);
  g_conv = (conv_cfg){1, 1, 1, 4, false, "EXPLICIT"};
  gcase d = {.fwd = "depthwise_conv2d", .grad = "depthwise_conv2d_grad", .n_in = 2,
             .slot = {"Input", "Filter"},
             .in = {r64(4, TU_DIMS(2, 4, 5, 6), 42), r64(4, TU_DIMS(8, 1, 3, 2), 43)},
             .diff = {true, true}, .out_slot = "Output", .attrs = conv_attrs, .n_gin = 3,
             .gin_slot = {"Input", "Filter", "Output@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
  check_grad(&d);
}
END_TEST

static conv_cfg g_conv3;
static void conv3d_attrs(ic_builder_op *op) {
  const int32_t st = (int32_t)g_conv3.stride, p = (int32_t)g_conv3.pad, d = (int32_t)g_conv3.dil;
  ic_builder_attr_ints(op, "strides", 3, (const int32_t[]){st, 1, st});
  if (g_conv3.pad < 0) { /* 6 paddings, asymmetric */
    ic_builder_attr_ints(op, "paddings", 6, (const int32_t[]){1, 0, 0, 1, 2, 1});
  } else {
    ic_builder_attr_ints(op, "paddings", 3, (const int32_t[]){p, 1, p});
  }
  ic_builder_attr_ints(op, "dilations", 3, (const int32_t[]){d, 1, d});
  ic_builder_attr_int(op, "groups", (int32_t)g_conv3.groups);
  ic_builder_attr_string(op, "data_format", g_conv3.nhwc ? "NDHWC" : "NCDHW");
  ic_builder_attr_string(op, "padding_algorithm", g_conv3.algo);
}

START_TEST(conv3d_grad) {
  const conv_cfg cs[] = {{1, 0, 1, 1, false, "EXPLICIT"}, {2, 1, 1, 1, false, "EXPLICIT"},
                         {1, 1, 2, 2, false, "EXPLICIT"}, {1, -1, 1, 2, true, "EXPLICIT"},
                         {2, 0, 1, 1, false, "SAME"},     {1, 0, 1, 1, true, "VALID"}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_conv3 = cs[i];
    const int64_t *xd = g_conv3.nhwc ? TU_DIMS(2, 4, 5, 5, 4) : TU_DIMS(2, 4, 4, 5, 5);
    gcase g = {.fwd = "conv3d", .grad = "conv3d_grad", .n_in = 2, .slot = {"Input", "Filter"},
               .in = {r64(5, xd, 49), r64(5, TU_DIMS(4, 4 / g_conv3.groups, 2, 3, 2), 50)},
               .diff = {true, true}, .out_slot = "Output", .attrs = conv3d_attrs, .n_gin = 3,
               .gin_slot = {"Input", "Filter", "Output@GRAD"},
               .gin_src = {"in0", "in1", "dout"}};
    check_grad(&g);
  }
}
END_TEST

static const char *g_gs_mode, *g_gs_pad;
static bool g_gs_align;
static void gs_attrs(ic_builder_op *op) {
  ic_builder_attr_string(op, "mode", g_gs_mode);
  ic_builder_attr_string(op, "padding_mode", g_gs_pad);
  ic_builder_attr_bool(op, "align_corners", g_gs_align);
}

/* grid_sampler_grad: X@GRAD and Grid@GRAD, 2-D and 3-D, every mode and padding_mode, both
 * align_corners; grid values in [-1.3, 1.3] so that padding acts (random points: the kinks at
 * whole coordinates and at the bounds are missed with probability ~1). */
START_TEST(grid_sampler_grad) {
  const struct {
    const char *mode, *pad;
    bool align, three;
  } cs[] = {{"bilinear", "zeros", true, false},      {"bilinear", "zeros", false, false},
            {"bilinear", "border", true, false},     {"bilinear", "border", false, false},
            {"bilinear", "reflection", true, false}, {"bilinear", "reflection", false, false},
            {"nearest", "zeros", false, false},      {"nearest", "reflection", true, false},
            {"bilinear", "zeros", false, true},      {"bilinear", "border", true, true},
            {"bilinear", "reflection", false, true}, {"nearest", "border", false, true}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_gs_mode = cs[i].mode;
    g_gs_pad = cs[i].pad;
    g_gs_align = cs[i].align;
    ic_tensor *x = cs[i].three ? r64(5, TU_DIMS(1, 2, 3, 4, 3), 260 + i)
                               : r64(4, TU_DIMS(2, 2, 4, 5), 260 + i);
    ic_tensor *grid = cs[i].three ? r64(5, TU_DIMS(1, 2, 2, 3, 3), 280 + i)
                                  : r64(4, TU_DIMS(2, 3, 4, 2), 280 + i);
    double *gd = ic_tensor_data(grid);
    for (int64_t k = 0; k < ic_tensor_numel(grid); k++) gd[k] *= 1.3;
    gcase g = {.fwd = "grid_sampler", .grad = "grid_sampler_grad", .n_in = 2,
               .slot = {"X", "Grid"}, .in = {x, grid}, .diff = {true, true},
               .out_slot = "Output", .attrs = gs_attrs, .n_gin = 3,
               .gin_slot = {"X", "Grid", "Output@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
    check_grad(&g);
  }
}
END_TEST

static int64_t g_ra_sampling;
static bool g_ra_aligned;
static void roi_align_attrs(ic_builder_op *op) {
  ic_builder_attr_int(op, "pooled_height", 2);
  ic_builder_attr_int(op, "pooled_width", 3);
  ic_builder_attr_float(op, "spatial_scale", 0.5f);
  ic_builder_attr_int(op, "sampling_ratio", (int32_t)g_ra_sampling);
  ic_builder_attr_bool(op, "aligned", g_ra_aligned);
}

/* roi_align_grad: X@GRAD over two images (RoisNum [2, 1]), boxes inside, across and beyond
 * the map's edges (points outside skipped, clamped ones), sampling_ratio fixed and adaptive,
 * aligned or not. */
START_TEST(roi_align_grad) {
  const struct {
    int64_t sampling;
    bool aligned;
  } cs[] = {{2, false}, {-1, false}, {1, true}, {-1, true}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_ra_sampling = cs[i].sampling;
    g_ra_aligned = cs[i].aligned;
    ic_tensor *rois = r64(2, TU_DIMS(3, 4), 300);
    const double boxes[12] = {0.6, 1.4, 8.2, 7.8, 2.4, 0.9, 11.3, 9.3, -1.7, 0.3, 5.1, 12.1};
    memcpy(ic_tensor_data(rois), boxes, sizeof boxes);
    ic_tensor *num;
    ck_assert_int_eq(ic_tensor_create(IC_INT32, 1, TU_DIMS(2), &num), IC_OK);
    ((int32_t *)ic_tensor_data(num))[0] = 2;
    ((int32_t *)ic_tensor_data(num))[1] = 1;
    gcase g = {.fwd = "roi_align", .grad = "roi_align_grad", .n_in = 3,
               .slot = {"X", "ROIs", "RoisNum"},
               .in = {r64(4, TU_DIMS(2, 2, 5, 6), 301 + i), rois, num},
               .diff = {true, false, false}, .out_slot = "Out", .attrs = roi_align_attrs,
               .n_gin = 4, .gin_slot = {"X", "ROIs", "RoisNum", "Out@GRAD"},
               .gin_src = {"in0", "in1", "in2", "dout"}};
    check_grad(&g);
  }
}
END_TEST

static const char *g_sp_type;
static void seqpool_attrs(ic_builder_op *op) {
  ic_builder_attr_string(op, "pooltype", g_sp_type);
  ic_builder_attr_float(op, "pad_value", 0.5f);
}

/* sequence_pool_grad: every pooltype over sequences of lengths 2, 0 (pad_value: no
 * gradient), 3 and 2, rows of 2 x 2 */
START_TEST(sequence_pool_grad) {
  const char *types[] = {"AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST"};
  for (size_t i = 0; i < 6; i++) {
    g_sp_type = types[i];
    ic_tensor *x = r64(3, TU_DIMS(7, 2, 2), 320 + i);
    const uint64_t lv0[5] = {0, 2, 2, 5, 7};
    const size_t lens[1] = {5};
    const uint64_t *lv[1] = {lv0};
    ck_assert_int_eq(ic_tensor_set_lod(x, 1, lens, lv), IC_OK);
    const bool max = !strcmp(types[i], "MAX");
    gcase g = {.fwd = "sequence_pool", .grad = "sequence_pool_grad", .n_in = 1, .slot = {"X"},
               .in = {x}, .diff = {true}, .out_slot = "Out",
               .extra_slot = max ? "MaxIndex" : NULL, .attrs = seqpool_attrs,
               .n_gin = max ? 3 : 2,
               .gin_slot = {"X", max ? "MaxIndex" : "Out@GRAD", "Out@GRAD"},
               .gin_src = {"in0", max ? "extra" : "dout", "dout"}};
    check_grad(&g);
  }
}
END_TEST

static int64_t g_se_ref;
static void seqexpand_attrs(ic_builder_op *op) {
  ic_builder_attr_int(op, "ref_level", (int32_t)g_se_ref);
}

/* sequence_expand_grad: X without LoD (rows repeated 2, 0, 3 times), X with LoD (sequences
 * of 1, 2, 1 rows repeated 1, 2, 1 times), Y with two levels and ref_level 0, and a level
 * with a single offset (the forward copies X) */
START_TEST(sequence_expand_grad) {
  for (int v = 0; v < 4; v++) {
    ic_tensor *x = r64(2, v == 0 || v == 2 ? TU_DIMS(3, 2) : TU_DIMS(4, 2), 340 + v);
    if (v == 1 || v == 3) {
      const uint64_t xl[4] = {0, 1, 3, 4};
      const size_t n[1] = {v == 1 ? 4 : 2};
      const uint64_t *lv[1] = {xl};
      static const uint64_t one[2] = {0, 4};
      if (v == 3) lv[0] = one;
      ck_assert_int_eq(ic_tensor_set_lod(x, 1, n, lv), IC_OK);
    }
    ic_tensor *y = r64(2, TU_DIMS(5, 1), 350 + v);
    g_se_ref = v == 2 ? 0 : -1;
    if (v == 2) { /* two levels: level 0 [0, 1, 1, 3] repeats rows 1, 0, 2 times */
      const uint64_t l0[4] = {0, 1, 1, 3}, l1[4] = {0, 2, 4, 5};
      const size_t n[2] = {4, 4};
      const uint64_t *lv[2] = {l0, l1};
      ck_assert_int_eq(ic_tensor_set_lod(y, 2, n, lv), IC_OK);
    } else {
      const uint64_t l0[4] = {0, 2, 2, 5}, l1[4] = {0, 1, 3, 5}, l3[2] = {0, 5};
      const size_t n[1] = {v == 3 ? 2 : 4};
      const uint64_t *lv[1] = {v == 0 ? l0 : v == 1 ? l1 : l3};
      ck_assert_int_eq(ic_tensor_set_lod(y, 1, n, lv), IC_OK);
    }
    gcase g = {.fwd = "sequence_expand", .grad = "sequence_expand_grad", .n_in = 2,
               .slot = {"X", "Y"}, .in = {x, y}, .diff = {true, false}, .out_slot = "Out",
               .attrs = seqexpand_attrs, .n_gin = 3, .gin_slot = {"X", "Y", "Out@GRAD"},
               .gin_src = {"in0", "in1", "dout"}};
    check_grad(&g);
  }
}
END_TEST

/* sequence_softmax_grad: sequences of 2, 0, 4 and 1 rows, X [7] and [7, 1] */
START_TEST(sequence_softmax_grad) {
  for (int v = 0; v < 2; v++) {
    ic_tensor *x = v ? r64(2, TU_DIMS(7, 1), 360) : r64(1, TU_DIMS(7), 361);
    const uint64_t l0[5] = {0, 2, 2, 6, 7};
    const size_t n[1] = {5};
    const uint64_t *lv[1] = {l0};
    ck_assert_int_eq(ic_tensor_set_lod(x, 1, n, lv), IC_OK);
    gcase g = {.fwd = "sequence_softmax", .grad = "sequence_softmax_grad", .n_in = 1,
               .slot = {"X"}, .in = {x}, .diff = {true}, .out_slot = "Out", .n_gin = 3,
               .gin_slot = {"X", "Out", "Out@GRAD"}, .gin_src = {"in0", "out", "dout"}};
    check_grad(&g);
  }
}
END_TEST

static int64_t g_sc_len, g_sc_start;
static bool g_sc_trainable;
static void seqconv_attrs(ic_builder_op *op) {
  ic_builder_attr_int(op, "contextLength", (int32_t)g_sc_len);
  ic_builder_attr_int(op, "contextStart", (int32_t)g_sc_start);
  ic_builder_attr_int(op, "contextStride", 1);
  ic_builder_attr_bool(op, "paddingTrainable", g_sc_trainable);
}

/* sequence_conv_grad in float64 (the Paddle oracle in test_paddle_seq_grad is float32): X,
 * Filter and trainable PaddingData over sequences of 3, 0, 1 and 4 rows, windows reaching
 * before, across and past the sequences' ends */
START_TEST(sequence_conv_grad) {
  const struct {
    int64_t len, start;
    bool trainable;
  } cs[] = {{3, -1, false}, {3, -1, true}, {5, -3, true}, {2, 1, true}, {4, 0, false}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_sc_len = cs[i].len;
    g_sc_start = cs[i].start;
    g_sc_trainable = cs[i].trainable;
    const int64_t up = cs[i].start < 0 ? -cs[i].start : 0;
    const int64_t down = cs[i].start + cs[i].len - 1 > 0 ? cs[i].start + cs[i].len - 1 : 0;
    ic_tensor *x = r64(2, TU_DIMS(8, 2), 370 + i);
    const uint64_t l0[5] = {0, 3, 3, 4, 8};
    const size_t n[1] = {5};
    const uint64_t *lv[1] = {l0};
    ck_assert_int_eq(ic_tensor_set_lod(x, 1, n, lv), IC_OK);
    ic_tensor *f = r64(2, TU_DIMS(cs[i].len * 2, 3), 380 + i);
    if (cs[i].trainable) {
      gcase g = {.fwd = "sequence_conv", .grad = "sequence_conv_grad", .n_in = 3,
                 .slot = {"X", "Filter", "PaddingData"},
                 .in = {x, f, r64(2, TU_DIMS(up + down, 2), 390 + i)},
                 .diff = {true, true, true}, .out_slot = "Out", .attrs = seqconv_attrs,
                 .n_gin = 4, .gin_slot = {"X", "Filter", "PaddingData", "Out@GRAD"},
                 .gin_src = {"in0", "in1", "in2", "dout"}};
      check_grad(&g);
    } else {
      gcase g = {.fwd = "sequence_conv", .grad = "sequence_conv_grad", .n_in = 2,
                 .slot = {"X", "Filter"}, .in = {x, f}, .diff = {true, true},
                 .out_slot = "Out", .attrs = seqconv_attrs, .n_gin = 3,
                 .gin_slot = {"X", "Filter", "Out@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
      check_grad(&g);
    }
  }
}
END_TEST

/* sequence_expand_as_grad in float64: rows repeated 2, 0, 3 and 1 times */
START_TEST(sequence_expand_as_grad) {
  ic_tensor *x = r64(2, TU_DIMS(4, 3), 400);
  ic_tensor *y = r64(2, TU_DIMS(6, 1), 401);
  const uint64_t l0[5] = {0, 2, 2, 5, 6};
  const size_t n[1] = {5};
  const uint64_t *lv[1] = {l0};
  ck_assert_int_eq(ic_tensor_set_lod(y, 1, n, lv), IC_OK);
  gcase g = {.fwd = "sequence_expand_as", .grad = "sequence_expand_as_grad", .n_in = 2,
             .slot = {"X", "Y"}, .in = {x, y}, .diff = {true, false}, .out_slot = "Out",
             .n_gin = 3, .gin_slot = {"X", "Y", "Out@GRAD"}, .gin_src = {"in0", "in1", "dout"}};
  check_grad(&g);
}
END_TEST

typedef struct convt_cfg {
  int64_t sh, sw, pad, dil, groups, opad; /* opad: output_padding (both), -1 none */
  bool nhwc, osize;                       /* osize: output_size one above the base */
  const char *algo;
} convt_cfg;
static convt_cfg g_convt;
static void convt_attrs(ic_builder_op *op) {
  const convt_cfg *c = &g_convt;
  ic_builder_attr_ints(op, "strides", 2, (const int32_t[]){(int32_t)c->sh, (int32_t)c->sw});
  ic_builder_attr_ints(op, "paddings", 4,
                       (const int32_t[]){(int32_t)c->pad, 0, (int32_t)c->pad, 1});
  ic_builder_attr_ints(op, "dilations", 2, (const int32_t[]){(int32_t)c->dil, 1});
  ic_builder_attr_int(op, "groups", (int32_t)c->groups);
  if (c->opad >= 0) {
    ic_builder_attr_ints(op, "output_padding", 2,
                         (const int32_t[]){(int32_t)c->opad, (int32_t)c->opad});
  }
  if (c->osize) {
    /* input 4 x 5, kernel 3 x 2, paddings [pad, 0, pad, 1]: the base sizes plus one */
    int32_t oh = (int32_t)(3 * c->sh - c->pad + c->dil * 2 + 1) + 1;
    int32_t ow = (int32_t)(4 * c->sw - c->pad - 1 + 1 + 1) + 1;
    ic_builder_attr_ints(op, "output_size", 2, (const int32_t[]){oh, ow});
  }
  ic_builder_attr_string(op, "data_format", c->nhwc ? "NHWC" : "NCHW");
  ic_builder_attr_string(op, "padding_algorithm", c->algo);
}

START_TEST(conv2d_transpose_grad) {
  const convt_cfg cs[] = {{1, 1, 0, 1, 1, -1, false, false, "EXPLICIT"},
                          {2, 3, 1, 1, 1, -1, false, false, "EXPLICIT"},
                          {2, 2, 1, 2, 2, 1, false, false, "EXPLICIT"},
                          {2, 2, 0, 1, 1, -1, false, true, "EXPLICIT"},
                          {2, 1, 1, 1, 2, -1, true, false, "EXPLICIT"},
                          {2, 2, 0, 1, 1, -1, false, false, "SAME"},
                          {2, 1, 0, 1, 1, -1, true, false, "VALID"}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_convt = cs[i];
    const int64_t *xd = g_convt.nhwc ? TU_DIMS(2, 4, 5, 4) : TU_DIMS(2, 4, 4, 5);
    gcase g = {.fwd = "conv2d_transpose", .grad = "conv2d_transpose_grad", .n_in = 2,
               .slot = {"Input", "Filter"},
               .in = {r64(4, xd, 44), r64(4, TU_DIMS(4, 3, 3, 2), 45)},
               .diff = {true, true}, .out_slot = "Output", .attrs = convt_attrs, .n_gin = 3,
               .gin_slot = {"Input", "Filter", "Output@GRAD"},
               .gin_src = {"in0", "in1", "dout"}};
    check_grad(&g);
  }
  const convt_cfg ds[] = {{1, 1, 1, 1, 4, -1, false, false, "EXPLICIT"},
                          {2, 2, 0, 1, 4, 1, true, false, "EXPLICIT"}};
  for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
    g_convt = ds[i];
    const int64_t *xd = g_convt.nhwc ? TU_DIMS(2, 4, 5, 4) : TU_DIMS(2, 4, 4, 5);
    gcase d = {.fwd = "depthwise_conv2d_transpose", .grad = "depthwise_conv2d_transpose_grad",
               .n_in = 2, .slot = {"Input", "Filter"},
               .in = {r64(4, xd, 46), r64(4, TU_DIMS(4, 2, 3, 2), 47)},
               .diff = {true, true}, .out_slot = "Output", .attrs = convt_attrs, .n_gin = 3,
               .gin_slot = {"Input", "Filter", "Output@GRAD"},
               .gin_src = {"in0", "in1", "dout"}};
    check_grad(&d);
  }
}
END_TEST

typedef struct pool_cfg {
  const char *type;
  int64_t k, stride, pad;
  bool exclusive, global, adaptive, ceil;
} pool_cfg;
static pool_cfg g_pool;
static void pool_attrs_fn(ic_builder_op *op) {
  ic_builder_attr_string(op, "pooling_type", g_pool.type);
  ic_builder_attr_ints(op, "ksize", 2, (const int32_t[]){(int32_t)g_pool.k, (int32_t)g_pool.k});
  ic_builder_attr_ints(op, "strides", 2,
                       (const int32_t[]){(int32_t)g_pool.stride, (int32_t)g_pool.stride});
  ic_builder_attr_ints(op, "paddings", 2, (const int32_t[]){(int32_t)g_pool.pad, (int32_t)g_pool.pad});
  ic_builder_attr_bool(op, "exclusive", g_pool.exclusive);
  ic_builder_attr_bool(op, "global_pooling", g_pool.global);
  ic_builder_attr_bool(op, "adaptive", g_pool.adaptive);
  ic_builder_attr_bool(op, "ceil_mode", g_pool.ceil);
}

START_TEST(pool2d_grad) {
  const pool_cfg cs[] = {{"max", 2, 2, 0, true, false, false, false},
                         {"max", 3, 2, 1, true, false, false, true},
                         {"avg", 3, 2, 1, true, false, false, false},
                         {"avg", 3, 2, 1, false, false, false, false},
                         {"avg", 2, 1, 0, true, true, false, false},
                         {"avg", 2, 2, 0, true, false, true, false},
                         {"max", 2, 2, 0, true, true, false, false}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_pool = cs[i];
    /* distinct values, at least 1e-3 apart, so that a max never ties within h */
    ic_tensor *x = r64(4, TU_DIMS(2, 3, 5, 5), 44);
    double *xd = ic_tensor_data(x);
    for (int k = 0; k < 150; k++) xd[k] = (double)((k * 37) % 150) / 150.0 - 0.5;
    gcase g = {.fwd = "pool2d", .grad = "pool2d_grad", .n_in = 1, .slot = {"X"}, .in = {x},
               .diff = {true}, .out_slot = "Out", .attrs = pool_attrs_fn, .n_gin = 3,
               .gin_slot = {"X", "Out", "Out@GRAD"}, .gin_src = {"in0", "out", "dout"}};
    check_grad(&g);
  }
}
END_TEST

/* pool2d then pool2d_grad on x (float32 or float64) and g; returns X@GRAD. */
static ic_tensor *pool_grad_of(ic_tensor *x, ic_tensor *g) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "x", x);
  ew_feed(b, "g", g);
  ic_builder_var(b, 0, "out", ic_tensor_dtype(x), 0, NULL, false);
  ic_builder_op *op = ic_builder_add_op(b, 0, "pool2d");
  ic_builder_in(op, "X", "x");
  ic_builder_out(op, "Out", "out");
  pool_attrs_fn(op);
  op = ic_builder_add_op(b, 0, "pool2d_grad");
  ic_builder_in(op, "X", "x");
  ic_builder_in(op, "Out", "out");
  ic_builder_in(op, "Out@GRAD", "g");
  ic_builder_out(op, "X@GRAD", "dx");
  pool_attrs_fn(op);
  ew_fetch(b, "dx", ic_tensor_dtype(x));
  ic_tensor *dx = NULL;
  char err[1024];
  ic_status st = tu_run(b, 2, TU_NAMES("x", "g"), (ic_tensor *const[]){x, g}, 1, TU_NAMES("dx"),
                        &dx, err, sizeof err);
  ck_assert_msg(st == IC_OK, "pool2d_grad %s k%lld s%lld p%lld: %s", g_pool.type,
                (long long)g_pool.k, (long long)g_pool.stride, (long long)g_pool.pad, err);
  ic_builder_destroy(b);
  return dx;
}

/* Max pooling in float32 with windows that do not overlap takes a direct path (no double
 * accumulator): it must give what the general loop gives in float64 for the same values,
 * rounded to float32, bit for bit; with ties (the first element in row order takes the
 * gradient), padding, partial ceil_mode windows, and gradients of -0 (stored as +0, as the
 * accumulating loop does). An overlapping configuration checks the general loop likewise. */
static bool g_p3_ndhwc;
static void pool3d_attrs_fn(ic_builder_op *op) {
  const int32_t k = (int32_t)g_pool.k, st = (int32_t)g_pool.stride, p = (int32_t)g_pool.pad;
  ic_builder_attr_string(op, "pooling_type", g_pool.type);
  ic_builder_attr_ints(op, "ksize", 3, (const int32_t[]){k, k, k - 1 > 0 ? k - 1 : 1});
  ic_builder_attr_ints(op, "strides", 3, (const int32_t[]){st, 1, st});
  ic_builder_attr_ints(op, "paddings", 3, (const int32_t[]){p, 0, p});
  ic_builder_attr_bool(op, "exclusive", g_pool.exclusive);
  ic_builder_attr_bool(op, "global_pooling", g_pool.global);
  ic_builder_attr_bool(op, "adaptive", g_pool.adaptive);
  ic_builder_attr_bool(op, "ceil_mode", g_pool.ceil);
  ic_builder_attr_string(op, "data_format", g_p3_ndhwc ? "NDHWC" : "NCDHW");
}

/* pool3d_grad: windows of k x k x (k-1), strides (s, 1, s), paddings (p, 0, p): max with
 * overlapping and padded windows and ceil_mode, avg exclusive and not, global, adaptive, and
 * NDHWC. */
START_TEST(pool3d_grad) {
  const pool_cfg cs[] = {{"max", 2, 2, 0, true, false, false, false},
                         {"max", 3, 2, 1, true, false, false, true},
                         {"avg", 3, 2, 1, true, false, false, false},
                         {"avg", 3, 2, 1, false, false, false, true},
                         {"avg", 2, 1, 0, true, true, false, false},
                         {"avg", 2, 2, 0, true, false, true, false},
                         {"max", 2, 2, 0, true, true, false, false}};
  for (size_t i = 0; i < 2 * sizeof cs / sizeof cs[0]; i++) {
    g_pool = cs[i % (sizeof cs / sizeof cs[0])];
    g_p3_ndhwc = i >= sizeof cs / sizeof cs[0];
    if (g_p3_ndhwc && i % 2) continue; /* NDHWC: every other config */
    /* distinct values, at least 1e-3 apart, so that a max never ties within h */
    /* D x H x W = 4 x 5 x 4 both ways: ceil_mode makes no empty window (whose -FLT_MAX
     * output would drown the finite differences) */
    ic_tensor *x = r64(5, g_p3_ndhwc ? TU_DIMS(2, 4, 5, 4, 3) : TU_DIMS(2, 3, 4, 5, 4), 48);
    double *xd = ic_tensor_data(x);
    for (int k = 0; k < 480; k++) xd[k] = (double)((k * 97) % 480) / 480.0 - 0.5;
    gcase g = {.fwd = "pool3d", .grad = "pool3d_grad", .n_in = 1, .slot = {"X"}, .in = {x},
               .diff = {true}, .out_slot = "Out", .attrs = pool3d_attrs_fn, .n_gin = 3,
               .gin_slot = {"X", "Out", "Out@GRAD"}, .gin_src = {"in0", "out", "dout"}};
    check_grad(&g);
  }
}
END_TEST

START_TEST(pool2d_grad_float32) {
  const pool_cfg cs[] = {{"max", 2, 2, 0, true, false, false, false},
                         {"max", 2, 3, 1, true, false, false, false},
                         {"max", 2, 2, 0, true, false, false, true},
                         {"max", 3, 2, 1, true, false, false, false}};
  const int64_t *d = TU_DIMS(2, 3, 7, 7);
  int64_t n = 2 * 3 * 7 * 7;
  float xv[2 * 3 * 7 * 7], gv[2 * 3 * 4 * 4];
  for (int64_t i = 0; i < n; i++) xv[i] = (float)((i * 7) % 5) * 0.25f - 0.5f; /* many ties */
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    g_pool = cs[i];
    int64_t oh = g_pool.ceil ? (7 + 2 * g_pool.pad - g_pool.k + g_pool.stride - 1) / g_pool.stride + 1
                             : (7 + 2 * g_pool.pad - g_pool.k) / g_pool.stride + 1;
    int64_t ng = 2 * 3 * oh * oh;
    ck_assert_int_le(ng, (int64_t)(sizeof gv / sizeof gv[0]));
    for (int64_t k = 0; k < ng; k++) gv[k] = k % 4 == 0 ? -0.0f : (float)((k * 13) % 17) / 8.0f - 1.0f;
    double xd[2 * 3 * 7 * 7], gd[2 * 3 * 4 * 4];
    for (int64_t k = 0; k < n; k++) xd[k] = xv[k];
    for (int64_t k = 0; k < ng; k++) gd[k] = gv[k];
    const int64_t *gdims = TU_DIMS(2, 3, oh, oh);
    ic_tensor *x32 = tu_f32(4, d, xv), *g32 = tu_f32(4, gdims, gv);
    ic_tensor *x64 = tu_f64(4, d, xd), *g64 = tu_f64(4, gdims, gd);
    ic_tensor *dx32 = pool_grad_of(x32, g32), *dx64 = pool_grad_of(x64, g64);
    const float *a = ic_tensor_cdata(dx32);
    const double *r = ic_tensor_cdata(dx64);
    int nonzero = 0;
    for (int64_t k = 0; k < n; k++) {
      float want = (float)r[k];
      nonzero += want != 0;
      ck_assert_msg(memcmp(&a[k], &want, sizeof want) == 0,
                    "case %zu element %lld: float32 %a, float64 path %a", i, (long long)k,
                    (double)a[k], (double)want);
    }
    ck_assert_int_gt(nonzero, 0);
    ic_tensor_destroy(x32);
    ic_tensor_destroy(g32);
    ic_tensor_destroy(x64);
    ic_tensor_destroy(g64);
    ic_tensor_destroy(dx32);
    ic_tensor_destroy(dx64);
  }
}
END_TEST

static bool g_bn_nhwc, g_bn_global;
static void bn_attrs_fn(ic_builder_op *op) {
  ic_builder_attr_float(op, "epsilon", 1e-5f);
  ic_builder_attr_float(op, "momentum", 0.9f);
  ic_builder_attr_string(op, "data_layout", g_bn_nhwc ? "NHWC" : "NCHW");
  ic_builder_attr_bool(op, "is_test", false);
  ic_builder_attr_bool(op, "use_global_stats", g_bn_global);
}

START_TEST(batch_norm_grad) {
  for (int mode = 0; mode < 3; mode++) {
    g_bn_nhwc = mode == 1;
    g_bn_global = mode == 2;
    const int64_t *xd = g_bn_nhwc ? TU_DIMS(2, 3, 4, 3) : TU_DIMS(2, 3, 3, 4);
    ic_tensor *var = ew_rand(IC_FP64, 1, TU_DIMS(3), 49, 0.5, 1.5);
    gcase g = {.fwd = "batch_norm", .grad = "batch_norm_grad", .n_in = 5,
               .slot = {"X", "Scale", "Bias", "Mean", "Variance"},
               .in = {r64(4, xd, 45), r64(1, TU_DIMS(3), 46), r64(1, TU_DIMS(3), 47),
                      r64(1, TU_DIMS(3), 48), var},
               .diff = {true, true, true, false, false}, .out_slot = "Y",
               .extra_slot = g_bn_global ? NULL : "SavedMean",
               .extra2_slot = g_bn_global ? NULL : "SavedVariance", .attrs = bn_attrs_fn,
               .n_gin = 6,
               .gin_slot = {"X", "Scale", g_bn_global ? "Mean" : "SavedMean",
                            g_bn_global ? "Variance" : "SavedVariance", "Bias", "Y@GRAD"},
               .gin_src = {"in0", "in1", g_bn_global ? "in3" : "extra",
                           g_bn_global ? "in4" : "extra2", "in2", "dout"}};
    check_grad(&g);
  }
}
END_TEST

/* clip_by_norm and squared_l2_norm against the norm in double */
START_TEST(norm_clipping) {
  ic_tensor *x = r64(2, TU_DIMS(3, 4), 60);
  double s = 0;
  for (int k = 0; k < 12; k++) s += ew_at(x, k) * ew_at(x, k);
  for (int k = 0; k < 2; k++) {
    const float max_norm = k == 0 ? 0.5f : 100.0f; /* clipped, untouched */
    ic_builder *b;
    ew_in in[] = {{"X", "x", x}};
    ic_builder_attr_float(ew_op_program(&b, "clip_by_norm", 1, in, IC_FP64), "max_norm",
                          max_norm);
    ic_tensor *out;
    char err[1024];
    ck_assert_msg(ew_run(b, 1, TU_NAMES("x"), &x, &out, err, sizeof err) == IC_OK, "%s", err);
    double want[12], scale = sqrt(s) > max_norm ? max_norm / sqrt(s) : 1.0;
    for (int i = 0; i < 12; i++) want[i] = ew_at(x, i) * scale;
    tu_assert_close(out, want, 12, 1e-14, 0);
    ic_tensor_destroy(out);
    ic_builder_destroy(b);
  }
  ic_builder *b;
  ew_in in[] = {{"X", "x", x}};
  ew_op_program(&b, "squared_l2_norm", 1, in, IC_FP64);
  ic_tensor *out;
  char err[1024];
  ck_assert_msg(ew_run(b, 1, TU_NAMES("x"), &x, &out, err, sizeof err) == IC_OK, "%s", err);
  tu_assert_shape(out, IC_FP64, 1, TU_DIMS(1));
  tu_assert_close(out, &s, 1, 1e-14, 0);
  ic_tensor_destroy(out);
  ic_builder_destroy(b);
  ic_tensor_destroy(x);
}
END_TEST

/* ---- initializers ---- */

/* truncated_gaussian_random: inside [a, b], the truncated normal's mean and spread, a fixed
 * seed reproducible, and a = mean - 2 std matches the standard truncation. */
START_TEST(truncated_gaussian) {
  ic_tensor *got[2];
  for (int k = 0; k < 2; k++) {
    ic_builder *b = ic_builder_create();
    ic_builder_op *op = ic_builder_add_op(b, 0, "truncated_gaussian_random");
    ic_builder_out(op, "Out", "out");
    ew_fetch(b, "out", IC_FP64);
    ic_builder_attr_ints(op, "shape", 2, (const int32_t[]){100, 100});
    ic_builder_attr_int(op, "dtype", IC_FP64);
    ic_builder_attr_float(op, "mean", 1.0f);
    ic_builder_attr_float(op, "std", 0.5f);
    ic_builder_attr_float(op, "a", 0.0f);
    ic_builder_attr_float(op, "b", 2.0f);
    ic_builder_attr_int(op, "seed", 17);
    char err[1024];
    ck_assert_msg(tu_run(b, 0, NULL, NULL, 1, TU_NAMES("out"), &got[k], err, sizeof err) == IC_OK,
                  "%s", err);
    ic_builder_destroy(b);
  }
  tu_assert_bitwise(got[0], got[1], "same seed");
  double m = 0, m2 = 0;
  for (int64_t i = 0; i < 10000; i++) {
    double v = ew_at(got[0], i);
    ck_assert_msg(v >= 0 && v <= 2, "element %lld = %g outside [0, 2]", (long long)i, v);
    m += v;
    m2 += v * v;
  }
  m /= 10000;
  double sd = sqrt(m2 / 10000 - m * m);
  /* normal(1, 0.5) truncated at +-2 std: mean 1, std 0.5 * 0.8796 = 0.4398 */
  ck_assert_msg(fabs(m - 1) < 0.02, "mean %g", m);
  ck_assert_msg(fabs(sd - 0.4398) < 0.01, "std %g", sd);
  ic_tensor_destroy(got[0]);
  ic_tensor_destroy(got[1]);
}
END_TEST

/* ---- optimizers ---- */

static ic_tensor *scalar64(double v) { return tu_f64(0, NULL, &v); }

static ic_builder *sgd_program(ic_tensor *p, ic_tensor *g, ic_tensor *lr) {
  ic_builder *b = ic_builder_create();
  ew_feed(b, "p", p);
  ew_feed(b, "g", g);
  ew_feed(b, "lr", lr);
  ic_builder_op *op = ic_builder_add_op(b, 0, "sgd");
  ic_builder_in(op, "Param", "p");
  ic_builder_in(op, "Grad", "g");
  ic_builder_in(op, "LearningRate", "lr");
  ic_builder_out(op, "ParamOut", "out");
  ew_fetch(b, "out", IC_FP64);
  return b;
}

START_TEST(sgd_update) {
  ic_tensor *p = r64(2, TU_DIMS(3, 4), 10), *g = r64(2, TU_DIMS(3, 4), 11), *lr = scalar64(0.25);
  ic_builder *b = sgd_program(p, g, lr);
  ic_tensor *out;
  char err[1024];
  ck_assert_msg(tu_run(b, 3, TU_NAMES("p", "g", "lr"), (ic_tensor *const[]){p, g, lr}, 1,
                       TU_NAMES("out"), &out, err, sizeof err) == IC_OK, "%s", err);
  double want[12];
  for (int k = 0; k < 12; k++) want[k] = ew_at(p, k) - 0.25 * ew_at(g, k);
  tu_assert_close(out, want, 12, 0, 0);
  ic_tensor_destroy(out);
  /* a learning rate of two values is refused */
  ic_tensor_destroy(lr);
  lr = tu_f64(1, TU_DIMS(2), (const double[]){1, 2});
  ic_builder_destroy(b);
  b = sgd_program(p, g, lr);
  ck_assert_int_ne(tu_run(b, 3, TU_NAMES("p", "g", "lr"), (ic_tensor *const[]){p, g, lr}, 1,
                          TU_NAMES("out"), &out, err, sizeof err), IC_OK);
  tu_assert_msg(err, "sgd", "LearningRate", "'lr'", "one float64", NULL);
  ic_builder_destroy(b);
  ic_tensor_destroy(p);
  ic_tensor_destroy(g);
  ic_tensor_destroy(lr);
}
END_TEST

/* 0 plain, 1 nesterov, 2 l2_decay, 3 nesterov + l2_decay + rescale_grad */
START_TEST(momentum_update) {
  for (int mode = 0; mode < 4; mode++) {
    const bool nesterov = mode & 1, l2 = mode >= 2;
    const double mu = (float)0.9, rc = (float)0.01, rs = mode == 3 ? (float)0.5 : 1.0;
    ic_tensor *p = r64(2, TU_DIMS(3, 4), 30), *g = r64(2, TU_DIMS(3, 4), 31),
              *v = r64(2, TU_DIMS(3, 4), 32), *lr = scalar64(0.1);
    ic_builder *b = ic_builder_create();
    const char *names[] = {"p", "g", "v", "lr"};
    ic_tensor *ins[] = {p, g, v, lr};
    for (int i = 0; i < 4; i++) ew_feed(b, names[i], ins[i]);
    ic_builder_op *op = ic_builder_add_op(b, 0, "momentum");
    ic_builder_in(op, "Param", "p");
    ic_builder_in(op, "Grad", "g");
    ic_builder_in(op, "Velocity", "v");
    ic_builder_in(op, "LearningRate", "lr");
    ic_builder_out(op, "ParamOut", "po");
    ic_builder_out(op, "VelocityOut", "vo");
    ew_fetch(b, "po", IC_FP64);
    ew_fetch(b, "vo", IC_FP64);
    ic_builder_attr_float(op, "mu", 0.9f);
    ic_builder_attr_bool(op, "use_nesterov", nesterov);
    if (l2) {
      ic_builder_attr_string(op, "regularization_method", "l2_decay");
      ic_builder_attr_float(op, "regularization_coeff", 0.01f);
    }
    if (mode == 3) ic_builder_attr_float(op, "rescale_grad", 0.5f);
    ic_tensor *got[2];
    char err[1024];
    ck_assert_msg(tu_run(b, 4, names, ins, 2, TU_NAMES("po", "vo"), got, err, sizeof err) == IC_OK,
                  "%s", err);
    double wp[12], wv[12];
    for (int k = 0; k < 12; k++) {
      double gv = rs * ew_at(g, k) + (l2 ? rc * ew_at(p, k) : 0);
      wv[k] = mu * ew_at(v, k) + gv;
      wp[k] = nesterov ? ew_at(p, k) - 0.1 * (gv + mu * wv[k]) : ew_at(p, k) - 0.1 * wv[k];
    }
    tu_assert_close(got[0], wp, 12, 1e-14, 1e-15);
    tu_assert_close(got[1], wv, 12, 1e-14, 1e-15);
    for (int i = 0; i < 2; i++) ic_tensor_destroy(got[i]);
    for (int i = 0; i < 4; i++) ic_tensor_destroy(ins[i]);
    ic_builder_destroy(b);
  }
}
END_TEST

/* dropout_grad in its four modes against the formulas; adagrad and rmsprop likewise */
START_TEST(dropout_grad_modes) {
  ic_tensor *g = r64(2, TU_DIMS(3, 4), 33), *m = NULL;
  ck_assert_int_eq(ic_tensor_create(IC_UINT8, 2, TU_DIMS(3, 4), &m), IC_OK);
  uint8_t *mp = ic_tensor_data(m);
  for (int k = 0; k < 12; k++) mp[k] = (uint8_t)(k % 3 != 0);
  for (int mode = 0; mode < 4; mode++) {
    const bool test = mode >= 2, up = mode & 1;
    ic_builder *b = ic_builder_create();
    ew_feed(b, "m", m);
    ew_feed(b, "g", g);
    ic_builder_op *op = ic_builder_add_op(b, 0, "dropout_grad");
    ic_builder_in(op, "Mask", "m");
    ic_builder_in(op, "Out@GRAD", "g");
    ic_builder_out(op, "X@GRAD", "out");
    ew_fetch(b, "out", IC_FP64);
    ic_builder_attr_float(op, "dropout_prob", 0.25f);
    ic_builder_attr_bool(op, "is_test", test);
    ic_builder_attr_string(op, "dropout_implementation",
                           up ? "upscale_in_train" : "downgrade_in_infer");
    ic_tensor *out;
    char err[1024];
    ck_assert_msg(tu_run(b, 2, TU_NAMES("m", "g"), (ic_tensor *const[]){m, g}, 1, TU_NAMES("out"),
                         &out, err, sizeof err) == IC_OK, "%s", err);
    double want[12];
    for (int k = 0; k < 12; k++) {
      double gv = ew_at(g, k);
      want[k] = test ? (up ? gv : gv * 0.75) : (up ? gv * mp[k] / 0.75 : gv * mp[k]);
    }
    tu_assert_close(out, want, 12, 1e-15, 0);
    ic_tensor_destroy(out);
    ic_builder_destroy(b);
  }
  ic_tensor_destroy(g);
  ic_tensor_destroy(m);
}
END_TEST

START_TEST(adagrad_rmsprop_update) {
  ic_tensor *p = r64(2, TU_DIMS(3, 4), 34), *g = r64(2, TU_DIMS(3, 4), 35),
            *m = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 36, 0, 1), *lr = scalar64(0.1),
            *ms = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 37, 0.5, 1), *mg = r64(2, TU_DIMS(3, 4), 38);
  /* adagrad */
  ic_builder *b = ic_builder_create();
  const char *an[] = {"p", "g", "m", "lr"};
  ic_tensor *ai[] = {p, g, m, lr};
  for (int i = 0; i < 4; i++) ew_feed(b, an[i], ai[i]);
  ic_builder_op *op = ic_builder_add_op(b, 0, "adagrad");
  ic_builder_in(op, "Param", "p");
  ic_builder_in(op, "Grad", "g");
  ic_builder_in(op, "Moment", "m");
  ic_builder_in(op, "LearningRate", "lr");
  ic_builder_out(op, "ParamOut", "po");
  ic_builder_out(op, "MomentOut", "mo");
  ew_fetch(b, "po", IC_FP64);
  ew_fetch(b, "mo", IC_FP64);
  ic_builder_attr_float(op, "epsilon", 1e-6f);
  ic_tensor *got[4];
  char err[1024];
  ck_assert_msg(tu_run(b, 4, an, ai, 2, TU_NAMES("po", "mo"), got, err, sizeof err) == IC_OK, "%s",
                err);
  double wp[12], wm[12], wms[12], wmg[12];
  for (int k = 0; k < 12; k++) {
    double gv = ew_at(g, k);
    wm[k] = ew_at(m, k) + gv * gv;
    wp[k] = ew_at(p, k) - 0.1 * gv / (sqrt(wm[k]) + (float)1e-6);
  }
  tu_assert_close(got[0], wp, 12, 1e-14, 1e-15);
  tu_assert_close(got[1], wm, 12, 1e-14, 1e-15);
  for (int i = 0; i < 2; i++) ic_tensor_destroy(got[i]);
  ic_builder_destroy(b);
  /* rmsprop, centered and not */
  for (int centered = 0; centered < 2; centered++) {
    b = ic_builder_create();
    const char *rn[] = {"p", "g", "m", "lr", "ms", "mg"};
    ic_tensor *ri[] = {p, g, m, lr, ms, mg};
    size_t n_in = centered ? 6 : 5;
    for (size_t i = 0; i < n_in; i++) ew_feed(b, rn[i], ri[i]);
    op = ic_builder_add_op(b, 0, "rmsprop");
    ic_builder_in(op, "Param", "p");
    ic_builder_in(op, "Grad", "g");
    ic_builder_in(op, "Moment", "m");
    ic_builder_in(op, "LearningRate", "lr");
    ic_builder_in(op, "MeanSquare", "ms");
    if (centered) ic_builder_in(op, "MeanGrad", "mg");
    ic_builder_out(op, "ParamOut", "po");
    ic_builder_out(op, "MomentOut", "mo");
    ic_builder_out(op, "MeanSquareOut", "mso");
    if (centered) ic_builder_out(op, "MeanGradOut", "mgo");
    const char *fn[] = {"po", "mo", "mso", "mgo"};
    for (size_t i = 0; i < (centered ? 4u : 3u); i++) ew_fetch(b, fn[i], IC_FP64);
    ic_builder_attr_float(op, "epsilon", 1e-6f);
    ic_builder_attr_float(op, "decay", 0.8f);
    ic_builder_attr_float(op, "momentum", 0.5f);
    ic_builder_attr_bool(op, "centered", centered);
    ck_assert_msg(tu_run(b, n_in, rn, ri, centered ? 4 : 3, fn, got, err, sizeof err) == IC_OK,
                  "%s", err);
    const double rho = (float)0.8, eps = (float)1e-6;
    for (int k = 0; k < 12; k++) {
      double gv = ew_at(g, k);
      wms[k] = rho * ew_at(ms, k) + (1 - rho) * gv * gv;
      wmg[k] = rho * ew_at(mg, k) + (1 - rho) * gv;
      double den = centered ? wms[k] - wmg[k] * wmg[k] + eps : wms[k] + eps;
      wm[k] = 0.5 * ew_at(m, k) + 0.1 * gv / sqrt(den);
      wp[k] = ew_at(p, k) - wm[k];
    }
    tu_assert_close(got[0], wp, 12, 1e-13, 1e-15);
    tu_assert_close(got[1], wm, 12, 1e-13, 1e-15);
    tu_assert_close(got[2], wms, 12, 1e-13, 1e-15);
    if (centered) tu_assert_close(got[3], wmg, 12, 1e-13, 1e-15);
    for (int i = 0; i < (centered ? 4 : 3); i++) ic_tensor_destroy(got[i]);
    ic_builder_destroy(b);
  }
  ic_tensor *all[] = {p, g, m, lr, ms, mg};
  for (int i = 0; i < 6; i++) ic_tensor_destroy(all[i]);
}
END_TEST

static bool g_amsgrad, g_global_pow;
START_TEST(adam_update) {
  /* 0 adam, 1 amsgrad, 2 use_global_beta_pow, 3 SkipUpdate, 4 adamw, 5 adamw without decay */
  for (int mode = 0; mode < 6; mode++) {
    const bool w = mode >= 4, decay = mode == 4;
    const double coeff = (float)0.05, ratio = w && decay ? 0.5 : 1.0;
    g_amsgrad = mode == 1;
    g_global_pow = mode == 2;
    bool skip = mode == 3;
    ic_tensor *p = r64(2, TU_DIMS(3, 4), 20), *g = r64(2, TU_DIMS(3, 4), 21), *lr = scalar64(0.01),
              *m1 = r64(2, TU_DIMS(3, 4), 22), *m2 = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 23, 0, 1),
              *mx = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 24, 0, 1), *b1p = scalar64(0.81),
              *b2p = scalar64(0.998), *sk = NULL;
    bool t = true;
    ck_assert_int_eq(ic_tensor_create(IC_BOOL, 1, TU_DIMS(1), &sk), IC_OK);
    memcpy(ic_tensor_data(sk), &t, 1);
    ic_builder *b = ic_builder_create();
    const char *in_names[] = {"p", "g", "lr", "m1", "m2", "mx", "b1p", "b2p", "sk"};
    ic_tensor *ins[] = {p, g, lr, m1, m2, mx, b1p, b2p, sk};
    const char *slots[] = {"Param", "Grad", "LearningRate", "Moment1", "Moment2", "Moment2Max",
                           "Beta1Pow", "Beta2Pow", "SkipUpdate"};
    size_t n_in = skip ? 9 : 8;
    for (size_t i = 0; i < n_in; i++) ew_feed(b, in_names[i], ins[i]);
    ic_builder_op *op = ic_builder_add_op(b, 0, w ? "adamw" : "adam");
    if (w) {
      ic_builder_attr_float(op, "coeff", 0.05f);
      ic_builder_attr_float(op, "lr_ratio", 0.5f);
      ic_builder_attr_bool(op, "with_decay", decay);
    }
    for (size_t i = 0; i < n_in; i++) {
      if (i == 5 && !g_amsgrad) continue;
      ic_builder_in(op, slots[i], in_names[i]);
    }
    const char *outs[] = {"ParamOut", "Moment1Out", "Moment2Out", "Moment2MaxOut", "Beta1PowOut",
                          "Beta2PowOut"};
    const char *onames[] = {"po", "m1o", "m2o", "mxo", "b1o", "b2o"};
    size_t n_out = 0;
    const char *fetch[6];
    for (int i = 0; i < 6; i++) {
      if (i == 3 && !g_amsgrad) continue;
      ic_builder_out(op, outs[i], onames[i]);
      ew_fetch(b, onames[i], IC_FP64);
      fetch[n_out++] = onames[i];
    }
    ic_builder_attr_float(op, "beta1", 0.9f);
    ic_builder_attr_float(op, "beta2", 0.999f);
    ic_builder_attr_float(op, "epsilon", 1e-6f);
    ic_builder_attr_bool(op, "amsgrad", g_amsgrad);
    ic_builder_attr_bool(op, "use_global_beta_pow", g_global_pow);
    ic_tensor *got[6] = {0};
    char err[1024];
    ck_assert_msg(tu_run(b, n_in, in_names, ins, n_out, fetch, got, err, sizeof err) == IC_OK,
                  "%s", err);
    double beta1 = (float)0.9, beta2 = (float)0.999, eps = (float)1e-6;
    double wp[12], w1[12], w2[12], wx[12];
    double lrt = 0.01 * sqrt(1 - 0.998) / (1 - 0.81), epst = eps * sqrt(1 - 0.998);
    for (int k = 0; k < 12; k++) {
      double gv = ew_at(g, k);
      w1[k] = beta1 * ew_at(m1, k) + (1 - beta1) * gv;
      w2[k] = beta2 * ew_at(m2, k) + (1 - beta2) * gv * gv;
      double v = w2[k];
      if (g_amsgrad) v = wx[k] = fmax(ew_at(mx, k), w2[k]);
      double pv = decay ? ew_at(p, k) - 0.01 * ratio * coeff * ew_at(p, k) : ew_at(p, k);
      wp[k] = pv - lrt * ratio * w1[k] / (sqrt(v) + epst);
      if (skip) {
        wp[k] = ew_at(p, k);
        w1[k] = ew_at(m1, k);
        w2[k] = ew_at(m2, k);
      }
    }
    size_t f = 0;
    tu_assert_close(got[f++], wp, 12, 1e-13, 1e-15);
    tu_assert_close(got[f++], w1, 12, 1e-13, 1e-15);
    tu_assert_close(got[f++], w2, 12, 1e-13, 1e-15);
    if (g_amsgrad) tu_assert_close(got[f++], wx, 12, 1e-13, 1e-15);
    bool same = g_global_pow || skip;
    tu_assert_close(got[f++], (const double[]){same ? 0.81 : 0.81 * beta1}, 1, 1e-15, 0);
    tu_assert_close(got[f++], (const double[]){same ? 0.998 : 0.998 * beta2}, 1, 1e-15, 0);
    for (size_t i = 0; i < n_out; i++) ic_tensor_destroy(got[i]);
    for (size_t i = 0; i < 9; i++) ic_tensor_destroy(ins[i]);
    ic_builder_destroy(b);
  }
}
END_TEST

/* With is_sparse, Paddle's gradient (SelectedRows: one row per position of Ids, each its
 * Out@GRAD row) ignores padding_idx, so a padding row is trained (Paddle 2.6 and 3.3; the
 * dense gradient skips it): lookup_table_v2_grad and lookup_table_grad, padding_idx 2. */
START_TEST(lookup_sparse_padding_rows) {
  for (int v1 = 0; v1 < 2; v1++) {
    ic_builder *b = ic_builder_create();
    ic_tensor *w = r64(2, TU_DIMS(5, 3), 75),
              *ids = v1 ? tu_i64(2, TU_DIMS(6, 1), (const int64_t[]){2, 0, 4, 2, 2, 0})
                        : tu_i64(1, TU_DIMS(6), (const int64_t[]){2, 0, 4, 2, 2, 0}),
              *dout = r64(2, TU_DIMS(6, 3), 76);
    ew_feed(b, "w", w);
    ew_feed(b, "ids", ids);
    ew_feed(b, "dout", dout);
    ic_builder_op *op = ic_builder_add_op(b, 0, v1 ? "lookup_table_grad" : "lookup_table_v2_grad");
    ic_builder_in(op, "W", "w");
    ic_builder_in(op, "Ids", "ids");
    ic_builder_in(op, "Out@GRAD", "dout");
    ic_builder_out(op, "W@GRAD", "dw");
    ic_builder_attr_int(op, "padding_idx", 2);
    ic_builder_attr_bool(op, "is_sparse", true);
    ew_fetch(b, "dw", IC_FP64);
    ic_tensor *got = NULL;
    char err[1024];
    ck_assert_msg(tu_run(b, 3, TU_NAMES("w", "ids", "dout"), (ic_tensor *const[]){w, ids, dout},
                         1, TU_NAMES("dw"), &got, err, sizeof err) == IC_OK, "%s", err);
    static const int64_t id[6] = {2, 0, 4, 2, 2, 0};
    double want[15] = {0};
    for (int i = 0; i < 6; i++) {
      for (int j = 0; j < 3; j++) want[id[i] * 3 + j] += ew_at(dout, i * 3 + j);
    }
    tu_assert_close(got, want, 15, 1e-15, 0);
    ic_tensor_destroy(got);
    ic_tensor_destroy(w);
    ic_tensor_destroy(ids);
    ic_tensor_destroy(dout);
    ic_builder_destroy(b);
  }
}
END_TEST

/* adam over a Grad declared SelectedRows (an embedding with is_sparse, whose gradient icore
 * holds dense): Paddle's sparse CPU update, rows that are all zeros taken as absent (their
 * moments decay, epsilon unscaled), every row with the beta powers already advanced when
 * Beta1PowOut / Beta2PowOut name the inputs' variables, as Paddle's kernel reads them; with
 * lazy_mode the absent rows keep their parameter and moments (phi's lazy CPU path); and
 * amsgrad and adamw over such a Grad refused by name. */
START_TEST(adam_sparse_rows) {
  for (int mode = 0; mode < 4; mode++) { /* 0 update, 1 lazy_mode, 2 amsgrad, 3 adamw */
    ic_tensor *p = r64(2, TU_DIMS(4, 3), 30), *g = r64(2, TU_DIMS(4, 3), 31), *lr = scalar64(0.01),
              *m1 = r64(2, TU_DIMS(4, 3), 32), *m2 = ew_rand(IC_FP64, 2, TU_DIMS(4, 3), 33, 0, 1),
              *b1p = scalar64(0.81), *b2p = scalar64(0.998);
    double *gd = ic_tensor_data(g);
    for (int k = 0; k < 3; k++) gd[3 + k] = gd[9 + k] = 0; /* rows 1 and 3 absent */
    ic_builder *b = ic_builder_create();
    const char *in_names[] = {"p", "g", "lr", "m1", "m2", "b1p", "b2p"};
    ic_tensor *ins[] = {p, g, lr, m1, m2, b1p, b2p};
    const char *slots[] = {"Param", "Grad", "LearningRate", "Moment1", "Moment2", "Beta1Pow",
                           "Beta2Pow"};
    for (size_t i = 0; i < 7; i++) ew_feed(b, in_names[i], ins[i]);
    ic_builder_var_kind(b, 0, "gs", IC_VAR_SELECTED_ROWS, false);
    ic_builder_op *as = ic_builder_add_op(b, 0, "assign");
    ic_builder_in(as, "X", "g");
    ic_builder_out(as, "Out", "gs");
    ic_builder_op *op = ic_builder_add_op(b, 0, mode == 3 ? "adamw" : "adam");
    for (size_t i = 0; i < 7; i++) ic_builder_in(op, slots[i], i == 1 ? "gs" : in_names[i]);
    const char *outs[] = {"ParamOut", "Moment1Out", "Moment2Out", "Beta1PowOut", "Beta2PowOut"};
    const char *onames[] = {"po", "m1o", "m2o", "b1p", "b2p"};
    for (int i = 0; i < 5; i++) ic_builder_out(op, outs[i], onames[i]);
    for (int i = 0; i < 3; i++) ew_fetch(b, onames[i], IC_FP64);
    ic_builder_attr_float(op, "beta1", 0.9f);
    ic_builder_attr_float(op, "beta2", 0.999f);
    ic_builder_attr_float(op, "epsilon", 1e-3f);
    ic_builder_attr_bool(op, "lazy_mode", mode == 1);
    ic_builder_attr_bool(op, "amsgrad", mode == 2);
    ic_tensor *got[3] = {0};
    char err[1024];
    ic_status st = tu_run(b, 7, in_names, ins, 3, onames, got, err, sizeof err);
    if (mode >= 2) {
      ck_assert_int_ne(st, IC_OK);
      tu_assert_msg(err, mode == 2 ? "amsgrad" : "adamw",
                    "SelectedRows gradient 'gs'", NULL);
    } else {
      ck_assert_msg(st == IC_OK, "%s", err);
      const double beta1 = (float)0.9, beta2 = (float)0.999, eps = (float)1e-3;
      const double u1 = 0.81 * beta1, u2 = 0.998 * beta2; /* the advanced powers */
      const double lrt = 0.01 * sqrt(1 - u2) / (1 - u1);
      double wp[12], w1[12], w2[12];
      for (int k = 0; k < 12; k++) {
        const bool held = k / 3 == 0 || k / 3 == 2;
        const double gv = ew_at(g, k);
        w1[k] = beta1 * ew_at(m1, k) + (held ? (1 - beta1) * gv : 0);
        w2[k] = beta2 * ew_at(m2, k) + (held ? (1 - beta2) * gv * gv : 0);
        wp[k] = ew_at(p, k) - lrt * w1[k] / (sqrt(w2[k]) + (held ? eps * sqrt(1 - u2) : eps));
        if (mode == 1 && !held) { /* lazy_mode: an absent row stays */
          w1[k] = ew_at(m1, k);
          w2[k] = ew_at(m2, k);
          wp[k] = ew_at(p, k);
        }
      }
      tu_assert_close(got[0], wp, 12, 1e-13, 1e-15);
      tu_assert_close(got[1], w1, 12, 1e-13, 1e-15);
      tu_assert_close(got[2], w2, 12, 1e-13, 1e-15);
      for (int i = 0; i < 3; i++) ic_tensor_destroy(got[i]);
    }
    for (size_t i = 0; i < 7; i++) ic_tensor_destroy(ins[i]);
    ic_builder_destroy(b);
  }
}
END_TEST

/* ---- the other optimizers (adamax.c, adadelta.c, ...) ----
 * One op fed by `ins` (slot, tensor; a slot may repeat for a merged op's list) writing
 * `outs` (slot, variable; likewise), float attributes `fa`; on success got[k] is output k. */
typedef struct opt_in {
  const char *slot;
  ic_tensor *t;
} opt_in;
typedef struct opt_attr {
  const char *name;
  float v;
} opt_attr;

static ic_status opt_run(const char *type, size_t n_in, const opt_in *ins, size_t n_out,
                         const char *const *outs, size_t n_attr, const opt_attr *fa,
                         void (*more)(ic_builder_op *), ic_tensor **got, char *err, size_t len) {
  ic_builder *b = ic_builder_create();
  char names[24][8];
  const char *feed[24];
  ic_tensor *ft[24];
  ck_assert_uint_le(n_in, 24);
  for (size_t i = 0; i < n_in; i++) {
    snprintf(names[i], sizeof names[i], "i%zu", i);
    feed[i] = names[i];
    ft[i] = ins[i].t;
    ew_feed(b, names[i], ins[i].t);
  }
  ic_builder_op *op = ic_builder_add_op(b, 0, type);
  for (size_t i = 0; i < n_in; i++) {
    bool seen = false;
    for (size_t j = 0; j < i; j++) seen |= !strcmp(ins[j].slot, ins[i].slot);
    if (seen) continue;
    const char *args[8];
    size_t k = 0;
    for (size_t j = i; j < n_in && k < 8; j++) {
      if (!strcmp(ins[j].slot, ins[i].slot)) args[k++] = names[j];
    }
    ic_builder_input(op, ins[i].slot, k, args);
  }
  char onames[16][8];
  const char *fetch[16];
  ck_assert_uint_le(n_out, 16);
  for (size_t i = 0; i < n_out; i++) {
    snprintf(onames[i], sizeof onames[i], "o%zu", i);
    fetch[i] = onames[i];
    ew_fetch(b, onames[i], ic_tensor_dtype(ins[0].t));
  }
  for (size_t i = 0; i < n_out; i++) {
    bool seen = false;
    for (size_t j = 0; j < i; j++) seen |= !strcmp(outs[j], outs[i]);
    if (seen) continue;
    const char *args[8];
    size_t k = 0;
    for (size_t j = i; j < n_out && k < 8; j++) {
      if (!strcmp(outs[j], outs[i])) args[k++] = onames[j];
    }
    ic_builder_output(op, outs[i], k, args);
  }
  for (size_t i = 0; i < n_attr; i++) ic_builder_attr_float(op, fa[i].name, fa[i].v);
  if (more) more(op);
  ic_status st = tu_run(b, n_in, feed, ft, n_out, fetch, got, err, len);
  ic_builder_destroy(b);
  return st;
}

START_TEST(adamax_adadelta_update) {
  ic_tensor *p = r64(2, TU_DIMS(3, 4), 40), *g = r64(2, TU_DIMS(3, 4), 41),
            *m = r64(2, TU_DIMS(3, 4), 42), *u = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 43, 0, 1),
            *lr = scalar64(0.1), *b1p = scalar64(0.7), *got[3],
            *v = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 44, 0, 1);
  char err[1024];
  /* adamax */
  const opt_in ai[] = {{"Param", p}, {"Grad", g}, {"LearningRate", lr}, {"Moment", m},
                       {"InfNorm", u}, {"Beta1Pow", b1p}};
  const opt_attr aa[] = {{"beta1", 0.8f}, {"beta2", 0.9f}, {"epsilon", 0.05f}};
  ck_assert_msg(opt_run("adamax", 6, ai, 3, TU_NAMES("ParamOut", "MomentOut", "InfNormOut"), 3,
                        aa, NULL, got, err, sizeof err) == IC_OK, "%s", err);
  double wp[12], wm[12], wu[12];
  const double b1 = (float)0.8, b2 = (float)0.9, eps = (float)0.05;
  for (int k = 0; k < 12; k++) {
    double gv = ew_at(g, k);
    wm[k] = b1 * ew_at(m, k) + (1 - b1) * gv;
    wu[k] = fmax(fabs(gv), b2 * ew_at(u, k) + eps);
    wp[k] = ew_at(p, k) - 0.1 / (1 - 0.7) * (wm[k] / wu[k]);
  }
  tu_assert_close(got[0], wp, 12, 1e-14, 1e-15);
  tu_assert_close(got[1], wm, 12, 1e-14, 1e-15);
  tu_assert_close(got[2], wu, 12, 1e-14, 1e-15);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(got[i]);
  /* adadelta */
  const opt_in di[] = {{"Param", p}, {"Grad", g}, {"AvgSquaredGrad", u},
                       {"AvgSquaredUpdate", v}, {"LearningRate", lr}};
  const opt_attr da[] = {{"rho", 0.8f}, {"epsilon", 0.05f}};
  ck_assert_msg(opt_run("adadelta", 5, di, 3,
                        TU_NAMES("ParamOut", "AvgSquaredGradOut", "AvgSquaredUpdateOut"), 2, da,
                        NULL, got, err, sizeof err) == IC_OK, "%s", err);
  double wg[12], wq[12];
  const double rho = (float)0.8;
  for (int k = 0; k < 12; k++) {
    double gv = ew_at(g, k), vv = ew_at(v, k);
    wg[k] = rho * ew_at(u, k) + (1 - rho) * gv * gv;
    double up = -sqrt(vv + eps) / sqrt(wg[k] + eps) * gv;
    wp[k] = ew_at(p, k) + 0.1 * up;
    wq[k] = rho * vv + (1 - rho) * up * up;
  }
  tu_assert_close(got[0], wp, 12, 1e-14, 1e-15);
  tu_assert_close(got[1], wg, 12, 1e-14, 1e-15);
  tu_assert_close(got[2], wq, 12, 1e-14, 1e-15);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(got[i]);
  ic_tensor *all[] = {p, g, m, u, lr, b1p, v};
  for (int i = 0; i < 7; i++) ic_tensor_destroy(all[i]);
}
END_TEST

/* A bad input of an optimizer op: the error names the op, the slot and what was expected. */
static void opt_fails(const char *type, size_t n_in, const opt_in *ins, size_t n_out,
                      const char *const *outs, const char *const *want) {
  ic_tensor *got[16] = {0};
  char err[1024];
  ck_assert_int_ne(opt_run(type, n_in, ins, n_out, outs, 0, NULL, NULL, got, err, sizeof err),
                   IC_OK);
  if (getenv("IC_SHOW_ERRORS")) fprintf(stderr, "%s\n", err);
  for (const char *const *w = want; *w; w++) {
    ck_assert_msg(strstr(err, *w) != NULL, "%s: \"%s\" lacks \"%s\"", type, err, *w);
  }
}

START_TEST(optimizer_errors) {
  ic_tensor *p = r64(2, TU_DIMS(3, 4), 50), *g = r64(2, TU_DIMS(3, 4), 51),
            *bad = r64(2, TU_DIMS(4, 3), 52), *lr = scalar64(0.1), *lr2 = r64(1, TU_DIMS(2), 53),
            *f32 = tu_f32(2, TU_DIMS(3, 4), (const float[12]){0});
  /* adamax: an InfNorm of other dims, LearningRate missing, a Beta1Pow of two values */
  opt_fails("adamax", 6,
            (const opt_in[]){{"Param", p}, {"Grad", g}, {"LearningRate", lr}, {"Moment", p},
                             {"InfNorm", bad}, {"Beta1Pow", lr}},
            3, TU_NAMES("ParamOut", "MomentOut", "InfNormOut"),
            (const char *const[]){"adamax", "InfNorm", "[3, 4]", NULL});
  opt_fails("adamax", 5,
            (const opt_in[]){{"Param", p}, {"Grad", g}, {"Moment", p}, {"InfNorm", p},
                             {"Beta1Pow", lr}},
            3, TU_NAMES("ParamOut", "MomentOut", "InfNormOut"),
            (const char *const[]){"adamax", "LearningRate", NULL});
  opt_fails("adamax", 6,
            (const opt_in[]){{"Param", p}, {"Grad", g}, {"LearningRate", lr}, {"Moment", p},
                             {"InfNorm", p}, {"Beta1Pow", lr2}},
            3, TU_NAMES("ParamOut", "MomentOut", "InfNormOut"),
            (const char *const[]){"adamax", "Beta1Pow", "one float64", NULL});
  /* adadelta: a float32 AvgSquaredUpdate beside float64 Param, LearningRate missing */
  opt_fails("adadelta", 5,
            (const opt_in[]){{"Param", p}, {"Grad", g}, {"AvgSquaredGrad", p},
                             {"AvgSquaredUpdate", f32}, {"LearningRate", lr}},
            3, TU_NAMES("ParamOut", "AvgSquaredGradOut", "AvgSquaredUpdateOut"),
            (const char *const[]){"adadelta", "AvgSquaredUpdate", "float64", NULL});
  opt_fails("adadelta", 4,
            (const opt_in[]){{"Param", p}, {"Grad", g}, {"AvgSquaredGrad", p},
                             {"AvgSquaredUpdate", p}},
            3, TU_NAMES("ParamOut", "AvgSquaredGradOut", "AvgSquaredUpdateOut"),
            (const char *const[]){"adadelta", "LearningRate", NULL});
  ic_tensor *all[] = {p, g, bad, lr, lr2, f32};
  for (int i = 0; i < 6; i++) ic_tensor_destroy(all[i]);
}
END_TEST

static void mm_slow_attrs(ic_builder_op *op) {
  ic_builder_attr_bool(op, "use_nesterov", true);
  ic_builder_attr_strings(op, "regularization_method", 2, TU_NAMES("l2_decay", ""));
  ic_builder_attr_floats(op, "regularization_coeff", 2, (const float[]){0.25f, 0.5f});
}
static void ma_attrs(ic_builder_op *op) {
  ic_builder_attr_bool(op, "amsgrad", g_amsgrad);
  ic_builder_attr_bool(op, "use_global_beta_pow", g_global_pow);
}

/* merged_momentum and merged_adam over two float64 parameters of different dims, each
 * against the single-parameter formulas */
START_TEST(merged_optimizers_update) {
  ic_tensor *p0 = r64(2, TU_DIMS(3, 4), 60), *p1 = r64(1, TU_DIMS(5), 61),
            *g0 = r64(2, TU_DIMS(3, 4), 62), *g1 = r64(1, TU_DIMS(5), 63),
            *v0 = r64(2, TU_DIMS(3, 4), 64), *v1 = r64(1, TU_DIMS(5), 65),
            *w0 = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 66, 0, 1),
            *w1 = ew_rand(IC_FP64, 1, TU_DIMS(5), 67, 0, 1),
            *x0 = ew_rand(IC_FP64, 2, TU_DIMS(3, 4), 68, 0, 1),
            *x1 = ew_rand(IC_FP64, 1, TU_DIMS(5), 69, 0, 1), *lr0 = scalar64(0.1),
            *lr1 = scalar64(0.2), *b1p = scalar64(0.7), *b2p = scalar64(0.9), *got[12];
  ic_tensor *P[2] = {p0, p1}, *G[2] = {g0, g1}, *V[2] = {v0, v1}, *W[2] = {w0, w1},
            *X[2] = {x0, x1};
  const int N[2] = {12, 5};
  char err[1024];
  /* merged_momentum: the fast path (one LearningRate, rescale_grad 0.5) and the per-parameter
   * path (a LearningRate each, nesterov, l2_decay on the first only: rescale_grad unused) */
  for (int slow = 0; slow < 2; slow++) {
    opt_in in[8] = {{"Param", p0}, {"Param", p1}, {"Grad", g0}, {"Grad", g1},
                    {"Velocity", v0}, {"Velocity", v1}, {"LearningRate", lr0},
                    {"LearningRate", lr1}};
    const opt_attr fa[] = {{"mu", 0.9f}, {"rescale_grad", 0.5f}};
    ck_assert_msg(opt_run("merged_momentum", slow ? 8 : 7, in, 4,
                          TU_NAMES("ParamOut", "ParamOut", "VelocityOut", "VelocityOut"), 2, fa,
                          slow ? mm_slow_attrs : NULL, got, err, sizeof err) == IC_OK,
                  "%s", err);
    const double mu = (float)0.9;
    for (int t = 0; t < 2; t++) {
      double wp[12], wv[12], lr = slow && t ? 0.2 : 0.1, rc = t ? 0 : 0.25;
      for (int k = 0; k < N[t]; k++) {
        double g = slow ? ew_at(G[t], k) + rc * ew_at(P[t], k) : 0.5 * ew_at(G[t], k);
        wv[k] = mu * ew_at(V[t], k) + g;
        wp[k] = slow ? ew_at(P[t], k) - (g + mu * wv[k]) * lr : ew_at(P[t], k) - lr * wv[k];
      }
      tu_assert_close(got[t], wp, N[t], 1e-14, 1e-15);
      tu_assert_close(got[2 + t], wv, N[t], 1e-14, 1e-15);
    }
    for (int i = 0; i < 4; i++) ic_tensor_destroy(got[i]);
  }
  /* merged_adam: plain, amsgrad, use_global_beta_pow */
  for (int mode = 0; mode < 3; mode++) {
    g_amsgrad = mode == 1;
    g_global_pow = mode == 2;
    opt_in in[16] = {{"Param", p0}, {"Param", p1}, {"Grad", g0}, {"Grad", g1},
                     {"LearningRate", lr0}, {"LearningRate", lr1}, {"Moment1", v0},
                     {"Moment1", v1}, {"Moment2", w0}, {"Moment2", w1},
                     {"Beta1Pow", b1p}, {"Beta1Pow", b2p}, {"Beta2Pow", b2p},
                     {"Beta2Pow", b1p}, {"Moment2Max", x0}, {"Moment2Max", x1}};
    const char *outs[] = {"ParamOut", "ParamOut", "Moment1Out", "Moment1Out", "Moment2Out",
                          "Moment2Out", "Beta1PowOut", "Beta1PowOut", "Beta2PowOut",
                          "Beta2PowOut", "Moment2MaxOut", "Moment2MaxOut"};
    const opt_attr fa[] = {{"beta1", 0.8f}, {"beta2", 0.95f}, {"epsilon", 0.01f}};
    size_t n_out = g_amsgrad ? 12 : g_global_pow ? 6 : 10;
    ck_assert_msg(opt_run("merged_adam", g_amsgrad ? 16 : 14, in, n_out, outs, 3, fa, ma_attrs,
                          got, err, sizeof err) == IC_OK, "%s", err);
    const double b1 = (float)0.8, b2 = (float)0.95, eps = (float)0.01;
    for (int t = 0; t < 2; t++) {
      double p1v = t ? 0.9 : 0.7, p2v = t ? 0.7 : 0.9, lr = (t ? 0.2 : 0.1) * sqrt(1 - p2v) /
                                                             (1 - p1v);
      double wp[12], wa[12], wb[12], wx[12];
      for (int k = 0; k < N[t]; k++) {
        double g = ew_at(G[t], k);
        wa[k] = b1 * ew_at(V[t], k) + (1 - b1) * g;
        wb[k] = b2 * ew_at(W[t], k) + (1 - b2) * g * g;
        double v2 = g_amsgrad ? (wx[k] = fmax(ew_at(X[t], k), wb[k])) : wb[k];
        wp[k] = ew_at(P[t], k) - lr * wa[k] / (sqrt(v2) + eps * sqrt(1 - p2v));
      }
      tu_assert_close(got[t], wp, N[t], 1e-13, 1e-15);
      tu_assert_close(got[2 + t], wa, N[t], 1e-14, 1e-15);
      tu_assert_close(got[4 + t], wb, N[t], 1e-14, 1e-15);
      if (!g_global_pow) {
        tu_assert_close(got[6 + t], (const double[]){p1v * b1}, 1, 1e-15, 0);
        tu_assert_close(got[8 + t], (const double[]){p2v * b2}, 1, 1e-15, 0);
      }
      if (g_amsgrad) tu_assert_close(got[10 + t], wx, N[t], 1e-14, 1e-15);
    }
    for (size_t i = 0; i < n_out; i++) ic_tensor_destroy(got[i]);
  }
  g_amsgrad = g_global_pow = false;
  ic_tensor *all[] = {p0, p1, g0, g1, v0, v1, w0, w1, x0, x1, lr0, lr1, b1p, b2p};
  for (int i = 0; i < 14; i++) ic_tensor_destroy(all[i]);
}
END_TEST

START_TEST(merged_optimizer_errors) {
  ic_tensor *p0 = r64(2, TU_DIMS(3, 4), 70), *p1 = r64(1, TU_DIMS(5), 71),
            *bad = r64(1, TU_DIMS(4), 72), *lr = scalar64(0.1);
  /* a Velocity list shorter than Param's; a Velocity of other dims; LearningRate missing */
  opt_fails("merged_momentum", 6,
            (const opt_in[]){{"Param", p0}, {"Param", p1}, {"Grad", p0}, {"Grad", p1},
                             {"Velocity", p0}, {"LearningRate", lr}},
            4, TU_NAMES("ParamOut", "ParamOut", "VelocityOut", "VelocityOut"),
            (const char *const[]){"merged_momentum", "Velocity", "lists 1", "(2)", NULL});
  opt_fails("merged_momentum", 7,
            (const opt_in[]){{"Param", p0}, {"Param", p1}, {"Grad", p0}, {"Grad", p1},
                             {"Velocity", p0}, {"Velocity", bad}, {"LearningRate", lr}},
            4, TU_NAMES("ParamOut", "ParamOut", "VelocityOut", "VelocityOut"),
            (const char *const[]){"merged_momentum", "Velocity", "[4]", "[5]", NULL});
  opt_fails("merged_momentum", 6,
            (const opt_in[]){{"Param", p0}, {"Param", p1}, {"Grad", p0}, {"Grad", p1},
                             {"Velocity", p0}, {"Velocity", p1}},
            4, TU_NAMES("ParamOut", "ParamOut", "VelocityOut", "VelocityOut"),
            (const char *const[]){"merged_momentum", "LearningRate", NULL});
  /* merged_adam: a Moment2 of other dims, one LearningRate for two parameters */
  opt_fails("merged_adam", 14,
            (const opt_in[]){{"Param", p0}, {"Param", p1}, {"Grad", p0}, {"Grad", p1},
                             {"LearningRate", lr}, {"LearningRate", lr}, {"Moment1", p0},
                             {"Moment1", p1}, {"Moment2", p0}, {"Moment2", bad},
                             {"Beta1Pow", lr}, {"Beta1Pow", lr}, {"Beta2Pow", lr},
                             {"Beta2Pow", lr}},
            6, TU_NAMES("ParamOut", "ParamOut", "Moment1Out", "Moment1Out", "Moment2Out",
                        "Moment2Out"),
            (const char *const[]){"merged_adam", "Moment2", "[4]", "[5]", NULL});
  opt_fails("merged_adam", 13,
            (const opt_in[]){{"Param", p0}, {"Param", p1}, {"Grad", p0}, {"Grad", p1},
                             {"LearningRate", lr}, {"Moment1", p0},
                             {"Moment1", p1}, {"Moment2", p0}, {"Moment2", p1},
                             {"Beta1Pow", lr}, {"Beta1Pow", lr}, {"Beta2Pow", lr},
                             {"Beta2Pow", lr}},
            6, TU_NAMES("ParamOut", "ParamOut", "Moment1Out", "Moment1Out", "Moment2Out",
                        "Moment2Out"),
            (const char *const[]){"merged_adam", "LearningRate", "lists 1", NULL});
  ic_tensor *all[] = {p0, p1, bad, lr};
  for (int i = 0; i < 4; i++) ic_tensor_destroy(all[i]);
}
END_TEST

/* nadam, radam and rprop in float64 against their formulas, accumulators differing per
 * element */
START_TEST(nadam_radam_rprop_update) {
  ic_tensor *p = r64(1, TU_DIMS(6), 80), *g = r64(1, TU_DIMS(6), 81), *m1 = r64(1, TU_DIMS(6), 82),
            *m2 = ew_rand(IC_FP64, 1, TU_DIMS(6), 83, 0, 1),
            *a1 = ew_rand(IC_FP64, 1, TU_DIMS(6), 84, 0.2, 0.9),
            *a2 = ew_rand(IC_FP64, 1, TU_DIMS(6), 85, 0.2, 0.9),
            *a3 = ew_rand(IC_FP64, 1, TU_DIMS(6), 86, 0.2, 0.9), *lr = scalar64(0.1), *got[6];
  char err[1024];
  const double b1 = (float)0.8, b2 = (float)0.95, eps = (float)0.01, md = (float)0.3;
  /* nadam */
  const opt_in ni[] = {{"param", p},     {"grad", g},         {"learning_rate", lr},
                       {"momentum_decay_pow", a1}, {"beta2_pow", a2}, {"mu_product", a3},
                       {"moment1", m1},  {"moment2", m2}};
  const opt_attr na[] = {{"beta1", 0.8f}, {"beta2", 0.95f}, {"epsilon", 0.01f},
                         {"momentum_decay", 0.3f}};
  ck_assert_msg(opt_run("nadam", 8, ni, 6,
                        TU_NAMES("param_out", "momentum_decay_pow_out", "beta2_pow_out",
                                 "mu_product_out", "moment1_out", "moment2_out"),
                        4, na, NULL, got, err, sizeof err) == IC_OK, "%s", err);
  double w[6][6];
  for (int k = 0; k < 6; k++) {
    double gv = ew_at(g, k), d = ew_at(a1, k) * 0.96, bp = ew_at(a2, k) * b2;
    double mu = b1 * (1 - 0.5 * pow(d, md)), mu1 = b1 * (1 - 0.5 * pow(d, md) * pow(0.96, md));
    double up = ew_at(a3, k) * mu, up1 = up * mu1;
    double v1 = b1 * ew_at(m1, k) + (1 - b1) * gv, v2 = b2 * ew_at(m2, k) + (1 - b2) * gv * gv;
    double h1 = mu1 * v1 / (1 - up1) + (1 - mu) * gv / (1 - up), h2 = v2 / (1 - bp);
    w[0][k] = ew_at(p, k) - 0.1 * h1 / (sqrt(h2) + eps);
    w[1][k] = d;
    w[2][k] = bp;
    w[3][k] = up;
    w[4][k] = v1;
    w[5][k] = v2;
  }
  for (int i = 0; i < 6; i++) {
    tu_assert_close(got[i], w[i], 6, 1e-13, 1e-15);
    ic_tensor_destroy(got[i]);
  }
  /* radam: rho 0 in the first element gives rho_t = rho_inf - 2 beta2_pow_out / (1 -
   * beta2_pow_out) (rectified), rho 100 gives rho_t < 5 (unrectified) */
  for (int rect = 0; rect < 2; rect++) {
    ic_tensor *rho = ew_rand(IC_FP64, 1, TU_DIMS(6), 87, 0, 1);
    ((double *)ic_tensor_data(rho))[0] = rect ? 0.0 : 100.0;
    const opt_in ri[] = {{"param", p},  {"grad", g},     {"learning_rate", lr}, {"beta1_pow", a1},
                         {"beta2_pow", a2}, {"rho", rho}, {"moment1", m1},      {"moment2", m2}};
    ck_assert_msg(opt_run("radam", 8, ri, 6,
                          TU_NAMES("param_out", "beta1_pow_out", "beta2_pow_out", "rho_out",
                                   "moment1_out", "moment2_out"),
                          3, na, NULL, got, err, sizeof err) == IC_OK, "%s", err);
    const double rho_inf = 2 / (1 - b2) - 1;
    double rho0 = 0;
    for (int k = 0; k < 6; k++) {
      double p1 = ew_at(a1, k) * b1, p2 = ew_at(a2, k) * b2;
      w[1][k] = p1;
      w[2][k] = p2;
      w[3][k] = (ew_at(rho, k) * (b2 - p2) + p2) / (1 - p2);
      if (k == 0) rho0 = w[3][k];
    }
    const double rho_t = rho_inf - 2 * rho0;
    ck_assert_int_eq(rho_t > 5, rect);
    for (int k = 0; k < 6; k++) {
      double gv = ew_at(g, k);
      w[4][k] = b1 * ew_at(m1, k) + (1 - b1) * gv;
      w[5][k] = b2 * ew_at(m2, k) + (1 - b2) * gv * gv;
      double h1 = w[4][k] / (1 - w[1][k]);
      if (rect) {
        double l = sqrt(1 - w[2][k]) / (sqrt(w[5][k]) + eps);
        double r = sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) *
                                                                 rho_t));
        w[0][k] = ew_at(p, k) - 0.1 * h1 * r * l;
      } else {
        w[0][k] = ew_at(p, k) - 0.1 * h1;
      }
    }
    for (int i = 0; i < 6; i++) {
      tu_assert_close(got[i], w[i], 6, 1e-13, 1e-15);
      ic_tensor_destroy(got[i]);
    }
    ic_tensor_destroy(rho);
  }
  /* rprop: products of each sign (and zero), step sizes clamped at both ends */
  ic_tensor *pg = tu_f64(1, TU_DIMS(6), (const double[]){0.5, -0.5, 0.5, 0.0, -2, 3}),
            *pv = tu_f64(1, TU_DIMS(6), (const double[]){1.0, 1.0, -1.0, 4.0, -1, 1}),
            *pl = tu_f64(1, TU_DIMS(6), (const double[]){0.1, 0.1, 0.1, 0.1, 0.45, 0.001}),
            *range = tu_f64(1, TU_DIMS(2), (const double[]){0.01, 0.5}),
            *etas = tu_f64(1, TU_DIMS(2), (const double[]){0.5, 1.2});
  const opt_in pi[] = {{"param", p},         {"grad", pg},   {"prev", pv}, {"learning_rate", pl},
                       {"learning_rate_range", range}, {"etas", etas}};
  ck_assert_msg(opt_run("rprop", 6, pi, 3,
                        TU_NAMES("param_out", "prev_out", "learning_rate_out"), 0, NULL, NULL,
                        got, err, sizeof err) == IC_OK, "%s", err);
  const double wl[6] = {0.12, 0.05, 0.05, 0.1, 0.5, 0.01}, wg[6] = {0.5, 0, 0, 0, -2, 3};
  const double sg[6] = {1, 0, 0, 0, -1, 1};
  double wp[6];
  for (int k = 0; k < 6; k++) wp[k] = ew_at(p, k) - sg[k] * wl[k];
  tu_assert_close(got[0], wp, 6, 1e-15, 1e-15);
  tu_assert_close(got[1], wg, 6, 1e-15, 1e-15);
  tu_assert_close(got[2], wl, 6, 1e-15, 1e-15);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(got[i]);
  ic_tensor *all[] = {p, g, m1, m2, a1, a2, a3, lr, pg, pv, pl, range, etas};
  for (int i = 0; i < 13; i++) ic_tensor_destroy(all[i]);
}
END_TEST

START_TEST(nadam_radam_rprop_errors) {
  ic_tensor *p = r64(1, TU_DIMS(6), 90), *bad = r64(1, TU_DIMS(5), 91), *lr = scalar64(0.1),
            *three = r64(1, TU_DIMS(3), 92);
  /* nadam: a mu_product of other dims; learning_rate missing */
  opt_fails("nadam", 8,
            (const opt_in[]){{"param", p}, {"grad", p}, {"learning_rate", lr},
                             {"momentum_decay_pow", p}, {"beta2_pow", p}, {"mu_product", bad},
                             {"moment1", p}, {"moment2", p}},
            6, TU_NAMES("param_out", "momentum_decay_pow_out", "beta2_pow_out", "mu_product_out",
                        "moment1_out", "moment2_out"),
            (const char *const[]){"nadam", "mu_product", "[5]", "[6]", NULL});
  opt_fails("nadam", 7,
            (const opt_in[]){{"param", p}, {"grad", p}, {"momentum_decay_pow", p},
                             {"beta2_pow", p}, {"mu_product", p}, {"moment1", p},
                             {"moment2", p}},
            6, TU_NAMES("param_out", "momentum_decay_pow_out", "beta2_pow_out", "mu_product_out",
                        "moment1_out", "moment2_out"),
            (const char *const[]){"nadam", "learning_rate", NULL});
  /* radam: a moment2 of other dims; learning_rate not a scalar */
  opt_fails("radam", 8,
            (const opt_in[]){{"param", p}, {"grad", p}, {"learning_rate", lr}, {"beta1_pow", p},
                             {"beta2_pow", p}, {"rho", p}, {"moment1", p}, {"moment2", bad}},
            6, TU_NAMES("param_out", "beta1_pow_out", "beta2_pow_out", "rho_out", "moment1_out",
                        "moment2_out"),
            (const char *const[]){"radam", "moment2", "[5]", "[6]", NULL});
  opt_fails("radam", 8,
            (const opt_in[]){{"param", p}, {"grad", p}, {"learning_rate", bad}, {"beta1_pow", p},
                             {"beta2_pow", p}, {"rho", p}, {"moment1", p}, {"moment2", p}},
            6, TU_NAMES("param_out", "beta1_pow_out", "beta2_pow_out", "rho_out", "moment1_out",
                        "moment2_out"),
            (const char *const[]){"radam", "learning_rate", "one float64", NULL});
  /* rprop: etas of three values; a learning_rate of other dims */
  opt_fails("rprop", 6,
            (const opt_in[]){{"param", p}, {"grad", p}, {"prev", p}, {"learning_rate", p},
                             {"learning_rate_range", bad}, {"etas", three}},
            3, TU_NAMES("param_out", "prev_out", "learning_rate_out"),
            (const char *const[]){"rprop", "learning_rate_range", "two float64", NULL});
  opt_fails("rprop", 6,
            (const opt_in[]){{"param", p}, {"grad", p}, {"prev", p}, {"learning_rate", lr},
                             {"learning_rate_range", three}, {"etas", three}},
            3, TU_NAMES("param_out", "prev_out", "learning_rate_out"),
            (const char *const[]){"rprop", "learning_rate", "[6]", NULL});
  ic_tensor *all[] = {p, bad, lr, three};
  for (int i = 0; i < 4; i++) ic_tensor_destroy(all[i]);
}
END_TEST

static void lars_attrs2(ic_builder_op *op) {
  ic_builder_attr_floats(op, "lars_weight_decay", 2, (const float[]){0.01f, 0.0f});
}

/* lars_momentum over two float64 parameters in one op: the first with LARS weight decay
 * (adapted local learning rate), the second with none (plain momentum) */
START_TEST(lars_momentum_update) {
  ic_tensor *p0 = r64(2, TU_DIMS(3, 4), 100), *p1 = r64(1, TU_DIMS(5), 101),
            *g0 = r64(2, TU_DIMS(3, 4), 102), *g1 = r64(1, TU_DIMS(5), 103),
            *v0 = r64(2, TU_DIMS(3, 4), 104), *v1 = r64(1, TU_DIMS(5), 105), *lr0 = scalar64(0.1),
            *lr1 = scalar64(0.2), *got[4];
  ic_tensor *P[2] = {p0, p1}, *G[2] = {g0, g1}, *V[2] = {v0, v1};
  const int N[2] = {12, 5};
  char err[1024];
  const opt_in in[] = {{"Param", p0},    {"Param", p1},        {"Grad", g0},
                       {"Grad", g1},     {"Velocity", v0},     {"Velocity", v1},
                       {"LearningRate", lr0}, {"LearningRate", lr1}};
  const opt_attr fa[] = {{"mu", 0.9f}, {"lars_coeff", 0.5f}, {"epsilon", 0.01f},
                         {"rescale_grad", 0.5f}};
  ck_assert_msg(opt_run("lars_momentum", 8, in, 4,
                        TU_NAMES("ParamOut", "ParamOut", "VelocityOut", "VelocityOut"), 4, fa,
                        lars_attrs2, got, err, sizeof err) == IC_OK, "%s", err);
  const double mu = (float)0.9, coeff = (float)0.5, eps = (float)0.01;
  for (int t = 0; t < 2; t++) {
    const double wd = t ? 0 : (float)0.01, lr = t ? 0.2 : 0.1;
    double pn = 0, gn = 0, wp[12], wv[12];
    for (int k = 0; k < N[t]; k++) {
      pn += ew_at(P[t], k) * ew_at(P[t], k);
      gn += 0.25 * ew_at(G[t], k) * ew_at(G[t], k);
    }
    pn = sqrt(pn);
    gn = sqrt(gn);
    const double local = wd > 0 ? lr * coeff * pn / (gn + wd * pn + eps) : lr;
    for (int k = 0; k < N[t]; k++) {
      wv[k] = mu * ew_at(V[t], k) + local * (0.5 * ew_at(G[t], k) + wd * ew_at(P[t], k));
      wp[k] = ew_at(P[t], k) - wv[k];
    }
    tu_assert_close(got[t], wp, N[t], 1e-13, 1e-15);
    tu_assert_close(got[2 + t], wv, N[t], 1e-13, 1e-15);
  }
  for (int i = 0; i < 4; i++) ic_tensor_destroy(got[i]);
  /* errors: one lars_weight_decay for two parameters; a Grad of other dims */
  opt_fails("lars_momentum", 8, in, 4,
            TU_NAMES("ParamOut", "ParamOut", "VelocityOut", "VelocityOut"),
            (const char *const[]){"lars_momentum", "lars_weight_decay", "(2)", NULL});
  opt_fails("lars_momentum", 4,
            (const opt_in[]){{"Param", p0}, {"Grad", g1}, {"Velocity", v0},
                             {"LearningRate", lr0}},
            2, TU_NAMES("ParamOut", "VelocityOut"),
            (const char *const[]){"lars_momentum", "Grad", "[5]", "[3, 4]", NULL});
  ic_tensor *all[] = {p0, p1, g0, g1, v0, v1, lr0, lr1};
  for (int i = 0; i < 8; i++) ic_tensor_destroy(all[i]);
}
END_TEST

START_TEST(asgd_update) {
  ic_tensor *p = r64(2, TU_DIMS(3, 4), 110), *g = r64(2, TU_DIMS(3, 4), 111),
            *d = r64(2, TU_DIMS(3, 4), 112), *y = r64(2, TU_DIMS(3, 4), 113), *lr = scalar64(0.3),
            *n = scalar64(3), *got[3];
  char err[1024];
  const opt_in in[] = {{"param", p}, {"grad", g}, {"learning_rate", lr},
                       {"d", d},     {"y", y},    {"n", n}};
  ck_assert_msg(opt_run("asgd", 6, in, 3, TU_NAMES("param_out", "d_out", "y_out"), 0, NULL, NULL,
                        got, err, sizeof err) == IC_OK, "%s", err);
  double wp[12], wd[12], wy[12];
  for (int k = 0; k < 12; k++) {
    wy[k] = ew_at(g, k);
    wd[k] = ew_at(d, k) - ew_at(y, k) + wy[k];
    wp[k] = ew_at(p, k) - 0.3 / 3 * wd[k];
  }
  tu_assert_close(got[0], wp, 12, 1e-14, 1e-15);
  tu_assert_close(got[1], wd, 12, 1e-14, 1e-15);
  tu_assert_close(got[2], wy, 12, 1e-15, 0);
  for (int i = 0; i < 3; i++) ic_tensor_destroy(got[i]);
  /* errors: a y of other dims; n missing */
  opt_fails("asgd", 6,
            (const opt_in[]){{"param", p}, {"grad", g}, {"learning_rate", lr}, {"d", d},
                             {"y", n}, {"n", n}},
            3, TU_NAMES("param_out", "d_out", "y_out"),
            (const char *const[]){"asgd", "input y", "[3, 4]", NULL});
  opt_fails("asgd", 5,
            (const opt_in[]){{"param", p}, {"grad", g}, {"learning_rate", lr}, {"d", d},
                             {"y", y}},
            3, TU_NAMES("param_out", "d_out", "y_out"),
            (const char *const[]){"asgd", "required input n", NULL});
  ic_tensor *all[] = {p, g, d, y, lr, n};
  for (int i = 0; i < 6; i++) ic_tensor_destroy(all[i]);
}
END_TEST

static TCase *tc_grad(void) {
  TCase *tc = tcase_create("grad");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, elementwise_grads);
  tcase_add_test(tc, mul_grad);
  tcase_add_test(tc, reduce_grads);
  tcase_add_test(tc, relu_grad);
  tcase_add_test(tc, softmax_with_cross_entropy_grad);
  tcase_add_test(tc, softmax_with_cross_entropy_values);
  tcase_add_test(tc, gelu_grad);
  tcase_add_test(tc, tanh_sigmoid_grads);
  tcase_add_test(tc, softmax_grad);
  tcase_add_test(tc, shape_grads);
  tcase_add_test(tc, xshape_grads);
  tcase_add_test(tc, sigmoid_cross_entropy_grad);
  tcase_add_test(tc, huber_loss_grad);
  tcase_add_test(tc, smooth_l1_loss_grad);
  tcase_add_test(tc, cos_sim_grad);
  tcase_add_test(tc, affine_channel_grad);
  tcase_add_test(tc, loss_and_shift_grads);
  tcase_add_test(tc, concat_grad);
  tcase_add_test(tc, slice_grad);
  tcase_add_test(tc, lookup_table_v2_grad);
  tcase_add_test(tc, lookup_sparse_padding_rows);
  tcase_add_test(tc, cross_entropy2_grad);
  tcase_add_test(tc, cross_entropy_grad);
  tcase_add_test(tc, accuracy_counts);
  tcase_add_test(tc, layer_norm_grad);
  tcase_add_test(tc, matmul_v2_grad);
  tcase_add_test(tc, matmul_grad);
  tcase_add_test(tc, elementwise_max_min_grads);
  tcase_add_test(tc, paddle_grad_oracle);
  tcase_add_test(tc, paddle_unary_grad_oracle);
  tcase_add_test(tc, activation_grads);
  tcase_add_test(tc, activation_grad_errors);
  tcase_add_test(tc, index_grads);
  tcase_add_test(tc, stack_unstack_grads);
  tcase_add_test(tc, repeat_grads);
  tcase_add_test(tc, pad_grads);
  tcase_add_test(tc, where_clip_cumsum_grads);
  tcase_add_test(tc, prelu_grad);
  tcase_add_test(tc, topk_grads);
  tcase_add_test(tc, argsort_grad);
  tcase_add_test(tc, pixel_shuffle_l2_grads);
  tcase_add_test(tc, strided_slice_grad);
  tcase_add_test(tc, instance_norm_grad);
  tcase_add_test(tc, group_norm_grad);
  tcase_add_test(tc, interp_grads);
  tcase_add_test(tc, conv2d_grad);
  tcase_add_test(tc, conv2d_transpose_grad);
  tcase_add_test(tc, conv3d_grad);
  tcase_add_test(tc, grid_sampler_grad);
  tcase_add_test(tc, roi_align_grad);
  tcase_add_test(tc, sequence_pool_grad);
  tcase_add_test(tc, sequence_expand_grad);
  tcase_add_test(tc, sequence_softmax_grad);
  tcase_add_test(tc, sequence_conv_grad);
  tcase_add_test(tc, sequence_expand_as_grad);
  tcase_add_test(tc, paddle_convt_grad_oracle);
  tcase_add_test(tc, pool2d_grad);
  tcase_add_test(tc, pool2d_grad_float32);
  tcase_add_test(tc, pool3d_grad);
  tcase_add_test(tc, batch_norm_grad);
  return tc;
}

static TCase *tc_optim(void) {
  TCase *tc = tcase_create("optimizer");
  tcase_add_test(tc, truncated_gaussian);
  tcase_add_test(tc, norm_clipping);
  tcase_add_test(tc, sgd_update);
  tcase_add_test(tc, adam_update);
  tcase_add_test(tc, adam_sparse_rows);
  tcase_add_test(tc, momentum_update);
  tcase_add_test(tc, dropout_grad_modes);
  tcase_add_test(tc, adagrad_rmsprop_update);
  tcase_add_test(tc, adamax_adadelta_update);
  tcase_add_test(tc, optimizer_errors);
  tcase_add_test(tc, merged_optimizers_update);
  tcase_add_test(tc, merged_optimizer_errors);
  tcase_add_test(tc, nadam_radam_rprop_update);
  tcase_add_test(tc, nadam_radam_rprop_errors);
  tcase_add_test(tc, lars_momentum_update);
  tcase_add_test(tc, asgd_update);
  return tc;
}

TU_MAIN("ops_grad", tc_grad, tc_optim)
