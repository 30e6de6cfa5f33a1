/* CUDA kernels by op: a sorted table from cuda/cuda_ops.def (empty without IC_WITH_CUDA). */
#include <stddef.h>
#include <string.h>

#include "kernels/kernel.h"

#ifdef IC_WITH_CUDA
#define IC_CUDA_OP(n) ic_status ic_cuda_##n(ic_kctx *ctx);
#include "kernels/cuda/cuda_ops.def"
#undef IC_CUDA_OP

typedef struct entry {
  const char *name;
  ic_kernel_fn fn;
} entry;

static const entry table[] = {
#define IC_CUDA_OP(n) {#n, ic_cuda_##n},
#include "kernels/cuda/cuda_ops.def"
#undef IC_CUDA_OP
    {NULL, NULL}};

ic_kernel_fn ic_registry_cuda(const ic_opdef *def) {
  /* A variant (sum over tensor arrays) shares its op's name but not its CUDA kernel. */
  if (ic_registry_find(def->name) != def) return NULL;
  for (const entry *e = table; e->name; e++) {
    if (strcmp(e->name, def->name) == 0) return e->fn;
  }
  return NULL;
}

/* CUDA kernels that keep per-instruction state (cuDNN descriptors and algorithm choices). */
void ic_cuconv_free_state(void *state);

typedef struct state_entry {
  const char *name;
  void (*free_state)(void *);
} state_entry;

static const state_entry states[] = {
    {"conv2d", ic_cuconv_free_state},
    {"depthwise_conv2d", ic_cuconv_free_state},
    {NULL, NULL}};

void (*ic_registry_cuda_free_state(const ic_opdef *def))(void *) {
  for (const state_entry *e = states; e->name; e++) {
    if (strcmp(e->name, def->name) == 0) return e->free_state;
  }
  return NULL;
}
#else
void (*ic_registry_cuda_free_state(const ic_opdef *def))(void *) {
  (void)def;
  return NULL;
}

ic_kernel_fn ic_registry_cuda(const ic_opdef *def) {
  (void)def;
  return NULL;
}
#endif
