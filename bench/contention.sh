#!/usr/bin/env bash
# Threads under contention: each model at batch 1 and 8, 1 and 2 threads, on a quiet machine
# and with another process spinning on one core (bench_model --busy-core), in alternating
# rounds so that a noisy machine hits every configuration alike. Prints the median over the
# rounds of each configuration's median, p99 and cores busy (user + system CPU / wall).
#   bench/contention.sh [BUILD_DIR] [ROUNDS] [ITERS]
# Extra configurations to compare (each a label=ENV pair), e.g. libgomp's default spin:
#   EXTRA='spin300k=GOMP_SPINCOUNT=300000' bench/contention.sh
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
ROUNDS=${2:-3}
ITERS=${3:-20}
M=${IC_SHARED_DIR:-../shared}/models/paddle
MODELS=${MODELS:-"mobilenet_v2:inputs:3,224,224 pphgnet_plate:x:3,224,224 ppocr_rec_svtr:x:3,48,320 crnn_rec:x:3,32,320"}
BATCHES=${BATCHES:-"1 8"}
ENVS=("icore=" ${EXTRA:-})
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for spec in $MODELS; do
  IFS=: read -r name feed dims <<<"$spec"
  for b in $BATCHES; do
    for r in $(seq "$ROUNDS"); do
      for ev in "${ENVS[@]}"; do
        label=${ev%%=*}
        envset=${ev#*=}
        for busy in quiet busy; do
          for t in 1 2; do
            flag=""
            [ "$busy" = busy ] && flag=--busy-core
            env $envset "$B/bench/bench_model" "$M/$name/inference.pdmodel" "$feed" "$b,$dims" \
              --threads "$t" --iters "$ITERS" --warmup 3 $flag \
              >>"$tmp/$name.$b.$label.$busy.$t"
          done
        done
      done
    done
    echo "== $name batch $b ($ROUNDS rounds of $ITERS runs; median of the rounds' figures)"
    printf '%-10s %-6s %7s %10s %10s %10s %10s\n' config load threads median_ms p99_ms cores_busy vs_1t
    for ev in "${ENVS[@]}"; do
      label=${ev%%=*}
      for busy in quiet busy; do
        one=""
        for t in 1 2; do
          f="$tmp/$name.$b.$label.$busy.$t"
          med() { grep -o "$1=[0-9.]*" "$f" | cut -d= -f2 | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
          m=$(med median_ms); p=$(med p99_ms); c=$(med cores_busy)
          [ "$t" = 1 ] && one=$m
          printf '%-10s %-6s %7s %10s %10s %10s %9.2fx\n' "$label" "$busy" "$t" "$m" "$p" "$c" \
            "$(echo "$m / $one" | bc -l)"
        done
      done
    done
    echo
  done
done
