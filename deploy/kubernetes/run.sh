#!/usr/bin/env bash
# Runs a sharded BFCL pass on the current kubectl context: storage and
# registry, the data set, the shards (an Indexed Job), then merge and
# evaluate. Re-running after a failure resumes: stored results are kept.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
timeout=${BFCL_TIMEOUT:-24h}

kubectl apply -f "$here/storage.yaml"
kubectl apply -f "$here/data-job.yaml"
kubectl wait --for=condition=complete job/bfcl-data --timeout=30m
kubectl apply -f "$here/generate-job.yaml"
kubectl wait --for=condition=complete job/bfcl-generate --timeout="$timeout"
kubectl delete job/bfcl-merge --ignore-not-found
kubectl apply -f "$here/merge-job.yaml"
kubectl wait --for=condition=complete job/bfcl-merge --timeout=1h
kubectl logs job/bfcl-merge -c evaluate
