# vflipq top-level Makefile: the out-of-tree module, the in-tree tests,
# userspace, and the QEMU test VM.
#
#   make [all]            the module, igt tests and userspace, against KDIR
#                         (default: the running kernel's build tree, else the
#                         KERNEL test kernel already in the cache); installs
#                         and downloads nothing ("make deps" does)
#   make deps             Debian's packages, upstream IGT's libigt (built
#                         once from shared/deps/, scripts/igt-lib.sh), the
#                         KERNEL test kernel (downloaded, or for debug/7.x
#                         built from source) and KUnit as a module for it
#   make check            host tests + the KUnit suites and all igt subtests
#                         in the VM
#   make kunit            the KUnit suites of the DRM-free parts
#                         (drivers/gpu/drm/vflipq/tests/) under UML, by the
#                         kernel's kunit.py in a copy of linux-source-6.12;
#                         KUNIT_ARGS='vflipq_fq_core.*' selects
#   make igt              upstream IGT (sid's igt-gpu-tools) under igt_runner in
#                         the VM, judged against igt/xfails/; IGT_TESTS=ci for
#                         CI's subset, DRIVER=vkms for the baseline run
#   make check-debug      all igt subtests on the debug kernel (KASAN, lockdep,
#                         kmemleak, UBSAN, ...; built once from linux-source);
#                         FUZZ_ITER=1000000 [FUZZ_SEED=S] adds a long fuzzer pass;
#                         SHARDS=2 runs it in two VMs at once
#   make demo             boot the VM, run modetest, vflipq-capture and
#                         present-demo (libpresent, hybrid pair) -> out/
#   make bench            vflipq vs vkms benchmarks in one VM boot -> out/bench.*
#   make trace            ftrace of the flip queue during the demo -> out/vflipq-trace.*
#   make clients          real clients (drm_info, libdrm tests, weston, kmscube)
#                         in the VM, their screens captured -> out/clients/
#   make IGT_SRC=/igt     the in-tree tests against another IGT checkout
#   make igt-in-tree      the in-tree tests built by IGT's own meson inside an
#                         unpacked IGT 2.2 (igt-tests/README.md); host only,
#                         minutes: not part of "make check"
#   make KERNEL=6.1 ...   same against Debian's 6.1 kernel (default 6.12)
#   make KERNEL=7.2 ...   same against Linux 7.2 (sid's linux-source-7.2), 7.3
#                         likewise (experimental); built once with gcc-12
#   make KERNEL=debug ... module/vm-check/demo/vm-cmd on the debug kernel
#   make repeat SUBTESTS='glob ...' [RUNS=20]  the selected in-tree subtests
#                         (globs on binary@subtest), each RUNS times in one VM:
#                         a new or changed test must hold every run
#   make fuzz ITER=N SEED=S  the ioctl fuzzer in the VM (userspace/fuzz)
#   make mutate           mutation check: every mutant of tests/mutants.txt
#                         must turn its tests red (host ones also run in
#                         "make check", KUnit ones under UML; MUTANTS='glob
#                         ...' selects)
#   make dkms-src | dkms-tarball   vflipq as a DKMS source tree / tarball in build/dkms
#   make dkms-check       dkms build for $(KERNEL) in a private dkms tree, then a VM
#                         smoke test of the module DKMS built
#   make boot-soak N=200  boot the test kernel to /init and power off N times;
#                         reports every boot that failed, with its console log
#   make sparse | checkpatch | kernel-doc | clean | help
#                         (checkpatch runs kernel-doc -Wall too)
#
# Every VM target takes LOAD=hogs:N[,stall:MS:PERIOD]: N host CPU hogs beside
# the VM (and QEMU stopped MS ms every PERIOD s, as VM_STALL=MS:PERIOD), to
# see what a busy CI runner does.
#
# "make -C <kdir> M=$PWD" builds the module as for any out-of-tree module.
# Kernels, .debs and the linux-source tree are cached in $(VFLIPQ_CACHE)
# (default ~/.cache/vflipq); build products go to build/, results to out/.

