#!/usr/bin/env bash
# Installs the Debian packages cuda-tidy builds and tests with. Idempotent: a
# package already present is not fetched again, and apt-get update runs only
# when something is missing.
set -euo pipefail

packages=(
  clang-22 clang-tidy-22 clangd-22 libclang-22-dev llvm-22-dev llvm-22-tools
  libyaml-cpp-dev googletest ninja-build cmake python3 git pre-commit
  lld zlib1g-dev libz3-dev vim vim-ale chromium python3-jsonschema
  python3-venv strace libclang-rt-22-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
