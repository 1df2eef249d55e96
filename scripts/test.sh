#!/usr/bin/env bash
# The project's test command (README, CI): sets up what the tests need and this machine lets
# it, says exactly what it could not, then runs every test.
#
# What it sets up, each only if missing:
# - cargo-nextest (`cargo install`), the runner: each test in a process of its own, the tests
#   of every binary side by side (`.config/nextest.toml`);
# - pyffish (pip, for this user), the independent reader of the PGN tests;
# - caissify-pairings (pip, for this user), the independent Dutch system of the Swiss test;
# - chromium and chromedriver for the web page's tests, and a PostgreSQL server, from the
#   system's packages: only as root or with password-less sudo;
# - TEST_DATABASE_URL, when it is not set: the first of the machine's local servers that
#   answers (127.0.0.1 as `postgres`, then the socket as this user), its database `test`
#   created if missing;
# - the previous release's binary for the rolling-upgrade test (scripts/previous-release.sh,
#   built once from this clone's history and cached under $HOME/.cache).
#
# Then `cargo nextest run --workspace --locked` and the documentation's examples
# (`cargo test --doc`, which nextest does not run). A test whose part is missing says it is
# skipped, except under CI=true, where it fails: CI never passes by skipping.
set -uo pipefail
cd "$(dirname "$0")/.."

missing=()
note() { echo "test.sh: $*"; }
not_set_up() {
    missing+=("$1")
    note "NOT SET UP: $1"
}

