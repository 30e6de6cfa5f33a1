/* icore inspect: the plan of a model. Instructions with their dependencies, edge counts
 * before and after pruning, implicit edges, the critical path and width, every variable's
 * lifetime and, when feeds are given, every variable's shape and the peak live bytes of a
 * run with those feeds. --dot writes the DAG for Graphviz. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ctrlflow.h"
#include "cli_model.h"
#include "device/device.h"
#include "interp/interp.h"

const cli_opt k_inspect_opts[] = {
    CLI_MODEL_OPTS,
    {"--dot", "FILE", false, "write the dependency DAG as a Graphviz DOT file"},
    {"--no-fuse", NULL, false, "no inference rewrites"},
    {"--device", "PLACE", false, "plan for cpu, cuda:N or emu:N: streams and events shown"},
    {"--streams", "POLICY", false, "device stream policy: single, per-backend, per-operator"},
};
const size_t k_n_inspect_opts = sizeof k_inspect_opts / sizeof k_inspect_opts[0];

static const char *kind_name(ic_pvar_kind k) {
  switch (k) {
    case IC_PV_TEMP: return "temp";
    case IC_PV_PERSIST: return "param";
    case IC_PV_EXTERNAL: return "external";
    case IC_PV_HOLDER: return "holder";
    case IC_PV_CACHED: return "cached";
  }
  return "?";
}

static void print_slots(const ic_plan *p, const ic_instr *in, bool out) {
  size_t ns = out ? in->def->n_outputs : in->def->n_inputs;
  const ic_islot *is = out ? in->out : in->in;
  bool first = true;
  for (size_t k = 0; k < ns; k++) {
    for (uint32_t j = 0; j < is[k].n; j++) {
      printf("%s%s", first ? "" : ", ", p->vars[is[k].vars[j]].name);
      first = false;
    }
  }
  if (first) printf("-");
}

/* A sub-block as a cluster: its instructions in program order (they run in that order, in
 * the thread that runs the control-flow op), nested sub-blocks inside, and a dotted edge
 * from the control-flow op to the cluster's first instruction. */
static void dot_sub(FILE *f, const ic_subplan *sp, const char *owner, const char *prefix) {
  fprintf(f, "  subgraph cluster_%s {\n    label=\"block %d\"; style=rounded;\n", prefix, sp->block);
  for (uint32_t i = 0; i < sp->n_instrs; i++) {
    fprintf(f, "    %s_%u [label=\"b%d #%u %s\"];\n", prefix, i, sp->block, i,
            sp->instrs[i].op->type);
    if (i) fprintf(f, "    %s_%u -> %s_%u;\n", prefix, i - 1, prefix, i);
  }
  fprintf(f, "  }\n");
  if (sp->n_instrs) fprintf(f, "  %s -> %s_0 [style=dotted];\n", owner, prefix);
  for (uint32_t i = 0; i < sp->n_instrs; i++) {
    if (!sp->instrs[i].sub) continue;
    char o[256], pre[256];
    snprintf(o, sizeof o, "%s_%u", prefix, i);
    snprintf(pre, sizeof pre, "%s_%u", prefix, i);
    dot_sub(f, sp->instrs[i].sub, o, pre);
  }
}

/* A sub-plan: its instructions with their variables (^ marks the parent's) and what each
 * releases at the end of its use in an iteration; nested sub-plans after. */
static void print_sub(const ic_subplan *sp, const char *owner, int depth) {
  uint32_t n_outer = 0;
  for (uint32_t v = 0; v < sp->n_vars; v++) n_outer += sp->outer[v] != UINT32_MAX;
  printf("\nsub-plan of %s: block %d, %u instructions, %u variables (%u of outer blocks, by "
         "index)\n", owner, sp->block, sp->n_instrs, sp->n_vars, n_outer);
  for (uint32_t i = 0; i < sp->n_instrs; i++) {
    const ic_instr *in = &sp->instrs[i];
    printf("  %*s#%-4u %-24s ", depth * 2, "", i, in->op->type);
    for (int io = 0; io < 2; io++) {
      size_t ns = io ? in->def->n_outputs : in->def->n_inputs;
      const ic_islot *is = io ? in->out : in->in;
      bool first = true;
      for (size_t k = 0; k < ns; k++) {
        for (uint32_t j = 0; j < is[k].n; j++) {
          uint32_t v = is[k].vars[j];
          printf("%s%s%s", first ? "" : ",", sp->outer[v] != UINT32_MAX ? "^" : "", sp->names[v]);
          first = false;
        }
      }
      if (first) printf("-");
      if (!io) printf(" -> ");
    }
    if (in->n_gc) {
      printf("  [releases");
      for (uint32_t k = 0; k < in->n_gc; k++) printf(" %s", sp->names[in->gc[k]]);
      printf("]");
    }
    printf("\n");
  }
  for (uint32_t i = 0; i < sp->n_instrs; i++) {
    if (!sp->instrs[i].sub) continue;
    char o[160];
    snprintf(o, sizeof o, "block %d #%u (%s)", sp->block, i, sp->instrs[i].op->type);
    print_sub(sp->instrs[i].sub, o, depth + 1);
  }
}

