#!/usr/bin/env bash
# Installs the Python clients and referees that some tests drive Chariot with:
#   chess   (python-chess: a UCI client, `chess.engine`)
#   cchess  (a UCCI client: `cchess.engine.UcciEngine`)
#   pyffish (Fairy-Stockfish's rules, to cross-check xiangqi verdicts)
# Tests that need one skip themselves when it is missing. Idempotent.
set -euo pipefail
if ! command -v python3 >/dev/null; then
  echo "setup-test-deps.sh: python3 is not installed; the tests that need it skip themselves" >&2
  exit 1
fi
if python3 -c 'import chess, cchess, pyffish' 2>/dev/null; then
  exit 0
fi
pins=('chess==1.11.2' 'cchess==1.25.5' 'pyffish==0.0.90')
# A system Python marked "externally managed" (PEP 668) refuses plain installs; fall back to
# the user site, which the tests' python3 also sees.
python3 -m pip install --quiet --disable-pip-version-check "${pins[@]}" ||
  python3 -m pip install --quiet --disable-pip-version-check --user --break-system-packages "${pins[@]}"
