/* seed (what dropout's Seed input reads; phi SeedKernel): Out int32 [1] = the `seed`
 * attribute, or when it is 0 a value drawn from the executor's random stream (Paddle draws
 * from std::random_device: not reproducible either way). deterministic, rng_name and
 * force_cpu are accepted. */
#include "kernels/cpu/philox.h"
#include "kernels/kernel.h"

typedef struct seed_attrs {
  int64_t seed;
} seed_attrs;

static ic_status parse(ic_attr_reader *r, void *attrs) {
  ((seed_attrs *)attrs)->seed = ic_ar_int(r, "seed", 0);
  (void)ic_ar_bool(r, "deterministic", false);
  (void)ic_ar_str(r, "rng_name", "");
  (void)ic_ar_bool(r, "force_cpu", false);
  return r->st;
}

static ic_status infer(ic_kctx *c) {
  ic_tensor_set_meta(ic_out(c, 0, 0), IC_INT32, 1, (int64_t[]){1});
  return IC_OK;
}

static ic_status run(ic_kctx *c) {
  const seed_attrs *a = c->attrs;
  int32_t v = (int32_t)a->seed;
  if (v == 0) {
    const ic_philox4 r = ic_philox_block(ic_philox_key(0, c->env->seed, c->op_key), 0);
    v = (int32_t)(r.v[0] & 0x7fffffffu);
  }
  ((int32_t *)ic_out(c, 0, 0)->data)[0] = v;
  return IC_OK;
}

static const ic_slotdef outputs[] = {{"Out", 0}};

const ic_opdef ic_op_seed = {
    .name = "seed", .n_inputs = 0, .inputs = NULL, .n_outputs = 1, .outputs = outputs,
    .attrs_size = sizeof(seed_attrs), .parse = parse,
    .infer = infer, .cpu = run,
    .flags = IC_OP_RANDOM,
};
