# BFCL v4 in Go. The two commands of the README:
#   make eval [MODEL=<name in models.yaml>]   the whole benchmark, progress line, score table at the end (default model: gold)
#   make test                                 every check CI runs
# and the Ginkgo way to run the same specs (labels, focus, JUnit):
#   make specs [MODEL=...] [GINKGO_FLAGS='--label-filter=multi_turn']
SHELL := /bin/bash
GO ?= go
MODEL ?= gold
# Extra ginkgo flags, e.g. GINKGO_FLAGS='--label-filter=multi_turn' or "--focus=multi_turn_base_42$$"
GINKGO_FLAGS ?=
# Ginkgo parallel processes for the suites.
PROCS ?= 2
# Looked up once (an exported recursive variable would run `go run` again
# for every recipe line).
ifeq ($(origin BFCL_DATA_DIR),undefined)
BFCL_DATA_DIR := $(shell $(GO) run ./cmd/bfcl data --print-dir 2>/dev/null)
endif
export BFCL_DATA_DIR

# How recipes run the CLI. make eval builds it once (bin/bfcl) for the data
# check and the run, instead of a `go run` (a build check) for each.
BFCL = $(GO) run ./cmd/bfcl
BFCL_BUILD =

# Categories for make eval (upstream's names and groups, comma-separated).
CATEGORIES ?= all

.PHONY: eval cli specs test data generate check-generated vet fmt-check unit suites race bench fuzz clean

eval: BFCL = bin/bfcl
eval: BFCL_BUILD = $(GO) build -o bin/bfcl ./cmd/bfcl
eval: data
	$(BFCL) generate --model $(MODEL) --test-category $(CATEGORIES)

cli:
	$(BFCL_BUILD)

# The six suites (one per group) of generated specs.
SUITES = ./suites/non_live ./suites/live ./suites/irrelevance ./suites/multi_turn ./suites/agentic ./suites/format_sensitivity

# GINKGO_FLAGS reaches ginkgo quoted: a word that starts with "-" starts a
# new flag, the words after it belong to it, so a label expression with
# spaces or "&&" stays one argument (write flags as --flag=value).
specs: export GINKGO_FLAGS := $(GINKGO_FLAGS)
specs: data
	@set -f; args=(); for w in $$GINKGO_FLAGS; do \
		if [[ $$w == -* || $${#args[@]} -eq 0 ]]; then args+=("$$w"); else args[$${#args[@]}-1]+=" $$w"; fi; \
	done; \
	echo BFCL_MODEL=$(MODEL) $(GO) tool ginkgo -p --procs=$(PROCS) --keep-going --silence-skips --junit-report=junit.xml $${args[@]@Q} $(SUITES); \
	BFCL_MODEL=$(MODEL) $(GO) tool ginkgo -p --procs=$(PROCS) --keep-going --silence-skips --junit-report=junit.xml "$${args[@]}" $(SUITES)

test: fmt-check vet check-generated unit race suites

data: cli
	@if [ -n "$$BFCL_DATA_DIR" ] && [ -d "$$BFCL_DATA_DIR/data" ]; then \
		$(BFCL) data --verify --dir "$$BFCL_DATA_DIR"; \
	else \
		$(BFCL) data; \
	fi

generate:
	$(GO) run ./gen -out generated

check-generated:
	$(GO) run ./gen -out generated -check

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

unit:
	$(GO) test -timeout 30m ./internal/... ./sim/... ./gen/... ./cmd/...

race:
	$(GO) test -race ./internal/store/results/... ./internal/python/engine/... ./sim/... ./internal/run/harness/... ./internal/cache/reqcache/... ./internal/scores/evaluate/... ./internal/models/driver/... ./internal/scores/stats/... ./internal/run/replica/... ./internal/run/limiter/... ./internal/run/sched/... ./internal/run/breaker/... ./internal/run/merge/...

# The whole benchmark under the built-in gold model: every spec of every suite.
suites:
	BFCL_MODEL=gold BFCL_RESULT_DIR=$(CURDIR)/.cache/test-result BFCL_SCORE_DIR=$(CURDIR)/.cache/test-score BFCL_RERUN=1 \
		$(GO) test ./suites/... -count=1

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./internal/... ./sim/...

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 30s ./internal/python/pyexpr/

clean:
	rm -rf result score .cache
