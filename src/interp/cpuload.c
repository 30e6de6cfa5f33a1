/* How many threads an executor should use now.
 *
 * GNU OpenMP (the runtime under oneDNN) lets a thread that waits for its team spin for
 * about 300,000 iterations (~3 ms) before it sleeps. On a quiet machine that spin is what
 * makes a two-thread team fast (MobileNetV2 batch 1: 2.3 ms at 2 threads against 4.0 at 1);
 * when another process holds one of the cores it is a collapse: the spinning thread keeps
 * the core from the teammate everyone waits for, and MobileNetV2 took 230-750 ms.
 *
 * So the executor asks this monitor, at the start of each run and before each instruction
 * that runs alone, how many threads its kernels' OpenMP teams may use (its own pool threads
 * sleep on condition variables when idle and need no such care). About every 100 ms it reads /proc/stat: the busy
 * time of the CPUs in the process's affinity mask, minus the process's own CPU time, over
 * the wall time since the last reading, is what other processes held. Niced processes
 * count only once they are seen to compete: CFS gives a nice-19 thread 1.5% of a core against
 * a nice-0 one, but only inside one scheduling group; with autogroups (a `nice`d job started
 * from another terminal or session) or in another cgroup a niced process weighs as much as
 * ours, and a 2-thread team beside two of them took 231 ms instead of 20 (CRNN batch 8).
 * So while others' niced time is half a core or more, the monitor also reads how long this
 * process's threads waited for a CPU (the run delay in /proc/self/task/N/schedstat); a fifth
 * of a core or more of waiting means the niced processes take CPUs from us, and from then on
 * their time counts (for the monitor's lifetime: the machine's scheduling groups do not
 * change). If this process is niced itself, niced time always counts. While they hold at
 * least half a core, the executor gives up that many (rounded) of its threads, down to one;
 * it takes them back when the others fall below a third of a core under what it gave up.
 * A team no larger than the free cores spins harmlessly. The OpenMP wait policy itself
 * cannot be changed from inside the process (libgomp reads its environment in its own
 * constructor), which is why the executor adapts its thread count instead; where this
 * monitor cannot run (no /proc/stat) the executor falls back to ompwait.c.
 *
 * Other runs of this process are counted directly: ic_executor_run enters and leaves a
 * process-wide count of runs in progress (the one piece of process-wide mutable state in icore,
 * because the cores and libgomp's spinning teams are the process's, not an executor's), and
 * while k runs are in progress each team gets a k-th of the free CPUs (at least one thread):
 * four executors of two threads each on two cores, or four threads calling one executor,
 * would otherwise start four spinning teams on two cores. */
#include "interp/cpuload.h" /* built with _GNU_SOURCE (CMakeLists.txt) */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WINDOW_NS 100000000LL /* 100 ms: /proc/stat counts in ticks */

struct ic_cpuload {
  int fd;
  char *buf;
  size_t cap;
  cpu_set_t cpus;
  int n_cpus;      /* CPUs in the affinity mask */
  bool count_nice; /* niced processes compete with this one (see above) */
  double tick_ns;  /* one /proc/stat unit */
  pthread_mutex_t lock;
  /* The last reading (under lock). */
  int64_t ref_wall, ref_self;
  unsigned long long ref_busy, ref_nice;
  int64_t ref_wait;   /* run delay of this process's threads, ns; -1 if not read last window */
  _Atomic int64_t next_check;
  atomic_int given_up;     /* threads given up now */
  atomic_int others_milli; /* last measurement */
  atomic_int injected;     /* -1, or a measurement to use instead */
};

static int64_t clock_ns(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The busy ticks of the CPUs in the mask, niced processes' apart (not in *busy unless
 * count_nice); false if /proc/stat could not be read. */
