/* Error records: a status code plus a message naming where the error happened. */
#ifndef IC_COMMON_ERR_H
#define IC_COMMON_ERR_H

#include <stddef.h>

#include "icore/icore.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IC_ERRMSG_MAX 1024

typedef struct ic_err {
  ic_status code;          /* IC_OK while nothing has failed */
  char msg[IC_ERRMSG_MAX]; /* NUL-terminated; truncated with "..." when too long */
} ic_err;

/* Clear e to IC_OK with an empty message. */
void ic_err_clear(ic_err *e);
/* Record code and a printf-style message in e; returns code so callers can
 * `return ic_err_set(...)`. */
ic_status ic_err_set(ic_err *e, ic_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prepend context ("op #3 (relu): ") to the message already in e; returns e->code. */
ic_status ic_err_prefix(ic_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Copy e's message into a caller buffer (may be NULL or 0 long). */
void ic_err_out(const ic_err *e, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
