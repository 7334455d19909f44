#!/usr/bin/env bash
# Wall time of the whole built-in suite against the reference client, median of several runs:
#   in process, one scenario at a time and with --jobs;
#   through the process adapter: the reference client as an adapter process
#   (Adapters/swift/reference.yaml, run against the release build of `reference-adapter`).
#
#   Benchmarks/suite-speed.sh [runs] [jobs]      defaults: 5 runs, --jobs = number of CPUs
#
# Builds in release mode first (not timed). Figures go to standard output, one line each.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-5}"
jobs="${2:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}"

echo "suite-speed: building the release binary (not timed)" >&2
swift build -c release --product conformance >&2
bin="$(swift build -c release --show-bin-path)/conformance"
scenarios="$("$bin" list Scenarios | wc -l | tr -d ' ')"

reports="$(mktemp -d)"
trap 'rm -rf "$reports"' EXIT

# The reference client behind the adapter protocol: Adapters/swift/reference.yaml, pointed at the
# release build of reference-adapter instead of the debug one.
adapter=""
if grep -q '"reference-adapter"' Package.swift && [ -f Adapters/swift/reference.yaml ]; then
  swift build -c release --product reference-adapter >&2
  adapter="$reports/reference-release.yaml"
  sed -e "s|^  directory: .*|  directory: $PWD|" \
      -e "s|^  command: .*|  command: [$(swift build -c release --show-bin-path)/reference-adapter]|" \
      Adapters/swift/reference.yaml > "$adapter"
fi

# median_wall LABEL COMMAND…: runs the command $runs times, prints the median wall time.
median_wall() {
  local label="$1"
  shift
  python3 - "$runs" "$label" "$scenarios" "$@" <<'PY'
import statistics, subprocess, sys, time
runs, label, scenarios, command = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
walls = []
for _ in range(runs):
    start = time.monotonic()
    finished = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    walls.append(time.monotonic() - start)
    if finished.returncode != 0:
        sys.exit(f"suite-speed: {label}: exit {finished.returncode}\n{finished.stderr}")
print(f"{label:<34} median {statistics.median(walls):6.2f} s  (min {min(walls):.2f}, max {max(walls):.2f}; "
      f"{runs} runs, {scenarios} scenario results)")
PY
}

median_wall "in-process, --jobs 1" "$bin" run Scenarios --jobs 1 --junit "$reports/junit.xml"
median_wall "in-process, --jobs $jobs" "$bin" run Scenarios --jobs "$jobs" --junit "$reports/junit.xml"
if [ -n "$adapter" ]; then
  median_wall "process adapter, --jobs 1" "$bin" run Scenarios --jobs 1 --client "$adapter" --junit "$reports/junit.xml"
  median_wall "process adapter, --jobs $jobs" "$bin" run Scenarios --jobs "$jobs" --client "$adapter" --junit "$reports/junit.xml"
else
  echo "process adapter                    skipped: the package has no reference-adapter product yet (issue #5)"
fi
