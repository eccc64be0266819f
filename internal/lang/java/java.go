package java

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/lang"
	"github.com/ticoder/ticoder/internal/srcscan"
)

// Java implements lang.Language and lang.ExampleParser.
type Java struct{}

var (
	_ lang.Language       = Java{}
	_ lang.ExampleParser  = Java{}
	_ lang.InputHarvester = Java{}
)

// Name implements lang.Language.
func (Java) Name() string { return "java" }

// Program implements lang.Language: prompt + completion, or the completion
// alone when it declares the prompt's class itself.
func (Java) Program(prompt, completion string) string {
	if m := classRE.FindStringSubmatch(prompt); m != nil {
		if loc := classRE.FindStringSubmatch(completion); loc != nil && loc[1] == m[1] {
			return completion
		}
	}
	return prompt + completion
}

// ValueTest implements lang.Language.
func (Java) ValueTest(call, expected string) execute.Test {
	code := call
	if expected != "" {
		code = "assert ticoder.values.Values.sameValue(" + call + ", " + expected + ");"
	}
	return execute.Test{Code: code, Input: call, Expected: expected}
}

// Extract implements lang.Language.
func (Java) Extract(reply string) string {
	if b, ok := lang.FencedBlock(reply, "java"); ok {
		return b
	}
	return reply
}

// FirstClass returns the name of the first class source declares, or "".
func FirstClass(source string) string {
	if m := classRE.FindStringSubmatch(source); m != nil {
		return m[1]
	}
	return ""
}

// classRE finds a top-level class's name.
var classRE = regexp.MustCompile(`(?m)^\s*(?:public\s+|final\s+|abstract\s+)*class\s+([A-Za-z_$][A-Za-z0-9_$]*)`)

// Method is the signature of a prompt's static method.
type Method struct {
	// Class is the class that declares it.
	Class string
	// Name is the method's name.
	Name string
	// Return is its return type.
	Return Type
	// Params are its parameters' types.
	Params []Type
}

// FindMethod finds the static method entry in a Java prompt.
func FindMethod(prompt, entry string) (Method, error) {
	cls := classRE.FindStringSubmatch(prompt)
	if cls == nil {
		return Method{}, fmt.Errorf("no class in the prompt")
	}
	re := regexp.MustCompile(`static\s+([^(){};=]+?)\s+` + regexp.QuoteMeta(entry) + `\s*\(([^)]*)\)`)
	m := re.FindStringSubmatch(prompt)
	if m == nil {
		return Method{}, fmt.Errorf("no static method %s in the prompt", entry)
	}
	ret, err := ParseType(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m[1]), "final ")))
	if err != nil {
		return Method{}, fmt.Errorf("return type of %s: %w", entry, err)
	}
	out := Method{Class: cls[1], Name: entry, Return: ret}
	for _, p := range srcscan.Java.WithAngles().SplitTop(m[2], ',') {
		p = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p), "final "))
		if p == "" {
			continue
		}
		i := strings.LastIndexAny(p, " \t\n")
		if i < 0 {
			return Method{}, fmt.Errorf("parameter %q of %s: no name", p, entry)
		}
		t, err := ParseType(p[:i])
		if err != nil {
			return Method{}, fmt.Errorf("parameter %q of %s: %w", p, entry, err)
		}
		out.Params = append(out.Params, t)
	}
	return out, nil
}

// exampleRE finds `> entry(args)` and the value on the next line of a
// Javadoc comment.
var exampleRE = regexp.MustCompile(`(?m)^[ \t]*\*?[ \t]*>[ \t]*([A-Za-z_$][A-Za-z0-9_$]*)[ \t]*\((.*)\)[ \t]*\n[ \t]*\*?[ \t]*(\S.*?)[ \t]*$`)

// Examples implements lang.ExampleParser: each `> entry(args)` line and the
// value after it, as a call of Class.entry with the arguments written as
// Java expressions of the parameters' types, and the value as one of the
// return type. Examples whose values do not fit the signature are left out.
func (Java) Examples(prompt, entry string) []lang.Example {
	m, err := FindMethod(prompt, entry)
	if err != nil {
		return nil
	}
	var out []lang.Example
	for _, ex := range exampleRE.FindAllStringSubmatch(prompt, -1) {
		if ex[1] != entry {
			continue
		}
		call, err := m.Call(ex[2])
		if err != nil {
			continue
		}
		v, err := ParseValue(ex[3])
		if err != nil {
			continue
		}
		want, err := Emit(v, m.Return)
		if err != nil {
			continue
		}
		out = append(out, lang.Example{Call: call, Expected: want})
	}
	return out
}

// Call renders a call of the method with arguments given in the examples'
// notation (without parentheses) as a Java expression.
func (m Method) Call(args string) (string, error) {
	vals, err := ParseArgs(args)
	if err != nil {
		return "", err
	}
	if len(vals) != len(m.Params) {
		return "", fmt.Errorf("%s takes %d arguments, not %d", m.Name, len(m.Params), len(vals))
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		if parts[i], err = Emit(v, m.Params[i]); err != nil {
			return "", fmt.Errorf("argument %d of %s: %w", i+1, m.Name, err)
		}
	}
	return m.Class + "." + m.Name + "(" + strings.Join(parts, ", ") + ")", nil
}
