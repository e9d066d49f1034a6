# storyreel: two commands set up a fresh Debian machine: `make demo` and `make test`.
PREFIX ?= /usr/local
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := .build/release/storyreel
# The fuzzer (scripts/fuzz.py, Debian's python3, standard library only): `make fuzz` runs
# FUZZ_COUNT inputs of seed FUZZ_SEED against the release binary (or $STORYREEL_BIN when set);
# `make test` runs the first FUZZ_SLICE of the same inputs against the static release binary.
FUZZ := /usr/bin/python3 scripts/fuzz.py
FUZZ_COUNT ?= 2000
FUZZ_SEED ?= 1
FUZZ_SLICE ?= 200

# The player page's browser tests (scripts/player_test.py): Debian's chromium, driven headless by
# Debian's python3-selenium through Debian's chromedriver (by path: nothing downloads a browser),
# two browsers at once (each test mostly waits on a playing page).
PLAYER_TEST := /usr/bin/python3 scripts/player_test.py --jobs 2

# Build: FFmpeg 5.1 libraries (libavformat, libavcodec, libswscale, libavutil).
# Tests and benches: the ffmpeg CLI, mediainfo, ffmpegthumbnailer,
# hyperfine, a JSON Schema validator, chromium with its driver for the player page, strace
# (a test holds a run at one system call to race it there), and faketime (tests set the wall
# clock back or ahead under a run).
# The tool itself needs only the libraries at run time.
DEB_PACKAGES := pkg-config libavformat-dev libavcodec-dev libswscale-dev libavutil-dev \
	ffmpeg mediainfo ffmpegthumbnailer hyperfine python3 python3-jsonschema time \
	chromium chromium-driver python3-selenium strace faketime
# Deployment checks: readelf (binutils) for the static binary, python3-yaml for the CI examples.
DEB_PACKAGES += binutils python3-yaml

.PHONY: deps build test test-build test-swift test-rest kit-check fuzz demo bench samples install clean lint
.PHONY: static check-deploy check-ci-examples check-runtime-image check-docs

# The installed binary links the Swift runtime and Foundation in (--static-swift-stdlib), so it runs
# without the toolchain (RUNPATH is only $ORIGIN). It is a full release build of its own, in its
# own folder, so the tests' build is left as it is.
STATIC_BIN := .build/static/release/storyreel

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "deps: installing$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "deps: all Debian packages present"; fi

build: deps
	$(SWIFT) build -c release --product storyreel

# The tests drive a release binary: without -Ounchecked a debug build's renderer is unoptimised,
# and the render tests' transitions took minutes. They drive the one `make install` installs (the
# static build, which check-deploy checks too), so `make test` makes one release build, not two.
# The static build is mostly one thread, so the tests' debug build runs beside it (-j2): 194 s
# together against 217 s one after the other. Then the Swift tests run beside the rest (-j2): they
# keep about 1.8 of the 2 cores busy and the browser tests about 1.3 (Chromium playing the pages
# while the test scripts wait), so side by side they share the idle time (375 s against 412 s one
# after the other). The Swift tests, the longer side, run at a lower priority, so a playing page
# is not kept waiting. Each side's output is printed whole when it ends (--output-sync).
# The tests' debug build keeps line tables (a crash's backtrace still has its lines) but not full
# debug info: 266 s of CPU against 301 s with full -g, the first phase's two builds being CPU-bound
# (measured alone on a clean clone; -gnone saved only 9 s more). `swift test` without make builds
# with full debug info, as usual.
TEST_BUILD_FLAGS := -Xswiftc -gline-tables-only

test:
	$(MAKE) --no-print-directory -j2 static test-build
	$(MAKE) --no-print-directory -j2 --output-sync=recurse test-swift test-rest

# Some suites run on the other side, after the browser tests, beside the rest of the Swift tests:
# the lock-wait suite, whose waits each held one of the Swift tests' two test threads, and the
# renderer's, StoryreelKit's and the media layer's, which run in the test process (305 tests,
# about two minutes of CPU). The Swift
# tests alone keep about 1.8 of the 2 cores busy (each test thread waits on the processes it
# starts), and these fill the rest. They run from the test binary itself, as `swift test` does:
# a second `swift test` would wait for the first one's lock on .build.
OTHER_SIDE_SUITES := BundleLockWaitTests|^CubeRenderTests\.|^StoryreelKitTests\.|^StoryMediaTests\.
TEST_BINARY := .build/debug/storyreelPackageTests.xctest

