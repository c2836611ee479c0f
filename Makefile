# gifview — an animated-GIF viewer for X11, in Swift.
#   make          release build (.build/release/gifview)
#   make run      show the bundled sample
#   make test     install what is missing, then the whole test suite (starts its own Xvfb),
#                 a check that no Xvfb it started is left, and a 20 s smoke of each fuzz target
#   make test-sanitize  the suite under AddressSanitizer, the concurrency parts under ThreadSanitizer
#   make bench    decode benchmark against Wuffs (../shared/bench/wuffs) and giflib, same run, interleaved
#                 and peak memory playing a 1920x1080x300 GIF of 257 MB against gifsicle's gifview;
#                 scaled 1080p playback, web-animation RSS and still launch (Benchmarks/scaled.sh)
#   make install  PREFIX=/usr/local (or $$HOME/.local), DESTDIR honoured; make uninstall (same PREFIX)

SWIFT      ?= swift
PREFIX     ?= /usr/local
SAMPLE     := Resources/sample.gif
# Debian packages: build (X11, MIT-SHM, libcurl, libpng), tests (Xvfb, openssl, desktop tools; file: how
# xdg-open tells a GIF without a desktop), bench (giflib).
DEB_BUILD  := libx11-dev libxext-dev libcurl4-openssl-dev libpng-dev libxft-dev pkg-config
DEB_TEST   := xvfb x11-xkb-utils openssl desktop-file-utils xdg-utils man-db x11-utils file
DEB_BENCH  := libgif-dev gcc xvfb gifsicle

.PHONY: all build run test test-sanitize bench clean deps deps-bench install uninstall screenshots fuzz

all: build

build: deps
	$(SWIFT) build -c release --product gifview

# Installs missing Debian packages when root; otherwise prints the command to run.
deps:
	@sh .ci/ensure-packages $(DEB_BUILD) $(DEB_TEST)

deps-bench:
	@sh .ci/ensure-packages $(DEB_BUILD) $(DEB_BENCH)

run: build
	@SWIFT='$(SWIFT)' sh .ci/run-sample .build/release/gifview $(SAMPLE)

# The tests append the PID of every Xvfb they start to XVFB_PIDS; none may outlive them.
XVFB_PIDS  := .build/test-xvfb-pids

# The debug build optimised: the conformance corpus runs in seconds, and times the code
# that ships (SwiftPM refuses unsafeFlags in a library that others depend on by version).
TEST_FLAGS ?= -Xswiftc -O

test: deps
	$(SWIFT) build $(TEST_FLAGS) --product gifview
	$(SWIFT) build $(TEST_FLAGS) --product gifview-embed-example
	@rm -f $(XVFB_PIDS)
	@GIFVIEW_XVFB_PIDFILE='$(CURDIR)/$(XVFB_PIDS)' $(SWIFT) test $(TEST_FLAGS); status=$$?; \
	  sh .ci/check-xvfb-left $(XVFB_PIDS) || status=1; exit $$status
	@FUZZ_SECONDS=20 FUZZ_OUT=.build/fuzz-smoke sh Benchmarks/fuzz.sh

# AddressSanitizer: the whole suite, the CLI tests running an ASan gifview; leak reports
# from the toolchain's own XCTest/Foundation are suppressed by name (.ci/lsan.supp), so a
# leak in our code still fails. ThreadSanitizer: the concurrency parts (loader, playback, frame
# cache, event loop, loading in the window) with only the Synchronization.Mutex false
# positive suppressed (.ci/tsan.supp). Own build directories: the normal build stays.
# GIFVIEW_TIME_SCALE stretches the tests' waits for the slower builds; GIFVIEW_SANITIZER
# skips what a sanitizer makes impossible (prlimit --as) or meaningless (timing precision).
# A Swift trap under ASan: ASan prints its stack (handle_sigill); Swift's own backtracer
# is off, as ASan reports its reads of other threads' stacks and hides the trap.
TSAN_TESTS := GIFLoaderTests|GIFPlaybackTests|FrameCacheTests|EventLoopTests|LoaderWindowTests|ClipboardTests|WindowTests

test-sanitize: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	@rm -f $(XVFB_PIDS)
	GIFVIEW_BIN='$(CURDIR)/.build/asan/debug/gifview' GIFVIEW_XVFB_PIDFILE='$(CURDIR)/$(XVFB_PIDS)' GIFVIEW_TIME_SCALE=4 \
	  GIFVIEW_SANITIZER=address SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=handle_sigill=1 \
	  LSAN_OPTIONS='suppressions=$(CURDIR)/.ci/lsan.supp:print_suppressions=0' \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan
	@mkdir -p .build/tsan
	swiftc -sanitize=thread .ci/tsan-mutex-repro.swift -o .build/tsan/mutex-repro
	@TSAN_OPTIONS='suppressions=$(CURDIR)/.ci/tsan.supp:print_suppressions=1:halt_on_error=1' \
	  .build/tsan/mutex-repro 2>&1 | grep -q 'Matched .* suppressions' || \
	  { echo "gifview: error: .ci/tsan.supp no longer matches the Mutex false positive" >&2; exit 1; }
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan
	GIFVIEW_BIN='$(CURDIR)/.build/tsan/debug/gifview' GIFVIEW_XVFB_PIDFILE='$(CURDIR)/$(XVFB_PIDS)' GIFVIEW_TIME_SCALE=4 \
	  GIFVIEW_SANITIZER=thread \
	  TSAN_OPTIONS='suppressions=$(CURDIR)/.ci/tsan.supp:halt_on_error=1' \
	  $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/tsan --filter '$(TSAN_TESTS)'
	@sh .ci/check-xvfb-left $(XVFB_PIDS)

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

# libFuzzer + AddressSanitizer on the decoder, the cache-metadata parser and the
# compositor + window scaler (FUZZ_SECONDS per target, default 120; FUZZ_TARGETS to pick);
# crashes land in .build/fuzz/TARGET/crashes.
fuzz:
	@sh Benchmarks/fuzz.sh