# Plain "make" (no KERNEL=, no KDIR=) builds against the running kernel's
# build tree when there is one; the VM targets always use the test kernel.
HOST_KDIR := /lib/modules/$(shell uname -r)/build
ifeq ($(origin KERNEL)$(origin KDIR),undefinedundefined)
ifneq ($(wildcard $(HOST_KDIR)/Makefile),)
KDIR := $(HOST_KDIR)
endif
endif
KERNEL ?= 6.12
VFLIPQ_CACHE ?= $(HOME)/.cache/vflipq
export VFLIPQ_CACHE KERNEL
# Load beside every VM (scripts/vm-run.sh): hogs:N[,stall:MS:PERIOD].
LOAD ?=
export LOAD

S := $(CURDIR)/scripts
BUILD := $(CURDIR)/build
# KDIR: "make module KDIR=/path/to/headers" builds against another prepared
# tree (module/sparse only: the VM targets build for the test kernel).
ifdef KDIR
export KDIR
endif
# check-debug's igt suite has the short fixed-seed fuzzer pass
# (vflipq_fuzz@short); FUZZ_ITER=N adds a pass of N calls with seed FUZZ_SEED
# after it (debug@fuzz), its time limits growing with N (scripts/vm-run.sh).
FUZZ_ITER ?= 0
FUZZ_SEED ?= 1

TESTS_DIR := igt-tests
# Plots are drawn on the host after the VM run (python3-matplotlib).
USER_PLOT := userspace/plot

.PHONY: all deps kernel module igt igt-tests userspace sparse checkpatch host-tests \
	check vm-check demo bench trace vm-cmd clean distclean help debug-kernel check-debug \
	mutate mutate-host clients kernel-doc repeat build-deps vm-module vm-build kunit

all: module igt-tests userspace

# What plain "make" needs is checked, never installed (nor libigt built).
build-deps:
	@$(S)/deps.sh --check
	@$(S)/igt-lib.sh --check

deps:
	@$(S)/deps.sh
	@$(S)/igt-lib.sh build
	@$(S)/kernel.sh fetch $(KERNEL) >/dev/null
	@$(S)/kunit-module.sh $(KERNEL) >/dev/null

kernel: deps

module: build-deps
	@$(S)/build-module.sh --cached $(KERNEL)

sparse: build-deps
	@$(S)/build-module.sh --sparse --cached $(KERNEL)

# What every VM target needs: the packages, the test kernel, the module
# built for it (never for KDIR), the tests and userspace.
vm-module: kernel
	@env -u KDIR $(S)/build-module.sh $(KERNEL)

vm-build: vm-module igt-tests userspace

# checkpatch.pl --strict and kernel-doc -Wall on the driver.
checkpatch: deps
	@$(S)/checkpatch.sh
	@$(S)/kernel-doc.sh

kernel-doc: deps
	@$(S)/kernel-doc.sh

# The in-tree IGT-style tests (igt-tests/) -> build/igt/bin.
# They link upstream IGT's libigt: IGT 2.2 built once into $(VFLIPQ_CACHE)/igt-2.2
# by "make deps" (scripts/igt-lib.sh), or IGT_SRC=/path/to/igt-gpu-tools.
igt-tests: build-deps
	@if [ -f $(TESTS_DIR)/Makefile ]; then \
		$(MAKE) -C $(TESTS_DIR) BUILD=$(BUILD)/igt; \
	else echo "[vflipq] $(TESTS_DIR)/Makefile not there yet, skipping igt tests"; fi

# igt-tests/ as tests/vflipq of an IGT 2.2 tree, built by IGT's meson and
# checked (scripts/igt-in-tree.sh).  It builds libigt afresh in a temporary
# tree every time, so "make check" leaves it out.
.PHONY: igt-in-tree
igt-in-tree:
	@$(S)/igt-in-tree.sh

