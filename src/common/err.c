#include "common/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ic_err_clear(ic_err *e) {
  e->code = IC_OK;
  e->msg[0] = '\0';
}

static void mark_truncated(char *msg, int n) {
  if (n >= IC_ERRMSG_MAX) memcpy(msg + IC_ERRMSG_MAX - 4, "...", 4);
}

ic_status ic_err_set(ic_err *e, ic_status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  mark_truncated(e->msg, n);
  e->code = code;
  return code;
}

ic_status ic_err_prefix(ic_err *e, const char *fmt, ...) {
  char head[IC_ERRMSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  int h = vsnprintf(head, sizeof head, fmt, ap);
  va_end(ap);
  if (h < 0) return e->code;
  char tmp[IC_ERRMSG_MAX];
  int n = snprintf(tmp, sizeof tmp, "%s%s", head, e->msg);
  memcpy(e->msg, tmp, sizeof tmp);
  mark_truncated(e->msg, n);
  return e->code;
}

void ic_err_out(const ic_err *e, char *buf, size_t len) {
  if (!buf || len == 0) return;
  snprintf(buf, len, "%s", e->msg);
}
