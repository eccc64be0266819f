package dataset

import "strings"

// Stub returns the function stub used to ask a model for tests: the context,
// the signature and the docstring, with a "pass" body. When the problem has a
// Prompt (context, signature and docstring, as every loaded problem has) the
// stub is Prompt followed by an indented "pass"; for HumanEval-noexamples this
// is exactly the stub of microsoft/CodeT's test-generation prompts. Otherwise
// it is built from Context, Signature and Description.
func (p Problem) Stub() string {
	indent := leadingBlanks(p.Signature) + "    "
	if strings.TrimSpace(p.Prompt) != "" {
		prompt := p.Prompt
		if !strings.HasSuffix(prompt, "\n") {
			prompt += "\n"
		}
		return prompt + bodyIndent(prompt, indent) + "pass\n"
	}
	var b strings.Builder
	b.WriteString(p.Context)
	if p.Context != "" && !strings.HasSuffix(p.Context, "\n") {
		b.WriteString("\n")
	}
	b.WriteString(strings.TrimRight(p.Signature, " \t\n"))
	b.WriteString("\n")
	if d := strings.TrimSpace(p.Description); d != "" {
		b.WriteString(indent + `""" ` + docstringBody(d, indent) + "\n" + indent + `"""` + "\n")
	}
	b.WriteString(indent + "pass\n")
	return b.String()
}

// bodyIndent returns the indentation of the last non-blank line of prompt
// when that line is indented (the docstring's closing quotes), else def.
func bodyIndent(prompt, def string) string {
	lines := strings.Split(strings.TrimRight(prompt, " \t\r\n"), "\n")
	last := lines[len(lines)-1]
	if ind := leadingBlanks(last); ind != "" {
		return ind
	}
	return def
}
