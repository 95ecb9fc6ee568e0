#!/usr/bin/env bash
# Installs the Microsoft SARIF multitool from npm into build/sarif-validator,
# for the SARIF validation test. Idempotent; the test is skipped (with a
# message) when this was not run.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${BUILD_DIR:-build}/sarif-validator
bin="$dest/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
if [ -x "$bin" ]; then echo "sarif validator: present"; exit 0; fi
command -v npm >/dev/null || { echo "sarif validator: npm not found, skipping"; exit 0; }
mkdir -p "$dest"
npm install --prefix "$dest" --no-audit --no-fund --loglevel=error @microsoft/sarif-multitool@5.7.0
# npm no longer runs the package's postinstall (chmod) without approval.
chmod u+x "$bin"
echo "sarif validator: installed at $bin"
