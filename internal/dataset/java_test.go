package dataset

import (
	"encoding/json"
	"strings"
	"testing"
)

func quoteJSON(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// checkJava checks the problems of a Java dataset (MBJP).
func checkJava(t *testing.T, ds *Dataset) {
	t.Helper()
	refs := 0
	for _, p := range ds.Problems {
		if p.Language != Java || p.EntryPoint == "" || p.Description == "" || p.Test == "" {
			t.Errorf("%s: incomplete problem: %+v", p.ID, p)
		}
		if !strings.HasPrefix(p.Prompt, p.Context+p.Signature) {
			t.Errorf("%s: Prompt does not start with Context+Signature", p.ID)
		}
		if !strings.Contains(p.Signature, " "+p.EntryPoint+"(") || !strings.HasSuffix(p.Signature, "{") {
			t.Errorf("%s: Signature %q does not declare %s", p.ID, p.Signature, p.EntryPoint)
		}
		if strings.Contains(p.Test, mbjpCompare) || !strings.Contains(p.Test, TrustedCompare) {
			t.Errorf("%s: the test still compares with the program's own equals", p.ID)
		}
		if p.Reference != "" {
			refs++
			if !strings.HasPrefix(p.Reference, p.Prompt) {
				t.Errorf("%s: Reference does not complete the prompt", p.ID)
			}
		}
	}
	if ds.Len() == 966 && refs != 874 {
		t.Errorf("%d problems have a reference, want 874", refs)
	}
}

func TestMBJPRowErrors(t *testing.T) {
	row := func(prompt, test string) record {
		return record{fields: map[string]json.RawMessage{
			"task_id": []byte(`"MBJP/1"`), "prompt": quoteJSON(prompt), "entry_point": []byte(`"f"`),
			"test": quoteJSON(test), "language": []byte(`"java"`), "canonical_solution": []byte("null"),
		}}
	}
	good := "class F {\n    public static int f(int x) {\n"
	test := "class Main { public static boolean compare(Object obj1, Object obj2) { return obj1.equals(obj2); } }"
	cases := []struct {
		name, prompt, test, want string
	}{
		{"fine", good, test, ""},
		{"no method", "class F {\n", test, "declares no static method f"},
		{"other compare", good, "class Main {}", "compare helper"},
	}
	for _, c := range cases {
		p, err := problemFrom(row(c.prompt, c.test), "mbjp")
		if c.want == "" {
			if err != nil || p.Language != Java || p.Reference != "" || p.Signature != "public static int f(int x) {" {
				t.Errorf("%s: %+v, %v", c.name, p, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}
