/* Stream assignment and event placement in one pass over the nodes in index order.
 *
 * Streams (per-operator). A stream is meant to be a chain: two device nodes share a stream
 * only when one is already ordered after the other, so the stream serializes nothing that
 * could overlap. A node takes, in this order:
 *  1. the stream of a device predecessor that is still its stream's last node (no other
 *     successor continued it), the smallest such stream: a chain stays on its stream;
 *  2. a released stream (its last node's successors are all assigned, none continued it)
 *     whose last node is already ordered before this node, the smallest: reuse that adds no
 *     serialization. "Ordered before" is read from the vector clocks below, so it sees
 *     paths through host nodes and forced streams too;
 *  3. a new stream, while fewer than max_auto exist;
 *  4. at the cap, the stream that serializes least: an active one already ordered before it,
 *     else the released one idle longest (smallest last node), else any, idle longest.
 * Forced streams (`execution_stream`) are taken as given and never handed to anyone else.
 * Processing in index order makes each stream's last node its highest-indexed one, so
 * "continuing" a stream always appends to it in the order the stream will run.
 * Ids are given at the end: streams started by an entry node (a device node without device
 * predecessors: a root, host nodes being transparent) first, then by their first node, each
 * taking the smallest id no forced stream uses.
 *
 * Why the ordering condition in rule 2: without it (a free pool any node may draw from,
 * nodes taken by a priority queue on (tentative stream, index)), the stream released after
 * D in the reference graph of test_streams.c goes to E, which is independent of its last
 * node C: E would wait for C for nothing. With it, reuse never serializes independent work.
 *
 * Events: vector clocks. clock[t] is the highest node index on stream t known complete
 * before the point the clock describes (-1: none). Each stream has a current clock (its
 * knowledge before its next node), each device node a snapshot (its stream's clock just
 * after it), each host node its own clock (what is complete when it starts). A node's
 * cross-stream device predecessors are taken latest first: one already covered by the
 * clock is implied; otherwise the node waits on its event and imports its snapshot. A clock
 * covering position P on stream t covers every snapshot of t up to P, and a predecessor
 * can only be covered by later ones, so latest first leaves exactly the predecessors no
 * other one covers: the fewest waits for the node, given the streams.
 *
 * Clocks are stored once per change, not per node: a stream's clock changes only when one
 * of its nodes imports something, and a node's snapshot is its stream's version then with
 * its own entry set to itself. Host nodes that learn nothing new share their predecessor's. */
#include "analysis/streams.h"

#include <stdlib.h>
#include <string.h>

typedef struct pool {
  int32_t *v;      /* vectors of S entries */
  size_t len, cap; /* in vectors */
  uint32_t S;
} pool;

typedef struct sstate {
  const ic_sgraph *g;
  uint32_t n, S;         /* nodes; internal stream slots */
  ic_stream_policy policy;
  uint32_t max_auto;
  size_t *poff;          /* predecessors of node i: pnode/ppos[poff[i] .. poff[i+1]) */
  uint32_t *pnode;       /* ascending per node */
  uint32_t *ppos;        /* the edge's position in the predecessor's successor list */
  uint32_t *remaining;   /* successors not yet processed */
  uint32_t *clk;         /* per node: its clock or snapshot version in the pool */
  int32_t *sint;         /* per node: internal stream, -1 for host nodes */
  /* Per internal stream. */
  int32_t *tail;         /* last node so far, -1 none */
  uint32_t *ver;         /* current clock version */
  int32_t *int2ext;      /* external id; -1 until numbered (per-operator auto streams) */
  uint32_t *first;       /* first node (per-operator auto streams) */
  bool *entry;           /* started by an entry node */
  uint32_t n_int;        /* slots in use */
  uint32_t auto_base;    /* auto streams are slots auto_base .. n_int-1 (per-operator) */
  int32_t ext2int[IC_STREAMS_MAX_FIXED]; /* external id -> slot, -1 none */
  int32_t *k, *j;        /* scratch clocks */
  pool pl;
} sstate;

