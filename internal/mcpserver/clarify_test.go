package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/mcpserver/mcptest"
	"github.com/ticoder/ticoder/internal/testutil"
)

// TestClarifyElicitation runs clarify on demos with a client that elicits:
// the test client answers every question as the demo's reference solution
// would, and the code clarify returns must pass the demo's hidden tests,
// with one explanation line per answer and progress along the way.
func TestClarifyElicitation(t *testing.T) {
	pool := testutil.Pool(t)
	s := newTestServer(t, pool, Options{})
	for _, tc := range []struct {
		demo, mode string
		// buggy makes the human want what the demo's first buggy
		// candidate does, so that some answers must give the value.
		buggy bool
	}{
		{demo: "text_match", mode: "passfail"},
		{demo: "median", mode: "output"},
		{demo: "digit_sum", mode: "output"},
		{demo: "second_largest", mode: "output"},
		{demo: "rle_encode", mode: "output"},
		{demo: "first_missing", mode: "output"},
		{demo: "median", mode: "output", buggy: true},
		{demo: "rle_encode", mode: "output", buggy: true},
	} {
		t.Run(fmt.Sprintf("%s/%s/buggy=%v", tc.demo, tc.mode, tc.buggy), func(t *testing.T) {
			p := getDemo(t, tc.demo)
			if tc.buggy {
				i := slices.Index(p.CandidateLabels, demo.Buggy)
				p.Reference = p.Candidates[i].Program
			}
			human := &mcptest.Human{Problem: p, Runner: pool, Output: tc.mode == "output"}
			var (
				mu       sync.Mutex
				progress []float64
			)
			cs := connect(t, s, &mcp.ClientOptions{
				ElicitationHandler: human.Elicit,
				ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
					mu.Lock()
					progress = append(progress, r.Params.Progress)
					mu.Unlock()
				},
			})
			ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
			defer cancel()
			params := &mcp.CallToolParams{Name: "clarify", Arguments: SourceInput{Demo: tc.demo, Mode: tc.mode}}
			params.SetProgressToken("clarify-1")
			res, err := cs.CallTool(ctx, params)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				t.Fatalf("clarify: %s", text(res))
			}
			var out ClarifyOutput
			decode(t, res.StructuredContent, &out)
			r := out.Result
			if r == nil || out.Pending != nil {
				t.Fatalf("clarify with elicitation returned no result: %+v", out)
			}
			asked := human.Asked()
			t.Logf("%d questions, explanation: %q", len(asked), r.Explanation)
			if len(asked) == 0 || len(r.Explanation) != len(asked) {
				t.Errorf("%d questions asked, %d explained: %q", len(asked), len(r.Explanation), r.Explanation)
			}
			if !r.Checked || !r.Passed || r.CodeFile != p.EntryPoint+".py" || !strings.Contains(r.Tests, "def test_") {
				t.Errorf("result: checked %v passed %v failures %v, files %s %s, tests:\n%s", r.Checked, r.Passed, r.Failures, r.CodeFile, r.TestFile, r.Tests)
			}
			if tc.buggy {
				if !slices.ContainsFunc(r.Explanation, func(e string) bool { return strings.Contains(e, "it should return") }) {
					t.Errorf("no answer gave the value: %q", r.Explanation)
				}
			} else {
				checkHidden(t, cs, p, r.Code)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(progress) < 2 || !slices.IsSorted(progress) || len(slices.Compact(slices.Clone(progress))) != len(progress) {
				t.Errorf("progress %v: want at least 2 notifications, strictly increasing", progress)
			}
		})
	}
}

