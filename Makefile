# Chaos — the two commands of the README, and the few around them.
#   make demo   installs what is missing, builds, runs the main job
#   make test   installs what is missing, builds, runs every test
SWIFT        ?= swift
APT_PACKAGES := libsqlite3-dev libfaketime pkg-config
CHAOS        := .build/debug/chaos

.PHONY: demo test bench build deps clean

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
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

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Figures, not tests: release build, medians with min and max (BENCHMARKS.md).
bench: deps
	$(SWIFT) build -c release --product chaos
	$(SWIFT) build -c release --product chaos-bench
	.build/release/chaos-bench

clean:
	rm -rf .build reports/*.json reports/*.html reports/*.xml
