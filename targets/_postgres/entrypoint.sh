#!/bin/bash
# PostgreSQL for the Cannonade targets.
#   cannonade-postgres            start; when $PGDATA is empty, first initdb + seed.sql
#   cannonade-postgres --init     only initdb + seed.sql, then exit (used at image build time)
# The image runs --init at build time, so its $PGDATA already holds the seeded cluster and Docker
# copies it into a new volume on first start (fast first start). An empty bind mount, or a volume
# emptied by hand, is initialised here at start instead, from the same seed.sql.
set -euo pipefail
: "${PGDATA:=/var/lib/postgresql/data}"
: "${POSTGRES_USER:=cannonade}"
: "${POSTGRES_PASSWORD:=cannonade}"
: "${POSTGRES_DB:=cannonade}"
as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }

mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  echo "[postgres] initdb and seed (user $POSTGRES_USER, database $POSTGRES_DB)"
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  chown postgres "$pwfile"
  # --no-sync: a throwaway benchmark database; the shutdown checkpoint below still writes it out.
  as_pg initdb --no-sync -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  {
    echo "listen_addresses = '*'"
    echo "unix_socket_directories = '/run/postgresql'"
  } >>"$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  as_pg pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w -s start
  if [ "$POSTGRES_DB" != postgres ]; then
    as_pg psql -X -q -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres \
      -c "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$POSTGRES_USER\""
  fi
  as_pg psql -X -q -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d "$POSTGRES_DB" -f /usr/local/share/cannonade/seed.sql
  ads="$(as_pg psql -X -qAt -U "$POSTGRES_USER" -d "$POSTGRES_DB" -c 'SELECT count(*) FROM ads')"
  as_pg pg_ctl -D "$PGDATA" -m fast -w -s stop
  echo "[postgres] seeded: $ads ads"
fi

[ "${1:-}" = --init ] && exit 0
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" "$@"
