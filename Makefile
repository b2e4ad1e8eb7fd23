# Easel's setup entry point. Two targets do everything on a fresh Debian 12 machine
# that has only the Swift toolchain:
#
#   make demo   install what is missing, build in release mode, export Assets/Samples to PNG
#   make test   install what is missing, build, run the whole test suite
#
# `make deps` alone installs the system packages. It asks dpkg which of them are missing
# and installs only those, so running it twice installs nothing the second time.

SHELL := /bin/bash

# Building: the headers of the C libraries Easel uses (cairo, FreeType, libpng, HarfBuzz, FriBidi,
# libjpeg-turbo, libwebp, libedit, ISA-L), pkg-config to find them, python3 for the checks.
BUILD_PACKAGES := python3 pkg-config libcairo2-dev libfreetype-dev libpng-dev zlib1g-dev \
	libharfbuzz-dev libfribidi-dev libjpeg62-turbo-dev libwebp-dev libedit-dev libisal-dev
# Running: the libraries and the font files the renderer loads by path (see
# Sources/EaselCairo/FontMap.swift), listed once in deploy/runtime-packages.txt, which the
# Dockerfile installs too (a test checks both against `easel doctor`).
RUNTIME_PACKAGES := $(shell sed -e 's/\#.*//' deploy/runtime-packages.txt)
APT_PACKAGES := $(BUILD_PACKAGES) $(RUNTIME_PACKAGES)

# Only the benchmarks need these: rsvg-convert, a peer to compare with; Pango, measured
# against HarfBuzz + FriBidi by `make text-bench`.
BENCH_PACKAGES := librsvg2-bin libpango1.0-dev wrk nginx libjpeg-turbo-progs

# Only the tests need these: pdftoppm rasterises Easel's PDFs to compare them with its PNGs;
# cjpeg (libjpeg-turbo) makes the JPEG photos of the tests and the benchmark.
TEST_PACKAGES := poppler-utils libjpeg-turbo-progs

# The browser tests drive Debian's chromium with Playwright (from PyPI, in a venv here); the
# vector viewers test also draws Easel's SVG with rsvg-convert and resvg (PyPI's resvg-cli, in
# the same venv) and its PDF with pdftoppm.
BROWSER_PACKAGES := chromium python3-venv librsvg2-bin poppler-utils libjpeg-turbo-progs
BROWSER_VENV := .venv-browser

# The scale tests run real engines: a single-node Slurm cluster (slurm-wlm, munge) and nginx
# in front of easel-serve replicas; kubernetes-validate (PyPI, pinned, in a venv) checks
# deploy/kubernetes against the Kubernetes schemas it carries, offline.
SCALE_PACKAGES := slurm-wlm munge nginx python3-venv
SCALE_VENV := .venv-scale
KUBERNETES_VALIDATE := kubernetes-validate==1.37.0

DEMO_OUT ?= out/samples
SWIFT_BUILD_FLAGS ?=
# Release builds link the Swift runtime and Foundation statically, and cairo, FriBidi,
# libjpeg, libwebp and libedit from their archives (the package trait StaticCLibraries):
# a process starts sooner (fewer libraries to load and bind), which is much of a card's export.
RELEASE_FLAGS ?= --static-swift-stdlib --traits StaticCLibraries

# What the formatter and the doc-coverage check look at (the example package by its folders:
# its `Easel` is a link back to this repository).
EXAMPLE := Examples/CardStudio
SWIFT_TREES := Sources Tests Tools Benchmarks Fuzz Snippets Package.swift \
	$(EXAMPLE)/Package.swift $(EXAMPLE)/Sources $(EXAMPLE)/Tests

# The products with a DocC catalog (Sources/<name>/<name>.docc), built by `make docs`.
DOC_TARGETS := EaselGeometry EaselDocuments EaselCairo EaselRender EaselEditing EaselBatch \
	EaselGolden EaselServer EaselGoldenTesting EaselSnapshotTesting

# `make install`: where (PREFIX), and under which staging root (DESTDIR, for packagers).
PREFIX ?= /usr/local
DESTDIR ?=
# swift-argument-parser's man page generator (its generate-manual plugin's tool), built on
# its own from the checkout, so that making the pages does not rebuild this package.
MANUAL_TOOL := .build/generate-manual/debug/generate-manual
# The build `make install-check` (run by `make test`) installs from: the tests' debug build.
INSTALL_CHECK_FROM ?= .build/debug

.PHONY: docs examples serve text-bench demo test lint format doc-coverage bench deps bench-deps browser-test browser-deps test-deps build release clean \
	install uninstall install-check scale-test scale-deps

