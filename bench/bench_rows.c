/* Row kernels of vmath.h (softmax along a contiguous axis, layer_norm's moments and
 * normalization) at the shapes PP-OCR SVTR runs, against the plain scalar loops of the same
 * formulas (libm's expf, double sums), in one process, alternating; medians of `rounds`
 * rounds of 200 calls, microseconds per call of the whole shape.
 *   bench_rows [ROUNDS]
 * Also at each width the CPU has (4, 8, 16 lanes): the bits are the same at every width
 * (tests/test_vmath.c), the speed is not. */
#include <math.h>

#include "bench_util.h"
#include "kernels/cpu/vmath.h"

static void softmax_scalar(float *y, const float *x, int64_t rows, int64_t n) {
  for (int64_t r = 0; r < rows; r++, x += n, y += n) {
    float m = x[0];
    for (int64_t i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
    double s = 0;
    for (int64_t i = 0; i < n; i++) {
      float d = x[i] - m;
      y[i] = expf(d < -64.0f ? -64.0f : d);
      s += y[i];
    }
    for (int64_t i = 0; i < n; i++) y[i] = (float)(y[i] / s);
  }
}

static void norm_scalar(float *y, const float *x, int64_t rows, int64_t n, const float *sc,
                        const float *bi) {
  for (int64_t r = 0; r < rows; r++, x += n, y += n) {
    double m = 0, v = 0;
    for (int64_t i = 0; i < n; i++) m += x[i];
    m /= (double)n;
    for (int64_t i = 0; i < n; i++) v += (x[i] - m) * (x[i] - m);
    v /= (double)n;
    const double inv = 1.0 / sqrt(v + 1e-5);
    for (int64_t i = 0; i < n; i++) y[i] = (float)((x[i] - m) * inv * sc[i] + bi[i]);
  }
}

static void norm_vec(float *y, const float *x, int64_t rows, int64_t n, const float *sc,
                     const float *bi, int width) {
  for (int64_t r = 0; r < rows; r++, x += n, y += n) {
    double m, v;
    ic_vmomentsf_w(x, n, &m, &v, width);
    ic_vnormalizef_w(y, x, n, m, 1.0 / sqrt(v + 1e-5), sc, bi, width);
  }
}

enum { CALLS = 200 };

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 15;
  static const struct {
    const char *what;
    int64_t rows, n;
    int norm;
  } shapes[] = {{"softmax, attention [1, 8, 40, 40]", 320, 40, 0},
                {"softmax, CTC head [1, 40, 6625]", 40, 6625, 0},
                {"softmax, rows of 1000", 32, 1000, 0},
                {"layer_norm [40, 120]", 40, 120, 1},
                {"layer_norm [320, 120] (batch 8)", 320, 120, 1}};
  const int widest = ic_vmath_width();
  printf("# row kernels: medians of %d rounds of %d calls, us per call (one thread)\n", rounds,
         CALLS);
  printf("%-36s %10s", "shape", "scalar");
  for (int w = 4; w <= widest; w *= 2) printf("   %2d lanes", w);
  printf("   speed-up\n");
  for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
    const int64_t rows = shapes[k].rows, n = shapes[k].n, total = rows * n;
    float *x = malloc((size_t)total * sizeof *x), *y = malloc((size_t)total * sizeof *y);
    float *sc = malloc((size_t)n * sizeof *sc), *bi = malloc((size_t)n * sizeof *bi);
    for (int64_t i = 0; i < total; i++) x[i] = (float)((i * 7919) % 1000) / 100.0f - 5.0f;
    for (int64_t i = 0; i < n; i++) sc[i] = 1.0f + (float)i * 0.01f, bi[i] = (float)i * 0.001f;
    const int n_modes = 1 + (widest == 16 ? 3 : widest == 8 ? 2 : 1);
    double *t[4];
    for (int m = 0; m < n_modes; m++) t[m] = malloc((size_t)rounds * sizeof(double));
    for (int r = 0; r < rounds; r++) {
      for (int m = 0; m < n_modes; m++) {
        const int w = m == 0 ? 0 : 4 << (m - 1);
        double t0 = bu_now();
        for (int c = 0; c < CALLS; c++) {
          if (shapes[k].norm) {
            if (w) norm_vec(y, x, rows, n, sc, bi, w);
            else norm_scalar(y, x, rows, n, sc, bi);
          } else {
            if (w) ic_vsoftmax_rowsf_w(y, x, rows, n, w);
            else softmax_scalar(y, x, rows, n);
          }
        }
        t[m][r] = (bu_now() - t0) / CALLS * 1e6;
      }
    }
    printf("%-36s", shapes[k].what);
    double med[4];
    for (int m = 0; m < n_modes; m++) {
      med[m] = bu_quantile(t[m], (size_t)rounds, 0.5);
      printf(" %10.2f", med[m]);
      free(t[m]);
    }
    printf(" %9.2fx\n", med[0] / med[n_modes - 1]);
    free(x), free(y), free(sc), free(bi);
  }
  return 0;
}
