# neffscope — build, serve, test. Every target works on a fresh machine with Go 1.26
# (.ci/run installs Chromium for the browser tests).

GO       ?= go
ADDR     ?= 127.0.0.1:8080
GOROOT   := $(shell $(GO) env GOROOT)
WASM_ENV := GOOS=js GOARCH=wasm
# go_js_wasm_exec (runs GOOS=js tests under Node) lives here.
WASM_PATH := $(GOROOT)/lib/wasm:$(PATH)
# The wasm build compiles with inlining except in the Go runtime (its inline trees are most of
# the pc-value tables) and the libraries that format output once per open, where inlining
# bought no measured speed: docs/performance.md "Inlining in the wasm" has the measurements.
WASM_NOT_INLINED := runtime reflect fmt encoding/json github.com/tinylib/msgp/msgp time
WASM_GCFLAGS  := $(foreach p,$(WASM_NOT_INLINED),-gcflags=$(p)=-l)
WASM_FLAGS    := $(WASM_GCFLAGS)
WASM_BUILD    := -trimpath $(WASM_FLAGS)
# The build scripts run with -trimpath: their build no longer depends on where the clone is,
# so a fresh clone finds them in the Go build cache a clone elsewhere filled.
RUN := $(GO) run -trimpath

.PHONY: all js wasm wasm-size serve dist release test test-alone test-short test-core test-wasm test-js test-browser typecheck bench fuzz hostile generate vet clean

all: wasm

## js: the page's ES modules (www/src/) bundled into the classic scripts www/app.js and
## www/worker.js with esbuild's Go API (scripts/jsbuild; no Node step).
js:
	$(RUN) ./scripts/jsbuild -www www

## wasm: the core compiled to WebAssembly, with the wasm_exec.js of the same Go, its data
## segments merged so it compresses better (scripts/wasmpack), and precompressed copies the
## dev server hands to browsers that accept them (quickly made: make dist ships the smallest). The worker warms up on www/warm/ (the
## repository's real matmul_small.neff with its LICENSE and NOTICE; core-host.js says why).
wasm: js
	cp "$(GOROOT)/lib/wasm/wasm_exec.js" www/wasm_exec.js
	mkdir -p www/warm && cp testdata/real/nkipy/matmul_small.neff testdata/real/nkipy/LICENSE testdata/real/nkipy/NOTICE www/warm/
	$(WASM_ENV) $(GO) build $(WASM_BUILD) -ldflags='-s -w' -o www/neffscope.wasm ./wasm
	$(RUN) ./scripts/wasmpack www/neffscope.wasm
	$(RUN) ./scripts/compress -level fast www/neffscope.wasm

## wasm-size: where the bytes of the wasm go (sizes, code by package, the data section);
## ARGS='-func core/pwp' lists a package's biggest functions, ARGS=-md prints markdown.
wasm-size: wasm
	$(RUN) ./scripts/wasmsize -build "$(WASM_BUILD)" $(ARGS) www/neffscope.wasm

## serve: build and serve the page on http://$(ADDR)
serve: wasm
	$(RUN) ./scripts/devserver -addr $(ADDR) -dir www

## dist: dist/site/ (the static site, its wasm precompressed at the highest settings) and
## dist/neffscope.html (one self-contained file)
dist: wasm
	rm -rf dist && mkdir -p dist
	$(RUN) ./scripts/bundle -www www -site dist/site -single dist/neffscope.html
	$(RUN) ./scripts/compress -level best dist/site/neffscope.wasm

## release: the CLI cross-built for linux, macOS and windows on amd64 and arm64 (static, no cgo)
## beside neffscope.html, with SHA256SUMS, in dist/release/: ready to attach to a release.
## make test does not run it.
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
release: dist
	rm -rf dist/release && mkdir -p dist/release
	@for p in $(PLATFORMS); do \
	  os=$${p%/*}; arch=$${p#*/}; ext=; [ $$os = windows ] && ext=.exe; \
	  echo "building neffscope-$(VERSION)-$$os-$$arch$$ext"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags='-s -w -X main.version=$(VERSION)' \
	    -o dist/release/neffscope-$(VERSION)-$$os-$$arch$$ext ./cmd/neffscope || exit 1; \
	done
	cp dist/neffscope.html dist/release/
	cd dist/release && sha256sum * > SHA256SUMS && cat SHA256SUMS

## generate: msgp's codec of the Document (core/doc/doc_gen.go), the page's vocabulary
## (www/src/lib/vocab.gen.js, from core/doc's constants) and the page's view of the worker
## protocol (www/src/core/methods.gen.js, from wasm/protocol); tests fail when stale.
generate:
	$(GO) generate ./...

vet:
	$(GO) vet ./...
	$(WASM_ENV) $(GO) vet ./wasm/... ./core/...
	@# make release cross-builds the CLI: keep it building where it is not tested.
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/neffscope
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/neffscope