static bool read_busy(ic_cpuload *m, unsigned long long *busy, unsigned long long *nice) {
  if (lseek(m->fd, 0, SEEK_SET) != 0) return false;
  size_t n = 0;
  for (;;) {
    if (n + 1 >= m->cap) {
      size_t cap = m->cap * 2;
      char *b = realloc(m->buf, cap);
      if (!b) return false;
      m->buf = b;
      m->cap = cap;
    }
    ssize_t k = read(m->fd, m->buf + n, m->cap - 1 - n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return false;
    if (k == 0) break;
    n += (size_t)k;
  }
  m->buf[n] = '\0';
  unsigned long long sum = 0, nsum = 0;
  int seen = 0;
  for (char *line = m->buf; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9') continue;
    char *p;
    unsigned long cpu = strtoul(line + 3, &p, 10);
    if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &m->cpus)) continue;
    /* user nice system idle iowait irq softirq steal (guest time is inside user) */
    unsigned long long f[8] = {0};
    for (int k = 0; k < 8; k++) f[k] = strtoull(p, &p, 10);
    sum += f[0] + (m->count_nice ? f[1] : 0) + f[2] + f[5] + f[6] + f[7];
    nsum += f[1];
    seen++;
  }
  *busy = sum;
  *nice = nsum;
  return seen > 0;
}

/* The total time this process's threads have waited on a run queue for a CPU (the second
 * field of /proc/self/task/N/schedstat), or -1 where the kernel does not report it. */
static int64_t read_wait(void) {
  DIR *d = opendir("/proc/self/task");
  if (!d) return -1;
  int64_t sum = 0;
  bool any = false;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    if (de->d_name[0] < '0' || de->d_name[0] > '9') continue;
    char path[64], buf[128];
    snprintf(path, sizeof path, "/proc/self/task/%.20s/schedstat", de->d_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue; /* the thread has just exited */
    ssize_t k = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (k <= 0) continue;
    buf[k] = '\0';
    char *p;
    (void)strtoull(buf, &p, 10); /* time on the CPU */
    char *q;
    unsigned long long w = strtoull(p, &q, 10);
    if (q == p) continue;
    sum += (int64_t)w;
    any = true;
  }
  closedir(d);
  return any ? sum : -1;
}

ic_status ic_cpuload_create(int budget, ic_cpuload **out) {
  *out = NULL;
  if (budget <= 1) return IC_OK;
  ic_cpuload *m = calloc(1, sizeof *m);
  if (!m) return IC_ERR_OUT_OF_MEMORY;
  m->fd = -1;
  if (sched_getaffinity(0, sizeof m->cpus, &m->cpus) != 0) goto none;
  m->n_cpus = CPU_COUNT(&m->cpus);
  long tck = sysconf(_SC_CLK_TCK);
  if (m->n_cpus <= 1 || tck <= 0) goto none;
  m->tick_ns = 1e9 / (double)tck;
  errno = 0;
  int prio = getpriority(PRIO_PROCESS, 0);
  m->count_nice = errno == 0 && prio > 0;
  m->cap = 4096;
  if (!(m->buf = malloc(m->cap))) {
    free(m);
    return IC_ERR_OUT_OF_MEMORY;
  }
  m->fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
  if (m->fd < 0 || !read_busy(m, &m->ref_busy, &m->ref_nice)) goto none;
  m->ref_wait = -1;
  m->ref_wall = clock_ns(CLOCK_MONOTONIC);
  m->ref_self = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
  pthread_mutex_init(&m->lock, NULL);
  atomic_init(&m->next_check, m->ref_wall + WINDOW_NS);
  atomic_init(&m->given_up, 0);
  atomic_init(&m->others_milli, -1);
  atomic_init(&m->injected, -1);
  *out = m;
  return IC_OK;
none:
  if (m->fd >= 0) close(m->fd);
  free(m->buf);
  free(m);
  return IC_OK;
}

/* Threads to give up when others hold `milli` thousandths of a core, from `cur`. */
static int decide(int cur, int milli, int n_cpus) {
  int want = (milli + 500) / 1000; /* half a core or more counts as one */
  /* Hysteresis: keep what was given up until the others fall a third of a core below it. */
  if (want < cur && milli > cur * 1000 - 700) want = cur;
  if (want > n_cpus - 1) want = n_cpus - 1;
  return want < 0 ? 0 : want;
}

