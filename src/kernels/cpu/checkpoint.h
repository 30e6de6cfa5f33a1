/* What the checkpoint ops save, load, save_combine and load_combine share (checkpoint.c):
 * their attributes and the record I/O with the float16 conversions. The file format is
 * Paddle's serialized LoDTensor (scope/lodtensor_io.c): save writes one record, save_combine
 * one per input in input order (not sorted), load reads one record, load_combine one per
 * output in output order and refuses a file with records left over. */
#ifndef IC_KERNELS_CPU_CHECKPOINT_H
#define IC_KERNELS_CPU_CHECKPOINT_H

#include <stdbool.h>

#include "kernels/kernel.h"

typedef struct ic_ckpt_attrs {
  const char *file_path;
  bool overwrite;    /* save ops: replace an existing file (Paddle's default true) */
  bool as_fp16;      /* save_as_fp16 / load_as_fp16 */
} ic_ckpt_attrs;

/* save / save_combine: file_path, overwrite, save_as_fp16; save_to_memory (save_combine) is
 * refused. */
ic_status ic_ckpt_parse_save(ic_attr_reader *r, void *attrs);
/* load / load_combine: file_path, load_as_fp16; seek other than -1 (load) and
 * model_from_memory (load_combine) are refused. */
ic_status ic_ckpt_parse_load(ic_attr_reader *r, void *attrs);

/* Write every tensor of input slot 0 to file_path (save: one, save_combine: all), after
 * creating its directories, as float16 when as_fp16 asks for it. */
ic_status ic_ckpt_save(ic_kctx *c);
/* Read one record per tensor of output slot 0 from file_path into the outputs (IC_SLOT_DYNAMIC),
 * converted to float16 when as_fp16 asks for it; `whole`: the file must end after them. */
ic_status ic_ckpt_load(ic_kctx *c, bool whole);

#endif
