#!/usr/bin/env bash
# Performance figures for docs/PERFORMANCE.md (issue 7). Run from the repository
# root: `make bench` (or `bash tools/loadsite/bench.sh`). BENCH_QUICK=1 runs a
# 2-minute headless smoke variant instead of the 10-minute one; BENCH_ONLY="2 4"
# runs only those sections (1, 2, 4, 5, 6) and splices them with the earlier
# results of the others from build/bench/. Only loopback
# addresses are used (127.0.5.x-127.0.7.x, SMTP and pprof on 127.0.0.1).
#
# Installs what it needs when missing (Debian/Ubuntu: urlwatch, hyperfine,
# xvfb, xdotool, x11-utils, time). Writes raw results to build/bench/ and splices
# the measured tables into docs/PERFORMANCE.md between the bench markers.
set -euo pipefail
cd "$(dirname "$0")/../.."
export LANG=${LANG:-en_US.UTF-8}
QUICK=${BENCH_QUICK:-0}
OUT=build/bench
BIN=${BIN:-build/notifio}
DISP=${BENCH_DISPLAY:-:98}
mkdir -p "$OUT"
log() { echo "bench: $*" >&2; }

need=()
command -v urlwatch >/dev/null || need+=(urlwatch)
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xdotool >/dev/null || need+=(xdotool)
command -v xwininfo >/dev/null || need+=(x11-utils)
[ -x /usr/bin/time ] || need+=(time)
if [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  log "installing ${need[*]}"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

go build -o "$OUT/loadsite" ./tools/loadsite/cmd/loadsite
go build -o "$OUT/benchdrive" ./tools/loadsite/cmd/benchdrive
CGO_ENABLED=1 go build -ldflags "-X main.version=$(sed -n 's/^Version *= *"\(.*\)"/\1/p' FyneApp.toml)" -o "$BIN" .

want() { [ -z "${BENCH_ONLY:-}" ] || [[ " $BENCH_ONLY " == *" $1 "* ]]; }

machine() {
  echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores visible"
  echo "- Go: $(go version | cut -d' ' -f3), kernel $(uname -r)"
  echo "- load average at start of this section: $(cut -d' ' -f1-3 /proc/loadavg)"
}

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# farm NAME SITES IP EXTRA... : start a loadsite farm, wait for its address file.
farm() {
  local name=$1 n=$2 ip=$3; shift 3
  rm -f "$OUT/$name.addr"
  "$OUT/loadsite" -sites "$n" -base-ip "$ip" -addr-file "$OUT/$name.addr" -for 30m "$@" 2>"$OUT/$name.log" &
  PIDS+=($!)
  FARM_PID=$!
  for _ in $(seq 100); do [ -s "$OUT/$name.addr" ] && return 0; sleep 0.1; done
  log "loadsite $name did not start"; return 1
}

# 1. Extraction and the per-page pipeline against the html.Parse floor.
if want 1; then
log "1/6 extraction and pipeline benchmarks"
{
  (cd poll/extract && go test -run '^$' -bench 'BenchmarkExtract$|BenchmarkParseFloor' -benchmem -benchtime 20x -count 3 .) | grep -E '^Benchmark'
  go test -run '^$' -bench 'BenchmarkPipeline|BenchmarkPoll' -benchmem -benchtime 20x -count 3 ./poll/ | grep -E '^Benchmark'
} > "$OUT/1-raw.txt"
{
  echo "## 1. Extraction and pipeline vs the html.Parse floor"; machine; echo
  echo "Time: the fastest of 3 runs of 20 iterations; bytes and allocations: per page, as a ratio to html.Parse alone."
  echo "The ceiling (issue 34): extraction from scratch, parse included, at most 3× html.Parse of the same page (BenchmarkExtract/<page> against BenchmarkParseFloor/<page>, the real pages of ../shared/sites and sites2; tools/extractratio.sh takes the ratio from one CPU profile)."; echo
  awk -f tools/loadsite/ratio.awk "$OUT/1-raw.txt"
  echo; echo "Parts of the pipeline and the whole poll over loopback HTTP (fastest of 3):"; echo; echo '```'
  grep -E '^Benchmark(PipelineParts|Poll)/' "$OUT/1-raw.txt" | sort -k1,1 -k3,3n | awk '!seen[$1]++'
  echo '```'
} > "$OUT/1-extract.md"
fi

# 2 + 3. Headless scale and latency.
if want 2; then
log "2/6 headless run (quick=$QUICK)"
if [ "$QUICK" = 1 ]; then H=(-sites 20 -per-site 5 -interval 30s -dur 120s -target-new 40)
else H=(-sites 100 -per-site 10 -interval 60s -dur 10m -target-new 130); fi
{
  echo "## 2-3. Headless scale and latency: benchdrive headless ${H[*]}"; machine; echo
  "$OUT/benchdrive" headless -bin "$BIN" "${H[@]}" -base-ip 127.0.5.1 -profile "$OUT/headless.pprof" -out "$OUT/headless.json"
  echo; echo "- load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUT/2-headless.md"

fi

# 4. Side by side with urlwatch: one pass over the same 100 pages.
if want 4; then
log "4/6 urlwatch side by side"
cmp_run() { # VARY(true|false)
  local vary=$1 d="$OUT/cmp-$1"
  rm -rf "$d"; mkdir -p "$d/home" "$d/data"
  farm "cmp-$vary" 100 127.0.6.1 -new-every 0 -vary="$vary"
  local fp=$FARM_PID
  { echo "display: {new: true, error: true, unchanged: false}"; echo "report: {text: {details: true}, stdout: {enabled: true, color: false}}"; } > "$d/urlwatch.yaml"
  while read -r u; do printf -- '---\nname: %s\nurl: %ssearch/0\n' "$u" "$u"; done < "$OUT/cmp-$vary.addr" > "$d/urls.yaml"
  "$OUT/benchdrive" seed -data "$d/data" -urls "$OUT/cmp-$vary.addr" -per-site 1 -interval 1h >/dev/null
  local uw=(env HOME="$d/home" urlwatch --urls "$d/urls.yaml" --config "$d/urlwatch.yaml" --cache "$d/cache.db")
  "${uw[@]}" >/dev/null 2>&1 || true                       # first pass fills the cache
  "$BIN" once --data "$d/data" >/dev/null 2>&1 || true      # first pass is the baseline
  /usr/bin/time -v "${uw[@]}" > "$d/uw.out" 2> "$d/uw.time" || true
  /usr/bin/time -v "$BIN" once --data "$d/data" > "$d/nf.out" 2> "$d/nf.time" || true
  kill "$fp" 2>/dev/null || true
  local ucpu ncpu
  ucpu=$(awk -F': ' '/User time|System time/{s+=$2} END{print s}' "$d/uw.time")
  ncpu=$(awk -F': ' '/User time|System time/{s+=$2} END{print s}' "$d/nf.time")
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$vary" \
    "$ucpu" "$(awk -F': ' '/Maximum resident/{printf "%.1f", $2/1024}' "$d/uw.time")" "$(awk -F': ' '/Elapsed/{print $2}' "$d/uw.time")" \
    "$ncpu" "$(awk -F': ' '/Maximum resident/{printf "%.1f", $2/1024}' "$d/nf.time")" "$(awk -F': ' '/Elapsed/{print $2}' "$d/nf.time")"
  echo "ratio_cpu_$vary=$(awk -v a="$ucpu" -v b="$ncpu" 'BEGIN{if (b>0) printf "%.1f", a/b; else print "inf"}')" >> "$OUT/4-ratio.txt"
}
rm -f "$OUT/4-ratio.txt"
{
  echo "## 4. One pass over 100 loopback pages: urlwatch vs notifio once"; machine; echo
  echo "| pages vary per request | urlwatch CPU s | urlwatch peak RSS MB | urlwatch wall | notifio CPU s | notifio peak RSS MB | notifio wall |"
  echo "|---|---|---|---|---|---|---|"
  cmp_run true
  cmp_run false
  echo; sed 's/^/- /' "$OUT/4-ratio.txt"
} > "$OUT/4-urlwatch.md"

fi

# 6a. Start-up: notifio once over 10 loopback searches.
if want 6; then
log "6/6 start-up"
d="$OUT/startup"; rm -rf "$d"; mkdir -p "$d"
farm startup 10 127.0.7.1 -new-every 0
sp=$FARM_PID
"$OUT/benchdrive" seed -data "$d" -urls "$OUT/startup.addr" -per-site 1 -interval 1h >/dev/null
"$BIN" once --data "$d" >/dev/null 2>&1 || true
{
  echo "## 6. Start-up"; machine; echo; echo '```'
  hyperfine --warmup 2 --runs 15 -N -i "$BIN once --data $d" 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
  echo '```'
} > "$OUT/6-startup.md"
kill "$sp" 2>/dev/null || true

fi

# 5 + 6b. The window under Xvfb: time to first window, idle CPU over 60 s.
if want 5; then
log "5/6 GUI idle under Xvfb $DISP"
d="$OUT/gui"; rm -rf "$d"; mkdir -p "$d/data" "$d/home/.cache" "$d/run"; chmod 700 "$d/run"
farm gui 10 127.0.7.101 -new-every 0
gp=$FARM_PID
"$OUT/benchdrive" seed -data "$d/data" -urls "$OUT/gui.addr" -per-site 5 -interval 1h >/dev/null
Xvfb "$DISP" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xp=$!; PIDS+=($xp); sleep 1
t0=$(date +%s%N)
env DISPLAY="$DISP" HOME="$d/home" XDG_RUNTIME_DIR="$d/run" "$BIN" --data "$d/data" >"$d/gui.log" 2>&1 &
np=$!; PIDS+=($np)
win=""
for _ in $(seq 1500); do
  if DISPLAY="$DISP" xdotool search --onlyvisible --name '^Notifio$' >/dev/null 2>&1; then win=1; break; fi
  sleep 0.01
done
t1=$(date +%s%N)
sleep 20   # first polls of the 10 sites done; the other 40 come due later
tick() { awk '{print $14+$15}' "/proc/$np/stat"; }
c0=$(tick); w0=$(date +%s%N); sleep 60; c1=$(tick); w1=$(date +%s%N)
{
  echo "## 5. GUI idle (50 searches, 10 sites, interval 1 h: no polls in the window) and time to first window"; machine; echo
  if [ -n "$win" ]; then echo "- time to first window (exec → xdotool sees a visible 'Notifio' window): $(( (t1 - t0) / 1000000 )) ms"
  else echo "- the window did not appear within 15 s"; fi
  awk -v c="$((c1 - c0))" -v w="$((w1 - w0))" 'BEGIN{printf "- CPU over 60 s idle: %.2f s = %.2f%% of one core\n", c/100, 100*(c/100)/(w/1e9)}'
  grep -E 'VmRSS|VmHWM|Threads' "/proc/$np/status" | sed 's/^/- /'
} > "$OUT/5-gui.md"
kill -TERM "$np" 2>/dev/null || true; sleep 2; kill "$xp" "$gp" 2>/dev/null || true

fi

# Splice into docs/PERFORMANCE.md.
fig="$OUT/figures.md"
{ echo "<!-- bench:begin (generated by tools/loadsite/bench.sh on $(date -u +%Y-%m-%dT%H:%MZ); do not edit by hand) -->"
  for f in 1-extract 2-headless 4-urlwatch 5-gui 6-startup; do
    if [ -f "$OUT/$f.md" ]; then cat "$OUT/$f.md"; else echo "## $f: not measured yet"; fi
  done
  echo "<!-- bench:end -->"; } > "$fig"
doc=docs/PERFORMANCE.md
if [ -f "$doc" ] && grep -q 'bench:begin' "$doc"; then
  awk -v f="$fig" '/<!-- bench:begin/{while ((getline l < f) > 0) print l; skip=1; next} /<!-- bench:end -->/{skip=0; next} !skip' "$doc" > "$doc.tmp" && mv "$doc.tmp" "$doc"
else
  mkdir -p docs; { [ -f "$doc" ] && cat "$doc"; echo; echo "# Raw measurements"; cat "$fig"; } > "$doc.tmp" && mv "$doc.tmp" "$doc"
fi
log "done: $OUT/figures.md spliced into $doc"