/* Whether niced processes holding nice_milli thousandths of a core compete with this one,
 * whose threads waited wait_milli thousandths of a core for a CPU over the same window
 * (wait_milli < 0: not measured). */
static bool nice_competes(int nice_milli, int wait_milli) {
  return nice_milli >= 500 && wait_milli >= 200;
}

static void sample(ic_cpuload *m, int64_t now) {
  int milli = atomic_load(&m->injected);
  if (milli < 0) {
    unsigned long long busy, nice;
    if (!read_busy(m, &busy, &nice)) {
      atomic_store(&m->next_check, now + WINDOW_NS);
      return;
    }
    int64_t self = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    double wall = (double)(now - m->ref_wall);
    double others = ((double)(busy - m->ref_busy) * m->tick_ns - (double)(self - m->ref_self)) / wall;
    double niced = (double)(nice - m->ref_nice) * m->tick_ns / wall;
    if (!m->count_nice) {
      /* Niced processes hold a core or more: do they take CPUs from us? */
      int64_t wait = niced >= 0.5 ? read_wait() : -1;
      int wait_milli = -1;
      if (wait >= 0 && m->ref_wait >= 0 && wait >= m->ref_wait)
        wait_milli = (int)((double)(wait - m->ref_wait) / wall * 1000 + 0.5);
      m->ref_wait = wait;
      if (nice_competes((int)(niced * 1000 + 0.5), wait_milli)) {
        m->count_nice = true; /* busy counts nice time from the next reading on */
        others += niced;
        busy += nice;
      }
    }
    if (others < 0) others = 0;
    if (others > m->n_cpus) others = m->n_cpus;
    milli = (int)(others * 1000 + 0.5);
    m->ref_busy = busy;
    m->ref_nice = nice;
    m->ref_self = self;
  }
  m->ref_wall = now;
  atomic_store(&m->others_milli, milli);
  atomic_store(&m->given_up, decide(atomic_load(&m->given_up), milli, m->n_cpus));
  atomic_store(&m->next_check, now + WINDOW_NS);
}

static atomic_int g_runs; /* runs in progress in this process (see above) */

void ic_cpuload_enter(void) { atomic_fetch_add_explicit(&g_runs, 1, memory_order_relaxed); }
void ic_cpuload_leave(void) { atomic_fetch_sub_explicit(&g_runs, 1, memory_order_relaxed); }

int ic_cpuload_budget(ic_cpuload *m, int budget) {
  if (!m || budget <= 1) return budget < 1 ? 1 : budget;
  int64_t now = clock_ns(CLOCK_MONOTONIC);
  if (now >= atomic_load_explicit(&m->next_check, memory_order_relaxed) &&
      pthread_mutex_trylock(&m->lock) == 0) {
    if (now >= atomic_load(&m->next_check)) sample(m, now);
    pthread_mutex_unlock(&m->lock);
  }
  int given_up = atomic_load_explicit(&m->given_up, memory_order_relaxed);
  int runs = atomic_load_explicit(&g_runs, memory_order_relaxed);
  if (!given_up && runs <= 1) return budget; /* a budget above the CPUs is the user's choice */
  int share = (m->n_cpus - given_up) / (runs > 1 ? runs : 1);
  return budget < share ? budget : share < 1 ? 1 : share;
}

int ic_cpuload_others_milli(const ic_cpuload *m) {
  return m ? atomic_load(&((ic_cpuload *)m)->others_milli) : -1;
}

void ic_cpuload_inject(ic_cpuload *m, int others_milli) {
  if (!m) return;
  atomic_store(&m->injected, others_milli < 0 ? -1 : others_milli);
  atomic_store(&m->next_check, 0);
}

int ic_cpuload_cpus(const ic_cpuload *m) { return m ? m->n_cpus : 0; }

void ic_cpuload_free(ic_cpuload *m) {
  if (!m) return;
  close(m->fd);
  pthread_mutex_destroy(&m->lock);
  free(m->buf);
  free(m);
}
