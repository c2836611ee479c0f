# gifview — an animated-GIF viewer for X11, in Swift.
#   make          release build (.build/release/gifview)
#   make run      show the bundled sample
#   make test     install what is missing, then the whole test suite (starts its own Xvfb)
#   make bench    decode benchmark against Wuffs (../shared/bench/wuffs) and giflib, same run, interleaved
#   make install  PREFIX=/usr/local (or $$HOME/.local), DESTDIR honoured; make uninstall (same PREFIX)

SWIFT      ?= swift
PREFIX     ?= /usr/local
SAMPLE     := Resources/sample.gif
# Debian packages: build (X11, MIT-SHM, libcurl), tests (Xvfb, openssl, desktop tools; file: how
# xdg-open tells a GIF without a desktop), bench (giflib).
DEB_BUILD  := libx11-dev libxext-dev libcurl4-openssl-dev pkg-config
DEB_TEST   := xvfb openssl desktop-file-utils xdg-utils man-db x11-utils file
DEB_BENCH  := libgif-dev gcc

.PHONY: all build run test bench clean deps deps-bench install uninstall screenshots fuzz

all: build

build: deps
	$(SWIFT) build -c release --product gifview

# Installs missing Debian packages when root; otherwise prints the command to run.
deps:
	@sh .ci/ensure-packages $(DEB_BUILD) $(DEB_TEST)

deps-bench:
	@sh .ci/ensure-packages $(DEB_BUILD) $(DEB_BENCH)

run: build
	@sh .ci/run-sample .build/release/gifview $(SAMPLE)

test: deps
	$(SWIFT) build --product gifview
	$(SWIFT) test

bench: deps-bench
	@sh Benchmarks/run.sh

clean:
	rm -rf .build

# Release build with the Swift runtime linked in, installed under $(DESTDIR)$(PREFIX) with a
# manifest (share/gifview/install-manifest.txt) that uninstall reads; see .ci/install.sh.
# NO_MIME_DEFAULT=1 leaves the image/gif default alone; INSTALL_BUILD_FLAGS adds swift build flags.
install:
	@PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)' NO_MIME_DEFAULT='$(NO_MIME_DEFAULT)' SWIFT='$(SWIFT)' \
	  INSTALL_BUILD_FLAGS='$(INSTALL_BUILD_FLAGS)' DEB_BUILD='$(DEB_BUILD)' sh .ci/install.sh

uninstall:
	@PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)' sh .ci/uninstall.sh

# README pictures, made by gifview itself under Xvfb (Resources/screenshots/*.png).
screenshots: deps
	@sh .ci/screenshots.sh

# libFuzzer + AddressSanitizer on the decoder (FUZZ_SECONDS, default 120); crashes land
# in .build/fuzz/crashes.
fuzz:
	@sh Benchmarks/fuzz.sh
