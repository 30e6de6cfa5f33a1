/* Keeping GNU OpenMP's idle threads from spinning (see ompwait.c). */
#ifndef IC_INTERP_OMPWAIT_H
#define IC_INTERP_OMPWAIT_H

#include "icore/icore.h"

typedef struct ic_omp_ballast ic_omp_ballast;

/* For an executor whose kernels may run OpenMP teams of more than one thread: when the user
 * chose no OpenMP wait policy (neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT is set), start a
 * thread that holds one idle OpenMP team of omp_get_num_procs() threads, so that libgomp
 * manages more threads than there are CPUs and shortens every spin-wait to its throttled
 * count before sleeping. *out stays NULL when nothing is needed. */
ic_status ic_omp_ballast_start(int budget, ic_omp_ballast **out);

/* Stop the thread and let its team go. NULL does nothing. */
void ic_omp_ballast_stop(ic_omp_ballast *b);

#endif
