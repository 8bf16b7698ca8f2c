# Call sequences for gen_simA_upstream_diff.py (sim-A's differential fixtures).
# Regenerate (from this folder, upstream checkout in gen_simA_upstream_diff.py's sys.path):
#   python3 simA_upstream_random_fs_cases.py && PYTHONHASHSEED=0 python3 gen_simA_upstream_diff.py /tmp/randcases.json > simA_upstream_random_fs.json
import json, random
random.seed(12345)
exec(open('simA_upstream_cases.py').read().split("cases = []")[0])  # reuse fs/tw/ms/tk configs
names = ["docs", "sub", "a.txt", "b.txt", "log.txt", "empty", "new", "x", ".", "..", "/", "docs/", "n1", "n2", "f.txt", "dir2", ".hidden", "deep.md"]
def s(): return repr(random.choice(names))
ops = [
 lambda: "cd(%s)" % s(), lambda: "cd('..')", lambda: "ls()", lambda: "ls(a=True)", lambda: "pwd()",
 lambda: "mkdir(%s)" % s(), lambda: "touch(%s)" % s(), lambda: "echo(%r, %s)" % (random.choice(["hello", "a\nb\nc", "zz top", ""]), s()),
 lambda: "cat(%s)" % s(), lambda: "find(%s, %s)" % (s(), random.choice(["None", "'a'", "'txt'", "''"])), lambda: "find()",
 lambda: "wc(%s, %r)" % (s(), random.choice(["l", "w", "c"])), lambda: "sort(%s)" % s(), lambda: "grep(%s, %r)" % (s(), random.choice(["a", "line", "e"])),
 lambda: "du(%s)" % random.choice(["True", "False"]), lambda: "tail(%s, %d)" % (s(), random.randint(-2, 4)), lambda: "diff(%s, %s)" % (s(), s()),
 lambda: "mv(%s, %s)" % (s(), s()), lambda: "cp(%s, %s)" % (s(), s()), lambda: "rm(%s)" % s(), lambda: "rmdir(%s)" % s(),
]
cases = []
for i in range(12):
    calls = [random.choice(ops)() for _ in range(70)]
    cases.append({"name": "fs_rand_%d" % i, "class": "GorillaFileSystem", "config": fs, "lc": False, "calls": calls})
json.dump(cases, open('/tmp/randcases.json', 'w'))
