#!/usr/bin/env bash
# Runs every fuzz target (tests/fuzz/) for SECS seconds each (default 60), one after the
# other, with overflow checks and debug assertions on (the `fuzz` profile), and prints each
# target's executions. A failure prints the seed, the input and a shrunk input.
#
#   scripts/fuzz.sh [SECS] [TARGET...]     e.g. scripts/fuzz.sh 600 fuzz_session
#   CHARIOT_FUZZ_SEED=0x... scripts/fuzz.sh    repeats a run
set -euo pipefail
cd "$(dirname "$0")/.."

secs="${1:-60}"
shift || true
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

status=0
CHARIOT_FUZZ_SECS="$secs" cargo test --profile fuzz --test fuzz -- --nocapture --test-threads 1 "$@" \
  2>&1 | tee "$log" || status=$?

echo
echo "fuzz summary ($secs s per target):"
grep -E '^fuzz [a-z_]+: [0-9]+ executions' "$log" | sed 's/^fuzz /  /' || true
if [ "$status" -ne 0 ]; then
  echo "fuzz: a target failed (see above)"
fi
exit "$status"
