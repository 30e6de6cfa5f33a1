/* The translation table of PIR JSON programs (pir_json.c): for each pd_op name, the
 * ProgramDesc op it becomes, how its operands map to slots and attributes, and how its
 * attributes are renamed. Internal to src/program/. */
#ifndef IC_PROGRAM_PIR_OPS_H
#define IC_PROGRAM_PIR_OPS_H

/* ins: one spec per operand position, ';'-separated:
 *   Slot         the operand is a tensor in Slot ("" ignores the operand)
 *   Slot*        the operand is a vector (builtin.combine): its tensors in Slot
 *   =K:attr|T|L  a constant folds into attribute `attr` (K: L int64 list, i int, f float);
 *                otherwise a tensor goes to slot T and a vector to slot L (either may be
 *                absent: then the operand must be a constant)
 * outs: the slot of each result by position, `Slot*` for a vector result.
 * attrs: renames "from>to" and drops "from>", ';'-separated; "+name=int" adds an INT. */
typedef struct ic_pir_opmap {
  const char *pir; /* pd_op name, no dialect, no trailing '_' */
  const char *type;
  const char *ins;
  const char *outs;
  const char *attrs;
} ic_pir_opmap;

/* The entry for a pd_op name (no dialect, no trailing '_'), or NULL. */
const ic_pir_opmap *ic_pir_find_op(const char *name);

#endif
