package execute

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestHiddenTestSeesEachAnswer: the calls of a hidden test go to the
// program's process in one batch and their answers wake the worker once (the
// bell), but a test still ends at its first failed assertion, however the
// rest of the batch goes: a later call that hangs or kills the process must
// not turn a failure into a timeout or a crash, and a test whose answers are
// all right before such a call times out or crashes as before. Answers larger
// than a pipe holds still arrive whole.
func TestHiddenTestSeesEachAnswer(t *testing.T) {
	check := "def check(candidate):\n" +
		"    assert candidate(1) == 1\n" +
		"    assert candidate(2) == 2\n" +
		"    assert len(candidate(3)) == 200000\n" +
		"check(f)\n"
	cases := []struct {
		name, program string
		want          Outcome
	}{
		{"all right", "def f(x):\n    return x if x < 3 else list(range(200000))\n", Pass},
		{"wrong, then hangs", "def f(x):\n    while x == 2:\n        pass\n    return x + 1\n", Fail},
		{"wrong, then dies", "import os\ndef f(x):\n    if x == 2:\n        os._exit(3)\n    return x + 1\n", Fail},
		{"right, then hangs", "def f(x):\n    while x == 2:\n        pass\n    return x\n", Timeout},
		{"right, then dies", "import os\ndef f(x):\n    if x == 2:\n        os._exit(3)\n    return x\n", Crash},
		{"right, then a long wrong answer", "def f(x):\n    return x if x < 3 else list(range(300000))\n", Fail},
	}
	p := newTestPool(t, Options{Workers: 1})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := p.Run(context.Background(), Job{Programs: []string{c.program}, Tests: []Test{{Code: check, Trusted: true}}, TimePolicy: Within(3 * time.Second)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r := m.Results[0][0]; r.Outcome != c.want {
				t.Errorf("outcome %v (%q), want %v", r.Outcome, r.Exception, c.want)
			}
		})
	}
}

// TestBuiltinsRestoredBetweenTests: each test of a program starts from the
// builtins every program starts with, whatever the program's module code or
// an earlier test did to them. (The worker skips putting them back when
// their version tag says nothing changed; a wrong tag would show here.)
func TestBuiltinsRestoredBetweenTests(t *testing.T) {
	cases := []struct {
		name, program string
	}{
		{"module code replaces abs", "import builtins\nbuiltins.abs = lambda y: 99\ndef f(x):\n    return x\n"},
		{"a call replaces abs", "import builtins\ndef f(x):\n    builtins.abs = lambda y: 99\n    return x\n"},
		{"a call deletes abs", "import builtins\ndef f(x):\n    builtins.__dict__.pop('abs', None)\n    return x\n"},
		{"nothing changes", "def f(x):\n    return x\n"},
	}
	tests := []Test{
		{Code: "assert f(abs(-1)) == 1", Input: "f(abs(-1))", Expected: "1"},
		{Code: "assert f(abs(-2)) == 2", Input: "f(abs(-2))", Expected: "2"},
		{Code: "assert f(abs(-3)) == 3", Input: "f(abs(-3))", Expected: "3"},
	}
	p := newTestPool(t, Options{Workers: 1})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := p.Run(context.Background(), Job{Programs: []string{c.program}, Tests: tests, TimePolicy: Within(2 * time.Second)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(outcomes(m.Results[0]), " "); got != "pass pass pass" {
				t.Errorf("outcomes %s, want pass pass pass", got)
			}
		})
	}
}
