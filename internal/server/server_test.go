package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/api"
	"github.com/ticoder/ticoder/internal/demo"
	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/interact"
	"github.com/ticoder/ticoder/internal/sandbox"
	"github.com/ticoder/ticoder/internal/store"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

func testPool(t *testing.T) *execute.Pool { return testutil.Pool(t) }

// startServer serves a Server on the SQLite file dbPath and returns its
// URL's client and the httptest server (closed at cleanup).
func startServer(t *testing.T, pool *execute.Pool, dbPath string, gen interact.Generator) (*api.Client, *httptest.Server) {
	t.Helper()
	db, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := New(context.Background(), Options{
		Builder: &interact.Builder{Runner: pool, Generator: gen},
		Runner:  pool,
		DB:      db,
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	return api.NewClient(hs.URL, hs.Client()), hs
}

// newServer starts a server for a test with opts, filling in a sandboxed
// Builder and Runner on pool and a fresh database when they are not set.
func newServer(t *testing.T, pool *execute.Pool, opts Options) (*Server, *api.Client) {
	t.Helper()
	s, hs := serve(t, pool, opts)
	return s, api.NewClient(hs.URL, hs.Client())
}

// serve is newServer returning the httptest server (closed at cleanup)
// instead of a client.
func serve(t *testing.T, pool *execute.Pool, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	if opts.DB == nil {
		db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		opts.DB = db
	}
	if opts.Builder == nil {
		opts.Builder = &interact.Builder{Runner: pool}
	}
	if opts.Runner == nil {
		opts.Runner = pool
	}
	s, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	return s, hs
}

// labelAnswer is what a user who knows the intent answers, by the demo's
// labels; no label covers a synthesized question, which the reference
// answers (r runs it).
func labelAnswer(ctx context.Context, r execute.Runner, p demo.Problem, q *api.Question) (api.Answer, error) {
	if q.Synthesized {
		verdict, value, err := p.AnswerCall(ctx, r, "", q.Input, q.Expected, q.CanOutput)
		return api.Answer{Test: q.Test, Verdict: verdict, Value: value}, err
	}
	return labelOnly(p, q), nil
}

// labelOnly answers a generated test by the demo's labels.
func labelOnly(p demo.Problem, q *api.Question) api.Answer {
	switch p.TestLabels[q.Test] {
	case demo.Wrong:
		return api.Answer{Test: q.Test, Verdict: api.VerdictFail}
	case demo.Undefined:
		return api.Answer{Test: q.Test, Verdict: api.VerdictUndefined}
	}
	return api.Answer{Test: q.Test, Verdict: api.VerdictPass}
}

// finish answers every question of session id by the labels of demo p.
func finish(ctx context.Context, c *api.Client, r execute.Runner, p demo.Problem, s *api.Session) (*api.Session, error) {
	for n := 0; !s.Done; n++ {
		if n > len(p.Tests) {
			return nil, errors.New("more questions than tests")
		}
		before := s.Remaining.Samples
		a, err := labelAnswer(ctx, r, p, s.Question)
		if err != nil {
			return nil, err
		}
		if s, err = c.Answer(ctx, s.ID, a); err != nil {
			return nil, err
		}
		if s.Remaining.Samples > before {
			return nil, fmt.Errorf("candidates grew from %d to %d", before, s.Remaining.Samples)
		}
	}
	return s, nil
}

func TestCreateAnswerUndoExport(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	c, hs := startServer(t, pool, filepath.Join(t.TempDir(), "db.sqlite"), nil)
	p, _ := demo.Get("text_match")

	info, err := c.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Demos) < 8 || info.Model != "" {
		t.Errorf("info: %d demos, model %q", len(info.Demos), info.Model)
	}
	s0, err := c.Create(ctx, api.CreateSession{Demo: "text_match"})
	if err != nil {
		t.Fatal(err)
	}
	if s0.Question == nil || s0.Done || s0.Remaining != s0.Total || s0.Total.Samples != 19 {
		t.Fatalf("new session: %+v", s0)
	}
	a, err := labelAnswer(ctx, pool, p, s0.Question)
	if err != nil {
		t.Fatal(err)
	}
	s1, err := c.Answer(ctx, s0.ID, a)
	if err != nil {
		t.Fatal(err)
	}
	if s1.Remaining.Samples >= s0.Remaining.Samples || len(s1.History) != 1 {
		t.Errorf("after an answer: remaining %d (was %d), %d answers", s1.Remaining.Samples, s0.Remaining.Samples, len(s1.History))
	}
	undone, err := c.Undo(ctx, s0.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(s0, undone); d != "" {
		t.Errorf("undo did not restore the state (-want +got):\n%s", d)
	}
	end, err := finish(ctx, c, pool, p, undone)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := c.Export(ctx, end.ID, -1)
	if err != nil {
		t.Fatal(err)
	}
	if !ex.Checked || !ex.Passed || ex.CodeFile != "text_match.py" || ex.TestFile != "test_text_match.py" {
		t.Errorf("export: %+v", ex)
	}
	if p.CandidateLabels[ex.Candidate] != demo.Correct {
		t.Errorf("exported a buggy candidate: %s", p.CandidateNotes[ex.Candidate])
	}
	for _, h := range end.History {
		if h.Verdict == api.VerdictPass && !strings.Contains(ex.Tests, h.Code) {
			t.Errorf("approved test %q missing from the export:\n%s", h.Code, ex.Tests)
		}
	}
	resp, err := hs.Client().Get(hs.URL + "/api/sessions/" + end.ID + "/export?download=tests")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if got := resp.Header.Get("Content-Disposition"); got != `attachment; filename=test_text_match.py` || string(body) != ex.Tests {
		t.Errorf("download: disposition %q, body equal %v", got, string(body) == ex.Tests)
	}
	cands, err := c.Candidates(ctx, end.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(end.Candidates, cands); d != "" {
		t.Errorf("candidates endpoint differs from the state's (-state +endpoint):\n%s", d)
	}
}

func TestSessionsSurviveRestart(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	dbPath := filepath.Join(t.TempDir(), "db.sqlite")
	p, _ := demo.Get("second_largest")
	c1, hs1 := startServer(t, pool, dbPath, nil)
	s, err := c1.Create(ctx, api.CreateSession{Demo: p.Name, Mode: api.ModeOutput})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2 && !s.Done; i++ {
		a, err := labelAnswer(ctx, pool, p, s.Question)
		if err != nil {
			t.Fatal(err)
		}
		if s, err = c1.Answer(ctx, s.ID, a); err != nil {
			t.Fatal(err)
		}
	}
	hs1.Close()

	c2, _ := startServer(t, pool, dbPath, nil)
	got, err := c2.Session(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(s, got); d != "" {
		t.Errorf("state after restart (-before +after):\n%s", d)
	}
	if _, err := finish(ctx, c2, pool, p, got); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentSessions(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	c, _ := startServer(t, pool, filepath.Join(t.TempDir(), "db.sqlite"), nil)
	ps, _ := demo.List()
	var wg sync.WaitGroup
	errs := make([]error, len(ps))
	for i, p := range ps {
		wg.Go(func() {
			s, err := c.Create(ctx, api.CreateSession{Demo: p.Name})
			if err == nil {
				_, err = finish(ctx, c, pool, p, s)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("%s: %v", ps[i].Name, err)
		}
	}

	// The same answer sent twice at once is applied once; the other is told
	// the question is no longer open.
	s, err := c.Create(ctx, api.CreateSession{Demo: "median"})
	if err != nil {
		t.Fatal(err)
	}
	a := api.Answer{Test: s.Question.Test, Verdict: api.VerdictUndefined}
	results := make([]error, 4)
	for i := range results {
		wg.Go(func() { _, results[i] = c.Answer(ctx, s.ID, a) })
	}
	wg.Wait()
	ok := 0
	for _, err := range results {
		var se *api.StatusError
		switch {
		case err == nil:
			ok++
		case errors.As(err, &se) && se.Status == http.StatusConflict:
		default:
			t.Errorf("duplicate answer: %v", err)
		}
	}
	after, _ := c.Session(ctx, s.ID)
	if ok != 1 || len(after.History) != 1 {
		t.Errorf("%d duplicate answers accepted, history has %d", ok, len(after.History))
	}
}

// TestEviction keeps only MaxLive sessions in memory; the others reload
// from the database with their answers.
func TestEviction(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	s, c := newServer(t, pool, Options{MaxLive: 4})
	first, err := c.Create(ctx, api.CreateSession{Demo: "median"})
	if err != nil {
		t.Fatal(err)
	}
	if first, err = c.Answer(ctx, first.ID, api.Answer{Test: first.Question.Test, Verdict: api.VerdictUndefined}); err != nil {
		t.Fatal(err)
	}
	for range 6 {
		if _, err := c.Create(ctx, api.CreateSession{Demo: "median"}); err != nil {
			t.Fatal(err)
		}
	}
	s.mu.Lock()
	n, in := len(s.live), s.live[first.ID] != nil
	s.mu.Unlock()
	if n != 4 || in {
		t.Errorf("%d sessions in memory (want 4), first still in memory: %v", n, in)
	}
	got, err := c.Session(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(first, got); d != "" {
		t.Errorf("reloaded session (-want +got):\n%s", d)
	}
}

// TestCreationsWaitForATurn: with MaxBuilding creations under way, another
// one waits, and says the server is busy if its client gives up first.
func TestCreationsWaitForATurn(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	s, c := newServer(t, pool, Options{MaxBuilding: 1})
	s.building <- struct{}{} // one creation "under way"
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	_, err := c.Create(short, api.CreateSession{Demo: "median"})
	cancel()
	if err == nil {
		t.Fatal("a creation went ahead while the only turn was taken")
	}
	<-s.building
	if _, err := c.Create(ctx, api.CreateSession{Demo: "median"}); err != nil {
		t.Fatalf("creation after the turn was freed: %v", err)
	}
}

// TestConcurrentReloadsShareOneEntry: requests that reload the same evicted
// session at once end up on one in-memory entry, and release it.
func TestConcurrentReloadsShareOneEntry(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	s, c := newServer(t, pool, Options{MaxLive: 1})
	first, err := c.Create(ctx, api.CreateSession{Demo: "median"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Create(ctx, api.CreateSession{Demo: "median"}); err != nil { // evicts first
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			_, err := c.Session(ctx, first.ID)
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Errorf("reload: %v", err)
		}
	}
	s.mu.Lock()
	e := s.live[first.ID]
	refs := -1
	if e != nil {
		refs = e.refs
	}
	s.mu.Unlock()
	if e == nil || refs != 0 {
		t.Errorf("after the reloads: entry in memory %v, refs %d (want 0)", e != nil, refs)
	}
}

// TestKeepPrunesOldSessions: a server started with Keep deletes the stored
// sessions untouched for longer, and only those.
func TestKeepPrunesOldSessions(t *testing.T) {
	ctx := context.Background()
	pool := testPool(t)
	db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := newSessionStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"old", "new"} {
		if err := st.save(ctx, id, []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`UPDATE web_sessions SET updated = ? WHERE id = 'old'`, time.Now().Add(-48*time.Hour).Unix()); err != nil {
		t.Fatal(err)
	}
	newServer(t, pool, Options{DB: db, Keep: 24 * time.Hour})
	for id, want := range map[string]bool{"old": false, "new": true} {
		_, err := st.load(ctx, id)
		if got := err == nil; got != want {
			t.Errorf("session %s kept = %v (%v), want %v", id, got, err, want)
		}
	}
}
