#!/usr/bin/env bash
# The Debian packages the tests need beyond Node: Chromium and its fonts (browser tests), nginx
# (tests/http/multi-instance.test.ts) and, with --postgresql, PostgreSQL 15 (CI's own server; without
# DATABASE_URL the tests use the embedded one). As root with apt-get it installs what is missing, as
# Playwright's `install-deps` does; otherwise it stops at once with the command to run.
# `npm test` (scripts/test.ts) and CI (.ci/run) both run this one script.
set -euo pipefail

with_postgresql=false
for arg in "$@"; do
  case "$arg" in
    --postgresql) with_postgresql=true ;;
    *) echo "usage: $0 [--postgresql]" >&2; exit 2 ;;
  esac
done

PG_BIN=/usr/lib/postgresql/15/bin
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }

missing=()
if $with_postgresql && [[ ! -x "$PG_BIN/pg_ctl" ]]; then missing+=(postgresql-15); fi
if [[ -n "${CHROMIUM_PATH:-}" ]]; then
  # Someone else's Chromium: ours would not be the one the tests launch.
  if [[ ! -x "$CHROMIUM_PATH" ]]; then
    echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable; point it at Chromium, or unset it to use Debian's /usr/bin/chromium." >&2
    exit 1
  fi
elif [[ ! -x /usr/bin/chromium ]]; then
  missing+=(chromium)
fi
# Without these fonts Chromium renders text in whatever is left, and screenshots and layouts shift.
if command -v dpkg-query >/dev/null && ! installed fonts-liberation; then missing+=(fonts-liberation); fi
if [[ ! -x /usr/sbin/nginx && ! -x /usr/bin/nginx ]]; then missing+=(nginx); fi

if ((${#missing[@]} == 0)); then
  echo "System packages present (chromium, fonts-liberation, nginx$($with_postgresql && echo ", postgresql-15"))."
  exit 0
fi

install="apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
  {
    echo "The tests need system packages this machine lacks: ${missing[*]}."
    if command -v apt-get >/dev/null; then
      echo "Install them, then run the command again:"
      echo "  sudo apt-get update && sudo $install"
    else
      echo "This is not a Debian-like system: install Chromium (and set CHROMIUM_PATH to it) and nginx with its package manager,"
      echo "or on Debian/Ubuntu: sudo apt-get update && sudo $install"
    fi
  } >&2
  exit 1
fi

echo "Installing Debian packages (a few minutes on a fresh machine): ${missing[*]}"
log=$(mktemp /tmp/giftkey-apt.XXXXXX.log)
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  echo "Installing ${missing[*]} failed (log above, whole in $log); fix that and run the command again, or run: $install" >&2
  exit 1
fi
rm -f "$log"
# The packages start services the tests do not use, on ports others may want: PostgreSQL's default
# cluster on 5432 and nginx's default site on 80. The tests run their own on free ports.
if [[ " ${missing[*]} " == *" postgresql-15 "* ]] && command -v pg_ctlcluster >/dev/null; then pg_ctlcluster 15 main stop 2>/dev/null || true; fi
if [[ " ${missing[*]} " == *" nginx "* ]]; then /usr/sbin/nginx -s quit 2>/dev/null || true; fi
echo "Installed: ${missing[*]}"
