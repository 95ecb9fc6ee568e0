#!/usr/bin/env bash
# Builds the fuzzer's seed corpus in the folder given (default fuzz-corpus)
# from the lit tests, the runtime verifier's cases and the benchmark corpus.
# Their #include lines are dropped: the fuzzer puts its stand-in header in
# front of every input, and a toolkit or project header it cannot find would
# stop the parse at the first line.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-fuzz-corpus}"
mkdir -p "$out"
for f in "$root"/tests/lit/*/*.cu "$root"/runtime-verifier/cases/*.cu \
         "$root"/bench/corpus/*.cu; do
  name="${f#"$root"/}"
  sed '/^[[:space:]]*#[[:space:]]*include/d' "$f" > "$out/${name//\//_}"
done
echo "make-corpus: $(ls "$out" | wc -l) seeds in $out"
