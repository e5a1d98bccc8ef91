#!/bin/sh
# vflipq-bench-run: the guest side of "make bench" (busybox sh, in the VM).
# Loads vkms beside vflipq, creates a 4-CRTC vflipq device for the memory
# benchmark, runs every benchmark of vflipq-bench once per driver, and
# leaves the "BENCH {json}" lines in /out/bench-raw.txt and raw samples in
# /out/bench-data/ (the host turns them into out/bench.{json,md} + plots).
#
# Env: BENCH_QUICK=1 (short runs, for trying things out),
#      BENCH_ONLY="composer damage latency flipq idle caso memory memcpy" (subset),
#      BENCH_TIMEOUT (seconds per benchmark program, default 300).
# Exit status: 1 if any benchmark could not run (the numbers never fail it).
OUT=${OUT:-/out}
DATA=$OUT/bench-data
RAW=$OUT/bench-raw.txt
mkdir -p "$DATA"
: >"$RAW"
rc=0

S=3 REPS=3 FLIPS=200 FRAMES=120 ONTIME=3600 COUNT=200 PRESENTS=150
DFRAMES=120
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	S=1 REPS=2 FLIPS=40 FRAMES=32 ONTIME=240 COUNT=64 PRESENTS=45
	# A full 1080p composition spans 2-3 vblanks in the VM: 32 would leave
	# fewer than the 15 compositions the damage benchmark needs.
	DFRAMES=64
fi
ONLY=${BENCH_ONLY:-composer damage latency flipq idle caso memory memcpy}
want() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }

now() { cut -d' ' -f1 /proc/uptime; }
t_all=$(now)

# run LABEL CMD...: run one benchmark (output streamed to the console, at
# most $TMO seconds), keep its BENCH lines, note failures.
TMO=${BENCH_TIMEOUT:-300}
run() {
	label=$1; shift
	t0=$(now)
	echo "bench: $label: $*"
	# Shortly before the timeout: show where it is stuck.
	(
		sleep $((TMO - 5))
		echo "bench: $label still running after $((TMO - 5))s; stacks:"
		for p in $(pidof vflipq-bench); do
			for t in /proc/$p/task/*; do
				echo "bench: task ${t##*/} ($(cut -d' ' -f3 $t/stat)):"
				sed 's/^/bench:   /' $t/stack
			done
		done
		echo w >/proc/sysrq-trigger
	) &
	wd=$!
	{ timeout "$TMO" "$@" 2>&1; echo $? >/tmp/bench.rc; } | tee /tmp/bench.out
	kill $wd 2>/dev/null
	r=$(cat /tmp/bench.rc)
	grep '^BENCH ' /tmp/bench.out >>"$RAW"
	t1=$(now)
	echo "bench: $label done (rc $r, $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')s)"
	if [ "$r" != 0 ]; then
		echo "BENCH-FAIL $label rc=$r" | tee -a "$RAW"
		rc=1
	fi
}

echo "bench: guest $(uname -r), $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
# vkms as the baseline: its configfs device where it has one (7.x).
if ! vflipq-bench-vkms; then
	echo "BENCH-FAIL load-vkms rc=1" | tee -a "$RAW"
	rc=1
fi
for c in /dev/dri/card*; do
	echo "bench: $c: $(cat /sys/kernel/debug/dri/${c##*card}/name 2>/dev/null)"
done
echo "bench: modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"

B="vflipq-bench --data $DATA"

