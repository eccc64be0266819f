package extract

import (
	"context"
	"strings"
	"testing"
)

// checkStats fails t unless every piece is counted exactly once and
// extraction itself never failed.
func checkStats(t *testing.T, st Stats, kept int) {
	t.Helper()
	if st.Failed != 0 {
		t.Errorf("extraction failed on %d samples: %+v", st.Failed, st)
	}
	if st.Pieces != st.Kept+st.Setup+st.Dropped() {
		t.Errorf("pieces %d != kept %d + setup %d + dropped %d: %+v", st.Pieces, st.Kept, st.Setup, st.Dropped(), st)
	}
	if st.Kept != kept {
		t.Errorf("kept %d, but the multiplicities sum to %d", st.Kept, kept)
	}
}

var fuzzSeeds = []string{
	"",
	"\n",
	"    return a + b\n",
	"    return a +",
	"```python\ndef add(a, b):\n    return a + b\n```",
	"```\n```",
	"```python",
	"<code>def add(a, b): return a</code><code>",
	"def add(a, b):\n    '''\nunterminated",
	"@\ndef add(a, b):\n    pass\n",
	"assert \n    add(1, 2) == 3, 'm'\nassert \nassert add(",
	"def check(candidate):\n    assert candidate(1, 2) == 3\ncheck(add)\n",
	"class T(unittest.TestCase):\n    def test_x(self):\n        self.assertEqual(add(1, 2), 3)\n",
	"@pytest.mark.parametrize('a,b', [(1, 2), 3])\ndef test_a(a, b):\n    assert add(a, b)\n",
	"x = (" + strings.Repeat("(", 300) + "\nassert add(1, 2) == 3\n",
	strings.Repeat("-", 5000) + "1\nassert add(1, 2) == 3\n",
	"assert add(1, 2) == 3\x00\nassert add(2, 2) == 4\n",
	"assert add(1, 2) == 3\r\nassert add(2, 2) == 4\rassert add(0, 0) == 0\x0c\n",
	"if __name__ == '__main__':\n    assert add(1, 1) == 2\n",
	"\t\t\tdef add(a, b):\n return 1\n",
	"é = 1\nassert add(é, 1) == 2\n\xff\xfe",
	"async def add(a, b):\n    return await a\nawait add(1, 2)\n",
	"def add(a, b):\n    return a\n" + strings.Repeat("def add(a, b):\n  '''x'''\n", 200),
}

func FuzzExtractCodes(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, uint8(i%3))
	}
	styles := []Style{StyleAuto, StyleBody, StyleFull}
	f.Fuzz(func(t *testing.T, in string, style uint8) {
		good := "```python\ndef add(a, b):\n    return a + b + 1000\n```"
		got, st, err := Codes(context.Background(), testPool, addProblem, []string{in, good}, styles[int(style)%3])
		if err != nil {
			t.Fatal(err)
		}
		kept := 0
		found := false
		for _, c := range got {
			kept += c.Count
			if c.Count < 1 || c.First < 0 || c.First > 1 || c.Program == "" {
				t.Errorf("bad candidate %+v", c)
			}
			found = found || strings.Contains(c.Program, "a + b + 1000")
		}
		checkStats(t, st, kept)
		if st.Samples != 2 || st.Pieces != 2 {
			t.Errorf("samples %d, pieces %d; want 2, 2", st.Samples, st.Pieces)
		}
		if !found && styles[int(style)%3] != StyleBody {
			t.Errorf("the well-formed sample was lost: %+v", got)
		}
	})
}

func FuzzExtractTests(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, i%2 == 0, i%3 == 0)
	}
	f.Fuzz(func(t *testing.T, in string, prefix, cut bool) {
		opts := TestOptions{Cut: []bool{cut, false}}
		good := "add(1000, 1) == 1001\n"
		if prefix {
			opts.Prefix = "assert "
		} else {
			good = "assert " + good
		}
		p := addProblem
		got, st, err := Tests(context.Background(), testPool, p, []string{in, good}, opts)
		if err != nil {
			t.Fatal(err)
		}
		kept := 0
		found := false
		for _, c := range got {
			kept += c.Count
			if c.Count < 1 || c.First < 0 || c.First > 1 || c.Code == "" {
				t.Errorf("bad test %+v", c)
			}
			found = found || c.Code == "assert add(1000, 1) == 1001"
		}
		checkStats(t, st, kept)
		if !found {
			t.Errorf("the well-formed test was lost: %+v", got)
		}
	})
}
