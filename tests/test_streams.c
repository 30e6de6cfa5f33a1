/* Stream assignment and event placement: exact results on hand-built graphs, and random
 * DAGs checked by brute force (every dependency ordered by stream order, events, syncs and
 * launches; every wait needed; streams never serializing independent nodes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/streams.h"
#include "testutil.h"

/* Check records every passing ck_assert (a write each); the checker's loops use this. */
#define REQUIRE(cond, ...)                       \
  do {                                           \
    if (!(cond)) ck_abort_msg(__VA_ARGS__);      \
  } while (0)
#define REQUIRE_EQ(a, b) REQUIRE((a) == (b), "%s == %s: %lld != %lld", #a, #b, (long long)(a), \
                                 (long long)(b))

enum { H = IC_NODE_HOST, D = IC_NODE_DEVICE, HD = IC_NODE_H2D, DH = IC_NODE_D2H };

/* ---- graphs ---- */

typedef struct tgraph {
  size_t n;
  uint8_t *kind;
  uint32_t *n_succ;
  uint32_t **succ;
  int32_t *fixed;  /* NULL: none */
  ic_sgraph g;
} tgraph;

/* A graph from an edge list (from, to pairs; duplicates allowed, any order). */
static tgraph *tg_new(size_t n, const uint8_t *kinds, size_t n_edges, const uint32_t *edges) {
  tgraph *t = calloc(1, sizeof *t);
  t->n = n;
  t->kind = calloc(n ? n : 1, 1);
  t->n_succ = calloc(n ? n : 1, sizeof *t->n_succ);
  t->succ = calloc(n ? n : 1, sizeof *t->succ);
  if (kinds) memcpy(t->kind, kinds, n);
  bool *m = calloc(n ? n : 1, 1);
  for (size_t i = 0; i < n; i++) {
    memset(m, 0, n);
    for (size_t e = 0; e < n_edges; e++) {
      if (edges[2 * e] == i) m[edges[2 * e + 1]] = true;
    }
    t->succ[i] = malloc((n ? n : 1) * sizeof **t->succ);
    for (size_t c = 0; c < n; c++) {
      if (m[c]) t->succ[i][t->n_succ[i]++] = (uint32_t)c;
    }
  }
  free(m);
  t->g = (ic_sgraph){.n = n, .kind = t->kind, .n_succ = t->n_succ,
                     .succ = (const uint32_t *const *)t->succ};
  return t;
}

static void tg_fix(tgraph *t, size_t i, int32_t s) {
  if (!t->fixed) {
    t->fixed = malloc((t->n ? t->n : 1) * sizeof *t->fixed);
    for (size_t k = 0; k < t->n; k++) t->fixed[k] = -1;
    t->g.fixed_stream = t->fixed;
  }
  t->fixed[i] = s;
}

static void tg_free(tgraph *t) {
  for (size_t i = 0; i < t->n; i++) free(t->succ[i]);
  free(t->succ);
  free(t->n_succ);
  free(t->kind);
  free(t->fixed);
  free(t);
}

/* ---- the brute-force checker ---- */

typedef struct bits {
  size_t n, w;
  uint64_t *v;
} bits;

static bits bits_new(size_t n) {
  bits b = {n, (n + 63) / 64, NULL};
  b.v = calloc(n * b.w + 1, sizeof *b.v);
  return b;
}
static uint64_t *row(const bits *b, size_t i) { return b->v + i * b->w; }
static bool has(const bits *b, size_t i, size_t j) { return (row(b, i)[j / 64] >> (j % 64)) & 1; }
static void set(bits *b, size_t i, size_t j) { row(b, i)[j / 64] |= 1ull << (j % 64); }

/* DAG reachability (strict): r[i] holds every node reachable from i. */
static bits dag_reach(const tgraph *t) {
  bits r = bits_new(t->n);
  for (size_t i = t->n; i-- > 0;) {
    for (uint32_t k = 0; k < t->n_succ[i]; k++) {
      uint32_t s = t->succ[i][k];
      set(&r, i, s);
      for (size_t w = 0; w < r.w; w++) row(&r, i)[w] |= row(&r, s)[w];
    }
  }
  return r;
}

/* The happens-before edges the executor guarantees, as adjacency lists (all forward). */
typedef struct hb {
  size_t n;
  uint32_t *cnt, **to;
} hb;

static void hb_add(hb *h, uint32_t a, uint32_t b) {
  h->to[a] = realloc(h->to[a], (h->cnt[a] + 1) * sizeof **h->to);
  h->to[a][h->cnt[a]++] = b;
}

static hb hb_build(const tgraph *t, const ic_streams *s) {
  hb h = {t->n, calloc(t->n, sizeof(uint32_t)), calloc(t->n, sizeof(uint32_t *))};
  int32_t *last = malloc((s->n_streams + 1) * sizeof *last);
  for (uint32_t k = 0; k <= s->n_streams; k++) last[k] = -1;
  for (uint32_t i = 0; i < t->n; i++) {
    int32_t st = s->stream[i];
    if (st >= 0) {
      if (last[st] >= 0) hb_add(&h, (uint32_t)last[st], i); /* stream order */
      last[st] = (int32_t)i;
    }
    for (uint32_t k = 0; k < s->n_waits[i]; k++) hb_add(&h, s->waits[i][k], i);
    if (t->kind[i] == H) {
      for (uint32_t k = 0; k < t->n_succ[i]; k++) hb_add(&h, i, t->succ[i][k]); /* host, launch */
    }
  }
  free(last);
  return h;
}

static void hb_free(hb *h) {
  for (size_t i = 0; i < h->n; i++) free(h->to[i]);
  free(h->to);
  free(h->cnt);
}

/* Whether a reaches b over hb, optionally without the edge skip_a -> skip_b. */
static bool hb_reaches(const hb *h, uint32_t a, uint32_t b, uint32_t skip_a, uint32_t skip_b,
                       uint8_t *seen, uint32_t *stack) {
  memset(seen, 0, h->n);
  uint32_t top = 0;
  stack[top++] = a;
  seen[a] = 1;
  while (top) {
    uint32_t u = stack[--top];
    if (u == b) return true;
    for (uint32_t k = 0; k < h->cnt[u]; k++) {
      uint32_t v = h->to[u][k];
      if (v > b || seen[v] || (u == skip_a && v == skip_b)) continue;
      seen[v] = 1;
      stack[top++] = v;
    }
  }
  return false;
}