## test: every test — vet, the core natively (real files from testdata/real/, and from
## ../shared/testdata-real where it is beside the clone), the wasm bridge and core under Node,
## the page in headless Chromium, the page's modules under node --test (test-js), and, where
## ../shared is beside the clone, the tests that read real files again in a copy of the tree
## without it (a newcomer's clone). scripts/testsummary runs them in lanes side by side
## (lanes.go says which and why), every runner even when one fails, and ends with one line:
## `tests: N passed, N failed, N skipped in T (each runner's time)`; the exit status is non-zero
## on any failure. ALONE=false leaves the copy out.
TEST_CACHE  := .cache/test
TESTSUMMARY := $(TEST_CACHE)/testsummary
TEST_RUN     = $(TESTSUMMARY) go -dir $(TEST_CACHE)
ALONE ?= true
# Under Node the point is the wasm's own code (the bridge, the budget under js, core/srcmap's feed_js.go)
# and that the core decodes the real files as natively: the bridge's packages whole, with -short
# (the slow sweeps are make test-core's), and of core/inspect only these:
# golden document, program and source of every real NEFF (decoded the same way; the findings
# sweep of every real NEFF is 200 s under Node and stays native);
# WriteJSON and the JSON read back (feed_js.go's path); the one budget of a command and the
# hostile .dbg classes (the limits under js).
WASM_TEST_PKGS := ./wasm/... ./core/doc/... ./core/jsonspan/... ./core/neff/... ./core/srcmap/... ./core/fleet/... ./internal/realfiles/... ./internal/gctune/...
WASM_INSPECT_TESTS := ^(TestGoldenDocument|TestProgramOnRealNEFFs|TestSourceOnRealNEFFs|TestWriteJSONEqualsEagerDocument|TestJSONMembersReadBack|TestOpensShareTheCommandBudget|TestHostileDbgClassesCoded)$$

test: $(TESTSUMMARY)
	@$(TESTSUMMARY) all -dir $(TEST_CACHE) -make "$(MAKE)" -alone=$(ALONE)

## test-alone: the Go tests that reach internal/realfiles, natively, in a copy of the working
## tree with nothing beside it (a folder of the system's temp directory), as a newcomer's clone
## runs them; nothing when ../shared is not beside this clone either.
test-alone: $(TESTSUMMARY)
	$(TESTSUMMARY) alone -dir $(TEST_CACHE)

