// `GET /agents/install.sh` (spec 3, Agent enrollment and download): a POSIX sh installer for Linux and macOS.
// It detects the platform with uname, downloads the latest agent from this server, verifies its SHA-256 against
// the X-Checksum-Sha256 header (and against --checksum when the operator pins one), installs it, and enrolls it
// with the agent's own command line (`enroll <key> --server <url> [--enrollment-secret <s>] [--quiet]`), then
// installs the agent's service. Like the Windows installer's properties, SERVER_URL and ENROLLMENT_KEY come
// together or not at all (with neither, the agent is installed but not enrolled).

/** Single-quotes a value for sh: `'` becomes `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export const INSTALL_SCRIPT_REFUSAL = 'SERVER_URL and ENROLLMENT_KEY must be provided together';

export function installScript(origin: string): string {
  return `#!/bin/sh
# Gatehouse agent installer for Linux and macOS, served by ${origin.replace(/[\r\n]/g, '')}
#
#   curl -fsSL ${origin.replace(/[\r\n]/g, '')}/api/v1/agents/install.sh | sudo sh -s -- \\
#     --server <SERVER_URL> --enrollment-key <ENROLLMENT_KEY> [--enrollment-secret <SECRET>] [--quiet]
#
# Options (or the environment variables in brackets):
#   --server URL             the Gatehouse server the agent reports to [SERVER_URL]
#   --enrollment-key KEY     the enrollment key of the organization or site [ENROLLMENT_KEY]
#   --enrollment-secret S    the server-wide enrollment secret, when the server requires one [ENROLLMENT_SECRET]
#   --install-dir DIR        where the agent binary goes (default /usr/local/bin) [INSTALL_DIR]
#   --checksum SHA256        refuse any download whose SHA-256 is not this [CHECKSUM]
#   --no-service             install and enroll, but do not install the agent's service [NO_SERVICE=1]
#   --quiet                  print errors only
# SERVER_URL and ENROLLMENT_KEY are given together, or neither (the agent is then installed, not enrolled).
set -eu

GATEHOUSE_ORIGIN=${shellQuote(origin)}
SERVER_URL="\${SERVER_URL:-}"
ENROLLMENT_KEY="\${ENROLLMENT_KEY:-}"
ENROLLMENT_SECRET="\${ENROLLMENT_SECRET:-}"
INSTALL_DIR="\${INSTALL_DIR:-/usr/local/bin}"
EXPECTED_CHECKSUM="\${CHECKSUM:-}"
NO_SERVICE="\${NO_SERVICE:-0}"
QUIET=0

say() {
  if [ "$QUIET" != 1 ]; then printf '%s\\n' "$*"; fi
}

fail() {
  printf 'gatehouse-install: %s\\n' "$*" >&2
  exit 1
}

usage() {
  cat <<'USAGE'
Usage: install.sh [--server URL --enrollment-key KEY [--enrollment-secret SECRET]] [--install-dir DIR]
                  [--checksum SHA256] [--no-service] [--quiet]
Environment: SERVER_URL, ENROLLMENT_KEY, ENROLLMENT_SECRET, INSTALL_DIR, CHECKSUM, NO_SERVICE=1.
SERVER_URL and ENROLLMENT_KEY are given together, or neither (the agent is then installed, not enrolled).
USAGE
}

value_of() {
  # $1: the option, $2: the number of arguments left, $3: its value
  if [ "$2" -lt 2 ]; then fail "$1 needs a value"; fi
}

while [ $# -gt 0 ]; do
  case "$1" in
    --server) value_of "$1" $#; SERVER_URL=\${2-}; shift 2 ;;
    --server=*) SERVER_URL=\${1#*=}; shift ;;
    --enrollment-key) value_of "$1" $#; ENROLLMENT_KEY=\${2-}; shift 2 ;;
    --enrollment-key=*) ENROLLMENT_KEY=\${1#*=}; shift ;;
    --enrollment-secret) value_of "$1" $#; ENROLLMENT_SECRET=\${2-}; shift 2 ;;
    --enrollment-secret=*) ENROLLMENT_SECRET=\${1#*=}; shift ;;
    --install-dir) value_of "$1" $#; INSTALL_DIR=\${2-}; shift 2 ;;
    --install-dir=*) INSTALL_DIR=\${1#*=}; shift ;;
    --checksum) value_of "$1" $#; EXPECTED_CHECKSUM=\${2-}; shift 2 ;;
    --checksum=*) EXPECTED_CHECKSUM=\${1#*=}; shift ;;
    --no-service) NO_SERVICE=1; shift ;;
    --quiet|-q) QUIET=1; shift ;;
    --help|-h) usage; exit 0 ;;
    *) fail "unknown option: $1 (see --help)" ;;
  esac
done

if { [ -n "$SERVER_URL" ] && [ -z "$ENROLLMENT_KEY" ]; } || { [ -z "$SERVER_URL" ] && [ -n "$ENROLLMENT_KEY" ]; }; then
  fail '${INSTALL_SCRIPT_REFUSAL}'
fi
if [ -n "$ENROLLMENT_SECRET" ] && [ -z "$ENROLLMENT_KEY" ]; then
  fail 'ENROLLMENT_SECRET is used only with SERVER_URL and ENROLLMENT_KEY'
fi
case "$SERVER_URL" in
  ''|http://*|https://*) ;;
  *) fail "SERVER_URL must start with https:// or http:// (got $SERVER_URL)" ;;
esac
EXPECTED_CHECKSUM=$(printf '%s' "$EXPECTED_CHECKSUM" | tr 'A-F' 'a-f')
case "$EXPECTED_CHECKSUM" in
  '') ;;
  *[!0-9a-f]*) fail 'CHECKSUM must be a SHA-256 checksum (64 hexadecimal characters)' ;;
  *) if [ \${#EXPECTED_CHECKSUM} -ne 64 ]; then fail 'CHECKSUM must be a SHA-256 checksum (64 hexadecimal characters)'; fi ;;
esac

kernel=$(uname -s)
case "$kernel" in
  Linux) OS=linux ;;
  Darwin) OS=darwin ;;
  MINGW*|MSYS*|CYGWIN*|Windows*) fail 'this installer is for Linux and macOS; on Windows use the Windows installer' ;;
  *) fail "unsupported operating system: $kernel" ;;
esac
machine=$(uname -m)
case "$machine" in
  x86_64|amd64|x64) ARCH=amd64 ;;
  aarch64|arm64|armv8*) ARCH=arm64 ;;
  *) fail "unsupported architecture: $machine (agents are built for amd64 and arm64)" ;;
esac

BASE=\${SERVER_URL:-$GATEHOUSE_ORIGIN}
BASE=\${BASE%/}
case "$BASE" in
  */api/v1) ;;
  *) BASE="$BASE/api/v1" ;;
