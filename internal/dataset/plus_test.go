package dataset

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/testutil"
)

func TestPlusFields(t *testing.T) {
	dir := testutil.Fixtures(t)
	he := get(t, loadKnown(t, dir, "humanevalplus"), "HumanEval/2")
	if he.Plus == nil || he.Plus.Family != "humaneval" || he.Plus.Task != 2 || he.Plus.Atol != 1e-6 ||
		!strings.Contains(he.Plus.Contract, "_CONTRACT_") || !strings.HasPrefix(he.Reference, he.Prompt) {
		t.Errorf("HumanEval/2: %+v", he.Plus)
	}
	var base [][]any
	if err := json.Unmarshal(he.Plus.Base, &base); err != nil || len(base) != 3 {
		t.Errorf("HumanEval/2 base inputs: %v %v", base, err)
	}
	mb := loadKnown(t, dir, "mbppplus")
	p := get(t, mb, "Mbpp/2")
	if p.Plus.Family != "mbpp" || p.EntryPoint != "similar_elements" || p.Signature != "def similar_elements(test_tup1, test_tup2):" {
		t.Errorf("Mbpp/2: %+v", p)
	}
	if !strings.Contains(string(get(t, mb, "Mbpp/404").Plus.Plus), "ticoder:-inf") {
		t.Error("Mbpp/404: Python's -Infinity not read as its mark")
	}
	if string(get(t, mb, "Mbpp/793").Plus.Plus) != "{}" {
		t.Error("Mbpp/793: plus_input should stay {}")
	}
}

func TestPythonConstants(t *testing.T) {
	cases := []struct{ in, want string }{
		{`[NaN, -Infinity, Infinity]`, `["\u0000ticoder:nan", "\u0000ticoder:-inf", "\u0000ticoder:inf"]`},
		{`{"a": "NaN \" Infinity", "b": [1, NaN]}`, `{"a": "NaN \" Infinity", "b": [1, "\u0000ticoder:nan"]}`},
		{`[1, 2]`, ""},
	}
	for _, c := range cases {
		out, ok := PythonConstants([]byte(c.in))
		if diff := cmp.Diff(c.want, string(out)); diff != "" || ok != (c.want != "") {
			t.Errorf("PythonConstants(%s) (-want +got):\n%s", c.in, diff)
		}
	}
}

func FuzzPythonConstants(f *testing.F) {
	for _, s := range []string{`[NaN]`, `{"x": [-Infinity, "NaN\\"", Infinity]}`, `"NaN`, `[1, 2.5e3]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, ok := PythonConstants(in)
		if json.Valid(in) && ok {
			t.Fatalf("valid JSON %q rewritten as %q", in, out)
		}
		if ok {
			if again, ok2 := PythonConstants(out); ok2 {
				t.Fatalf("%q still has constants after one pass: %q", out, again)
			}
		}
	})
}

func FuzzPlusRow(f *testing.F) {
	f.Add(`[[1], [2]]`, `[[3]]`, `0.0001`)
	f.Add(`{}`, `{}`, `null`)
	f.Add(`[1]`, `[[NaN]]`, `-1`)
	f.Fuzz(func(t *testing.T, base, plus, atol string) {
		row := `{"task_id": "Mbpp/2", "prompt": "\"\"\"\nx\n\"\"\"\n", "entry_point": "f", "canonical_solution": "def f(a):\n    return a\n",` +
			`"base_input": ` + base + `, "plus_input": ` + plus + `, "atol": ` + atol + `}`
		_, _ = decode(context.Background(), "f", "f.jsonl", []byte(row)) // must not panic
	})
}
