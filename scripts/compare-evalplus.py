#!/usr/bin/env python3
"""Compares ticoder check's per-sample results with evalplus's eval_results.json.

usage: compare-evalplus.py TICODER_RESULTS.jsonl EVALPLUS_RESULTS.json

Samples are matched by task and by their order within the task (both tools
keep the samples file's order). Prints base and plus pass@1 of both, how many
per-sample verdicts agree, and every disagreement with both tools' reasons.
"""
import json
import sys


def main(tc_path, ep_path):
    tc = {}
    with open(tc_path) as f:
        for line in f:
            r = json.loads(line)
            tc[(r["task_id"], r["sample_index"])] = r
    with open(ep_path) as f:
        ep = json.load(f)
    agree_base = agree_plus = n = 0
    diffs = []
    base_tc, plus_tc, base_ep, plus_ep = {}, {}, {}, {}
    for task, rows in ep["eval"].items():
        for i, e in enumerate(rows):
            t = tc.get((task, i))
            if t is None:
                sys.exit("compare-evalplus: no ticoder result for %s #%d" % (task, i))
            n += 1
            eb = e["base_status"] == "pass"
            epl = eb and e["plus_status"] == "pass"
            tb = t.get("base_status") == "pass"
            tp = bool(t["passed"])
            for d, k, v in ((base_tc, task, tb), (plus_tc, task, tp), (base_ep, task, eb), (plus_ep, task, epl)):
                d.setdefault(k, []).append(v)
            agree_base += eb == tb
            agree_plus += epl == tp
            if eb != tb or epl != tp:
                diffs.append((task, i, e["base_status"], e["plus_status"], e["base_fail_tests"][:1], e["plus_fail_tests"][:1],
                              t.get("base_status"), t.get("plus_status"), t.get("failure")))

    def pass1(d):
        return sum(sum(v) / len(v) for v in d.values()) / len(d)

    print("samples %d, tasks %d" % (n, len(ep["eval"])))
    print("pass@1 base: ticoder %.4f evalplus %.4f" % (pass1(base_tc), pass1(base_ep)))
    print("pass@1 plus: ticoder %.4f evalplus %.4f" % (pass1(plus_tc), pass1(plus_ep)))
    print("evalplus's own: %s" % json.dumps(ep.get("pass_at_k")))
    print("verdicts agree: base %d/%d (%.2f%%), plus %d/%d (%.2f%%)" % (
        agree_base, n, 100 * agree_base / n, agree_plus, n, 100 * agree_plus / n))
    for d in diffs:
        print("DIFF %s #%d evalplus base=%s plus=%s fail=%s/%s | ticoder base=%s plus=%s failure=%s" % (
            d[0], d[1], d[2], d[3], json.dumps(d[4])[:200], json.dumps(d[5])[:200], d[6], d[7], json.dumps(d[8])[:300]))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