typedef struct cstats {
  size_t waits, redundant, edges, events, implied, graphs, width_eq, width_cmp;
} cstats;

/* Dilworth width of the device nodes (reachability through any node): n - maximum matching. */
static bool kuhn(uint32_t u, const bits *r, const uint8_t *dev, size_t n, int32_t *match,
                 uint8_t *used) {
  for (uint32_t v = u + 1; v < n; v++) {
    if (!dev[v] || !has(r, u, v) || used[v]) continue;
    used[v] = 1;
    if (match[v] < 0 || kuhn((uint32_t)match[v], r, dev, n, match, used)) {
      match[v] = (int32_t)u;
      return true;
    }
  }
  return false;
}

static size_t device_width(const tgraph *t, const bits *r) {
  size_t n = t->n, nd = 0, m = 0;
  uint8_t *dev = calloc(n, 1), *used = malloc(n);
  int32_t *match = malloc(n * sizeof *match);
  for (size_t i = 0; i < n; i++) {
    dev[i] = t->kind[i] != H;
    nd += dev[i];
    match[i] = -1;
  }
  for (uint32_t u = 0; u < n; u++) {
    if (!dev[u]) continue;
    memset(used, 0, n);
    m += kuhn(u, r, dev, n, match, used);
  }
  free(dev);
  free(used);
  free(match);
  return nd - m;
}

/* Everything the result must satisfy, whatever the graph. */
static void check(const tgraph *t, ic_stream_policy pol, uint32_t max_auto, const ic_streams *s,
                  cstats *cs) {
  size_t n = t->n;
  bool reserved[IC_STREAMS_MAX_FIXED] = {false};
  uint32_t max_id = 0;
  bool any_dev = false, any_fixed = false;
  size_t unforced_dev = 0;
  for (size_t i = 0; i < n; i++) {
    int32_t f = t->fixed && t->kind[i] != H ? t->fixed[i] : -1;
    if (f >= 0) reserved[f] = any_fixed = true;
  }
  /* Streams per node and policy. */
  bool auto_used[IC_STREAMS_MAX_FIXED + 64] = {false};
  for (size_t i = 0; i < n; i++) {
    int32_t st = s->stream[i];
    if (t->kind[i] == H) {
      REQUIRE(st == -1, "host node %zu on stream %d", i, st);
      continue;
    }
    REQUIRE(st >= 0, "device node %zu without a stream", i);
    any_dev = true;
    if ((uint32_t)st > max_id) max_id = (uint32_t)st;
    int32_t f = t->fixed ? t->fixed[i] : -1;
    if (f >= 0) {
      REQUIRE(st == f, "node %zu forced to %d, got %d", i, f, st);
      continue;
    }
    unforced_dev++;
    if (pol == IC_STREAMS_SINGLE) REQUIRE_EQ(st, 0);
    if (pol == IC_STREAMS_PER_BACKEND) {
      REQUIRE_EQ(st, t->kind[i] == HD ? 1 : t->kind[i] == DH ? 2 : 0);
    }
    if (pol == IC_STREAMS_PER_OPERATOR) {
      REQUIRE(st >= IC_STREAMS_MAX_FIXED || !reserved[st],
                    "node %zu given forced stream %d", i, st);
      REQUIRE(st < IC_STREAMS_MAX_FIXED + 64, "stream %d", st);
      auto_used[st] = true;
    }
  }
  REQUIRE_EQ(s->n_streams, any_dev ? max_id + 1 : 0);
  size_t n_auto = 0;
  for (size_t k = 0; k < IC_STREAMS_MAX_FIXED + 64; k++) n_auto += auto_used[k];
  if (pol == IC_STREAMS_PER_OPERATOR) {
    REQUIRE(n_auto <= (unforced_dev < max_auto ? unforced_dev : max_auto), "%zu auto streams", n_auto);
    /* Auto ids are the smallest free ones: no gaps below the largest. */
    for (size_t k = 0, seen = 0; seen < n_auto; k++) {
      REQUIRE(reserved[k] || auto_used[k], "auto stream ids skip %zu", k);
      seen += auto_used[k];
    }
  }

  /* Edge classes, waits and records. */
  uint8_t *waited = calloc(n * n + 1, 1);
  size_t events = 0;
  for (uint32_t c = 0; c < n; c++) {
    for (uint32_t k = 0; k < s->n_waits[c]; k++) {
      uint32_t p = s->waits[c][k];
      REQUIRE(p < c, "wait %u at %u", p, c);
      if (k) REQUIRE(s->waits[c][k - 1] < p, "waits of %u not ascending", c);
      waited[(size_t)p * n + c] = 1;
    }
  }
  for (uint32_t p = 0; p < n; p++) {
    bool rec = false;
    for (uint32_t k = 0; k < t->n_succ[p]; k++) {
      uint32_t c = t->succ[p][k];
      uint8_t e = s->edge[p][k];
      bool ph = t->kind[p] == H, chost = t->kind[c] == H;
      if (ph) {
        REQUIRE_EQ(e, chost ? IC_SEDGE_DIRECT : IC_SEDGE_LAUNCH);
      } else if (chost) {
        REQUIRE(e == IC_SEDGE_SYNC || e == IC_SEDGE_SYNC_IMPLIED, "edge %u->%u: %d", p, c, e);
      } else if (s->stream[p] == s->stream[c]) {
        REQUIRE_EQ(e, IC_SEDGE_DIRECT);
      } else {
        REQUIRE(e == IC_SEDGE_EVENT || e == IC_SEDGE_EVENT_IMPLIED, "edge %u->%u: %d", p, c,
                      e);
      }
      bool w = e == IC_SEDGE_EVENT || e == IC_SEDGE_SYNC;
      REQUIRE(w == (bool)waited[(size_t)p * n + c], "edge %u->%u class %d, waited %d", p, c,
                    e, waited[(size_t)p * n + c]);
      waited[(size_t)p * n + c] = 0;
      rec |= w;
      if (cs) {
        cs->edges++;
        cs->implied += e == IC_SEDGE_EVENT_IMPLIED || e == IC_SEDGE_SYNC_IMPLIED;
      }
    }
    REQUIRE(s->records[p] == rec, "node %u records %d, expected %d", p, s->records[p], rec);
    events += rec;
  }
  for (size_t k = 0; k < n * n; k++) REQUIRE(!waited[k], "a wait without an edge");
  free(waited);
  REQUIRE_EQ(s->n_events, events);

  /* Every dependency is ordered; every wait is needed. */
  hb h = hb_build(t, s);
  uint8_t *seen = malloc(n);
  uint32_t *stack = malloc((n * n + n + 1) * sizeof *stack);
  bits hr = bits_new(n);
  for (size_t i = n; i-- > 0;) {
    for (uint32_t k = 0; k < h.cnt[i]; k++) {
      uint32_t v = h.to[i][k];
      set(&hr, i, v);
      for (size_t w = 0; w < hr.w; w++) row(&hr, i)[w] |= row(&hr, v)[w];
    }
  }
  for (uint32_t p = 0; p < n; p++) {
    for (uint32_t k = 0; k < t->n_succ[p]; k++) {
      REQUIRE(has(&hr, p, t->succ[p][k]), "edge %u->%u not ordered (policy %s)", p,
                    t->succ[p][k], ic_stream_policy_name(pol));
    }
  }
  for (uint32_t c = 0; c < n; c++) {
    for (uint32_t k = 0; k < s->n_waits[c]; k++) {
      uint32_t p = s->waits[c][k];
      bool redundant = hb_reaches(&h, p, c, p, c, seen, stack);
      if (cs) {
        cs->waits++;
        cs->redundant += redundant;
      }
    }
  }
  if (cs) cs->events += events;

  /* Per-operator streams are chains of the dependency order, unless forced streams or the
   * cap made it otherwise: consecutive nodes of a stream are ordered by the DAG itself. */
  if (pol == IC_STREAMS_PER_OPERATOR && !any_fixed && n_auto < max_auto) {
    bits r = dag_reach(t);
    int32_t *last = malloc((s->n_streams + 1) * sizeof *last);
    for (uint32_t k = 0; k <= s->n_streams; k++) last[k] = -1;
    for (uint32_t i = 0; i < n; i++) {
      int32_t st = s->stream[i];
      if (st < 0) continue;
      if (last[st] >= 0) {
        REQUIRE(has(&r, (size_t)last[st], i),
                      "independent nodes %d and %u share stream %d", last[st], i, st);
      }
      last[st] = (int32_t)i;
    }
    if (cs && n <= 150) {
      size_t w = device_width(t, &r);
      REQUIRE(n_auto >= w, "%zu streams, width %zu", n_auto, w); /* Dilworth: chains cannot be fewer than the width */
      cs->width_cmp++;
      cs->width_eq += n_auto == w;
    }
    free(last);
    free(r.v);
  }
  free(hr.v);
  free(seen);
  free(stack);
  hb_free(&h);
  if (cs) cs->graphs++;
}

