# Omission. `make run` builds and serves the visualiser; `make test` runs every test.
GO        ?= go
ADDR      ?= 127.0.0.1:8000
PREFIX    ?=
Q         ?=
GOROOT    := $(shell $(GO) env GOROOT)
WASM_EXEC := $(firstword $(wildcard $(GOROOT)/lib/wasm/wasm_exec.js $(GOROOT)/misc/wasm/wasm_exec.js))
WASM_RUN  := $(firstword $(wildcard $(GOROOT)/lib/wasm/go_js_wasm_exec $(GOROOT)/misc/wasm/go_js_wasm_exec))
# The rival benchmark (make bench, when RIVAL_GIT_DIR names the rival's git
# directory): its scripts and its scratch directory. The scratch directory
# lies outside this checkout: run in a subdirectory of a git work tree, the
# setup's `git apply` of the rival's offline-fonts patch reads its paths
# from the work tree's root and skips them without a word, and the rival's
# build then fails fetching Google Fonts.
RIVALBENCH ?= ../shared/bench/rivalbench
RIVAL_WORK ?= $(or $(TMPDIR),/tmp)/omission-rivalbench
CHROMIUM  ?= $(firstword $(shell command -v chromium chromium-browser google-chrome 2>/dev/null))
# -s leaves out the wasm name section (Go function names for the browser's
# profiler, 0.27 MB raw): make wasm WASM_LDFLAGS= keeps it.
WASM_LDFLAGS ?= -s
# No inlining: 0.28 MB less of app.wasm after gzip. The simulator inlined
# until app.wasm passed its budget with issues 24, 25 and 27 (36 kB gzip):
# natively its benchmarks do not move without it; in the browser the fast
# paths stay within noise and the long path (BenchmarkLong) takes some 20 %
# longer (15 to 18 ms for a day at 10 M/s), which make bench shows because
# its wasm benchmarks build with these flags too. The charts' time is
# gonum's. make wasm WASM_GCFLAGS= inlines everywhere.
WASM_GCFLAGS ?= -gcflags=all=-l
WASM_TAGS ?= minimal
# fit.wasm inlines everywhere: 0.1 MB more after gzip, a third faster (the
# bench .hgrm's fit in Chromium: 1.7 s against 2.5 s), and it is fetched
# only when the reader gives the page a file to fit.
FIT_GCFLAGS ?=
# fontTools for make fonts: Debian's python3-fonttools lives in /usr/bin/python3.
FONT_PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)

# The real load generators: Debian's wrk, hey, python3-locust and apache2-utils
# (ab) when root and missing; vegeta and fortio into .tools/bin; wrk2 from
# WRK2_GIT_DIR when set (see app/experiment/tools/install.sh).
WRK2_GIT_DIR ?=

.PHONY: tools site-size run wasm static fonts test test-long test-native test-truth test-large test-experiment test-built test-wasm test-browser bench report deps-test fmt-check vet clean

## run: build app.wasm and the site, serve it on $(ADDR) and print the address
run: wasm
	$(GO) run ./app serve -addr $(ADDR)

## wasm: refresh wasm_exec.js from this toolchain and build web/app.wasm
## (the page, and its simulation worker: without go-app's server and
## go-latex's Go fonts, app/internal/wasmbuild) and web/fit.wasm, the fit
## the page loads on demand (app/internal/fitwasm)
wasm:
	@test -n "$(WASM_EXEC)" || { echo "wasm_exec.js not found in $(GOROOT): install a complete Go toolchain"; exit 1; }
	cp $(WASM_EXEC) wasm_exec.js
	$(GO) run ./app/internal/wasmbuild -go "$(GO)" -- -trimpath -tags $(WASM_TAGS) -ldflags="$(WASM_LDFLAGS)" $(WASM_GCFLAGS) -o web/app.wasm ./app
	$(GO) run ./app/internal/wasmbuild -go "$(GO)" -- -trimpath -ldflags="$(WASM_LDFLAGS)" $(FIT_GCFLAGS) -o web/fit.wasm ./app/internal/fitwasm

## static: write the static site into static/ (PREFIX=/sub/path to serve it under a sub-path)
static: wasm
	$(GO) run ./app static -prefix "$(PREFIX)"

## fonts: rewrite the subset fonts gonum measures chart text with (needs Debian's python3-fonttools)
fonts:
	$(FONT_PYTHON) app/charts/fonts/liberation/subset.py

## report: print the report of a query, e.g. make report Q='preset=tcp'
report:
	$(GO) run ./app report "$(Q)"

