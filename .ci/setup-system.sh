#!/usr/bin/env bash
# System packages the safety tests need (tests/safety): OpenSSH's sshd and ssh client for the real
# SSH test, tmux to drive the terminal; Chromium for the browser tests of dvtui web (tests/web),
# driven by Playwright from PyPI, which downloads no browser of its own. Idempotent: does nothing
# (and touches no network) when everything is already installed, so .ci/run can call it on every run.
set -euo pipefail

missing=()
[ -x /usr/sbin/sshd ] || missing+=(openssh-server)
command -v ssh >/dev/null 2>&1 || missing+=(openssh-client)
command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
[ -x /usr/bin/chromium ] || missing+=(chromium)

if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup-system: need root to install: ${missing[*]}" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # sort -u: openssh-client may be listed twice
    apt-get install -y -qq --no-install-recommends $(printf '%s\n' "${missing[@]}" | sort -u) >/dev/null
fi
mkdir -p /run/sshd 2>/dev/null || true
chmod 0755 /run/sshd 2>/dev/null || true
