#!/usr/bin/env bash
# Regenerate fixtures/gnubg/hints.jsonl from the .mat fixtures with gnubg's hint.
# Usage: tools/gnubg/hints.sh            (from anywhere; works in the repo root)
set -euo pipefail
cd "$(dirname "$0")/../.."
GNUBG="${GNUBG:-$(command -v gnubg || echo /usr/games/gnubg)}"
tmp_home="$(mktemp -d)"
trap 'rm -rf "$tmp_home"' EXIT
mkdir -p "$tmp_home/.gnubg"
HOME="$tmp_home" "$GNUBG" -t -q -p tools/gnubg/hints.py </dev/null | grep -E '^(HINTS|Traceback|  File|[A-Za-z]*Error)'
