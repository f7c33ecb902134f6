/*
 * Files for running Flagman on a server, offered on the install page to copy or download.
 * Each is complete and works as it is once its example names (host name, paths, passwords)
 * are replaced.
 */

/** A file the install page offers: its name when saved, and what it holds. */
export interface ConfigFile {
  name: string
  /** MIME type of the download. */
  type: string
  content: string
}

/** Builds Flagman in a checkout of its repository and starts it. */
export const installScript: ConfigFile = {
  name: 'install-flagman.sh',
  type: 'text/x-shellscript',
  content: `#!/usr/bin/env bash
# Builds Flagman in a checkout of its repository and starts it on 127.0.0.1:3000, with an
# embedded SQLite database in ./data. Needs Node.js 20.19 or newer with npm, and python3,
# make and g++ for the SQLite driver.
# Usage: bash install-flagman.sh [path of the checkout]
set -euo pipefail
cd "\${1:-.}"
npm ci --no-audit --no-fund
npm run build
exec node bin/flagman server
`,
}

/** Settings read by the systemd unit; every FLAGMAN_* variable of the README may go here. */
export const environmentFile: ConfigFile = {
  name: 'flagman.env',
  type: 'text/plain',
  content: `# /etc/flagman/flagman.env — settings of the Flagman service (mode 0600: it may hold secrets).
FLAGMAN_HOST=127.0.0.1
FLAGMAN_PORT=3000
FLAGMAN_DATA_DIR=/var/lib/flagman
# The address users open; links in alerts point there.
FLAGMAN_WEB_HOST=https://flagman.example.com
# Behind the reverse proxy below: trust its X-Forwarded-* headers.
FLAGMAN_TRUST_PROXY=true
# PostgreSQL or MySQL/MariaDB instead of the embedded SQLite database:
# FLAGMAN_DB=postgres://flagman:change-me@127.0.0.1:5432/flagman
`,
}

export const systemdUnit: ConfigFile = {
  name: 'flagman.service',
  type: 'text/plain',
  content: `# /etc/systemd/system/flagman.service — Flagman built in /opt/flagman, run as user flagman.
[Unit]
Description=Flagman task-automation server
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=flagman
Group=flagman
WorkingDirectory=/opt/flagman
EnvironmentFile=/etc/flagman/flagman.env
ExecStart=/usr/bin/node /opt/flagman/bin/flagman server
Restart=on-failure
RestartSec=5
# Stop signals go to the server only, which gives running tasks
# FLAGMAN_TASK_SHUTDOWN_GRACE_SECONDS to end before it stops them itself.
KillMode=mixed
TimeoutStopSec=30
NoNewPrivileges=true
PrivateTmp=true
ProtectSystem=full
ReadWritePaths=/var/lib/flagman

[Install]
WantedBy=multi-user.target
`,
}

export const nginxSite: ConfigFile = {
  name: 'flagman.conf',
  type: 'text/plain',
  content: `# /etc/nginx/conf.d/flagman.conf — HTTPS in front of Flagman on 127.0.0.1:3000.
# Start Flagman with FLAGMAN_TRUST_PROXY=true and FLAGMAN_WEB_HOST=https://flagman.example.com.
server {
    listen 80;
    server_name flagman.example.com;
    return 301 https://$host$request_uri;
}

server {
    listen 443 ssl;
    http2 on;
    server_name flagman.example.com;
    ssl_certificate     /etc/ssl/certs/flagman.example.com.pem;
    ssl_certificate_key /etc/ssl/private/flagman.example.com.key;

    # Project backups and integration payloads may be a few megabytes.
    client_max_body_size 10m;

    location / {
        proxy_pass http://127.0.0.1:3000;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-Host $host;
    }

    # Live task output comes over a websocket that stays open while a task runs.
    location /api/ws {
        proxy_pass http://127.0.0.1:3000;
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection "upgrade";
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 1h;
    }
}
`,
}

/** Flagman from the repository's Dockerfile, with PostgreSQL beside it. */
export function composeFile(version: string): ConfigFile {
  return {
    name: 'compose.yaml',
    type: 'application/yaml',
    content: `# compose.yaml — put it in a checkout of the Flagman repository, then: docker compose up -d
services:
  flagman:
    build: .
    image: flagman:${version}
    ports:
      - "127.0.0.1:3000:3000"
    environment:
      FLAGMAN_DB: postgres://flagman:change-me@postgres:5432/flagman
      FLAGMAN_WEB_HOST: http://localhost:3000
    volumes:
      - flagman-data:/var/lib/flagman
    depends_on:
      postgres:
        condition: service_healthy
    restart: unless-stopped

  postgres:
    image: postgres:15
    environment:
      POSTGRES_USER: flagman
      POSTGRES_PASSWORD: change-me
      POSTGRES_DB: flagman
    volumes:
      - postgres-data:/var/lib/postgresql/data
    healthcheck:
      test: ["CMD", "pg_isready", "-U", "flagman"]
      interval: 5s
      retries: 12
    restart: unless-stopped

volumes:
  flagman-data:
  postgres-data:
`,
  }
}
