// Package deploy_test checks the example deployments: the Kubernetes
// manifests decode strictly into the k8s.io/api types and agree with each
// other (shard count, volume, environment), the Slurm scripts and the
// GitHub Actions workflow are well-formed and wire shards the same way.
package deploy_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"gopkg.in/yaml.v3"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	k8syaml "sigs.k8s.io/yaml"

	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/run/shard"
)

// docs splits a multi-document YAML file.
func docs(path string) [][]byte {
	b, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	var out [][]byte
	for _, d := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(b), -1) {
		if strings.TrimSpace(regexp.MustCompile(`(?m)^\s*#.*$`).ReplaceAllString(d, "")) != "" {
			out = append(out, []byte(d))
		}
	}
	return out
}

// decode reads one manifest strictly (unknown fields are errors) into the
// type its kind names.
func decode(doc []byte) any {
	var meta struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	Expect(k8syaml.Unmarshal(doc, &meta)).To(Succeed())
	var obj any
	switch meta.APIVersion + "/" + meta.Kind {
	case "batch/v1/Job":
		obj = &batchv1.Job{}
	case "v1/PersistentVolumeClaim":
		obj = &corev1.PersistentVolumeClaim{}
	case "v1/ConfigMap":
		obj = &corev1.ConfigMap{}
	default:
		Fail("unexpected manifest kind " + meta.APIVersion + "/" + meta.Kind)
	}
	Expect(k8syaml.UnmarshalStrict(doc, obj)).To(Succeed())
	return obj
}

func job(path string) *batchv1.Job {
	ds := docs(path)
	Expect(ds).To(HaveLen(1))
	j, ok := decode(ds[0]).(*batchv1.Job)
	Expect(ok).To(BeTrue(), "%s is not a Job", path)
	Expect(j.Spec.Template.Spec.RestartPolicy).To(Equal(corev1.RestartPolicyNever))
	return j
}

func env(c corev1.Container, name string) (corev1.EnvVar, int) {
	for i, e := range c.Env {
		if e.Name == name {
			return e, i
		}
	}
	Fail(fmt.Sprintf("container %s has no %s", c.Name, name))
	return corev1.EnvVar{}, -1
}

// claims are the PVC names a pod spec mounts, by volume name.
func claims(p corev1.PodSpec) map[string]string {
	out := map[string]string{}
	for _, v := range p.Volumes {
		if v.PersistentVolumeClaim != nil {
			out[v.Name] = v.PersistentVolumeClaim.ClaimName
		}
	}
	return out
}

func bashSyntax(path string) {
	out, err := exec.Command("bash", "-n", path).CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "bash -n %s: %s", path, out)
}