# Runs a command as root: directly, through password-less sudo, or not at all.
as_root() {
    if [[ $(id -u) == 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo -n "$@"
    else
        return 1
    fi
}
can_be_root() { [[ $(id -u) == 0 ]] || { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }; }

apt_install() {
    command -v apt-get >/dev/null && can_be_root || return 1
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null \
        && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

echo "== cargo-nextest"
if ! cargo nextest --version >/dev/null 2>&1; then
    note "installing cargo-nextest (cargo install cargo-nextest --locked, a few minutes once)"
    cargo install cargo-nextest --locked --quiet
fi
if ! cargo nextest --version 2>/dev/null | head -1; then
    echo "test.sh: cargo-nextest is required and could not be installed (cargo install cargo-nextest --locked)" >&2
    exit 1
fi

echo "== pyffish (the PGN tests' independent reader)"
if ! python3 -c "import pyffish" 2>/dev/null; then
    if command -v python3 >/dev/null; then
        note "installing pyffish 0.0.90 with pip"
        python3 -m pip install --quiet --user pyffish==0.0.90 2>/dev/null \
            || python3 -m pip install --quiet --user --break-system-packages pyffish==0.0.90 2>/dev/null \
            || python3 -m pip install --quiet --break-system-packages pyffish==0.0.90 2>/dev/null \
            || true
    fi
fi
python3 -c "import pyffish; print('pyffish', pyffish.version())" 2>/dev/null \
    || not_set_up "pyffish (python3 -m pip install --user pyffish==0.0.90): the PGN tests are skipped"

echo "== caissify-pairings (the independent Dutch system the Swiss pairings are compared with)"
if ! python3 -c "import caissify_pairings" 2>/dev/null; then
    if command -v python3 >/dev/null; then
        note "installing caissify-pairings 0.5.0 with pip"
        python3 -m pip install --quiet --user caissify-pairings==0.5.0 2>/dev/null \
            || python3 -m pip install --quiet --user --break-system-packages caissify-pairings==0.5.0 2>/dev/null \
            || python3 -m pip install --quiet --break-system-packages caissify-pairings==0.5.0 2>/dev/null \
            || true
    fi
fi
python3 -c "import caissify_pairings; print('caissify-pairings', caissify_pairings.__version__)" 2>/dev/null \
    || not_set_up "caissify-pairings (python3 -m pip install --user caissify-pairings==0.5.0): the Swiss reference test fails"

echo "== chromium and chromedriver (the web page's tests)"
if ! command -v chromedriver >/dev/null || ! command -v chromium >/dev/null; then
    note "installing chromium and chromium-driver"
    apt_install chromium chromium-driver || true
fi
if command -v chromedriver >/dev/null && command -v chromium >/dev/null; then
    chromium --version
    chromedriver --version
else
    not_set_up "chromium and chromedriver (as root: apt-get install chromium chromium-driver): the browser tests are skipped"
fi

echo "== PostgreSQL"
# A server of this machine: answering on 127.0.0.1:5432, or started (installed first as root).
server_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null || pg_isready -q 2>/dev/null; }
start_server() {
    command -v pg_ctlcluster >/dev/null && can_be_root || return 1
    local version
    version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -1)
    [[ -n $version ]] || return 1
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null || true
    for _ in $(seq 30); do server_up && return 0; sleep 1; done
    return 1
}
works() { psql "$1" -qAtc 'select 1' >/dev/null 2>&1; }
if [[ -z ${TEST_DATABASE_URL:-} ]]; then
    if ! command -v pg_isready >/dev/null && [[ ! -d /etc/postgresql ]]; then
        note "installing PostgreSQL"
        apt_install postgresql || true
    fi
    if command -v pg_isready >/dev/null && ! server_up; then
        note "starting the machine's PostgreSQL"
        start_server || true
    fi
    if command -v psql >/dev/null && server_up; then
        me=$(id -un)
        tcp=postgres://postgres@127.0.0.1:5432
        socket="postgres://$me@%2Fvar%2Frun%2Fpostgresql"
        # The database `test` in the first server that lets us in; created if missing (as a
        # role of this user's name, made by the server's own account, when root may).
        if ! works "$tcp/test" && works "$tcp/postgres"; then
            psql "$tcp/postgres" -qc 'create database test' >/dev/null 2>&1
        fi
        if works "$tcp/test"; then
            export TEST_DATABASE_URL="$tcp/test"
        else
            if ! works "$socket/postgres" && can_be_root; then
                as_root su postgres -c "createuser -s '$me'" >/dev/null 2>&1
            fi
            if ! works "$socket/test" && works "$socket/postgres"; then
                psql "$socket/postgres" -qc 'create database test' >/dev/null 2>&1
            fi
            works "$socket/test" && export TEST_DATABASE_URL="$socket/test"
        fi
    fi
fi
if [[ -n ${TEST_DATABASE_URL:-} ]]; then
    note "TEST_DATABASE_URL=$TEST_DATABASE_URL"
    if command -v pg_isready >/dev/null && ! server_up; then
        start_server || true
    fi
else
    not_set_up "PostgreSQL (a server this user may create schemas on, named by TEST_DATABASE_URL; as root: apt-get install postgresql): the PostgreSQL tests are skipped"
fi

echo "== the previous release, for the rolling-upgrade test"
if [[ -z ${JIEQI_PREVIOUS_BOT:-} ]]; then
    if previous=$(scripts/previous-release.sh); then
        export JIEQI_PREVIOUS_BOT="$previous"
    fi
fi
if [[ -n ${JIEQI_PREVIOUS_BOT:-} ]]; then
    note "JIEQI_PREVIOUS_BOT=$JIEQI_PREVIOUS_BOT"
else
    not_set_up "the previous release's binary (scripts/previous-release.sh needs this clone's history): the rolling-upgrade test is skipped"
fi

summary() {
    if ((${#missing[@]} == 0)); then
        note "everything the tests need was set up"
    else
        note "not set up on this machine (their tests say they are skipped$([[ ${CI:-} == true ]] && echo '; under CI=true they fail')):"
        printf '  - %s\n' "${missing[@]}"
    fi
}
summary

echo "== tests"
status=0
cargo nextest run --workspace --locked || status=$?
echo "== the documentation's examples"
cargo test --workspace --locked --doc --quiet || status=$?
summary
exit "$status"
