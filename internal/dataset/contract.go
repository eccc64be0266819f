package dataset

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Contracts are the input contracts of a benchmark's problems: the
// input-validity assertions that EvalPlus wrote at the top of each reference
// solution's body (the `contract` field of HumanEval+ and MBPP+, lines
// marked `# $_CONTRACT_$`). They say which inputs the function is meant for,
// so that a simulated user can answer "invalid input" where a real one would
// instead of reporting whatever the reference happens to do there.
type Contracts struct {
	// Source names the file they were read from and its SHA-256, for the
	// settings of a run that uses them.
	Source string
	// ByID maps a task id ("HumanEval/12", "Mbpp/2") to its contract: body
	// lines indented for a top-level function, starting with a newline.
	ByID map[string]string
	// Solutions maps a task id to EvalPlus's reference solution, the row's
	// prompt + canonical_solution as evalplus runs it. EvalPlus corrected
	// the original benchmarks' references where they contradict their own
	// descriptions (HumanEval/124 rejects "12-31-1999", HumanEval/132
	// calls "[][][]" nested, ...), so they are the better stand-in for a
	// user who knows what the function is for.
	Solutions map[string]Solution
}

// Solution is EvalPlus's reference solution of a task.
type Solution struct {
	// Program is the whole program: the row's prompt + canonical_solution.
	Program string
	// EntryPoint is the function the program defines.
	EntryPoint string
}

// contractFiles maps the datasets whose problems EvalPlus extended to the
// file, under the data directory, that holds their contracts.
var contractFiles = map[string]string{
	"humaneval":            "humanevalplus/HumanEvalPlus.jsonl.gz",
	"humaneval-noexamples": "humanevalplus/HumanEvalPlus.jsonl.gz",
	"mbpp":                 "mbppplus/MbppPlus.jsonl.gz",
	"mbpp-sanitized":       "mbppplus/MbppPlus.jsonl.gz",
	"humanevalplus":        "humanevalplus/HumanEvalPlus.jsonl.gz",
	"mbppplus":             "mbppplus/MbppPlus.jsonl.gz",
}

// ContractsFor reads the contracts of the known dataset called name from
// the EvalPlus file in dataDir. It returns an error that matches
// fs.ErrNotExist when the file is missing, and (nil, nil) for a dataset
// EvalPlus did not extend.
func ContractsFor(ctx context.Context, dataDir, name string) (*Contracts, error) {
	rel, ok := contractFiles[name]
	if !ok {
		return nil, nil
	}
	return ReadContracts(ctx, filepath.Join(dataDir, filepath.FromSlash(rel)))
}

// ReadContracts reads the contracts of an EvalPlus file (JSONL, gzip
// detected by content): the rows' task_id and contract fields.
func ReadContracts(ctx context.Context, path string) (*Contracts, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read contracts: %w", err)
	}
	data, err := readFile(path)
	if err != nil {
		return nil, fmt.Errorf("read contracts: %w", err)
	}
	sum := sha256.Sum256(raw)
	c := &Contracts{Source: filepath.Base(path) + " sha256:" + hex.EncodeToString(sum[:]), ByID: map[string]string{}, Solutions: map[string]Solution{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<30)
	for n := 1; sc.Scan(); n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var row struct {
			TaskID     string `json:"task_id"`
			Contract   string `json:"contract"`
			Prompt     string `json:"prompt"`
			Solution   string `json:"canonical_solution"`
			EntryPoint string `json:"entry_point"`
		}
		b := []byte(line)
		if fixed, ok := PythonConstants(b); ok {
			b = fixed
		}
		if err := json.Unmarshal(b, &row); err != nil {
			return nil, fmt.Errorf("read contracts: %s line %d: %w", path, n, err)
		}
		if row.TaskID != "" && strings.TrimSpace(row.Contract) != "" {
			c.ByID[row.TaskID] = row.Contract
		}
		if entry := strings.TrimSpace(row.EntryPoint); row.TaskID != "" && entry != "" && strings.TrimSpace(row.Solution) != "" {
			c.Solutions[row.TaskID] = Solution{Program: unixNewlines(row.Prompt + row.Solution), EntryPoint: entry}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read contracts: %s: %w", path, err)
	}
	if len(c.ByID) == 0 {
		return nil, fmt.Errorf("read contracts: %s has no task with a contract", path)
	}
	return c, nil
}

// Name says which contracts these are, for a run's settings: their
// Source, or "none" for nil.
func (c *Contracts) Name() string {
	if c == nil {
		return "none"
	}
	return c.Source
}

