# Sourced by nnue.sh and nnue-gen.sh: what both need, in one place.

# The size of one training record in bytes: `RECORD_BYTES` in engine/src/nnue/data.rs (tests/docs/
# holds the two equal). The scripts cut each data file to a whole number of records with it.
RECORD_BYTES=40

# The repository, and the folder that holds the training data, the networks and the builds of
# old commits: $CHARIOT_NNUE, which the caller names (it is made if need be). Several GB.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${CHARIOT_NNUE:-}" ]; then
  echo "$(basename "$0"): CHARIOT_NNUE is not set: name the folder for training data, networks" \
    "and builds, e.g. CHARIOT_NNUE=/data/nnue $(basename "$0") ..." >&2
  exit 2
fi
root=$CHARIOT_NNUE
