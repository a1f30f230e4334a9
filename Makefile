# Notifio: `make run` starts the app, `make test` runs every check CI runs.
# Both install what they need first (Debian/Ubuntu: apt packages, only when missing).
SHELL := /bin/bash
export LANG ?= en_US.UTF-8
GO ?= go
BIN ?= build/notifio
VERSION := $(shell sed -n 's/^Version *= *"\(.*\)"/\1/p' FyneApp.toml)
LDFLAGS := -X main.version=$(VERSION)
# Debian packages the cgo build of the window needs (Fyne v2.8 builds GLFW's Wayland backend too).
APT_PKGS := gcc pkg-config libgl1-mesa-dev xorg-dev libwayland-dev libxkbcommon-dev wayland-protocols
# What `make test` needs besides: a browser for the "Read with a browser" tests (issue 25).
TEST_APT_PKGS := chromium

.PHONY: deps run build test lint bench soak package windows
deps:
	@case "$$(uname -s)" in \
	Linux) \
	  if command -v dpkg >/dev/null; then \
	    missing=""; for p in $(APT_PKGS) $(EXTRA_APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	    if [ -n "$$missing" ]; then \
	      echo "Installing:$$missing"; sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	      $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	    fi; \
	  else echo "Not Debian/Ubuntu: install a C compiler, pkg-config and the OpenGL, X11, Wayland and xkbcommon development headers (see README)."; fi ;; \
	Darwin) xcode-select -p >/dev/null 2>&1 || echo "macOS: run 'xcode-select --install' first (Notifio needs the Xcode command line tools)." ;; \
	*) echo "Windows: install a 64-bit gcc (e.g. MSYS2 mingw-w64-x86_64-gcc) and put it on PATH; see README." ;; \
	esac

build: deps
	CGO_ENABLED=1 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .

run: build
	./$(BIN)

lint:
	@bad=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$bad" ]; then echo "gofmt needed on: $$bad"; exit 1; fi
	$(GO) vet -tags ci ./...
	$(GO) tool staticcheck -tags ci ./...
	@# A function fits on a screen: none over cyclomatic complexity 30 (tests aside).
	@over=$$($(GO) tool gocyclo -over 30 -ignore '_test\.go$$' .); \
	  if [ -n "$$over" ]; then echo "Functions too complex (gocyclo > 30), split them:"; echo "$$over"; exit 1; fi

test: EXTRA_APT_PKGS = $(TEST_APT_PKGS)
test: deps lint
	$(GO) test -race -tags ci -timeout 20m ./...
	CGO_ENABLED=1 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .
	./$(BIN) --version

# Performance figures (issue 7): writes docs/PERFORMANCE.md. Takes about 25 minutes (BENCH_QUICK=1: a short smoke run).
bench: deps
	bash tools/loadsite/bench.sh

# The real window under Xvfb for 10 minutes with 20 searches on a loopback site
# (issue 19): RSS at minute 2 and 10, CPU while ticking and while hidden in the
# tray, for docs/PERFORMANCE.md. About 14 minutes; SOAK_MINUTES shortens it.
soak: build
	bash tools/soak/soak.sh

# Installable bundles in dist/: notifio-$(VERSION)-linux-amd64.tar.xz and
# notifio-$(VERSION)-windows-amd64.exe (fyne package in a throw-away copy; installs
# the pinned fyne command and, when missing, the mingw-w64 cross compiler).
package: deps
	bash .ci/package.sh

# Windows cross-build check (CI runs it after test): build/notifio.exe, not a bundle.
windows:
	bash .ci/package.sh windows-build
