#!/usr/bin/env bash
# Soak of the real window (issue 19, docs/PERFORMANCE.md "Window soak"): `make soak`.
#
# Starts a loopback load site (one site on SOAK_IP, 127.0.9.1), seeds SOAK_SEARCHES (20)
# searches at the default 2-minute interval into a fresh data folder, and runs
# build/notifio under its own Xvfb on the Searches tab for SOAK_MINUTES (10).
# Every minute it prints the window's RSS (VmRSS from /proc/PID/status) and its
# CPU share over that minute (utime+stime from /proc/PID/stat); at the end RSS
# at minute 2 and at the end, and the CPU share from minute 2 on. Then it runs
# the window again, started hidden in the tray (a private D-Bus session bus, so
# the tray exists), for SOAK_HIDDEN_MINUTES (3) and prints its CPU share.
# Last, what the window's figures are made of, SOAK_FLOOR_MINUTES (3) each:
# the watcher alone (`notifio run`, the same searches, no window), and the
# floor, tools/soak/fynefloor, a Fyne app with one label that does nothing,
# shown and then hidden in the tray: what Fyne itself costs on this machine.
# SOAK_OUT (build/soak) and SOAK_IP (127.0.9.1) let two soaks run side by side.
#
# SOAK_PPROF=127.0.0.1:PORT also saves heap profiles (minute 2 and the end) to
# build/soak/ (NOTIFIO_PPROF, loopback only). SOAK_DISPLAY picks the X display
# (default: the first free one from :77). Nothing leaves loopback.
set -euo pipefail
cd "$(dirname "$0")/../.."
export LANG=${LANG:-en_US.UTF-8}
MINUTES=${SOAK_MINUTES:-10}
HIDDEN=${SOAK_HIDDEN_MINUTES:-3}
FLOOR=${SOAK_FLOOR_MINUTES:-3}
SEARCHES=${SOAK_SEARCHES:-20}
BIN=${BIN:-build/notifio}
OUT=${SOAK_OUT:-build/soak}
IP=${SOAK_IP:-127.0.9.1}
mkdir -p "$OUT"
log() { echo "soak: $*" >&2; }

command -v Xvfb >/dev/null || { log "Xvfb is missing: apt-get install -y xvfb"; exit 1; }
command -v xwininfo >/dev/null || { log "xwininfo is missing: apt-get install -y x11-utils"; exit 1; }
[ -x "$BIN" ] || { log "$BIN is missing: run make build first"; exit 1; }
go build -o "$OUT/loadsite" ./tools/loadsite/cmd/loadsite
go build -o "$OUT/benchdrive" ./tools/loadsite/cmd/benchdrive
CGO_ENABLED=1 go build -o "$OUT/fynefloor" ./tools/soak/fynefloor

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

disp=${SOAK_DISPLAY:-}
if [ -z "$disp" ]; then
  for n in $(seq 77 120); do [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { disp=":$n"; break; }; done
fi
Xvfb "$disp" -screen 0 1280x800x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
PIDS+=($!)
sleep 1

rm -f "$OUT/site.addr"
"$OUT/loadsite" -sites 1 -base-ip "$IP" -new-every 3m -vary -addr-file "$OUT/site.addr" -for 2h 2>"$OUT/loadsite.log" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$OUT/site.addr" ] && break; sleep 0.1; done
[ -s "$OUT/site.addr" ] || { log "the load site did not start"; exit 1; }

# cpu_ticks PID: utime+stime in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_mb() { awk '/^VmRSS:/{printf "%.1f", $2/1024}' "/proc/$1/status"; }
hz=$(getconf CLK_TCK)
share() { awk -v c="$1" -v s="$2" -v hz="$hz" 'BEGIN{printf "%.2f", 100*c/hz/s}'; } # ticks, seconds

# start_window NAME [ENV...]: a fresh HOME and data folder with the searches; sets WIN_PID.
start_window() {
  local name=$1; shift
  local d="$OUT/$name"
  rm -rf "$d"; mkdir -p "$d/data" "$d/home/.config" "$d/run"; chmod 700 "$d/run"
  "$OUT/benchdrive" seed -data "$d/data" -urls "$OUT/site.addr" -per-site "$SEARCHES" -interval 2m >/dev/null
  if [ -n "${PREFS:-}" ]; then
    mkdir -p "$d/home/.config/fyne/app.notifio.desktop"; echo "$PREFS" >"$d/home/.config/fyne/app.notifio.desktop/preferences.json"
  fi
  env -u DBUS_SESSION_BUS_ADDRESS DISPLAY="$disp" HOME="$d/home" XDG_RUNTIME_DIR="$d/run" "$@" \
    "$BIN" --data "$d/data" >"$d/window.log" 2>&1 &
  WIN_PID=$!
  PIDS+=($WIN_PID)
}

wait_visible() {
  for _ in $(seq 300); do
    DISPLAY="$disp" xwininfo -root -tree 2>/dev/null | grep -q '"Notifio"' && return 0
    sleep 0.1
  done
  log "the window did not appear"; return 1
}

heap() { [ -n "${SOAK_PPROF:-}" ] && curl -sf "http://$SOAK_PPROF/debug/pprof/heap" -o "$OUT/heap-$1.pprof" || true; }

log "window on the Searches tab, $SEARCHES searches every 2 min on $(cat "$OUT/site.addr"), display $disp, $MINUTES min"
pp=(); [ -n "${SOAK_PPROF:-}" ] && pp=(NOTIFIO_PPROF="$SOAK_PPROF")
PREFS="" start_window ticking "${pp[@]}"
wait_visible
echo "# Window soak: $SEARCHES searches, Searches tab, $MINUTES min ($(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores)"
t_start=$(date +%s); c_prev=$(cpu_ticks "$WIN_PID"); t_prev=$t_start
for m in $(seq 1 "$MINUTES"); do
  sleep $(( t_start + 60 * m - $(date +%s) ))
  now=$(date +%s); c=$(cpu_ticks "$WIN_PID"); r=$(rss_mb "$WIN_PID")
  echo "minute $m: RSS $r MB, CPU $(share $((c - c_prev)) $((now - t_prev)))% of a core over the last minute"
  if [ "$m" = 2 ]; then rss2=$r; c2=$c; t2=$now; heap 2; fi
  c_prev=$c; t_prev=$now
done
heap "$MINUTES"
rssN=$(rss_mb "$WIN_PID"); cN=$(cpu_ticks "$WIN_PID"); tN=$(date +%s)
kill -TERM "$WIN_PID"; wait "$WIN_PID" 2>/dev/null || true
cpu=$(share $((cN - c2)) $((tN - t2)))
growth=$(awk -v a="$rss2" -v b="$rssN" 'BEGIN{printf "%+.1f", 100*(b-a)/a}')
echo "RSS minute 2: $rss2 MB; minute $MINUTES: $rssN MB ($growth%); goal: within 5% and under 150 MB"
echo "CPU from minute 2 to $MINUTES, Searches tab ticking: $cpu% of a core; goal: under 1.5%"

log "window started hidden in the tray, $HIDDEN min"
bus="$OUT/bus"; rm -f "$bus"
dbus-daemon --session --nofork --address="unix:path=$bus" >"$OUT/dbus.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$bus" ] && break; sleep 0.1; done
PREFS='{"tray.start_minimised":true,"tray.close_keeps_watching":true}' \
  start_window hidden DBUS_SESSION_BUS_ADDRESS="unix:path=$bus"
