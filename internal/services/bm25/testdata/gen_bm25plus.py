# Generates bm25plus.jsonl: expected BM25Plus scores and rankings as
# rank_bm25 0.2.2 computes them for MemoryAPI_kv's key search. numpy's
# element-wise float64 operations round exactly like Python floats, so the
# scalar evaluation below (same operations, same order) gives the same bits.
# Run: python3 gen_bm25plus.py > bm25plus.jsonl
import json, math, random

def tokenize(s):
    return s.replace("_", " ").lower().split()

def bm25plus_scores(corpus, query, k1=1.5, b=0.75, delta=1):
    doc_freqs, doc_len, nd, total = [], [], {}, 0
    for doc in corpus:
        doc_len.append(len(doc)); total += len(doc)
        fr = {}
        for w in doc:
            fr[w] = fr.get(w, 0) + 1
        doc_freqs.append(fr)
        for w in fr:
            nd[w] = nd.get(w, 0) + 1
    n = len(corpus)
    avgdl = total / n
    idf = {w: math.log((n + 1) / f) for w, f in nd.items()}
    scores = [0.0] * n
    for q in query:
        for i in range(n):
            qf = doc_freqs[i].get(q) or 0
            scores[i] += (idf.get(q) or 0) * (delta + (qf * (k1 + 1)) / (k1 * (1 - b + b * doc_len[i] / avgdl) + qf))
    return scores

words = ["customer", "name", "age", "city", "order", "espresso", "machine", "warranty", "discount",
         "shipping", "date", "preferred", "latte", "kitchen", "counter", "size", "budget", "payment",
         "plan", "return", "policy", "email", "phone", "address", "birthday", "gift", "pet", "dog",
         "x1", "v2", "note", "deadline", "project", "exam", "course", "gpa", "major", "minor"]
rng = random.Random(20251130)
cases = []
for case in range(120):
    n = rng.choice([1, 2, 3, 5, 7, 7, 12, 20, 35, 41, 50])
    keys = set()
    while len(keys) < n:
        keys.add("_".join(rng.choice(words) for _ in range(rng.randint(1, 4))))
    keys = list(keys)
    rng.shuffle(keys)
    query = " ".join(rng.choice(words + ["Name", "CITY", "unknown_word"]) for _ in range(rng.randint(1, 5)))
    if case % 10 == 0:
        query = query.replace(" ", "_")
    k = rng.choice([1, 3, 5, 5, 10, 100])
    scores = bm25plus_scores([tokenize(t) for t in keys], tokenize(query))
    ranked = sorted(zip(scores, keys), key=lambda x: x[0], reverse=True)[:k]
    cases.append({"corpus": keys, "query": query, "k": k,
                  "scores": [s.hex() for s in scores],
                  "result": json.dumps({"ranked_results": ranked})})
for c in cases:
    print(json.dumps(c))
