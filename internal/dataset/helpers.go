package dataset

import "github.com/ticoder/ticoder/internal/srcscan"

// HiddenTestSetup returns the code the hidden test needs from the problem's
// own Context: the whole Context when the test uses a function or class that
// the Context defines at its top level (HumanEval/32's poly, /38's
// encode_cyclic), else "". The test then runs with the dataset's helper,
// not with whatever a program defines under its name. Python only.
func (p Problem) HiddenTestSetup() string {
	if p.Language != "" || p.Context == "" {
		return ""
	}
	toks := srcscan.Tokens(p.Context)
	helpers := map[string]bool{}
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.Kind != srcscan.Name || !t.First || t.Depth != 0 || srcscan.Column(p.Context, t.Start) != 0 {
			continue
		}
		if kw := t.Text(p.Context); kw == "def" || kw == "class" {
			helpers[toks[i+1].Text(p.Context)] = true
		}
	}
	delete(helpers, p.EntryPoint)
	if len(helpers) == 0 {
		return ""
	}
	for _, t := range srcscan.Tokens(p.Test) {
		if t.Kind == srcscan.Name && helpers[t.Text(p.Test)] {
			return p.Context
		}
	}
	return ""
}
