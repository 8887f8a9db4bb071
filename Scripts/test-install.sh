#!/usr/bin/env bash
# Checks the tool installed as users install it, without changing the machine:
#   1. `make install` into a scratch DESTDIR: the tool runs `version` and `demo` from there with a bare environment
#      (nothing from the build tree on any path, no Swift runtime beside it); the udev rule; bash loads its completion
#      script and completes, zsh and fish read theirs and find them where they look; man renders the manual page
#      without warnings and finds it under the prefix; then `make uninstall` leaves no file behind.
#   2. `make deb`: its control fields and contents (dpkg-deb --info, --contents), lintian, then an install into a
#      scratch root with `dpkg --root` (its Depends checked against the packages this machine has, by dpkg itself),
#      the tool run from there, and a purge that leaves no file behind. As a user other than root, dpkg cannot
#      install, so the package is unpacked with dpkg-deb -x and the tool run from there instead.
# The tool is built once, as `make release` builds it (shared with test-vivid). Prints a line a check and
# `install: N passed, N failed`; exits non-zero on any failure.
# Usage: Scripts/test-install.sh   (environment: SWIFT=swift, MAKE=make)
set -euo pipefail
repository=$(cd "$(dirname "$0")/.." && pwd)
cd "$repository"
make=${MAKE:-make}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0

# Runs a check: a function and its arguments. Prints its name and what it printed; failing commands in a check do
# not stop it (it runs as a condition), so each check says `|| fail` where a command must succeed.
check() {
    local name=$1 output
    shift
    if output=$("$@" 2>&1); then
        echo "install PASS $name${output:+: $output}"
        passed=$((passed + 1))
    else
        echo "install FAIL $name"
        sed 's/^/    /' <<<"$output"
        failed=$((failed + 1))
    fi
}

fail() {
    echo "$*"
    return 1
}

# Runs the tool at $1 with arguments $2... as a new login would: a bare environment, in a scratch directory.
run_bare() {
    local tool=$1
    shift
    mkdir -p "$scratch/home"
    (cd "$scratch/home" && env -i PATH=/usr/bin:/bin HOME="$scratch/home" LANG=C.UTF-8 "$tool" "$@")
}

# The tool at $1 runs by itself: `version` prints the version, `demo` shoots and saves its files; no library comes
# from the build tree and none is missing.
tool_runs() {
    local tool=$1 libraries output
    libraries=$(ldd "$tool")
    ! grep -qE "not found|$repository|libswift" <<<"$libraries" || fail "$(grep -E "not found|$repository|libswift" <<<"$libraries")"
    output=$(run_bare "$tool" version)
    [ "$output" = "viewfinder $version" ] || fail "version printed '$output'"
    rm -rf "$scratch/demo"
    output=$(run_bare "$tool" demo --out "$scratch/demo" --live-view 1 2>&1) || fail "demo failed: $output"
    [ -s "$scratch/demo/DSC_0001.JPG" ] && [ -s "$scratch/demo/live-view.jpg" ] || fail "demo saved $(ls "$scratch/demo")"
    echo "version $version, demo saved $(ls "$scratch/demo" | tr '\n' ' ')"
}

udev_rule() {
    local rule=$1
    grep -qxF 'SUBSYSTEM=="usb", ENV{DEVTYPE}=="usb_device", ENV{ID_USB_INTERFACES}=="*:060101:*", TAG+="uaccess"' "$rule" \
        || fail "$rule has no uaccess line for the still-image class"
    # systemd 253 and later check rules files themselves.
    if udevadm verify --help >/dev/null 2>&1; then udevadm verify "$rule"; fi
}

bash_completion() {
    local script=$1 output
    output=$(bash -c 'source "$0" && complete -p viewfinder' "$script" 2>&1)
    [ "$output" = "complete -F _viewfinder viewfinder" ] || fail "complete -p: $output"
    output=$(bash -c 'source "$0"; COMP_WORDS=(viewfinder camera ""); COMP_CWORD=2; _viewfinder; echo "${COMPREPLY[*]}"' \
        "$script" 2>&1)
    [[ " $output " == *" info "*" shoot "* ]] || fail "'viewfinder camera ' offered: $output"
}

# zsh reads the script, and compinit registers it for the tool from the directory it was installed into.
zsh_completion() {
    local script=$1 output
    zsh -n "$script" || fail "zsh -n failed"
    output=$(zsh -f -c 'fpath=($0 $fpath); autoload -Uz compinit; compinit -u -D; print -r -- $_comps[viewfinder]' \
        "$(dirname "$script")")
    [ "$output" = _viewfinder ] || fail "compinit registered '$output' for viewfinder"
}

# fish reads the script, and loads it from the directory it was installed into when completing the tool (which it
# does for a command on the PATH).
fish_completion() {
    local script=$1 tools=$2 output
    fish -n "$script" || fail "fish -n failed"
    output=$(fish --no-config -c 'set -p fish_complete_path $argv[1]; set -p PATH $argv[2]; complete -C "viewfinder camera "' \
        "$(dirname "$script")" "$tools")
    grep -q "^info	" <<<"$output" || fail "'viewfinder camera ' offered: $output"
}

# man renders the page without warnings (as lintian checks it) and finds it under the prefix's manual directory.
manual_page() {
    local page=$1 manuals=$2 output
    output=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
    [ -z "$output" ] || fail "man warns: $output"
    man -l "$page" 2>/dev/null | grep -q "viewfinder camera info \[options\]" || fail "no 'viewfinder camera info' in the page"
    output=$(man -M "$manuals" -w viewfinder)
    [ "$output" = "$page" ] || fail "man -w found '$output'"
}

