#!/bin/sh
# vflipq-bench-vkms: load the kernel's vkms as the baseline of "make bench"
# (busybox sh, in the VM; called by vflipq-bench-run).
#
# A vkms with configfs (the 7.2 and 7.3 test kernels' own vkms.ko) gets no
# default device (create_default_dev=0) but one configfs device shaped like
# the benchmarks' scenario, so that nothing needs scaling: 4 CRTCs (the
# memory benchmark's four swap chains, as vflipq's 4-CRTC device), each with
# a primary plane, two overlays and a cursor (the composer's overlay scene),
# in that plane order, which is vkms' blending order (it has no zpos), an
# encoder and a connected connector.  CRTC 0 is what the composer and latency
# benchmarks use, as on the default device.
# An older vkms (6.12's) has no configfs: its default device, one CRTC with
# its overlay and cursor planes (the memory benchmark scales it to 4 CRTCs).
#
# Exit status: 0 when a vkms device is up (or vkms was loaded already).
VKMS_CRTCS=${VKMS_CRTCS:-4}
VKMS_OVERLAYS=${VKMS_OVERLAYS:-2}
CFS=/sys/kernel/config

if grep -q '^vkms ' /proc/modules; then
	echo "bench: vkms already loaded, used as it is"
	exit 0
fi
if ! modinfo -F parm vkms 2>/dev/null | grep -q '^create_default_dev:'; then
	modprobe vkms enable_overlay=1 enable_cursor=1 || exit 1
	echo "bench: vkms: default device (no configfs in this vkms)"
	exit 0
fi

modprobe vkms create_default_dev=0 || exit 1
d=$CFS/vkms/bench
ncards() {
	set -- /dev/dri/card*
	if [ -e "$1" ]; then echo $#; else echo 0; fi
}
# mk DIR [ATTR VALUE]: create a configfs item and set one attribute.
mk() {
	mkdir "$1" || return 1
	[ $# -lt 3 ] || echo "$3" >"$1/$2" || return 1
}
setup() {
	mk "$d" || return 1
	i=0
	while [ $i -lt "$VKMS_CRTCS" ]; do
		c=$d/crtcs/crtc$i
		mk "$c" || return 1
		# Plane types as the "type" property: 1 primary, 0 overlay, 2 cursor.
		mk "$d/planes/primary$i" type 1 || return 1
		ln -s "$c" "$d/planes/primary$i/possible_crtcs/" || return 1
		o=0
		while [ $o -lt "$VKMS_OVERLAYS" ]; do
			p=$d/planes/overlay$i-$o
			mk "$p" type 0 && ln -s "$c" "$p/possible_crtcs/" || return 1
			o=$((o + 1))
		done
		mk "$d/planes/cursor$i" type 2 || return 1
		ln -s "$c" "$d/planes/cursor$i/possible_crtcs/" || return 1
		mk "$d/encoders/encoder$i" || return 1
		ln -s "$c" "$d/encoders/encoder$i/possible_crtcs/" || return 1
		mk "$d/connectors/connector$i" status 1 || return 1
		ln -s "$d/encoders/encoder$i" \
			"$d/connectors/connector$i/possible_encoders/" || return 1
		i=$((i + 1))
	done
	cards=$(ncards)
	echo 1 >"$d/enabled" || return 1
	# devtmpfs creates the card node asynchronously.
	n=0
	while [ "$(ncards)" -le "$cards" ] && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ $n -lt 50 ]
}
if ! setup; then
	echo "bench: vkms: cannot set up the configfs device $d"
	dmesg | grep -i vkms | tail -n 5
	exit 1
fi
echo "bench: vkms: configfs device $VKMS_CRTCS CRTCs x (primary + $VKMS_OVERLAYS overlays + cursor)"
