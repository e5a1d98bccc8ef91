#!/bin/bash
# Build an initramfs archive that adds the host's perf to the test VM, for
# profiling in the guest (there is no PMU under TCG: sample with the
# software event cpu-clock).
#
#   scripts/perf-cpio.sh [OUTPUT.cpio]          (default build/perf.cpio)
#   VM_EXTRA_CPIO=build/perf.cpio make vm-cmd CMD='perf record -a -g \
#       -e cpu-clock -F 500 -o /out/perf.data -- vflipq-bench idle ...; \
#       perf report -i /out/perf.data --stdio --sort comm,sym | head -80'
#
# perf is Debian's linux-perf (apt-get install linux-perf; 6.1 reads 6.12
# and 7.x kernels): the binary and every library ldd names go in at their
# host paths.  Files the job writes under /out come back in the results
# directory.  What cpu-clock cannot see: time with interrupts off is
# charged to the instruction that turns them back on (spin_unlock_irq),
# so a lock section shows up as its unlock.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:-$VFLIPQ_TOP/build/perf.cpio}
perf=$(command -v perf) || die "no perf on the host (apt-get install linux-perf)"
perf=$(readlink -f "$perf")
work=$(mktemp -d "$VFLIPQ_TOP/build/perf-cpio.XXXXXX")
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/usr/bin"
cp "$perf" "$work/usr/bin/perf"
ldd "$perf" | awk '/=> \//{ print $3 } /^\t\/[^ ]*ld-linux/{ print $1 }' |
while read -r lib; do
	mkdir -p "$work$(dirname "$lib")"
	cp -L "$lib" "$work$lib"
done
mkdir -p "$(dirname "$out")"
(cd "$work" && find . | cpio -o -H newc --quiet) >"$out"
msg "perf for the VM: $out ($(du -h "$out" | cut -f1)); use VM_EXTRA_CPIO=$out"