static ic_status oom(ic_err *err) {
  return ic_err_set(err, IC_ERR_OUT_OF_MEMORY, "streams: out of memory");
}

static uint32_t pool_push(pool *p, const int32_t *v) {
  if (p->len == p->cap) {
    size_t cap = p->cap ? p->cap * 2 : 64;
    int32_t *nv = realloc(p->v, cap * p->S * sizeof *nv);
    if (!nv) return UINT32_MAX;
    p->v = nv;
    p->cap = cap;
  }
  memcpy(p->v + p->len * p->S, v, p->S * sizeof *v);
  return (uint32_t)p->len++;
}

static const int32_t *pool_at(const pool *p, uint32_t id) { return p->v + (size_t)id * p->S; }

static void join(int32_t *k, const int32_t *v, uint32_t S) {
  for (uint32_t t = 0; t < S; t++) {
    if (v[t] > k[t]) k[t] = v[t];
  }
}

/* Node p's snapshot (or host clock) joined into k. */
static void join_node(const sstate *s, int32_t *k, uint32_t p) {
  join(k, pool_at(&s->pl, s->clk[p]), s->S);
  int32_t sp = s->sint[p];
  if (sp >= 0 && k[sp] < (int32_t)p) k[sp] = (int32_t)p;
}

static bool same_except(const int32_t *a, const int32_t *b, uint32_t S, int32_t skip) {
  for (uint32_t t = 0; t < S; t++) {
    if ((int32_t)t != skip && a[t] != b[t]) return false;
  }
  return true;
}

static ic_status validate(const ic_sgraph *g, ic_err *err) {
  if (g->n > (size_t)INT32_MAX - 1) {
    return ic_err_set(err, IC_ERR_INTERNAL, "streams: %zu nodes is more than supported", g->n);
  }
  if (g->n && (!g->kind || !g->n_succ || !g->succ)) {
    return ic_err_set(err, IC_ERR_INTERNAL, "streams: graph of %zu nodes without %s", g->n,
                      !g->kind ? "kinds" : !g->n_succ ? "successor counts" : "successor lists");
  }
  for (size_t i = 0; i < g->n; i++) {
    if (g->kind[i] > IC_NODE_D2H) {
      return ic_err_set(err, IC_ERR_INTERNAL, "streams: node %zu: unknown kind %u (expected 0..3)",
                        i, (unsigned)g->kind[i]);
    }
    if (g->n_succ[i] && !g->succ[i]) {
      return ic_err_set(err, IC_ERR_INTERNAL,
                        "streams: node %zu: %u successors but no successor list", i,
                        g->n_succ[i]);
    }
    for (uint32_t k = 0; k < g->n_succ[i]; k++) {
      uint32_t c = g->succ[i][k];
      if (c >= g->n) {
        return ic_err_set(err, IC_ERR_INTERNAL,
                          "streams: node %zu: successor %u is out of range (%zu nodes)", i, c,
                          g->n);
      }
      if (c <= i) {
        return ic_err_set(err, IC_ERR_INTERNAL,
                          "streams: node %zu: successor %u does not come after it (edges must "
                          "point forward)", i, c);
      }
      if (k && c <= g->succ[i][k - 1]) {
        return ic_err_set(err, IC_ERR_INTERNAL,
                          "streams: node %zu: successors not strictly ascending (%u after %u)",
                          i, c, g->succ[i][k - 1]);
      }
    }
    if (g->fixed_stream && g->kind[i] != IC_NODE_HOST &&
        (g->fixed_stream[i] < -1 || g->fixed_stream[i] >= IC_STREAMS_MAX_FIXED)) {
      return ic_err_set(err, IC_ERR_INTERNAL,
                        "streams: node %zu: forced stream %d out of range (expected -1 or "
                        "0..%d)", i, g->fixed_stream[i], IC_STREAMS_MAX_FIXED - 1);
    }
  }
  return IC_OK;
}

