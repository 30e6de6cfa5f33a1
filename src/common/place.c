/* Places: parsing and naming. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icore/icore.h"

ic_status ic_place_parse(const char *s, ic_place *out) {
  if (!s || !out) return IC_ERR_INVALID_ARGUMENT;
  static const struct {
    const char *name;
    ic_place_kind kind;
  } kinds[] = {{"cpu", IC_PLACE_CPU}, {"cuda", IC_PLACE_CUDA}, {"gpu", IC_PLACE_CUDA},
               {"emu", IC_PLACE_EMULATED}};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    size_t n = strlen(kinds[i].name);
    if (strncmp(s, kinds[i].name, n) != 0) continue;
    const char *rest = s + n;
    long idx = 0;
    if (*rest == ':') {
      char *end;
      idx = strtol(rest + 1, &end, 10);
      if (end == rest + 1 || *end || idx < 0 || idx > 1023) return IC_ERR_INVALID_ARGUMENT;
    } else if (*rest) {
      continue;
    }
    if (kinds[i].kind == IC_PLACE_CPU && idx != 0) return IC_ERR_INVALID_ARGUMENT;
    out->kind = kinds[i].kind;
    out->index = (int)idx;
    return IC_OK;
  }
  return IC_ERR_INVALID_ARGUMENT;
}

const char *ic_place_name(ic_place p, char *buf, size_t len) {
  switch (p.kind) {
    case IC_PLACE_CPU: snprintf(buf, len, "cpu"); break;
    case IC_PLACE_CUDA: snprintf(buf, len, "cuda:%d", p.index); break;
    case IC_PLACE_EMULATED: snprintf(buf, len, "emu:%d", p.index); break;
    default: snprintf(buf, len, "place(%d)", (int)p.kind); break;
  }
  return buf;
}
