# Omission. `make run` builds and serves the visualiser; `make test` runs every test.
GO        ?= go
ADDR      ?= 127.0.0.1:8000
PREFIX    ?=
Q         ?=
GOROOT    := $(shell $(GO) env GOROOT)
WASM_EXEC := $(firstword $(wildcard $(GOROOT)/lib/wasm/wasm_exec.js $(GOROOT)/misc/wasm/wasm_exec.js))
WASM_RUN  := $(firstword $(wildcard $(GOROOT)/lib/wasm/go_js_wasm_exec $(GOROOT)/misc/wasm/go_js_wasm_exec))
CHROMIUM  ?= $(firstword $(shell command -v chromium chromium-browser google-chrome 2>/dev/null))

.PHONY: site-size run wasm static test test-native test-large test-wasm test-browser bench report deps-test fmt-check vet clean

## run: build app.wasm and the site, serve it on $(ADDR) and print the address
run: wasm
	$(GO) run ./app serve -addr $(ADDR)

## wasm: refresh wasm_exec.js from this toolchain and build web/app.wasm
wasm:
	@test -n "$(WASM_EXEC)" || { echo "wasm_exec.js not found in $(GOROOT): install a complete Go toolchain"; exit 1; }
	cp $(WASM_EXEC) wasm_exec.js
	GOOS=js GOARCH=wasm $(GO) build -trimpath -tags minimal -o web/app.wasm ./app

## static: write the static site into static/ (PREFIX=/sub/path to serve it under a sub-path)
static: wasm
	$(GO) run ./app static -prefix "$(PREFIX)"

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
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./sim ./app/...

## test: vet, native tests, wasm build, sim under js/wasm, browser tests in headless Chromium
test: deps-test fmt-check vet test-native test-large wasm test-wasm test-browser

test-native:
	$(GO) test -race -count=1 ./...

## test-large: the largest runs each engine allows, without the race detector (it slows them tenfold)
test-large:
	$(GO) test -count=1 -run 'LargestRuns' ./app

test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASM_RUN)" ./sim

test-browser: wasm
	OMISSION_BROWSER=1 CHROMIUM="$(CHROMIUM)" $(GO) test -count=1 -timeout 15m -run Browser ./app

## bench: print BENCH <name> <value> <unit> lines
bench: wasm
	@$(GO) test -run '^$$' -bench . -benchtime 2s ./sim ./app/... | awk -v where=native -f bench.awk
	@GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_RUN)" -run '^$$' -bench 'Sim|Engine' -benchtime 2s ./sim | awk -v where=wasm -f bench.awk
	@$(MAKE) -s site-size
	@OMISSION_BROWSER=1 OMISSION_BENCH=1 CHROMIUM="$(CHROMIUM)" $(GO) test -count=1 -timeout 15m -run 'BrowserBench' -v ./app | grep '^BENCH' || true

clean:
	rm -rf static web/app.wasm test-output

## site-size: the size of what the static site ships
site-size: wasm
	@printf 'BENCH site.app_wasm.raw %s bytes\n' $$(wc -c < web/app.wasm)
	@printf 'BENCH site.app_wasm.gzip %s bytes\n' $$(gzip -9 -c web/app.wasm | wc -c)
	@d=$$(mktemp -d) && $(GO) run ./app static -out $$d/site >/dev/null && printf 'BENCH site.total %s bytes\n' $$(du -sb $$d/site | cut -f1) && rm -rf $$d
