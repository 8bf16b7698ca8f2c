# Regenerates golden.json with the real CPython random module:
#   python3.12 gen_golden.py > golden.json
# Each case seeds random.Random(seed) and records a sequence of operations
# with their results; the Go test replays the sequence on pyrandom.
import json
import random


def big(v):
    return str(v)


def run(seed, ops):
    r = random.Random(seed)
    out = []
    for op in ops:
        name, args = op[0], op[1:]
        try:
            if name == "uint32":
                res = big(r.getrandbits(32))
            elif name == "random":
                res = r.random().hex()
            elif name == "getrandbits":
                res = big(r.getrandbits(args[0]))
            elif name == "randbelow":
                res = big(r._randbelow(args[0]))
            elif name == "randint":
                res = big(r.randint(args[0], args[1]))
            elif name == "randrange":
                res = big(r.randrange(*args))
            elif name == "choice":
                res = big(r.choice(range(args[0])))
            elif name == "uniform":
                res = r.uniform(args[0], args[1]).hex()
            elif name == "shuffle":
                x = list(range(args[0]))
                r.shuffle(x)
                res = x
            elif name == "sample":
                res = r.sample(range(args[0]), args[1])
            else:
                raise SystemExit("unknown op " + name)
            out.append({"op": name, "args": [big(a) if isinstance(a, int) else a for a in args], "result": res})
        except Exception as e:
            out.append({"op": name, "args": [big(a) if isinstance(a, int) else a for a in args],
                        "error": type(e).__name__ + ": " + str(e)})
    return {"seed": big(seed), "ops": out}


mixed = (
    [["uint32"]] * 5
    + [["random"]] * 5
    + [["getrandbits", k] for k in (0, 1, 7, 31, 32, 33, 53, 63, 64, 65, 96, 100, 200)]
    + [["randbelow", n] for n in (1, 2, 3, 5, 10, 1000, 2**31, 2**31 + 1, 2**32 - 1, 2**32 + 1, 2**53 + 3, 2**63 - 1, 2**64 + 5, 3**50)]
    + [["randint", 100000, 999999], ["randint", 100000000000, 999999999999], ["randint", 10000, 99999],
       ["randint", 1000000, 9999999], ["randint", 10000000, 99999999], ["randint", 100000000, 999999999],
       ["randint", -5, 5], ["randint", 7, 7], ["randint", -(2**63), 2**63 - 1], ["randint", 3, 2]]
    + [["randrange", 10], ["randrange", 0], ["randrange", 3, 30, 4], ["randrange", 30, 3, -4], ["randrange", 5, 5],
       ["randrange", 0, 10, 0], ["randrange", 0, 10, -1], ["randrange", -(2**70), 2**70, 3]]
    + [["choice", 1], ["choice", 7], ["choice", 0]]
    + [["uniform", -10.0, 40.0], ["uniform", 0.0, 120.0], ["uniform", 5.0, -5.0]]
    + [["shuffle", 0], ["shuffle", 1], ["shuffle", 10], ["shuffle", 40]]
    + [["sample", 10, 7], ["sample", 100, 10], ["sample", 1000, 50], ["sample", 30, 6], ["sample", 5, 6], ["sample", 5, 0]]
)

seeds = [0, 1, -1, 42, 1053520, 141053, 200191, 2**32 - 1, 2**32, -(2**32), 2**63 - 1, -(2**63), 2**100 + 12345, 3**200]
cases = [run(s, mixed) for s in seeds]
# Long runs, to cross several twists of the 624-word state.
cases.append(run(141053, [["randint", 100000, 999999]] * 1500 + [["random"]] * 700))
cases.append(run(1053520, [["randint", 1725186600, 1725273000]] * 2000))
cases.append(run(200191, [["getrandbits", 1000]] * 50 + [["uint32"]] * 10))
print(json.dumps({"python": __import__("sys").version, "cases": cases}, indent=0))
