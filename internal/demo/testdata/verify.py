"""Check a demo problem's data: run every test on the reference and on every
candidate, and report what the Go tests check too (used while writing data).

Usage: /usr/bin/python3 verify.py PROBLEM_DIR...
"""
import ast
import re
import sys
from pathlib import Path

HEADER = re.compile(r"^# candidate count=(\d+) (correct|bug: .+|hidden bug: .+)$")


def candidates(text):
    out, cur = [], None
    for line in text.splitlines(keepends=True):
        m = HEADER.match(line.rstrip("\n"))
        if m:
            cur = {"count": int(m[1]), "note": m[2], "src": ""}
            out.append(cur)
        elif cur is not None:
            cur["src"] += line
    return out


def tests(text):
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        kind = "ok"
        for k in ("wrong", "undefined"):
            if line.endswith("  # " + k):
                kind, line = k, line[: -len("  # " + k)]
        node = ast.parse(line).body[0]
        cmp = node.test
        out.append((line, ast.unparse(cmp.left), ast.unparse(cmp.comparators[0]), kind))
    return out


def outcome(src, call, expected):
    g = {}
    exec(compile(src, "<candidate>", "exec"), g)
    try:
        got = eval(call, g)
    except Exception as e:  # noqa: BLE001
        return "error:" + type(e).__name__
    return "pass" if got == eval(expected, g) else "fail"


def check(d):
    d = Path(d)
    ref = (d / "reference.py").read_text()
    cands = candidates((d / "candidates.py").read_text())
    ts = tests((d / "tests.py").read_text())
    problems = []
    refout = [outcome(ref, c, e) for _, c, e, _ in ts]
    for (line, _, _, kind), o in zip(ts, refout):
        want = {"ok": "pass", "wrong": "fail"}.get(kind)
        if want and o != want or kind == "undefined" and not o.startswith("error"):
            problems.append(f"reference gives {o} on {line} ({kind})")
    print(f"== {d.name}: {len(cands)} candidates ({sum(c['count'] for c in cands)} samples), {len(ts)} tests")
    rows = []
    for i, c in enumerate(cands):
        row = [outcome(c["src"], call, exp) for _, call, exp, _ in ts]
        rows.append(tuple(row))
        differs = [j for j, (a, b) in enumerate(zip(row, refout)) if ts[j][3] != "undefined" and a != b]
        mark = "".join("P" if o == "pass" else "f" if o == "fail" else "E" for o in row)
        print(f"  c{i:<2} x{c['count']} {mark}  {c['note'][:60]}")
        if c["note"] == "correct" and differs:
            problems.append(f"correct candidate {i} differs on {[ts[j][0] for j in differs]}")
        if c["note"].startswith("bug:") and not differs:
            problems.append(f"buggy candidate {i} never differs from the reference")
        if c["note"].startswith("hidden bug:") and differs:
            problems.append(f"hidden bug {i} differs on {[ts[j][0] for j in differs]}: no test should reveal it")
    for j, (line, _, _, kind) in enumerate(ts):
        npass = sum(c["count"] for c, r in zip(cands, rows) if r[j] == "pass")
        print(f"  t{j:<2} ref={refout[j]:<20} pass={npass:<3} {kind:<9} {line}")
    if len(set(rows)) < 4:
        problems.append("fewer than 4 behaviour classes")
    for p in problems:
        print("  PROBLEM:", p)
    return not problems


if __name__ == "__main__":
    ok = all([check(d) for d in sys.argv[1:]])
    sys.exit(0 if ok else 1)
