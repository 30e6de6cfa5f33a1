/* The dependency DAG. In program order: a writer of X precedes later readers of X (RAW),
 * readers of X precede the next writer of X (WAR), and writers of X stay in order (WAW).
 * Implicit edges keep program order among random ops, among ops with external state, among
 * communication ops, and among all ops with the `sequential` option. Every edge points
 * forward in program order, so the graph is acyclic by construction (and checked). Edges
 * implied by others are then removed: a->b->c keeps a->b and b->c and drops a->c. */
#include <stdlib.h>
#include <string.h>

#include "analysis/plan.h"

#define NONE UINT32_MAX

/* Order classes: ops of one class keep their program order among themselves. */
#define CLASS_RANDOM 0x1u
#define CLASS_STATE 0x2u
#define CLASS_COMM 0x4u
#define N_CLASSES 3

unsigned ic_op_order_class(const ic_opdef *def, const char *type) {
  unsigned c = 0;
  if (def && (def->flags & IC_OP_RANDOM)) c |= CLASS_RANDOM;
  if (def && (def->flags & IC_OP_EXTERNAL_STATE)) c |= CLASS_STATE;
  if ((def && (def->flags & IC_OP_COMM)) || strncmp(type, "c_", 2) == 0 ||
      strncmp(type, "send", 4) == 0 || strncmp(type, "recv", 4) == 0) {
    c |= CLASS_COMM;
  }
  return c;
}

typedef struct vec32 {
  uint32_t n, cap;
  uint32_t *v;
} vec32;

static bool push(vec32 *a, uint32_t x) {
  if (a->n == a->cap) {
    uint32_t cap = a->cap ? a->cap * 2 : 4;
    uint32_t *nv = realloc(a->v, cap * sizeof *nv);
    if (!nv) return false;
    a->v = nv;
    a->cap = cap;
  }
  a->v[a->n++] = x;
  return true;
}

typedef struct dag {
  size_t n;
  vec32 *preds;         /* per instruction: predecessors (unique) */
  vec32 *pkind;         /* per instruction: IC_EDGE_* of each predecessor */
  uint32_t *mark;       /* mark[p] == i: p already a predecessor of i, at pos[p] */
  uint32_t *pos;
} dag;

static bool add_edge(dag *d, uint32_t from, uint32_t to, uint8_t kind) {
  if (from == to) return true;
  if (d->mark[from] == to) {
    d->pkind[to].v[d->pos[from]] |= kind;
    return true;
  }
  d->mark[from] = to;
  d->pos[from] = d->preds[to].n;
  return push(&d->preds[to], from) && push(&d->pkind[to], kind);
}

/* Data edges and implicit edges, as predecessor lists. */
static bool collect_edges(const ic_plan *p, dag *d, bool sequential) {
  bool ok = true;
  uint32_t *last_writer = malloc((p->n_vars ? p->n_vars : 1) * sizeof *last_writer);
  vec32 *readers = calloc(p->n_vars ? p->n_vars : 1, sizeof *readers);
  uint32_t last_of[N_CLASSES] = {NONE, NONE, NONE};
  if (!last_writer || !readers) ok = false;
  for (size_t v = 0; ok && v < p->n_vars; v++) last_writer[v] = NONE;
  for (uint32_t i = 0; ok && i < p->n_instrs; i++) {
    const ic_instr *in = &p->instrs[i];
    for (size_t k = 0; ok && k < in->def->n_inputs; k++) {
      for (uint32_t j = 0; ok && j < in->in[k].n; j++) {
        uint32_t v = in->in[k].vars[j];
        /* Holders: the feed list is filled before the run, fetch ops write distinct columns. */
        if (p->vars[v].kind == IC_PV_HOLDER) continue;
        if (last_writer[v] != NONE) ok &= add_edge(d, last_writer[v], i, IC_EDGE_DATA);
        ok &= push(&readers[v], i);
      }
    }
    for (size_t k = 0; ok && k < in->def->n_outputs; k++) {
      for (uint32_t j = 0; ok && j < in->out[k].n; j++) {
        uint32_t v = in->out[k].vars[j];
        if (p->vars[v].kind == IC_PV_HOLDER) continue;
        if (last_writer[v] != NONE) ok &= add_edge(d, last_writer[v], i, IC_EDGE_DATA);
        for (uint32_t r = 0; ok && r < readers[v].n; r++) {
          ok &= add_edge(d, readers[v].v[r], i, IC_EDGE_DATA);
        }
        readers[v].n = 0;
        last_writer[v] = i;
      }
    }
    unsigned cls = ic_op_order_class(in->def, in->op->type);
    for (int c = 0; ok && c < N_CLASSES; c++) {
      if (!(cls & (1u << c))) continue;
      if (last_of[c] != NONE) ok &= add_edge(d, last_of[c], i, IC_EDGE_IMPLICIT);
      last_of[c] = i;
    }
    if (ok && sequential && i > 0) ok &= add_edge(d, i - 1, i, IC_EDGE_IMPLICIT);
  }
  for (size_t v = 0; readers && v < p->n_vars; v++) free(readers[v].v);
  free(readers);
  free(last_writer);
  return ok;
}

