/* icore inspect: the plan of a model. Instructions with their dependencies, edge counts
 * before and after pruning, implicit edges, the critical path and width, every variable's
 * lifetime and, when feeds are given, every variable's shape and the peak live bytes of a
 * run with those feeds. --dot writes the DAG for Graphviz. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_model.h"

const cli_opt k_inspect_opts[] = {
    CLI_MODEL_OPTS,
    {"--dot", "FILE", false, "write the dependency DAG as a Graphviz DOT file"},
    {"--no-fuse", NULL, false, "no inference rewrites"},
    {"--winograd", NULL, false, "mark 3x3 convolutions for Winograd's algorithm"},
    {"--prune", NULL, false, "plan only the ops the fetches need"},
    {"--device", "PLACE", false, "plan for cpu, cuda:N or emu:N: streams and events shown"},
    {"--streams", "POLICY", false, "device stream policy: single, per-backend, per-operator"},
};
const size_t k_n_inspect_opts = sizeof k_inspect_opts / sizeof k_inspect_opts[0];

/* Everything below prints a public plan description (ic_plan_describe,
 * ic_executor_describe_last): the CLI reads no executor internals. */
static void print_vars(const ic_plan_desc *p, const uint32_t *v, uint32_t n) {
  for (uint32_t j = 0; j < n; j++) printf("%s%s", j ? ", " : "", p->vars[v[j]].name);
  if (!n) printf("-");
}

/* A sub-block as a cluster: its instructions in program order (they run in that order, in
 * the thread that runs the control-flow op), nested sub-blocks inside, and a dotted edge
 * from the control-flow op to the cluster's first instruction. */
