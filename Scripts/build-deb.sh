#!/usr/bin/env bash
# Makes a Debian package of a tree that `make install PREFIX=/usr DESTDIR=ROOT` staged: strips the tool, compresses
# its manual page, adds the copyright and changelog files, and writes the control file: Packaging/control's fields,
# the tool's own version, and Depends from the libraries it links (dpkg-shlibdeps); then builds the package with
# dpkg-deb. Needs no network. `make deb` runs it.
#
# Usage: Scripts/build-deb.sh ROOT OUTPUT-DIRECTORY
#        (environment: DEB_MAINTAINER, "Name <address>"; the author of the newest commit unless set)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 ROOT OUTPUT-DIRECTORY" >&2; exit 64; }
repository=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$1" && pwd)
output=$(cd "$2" && pwd)
tool="$root/usr/bin/viewfinder"
[ -x "$tool" ] || { echo "$0: no $tool; stage the tree with 'make install PREFIX=/usr DESTDIR=$1'" >&2; exit 66; }

version=$("$tool" version | awk '{print $2}')
architecture=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-$(git -C "$repository" log -1 --format='%an <%ae>' 2>/dev/null || true)}
[ -n "$maintainer" ] || { echo "$0: set DEB_MAINTAINER to \"Name <address>\"" >&2; exit 64; }
# The package's dates are the newest commit's, so the same commit makes the same changelog.
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$repository" log -1 --format=%ct 2>/dev/null || date +%s)}

# As Debian's own packages have them: the program stripped (as dh_strip does), the manual page compressed, and the
# copyright and changelog files in the documentation directory.
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$tool"
gzip -9n "$root/usr/share/man/man1/viewfinder.1"
documentation="$root/usr/share/doc/viewfinder"
install -d "$documentation"
install -m 0644 "$repository/Packaging/copyright" "$documentation/copyright"
cat <<CHANGELOG | gzip -9n >"$documentation/changelog.gz"
viewfinder ($version) unstable; urgency=medium

  * viewfinder $version, packaged from its source by 'make deb'.

 -- $maintainer  $(LC_ALL=C date -u -R -d "@$epoch")
CHANGELOG
chmod 0644 "$documentation/changelog.gz"

# Depends: the packages of the shared libraries the tool links, at the versions their symbols need. dpkg-shlibdeps
# reads them in a source tree's layout: debian/control, and the package's tree (with its DEBIAN directory) in
# debian/PACKAGE.
install -d -m 0755 "$root/DEBIAN"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/debian"
printf 'Source: viewfinder\n\nPackage: viewfinder\nArchitecture: any\n' >"$work/debian/control"
ln -s "$root" "$work/debian/viewfinder"
depends=$(cd "$work" && dpkg-shlibdeps -O -edebian/viewfinder/usr/bin/viewfinder | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "$0: dpkg-shlibdeps found no libraries for $tool" >&2; exit 1; }

(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
# The control file: Packaging/control's fields, with those that depend on the build after the package's name.
{
    head -n 1 "$repository/Packaging/control"
    echo "Version: $version"
    echo "Architecture: $architecture"
    echo "Maintainer: $maintainer"
    echo "Installed-Size: $(du -sk "$root/usr" | cut -f1)"
    echo "Depends: $depends"
    tail -n +2 "$repository/Packaging/control"
} >"$root/DEBIAN/control"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +

package="$output/viewfinder_${version}_${architecture}.deb"
SOURCE_DATE_EPOCH=$epoch dpkg-deb --build --root-owner-group "$root" "$package" >/dev/null
echo "$package"
