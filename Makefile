# Chaos — the two commands of the README, and the few around them.
#   make demo   installs what is missing, builds, runs the main job
#   make test   installs what is missing, builds, runs every test
SWIFT        ?= swift
# What the tool needs (gcc builds the preloaded C libraries: PreloadLibrary.swift),
# and what its tests need besides (reports checked with a real
# browser, xmllint and jsonschema; a PostgreSQL server for the orders example, which
# each test starts as a throwaway cluster of its own: a cluster the package may start
# on install is never used).
APT_PACKAGES      := libsqlite3-dev libfaketime pkg-config util-linux gcc
TEST_APT_PACKAGES := libxml2-utils chromium postgresql
# make bench counts instructions with callgrind (valgrind) on a copy stripped by binutils,
# and measures libfiu's fiu_fail beside our fault points, and sqlite3's .recover beside the salvage;
# the planted defects of the sync example link FoundationNetworking statically, which needs libcurl's.
BENCH_APT_PACKAGES := valgrind binutils libfiu0 sqlite3 libcurl4-openssl-dev
CHAOS        := .build/debug/chaos

.PHONY: demo test bench release build deps test-deps apt clean seeds

deps:
	@$(MAKE) --no-print-directory apt PACKAGES="$(APT_PACKAGES)"

test-deps: deps
	@$(MAKE) --no-print-directory apt PACKAGES="$(TEST_APT_PACKAGES)"
	@python3 -c 'import jsonschema' 2>/dev/null || python3 -m pip install -q jsonschema 2>/dev/null \
	  || (SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; $$SUDO apt-get install -y -qq python3-jsonschema)

apt:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

demo: build
	$(CHAOS) run corrupted-db
	@echo "Open reports/chaos-report.html in a browser for the timeline."

# The suite runs with a temporary folder of its own, so that what it leaves behind can
# be seen: any chaos-* folder left there, or any new entry in /dev/shm, fails the run.
TEST_TMP := $(CURDIR)/.build/test-tmp
test: test-deps
	$(SWIFT) build --build-tests
	@rm -rf $(TEST_TMP) && mkdir -p $(TEST_TMP) && ls -A /dev/shm | sort > $(TEST_TMP).shm-before
	TMPDIR=$(TEST_TMP) $(SWIFT) test --skip-build
	@left="$$(ls -A $(TEST_TMP) | grep -E '^(chaos|faketime)' || true)"; \
	 shm="$$(ls -A /dev/shm | sort | comm -13 $(TEST_TMP).shm-before - | grep -E 'faketime|chaos' || true)"; \
	 if [ -n "$$left$$shm" ]; then echo "The tests left behind:"; echo "$$left" "$$shm"; exit 1; fi; \
	 echo "The tests left nothing behind in their temporary folder or /dev/shm."; rm -rf $(TEST_TMP) $(TEST_TMP).shm-before

# A release build for speed (nightly gates, long sweeps): the Swift runtime and
# Foundation linked in statically, so each worker process starts in a few ms.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product chaos
	@echo "Built .build/release/chaos"

# Figures, not tests: release build as `make release` makes it, in build folders of
# its own; the fault-point loops are built a second time without the FaultPointsEnabled
# trait. Medians with min and max (BENCHMARKS.md).
BENCH_BUILD := $(SWIFT) build -c release --static-swift-stdlib --scratch-path
bench: deps
	@$(MAKE) --no-print-directory apt PACKAGES="$(BENCH_APT_PACKAGES)"
	$(BENCH_BUILD) .build-bench --product chaos
	$(BENCH_BUILD) .build-bench --product chaos-bench-points
	$(BENCH_BUILD) .build-bench --product chaos-bench
	@# The hang-heavy hunt (Orders fragile) when a PostgreSQL server is named.
	@if [ -n "$$CHAOS_EXAMPLE_PG_PORT" ]; then $(BENCH_BUILD) .build-bench --product chaos-example-orders; fi
	$(BENCH_BUILD) .build-bench-notraits --disable-default-traits --product chaos-bench-points
	@# The planted defects (Benchmarks/Defects), each built patched, then taken out again.
	@case ",$$CHAOS_BENCH_ONLY," in ,, | *,defects,*) scripts/bench-defects.sh ;; esac
	CHAOS_RECOVER_SHELL="$$(scripts/recover-shell.sh || true)" \
	  .build-bench/release/chaos-bench .build-bench-notraits/release/chaos-bench-points

clean:
	rm -rf .build .build-bench .build-bench-notraits reports/*.json reports/*.html reports/*.xml

# docs/SEEDS.md: what each seed document asks, the scenarios that show it, and their
# verdicts on both variants (chaos seeds; a test checks it is in step with the map).
seeds: build
	$(CHAOS) seeds -j 2 --output docs/SEEDS.md
