package shard

import (
	"fmt"
	"strconv"
	"strings"
)

// The environment variables a shard is read from when no --shard flag is
// given, in this order:
//
//	BFCL_SHARD=K/N                       any engine (a CI matrix may set it); "off" disables sharding
//	JOB_COMPLETION_INDEX + BFCL_SHARD_COUNT  Kubernetes Indexed Job (K8s does not expose the completion count, so it is given once)
//	SLURM_ARRAY_TASK_ID + SLURM_ARRAY_TASK_COUNT (+ _MIN, _MAX, _STEP)  Slurm job array
const (
	EnvShard      = "BFCL_SHARD"
	EnvShardCount = "BFCL_SHARD_COUNT"
	EnvK8sIndex   = "JOB_COMPLETION_INDEX"
	EnvSlurmID    = "SLURM_ARRAY_TASK_ID"
	EnvSlurmCount = "SLURM_ARRAY_TASK_COUNT"
	EnvSlurmMin   = "SLURM_ARRAY_TASK_MIN"
	EnvSlurmMax   = "SLURM_ARRAY_TASK_MAX"
	EnvSlurmStep  = "SLURM_ARRAY_TASK_STEP"
)

// Off is the flag or BFCL_SHARD value that runs the whole selection even
// under an engine that would shard it.
const Off = "off"

// Resolve returns the shard a process runs: flag (the value of --shard or
// -bfcl.shard) when not empty, else the environment (see FromEnv). from
// says where the choice came from, for the run's log line ("" when not
// sharded).
func Resolve(flag string, getenv func(string) string) (s Spec, from string, err error) {
	switch flag = strings.TrimSpace(flag); flag {
	case "":
		return FromEnv(getenv)
	case Off, "none":
		return Spec{}, "", nil
	}
	s, err = Parse(flag)
	if err != nil {
		return Spec{}, "", err
	}
	return s, "--shard " + flag, nil
}

// FromEnv reads the shard from the engines' variables. A variable that is
// set but malformed, inconsistent or incomplete is an error naming it.
func FromEnv(getenv func(string) string) (s Spec, from string, err error) {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	if v := get(EnvShard); v != "" {
		if v == Off || v == "none" {
			return Spec{}, "", nil
		}
		s, err := Parse(v)
		if err != nil {
			return Spec{}, "", fmt.Errorf("%s: %w", EnvShard, err)
		}
		return s, EnvShard + "=" + v, nil
	}
	count := get(EnvShardCount)
	k8s, slurm := get(EnvK8sIndex), get(EnvSlurmID)
	if k8s != "" && slurm != "" {
		return Spec{}, "", fmt.Errorf("both %s (Kubernetes) and %s (Slurm) are set: pass --shard K/N or %s to say which shard this is", EnvK8sIndex, EnvSlurmID, EnvShard)
	}
	switch {
	case k8s != "":
		if count == "" {
			return Spec{}, "", fmt.Errorf("%s=%s is set (a Kubernetes Indexed Job) but %s is not: set %s to the Job's completions, or %s=%s to run the whole selection in every pod", EnvK8sIndex, k8s, EnvShardCount, EnvShardCount, EnvShard, Off)
		}
		k, err := atoi(EnvK8sIndex, k8s)
		if err != nil {
			return Spec{}, "", err
		}
		n, err := atoi(EnvShardCount, count)
		if err != nil {
			return Spec{}, "", err
		}
		where := fmt.Sprintf("%s=%s, %s=%s", EnvK8sIndex, k8s, EnvShardCount, count)
		s, err := check(Spec{k, n}, where)
		return s, where, err
	case slurm != "":
		return fromSlurm(get, count)
	case count != "":
		return Spec{}, "", fmt.Errorf("%s=%s is set but neither %s nor %s says which shard this is (pass --shard K/N)", EnvShardCount, count, EnvK8sIndex, EnvSlurmID)
	}
	return Spec{}, "", nil
}

// fromSlurm maps an array task to a shard: K = (ID - MIN) / STEP, N =
// COUNT. Only arrays that are one arithmetic range (--array=0-7,
// --array=1-16, --array=0-14:2, with or without a %throttle) map onto
// shards; a list such as --array=1,4,9 is refused.
func fromSlurm(get func(string) string, bfclCount string) (Spec, string, error) {
	idS, countS := get(EnvSlurmID), get(EnvSlurmCount)
	if countS == "" {
		return Spec{}, "", fmt.Errorf("%s=%s is set but %s is not: pass --shard K/N", EnvSlurmID, idS, EnvSlurmCount)
	}
	id, err := atoi(EnvSlurmID, idS)
	if err != nil {
		return Spec{}, "", err
	}
	n, err := atoi(EnvSlurmCount, countS)
	if err != nil {
		return Spec{}, "", err
	}
	lo, step := 0, 1
	if v := get(EnvSlurmMin); v != "" {
		if lo, err = atoi(EnvSlurmMin, v); err != nil {
			return Spec{}, "", err
		}
	}
	if v := get(EnvSlurmStep); v != "" {
		if step, err = atoi(EnvSlurmStep, v); err != nil {
			return Spec{}, "", err
		}
		if step < 1 {
			return Spec{}, "", fmt.Errorf("%s=%d must be at least 1", EnvSlurmStep, step)
		}
	}
	where := fmt.Sprintf("%s=%d of %s=%d (min %d, step %d)", EnvSlurmID, id, EnvSlurmCount, n, lo, step)
	if v := get(EnvSlurmMax); v != "" {
		hi, err := atoi(EnvSlurmMax, v)
		if err != nil {
			return Spec{}, "", err
		}
		if hi != lo+(n-1)*step {
			return Spec{}, "", fmt.Errorf("%s: the array's indexes (min %d, max %d, %d tasks) are not one range with step %d; submit --array=0-%d or pass --shard K/N", where, lo, hi, n, step, n-1)
		}
	}
	if (id-lo)%step != 0 {
		return Spec{}, "", fmt.Errorf("%s: task %d is not on the array's step", where, id)
	}
	if bfclCount != "" {
		c, err := atoi(EnvShardCount, bfclCount)
		if err != nil {
			return Spec{}, "", err
		}
		if c != n {
			return Spec{}, "", fmt.Errorf("%s=%d disagrees with %s=%d (a task resubmitted alone is a one-task array: set %s=K/%d for it)", EnvShardCount, c, EnvSlurmCount, n, EnvShard, c)
		}
	}
	s, err := check(Spec{(id - lo) / step, n}, where)
	return s, where, err
}

func atoi(name, v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not an integer", name, v)
	}
	return n, nil
}