deps-test:
	@command -v node >/dev/null || { echo "node is missing: the wasm tests run under Go's Node runner. Install it: apt-get install nodejs"; exit 1; }
	@test -n "$(CHROMIUM)" || { echo "chromium is missing: the browser tests need it. Install it: apt-get install chromium"; exit 1; }
	@command -v python3 >/dev/null || { echo "python3 is missing: the static-site test serves the site with python3 -m http.server. Install it: apt-get install python3"; exit 1; }
	@command -v "$$($(GO) env CC)" >/dev/null || { echo "a C compiler is missing: go test -race needs cgo. Install it: apt-get install gcc"; exit 1; }

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); test -z "$$out" || { echo "gofmt needed: $$out"; exit 1; }

vet:
	@$(GO) mod tidy -diff >/dev/null || { echo "go.mod or go.sum is not tidy: run go mod tidy (go mod tidy -diff shows what changes)"; exit 1; }
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./sim/... ./app/...

## test: go mod tidy -diff, vet, native tests, the short loopback experiment, wasm build, its size and the built site served compressed, sim under js/wasm, browser tests in headless Chromium (within 10 minutes on 2 cores; the long suites are make test-long's)
test: deps-test fmt-check vet test-native test-truth test-experiment wasm test-built test-wasm test-browser

# The packages whose code or tests run goroutines (the site's server and
# handlers, the workers, the page's timers, the experiment's clients): the
# race detector runs on them. The others are single-goroutine, where it
# finds nothing and slows every test about tenfold; they run without it,
# with -short (the long truths, skipped there as under the race detector,
# are test-truth's and test-long's).
RACE_PKGS = omission/app omission/app/browser omission/app/cli omission/app/site omission/app/ui omission/app/compute omission/app/worker omission/app/page omission/app/experiment

## test-native: every package's tests natively, RACE_PKGS with the race detector
test-native:
	$(GO) test -race -count=1 $(RACE_PKGS)
	# app/page's query fuzz computes in one goroutine: it skips under -race
	$(GO) test -count=1 -run FuzzQueryToCharts ./app/page
	$(GO) test -short -count=1 $(filter-out $(RACE_PKGS),$(shell $(GO) list ./...))

## test-truth: the fit's truth about cut files and unknown rates (every prefix of 30 printouts, .hlogs with intervals removed, random rates) and report -fit's goldens, without the race detector, which slows them tenfold (test-native skips them)
test-truth:
	$(GO) test -count=1 -run 'TestCutPrintouts|TestHlogGap|TestRateUnknown|TestPacedAtRate|TestReportFit' ./app/fit ./app/cli

## test-large: the largest runs each engine allows, the fit's 200-query round trip and its stall-count search held to every count, without the race detector (it slows them tenfold)
test-large:
	$(GO) test -count=1 -run 'LargestRuns' ./app
	$(GO) test -count=1 -run 'TestRoundTrip|TestStallCountDescent' ./app/fit

## test-built: app.wasm within its gzip budget, the built site served compressed, and the toolchain's wasm_exec.js shipped
test-built: wasm
	OMISSION_WASM=1 $(GO) test -count=1 -run 'TestWasmSize|TestBuiltSite|TestWasmExecShipped' -v ./app/browser

## test-experiment: the short real experiment on loopback (about 3 s), alone and
## without -race: other tests running beside it would take its processors
test-experiment:
	$(GO) test -count=1 -run 'TestShortExperiment' ./app/experiment

test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASM_RUN)" ./sim/...

## test-browser: the smoke set of the browser tests in headless Chromium (about 4 minutes; make test-long runs them all)
test-browser: wasm
	OMISSION_BROWSER=1 CHROMIUM="$(CHROMIUM)" $(GO) test -count=1 -timeout 15m -run Browser ./app/browser

## test-long: the largest runs, the fit's 200-query round trip, every tool's printed command run by the real tool where installed, and the whole browser suite (about 12 minutes: every test, both themes, both site prefixes, the fuzz with an edit and a reload after every query; make test runs a smoke set of it)
test-long: test-large wasm
	# every tool's printed command, run as printed where the tool is installed (make tools)
	$(GO) test -count=1 -run TestCommandsRun -v ./app/tools
	OMISSION_BROWSER=1 OMISSION_BROWSER_LONG=1 CHROMIUM="$(CHROMIUM)" $(GO) test -count=1 -timeout 40m -run Browser ./app/browser

## tools: install the real load generators experiment -with runs (app/experiment/tools/install.sh)
tools:
	@WRK2_GIT_DIR="$(WRK2_GIT_DIR)" GO="$(GO)" sh app/experiment/tools/install.sh

