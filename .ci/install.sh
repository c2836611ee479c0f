#!/bin/sh
# make install (DESIGN §6): a release gifview with the Swift runtime linked in statically,
# its desktop entry, icons and manual page under $DESTDIR$PREFIX; the desktop and icon
# caches refreshed; gifview made the user's default for image/gif. Everything it adds is
# recorded in $DESTDIR$PREFIX/share/gifview/install-manifest.txt, which .ci/uninstall.sh
# reads to remove exactly that.
#
# Environment (the Makefile passes its variables):
#   PREFIX               where to install (default /usr/local)
#   DESTDIR              staging root for packagers; with it, no caches and no MIME default
#   NO_MIME_DEFAULT=1    leave the image/gif default alone
#   SWIFT                the swift driver (default swift)
#   INSTALL_BUILD_FLAGS  extra `swift build` flags (the install test passes --ignore-lock)
#   DEB_BUILD            Debian packages the build needs (.ci/ensure-packages installs them)
set -eu
cd "$(dirname "$0")/.."

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
NO_MIME_DEFAULT=${NO_MIME_DEFAULT:-}
SWIFT=${SWIFT:-swift}
INSTALL_BUILD_FLAGS=${INSTALL_BUILD_FLAGS:-}
PNG_SIZES="16 22 24 32 48 64 128 256"

die() { echo "gifview: error: $*" >&2; exit 1; }

