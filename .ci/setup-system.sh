#!/usr/bin/env bash
# System packages the safety and table tests need (tests/safety, tests/tables): OpenSSH's sshd and
# ssh client for the real SSH tests, tmux to drive the terminals; util-linux's unshare (sshd in a
# mount namespace of its own) and setpriv (a command as another user), passwd's useradd and usermod
# (the other users), the system's /usr/bin/python3 (what another user runs to speak the protocol);
# Chromium for the browser tests of dvtui web (tests/web), driven by Playwright from PyPI, which
# downloads no browser of its own; PostgreSQL's server programs (initdb, pg_ctl, postgres: Debian
# keeps them in /usr/lib/postgresql/*/bin) for the tables' PostgreSQL store (tests marked
# postgresql, which start a cluster of their own; the package's own cluster is not used). Idempotent: does nothing (and touches no network) when
# everything is already installed, so .ci/run can call it on every run.
set -euo pipefail

missing=()
[ -x /usr/sbin/sshd ] || missing+=(openssh-server)
command -v ssh >/dev/null 2>&1 || missing+=(openssh-client)
command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
# (an account other than root may lack sbin on its PATH: those are looked for there too)
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ]; }
have unshare || missing+=(util-linux)
have setpriv || missing+=(util-linux)
have useradd || missing+=(passwd)
have usermod || missing+=(passwd)
[ -x /usr/bin/python3 ] || missing+=(python3)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v msgfmt >/dev/null 2>&1 || missing+=(gettext)  # msgfmt --check on the catalogues (tests/test_catalogue.py)
command -v cc >/dev/null 2>&1 || missing+=(gcc)  # the compiled build's test (tests/bots/test_compiled.py)
compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null || missing+=(postgresql)

if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup-system: need root to install: ${missing[*]}" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # sort -u: a package may be listed more than once
    apt-get install -y -qq --no-install-recommends $(printf '%s\n' "${missing[@]}" | sort -u) >/dev/null
fi
mkdir -p /run/sshd 2>/dev/null || true
chmod 0755 /run/sshd 2>/dev/null || true
