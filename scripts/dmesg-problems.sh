#!/bin/bash
# Kernel problems in a guest's dmesg, one line each: "<subtest>\t<line>",
# the subtest that was running (from the guest runner's "vflipq-run-tests:
# starting|finished <name>" markers) or "-" outside of any.
#
#   scripts/dmesg-problems.sh DMESG.LOG
#
# Used by scripts/vm-run.sh, with the guest's own patterns
# (scripts/guest/dmesg-patterns).  A task dump that somebody asked for
# through sysrq (igt_runner does, when a test exceeds its time: "Show
# State") prints a Call Trace for every task and CPU; those are
# diagnostics, not warnings.  A real report has a line of its own that the
# patterns catch (WARNING:, BUG, "INFO: task ... blocked"), which also ends
# the dump: its Call Trace counts again.  Tested by
# tests/scripts/dmesg-problems.sh.
set -euo pipefail
# shellcheck source=guest/dmesg-patterns
. "$(dirname "$0")/guest/dmesg-patterns"
awk -v re="$DMESG_RE" -v ok="$DMESG_OK_RE" '
	/vflipq-run-tests: starting / { t = $NF; next }
	/vflipq-run-tests: finished / { t = ""; next }
	/sysrq: Show / { sysrq = 1 }
	$0 ~ re && !/Call Trace/ { sysrq = 0 }
	/ task:[^ ]+ +state:/ { task = NR }
	/NMI backtrace for cpu/ { nmi = NR }
	sysrq && /Call Trace/ && (NR - task <= 3 || NR - nmi <= 30) { next }
	$0 ~ re && $0 !~ ok { print (t == "" ? "-" : t) "\t" $0 }' "$1"