/* An instruction is alone when every other one is its ancestor or descendant, leaving aside
 * roots (they are ready at once and run first) and fetch ops (cheap sinks). Then no other
 * work can be ready while it runs, and its kernel may use all of the executor's threads.
 * Since every edge points forward, j < i reaches i iff some successor s of j has s == i or
 * s < i and s reaches i; by induction over j that is "every earlier instruction's first
 * successor is <= i". Symmetrically for descendants with each later one's last predecessor.
 * Both are a prefix maximum and a suffix minimum: O(n + edges). */
static void mark_alone(ic_plan *p) {
  size_t n = p->n_instrs;
  if (n == 0) return;
  int64_t *first_succ = malloc(n * sizeof *first_succ), *last_pred = malloc(n * sizeof *last_pred);
  bool *skip = calloc(n, sizeof *skip);
  if (first_succ && last_pred && skip) {
    for (size_t i = 0; i < n; i++) {
      const ic_instr *in = &p->instrs[i];
      skip[i] = in->n_preds == 0 || ((in->def->flags & IC_OP_FETCH) && in->n_succ == 0);
      first_succ[i] = INT64_MAX;
      last_pred[i] = -1;
    }
    for (size_t i = 0; i < n; i++) {
      const ic_instr *in = &p->instrs[i];
      for (uint32_t k = 0; k < in->n_succ; k++) {
        uint32_t s = in->succ[k];
        if (!skip[s] && (int64_t)s < first_succ[i]) first_succ[i] = s;
        if (!skip[i] && (int64_t)i > last_pred[s]) last_pred[s] = (int64_t)i;
      }
    }
    /* Prefix maximum of first successors over earlier non-skipped instructions. */
    int64_t reach = -1;
    for (size_t i = 0; i < n; i++) {
      p->instrs[i].alone = !skip[i] && reach <= (int64_t)i;
      if (!skip[i] && first_succ[i] > reach) reach = first_succ[i];
    }
    int64_t back = INT64_MAX;
    for (size_t i = n; i-- > 0;) {
      if (p->instrs[i].alone && back < (int64_t)i) p->instrs[i].alone = false;
      if (!skip[i] && last_pred[i] < back) back = last_pred[i];
      p->stats.alone += p->instrs[i].alone;
    }
  }
  free(first_succ);
  free(last_pred);
  free(skip);
}