static void assign(const tgraph *t, ic_stream_policy pol, ic_streams *s) {
  ic_err e;
  ic_err_clear(&e);
  ck_assert_msg(ic_streams_assign(&t->g, pol, s, &e) == IC_OK, "%s", e.msg);
  cstats cs = {0};
  check(t, pol, IC_STREAMS_DEFAULT_MAX_AUTO, s, &cs);
  ck_assert_uint_eq(cs.redundant, 0);
}

static const char *streams_str(const ic_streams *s, size_t n) {
  static char buf[512];
  buf[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    char tmp[16];
    snprintf(tmp, sizeof tmp, "%s%d", i ? " " : "", s->stream[i]);
    strcat(buf, tmp);
  }
  return buf;
}

/* The class of edge a->b. */
static int eclass(const tgraph *t, const ic_streams *s, uint32_t a, uint32_t b) {
  for (uint32_t k = 0; k < t->n_succ[a]; k++) {
    if (t->succ[a][k] == b) return s->edge[a][k];
  }
  ck_abort_msg("no edge %u->%u", a, b);
  return -1;
}

static const char *waits_str(const ic_streams *s, size_t i) {
  static char buf[256];
  buf[0] = '\0';
  for (uint32_t k = 0; k < s->n_waits[i]; k++) {
    char tmp[16];
    snprintf(tmp, sizeof tmp, "%s%u", k ? "," : "", s->waits[i][k]);
    strcat(buf, tmp);
  }
  return buf;
}

/* ---- the reference graph ---- */

enum { A_, B_, C_, D_, E_, F_, G_, H_, I_ };
static const uint32_t k_ref_edges[] = {A_, B_, A_, C_, A_, E_, B_, D_, C_, D_, D_, F_,
                                       E_, F_, F_, G_, F_, I_, G_, I_, H_, I_};
#define N_REF_EDGES (sizeof k_ref_edges / sizeof k_ref_edges[0] / 2)

START_TEST(reference_per_operator) {
  const uint8_t kinds[9] = {D, D, D, D, D, D, D, D, D};
  tgraph *t = tg_new(9, kinds, N_REF_EDGES, k_ref_edges);
  ic_streams s;
  assign(t, IC_STREAMS_PER_OPERATOR, &s);
  ck_assert_str_eq(streams_str(&s, 9), "0 0 2 0 3 0 0 1 0");
  ck_assert_uint_eq(s.n_streams, 4);
  ck_assert_int_eq(eclass(t, &s, A_, B_), IC_SEDGE_DIRECT);
  ck_assert_int_eq(eclass(t, &s, A_, C_), IC_SEDGE_EVENT);
  ck_assert_int_eq(eclass(t, &s, A_, E_), IC_SEDGE_EVENT);
  ck_assert_int_eq(eclass(t, &s, C_, D_), IC_SEDGE_EVENT);
  ck_assert_int_eq(eclass(t, &s, E_, F_), IC_SEDGE_EVENT);
  ck_assert_int_eq(eclass(t, &s, H_, I_), IC_SEDGE_EVENT);
  ck_assert_int_eq(eclass(t, &s, F_, I_), IC_SEDGE_DIRECT);
  ck_assert_int_eq(eclass(t, &s, G_, I_), IC_SEDGE_DIRECT);
  ck_assert_str_eq(waits_str(&s, C_), "0");
  ck_assert_str_eq(waits_str(&s, E_), "0");
  ck_assert_str_eq(waits_str(&s, D_), "2");
  ck_assert_str_eq(waits_str(&s, F_), "4");
  ck_assert_str_eq(waits_str(&s, I_), "7");
  ck_assert_uint_eq(s.n_events, 4); /* A, C, E, H */
  ck_assert(s.records[A_] && s.records[C_] && s.records[E_] && s.records[H_]);
  ic_streams_free(&s);

  /* Host nodes are transparent: H behind a host node is still an entry. */
  const uint8_t k3[10] = {H, D, D, D, D, D, D, D, D, D};
  uint32_t e3[2 * (N_REF_EDGES + 1)];
  for (size_t k = 0; k < 2 * N_REF_EDGES; k++) e3[k] = k_ref_edges[k] + 1;
  e3[2 * N_REF_EDGES] = 0;
  e3[2 * N_REF_EDGES + 1] = H_ + 1;
  tgraph *t2 = tg_new(10, k3, N_REF_EDGES + 1, e3);
  assign(t2, IC_STREAMS_PER_OPERATOR, &s);
  ck_assert_str_eq(streams_str(&s, 10), "-1 0 0 2 0 3 0 0 1 0");
  ck_assert_int_eq(eclass(t2, &s, 0, H_ + 1), IC_SEDGE_LAUNCH);
  ic_streams_free(&s);
  tg_free(t2);
  tg_free(t);
}
END_TEST

