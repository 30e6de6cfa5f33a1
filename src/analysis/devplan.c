/* Device plans: streams for device instructions, the events between them, and the
 * stream-order edges that make each stream's instructions launch in program order (the
 * event analysis relies on it). Also the streams that use each device variable, so that
 * freeing it can wait for all of them. */
#include <stdlib.h>
#include <string.h>

#include "analysis/plan.h"
#include "analysis/streams.h"

static ic_status oom(ic_err *err) { return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "out of memory"); }

/* An op's `execution_stream` attribute (a name; "" and "default" mean none) as a stream id:
 * distinct names get distinct ids in order of first appearance. */
static int32_t fixed_stream(const ic_instr *in, const char **names, int32_t *n_names) {
  const ic_attr *a = ic_op_attr(in->op, "execution_stream");
  if (!a || a->type != IC_ATTR_STRING || !a->s[0] || strcmp(a->s, "default") == 0) return -1;
  for (int32_t k = 0; k < *n_names; k++) {
    if (strcmp(names[k], a->s) == 0) return k;
  }
  if (*n_names >= IC_STREAMS_MAX_FIXED) return -1;
  names[*n_names] = a->s;
  return (*n_names)++;
}

/* Insert edge from -> to (to > from) of kind IC_EDGE_STREAM if absent. */
static bool add_stream_edge(ic_plan *p, uint32_t from, uint32_t to) {
  ic_instr *in = &p->instrs[from];
  uint32_t k = 0;
  while (k < in->n_succ && in->succ[k] < to) k++;
  if (k < in->n_succ && in->succ[k] == to) return true;
  uint32_t n = in->n_succ + 1;
  uint32_t *s = ic_arena_calloc(p->arena, n, sizeof *s);
  uint8_t *kind = ic_arena_alloc(p->arena, n), *sedge = ic_arena_alloc(p->arena, n);
  if (!s || !kind || !sedge) return false;
  for (uint32_t j = 0, m = 0; j < n; j++) {
    if (j == k) {
      s[j] = to;
      kind[j] = IC_EDGE_STREAM;
      sedge[j] = IC_SEDGE_DIRECT;
    } else {
      s[j] = in->succ[m];
      kind[j] = in->succ_kind[m];
      sedge[j] = in->succ_sedge ? in->succ_sedge[m] : IC_SEDGE_DIRECT;
      m++;
    }
  }
  in->succ = s;
  in->succ_kind = kind;
  in->succ_sedge = sedge;
  in->n_succ = n;
  p->instrs[to].n_preds++;
  p->stats.edges++;
  return true;
}

