/* How many of an executor's threads the machine can give it now (see cpuload.c). */
#ifndef IC_INTERP_CPULOAD_H
#define IC_INTERP_CPULOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <stdint.h>

#include "icore/icore.h"

typedef struct ic_cpuload ic_cpuload;

/* A monitor of the CPUs this process may run on (its affinity mask). *out stays NULL where
 * there is nothing to adapt (budget 1, one CPU) or /proc/stat cannot be read; the caller
 * then keeps its budget. */
ic_status ic_cpuload_create(int budget, ic_cpuload **out);

/* The threads to use from now: the budget, or fewer while other processes hold some of the
 * CPUs or other runs of this process share them. Cheap (one clock read) except about every 100 ms, when it reads /proc/stat. Safe to
 * call from several threads; NULL returns the budget. */
int ic_cpuload_budget(ic_cpuload *m, int budget);

/* A run of any executor of this process starts / ends. While several run at once, each
 * kernel team gets its share of the free CPUs (ic_cpuload_budget). */
void ic_cpuload_enter(void);
void ic_cpuload_leave(void);

/* Cores held by other processes over the last window, in thousandths (for tests and
 * bench_model --profile); -1 before the first window ends. */
int ic_cpuload_others_milli(const ic_cpuload *m);

/* For tests: decide from this measurement instead of /proc/stat's (cores held by others, in
 * thousandths; -1 goes back to measuring). */
void ic_cpuload_inject(ic_cpuload *m, int others_milli);

/* Whether a running process niced more than this one is in another scheduling group (another
 * cpu cgroup, or, where the kernel applies autogroups, an autogroup niced no more than ours),
 * where it competes at full weight; the monitor asks this while niced processes hold half a
 * core (for tests). */
bool ic_cpuload_niced_compete(void);

/* The same question about one process, running or not: whether it is niced more than this one
 * and in such a group (for tests). */
bool ic_cpuload_niced_competes(pid_t pid);

/* A process's cpu task group from its /proc/PID/cgroup text (v2 paths resolved under
 * v2_mount, the cgroup2 mount, by where cpu.weight exists; NULL takes the path as it is) into
 * out; *is_root: the root task group, the only one where autogroups apply. False if the text
 * names no cgroup. Exposed for tests. */
bool ic_cpuload_cpu_group(const char *text, const char *v2_mount, char *out, size_t cap,
                          bool *is_root);

/* The CPUs in the affinity mask it watches. */
int ic_cpuload_cpus(const ic_cpuload *m);

void ic_cpuload_free(ic_cpuload *m);

#endif
