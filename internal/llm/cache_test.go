package llm_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/store"
	"github.com/ticoder/ticoder/internal/testutil"
)

func openDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// cached opens a cached vLLM client on srv's URL (or url when srv is nil).
func cached(t *testing.T, db *sql.DB, url string, offline bool) *llm.Cache {
	t.Helper()
	p, err := llm.Open(llm.Spec{Kind: llm.KindVLLM, Model: "m", BaseURL: url}, llm.Options{
		Cache: db, Offline: offline, Style: llm.StyleCompletion, Retry: llm.Retry{Attempts: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p.(*llm.Cache)
}

func taskN(i int) llm.Task {
	return llm.Task{ID: fmt.Sprintf("T/%d", i), EntryPoint: fmt.Sprintf("f%d", i),
		Prompt: fmt.Sprintf("def f%d(x):\n    \"\"\"Return x plus %d.\"\"\"\n", i, i)}
}

func TestCacheServesRepeatsWithoutHTTP(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{})
	db := openDB(t, filepath.Join(t.TempDir(), "cache.db"))
	c := cached(t, db, srv.URL, false)
	ctx := context.Background()
	req := llm.Request{Purpose: llm.PurposeCode, Task: taskN(1), Params: llm.Params{N: 3, Temperature: 0.8, TopP: 0.95}}

	first, err := c.Generate(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Generate(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if first.Cached || !second.Cached {
		t.Errorf("cached flags = %v, %v; want false, true", first.Cached, second.Cached)
	}
	second.Cached = false
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("cached generation differs (-first +second):\n%s", diff)
	}
	if n := srv.Count(""); n != 1 {
		t.Errorf("server saw %d calls, want 1 (the repeat is cached)", n)
	}

	// Every sampling parameter is part of the key.
	variants := []llm.Params{
		{N: 4, Temperature: 0.8, TopP: 0.95},
		{N: 3, Temperature: 0.7, TopP: 0.95},
		{N: 3, Temperature: 0.8, TopP: 0.9},
		{N: 3, Temperature: 0.8, TopP: 0.95, MaxTokens: 100},
		{N: 3, Temperature: 0.8, TopP: 0.95, Stop: []string{"\n\n"}},
		{N: 3, Temperature: 0.8, TopP: 0.95, Seed: ptr(1)},
	}
	for _, params := range variants {
		r := req
		r.Params = params
		if g, err := c.Generate(ctx, r); err != nil || g.Cached {
			t.Errorf("params %+v: cached=%v err=%v, want a fresh request", params, g != nil && g.Cached, err)
		}
	}
	if got, want := c.Stats(), (llm.CacheStats{Hits: 1, Misses: 7}); got != want {
		t.Errorf("stats = %+v, want %+v", got, want)
	}
}

func TestCacheSharedBetweenHandles(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{})
	path := filepath.Join(t.TempDir(), "cache.db")
	writer := cached(t, openDB(t, path), srv.URL, false)
	reader := cached(t, openDB(t, path), srv.URL, true) // a second *sql.DB, offline
	ctx := context.Background()
	req := llm.Request{Purpose: llm.PurposeTests, Task: taskN(2), Params: llm.Params{N: 5, Temperature: 0.8}}
	want, err := writer.Generate(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := reader.Generate(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Texts(), got.Texts()); diff != "" {
		t.Errorf("texts (-writer +reader):\n%s", diff)
	}
	if n := srv.Count(""); n != 1 {
		t.Errorf("server saw %d calls, want 1", n)
	}
}

func TestCacheOfflineMiss(t *testing.T) {
	db := openDB(t, filepath.Join(t.TempDir(), "cache.db"))
	c := cached(t, db, "http://127.0.0.1:1/v1", true)
	_, err := c.Generate(context.Background(), llm.Request{Purpose: llm.PurposeCode, Task: taskN(7), Params: llm.Params{N: 2}})
	if !errors.Is(err, llm.ErrCacheMiss) {
		t.Fatalf("err = %v, want ErrCacheMiss", err)
	}
	assertOneLine(t, err, "offline", "vllm:m@http://127.0.0.1:1/v1", "T/7", "def f7(x):", "key ", "run once online")
	if _, err := c.TopLogprobs(context.Background(), llm.Request{Prompt: "Correct?"}, 2); !errors.Is(err, llm.ErrCacheMiss) {
		t.Errorf("logprobs err = %v, want ErrCacheMiss", err)
	}
	if _, err := c.Embed(context.Background(), []string{"x"}); !errors.Is(err, llm.ErrCacheMiss) {
		t.Errorf("embed err = %v, want ErrCacheMiss", err)
	}
	if s := c.Stats(); s.Misses != 3 || s.Hits != 0 {
		t.Errorf("stats = %+v", s)
	}
	if _, err := llm.Open(llm.Spec{Kind: llm.KindVLLM, Model: "m"}, llm.Options{Offline: true}); err == nil {
		t.Error("offline without a cache was accepted")
	}
}

func TestCacheLogprobsAndEmbeddings(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{})
	c := cached(t, openDB(t, filepath.Join(t.TempDir(), "cache.db")), srv.URL, false)
	ctx := context.Background()
	judge := llm.Request{Messages: []llm.Message{{Role: "user", Content: "Is this code correct? yes or no"}}}
	a, err := c.TopLogprobs(ctx, judge, 2)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.TopLogprobs(ctx, judge, 2)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, b); diff != "" || srv.Count("chat") != 1 {
		t.Errorf("logprobs not served from the cache (calls %d):\n%s", srv.Count("chat"), diff)
	}

	if _, err := c.Embed(ctx, []string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	got, err := c.Embed(ctx, []string{"b", "c", "a"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]float32{llmtest.Vector("b"), llmtest.Vector("c"), llmtest.Vector("a")}, got); diff != "" {
		t.Errorf("embeddings (-want +got):\n%s", diff)
	}
	calls := srv.Calls()
	last := calls[len(calls)-1]
	if diff := cmp.Diff([]string{"c"}, last.Input); diff != "" || srv.Count("embeddings") != 2 {
		t.Errorf("second embeddings call should ask only for the missing text (-want +got):\n%s", diff)
	}
}

func TestCacheConcurrentWriters(t *testing.T) {
	var mu sync.Mutex
	counter := 0
	srv := llmtest.New(t, llmtest.Config{Respond: func(llmtest.Call) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		counter++
		return llmtest.Reply{Texts: []string{fmt.Sprintf("answer %d", counter)}}
	}})
	path := filepath.Join(t.TempDir(), "cache.db")
	caches := []*llm.Cache{cached(t, openDB(t, path), srv.URL, false), cached(t, openDB(t, path), srv.URL, false)}
	const workers, tasks = 8, 10
	results := make([][]string, workers)
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			c := caches[w%2]
			for i := range tasks {
				g, err := c.Generate(context.Background(), llm.Request{Purpose: llm.PurposeCode, Task: taskN(i)})
				if err != nil {
					errs <- err
					return
				}
				results[w] = append(results[w], g.Texts()[0])
			}
		})
	}
	testutil.Wait(t, &wg, 2*time.Minute, "the workers' requests")
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// Whoever wrote a key first, every worker sees the same stored answer.
	for w := 1; w < workers; w++ {
		if diff := cmp.Diff(results[0], results[w]); diff != "" {
			t.Errorf("worker %d saw other answers than worker 0 (-0 +%d):\n%s", w, w, diff)
		}
	}
	checkCacheFile(t, path, tasks)
}