static int write_dot(const char *path, const ic_plan *p) {
  FILE *f = fopen(path, "w");
  if (!f) return cli_error(CLI_FAIL, "--dot %s: cannot open for writing", path);
  fprintf(f, "digraph plan {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n");
  for (size_t i = 0; i < p->n_instrs; i++) {
    fprintf(f, "  n%zu [label=\"#%zu %s\"];\n", i, i, p->instrs[i].op->type);
  }
  for (size_t i = 0; i < p->n_instrs; i++) {
    const ic_instr *in = &p->instrs[i];
    for (uint32_t k = 0; k < in->n_succ; k++) {
      fprintf(f, "  n%zu -> n%u%s;\n", i, in->succ[k],
              in->succ_kind[k] == IC_EDGE_IMPLICIT ? " [style=dashed]" : "");
    }
  }
  for (size_t i = 0; i < p->n_instrs; i++) {
    if (!p->instrs[i].sub) continue;
    char o[32];
    snprintf(o, sizeof o, "n%zu", i);
    dot_sub(f, p->instrs[i].sub, o, o);
  }
  fprintf(f, "}\n");
  return fclose(f) == 0 ? CLI_OK : cli_error(CLI_FAIL, "--dot %s: write failed", path);
}

/* Print the plan; `e` (may be NULL) is the executor that ran it, for shapes and memory. */
static void print_plan(const ic_plan *p, ic_executor *e) {
  static const char *const where_names[] = {"host", "device", "h2d", "d2h"};
  printf("plan: %zu instructions, %zu variables, %zu roots, analysis %.3f ms\n", p->n_instrs,
         p->n_vars, p->n_roots, p->stats.analysis_ms);
  printf("edges: %zu before pruning, %zu after (%zu implicit)\n", p->stats.edges_before_pruning,
         p->stats.edges, p->stats.implicit_edges);
  printf("critical path: %zu instructions; maximum width: %zu\n", p->stats.critical_path,
         p->stats.max_width);
  if (p->device) {
    char pl[32];
    printf("device %s: %u streams, %u events\n", ic_place_name(p->device->place, pl, sizeof pl),
           p->n_streams, p->n_events);
  }
  printf("\ninstructions:\n");
  for (size_t i = 0; i < p->n_instrs; i++) {
    const ic_instr *in = &p->instrs[i];
    printf("  #%-4zu %-28s ", i, in->op->type);
    print_slots(p, in, false);
    printf(" -> ");
    print_slots(p, in, true);
    printf("  [deps %u; then", in->n_preds);
    if (!in->n_succ) printf(" -");
    for (uint32_t k = 0; k < in->n_succ; k++) {
      printf(" %u%s", in->succ[k], in->succ_kind[k] == IC_EDGE_IMPLICIT ? "*" : "");
    }
    printf("]%s", in->priority ? " priority set" : "");
    if (p->device) {
      printf(" {%s", where_names[in->where]);
      if (in->stream >= 0) printf(" stream %d", in->stream);
      if (in->records) printf(", records");
      for (uint32_t k = 0; k < in->n_waits; k++) printf("%s%u", k ? "," : ", waits on ", in->waits[k]);
      printf("}");
    }
    printf("\n");
  }
  printf("  (* = implicit edge)\n");
  for (size_t i = 0; i < p->n_instrs; i++) {
    if (!p->instrs[i].sub) continue;
    char o[160];
    snprintf(o, sizeof o, "#%zu (%s)", i, p->instrs[i].op->type);
    print_sub(p->instrs[i].sub, o, 0);
  }
  printf("\nvariables: name, kind, first write, last use, releases%s\n",
         e ? ", shape" : "");
  size_t param_bytes = 0;
  for (size_t v = 0; v < p->n_vars; v++) {
    const ic_pvar *pv = &p->vars[v];
    printf("  %-40s %-8s %5d %5d %3u%s", pv->name, kind_name(pv->kind), pv->first_write,
           pv->last_use, pv->n_uses, pv->keep ? " kept" : "     ");
    const ic_tensor *t = e ? ic_executor_last_var(e, v) : NULL;
    if (t && pv->kind != IC_PV_HOLDER) {
      char d[160];
      printf("  %s", ic_tensor_describe(t, d, sizeof d));
      if (pv->kind == IC_PV_PERSIST) param_bytes += ic_tensor_nbytes(t);
    }
    printf("\n");
  }
  if (e) {
    ic_memory_stats ms;
    ic_executor_memory_stats(e, &ms);
    printf("\npeak live bytes of one run (temporaries and outputs): %zu (%.2f MiB)\n",
           ms.peak_bytes, ms.peak_bytes / 1048576.0);
    printf("parameters: %zu bytes (%.2f MiB)\n", param_bytes, param_bytes / 1048576.0);
  }
}

