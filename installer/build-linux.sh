#!/usr/bin/env bash
# Build ClubDesk for Linux: the one-folder bundle (PyInstaller, installer/clubdesk.spec) and a .deb, then
# smoke-test what was built outside any virtualenv.
#
#   bash installer/build-linux.sh             build + validate + smoke-test the bundle
#   bash installer/build-linux.sh --install   ... then also `apt-get install ./clubdesk_*.deb` (root or sudo),
#                                             smoke-test /usr/bin/clubdesk*, and `apt-get remove` it again
#
# Output: build/installer/dist/clubdesk/ (the bundle) and build/installer/clubdesk_<version>_<arch>.deb.
# The build uses its own virtual environment (build/installer/venv: clubdesk with the `installer` extra, i.e.
# PyInstaller), never the developer's .venv. The .deb installs the bundle into /opt/clubdesk, links
# /usr/bin/clubdesk and /usr/bin/clubdesk-cli, and adds a .desktop entry, an SVG icon and AppStream metainfo.
# Needs: python3 (3.11+) with venv, dpkg-deb, desktop-file-validate (desktop-file-utils), appstreamcli
# (appstream), pdftotext/pdffonts (poppler-utils); missing Debian packages are installed with apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT="$ROOT/build/installer"
VENV="${CLUBDESK_BUILD_VENV:-$OUT/venv}"
PY=${PYTHON:-python3}
APP_ID="org.clubdesk.ClubDesk"
INSTALL=0
[ "${1:-}" = "--install" ] && INSTALL=1

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

need_packages() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing build tools: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Qt's runtime libraries the bundle links to from the system (the spec leaves every library of /lib and /usr/lib
# to the distribution; these are the ones Qt opens at run time) and a font for the window: the .deb's Depends, and installed here for the smoke test.
RUNTIME_DEPENDS=(libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libfreetype6 libdbus-1-3
  libglib2.0-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-shape0
  libxcb-xinerama0 libxcb-randr0 libxcb-xkb1 fonts-dejavu-core
  libpq5)  # the club server (issue 25): psycopg loads Debian's libpq at run time (not a NEEDED entry)

# xvfb and x11-apps (xwd): the smoke test opens the window on a real X server too, and photographs it
need_packages python3-venv dpkg-dev file desktop-file-utils appstream poppler-utils xvfb x11-apps \
  "${RUNTIME_DEPENDS[@]}"

