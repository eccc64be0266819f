package dataset

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// PlusTests are a problem's test inputs in evalplus's format (HumanEval+,
// MBPP+): the entry point is called on each input, and its output compared
// with the reference's.
type PlusTests struct {
	// Base and Plus are the rows' base_input and plus_input: JSON lists of
	// argument lists (MBPP+'s Mbpp/793 has an empty object for none).
	Base json.RawMessage
	Plus json.RawMessage
	// Atol is the row's absolute tolerance for float outputs.
	Atol float64
	// Contract is the row's input-validity assertions (not run by checks).
	Contract string
	// Family is "humaneval" or "mbpp": whose special oracles and input type
	// restoration apply (evalplus keys them on the dataset).
	Family string
	// Task is the number in the task id (MBPP+'s type restoration is per task).
	Task int
}

// isPlusRow reports whether r is a row of evalplus's own format.
func isPlusRow(r record) bool {
	_, base := r.fields["base_input"]
	_, plus := r.fields["plus_input"]
	return base && plus
}

// plusProblem reads a row of HumanEval+ or MBPP+ (evalplus's format). The
// reference program is the row's prompt + canonical_solution, as evalplus
// runs it; the
// hidden test program is HumanEval's check (HumanEval+) or MBPP's asserts
// (MBPP+'s "assertion"), for the commands that run one; check and eval
// judge by the inputs (Problem.Plus).
func plusProblem(r record, dataset string) (Problem, error) {
	id, err := r.id()
	if err != nil {
		return Problem{}, err
	}
	var prompt, entry, solution string
	for _, f := range []struct {
		name string
		dst  *string
	}{{"prompt", &prompt}, {"entry_point", &entry}, {"canonical_solution", &solution}} {
		if *f.dst, err = r.str(f.name); err != nil {
			return Problem{}, err
		}
	}
	entry = strings.TrimSpace(entry)
	if entry == "" {
		return Problem{}, errors.New(`field "entry_point" is empty`)
	}
	pt, err := plusTests(r, id)
	if err != nil {
		return Problem{}, err
	}
	p := Problem{ID: id, Dataset: dataset, Prompt: prompt, EntryPoint: entry, Reference: unixNewlines(prompt + solution), Plus: pt}
	if pt.Family == "mbpp" {
		return mbppPlusProblem(r, p)
	}
	toks := srcscan.Tokens(prompt)
	def, ok := srcscan.FindDef(prompt, toks, entry)
	if !ok || def.Colon < 0 {
		return Problem{}, fmt.Errorf(`field "prompt" has no "def %s(...):" line for the entry point`, entry)
	}
	p.Description, _ = docstringAfter(prompt, toks, def.Body)
	p.Context, p.Signature = prompt[:def.Start], prompt[def.Start:def.Colon]
	if test, _ := r.optStr("test"); test != "" {
		p.Test = test + "\ncheck(" + entry + ")\n"
	}
	return p, nil
}

// mbppPlusProblem completes an MBPP+ row: its prompt is a docstring only,
// so the signature and context come from the canonical solution.
func mbppPlusProblem(r record, p Problem) (Problem, error) {
	code := p.Reference
	toks := srcscan.Tokens(code)
	def, ok := srcscan.FindDef(code, toks, p.EntryPoint)
	if !ok || def.Colon < 0 {
		return Problem{}, fmt.Errorf(`field "canonical_solution" has no "def %s(...):" line for the entry point`, p.EntryPoint)
	}
	p.Context = dropFunctionDefs(code[:def.Start])
	p.Signature = code[def.Start:def.Colon]
	desc := strings.TrimSpace(unixNewlines(p.Prompt))
	desc = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(desc, `"""`), `"""`))
	p.Description = desc
	// The row's prompt is the docstring alone; a body completion needs the
	// def line, so the Prompt is built as for MBPP (a completion that
	// defines the whole function still replaces it).
	indent := leadingBlanks(p.Signature) + "    "
	p.Prompt = p.Context + p.Signature + "\n" + indent + `""" ` + docstringBody(desc, indent) + "\n" + indent + `"""` + "\n"
	assertion, err := r.optStr("assertion")
	if err != nil {
		return Problem{}, err
	}
	for _, line := range strings.Split(unixNewlines(assertion), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			p.Asserts = append(p.Asserts, line)
		}
	}
	if len(p.Asserts) > 0 {
		p.Test = strings.Join(p.Asserts, "\n") + "\n"
	}
	return p, nil
}

