# InvoluntaryChurn: `make demo` and `make test` are all a newcomer needs (see README.md).

SWIFT ?= swift
CHURN_HOME ?= $(CURDIR)/.churn
export CHURN_HOME

.PHONY: all setup build release test validate validate-grace-change validate-sheet demo example-report bench bench-lib fuzz soak format clean distclean help

all: build

help:
	@echo "make setup    install what is missing (libpq-dev, zlib1g-dev, postgresql, pkg-config)"
	@echo "make build    debug build, warnings as errors"
	@echo "make release  optimized build: .build/release/churn"
	@echo "make test     the whole test suite against a PostgreSQL cluster it starts itself"
	@echo "make validate is the planted message effect found without bias? 10 seeds, effects 2 and 1: docs/VALIDATION.md"
	@echo "make validate-grace-change  is a planted change of the grace setting found? 10 seeds: docs/VALIDATION-GRACE-CHANGE.md"
	@echo "make validate-sheet  is the planted effect of the billing-issue sheet found? 10 seeds, effects 2 and 1: docs/VALIDATION-SHEET.md"
	@echo "make demo     build, start the embedded database, load a sample export, print what was stored"
	@echo "make example-report  regenerate docs/example-report/ from the demo's simulated export"
	@echo "make bench    load and analysis benchmarks on simulated exports (release build in .build-bench/): bench/results.md"
	@echo "make bench-lib  micro-benchmarks of the hot paths (the Benchmarks/ package, ordo-one/package-benchmark)"
	@echo "make fuzz     the fuzz targets of Fuzz/, FUZZ_SECONDS each (default 60): docs/RELIABILITY.md"
	@echo "make soak     SOAK_NIGHTS simulated nights (default 30) with kills, a restart, late and cut files, then"
	@echo "              a nightly, a repair and a fetch at once with ten query loops (SOAK_LOAD_SUBSCRIBERS, default 5000)"
	@echo "make format   check the Swift sources with swift-format"
	@echo "make clean    remove build products; make distclean also removes the embedded database and bench/data"

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build -Xswiftc -warnings-as-errors

release: setup
	$(SWIFT) build -c release --product churn

test: setup
	@scripts/test.sh

validate: release
	@scripts/validate.sh

validate-grace-change: release
	@scripts/validate-grace-change.sh

validate-sheet: release
	@scripts/validate-sheet.sh

demo: release
	@scripts/demo.sh

example-report: release
	@scripts/example-report.sh

bench: setup
	@scripts/bench.sh

fuzz: setup
	@scripts/fuzz.sh

soak: setup
	@scripts/soak.sh

bench-lib: setup
	BENCHMARK_DISABLE_JEMALLOC=true $(SWIFT) package --package-path Benchmarks benchmark

format:
	@scripts/format.sh

clean:
	rm -rf .build .build-bench Benchmarks/.build Fuzz/.build

# Stops the embedded clusters (the demo's and the benchmarks') while a churn binary is still there to do it.
distclean:
	-for churn in .build/release/churn .build/debug/churn; do \
		if [ -x $$churn ]; then $$churn db stop; break; fi; \
	done
	-if [ -x .build-bench/release/churn ]; then CHURN_HOME=$(CURDIR)/bench/data/cluster .build-bench/release/churn db stop; fi
	$(MAKE) clean
	rm -rf .churn data bench/data
