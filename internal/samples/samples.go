package samples

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ticoder/ticoder/internal/dataset"
)

// Sample is one program read from a sample file.
type Sample struct {
	// TaskID is the problem's id in the dataset ("HumanEval/0"); empty when
	// the line could not be attributed to a problem.
	TaskID string `json:"task_id"`
	// Index is the sample's position among its task's samples, from 0, in
	// file order.
	Index int `json:"index"`
	// Completion is the sample exactly as the file gives it: a body for
	// human-eval and CodeT lines, a whole program for evalplus lines.
	Completion string `json:"completion"`
	// Program is the complete program to run: the problem's prompt followed
	// by the body, or the evalplus solution. Empty when Err is set.
	Program string `json:"program"`
	// Format is the layout of the line the sample came from.
	Format Format `json:"format"`
	// Line is the 1-based line of the file the sample came from.
	Line int `json:"line"`
	// NumericID reports that the line gave task_id as a JSON number (0),
	// which is read as the problem whose id ends in /0 (see NumericIDNote).
	NumericID bool `json:"-"`
	// Err, if not empty, says why the sample cannot be run ("samples.jsonl:7:
	// unknown task ..."); the other samples are unaffected.
	Err string `json:"error,omitempty"`
}

// ErrNoSamples means a sample file holds no usable sample.
var ErrNoSamples = errors.New("no usable samples")

// maxLine bounds one line of a sample file.
const maxLine = 256 << 20

// Read reads the sample file at path (JSONL, optionally gzip-compressed)
// and resolves every sample against ds. See Parse.
func Read(ctx context.Context, path string, ds *dataset.Dataset) ([]Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read samples: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("read samples %s: %w: it is a directory, not a JSONL file", path, ErrNoSamples)
	}
	return Parse(ctx, f, path, ds)
}

// Parse reads JSON Lines of samples from r; name is the file name used in
// messages. The format is detected per line (see Format), so files may mix
// them. A line that cannot be used (invalid or truncated JSON, an unknown
// task id, a CodeT prompt that matches no problem) yields a Sample with Err
// set and does not affect the others. Parse fails as a whole only if the
// input cannot be read, is empty, or holds no usable sample at all.
func Parse(ctx context.Context, r io.Reader, name string, ds *dataset.Dataset) ([]Sample, error) {
	if ds == nil {
		return nil, fmt.Errorf("read samples %s: no dataset to resolve task ids against", name)
	}
	br := bufio.NewReaderSize(r, 1<<16)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("read samples %s: invalid gzip data: %w", name, err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<16)
	}
	// A UTF-8 byte order mark (Windows editors write one) is not part of
	// the first line.
	if head, _ := br.Peek(3); bytes.Equal(head, []byte{0xef, 0xbb, 0xbf}) {
		br.Discard(3)
	}
	res := newResolver(name, ds)
	var out []Sample
	nonBlank := 0
	for lineNo := 1; ; lineNo++ {
		if lineNo%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		line, err := readLine(br)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read samples %s:%d: %w", name, lineNo, err)
		}
		if text := bytes.TrimSpace(line); len(text) > 0 {
			nonBlank++
			out = append(out, res.line(text, lineNo)...)
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	if nonBlank == 0 {
		return nil, fmt.Errorf("read samples %s: %w: the file is empty", name, ErrNoSamples)
	}
	for _, s := range out {
		if s.Err == "" {
			return out, nil
		}
	}
	hint := ""
	if len(out) > 0 {
		hint = "; first problem: " + out[0].Err
	}
	return nil, fmt.Errorf("read samples %s: %w in %d lines (is %s the right dataset?)%s", name, ErrNoSamples, nonBlank, ds.Name, hint)
}

// NumericIDNote says, when some usable samples of smp gave their task_id
// as a JSON number, how the numbers were read and what to write if they
// mean something else (a row number, an unset field's 0); "" when none
// did. A number is read as the problem whose id ends in /NUMBER, so 0 is
// HumanEval/0 in HumanEval: right for files that number their tasks so,
// silently wrong for a writer that left the field at 0.
func NumericIDNote(smp []Sample) string {
	n, first, tasks := 0, -1, map[string]bool{}
	for i, s := range smp {
		if s.NumericID && s.Err == "" {
			n++
			tasks[s.TaskID] = true
			if first < 0 {
				first = i
			}
		}
	}
	if n == 0 {
		return ""
	}
	ex := smp[first]
	num := ex.TaskID[strings.LastIndexByte(ex.TaskID, '/')+1:]
	what := fmt.Sprintf("%d samples give", n)
	if n == 1 {
		what = "1 sample gives"
	}
	problems := fmt.Sprintf("%d problems", len(tasks))
	if len(tasks) == 1 {
		problems = "1 problem"
	}
	return fmt.Sprintf("%s task_id as a JSON number, read as the problem whose id ends in /NUMBER (line %d: %s is %s; %s in all). "+
		"If the numbers are not task numbers (a row number, a field left at 0), write each line's task id as the dataset does, e.g. \"task_id\": %q",
		what, ex.Line, num, ex.TaskID, problems, ex.TaskID)
}

