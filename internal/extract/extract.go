package extract

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/pyfunc"
)

// The Python half of the package: shared helpers, then codes, then tests,
// run as one program.
var (
	//go:embed extract.py
	pySrcCommon string
	//go:embed codes.py
	pySrcCodes string
	//go:embed tests.py
	pySrcTests string

	pyProgram = pyfunc.NewProgram(
		pyfunc.Module{Name: "extract.py", Text: pySrcCommon},
		pyfunc.Module{Name: "codes.py", Text: pySrcCodes},
		pyfunc.Module{Name: "tests.py", Text: pySrcTests},
	)

	// extractCodes and extractTests extract the samples of one call.
	extractCodes = pyfunc.Func[codesArg, samplesReply[pyCode]]{Program: pyProgram, Name: "extract_codes"}
	extractTests = pyfunc.Func[testsArg, samplesReply[pyTests]]{Program: pyProgram, Name: "extract_tests"}
	// sourceKeys reads whole programs (SourceKeys).
	sourceKeys = pyfunc.Func[sourcesArg, samplesReply[SourceKey]]{Program: pyProgram, Name: "source_keys"}
)

// RulesVersion names the rules by which completions become candidates and
// tests (the package doc's "Rules for codes" and "Rules for tests", as
// extract.py, codes.py, tests.py and this package implement them). Caches
// of extracted output are keyed on it, not on the binary, so they survive a
// rebuild. Bump it whenever a change to those rules can change what Codes or
// Tests return for the same input.
const RulesVersion = "extract-v2"

// Caller runs a function of a Python source in a sandboxed child and decodes
// its JSON return value into result. *execute.Pool implements it.
type Caller = pyfunc.Caller

// Style says how a code completion relates to the problem's prompt.
type Style string

// The code styles.
const (
	// StyleAuto decides per block: one whose first non-blank line is at
	// column 0 is a whole program, any other is a body.
	StyleAuto Style = "auto"
	// StyleBody joins each completion to the prompt (HumanEval, base models).
	StyleBody Style = "body"
	// StyleFull takes each completion as a whole program (chat models).
	StyleFull Style = "full"
)

// ParseStyle parses "auto", "body" or "full"; "" means auto.
func ParseStyle(s string) (Style, error) {
	switch Style(s) {
	case "", StyleAuto:
		return StyleAuto, nil
	case StyleBody, StyleFull:
		return Style(s), nil
	}
	return "", fmt.Errorf("unknown code style %q: use auto, body (completions continue the prompt) or full (completions are whole programs)", s)
}

// TestOptions say how test completions were produced.
type TestOptions struct {
	// Prefix is prepended to every completion: the end of the prompt the
	// completion continues, e.g. "assert " for CodeT's test prompts.
	Prefix string
	// Cut, when not nil, says for each completion whether it was cut off at
	// the length limit, so that its last line is incomplete and dropped.
	Cut []bool
}

// codesArg is the argument of extract_codes.
type codesArg struct {
	Prompt      string   `json:"prompt"`
	Context     string   `json:"context"`
	EntryPoint  string   `json:"entry_point"`
	Style       Style    `json:"style"`
	Completions []string `json:"completions"`
}

// testsArg is the argument of extract_tests; Cut is absent when no
// completion was cut off.
type testsArg struct {
	EntryPoint  string   `json:"entry_point"`
	Prompt      string   `json:"prompt"`
	Context     string   `json:"context"`
	Prefix      string   `json:"prefix"`
	Completions []string `json:"completions"`
	Cut         []bool   `json:"cut,omitempty"`
}

// sourcesArg is the argument of source_keys.
type sourcesArg struct {
	Programs []string `json:"programs"`
}

// samplesReply is what extract_codes and extract_tests return: one result
// per sample of the call.
type samplesReply[T any] struct {
	Samples []T `json:"samples"`
}

// pyCode is one sample's result from extract_codes.
type pyCode struct {
	Program string `json:"program"`
	Key     string `json:"key"`
	Trimmed bool   `json:"trimmed"`
	Drop    string `json:"drop"`
	Error   string `json:"error"`
}