// plusTests reads the inputs, atol and contract of an evalplus row.
func plusTests(r record, id string) (*PlusTests, error) {
	pt := &PlusTests{Base: r.fields["base_input"], Plus: r.fields["plus_input"], Family: "humaneval"}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"base_input", pt.Base}, {"plus_input", pt.Plus}} {
		var args []json.RawMessage
		if err := json.Unmarshal(f.raw, &args); err != nil {
			var obj map[string]json.RawMessage
			if json.Unmarshal(f.raw, &obj) != nil || len(obj) > 0 {
				return nil, fmt.Errorf("field %q: want a list of argument lists, got %s", f.name, describeJSON(f.raw))
			}
			continue // MBPP+'s {} for no inputs
		}
		for i, a := range args {
			var list []json.RawMessage
			if json.Unmarshal(a, &list) != nil {
				return nil, fmt.Errorf("field %q: input %d is not a list of arguments: %s", f.name, i, describeJSON(a))
			}
		}
	}
	if raw, ok := r.fields["atol"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &pt.Atol); err != nil || pt.Atol < 0 {
			return nil, fmt.Errorf(`field "atol": want a number ≥ 0, got %s`, describeJSON(raw))
		}
	}
	pt.Contract, _ = r.optStr("contract")
	prefix, num, _ := strings.Cut(id, "/")
	if strings.EqualFold(prefix, "Mbpp") {
		pt.Family = "mbpp"
	}
	pt.Task, _ = strconv.Atoi(num)
	return pt, nil
}

// The strings that stand for Python's NaN, Infinity and -Infinity in JSON
// read by PythonConstants; harness's suite.py turns them back into floats.
const (
	MarkNaN    = "\x00ticoder:nan"
	MarkInf    = "\x00ticoder:inf"
	MarkNegInf = "\x00ticoder:-inf"
)

// PythonConstants rewrites the NaN, Infinity and -Infinity that Python's
// json module writes (and JSON does not allow) outside strings as the
// strings MarkNaN, MarkInf and MarkNegInf; ok is false when text has none.
// MBPP+ has such inputs.
func PythonConstants(text []byte) (out []byte, ok bool) {
	inString, escaped := false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !inString && c != '"' {
			if word, repl, found := pythonConstantAt(text[i:]); found {
				if out == nil {
					out = append([]byte{}, text[:i]...)
				}
				out = append(out, repl...)
				i += len(word) - 1
				continue
			}
		}
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		}
		if out != nil {
			out = append(out, c)
		}
	}
	return out, out != nil
}

// pythonConstantAt reports whether text starts with one of Python's JSON
// constants, and what replaces it.
func pythonConstantAt(text []byte) (word, repl string, ok bool) {
	for _, k := range pythonConstants {
		if strings.HasPrefix(string(text[:min(len(text), len(k.word))]), k.word) {
			return k.word, k.json, true
		}
	}
	return "", "", false
}

var pythonConstants = []struct{ word, json string }{
	{"-Infinity", `"\u0000ticoder:-inf"`}, {"Infinity", `"\u0000ticoder:inf"`}, {"NaN", `"\u0000ticoder:nan"`},
}

// Hashes names a data file's content: SHA256 is the hex SHA-256 of the
// file as stored (what Spec.SHA256 pins); MD5 is the hex MD5 of its
// uncompressed content, the name evalplus gives a dataset (the "hash" of
// its eval_results.json, and of its ground-truth cache).
type Hashes struct {
	SHA256 string `json:"sha256"`
	MD5    string `json:"md5"`
}

// FileHashes returns the Hashes of the file at path.
func FileHashes(path string) (Hashes, error) {
	sum, _, err := fileSHA256(path)
	if err != nil {
		return Hashes{}, err
	}
	data, err := readFile(path)
	if err != nil {
		return Hashes{}, err
	}
	m := md5.Sum(data)
	return Hashes{SHA256: sum, MD5: hex.EncodeToString(m[:])}, nil
}
