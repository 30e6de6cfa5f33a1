#!/usr/bin/env bash
# Build icore's GPU suites here, run them on the GPU machine.
#
# The GPU machine has a driver, nvcc, CMake and the CUDA toolkit (cuBLAS) but none of the
# Debian packages icore links (protobuf-c, xxHash, Check, OpenBLAS, oneDNN) and no network.
# So the binaries are built here, with those libraries linked statically where Debian ships
# archives (cmake -DIC_STATIC_DEPS=ON), and travel with the shared libraries that have no
# archive (oneDNN and what it needs) as one compressed bundle:
#
#   tools/gpu_run.sh build     here: configure build-gpu (CUDA on, static deps, Release),
#                              build the GPU suites (test_cuda_*) and GPU benchmarks
#                              (bench_gpu_*), check with ldd that they need nothing else,
#                              pack build-gpu-carry/gpu-bundle.tar.xz and print the `run`
#                              call (carry: ["build-gpu-carry"]);
#   tools/gpu_run.sh device    there, in the repository root, with the bundle carried:
#                              unpack it, run the GPU suites (ctest -L gpu), the GPU
#                              benchmarks, then each suite under compute-sanitizer memcheck
#                              and racecheck (large cases skipped: ICORE_GPU_QUICK=1); logs
#                              go to $OUT, a summary table comes last. Exit status 0 only
#                              when every step passed.
#
# Device mode's environment: ICORE_GPU_STEPS picks the steps and their order ("tests bench
# memcheck racecheck", the default); ICORE_GPU_SUITES names the suites the sanitizer steps run
# (default: all); ICORE_GPU_TIMEOUT gives each sanitizer run that many seconds (a run cut
# short reports exit 124), so that one slow suite cannot spend a short lease.
#
# Benchmarks hook: every CMake executable target named bench_gpu_<what> is built, carried
# (bundle/bench/) and run with no arguments on the device, its output appended to
# $OUT/bench.txt. Add one in bench/CMakeLists.txt and it is picked up.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

BUILD=build-gpu
CARRY=build-gpu-carry              # the one folder to carry (ignored, like every build*)
BUNDLE="$CARRY/gpu-bundle.tar.xz"
JOBS=${JOBS:-2}

# Shared libraries the binaries may load that the GPU machine cannot be assumed to have.
# Core glibc libraries and the CUDA toolkit's (cuBLAS) are expected there.
CARRIED_LIBS="libdnnl.so.2 libgomp.so.1 libOpenCL.so.1 libstdc++.so.6"
SYSTEM_LIBS="linux-vdso.so.1 libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 \
ld-linux-x86-64.so.2 libgcc_s.so.1"
TOOLKIT_LIBS="libcublas.so.13 libcublasLt.so.13 libcudnn.so.9"

die() { echo "gpu_run.sh: $*" >&2; exit 1; }