// pyTests is one sample's result from extract_tests.
type pyTests struct {
	Tests []struct {
		execute.Test
		Key string `json:"key"`
	} `json:"tests"`
	Stats struct {
		Pieces       int `json:"pieces"`
		Kept         int `json:"kept"`
		Setup        int `json:"setup"`
		Empty        int `json:"empty"`
		Syntax       int `json:"syntax"`
		Truncated    int `json:"truncated"`
		NoEntryPoint int `json:"no_entry_point"`
		Unbound      int `json:"unbound"`
		NotTest      int `json:"not_test"`
		Failed       int `json:"failed"`
	} `json:"stats"`
	Failed string `json:"failed"`
}

// Codes extracts the distinct candidate programs of problem p from its code
// completions. It is safe for concurrent use if c is.
func Codes(ctx context.Context, c Caller, p dataset.Problem, completions []string, style Style) ([]Candidate, Stats, error) {
	if style == "" {
		style = StyleAuto
	}
	arg := func(lo, hi int) codesArg {
		return codesArg{Prompt: p.Prompt, Context: p.Context, EntryPoint: p.EntryPoint,
			Style: style, Completions: completions[lo:hi]}
	}
	res, errs, err := callSamples(ctx, c, extractCodes, len(completions), arg)
	if err != nil {
		return nil, Stats{}, fmt.Errorf("extract codes of %s: %w", p.ID, err)
	}
	st := Stats{Samples: len(completions), Pieces: len(completions)}
	var out []Candidate
	seen := map[string]int{}
	for i, r := range res {
		if errs[i] != nil {
			slog.Warn("extraction failed on a code sample", "task", p.ID, "sample", i, "err", errs[i])
			st.Failed++
			continue
		}
		if r.Program == "" || r.Key == "" {
			countDrop(&st, p.ID, i, r.Drop, r.Error)
			continue
		}
		st.Kept++
		if r.Trimmed {
			st.Trimmed++
		}
		if j, ok := seen[r.Key]; ok {
			out[j].Count++
			continue
		}
		seen[r.Key] = len(out)
		out = append(out, Candidate{Program: r.Program, Count: 1, First: i})
	}
	st.Unique = len(out)
	return out, st, nil
}

// countDrop counts one dropped code sample by its reason.
func countDrop(st *Stats, task string, i int, reason, detail string) {
	switch reason {
	case "empty":
		st.Empty++
	case "syntax":
		st.Syntax++
	case "truncated":
		st.Truncated++
	case "no_entry_point":
		st.NoEntryPoint++
	default:
		slog.Warn("extraction failed on a code sample", "task", task, "sample", i, "reason", reason, "err", detail)
		st.Failed++
	}
}

// Tests extracts the distinct single-assertion tests of problem p from its
// test completions. It is safe for concurrent use if c is.
func Tests(ctx context.Context, c Caller, p dataset.Problem, completions []string, opts TestOptions) ([]Test, Stats, error) {
	if opts.Cut != nil && len(opts.Cut) != len(completions) {
		return nil, Stats{}, fmt.Errorf("extract tests of %s: %d cut flags for %d completions", p.ID, len(opts.Cut), len(completions))
	}
	arg := func(lo, hi int) testsArg {
		a := testsArg{EntryPoint: p.EntryPoint, Prompt: p.Prompt, Context: p.Context,
			Prefix: opts.Prefix, Completions: completions[lo:hi]}
		if opts.Cut != nil {
			a.Cut = opts.Cut[lo:hi]
		}
		return a
	}
	res, errs, err := callSamples(ctx, c, extractTests, len(completions), arg)
	if err != nil {
		return nil, Stats{}, fmt.Errorf("extract tests of %s: %w", p.ID, err)
	}
	st := Stats{Samples: len(completions)}
	var out []Test
	seen := map[string]int{}
	for i, r := range res {
		if errs[i] == nil && r.Failed != "" {
			errs[i] = errors.New(r.Failed)
		}
		if errs[i] != nil {
			slog.Warn("extraction failed on a test sample", "task", p.ID, "sample", i, "err", errs[i])
			st.Pieces++
			st.Failed++
			continue
		}
		s := r.Stats
		st.Add(Stats{Pieces: s.Pieces, Setup: s.Setup, Empty: s.Empty, Syntax: s.Syntax,
			Truncated: s.Truncated, NoEntryPoint: s.NoEntryPoint, Unbound: s.Unbound, NotTest: s.NotTest, Failed: s.Failed})
		for _, t := range r.Tests {
			if t.Key == "" || t.Code == "" {
				st.Failed++
				continue
			}
			st.Kept++
			if j, ok := seen[t.Key]; ok {
				out[j].Count++
				continue
			}
			seen[t.Key] = len(out)
			out = append(out, Test{Test: t.Test, Count: 1, First: i})
		}
	}
	st.Unique = len(out)
	return out, st, nil
}

