#!/usr/bin/env bash
# Our own C++ stays clean under our .clang-tidy: runs what the `lint` target
# runs and fails on any finding (the target itself only prints them).
#   check_lint.sh <run-clang-tidy> <clang-tidy> <build dir> <source dir> [--changed]
# With --changed (the default suite's `lint`), only the translation units a
# change touches: the .cpp files under checks/ and tool/ changed since the
# commit named in tests/lint/clean-at (the last commit whose whole tree
# passed), committed or not, and for each changed header one translation
# unit that includes it, which reports the header's findings (.clang-tidy's
# HeaderFilterRegex): none more when a changed .cpp already includes it,
# else its own .cpp (Foo.h, Foo.cpp), else the first file that includes it.
# (Every includer, as before issue 35, linted a widely included header's
# findings 20 times over: 46 units, 546 s of the session 19 suite.) Without it (`lint-whole`, label slow; scripts/test.sh --all; the
# weekly workflow) every file. When the named commit is not in the clone
# (a shallow checkout), --changed lints everything.
set -u
run_clang_tidy=$1 clang_tidy=$2 build_dir=$3 source_dir=$4
changed=0
[ "${5:-}" = "--changed" ] && changed=1
cd "$source_dir" || exit 1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
pattern="^$source_dir/(checks|tool)/"
if [ "$changed" -eq 1 ]; then
  base=$(sed -n 's/^\([0-9a-f]\{40\}\).*/\1/p' tests/lint/clean-at 2>/dev/null | head -n 1)
  if [ -n "$base" ] && git cat-file -e "$base^{commit}" 2>/dev/null; then
    files=$( { git diff --name-only "$base" -- checks tool; git ls-files --others --exclude-standard -- checks tool; } | sort -u)
    headers=$(echo "$files" | grep -E '\.h$' || true)
    units=$(echo "$files" | grep -E '\.cpp$' || true)
    units=$(for u in $units; do [ -f "$u" ] && echo "$u"; done | sort -u)
    for h in $headers; do
      includers=$(git grep -l -F "#include \"$h\"" -- 'checks/*.cpp' 'tool/*.cpp' 'checks/**/*.cpp' 'tool/**/*.cpp' 2>/dev/null |
                  while read -r u; do [ -f "$u" ] && echo "$u"; done)
      [ -n "$includers" ] || continue
      if [ -n "$units" ] && echo "$includers" | grep -qxF -f <(echo "$units"); then
        continue
      fi
      own=${h%.h}.cpp
      if echo "$includers" | grep -qxF "$own"; then
        units="$units"$'\n'"$own"
      else
        units="$units"$'\n'"$(echo "$includers" | head -n 1)"
      fi
    done
    units=$(echo "$units" | sed '/^$/d' | sort -u)
    if [ -z "$units" ]; then
      echo "lint: no translation unit of checks/ or tool/ changed since ${base:0:12} (tests/lint/clean-at)"
      exit 0
    fi
    pattern="^$source_dir/($(echo "$units" | sed 's/[.+]/\\&/g' | paste -sd '|'))\$"
    echo "lint: $(echo "$units" | wc -l) translation units for the files changed since ${base:0:12} (tests/lint/clean-at)"
  else
    echo "lint: tests/lint/clean-at names no commit of this clone; linting every file"
  fi
fi
"$run_clang_tidy" -quiet -p "$build_dir" -clang-tidy-binary "$clang_tidy" \
  "$pattern" >"$log" 2>&1
status=$?
findings=$(grep -cE '^/.*: (warning|error): ' "$log")
files=$(grep -cE '^\[[0-9]+/[0-9]+\]' "$log")
echo "lint: $files files, $findings findings (run-clang-tidy exit $status)"
if [ "$findings" -ne 0 ] || [ "$status" -ne 0 ] || [ "$files" -eq 0 ]; then
  grep -E -A4 ': (warning|error): ' "$log" | head -200
  exit 1
fi