// checkCacheFile opens the database afresh and checks its integrity, that
// it holds want rows (want < 0: any number) and that every row decodes.
func checkCacheFile(t *testing.T, path string, want int) int {
	t.Helper()
	db := openDB(t, path)
	var ok string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check = %q, %v", ok, err)
	}
	rows, err := db.Query(`SELECT key, response FROM llm_responses`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var key, resp string
		if err := rows.Scan(&key, &resp); err != nil {
			t.Fatal(err)
		}
		var g llm.Generation
		if err := json.Unmarshal([]byte(resp), &g); err != nil || len(g.Choices) == 0 {
			t.Errorf("row %s does not decode: %v", key, err)
		}
		n++
	}
	if want >= 0 && n != want {
		t.Errorf("cache holds %d rows, want %d", n, want)
	}
	return n
}

// Environment of the helper process that TestCacheAcrossProcesses starts
// from this test binary.
const (
	helperDB   = "LLMTEST_CACHE_DB"
	helperURL  = "LLMTEST_CACHE_URL"
	helperMode = "LLMTEST_CACHE_MODE"
)

// TestCacheHelperProcess is not a test: it is the child process of
// TestCacheAcrossProcesses. It does nothing unless the helper environment
// is set.
func TestCacheHelperProcess(t *testing.T) {
	path := os.Getenv(helperDB)
	if path == "" {
		t.Skip("helper process only")
	}
	url := os.Getenv(helperURL)
	if url == "" {
		url = llmtest.New(t, llmtest.Config{}).URL
	}
	c := cached(t, openDB(t, path), url, false)
	limit := 5
	if os.Getenv(helperMode) == "forever" {
		limit = 1 << 30 // until killed
	}
	for i := range limit {
		if _, err := c.Generate(context.Background(), llm.Request{Purpose: llm.PurposeCode, Task: taskN(i), Params: llm.Params{N: 4}}); err != nil {
			t.Fatal(err)
		}
	}
}

func helper(t *testing.T, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCacheHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

func TestCacheAcrossProcesses(t *testing.T) {
	srv := llmtest.New(t, llmtest.Config{})
	path := filepath.Join(t.TempDir(), "cache.db")
	if out, err := helper(t, helperDB+"="+path, helperURL+"="+srv.URL).CombinedOutput(); err != nil {
		t.Fatalf("helper process: %v\n%s", err, out)
	}
	filled := srv.Count("")
	if filled != 5 {
		t.Fatalf("helper made %d calls, want 5", filled)
	}
	// This process, offline, is served entirely by what the child wrote.
	c := cached(t, openDB(t, path), srv.URL, true)
	for i := range 5 {
		if _, err := c.Generate(context.Background(), llm.Request{Purpose: llm.PurposeCode, Task: taskN(i), Params: llm.Params{N: 4}}); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Count(""); n != filled {
		t.Errorf("the second process made %d HTTP calls, want 0", n-filled)
	}
}

func TestCacheSurvivesKilledWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	cmd := helper(t, helperDB+"="+path, helperMode+"=forever")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	db := openDB(t, path)
	deadline := time.Now().Add(60 * time.Second)
	for {
		var n int
		err := db.QueryRow(`SELECT count(*) FROM llm_responses`).Scan(&n)
		if err == nil && n >= 30 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("helper exited early: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("helper wrote too little in 60s (last count %d, %v)", n, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL, mid-run
		t.Fatal(err)
	}
	testutil.Receive(t, done, time.Minute, "the killed helper process to exit")
	if n := checkCacheFile(t, path, -1); n < 30 {
		t.Errorf("cache holds %d rows after the kill, want at least the 30 seen before", n)
	}
}
