#!/usr/bin/env bash
# Submits the shard array and, after every task succeeded, the merge:
#   BFCL_MODEL=my-model BFCL_TEST_CATEGORY=multi_turn BFCL_DATA_DIR=/shared/bfcl BFCL_WORK=/shared/run1 deploy/slurm/submit.sh
# The array's size comes from bfcl-array.sbatch's --array line, or from
# SBATCH_ARRAY_INX (sbatch's own variable, e.g. SBATCH_ARRAY_INX=0-7), and
# only from there. Prints every job id it queues and records them in
# $BFCL_WORK/slurm-jobs for resubmit.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${BFCL_WORK:-$PWD/bfcl-work}
range=${SBATCH_ARRAY_INX:-$(sed -n 's/^#SBATCH --array=//p' "$here/bfcl-array.sbatch")}
if ! [[ $range =~ ^([0-9]+)-([0-9]+)$ ]]; then
	echo "submit.sh: the array must be one range A-B (got '$range')" >&2
	exit 2
fi
count=$((BASH_REMATCH[2] - BASH_REMATCH[1] + 1))
mkdir -p "$work"
array=$(sbatch --parsable --array="$range" --export="ALL,BFCL_SHARD_COUNT=$count" "$here/bfcl-array.sbatch")
array=${array%%;*}
echo "queued array job $array: $count shards (tasks $range)"
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$array" "$here/bfcl-merge.sbatch")
merge=${merge%%;*}
echo "queued merge job $merge: runs after every task of $array succeeded"
printf 'array=%s\nmerge=%s\ncount=%s\nrange=%s\n' "$array" "$merge" "$count" "$range" > "$work/slurm-jobs"
echo "if a task fails: BFCL_WORK=$work $here/resubmit.sh TASK... (resubmits them and releases the merge after them)"
