#!/usr/bin/env bash
# Resubmits failed array tasks and ties the pending merge to them:
#   BFCL_WORK=/shared/run1 deploy/slurm/resubmit.sh 2 [3 ...]
# Each task K is resubmitted as shard K/N (N from submit.sh's record) and
# resumes from the results it already stored. The merge job, which a
# failed task left pending (DependencyNeverSatisfied), is set to run after
# the resubmitted tasks instead (scontrol update). Prints every job id.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${BFCL_WORK:-$PWD/bfcl-work}
jobs="$work/slurm-jobs"
if [ ! -f "$jobs" ]; then
	echo "resubmit.sh: no $jobs (submit.sh writes it; is BFCL_WORK the run's?)" >&2
	exit 2
fi
if [ $# -eq 0 ]; then
	echo "usage: BFCL_WORK=DIR $0 TASK [TASK...]" >&2
	exit 2
fi
count=$(sed -n 's/^count=//p' "$jobs")
merge=$(sed -n 's/^merge=//p' "$jobs")
deps=""
for task in "$@"; do
	if ! [[ $task =~ ^[0-9]+$ ]] || [ "$task" -ge "$count" ]; then
		echo "resubmit.sh: task '$task' is not one of 0..$((count - 1))" >&2
		exit 2
	fi
	id=$(sbatch --parsable --array="$task" --export="ALL,BFCL_SHARD_COUNT=$count,BFCL_SHARD=$task/$count" "$here/bfcl-array.sbatch")
	id=${id%%;*}
	echo "queued task $task again as job $id (shard $task/$count)"
	deps="$deps:$id"
done
scontrol update JobId="$merge" Dependency="afterok$deps"
echo "merge job $merge now runs after job(s) ${deps#:}"
printf 'resubmitted=%s\n' "${deps#:}" >> "$jobs"