# mkdev NAME [ATTR VALUE]...: create and enable a configfs vflipq device and
# wait for its card node (devtmpfs creates it asynchronously).
mkdev() {
	d=/sys/kernel/config/vflipq/$1; shift
	mkdir "$d" || return 1
	while [ $# -ge 2 ]; do echo "$2" >"$d/$1" || return 1; shift 2; done
	echo 1 >"$d/enabled" || return 1
	n=0
	while [ ! -e /dev/dri/card$(cat "$d/card") ] && [ $n -lt 50 ]; do
		sleep 0.1; n=$((n + 1))
	done
}
rmdev() {
	d=/sys/kernel/config/vflipq/$1
	[ -d "$d" ] || return 0
	echo 0 >"$d/enabled"
	rmdir "$d"
}
# mkidle [ATTR VALUE]...: the 8 devices x 4 CRTCs of the lit-outputs runs,
# idle0-7, their names in $names; false if one could not be made.
mkidle() {
	names=""
	for i in 0 1 2 3 4 5 6 7; do
		mkdev idle$i crtcs 4 "$@" || return 1
		names="$names${names:+,}idle$i"
	done
}
rmidle() { for i in 0 1 2 3 4 5 6 7; do rmdev idle$i; done; }

if want memcpy; then
	run memcpy $B memcpy 5
fi
if want composer; then
	# At vflipq's highest refresh (VFLIPQ_MODE_MAX_REFRESH), for both
	# drivers: a flip waits for the vblank after its composition, so at
	# 60 Hz the rows would show the refresh rate, not what composes.
	for scene in primary overlays fp16; do
		for drv in vflipq vkms; do
			run "composer-$scene-$drv" $B composer --driver $drv \
				--scene $scene --hz 240 --seconds $S --reps $REPS
		done
	done
fi
if want damage; then
	run damage $B damage --frames $DFRAMES --reps $REPS
fi
if want latency; then
	# One repetition each in turn: host load drift falls on both drivers.
	run latency $B latency --driver vflipq --baseline vkms --flips $FLIPS \
		--reps $REPS
fi
if want flipq; then
	run flipq-events $B flipq-events --frames $FRAMES --reps $REPS
	run flipq-ontime $B flipq-ontime --flips $ONTIME --segments 3
	run submit-cost $B submit-cost --count $COUNT --reps $REPS
fi
if want idle; then
	# 8 devices x 4 CRTCs, every one lit with queued flips running.
	if mkidle; then
		run idle-vflipq $B idle --names "$names" --seconds $S --reps $REPS
		# The same flips, one client wake-up per batch for all outputs.
		run idle-vflipq-one-wake $B idle --names "$names" --seconds $S \
			--reps $REPS --one-wake
	else
		echo "BENCH-FAIL idle-vflipq: cannot create the configfs devices" | tee -a "$RAW"
		rc=1
	fi
	rmidle
	# The baseline of the all-outputs row: the same devices with each
	# CRTC's vblanks from its own mode set (vblank_align 0), 0 and 32 lit.
	if mkidle vblank_align 0; then
		run idle-vflipq-unaligned $B idle --names "$names" \
			--seconds $S --reps $REPS --steps 0,32 \
			--label "vflipq, vblanks not aligned (vblank_align 0)"
	else
		echo "BENCH-FAIL idle-vflipq-unaligned: cannot create the configfs devices" | tee -a "$RAW"
		rc=1
	fi
	rmidle
	# The same with the queue 32 deep and batches of 16 (a quarter second
	# of video queued ahead): what the depth buys.
	if mkidle flipq_depth 32; then
		run idle-vflipq-batch16 $B idle --names "$names" --seconds $S \
			--reps $REPS --batch 16
	else
		echo "BENCH-FAIL idle-vflipq-batch16: cannot create the configfs devices" | tee -a "$RAW"
		rc=1
	fi
	rmidle
	run idle-vkms $B idle --driver vkms --seconds $S --reps $REPS
fi
if want caso; then
	# A hybrid pair: a render-only adapter and a tier-3 display adapter.
	if mkdev caso-render crtcs 0 &&
	   mkdev caso-display crtcs 1 hybrid_integrated 1; then
		run caso $B caso --render caso-render --display caso-display \
			--presents $PRESENTS --reps $REPS
	else
		echo "BENCH-FAIL caso: cannot create the configfs devices" | tee -a "$RAW"
		rc=1
	fi
	rmdev caso-display
	rmdev caso-render
fi
if want memory; then
	# A 4-CRTC vflipq device (the default one has 2); vkms has 4 on 7.x
	# (vflipq-bench-vkms), 1 on 6.12 (scaled).
	if mkdev bench4 crtcs 4; then
		run memory-vflipq $B memory --driver vflipq --name bench4 \
			--crtcs 4 --reps $REPS
		rmdev bench4
	else
		echo "BENCH-FAIL memory-vflipq: cannot create the configfs device" | tee -a "$RAW"
		rc=1
	fi
	run memory-vkms $B memory --driver vkms --crtcs 4 --reps $REPS
	# Like for like on one CRTC, unscaled.
	run memory-vflipq-1crtc $B memory --driver vflipq --crtcs 1 \
		--reps $REPS --suffix _1crtc
	run memory-vkms-1crtc $B memory --driver vkms --crtcs 1 \
		--reps $REPS --suffix _1crtc
fi
echo "bench: all done in $(awk -v a="$t_all" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')s, rc $rc"
exit $rc
