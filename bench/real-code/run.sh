#!/bin/sh
# Precision of cuda-tidy on pinned public corpora (docs/accuracy.md).
# Usage: bench/real-code/run.sh [--potential] [--corpus NAME] [--files N]
#        [--markdown] [--mirrors DIR] [--corpora DIR] [--cuda-tidy PATH]
here=$(dirname "$0")
exec python3 "$here/realcode.py" "$@"
