# Generates sim/testdata/simA_signatures.json: the public methods of sim-A's
# upstream classes as inspect.getmembers lists them (sorted by name), with
# their parameters and whether each has a default.
# Usage: python3 gen_simA_signatures.py /path/to/berkeley-function-call-leaderboard > simA_signatures.json
import inspect, json, sys
sys.path.insert(0, sys.argv[1])
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code import gorilla_file_system, math_api, message_api, posting_api, ticket_api
out = {}
for cls in [gorilla_file_system.GorillaFileSystem, math_api.MathAPI, message_api.MessageAPI, posting_api.TwitterAPI, ticket_api.TicketAPI]:
    methods = []
    for name, fn in inspect.getmembers(cls, predicate=inspect.isfunction):
        if name.startswith("_"):
            continue
        params = [[p.name, p.default is not inspect.Parameter.empty] for p in list(inspect.signature(fn).parameters.values())[1:]]
        methods.append([name, params])
    out[cls.__name__] = {"module": cls.__module__.rsplit(".", 1)[1], "methods": methods}
json.dump(out, sys.stdout, indent=1)
