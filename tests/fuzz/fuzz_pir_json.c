/* libFuzzer target: PIR JSON programs (src/program/pir_json.c) through the public loader.
 * Any input must load or fail with a message; never crash, hang, leak or read out of
 * bounds. Inputs that do not start with '{' are made to (a JSON document), so the fuzzer
 * spends its time in the translator rather than in the protobuf path. Seeds:
 * tests/data/pir/<case>/model.json.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc -Ibuild/proto \
 *     tests/fuzz/fuzz_pir_json.c build/libicore.a $(pkg-config --libs jansson \
 *     libprotobuf-c libxxhash openblas) -ldnnl -fopenmp -lm -o fuzz_pir_json
 *   ./fuzz_pir_json -max_len=65536 tests/data/pir/ */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "icore/icore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *buf = malloc(size + 1);
  if (!buf) return 0;
  buf[0] = '{';
  if (size) memcpy(buf + 1, data, size);
  const uint8_t *doc = size && data[0] == '{' ? data : buf;
  size_t n = doc == data ? size : size + 1;
  ic_program *p = NULL;
  char err[1024];
  if (ic_program_from_bytes(doc, n, "fuzz.json", &p, err, sizeof err) == IC_OK) {
    /* Exercise what callers read of a loaded program. */
    size_t bytes;
    (void)ic_program_bytes(p, &bytes);
    for (size_t i = 0; i < ic_program_n_feed_targets(p); i++) (void)ic_program_feed_target(p, i);
    for (size_t i = 0; i < ic_program_n_fetch_targets(p); i++) (void)ic_program_fetch_target(p, i);
    ic_program_destroy(p);
  } else if (!err[0]) {
    abort(); /* a failure must say why */
  }
  free(buf);
  return 0;
}