## bench: print BENCH <name> <value> <unit> lines
bench: wasm tools
	@$(GO) test -run '^$$' -bench . -benchtime 2s ./sim/... ./app/... | awk -v where=native -f bench.awk
	@GOOS=js GOARCH=wasm $(GO) test $(WASM_GCFLAGS) -exec="$(WASM_RUN)" -run '^$$' -bench 'Sim|Engine|Long|Sweep' -benchtime 2s ./sim/... | awk -v where=wasm -f bench.awk
	@GOOS=js GOARCH=wasm $(GO) test $(WASM_GCFLAGS) -exec="$(WASM_RUN)" -run '^$$' -bench 'Parse' -benchtime 2x ./app/measure | awk -v where=wasm -f bench.awk
	@GOOS=js GOARCH=wasm $(GO) test $(FIT_GCFLAGS) -exec="$(WASM_RUN)" -run '^$$' -bench 'Fit' -benchtime 2x ./app/fit | awk -v where=wasm -f bench.awk
	@$(MAKE) -s site-size
	@OMISSION_BROWSER=1 OMISSION_BENCH=1 CHROMIUM="$(CHROMIUM)" $(GO) test -count=1 -timeout 40m -run 'BrowserBench|Lighthouse' -v ./app/browser | grep '^BENCH' || true
	@# The rival's setup clones this checkout's HEAD only where no clone is
	@# left from an earlier run, and never updates one: the old clone goes
	@# first, or an earlier commit is measured.
	@if [ -n "$(RIVAL_GIT_DIR)" ] && [ -x "$(RIVALBENCH)/run.sh" ]; then \
		rm -rf "$(RIVAL_WORK)/omission"; \
		WORK="$(RIVAL_WORK)" OMISSION_SRC="$(CURDIR)" RIVAL_GIT_DIR="$(RIVAL_GIT_DIR)" "$(RIVALBENCH)/run.sh" > "$(RIVAL_WORK).log" 2>&1 \
			&& $(GO) run ./app/internal/rivalratio "$(RIVAL_WORK)/results.json" \
			|| echo "bench: the rival benchmark failed: see $(RIVAL_WORK).log"; \
	else \
		echo "bench: the rival is skipped: set RIVAL_GIT_DIR to a git directory of github.com/telemetry-sh/coordinated-omission-lab (fetch it) and RIVALBENCH to the rivalbench scripts (now $(RIVALBENCH))"; \
	fi
	@OMISSION_EXPERIMENT=1 $(GO) test -count=1 -timeout 10m -run 'TestExperimentBench|TestPredictWrk|TestFortioRoundTrip' -v ./app/experiment | grep '^BENCH' || true
	@OMISSION_EXPERIMENT=1 OMISSION_PREDICT_DRAWN=4 $(GO) test -count=1 -timeout 40m -run 'TestPredictTools' -v ./app/experiment | grep '^BENCH' || true
	@OMISSION_EXPERIMENT=1 $(GO) test -count=1 -timeout 10m -run 'TestFitReal' -v ./app/experiment | grep '^BENCH' || true

clean:
	rm -rf static web/app.wasm web/fit.wasm test-output

## site-size: the size of what the static site ships, and each program's code by package
site-size: wasm
	@printf 'BENCH site.app_wasm.raw %s bytes\n' $$(wc -c < web/app.wasm)
	@printf 'BENCH site.app_wasm.gzip %s bytes\n' $$(gzip -9 -c web/app.wasm | wc -c)
	@printf 'BENCH site.fit_wasm.raw %s bytes\n' $$(wc -c < web/fit.wasm)
	@printf 'BENCH site.fit_wasm.gzip %s bytes\n' $$(gzip -9 -c web/fit.wasm | wc -c)
	@d=$$(mktemp -d) && $(GO) run ./app static -out $$d/site >/dev/null && \
		printf 'BENCH site.app_wasm.brotli %s bytes\n' $$(wc -c < $$d/site/web/app.wasm.br) && \
		printf 'BENCH site.total %s bytes\n' $$(du -sb --exclude='*.br' --exclude='*.gz' $$d/site | cut -f1) && \
		printf 'BENCH site.total.brotli %s bytes\n' $$(cd $$d/site && find . -type f ! -name '*.br' ! -name '*.gz' | while read f; do if [ -f "$$f.br" ]; then wc -c < "$$f.br"; else wc -c < "$$f"; fi; done | awk '{s+=$$1} END {print s}') && \
		rm -rf $$d
	@# Code by package (the name section, which make wasm strips: built again with it)
	@d=$$(mktemp -d) && \
		$(GO) run ./app/internal/wasmbuild -go "$(GO)" -- -trimpath -tags $(WASM_TAGS) -ldflags= $(WASM_GCFLAGS) -o $$d/app.wasm ./app >/dev/null 2>&1 && \
		$(GO) run ./app/internal/wasmsize -bench app_wasm -top 15 $$d/app.wasm; \
		rm -rf $$d