static int32_t fixed_of(const sstate *s, uint32_t i) {
  const ic_sgraph *g = s->g;
  return g->fixed_stream && g->kind[i] != IC_NODE_HOST ? g->fixed_stream[i] : -1;
}

/* A new internal stream slot, starting at node i. */
static int32_t new_slot(sstate *s, uint32_t i, bool entry, int32_t ext) {
  uint32_t t = s->n_int++;
  s->tail[t] = -1;
  s->ver[t] = 0;
  s->int2ext[t] = ext;
  s->first[t] = i;
  s->entry[t] = entry;
  return (int32_t)t;
}

/* The per-operator choice for unforced device node y (rules 1-4 at the top). */
static int32_t choose_auto(sstate *s, uint32_t y) {
  const ic_sgraph *g = s->g;
  int32_t best = -1;
  bool has_dev_pred = false;
  for (size_t e = s->poff[y]; e < s->poff[y + 1]; e++) {
    uint32_t p = s->pnode[e];
    int32_t sp = s->sint[p];
    if (g->kind[p] == IC_NODE_HOST) continue;
    has_dev_pred = true;
    if ((uint32_t)sp >= s->auto_base && s->tail[sp] == (int32_t)p && (best < 0 || sp < best)) {
      best = sp;
    }
  }
  if (best >= 0) return best;
  /* What y will be ordered after, whatever its stream: every predecessor's clock. */
  int32_t *j = s->j;
  for (uint32_t t = 0; t < s->S; t++) j[t] = -1;
  for (size_t e = s->poff[y]; e < s->poff[y + 1]; e++) join_node(s, j, s->pnode[e]);
  for (uint32_t t = s->auto_base; t < s->n_int; t++) {
    if (s->remaining[s->tail[t]] == 0 && j[t] >= s->tail[t]) return (int32_t)t;
  }
  if (s->n_int - s->auto_base < s->max_auto) return new_slot(s, y, !has_dev_pred, -1);
  for (uint32_t t = s->auto_base; t < s->n_int; t++) {
    if (j[t] >= s->tail[t]) return (int32_t)t;
  }
  int32_t idle = -1, any = -1;
  for (uint32_t t = s->auto_base; t < s->n_int; t++) {
    if (s->remaining[s->tail[t]] == 0 && (idle < 0 || s->tail[t] < s->tail[idle])) {
      idle = (int32_t)t;
    }
    if (any < 0 || s->tail[t] < s->tail[any]) any = (int32_t)t;
  }
  return idle >= 0 ? idle : any;
}

static int32_t choose_stream(sstate *s, uint32_t i) {
  int32_t f = fixed_of(s, i);
  if (f >= 0) return s->ext2int[f];
  switch (s->policy) {
    case IC_STREAMS_SINGLE:
      return s->ext2int[0];
    case IC_STREAMS_PER_BACKEND:
      return s->ext2int[s->g->kind[i] == IC_NODE_H2D ? 1 : s->g->kind[i] == IC_NODE_D2H ? 2 : 0];
    default:
      return choose_auto(s, i);
  }
}