START_TEST(reference_single_and_per_backend) {
  const uint8_t kinds[9] = {D, D, D, D, D, D, D, D, D};
  tgraph *t = tg_new(9, kinds, N_REF_EDGES, k_ref_edges);
  ic_streams s;
  assign(t, IC_STREAMS_SINGLE, &s);
  ck_assert_str_eq(streams_str(&s, 9), "0 0 0 0 0 0 0 0 0");
  ck_assert_uint_eq(s.n_streams, 1);
  ck_assert_uint_eq(s.n_events, 0);
  for (uint32_t i = 0; i < 9; i++) {
    for (uint32_t k = 0; k < t->n_succ[i]; k++) ck_assert_int_eq(s.edge[i][k], IC_SEDGE_DIRECT);
  }
  ic_streams_free(&s);
  /* Per-backend without copies: one stream too. */
  assign(t, IC_STREAMS_PER_BACKEND, &s);
  ck_assert_str_eq(streams_str(&s, 9), "0 0 0 0 0 0 0 0 0");
  ck_assert_uint_eq(s.n_streams, 1);
  ic_streams_free(&s);
  tg_free(t);

  /* feed -> H2D -> compute -> compute -> D2H -> fetch, plus a second H2D into the compute. */
  const uint8_t k2[7] = {H, HD, HD, D, D, DH, H};
  const uint32_t e2[] = {0, 1, 0, 2, 1, 3, 2, 4, 3, 4, 4, 5, 5, 6};
  t = tg_new(7, k2, 7, e2);
  assign(t, IC_STREAMS_PER_BACKEND, &s);
  ck_assert_str_eq(streams_str(&s, 7), "-1 1 1 0 0 2 -1");
  ck_assert_uint_eq(s.n_streams, 3);
  ck_assert_int_eq(eclass(t, &s, 0, 1), IC_SEDGE_LAUNCH);
  ck_assert_int_eq(eclass(t, &s, 1, 3), IC_SEDGE_EVENT);
  ck_assert_int_eq(eclass(t, &s, 2, 4), IC_SEDGE_EVENT);
  ck_assert_int_eq(eclass(t, &s, 3, 4), IC_SEDGE_DIRECT);
  ck_assert_int_eq(eclass(t, &s, 4, 5), IC_SEDGE_EVENT);
  ck_assert_int_eq(eclass(t, &s, 5, 6), IC_SEDGE_SYNC);
  ck_assert_str_eq(waits_str(&s, 3), "1");
  ck_assert_str_eq(waits_str(&s, 4), "2");
  ck_assert_str_eq(waits_str(&s, 5), "4");
  ck_assert_str_eq(waits_str(&s, 6), "5");
  ck_assert_uint_eq(s.n_events, 4);
  ic_streams_free(&s);
  /* Single: every device node on 0; only the host edges remain special. */
  assign(t, IC_STREAMS_SINGLE, &s);
  ck_assert_str_eq(streams_str(&s, 7), "-1 0 0 0 0 0 -1");
  ck_assert_uint_eq(s.n_events, 1);
  ck_assert_int_eq(eclass(t, &s, 5, 6), IC_SEDGE_SYNC);
  ic_streams_free(&s);
  /* Per-operator: the two copies overlap, the rest is one chain. */
  assign(t, IC_STREAMS_PER_OPERATOR, &s);
  ck_assert_str_eq(streams_str(&s, 7), "-1 0 1 0 0 0 -1");
  ck_assert_str_eq(waits_str(&s, 4), "2");
  ic_streams_free(&s);
  tg_free(t);
}
END_TEST

/* ---- exact events on small graphs ---- */

START_TEST(diamond_two_streams) {
  const uint8_t k[4] = {D, D, D, D};
  const uint32_t e[] = {0, 1, 0, 2, 1, 3, 2, 3};
  tgraph *t = tg_new(4, k, 4, e);
  ic_streams s;
  assign(t, IC_STREAMS_PER_OPERATOR, &s);
  ck_assert_str_eq(streams_str(&s, 4), "0 0 1 0");
  ck_assert_str_eq(waits_str(&s, 1), "");
  ck_assert_str_eq(waits_str(&s, 2), "0");
  ck_assert_str_eq(waits_str(&s, 3), "2");
  ck_assert_int_eq(eclass(t, &s, 0, 1), IC_SEDGE_DIRECT);
  ck_assert_int_eq(eclass(t, &s, 1, 3), IC_SEDGE_DIRECT);
  ck_assert_uint_eq(s.n_events, 2);
  ic_streams_free(&s);
  tg_free(t);
}
END_TEST