var _ = Describe("the Kubernetes deployment", func() {
	var pvc *corev1.PersistentVolumeClaim
	var gen, merge *batchv1.Job
	BeforeEach(func() {
		for _, d := range docs("kubernetes/storage.yaml") {
			switch o := decode(d).(type) {
			case *corev1.PersistentVolumeClaim:
				pvc = o
			case *corev1.ConfigMap:
				_, err := registry.Parse([]byte(o.Data["models.yaml"]))
				Expect(err).NotTo(HaveOccurred(), "the ConfigMap's models.yaml")
			}
		}
		Expect(pvc).NotTo(BeNil())
		gen, merge = job("kubernetes/generate-job.yaml"), job("kubernetes/merge-job.yaml")
	})

	It("runs the shards as an Indexed Job whose completions, parallelism and BFCL_SHARD_COUNT agree", func() {
		Expect(gen.Spec.CompletionMode).NotTo(BeNil())
		Expect(*gen.Spec.CompletionMode).To(Equal(batchv1.IndexedCompletion))
		Expect(gen.Spec.Completions).NotTo(BeNil())
		n := int(*gen.Spec.Completions)
		Expect(n).To(BeNumerically(">", 1))
		Expect(gen.Spec.Parallelism).NotTo(BeNil())
		Expect(int(*gen.Spec.Parallelism)).To(Equal(n))
		Expect(gen.Spec.Template.Spec.Containers).To(HaveLen(1))
		c := gen.Spec.Template.Spec.Containers[0]
		count, _ := env(c, shard.EnvShardCount)
		Expect(count.Value).To(Equal(strconv.Itoa(n)))
		// What bfcl reads in pod K: JOB_COMPLETION_INDEX (set by the Job
		// controller) with the count given once.
		for k := 0; k < n; k++ {
			s, _, err := shard.FromEnv(func(v string) string {
				return map[string]string{shard.EnvK8sIndex: strconv.Itoa(k), shard.EnvShardCount: count.Value}[v]
			})
			Expect(err).NotTo(HaveOccurred())
			Expect(s).To(Equal(shard.Spec{Index: k, Count: n}))
		}
	})

	It("gives every shard its own result root named by its index, defined before use", func() {
		c := gen.Spec.Template.Spec.Containers[0]
		idx, at := env(c, "SHARD")
		Expect(idx.ValueFrom).NotTo(BeNil())
		Expect(idx.ValueFrom.FieldRef).NotTo(BeNil())
		Expect(idx.ValueFrom.FieldRef.FieldPath).To(Equal("metadata.annotations['batch.kubernetes.io/job-completion-index']"))
		Expect(c.Args[0]).To(Equal("generate"))
		Expect(strings.Join(c.Args, " ")).To(ContainSubstring("--result-dir /work/shards/$(SHARD)/result"))
		cache, cacheAt := env(c, "BFCL_REQUEST_CACHE")
		Expect(cache.Value).To(ContainSubstring("$(SHARD)"))
		Expect(cacheAt).To(BeNumerically(">", at), "Kubernetes expands $(SHARD) only after its definition")
		model, _ := env(c, "BFCL_MODEL")
		Expect(model.Value).NotTo(BeEmpty())
		// issue 26: the README's variables are the settings; no flag
		// overrides them
		cats, _ := env(c, "BFCL_TEST_CATEGORY")
		Expect(cats.Value).NotTo(BeEmpty())
		for _, a := range c.Args {
			Expect(a).NotTo(BeElementOf("--model", "--test-category", "--ids"), "a flag would override the variable")
		}
		for _, m := range c.VolumeMounts {
			if m.Name == "work" {
				Expect(m.MountPath).To(Equal("/work"))
			}
		}
		Expect(claims(gen.Spec.Template.Spec)).To(HaveKeyWithValue("work", pvc.Name))
	})

	It("merges exactly the shards' result roots on the same volume, then evaluates the merged root", func() {
		n := int(*gen.Spec.Completions)
		p := merge.Spec.Template.Spec
		Expect(p.InitContainers).To(HaveLen(1))
		args := p.InitContainers[0].Args
		Expect(args[0]).To(Equal("merge"))
		want := []string{"/work/merged/result"}
		for k := 0; k < n; k++ {
			want = append(want, fmt.Sprintf("/work/shards/%d/result", k))
		}
		Expect(args[1:]).To(Equal(want))
		Expect(p.Containers).To(HaveLen(1))
		Expect(strings.Join(p.Containers[0].Args, " ")).To(HavePrefix("evaluate --result-dir /work/merged/result "))
		Expect(claims(p)).To(HaveKeyWithValue("work", pvc.Name))
		Expect(pvc.Spec.AccessModes).To(ContainElement(corev1.ReadWriteMany))
	})

	It("fills the data set once and ships a well-formed run script", func() {
		d := job("kubernetes/data-job.yaml")
		Expect(d.Spec.Template.Spec.Containers[0].Args).To(Equal([]string{"data", "--dir", "/work/data"}))
		Expect(claims(d.Spec.Template.Spec)).To(HaveKeyWithValue("work", pvc.Name))
		bashSyntax("kubernetes/run.sh")
		b, _ := os.ReadFile("kubernetes/run.sh")
		for _, f := range []string{"storage.yaml", "data-job.yaml", "generate-job.yaml", "merge-job.yaml"} {
			Expect(string(b)).To(ContainSubstring(f))
		}
	})
})