// readLine returns the next line without its "\n"; io.EOF comes with the
// last line (possibly empty).
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxLine {
			return nil, fmt.Errorf("line longer than %d MiB", maxLine>>20)
		}
		switch {
		case err == nil:
			return buf[:len(buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return buf, err
		}
	}
}

// resolver turns parsed lines into samples for one dataset.
type resolver struct {
	name string
	ds   *dataset.Dataset
	// exact and trimmed map prompts to task ids; trimmed holds "" for a
	// trimmed prompt shared by several problems.
	exact, trimmed map[string]string
	next           map[string]int
}

func newResolver(name string, ds *dataset.Dataset) *resolver {
	r := &resolver{name: name, ds: ds, exact: map[string]string{}, trimmed: map[string]string{}, next: map[string]int{}}
	for _, p := range ds.Problems {
		if _, dup := r.exact[p.Prompt]; !dup {
			r.exact[p.Prompt] = p.ID
		}
		key := strings.TrimSpace(p.Prompt)
		if _, dup := r.trimmed[key]; dup {
			r.trimmed[key] = ""
		} else {
			r.trimmed[key] = p.ID
		}
	}
	return r
}

// line turns one non-blank line into its samples.
func (r *resolver) line(text []byte, lineNo int) []Sample {
	rec, err := parseLine(text)
	if err != nil {
		s := Sample{TaskID: guessTaskID(text), Line: lineNo, Err: r.errf(lineNo, "%v", err)}
		if s.TaskID != "" {
			s.TaskID, s.Index = r.canonical(s.TaskID), r.index(r.canonical(s.TaskID))
		}
		return []Sample{s}
	}
	if rec.format == CodeT {
		return r.codeT(rec, lineNo)
	}
	s := Sample{TaskID: rec.taskID, Completion: rec.text, Format: rec.format, Line: lineNo, NumericID: rec.numericID}
	p, ok := r.ds.Get(rec.taskID)
	if !ok {
		s.Index = r.index(s.TaskID)
		s.Err = r.errf(lineNo, "unknown task %q: dataset %s has no such problem (ids look like %q)", rec.taskID, r.ds.Name, r.exampleID())
		return []Sample{s}
	}
	s.TaskID = p.ID
	s.Index = r.index(p.ID)
	if rec.format == EvalPlus {
		s.Program = rec.text
	} else {
		s.Program = p.Prompt + rec.text
	}
	return []Sample{s}
}

// codeT expands a CodeT line into one sample per completion (none for an
// empty list).
func (r *resolver) codeT(rec lineRecord, lineNo int) []Sample {
	id, ok := r.exact[rec.prompt]
	if !ok {
		id = r.trimmed[strings.TrimSpace(rec.prompt)]
	}
	out := make([]Sample, len(rec.samples))
	for i, body := range rec.samples {
		s := Sample{TaskID: id, Completion: body, Format: CodeT, Line: lineNo}
		if id == "" {
			s.Index = i
			s.Err = r.errf(lineNo, "the prompt matches no problem of dataset %s (CodeT rows are matched by prompt text; CodeT's HumanEval files use humaneval-noexamples)", r.ds.Name)
		} else {
			s.Index = r.index(id)
			s.Program = rec.prompt + body
		}
		out[i] = s
	}
	return out
}

// canonical maps a task id to the dataset's own spelling when it has one.
func (r *resolver) canonical(id string) string {
	if p, ok := r.ds.Get(id); ok {
		return p.ID
	}
	return id
}

// index returns the next sample index of task id.
func (r *resolver) index(id string) int {
	i := r.next[id]
	r.next[id] = i + 1
	return i
}

// exampleID returns a task id of the dataset for messages.
func (r *resolver) exampleID() string {
	if len(r.ds.Problems) == 0 {
		return ""
	}
	return r.ds.Problems[0].ID
}

// errf formats a per-sample error prefixed with the file and line.
func (r *resolver) errf(lineNo int, format string, args ...any) string {
	return fmt.Sprintf("%s:%d: %s", r.name, lineNo, fmt.Sprintf(format, args...))
}
