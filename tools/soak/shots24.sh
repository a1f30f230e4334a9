#!/usr/bin/env bash
# The real window as a flat hunter with 24 searches meets it (issue 37): four
# loopback portals behind hostproxy (127.0.9.20; sites on 127.0.9.21-25: the
# third sends every search to its login page, the fourth answers 429 with
# Retry-After, the fifth is an empty shell only JavaScript fills in), 28
# searches, two with 130-character names. Under Xvfb at SHOTS_SIZE (1366x850):
#  - one screenshot of the whole screen (`import -window root`) per view in
#    SHOTS_VIEWS ("0 1 2 3": Searches, Listings, Sites, Settings), after
#    SHOTS_WARMUP seconds (120) of baselines and first listings;
#  - the window's WM_NORMAL_HINTS (its minimum size, xprop);
#  - with SHOTS_TRY_NOW=ID, `search check ID` (what "I logged in again — try
#    now" does) on a search of the login portal, then the Sites and Searches tabs;
#  - with SHOTS_WATCH_MINUTES (0: skip) the window left open that long, its
#    VmRSS and the watcher's every minute.
# Run from the repository root after `make build`; writes build/shots24-SIZE/.
# Nothing leaves loopback.
set -euo pipefail
cd "$(dirname "$0")/../.."
export LANG=${LANG:-en_US.UTF-8}
BIN=${BIN:-build/notifio}
SIZE=${SHOTS_SIZE:-1366x850}
VIEWS=${SHOTS_VIEWS:-0 1 2 3}
WARMUP=${SHOTS_WARMUP:-120}
WATCH=${SHOTS_WATCH_MINUTES:-0}
IP=${SHOTS_IP:-127.0.9.2}
OUT=build/shots24-$SIZE
rm -rf "$OUT"; mkdir -p "$OUT/data" "$OUT/home" "$OUT/run"; chmod 700 "$OUT/run"
go build -o "$OUT/loadsite" ./tools/loadsite/cmd/loadsite
go build -o "$OUT/hostproxy" ./tools/soak/hostproxy
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  local w; w=$(watcher_pid); [ -n "$w" ] && kill "$w" 2>/dev/null || true
}
# watcher_pid: the detached watcher the window started for this data folder.
watcher_pid() { pgrep -f -- "$OUT/data --hidden" | head -1 || true; }
trap cleanup EXIT