# ---------------------------------------------------------------- build (this machine)
build() {
  command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || die "nvcc not found"
  mkdir -p "$BUILD"
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DIC_WITH_CUDA=ON -DIC_STATIC_DEPS=ON \
    >"$BUILD/configure.log" 2>&1 || { cat "$BUILD/configure.log"; die "configure failed"; }
  local targets
  targets=$(cmake --build "$BUILD" --target help | sed -n 's/^\.\.\. \(\(test_cuda\|bench_gpu\)_[A-Za-z0-9_]*\).*/\1/p' | sort -u)
  [ -n "$targets" ] || die "no test_cuda_* targets: is CUDA enabled?"
  echo "gpu_run.sh: building" "$(echo "$targets" | tr '\n' ' ')"
  # shellcheck disable=SC2086
  cmake --build "$BUILD" -j"$JOBS" --target $targets

  local stage="$BUILD/bundle"
  rm -rf "${stage:?}" "${CARRY:?}"
  mkdir -p "$stage/bin" "$stage/lib" "$stage/bench"
  local t tests=()
  for t in $targets; do
    local exe
    exe=$(find "$BUILD" -type f -name "$t" -perm -u+x | head -n1)
    [ -n "$exe" ] || die "built target $t not found"
    case "$t" in
      bench_gpu_*) cp "$exe" "$stage/bench/" ;;
      *) cp "$exe" "$stage/bin/"; tests+=("$t") ;;
    esac
  done
  strip --strip-unneeded "$stage"/bin/* "$stage"/bench/* 2>/dev/null || true
  # The real programs the GPU suites and benchmarks run (read from ../shared, never committed).
  local m
  for m in ../shared/models/paddle/*/inference.pdmodel; do
    [ -e "$m" ] || continue
    mkdir -p "$stage/shared/models/paddle/$(basename "$(dirname "$m")")"
    cp "$m" "$stage/shared/models/paddle/$(basename "$(dirname "$m")")/"
  done

  # The carried libraries: resolved here through ldd of the first binary.
  local first="$stage/bin/${tests[0]}" lib path
  for lib in $CARRIED_LIBS; do
    path=$(ldd "$first" | awk -v l="$lib" '$1 == l { print $3 }')
    [ -n "$path" ] || path=$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')
    [ -n "$path" ] || die "cannot find $lib to carry"
    cp -L "$path" "$stage/lib/$lib"
  done

  # Everything the binaries load must be carried, a core system library or the toolkit's.
  local bad=0 exe dep
  for exe in "$stage"/bin/* "$stage"/bench/*; do
    [ -e "$exe" ] || continue
    while read -r dep; do
      case " $CARRIED_LIBS $SYSTEM_LIBS $TOOLKIT_LIBS " in
        *" $dep "*) ;;
        *) echo "gpu_run.sh: $(basename "$exe") needs $dep, which is not carried"; bad=1 ;;
      esac
    done < <(LD_LIBRARY_PATH="$stage/lib" ldd "$exe" | awk '{ n = $1; sub(".*/", "", n); print n }')
  done
  [ "$bad" = 0 ] || die "uncarried shared libraries (see above)"
  echo "gpu_run.sh: ldd of $(basename "$first") with the bundle's lib/ first:"
  LD_LIBRARY_PATH="$stage/lib" ldd "$first" | sed 's/^/    /'

  # ctest there: the suites' properties, paths relative to the bundle.
  {
    for t in "${tests[@]}"; do
      echo "add_test($t \"bin/$t\")"
      echo "set_tests_properties($t PROPERTIES LABELS \"gpu\" SKIP_RETURN_CODE \"77\"" \
           "TIMEOUT \"1500\" ENVIRONMENT \"CK_DEFAULT_TIMEOUT=600\")"
    done
  } >"$stage/CTestTestfile.cmake"
  git rev-parse HEAD >"$stage/COMMIT" 2>/dev/null || echo unknown >"$stage/COMMIT"

  mkdir -p "$CARRY"
  # The ~15 binaries are ~33 MiB each and mostly the same static library: one xz stream
  # with a 64 MiB window sees each repeat (16 MiB in ~20 s; -6 -T0 split it into blocks
  # that compress alone, 52 MiB).
  tar -C "$BUILD" -cf - bundle | xz -T1 --lzma2=preset=1,dict=64MiB >"$BUNDLE"
  local size
  size=$(stat -c %s "$BUNDLE")
  echo
  echo "gpu_run.sh: $BUNDLE is $((size / 1048576)) MiB (the carry limit is 64 MiB," \
       "the working tree included)"
  [ "$size" -lt $((60 * 1048576)) ] || echo "gpu_run.sh: WARNING: the bundle is too large to carry"
  echo "Run it on the GPU machine with the device tool:"
  echo "  carry:   [\"$CARRY\"]"
  echo "  command: tools/gpu_run.sh device"
}

# ---------------------------------------------------------------- device (GPU machine)
find_toolkit_lib_dir() {
  local d
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-*/lib64 \
           /usr/local/cuda-*/targets/x86_64-linux/lib /usr/lib/x86_64-linux-gnu; do
    [ -e "$d/libcublas.so.13" ] && { echo "$d"; return; }
  done
  # PyTorch's wheels carry cuBLAS too
  python3 - 2>/dev/null <<'EOF' || true
import glob, site, sys
for p in site.getsitepackages() + [site.getusersitepackages()]:
    for f in glob.glob(p + "/nvidia/cu*/lib/libcublas.so.13") + glob.glob(p + "/nvidia/cublas/lib/libcublas.so.13"):
        print(f.rsplit("/", 1)[0]); sys.exit(0)
EOF
}

