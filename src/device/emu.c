/* The emulated-stream device: "device" kernels are the CPU kernels, run with real stream
 * semantics so that multi-stream plans can be tested without a GPU. Every stream is a FIFO
 * worker thread; events are recorded and waited as CUDA's are; memory is allocated and
 * freed in stream order, and a block's freeing (in stream order) fills it with 0xFF before
 * it can be reused. With random delays injected before tasks, a missing event or an early
 * free shows up as a wrong answer instead of passing by luck.
 *
 * Lock order: a stream's lock, then the device lock (events and the memory pool); never
 * the other way round. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device/device.h"
#include "scope/scope.h"

typedef struct emu_device emu_device;

struct ic_devent {
  emu_device *dev;
  uint64_t recorded;      /* records issued (host side), guarded by dev->lock */
  uint64_t done;          /* records completed (stream side), guarded by dev->lock */
};

typedef enum task_kind { T_KERNEL, T_RECORD, T_WAIT, T_FREE, T_COPY, T_MARK } task_kind;

/* A kernel's context captured at launch: the tensors as they were then (data pointers and
 * meta, the inputs' LoD copied: box_clip reads it in its kernel), since the variables move on
 * while the task waits in the queue. */
typedef struct closure {
  ic_kctx ctx;
  ic_kslot *slots;        /* inputs then outputs */
  ic_tensor **ptrs;
  ic_tensor *tensors;
  size_t n_tensors;       /* each owns its LoD (a copy, or one the kernel set) */
  ic_kenv env;
  ic_err err;
  ic_kernel_fn fn;
} closure;

static void closure_free(closure *cl) {
  for (size_t k = 0; k < cl->n_tensors; k++) ic_lod_free(cl->tensors[k].lod);
  free(cl);
}

typedef struct task {
  struct task *next;
  task_kind kind;
  closure *cl;            /* T_KERNEL */
  ic_devent *ev;          /* T_RECORD, T_WAIT */
  uint64_t gen;           /* T_RECORD: the record number; T_WAIT: the record waited for */
  void *p;                /* T_FREE; T_COPY dst */
  const void *src;        /* T_COPY */
  size_t n;               /* T_FREE, T_COPY bytes */
} task;

struct ic_dstream {
  emu_device *dev;
  pthread_t thread;
  pthread_mutex_t lock;   /* guards the queue, idle, stop, err */
  pthread_cond_t cv;      /* a task arrived, or the stream went idle */
  task *head, *tail;
  bool busy;              /* running a task */
  bool stop;
  ic_err err;             /* the first kernel failure on this stream (sticky, as in CUDA) */
  uint64_t rng;           /* delays */
};

typedef struct block {
  struct block *next;
  size_t bytes;
} block;

struct emu_device {
  ic_device base;
  ic_emu_options opt;
  pthread_mutex_t lock;   /* guards events and the pool */
  pthread_cond_t ev_cv;   /* an event completed */
  block *pool;            /* freed blocks, reusable */
  atomic_uint_fast64_t tasks;
  atomic_uint_fast64_t n_streams; /* streams made, to give each its own delay sequence */
};

static const ic_device_vtbl k_emu;

/* ---- streams ---- */

static void delay(ic_dstream *s) {
  int max = s->dev->opt.max_delay_us;
  if (max <= 0) return;
  s->rng ^= s->rng << 13;
  s->rng ^= s->rng >> 7;
  s->rng ^= s->rng << 17;
  long us = (long)(s->rng % (uint64_t)(max + 1));
  struct timespec ts = {0, us * 1000};
  nanosleep(&ts, NULL);
}

static void pool_put(emu_device *d, void *p, size_t bytes) {
  if (d->opt.poison) memset(p, 0xFF, bytes);
  block *b = (block *)((char *)p - 64);
  b->bytes = bytes;
  pthread_mutex_lock(&d->lock);
  b->next = d->pool;
  d->pool = b;
  pthread_mutex_unlock(&d->lock);
}

