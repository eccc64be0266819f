#!/usr/bin/env python3
"""What the samples' own code costs on HumanEval+, with no harness around it.

    plus-floor.py PLUS SAMPLES [--by-task] [--distinct]

PLUS is HumanEvalPlus.jsonl.gz, SAMPLES {"task_id", "completion"} rows (see
plus-samples.py). Runs each sample (the prompt + its completion) on its
task's base then plus inputs in this one process, stopping at its first
failing input, each input limited to max(4 s, 4 x the reference's time on
it) of CPU (evalplus's limits), and prints the CPU seconds spent inside the
samples (with --by-task, also per task): a floor for any checker that runs
every sample on every input it must (no sandbox, no process per sample, no
pipes). With --distinct a sample whose task and completion an earlier row
had is not run again (as a checker whose results are content-addressed).
Outputs are compared with == (floats within 1e-6), not by every rule of
evalplus: the pass count is near, not equal, to a checker's. Runs
untrusted code unsandboxed: only for recorded samples that are known not to
harm the machine. Needs the whole run's CPU (scripts/cpu.sh) for the
floor's cost.
"""
import gzip
import json
import math
import signal
import sys
import time


class TimeUp(Exception):
    pass


def time_up(*_):
    raise TimeUp()


def same(got, want):
    if got == want:
        return True
    return isinstance(want, float) and isinstance(got, (int, float)) and math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-6)


def run(f, args):
    return f(*json.loads(json.dumps(args)))  # a fresh copy: samples may mutate their arguments


def main(plus, samples, by_task=False, distinct=False):
    signal.signal(signal.SIGPROF, time_up)
    sys.setrecursionlimit(10000)
    with gzip.open(plus, "rt") as fh:
        tasks = {r["task_id"]: r for r in map(json.loads, fh)}
    with open(samples) as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    if distinct:
        rows = list({(r["task_id"], r["completion"]): r for r in rows}.values())
    expected = {}  # task id -> [(output, reference's CPU seconds)]
    inside = 0.0
    passed = timeouts = 0
    per_task = {}
    for s in rows:
        t = tasks[s["task_id"]]
        inputs = t["base_input"] + t["plus_input"]
        if s["task_id"] not in expected:
            ns = {}
            exec(t["prompt"] + t["canonical_solution"], ns)
            ref, out = ns[t["entry_point"]], []
            for a in inputs:
                t0 = time.process_time()
                v = run(ref, a)
                out.append((v, time.process_time() - t0))
            expected[s["task_id"]] = out
        t0 = time.process_time()
        ok = True
        try:
            ns = {}
            exec(t["prompt"] + s["completion"], ns)
            f = ns[t["entry_point"]]
            for a, (want, secs) in zip(inputs, expected[s["task_id"]]):
                signal.setitimer(signal.ITIMER_PROF, max(4.0, 4 * secs))
                try:
                    got = run(f, a)
                finally:
                    signal.setitimer(signal.ITIMER_PROF, 0)
                if not same(got, want):
                    ok = False
                    break
        except TimeUp:
            ok = False
            timeouts += 1
        except BaseException:
            ok = False
        spent = time.process_time() - t0
        inside += spent
        per_task[s["task_id"]] = per_task.get(s["task_id"], 0.0) + spent
        passed += ok
    if by_task:
        for task, spent in per_task.items():
            print(f"{task} {spent:.2f}", file=sys.stderr)
    print(f"samples={len(rows)} passed={passed} timeouts={timeouts} cpu_inside_samples={inside:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    flags = set(sys.argv[3:])
    if len(sys.argv) < 3 or not flags <= {"--by-task", "--distinct"} or len(flags) != len(sys.argv[3:]):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], "--by-task" in flags, "--distinct" in flags)
