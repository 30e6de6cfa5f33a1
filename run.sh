#!/usr/bin/env bash
# icore's one entry point on a fresh Debian machine: installs the missing Debian packages
# (apt-get, as root or through sudo), builds, then does one job.
#
#   ./run.sh example   build, then run the bundled MLP example with `icore run`
#   ./run.sh test      build, then run every test: the Release suite, the whole suite again
#                      under AddressSanitizer + UndefinedBehaviorSanitizer, and the
#                      scheduler tests under ThreadSanitizer
#   ./run.sh python    build, then build the Python package (python/) as a wheel, install it
#                      into a venv in build-py/ and run its pytest suite (python/tests);
#                      `test` ends with this
#   ./run.sh bench     build, then run the benchmarks in bench/ (figures in docs/BENCHMARKS.md)
#   ./run.sh bench-peers  build, then time icore against Paddle Inference and ONNX Runtime
#                      on the four real programs (bench/peers.py; not in CI). Makes a Python
#                      venv in build-peers/ with paddlepaddle 3.3.1, onnxruntime and
#                      paddle2onnx from PyPI, unless PEERS_PYTHON names a Python that has them,
#                      and one in build-peers/venv26 with Paddle 2.6.2 and paddle2onnx 1.2.11
#                      (for the programs paddle2onnx 2.x cannot convert), unless
#                      PEERS_P2O_FALLBACK names such a paddle2onnx.
#   ./run.sh bench-train  build, then time training steps of the MLP and the LeNet-style CNN of
#                      tests/data/train (batch 32, 1 and 2 threads) in icore (bench/bench_train)
#                      against paddle.static.Executor and PyTorch eager, interleaved in one
#                      run, with each one's memory of a step (bench/train_peers.py; not in CI).
#                      Paddle: the build-peers/ venv of bench-peers unless PEERS_PYTHON names a
#                      Python with paddlepaddle 3.3.1; PyTorch: Debian's python3-torch (installed
#                      if missing) unless TORCH_PYTHON names a Python with torch. Extra
#                      arguments go to train_peers.py (--models, --threads, --batch, --steps).
#   ./run.sh fuzz [S]  build the libFuzzer targets of tests/fuzz with clang into build-fuzz,
#                      then run each for S seconds (default 300); the test job runs each
#                      for 15 s. Corpora grow in build-fuzz/corpus, crashes land in
#                      build-fuzz/artifacts.
set -euo pipefail
cd "$(dirname "$0")"

PKGS=(build-essential cmake pkg-config protobuf-c-compiler libprotobuf-c-dev libxxhash-dev
      libjansson-dev check libsubunit-dev libopenblas-dev libdnnl-dev clang libclang-rt-14-dev
      python3-dev python3-venv)
JOBS=$(nproc 2>/dev/null || echo 2)