static void run_task(ic_dstream *s, task *t) {
  emu_device *d = s->dev;
  switch (t->kind) {
    case T_KERNEL: {
      closure *cl = t->cl;
      delay(s);
      ic_status st = IC_OK;
      pthread_mutex_lock(&s->lock);
      bool failed = s->err.code != IC_OK;
      pthread_mutex_unlock(&s->lock);
      if (!failed) st = cl->fn(&cl->ctx);
      if (st) {
        pthread_mutex_lock(&s->lock);
        if (s->err.code == IC_OK) s->err = cl->err;
        pthread_mutex_unlock(&s->lock);
      }
      closure_free(cl);
      break;
    }
    case T_RECORD:
      pthread_mutex_lock(&d->lock);
      if (t->ev->done < t->gen) t->ev->done = t->gen;
      pthread_cond_broadcast(&d->ev_cv);
      pthread_mutex_unlock(&d->lock);
      break;
    case T_WAIT:
      pthread_mutex_lock(&d->lock);
      while (t->ev->done < t->gen) pthread_cond_wait(&d->ev_cv, &d->lock);
      pthread_mutex_unlock(&d->lock);
      break;
    case T_FREE:
      delay(s);
      pool_put(d, t->p, t->n);
      break;
    case T_COPY:
      delay(s);
      memcpy(t->p, t->src, t->n);
      break;
    case T_MARK:
      break;
  }
  atomic_fetch_add(&d->tasks, 1);
}

static void *stream_main(void *arg) {
  ic_dstream *s = arg;
  pthread_mutex_lock(&s->lock);
  for (;;) {
    while (!s->head && !s->stop) pthread_cond_wait(&s->cv, &s->lock);
    if (!s->head && s->stop) break;
    task *t = s->head;
    s->head = t->next;
    if (!s->head) s->tail = NULL;
    s->busy = true;
    pthread_mutex_unlock(&s->lock);
    run_task(s, t);
    free(t);
    pthread_mutex_lock(&s->lock);
    s->busy = false;
    pthread_cond_broadcast(&s->cv);
  }
  pthread_mutex_unlock(&s->lock);
  return NULL;
}

static ic_status enqueue(ic_dstream *s, task *t, ic_err *err) {
  if (!t) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "emulated device: out of memory");
  t->next = NULL;
  pthread_mutex_lock(&s->lock);
  if (s->tail) s->tail->next = t;
  else s->head = t;
  s->tail = t;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->lock);
  return IC_OK;
}

static task *new_task(task_kind k) {
  task *t = calloc(1, sizeof *t);
  if (t) t->kind = k;
  return t;
}

static ic_status stream_create(ic_device *base, ic_dstream **out, ic_err *err) {
  emu_device *d = (emu_device *)base;
  ic_dstream *s = calloc(1, sizeof *s);
  if (!s) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "emulated device: out of memory");
  s->dev = d;
  s->rng = (d->opt.seed ^ 0x9E3779B97F4A7C15ull) +
           (atomic_fetch_add(&d->n_streams, 1) + 1) * 0x632BE59BD9B4E019ull;
  ic_err_clear(&s->err);
  pthread_mutex_init(&s->lock, NULL);
  pthread_cond_init(&s->cv, NULL);
  if (pthread_create(&s->thread, NULL, stream_main, s) != 0) {
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->lock);
    free(s);
    return ic_err_set(err, IC_ERR_DEVICE, "emulated device: cannot start a stream thread");
  }
  *out = s;
  return IC_OK;
}

static void stream_destroy(ic_dstream *s) {
  if (!s) return;
  pthread_mutex_lock(&s->lock);
  s->stop = true;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->lock);
  pthread_join(s->thread, NULL);
  pthread_cond_destroy(&s->cv);
  pthread_mutex_destroy(&s->lock);
  free(s);
}

static ic_status sync_stream(ic_dstream *s, ic_err *err) {
  pthread_mutex_lock(&s->lock);
  while (s->head || s->busy) pthread_cond_wait(&s->cv, &s->lock);
  ic_status st = s->err.code;
  if (st) {
    *err = s->err;
    ic_err_clear(&s->err); /* reported once; the next run starts clean */
  }
  pthread_mutex_unlock(&s->lock);
  return st;
}

/* ---- events ---- */

