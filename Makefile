# neffscope — build, serve, test. Every target works on a fresh machine with Go 1.26
# (.ci/run installs Chromium for the browser tests).

GO       ?= go
ADDR     ?= 127.0.0.1:8080
GOROOT   := $(shell $(GO) env GOROOT)
WASM_ENV := GOOS=js GOARCH=wasm
# go_js_wasm_exec (runs GOOS=js tests under Node) lives here.
WASM_PATH := $(GOROOT)/lib/wasm:$(PATH)
# Packages the wasm build compiles without inlining: code that builds a document once per
# open (and doc, whose small constructors were inlined at thousands of call sites). It costs
# no measurable speed there and saves ~72 KB of the brotli'd wasm (README "Size"). The hot
# paths (isa, pwp, neff, jsonspan, the hashes, inflate) keep it.
WASM_NOINLINE := core/manifest core/ncfw core/inspect core/doc wasm
# The IndexedDB library's packages run a few calls per open, and msgp's runtime encodes one
# Document per open: no inlining there either (−2.4 KB and −5.2 KB brotli).
WASM_NOINLINE_DEPS := github.com/hack-pad/... github.com/tinylib/msgp/...
WASM_GCFLAGS  := $(foreach p,$(WASM_NOINLINE),-gcflags=github.com/neffscope/neffscope/$(p)=-l) $(foreach p,$(WASM_NOINLINE_DEPS),-gcflags=$(p)=-l)
WASM_BUILD    := -trimpath $(WASM_GCFLAGS)

.PHONY: all wasm wasm-size serve dist test test-core test-wasm test-browser bench fuzz generate vet clean

all: wasm

## wasm: the core compiled to WebAssembly, with the wasm_exec.js of the same Go, its data
## segments merged so it compresses better (scripts/wasmpack), and precompressed copies the
## dev server hands to browsers that accept them.
wasm:
	cp "$(GOROOT)/lib/wasm/wasm_exec.js" www/wasm_exec.js
	$(WASM_ENV) $(GO) build $(WASM_BUILD) -ldflags='-s -w' -o www/neffscope.wasm ./wasm
	$(GO) run ./scripts/wasmpack www/neffscope.wasm
	$(GO) run ./scripts/compress www/neffscope.wasm

## wasm-size: where the bytes of the wasm go (sizes, code by package, the data section);
## ARGS='-func core/pwp' lists a package's biggest functions, ARGS=-md prints markdown.
wasm-size: wasm
	$(GO) run ./scripts/wasmsize -build "$(WASM_BUILD)" $(ARGS) www/neffscope.wasm

## serve: build and serve the page on http://$(ADDR)
serve: wasm
	$(GO) run ./scripts/devserver -addr $(ADDR) -dir www

## dist: dist/site/ (the static site) and dist/neffscope.html (one self-contained file)
dist: wasm
	rm -rf dist && mkdir -p dist
	$(GO) run ./scripts/bundle -www www -site dist/site -single dist/neffscope.html

## generate: msgp's codec of the Document (core/doc/doc_gen.go) and the page's view of the
## worker protocol (www/src/core/methods.gen.js, from wasm/protocol); tests fail when stale.
generate:
	$(GO) generate ./...

vet:
	$(GO) vet ./...
	$(WASM_ENV) $(GO) vet ./wasm/... ./core/...

## test: every test — the core natively (real files where ../shared/testdata-real exists),
## the wasm bridge under Node, and the page in headless Chromium.
test: vet test-core test-wasm test-browser

test-core:
	$(GO) test ./core/... ./cmd/... ./scripts/... ./wasm/protocol/...

test-wasm:
	PATH="$(WASM_PATH)" $(WASM_ENV) $(GO) test $(WASM_GCFLAGS) ./wasm/... ./core/doc/... ./core/jsonspan/... ./core/neff/... ./core/inspect/...

test-browser: dist
	$(GO) test -count=1 ./e2e/...

## bench: speed and memory figures (README "Measured" quotes them): core benchmarks, the
## 256 MiB NEFF against gzip|tar, the wasm open under Node, and the page in Chromium.
BENCH_CORE := OpenSmall|Disassemble|RowsScreen|EvaluateExp|Sample4096|EmitNear1MiB|ResolveReal|DecodeRealSet
bench: dist
	$(GO) test -run '^$$' -bench '^Benchmark($(BENCH_CORE))$$' -benchmem ./core/...
	$(GO) run ./scripts/benchneff
	PATH="$(WASM_PATH)" $(WASM_ENV) $(GO) test $(WASM_GCFLAGS) -run '^$$' -bench . ./wasm/
	PATH="$(WASM_PATH)" $(WASM_ENV) $(GO) test -run '^$$' -bench '^BenchmarkEvaluateExp$$' ./core/pwp/
	$(GO) test -run '^$$' -bench 'Page|ListingFirstScreen|PlotRedraw' -benchtime 3x ./e2e/
	@ls -l www/neffscope.wasm www/neffscope.wasm.gz www/neffscope.wasm.br dist/neffscope.html | awk '{print $$5, $$9}'

## fuzz: a short run of every fuzz target (FUZZTIME=30s each by default)
FUZZTIME ?= 30s
fuzz:
	@for pkg in $$($(GO) list ./core/...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf dist www/neffscope.wasm www/neffscope.wasm.gz www/neffscope.wasm.br www/wasm_exec.js
