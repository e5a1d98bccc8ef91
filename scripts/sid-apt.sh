#!/bin/bash
# A private apt for Debian sid and experimental, kept in the cache directory.
# The host's own sources (bookworm) are never touched: every call passes its
# own sources list, state and cache directories, so nothing from sid can be
# installed or upgraded on the host by accident.  Only "download" is offered.
#
#   scripts/sid-apt.sh update               refresh the private lists (no-op when
#                                           younger than SID_APT_MAX_AGE s, 1 day)
#   scripts/sid-apt.sh download DIR PKG...  download PKG (name or name=version)
#                                           .debs into DIR (kept when present)
#   scripts/sid-apt.sh policy PKG...        apt-cache policy in the private view
#   scripts/sid-apt.sh show PKG             apt-cache show in the private view
#   scripts/sid-apt.sh depends PKG...       the recursive runtime dependency
#                                           closure (Depends + PreDepends), one
#                                           package name a line
#   scripts/sid-apt.sh apt-get|apt-cache ARGS...  any other call, private view
#
# Layout: $VFLIPQ_CACHE/sid-apt/{sources.list,lists/,cache/,status}.
# The suites' Release files are signed with keys newer than bookworm's keyring
# knows; the sources are marked [trusted=yes] for that reason only.  The .debs
# are fetched by apt, which still checks their sizes and hashes against the
# (unverified) Packages files.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DIR=$VFLIPQ_CACHE/sid-apt
MIRROR=${SID_APT_MIRROR:-http://deb.debian.org/debian}
MAX_AGE=${SID_APT_MAX_AGE:-86400}

setup() {
	mkdir -p "$DIR/lists/partial" "$DIR/cache/archives/partial" "$DIR/etc/preferences.d"
	cat >"$DIR/sources.list.new" <<-EOF
		deb [trusted=yes arch=amd64] $MIRROR sid main
		deb [trusted=yes arch=amd64] $MIRROR experimental main
	EOF
	mv "$DIR/sources.list.new" "$DIR/sources.list"
	# An empty dpkg status: dependency resolution never sees the host's
	# packages, so "depends" lists everything a sysroot needs.
	[ -f "$DIR/status" ] || : >"$DIR/status"
}

# Experimental is never picked unless asked for by version or "-t".
APT_OPTS=()
opts() {
	APT_OPTS=(
		-o "Dir::Etc::sourcelist=$DIR/sources.list"
		-o "Dir::Etc::sourceparts=-"
		-o "Dir::Etc::preferencesparts=$DIR/etc/preferences.d"
		-o "Dir::State::Lists=$DIR/lists"
		-o "Dir::State::status=$DIR/status"
		-o "Dir::Cache=$DIR/cache"
		-o "Debug::NoLocking=1"
		-o "APT::Sandbox::User=root"
		-o "APT::Get::List-Cleanup=0"
		-o "Acquire::Languages=none"
		-o "Acquire::Check-Valid-Until=false"
	)
}

lists_age() {
	local newest
	newest=$(stat -c %Y "$DIR"/lists/*_Packages* 2>/dev/null | sort -n | tail -n1)
	[ -n "$newest" ] || { echo 999999999; return; }
	echo $(( $(date +%s) - newest ))
}

do_update() {
	setup
	opts
	if [ "$(lists_age)" -lt "$MAX_AGE" ] && [ "${1:-}" != --force ]; then
		return 0
	fi
	msg "sid-apt: updating the private sid/experimental lists"
	apt-get -q "${APT_OPTS[@]}" update >&2
}

# depends PKG...: the recursive closure of Depends/PreDepends (first
# alternative of each), virtual packages resolved to their first provider.
do_depends() {
	apt-cache "${APT_OPTS[@]}" depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances "$@" 2>/dev/null |
		awk '/^[a-z0-9]/ { print $1 }' | sed 's/:any$//' | sort -u
}

cmd=${1:-}; [ $# -gt 0 ] && shift
case $cmd in
update) with_cache_lock sid-apt do_update "$@" ;;
download)
	[ $# -ge 2 ] || die "usage: $0 download DIR PKG..."
	dest=$1; shift
	with_cache_lock sid-apt do_update
	opts
	mkdir -p "$dest"
	(cd "$dest" && apt-get -q "${APT_OPTS[@]}" download "$@" >&2)
	;;
policy|show) with_cache_lock sid-apt do_update; opts; apt-cache "${APT_OPTS[@]}" "$cmd" "$@" ;;
depends) with_cache_lock sid-apt do_update; opts; do_depends "$@" ;;
apt-get|apt-cache) with_cache_lock sid-apt do_update; opts; "$cmd" "${APT_OPTS[@]}" "$@" ;;
*) die "usage: $0 update|download|policy|show|depends|apt-get|apt-cache ..." ;;
esac