static ic_status event_create(ic_device *base, ic_devent **out, ic_err *err) {
  ic_devent *e = calloc(1, sizeof *e);
  if (!e) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "emulated device: out of memory");
  e->dev = (emu_device *)base;
  *out = e;
  return IC_OK;
}

static void event_destroy(ic_devent *e) { free(e); }

static ic_status record(ic_devent *e, ic_dstream *s, ic_err *err) {
  task *t = new_task(T_RECORD);
  if (!t) return enqueue(s, t, err);
  pthread_mutex_lock(&e->dev->lock);
  t->gen = ++e->recorded;
  pthread_mutex_unlock(&e->dev->lock);
  t->ev = e;
  return enqueue(s, t, err);
}

static ic_status wait(ic_dstream *s, ic_devent *e, ic_err *err) {
  pthread_mutex_lock(&e->dev->lock);
  uint64_t gen = e->recorded; /* the last record issued so far, as CUDA waits on */
  pthread_mutex_unlock(&e->dev->lock);
  if (gen == 0) return IC_OK; /* never recorded: nothing to wait for */
  task *t = new_task(T_WAIT);
  if (t) {
    t->ev = e;
    t->gen = gen;
  }
  return enqueue(s, t, err);
}

static ic_status host_wait(ic_devent *e, ic_err *err) {
  emu_device *d = e->dev;
  pthread_mutex_lock(&d->lock);
  uint64_t gen = e->recorded;
  while (e->done < gen) pthread_cond_wait(&d->ev_cv, &d->lock);
  pthread_mutex_unlock(&d->lock);
  return IC_OK;
}

/* ---- memory: blocks carry a 64-byte header so that a freed block knows its size ---- */

static void *emu_malloc(ic_dstream *s, size_t bytes) {
  emu_device *d = s->dev;
  block *b = NULL, **pp;
  pthread_mutex_lock(&d->lock);
  for (pp = &d->pool; *pp; pp = &(*pp)->next) {
    if ((*pp)->bytes == bytes) {
      b = *pp;
      *pp = b->next;
      break;
    }
  }
  pthread_mutex_unlock(&d->lock);
  if (!b) {
    b = aligned_alloc(64, (64 + bytes + 63) & ~(size_t)63);
    if (!b) return NULL;
    b->bytes = bytes;
  }
  return (char *)b + 64;
}

static void emu_free(ic_dstream *s, void *p, size_t bytes) {
  task *t = new_task(T_FREE);
  if (!t) {
    /* Out of memory for the task: wait for the stream and free at once (still in order). */
    ic_err e;
    sync_stream(s, &e);
    pool_put(s->dev, p, bytes);
    return;
  }
  t->p = p;
  t->n = bytes;
  ic_err e;
  enqueue(s, t, &e);
}

static ic_status emu_memcpy(ic_dstream *s, void *dst, const void *src, size_t n,
                            ic_copy_kind kind, ic_err *err) {
  (void)kind;
  task *t = new_task(T_COPY);
  if (t) {
    t->p = dst;
    t->src = src;
    t->n = n;
  }
  return enqueue(s, t, err);
}

/* ---- kernels ---- */

