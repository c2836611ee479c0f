#!/bin/sh
# make uninstall: removes exactly what .ci/install.sh recorded in
# $DESTDIR$PREFIX/share/gifview/install-manifest.txt (files, then the directories it created
# when they are empty), refreshes the caches that were there before, unsets the image/gif
# default it set if that is still gifview's, and removes the manifest. Nothing else.
set -euf  # -f: no globbing, manifest paths are used as they are

PREFIX=${PREFIX:-/usr/local}
PREFIX=${PREFIX%/}
DESTDIR=${DESTDIR:-}
manifest="$DESTDIR$PREFIX/share/gifview/install-manifest.txt"

die() { echo "gifview: error: $*" >&2; exit 1; }

[ -f "$manifest" ] || die "no gifview install manifest at $manifest (installed with another PREFIX or DESTDIR?)"
[ -w "${manifest%/*}" ] || die "cannot remove files under $DESTDIR$PREFIX as $(id -un); use the same user (or sudo) as make install"
recorded=$(sed -n 's/^prefix //p' "$manifest")
[ "$recorded" = "$PREFIX" ] || die "$manifest was written for PREFIX=$recorded"

# Only paths inside PREFIX are touched (directories: PREFIX and its parents too).
inside() {
  case $1 in "$PREFIX"/*) return 0 ;; esac
  return 1
}

dirs=$(mktemp)
trap 'rm -f "$dirs"' EXIT
refresh_db="" refresh_icons=""

while IFS= read -r line; do
  kind=${line%% *} path=${line#* }
  case $kind in
    file)
      inside "$path" || { echo "gifview: warning: skipping $path: outside $PREFIX" >&2; continue; }
      if [ -e "$DESTDIR$path" ] || [ -L "$DESTDIR$path" ]; then
        rm -f "$DESTDIR$path"
        echo "removed $DESTDIR$path"
      fi
      ;;
    dir)
      case $PREFIX/ in "$path"/*) ;; *) inside "$path" || continue ;; esac
      printf '%s\n' "$path" >>"$dirs"
      ;;
    refresh-desktop-database) refresh_db=$path ;;
    refresh-icon-cache) refresh_icons=$path ;;
    mime-default)
      # mime-default TYPE DESKTOP new|existing LIST
      set -- $path
      type=$1 desktop=$2 state=$3
      list=${path#"$1 $2 $3 "}
      [ -f "$list" ] || continue
      tmp="$list.gifview-uninstall"
      awk -v entry="$type=$desktop" '
        /^\[/ { indefault = ($0 == "[Default Applications]") }
        !(indefault && $0 == entry) { print }
      ' "$list" >"$tmp" && cat "$tmp" >"$list"
      rm -f "$tmp"
      echo "unset $type=$desktop in $list"
      # A list that install created and that now says nothing goes too.
      if [ "$state" = new ] && ! grep -qv -e '^\[Default Applications\]$' -e '^[[:space:]]*$' "$list"; then
        rm -f "$list"
        echo "removed $list"
      fi
      ;;
  esac
done <"$manifest"

rm -f "$manifest"
echo "removed $manifest"

if [ -n "$refresh_db" ] && command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database -q "$refresh_db" 2>/dev/null || true
fi
if [ -n "$refresh_icons" ] && command -v gtk-update-icon-cache >/dev/null 2>&1; then
  gtk-update-icon-cache -q -f -t "$refresh_icons" 2>/dev/null || true
fi

# Deepest first: reverse order puts a directory after everything inside it.
sort -r "$dirs" | while IFS= read -r d; do
  rmdir "$DESTDIR$d" 2>/dev/null && echo "removed $DESTDIR$d/" || true
done
