/* Training support in the public API: persistables declared in the caller's scope so that the
 * runs of a startup program and of a training program keep what they write there. */
#include <string.h>

#include "interp/interp.h"
#include "program/program.h"
#include "scope/scope.h"

ic_status ic_scope_declare_persistables(ic_scope *scope, const ic_program *p) {
  if (!scope || !p) return IC_ERR_INVALID_ARGUMENT;
  const ic_block *b = &p->blocks[0];
  for (size_t i = 0; i < b->n_vars; i++) {
    const ic_vardesc *v = &b->vars[i];
    if (!v->persistable || !v->is_tensor || ic_scope_find(scope, v->name)) continue;
    if (!ic_scope_var(scope, v->name)) return IC_ERR_OUT_OF_MEMORY;
  }
  return IC_OK;
}

ic_status ic_executor_run_startup(ic_executor *e, const ic_program *startup, ic_scope *scope) {
  if (!e) return IC_ERR_INVALID_ARGUMENT;
  if (!startup || !scope) {
    ic_err_clear(&e->err);
    return ic_err_set(&e->err, IC_ERR_INVALID_ARGUMENT, "run_startup: %s is NULL",
                      startup ? "the scope" : "the startup program");
  }
  ic_status st = ic_scope_declare_persistables(scope, startup);
  if (st) {
    ic_err_clear(&e->err);
    return ic_err_set(&e->err, st, "run_startup: out of memory declaring persistables");
  }
  return ic_executor_run(e, startup, scope, 0, NULL, NULL, 0, NULL, NULL);
}
