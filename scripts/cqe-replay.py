#!/usr/bin/env python3
"""Builds a replay directory for `ticoder eval` from a CQE file.

The CQE files (cqe/heval-codestral-22b.jsonl, cqe/mbpp-codestral-22b.jsonl,
cqe/mbjp-codestral-22b.jsonl) hold, per task, the model's samples as
code_1 ... code_N. This writes DIR/codes.jsonl with one
{"task_id", "completion"} row per sample, in the samples' order, with the
task ids of the dataset eval reads (HumanEval/N, Mbpp/N, MBJP/N). Samples
are kept as they are: eval takes a sample that is a whole function (as
Codestral's are) as a program, and one that continues the prompt as a body.
No tests are written: eval then asks only synthesized questions.

usage: cqe-replay.py CQE_FILE DIR
"""
import json
import os
import sys

PREFIXES = {"heval": "HumanEval/", "mbpp": "Mbpp/", "mbjp": "MBJP/"}


def task_id(name, raw):
    raw = str(raw)
    if "/" in raw:
        # "MBPP/1" in mbpp-codestral-22b.jsonl: the dataset's spelling.
        head, num = raw.rsplit("/", 1)
        for prefix in PREFIXES.values():
            if head.lower() == prefix.rstrip("/").lower():
                return prefix + num
        return raw
    for key, prefix in PREFIXES.items():
        if os.path.basename(name).startswith(key):
            return prefix + raw
    sys.exit("cqe-replay: cannot tell the dataset of %s (want a name starting with %s)" % (name, ", ".join(PREFIXES)))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    rows = 0
    with open(src, encoding="utf-8") as f, open(os.path.join(out, "codes.jsonl"), "w", encoding="utf-8") as w:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            tid = task_id(src, r["task_id"])
            for i in range(1, int(r["no_of_codes"]) + 1):
                w.write(json.dumps({"task_id": tid, "completion": r["code_%d" % i]}) + "\n")
                rows += 1
    print("%s: %d samples" % (os.path.join(out, "codes.jsonl"), rows))


if __name__ == "__main__":
    main()
