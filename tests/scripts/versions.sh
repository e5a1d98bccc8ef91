#!/bin/bash
# The package versions follow the uAPI version (uapi/drm/vflipq_drm.h):
# dkms.conf's PACKAGE_VERSION and the meson project's version start with
# its MAJOR.MINOR (the driver's DRM_IOCTL_VERSION numbers are the uAPI
# macros themselves).  A uAPI bump that forgets one of them is caught here,
# in make check, before make dkms-check meets it.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
pass=0 fail=0
check() { # NAME VALUE: VALUE must start with the uAPI version
	if [[ $2 == "$uapi".* ]]; then
		pass=$((pass + 1))
	else
		echo "FAIL versions: $1 is '$2', not $uapi.*"
		fail=$((fail + 1))
	fi
}
uapi=$(awk '$1 == "#define" && $2 == "VFLIPQ_UAPI_VERSION_MAJOR" { M = $3 }
	$1 == "#define" && $2 == "VFLIPQ_UAPI_VERSION_MINOR" { m = $3 }
	END { print M "." m }' "$top/uapi/drm/vflipq_drm.h")
check dkms.conf "$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")"
check meson.build "$(sed -n "s/^[[:space:]]*version: '\(.*\)',$/\1/p" "$top/meson.build" | head -n1)"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