static void dot_sub(FILE *f, const ic_subplan_desc *sp, const char *owner, const char *prefix) {
  fprintf(f, "  subgraph cluster_%s {\n    label=\"block %d\"; style=rounded;\n", prefix, sp->block);
  for (uint32_t i = 0; i < sp->n_instrs; i++) {
    fprintf(f, "    %s_%u [label=\"b%d #%u %s\"];\n", prefix, i, sp->block, i,
            sp->instrs[i].op_type);
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
static void print_sub(const ic_subplan_desc *sp, const char *owner, int depth) {
  uint32_t n_outer = 0;
  for (uint32_t v = 0; v < sp->n_vars; v++) n_outer += sp->var_outer[v] != UINT32_MAX;
  printf("\nsub-plan of %s: block %d, %u instructions, %u variables (%u of outer blocks, by "
         "index)\n", owner, sp->block, sp->n_instrs, sp->n_vars, n_outer);
  for (uint32_t i = 0; i < sp->n_instrs; i++) {
    const ic_plan_instr_desc *in = &sp->instrs[i];
    printf("  %*s#%-4u %-24s ", depth * 2, "", i, in->op_type);
    for (int io = 0; io < 2; io++) {
      uint32_t n = io ? in->n_outputs : in->n_inputs;
      const uint32_t *vs = io ? in->outputs : in->inputs;
      for (uint32_t j = 0; j < n; j++) {
        printf("%s%s%s", j ? "," : "", sp->var_outer[vs[j]] != UINT32_MAX ? "^" : "",
               sp->var_names[vs[j]]);
      }
      if (!n) printf("-");
      if (!io) printf(" -> ");
    }
    if (in->n_releases) {
      printf("  [releases");
      for (uint32_t k = 0; k < in->n_releases; k++) printf(" %s", sp->var_names[in->releases[k]]);
      printf("]");
    }
    printf("\n");
  }
  for (uint32_t i = 0; i < sp->n_instrs; i++) {
    if (!sp->instrs[i].sub) continue;
    char o[160];
    snprintf(o, sizeof o, "block %d #%u (%s)", sp->block, i, sp->instrs[i].op_type);
    print_sub(sp->instrs[i].sub, o, depth + 1);
  }
}

static int write_dot(const char *path, const ic_plan_desc *p) {
  FILE *f = fopen(path, "w");
  if (!f) return cli_error(CLI_FAIL, "--dot %s: cannot open for writing", path);
  fprintf(f, "digraph plan {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n");
  for (size_t i = 0; i < p->n_instrs; i++) {
    fprintf(f, "  n%zu [label=\"#%zu %s\"];\n", i, i, p->instrs[i].op_type);
  }
  for (size_t i = 0; i < p->n_instrs; i++) {
    const ic_plan_instr_desc *in = &p->instrs[i];
    for (uint32_t k = 0; k < in->n_succ; k++) {
      fprintf(f, "  n%zu -> n%u%s;\n", i, in->succ[k],
              in->succ_kind[k] == IC_PLAN_EDGE_IMPLICIT ? " [style=dashed]" : "");
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

static void print_plan(const ic_plan_desc *p) {
  bool device = strcmp(p->place, "cpu") != 0;
  printf("plan: %zu instructions, %zu variables, %zu roots, analysis %.3f ms\n", p->n_instrs,
         p->n_vars, p->n_roots, p->analysis_ms);
  printf("edges: %zu before pruning, %zu after (%zu implicit)\n", p->edges_before_pruning,
         p->edges, p->implicit_edges);
  printf("critical path: %zu instructions; maximum width: %zu\n", p->critical_path,
         p->max_width);
  if (p->joins) printf("concats joined in place: %zu\n", p->joins);
  if (device) printf("device %s: %u streams, %u events\n", p->place, p->n_streams, p->n_events);
  printf("\ninstructions:\n");
  for (size_t i = 0; i < p->n_instrs; i++) {
    const ic_plan_instr_desc *in = &p->instrs[i];
    printf("  #%-4zu %-28s ", i, in->op_type);
    print_vars(p, in->inputs, in->n_inputs);
    printf(" -> ");
    print_vars(p, in->outputs, in->n_outputs);
    printf("  [deps %u; then", in->n_preds);
    if (!in->n_succ) printf(" -");
    for (uint32_t k = 0; k < in->n_succ; k++) {
      printf(" %u%s", in->succ[k], in->succ_kind[k] == IC_PLAN_EDGE_IMPLICIT ? "*" : "");
    }
    printf("]%s", in->priority ? " priority set" : "");
    if (device) {
      printf(" {%s", in->where);
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
    snprintf(o, sizeof o, "#%zu (%s)", i, p->instrs[i].op_type);
    print_sub(p->instrs[i].sub, o, 0);
  }
  printf("\nvariables: name, kind, first write, last use, releases%s\n", p->ran ? ", shape" : "");
  size_t param_bytes = 0;
  for (size_t v = 0; v < p->n_vars; v++) {
    const ic_plan_var_desc *pv = &p->vars[v];
    printf("  %-40s %-8s %5d %5d %3u%s", pv->name, pv->kind, pv->first_write, pv->last_use,
           pv->n_uses, pv->kept ? " kept" : "     ");
    if (pv->has_meta) {
      char d[160];
      const char *dn = ic_dtype_name(pv->dtype);
      size_t at = (size_t)snprintf(d, sizeof d, "%s[", dn ? dn : "?");
      size_t bytes = ic_dtype_size(pv->dtype);
      for (int k = 0; k < pv->ndim && at < sizeof d; k++) {
        at += (size_t)snprintf(d + at, sizeof d - at, "%s%lld", k ? ", " : "", (long long)pv->dims[k]);
        bytes *= pv->dims[k] > 0 ? (size_t)pv->dims[k] : 0;
      }
      if (at < sizeof d) {
        at += (size_t)snprintf(d + at, sizeof d - at, "]");
      }
      if (at < sizeof d && strcmp(pv->layout, "plain")) {
        snprintf(d + at, sizeof d - at, " in layout %s", pv->layout);
      }
      printf("  %s", d);
      if (!strcmp(pv->kind, "param")) param_bytes += bytes;
    }
    printf("\n");
  }
  if (p->ran) {
    printf("\npeak live bytes of one run (temporaries and outputs): %zu (%.2f MiB)\n",
           p->peak_bytes, p->peak_bytes / 1048576.0);
    printf("parameters: %zu bytes (%.2f MiB)\n", param_bytes, param_bytes / 1048576.0);
  }
}

int cmd_inspect(const cli_args *a) {
  ic_options o;
  int rc = cli_exec_options(a, &o);
  if (rc) return rc;
  cli_model m;
  ic_plan_desc *desc = NULL;
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
    if (ic_executor_describe_last(e, &desc)) {
      rc = cli_error(CLI_FAIL, "out of memory describing the plan");
      goto done;
    }
  } else {
    /* Analyze for the program's own feed targets without running (no feeds given). */
    char err[2048];
    if (ic_plan_describe(m.prog, &o, 0, NULL, m.n_fetches, m.fetch_names, &desc, err, sizeof err)) {
      rc = cli_error(CLI_FAIL, "%s", err);
      goto done;
    }
    printf("(no feeds given: shapes and peak bytes need --feed or --random-feed)\n");
  }
  print_plan(desc);
  const char *dot = cli_get(a, "--dot");
  if (dot) rc = write_dot(dot, desc);
done:
  ic_plan_desc_destroy(desc);
  for (size_t i = 0; out && i < m.n_fetches; i++) ic_tensor_destroy(out[i]);
  free(out);
  ic_executor_destroy(e);
  cli_model_close(&m);
  return rc;
}