// TestStepTools drives a session without elicitation, as an agent that
// relays the questions: clarify returns the pending question, each answer
// (from the reference) comes through answer_question, one is taken back
// with undo and given again, and finish returns code that passes the hidden
// tests and is also written into the client's workspace root. check_code
// then runs code against the session's approved tests.
func TestStepTools(t *testing.T) {
	pool := testutil.Pool(t)
	s := newTestServer(t, pool, Options{WriteFiles: true})
	root := t.TempDir()
	cs := connect(t, s, nil, &mcp.Root{URI: "file://" + root, Name: "workspace"})
	p := getDemo(t, "text_match")
	human := &mcptest.Human{Problem: p, Runner: pool}

	var out ClarifyOutput
	if msg := call(t, cs, "clarify", SourceInput{Demo: p.Name}, &out); msg != "" {
		t.Fatal(msg)
	}
	st := out.Pending
	if out.Result != nil || st == nil || st.Question == nil || st.SessionID == "" || !strings.Contains(st.Next, "answer_question") {
		t.Fatalf("clarify without elicitation: want a pending question, got %+v", out)
	}
	answers, undone := 0, false
	for st.Question != nil {
		if answers > 50 {
			t.Fatal("more than 50 questions")
		}
		q := *st.Question
		word, value, err := human.Answer(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var next State
		// Every other answer names the question by the number the agent
		// is shown, not its test id: both name the pending question.
		id := q.Test
		if answers%2 == 1 {
			id = q.Number
		}
		if msg := call(t, cs, "answer_question", AnswerInput{SessionID: st.SessionID, Question: id, Answer: word, Value: value}, &next); msg != "" {
			t.Fatalf("answer %s to %s: %s", word, q.Prompt, msg)
		}
		answers++
		if !undone {
			undone = true
			if msg := call(t, cs, "undo", SessionInput{SessionID: st.SessionID}, &next); msg != "" {
				t.Fatal(msg)
			}
			if next.Question == nil || next.Question.Test != q.Test {
				t.Fatalf("after undo the question is %+v, want test %d again", next.Question, q.Test)
			}
			answers--
		}
		st = &next
	}
	if !st.Done || !strings.Contains(st.Next, "finish") {
		t.Errorf("after the last answer: %+v", st)
	}
	var r Result
	if msg := call(t, cs, "finish", FinishInput{SessionID: st.SessionID}, &r); msg != "" {
		t.Fatal(msg)
	}
	if len(r.Explanation) != answers || !r.Passed {
		t.Errorf("%d answers, explanation %q, passed %v %v", answers, r.Explanation, r.Passed, r.Failures)
	}
	checkHidden(t, cs, p, r.Code)
	if len(r.Files) != 2 {
		t.Fatalf("files written into the workspace: %v", r.Files)
	}
	for i, want := range []string{r.Code, r.Tests} {
		b, err := os.ReadFile(r.Files[i])
		if err != nil || string(b) != want || !strings.HasPrefix(r.Files[i], filepath.Join(root, OutDir)+string(filepath.Separator)) {
			t.Errorf("%s: %v, holds %q", r.Files[i], err, b)
		}
	}

	for _, tc := range []struct {
		name, code string
		pass       bool
	}{
		{"reference", p.Reference, true},
		{"always None", "def text_match(text):\n    return None\n", false},
	} {
		var chk CheckOutput
		if msg := call(t, cs, "check_code", CheckInput{Code: tc.code, SessionID: st.SessionID}, &chk); msg != "" {
			t.Fatalf("check_code %s: %s", tc.name, msg)
		}
		if chk.Passed != tc.pass || chk.TestCount != r.TestCount || (!tc.pass && len(chk.Failures) == 0) {
			t.Errorf("check_code %s against the approved tests: %+v, want passed %v of %d", tc.name, chk, tc.pass, r.TestCount)
		}
	}
}

// TestSampling runs clarify on a stub with no model on the server: the
// candidates and tests come from the client's model through sampling,
// which the test client answers with the demo's recorded candidates and
// tests.
func TestSampling(t *testing.T) {
	pool := testutil.Pool(t)
	s := newTestServer(t, pool, Options{})
	p := getDemo(t, "text_match")
	human := &mcptest.Human{Problem: p, Runner: pool}
	model := &mcptest.Model{Problem: p}
	cs := connect(t, s, &mcp.ClientOptions{ElicitationHandler: human.Elicit, CreateMessageHandler: model.CreateMessage})
	codes := len(p.Candidates)
	var out ClarifyOutput
	if msg := call(t, cs, "clarify", SourceInput{Stub: p.Stub, Codes: codes, Tests: 4}, &out); msg != "" {
		t.Fatal(msg)
	}
	if out.Result == nil {
		t.Fatalf("no result: %+v", out)
	}
	calls := model.Calls()
	if calls["code"] != codes || calls["tests"] != 4 {
		t.Errorf("sampling requests %v, want %d code and 4 tests", calls, codes)
	}
	if out.Result.Task.Source != "spec" || len(human.Asked()) == 0 {
		t.Errorf("task %+v after %d questions", out.Result.Task, len(human.Asked()))
	}
	checkHidden(t, cs, p, out.Result.Code)

	// Without sampling and without a model, a stub cannot be clarified.
	plain := connect(t, s, nil)
	if msg := call(t, plain, "clarify", SourceInput{Stub: p.Stub}, nil); !strings.Contains(msg, "--model") || !strings.Contains(msg, "sampling") {
		t.Errorf("clarify of a stub with no model: %q", msg)
	}
}

// TestCancel cancels clarify while the human is being asked: the call ends
// with the cancellation, the server withdraws its question (the client's
// elicitation handler sees its context end), and the server goes on
// serving.
func TestCancel(t *testing.T) {
	pool := testutil.Pool(t)
	s := newTestServer(t, pool, Options{})
	asked, withdrawn := make(chan struct{}, 1), make(chan struct{}, 1)
	cs := connect(t, s, &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked <- struct{}{}
		<-ctx.Done()
		withdrawn <- struct{}{}
		return nil, ctx.Err()
	}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "clarify", Arguments: SourceInput{Demo: "text_match"}})
		errc <- err
	}()
	testutil.Receive(t, asked, callTimeout, "the first question")
	cancel()
	if err := testutil.Receive(t, errc, time.Minute, "clarify to return after cancellation"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled clarify returned %v, want context.Canceled", err)
	}
	testutil.Receive(t, withdrawn, time.Minute, "the server to withdraw its question")
	var st State
	if msg := call(t, cs, "start_clarification", SourceInput{Demo: "median"}, &st); msg != "" || st.Question == nil {
		t.Errorf("after a cancelled call the server does not serve: %q %+v", msg, st)
	}
}

// TestClarifyDeclined: a human who declines the first question ends the
// questions; clarify still returns the best-ranked code, with no answer to
// explain, and says why the questions ended.
func TestClarifyDeclined(t *testing.T) {
	s := newTestServer(t, testutil.Pool(t), Options{})
	for _, action := range []string{"decline", "cancel"} {
		t.Run(action, func(t *testing.T) {
			cs := connect(t, s, &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: action}, nil
			}})
			var out ClarifyOutput
			if msg := call(t, cs, "clarify", SourceInput{Demo: "median"}, &out); msg != "" {
				t.Fatal(msg)
			}
			r := out.Result
			if r == nil || len(r.Explanation) != 0 || !strings.Contains(r.Stop, "ended the questions") || !strings.Contains(r.Code, "def median") || len(r.Ranked) == 0 {
				t.Errorf("after %s: %+v", action, out)
			}
		})
	}
}
