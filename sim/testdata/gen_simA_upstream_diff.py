# Generates sim/testdata/simA_upstream_diff.json: runs call sequences on the
# UPSTREAM Python classes (imported from an upstream checkout, not copied)
# and records each result string (as execute_multi_turn_func_call would
# append it) and the pyjson v1 state after each call.
# Usage: PYTHONHASHSEED=0 python3 gen_simA_upstream_diff.py cases.json > simA_upstream_diff.json
# (cases.json is produced by simA_upstream_cases.py). Needs mpmath.
import sys, json, copy, importlib, types, datetime, decimal
import os
# upstream checkout (BFCL_UPSTREAM overrides)
sys.path.insert(0, os.environ.get('BFCL_UPSTREAM', '/work/upstream/berkeley-function-call-leaderboard'))
# long_context module import chain
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code import gorilla_file_system as gfs
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code import posting_api, message_api, ticket_api, math_api

def enc(v):
    if v is None or isinstance(v, (bool, str)): return v
    if isinstance(v, int):
        return v if abs(v) < 2**53 else {"$int": str(v)}
    if isinstance(v, float): return {"$float": repr(v)}
    if isinstance(v, list): return [enc(x) for x in v]
    if isinstance(v, tuple): return {"$tuple": [enc(x) for x in v]}
    if isinstance(v, (set, frozenset)):
        items = [enc(x) for x in v]
        items.sort(key=lambda e: json.dumps(e, separators=(",", ":"), ensure_ascii=False))
        return {"$set": items}
    if isinstance(v, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in v):
            return {k: enc(x) for k, x in v.items()}
        return {"$dict": [[enc(k), enc(x)] for k, x in v.items()]}
    if isinstance(v, gfs.Directory):
        return {"$Directory": {"name": enc(v.name), "parent": enc(v.parent.name) if v.parent else None, "contents": enc(v.contents)}}
    if isinstance(v, gfs.File):
        return {"$File": {"name": enc(v.name), "content": enc(v.content)}}
    raise TypeError(type(v))

def ser(r):
    if type(r) == str: return r
    if type(r) == dict:
        try: return json.dumps(r)
        except: return str(r)
    return str(r)

def run(cls, config, calls, long_context=False):
    inst = cls()
    if config is not None:
        inst._load_scenario(copy.deepcopy(config), long_context)
    out = []
    prev = None
    for c in calls:
        try:
            r = ser(eval("inst." + c))
        except Exception as e:
            r = "Error during execution: " + str(e)
        state = {k: v for k, v in vars(inst).items() if not k.startswith("_")}
        st = json.dumps(enc(state), separators=(",", ":"), ensure_ascii=False)
        # the state is recorded only when it changed (null: unchanged)
        out.append([c, r, st if st != prev else None])
        prev = st
    return out

cases = json.load(open(sys.argv[1]))
res = []
for case in cases:
    # fresh module state per case (post_tweet's mutable defaults are module-level)
    importlib.reload(posting_api)
    cls = {"GorillaFileSystem": gfs.GorillaFileSystem, "TwitterAPI": posting_api.TwitterAPI, "MessageAPI": message_api.MessageAPI, "TicketAPI": ticket_api.TicketAPI, "MathAPI": math_api.MathAPI}[case["class"]]
    res.append({"name": case["name"], "class": case["class"], "config": case.get("config"), "lc": case.get("lc", False), "steps": run(cls, case.get("config"), case["calls"], case.get("lc", False))})
json.dump(res, sys.stdout, ensure_ascii=False)
