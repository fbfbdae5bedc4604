#!/usr/bin/env bash
# Records what Chaos decides, in one text file to compare before and after a change
# that must keep every verdict (issue 44): `chaos run --all` on both variants, a hunt of
# 300 schedules with seed 7 on legacy, and the bench's two sweeps, each reduced to its
# decisions (no times). Usage: scripts/verdict-record.sh CHAOS OUT
set -euo pipefail
chaos="$1"; out="$2"
work="$(mktemp -d "${TMPDIR:-/tmp}/chaos-verdicts.XXXXXX")"
trap 'rm -rf "$work"' EXIT
: > "$out"
for variant in hardened legacy; do
  "$chaos" run --all -j 2 --variant "$variant" --report-dir "$work/run-$variant" --allow-inconclusive >/dev/null 2>&1 || true
  python3 - "$work/run-$variant/chaos-report.json" >> "$out" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for case in sorted(report["cases"], key=lambda c: (c["scenario"], c["variant"])):
    failed = sorted({e["kind"] for e in case["expectations"] if not e["passed"]})
    counts = [f'{e["kind"]}:{e["records"]}' for e in case["expectations"] if e.get("records")]
    print("run", case["scenario"], case["variant"], case["verdict"], ",".join(failed) or "-", " ".join(counts))
PY
done
"$chaos" hunt --schedules 300 --seed 7 --variant legacy -j 2 --report-dir "$work/hunt" >"$work/hunt.out" 2>&1 || true
for file in "$work"/hunt/found/*.yaml; do
  [ -e "$file" ] || continue
  echo "hunt $(basename "$file") $(grep -m1 '^summary:' "$file")" >> "$out"
done
for sweep in "power-loss-during-save crash" "disk-full-on-save io"; do
  set -- $sweep
  for variant in hardened legacy; do
    "$chaos" explore "$1" --sweep "$2" --variant "$variant" --limit 400 --report-dir "$work/explore" >"$work/explore.out" 2>&1 || true
    # Timings, the slowest trials, where reports went and how many images digested alike
    # are not decisions.
    sed -E 's/[0-9]+(\.[0-9]+)? ?(ms|s|\/s)\b/T/g; s/in [0-9.]+ ?s/in T/g; s/ \([0-9.]+ trials\/s\)//; s/ \([0-9]+ launches of the app on images\)//' "$work/explore.out" \
      | grep -v -E 'trials per second|elapsed|slowest trials|report: |reports of the run before' | sed "s|^|explore $1 $2 $variant: |" >> "$out"
  done
done