START_TEST(second_cross_edge_implied) {
  /* Per-backend: two independent uploads on stream 1; the compute reading the later one
   * waits for it, and the next compute's edge from the earlier upload is then implied. */
  const uint8_t k[4] = {HD, HD, D, D};
  const uint32_t e[] = {0, 3, 1, 2, 2, 3};
  tgraph *t = tg_new(4, k, 3, e);
  ic_streams s;
  assign(t, IC_STREAMS_PER_BACKEND, &s);
  ck_assert_str_eq(streams_str(&s, 4), "1 1 0 0");
  ck_assert_int_eq(eclass(t, &s, 1, 2), IC_SEDGE_EVENT);
  ck_assert_int_eq(eclass(t, &s, 0, 3), IC_SEDGE_EVENT_IMPLIED);
  ck_assert_int_eq(eclass(t, &s, 2, 3), IC_SEDGE_DIRECT);
  ck_assert_str_eq(waits_str(&s, 2), "1");
  ck_assert_str_eq(waits_str(&s, 3), "");
  ck_assert_uint_eq(s.n_events, 1);
  ck_assert(!s.records[0] && s.records[1]);
  ic_streams_free(&s);
  tg_free(t);

  /* Forced streams: A on 0, B and C on 1 with no edge between them: C's edge from A is
   * implied by B's wait and stream order. Two preds on one stream: only the later waited. */
  const uint8_t k2[5] = {D, D, D, D, D};
  const uint32_t e2[] = {0, 2, 0, 3, 1, 4, 3, 4};
  t = tg_new(5, k2, 4, e2);
  tg_fix(t, 0, 0);
  tg_fix(t, 1, 0);
  tg_fix(t, 2, 1);
  tg_fix(t, 3, 1);
  tg_fix(t, 4, 2);
  for (int pol = 0; pol < 3; pol++) {
    assign(t, (ic_stream_policy)pol, &s);
    ck_assert_str_eq(streams_str(&s, 5), "0 0 1 1 2");
    ck_assert_int_eq(eclass(t, &s, 0, 2), IC_SEDGE_EVENT);
    ck_assert_int_eq(eclass(t, &s, 0, 3), IC_SEDGE_EVENT_IMPLIED);
    /* 4 needs 1 (stream 0) and 3 (stream 1); 3 knows stream 0 only up to 0. */
    ck_assert_str_eq(waits_str(&s, 4), "1,3");
    ic_streams_free(&s);
  }
  tg_free(t);

  /* Latest first: 3 on stream 1 needs 0 and 2 of stream 0 (no edge 0 -> 2): one wait. */
  const uint8_t k3[4] = {D, D, D, D};
  const uint32_t e3[] = {0, 3, 2, 3, 1, 2};
  t = tg_new(4, k3, 3, e3);
  tg_fix(t, 0, 0);
  tg_fix(t, 1, 0);
  tg_fix(t, 2, 0);
  tg_fix(t, 3, 1);
  assign(t, IC_STREAMS_SINGLE, &s);
  ck_assert_str_eq(waits_str(&s, 3), "2");
  ck_assert_int_eq(eclass(t, &s, 0, 3), IC_SEDGE_EVENT_IMPLIED);
  ic_streams_free(&s);
  tg_free(t);
}
END_TEST

START_TEST(host_after_d2h) {
  /* A (compute) -> X (D2H) -> host H -> B (compute); X -> C (compute after B on stream 0):
   * H waited for X and B was launched after H, so stream 0 already knows X at C. */
  const uint8_t k[5] = {D, DH, H, D, D};
  const uint32_t e[] = {0, 1, 1, 2, 2, 3, 1, 4};
  tgraph *t = tg_new(5, k, 4, e);
  ic_streams s;
  assign(t, IC_STREAMS_PER_BACKEND, &s);
  ck_assert_str_eq(streams_str(&s, 5), "0 2 -1 0 0");
  ck_assert_int_eq(eclass(t, &s, 0, 1), IC_SEDGE_EVENT);
  ck_assert_int_eq(eclass(t, &s, 1, 2), IC_SEDGE_SYNC);
  ck_assert_int_eq(eclass(t, &s, 2, 3), IC_SEDGE_LAUNCH);
  ck_assert_int_eq(eclass(t, &s, 1, 4), IC_SEDGE_EVENT_IMPLIED);
  ck_assert_str_eq(waits_str(&s, 1), "0");
  ck_assert_str_eq(waits_str(&s, 2), "1");
  ck_assert_str_eq(waits_str(&s, 4), "");
  ck_assert_uint_eq(s.n_events, 2);
  ic_streams_free(&s);
  tg_free(t);

  /* Two downloads on stream 2; H1 waits for the later, so H2's need of the earlier is
   * implied through H1. */
  const uint8_t k2[4] = {DH, DH, H, H};
  const uint32_t e2[] = {1, 2, 0, 3, 2, 3};
  t = tg_new(4, k2, 3, e2);
  assign(t, IC_STREAMS_PER_BACKEND, &s);
  ck_assert_str_eq(streams_str(&s, 4), "2 2 -1 -1");
  ck_assert_uint_eq(s.n_streams, 3);
  ck_assert_int_eq(eclass(t, &s, 1, 2), IC_SEDGE_SYNC);
  ck_assert_int_eq(eclass(t, &s, 0, 3), IC_SEDGE_SYNC_IMPLIED);
  ck_assert_int_eq(eclass(t, &s, 2, 3), IC_SEDGE_DIRECT);
  ck_assert_str_eq(waits_str(&s, 2), "1");
  ck_assert_str_eq(waits_str(&s, 3), "");
  ck_assert_uint_eq(s.n_events, 1);
  ic_streams_free(&s);
  /* Per-operator puts them on two streams: then H2 must wait for X1 itself. */
  assign(t, IC_STREAMS_PER_OPERATOR, &s);
  ck_assert_str_eq(streams_str(&s, 4), "0 1 -1 -1");
  ck_assert_int_eq(eclass(t, &s, 0, 3), IC_SEDGE_SYNC);
  ck_assert_str_eq(waits_str(&s, 3), "0");
  ic_streams_free(&s);
  tg_free(t);
}
END_TEST

