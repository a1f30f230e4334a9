#!/usr/bin/env bash
# Builds Notifio for the people who install it rather than build it.
#
#   bash .ci/package.sh                 both bundles below (this is `make package`)
#   bash .ci/package.sh linux           dist/notifio-VERSION-linux-amd64.tar.xz
#   bash .ci/package.sh windows         dist/notifio-VERSION-windows-amd64.exe
#   bash .ci/package.sh windows-build   build/notifio.exe: a plain cross-compile,
#                                       the check CI runs (`make windows`)
#
# VERSION is Details.Version in FyneApp.toml, the one source of truth. It is linked
# in as main.version (so `notifio --version` and the About dialog print it) and
# `fyne package` also embeds it as the app metadata (and, on Windows, as the .exe's
# file and product version beside the icon and manifest).
#
# Bundles are made with the fyne command of fyne.io/tools, pinned below (v1.7.4 is
# the release that goes with fyne v2.8). It is installed into build/tools/ on first
# use. `fyne package` bumps Details.Build in FyneApp.toml, so it runs in a
# throw-away copy of the source and the working tree stays clean.
#
# The Windows builds need the mingw-w64 C compiler; on Debian/Ubuntu it is
# installed with apt when missing (with sudo when not root).
set -euo pipefail

readonly FYNE_TOOLS_VERSION=v1.7.4
readonly MINGW_CC=x86_64-w64-mingw32-gcc
readonly MINGW_PKG=gcc-mingw-w64-x86-64

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export LANG="${LANG:-en_US.UTF-8}"
GO=${GO:-go}

version=$(sed -n 's/^Version *= *"\(.*\)"/\1/p' FyneApp.toml)
if [ -z "$version" ]; then
  echo "package: FyneApp.toml has no Version line under [Details]" >&2
  exit 1
fi
dist="$root/dist"
fyne="" # the pinned fyne command, set by fyne_tool
scratch="" # holds the throw-away copies; removed on exit
cleanup() { if [ -n "$scratch" ]; then rm -rf "$scratch"; fi; }
trap cleanup EXIT

# ensure_mingw installs the Windows cross compiler when it is missing.
ensure_mingw() {
  if command -v "$MINGW_CC" >/dev/null; then
    return
  fi
  if ! command -v apt-get >/dev/null; then
    echo "package: $MINGW_CC is missing; install the mingw-w64 cross compiler for x86_64 and try again" >&2
    exit 1
  fi
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "Installing $MINGW_PKG (the Windows cross compiler)"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$MINGW_PKG"
}

# fyne_tool prints the path of the pinned fyne command, installing it when needed.
fyne_tool() {
  local dir="$root/build/tools/fyne-$FYNE_TOOLS_VERSION"
  if [ ! -x "$dir/fyne" ]; then
    echo "Installing fyne.io/tools/cmd/fyne@$FYNE_TOOLS_VERSION into ${dir#"$root"/}" >&2
    env -u GOOS -u GOARCH -u CC -u CGO_ENABLED -u GOFLAGS GOBIN="$dir" \
      "$GO" install "fyne.io/tools/cmd/fyne@$FYNE_TOOLS_VERSION" >&2
  fi
  echo "$dir/fyne"
}

# copy_source copies the source (tracked files plus new ones not ignored) into a
# fresh temporary directory and prints its path.
copy_source() {
  local work
  work=$(mktemp -d "$scratch/src.XXXXXX")
  if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$root" ls-files -z --cached --others --exclude-standard |
      while IFS= read -r -d '' f; do
        [ -e "$f" ] && printf '%s\0' "$f"
      done |
      xargs -0 cp --parents -t "$work"
  else
    tar -C "$root" --exclude=./.git --exclude=./dist --exclude=./build -cf - . | tar -C "$work" -xf -
  fi
  echo "$work"
}

# fyne_package runs `fyne package` (the command at $fyne) for one OS in a
# throw-away copy and prints the path of the directory that holds its output.
fyne_package() {
  local os=$1 work
  work=$(copy_source)
  # The fyne command passes -ldflags given in GOFLAGS on to go build (no spaces
  # inside one flag: GOFLAGS is split at spaces).
  (
    cd "$work"
    GOFLAGS="${GOFLAGS:+$GOFLAGS }-ldflags=-X=main.version=$version" "$fyne" package -os "$os" --release >&2
  )
  echo "$work"
}

package_linux() {
  local work start=$SECONDS
  fyne=$(fyne_tool)
  [ -n "$scratch" ] || scratch=$(mktemp -d "${TMPDIR:-/tmp}/notifio-package.XXXXXX")
  echo "Packaging Notifio $version for Linux (amd64)"
  work=$(fyne_package linux)
  mkdir -p "$dist"
  local out="$dist/notifio-$version-linux-amd64.tar.xz"
  mv "$work/Notifio.tar.xz" "$out"
  rm -rf "$work"
  echo "Wrote ${out#"$root"/} in $((SECONDS - start))s"
}

package_windows() {
  local work start=$SECONDS
  ensure_mingw
  fyne=$(fyne_tool)
  [ -n "$scratch" ] || scratch=$(mktemp -d "${TMPDIR:-/tmp}/notifio-package.XXXXXX")
  echo "Packaging Notifio $version for Windows (amd64)"
  work=$(CC="$MINGW_CC" GOOS=windows GOARCH=amd64 CGO_ENABLED=1 fyne_package windows)
  mkdir -p "$dist"
  local out="$dist/notifio-$version-windows-amd64.exe"
  mv "$work/Notifio.exe" "$out"
  rm -rf "$work"
  echo "Wrote ${out#"$root"/} in $((SECONDS - start))s"
}

# windows_build is the quick check CI runs: the whole program cross-compiles for
# Windows with cgo (the window included). No icon or metadata: not for users.
windows_build() {
  local start=$SECONDS
  ensure_mingw
  mkdir -p build
  CC="$MINGW_CC" GOOS=windows GOARCH=amd64 CGO_ENABLED=1 \
    "$GO" build -ldflags "-X main.version=$version -H=windowsgui" -o build/notifio.exe .
  echo "Built build/notifio.exe (Windows, version $version) in $((SECONDS - start))s"
}

if [ $# -eq 0 ]; then
  set -- linux windows
fi
for target in "$@"; do
  case "$target" in
  linux) package_linux ;;
  windows) package_windows ;;
  windows-build) windows_build ;;
  *)
    echo "package: unknown target \"$target\" (use linux, windows or windows-build)" >&2
    exit 2
    ;;
  esac
done