/* Analyze for the program's own feed targets without running (no feeds given). */
static int build_plan(const cli_model *m, const ic_options *o, struct ic_device **dev,
                      ic_plan **out) {
  ic_err err;
  size_t nf = ic_program_n_feed_targets(m->prog);
  const char **fn = calloc(nf + 1, sizeof *fn);
  if (!fn) return cli_error(CLI_FAIL, "out of memory");
  for (size_t i = 0; i < nf; i++) fn[i] = ic_program_feed_target(m->prog, i);
  ic_plan_options po = {.gc = o->gc, .sequential = o->sequential, .streams = o->streams,
                        .fuse = o->fuse};
  int rc = CLI_OK;
  if (o->device.kind != IC_PLACE_CPU && ic_device_open(o->device, dev, &err)) {
    rc = cli_error(CLI_FAIL, "%s", err.msg);
  } else {
    po.device = *dev;
    if (ic_plan_build(m->prog, nf, fn, m->n_fetches, m->fetch_names, &po, out, &err)) {
      rc = cli_error(CLI_FAIL, "%s", err.msg);
    }
  }
  free(fn);
  return rc;
}

int cmd_inspect(const cli_args *a) {
  ic_options o;
  int rc = cli_exec_options(a, &o);
  if (rc) return rc;
  cli_model m;
  struct ic_device *dev = NULL; /* for a plan built without running */
  ic_plan *built = NULL;
  ic_executor *e = NULL;
  ic_tensor **out = NULL;
  if ((rc = cli_model_open(a, false, &m))) goto done;
  if (m.n_feeds > 0) {
    /* With feeds: a compiled, serial executor runs the plan once (shapes, peak bytes). */
    o.mode = IC_MODE_COMPILED;
    o.serial = true;
    out = calloc(m.n_fetches, sizeof *out);
    if (!out || ic_executor_create(&o, &e)) {
      rc = cli_error(CLI_FAIL, "cannot create an executor");
      goto done;
    }
    if (ic_executor_run(e, m.prog, m.scope, m.n_feeds, m.feed_names,
                        (const ic_tensor *const *)m.feeds, m.n_fetches, m.fetch_names, out)) {
      rc = cli_error(CLI_FAIL, "%s", ic_executor_errmsg(e));
      goto done;
    }
    print_plan(ic_executor_last_plan(e), e);
  } else {
    if ((rc = build_plan(&m, &o, &dev, &built))) goto done;
    printf("(no feeds given: shapes and peak bytes need --feed or --random-feed)\n");
    print_plan(built, NULL);
  }
  const char *dot = cli_get(a, "--dot");
  if (dot) rc = write_dot(dot, built ? built : ic_executor_last_plan(e));
done:
  ic_plan_destroy(built);
  if (dev) dev->v->destroy(dev);
  for (size_t i = 0; out && i < m.n_fetches; i++) ic_tensor_destroy(out[i]);
  free(out);
  ic_executor_destroy(e);
  cli_model_close(&m);
  return rc;
}
