package samples

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"

	"github.com/ticoder/ticoder/internal/dataset"
)

// Format is the layout of one line of a sample file.
type Format int

// The sample-file layouts Read understands.
const (
	// HumanEval is OpenAI human-eval's {"task_id", "completion"}: a body
	// appended to the problem's prompt.
	HumanEval Format = iota + 1
	// EvalPlus is evalplus's {"task_id", "solution"}: a whole program.
	EvalPlus
	// CodeT is microsoft/CodeT's {"prompt", "samples": [...]}: many bodies
	// for the problem whose prompt is the given text.
	CodeT
)

// String names the format.
func (f Format) String() string {
	switch f {
	case HumanEval:
		return "human-eval"
	case EvalPlus:
		return "evalplus"
	case CodeT:
		return "codet"
	}
	return "unknown"
}

// MarshalText encodes the format as its name.
func (f Format) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// lineRecord is one parsed line of a sample file.
type lineRecord struct {
	format Format
	// taskID is set for HumanEval and EvalPlus lines.
	taskID string
	// numericID reports a task_id given as a JSON number.
	numericID bool
	// text is the completion (HumanEval) or solution (EvalPlus).
	text string
	// prompt and samples are set for CodeT lines.
	prompt  string
	samples []string
}

// rawLine mirrors every field a sample line may have.
type rawLine struct {
	TaskID     json.RawMessage `json:"task_id"`
	Completion *string         `json:"completion"`
	Solution   *string         `json:"solution"`
	Prompt     *string         `json:"prompt"`
	Samples    json.RawMessage `json:"samples"`
}

// parseLine decodes one non-blank line and detects its format: a "samples"
// list means CodeT, a "solution" EvalPlus, a "completion" human-eval. It
// never panics; every problem is an error that says what the line should be.
func parseLine(line []byte) (lineRecord, error) {
	var raw rawLine
	if err := json.Unmarshal(line, &raw); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) && typ.Field != "" {
			return lineRecord{}, fmt.Errorf("field %q: want a %s, got %s", typ.Field, kindOf(typ.Field), typ.Value)
		}
		if errors.As(err, &typ) {
			return lineRecord{}, fmt.Errorf("want a JSON object, got %s", typ.Value)
		}
		if endsEarly(line) {
			return lineRecord{}, fmt.Errorf("invalid JSON (the line is cut off; was the file truncated?): %w", err)
		}
		return lineRecord{}, fmt.Errorf("invalid JSON: %w", err)
	}
	if isNull(raw.Samples) && raw.Solution == nil && raw.Completion == nil {
		if bytes.Equal(bytes.TrimSpace(line), []byte("null")) {
			return lineRecord{}, errors.New("want a JSON object, got null")
		}
		return lineRecord{}, errors.New(`unknown sample format: want {"task_id", "completion"} (human-eval), {"task_id", "solution"} (evalplus) or {"prompt", "samples": [...]} (CodeT)`)
	}
	if !isNull(raw.Samples) {
		var list []string
		if err := json.Unmarshal(raw.Samples, &list); err != nil {
			return lineRecord{}, errors.New(`field "samples": want a list of strings`)
		}
		if raw.Prompt == nil {
			return lineRecord{}, errors.New(`CodeT line without "prompt": want {"prompt", "samples": [...]}`)
		}
		return lineRecord{format: CodeT, prompt: *raw.Prompt, samples: list}, nil
	}
	id, err := taskID(raw.TaskID)
	if err != nil {
		return lineRecord{}, err
	}
	numeric := !bytes.HasPrefix(bytes.TrimSpace(raw.TaskID), []byte(`"`))
	if raw.Solution != nil {
		return lineRecord{format: EvalPlus, taskID: id, numericID: numeric, text: *raw.Solution}, nil
	}
	return lineRecord{format: HumanEval, taskID: id, numericID: numeric, text: *raw.Completion}, nil
}

// taskID decodes a task id given as a string or an integer.
func taskID(raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", errors.New(`missing field "task_id"`)
	}
	return dataset.DecodeTaskID(raw)
}

// isNull reports whether a raw field is absent or JSON null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// kindOf names the JSON kind a field of rawLine wants.
func kindOf(field string) string {
	if field == "samples" {
		return "list of strings"
	}
	return "string"
}

// endsEarly reports whether text is the beginning of a JSON value cut off
// before its end.
func endsEarly(text []byte) bool {
	var v any
	err := json.NewDecoder(bytes.NewReader(text)).Decode(&v)
	return errors.Is(err, io.ErrUnexpectedEOF)
}

// taskIDPrefix finds a task id at the start of a line that failed to parse,
// so that its error can still be attributed to a task.
var taskIDPrefix = regexp.MustCompile(`^\s*\{\s*"task_id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)`)

// guessTaskID returns the task id a broken line starts with, or "".
func guessTaskID(line []byte) string {
	m := taskIDPrefix.FindSubmatch(line)
	if m == nil {
		return ""
	}
	id, err := taskID(m[1])
	if err != nil {
		return ""
	}
	return id
}