// Attach sets the Contract of each problem that has one.
func (c *Contracts) Attach(problems []Problem) {
	if c == nil {
		return
	}
	for i := range problems {
		problems[i].Contract = c.ByID[problems[i].ID]
	}
}

// AttachSolutions sets the Solution of each problem that EvalPlus gives one
// for with the same entry point (see Problem.Solution).
func (c *Contracts) AttachSolutions(problems []Problem) {
	if c == nil {
		return
	}
	for i := range problems {
		problems[i].Solution = ""
		if s, ok := c.Solutions[problems[i].ID]; ok && s.EntryPoint == problems[i].EntryPoint && problems[i].Language == "" {
			problems[i].Solution = s.Program
		}
	}
}

// SolutionsName says which reference solutions a simulated user answers
// by, for a run's settings: Source (EvalPlus's), or "dataset" (the
// dataset's own) for nil.
func (c *Contracts) SolutionsName() string {
	if c == nil {
		return "dataset"
	}
	return c.Source
}

// IsMissing reports whether err says a contracts file is not there.
func IsMissing(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// Guarded returns the problem's reference solution with a first statement
// in the entry point's body that runs its contract, and whether it could
// place it. The guarded reference raises ValueError on an input the
// function is not meant for (the contract's own AssertionError would read
// as a failed assertion where a test is not a plain call) and otherwise
// behaves as the reference: the contract runs on a deep copy of the arguments in a
// namespace of its own, since some contracts assign to the parameters
// (HumanEval/99 converts its string argument to a float). It cannot place
// it where the problem has no contract or no Python reference, or where the
// def line of the entry point is not found or has its body on the same
// line.
func (p Problem) Guarded() (string, bool) { return p.Guard(p.Reference) }

// Guard returns program, a reference solution of the problem, guarded by
// the problem's contract as Guarded guards the Reference.
func (p Problem) Guard(program string) (string, bool) {
	if strings.TrimSpace(p.Contract) == "" || p.Language != "" || program == "" {
		return "", false
	}
	lines := strings.SplitAfter(program, "\n")
	def := regexp.MustCompile(`^(\s*)def\s+` + regexp.QuoteMeta(p.EntryPoint) + `\s*\(`)
	for i, l := range lines {
		m := def.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		end := i // the line that ends the signature
		for end < len(lines) && !endsSignature(lines[end]) {
			end++
		}
		if end+1 >= len(lines) {
			return "", false
		}
		indent := firstBodyIndent(lines[end+1:], m[1])
		if indent == "" {
			return "", false
		}
		code := dedentContract(p.Contract)
		if code == "" {
			return "", false
		}
		// One namespace for globals and the copied arguments, so that the
		// contract's comprehensions see both.
		// Whatever the contract raises becomes a ValueError: an
		// AssertionError would read as a failed test where the test is
		// not a plain call.
		check := indent + "try:  # the input contract\n" +
			indent + "    exec(" + strconv.Quote(code) + ", {**globals(), **__import__('copy').deepcopy(locals())})\n" +
			indent + "except Exception:\n" +
			indent + "    raise ValueError('invalid input: outside the input contract') from None\n"
		return strings.Join(lines[:end+1], "") + check + strings.Join(lines[end+1:], ""), true
	}
	return "", false
}

// endsSignature reports whether a line of a def ends its signature: it ends
// with a colon, once a trailing comment is cut.
func endsSignature(line string) bool {
	s := line
	if i := strings.Index(s, "#"); i >= 0 {
		s = s[:i]
	}
	return strings.HasSuffix(strings.TrimSpace(s), ":")
}

// firstBodyIndent returns the indentation of the first non-blank line of a
// body, or "" if it is not deeper than the def's.
func firstBodyIndent(lines []string, defIndent string) string {
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if len(ind) <= len(defIndent) || !strings.HasPrefix(ind, defIndent) {
			return ""
		}
		return ind
	}
	return ""
}

// dedentContract returns a contract written for a function's body as
// top-level code: blank lines dropped, the indentation all its lines share
// removed (as Python's textwrap.dedent).
func dedentContract(contract string) string {
	var lines []string
	common := ""
	for _, l := range strings.Split(contract, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if lines == nil || len(ind) < len(common) {
			common = ind
		}
		lines = append(lines, strings.TrimRight(l, "\r"))
	}
	var b strings.Builder
	for _, l := range lines {
		if !strings.HasPrefix(l, common) {
			return "" // mixed indentation: no contract rather than a wrong one
		}
		b.WriteString(l[len(common):])
		b.WriteString("\n")
	}
	return b.String()
}
