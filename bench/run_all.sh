#!/usr/bin/env bash
# Runs every benchmark of icore and prints the tables of docs/BENCHMARKS.md (headline figures in the README).
#   bench/run_all.sh [BUILD_DIR]      (./run.sh bench builds first, then calls this)
# Figures are ratios measured side by side in one process (or alternating processes), so a
# noisy machine hits every configuration alike. Nothing here is a pass/fail test.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
ICORE=$B/tools/icore
MODELS=../shared/models/paddle

echo "== 1. scheduling overhead per instruction"
"$B/bench/bench_overhead" 10000 30
echo
echo "== 2. parallel speed-up"
"$B/bench/bench_parallel" 256 8 20
echo
echo "== 3. memory: GC on versus off"
"$B/bench/bench_memory" 32 16
echo
echo "== 3b. one executor on N threads versus N executors sharing one scope"
"$B/bench/bench_concurrent" "$B/example/mlp.pdmodel" 4 20000
if [ -d "$MODELS" ]; then
  "$B/bench/bench_concurrent" "$MODELS/mobilenet_v2/inference.pdmodel" 2 50 --random-params || true
fi
echo
echo "== 4. programs: compiled versus uncompiled (icore bench)"
"$ICORE" bench "$B/example/mlp.pdmodel" --feed x="$B/example/x.npy" --iters 200 --warmup 20 --threads 1
if [ -d "$MODELS" ]; then
  for t in 1 2; do
    "$ICORE" bench "$MODELS/mobilenet_v2/inference.pdmodel" --random-params 1 \
      --random-feed inputs=1,3,224,224 --iters 20 --warmup 3 --threads $t || true
  done
fi
ZOO=../shared/models/paddle-zoo
if [ -d "$ZOO" ]; then
  echo
  echo "== 4b. exported detectors at 640 x 640: PP-OCRv4 DB and PP-YOLOE+ (bench_model, synthetic parameters)"
  for t in 1 2; do
    "$B/bench/bench_model" "$ZOO/ppocrv4_det/inference.pdmodel" x 1,3,640,640 --threads $t \
      --iters 10 --warmup 2 || true
    "$B/bench/bench_model" "$ZOO/ppyoloe_plus/model.pdmodel" image 1,3,640,640 \
      --const-feed scale_factor=1,2=1 --threads $t --iters 10 --warmup 2 || true
  done
fi
echo
echo "== 5c''. row kernels: softmax and layer_norm rows (vmath), against scalar loops"
"$B/bench/bench_rows" 15
if python3 -c 'import torch, torchvision' 2>/dev/null || /usr/bin/python3 -c 'import torch, torchvision' 2>/dev/null; then
  echo
  echo "== 5. MobileNetV2 against PyTorch (bench/mobilenet_vs_torch.sh)"
  bench/mobilenet_vs_torch.sh "$B" || true
fi