disp=${SHOTS_DISPLAY:-}
if [ -z "$disp" ]; then
  for n in $(seq 130 160); do [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { disp=":$n"; break; }; done
fi
Xvfb "$disp" -screen 0 "${SIZE}x24" -nolisten tcp >"$OUT/xvfb.log" 2>&1 & PIDS+=($!)
"$OUT/loadsite" -sites 5 -base-ip "${IP}1" -listings 20 -refuse "3:login,4:429,5:script" -new-every 90s \
  -addr-file "$OUT/sites.addr" -for 2h 2>"$OUT/loadsite.log" & PIDS+=($!)
for _ in $(seq 100); do [ -s "$OUT/sites.addr" ] && break; sleep 0.1; done
mapfile -t site < "$OUT/sites.addr"
"$OUT/hostproxy" -addr "${IP}0:18080" -map "kleinanzeigen.test=${site[0]},wg-gesucht.test=${site[1]},immobilienscout24.test=${site[2]},immowelt.test=${site[3]},wohnungsboerse.test=${site[4]}" \
  2>"$OUT/hostproxy.log" & PIDS+=($!)
sleep 1

run=(env -u DBUS_SESSION_BUS_ADDRESS DISPLAY="$disp" HOME="$OUT/home" XDG_RUNTIME_DIR="$OUT/run"
  HTTP_PROXY="http://${IP}0:18080" NO_PROXY= "$BIN" --data "$OUT/data")
add() { "${run[@]}" search add --name "$1" --every "$2" "$3" >/dev/null; }
long="Kreuzberg, Friedrichshain oder Neukölln: 2 bis 3 Zimmer mit Balkon oder Terrasse, Altbau bevorzugt, warm höchstens 1.400 Euro"
i=0
for d in Kreuzberg Friedrichshain Neukölln Wedding Moabit Pankow; do
  i=$((i+1)); add "$d $i Zimmer" 2m "http://kleinanzeigen.test/s-wohnung-mieten/berlin-$d/zimmer:$i"
  add "WG $d" 5m "http://wg-gesucht.test/wg-zimmer-in-Berlin-$d.8.0.1.$i.html"
  add "$d Altbau" 2m "http://immobilienscout24.test/Suche/de/berlin/berlin/$d/wohnung-mieten"
  add "$d bis $((900 + 100*i)) €" 5m "http://immowelt.test/suche/berlin-$d/wohnungen/mieten?pma=$((900 + 100*i))"
done
add "Wohnungsbörse Mitte" 5m "http://wohnungsboerse.test/Mietwohnungen/Berlin-Mitte"
add "Wohnungsbörse Pankow" 5m "http://wohnungsboerse.test/Mietwohnungen/Berlin-Pankow"
"${run[@]}" search add --name "$long" --every 2m "http://kleinanzeigen.test/s-wohnung-mieten/berlin/lang:1" >/dev/null
"${run[@]}" search add --name "$long (zweite Suche)" --every 2m "http://immowelt.test/suche/berlin/lang" >/dev/null
"${run[@]}" search list >"$OUT/search-list-before.txt" 2>&1 || true

prefs="$OUT/home/.config/fyne/app.notifio.desktop/preferences.json"
mkdir -p "$(dirname "$prefs")"
w=${SIZE%x*}; h=${SIZE#*x}
window_id() { DISPLAY="$disp" xwininfo -root -tree 2>/dev/null | awk '/"Notifio"/{print $1; exit}'; }
start_window() { # VIEW: starts the window on a tab, maximised to the screen
  echo "{\"window.width\":$w,\"window.height\":$h,\"window.view\":$1}" >"$prefs"
  "${run[@]}" >>"$OUT/window.log" 2>&1 & WIN=$!
  local id=""
  for _ in $(seq 300); do id=$(window_id); [ -n "$id" ] && break; sleep 0.1; done
  WID=$id
}
first=1
for v in $VIEWS; do
  start_window "$v"
  if [ "$first" = 1 ]; then sleep "$WARMUP"; first=0; else sleep 8; fi
  DISPLAY="$disp" import -window root "$OUT/view-$v.png"
  if [ -z "$WID" ]; then # no window (see window.log); xwininfo with no id waits for a click
    echo "view $v: no Notifio window appeared within 30 s" | tee "$OUT/hints-$v.txt"
  else
    DISPLAY="$disp" xprop -id "$WID" WM_NORMAL_HINTS >"$OUT/hints-$v.txt" 2>&1 || true
    DISPLAY="$disp" xwininfo -id "$WID" | grep -E 'Width|Height' >>"$OUT/hints-$v.txt" || true
  fi
  kill -TERM "$WIN"; wait "$WIN" 2>/dev/null || true
done
if [ -n "${SHOTS_TRY_NOW:-}" ]; then # "I logged in again — try now" while the site still sends to its login page
  start_window 2; sleep 3
  "${run[@]}" search check "$SHOTS_TRY_NOW" >"$OUT/try-now.txt" 2>&1 || true
  sleep 10; DISPLAY="$disp" import -window root "$OUT/trynow-sites.png"
  kill -TERM "$WIN"; wait "$WIN" 2>/dev/null || true
  start_window 0; sleep 5; DISPLAY="$disp" import -window root "$OUT/trynow-searches.png"
  kill -TERM "$WIN"; wait "$WIN" 2>/dev/null || true
fi
"${run[@]}" search list >"$OUT/search-list.txt" 2>&1 || true
"${run[@]}" status >"$OUT/status.txt" 2>&1 || true
if [ "$WATCH" -gt 0 ]; then
  start_window 0
  wpid=$(watcher_pid)
  echo "minute window_rss_mb watcher_rss_mb" >"$OUT/rss.txt"
  for m in $(seq 0 "$WATCH"); do
    r=$(awk '/^VmRSS:/{printf "%.1f", $2/1024}' /proc/$WIN/status 2>/dev/null || echo gone)
    q=$( [ -n "$wpid" ] && awk '/^VmRSS:/{printf "%.1f", $2/1024}' /proc/$wpid/status 2>/dev/null || echo "?")
    echo "$m $r $q" | tee -a "$OUT/rss.txt"
    [ "$m" -lt "$WATCH" ] && sleep 60
  done
  DISPLAY="$disp" import -window root "$OUT/after-watch.png"
  kill -TERM "$WIN"; wait "$WIN" 2>/dev/null || true
fi
echo "shots: $OUT"
