#!/usr/bin/env bash
# Soak of the watcher and the window (issues 19 and 36, docs/PERFORMANCE.md
# "Soak"): `make soak`.
#
# Starts a loopback load site (one site on SOAK_IP, 127.0.9.1) and seeds
# SOAK_SEARCHES (20) searches at the default 2-minute interval into fresh data
# folders. Then, under its own Xvfb:
#  1. The window (`notifio`, on the Searches tab) for SOAK_MINUTES (10): it starts
#     its watcher (`notifio --hidden`, detached) and attaches to it. Every minute
#     the RSS (VmRSS) and CPU share (utime+stime) of the window process and of the
#     watcher; at the end RSS at minute 2 and at the end, and the CPU share from
#     minute 2 on.
#  2. Side by side for SOAK_HIDDEN_MINUTES (3), on copies of the same searches:
#     `notifio --hidden` with its tray icon (a private D-Bus session bus with
#     tools/soak/sniwatcher as the tray host) and `notifio run`, each over all its
#     processes; goal: the first at most 1.3x the CPU of the second, at most 60 MB.
#  3. The floor, SOAK_FLOOR_MINUTES (3; 0 skips it): tools/soak/fynefloor, a Fyne
#     app with one label that does nothing: what Fyne itself costs on this machine.
# SOAK_OUT (build/soak) and SOAK_IP (127.0.9.1) let two soaks run side by side.
#
# SOAK_PPROF=127.0.0.1:PORT also saves the window's heap profiles (minute 2 and
# the end) to build/soak/ (NOTIFIO_PPROF, loopback only). SOAK_DISPLAY picks the X
# display (default: the first free one from :77). Nothing leaves loopback.
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
command -v dbus-daemon >/dev/null || { log "dbus-daemon is missing: apt-get install -y dbus"; exit 1; }
[ -x "$BIN" ] || { log "$BIN is missing: run make build first"; exit 1; }
go build -o "$OUT/loadsite" ./tools/loadsite/cmd/loadsite
go build -o "$OUT/benchdrive" ./tools/loadsite/cmd/benchdrive
go build -o "$OUT/sniwatcher" ./tools/soak/sniwatcher
CGO_ENABLED=1 go build -o "$OUT/fynefloor" ./tools/soak/fynefloor

PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -n "${WATCHER_PID:-}" ] && kill "$WATCHER_PID" 2>/dev/null || true
}
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

