#!/usr/bin/env bash
# ClubDesk's one script for people and CI.
#   scripts/dev.sh demo   install everything into .venv and open the window on the demo club
#   scripts/dev.sh test   install everything into .venv and run the whole test suite headless
#   scripts/dev.sh setup  install only
#   scripts/dev.sh i18n   extract the message catalog template and compile the catalogs (Babel)
# The compiled catalogs (resources/locale/<lang>/LC_MESSAGES/clubdesk.mo) are built here, never committed:
# setup, test and demo compile every .po before anything runs.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
VENV="$ROOT/.venv"
PY=${PYTHON:-python3}

# Debian/Ubuntu packages: Qt's runtime libraries, DejaVu fonts, venv, and the tools tests and screenshots use.
APT_PACKAGES=(
  python3-venv libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libglib2.0-0
  libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-shape0 libxcb-xinerama0
  libxcb-randr0 libxcb-xkb1 fonts-dejavu-core poppler-utils xvfb
  chromium chromium-driver tesseract-ocr
)

system_packages() {
  command -v dpkg-query >/dev/null 2>&1 || return 0   # not Debian: install the Qt runtime libraries yourself
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing system packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

python_packages() {
  [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
  "$VENV/bin/python" -m pip install -q -e ".[test,dev]" 2>&1 | grep -v "^WARNING: Location" || true
  "$VENV/bin/python" -c "import clubdesk, PySide6, sqlalchemy, rustworkx" # fail loudly if the install did not work
}

compile_catalogs() {
  "$VENV/bin/python" -m clubdesk.i18n_tools compile >/dev/null
}

setup() { system_packages; python_packages; compile_catalogs; }

run_tests() {
  export QT_QPA_PLATFORM=offscreen
  echo "== ruff"
  "$VENV/bin/ruff" check src tests benchmarks
  "$VENV/bin/ruff" format --check src tests benchmarks
  echo "== mypy --strict (pure engines)"
  "$VENV/bin/mypy" --strict src/clubdesk/games src/clubdesk/pairing src/clubdesk/standings src/clubdesk/i18n.py
  echo "== pytest"
  set +e
  "$VENV/bin/python" -m pytest "$@"
  local rc=$?
  set -e
  if [ $rc -eq 5 ]; then
    echo "pytest collected no tests: that is a failure" >&2
    return 1
  fi
  return $rc
}

i18n() {
  # the template from src/ and the strings that live in data (resources/*.toml); every catalog brought to it
  # (new msgids appear with an empty msgstr for the translators, no fuzzy guesses); then every catalog compiled
  "$VENV/bin/python" -m clubdesk.i18n_tools extract
  "$VENV/bin/python" -m clubdesk.i18n_tools update >/dev/null
  compile_catalogs
}

case "${1:-}" in
  demo) setup; shift; exec "$VENV/bin/clubdesk" --demo "$@" ;;
  test) setup; shift; run_tests "$@" ;;
  setup) setup ;;
  i18n) setup; i18n ;;
  *) echo "usage: scripts/dev.sh demo|test|setup|i18n" >&2; exit 2 ;;
esac