/* Classify node c's in-edges, place its waits and update the clocks. */
static bool visit(sstate *s, uint32_t c, ic_streams *out) {
  const ic_sgraph *g = s->g;
  const uint8_t *kind = g->kind;
  int32_t *k = s->k;
  size_t lo = s->poff[c], hi = s->poff[c + 1];
  bool host = kind[c] == IC_NODE_HOST;
  int32_t sc = -1;
  if (host) {
    for (uint32_t t = 0; t < s->S; t++) k[t] = -1;
  } else {
    sc = choose_stream(s, c);
    memcpy(k, pool_at(&s->pl, s->ver[sc]), s->S * sizeof *k);
    k[sc] = s->tail[sc];
  }
  s->sint[c] = sc;
  /* Host predecessors first: their knowledge comes free (launch order, host order). */
  uint32_t host_hint = 0;
  bool hinted = false;
  for (size_t e = lo; e < hi; e++) {
    uint32_t p = s->pnode[e];
    if (kind[p] != IC_NODE_HOST) continue;
    out->edge[p][s->ppos[e]] = host ? IC_SEDGE_DIRECT : IC_SEDGE_LAUNCH;
    join(k, pool_at(&s->pl, s->clk[p]), s->S);
    if (!hinted) host_hint = s->clk[p], hinted = true;
  }
  /* Device predecessors, latest first; waits come out descending. */
  uint32_t *w = out->waits[c];
  uint32_t nw = 0;
  for (size_t e = hi; e-- > lo;) {
    uint32_t p = s->pnode[e];
    if (kind[p] == IC_NODE_HOST) continue;
    int32_t sp = s->sint[p];
    uint8_t *cls = &out->edge[p][s->ppos[e]];
    if (sp == sc) {
      *cls = IC_SEDGE_DIRECT;
    } else if (k[sp] >= (int32_t)p) {
      *cls = host ? IC_SEDGE_SYNC_IMPLIED : IC_SEDGE_EVENT_IMPLIED;
    } else {
      *cls = host ? IC_SEDGE_SYNC : IC_SEDGE_EVENT;
      w[nw++] = p;
      out->records[p] = true;
      join_node(s, k, p);
    }
  }
  for (uint32_t a = 0, b = nw; a + 1 < b; a++, b--) {
    uint32_t x = w[a];
    w[a] = w[b - 1];
    w[b - 1] = x;
  }
  out->n_waits[c] = nw;
  if (host) {
    const int32_t *hv = pool_at(&s->pl, host_hint);
    if (same_except(k, hv, s->S, -1)) {
      s->clk[c] = host_hint; /* 0, the empty clock, when there is no host predecessor */
    } else if ((s->clk[c] = pool_push(&s->pl, k)) == UINT32_MAX) {
      return false;
    }
  } else {
    if (!same_except(k, pool_at(&s->pl, s->ver[sc]), s->S, sc)) {
      uint32_t v = pool_push(&s->pl, k);
      if (v == UINT32_MAX) return false;
      s->ver[sc] = v;
    }
    s->clk[c] = s->ver[sc];
    s->tail[sc] = (int32_t)c;
  }
  for (size_t e = lo; e < hi; e++) s->remaining[s->pnode[e]]--;
  return true;
}

/* Per-operator ids: entry-started streams first, then by first node; forced ids skipped. */
static void number_auto(sstate *s, const bool *reserved) {
  uint32_t na = s->n_int - s->auto_base;
  int32_t next = 0;
  for (int pass = 0; pass < 2; pass++) {
    /* Slots are created in index order of their first node, so a scan is that order. */
    for (uint32_t a = 0; a < na; a++) {
      uint32_t t = s->auto_base + a;
      if (s->entry[t] != (pass == 0)) continue;
      while (next < IC_STREAMS_MAX_FIXED && reserved[next]) next++;
      s->int2ext[t] = next++;
    }
  }
}

