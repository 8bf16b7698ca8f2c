#!/usr/bin/env bash
# Submits the shard array and, after it succeeds, the merge:
#   BFCL_MODEL=my-model BFCL_DATA_DIR=/shared/bfcl BFCL_WORK=/shared/run1 deploy/slurm/submit.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
array=$(sbatch --parsable --export=ALL "$here/bfcl-array.sbatch")
sbatch --parsable --export=ALL --dependency="afterok:${array%%;*}" "$here/bfcl-merge.sbatch"
