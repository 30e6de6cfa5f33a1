#!/usr/bin/env bash
# MobileNetV2 (../shared/models/paddle/mobilenet_v2, synthetic weights) in icore's compiled
# executor against torchvision's mobilenet_v2 in PyTorch (TorchScript +
# optimize_for_inference), batch 1 and 8, 1 and 2 threads. Each configuration alternates
# icore and PyTorch processes for several rounds and reports the median of their medians,
# so both see the same machine.
#   bench/mobilenet_vs_torch.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
ROUNDS=${2:-3}
MODEL=../shared/models/paddle/mobilenet_v2/inference.pdmodel
# Debian's python3-torch lives in the system Python, which may not be the first python3.
PY=${PYTHON:-}
for p in python3 /usr/bin/python3; do
  [ -z "$PY" ] && "$p" -c 'import torch, torchvision' 2>/dev/null && PY=$p
done
[ -n "$PY" ] || { echo "mobilenet_vs_torch.sh: no Python with torch and torchvision" >&2; exit 1; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
printf "%-7s %-8s %14s %14s %10s\n" batch threads "icore (ms)" "PyTorch (ms)" "PyTorch/icore"
for batch in 1 8; do
  for threads in 1 2; do
    iters=$((batch == 1 ? 100 : 30))
    ic=(); pt=()
    for ((r = 0; r < ROUNDS; r++)); do
      ic+=("$("$B/bench/bench_model" "$MODEL" inputs "$batch,3,224,224" --threads "$threads" \
              --iters "$iters" --warmup 10 | field median_ms)")
      pt+=("$("$PY" bench/mobilenet_torch.py --batch "$batch" --threads "$threads" \
              --iters "$iters" --warmup 10 | field median_ms)")
    done
    a=$(printf "%s\n" "${ic[@]}" | median)
    b=$(printf "%s\n" "${pt[@]}" | median)
    printf "%-7s %-8s %14.2f %14.2f %9.2fx\n" "$batch" "$threads" "$a" "$b" "$(echo "$b / $a" | bc -l)"
  done
done
