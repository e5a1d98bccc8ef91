# vflipq top-level Makefile: host deps, kernel headers, out-of-tree module,
# igt tests, userspace tools, and the QEMU test VM.
#
#   make [all]            deps + kernel + module + igt tests + userspace
#   make check            host unit tests + all igt subtests in the VM
#   make demo             boot the VM, run modetest, vflipq-capture and
#                         present-demo (libpresent, hybrid pair) -> out/
#   make KERNEL=6.1 ...   same against Debian's 6.1 kernel (default 6.12)
#   make sparse | checkpatch | clean | help
#
# Kernels, .debs and the linux-source tree are cached in $(VFLIPQ_CACHE)
# (default ~/.cache/vflipq); build products go to build/, results to out/.

KERNEL ?= 6.12
VFLIPQ_CACHE ?= $(HOME)/.cache/vflipq
export VFLIPQ_CACHE KERNEL

S := $(CURDIR)/scripts
BUILD := $(CURDIR)/build
# KDIR: by default the header tree of $(KERNEL) unpacked in the cache
# (scripts/kernel.sh); "make module KDIR=/path/to/headers" builds against
# another prepared tree instead (module/sparse only; the VM needs the cache).
ifdef KDIR
export KDIR
endif

IGT_DIR := igt-tests
USER_DIR := userspace

.PHONY: all deps kernel module igt userspace sparse checkpatch host-tests \
	check vm-check demo vm-cmd clean distclean help

all: module igt userspace

deps:
	@$(S)/deps.sh

kernel: deps
	@$(S)/kernel.sh fetch $(KERNEL) >/dev/null

module: kernel
	@$(S)/build-module.sh $(KERNEL)

sparse: kernel
	@$(S)/build-module.sh --sparse $(KERNEL)

checkpatch: deps
	@$(S)/checkpatch.sh

igt: deps
	@if [ -f $(IGT_DIR)/Makefile ]; then \
		$(MAKE) -C $(IGT_DIR) BUILD=$(BUILD)/igt; \
	else echo "[vflipq] $(IGT_DIR)/Makefile not there yet, skipping igt tests"; fi

userspace: deps
	@if [ -f $(USER_DIR)/Makefile ]; then \
		$(MAKE) -C $(USER_DIR) BUILD=$(BUILD)/userspace; \
	else echo "[vflipq] $(USER_DIR)/Makefile not there yet, skipping userspace"; fi

# Host unit tests: "make check" of tests/unit, userspace, igt-tests (if any).
host-tests: deps
	@BUILD=$(BUILD) $(S)/host-tests.sh

# Host unit tests + the VM run; the last line is "N passed, M failed, K skipped".
check: all
	@BUILD=$(BUILD) $(S)/check.sh $(KERNEL)

# Only the VM part (assumes "make all" was done).
vm-check: kernel
	@$(S)/vm-run.sh --kernel $(KERNEL) --job tests

demo: all
	@$(S)/vm-run.sh --kernel $(KERNEL) --job demo

# Run one command in the VM:  make vm-cmd CMD='modetest -M vflipq -c'
vm-cmd: all
	@V=1 $(S)/vm-run.sh --kernel $(KERNEL) --cmd '$(CMD)'

clean:
	rm -rf build out

# Also drop the kernel/.deb/linux-source cache.
distclean: clean
	rm -rf $(VFLIPQ_CACHE)/kernels $(VFLIPQ_CACHE)/debs $(VFLIPQ_CACHE)/linux-source

help:
	@sed -n '1,/^$$/s/^# \{0,1\}//p' Makefile