test-swift:
	STORYREEL_BIN=$(CURDIR)/$(STATIC_BIN) nice -n 5 $(SWIFT) test --skip-build --parallel --num-workers 2 \
		--skip '$(OTHER_SIDE_SUITES)'

test-rest:
	STORYREEL_BIN=$(CURDIR)/$(STATIC_BIN) $(PLAYER_TEST)
	$(FUZZ) --bin $(CURDIR)/$(STATIC_BIN) --count $(FUZZ_SLICE) --seed $(FUZZ_SEED)
	SWIFT=$(SWIFT) bash scripts/kit-check.sh
	$(MAKE) --no-print-directory check-ci-examples check-deploy check-docs
	STORYREEL_BIN=$(CURDIR)/$(STATIC_BIN) NO_COLOR=1 $(TEST_BINARY) --testing-library swift-testing \
		--filter '$(OTHER_SIDE_SUITES)'

test-build: deps
	$(SWIFT) build --build-tests $(TEST_BUILD_FLAGS)

# An app's view of the StoryreelKit library: a scratch package depending on this one by path
# builds only that product, without pkg-config or FFmpeg (scripts/kit-check.sh).
kit-check:
	SWIFT=$(SWIFT) bash scripts/kit-check.sh

fuzz: $(if $(STORYREEL_BIN),deps,build)
	$(FUZZ) --bin $(or $(STORYREEL_BIN),$(CURDIR)/$(BIN)) --count $(FUZZ_COUNT) --seed $(FUZZ_SEED)

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

demo: build
	STORYREEL_BIN=$(BIN) bash scripts/demo.sh

# The benches time the binary `make install` installs (static Swift runtime, as the container image
# ships it); the cube bench also runs .build/release/storyreel (dynamic runtime) as context.
bench: build static
	$(SWIFT) build -c release --product storyreel-bench
	STORYREEL_BIN=$(CURDIR)/$(STATIC_BIN) STORYREEL_DYNAMIC_BIN=$(CURDIR)/$(BIN) bash bench/run.sh

samples:
	bash samples/make-samples.sh

static: deps
	$(SWIFT) build -c release --product storyreel --static-swift-stdlib --scratch-path .build/static

install: static
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(STATIC_BIN) $(DESTDIR)$(PREFIX)/bin/storyreel

# `make check-deploy` alone checks the static binary in .build/static, building it when there is
# none; `make test` and `make static` bring it up to date first.
$(STATIC_BIN):
	$(MAKE) --no-print-directory static

# The static binary runs without the toolchain, and the Dockerfile's runtime stage installs exactly
# the Debian packages of the libraries it links or loads (no Docker daemon needed).
check-deploy: $(STATIC_BIN)
	/usr/bin/python3 scripts/check-deploy.py $(STATIC_BIN)

# The Dockerfile's runtime stage without a Docker daemon: a debootstrapped bookworm minbase root
# with exactly its packages runs the static binary as its user on the samples. Needs root and a
# Debian mirror (about a minute and 480 MB the first time, in build/runtime-root); not in `make test`.
check-runtime-image: $(STATIC_BIN)
	@command -v debootstrap >/dev/null || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends debootstrap; }
	$(SUDO) /usr/bin/python3 scripts/check-runtime-image.py $(STATIC_BIN)

# The GitHub Actions workflow parses as YAML, is the one docs/bundles.md shows, builds storyreel
# before it runs it and caches .build; the Kubernetes Job there runs the Dockerfile's image.
check-ci-examples:
	/usr/bin/python3 scripts/check-ci-examples.py

# README.md is the guide and docs/*.md the reference: every relative link between them leads to a
# file, and a #anchor to a heading of that file (GitHub's slugs). Debian's python3, standard library.
check-docs:
	/usr/bin/python3 scripts/check-docs.py

clean:
	rm -rf .build build
