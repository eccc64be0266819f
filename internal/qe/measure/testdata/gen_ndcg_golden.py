"""Regenerates ndcg_golden.json with scikit-learn (Debian python3-sklearn).

Run from this directory: /usr/bin/python3 gen_ndcg_golden.py
The Go test reads the JSON; it never needs scikit-learn itself.
"""
import json

import numpy as np
import sklearn
from sklearn.metrics import ndcg_score

rng = np.random.default_rng(20261129)
cases = []


def add(name, rel, score, k=None):
    rel = [float(x) for x in rel]
    score = [float(x) for x in score]
    v = ndcg_score([rel], [score], k=k)
    cases.append({"name": name, "relevance": rel, "scores": score,
                  "k": 0 if k is None else k, "ndcg": float(v)})


add("no ties", [1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5])
add("perfect", [1, 1, 0, 0], [4, 3, 2, 1])
add("reversed", [0, 0, 1, 1], [4, 3, 2, 1])
add("all tied", [1, 0, 1, 0, 0, 1, 0], [0.5] * 7)
add("some ties", [1, 0, 1, 0, 0, 1, 0, 1], [0.9, 0.9, 0.5, 0.5, 0.5, 0.1, 0.1, 0.0])
add("all irrelevant", [0, 0, 0], [0.3, 0.2, 0.1])
add("all relevant", [1, 1, 1], [0.3, 0.3, 0.1])
add("graded", [3, 2, 0, 1, 2], [0.1, 0.4, 0.3, 0.2, 0.4])
add("k=3", [1, 0, 1, 0, 0, 1], [0.6, 0.5, 0.4, 0.3, 0.2, 0.1], k=3)
add("k cuts a tie", [1, 0, 1, 0, 1, 1], [0.9, 0.5, 0.5, 0.5, 0.5, 0.1], k=3)
add("negative scores", [0, 1, 0, 1], [-1.5, -0.2, -3.0, -0.2])
add("two documents", [0, 1], [1, 1])
for n, levels in [(10, 3), (37, 5), (200, 0), (1661, 7), (1661, 0)]:
    rel = (rng.random(n) < 0.5).astype(float)
    if levels:
        score = rng.integers(0, levels, n) / levels
    else:
        score = rng.random(n)
    add(f"random n={n} levels={levels}", rel, score)
    if n == 1661:
        add(f"random n={n} levels={levels} k=100", rel, score, k=100)

# Global and local nDCG over several problems, as qe.Rank computes them.
problems = []
for i in range(12):
    n = 10 if i % 5 else 11
    rel = (rng.random(n) < [0.0, 0.3, 0.6, 1.0][i % 4]).astype(float)
    score = np.round(rng.random(n), 1)
    problems.append((rel, score))
local = [ndcg_score([r], [s]) for r, s in problems]
mixed = [v for (r, _), v in zip(problems, local) if 0 < r.sum() < len(r)]
rank = {
    "relevance": [[float(x) for x in r] for r, _ in problems],
    "scores": [[float(x) for x in s] for _, s in problems],
    "global": float(ndcg_score([np.concatenate([r for r, _ in problems])],
                               [np.concatenate([s for _, s in problems])])),
    "local": float(np.mean(local)),
    "local_mixed": float(np.mean(mixed)),
    "mixed": len(mixed),
}

out = {"sklearn": sklearn.__version__, "numpy": np.__version__,
       "cases": cases, "rank": rank}
with open("ndcg_golden.json", "w") as f:
    # One case per line keeps diffs readable.
    f.write('{"sklearn": %s, "numpy": %s,\n"cases": [\n' % (
        json.dumps(out["sklearn"]), json.dumps(out["numpy"])))
    f.write(",\n".join(json.dumps(c) for c in cases))
    f.write('\n],\n"rank": %s}\n' % json.dumps(rank))
print(len(cases), "cases")
