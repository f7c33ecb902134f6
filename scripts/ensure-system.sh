#!/usr/bin/env bash
# Installs the Debian packages the test suite needs (Chromium for browser tests, Ansible for
# job tests) when they are missing, and starts the local PostgreSQL and MariaDB servers
# when they are installed but stopped. Prints which databases answer.
set -uo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v ansible-playbook >/dev/null 2>&1 || missing+=(ansible)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 -p 5432; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start >/dev/null 2>&1 || true
    sleep 2
  fi
fi
if command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]; then
  if ! mysqladmin -h 127.0.0.1 -uroot status >/dev/null 2>&1; then
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd >/dev/null 2>&1 || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      mysqladmin -h 127.0.0.1 -uroot status >/dev/null 2>&1 && break
      sleep 1
    done
  fi
fi
