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
 * a nice-0 one, but only inside one scheduling group; in another cpu cgroup, or with
 * autogroups (a `nice`d job started from another terminal or session) a niced process weighs
 * as much as ours, and a 2-thread team beside two of them took 231 ms instead of 20 (CRNN
 * batch 8). So while others' niced time is half a core or more, the monitor looks at the
 * running niced processes (at most every 5 s: a walk of /proc): one in another cpu task
 * group competes, and so does one in another autogroup whose group is not niced more than
 * ours, where the kernel applies autogroups (only to tasks in the root task group: not in a
 * container whose cgroup has the cpu controller, where a niced job in another session
 * yields); then niced time counts until the next look. (An earlier version inferred
 * competition from this process's run delay, but its own threads wait for each other too,
 * for instance an OpenMP member spinning beside a pool thread, and that made nice-19 jobs in
 * nice-19 autogroups count.) If this process is
 * niced itself, niced time always counts. While they hold at
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
  bool count_nice; /* this process is niced: niced time always counts */
  bool nice_counts; /* the last look found a niced process that competes with this one */
  int64_t next_look; /* when to look again (CLOCK_MONOTONIC ns) */
  double tick_ns;  /* one /proc/stat unit */
  pthread_mutex_t lock;
  /* The last reading (under lock). */
  int64_t ref_wall, ref_self;
  unsigned long long ref_busy, ref_nice;
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

/* The first line of a small /proc file, or false. */
static bool read_line(const char *path, char *buf, size_t cap) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t k = read(fd, buf, cap - 1);
  close(fd);
  if (k <= 0) return false;
  buf[k] = '\0';
  return true;
}

/* The cpu task group of a process from its /proc/PID/cgroup text: a cgroup v1 hierarchy with
 * the cpu controller gives its path; on cgroup v2 it is the deepest of the path and its
 * ancestors whose directory under v2_mount has cpu.weight (the cpu controller is on there;
 * the root never has one), or "/" where none has. *is_root: the process is in the root task
 * group, the only one where the kernel applies autogroups. Without v2_mount the v2 path itself
 * is taken. False if the text names no cgroup. */
bool ic_cpuload_cpu_group(const char *text, const char *v2_mount, char *out, size_t cap,
                          bool *is_root) {
  char v2[512] = "";
  bool have_v2 = false;
  for (const char *line = text; line && *line;) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) : strlen(line);
    const char *c1 = memchr(line, ':', len);
    const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line)) : NULL;
    if (c2) {
      const char *path = c2 + 1;
      size_t plen = len - (size_t)(path - line);
      if (c2 == c1 + 1) {
        if (plen < sizeof v2) {
          memcpy(v2, path, plen);
          v2[plen] = '\0';
          have_v2 = true;
        }
      }
      for (const char *t = c1 + 1; t < c2;) {
        size_t n = strcspn(t, ",:");
        if (n == 3 && !strncmp(t, "cpu", 3)) {
          snprintf(out, cap, "%.*s", (int)plen, path);
          *is_root = plen == 1 && path[0] == '/';
          return true;
        }
        t += n + (t[n] == ',');
      }
    }
    line = nl ? nl + 1 : NULL;
  }
  if (!have_v2 || v2[0] != '/') return false;
  if (v2_mount) {
    char q[512], file[1100];
    snprintf(q, sizeof q, "%s", v2);
    for (;;) {
      snprintf(file, sizeof file, "%s%s/cpu.weight", v2_mount, strcmp(q, "/") ? q : "");
      if (access(file, F_OK) == 0) {
        snprintf(out, cap, "%s", q);
        *is_root = false;
        return true;
      }
      char *slash = strrchr(q, '/');
      if (!slash || slash == q) {
        if (!strcmp(q, "/")) break;
        q[1] = '\0';
      } else {
        *slash = '\0';
      }
    }
    snprintf(out, cap, "/");
    *is_root = true;
    return true;
  }
  snprintf(out, cap, "%s", v2);
  *is_root = !strcmp(v2, "/");
  return true;
}

/* Where this process sees the cgroup v2 hierarchy (/proc/self/mountinfo), or false. */
static bool cgroup2_mount(char *out, size_t cap) {
  FILE *f = fopen("/proc/self/mountinfo", "re");
  if (!f) return false;
  char line[1024];
  bool found = false;
  while (!found && fgets(line, sizeof line, f)) {
    /* id parent major:minor root mountpoint options [optional...] - fstype source opts */
    char root[256], mnt[512];
    if (sscanf(line, "%*s %*s %*s %255s %511s", root, mnt) != 2) continue;
    const char *dash = strstr(line, " - ");
    if (!dash || strncmp(dash + 3, "cgroup2 ", 8) != 0 || strcmp(root, "/") != 0) continue;
    snprintf(out, cap, "%s", mnt);
    found = true;
  }
  fclose(f);
  return found;
}

static bool pid_cpu_group(const char *pid, const char *v2_mount, char *out, size_t cap,
                          bool *is_root) {
  char path[64], buf[2048];
  snprintf(path, sizeof path, "/proc/%.20s/cgroup", pid);
  return read_line(path, buf, sizeof buf) &&
         ic_cpuload_cpu_group(buf, v2_mount, out, cap, is_root);
}