# libpresent, tools, benchmarks, fuzzer: meson.build, built in build/meson
# and installed into build/userspace/ (bin/ goes into the VM).
userspace: build-deps
	@BUILD=$(BUILD) $(S)/meson.sh build

# Host tests: "meson test" with ASan+UBSan and without (userspace), then
# the igt harness self-test.
host-tests: deps
	@BUILD=$(BUILD) $(S)/host-tests.sh

# The KUnit suites (scripts/kunit.sh): a UML kernel built from a copy of
# linux-source-6.12 kept in $(VFLIPQ_CACHE)/kunit-6.12, rebuilt incrementally.
# KUNIT_ARGS: more "kunit.py run" arguments, e.g. a suite.case glob.
KUNIT_ARGS ?=
kunit:
	@$(S)/kunit.sh $(KUNIT_ARGS)

# Host tests + the VM run; the last line is "N passed, M failed, K skipped".
check: vm-build mutate-host
	@BUILD=$(BUILD) $(S)/check.sh $(KERNEL)

# Mutation check (scripts/mutate.py, tests/mutants.txt): host mutants take a
# few seconds each; KUnit mutants a UML kernel build and run each
# (scripts/kunit.sh, 15-40 s; not in "make check", which builds no UML
# kernel); VM mutants a module or test build each, then twenty to a VM boot
# (scripts/guest/mutants), after the unmutated build's run of their tests.
MUTANTS ?=
mutate: deps kernel
	@python3 $(S)/mutate.py --where all $(MUTANTS)

mutate-host: deps
	@python3 $(S)/mutate.py --where host $(MUTANTS)

# Only the VM part (assumes "make all" was done).
vm-check: kernel
	@$(S)/vm-run.sh --kernel $(KERNEL) --job tests

# A flaky subtest fails CI at random while passing most single runs: a new or
# changed one runs here RUNS times first (VFLIPQ_REPEAT in
# scripts/guest/run-tests: RUNS igt_runner runs of the selection); the run
# fails if any run of it failed.
SUBTESTS ?=
RUNS ?= 20
repeat: vm-build
	@test -n '$(SUBTESTS)' || { echo "make repeat: SUBTESTS='<binary>@<subtest> ...' is needed" >&2; exit 2; }
	@VFLIPQ_TESTS='$(SUBTESTS)' VFLIPQ_REPEAT='$(RUNS)' $(S)/vm-run.sh --kernel $(KERNEL) --job tests

# The debug test kernel (scripts/source-kernel.sh, cached in
# $(VFLIPQ_CACHE)/debug-kernel), then vflipq built against it and the whole igt
# suite on it (+ FUZZ_ITER fuzzer calls, module unload, kmemleak scans): any
# KASAN, lockdep, UBSAN, KFENCE, list-corruption, WARN or kmemleak report
# fails the run.
debug-kernel: deps
	@$(S)/source-kernel.sh build debug

# SHARDS=N splits the suite over N VMs run at once (scripts/vm-shards.sh):
# the debug suite is CPU-bound, and each TCG guest keeps one core busy.
SHARDS ?= 1
check-debug: debug-kernel igt-tests userspace
	@$(S)/build-module.sh debug
	@FUZZ_ITER='$(FUZZ_ITER)' FUZZ_SEED='$(FUZZ_SEED)' $(S)/vm-shards.sh $(SHARDS) --kernel debug --job tests

demo: vm-build
	@$(S)/vm-run.sh --kernel $(KERNEL) --job demo
	@$(USER_PLOT)/present_timing.py out/present-timing.csv out/present-timing.png

# Debian's real clients against vflipq (scripts/guest/clients); the clients'
# files are cached in $(VFLIPQ_CACHE)/clients (scripts/mkclients.sh).
clients: vm-build
	@$(S)/vm-run.sh --kernel $(KERNEL) --job clients

