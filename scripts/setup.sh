#!/usr/bin/env bash
# Installs what the build, the tests and the demo need and is missing: pkg-config, libpq (headers),
# zlib (headers), the PostgreSQL server programs (initdb, pg_ctl), and for the calls to Apple the libcurl that
# Foundation's URLSession runs over on Linux and the system's trust store. Debian/Ubuntu (apt-get).
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists libpq 2>/dev/null || missing+=(libpq-dev)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v gzip >/dev/null 2>&1 || missing+=(gzip)
command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)
if [ "$(uname -s)" = Linux ]; then
    ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4 ' || missing+=(libcurl4)
    [ -e /etc/ssl/certs/ca-certificates.crt ] || missing+=(ca-certificates)
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "setup: no Swift toolchain on the PATH; install Swift 6.2 or later (https://www.swift.org/install/) first." >&2
    exit 1
fi

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
        echo "setup: need root (or sudo) to install: ${missing[*]}" >&2
        exit 1
    fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: no apt-get here; please install: ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# The postgresql package starts a system cluster on install; the tool never uses it (it runs its own).
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