ic_status ic_plan_build_dag(ic_plan *p, bool sequential, ic_err *err) {
  size_t n = p->n_instrs;
  size_t nn = n ? n : 1;
  dag d = {.n = n};
  d.preds = calloc(nn, sizeof *d.preds);
  d.pkind = calloc(nn, sizeof *d.pkind);
  d.mark = malloc(nn * sizeof *d.mark);
  d.pos = malloc(nn * sizeof *d.pos);
  uint32_t *n_succ = calloc(nn, sizeof *n_succ);
  uint32_t *stack = malloc(nn * sizeof *stack);
  uint32_t *vis = calloc(nn, sizeof *vis);
  uint32_t *depth = calloc(nn, sizeof *depth);
  uint32_t **succ = calloc(nn, sizeof *succ);
  uint8_t **skind = calloc(nn, sizeof *skind);
  ic_status st = IC_OK;
  if (!d.preds || !d.pkind || !d.mark || !d.pos || !n_succ || !stack || !vis || !depth || !succ ||
      !skind) {
    goto oom;
  }
  for (size_t i = 0; i < n; i++) d.mark[i] = NONE;
  if (!collect_edges(p, &d, sequential)) goto oom;

  /* Successor lists, ascending because instructions are visited in order. */
  for (size_t i = 0; i < n; i++) {
    for (uint32_t k = 0; k < d.preds[i].n; k++) n_succ[d.preds[i].v[k]]++;
    p->stats.edges_before_pruning += d.preds[i].n;
  }
  for (size_t i = 0; i < n; i++) {
    succ[i] = malloc((n_succ[i] ? n_succ[i] : 1) * sizeof **succ);
    skind[i] = malloc(n_succ[i] ? n_succ[i] : 1);
    if (!succ[i] || !skind[i]) goto oom;
    n_succ[i] = 0;
  }
  for (uint32_t i = 0; i < n; i++) {
    for (uint32_t k = 0; k < d.preds[i].n; k++) {
      uint32_t from = d.preds[i].v[k];
      if (from >= i) {
        st = ic_err_set(err, IC_ERR_INTERNAL,
                        "analysis: edge %u -> %u points backwards; the plan would have a cycle",
                        from, i);
        goto done;
      }
      skind[from][n_succ[from]] = (uint8_t)d.pkind[i].v[k];
      succ[from][n_succ[from]++] = i;
    }
  }

  /* Transitive reduction: a successor reachable through an earlier successor is redundant.
   * Successors are ascending and every path goes forward, so anything that can reach
   * successor s starts at a smaller one; a DFS bounded by the largest successor suffices. */
  uint32_t epoch = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (n_succ[i] < 2) continue;
    epoch++;
    uint32_t bound = succ[i][n_succ[i] - 1], kept = 0;
    for (uint32_t k = 0; k < n_succ[i]; k++) {
      uint32_t s = succ[i][k];
      if (vis[s] == epoch) continue; /* implied by an earlier successor: dropped */
      succ[i][kept] = s;
      skind[i][kept++] = skind[i][k];
      uint32_t top = 0;
      stack[top++] = s;
      while (top) {
        uint32_t u = stack[--top];
        for (uint32_t m = 0; m < n_succ[u]; m++) {
          uint32_t w = succ[u][m];
          if (w > bound) break;
          if (vis[w] == epoch) continue;
          vis[w] = epoch;
          stack[top++] = w;
        }
      }
    }
    n_succ[i] = kept;
  }

  /* Into the plan: successors, predecessor counts, depth levels. */
  for (uint32_t i = 0; i < n; i++) {
    ic_instr *in = &p->instrs[i];
    uint32_t *s = ic_arena_calloc(p->arena, n_succ[i] ? n_succ[i] : 1, sizeof *s);
    uint8_t *sk = ic_arena_alloc(p->arena, n_succ[i] ? n_succ[i] : 1);
    if (!s || !sk) goto oom;
    memcpy(s, succ[i], n_succ[i] * sizeof *s);
    memcpy(sk, skind[i], n_succ[i]);
    in->succ = s;
    in->succ_kind = sk;
    in->n_succ = n_succ[i];
    p->stats.edges += n_succ[i];
    for (uint32_t k = 0; k < n_succ[i]; k++) {
      p->instrs[s[k]].n_preds++;
      if (sk[k] == IC_EDGE_IMPLICIT) p->stats.implicit_edges++;
    }
  }
  size_t n_roots = 0, max_depth = 0;
  for (uint32_t i = 0; i < n; i++) {
    const ic_instr *in = &p->instrs[i];
    if (in->n_preds == 0) n_roots++;
    depth[i] = depth[i] ? depth[i] : 1;
    if (depth[i] > max_depth) max_depth = depth[i];
    for (uint32_t k = 0; k < in->n_succ; k++) {
      if (depth[in->succ[k]] < depth[i] + 1) depth[in->succ[k]] = depth[i] + 1;
    }
  }
  p->stats.critical_path = max_depth;
  /* Heights, from the sinks back (every edge points forward). */
  for (uint32_t i = n; i-- > 0;) {
    ic_instr *in = &p->instrs[i];
    uint32_t h = 0;
    for (uint32_t k = 0; k < in->n_succ; k++) {
      if (p->instrs[in->succ[k]].height > h) h = p->instrs[in->succ[k]].height;
    }
    in->height = h + 1;
  }
  uint32_t *width = calloc(max_depth + 1, sizeof *width);
  if (!width) goto oom;
  for (size_t i = 0; i < n; i++) {
    if (++width[depth[i]] > p->stats.max_width) p->stats.max_width = width[depth[i]];
  }
  free(width);
  mark_alone(p);
  uint32_t *roots = ic_arena_calloc(p->arena, n_roots ? n_roots : 1, sizeof *roots);
  if (!roots) goto oom;
  p->n_roots = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (p->instrs[i].n_preds == 0) roots[p->n_roots++] = i;
  }
  /* By priority, then program order (insertion sort keeps it stable). */
  for (size_t a = 1; a < p->n_roots; a++) {
    uint32_t r = roots[a];
    size_t b = a;
    while (b > 0 && p->instrs[roots[b - 1]].priority > p->instrs[r].priority) {
      roots[b] = roots[b - 1];
      b--;
    }
    roots[b] = r;
  }
  p->roots = roots;
  goto done;
oom:
  st = ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory building the dependency graph");
done:
  for (size_t i = 0; i < n; i++) {
    if (d.preds) free(d.preds[i].v);
    if (d.pkind) free(d.pkind[i].v);
    if (succ) free(succ[i]);
    if (skind) free(skind[i]);
  }
  free(d.preds);
  free(d.pkind);
  free(d.mark);
  free(d.pos);
  free(n_succ);
  free(stack);
  free(vis);
  free(depth);
  free(succ);
  free(skind);
  return st;
}
