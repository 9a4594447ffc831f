#!/usr/bin/env bash
# Regenerate the cube self-play fixtures (fixtures/gnubg/cube/*.mat) non-interactively.
# Usage: tools/gnubg/generate_cube.sh       (from anywhere; GNUBG_MATCHES=N to change the count)
# Needs: GNU Backgammon 1.07 (Debian: apt-get install -y gnubg -> /usr/games/gnubg).
set -euo pipefail
cd "$(dirname "$0")/../.."
GNUBG="${GNUBG:-$(command -v gnubg || echo /usr/games/gnubg)}"
# Isolated HOME: no personal ~/.gnubg settings may influence the games.
tmp_home="$(mktemp -d)"
trap 'rm -rf "$tmp_home"' EXIT
mkdir -p "$tmp_home/.gnubg"
export GNUBG_OUT_DIR="${GNUBG_OUT_DIR:-fixtures/gnubg/cube}"
HOME="$tmp_home" "$GNUBG" -t -q -p tools/gnubg/generate_cube.py </dev/null | grep "^GENERATED"
