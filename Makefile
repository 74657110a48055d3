# trace-remotes: the front door.  `make help` lists the targets.
SHELL := /bin/bash
S := scripts

# The modes are tests/modes' lines; their flags pick the defaults: "run"
# for make run and make shell, "quick" for check-quick.
modes_with = $(shell . $(S)/lib.sh && modes_with $(1))
MODE ?= $(firstword $(call modes_with,run))
QUICK_MODES := $(if $(filter command line environment,$(origin MODE)),$(MODE),$(call modes_with,quick))
# make run, shell and build: the production kernel, as a user builds it
# (tracing on, no test or benchmark option; see configs/).
FLAVOR ?= arm64-prod
export DEBUG SUITES ONLY PERFETTO

.PHONY: help deps tree export export-check build initramfs run shell \
	check check-full check-quick check-mainline check-perfetto check-patches check-series judge bench \
	mainline-report clean

help:
	@echo "make deps          install build/test dependencies (Debian 12)"
	@echo "make run           boot pKVM (MODE=$(MODE)) and show what the hypervisor does"
	@echo "make shell         the same machine with a shell"
	@echo "make check         every test: series checks, all modes, debug kernels"
	@echo "make check-full    make check and a build of every patch (the bisect; tests/bisected)"
	@echo "make check-quick   protected + vhe (or MODE=...), normal kernel; SUITES=, ONLY="
	@echo "make check-mainline  the queue on mainline: its patches, its kernel in protected + vhe"
	@echo "make check-perfetto DIR=... TP=...  record the hypervisor with Perfetto built from its sources"
	@echo "make check-series  bisect build (writes tests/bisected), W=1/sparse, clang, alone"
	@echo "make judge LOG=... judge a saved guest log again, without QEMU"
	@echo "make bench         costs against the kernel's ring buffer and mainline 7.3.4's"
	@echo "make mainline-report  the probes on the series, 7.3.4 with the queue, and 7.3.4"
	@echo "make tree          build/linux = base + patches/ (branch series)"
	@echo "make export        build/linux commits -> patches/"
	@echo "make export-check  fail if build/linux has work not in patches/"

deps:
	$(S)/deps.sh

tree:
	$(S)/tree.sh

export:
	$(S)/export.sh

export-check:
	$(S)/export-check.sh

build: tree
	$(S)/build-kernel.sh $(FLAVOR)
	$(S)/mkinitramfs.sh $(FLAVOR)

run: deps build
	$(S)/show-hypervisor.sh $(MODE) $(FLAVOR)

shell: deps build
	$(S)/qemu.sh $(MODE) $(FLAVOR) shell

check: deps
	$(S)/check.sh

check-full: deps
	BISECT=1 $(S)/check.sh

check-quick: deps
	$(S)/check.sh --quick $(QUICK_MODES)

# The queue on mainline: its patches, its kernel, booted in the quick modes
# with the suites for "queue" (tests/suites/list); the guest programs are
# the series' (make check or check-quick first)
check-mainline: deps
	QUEUE=mainline PATCHES_CHECK=1 $(S)/check.sh --quick $(QUICK_MODES)

check-perfetto: deps tree
	$(S)/check-perfetto.sh "$(DIR)" "$(TP)"

check-patches: deps
	$(S)/check-patches.sh

check-series: deps
	$(S)/check-series.sh

judge:
	$(S)/judge.sh $(LOG)

bench: deps tree
	$(S)/bench.sh

mainline-report: deps tree
	$(S)/mainline-report.sh

clean:
	rm -rf build/out build/bisect
