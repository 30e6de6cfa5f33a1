/* GNU OpenMP (the runtime oneDNN is built with) lets a thread that waits for work, or for
 * the rest of its team at a barrier, spin for about 300,000 iterations (~3 ms, up to 15 ms
 * where `pause` is slow) before it sleeps, unless OMP_WAIT_POLICY or GOMP_SPINCOUNT says
 * otherwise. When another process holds a core, that spin keeps a core from the thread
 * whose half of the work everyone waits for: MobileNetV2 at 2 threads went from 10 to
 * 230-750 ms per batch-1 run with one core busy.
 *
 * The policy cannot be changed from inside the process: libgomp reads its environment in
 * its own constructor, which runs before any of ours (and before main), and has no call to
 * set it later. What it does offer (documented under GOMP_SPINCOUNT in the libgomp manual):
 * when it manages more threads than there are CPUs, every spin is cut to the throttled
 * count (100 iterations when no policy is set) and the thread then sleeps on a futex. So
 * an executor that may run teams of more than one thread keeps one idle team of
 * omp_get_num_procs() threads alive in a thread of its own, asleep, for its lifetime. It
 * costs those sleeping threads and nothing per run; a user who sets OMP_WAIT_POLICY or
 * GOMP_SPINCOUNT gets exactly that instead. */
#include "interp/ompwait.h"

#include <omp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

struct ic_omp_ballast {
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t cv;
  bool stop;
  int team;
};

static void *ballast_main(void *arg) {
  ic_omp_ballast *b = arg;
  int joined = 0;
  /* The team's threads stay in this thread's libgomp pool, asleep, until it exits. */
#pragma omp parallel num_threads(b->team)
  {
#pragma omp atomic
    joined++;
  }
  (void)joined;
  pthread_mutex_lock(&b->lock);
  while (!b->stop) pthread_cond_wait(&b->cv, &b->lock);
  pthread_mutex_unlock(&b->lock);
  return NULL;
}

ic_status ic_omp_ballast_start(int budget, ic_omp_ballast **out) {
  *out = NULL;
  if (budget <= 1 || getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT")) return IC_OK;
  ic_omp_ballast *b = calloc(1, sizeof *b);
  if (!b) return IC_ERR_OUT_OF_MEMORY;
  int procs = omp_get_num_procs();
  b->team = procs > 1 ? procs : 2;
  pthread_mutex_init(&b->lock, NULL);
  pthread_cond_init(&b->cv, NULL);
  if (pthread_create(&b->thread, NULL, ballast_main, b) != 0) {
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->lock);
    free(b);
    return IC_ERR_INTERNAL;
  }
  *out = b;
  return IC_OK;
}

void ic_omp_ballast_stop(ic_omp_ballast *b) {
  if (!b) return;
  pthread_mutex_lock(&b->lock);
  b->stop = true;
  pthread_cond_signal(&b->cv);
  pthread_mutex_unlock(&b->lock);
  pthread_join(b->thread, NULL);
  pthread_cond_destroy(&b->cv);
  pthread_mutex_destroy(&b->lock);
  free(b);
}
