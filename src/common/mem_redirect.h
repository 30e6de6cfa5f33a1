/* Force-included into every C source of the library (CMakeLists.txt): the standard
 * allocation functions become the counting wrappers of common/mem.h. The standard headers
 * are included first so that their declarations are not renamed. A call through a struct
 * member named like one of them must be written (s->malloc)(...) to escape the macro. */
#ifndef IC_COMMON_MEM_REDIRECT_H
#define IC_COMMON_MEM_REDIRECT_H
#include <stdlib.h>
#include <string.h>

#include "common/mem.h"

#define malloc(n) ic_malloc(n)
#define calloc(n, s) ic_calloc(n, s)
#define realloc(p, n) ic_realloc(p, n)
#define strdup(s) ic_strdup(s)
#define strndup(s, n) ic_strndup(s, n)
#define aligned_alloc(a, n) ic_aligned_alloc(a, n)
#endif
