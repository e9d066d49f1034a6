#!/usr/bin/env bash
# Runs every bench in turn. Each prints storyreel against its peers, measured side by side, and
# records its targets; the summary table at the end lists every target of this one run.
set -euo pipefail
cd "$(dirname "$0")"
source ./lib.sh
echo "binary: $BIN"
echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d), load average $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$TARGETS"
for bench in inspect thumbnail ingest render cube quality; do
    bash "./$bench.sh"
done
echo
echo "summary (one run, load average now $(cut -d' ' -f1-3 /proc/loadavg)):"
python3 - "$TARGETS" <<'PY'
import sys
rows = [("bench", "result", "target", "")] + [tuple(line.rstrip("\n").split("\t")) for line in open(sys.argv[1])]
widths = [max(len(row[i]) for row in rows) for i in range(3)]
for n, row in enumerate(rows):
    print("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])
    if n == 0:
        print("  " + "  ".join("-" * width for width in widths) + "  -")
missed = sum(row[3] == "✗" for row in rows[1:])
print(f"  {len(rows) - 1 - missed} of {len(rows) - 1} targets met")
PY
