#!/usr/bin/env bash
# Prints the nets/data.toml entry of each data file in the pool folder: name, game, commit, seed,
# positions (whole 40-byte records), whether the file is complete, its sha256, and the command
# that makes it again (at that commit).
#
#   CHARIOT_DATA=DIR scripts/data-manifest.sh
set -euo pipefail
dir=${CHARIOT_DATA:?set CHARIOT_DATA to the folder of the data pool}
RECORD_BYTES=$(sed -n "s/^RECORD_BYTES=//p" "$(dirname "$0")/nnue-common.sh")
for f in "$dir"/*.data; do
  [ -e "$f" ] || continue
  name=$(basename "$f" .data)
  IFS=- read -r game commit seed <<<"$name"
  seed=${seed#s}
  bytes=$(stat -c %s "$f")
  complete=false
  [ -e "$f.done" ] && complete=true
  echo "[[file]]"
  echo "name = \"$name.data\""
  echo "game = \"$game\""
  echo "commit = \"$commit\""
  echo "network = \"embedded\""
  echo "seed = $seed"
  echo "positions = $((bytes / ${RECORD_BYTES:-40}))"
  echo "complete = $complete"
  if $complete; then echo "sha256 = \"$(sha256sum "$f" | cut -d' ' -f1)\""; fi
  echo "command = \"chariot datagen --variant $game --out $name.data --positions 1000000 --threads 1 --seed $seed --nodes 5000\""
  echo
done