static ic_status run(const ic_sgraph *g, ic_stream_policy policy, uint32_t max_auto,
                     ic_streams *out, ic_err *err) {
  sstate s = {.g = g, .n = (uint32_t)g->n, .policy = policy};
  uint32_t n = s.n;
  size_t n_edges = 0;
  uint32_t n_dev = 0;
  bool reserved[IC_STREAMS_MAX_FIXED] = {false};
  for (uint32_t i = 0; i < n; i++) {
    n_edges += g->n_succ[i];
    if (g->kind[i] == IC_NODE_HOST) continue;
    n_dev++;
    if (g->fixed_stream && g->fixed_stream[i] >= 0) reserved[g->fixed_stream[i]] = true;
  }
  s.max_auto = max_auto < n_dev ? max_auto : n_dev;
  if (s.max_auto == 0) s.max_auto = 1;
  for (size_t e = 0; e < sizeof s.ext2int / sizeof s.ext2int[0]; e++) s.ext2int[e] = -1;
  uint32_t n_fixed = 0;
  for (int e = 0; e < IC_STREAMS_MAX_FIXED; e++) n_fixed += reserved[e];
  uint32_t slots = n_fixed + (policy == IC_STREAMS_PER_OPERATOR ? s.max_auto : 3);
  s.S = slots;
  s.pl.S = slots;

  ic_status st = IC_OK;
  size_t ne = n_edges ? n_edges : 1;
  s.poff = calloc((size_t)n + 1, sizeof *s.poff);
  s.pnode = malloc(ne * sizeof *s.pnode);
  s.ppos = malloc(ne * sizeof *s.ppos);
  s.remaining = malloc(n * sizeof *s.remaining);
  s.clk = malloc(n * sizeof *s.clk);
  s.sint = malloc(n * sizeof *s.sint);
  s.tail = malloc(slots * sizeof *s.tail);
  s.ver = malloc(slots * sizeof *s.ver);
  s.int2ext = malloc(slots * sizeof *s.int2ext);
  s.first = malloc(slots * sizeof *s.first);
  s.entry = malloc(slots * sizeof *s.entry);
  s.k = malloc(slots * sizeof *s.k);
  s.j = malloc(slots * sizeof *s.j);
  out->stream = malloc(n * sizeof *out->stream);
  out->edge = malloc(n * sizeof *out->edge);
  out->records = calloc(n, sizeof *out->records);
  out->n_waits = calloc(n, sizeof *out->n_waits);
  out->waits = malloc(n * sizeof *out->waits);
  uint8_t *edge_store = calloc(ne, 1);
  uint32_t *wait_store = malloc(ne * sizeof *wait_store);
  if (out->edge) out->edge[0] = edge_store;
  if (out->waits) out->waits[0] = wait_store;
  if (!s.poff || !s.pnode || !s.ppos || !s.remaining || !s.clk || !s.sint || !s.tail ||
      !s.ver || !s.int2ext || !s.first || !s.entry || !s.k || !s.j || !out->stream ||
      !out->edge || !out->records || !out->n_waits || !out->waits || !edge_store ||
      !wait_store) {
    if (!out->edge) free(edge_store);
    if (!out->waits) free(wait_store);
    st = oom(err);
    goto done;
  }

  /* Predecessor lists (ascending: predecessors are visited in order) and output slices. */
  for (uint32_t i = 0; i < n; i++) {
    for (uint32_t q = 0; q < g->n_succ[i]; q++) s.poff[g->succ[i][q] + 1]++;
  }
  for (uint32_t i = 0; i < n; i++) s.poff[i + 1] += s.poff[i];
  size_t eoff = 0;
  for (uint32_t i = 0; i < n; i++) {
    out->edge[i] = edge_store + eoff;
    eoff += g->n_succ[i];
    out->waits[i] = wait_store + s.poff[i];
    s.remaining[i] = g->n_succ[i];
  }
  /* poff[i] is reused as a cursor, then restored by shifting. */
  for (uint32_t i = 0; i < n; i++) {
    for (uint32_t q = 0; q < g->n_succ[i]; q++) {
      uint32_t c = g->succ[i][q];
      size_t at = s.poff[c]++;
      s.pnode[at] = i;
      s.ppos[at] = q;
    }
  }
  for (uint32_t i = n; i > 0; i--) s.poff[i] = s.poff[i - 1];
  s.poff[0] = 0;

  /* Stream slots: forced ids first (ascending), then the policy's own. */
  for (int e = 0; e < IC_STREAMS_MAX_FIXED; e++) {
    if (reserved[e]) s.ext2int[e] = new_slot(&s, 0, false, e);
  }
  s.auto_base = s.n_int;
  if (policy != IC_STREAMS_PER_OPERATOR) {
    bool used[3] = {false, false, false};
    for (uint32_t i = 0; i < n; i++) {
      if (g->kind[i] == IC_NODE_HOST || fixed_of(&s, i) >= 0) continue;
      int e = policy == IC_STREAMS_SINGLE       ? 0
              : g->kind[i] == IC_NODE_H2D       ? 1
              : g->kind[i] == IC_NODE_D2H       ? 2
                                                : 0;
      used[e] = true;
    }
    for (int e = 0; e < 3; e++) {
      if (used[e] && s.ext2int[e] < 0) s.ext2int[e] = new_slot(&s, 0, false, e);
    }
  }

  /* Version 0: the empty clock. */
  for (uint32_t t = 0; t < slots; t++) s.k[t] = -1;
  if (pool_push(&s.pl, s.k) == UINT32_MAX) {
    st = oom(err);
    goto done;
  }
  for (uint32_t i = 0; i < n; i++) {
    if (!visit(&s, i, out)) {
      st = oom(err);
      goto done;
    }
  }

  if (policy == IC_STREAMS_PER_OPERATOR) number_auto(&s, reserved);
  out->n_streams = 0;
  out->n_events = 0;
  for (uint32_t i = 0; i < n; i++) {
    int32_t e = s.sint[i] >= 0 ? s.int2ext[s.sint[i]] : -1;
    out->stream[i] = e;
    if (e >= 0 && (uint32_t)e + 1 > out->n_streams) out->n_streams = (uint32_t)e + 1;
    out->n_events += out->records[i];
  }

done:
  free(s.poff);
  free(s.pnode);
  free(s.ppos);
  free(s.remaining);
  free(s.clk);
  free(s.sint);
  free(s.tail);
  free(s.ver);
  free(s.int2ext);
  free(s.first);
  free(s.entry);
  free(s.k);
  free(s.j);
  free(s.pl.v);
  if (st != IC_OK) ic_streams_free(out);
  return st;
}