$(TESTSUMMARY): $(wildcard scripts/testsummary/*.go)
	@mkdir -p $(TEST_CACHE)
	$(GO) build -o $@ ./scripts/testsummary

## test-short: the developer's loop, `go test -short` over the native packages: the real files'
## main paths run, the slow sweeps (hostile classes × commands, big generated NEFFs) skip.
test-short:
	$(GO) test -short ./...

## test-js: the page's pure helpers, the core transport, the hash role and the module rules
## under node --test (Node 20; no npm packages).
test-js:
	node --test www/src/lib/*.test.js www/src/core/*.test.js www/src/worker/*.test.js www/test/*.test.js

## typecheck: the page's JSDoc types (www/src/jsconfig.json) checked by the TypeScript that
## tools/tsc/package-lock.json pins, installed there with npm ci on first use; 0 errors.
TSC := tools/tsc/node_modules/.bin/tsc
typecheck: $(TSC)
	$(TSC) --noEmit -p www/src/jsconfig.json

$(TSC): tools/tsc/package.json tools/tsc/package-lock.json
	cd tools/tsc && npm ci --no-audit --no-fund
	@touch $@

# go test starts packages in the order named: the longest first (their tests run one after
# another), so that the last minutes are not one package on one core. At go test's default -p 2:
# -p 4 was under a minute faster but made the e2e tests beside it fail by timeout
# (docs/performance.md).
CORE_FIRST := ./core/inspect/ ./cmd/neffscope/ ./core/neff/ ./core/fleet/ ./core/isa/ ./core/dbg/ ./core/jsonspan/

test-core: $(TESTSUMMARY)
	$(TEST_RUN) -name core -- $(GO) test -json -timeout 40m $(CORE_FIRST) ./core/... ./cmd/... ./scripts/... ./internal/... ./wasm/protocol/...

test-wasm: $(TESTSUMMARY)
	@status=0; \
	PATH="$(WASM_PATH)" $(WASM_ENV) $(TEST_RUN) -name wasm -- $(GO) test -json -short -timeout 20m $(WASM_FLAGS) $(WASM_TEST_PKGS) || status=1; \
	PATH="$(WASM_PATH)" $(WASM_ENV) $(TEST_RUN) -name wasm-inspect -- $(GO) test -json -short -timeout 20m $(WASM_FLAGS) -run '$(WASM_INSPECT_TESTS)' ./core/inspect/ || status=1; \
	exit $$status

# The Chromium suite runs as two test binaries side by side, each with its own browser, profile
# and site server: one Chromium leaves a core idle (docs/performance.md "make test"). The
# tests of big files and of the library go to the second (E2E_SECOND: about half the test
# time; every user of the generated 32/256 MiB NEFFs stays in it, so one process makes them).
E2E_SECOND := ^Test(Lazy|Big(JSONMember|RealShaped)|Partial|Cancel|Library|Diff|NoRequest|WorkerWarms|HexCursor|Layout|Dashboard)

test-browser: dist $(TESTSUMMARY)
	@status=0; \
	$(TEST_RUN) -name e2e-big -- $(GO) test -json -count=1 -timeout 30m -run '$(E2E_SECOND)' ./e2e/... >$(TEST_CACHE)/e2e-big.log 2>&1 & second=$$!; \
	$(TEST_RUN) -name e2e -- $(GO) test -json -count=1 -timeout 30m -skip '$(E2E_SECOND)' ./e2e/... || status=1; \
	wait $$second || status=1; cat $(TEST_CACHE)/e2e-big.log; \
	exit $$status

## bench: speed and memory figures (docs/performance.md quotes them): core benchmarks (among
## them the sync model on its hostile class and the source lines mapped on 0-4 goroutines), the 256 MiB NEFF against gzip|tar, the real-shaped
## 32 MiB/256 MiB/1 GiB NEFFs (docs/big-files.md; generated once into testdata/gen), sync,
## memmap and timeline against info, a 1 GB device profile natively and in the wasm under
## Node, the wasm open under Node, and the page in Chromium, among them a returning visit's
## open during and after the warm-up, a click answered while an open's deferred work runs in the
## pool workers, what Chrome's wasm code cache held, the schedule's first
## screen and the frame time of the schedule and the time lanes over a million slices.
BENCH_CORE := OpenSmall|WalkLazyArray|Disassemble|RowsScreen|EvaluateExp|Sample4096|EmitNear1MiB|ResolveReal|DecodeRealSet|SchedRealShaped|SyncHostile|IndexSourcePool
bench: dist
	$(GO) test -run '^$$' -bench '^Benchmark($(BENCH_CORE))$$' -benchmem ./core/...
	$(RUN) ./scripts/benchneff
	$(RUN) ./scripts/benchneff -shape real -sizes 32,256,1024 -runs 3
	$(GO) test -run '^$$' -bench '^BenchmarkScan1000$$' -benchtime 1x ./cmd/neffscope/
	$(GO) test -run '^$$' -bench '^BenchmarkSyncMemmapRealShaped$$' -benchtime 3x -timeout 30m ./cmd/neffscope/
	$(GO) test -run '^$$' -bench '^BenchmarkTimelineRealShaped$$' -benchtime 3x -timeout 30m ./cmd/neffscope/
	$(GO) test -run '^$$' -bench '^BenchmarkTimeline1GB$$' -benchtime 1x -timeout 30m ./cmd/neffscope/
	PATH="$(WASM_PATH)" $(WASM_ENV) $(GO) test $(WASM_FLAGS) -run '^$$' -bench . ./wasm/
	PATH="$(WASM_PATH)" $(WASM_ENV) $(GO) test -run '^$$' -bench '^BenchmarkEvaluateExp$$' ./core/pwp/
	$(GO) test -run '^$$' -bench '^Benchmark(Page|PageCacheScan|ListingFirstScreen|PlotRedraw|ScheduleFirstDraw|LanesFrame)$$' -benchtime 3x -timeout 60m ./e2e/
	$(GO) test -run '^$$' -bench '^Benchmark(PageBig|PageAnswersDuringDeferred)$$' -benchtime 1x -timeout 60m ./e2e/
	$(GO) test -run '^$$' -bench '^Benchmark(PageReturningVisit|PageWasmCodeCache)$$' -benchtime 5x ./e2e/
	@ls -l dist/site/neffscope.wasm dist/site/neffscope.wasm.gz dist/site/neffscope.wasm.br dist/neffscope.html | awk '{print $$5, $$9}'

## fuzz: a short run of every fuzz target of core/ and cmd/ (the CLI's output writers),
## FUZZTIME=30s each by default. Minimising a new
## input is capped at FUZZMINTIME runs of the target, not a time: early in a run almost every
## mutation adds coverage, and a cap of 1s (Go's default is 60s) still left both workers
## minimising ~1 s per new input, so FuzzOpenBudget ran ~10 execs/s; 100 runs cost milliseconds.
FUZZTIME ?= 30s
FUZZMINTIME ?= 100x
fuzz:
	@for pkg in $$($(GO) list ./core/... ./cmd/...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINTIME) $$pkg || exit 1; \
	  done; \
	done

## hostile: the hostile sweep (docs/hostile.md): every class of neffbuild.HostileClasses()
## through every command that takes a NEFF, and opened in the wasm core under Node, each with its wall and CPU time,
## peak RSS and output checks (scripts/hostilesweep; ARGS='-only bomb -cmd coverage'). Not part
## of test: it times things, on a machine others share.
hostile:
	PATH="$(WASM_PATH)" $(RUN) ./scripts/hostilesweep -wasm-flags "$(WASM_FLAGS)" $(ARGS)

clean:
	rm -rf dist www/app.js www/worker.js www/neffscope.wasm www/neffscope.wasm.gz www/neffscope.wasm.br www/wasm_exec.js www/warm