# tree PID: the process and its descendants.
tree() { local p; echo "$1"; for p in $(cat /proc/"$1"/task/*/children 2>/dev/null); do tree "$p"; done; }
# cpu_ticks PID: utime+stime of the process alone, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_mb() { awk '/^VmRSS:/{printf "%.1f", $2/1024}' "/proc/$1/status"; }
# tree_ticks PID, tree_rss PID: the same over the process and its descendants.
tree_ticks() { local p t=0; for p in $(tree "$1"); do t=$((t + $(cpu_ticks "$p" 2>/dev/null || echo 0))); done; echo "$t"; }
tree_rss() { local p; for p in $(tree "$1"); do awk '/^VmRSS:/{print $2}' "/proc/$p/status" 2>/dev/null; done | awk '{s+=$1} END{printf "%.1f", s/1024}'; }
hz=$(getconf CLK_TCK)
share() { awk -v c="$1" -v s="$2" -v hz="$hz" 'BEGIN{printf "%.2f", 100*c/hz/s}'; } # ticks, seconds

# fresh NAME: an empty folder with a HOME, a runtime dir and a data folder
# seeded with the searches; prints its path.
fresh() {
  local d="$OUT/$1"
  rm -rf "$d"; mkdir -p "$d/data" "$d/home/.config" "$d/home/.cache" "$d/run"; chmod 700 "$d/run"
  "$OUT/benchdrive" seed -data "$d/data" -urls "$OUT/site.addr" -per-site "$SEARCHES" -interval 2m >/dev/null
  echo "$d"
}

# start_window NAME [ENV...]: the window over fresh searches; it starts its own
# watcher. Sets WIN_PID and WATCHER_PID.
start_window() {
  local d; d=$(fresh "$1"); shift
  env -u DBUS_SESSION_BUS_ADDRESS DISPLAY="$disp" HOME="$d/home" XDG_RUNTIME_DIR="$d/run" "$@" \
    "$BIN" --data "$d/data" >"$d/window.log" 2>&1 &
  WIN_PID=$!
  PIDS+=($WIN_PID)
  WATCHER_PID=""
  for _ in $(seq 300); do
    WATCHER_PID=$(pgrep -f -- "--data $d/data --hidden" | head -1 || true)
    [ -n "$WATCHER_PID" ] && break
    sleep 0.1
  done
  [ -n "$WATCHER_PID" ] || { log "the window started no watcher"; exit 1; }
}

wait_visible() {
  for _ in $(seq 300); do
    DISPLAY="$disp" xwininfo -root -tree 2>/dev/null | grep -q '"Notifio"' && return 0
    sleep 0.1
  done
  log "the window did not appear"; return 1
}

heap() { [ -n "${SOAK_PPROF:-}" ] && curl -sf "http://$SOAK_PPROF/debug/pprof/heap" -o "$OUT/heap-$1.pprof" || true; }

if [ "$MINUTES" -gt 0 ]; then
log "window on the Searches tab, $SEARCHES searches every 2 min on $(cat "$OUT/site.addr"), display $disp, $MINUTES min"
pp=(); [ -n "${SOAK_PPROF:-}" ] && pp=(NOTIFIO_PPROF="$SOAK_PPROF")
start_window ticking "${pp[@]}"
wait_visible
echo "# Soak: $SEARCHES searches every 2 min ($(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores)"
echo "## The window (Searches tab) and the watcher it started, $MINUTES min"
t_start=$(date +%s); c_prev=$(cpu_ticks "$WIN_PID"); w_prev=$(cpu_ticks "$WATCHER_PID"); t_prev=$t_start
rss2=$(rss_mb "$WIN_PID"); c2=$c_prev; wc2=$w_prev; t2=$t_start # from the start when the soak is under 3 min
for m in $(seq 1 "$MINUTES"); do
  sleep $(( t_start + 60 * m - $(date +%s) ))
  now=$(date +%s); c=$(cpu_ticks "$WIN_PID"); r=$(rss_mb "$WIN_PID"); wc=$(cpu_ticks "$WATCHER_PID"); wr=$(rss_mb "$WATCHER_PID")
  echo "minute $m: window RSS $r MB, CPU $(share $((c - c_prev)) $((now - t_prev)))%; watcher RSS $wr MB, CPU $(share $((wc - w_prev)) $((now - t_prev)))% of a core over the last minute"
  if [ "$m" = 2 ] && [ "$MINUTES" -gt 2 ]; then rss2=$r; c2=$c; wc2=$wc; t2=$now; heap 2; fi
  c_prev=$c; w_prev=$wc; t_prev=$now
done
heap "$MINUTES"
rssN=$(rss_mb "$WIN_PID"); cN=$(cpu_ticks "$WIN_PID"); wcN=$(cpu_ticks "$WATCHER_PID"); wrN=$(rss_mb "$WATCHER_PID"); tN=$(date +%s)
kill -TERM "$WIN_PID"; wait "$WIN_PID" 2>/dev/null || true
alive="no"; kill -0 "$WATCHER_PID" 2>/dev/null && alive="yes"
kill -TERM "$WATCHER_PID" 2>/dev/null || true
cpu=$(share $((cN - c2)) $((tN - t2)))
growth=$(awk -v a="$rss2" -v b="$rssN" 'BEGIN{printf "%+.1f", 100*(b-a)/a}')
echo "window RSS minute 2: $rss2 MB; minute $MINUTES: $rssN MB ($growth%); goal: within 5% and no worse than before (180 MB)"
echo "window CPU from minute 2 to $MINUTES, Searches tab ticking: $cpu% of a core; goal: no worse than before (4.4-4.7%)"
echo "its watcher over the same minutes: $(share $((wcN - wc2)) $((tN - t2)))% of a core, RSS $wrN MB; still watching after the window closed: $alive"
fi

# measure PID...: after the start-up, each process tree's CPU share over
# HIDDEN minutes and its RSS, as "CPU RSS" lines in order.
measure() {
  local p c0=() c1=() t0 t1 i
  sleep 30 # start-up and the baselines
  for p in "$@"; do c0+=("$(tree_ticks "$p")"); done; t0=$(date +%s)
  sleep $((60 * HIDDEN))
  for p in "$@"; do c1+=("$(tree_ticks "$p")"); done; t1=$(date +%s)
  for i in "${!c0[@]}"; do echo "$(share $((c1[i] - c0[i])) $((t1 - t0))) $(tree_rss "${@:i+1:1}")"; done
}

log "notifio --hidden (tray, tray host on a private bus) and notifio run side by side, $HIDDEN min"
bus="$OUT/bus"; rm -f "$bus"
dbus-daemon --session --nofork --address="unix:path=$bus" >"$OUT/dbus.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$bus" ] && break; sleep 0.1; done
DBUS_SESSION_BUS_ADDRESS="unix:path=$bus" "$OUT/sniwatcher" >"$OUT/sniwatcher.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do grep -q ready "$OUT/sniwatcher.log" 2>/dev/null && break; sleep 0.1; done
h=$(fresh hidden)
env DISPLAY="$disp" HOME="$h/home" XDG_RUNTIME_DIR="$h/run" DBUS_SESSION_BUS_ADDRESS="unix:path=$bus" \
  "$BIN" --hidden --data "$h/data" >"$h/hidden.log" 2>&1 &
HID_PID=$!; PIDS+=($HID_PID)
r=$(fresh headless)
env -u DBUS_SESSION_BUS_ADDRESS HOME="$r/home" XDG_RUNTIME_DIR="$r/run" "$BIN" run --data "$r/data" >"$r/run.log" 2>&1 &
RUN_PID=$!; PIDS+=($RUN_PID)
mapfile -t got < <(measure "$HID_PID" "$RUN_PID")
read -r hcpu hrss <<<"${got[0]}"; read -r rcpu rrss <<<"${got[1]}"
tray="no tray icon"; grep -q registered "$OUT/sniwatcher.log" && tray="its tray icon registered with the tray host"
kill -TERM "$HID_PID" "$RUN_PID"; wait "$HID_PID" "$RUN_PID" 2>/dev/null || true
ratio=$(awk -v a="$hcpu" -v b="$rcpu" 'BEGIN{ if (b > 0) printf "%.2f", a/b; else print "n/a" }')
echo "## notifio --hidden and notifio run, the same $SEARCHES searches side by side, $HIDDEN min"
echo "notifio --hidden ($tray): $hcpu% of a core, RSS $hrss MB; goal: at most 1.3x notifio run, at most 60 MB"
echo "notifio run: $rcpu% of a core, RSS $rrss MB"
echo "ratio --hidden / run: ${ratio}x"

if [ "$FLOOR" -gt 0 ]; then
  log "the Fyne floor: an app with one label, $FLOOR min"
  f="$OUT/floor"; rm -rf "$f"; mkdir -p "$f/home/.config" "$f/run"; chmod 700 "$f/run"
  env -u DBUS_SESSION_BUS_ADDRESS DISPLAY="$disp" HOME="$f/home" XDG_RUNTIME_DIR="$f/run" "$OUT/fynefloor" >"$f/floor.log" 2>&1 &
  FL_PID=$!; PIDS+=($FL_PID)
  sleep 10
  c0=$(cpu_ticks "$FL_PID"); t0=$(date +%s); sleep $((60 * FLOOR)); c1=$(cpu_ticks "$FL_PID"); t1=$(date +%s)
  echo "Fyne floor (tools/soak/fynefloor, one label shown, nothing happens) over $FLOOR min: $(share $((c1 - c0)) $((t1 - t0)))% of a core, RSS $(rss_mb "$FL_PID") MB"
  kill -TERM "$FL_PID"; wait "$FL_PID" 2>/dev/null || true
fi