// stub is a fake bfcl that appends its arguments and the shard variables
// to a log, one line per call.
func stub(dir string) (bin, log string) {
	bin, log = filepath.Join(dir, "bfcl"), filepath.Join(dir, "calls.log")
	script := "#!/bin/bash\necho \"$* | $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT ${SLURM_ARRAY_TASK_MIN:-} ${BFCL_SHARD_COUNT:-}\" >> " + log + "\n"
	Expect(os.WriteFile(bin, []byte(script), 0o755)).To(Succeed())
	return bin, log
}

var _ = Describe("the Slurm deployment", func() {
	It("is valid bash", func() {
		for _, f := range []string{"slurm/bfcl-array.sbatch", "slurm/bfcl-merge.sbatch", "slurm/submit.sh", "slurm/resubmit.sh"} {
			bashSyntax(f)
		}
	})

	It("runs shard K/N of the array in task K, with a count that matches the array", func() {
		b, err := os.ReadFile("slurm/bfcl-array.sbatch")
		Expect(err).NotTo(HaveOccurred())
		m := regexp.MustCompile(`(?m)^#SBATCH --array=(\d+)-(\d+)\s*$`).FindStringSubmatch(string(b))
		Expect(m).NotTo(BeNil(), "an #SBATCH --array=A-B line")
		lo, _ := strconv.Atoi(m[1])
		hi, _ := strconv.Atoi(m[2])
		n := hi - lo + 1
		dir := GinkgoT().TempDir()
		bin, log := stub(dir)
		for id := lo; id <= hi; id++ {
			cmd := exec.Command("bash", "slurm/bfcl-array.sbatch")
			cmd.Env = append(os.Environ(), "BFCL_BIN="+bin, "BFCL_MODEL=m", "BFCL_DATA_DIR=/data", "BFCL_WORK="+dir+"/w",
				fmt.Sprintf("BFCL_SHARD_COUNT=%d", n), fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", id), fmt.Sprintf("SLURM_ARRAY_TASK_COUNT=%d", n),
				fmt.Sprintf("SLURM_ARRAY_TASK_MIN=%d", lo), fmt.Sprintf("SLURM_ARRAY_TASK_MAX=%d", hi))
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "%s", out)
		}
		calls, err := os.ReadFile(log)
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
		Expect(lines).To(HaveLen(n))
		for i, l := range lines {
			args, vars, _ := strings.Cut(l, " | ")
			// the README's variables reach bfcl as they are (no flag overrides them)
			Expect(args).To(Equal(fmt.Sprintf("generate --result-dir %s/w/shards/%d/result --score-dir %s/w/shards/%d/score", dir, lo+i, dir, lo+i)))
			f := strings.Fields(vars)
			Expect(f).To(HaveLen(4))
			s, _, err := shard.FromEnv(func(v string) string {
				return map[string]string{shard.EnvSlurmID: f[0], shard.EnvSlurmCount: f[1], shard.EnvSlurmMin: f[2], shard.EnvShardCount: f[3]}[v]
			})
			Expect(err).NotTo(HaveOccurred())
			Expect(s).To(Equal(shard.Spec{Index: i, Count: n}))
		}
	})

	It("queues the array and the merge, prints both ids, and resubmits a failed task with the merge tied to it (stub sbatch, scontrol)", func() {
		dir := GinkgoT().TempDir()
		stubs := filepath.Join(dir, "bin")
		Expect(os.MkdirAll(stubs, 0o755)).To(Succeed())
		log := filepath.Join(dir, "slurm.log")
		// sbatch --parsable prints job ids 1001, 1002, ...; both stubs log
		// their arguments and the variables sbatch would export
		Expect(os.WriteFile(filepath.Join(stubs, "sbatch"), []byte(`#!/bin/bash
n=$(( $(grep -c '^sbatch' `+log+` 2>/dev/null || true) + 1001 ))
echo "sbatch $*" >> `+log+`
echo "$n;cluster"
`), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(stubs, "scontrol"), []byte("#!/bin/bash\necho \"scontrol $*\" >> "+log+"\n"), 0o755)).To(Succeed())
		env := append(os.Environ(), "PATH="+stubs+":"+os.Getenv("PATH"), "BFCL_WORK="+dir+"/w", "BFCL_MODEL=m", "BFCL_TEST_CATEGORY=multi_turn", "BFCL_DATA_DIR=/data")
		run := func(extra []string, script string, args ...string) string {
			cmd := exec.Command("bash", append([]string{script}, args...)...)
			cmd.Env = append(append([]string{}, env...), extra...)
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "%s", out)
			return string(out)
		}
		out := run(nil, "slurm/submit.sh")
		Expect(out).To(ContainSubstring("queued array job 1001: 4 shards (tasks 0-3)"))
		Expect(out).To(ContainSubstring("queued merge job 1002"))
		calls, _ := os.ReadFile(log)
		lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
		Expect(lines).To(HaveLen(2))
		Expect(lines[0]).To(HavePrefix("sbatch --parsable --array=0-3 --export=ALL,BFCL_SHARD_COUNT=4 "))
		Expect(lines[1]).To(HavePrefix("sbatch --parsable --export=ALL --dependency=afterok:1001 "))
		// task 2 failed: resubmit it; the merge now waits for the new job
		out = run(nil, "slurm/resubmit.sh", "2")
		Expect(out).To(ContainSubstring("queued task 2 again as job 1003 (shard 2/4)"))
		Expect(out).To(ContainSubstring("merge job 1002 now runs after job(s) 1003"))
		calls, _ = os.ReadFile(log)
		lines = strings.Split(strings.TrimSpace(string(calls)), "\n")
		Expect(lines).To(HaveLen(4))
		Expect(lines[2]).To(HavePrefix("sbatch --parsable --array=2 --export=ALL,BFCL_SHARD_COUNT=4,BFCL_SHARD=2/4 "))
		Expect(lines[3]).To(Equal("scontrol update JobId=1002 Dependency=afterok:1003"))
		// the resubmitted task, a one-task array, runs shard 2/4 into task 2's folder
		bin, blog := stub(dir)
		run([]string{"BFCL_BIN=" + bin, "BFCL_SHARD_COUNT=4", "BFCL_SHARD=2/4", "SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=1", "SLURM_ARRAY_TASK_MIN=2"}, "slurm/bfcl-array.sbatch")
		b, _ := os.ReadFile(blog)
		Expect(string(b)).To(HavePrefix(fmt.Sprintf("generate --result-dir %s/w/shards/2/result ", dir)))
		s, _, err := shard.FromEnv(func(v string) string {
			return map[string]string{shard.EnvShard: "2/4", shard.EnvSlurmID: "2", shard.EnvSlurmCount: "1", shard.EnvSlurmMin: "2", shard.EnvShardCount: "4"}[v]
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(s).To(Equal(shard.Spec{Index: 2, Count: 4}))
		// the array's size is changed in one place
		Expect(os.Remove(log)).To(Succeed())
		out = run([]string{"SBATCH_ARRAY_INX=0-7"}, "slurm/submit.sh")
		Expect(out).To(ContainSubstring("8 shards (tasks 0-7)"))
		calls, _ = os.ReadFile(log)
		Expect(string(calls)).To(ContainSubstring("--array=0-7 --export=ALL,BFCL_SHARD_COUNT=8 "))
		// the array script refuses to run without the count submit.sh sets
		cmd := exec.Command("bash", "slurm/bfcl-array.sbatch")
		cmd.Env = append(append([]string{}, env...), "BFCL_BIN="+bin, "SLURM_ARRAY_TASK_ID=0")
		o, err := cmd.CombinedOutput()
		Expect(err).To(HaveOccurred())
		Expect(string(o)).To(ContainSubstring("submit with deploy/slurm/submit.sh"))
	})

	It("merges every shard's result root, then evaluates", func() {
		dir := GinkgoT().TempDir()
		bin, log := stub(dir)
		for k := 0; k < 4; k++ {
			Expect(os.MkdirAll(fmt.Sprintf("%s/w/shards/%d/result", dir, k), 0o755)).To(Succeed())
		}
		cmd := exec.Command("bash", "slurm/bfcl-merge.sbatch")
		cmd.Env = append(os.Environ(), "BFCL_BIN="+bin, "BFCL_DATA_DIR=/data", "BFCL_WORK="+dir+"/w")
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "%s", out)
		calls, _ := os.ReadFile(log)
		lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
		Expect(lines).To(HaveLen(2))
		w := dir + "/w"
		Expect(lines[0]).To(HavePrefix(fmt.Sprintf("merge %s/merged/result %s/shards/0/result %s/shards/1/result %s/shards/2/result %s/shards/3/result |", w, w, w, w, w)))
		Expect(lines[1]).To(HavePrefix(fmt.Sprintf("evaluate --result-dir %s/merged/result --score-dir %s/merged/score |", w, w)))
	})
})

