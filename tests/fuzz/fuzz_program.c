/* libFuzzer target: program bytes through parsing, validation and analysis.
 *
 * Every input is parsed as a ProgramDesc; one that loads is analyzed into a plan for its own
 * feed and fetch targets, with and without inference rewrites (fuse) and with GC. Parsing
 * and analysis must never crash, leak or trip a sanitizer, whatever the bytes. */
#include <stddef.h>
#include <stdint.h>

#include "analysis/plan.h"
#include "icore/icore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ic_program *p = NULL;
  char msg[256];
  if (ic_program_from_bytes(data, size, "fuzz.pdmodel", &p, msg, sizeof msg) != IC_OK) return 0;
  size_t nf = ic_program_n_feed_targets(p), nt = ic_program_n_fetch_targets(p);
  const char *feeds[64], *fetches[64];
  if (nf > 64) nf = 64;
  if (nt > 64) nt = 64;
  for (size_t i = 0; i < nf; i++) feeds[i] = ic_program_feed_target(p, i);
  for (size_t i = 0; i < nt; i++) fetches[i] = ic_program_fetch_target(p, i);
  for (int fuse = 0; fuse < 2; fuse++) {
    ic_plan_options o = {.gc = true, .fuse = fuse != 0};
    ic_plan *plan = NULL;
    ic_err err;
    ic_err_clear(&err);
    if (ic_plan_build(p, nf, feeds, nt, fetches, &o, &plan, &err) == IC_OK) ic_plan_destroy(plan);
  }
  ic_program_destroy(p);
  return 0;
}
