#!/usr/bin/env bash
# Screenshots of the real window for docs/ (issue 19): the Searches, Listings,
# Sites and Settings screens at 960×640 under Xvfb, with portal-like site names.
# Every request stays on loopback: a load site (127.0.9.11-14; the third shows
# a captcha, the fourth answers 429) behind hostproxy (127.0.9.10), which the
# window reaches through HTTP_PROXY. Run from the repository root after
# `make build`: bash tools/soak/shots.sh; writes docs/screenshot*.png.
set -euo pipefail
cd "$(dirname "$0")/../.."
export LANG=${LANG:-en_US.UTF-8}
BIN=${BIN:-build/notifio}
OUT=build/shots
rm -rf "$OUT"; mkdir -p "$OUT/data" "$OUT/home" "$OUT/run"; chmod 700 "$OUT/run"
go build -o "$OUT/loadsite" ./tools/loadsite/cmd/loadsite
go build -o "$OUT/hostproxy" ./tools/soak/hostproxy
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

disp=${SHOTS_DISPLAY:-}
if [ -z "$disp" ]; then
  for n in $(seq 80 120); do [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { disp=":$n"; break; }; done
fi
Xvfb "$disp" -screen 0 1280x800x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 & PIDS+=($!)
"$OUT/loadsite" -sites 4 -base-ip 127.0.9.11 -refuse "3:challenge,4:429" -new-every 45s \
  -addr-file "$OUT/sites.addr" -for 1h 2>"$OUT/loadsite.log" & PIDS+=($!)
for _ in $(seq 100); do [ -s "$OUT/sites.addr" ] && break; sleep 0.1; done
mapfile -t site < "$OUT/sites.addr"
"$OUT/hostproxy" -addr 127.0.9.10:18080 -map "kleinanzeigen.test=${site[0]},wg-gesucht.test=${site[1]},immobilienscout24.test=${site[2]},immowelt.test=${site[3]}" \
  2>"$OUT/hostproxy.log" & PIDS+=($!)
sleep 1

run=(env -u DBUS_SESSION_BUS_ADDRESS DISPLAY="$disp" HOME="$OUT/home" XDG_RUNTIME_DIR="$OUT/run"
  HTTP_PROXY=http://127.0.9.10:18080 NO_PROXY= "$BIN" --data "$OUT/data")
# add NAME EVERY URL [FILTER FLAGS...]: the filters say what the name says.
add() { "${run[@]}" search add --name "$1" --every "$2" "${@:4}" "$3" >/dev/null; }
add "Kreuzberg < 1200 €" 2m http://kleinanzeigen.test/s-wohnung-mieten/berlin-kreuzberg/preis::1200 --max-price 1200
add "Friedrichshain 2 Zimmer" 2m http://kleinanzeigen.test/s-wohnung-mieten/berlin-friedrichshain/zimmer:2 --min-rooms 2
add "WG-Zimmer Neukölln" 10m http://wg-gesucht.test/wg-zimmer-in-Berlin-Neukoelln.8.0.1.0.html
add "Schöneberg mit Balkon" 2m http://wg-gesucht.test/wohnungen-in-Berlin-Schoeneberg.8.2.1.0.html
add "Prenzlauer Berg Altbau" 2m http://immobilienscout24.test/Suche/de/berlin/berlin/prenzlauer-berg/wohnung-mieten
add "Mitte bis 1500 €" 5m http://immowelt.test/suche/berlin-mitte/wohnungen/mieten?pma=1500 --max-price 1500
"${run[@]}" search pause 00000004 >/dev/null # Schöneberg: the fourth added
"${run[@]}" email set --preset gmail --user anna.berlin@gmail.com --to anna.berlin@gmail.com,ben@example.org >/dev/null 2>&1 || true
# Phone push channels for Settings. They get only the paused search, so no
# push ever leaves loopback (nothing is sent to ntfy.sh or Telegram).
"${run[@]}" push add 'ntfy://ntfy.sh/flats-anna-7x2k' --name "Anna's phone" --searches 00000004 --quiet 23:00-07:00 >/dev/null 2>&1
"${run[@]}" push add 'telegram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw@telegram?chats=987654321' --name "Ben on Telegram" --searches 00000004 >/dev/null 2>&1

prefs="$OUT/home/.config/fyne/app.notifio.desktop/preferences.json"
mkdir -p "$(dirname "$prefs")"
# shot VIEW FILE WAIT [SCROLL]: start the window on a tab, wait, scroll down
# SCROLL wheel clicks (if given), capture it, stop it.
shot() {
  echo "{\"window.width\":960,\"window.height\":640,\"window.view\":$1}" >"$prefs"
  "${run[@]}" >"$OUT/window-$1.log" 2>&1 & local p=$!
  local id=""
  for _ in $(seq 300); do
    id=$(DISPLAY="$disp" xwininfo -root -tree 2>/dev/null | awk '/"Notifio"/{print $1; exit}')
    [ -n "$id" ] && break; sleep 0.1
  done
  sleep "$3"
  if [ -n "${4:-}" ]; then
    DISPLAY="$disp" xdotool mousemove --window "$id" 40 320; sleep 0.3 # over labels: an entry takes the wheel
    for _ in $(seq "$4"); do DISPLAY="$disp" xdotool click 5; sleep 0.1; done
    sleep 1
  fi
  DISPLAY="$disp" import -window "$id" "$OUT/$2.png"
  kill -TERM "$p"; wait "$p" 2>/dev/null || true
}
shot 0 warmup 100   # baselines, then the first new listings
shot 0 screenshot 8
shot 1 screenshot-listings 8
shot 2 screenshot-sites 8
shot 3 screenshot-settings 8 20   # scrolled to the phone push channels
for f in screenshot screenshot-listings screenshot-sites screenshot-settings; do
  convert "$OUT/$f.png" -strip -define png:compression-level=9 "docs/$f.png"
  echo "docs/$f.png: $(identify -format '%wx%h' "docs/$f.png"), $(( $(stat -c %s "docs/$f.png") / 1024 )) KB"
done