ic_status ic_streams_assign_max(const ic_sgraph *g, ic_stream_policy policy, uint32_t max_auto,
                                ic_streams *out, ic_err *err) {
  if (out) memset(out, 0, sizeof *out);
  if (!g || !out) {
    return ic_err_set(err, IC_ERR_INVALID_ARGUMENT, "streams: %s is NULL",
                      !g ? "the graph" : "the output");
  }
  if ((unsigned)policy > IC_STREAMS_PER_OPERATOR) {
    return ic_err_set(err, IC_ERR_INVALID_ARGUMENT,
                      "streams: unknown policy %d (expected 0..2: single, per-backend, "
                      "per-operator)", (int)policy);
  }
  if (max_auto == 0) {
    return ic_err_set(err, IC_ERR_INVALID_ARGUMENT,
                      "streams: max_auto is 0 (expected at least 1 stream)");
  }
  ic_status st = validate(g, err);
  if (st != IC_OK || g->n == 0) return st;
  return run(g, policy, max_auto, out, err);
}

ic_status ic_streams_assign(const ic_sgraph *g, ic_stream_policy policy, ic_streams *out,
                            ic_err *err) {
  return ic_streams_assign_max(g, policy, IC_STREAMS_DEFAULT_MAX_AUTO, out, err);
}

void ic_streams_free(ic_streams *s) {
  if (!s) return;
  if (s->edge) free(s->edge[0]);
  if (s->waits) free(s->waits[0]);
  free(s->stream);
  free(s->edge);
  free(s->records);
  free(s->n_waits);
  free(s->waits);
  memset(s, 0, sizeof *s);
}

static const char *const k_names[] = {"single", "per-backend", "per-operator"};

const char *ic_stream_policy_name(ic_stream_policy p) {
  return (unsigned)p <= IC_STREAMS_PER_OPERATOR ? k_names[p] : "unknown";
}

bool ic_stream_policy_parse(const char *s, ic_stream_policy *out) {
  if (!s) return false;
  for (int p = 0; p <= IC_STREAMS_PER_OPERATOR; p++) {
    if (strcmp(s, k_names[p]) == 0) {
      *out = (ic_stream_policy)p;
      return true;
    }
  }
  return false;
}