nothing_left() {
    local files
    files=$(find "$1" -type f -o -type l)
    [ -z "$files" ] || fail "left: $files"
}

# 1. make install and make uninstall.
echo "install: building the tool (release, Swift runtime linked in) as make release does"
started=$(date +%s)
"$make" --no-print-directory release >"$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; exit 1; }
echo "install: built in $(($(date +%s) - started)) s"
version=$(.build-static/release/viewfinder version | awk '{print $2}')
destination="$scratch/destination"
prefix=/usr/local
"$make" --no-print-directory install DESTDIR="$destination" >"$scratch/install.log" 2>&1 \
    || { cat "$scratch/install.log"; exit 1; }
installed="$destination$prefix"
check "make install: the tool runs from $prefix/bin" tool_runs "$installed/bin/viewfinder"
check "make install: the udev rule" udev_rule "$installed/lib/udev/rules.d/60-viewfinder.rules"
check "make install: bash completion" bash_completion "$installed/share/bash-completion/completions/viewfinder"
check "make install: zsh completion" zsh_completion "$installed/share/zsh/site-functions/_viewfinder"
check "make install: fish completion" fish_completion "$installed/share/fish/vendor_completions.d/viewfinder.fish" \
    "$installed/bin"
check "make install: manual page" manual_page "$installed/share/man/man1/viewfinder.1" "$installed/share/man"
"$make" --no-print-directory uninstall DESTDIR="$destination" >/dev/null
check "make uninstall leaves no file" nothing_left "$destination"

# 2. make deb.
"$make" --no-print-directory deb >"$scratch/deb.log" 2>&1 || { cat "$scratch/deb.log"; exit 1; }
package=$(tail -n 1 "$scratch/deb.log")

control_fields() {
    local info
    info=$(dpkg-deb --info "$package")
    for field in "Package: viewfinder" "Version: $version" "Architecture: $(dpkg --print-architecture)"; do
        grep -qxF " $field" <<<"$info" || fail "no '$field' in: $info"
    done
    grep -qE "^ Depends: .*libc6 \(>= [0-9.]+\).*libturbojpeg0" <<<"$info" || fail "Depends: $(grep Depends <<<"$info")"
    grep "^ Depends:" <<<"$info"
}

contents() {
    local expected listed
    expected="./usr/bin/viewfinder
./usr/lib/udev/rules.d/60-viewfinder.rules
./usr/share/bash-completion/completions/viewfinder
./usr/share/doc/viewfinder/changelog.gz
./usr/share/doc/viewfinder/copyright
./usr/share/fish/vendor_completions.d/viewfinder.fish
./usr/share/man/man1/viewfinder.1.gz
./usr/share/zsh/vendor-completions/_viewfinder"
    listed=$(dpkg-deb --contents "$package" | awk '$1 !~ /^d/ {print $6}' | sort)
    [ "$listed" = "$expected" ] || fail "contents: $listed"
    ! dpkg-deb --contents "$package" | awk '{print $2}' | grep -qv '^root/root$' || fail "files not owned by root"
}

lintian_clean() {
    local output status=0
    command -v lintian >/dev/null || fail "lintian is not installed (make test-deps installs it)"
    output=$(lintian --fail-on error,warning "$package" 2>&1) || status=$?
    grep -v "running with root privileges" <<<"$output" || true
    return "$status"
}

# Installs the package into a scratch root whose dpkg database holds only the packages its Depends name, copied from
# this machine's, so dpkg checks the Depends; runs the tool; purges it.
install_and_purge() {
    local target="$scratch/root" database dependency name
    database="$target/var/lib/dpkg"
    mkdir -p "$database/info" "$database/updates" "$database/triggers"
    touch "$database/available"
    for dependency in $(dpkg-deb --field "$package" Depends | tr ',|' '\n\n' | awk '{print $1}' | sort -u); do
        name=$(dpkg-query -W -f='${binary:Package}' "$dependency") || fail "$dependency is not installed here"
        dpkg-query -s "$name" >>"$database/status"
        echo >>"$database/status"
        touch "$database/info/$name.list"
    done
    dpkg --root="$target" --log="$target/dpkg.log" --install "$package" >/dev/null || fail "dpkg --install failed"
    dpkg-query --admindir="$database" -W -f='${Status}' viewfinder | grep -qx "install ok installed" \
        || fail "viewfinder is not installed in the scratch root"
    tool_runs "$target/usr/bin/viewfinder" || return 1
    dpkg --root="$target" --log="$target/dpkg.log" --purge viewfinder >/dev/null || fail "dpkg --purge failed"
    ! dpkg-query --admindir="$database" -W viewfinder >/dev/null 2>&1 || fail "viewfinder is still in the database"
    rm -rf "$target/var" "$target/dpkg.log"
    nothing_left "$target"
}

unpack_and_run() {
    dpkg-deb -x "$package" "$scratch/unpacked" || fail "dpkg-deb -x failed"
    tool_runs "$scratch/unpacked/usr/bin/viewfinder"
}

check "make deb: control fields" control_fields
check "make deb: contents" contents
check "make deb: lintian" lintian_clean
if [ "$(id -u)" -eq 0 ]; then
    check "make deb: installs into a scratch root, runs, and purges" install_and_purge
else
    check "make deb: unpacks and runs (installing needs root)" unpack_and_run
fi

echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
