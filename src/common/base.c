/* Library-wide small facts: version, status names, dtype sizes and names. */
#include "icore/icore.h"

const char *ic_version(void) { return ICORE_VERSION; }

const char *ic_status_name(ic_status st) {
  switch (st) {
    case IC_OK: return "IC_OK";
    case IC_ERR_INVALID_ARGUMENT: return "IC_ERR_INVALID_ARGUMENT";
    case IC_ERR_INVALID_PROGRAM: return "IC_ERR_INVALID_PROGRAM";
    case IC_ERR_NOT_FOUND: return "IC_ERR_NOT_FOUND";
    case IC_ERR_UNSUPPORTED: return "IC_ERR_UNSUPPORTED";
    case IC_ERR_OUT_OF_MEMORY: return "IC_ERR_OUT_OF_MEMORY";
    case IC_ERR_IO: return "IC_ERR_IO";
    case IC_ERR_KERNEL: return "IC_ERR_KERNEL";
    case IC_ERR_DEVICE: return "IC_ERR_DEVICE";
    case IC_ERR_SHAPE: return "IC_ERR_SHAPE";
    case IC_ERR_NUMERIC: return "IC_ERR_NUMERIC";
    case IC_ERR_INTERNAL: return "IC_ERR_INTERNAL";
  }
  return "IC_ERR_UNKNOWN";
}

size_t ic_dtype_size(int dtype) {
  switch (dtype) {
    case IC_BOOL: case IC_UINT8: case IC_INT8: return 1;
    case IC_INT16: case IC_FP16: case IC_BF16: return 2;
    case IC_INT32: case IC_FP32: return 4;
    case IC_INT64: case IC_FP64: case IC_COMPLEX64: return 8;
    case IC_COMPLEX128: return 16;
  }
  return 0;
}

const char *ic_dtype_name(int dtype) {
  switch (dtype) {
    case IC_BOOL: return "bool";
    case IC_INT16: return "int16";
    case IC_INT32: return "int32";
    case IC_INT64: return "int64";
    case IC_FP16: return "float16";
    case IC_FP32: return "float32";
    case IC_FP64: return "float64";
    case IC_UINT8: return "uint8";
    case IC_INT8: return "int8";
    case IC_BF16: return "bfloat16";
    case IC_COMPLEX64: return "complex64";
    case IC_COMPLEX128: return "complex128";
  }
  return NULL;
}
