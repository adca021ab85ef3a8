#!/usr/bin/env bash
# Set up webshellfs on a Debian/Ubuntu machine, then mount it or run the tests.
#
#   ./mount.sh [MOUNTPOINT] [webshellfs options…]   set up, then mount (default /mnt/web); where
#                                                    FUSE cannot be used, serve MOUNTPOINT as
#                                                    plain files instead (--no-fuse)
#   ./mount.sh --test [pytest arguments…]           set up, then run the test suite
#   ./mount.sh --demo [MOUNTPOINT]                   offline demo: the local fixture site and
#                                                    its local search, no internet needed
#
# Setting up installs only what is missing: the apt packages (fuse3, libfuse3-dev, pkg-config,
# chromium) and a virtualenv in .venv with the package. It is safe to run again.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
apt_packages=(fuse3 libfuse3-dev pkg-config chromium python3-venv python3-dev gcc patch)
# pyfuse3 is built from source with webshellfs's patch (see the patch file for why); the local
# version label says which patch level is installed.
pyfuse3_version=3.5.0
pyfuse3_build="$pyfuse3_version+webshellfs.1"
pyfuse3_patch="$here/webshellfs/pyfuse3-unopened.patch"

say() { printf 'mount.sh: %s\n' "$*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_system_packages() {
    local missing=()
    for pkg in "${apt_packages[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' \
            || missing+=("$pkg")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]}"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

pick_python() {
    for candidate in python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null \
            && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"
            return
        fi
    done
    say "Python 3.11 or newer is needed"
    exit 1
}

install_patched_pyfuse3() {
    local installed
    installed="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("pyfuse3"))' \
        2>/dev/null || true)"
    [ "$installed" = "$pyfuse3_build" ] && return
    say "building pyfuse3 $pyfuse3_build (pyfuse3 $pyfuse3_version with webshellfs's patch)"
    local work
    work="$(mktemp -d)"
    "$venv/bin/pip" download -q --no-deps --no-binary :all: "pyfuse3==$pyfuse3_version" -d "$work"
    tar -xzf "$work"/pyfuse3-*.tar.gz -C "$work"
    patch -s -p1 -d "$work/pyfuse3-$pyfuse3_version" <"$pyfuse3_patch"
    SETUPTOOLS_SCM_PRETEND_VERSION="$pyfuse3_build" \
        "$venv/bin/pip" install -q --no-deps --force-reinstall "$work/pyfuse3-$pyfuse3_version"
    rm -rf "$work"
}

install_python_package() {
    local extras="$1"
    if [ ! -x "$venv/bin/python" ]; then
        say "creating $venv"
        "$(pick_python)" -m venv "$venv"
    fi
    install_patched_pyfuse3
    local stamp="$venv/.installed-$extras"
    if [ ! -f "$stamp" ] || [ "$here/pyproject.toml" -nt "$stamp" ]; then
        say "installing webshellfs[$extras] into $venv"
        "$venv/bin/pip" install -q --upgrade pip >/dev/null
        "$venv/bin/pip" install -q -e "$here[$extras]"
        touch "$stamp"
    fi
}

# A daemon killed without unmounting leaves "Transport endpoint is not connected" behind;
# a lazy unmount clears it so the mountpoint can be used again.
clear_stale_mount() {
    local mountpoint="$1"
    if ! stat "$mountpoint" >/dev/null 2>&1 && grep -qs " $(realpath -m "$mountpoint") fuse" /proc/mounts; then
        say "clearing a stale mount at $mountpoint (its daemon died)"
        fusermount3 -u -z "$mountpoint" 2>/dev/null || as_root umount -l "$mountpoint"
    fi
}

# Why FUSE cannot be mounted here, or nothing if it can: containers often have no /dev/fuse, or
# no right to mount (CAP_SYS_ADMIN missing from the bounding set: not even root may mount).
fuse_unusable() {
    local bounding
    bounding="$(awk '/^CapBnd:/ {print $2}' /proc/self/status 2>/dev/null || true)"
    if [ ! -c /dev/fuse ]; then
        echo "no /dev/fuse"
    elif ! (exec 3<>/dev/fuse) 2>/dev/null; then
        echo "/dev/fuse cannot be opened"
    elif ! command -v fusermount3 >/dev/null; then
        echo "no fusermount3"
    elif [ -n "$bounding" ] && (( (16#$bounding >> 21 & 1) == 0 )); then
        echo "no right to mount (CAP_SYS_ADMIN)"
    fi
}

# The offline demo serves the fixture site (fixtures/site/) on loopback; the local search
# backend resolves the index's relative URLs against it. Its own cache keeps demo pages out of
# the real one; the site outlives the mount (its pid is kept beside the cache, to stop it).
start_demo_site() {
    local port="${WEBSHELL_DEMO_PORT:-8765}"
    demo_cache="${XDG_CACHE_HOME:-$HOME/.cache}/webshellfs/demo.sqlite"
    local demo_dir
    demo_dir="$(dirname "$demo_cache")"
    mkdir -p "$demo_dir"
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        (cd "$here" && exec setsid "$venv/bin/python" -m tests.site "$port" \
            </dev/null >"$demo_dir/demo-site.log" 2>&1) &
        echo $! >"$demo_dir/demo-site.pid"
        disown
        for _ in $(seq 50); do
            (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
            sleep 0.1
        done
    fi
    export WEBSHELL_SEARCH_BASE="http://127.0.0.1:$port/"
    say "demo site at $WEBSHELL_SEARCH_BASE (set WEBSHELL_DEMO_PORT to move it); cache $demo_cache"
}

install_system_packages

if [ "${1:-}" = "--test" ]; then
    shift
    install_python_package "test,bench"
    cd "$here"
    exec "$venv/bin/python" -m pytest "$@"
fi

install_python_package "test"
demo_options=()
if [ "${1:-}" = "--demo" ]; then
    shift
    start_demo_site
    demo_options=(--allow-private --cache "$demo_cache"
                  --search "local=$here/fixtures/search/site-index.tsv")
fi
mountpoint="${1:-/mnt/web}"
[ $# -gt 0 ] && shift
no_fuse=""
for option in "$@"; do [ "$option" = "--no-fuse" ] && no_fuse=yes; done
if [ -z "$no_fuse" ] && reason="$(fuse_unusable)" && [ -n "$reason" ]; then
    say "FUSE cannot be used here ($reason): serving $mountpoint as plain files instead (--no-fuse)"
    no_fuse=yes
    set -- --no-fuse "$@"
fi
clear_stale_mount "$mountpoint"
if [ -z "$no_fuse" ] && mountpoint -q "$mountpoint" 2>/dev/null; then
    say "$mountpoint is already mounted; unmount it first: fusermount3 -u $mountpoint"
    exit 1
fi
mkdir -p "$mountpoint" 2>/dev/null || as_root install -d -o "$(id -u)" -g "$(id -g)" "$mountpoint"
"$venv/bin/webshellfs" "$mountpoint" "${demo_options[@]}" "$@"
if [ -n "$no_fuse" ]; then
    say "serving $mountpoint as plain files; start with: cat $mountpoint/README.md"
    try="$venv/bin/webshell --at $mountpoint retrieve lighthouse"
else
    say "mounted at $mountpoint; start with: cat $mountpoint/README.md"
    try="echo 'retrieve lighthouse' > $mountpoint/.ctl; cat $mountpoint/.ctl"
fi
if [ ${#demo_options[@]} -gt 0 ]; then
    say "demo: try  $try"
fi