# Only the easel executable and what it links: not easel-serve's server stack (SwiftNIO, Hummingbird).
demo: deps
	swift build -c release $(RELEASE_FLAGS) $(SWIFT_BUILD_FLAGS) --product easel
	.build/release/easel export Assets/Samples --out $(DEMO_OUT)

test: test-deps lint
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	@# A few seconds of the benchmark, so it cannot rot (no timing is asserted anywhere).
	.build/debug/easel-bench --smoke
	@# In CI, also the fast sanitizer subset (AddressSanitizer, ThreadSanitizer).
	@if [ -n "$${CI:-}" ] && [ "$${CI}" != "false" ]; then Tests/Scripts/sanitizers.sh ci; fi
	swift test --skip-build $(SWIFT_BUILD_FLAGS)
	@$(MAKE) --no-print-directory install-check
	@$(MAKE) --no-print-directory examples
	@$(MAKE) --no-print-directory docs
	@$(MAKE) --no-print-directory browser-test
	@$(MAKE) --no-print-directory scale-test

# The downstream example package (Examples/CardStudio, depending on Easel by path): built and
# tested as a user would. With CI set its goldens are never recorded, so a missing one fails.
examples: deps
	cd $(EXAMPLE) && swift build --build-tests $(SWIFT_BUILD_FLAGS) && swift test --skip-build $(SWIFT_BUILD_FLAGS)

# Every product's DocC catalog, warnings as errors: out/docs/<Product>.doccarchive. (docc
# fails on its own warnings; the grep also fails on any other warning about this package's
# files, and lets SwiftPM's notes about dependencies' unhandled files pass.)
docs: deps
	@mkdir -p out/docs
	@for target in $(DOC_TARGETS); do \
	  echo "docs: $$target"; \
	  swift package --allow-writing-to-directory out/docs generate-documentation --target $$target \
	    --output-path out/docs/$$target.doccarchive --warnings-as-errors >out/docs/$$target.log 2>&1 \
	    || { cat out/docs/$$target.log; exit 1; }; \
	  grep "warning:" out/docs/$$target.log | grep -F "$(CURDIR)/" && exit 1; \
	done; true

# Serves the samples to a browser or curl on http://127.0.0.1:8080 (edits change Assets/Samples;
# `git checkout Assets/Samples` puts them back).
serve: release
	.build/release/easel serve Assets/Samples --host 127.0.0.1 --port 8080

# The golden report and the editor in a real browser (headless chromium), and Easel's SVG and
# PDF in other viewers; screenshots in out/browser.
browser-test: browser-deps
	swift build $(SWIFT_BUILD_FLAGS) --product easel
	swift build $(SWIFT_BUILD_FLAGS) --product easel-serve
	$(BROWSER_VENV)/bin/python Tests/Browser/golden_report_test.py .build/debug/easel out/browser
	$(BROWSER_VENV)/bin/python Tests/Browser/editor_test.py .build/debug/easel out/browser
	$(BROWSER_VENV)/bin/python Tests/Browser/editor_scenarios_test.py .build/debug/easel out/browser
	$(BROWSER_VENV)/bin/python Tests/Browser/editor_phone_test.py .build/debug/easel out/browser
	$(BROWSER_VENV)/bin/python Tests/Browser/editor_busy_server_test.py .build/debug/easel out/browser
	$(BROWSER_VENV)/bin/python Tests/Browser/vector_viewers_test.py .build/debug/easel out/browser

