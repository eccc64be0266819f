package pyfunc

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeCaller records the calls it gets and answers them with reply (as
// JSON, the way the sandbox's answer is decoded) or fails with err.
type fakeCaller struct {
	source, function, arg string
	reply                 string
	err                   error
}

func (c *fakeCaller) Call(_ context.Context, source, function string, arg, result any) error {
	b, err := json.Marshal(arg)
	if err != nil {
		return err
	}
	c.source, c.function, c.arg = source, function, string(b)
	if c.err != nil {
		// A caller may have written part of the result before it failed.
		_ = json.Unmarshal([]byte(c.reply), result)
		return c.err
	}
	return json.Unmarshal([]byte(c.reply), result)
}

type sumReq struct {
	Values []int  `json:"values"`
	Label  string `json:"label,omitempty"`
}

type sumResp struct {
	Sum   int    `json:"sum"`
	Label string `json:"label"`
}

func TestProgram(t *testing.T) {
	a := Module{Name: "a.py", Text: "def a():\n    return 1\n"}
	b := Module{Name: "b.py", Text: "def b():\n    return a()\n"}
	c := Module{Name: "c.py", Text: "x = 1"}
	tests := []struct {
		name       string
		p          Program
		wantSource string
		wantName   string
	}{
		{"zero", Program{}, "", ""},
		{"one module", NewProgram(a), a.Text, "a.py"},
		{"modules joined by a blank line", NewProgram(a, b, c), a.Text + "\n\n" + b.Text + "\n\n" + c.Text, "a.py+b.py+c.py"},
		{"with appends", NewProgram(a).With(b).With(c), a.Text + "\n\n" + b.Text + "\n\n" + c.Text, "a.py+b.py+c.py"},
		{"with on the zero program", Program{}.With(a, b), a.Text + "\n\n" + b.Text, "a.py+b.py"},
		{"with nothing", NewProgram(a).With(), a.Text, "a.py"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Source(); got != tt.wantSource {
				t.Errorf("Source() = %q, want %q", got, tt.wantSource)
			}
			if got := tt.p.String(); got != tt.wantName {
				t.Errorf("String() = %q, want %q", got, tt.wantName)
			}
		})
	}
}

// TestProgramWithLeavesBaseAlone checks that programs extended from one
// base do not share their module lists.
func TestProgramWithLeavesBaseAlone(t *testing.T) {
	base := NewProgram(Module{Name: "a.py", Text: "A"}, Module{Name: "b.py", Text: "B"})
	x := base.With(Module{Name: "x.py", Text: "X"})
	y := base.With(Module{Name: "y.py", Text: "Y"})
	if got := base.String() + " " + base.Source(); got != "a.py+b.py A\n\nB" {
		t.Errorf("base = %q", got)
	}
	if got := x.String() + " " + x.Source(); got != "a.py+b.py+x.py A\n\nB\n\nX" {
		t.Errorf("x = %q", got)
	}
	if got := y.String() + " " + y.Source(); got != "a.py+b.py+y.py A\n\nB\n\nY" {
		t.Errorf("y = %q", got)
	}
}

func TestFuncCall(t *testing.T) {
	prog := NewProgram(Module{Name: "a.py", Text: "A"}, Module{Name: "b.py", Text: "B"})
	f := Func[sumReq, sumResp]{Program: prog, Name: "total"}
	c := &fakeCaller{reply: `{"sum": 6, "label": "six", "extra": true}`}
	got, err := f.Call(context.Background(), c, sumReq{Values: []int{1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sumResp{Sum: 6, Label: "six"}, got); diff != "" {
		t.Errorf("response (-want +got):\n%s", diff)
	}
	if c.source != "A\n\nB" || c.function != "total" {
		t.Errorf("called %q of %q, want total of %q", c.function, c.source, "A\n\nB")
	}
	if want := `{"values":[1,2,3]}`; c.arg != want {
		t.Errorf("argument %s, want %s", c.arg, want)
	}
}

func TestFuncCallError(t *testing.T) {
	boom := errors.New("python total: boom")
	f := Func[sumReq, sumResp]{Program: NewProgram(Module{Name: "a.py"}, Module{Name: "b.py"}), Name: "total"}
	c := &fakeCaller{reply: `{"sum": 6}`, err: boom}
	got, err := f.Call(context.Background(), c, sumReq{})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v does not wrap %v", err, boom)
	}
	if want := "total of a.py+b.py: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q does not start with %q", err, want)
	}
	if got != (sumResp{}) {
		t.Errorf("response %+v on an error, want the zero value", got)
	}
}

func TestFuncString(t *testing.T) {
	f := Func[sumReq, sumResp]{Program: NewProgram(Module{Name: "inputs.py"}).With(Module{Name: "agree.py"}), Name: "prepare"}
	if got, want := f.String(), "prepare of inputs.py+agree.py"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