device() {
  local tarball=${1:-$BUNDLE} out=${OUT:-/tmp/icore-gpu-out}
  [ -f "$tarball" ] || die "no $tarball: carry it (see 'tools/gpu_run.sh build')"
  mkdir -p "$out"
  local root
  root=$(mktemp -d /tmp/icore-gpu.XXXXXX)
  if command -v xz >/dev/null; then
    tar -C "$root" -xJf "$tarball"
  else
    python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$tarball" "$root"
  fi
  local b="$root/bundle"
  local tk
  tk=$(find_toolkit_lib_dir)
  [ -n "$tk" ] || echo "gpu_run.sh: WARNING: libcublas.so.13 not found in the usual places"
  export LD_LIBRARY_PATH="$b/lib${tk:+:$tk}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export ICORE_REQUIRE_GPU=1
  export ICORE_SHARED_DIR="$b/shared" ICORE_MODELS="$b/shared/models"
  local sanitizer
  sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
  local steps=${ICORE_GPU_STEPS:-tests bench memcheck racecheck}

  echo "== bundle $(cat "$b/COMMIT"); toolkit libraries from ${tk:-?}"
  nvidia-smi -L || true
  local missing
  missing=$(for e in "$b"/bin/* "$b"/bench/*; do
              if [ -e "$e" ]; then ldd "$e" | grep "not found" || true; fi
            done | sort -u)
  [ -z "$missing" ] || { echo "$missing"; die "shared libraries missing on this machine"; }

  local summary=() failed=0 t rc
  # One log per step kind ($OUT brings back at most 8 files): each run appends to it.
  run_step() { # name logfile command...
    local name=$1 log=$2; shift 2
    local start=$SECONDS
    echo "==== $name" >>"$log"
    set +e
    "$@" >>"$log" 2>&1
    rc=$?
    set -e
    local verdict=PASS
    [ "$rc" = 0 ] || { verdict="FAIL (exit $rc)"; failed=1; }
    summary+=("$(printf '%-40s %-16s %5ds' "$name" "$verdict" $((SECONDS - start)))")
    [ "$rc" = 0 ] || tail -n 40 "$log"
  }

  step_tests() {
    if command -v ctest >/dev/null; then
      # shellcheck disable=SC2016  # $1 is bash -c's argument
      run_step "ctest -L gpu" "$out/tests.log" \
        bash -c 'cd "$1" && ctest -L gpu --output-on-failure' _ "$b"
    else
      for t in "$b"/bin/test_cuda_*; do
        run_step "$(basename "$t")" "$out/tests.log" "$t"
      done
    fi
  }
  step_sanitizer() { # memcheck | racecheck
    local tool=$1 t
    if [ -z "$sanitizer" ]; then
      summary+=("$(printf '%-40s %s' "compute-sanitizer $tool" "NOT RUN (no compute-sanitizer)")")
      failed=1
      return
    fi
    for t in "$b"/bin/test_cuda_*; do
      if [ -n "${ICORE_GPU_SUITES:-}" ] && [[ " $ICORE_GPU_SUITES " != *" $(basename "$t") "* ]]; then
        continue
      fi
      local limit=()
      [ "${ICORE_GPU_TIMEOUT:-0}" -gt 0 ] && limit=(timeout "$ICORE_GPU_TIMEOUT")
      run_step "$tool $(basename "$t")" "$out/$tool.log" \
        env CK_FORK=no ICORE_GPU_QUICK=1 "${limit[@]}" "$sanitizer" --tool "$tool" \
        --error-exitcode 99 --target-processes all "$t"
    done
  }
  step_bench() {
    local n=0 t
    for t in "$b"/bench/bench_gpu_*; do
      [ -e "$t" ] || continue
      n=$((n + 1))
      run_step "$(basename "$t")" "$out/bench.txt" "$t"
    done
    [ "$n" -gt 0 ] || summary+=("$(printf '%-40s %s' "benchmarks" "none in the bundle (bench_gpu_*)")")
    # The PyTorch peer on the same GPU, where the machine's Python has torch with CUDA.
    if python3 -c 'import torch, torchvision, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
      local bt g
      for bt in 1 64; do
        for g in "" "--cuda-graph"; do
          run_step "torch mobilenet_v2 batch $bt ${g:-eager}" "$out/bench.txt" \
            python3 "$ROOT/bench/mobilenet_torch.py" --device cuda --batch "$bt" --iters 50 $g
        done
      done
    else
      summary+=("$(printf '%-40s %s' "torch peer" "NOT RUN: no python3 with torch and CUDA here")")
    fi
  }
  local step
  for step in $steps; do
    case "$step" in
      tests) step_tests ;;
      memcheck|racecheck) step_sanitizer "$step" ;;
      bench) step_bench ;;
      *) summary+=("$(printf '%-40s %s' "$step" "UNKNOWN STEP")"); failed=1 ;;
    esac
  done

  echo
  echo "== summary (logs in $out)"
  printf '%s\n' "${summary[@]}"
  return $failed
}

case "${1:-}" in
  build) build ;;
  device) shift; device "$@" ;;
  *) echo "usage: $0 build | device [bundle.tar.xz]" >&2; exit 2 ;;
esac