var _ = Describe("the GitHub Actions workflow", func() {
	It("is YAML whose matrix lists shards 0..N-1, each job taking BFCL_SHARD from the strategy (the count written once), merged after all of them", func() {
		b, err := os.ReadFile("github-actions/bfcl-sharded.yml")
		Expect(err).NotTo(HaveOccurred())
		var wf struct {
			On   map[string]any `yaml:"on"`
			Jobs map[string]struct {
				Needs    any               `yaml:"needs"`
				Env      map[string]string `yaml:"env"`
				Strategy struct {
					Matrix struct {
						Shard []int `yaml:"shard"`
					} `yaml:"matrix"`
				} `yaml:"strategy"`
				Steps []struct {
					Uses string            `yaml:"uses"`
					Run  string            `yaml:"run"`
					With map[string]string `yaml:"with"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		Expect(yaml.Unmarshal(b, &wf)).To(Succeed())
		Expect(wf.On).To(HaveKey("workflow_dispatch"))
		gen, ok := wf.Jobs["generate"]
		Expect(ok).To(BeTrue())
		// The shard count is written once, as the matrix's length: each job
		// takes its shard from the strategy's index and total.
		Expect(gen.Env).To(HaveKeyWithValue("BFCL_SHARD", "${{ strategy.job-index }}/${{ strategy.job-total }}"))
		Expect(string(b)).NotTo(ContainSubstring("--shard"), "a second place that writes the shard count")
		n := len(gen.Strategy.Matrix.Shard)
		Expect(n).To(BeNumerically(">", 1))
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		Expect(gen.Strategy.Matrix.Shard).To(Equal(want))
		for k := range want {
			_, err := shard.Parse(fmt.Sprintf("%d/%d", k, n))
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(gen.Env).To(HaveKeyWithValue("BFCL_MODEL", "${{ inputs.model }}"))
		Expect(gen.Env).To(HaveKeyWithValue("BFCL_TEST_CATEGORY", "${{ inputs.categories }}"))
		mg, ok := wf.Jobs["merge"]
		Expect(ok).To(BeTrue())
		Expect(mg.Needs).To(Equal("generate"))
		var uploaded, downloaded, merged string
		for _, s := range gen.Steps {
			if strings.HasPrefix(s.Uses, "actions/upload-artifact") {
				uploaded = s.With["name"]
			}
		}
		for _, s := range mg.Steps {
			if strings.HasPrefix(s.Uses, "actions/download-artifact") {
				downloaded = s.With["path"] + "/" + s.With["pattern"]
			}
			if strings.Contains(s.Run, "bfcl merge") {
				merged = s.Run
			}
		}
		Expect(uploaded).To(Equal("result-shard-${{ matrix.shard }}"))
		Expect(downloaded).To(Equal("shards/result-shard-*"))
		Expect(merged).To(Equal("bin/bfcl merge merged/result " + downloaded))
	})
})
