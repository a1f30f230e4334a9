#!/usr/bin/env bash
# The steady state of a search (issue 34): a poll after the first reads the
# result list the search learnt, on 100 loopback pages of 160 KB with a
# 1,280-link mega menu, each from its own path and with its own request token
# (every other one with a new price on the same links). Prints, per page and
# in CPU time, html.Parse of the pages, the steady-state pass (the pipeline
# after the fetch: fingerprint, parse, the learnt list's cards, classify, the
# page title) and the pass from scratch, the three timed in turns so that the
# shared machine's drift falls on all alike; then where the steady pass goes
# (a CPU profile, as shares of its own html.Parse), and whether a new price on
# an unchanged set of links is still announced through the real poll (a
# loopback site, a bbolt store).
#
# Run from the repository root: bash tools/steadystate.sh [ITERATIONS] (default
# 3; each is one pass of the three over the 100 pages). About a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go test -tags ci -c -o "$out/poll.test" ./poll/
cd poll
"$out/poll.test" -test.run '^$' -test.bench 'BenchmarkSteadyState$' -test.benchtime "${n}x" > "$out/bench.txt"
awk '/^BenchmarkSteadyState/ {
  for (i = 3; i < NF; i++) v[$(i + 1)] = $i
  printf "Steady state: %d pages of %.0f KB with a 1,280-link menu, CPU time per page (%d passes)\n", 100, v["KB/page"], $2
  printf "  html.Parse                   %6.2f ms\n", v["parse-ms/page"]
  printf "  steady pass (learnt list)    %6.2f ms  %.2fx html.Parse (ceiling 1.5x)\n", v["steady-ms/page"], v["steady/parse"]
  printf "  pass from scratch            %6.2f ms  %.2fx html.Parse\n", v["scratch-ms/page"], v["scratch/parse"]
}' "$out/bench.txt"
"$out/poll.test" -test.run '^$' -test.bench 'BenchmarkSteadyPass$' -test.benchtime "$((n * 3))x" -test.cpuprofile "$out/cpu.out" > /dev/null
go tool pprof -top -cum -focus 'poll.steadyPass' "$out/poll.test" "$out/cpu.out" 2>/dev/null | awk '
  function sec(s) { if (s ~ /ms$/) { sub(/ms$/, "", s); return s / 1000 } sub(/s$/, "", s); return s + 0 }
  $6 == "notifio/poll.analyze" { all = sec($4) }
  $6 == "notifio/poll/extract.parse" { p = sec($4) }
  $6 == "notifio/poll/extract.(*page).readLearnt" { l = sec($4) }
  $6 == "notifio/poll/extract.(*page).readCards" { c = sec($4) }
  $6 == "notifio/poll/extract.membersOf" { m = sec($4) }
  $6 == "notifio/poll/classify.Classify" { k = sec($4) }
  $6 == "notifio/poll/extract.Fingerprint" { f = sec($4) }
  END {
    printf "Where the steady pass goes (CPU profile, as shares of its html.Parse): all %.2f =\n", all / p
    printf "  parse 1.00 + learnt list %.2f (its cards %.2f, finding the list %.2f) + classify %.2f + fingerprint %.2f + the rest %.2f\n",
      l / p, c / p, m / p, k / p, f / p, (all - p - l - k - f) / p
  }'
if "$out/poll.test" -test.run '^TestPollReadsTheLearntList$' > "$out/e2e.txt" 2>&1; then
  echo "A new price on an unchanged set of links, read from the learnt list: announced as a price drop (TestPollReadsTheLearntList passed)"
else
  echo "A new price on an unchanged set of links: NOT announced (TestPollReadsTheLearntList failed):"; cat "$out/e2e.txt"; exit 1
fi
