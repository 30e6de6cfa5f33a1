/* See stdsort.h. The steps, as libstdc++ (bits/stl_algo.h, bits/stl_heap.h) has taken them
 * since GCC 4.x:
 *   - sort: introsort with a depth limit of 2 floor(log2 n): while a range holds more than 16
 *     elements, move the median of (second, middle, last) to the front, partition the rest
 *     around it (Hoare style, unguarded), recurse on the right part and loop on the left; at
 *     the depth limit heap-sort the range. Then one insertion sort over everything (the first
 *     16 guarded, the rest unguarded).
 *   - nth_element: the same partitions, keeping the part holding nth, down to 3 elements or
 *     fewer, then an insertion sort; at the depth limit a heap select of nth + 1 elements and
 *     a swap of the front with nth.
 *   - partial_sort: a heap select (a max-heap of the first mid elements by `before`, each later
 *     element that goes before the top replacing it) and a heap sort of the heap.
 * Every comparison and move below is in the order those take them; that is the point. */
#include "kernels/cpu/stdsort.h"

#define SORT_THRESHOLD 16

typedef struct ord {
  ic_before_fn before;
  const void *ctx;
} ord;

static inline bool lt(const ord *o, int64_t a, int64_t b) { return o->before(o->ctx, a, b); }

static inline void swap64(int64_t *a, int64_t *b) {
  int64_t t = *a;
  *a = *b;
  *b = t;
}

static int64_t floor_log2(int64_t n) {
  int64_t k = 0;
  while (n > 1) {
    n >>= 1;
    k++;
  }
  return k;
}

/* ---- heaps (a max-heap under `before`, rooted at v[0]) ---- */

static void push_heap(int64_t *v, int64_t hole, int64_t top, int64_t value, const ord *o) {
  int64_t parent = (hole - 1) / 2;
  while (hole > top && lt(o, v[parent], value)) {
    v[hole] = v[parent];
    hole = parent;
    parent = (hole - 1) / 2;
  }
  v[hole] = value;
}

static void adjust_heap(int64_t *v, int64_t hole, int64_t len, int64_t value, const ord *o) {
  const int64_t top = hole;
  int64_t child = hole;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (lt(o, v[child], v[child - 1])) child--;
    v[hole] = v[child];
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    v[hole] = v[child - 1];
    hole = child - 1;
  }
  push_heap(v, hole, top, value, o);
}

static void make_heap(int64_t *v, int64_t len, const ord *o) {
  if (len < 2) return;
  for (int64_t parent = (len - 2) / 2;; parent--) {
    adjust_heap(v, parent, len, v[parent], o);
    if (parent == 0) return;
  }
}

/* The element at v[at] replaces the top, which goes to v[at]. */
static void pop_heap_to(int64_t *v, int64_t len, int64_t at, const ord *o) {
  int64_t value = v[at];
  v[at] = v[0];
  adjust_heap(v, 0, len, value, o);
}

static void heap_select(int64_t *v, int64_t mid, int64_t n, const ord *o) {
  make_heap(v, mid, o);
  for (int64_t i = mid; i < n; i++) {
    if (lt(o, v[i], v[0])) pop_heap_to(v, mid, i, o);
  }
}

static void sort_heap(int64_t *v, int64_t len, const ord *o) {
  while (len > 1) {
    len--;
    pop_heap_to(v, len, len, o);
  }
}

/* ---- partitions and insertion sorts ---- */

static void median_to_first(int64_t *v, int64_t r, int64_t a, int64_t b, int64_t c,
                            const ord *o) {
  if (lt(o, v[a], v[b])) {
    if (lt(o, v[b], v[c])) swap64(&v[r], &v[b]);
    else if (lt(o, v[a], v[c])) swap64(&v[r], &v[c]);
    else swap64(&v[r], &v[a]);
  } else if (lt(o, v[a], v[c])) {
    swap64(&v[r], &v[a]);
  } else if (lt(o, v[b], v[c])) {
    swap64(&v[r], &v[c]);
  } else {
    swap64(&v[r], &v[b]);
  }
}

/* The median of v[first + 1], the middle and v[last - 1] swapped to v[first], then the rest
 * of [first, last) partitioned around it without bounds checks (the pivot stops both scans);
 * returns the cut. */
static int64_t partition_pivot(int64_t *v, int64_t first, int64_t last, const ord *o) {
  const int64_t mid = first + (last - first) / 2;
  median_to_first(v, first, first + 1, mid, last - 1, o);
  const int64_t pivot = first;
  int64_t lo = first + 1, hi = last;
  for (;;) {
    while (lt(o, v[lo], v[pivot])) lo++;
    hi--;
    while (lt(o, v[pivot], v[hi])) hi--;
    if (!(lo < hi)) return lo;
    swap64(&v[lo], &v[hi]);
    lo++;
  }
}

static void linear_insert(int64_t *v, int64_t at, const ord *o) {
  const int64_t val = v[at];
  int64_t next = at - 1;
  while (lt(o, val, v[next])) {
    v[at] = v[next];
    at = next;
    next--;
  }
  v[at] = val;
}

static void insertion_sort(int64_t *v, int64_t first, int64_t last, const ord *o) {
  if (first == last) return;
  for (int64_t i = first + 1; i < last; i++) {
    if (lt(o, v[i], v[first])) {
      const int64_t val = v[i];
      for (int64_t j = i; j > first; j--) v[j] = v[j - 1];
      v[first] = val;
    } else {
      linear_insert(v, i, o);
    }
  }
}

static void introsort_loop(int64_t *v, int64_t first, int64_t last, int64_t depth,
                           const ord *o) {
  while (last - first > SORT_THRESHOLD) {
    if (depth == 0) {
      heap_select(v + first, last - first, last - first, o);
      sort_heap(v + first, last - first, o);
      return;
    }
    depth--;
    const int64_t cut = partition_pivot(v, first, last, o);
    introsort_loop(v, cut, last, depth, o);
    last = cut;
  }
}

void ic_std_sort(int64_t *v, int64_t n, ic_before_fn before, const void *ctx) {
  if (n < 2) return;
  const ord o = {before, ctx};
  introsort_loop(v, 0, n, 2 * floor_log2(n), &o);
  if (n > SORT_THRESHOLD) {
    insertion_sort(v, 0, SORT_THRESHOLD, &o);
    for (int64_t i = SORT_THRESHOLD; i < n; i++) linear_insert(v, i, &o);
  } else {
    insertion_sort(v, 0, n, &o);
  }
}

void ic_std_nth_element(int64_t *v, int64_t nth, int64_t n, ic_before_fn before,
                        const void *ctx) {
  if (n == 0 || nth == n) return;
  const ord o = {before, ctx};
  int64_t first = 0, last = n, depth = 2 * floor_log2(n);
  while (last - first > 3) {
    if (depth == 0) {
      heap_select(v + first, nth + 1 - first, last - first, &o);
      swap64(&v[first], &v[nth]);
      return;
    }
    depth--;
    const int64_t cut = partition_pivot(v, first, last, &o);
    if (cut <= nth) first = cut;
    else last = cut;
  }
  insertion_sort(v, first, last, &o);
}

void ic_std_partial_sort(int64_t *v, int64_t mid, int64_t n, ic_before_fn before,
                         const void *ctx) {
  const ord o = {before, ctx};
  heap_select(v, mid, n, &o);
  sort_heap(v, mid, &o);
}