VERSION=$("$PY" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
ARCH=$(dpkg --print-architecture)
echo "== ClubDesk $VERSION ($ARCH)"

echo "== build environment ($VENV)"
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
"$VENV/bin/python" -m pip install -q -e "$ROOT[installer,guide]" 2>&1 | grep -v "^WARNING: Location" || true
"$VENV/bin/python" -c "import clubdesk, PyInstaller"

echo "== compiling the catalogs"
"$VENV/bin/python" -m clubdesk.i18n_tools compile >/dev/null

echo "== the user guide (issue 30): resources/guide/<lang>/, what F1 opens"
# always made again: pictures left from an older checkout would lack the newer screens the guide shows
QT_QPA_PLATFORM=offscreen "$VENV/bin/python" "$ROOT/scripts/screenshots.py" >/dev/null
"$VENV/bin/python" "$ROOT/scripts/guide.py" build --package >/dev/null
"$VENV/bin/python" installer/shrink_guide.py "$ROOT/src/clubdesk/resources/guide"

echo "== PyInstaller (one folder)"
rm -rf "$OUT/dist" "$OUT/work"
export CLUBDESK_SYSTEM_LIBS="$OUT/system-libs.txt"  # the spec lists the distribution's libraries it left out
"$VENV/bin/pyinstaller" --noconfirm --log-level WARN --distpath "$OUT/dist" --workpath "$OUT/work" \
  installer/clubdesk.spec
BUNDLE="$OUT/dist/clubdesk"
ln -sfn clubdesk "$BUNDLE/clubdesk-cli"  # one program, two names (installer/entry_gui.py dispatches)
[ -x "$BUNDLE/clubdesk" ] && [ -x "$BUNDLE/clubdesk-cli" ]

# Python's own shared objects (libpython, lib-dynload) and the like carry their symbol tables: strip them. Never
# the programs (their archive is appended to them), Qt's libraries, or what auditwheel patched with patchelf (which
# strip can break): the libraries in *.libs/ and the extensions whose RPATH/RUNPATH is $ORIGIN-relative.
find "$BUNDLE/_internal" -type f \( -name "*.so" -o -name "*.so.*" \) ! -path "*.libs/*" ! -path "*/PySide6/*" \
  ! -path "*/shiboken6/*" -print0 | while IFS= read -r -d "" f; do
  file -b "$f" | grep -q "not stripped" || continue
  readelf -d "$f" 2>/dev/null | grep -E "RPATH|RUNPATH" | grep -qF '$ORIGIN' && continue
  strip --strip-unneeded "$f"
done

# the .deb depends on the Debian packages that own the libraries the bundle links to and does not carry (the
# spec left /lib and /usr/lib out): every NEEDED entry of every ELF file, found with ldconfig, owner from dpkg -S
owner() {
  local f=$1 p q pkg
  for p in "$f" "$(readlink -f "$f")"; do
    for q in "$p" "${p/#\/usr\/lib\//\/lib\/}" "${p/#\/lib\//\/usr\/lib\/}"; do
      pkg=$(dpkg -S "$q" 2>/dev/null | head -1 | cut -d: -f1) || true
      [ -n "$pkg" ] && { echo "$pkg"; return 0; }
    done
  done
  echo "warning: no Debian package owns $f" >&2
}
system_depends() {
  local bundled so path
  bundled=$(find "$BUNDLE" -type f -printf "%f\n"; find "$BUNDLE" -type l -printf "%f\n")
  find "$BUNDLE" -type f \( -name "*.so*" -o -perm -u+x \) -print0 | xargs -0 readelf -d 2>/dev/null \
    | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u | while read -r so; do
      grep -qxF "$so" <<<"$bundled" && continue
      # (awk reads all of ldconfig's output: an early exit would make the pipe fail under pipefail)
      path=$(ldconfig -p | awk -v s="$so" '$1 == s && !found {print $NF; found = 1}')
      if [ -n "$path" ]; then owner "$path"; else echo "warning: $so not found on this system" >&2; fi
    done | sort -u
}
mapfile -t SYSTEM_DEPENDS < <(system_depends)
echo "the bundle links to ${#SYSTEM_DEPENDS[@]} Debian packages' libraries"

# licence texts of everything bundled, beside the programs (the About box names them)
"$VENV/bin/python" installer/licences.py "$BUNDLE/licences"

echo "== .deb"
STAGE="$OUT/deb/clubdesk_${VERSION}_${ARCH}"
rm -rf "$OUT/deb"
mkdir -p "$STAGE/DEBIAN" "$STAGE/opt" "$STAGE/usr/bin" "$STAGE/usr/share/applications" \
  "$STAGE/usr/share/icons/hicolor/scalable/apps" "$STAGE/usr/share/metainfo" "$STAGE/usr/share/doc/clubdesk"
cp -a "$BUNDLE" "$STAGE/opt/clubdesk"
ln -s /opt/clubdesk/clubdesk "$STAGE/usr/bin/clubdesk"
ln -s /opt/clubdesk/clubdesk-cli "$STAGE/usr/bin/clubdesk-cli"
cp installer/linux/$APP_ID.desktop "$STAGE/usr/share/applications/"
ICON="$ROOT/resources/icons/clubdesk.svg"  # issue 20's icon when it has landed, else the installer's own
[ -f "$ICON" ] || ICON="$ROOT/installer/linux/clubdesk.svg"
cp "$ICON" "$STAGE/usr/share/icons/hicolor/scalable/apps/$APP_ID.svg"
sed "s/@VERSION@/$VERSION/g; s/@DATE@/$(date -u +%Y-%m-%d)/g" installer/linux/$APP_ID.metainfo.xml \
  >"$STAGE/usr/share/metainfo/$APP_ID.metainfo.xml"
cp installer/linux/copyright "$STAGE/usr/share/doc/clubdesk/copyright"
DEPENDS=$(printf '%s\n' "${RUNTIME_DEPENDS[@]}" "${SYSTEM_DEPENDS[@]}" | sort -u | paste -sd, | sed 's/,/, /g')
cat >"$STAGE/DEBIAN/control" <<EOF
Package: clubdesk
Version: $VERSION
Architecture: $ARCH
Maintainer: ClubDesk <clubdesk@localhost>
Installed-Size: $(du -sk "$STAGE" | cut -f1)
Depends: $DEPENDS
Section: games
Priority: optional
Homepage: https://github.com/clubdesk/clubdesk
Description: competition desk for gaple, Spanish dominoes and tavla clubs
 ClubDesk runs a club's weekly competitions and tournaments of gaple (Indonesian
 dominoes), Spanish federation dominoes and tavla (backgammon) on one PC, offline:
 members, events, fees, draws, score entry, standings, discipline and printed
 sheets in English, Bahasa Indonesia, Spanish and Turkish.
EOF
DEB="$OUT/clubdesk_${VERSION}_${ARCH}.deb"
rm -f "$OUT"/clubdesk_*.deb
dpkg-deb --root-owner-group -Zxz -z6 --build "$STAGE" "$DEB" >/dev/null

echo "== validating the desktop entry and the metainfo"
desktop-file-validate "$STAGE/usr/share/applications/$APP_ID.desktop"
appstreamcli validate --no-net "$STAGE/usr/share/metainfo/$APP_ID.metainfo.xml"

echo "== smoke test of the bundle (clean environment, no virtualenv)"
env -i PATH=/usr/bin:/bin /usr/bin/python3 -I installer/smoke.py "$STAGE/opt/clubdesk" --version "$VERSION" \
  --xvfb --screenshot "$OUT/window.xwd"

if [ $INSTALL -eq 1 ]; then
  echo "== apt-get install ./$(basename "$DEB")"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$DEB" >/dev/null
  [ "$(readlink /usr/bin/clubdesk-cli)" = /opt/clubdesk/clubdesk-cli ]
  [ "$(readlink -f /usr/bin/clubdesk-cli)" = /opt/clubdesk/clubdesk ]
  set +e
  env -i PATH=/usr/bin:/bin /usr/bin/python3 -I installer/smoke.py /usr/bin --version "$VERSION"
  rc=$?
  set -e
  echo "== apt-get remove clubdesk"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -qq clubdesk >/dev/null
  [ ! -e /opt/clubdesk ] || echo "warning: /opt/clubdesk still exists after the removal" >&2
  [ $rc -eq 0 ]
fi

echo "== sizes"
echo "bundle (unpacked): $(du -sm "$BUNDLE" | cut -f1) MB  ($BUNDLE)"
echo "package:           $(du -m "$DEB" | cut -f1) MB  ($DEB, installs $(du -sm "$STAGE" | cut -f1) MB)"
