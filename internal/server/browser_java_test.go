package server

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/execute/jvm"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/session"
)

// TestBrowserJavaDemo answers the Java demo min_cost in a real browser by
// its labels: the questions are Java calls, the candidates run in the JVM
// worker, and the page shows the chosen class and a JUnit 5 class of the
// approved tests, run against it in the sandbox when JUnit is installed.
func TestBrowserJavaDemo(t *testing.T) {
	ctx := newBrowser(t)
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK (install openjdk-17-jdk-headless)")
	}
	jp, err := jvm.NewPool(context.Background(), execute.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = jp.Close() })
	pool := testPool(t)
	b := &interact.Builder{Runner: pool, Runners: func(language string) execute.Runner {
		if language == "java" {
			return jp
		}
		return pool
	}}
	_, hs := serve(t, pool, Options{Token: testToken, Builder: b, Defaults: interact.Options{Questions: session.TestsOnly}})
	p, _ := demo.Get("min_cost")

	step(t, ctx, "open the page and start the Java demo", chromedp.Navigate(hs.URL+"/?token="+testToken),
		chromedp.WaitVisible(chromedp.ID("demo-min_cost")),
		chromedp.Click(chromedp.ID("demo-min_cost")),
		chromedp.WaitVisible(chromedp.ID("question")))
	if q := value[string](t, ctx, "state.question.prompt"); !strings.HasPrefix(q, "MinCost.minCost(new int[][] {{") || !strings.HasSuffix(q, " ?") {
		t.Errorf("question %q is not a Java call", q)
	}
	screenshot(t, ctx, "java-1-question.png")
	for n := 0; ; n++ {
		if value[bool](t, ctx, "state.done") {
			break
		}
		if n > len(p.Tests) {
			t.Fatal("more questions than tests")
		}
		button := "btn-pass"
		switch p.TestLabels[value[int](t, ctx, "state.question.test")] {
		case demo.Wrong:
			button = "btn-fail"
		case demo.Undefined:
			button = "btn-undefined"
		}
		step(t, ctx, "answer question "+itoa(int64(n+1)), chromedp.Click(chromedp.ID(button)),
			chromedp.Poll[chromedp.Void]("state.history.length === "+itoa(int64(n+1)), chromedp.WithPollingTimeout(60*time.Second)))
	}
	step(t, ctx, "final view", chromedp.WaitVisible(chromedp.ID("final")),
		chromedp.Poll[chromedp.Void]("document.getElementById('check').textContent.length > 0", chromedp.WithPollingTimeout(90*time.Second)))
	idx := value[int](t, ctx, "state.candidates[0].index")
	if p.CandidateLabels[idx] != demo.Correct {
		t.Errorf("top candidate %d is %s", idx, p.CandidateLabels[idx])
	}
	code := value[string](t, ctx, "document.getElementById('export-code').textContent")
	tests := value[string](t, ctx, "document.getElementById('export-tests').textContent")
	if !strings.Contains(code, "class MinCost") || !strings.Contains(tests, "class MinCostTest") || !strings.Contains(tests, "assertEquals(") {
		t.Errorf("export:\n%s\n%s", code, tests)
	}
	for _, h := range value[[]string](t, ctx, "state.history.filter(h => h.verdict === 'pass').map(h => h.code)") {
		call, _, _ := strings.Cut(h, " == ")
		if !strings.Contains(tests, call) {
			t.Errorf("export lacks approved %q:\n%s", h, tests)
		}
	}
	check := value[string](t, ctx, "document.getElementById('check').textContent")
	want := "pass against this code"
	if _, err := jvm.JUnitJar(); err != nil {
		want = "Not run in the sandbox"
	}
	if !strings.Contains(check, want) {
		t.Errorf("check line %q, want %q", check, want)
	}
	dl, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		"fetch(document.getElementById('dl-tests').href).then(r => r.status + ' ' + r.headers.get('content-disposition'))",
		chromedp.EvalAwaitPromise))
	if err != nil || dl != "200 attachment; filename=MinCostTest.java" {
		t.Errorf("download of the tests: %q, %v", dl, err)
	}
	screenshot(t, ctx, "java-2-end.png")
}

// TestCreateJavaSpecErrors: a Java spec that is no usable stub, and an
// unknown language, are 400s that say why.
func TestCreateJavaSpecErrors(t *testing.T) {
	ctx := context.Background()
	_, c := newServer(t, testPool(t), Options{})
	cases := []struct {
		req  api.CreateSession
		want string
	}{
		{api.CreateSession{Spec: "int x;", Language: "java"}, "declares no class"},
		{api.CreateSession{Spec: "class A { void f() {} }", Language: "java"}, "no static method"},
		{api.CreateSession{Spec: "def f(x):\n    pass\n", Language: "cobol"}, "unknown language"},
	}
	for _, tc := range cases {
		_, err := c.Create(ctx, tc.req)
		var ae *api.StatusError
		if !errors.As(err, &ae) || ae.Status != 400 || !strings.Contains(ae.Message, tc.want) {
			t.Errorf("create %+v: %v; want a 400 saying %q", tc.req, err, tc.want)
		}
	}
}