# Many machines on one (about 2 minutes): deploy/slurm/export.sbatch on a real Slurm cluster
# (500 cards, 4 shards, a task killed and requeued, then 2 shards), two easel-serve replicas
# behind deploy/nginx/easel.conf (edits, nginx's cache, events across replicas), and the
# Kubernetes files against the schemas of the oldest Kubernetes they need and the newest.
scale-test: scale-deps
	swift build $(SWIFT_BUILD_FLAGS) --product easel
	swift build $(SWIFT_BUILD_FLAGS) --product easel-serve
	$(SCALE_VENV)/bin/kubernetes-validate --strict --kubernetes-version 1.31.0 deploy/kubernetes/*.yaml
	$(SCALE_VENV)/bin/kubernetes-validate --strict deploy/kubernetes/*.yaml
	rm -rf out/scale && mkdir -p out/scale
	cd Tests/Scale && python3 slurm_export_test.py $(CURDIR)/.build/debug $(CURDIR)/out/scale/slurm
	cd Tests/Scale && python3 replicas_behind_nginx_test.py $(CURDIR)/.build/debug $(CURDIR)/out/scale/replicas

scale-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(SCALE_PACKAGES)"
	@[ -x $(SCALE_VENV)/bin/kubernetes-validate ] \
	  || { python3 -m venv $(SCALE_VENV) && $(SCALE_VENV)/bin/pip install --quiet "$(KUBERNETES_VALIDATE)"; }

test-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) $(TEST_PACKAGES)"

browser-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(BROWSER_PACKAGES)"
	@[ -x $(BROWSER_VENV)/bin/python ] && $(BROWSER_VENV)/bin/python -c "import playwright" 2>/dev/null \
	  || { python3 -m venv $(BROWSER_VENV) && $(BROWSER_VENV)/bin/pip install --quiet playwright; }
	@[ -x $(BROWSER_VENV)/bin/resvg ] || $(BROWSER_VENV)/bin/pip install --quiet resvg-cli

# Fails on code the formatter would change (`make format` fixes it; the rules are in
# .swift-format), on an import a target does not declare (the house's rules), and on
# public API whose doc comments fall under 80 %.
lint:
	swift format lint --strict --recursive --parallel $(SWIFT_TREES)
	python3 Tools/check-imports.py
	python3 Tools/doc-coverage.py --min 80 Sources

format:
	swift format format --in-place --recursive --parallel $(SWIFT_TREES)

doc-coverage:
	python3 Tools/doc-coverage.py --list Sources

bench: deps bench-deps
	@# The products the benchmark runs (the test helpers need XCTest, which is not static).
	for product in easel easel-serve easel-bench easel-cairo-reference; do \
	  swift build -c release $(RELEASE_FLAGS) $(SWIFT_BUILD_FLAGS) --product $$product || exit 1; done
	@mkdir -p out
	.build/release/easel-bench --json out/bench.json

# HarfBuzz + FriBidi against Pango on the same lines and font files (docs/fonts.md).
text-bench: deps bench-deps
	@mkdir -p out
	gcc -O2 -o out/text-shaping-bench Tools/text-shaping-bench/main.c \
	  $$(pkg-config --cflags --libs pangocairo pangofc harfbuzz fribidi fontconfig)
	out/text-shaping-bench

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

# easel and easel-serve (which `easel serve` runs), release builds: what `make install` and
# the Dockerfile install.
release: deps
	for product in easel easel-serve; do \
	  swift build -c release $(RELEASE_FLAGS) $(SWIFT_BUILD_FLAGS) --product $$product || exit 1; done

# easel and easel-serve, their shell completions (bash, zsh, fish) and man pages into
# $(DESTDIR)$(PREFIX); deploy/install.sh lists every file in share/easel/install-manifest.
install: release $(MANUAL_TOOL)
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" deploy/install.sh install .build/release $(MANUAL_TOOL)

# Removes exactly the files `make install` wrote (its manifest's), with the same DESTDIR and PREFIX.
uninstall:
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" deploy/install.sh uninstall

# Installs the tests' build into a temporary DESTDIR, checks every file, uninstalls, and
# checks that nothing is left but a file that was there before.
install-check: $(MANUAL_TOOL)
	Tests/Scripts/install-check.sh $(INSTALL_CHECK_FROM) $(MANUAL_TOOL)

$(MANUAL_TOOL): $(wildcard Package.resolved)
	@[ -d .build/checkouts/swift-argument-parser ] || swift package resolve
	swift build --package-path .build/checkouts/swift-argument-parser --scratch-path .build/generate-manual \
	  --product generate-manual
	@touch $@

# `make print-VARIABLE` prints a variable (DeploymentFilesTests reads APT_PACKAGES).
print-%:
	@echo $($*)

bench-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(BENCH_PACKAGES) python3-venv"
	@# resvg, the strongest peer, from PyPI (resvg-cli) into a venv of its own.
	@[ -x .venv-bench/bin/resvg ] || { python3 -m venv .venv-bench && .venv-bench/bin/pip install --quiet resvg-cli; }

deps:
	@missing=(); \
	for package in $(APT_PACKAGES); do \
	  status=$$(dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null); \
	  [[ "$$status" == *" installed" ]] || missing+=("$$package"); \
	done; \
	if [ $${#missing[@]} -eq 0 ]; then echo "deps: all $(words $(APT_PACKAGES)) system packages present"; exit 0; fi; \
	echo "deps: missing: $${missing[*]}"; \
	if [ "$$(id -u)" -eq 0 ]; then sudo=""; \
	elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; \
	else echo "deps: not root and no sudo; run as root:" >&2; \
	     echo "  apt-get update && apt-get install -y --no-install-recommends $${missing[*]}" >&2; exit 1; fi; \
	export DEBIAN_FRONTEND=noninteractive; \
	$$sudo apt-get update -qq && \
	$$sudo apt-get install -y -qq --no-install-recommends "$${missing[@]}" >/dev/null && \
	echo "deps: installed $${missing[*]}"

clean:
	rm -rf .build out
