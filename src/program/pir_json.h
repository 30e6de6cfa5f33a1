/* Paddle 3's PIR JSON programs (model.json, inference.json): translated into a ProgramDesc
 * with the program builder, so that one loader, one validation, one analysis and one
 * executor serve both formats and nothing after loading knows which file a program came
 * from. */
#ifndef IC_PROGRAM_PIR_JSON_H
#define IC_PROGRAM_PIR_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The PIR serializer versions (base_code.version) icore reads: 0 to 4 are what Paddle 3.0
 * to 3.3 write (1: 3.0.0b2 to 3.0.0, 2: 3.1.x, 3: 3.2.x, 4: 3.3.x; 0: development builds).
 * Newer versions are refused (they may change ops icore translates). */
#define IC_PIR_VERSION_MAX 4

/* Whether the bytes look like a JSON document: '{' after nothing but spaces, tabs and
 * carriage returns. A ProgramDesc can never start so: 0x7B would be field 15 with the
 * deprecated group wire type, which ProgramDesc does not have; a newline is not skipped,
 * since 0x0A 0x7B begins a ProgramDesc whose first block is 123 bytes long. */
bool ic_pir_json_sniff(const void *data, size_t size);

/* Translate a PIR JSON program into serialized ProgramDesc bytes (*pb malloc'd, the caller
 * frees it). `origin` names the source in messages. Errors name the place in the file: the
 * JSON line and column for syntax, the region/block/op index and op name otherwise. */
ic_status ic_pir_json_to_programdesc(const void *data, size_t size, const char *origin,
                                     void **pb, size_t *pb_size, ic_err *err);

/* Whether the translation table is sorted by PIR name, as its binary search needs (tests). */
bool ic_pir_json_table_sorted(void);

#ifdef __cplusplus
}
#endif

#endif
