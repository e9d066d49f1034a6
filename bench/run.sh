#!/usr/bin/env bash
# Runs every bench in turn. Each prints storyreel against its peers, measured side by side.
set -euo pipefail
cd "$(dirname "$0")"
echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d)"
for bench in inspect thumbnail render cube quality; do
    bash "./$bench.sh"
done