install_deps() { # [PACKAGE...]: these instead of PKGS
  local missing=() want=("${PKGS[@]}")
  [ $# -gt 0 ] && want=("$@")
  for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "run.sh: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

build() { # build DIR [cmake args...]
  local dir=$1; shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j"$JOBS"
}

FUZZ_TARGETS=(fuzz_program fuzz_params fuzz_npy fuzz_diff fuzz_pir_json)

fuzz_build() {
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIC_FUZZ=ON \
    -DIC_BUILD_TESTS=OFF -DIC_WITH_CUDA=OFF >/dev/null
  cmake --build build-fuzz -j"$JOBS" --target "${FUZZ_TARGETS[@]}"
}

# fuzz_run SECONDS: each target in turn, from its committed seeds (tests/fuzz/seeds) and, for
# the program target, the real programs of ../shared/models up to 256 KiB, copied here at run
# time (never into the repository). A crash stops the job with the input saved.
fuzz_run() {
  local secs=$1 t
  mkdir -p build-fuzz/artifacts build-fuzz/shared-seeds
  if [ -d ../shared/models ]; then
    find ../shared/models \( -name '*.pdmodel' -o -name '__model__' \) -size -256k |
      while read -r f; do cp "$f" "build-fuzz/shared-seeds/$(echo "${f#../shared/models/}" | tr / _)"; done
  fi
  for t in "${FUZZ_TARGETS[@]}"; do
    mkdir -p "build-fuzz/corpus/$t"
    local extra=()
    [ "$t" = fuzz_program ] && extra=(-max_len=262144 build-fuzz/shared-seeds)
    [ "$t" = fuzz_pir_json ] && extra=(-max_len=65536 tests/data/pir)
    echo "run.sh: fuzzing $t for ${secs}s"
    local rc=0
    ./build-fuzz/tests/fuzz/$t -max_total_time="$secs" -timeout=30 -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$t-" \
      "${extra[@]:0:1}" "build-fuzz/corpus/$t" "tests/fuzz/seeds/$t" "${extra[@]:1}" \
      >"build-fuzz/$t.log" 2>&1 || rc=$?
    grep -E '^stat::(number_of_executed_units|new_units_added)' "build-fuzz/$t.log" || true
    if [ "$rc" -ne 0 ]; then
      tail -n 40 "build-fuzz/$t.log" >&2
      echo "run.sh: $t failed (log build-fuzz/$t.log, input in build-fuzz/artifacts)" >&2
      exit 1
    fi
  done
}

# The Python package: a venv in build-py/venv with scikit-build-core, numpy and pytest; a wheel
# built from python/ (libicore compiled again, position-independent, without CUDA, in
# build-py/cmake, kept between runs) into build-py/wheel and installed into the venv, as a user
# would install it; then its tests against the Release build in build/.
python_tests() {
  local py=build-py/venv/bin/python
  if ! "$py" -c 'import numpy, pytest, scikit_build_core' 2>/dev/null; then
    python3 -m venv build-py/venv
    "$py" -m pip install -q scikit-build-core numpy pytest
  fi
  rm -rf build-py/wheel
  CMAKE_BUILD_PARALLEL_LEVEL="$JOBS" "$py" -m pip wheel -q --no-build-isolation --no-deps \
    ./python -w build-py/wheel
  "$py" -m pip install -q --force-reinstall --no-deps build-py/wheel/icore-*.whl
  ICORE_BUILD_DIR="$PWD/build" "$py" -m pytest -q python/tests
}

job=${1:-example}
install_deps
case "$job" in
  example)
    build build
    ./build/tools/icore run build/example/mlp.pdmodel --feed x=build/example/x.npy
    ;;
  test)
    build build
    (cd build && ctest --output-on-failure -j"$JOBS")
    # Sanitizers instrument host code only: the CUDA kernels are built and linked once, above.
    build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIC_SANITIZE=address,undefined -DIC_WITH_CUDA=OFF
    # ICORE_ALLOC=system: no caching allocator, so that ASan sees a use after free as one.
    (cd build-asan && ASAN_OPTIONS=detect_leaks=1 ICORE_ALLOC=system ctest --output-on-failure -j"$JOBS")
    build build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIC_SANITIZE=thread -DIC_WITH_CUDA=OFF
    # TSan is ~10x slower: fewer random programs (the Release and ASan runs do all 1,000).
    (cd build-tsan && TSAN_OPTIONS="suppressions=$PWD/../tests/tsan.supp halt_on_error=1" \
       ICORE_STRESS_PROGRAMS=200 ICORE_DEVICE_PROGRAMS=24 ctest --output-on-failure -L scheduler)
    # A short libFuzzer smoke run of each target (./run.sh fuzz for longer).
    fuzz_build
    fuzz_run 15
    python_tests
    ;;
  python)
    build build
    python_tests
    ;;
  fuzz)
    fuzz_build
    fuzz_run "${2:-300}"
    ;;
  bench)
    build build
    ./bench/run_all.sh build
    ;;
  bench-peers)
    build build
    py=${PEERS_PYTHON:-}
    if [ -z "$py" ]; then
      py=build-peers/venv/bin/python
      if ! "$py" -c 'import paddle, onnxruntime, paddle2onnx' 2>/dev/null; then
        python3 -m venv build-peers/venv
        "$py" -m pip install -q paddlepaddle==3.3.1 onnxruntime paddle2onnx openvino numpy
      fi
    fi
    # paddle2onnx 1.2 beside Paddle 2.6 converts the programs paddle2onnx 2.x cannot.
    if [ -z "${PEERS_P2O_FALLBACK:-}" ]; then
      export PEERS_P2O_FALLBACK=$PWD/build-peers/venv26/bin/paddle2onnx
      if ! build-peers/venv26/bin/python -c 'import paddle, paddle2onnx' 2>/dev/null; then
        python3 -m venv build-peers/venv26
        build-peers/venv26/bin/python -m pip install -q paddlepaddle==2.6.2 'numpy<2' \
          paddle2onnx==1.2.11
      fi
    fi
    "$py" bench/peers.py build build-peers/work "${@:2}"
    ;;
  bench-train)
    build build
    py=${PEERS_PYTHON:-}
    if [ -z "$py" ]; then
      py=build-peers/venv/bin/python
      if ! "$py" -c 'import paddle, numpy' 2>/dev/null; then
        python3 -m venv build-peers/venv
        "$py" -m pip install -q paddlepaddle==3.3.1 numpy
      fi
    fi
    tpy=${TORCH_PYTHON:-/usr/bin/python3}
    if [ -z "${TORCH_PYTHON:-}" ] && ! "$tpy" -c 'import torch, numpy' 2>/dev/null; then
      install_deps python3-torch python3-numpy
    fi
    "$py" bench/train_peers.py build build-peers/train --torch-python "$tpy" "${@:2}"
    ;;
  *)
    echo "usage: $0 example|test|python|bench|bench-peers|bench-train|fuzz [SECONDS]" >&2
    exit 2
    ;;
esac