START_TEST(chains_take_one_stream) {
  /* A device chain, a chain with copies, and a chain broken by host nodes. */
  enum { N = 40 };
  uint8_t k[N];
  uint32_t e[2 * N];
  for (int variant = 0; variant < 3; variant++) {
    for (uint32_t i = 0; i < N; i++) {
      k[i] = variant == 0 ? D : variant == 1 ? (i % 3 == 0 ? HD : i % 3 == 1 ? D : DH)
                                             : (i % 4 == 3 ? H : D);
      if (i + 1 < N) e[2 * i] = i, e[2 * i + 1] = i + 1;
    }
    tgraph *t = tg_new(N, k, N - 1, e);
    ic_streams s;
    assign(t, IC_STREAMS_PER_OPERATOR, &s);
    ck_assert_uint_eq(s.n_streams, 1);
    for (uint32_t i = 0; i < N; i++) ck_assert_int_eq(s.stream[i], k[i] == H ? -1 : 0);
    ic_streams_free(&s);
    tg_free(t);
  }
}
END_TEST

START_TEST(forced_streams_reserved) {
  /* 0 -> 1 -> 2 with 1 forced onto 5: 2 cannot continue 5, so it reuses 0's stream, which
   * is released and already ordered before it (through 1's wait). */
  const uint8_t k[3] = {D, D, D};
  const uint32_t e[] = {0, 1, 1, 2};
  tgraph *t = tg_new(3, k, 2, e);
  tg_fix(t, 1, 5);
  ic_streams s;
  assign(t, IC_STREAMS_PER_OPERATOR, &s);
  ck_assert_str_eq(streams_str(&s, 3), "0 5 0");
  ck_assert_uint_eq(s.n_streams, 6);
  ck_assert_int_eq(eclass(t, &s, 0, 1), IC_SEDGE_EVENT);
  ck_assert_int_eq(eclass(t, &s, 1, 2), IC_SEDGE_EVENT);
  ic_streams_free(&s);
  tg_free(t);

  /* Forced 0 and 1: auto streams take 2, 3, ... */
  const uint8_t k2[4] = {D, D, D, D};
  const uint32_t e2[] = {0, 3, 1, 3, 2, 3};
  t = tg_new(4, k2, 3, e2);
  tg_fix(t, 3, 0);
  tg_fix(t, 2, 1);
  assign(t, IC_STREAMS_PER_OPERATOR, &s);
  ck_assert_str_eq(streams_str(&s, 4), "2 3 1 0");
  ck_assert_str_eq(waits_str(&s, 3), "0,1,2");
  ic_streams_free(&s);
  /* Host nodes ignore a forced stream. */
  const uint8_t k3[2] = {H, D};
  const uint32_t e3[] = {0, 1};
  tgraph *t3 = tg_new(2, k3, 1, e3);
  tg_fix(t3, 0, 4);
  assign(t3, IC_STREAMS_PER_OPERATOR, &s);
  ck_assert_str_eq(streams_str(&s, 2), "-1 0");
  ic_streams_free(&s);
  tg_free(t3);
  tg_free(t);
}
END_TEST

START_TEST(cap_on_streams) {
  /* A root, 8 independent successors and a join: 9 streams uncapped... */
  enum { N = 10 };
  uint8_t k[N];
  uint32_t e[4 * N];
  size_t ne = 0;
  for (uint32_t i = 0; i < N; i++) k[i] = D;
  for (uint32_t i = 1; i < N - 1; i++) {
    e[2 * ne] = 0, e[2 * ne + 1] = i, ne++;
    e[2 * ne] = i, e[2 * ne + 1] = N - 1, ne++;
  }
  tgraph *t = tg_new(N, k, ne, e);
  ic_streams s;
  assign(t, IC_STREAMS_PER_OPERATOR, &s);
  ck_assert_uint_eq(s.n_streams, 8);
  ic_streams_free(&s);
  /* ...and at most the cap, still correct. */
  for (uint32_t cap = 1; cap <= 9; cap++) {
    ic_err err;
    ck_assert_int_eq(ic_streams_assign_max(&t->g, IC_STREAMS_PER_OPERATOR, cap, &s, &err), IC_OK);
    ck_assert_uint_eq(s.n_streams, cap < 8 ? cap : 8);
    cstats cs = {0};
    check(t, IC_STREAMS_PER_OPERATOR, cap, &s, &cs);
    ck_assert_uint_eq(cs.redundant, 0);
    ic_streams_free(&s);
  }
  tg_free(t);
}
END_TEST

/* ---- random DAGs ---- */

