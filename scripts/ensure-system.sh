#!/usr/bin/env bash
# Installs the Debian packages the test suite needs (Chromium for browser tests, Ansible for
# job tests, slapd and ldap-utils for LDAP sign-in tests) when they are missing, and starts the local PostgreSQL and MariaDB servers
# when they are installed but stopped, then waits (up to DB_START_TIMEOUT seconds, default
# 60) until both answer. Prints which databases answer. Sourced by scripts/test.sh, which
# uses postgres_answers and mysql_answers to decide which API test layers run.
set -uo pipefail

postgres_answers() {
  command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 5432 >/dev/null 2>&1
}

mysql_answers() {
  local admin
  for admin in mysqladmin mariadb-admin; do
    if command -v "$admin" >/dev/null 2>&1; then
      "$admin" -h 127.0.0.1 -P 3306 -uroot status >/dev/null 2>&1
      return
    fi
  done
  return 1
}

# Polls the probe until it succeeds or the deadline passes.
wait_until() {
  local probe=$1 deadline=$2
  until "$probe"; do
    [ "$SECONDS" -ge "$deadline" ] && return 1
    sleep 0.5
  done
}

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v ansible-playbook >/dev/null 2>&1 || missing+=(ansible)
[ -x /usr/sbin/slapd ] || missing+=(slapd)
command -v ldapadd >/dev/null 2>&1 || missing+=(ldap-utils)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

started=()
if ! postgres_answers && command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  version="$(ls /etc/postgresql | sort -V | tail -1)"
  if [ -n "$version" ]; then
    echo "Starting PostgreSQL $version"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start >/dev/null 2>&1 || true
    started+=(postgres)
  fi
fi
if ! mysql_answers && [ -x /usr/sbin/mariadbd ]; then
  echo "Starting MariaDB"
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd >/dev/null 2>&1 || true
  started+=(mysql)
fi

deadline=$((SECONDS + ${DB_START_TIMEOUT:-60}))
for db in "${started[@]}"; do
  case "$db" in
    postgres) wait_until postgres_answers "$deadline" || echo "PostgreSQL was started but does not answer yet" ;;
    mysql) wait_until mysql_answers "$deadline" || echo "MariaDB was started but does not answer yet" ;;
  esac
done

if postgres_answers; then echo "PostgreSQL answers on 127.0.0.1:5432"; else
  echo "PostgreSQL does not answer on 127.0.0.1:5432"; fi
if mysql_answers; then echo "MariaDB/MySQL answers on 127.0.0.1:3306"; else
  echo "MariaDB/MySQL does not answer on 127.0.0.1:3306"; fi
