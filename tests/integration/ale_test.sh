#!/usr/bin/env bash
# Runs headless Vim with ALE (Debian's vim-ale) on a .cu file with a known
# finding, configured with docs/integrations.md's ALE recipe (read from it), and
# checks that ALE's location list holds the cuda-* finding: once with no
# compile database (cuda-tidy's zero-config defaults) and once with a
# CMake-style build/compile_commands.json of nvcc commands, which ALE finds
# and passes as -p build. The recipe's g:ale_linter_aliases line is needed:
# without it ALE runs no linter on a `cuda` buffer, which is checked too.
# Exit 77 (ctest: skipped) when vim, its +job/+timers features or ALE are
# missing.
set -euo pipefail
cuda_tidy_bin=$1
inputs=$2
docs=$3   # docs/integrations.md: its ```vim block is the recipe tested
command -v vim >/dev/null || { echo "SKIPPED: vim not installed"; exit 77; }
features=$(vim --version)
for f in +job +timers +lambda; do
  grep -q -- "$f" <<<"$features" || { echo "SKIPPED: vim lacks $f"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The recipe names the executable 'cuda-tidy': it must be on PATH.
export PATH="$(cd "$(dirname "$cuda_tidy_bin")" && pwd):$PATH"
export XDG_CACHE_HOME=$work/cache HOME=$work

# The recipe is docs/integrations.md's ```vim block, verbatim (a list item's
# block: its indentation removed), after what any vimrc has.
recipe=$(awk '/^ *```vim$/ {on = 1; next} on && /^ *```$/ {exit} on {sub(/^  /, ""); print}' "$docs")
[ -n "$recipe" ] || { echo "FAIL: no \`\`\`vim block in $docs"; exit 1; }
{ printf 'set nocompatible\nfiletype plugin indent on\n'; printf '%s\n' "$recipe"; } > "$work/vimrc"
grep -q "ale_linter_aliases" "$work/vimrc" || { echo "FAIL: the recipe has no g:ale_linter_aliases"; exit 1; }
grep -v "ale_linter_aliases" "$work/vimrc" > "$work/vimrc-no-alias"

# Lints the buffer, waits for ALE (User ALELintPost, then the location list,
# which ALE may set from a timer), writes what it holds.
cat > "$work/lint.vim" <<'VIM'
let s:out = $ALE_OUT
if exists(':ALELint') != 2
  call writefile(['no-ale'], s:out)
  qall!
endif
let s:done = 0
autocmd User ALELintPost let s:done = 1
call writefile(['filetype=' . &filetype,
      \ 'linters=' . join(map(copy(ale#linter#Get(&filetype)), {_, l -> l.name}), ',')],
      \ s:out)
if empty(ale#linter#Get(&filetype))
  qall!
endif
ALELint
let s:waited = 0
while s:waited < 1200 && !s:done
  sleep 100m
  let s:waited += 1
endwhile
let s:after = 0
while s:after < 20 && empty(getloclist(0))
  sleep 100m
  let s:after += 1
endwhile
for s:item in getloclist(0)
  call writefile([printf('%d:%d:%s:%s', s:item.lnum, s:item.col, s:item.type,
        \ s:item.text)], s:out, 'a')
endfor
call writefile([s:done ? 'lint-done' : 'lint-timeout'], s:out, 'a')
qall!
VIM

run_vim() { # vimrc file output
  ALE_OUT=$3 timeout 300 vim -Nu "$1" -i NONE -es -S "$work/lint.vim" "$2" \
    </dev/null >/dev/null 2>&1 || true
  [ -f "$3" ] || { echo "vim wrote nothing to $3"; exit 1; }
  if grep -qx no-ale "$3"; then echo "FAIL: the recipe did not load ALE:"; cat "$1"; exit 1; fi
}
# Is ALE there at all? (Debian's vim-ale is an optional package.)
printf 'set nocompatible\npackadd! ale\n' > "$work/vimrc-probe"
printf 'x\n' > "$work/probe.txt"
ALE_OUT=$work/probe.out timeout 60 vim -Nu "$work/vimrc-probe" -i NONE -es \
  -c "call writefile([exists(':ALELint') == 2 ? 'ale' : 'no-ale'], \$ALE_OUT)" -c 'qall!' \
  "$work/probe.txt" </dev/null >/dev/null 2>&1 || true
grep -qx ale "$work/probe.out" 2>/dev/null || { echo "SKIPPED: ALE not found (packadd ale)"; exit 77; }
expect() { # output pattern what
  grep -q -- "$2" "$1" || { echo "FAIL: $3; ALE saw:"; cat "$1"; exit 1; }
}

# 1. No compile database: cuda-tidy's defaults.
mkdir -p "$work/plain"
cp "$inputs/finding.cu" "$work/plain/kernel.cu"
run_vim "$work/vimrc" "$work/plain/kernel.cu" "$work/plain.txt"
expect "$work/plain.txt" '^filetype=cuda$' "Vim did not detect the cuda filetype"
expect "$work/plain.txt" '^linters=clangtidy$' "ALE did not pick clangtidy for cuda"
expect "$work/plain.txt" '^lint-done$' "ALE did not finish linting"
expect "$work/plain.txt" "^3:42:W:cooperative-groups handle 'b' .* \[cuda-group-by-value\]$" \
  "the location list lacks the cuda-group-by-value finding"
# The how-to-fix line after each finding (a note) is the finding's detail,
# not an entry of its own.
if [ "$(grep -c '^[0-9]*:[0-9]*:' "$work/plain.txt")" -ne 1 ] || grep -q 'how to fix' "$work/plain.txt"; then
  echo "FAIL: the how-to-fix note is an entry of its own:"; cat "$work/plain.txt"; exit 1
fi

# 2. A CMake-style build folder with nvcc commands (nvcc-only flags that
#    clang rejects): ALE passes -p build, cuda-tidy translates them.
mkdir -p "$work/project/src" "$work/project/build"
cp "$inputs/finding.cu" "$work/project/src/kernel.cu"
cat > "$work/project/build/compile_commands.json" <<JSON
[{"directory": "$work/project/build",
  "file": "$work/project/src/kernel.cu",
  "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler --extended-lambda --expt-relaxed-constexpr -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -O3 -x cu -c $work/project/src/kernel.cu -o kernel.o"}]
JSON
run_vim "$work/vimrc" "$work/project/src/kernel.cu" "$work/project.txt"
expect "$work/project.txt" '^lint-done$' "ALE did not finish linting (compile database)"
expect "$work/project.txt" "^3:42:W:cooperative-groups handle 'b' .* \[cuda-group-by-value\]$" \
  "the location list lacks the finding with build/compile_commands.json"
if grep -q ':E:' "$work/project.txt"; then
  echo "FAIL: errors in the location list with the compile database:"; cat "$work/project.txt"; exit 1
fi

# 3. Without g:ale_linter_aliases, ALE runs nothing on a cuda buffer.
run_vim "$work/vimrc-no-alias" "$work/plain/kernel.cu" "$work/no-alias.txt"
expect "$work/no-alias.txt" '^linters=$' "without the alias ALE still found a linter"
if grep -q 'cuda-group-by-value' "$work/no-alias.txt"; then
  echo "FAIL: a finding without the alias line:"; cat "$work/no-alias.txt"; exit 1
fi
echo "ALE: the recipe's location list holds the cuda-group-by-value finding, with and without a compile database; without the alias no linter runs"
