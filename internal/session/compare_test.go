package session

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

func TestRunnerComparer(t *testing.T) {
	ctx := context.Background()
	pool := testutil.Pool(t)
	rc := RunnerComparer{Runner: pool, Timeout: 3 * time.Second}
	programs := []string{
		"def f(x):\n    return [x, x]\n",
		"def f(x):\n    return (x, x)\n",
		"def f(x):\n    return [float(x), x]\n",
		"def f(x):\n    raise ValueError(x)\n",
		"def f(x):\n    return [x]\n",
	}
	test := execute.Test{Code: "assert f(1) == [2, 2]", Input: "f(1)", Expected: "[2, 2]"}
	tests := []struct {
		name  string
		value string
		want  []bool
	}{
		// Python ==, not strings: [1.0, 1] == [1, 1]; a tuple is not a list.
		{"list", "[1, 1]", []bool{true, false, true, false, false}},
		{"spaces do not matter", "[1,1]", []bool{true, false, true, false, false}},
		{"tuple", "(1, 1)", []bool{false, true, false, false, false}},
		{"expression", "[1] * 1", []bool{false, false, false, false, true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rc.Equal(ctx, programs, test, tc.value)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, err := rc.Equal(ctx, programs, test, "[1, "); !errors.Is(err, ErrBadValue) {
		t.Errorf("a value that does not parse: %v, want ErrBadValue", err)
	}
}

func TestEqualTestParenthesises(t *testing.T) {
	base := execute.Test{Code: "assert f(0) == 3", Input: "f(0)", Expected: "3"}
	cases := []struct{ value, code string }{
		{"1, 2", "assert f(0) == (1, 2)"},
		{"[1, 2]", "assert f(0) == [1, 2]"},
		{"(1, 2)", "assert f(0) == (1, 2)"},
		{"-1", "assert f(0) == -1"},
		{"'a, b'", "assert f(0) == 'a, b'"},
		{`"it's"`, `assert f(0) == "it's"`},
		{"1 if x else 2", "assert f(0) == (1 if x else 2)"},
		{"a or b", "assert f(0) == (a or b)"},
		{"x == 1", "assert f(0) == (x == 1)"},
		{"{1: 2}", "assert f(0) == {1: 2}"},
		{"None", "assert f(0) == None"},
		{`f"{a, b}"`, `assert f(0) == f"{a, b}"`},
		{`f"{d["k"]}"`, `assert f(0) == f"{d["k"]}"`},
		{`'''a, b'''`, `assert f(0) == '''a, b'''`},
		{`"a\", b"`, `assert f(0) == "a\", b"`},
		{`"a" "b"`, `assert f(0) == ("a" "b")`},
	}
	for _, c := range cases {
		got := EqualTest(base, c.value)
		if got.Code != c.code || got.Expected != c.value || got.Input != "f(0)" {
			t.Errorf("EqualTest(%q) = %+v, want code %q", c.value, got, c.code)
		}
	}
}