esac
URL="$BASE/agents/download/$OS/$ARCH"

WORK=$(mktemp -d 2>/dev/null || mktemp -d -t gatehouse-agent)
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

say "Downloading the Gatehouse agent for $OS/$ARCH from $URL"
if command -v curl >/dev/null 2>&1; then
  curl -fsSL --proto '=https,http' -D "$WORK/headers" -o "$WORK/agent" "$URL" || fail "download failed: $URL"
elif command -v wget >/dev/null 2>&1; then
  wget -q -S -O "$WORK/agent" "$URL" 2>"$WORK/headers" || fail "download failed: $URL"
else
  fail 'curl or wget is required'
fi

SERVED_CHECKSUM=$(tr 'A-Z' 'a-z' <"$WORK/headers" | sed -n 's/^[[:space:]]*x-checksum-sha256:[[:space:]]*\\([0-9a-f]\\{64\\}\\).*/\\1/p' | head -n 1)
if [ -n "$EXPECTED_CHECKSUM" ] && [ -n "$SERVED_CHECKSUM" ] && [ "$EXPECTED_CHECKSUM" != "$SERVED_CHECKSUM" ]; then
  fail "the server announced checksum $SERVED_CHECKSUM, not the pinned $EXPECTED_CHECKSUM; nothing was installed"
fi
EXPECTED=\${EXPECTED_CHECKSUM:-$SERVED_CHECKSUM}
if [ -z "$EXPECTED" ]; then
  fail 'the download came without a checksum; pass --checksum to verify it; nothing was installed'
fi

if command -v sha256sum >/dev/null 2>&1; then
  ACTUAL=$(sha256sum "$WORK/agent" | cut -d ' ' -f 1)
elif command -v shasum >/dev/null 2>&1; then
  ACTUAL=$(shasum -a 256 "$WORK/agent" | cut -d ' ' -f 1)
else
  fail 'sha256sum or shasum is required to verify the download'
fi
if [ "$ACTUAL" != "$EXPECTED" ]; then
  fail "checksum mismatch: expected $EXPECTED, got $ACTUAL; nothing was installed"
fi
say "Checksum verified: $ACTUAL"

mkdir -p "$INSTALL_DIR" || fail "cannot create $INSTALL_DIR (run as root, or pass --install-dir)"
TARGET="$INSTALL_DIR/gatehouse-agent"
chmod 0755 "$WORK/agent"
# Copy beside the target first, then rename: a running agent never sees a half-written binary.
cp "$WORK/agent" "$TARGET.new" 2>/dev/null || fail "cannot write to $INSTALL_DIR (run as root, or pass --install-dir)"
mv -f "$TARGET.new" "$TARGET" || fail "cannot install $TARGET"
say "Installed $TARGET"

if [ -z "$ENROLLMENT_KEY" ]; then
  say 'No enrollment key given: the agent is installed but not enrolled.'
  exit 0
fi

set -- enroll "$ENROLLMENT_KEY" --server "$SERVER_URL"
if [ -n "$ENROLLMENT_SECRET" ]; then set -- "$@" --enrollment-secret "$ENROLLMENT_SECRET"; fi
if [ "$QUIET" = 1 ]; then set -- "$@" --quiet; fi
"$TARGET" "$@" || fail 'enrollment failed; see the agent log. The agent is installed but not enrolled.'
say 'Enrolled.'

if [ "$NO_SERVICE" = 1 ]; then
  say "Service not installed (--no-service); run $TARGET service install when ready."
  exit 0
fi
if [ "$QUIET" = 1 ]; then set -- service install --quiet; else set -- service install; fi
"$TARGET" "$@" || fail "the agent is enrolled but its service could not be installed; run $TARGET service install"
say 'The Gatehouse agent is installed and running.'
`;
}
