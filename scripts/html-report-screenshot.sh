#!/usr/bin/env bash
# Writes the HTML report of the bundled examples and the two screenshots of
# it in docs/images/ (docs/output-formats.md): the index, and the page of the
# early-exit barrier finding. Needs a built cuda-tidy and Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${CUDA_TIDY:-build/bin/cuda-tidy}
report=$(mktemp -d)
trap 'rm -rf "$report"' EXIT
# Exit 0: the examples compile; their findings are not errors.
"$bin" --no-cache --format=html --output="$report/html" examples/*.cu --
shot() {
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size="$3" --screenshot="$2" "file://$report/html/$1" 2>/dev/null
}
shot index.html docs/images/html-report-index.png 1100,460
shot finding-1.html docs/images/html-report-finding.png 1100,600
echo "wrote docs/images/html-report-index.png and docs/images/html-report-finding.png"
