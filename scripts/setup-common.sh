# Sourced by scripts/demo and scripts/test: install what the build needs on
# Debian 12 (when missing and we can), then configure a build directory.
set -euo pipefail

PMS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# What building needs (the test executables are built too: CUnit); scripts/test
# adds what only its own steps use (gcovr, valgrind, groff for the man-page check).
PMS_PACKAGES=(gcc meson ninja-build pkg-config libglib2.0-dev libcunit1-dev python3)

pms_install_packages() {
    local missing=()
    for p in "${PMS_PACKAGES[@]}" "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "pmusim: installing missing Debian packages: ${missing[*]}" >&2
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else
            echo "pmusim: cannot install ${missing[*]}: not root and no sudo; install them and re-run" >&2
            return 1
        fi
    fi
    if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; then
        "${sudo[@]}" apt-get update >/dev/null
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

# pms_configure DIR [meson options...]: set up DIR once, reconfigure when it exists.
pms_configure() {
    local dir=$1; shift
    if [ -d "$PMS_TOP/$dir" ]; then
        meson configure "$PMS_TOP/$dir" "$@" >/dev/null
    else
        meson setup "$PMS_TOP/$dir" "$PMS_TOP" "$@" >/dev/null
    fi
}
