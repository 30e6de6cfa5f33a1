/* Benchmark 3: memory. A deep chain of large activations (each op's output as big as its
 * input), with and without GC; each configuration runs in a fresh child process and its
 * peak resident set is read from the kernel (getrusage of the child). Compared with the
 * ideal: the largest live set (one input and one output) plus the parameters. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

static long rss_kb(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0, res = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &res) != 2) res = 0;
    fclose(f);
  }
  return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static ic_program *chain(int depth, int64_t n, ic_scope *scope) {
  ic_builder *b = ic_builder_create();
  const int64_t d[1] = {n};
  ic_builder_var(b, 0, "x", IC_FP32, 1, d, false);
  ic_builder_var(b, 0, "bias", IC_FP32, 1, d, true);
  ic_builder_feed(b, "x");
  ic_tensor *bias;
  BU_CHECK(ic_tensor_create(IC_FP32, 1, d, &bias));
  BU_CHECK(ic_scope_set(scope, "bias", bias));
  ic_tensor_destroy(bias);
  char prev[32] = "x", cur[32];
  for (int i = 0; i < depth; i++) {
    snprintf(cur, sizeof cur, "a%d", i);
    ic_builder_var(b, 0, cur, IC_FP32, 1, d, false);
    ic_builder_op *op = ic_builder_add_op(b, 0, i % 2 ? "relu" : "elementwise_add");
    ic_builder_in(op, "X", prev);
    if (!(i % 2)) ic_builder_in(op, "Y", "bias");
    ic_builder_out(op, "Out", cur);
    memcpy(prev, cur, sizeof cur);
  }
  ic_builder_fetch(b, prev);
  ic_program *p;
  BU_CHECK(ic_builder_build(b, &p, NULL, 0));
  ic_builder_destroy(b);
  return p;
}

/* In a child: build, run once, report the peak RSS growth in KiB from before the feed and
 * the parameters were made. */
static long child_peak_kb(int depth, int64_t n, bool gc) {
  int fd[2];
  if (pipe(fd) != 0) exit(1);
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    long before = rss_kb();
    ic_scope *scope;
    BU_CHECK(ic_scope_create(NULL, &scope));
    ic_program *p = chain(depth, n, scope);
    ic_tensor *x;
    BU_CHECK(ic_tensor_create(IC_FP32, 1, (const int64_t[]){n}, &x));
    ic_options o;
    ic_options_default(&o);
    o.gc = gc;
    o.serial = true;
    ic_executor *e;
    BU_CHECK(ic_executor_create(&o, &e));
    char fetch[32];
    snprintf(fetch, sizeof fetch, "a%d", depth - 1);
    const char *feed = "x", *fn = fetch;
    ic_tensor *out;
    BU_CHECK(ic_executor_run(e, p, scope, 1, &feed, (const ic_tensor *const *)&x, 1, &fn, &out));
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long peak = ru.ru_maxrss - before;
    if (write(fd[1], &peak, sizeof peak) != sizeof peak) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  long peak = -1;
  if (read(fd[0], &peak, sizeof peak) != sizeof peak) peak = -1;
  close(fd[0]);
  int status;
  waitpid(pid, &status, 0);
  return peak;
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 32;
  int64_t mib = argc > 2 ? atoi(argv[2]) : 16;
  int64_t n = mib * 1024 * 1024 / 4;
  /* Ideal with GC: the feed and the bias parameter, plus the largest live set: one input and
   * one output at once (the last output and its copy for the caller, at the end). */
  long act_kb = (long)(mib * 1024);
  long ideal = 4 * act_kb;
  long with_gc = child_peak_kb(depth, n, true), without = child_peak_kb(depth, n, false);
  printf("# memory: chain of %d ops on %lld MiB activations, peak RSS growth of one run (fresh process each)\n", depth,
         (long long)mib);
  printf("%-22s %12s\n", "configuration", "peak (MiB)");
  printf("%-22s %12.1f\n", "ideal: feed+param+2", ideal / 1024.0);
  printf("%-22s %12.1f   (%.1f%% of ideal)\n", "GC on", with_gc / 1024.0, 100.0 * with_gc / ideal);
  printf("%-22s %12.1f\n", "GC off", without / 1024.0);
  return 0;
}
