package measure

import (
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/qe"
)

// TestPlanNotes: a report on MBJP with an estimator that runs the prompt's
// examples says that they are MBJP's hidden tests; other reports say
// nothing.
func TestPlanNotes(t *testing.T) {
	set := func(dataset, id string) *qe.ExampleSet {
		return &qe.ExampleSet{Name: "x", Tasks: []qe.Task{{Problem: qe.Problem{Dataset: dataset, TaskID: id}}}}
	}
	for _, tc := range []struct {
		name       string
		test       *qe.ExampleSet
		estimators []string
		want       string
	}{
		{"mbjp agree", set("mbjp", "MBJP/1"), []string{"els", "agree"}, "agree runs them"},
		{"mbjp agree and combo", set("", "MBJP/1"), []string{"agree", "combo"}, "agree and combo run them"},
		{"mbjp without running", set("mbjp", "MBJP/1"), []string{"els", "tls"}, ""},
		{"humaneval agree", set("humaneval", "HumanEval/0"), []string{"agree"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			notes := planNotes(tc.test, tc.estimators)
			if tc.want == "" {
				if len(notes) != 0 {
					t.Errorf("notes %q, want none", notes)
				}
				return
			}
			if len(notes) != 1 || !strings.Contains(notes[0], tc.want) || !strings.Contains(notes[0], "hidden tests") {
				t.Fatalf("notes %q, want one saying %q", notes, tc.want)
			}
			md := (&Report{Notes: notes}).Markdown()
			if !strings.Contains(md, "Note: MBJP's prompt examples") {
				t.Errorf("the Markdown report lacks the note:\n%s", md)
			}
		})
	}
}