ic_status ic_plan_streams(ic_plan *p, ic_stream_policy policy, ic_err *err) {
  size_t n = p->n_instrs;
  size_t nn = n ? n : 1;
  uint8_t *kind = malloc(nn);
  int32_t *fixed = malloc(nn * sizeof *fixed);
  uint32_t *n_succ = malloc(nn * sizeof *n_succ);
  const uint32_t **succ = malloc(nn * sizeof *succ);
  const char **names = calloc(IC_STREAMS_MAX_FIXED, sizeof *names);
  int32_t *last_on = NULL;
  ic_streams s;
  memset(&s, 0, sizeof s);
  ic_status st = IC_OK;
  if (!kind || !fixed || !n_succ || !succ || !names) {
    st = oom(err);
    goto done;
  }
  int32_t n_names = 0;
  for (size_t i = 0; i < n; i++) {
    const ic_instr *in = &p->instrs[i];
    kind[i] = in->where;
    fixed[i] = in->where == IC_WHERE_HOST ? -1 : fixed_stream(in, names, &n_names);
    n_succ[i] = in->n_succ;
    succ[i] = in->succ;
  }
  ic_sgraph g = {.n = n, .kind = kind, .n_succ = n_succ, .succ = succ, .fixed_stream = fixed};
  if ((st = ic_streams_assign(&g, policy, &s, err))) goto done;
  p->n_streams = s.n_streams;
  p->n_events = s.n_events;
  for (size_t i = 0; i < n; i++) {
    ic_instr *in = &p->instrs[i];
    in->stream = s.stream[i];
    in->records = s.records[i];
    in->n_waits = s.n_waits[i];
    uint32_t *w = ic_arena_calloc(p->arena, in->n_waits ? in->n_waits : 1, sizeof *w);
    uint8_t *se = ic_arena_alloc(p->arena, in->n_succ ? in->n_succ : 1);
    if (!w || !se) {
      st = oom(err);
      goto done;
    }
    if (in->n_waits) memcpy(w, s.waits[i], in->n_waits * sizeof *w);
    if (in->n_succ) memcpy(se, s.edge[i], in->n_succ);
    in->waits = w;
    in->succ_sedge = se;
  }
  /* Each stream's instructions launch in program order: chain consecutive ones. */
  last_on = malloc((s.n_streams ? s.n_streams : 1) * sizeof *last_on);
  if (!last_on) {
    st = oom(err);
    goto done;
  }
  for (uint32_t k = 0; k < s.n_streams; k++) last_on[k] = -1;
  for (size_t i = 0; i < n; i++) {
    int32_t sid = p->instrs[i].stream;
    if (sid < 0) continue;
    if (last_on[sid] >= 0 && !add_stream_edge(p, (uint32_t)last_on[sid], (uint32_t)i)) {
      st = oom(err);
      goto done;
    }
    last_on[sid] = (int32_t)i;
  }
  /* Roots may have gained predecessors. */
  uint32_t *roots = ic_arena_calloc(p->arena, n ? n : 1, sizeof *roots);
  if (!roots) {
    st = oom(err);
    goto done;
  }
  size_t nr = 0;
  for (size_t i = 0; i < p->n_roots; i++) {
    if (p->instrs[p->roots[i]].n_preds == 0) roots[nr++] = p->roots[i];
  }
  p->roots = roots;
  p->n_roots = nr;
  /* The streams that use each device variable. */
  int32_t *tmp = malloc((s.n_streams ? s.n_streams : 1) * sizeof *tmp);
  if (!tmp) {
    st = oom(err);
    goto done;
  }
  for (size_t v = 0; v < p->n_vars; v++) {
    ic_pvar *pv = &p->vars[v];
    if (!pv->on_device) continue;
    uint32_t cnt = 0;
    for (size_t i = 0; i < n; i++) {
      const ic_instr *in = &p->instrs[i];
      if (in->stream < 0) continue;
      bool uses = false;
      for (int io = 0; io < 2 && !uses; io++) {
        size_t ns = io ? in->def->n_outputs : in->def->n_inputs;
        const ic_islot *is = io ? in->out : in->in;
        const ic_slotdef *sd = io ? in->def->outputs : in->def->inputs;
        for (size_t k = 0; k < ns && !uses; k++) {
          if (!io && (sd[k].flags & IC_SLOT_NO_BUFFER)) continue;
          for (uint32_t j = 0; j < is[k].n && !uses; j++) uses = is[k].vars[j] == v;
        }
      }
      bool seen = false;
      for (uint32_t k = 0; k < cnt && !seen; k++) seen = tmp[k] == in->stream;
      if (uses && !seen) tmp[cnt++] = in->stream;
    }
    int32_t *us = ic_arena_calloc(p->arena, cnt ? cnt : 1, sizeof *us);
    if (!us) {
      free(tmp);
      st = oom(err);
      goto done;
    }
    memcpy(us, tmp, cnt * sizeof *us);
    pv->user_streams = us;
    pv->n_user_streams = cnt;
  }
  free(tmp);
done:
  ic_streams_free(&s);
  free(kind);
  free(fixed);
  free(n_succ);
  free(succ);
  free(names);
  free(last_on);
  return st;
}
