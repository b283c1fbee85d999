#!/usr/bin/env bash
# A throwaway PostgreSQL server for ragmart's `postgres` target, on 127.0.0.1 and a free port.
#
#   eval "$(scripts/postgres.sh start)"   install Debian's postgresql if missing, initdb in a temp
#                                         dir, start the server, create the ragmart role and
#                                         database; prints the RAGMART_PG_* exports
#   scripts/postgres.sh env               print the exports of the running server again
#   scripts/postgres.sh stop              stop the server and remove its data directory
#   scripts/postgres.sh run CMD [ARG...]  run CMD with the RAGMART_PG_* variables of a server
#                                         (started for it and stopped after it, unless one was
#                                         already running); exits with CMD's status
#
# The connection is also written to target/postgres.env (sourced by `make test-engines`).
# The ragmart role may create roles: dev/tests/test_phoenix.py reads Phoenix's database as a
# read-only role of its own, as docs/inputs.md tells a production Phoenix's users to.
# The cluster uses the ICU collation en-US, like most real servers, so a query whose result
# depends on the collation shows it here rather than in production.
set -euo pipefail

cd "$(dirname "$0")/.."
STATE=target/postgres.env
DATABASE=${RAGMART_PG_DATABASE:-ragmart}
ROLE=${RAGMART_PG_USER:-ragmart}
PASSWORD=${RAGMART_PG_PASSWORD:-ragmart}

log() { echo "postgres.sh: $*" >&2; }

pg_bin() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [[ -z "$dir" || ! -x "$dir/initdb" ]]; then
        log "installing Debian's postgresql"
        if [[ $(id -u) -ne 0 ]]; then
            log "postgresql is not installed and this is not root: run 'apt-get install -y postgresql' first"
            exit 1
        fi
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -q postgresql >&2 || { apt-get update -q >&2 && apt-get install -y -q postgresql >&2; }
        dir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    fi
    echo "$dir"
}

# Run a command as the server's OS user: initdb and postgres refuse to run as root.
as_owner() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

print_env() {
    sed -n 's/^/export /p' "$STATE" | grep -v RAGMART_PG_DIR
}

start() {
    if [[ -f "$STATE" ]]; then
        # shellcheck disable=SC1090
        source "$STATE"
        if [[ -d "${RAGMART_PG_DIR:-}" ]] && as_owner "$(pg_bin)/pg_ctl" -D "$RAGMART_PG_DIR/data" status >/dev/null 2>&1; then
            log "already running on 127.0.0.1:$RAGMART_PG_PORT"
            print_env
            return
        fi
        rm -f "$STATE"
    fi
    local bin dir port
    bin=$(pg_bin)
    dir=$(mktemp -d "${TMPDIR:-/tmp}/ragmart-postgres.XXXXXX")
    chmod 755 "$dir"
    [[ $(id -u) -eq 0 ]] && chown postgres: "$dir"
    port=$(free_port)
    log "initdb in $dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
        --encoding=UTF8 --locale=C.UTF-8 --locale-provider=icu --icu-locale=en-US >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        start >&2 || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/psql" -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q >&2 <<SQL
create role "$ROLE" login createrole password '$PASSWORD';
create database "$DATABASE" owner "$ROLE";
SQL
    mkdir -p target
    cat >"$STATE" <<ENV
RAGMART_PG_HOST=127.0.0.1
RAGMART_PG_PORT=$port
RAGMART_PG_USER=$ROLE
RAGMART_PG_PASSWORD=$PASSWORD
RAGMART_PG_DATABASE=$DATABASE
RAGMART_PG_DIR=$dir
ENV
    log "running on 127.0.0.1:$port (database $DATABASE, user $ROLE); stop with scripts/postgres.sh stop"
    print_env
}

stop() {
    if [[ ! -f "$STATE" ]]; then
        log "no server started by this script ($STATE is missing)"
        return
    fi
    # shellcheck disable=SC1090
    source "$STATE"
    if [[ -d "${RAGMART_PG_DIR:-}" ]]; then
        as_owner "$(pg_bin)/pg_ctl" -D "$RAGMART_PG_DIR/data" -m fast -w stop >&2 || true
        rm -rf "$RAGMART_PG_DIR"
    fi
    rm -f "$STATE"
    log "stopped"
}

run() {
    local started=0 status=0 exports
    [[ -f "$STATE" ]] || started=1
    exports=$(start) || exit 1
    eval "$exports"
    if [[ $started -eq 1 ]]; then
        trap stop EXIT
    fi
    "$@" || status=$?
    return $status
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    run) shift; [[ $# -gt 0 ]] || { echo "usage: $0 run CMD [ARG...]" >&2; exit 2; }; run "$@" ;;
    env) [[ -f "$STATE" ]] && print_env ;;
    *) echo "usage: $0 start|stop|env|run CMD [ARG...]" >&2; exit 2 ;;
esac