case $PREFIX in
  /*) ;;
  *) die "PREFIX must be an absolute path (got '$PREFIX')" ;;
esac
PREFIX=${PREFIX%/}
[ -n "$PREFIX" ] || die "PREFIX must not be /"
# The desktop entry names the binary by its absolute path; keep that path free of what
# would need quoting in its Exec line.
case $PREFIX in
  *[!A-Za-z0-9/._+@,-]*) die "PREFIX may hold letters, digits and / . _ + @ , - only (got '$PREFIX')" ;;
esac
if [ "$(id -u)" != 0 ] && [ "$PREFIX" = /usr/local ] && [ -z "$DESTDIR" ]; then
  die "installing under /usr/local needs root; install for yourself with: make install PREFIX=\$HOME/.local"
fi

# --- build ------------------------------------------------------------------------------
# shellcheck disable=SC2086  # DEB_BUILD and INSTALL_BUILD_FLAGS are word lists
[ -z "${DEB_BUILD:-}" ] || sh .ci/ensure-packages $DEB_BUILD
echo "$SWIFT build -c release --product gifview --static-swift-stdlib $INSTALL_BUILD_FLAGS"
# shellcheck disable=SC2086
"$SWIFT" build -c release --product gifview --static-swift-stdlib $INSTALL_BUILD_FLAGS
# shellcheck disable=SC2086
bindir=$("$SWIFT" build -c release --static-swift-stdlib --show-bin-path $INSTALL_BUILD_FLAGS)
binary="$bindir/gifview"
[ -x "$binary" ] || die "the build did not produce $binary"

# --- install ----------------------------------------------------------------------------
root="$DESTDIR$PREFIX"  # where files go; manifest paths leave DESTDIR out
manifest_rel="$PREFIX/share/gifview/install-manifest.txt"
manifest="$DESTDIR$manifest_rel"

# A previous install with this PREFIX is removed first, so the new manifest is complete.
if [ -f "$manifest" ]; then
  echo "replacing the gifview installed under $root"
  PREFIX=$PREFIX DESTDIR=$DESTDIR sh .ci/uninstall.sh >/dev/null
fi

entries=$(mktemp)
trap 'rm -f "$entries"' EXIT
record() { printf '%s\n' "$*" >>"$entries"; }

# make_dir DIR (without DESTDIR): creates it and records each directory that did not exist.
make_dir() {
  d=$1 missing=""
  while [ -n "$d" ] && [ ! -d "$DESTDIR$d" ]; do
    missing="$d
$missing"
    d=${d%/*}
  done
  [ -z "$missing" ] && return 0
  mkdir -p "$DESTDIR$1"
  printf '%s' "$missing" | while IFS= read -r m; do
    [ -n "$m" ] && record "dir $m"
  done
  return 0
}

# put SOURCE DEST MODE (DEST without DESTDIR)
put() {
  make_dir "${2%/*}"
  rm -f "$DESTDIR$2"
  cp "$1" "$DESTDIR$2"
  chmod "$3" "$DESTDIR$2"
  record "file $2"
  echo "installed $DESTDIR$2"
}

put "$binary" "$PREFIX/bin/gifview" 755
# Exec and TryExec by absolute path: another gifview earlier on PATH (gifsicle ships
# /usr/bin/gifview) is never the one a double-click starts.
desktop_entry=$(mktemp)
trap 'rm -f "$entries" "$desktop_entry"' EXIT
sed -e "s|^Exec=gifview |Exec=$PREFIX/bin/gifview |" -e "s|^TryExec=gifview\$|TryExec=$PREFIX/bin/gifview|" \
  Resources/gifview.desktop >"$desktop_entry"
grep -qx "Exec=$PREFIX/bin/gifview %U" "$desktop_entry" || die "could not write the desktop entry's Exec line"
put "$desktop_entry" "$PREFIX/share/applications/gifview.desktop" 644
put Resources/icons/gifview.svg "$PREFIX/share/icons/hicolor/scalable/apps/gifview.svg" 644
for size in $PNG_SIZES; do
  put "Resources/icons/gifview-$size.png" "$PREFIX/share/icons/hicolor/${size}x$size/apps/gifview.png" 644
done
put Resources/gifview.1 "$PREFIX/share/man/man1/gifview.1" 644
make_dir "${manifest_rel%/*}"

# --- caches and the MIME default (not for a staged DESTDIR install) ----------------------
# A cache file that install creates is removed by uninstall; one that was there before is
# refreshed by uninstall instead. Failures of these tools are not install failures.
if [ -z "$DESTDIR" ]; then
  apps="$PREFIX/share/applications"
  if command -v update-desktop-database >/dev/null 2>&1; then
    had=no
    [ -e "$apps/mimeinfo.cache" ] && had=yes
    if update-desktop-database -q "$apps" 2>/dev/null; then
      if [ $had = yes ]; then record "refresh-desktop-database $apps"
      elif [ -e "$apps/mimeinfo.cache" ]; then record "file $apps/mimeinfo.cache"; fi
      echo "updated $apps/mimeinfo.cache"
    fi
  fi
  icons="$PREFIX/share/icons/hicolor"
  if command -v gtk-update-icon-cache >/dev/null 2>&1; then
    had=no
    [ -e "$icons/icon-theme.cache" ] && had=yes
    # -t: a user's hicolor directory has no index.theme of its own.
    if gtk-update-icon-cache -q -f -t "$icons" 2>/dev/null; then
      if [ $had = yes ]; then record "refresh-icon-cache $icons"
      elif [ -e "$icons/icon-theme.cache" ]; then record "file $icons/icon-theme.cache"; fi
      echo "updated $icons/icon-theme.cache"
    fi
  fi

  if [ "$NO_MIME_DEFAULT" != 1 ]; then
    if command -v xdg-mime >/dev/null 2>&1; then
      # xdg-mime writes the user's mimeapps.list (no desktop: $XDG_CONFIG_HOME/mimeapps.list).
      list="${XDG_CONFIG_HOME:-$HOME/.config}/mimeapps.list"
      state=new
      [ -e "$list" ] && state=existing
      if xdg-mime default gifview.desktop image/gif; then
        record "mime-default image/gif gifview.desktop $state $list"
        echo "gifview.desktop is now the default application for image/gif"
      else
        echo "gifview: warning: xdg-mime default gifview.desktop image/gif failed" >&2
      fi
    else
      echo "gifview: warning: xdg-mime not found (xdg-utils): image/gif left as it was" >&2
    fi
  fi
fi

{
  echo "# gifview install manifest: written by make install, read by make uninstall."
  echo "# file P: installed, removed on uninstall.  dir P: created, removed when empty."
  echo "# refresh-*: a cache that was already there, refreshed on uninstall."
  echo "# mime-default TYPE DESKTOP new|existing LIST: the default that uninstall unsets in LIST."
  echo "prefix $PREFIX"
  cat "$entries"
} >"$manifest"
echo "installed $manifest"

case ":$PATH:" in
  *":$PREFIX/bin:"*) ;;
  *) [ -n "$DESTDIR" ] || echo "note: $PREFIX/bin is not on PATH; add it (log in again, for ~/.local/bin) to run gifview by name (the desktop entry needs no PATH)" ;;
esac

# `man gifview` may find another gifview's page first (gifsicle's), or none of ours.
page="$PREFIX/share/man/man1/gifview.1"
if [ -z "$DESTDIR" ]; then
  found=$(man -w gifview 2>/dev/null | head -n 1 || true)
  if [ "$found" != "$page" ]; then
    if [ -n "$found" ]; then
      echo "note: 'man gifview' shows another program's page ($found)."
    else
      echo "note: 'man gifview' does not find $page."
    fi
    echo "      Read this one with: man -l $page"
    echo "      or put $PREFIX/share/man first in MANPATH: export MANPATH=$PREFIX/share/man:"
  fi
fi
