#!/bin/sh
# Precision of cuda-tidy on pinned public corpora (docs/accuracy.md).
# Usage: bench/real-code/run.sh [--potential] [--corpus NAME] [--files N]
#        [--markdown] [--mirrors DIR] [--corpora DIR] [--cuda-tidy PATH]
#        [--checks=GLOBS] [--extra-tidy-arg=ARG] [--results FILE]
#        [--from-results FILE]
here=$(dirname "$0")
exec python3 "$here/realcode.py" "$@"
