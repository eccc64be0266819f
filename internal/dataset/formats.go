package dataset

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ticoder/ticoder/internal/srcscan"
)

// problemFrom builds a Problem from one record, choosing the format by the
// record's fields: evalplus's rows (HumanEval+, MBPP+) have "base_input" and
// "plus_input", MBPP rows have "test_list", every other row is read as
// HumanEval-style {task_id, prompt, entry_point, canonical_solution, test}.
func problemFrom(r record, dataset string) (Problem, error) {
	if isPlusRow(r) {
		return plusProblem(r, dataset)
	}
	if _, ok := r.fields["test_list"]; ok {
		return mbppProblem(r, dataset)
	}
	if lang, _ := r.optStr("language"); lang == "java" {
		return mbjpProblem(r, dataset)
	}
	return humanEvalProblem(r, dataset)
}

// humanEvalProblem reads a HumanEval-style row. The program under test is
// prompt + completion; the hidden test is the row's check function followed
// by a call on the entry point.
func humanEvalProblem(r record, dataset string) (Problem, error) {
	id, err := r.id()
	if err != nil {
		return Problem{}, err
	}
	var prompt, entry, solution, test string
	for _, f := range []struct {
		name string
		dst  *string
	}{{"prompt", &prompt}, {"entry_point", &entry}, {"canonical_solution", &solution}, {"test", &test}} {
		if *f.dst, err = r.str(f.name); err != nil {
			return Problem{}, err
		}
	}
	entry = strings.TrimSpace(entry)
	if entry == "" {
		return Problem{}, errors.New(`field "entry_point" is empty`)
	}
	toks := srcscan.Tokens(prompt)
	def, ok := srcscan.FindDef(prompt, toks, entry)
	if !ok || def.Colon < 0 {
		return Problem{}, fmt.Errorf(`field "prompt" has no "def %s(...):" line for the entry point`, entry)
	}
	desc, _ := docstringAfter(prompt, toks, def.Body)
	return Problem{
		ID:          id,
		Dataset:     dataset,
		Prompt:      prompt,
		Description: desc,
		Context:     prompt[:def.Start],
		Signature:   prompt[def.Start:def.Colon],
		EntryPoint:  entry,
		Reference:   prompt + solution,
		Test:        test + "\ncheck(" + entry + ")\n",
	}, nil
}

// mbppProblem reads a row of MBPP (full: "text", "test_setup_code"; or
// sanitized: "prompt", "test_imports"). The package documentation describes
// how the Prompt is built and how the function under test is found.
func mbppProblem(r record, dataset string) (Problem, error) {
	num, err := r.id()
	if err != nil {
		return Problem{}, err
	}
	descField := "text"
	if _, ok := r.fields["text"]; !ok {
		if _, ok := r.fields["prompt"]; ok {
			descField = "prompt"
		}
	}
	desc, err := r.str(descField)
	if err != nil {
		return Problem{}, err
	}
	code, err := r.str("code")
	if err != nil {
		return Problem{}, err
	}
	asserts, err := r.strs("test_list", true)
	if err != nil {
		return Problem{}, err
	}
	if len(asserts) == 0 {
		return Problem{}, errors.New(`field "test_list" is empty`)
	}
	setup, err := mbppSetup(r)
	if err != nil {
		return Problem{}, err
	}
	code = unixNewlines(code)
	for i := range asserts {
		asserts[i] = strings.TrimSpace(unixNewlines(asserts[i]))
	}
	toks := srcscan.Tokens(code)
	entry, ok := calledDefinedFunction(code, toks, asserts[0])
	if !ok {
		return Problem{}, errors.New(`cannot tell the function under test: the first assertion of "test_list" calls no function that "code" defines`)
	}
	def, _ := srcscan.FindDef(code, toks, entry)
	context := dropFunctionDefs(code[:def.Start])
	sig := code[def.Start:def.Colon]
	indent := leadingBlanks(sig) + "    "
	desc = strings.TrimSpace(unixNewlines(desc))
	prompt := context + sig + "\n" + indent + `""" ` + docstringBody(desc, indent) + "\n" + indent + `"""` + "\n"

	test := strings.Join(asserts, "\n") + "\n"
	if setup != "" {
		test = setup + "\n" + test
	}
	if !strings.HasPrefix(num, "Mbpp/") {
		num = "Mbpp/" + num
	}
	return Problem{
		ID:          num,
		Dataset:     dataset,
		Prompt:      prompt,
		Description: desc,
		Context:     context,
		Signature:   sig,
		EntryPoint:  entry,
		Reference:   code,
		Test:        test,
		Asserts:     asserts,
		TestSetup:   setup,
	}, nil
}

// mbppSetup joins test_setup_code (full MBPP) and test_imports (sanitized).
func mbppSetup(r record) (string, error) {
	code, err := r.optStr("test_setup_code")
	if err != nil {
		return "", err
	}
	imports, err := r.strs("test_imports", false)
	if err != nil {
		return "", err
	}
	var parts []string
	if s := strings.TrimSpace(unixNewlines(code)); s != "" {
		parts = append(parts, s)
	}
	for _, imp := range imports {
		if s := strings.TrimSpace(unixNewlines(imp)); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n"), nil
}

// calledDefinedFunction returns the first name called in expr (not as a
// method) that code defines with def.
func calledDefinedFunction(code string, codeToks []srcscan.Token, expr string) (string, bool) {
	toks := srcscan.Tokens(expr)
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.Kind != srcscan.Name || toks[i+1].Text(expr) != "(" {
			continue
		}
		if i > 0 && toks[i-1].Text(expr) == "." {
			continue
		}
		name := t.Text(expr)
		if d, ok := srcscan.FindDef(code, codeToks, name); ok && d.Colon >= 0 {
			return name, true
		}
	}
	return "", false
}

// docstringBody makes text safe inside a """ docstring and indents its
// continuation lines.
func docstringBody(text, indent string) string {
	text = strings.ReplaceAll(text, `\`, `\\`)
	text = strings.ReplaceAll(text, `"""`, `\"\"\"`)
	if strings.HasSuffix(text, `"`) {
		text = text[:len(text)-1] + `\"`
	}
	return strings.ReplaceAll(text, "\n", "\n"+indent)
}

// leadingBlanks returns the spaces and tabs that start s.
func leadingBlanks(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// unixNewlines turns "\r\n" line ends into "\n".
func unixNewlines(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