sleep 30 # start-up and the first polls
c0=$(cpu_ticks "$WIN_PID"); t0=$(date +%s)
sleep $((60 * HIDDEN))
c1=$(cpu_ticks "$WIN_PID"); t1=$(date +%s); rssH=$(rss_mb "$WIN_PID")
if DISPLAY="$disp" xwininfo -root -tree 2>/dev/null | grep -q '"Notifio".*[0-9]x[0-9]'; then shown="(a Notifio window exists on the display)"; else shown=""; fi
kill -TERM "$WIN_PID"; wait "$WIN_PID" 2>/dev/null || true
echo "CPU over $HIDDEN min, hidden in the tray: $(share $((c1 - c0)) $((t1 - t0)))% of a core, RSS $rssH MB $shown; goal: under 0.2%"

# measure_and_stop PID SETTLE: after SETTLE seconds, the process's CPU share
# over FLOOR minutes and its RSS; then it is stopped.
measure_and_stop() {
  local pid=$1 c0 t0 c1 t1
  sleep "$2"
  c0=$(cpu_ticks "$pid"); t0=$(date +%s)
  sleep $((60 * FLOOR))
  c1=$(cpu_ticks "$pid"); t1=$(date +%s)
  echo "$(share $((c1 - c0)) $((t1 - t0)))% of a core, RSS $(rss_mb "$pid") MB"
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
}
# floor NAME [ARGS...]: the CPU share of fynefloor over FLOOR minutes.
floor() {
  local name=$1; shift
  local d="$OUT/$name"
  rm -rf "$d"; mkdir -p "$d/home/.config" "$d/run"; chmod 700 "$d/run"
  env DISPLAY="$disp" HOME="$d/home" XDG_RUNTIME_DIR="$d/run" DBUS_SESSION_BUS_ADDRESS="unix:path=$bus" \
    "$OUT/fynefloor" "$@" >"$d/floor.log" 2>&1 &
  measure_and_stop $! 10
}
# headless: the CPU share of `notifio run` on the same searches over FLOOR minutes.
headless() {
  local d="$OUT/headless"
  rm -rf "$d"; mkdir -p "$d/data"
  "$OUT/benchdrive" seed -data "$d/data" -urls "$OUT/site.addr" -per-site "$SEARCHES" -interval 2m >/dev/null
  "$BIN" run --data "$d/data" >"$d/run.log" 2>&1 &
  measure_and_stop $! 30 # 30 s: the baselines
}
if [ "$FLOOR" -gt 0 ]; then
  log "the watcher alone, $FLOOR min"
  echo "The watcher alone (notifio run, the same $SEARCHES searches, no window) over $FLOOR min: $(headless)"
  log "the Fyne floor: an app with one label, $FLOOR min shown, $FLOOR min hidden"
  echo "Fyne floor (tools/soak/fynefloor, one label, nothing happens) over $FLOOR min, shown: $(floor floor-shown)"
  echo "Fyne floor over $FLOOR min, hidden in the tray: $(floor floor-hidden -hidden)"
fi
