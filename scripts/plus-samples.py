#!/usr/bin/env python3
"""Writes samples files that both ticoder check and evalplus read.

    plus-samples.py codet CODES DATASET OUT [N]
        microsoft/CodeT's {"prompt", "samples": [...]} rows (body completions,
        e.g. samples/humaneval-codegen16b/codes.jsonl) as {"task_id",
        "completion"} rows, the task id found by matching the row's prompt
        with DATASET's (a JSONL, e.g. humaneval/HumanEval-noexamples.jsonl);
        with N, only the first N problems of DATASET (HumanEval/0 .. N-1).
    plus-samples.py cqe CQE PLUS OUT
        the ICL estimator paper's {"task_id": "MBPP/N", "code_1", ...} rows
        (whole programs, e.g. cqe/mbpp-codestral-22b.jsonl) as {"task_id":
        "Mbpp/N", "solution"} rows, for the tasks of PLUS (MbppPlus.jsonl.gz)
        only, in PLUS's order.

evalplus needs samples for every task of its dataset: give it a dataset file
with the same tasks (see BENCHMARKS.md).
"""
import gzip
import json
import sys


def rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def codet(codes, dataset, out, n=None):
    ids = {r["prompt"]: r["task_id"] for r in rows(dataset)}
    order = [r["task_id"] for r in rows(dataset)]
    keep = set(order[:n]) if n else set(order)
    by_task = {}
    for r in rows(codes):
        tid = ids.get(r["prompt"])
        if tid is None:
            sys.exit("plus-samples: a prompt of %s matches no problem of %s" % (codes, dataset))
        by_task[tid] = r["samples"]
    with open(out, "w") as f:
        for tid in order:
            if tid in keep:
                for s in by_task[tid]:
                    f.write(json.dumps({"task_id": tid, "completion": s}) + "\n")


def cqe(path, plus, out):
    by_task = {}
    for r in rows(path):
        n = str(r["task_id"]).split("/")[-1]
        codes = [r["code_%d" % i] for i in range(1, r.get("no_of_codes", 10) + 1) if r.get("code_%d" % i)]
        by_task["Mbpp/" + n] = codes
    with open(out, "w") as f:
        for r in rows(plus):
            for code in by_task.get(r["task_id"], []):
                f.write(json.dumps({"task_id": r["task_id"], "solution": code}) + "\n")


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "codet":
        codet(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]) if len(sys.argv) > 5 else None)
    elif len(sys.argv) == 5 and sys.argv[1] == "cqe":
        cqe(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