static uint64_t rnd(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* A random DAG: local and far predecessors, a random mix of kinds, sometimes reduced. */
static tgraph *random_graph(uint64_t *x, size_t n, bool reduce) {
  uint8_t *kinds = malloc(n);
  uint32_t pick = (uint32_t)(rnd(x) % 5);
  for (size_t i = 0; i < n; i++) {
    uint32_t r = (uint32_t)(rnd(x) % 100);
    switch (pick) {
      case 0: kinds[i] = D; break;
      case 1: kinds[i] = r < 50 ? H : D; break;
      default: kinds[i] = r < 20 ? H : r < 70 ? D : r < 85 ? HD : DH; break;
    }
  }
  uint32_t fan = 1 + (uint32_t)(rnd(x) % 4);
  uint32_t *edges = malloc(2 * n * 4 * sizeof *edges);
  size_t ne = 0;
  for (size_t c = 1; c < n; c++) {
    uint32_t np = (uint32_t)(rnd(x) % (fan + 1));
    for (uint32_t q = 0; q < np; q++) {
      size_t p = rnd(x) % 3 ? c - 1 - rnd(x) % (c < 6 ? c : 6) : rnd(x) % c;
      edges[2 * ne] = (uint32_t)p;
      edges[2 * ne + 1] = (uint32_t)c;
      ne++;
    }
  }
  tgraph *t = tg_new(n, kinds, ne, edges);
  if (reduce) {
    bits r = dag_reach(t);
    for (size_t i = 0; i < n; i++) {
      uint32_t kept = 0;
      for (uint32_t k = 0; k < t->n_succ[i]; k++) {
        uint32_t s = t->succ[i][k];
        bool implied = false;
        for (uint32_t m = 0; m < t->n_succ[i] && !implied; m++) {
          implied = t->succ[i][m] != s && has(&r, t->succ[i][m], s);
        }
        if (!implied) t->succ[i][kept++] = s;
      }
      t->n_succ[i] = kept;
    }
    free(r.v);
  }
  if (rnd(x) % 3 == 0) {
    uint32_t ids = 1 + (uint32_t)(rnd(x) % 4);
    for (size_t i = 0; i < n; i++) {
      if (rnd(x) % 100 < 15) tg_fix(t, i, (int32_t)(rnd(x) % 50 == 0 ? 255 : rnd(x) % ids));
    }
  }
  free(kinds);
  free(edges);
  return t;
}

START_TEST(random_dags) {
  uint64_t x = 0x9e3779b97f4a7c15ull;
  cstats tot[3] = {{0}, {0}, {0}};
  size_t capped = 0;
  for (int it = 0; it < 400; it++) {
    size_t n = it < 100 ? 1 + rnd(&x) % 20 : 1 + rnd(&x) % 300;
    tgraph *t = random_graph(&x, n, rnd(&x) % 2);
    uint32_t cap = rnd(&x) % 4 == 0 ? 1 + (uint32_t)(rnd(&x) % 4) : IC_STREAMS_DEFAULT_MAX_AUTO;
    for (int pol = 0; pol < 3; pol++) {
      ic_streams s;
      ic_err err;
      ck_assert_int_eq(ic_streams_assign_max(&t->g, (ic_stream_policy)pol, cap, &s, &err), IC_OK);
      check(t, (ic_stream_policy)pol, cap, &s, &tot[pol]);
      if (pol == IC_STREAMS_PER_OPERATOR && cap < IC_STREAMS_DEFAULT_MAX_AUTO) capped++;
      ic_streams_free(&s);
    }
    tg_free(t);
  }
  for (int pol = 0; pol < 3; pol++) {
    printf("random dags, %-12s: %zu graphs, %zu edges, %zu events, %zu waits (%zu redundant), "
           "%zu implied edges",
           ic_stream_policy_name((ic_stream_policy)pol), tot[pol].graphs, tot[pol].edges,
           tot[pol].events, tot[pol].waits, tot[pol].redundant, tot[pol].implied);
    if (tot[pol].width_cmp) {
      printf("; streams == width in %zu of %zu", tot[pol].width_eq, tot[pol].width_cmp);
    }
    printf("\n");
    /* Latest-first leaves no wait that the others imply. */
    ck_assert_uint_eq(tot[pol].redundant, 0);
    ck_assert_uint_gt(tot[pol].waits, 0);
  }
  ck_assert_uint_gt(tot[0].implied + tot[1].implied, 0);
  ck_assert_uint_gt(capped, 0);
}
END_TEST

/* ---- bad input ---- */

START_TEST(bad_graphs) {
  const uint8_t k[3] = {D, D, D};
  uint32_t s0[2] = {1, 2}, s1[1] = {2};
  uint32_t n_succ[3] = {2, 1, 0};
  uint32_t *succ[3] = {s0, s1, NULL};
  ic_sgraph g = {.n = 3, .kind = k, .n_succ = n_succ, .succ = (const uint32_t *const *)succ};
  ic_streams s;
  ic_err err;
  ck_assert_int_eq(ic_streams_assign(&g, IC_STREAMS_PER_OPERATOR, &s, &err), IC_OK);
  ic_streams_free(&s);

  s1[0] = 0; /* backward */
  ck_assert_int_eq(ic_streams_assign(&g, IC_STREAMS_PER_OPERATOR, &s, &err), IC_ERR_INTERNAL);
  tu_assert_msg(err.msg, "node 1", "successor 0", "forward", NULL);
  ck_assert_ptr_null(s.stream);
  ic_streams_free(&s);
  s1[0] = 1; /* self */
  ck_assert_int_eq(ic_streams_assign(&g, IC_STREAMS_SINGLE, &s, &err), IC_ERR_INTERNAL);
  tu_assert_msg(err.msg, "node 1", "successor 1", NULL);
  s1[0] = 7; /* out of range */
  ck_assert_int_eq(ic_streams_assign(&g, IC_STREAMS_PER_BACKEND, &s, &err), IC_ERR_INTERNAL);
  tu_assert_msg(err.msg, "node 1", "successor 7", "out of range", "3 nodes", NULL);
  s1[0] = 2;
  s0[0] = 2; /* not ascending */
  ck_assert_int_eq(ic_streams_assign(&g, IC_STREAMS_PER_OPERATOR, &s, &err), IC_ERR_INTERNAL);
  tu_assert_msg(err.msg, "node 0", "ascending", NULL);
  s0[0] = 1;
  uint8_t k2[3] = {D, 9, D};
  g.kind = k2;
  ck_assert_int_eq(ic_streams_assign(&g, IC_STREAMS_PER_OPERATOR, &s, &err), IC_ERR_INTERNAL);
  tu_assert_msg(err.msg, "node 1", "kind 9", NULL);
  g.kind = k;
  int32_t fixed[3] = {-1, IC_STREAMS_MAX_FIXED, -1};
  g.fixed_stream = fixed;
  ck_assert_int_eq(ic_streams_assign(&g, IC_STREAMS_PER_OPERATOR, &s, &err), IC_ERR_INTERNAL);
  tu_assert_msg(err.msg, "node 1", "forced stream 256", NULL);
  fixed[1] = -2;
  ck_assert_int_eq(ic_streams_assign(&g, IC_STREAMS_PER_OPERATOR, &s, &err), IC_ERR_INTERNAL);
  tu_assert_msg(err.msg, "node 1", "forced stream -2", NULL);
  fixed[1] = 3;
  ck_assert_int_eq(ic_streams_assign(&g, IC_STREAMS_PER_OPERATOR, &s, &err), IC_OK);
  ck_assert_str_eq(streams_str(&s, 3), "0 3 0");
  ic_streams_free(&s);
  g.fixed_stream = NULL;
  succ[1] = NULL;
  ck_assert_int_eq(ic_streams_assign(&g, IC_STREAMS_PER_OPERATOR, &s, &err), IC_ERR_INTERNAL);
  tu_assert_msg(err.msg, "node 1", "no successor list", NULL);
  succ[1] = s1;
  g.n_succ = NULL;
  ck_assert_int_eq(ic_streams_assign(&g, IC_STREAMS_PER_OPERATOR, &s, &err), IC_ERR_INTERNAL);
  tu_assert_msg(err.msg, "successor counts", NULL);
  g.n_succ = n_succ;

  ck_assert_int_eq(ic_streams_assign(&g, (ic_stream_policy)7, &s, &err), IC_ERR_INVALID_ARGUMENT);
  tu_assert_msg(err.msg, "policy 7", NULL);
  ck_assert_int_eq(ic_streams_assign_max(&g, IC_STREAMS_PER_OPERATOR, 0, &s, &err),
                   IC_ERR_INVALID_ARGUMENT);
  tu_assert_msg(err.msg, "max_auto", NULL);
  ck_assert_int_eq(ic_streams_assign(NULL, IC_STREAMS_SINGLE, &s, &err), IC_ERR_INVALID_ARGUMENT);
  tu_assert_msg(err.msg, "graph", NULL);

  /* The empty graph is fine. */
  ic_sgraph empty = {0};
  ck_assert_int_eq(ic_streams_assign(&empty, IC_STREAMS_PER_OPERATOR, &s, &err), IC_OK);
  ck_assert_uint_eq(s.n_streams, 0);
  ck_assert_uint_eq(s.n_events, 0);
  ic_streams_free(&s);
  ic_streams_free(&s); /* twice is harmless */
}
END_TEST

START_TEST(policy_names) {
  for (int p = 0; p < 3; p++) {
    ic_stream_policy q = (ic_stream_policy)9;
    ck_assert(ic_stream_policy_parse(ic_stream_policy_name((ic_stream_policy)p), &q));
    ck_assert_int_eq((int)q, p);
  }
  ck_assert_str_eq(ic_stream_policy_name(IC_STREAMS_PER_BACKEND), "per-backend");
  ck_assert_str_eq(ic_stream_policy_name((ic_stream_policy)5), "unknown");
  ic_stream_policy q = IC_STREAMS_SINGLE;
  ck_assert(!ic_stream_policy_parse("per_operator", &q));
  ck_assert(!ic_stream_policy_parse("", &q));
  ck_assert(!ic_stream_policy_parse(NULL, &q));
  ck_assert_int_eq(q, IC_STREAMS_SINGLE);
}
END_TEST

/* ---- timing (printed, not asserted) ---- */

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A large graph without the n^2 builder of tg_new. */
static tgraph *big_graph(size_t n, int shape, uint64_t *x) {
  tgraph *t = calloc(1, sizeof *t);
  t->n = n;
  t->kind = malloc(n);
  t->n_succ = calloc(n, sizeof *t->n_succ);
  t->succ = calloc(n, sizeof *t->succ);
  uint32_t *cap = calloc(n, sizeof *cap);
  for (size_t c = 0; c < n; c++) {
    uint32_t r = (uint32_t)(rnd(x) % 100);
    t->kind[c] = shape == 0 ? D : r < 15 ? H : r < 85 ? D : r < 93 ? HD : DH;
    uint32_t np = c == 0 ? 0 : shape == 0 ? 1 : 1 + (uint32_t)(rnd(x) % 3);
    for (uint32_t q = 0; q < np; q++) {
      size_t p = shape == 0 ? c - 1
                 : shape == 1 ? c - 1 - rnd(x) % (c < 64 ? c : 64) /* local */
                              : rnd(x) % c;                        /* uniform: very wide */
      bool dup = false;
      for (uint32_t m = 0; m < t->n_succ[p]; m++) dup |= t->succ[p][m] == c;
      if (dup) continue;
      if (t->n_succ[p] == cap[p]) {
        cap[p] = cap[p] ? 2 * cap[p] : 4;
        t->succ[p] = realloc(t->succ[p], cap[p] * sizeof **t->succ);
      }
      t->succ[p][t->n_succ[p]++] = (uint32_t)c; /* c ascends: lists stay sorted */
    }
  }
  free(cap);
  t->g = (ic_sgraph){.n = n, .kind = t->kind, .n_succ = t->n_succ,
                     .succ = (const uint32_t *const *)t->succ};
  return t;
}

START_TEST(timing_10k) {
  uint64_t x = 12345;
  const char *shapes[4] = {"chain", "local DAG", "uniform DAG", "uniform+256"};
  for (int shape = 0; shape < 4; shape++) {
    tgraph *t = big_graph(10000, shape < 3 ? shape : 2, &x);
    /* The worst case for clock width: a tenth of the nodes forced onto 256 streams. */
    for (size_t i = 0; shape == 3 && i < t->n; i++) {
      if (rnd(&x) % 10 == 0) tg_fix(t, i, (int32_t)(i % IC_STREAMS_MAX_FIXED));
    }
    size_t edges = 0;
    for (size_t i = 0; i < t->n; i++) edges += t->n_succ[i];
    for (int pol = 0; pol < 3; pol++) {
      ic_streams s;
      ic_err err;
      double best = 1e9;
      for (int rep = 0; rep < 5; rep++) {
        double t0 = now_ms();
        ck_assert_int_eq(ic_streams_assign(&t->g, (ic_stream_policy)pol, &s, &err), IC_OK);
        double dt = now_ms() - t0;
        if (dt < best) best = dt;
        if (rep < 4) ic_streams_free(&s);
      }
      printf("10k %-11s (%zu edges) %-12s: %.2f ms, %u streams, %u events\n", shapes[shape],
             edges, ic_stream_policy_name((ic_stream_policy)pol), best, s.n_streams,
             s.n_events);
      if (shape == 0) ck_assert_uint_eq(s.n_streams, 1);
      ic_streams_free(&s);
    }
    tg_free(t);
  }
}
END_TEST

static TCase *tc_exact(void) {
  TCase *tc = tcase_create("exact");
  tcase_add_test(tc, reference_per_operator);
  tcase_add_test(tc, reference_single_and_per_backend);
  tcase_add_test(tc, diamond_two_streams);
  tcase_add_test(tc, second_cross_edge_implied);
  tcase_add_test(tc, host_after_d2h);
  tcase_add_test(tc, chains_take_one_stream);
  tcase_add_test(tc, forced_streams_reserved);
  tcase_add_test(tc, cap_on_streams);
  return tc;
}

static TCase *tc_random(void) {
  TCase *tc = tcase_create("random");
  tcase_add_test(tc, random_dags);
  tcase_add_test(tc, timing_10k);
  return tc;
}

static TCase *tc_input(void) {
  TCase *tc = tcase_create("input");
  tcase_add_test(tc, bad_graphs);
  tcase_add_test(tc, policy_names);
  return tc;
}

TU_MAIN("streams", tc_exact, tc_random, tc_input)