# Upstream IGT in the VM (scripts/igt.sh): DRIVER=vflipq|vkms,
# IGT_TESTS=all|ci|'regex...', IGT_TIMEOUT (per test, s).
DRIVER ?= vflipq
IGT_TESTS ?= all
igt: vm-build
	@DRIVER='$(DRIVER)' IGT_TESTS='$(value IGT_TESTS)' BUILD=$(BUILD) $(S)/igt.sh $(KERNEL)

# Benchmarks against vkms (built from linux-source): out/bench.{json,md}, PNGs.
bench: vm-build
	@BUILD=$(BUILD) $(S)/bench.sh $(KERNEL)

# DKMS (dkms.conf, scripts/dkms.sh): the source tree "dkms add" takes, the
# tarball "dkms ldtarball" takes, and dkms-check: dkms build + install for
# $(KERNEL) into build/dkms/tree-<kver>/ (never the host's /lib/modules) and the
# VM smoke test of that module (scripts/dkms-check.sh).
.PHONY: dkms-src dkms-tarball dkms-check
dkms-src:
	@$(S)/dkms.sh src
dkms-tarball:
	@$(S)/dkms.sh tarball
dkms-check: kernel igt-tests userspace
	@$(S)/dkms-check.sh $(KERNEL)

# Boots to /init and power-offs of $(KERNEL) (scripts/boot-soak.sh): N of them,
# every failed one reported with its console log, none retried.
# SOAK_TOGGLES=300: each boot also patches kernel text under a running CPU.
N ?= 200
.PHONY: boot-soak
boot-soak: kernel
	@SOAK_TOGGLES='$(SOAK_TOGGLES)' $(S)/boot-soak.sh --kernel $(KERNEL) $(N)

# The flip queue's trace events, drm_vblank_event and the copy engine's
# fences recorded during the demo -> out/vflipq-trace.systrace (Perfetto),
# out/trace-timeline.png (Documentation/vflipq/tracing.rst).
trace: vm-build
	@BUILD=$(BUILD) $(S)/trace.sh $(KERNEL)

# Run one command in the VM:  make vm-cmd CMD='modetest -M vflipq -c'
# IGT=1 adds upstream IGT:  make vm-cmd IGT=1 CMD='vflipq-igt run kms_addfb_basic'
vm-cmd: vm-build
	@V=1 $(if $(IGT),VM_EXTRA_CPIO="$$($(S)/igt.sh --cpio)") \
		$(S)/vm-run.sh --kernel $(KERNEL) --cmd '$(CMD)'

clean:
	rm -rf build out

# Also drop the kernel/.deb/linux-source cache.
distclean: clean
	rm -rf $(VFLIPQ_CACHE)/kernels $(VFLIPQ_CACHE)/debs $(VFLIPQ_CACHE)/linux-source \
		$(VFLIPQ_CACHE)/debug-kernel $(VFLIPQ_CACHE)/source-kernel $(VFLIPQ_CACHE)/kunit-6.12 \
		$(VFLIPQ_CACHE)/kunit-module

help:
	@sed -n '1,/^$$/s/^# \{0,1\}//p' Makefile

# The ioctl fuzzer (userspace/fuzz) in the VM: make fuzz [ITER=N] [SEED=S]
# (N calls, default 100000; seed 1).  The run fails on any kernel warning
# (scripts/vm-run.sh), a fuzzer crash, a uAPI anomaly or a failed smoke test;
# KERNEL=debug runs it on the debug kernel.
ITER ?= 100000
SEED ?= 1
.PHONY: fuzz
fuzz: vm-build
	@V=1 VM_TIMEOUT=$${VM_TIMEOUT:-$$(( $(ITER) / 1000 + 600 ))} \
		$(S)/vm-run.sh --kernel $(KERNEL) \
		--cmd 'vflipq-fuzz --seed $(SEED) --iterations $(ITER)'
