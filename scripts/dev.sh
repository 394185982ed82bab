#!/usr/bin/env bash
# ClubDesk's one script for people and CI.
#   scripts/dev.sh demo   install everything into .venv and open the window on the demo club
#   scripts/dev.sh test   install everything into .venv and run the whole test suite headless, on every core
#                         (PYTEST_WORKERS=N for N worker processes, 0 for one process)
#   scripts/dev.sh setup  install only
#   scripts/dev.sh pg     start a private PostgreSQL cluster for the tests and print its URL (pg-stop DIR ends it)
#   scripts/dev.sh i18n   extract the message catalog template and compile the catalogs (Babel)
#   scripts/dev.sh screenshots  the guide's pictures of the demo club, under Xvfb, in build/screenshots/<lang>/
#   scripts/dev.sh guide  the user guide in build/guide/{en,id,es,tr}/ (warnings are errors), and the copy
#                         F1 opens (resources/guide/<lang>/, built by setup too; never committed)
# The compiled catalogs (resources/locale/<lang>/LC_MESSAGES/clubdesk.mo) are built here, never committed:
# setup, test and demo compile every .po before anything runs (a wheel's build compiles them too: setup.py).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
VENV="$ROOT/.venv"
PY=${PYTHON:-python3}

# Debian/Ubuntu packages: Qt's runtime libraries, DejaVu fonts, venv, and the tools tests and screenshots use.
APT_PACKAGES=(
  python3-venv libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libglib2.0-0
  libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-shape0 libxcb-xinerama0
  libxcb-randr0 libxcb-xkb1 fonts-dejavu-core poppler-utils xvfb postgresql
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
  "$VENV/bin/python" -m pip install -q -e ".[test,dev,guide]" 2>&1 | grep -v "^WARNING: Location" || true
  "$VENV/bin/python" -c "import clubdesk, PySide6, sqlalchemy, rustworkx" # fail loudly if the install did not work
  # the bytecode of ClubDesk's own modules, as an installed copy has it (pip compiles site-packages, not an
  # editable checkout): with PYTHONDONTWRITEBYTECODE set, every start compiled ~230 modules (issue 22: ~0.09 s)
  "$VENV/bin/python" -m compileall -q -j 0 src >/dev/null || true
}

compile_catalogs() {
  "$VENV/bin/python" -m clubdesk.i18n_tools compile >/dev/null
}

# The guide's pictures: the demo club's screens in each language, grabbed in-process under a private Xvfb
# display at 1366x768 (offscreen when there is no Xvfb).
screenshots() {
  local display="" xpid="" rc=0 fd_file
  if command -v Xvfb >/dev/null 2>&1; then
    fd_file=$(mktemp)
    Xvfb -displayfd 3 -screen 0 1366x768x24 -nolisten tcp 3>"$fd_file" >/dev/null 2>&1 &   # a free display
    xpid=$!
    for _ in $(seq 50); do [ -s "$fd_file" ] && break; sleep 0.1; done
    display=":$(head -n1 "$fd_file")"
    rm -f "$fd_file"
    DISPLAY="$display" "$VENV/bin/python" scripts/screenshots.py "$@" || rc=$?
    kill "$xpid" 2>/dev/null || true
  else
    QT_QPA_PLATFORM=offscreen "$VENV/bin/python" scripts/screenshots.py "$@" || rc=$?
  fi
  return $rc
}

# The guide inside the package (what F1 and `clubdesk-cli guide` open): pictures first if there are none.
# Not fatal: a guide that does not build leaves F1 saying so, and tests/integration/test_guide.py fails.
guide_package() {
  [ -f build/screenshots/en/members.png ] || screenshots >/dev/null || true
  "$VENV/bin/python" scripts/guide.py build --package >/dev/null \
    || echo "the user guide did not build: scripts/dev.sh guide shows why" >&2
}

