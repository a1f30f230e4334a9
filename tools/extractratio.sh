#!/usr/bin/env bash
# Extraction against the html.Parse floor, page by page, for docs/PERFORMANCE.md
# (issue 34: extraction from scratch at most 3x html.Parse of the same page), measured so
# that the machine's drift cancels out.
#
# BenchmarkExtract (which parses the page itself) runs SECONDS per page under
# the CPU profiler; a page's ratio is the time in Extract over the time in its
# own html.Parse, both from the same iterations. Timing Extract and
# BenchmarkParseFloor in separate runs (go test -bench ... -count N) compares
# figures taken seconds or minutes apart, and on this shared machine html.Parse
# of one page ran 1.2 ms in one run and 2.1 ms in another: the same code gave a
# page 1.97x in one sitting and 2.92x in the next. Profiler samples come every
# 10 ms, so SECONDS=4 gives each ratio to about +-5%.
#
# Run from the repository root with ../shared/sites and ../shared/sites2 beside
# it (or NOTIFIO_SITES set; sites2 is read beside it): bash
# tools/extractratio.sh [SECONDS [PAGES]] (default 4 seconds; PAGES, an
# extended regular expression, picks pages by name, default every page of
# both folders).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-4}
pages=${2:-.}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go test -c -o "$out/extract.test" ./poll/extract/
sites=${NOTIFIO_SITES:-$PWD/../shared/sites}
printf "%-30s %10s %7s\n" page "extract ms" ratio
for key in "$sites"/answers/*.json "$(dirname "$sites")"/sites2/answers/*.json; do
  [ -e "$key" ] || continue
  p=$(basename "$key" .json)
  [[ $p =~ $pages ]] || continue
  ms=$(cd poll/extract && NOTIFIO_SITES=$sites "$out/extract.test" -test.run '^$' \
    -test.bench "BenchmarkExtract/$p\$" -test.benchtime "${secs}s" -test.cpuprofile "$out/cpu.out" |
    awk '/ns\/op/ { printf "%.2f", $3 / 1e6 }')
  go tool pprof -top -cum "$out/extract.test" "$out/cpu.out" 2>/dev/null | awk -v p="$p" -v ms="$ms" '
    function sec(s) { if (s ~ /ms$/) { sub(/ms$/, "", s); return s / 1000 } sub(/s$/, "", s); return s + 0 }
    $6 == "notifio/poll/extract.ExtractWith" { e = sec($4) }
    $6 == "notifio/poll/extract.parse" { q = sec($4) }
    END { printf "%-30s %10s %6.2fx\n", p, ms, e / q }'
done
