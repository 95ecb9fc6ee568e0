#!/usr/bin/env bash
# The -j2 / -j1 target of issue 21 on quiet cores: the machines here have
# two cores shared with other work, so cold -j1 and -j2 runs are timed on
# the device machine (16 idle cores) with every run pinned to two of them
# (bench/project.py --cpus). That machine has no clang-22 or network: the
# stripped cuda-tidy, its two shared libraries, clang's resource headers and
# the projects' source files travel in an ignored folder.
#
#   bench/device-parallel.sh prepare [--build build]   here: fills .device-carry/bench
#   bench/device-parallel.sh run OUTDIR                there: unpacks, runs both
#                                                      projects side by side,
#                                                      cuda-samples on CPUs 0,1
#                                                      and ggml-cuda on CPUs 2,3
#
# The paths of the projects are those of this machine (/work/corpora/...),
# recreated there, so the compile database of cuda-samples (configured with
# CMake here: bench/real-code/cmake-samples.sh) applies as it is. Only the
# projects' own source files travel, never into the repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
carry=$repo/.device-carry/bench
corpora=/work/corpora

prepare() {
  local build=$repo/build
  [ "${1:-}" = --build ] && build=$2
  mkdir -p "$carry"
  strip -o "$carry/cuda-tidy" "$build/bin/cuda-tidy"
  xz -T2 -f "$carry/cuda-tidy"
  xz -T2 -c "$(readlink -f /lib/x86_64-linux-gnu/libz3.so.4)" > "$carry/libz3.so.4.xz"
  cp -L /lib/x86_64-linux-gnu/libyaml-cpp.so.0.7 "$carry/"
  # What the binary reads beside itself (the nvcc-compatibility header).
  tar -C "$build" -cJf "$carry/share.tar.xz" share/cuda-tidy
  local resource
  resource=$(clang++-22 -print-resource-dir)
  tar -C / -cJf "$carry/clang-resource.tar.xz" "${resource#/}/include"
  # ggml: the tree bench/real-code/realcode.py extracts; cuda-samples: the
  # source-like files of the CMake-configured tree and its database.
  local ggml
  ggml=$(cd "$corpora" && ls -d ggml-* | head -1)
  tar -C / -cJf "$carry/ggml.tar.xz" "${corpora#/}/$ggml"
  (cd / && find "${corpora#/}/cs-cmake/src" -type f \( -name '*.cu' -o \
      -name '*.cuh' -o -name '*.h' -o -name '*.hpp' -o -name '*.c' -o \
      -name '*.cpp' -o -name '*.cc' -o -name '*.inl' -o -name '*.inc' \) \
    > /tmp/device-parallel-files.txt
   tar -cJf "$carry/cs.tar.xz" -T /tmp/device-parallel-files.txt \
     "${corpora#/}/cs-cmake/build/compile_commands.json")
  du -sh "$carry"
}

run() {
  local out=$1
  mkdir -p "$out" /tmp/ct/bin /tmp/ct/lib
  xz -dc "$carry/cuda-tidy.xz" > /tmp/ct/bin/cuda-tidy
  chmod +x /tmp/ct/bin/cuda-tidy
  xz -dc "$carry/libz3.so.4.xz" > /tmp/ct/lib/libz3.so.4
  cp "$carry/libyaml-cpp.so.0.7" /tmp/ct/lib/
  tar -C /tmp/ct -xJf "$carry/share.tar.xz"
  tar -C / -xJf "$carry/clang-resource.tar.xz"
  tar -C / -xJf "$carry/ggml.tar.xz"
  tar -C / -xJf "$carry/cs.tar.xz"
  export LD_LIBRARY_PATH=/tmp/ct/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  /tmp/ct/bin/cuda-tidy --version
  nproc; uptime || true
  # The private copy bench/project.py runs is made once, before the two
  # runs start (each would otherwise copy it while the other runs it).
  (cd "$here/real-code" && python3 -c 'import realcode, sys
realcode.private_binary(sys.argv[1], sys.argv[2])' /tmp/ct/bin/cuda-tidy "$corpora")
  local pids=()
  PYTHONUNBUFFERED=1 python3 "$here/project.py" --project cuda-samples \
    --cuda-tidy /tmp/ct/bin/cuda-tidy --corpora "$corpora" --cpus 0,1 \
    --parallel-only --json "$out/cuda-samples.json" \
    > "$out/cuda-samples.log" 2>&1 & pids+=($!)
  PYTHONUNBUFFERED=1 python3 "$here/project.py" --project ggml-cuda \
    --cuda-tidy /tmp/ct/bin/cuda-tidy --corpora "$corpora" --cpus 2,3 \
    --parallel-only ${GGML_FILES:+--files $GGML_FILES} \
    --json "$out/ggml-cuda.json" > "$out/ggml-cuda.log" 2>&1 & pids+=($!)
  local rc=0
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  tail -n 12 "$out"/*.log
  return $rc
}

case ${1:-} in
  prepare) shift; prepare "$@" ;;
  run) shift; run "$@" ;;
  *) echo "usage: $0 prepare [--build DIR] | run OUTDIR" >&2; exit 2 ;;
esac
