#!/bin/bash
# Make the test clips of present-play (Documentation/vflipq/present-play.rst)
# with Debian's ffmpeg: small H.264 files whose every frame differs (IGT's
# testsrc2 pattern moves and counts frames), so that a test decoding the
# file itself knows the CRC of each frame it may see on the screen.
#
#   scripts/mkclips.sh OUTDIR
#
#   play-24.mp4   320x180, 24 fps, 2 s (48 frames), a key frame every 12
#   play-30.mp4   320x180, 30 fps, 2 s (60 frames), a key frame every 15
#   play-vfr.mp4  320x180, 1 s at 24 fps then 1 s at 30 fps (54 frames)
#
# Each clip is made again only when this script is newer than it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:?usage: $0 OUTDIR}
command -v ffmpeg >/dev/null || die "ffmpeg not found (make deps installs it)"
mkdir -p "$out"

# clip NAME FILTER ARGS...: encode lavfi's FILTER into OUTDIR/NAME.
clip() {
	local name=$1 filter=$2 dst=$out/$1
	shift 2
	[ -f "$dst" ] && [ "$dst" -nt "$0" ] && return 0
	ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i "$filter" \
		-c:v libx264 -preset veryfast -pix_fmt yuv420p -bf 0 "$@" \
		"$dst.tmp.mp4" || die "ffmpeg failed on $name"
	mv "$dst.tmp.mp4" "$dst"
	msg "clip $dst: $(stat -c %s "$dst") bytes"
}

clip play-24.mp4 testsrc2=size=320x180:rate=24:duration=2 -g 12 -r 24
clip play-30.mp4 testsrc2=size=320x180:rate=30:duration=2 -g 15 -r 30
# Variable frame rate: frames 0-23 1/24 s apart, frames 24-53 1/30 s apart
# (an mp4 time base of 1/1200 s holds both exactly).
clip play-vfr.mp4 "testsrc2=size=320x180:rate=30:duration=1.8,settb=1/1200,setpts='if(lt(N,24),N*50,1200+(N-24)*40)'" \
	-g 12 -fps_mode passthrough -video_track_timescale 1200 -enc_time_base 1/1200