static ic_status launch(ic_dstream *s, ic_kernel_fn fn, const ic_kctx *ctx, ic_err *err) {
  const ic_opdef *def = ctx->def;
  size_t n_slots = def->n_inputs + def->n_outputs, n_t = 0;
  for (size_t k = 0; k < def->n_inputs; k++) n_t += ctx->in[k].n;
  for (size_t k = 0; k < def->n_outputs; k++) n_t += ctx->out[k].n;
  /* One allocation: closure, slots, pointers, tensors. */
  size_t bytes = sizeof(closure) + n_slots * sizeof(ic_kslot) + n_t * sizeof(ic_tensor *) +
                 n_t * sizeof(ic_tensor) + 64;
  closure *cl = calloc(1, bytes);
  if (!cl) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "emulated device: out of memory");
  cl->slots = (ic_kslot *)(cl + 1);
  cl->ptrs = (ic_tensor **)(cl->slots + n_slots);
  cl->tensors = (ic_tensor *)(((uintptr_t)(cl->ptrs + n_t) + 15) & ~(uintptr_t)15);
  size_t at = 0;
  for (size_t k = 0; k < n_slots; k++) {
    const ic_kslot *src = k < def->n_inputs ? &ctx->in[k] : &ctx->out[k - def->n_inputs];
    cl->slots[k] = *src;
    cl->slots[k].t = &cl->ptrs[at];
    for (size_t j = 0; j < src->n; j++, at++) {
      cl->tensors[at] = *src->t[j];
      cl->tensors[at].lod = NULL;
      cl->ptrs[at] = &cl->tensors[at];
      cl->n_tensors = at + 1;
      if (k < def->n_inputs && src->t[j]->lod &&
          !(cl->tensors[at].lod = ic_lod_clone(src->t[j]->lod))) {
        closure_free(cl);
        return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "emulated device: out of memory");
      }
    }
  }
  cl->ctx = *ctx;
  cl->ctx.in = cl->slots;
  cl->ctx.out = cl->slots + def->n_inputs;
  cl->env = *ctx->env;
  cl->ctx.env = &cl->env;
  ic_err_clear(&cl->err);
  cl->ctx.err = &cl->err;
  /* Kernel state is the instruction's, touched by one kernel at a time: the stream order of
   * one instruction's launches keeps it so. */
  cl->fn = fn;
  task *t = new_task(T_KERNEL);
  if (!t) {
    closure_free(cl);
    return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "emulated device: out of memory");
  }
  t->cl = cl;
  return enqueue(s, t, err);
}

static void kenv(ic_dstream *s, ic_kenv *env) {
  env->stream = s;
  env->blas = NULL;
  env->dnn = NULL;
}

/* Every CPU kernel runs on the emulated device, except ops whose kernel changes its outputs'
 * buffers itself (shares or allocates them) without being a pure view: that must happen at
 * launch, and the emulated launch runs the kernel later. Those stay on the CPU. */
static ic_kernel_fn kernel(const ic_opdef *def) {
  if (def->flags & (IC_OP_FEED | IC_OP_FETCH)) return NULL;
  if (def->flags & IC_OP_VIEW) return def->cpu;
  for (size_t k = 0; k < def->n_inputs; k++) {
    if (def->inputs[k].flags & IC_SLOT_VALUE) return NULL; /* reads values on the host */
  }
  for (size_t k = 0; k < def->n_outputs; k++) {
    if (def->outputs[k].flags & (IC_SLOT_SHARE | IC_SLOT_HOLDER | IC_SLOT_DYNAMIC)) return NULL;
  }
  return def->cpu;
}

static void destroy(ic_device *base) {
  emu_device *d = (emu_device *)base;
  for (block *b = d->pool, *n; b; b = n) {
    n = b->next;
    free(b);
  }
  pthread_cond_destroy(&d->ev_cv);
  pthread_mutex_destroy(&d->lock);
  free(d);
}

static const ic_device_vtbl k_emu = {
    .name = "emu",
    .destroy = destroy,
    .stream_create = stream_create,
    .stream_destroy = stream_destroy,
    .event_create = event_create,
    .event_destroy = event_destroy,
    .record = record,
    .wait = wait,
    .host_wait = host_wait,
    .sync = sync_stream,
    .malloc = emu_malloc,
    .free = emu_free,
    .memcpy = emu_memcpy,
    .launch = launch,
    .kenv = kenv,
    .kernel = kernel,
};

ic_status ic_emu_open(int index, const ic_emu_options *o, ic_device **out, ic_err *err) {
  emu_device *d = calloc(1, sizeof *d);
  if (!d) return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "emulated device: out of memory");
  d->base.v = &k_emu;
  d->base.place = (ic_place){IC_PLACE_EMULATED, index};
  if (o) d->opt = *o;
  pthread_mutex_init(&d->lock, NULL);
  pthread_cond_init(&d->ev_cv, NULL);
  atomic_init(&d->tasks, 0);
  atomic_init(&d->n_streams, 0);
  *out = &d->base;
  return IC_OK;
}

uint64_t ic_emu_tasks_run(const ic_device *base) {
  return atomic_load(&((emu_device *)base)->tasks);
}