/* /proc/PID/autogroup: "/autogroup-N nice K" -> N and K; false if there is none. */
static bool autogroup(const char *pid, long *id, int *nice) {
  char path[64], buf[128];
  snprintf(path, sizeof path, "/proc/%.20s/autogroup", pid);
  return read_line(path, buf, sizeof buf) && sscanf(buf, "/autogroup-%ld nice %d", id, nice) == 2;
}

/* What a look at the niced processes compares them with: this process's nice, cpu task group,
 * session and autogroup. */
typedef struct {
  int nice;
  const char *mnt; /* the cgroup2 mount, or NULL */
  char mnt_buf[512];
  char cg[512];
  bool have_cg, cg_root;
  bool ag_on; /* the kernel applies autogroups to this process */
  bool have_ag;
  long ag;
  int ag_nice;
  long sid;
} niced_ctx;

static bool niced_ctx_init(niced_ctx *c) {
  memset(c, 0, sizeof *c);
  errno = 0;
  c->nice = getpriority(PRIO_PROCESS, 0);
  if (errno) return false;
  c->mnt = cgroup2_mount(c->mnt_buf, sizeof c->mnt_buf) ? c->mnt_buf : NULL;
  c->cg_root = true;
  c->have_cg = pid_cpu_group("self", c->mnt, c->cg, sizeof c->cg, &c->cg_root);
  char on[8] = "";
  c->ag_on = c->cg_root &&
             read_line("/proc/sys/kernel/sched_autogroup_enabled", on, sizeof on) && on[0] == '1';
  c->ag = -1;
  c->have_ag = c->ag_on && autogroup("self", &c->ag, &c->ag_nice);
  c->sid = (long)getsid(0);
  return true;
}

/* Whether process pid (a /proc name), if niced more than this one (and running, if asked),
 * sits in a scheduling group where nice does not make it yield to this process:
 *  - in another cpu task group, unless it is in the root group and we are not: our group
 *    weighs as much as a nice-0 task there, so there it yields by its nice, or by its
 *    autogroup's nice where autogroups apply to it;
 *  - in our (root) group where the kernel applies autogroups, in another autogroup whose nice
 *    is not above ours (another session, where /proc/PID/autogroup cannot be read). */
static bool niced_competes(const niced_ctx *c, const char *pid, bool running) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%.20s/stat", pid);
  if (!read_line(path, buf, sizeof buf)) return false;
  /* pid (comm) state ppid pgrp session ... : state is the first field after the last ')',
   * session the fourth, nice the seventeenth */
  char *p = strrchr(buf, ')');
  if (!p) return false;
  char state = 0;
  long nice = 0, sid = -1;
  int field = 0;
  char *save = NULL;
  for (char *t = strtok_r(p + 1, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
    field++;
    if (field == 1) state = t[0];
    if (field == 4) sid = strtol(t, NULL, 10);
    if (field == 17) {
      nice = strtol(t, NULL, 10);
      break;
    }
  }
  if (field < 17 || (running && state != 'R') || nice <= c->nice) return false;
  char cg[512];
  bool root = true;
  bool have_cg = c->have_cg && pid_cpu_group(pid, c->mnt, cg, sizeof cg, &root);
  long ag;
  int ag_nice;
  if (have_cg && strcmp(cg, c->cg) != 0) {
    if (!root) return true; /* another group below the root: weighs as much as ours */
    if (c->cg_root) return true;
    /* It is in the root group, we are in a cgroup: autogroups apply to it if enabled. */
    char on[8] = "";
    if (read_line("/proc/sys/kernel/sched_autogroup_enabled", on, sizeof on) && on[0] == '1' &&
        autogroup(pid, &ag, &ag_nice))
      return ag_nice <= 0;
    return false;
  }
  if (!c->ag_on || !root) return false;
  if (c->have_ag && autogroup(pid, &ag, &ag_nice)) return ag != c->ag && ag_nice <= c->ag_nice;
  return sid >= 0 && sid != c->sid; /* autogroups follow sessions */
}

/* Whether any running process niced more than this one competes with it (niced_competes). */
static bool niced_compete(void) {
  niced_ctx c;
  if (!niced_ctx_init(&c)) return false;
  char self[24];
  snprintf(self, sizeof self, "%ld", (long)getpid());
  DIR *d = opendir("/proc");
  if (!d) return false;
  bool found = false;
  struct dirent *de;
  while (!found && (de = readdir(d)) != NULL) {
    const char *pid = de->d_name;
    if (pid[0] < '0' || pid[0] > '9' || !strcmp(pid, self)) continue;
    found = niced_competes(&c, pid, true);
  }
  closedir(d);
  return found;
}

bool ic_cpuload_niced_compete(void) { return niced_compete(); }

bool ic_cpuload_niced_competes(pid_t pid) {
  niced_ctx c;
  if (!niced_ctx_init(&c)) return false;
  char name[24];
  snprintf(name, sizeof name, "%ld", (long)pid);
  return niced_competes(&c, name, false);
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
    if (!m->count_nice && niced >= 0.5) {
      /* Niced processes hold half a core or more: do they yield to us? */
      if (now >= m->next_look) {
        m->nice_counts = niced_compete();
        m->next_look = now + 5 * 1000000000LL;
      }
      if (m->nice_counts) others += niced;
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
