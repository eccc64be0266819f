// Package samples reads files of model samples for `ticoder check`: OpenAI
// human-eval's {"task_id", "completion"} JSONL (a body appended to the
// problem's prompt), evalplus's {"task_id", "solution"} JSONL (a whole
// program) and microsoft/CodeT's {"prompt", "samples": [...]} JSONL (bodies
// for the problem whose prompt is that text, matched exactly and, failing
// that, with surrounding white space trimmed).
//
// The format is detected line by line. Each sample comes back with its task,
// its index among the task's samples, the raw completion and the complete
// program to run. A bad line (invalid or truncated JSON, an unknown task, an
// unmatched prompt) becomes a Sample whose Err names the file and line; the
// other samples are never lost.
//
// samples must not run or judge the samples it reads.
package samples