// SourceKey is what Python's parser says of a whole program, read without
// running it.
type SourceKey struct {
	// Key is the key by which Codes tells candidates apart (a hash of the
	// syntax tree without docstrings): two programs with the same Key differ
	// at most in comments, blank lines, spelling and docstrings, and compile
	// to the same code but for those, so they behave alike unless they read
	// their own docstrings or line numbers. Empty where Syntax is set or the
	// tree could not be read.
	Key string `json:"key"`
	// Syntax is set where Python cannot parse the program: it cannot compile
	// either, so it passes no test.
	Syntax bool `json:"syntax"`
}

// SourceKeys reads programs with Python's parser in the sandbox, through c,
// and returns each one's SourceKey; a program the parser could not handle
// (too deeply nested, a crash of the sandboxed parser) gets the zero
// SourceKey. It is safe for concurrent use if c is.
func SourceKeys(ctx context.Context, c Caller, programs []string) ([]SourceKey, error) {
	res, errs, err := callSamples(ctx, c, sourceKeys, len(programs), func(lo, hi int) sourcesArg {
		return sourcesArg{Programs: programs[lo:hi]}
	})
	if err != nil {
		return nil, fmt.Errorf("read sources: %w", err)
	}
	for i, r := range res {
		if errs[i] != nil || (r.Key != "" && (r.Syntax || !isKey(r.Key))) {
			res[i] = SourceKey{}
		}
	}
	return res, nil
}

// isKey reports whether s has the form of a key of extract.py's _key: 32
// lowercase hex digits.
func isKey(s string) bool {
	if len(s) != 32 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// callSamples runs f over samples [0, n) in one call. If that call
// fails it retries in halves, so that a sample that breaks the sandboxed
// parser (a crash, the time limit) costs only itself: errs[i] is then set.
// It returns an error when the context ends or no sample could be handled.
func callSamples[Req, T any](ctx context.Context, c Caller, f pyfunc.Func[Req, samplesReply[T]], n int, arg func(lo, hi int) Req) ([]T, []error, error) {
	res := make([]T, n)
	errs := make([]error, n)
	if n == 0 {
		return res, errs, nil
	}
	var run func(lo, hi int) error
	run = func(lo, hi int) error {
		reply, err := f.Call(ctx, c, arg(lo, hi))
		if err == nil && len(reply.Samples) != hi-lo {
			err = fmt.Errorf("%s returned %d results for %d samples", f, len(reply.Samples), hi-lo)
		}
		if err == nil {
			copy(res[lo:hi], reply.Samples)
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if hi-lo == 1 {
			errs[lo] = err
			return nil
		}
		mid := (lo + hi) / 2
		if err := run(lo, mid); err != nil {
			return err
		}
		return run(mid, hi)
	}
	if err := run(0, n); err != nil {
		return nil, nil, err
	}
	failed := 0
	for _, e := range errs {
		if e != nil {
			failed++
		}
	}
	if failed == n {
		return nil, nil, fmt.Errorf("every sample failed: %w", errs[0])
	}
	return res, errs, nil
}