guide() {
  screenshots
  "$VENV/bin/python" scripts/guide.py build --out build/guide
  "$VENV/bin/python" scripts/guide.py build --package >/dev/null
}

setup() { system_packages; python_packages; compile_catalogs; guide_package; }

# A private PostgreSQL cluster for the tests (issue 25): a temporary folder, a unix socket in it, no TCP
# (listen_addresses=''), owned by the `postgres` user when run as root; stopped at the end, also on failure.
PG_TMP=""
pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && { echo "$d"; return 0; }; done
  command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return 0; }
  return 1
}
pg_as() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
pg_stop() {
  [ -n "$PG_TMP" ] || return 0
  local bin
  bin=$(pg_bin) || true
  [ -f "$PG_TMP/data/postmaster.pid" ] && pg_as "$bin/pg_ctl" -D "$PG_TMP/data" -m immediate -w stop >/dev/null 2>&1
  rm -rf "$PG_TMP"
  PG_TMP=""
}
pg_start() {
  [ -n "${CLUBDESK_TEST_PG_URL:-}" ] && return 0        # a server given from outside
  [ "${CLUBDESK_TEST_PG:-1}" = "0" ] && return 0          # SQLite only, on request
  local bin user
  bin=$(pg_bin) || { echo "PostgreSQL is not installed: the server tests are skipped" >&2; return 0; }
  PG_TMP=$(mktemp -d /tmp/clubdesk-pg.XXXXXX)
  trap pg_stop EXIT
  trap 'pg_stop; exit 130' INT TERM
  user=$(id -un)
  if [ "$(id -u)" -eq 0 ]; then chown postgres "$PG_TMP"; user=postgres; fi
  pg_as "$bin/initdb" -D "$PG_TMP/data" -U "$user" -A trust -E UTF8 --locale=C.UTF-8 >"$PG_TMP/initdb.log" 2>&1 \
    || { cat "$PG_TMP/initdb.log" >&2; return 1; }
  pg_as "$bin/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w -o \
    "-c listen_addresses='' -k $PG_TMP -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null || { cat "$PG_TMP/server.log" >&2; return 1; }
  export CLUBDESK_TEST_PG_URL="postgresql+psycopg://$user@/postgres?host=$PG_TMP"
  export PATH="$PATH:$bin"   # pg_dump for the server backup test
  echo "== PostgreSQL test cluster at $PG_TMP"
}

run_tests() {
  export QT_QPA_PLATFORM=offscreen
  pg_start
  echo "== ruff"
  "$VENV/bin/ruff" check src tests benchmarks
  "$VENV/bin/ruff" format --check src tests benchmarks
  echo "== mypy --strict (pure engines)"
  "$VENV/bin/mypy" --strict src/clubdesk/games src/clubdesk/pairing src/clubdesk/standings src/clubdesk/competition src/clubdesk/federation src/clubdesk/i18n.py
  echo "== pytest"
  set +e
  # every core (pytest-xdist); a test file's tests stay on one worker (--dist loadfile: their module fixtures
  # are built once); each worker has its own databases on the cluster (tests/conftest.py). The 20 slowest
  # tests are listed at the end.
  "$VENV/bin/python" -m pytest -n "${PYTEST_WORKERS:-auto}" --dist loadfile --durations=20 "$@"
  local rc=$?
  set -e
  pg_stop
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
  pg) shift; pg_start; echo "CLUBDESK_TEST_PG_URL=$CLUBDESK_TEST_PG_URL"; trap - EXIT INT TERM ;;  # dev: leave it running
  pg-stop) shift; PG_TMP=${1:?folder}; pg_stop ;;
  setup) setup ;;
  i18n) setup; i18n ;;
  screenshots) setup; shift; screenshots "$@" ;;
  guide) system_packages; python_packages; compile_catalogs; guide ;;
  *) echo "usage: scripts/dev.sh demo|test|setup|i18n|screenshots|guide" >&2; exit 2 ;;
esac
