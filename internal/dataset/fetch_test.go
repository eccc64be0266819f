package dataset

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ticoder/ticoder/internal/testutil"
)

// mirror serves dir over loopback HTTP and counts requests.
func mirror(t *testing.T, dir string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestFetchAll(t *testing.T) {
	srv, hits := mirror(t, testutil.FullData(t, knownFiles()...))
	f := &Fetcher{Client: srv.Client(), BaseURL: srv.URL + "/"}
	dir := t.TempDir()
	ctx := context.Background()
	for _, spec := range Known() {
		t.Run(spec.Name, func(t *testing.T) {
			res, err := f.Fetch(ctx, dir, spec.Name)
			if err != nil {
				t.Fatal(err)
			}
			if res.Skipped || res.URL != srv.URL+"/"+spec.File || res.Path != spec.Path(dir) || res.Bytes == 0 {
				t.Errorf("result %+v", res)
			}
			st, err := Check(ctx, dir, spec.Name, true)
			if err != nil {
				t.Fatal(err)
			}
			if !st.OK() || st.Rows != spec.Rows {
				t.Errorf("status after fetch: %+v", st)
			}
			// A second fetch finds the file and downloads nothing.
			before := hits.Load()
			res, err = f.Fetch(ctx, dir, spec.Name)
			if err != nil || !res.Skipped || hits.Load() != before {
				t.Errorf("second fetch: %+v, %v, %d requests", res, err, hits.Load()-before)
			}
			if _, err := Load(ctx, dir, spec.Name); err != nil {
				t.Errorf("Load after fetch: %v", err)
			}
		})
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "*", ".*part"))
	if len(entries) != 0 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestFetchChecksumMismatch(t *testing.T) {
	// The mirror serves a file with the right name and the wrong content.
	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, "mbpp"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "mbpp", "mbpp.jsonl"), []byte("{\"tampered\": true}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, _ := mirror(t, bad)
	f := &Fetcher{Client: srv.Client(), BaseURL: srv.URL}
	dir := t.TempDir()

	// Whatever was there before survives a bad download untouched.
	spec, _ := Lookup("mbpp")
	if err := os.MkdirAll(filepath.Dir(spec.Path(dir)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(spec.Path(dir), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := f.Fetch(context.Background(), dir, "mbpp")
	if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), spec.SHA256) {
		t.Fatalf("Fetch: %v, want a checksum error naming the pinned hash", err)
	}
	if got, _ := os.ReadFile(spec.Path(dir)); string(got) != "old" {
		t.Errorf("previous file changed to %q", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "mbpp", ".*")); len(left) != 0 {
		t.Errorf("temporary files left after a mismatch: %v", left)
	}

	// Missing on the server: a clear HTTP error, nothing written.
	spec, _ = Lookup("humaneval-noexamples")
	_, err = f.Fetch(context.Background(), dir, spec.Name)
	if err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("Fetch of a file the server lacks: %v", err)
	}
	if _, err := os.Stat(spec.Path(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("file written despite the error: %v", err)
	}

	if _, err := f.Fetch(context.Background(), dir, "nope"); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown name: %v", err)
	}
}

func TestFetchReplacesCorruptFile(t *testing.T) {
	srv, _ := mirror(t, testutil.FullData(t, "mbpp/sanitized-mbpp.json"))
	f := &Fetcher{Client: srv.Client(), BaseURL: srv.URL}
	dir := t.TempDir()
	spec, _ := Lookup("mbpp-sanitized")
	if err := os.MkdirAll(filepath.Dir(spec.Path(dir)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(spec.Path(dir), []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Check(context.Background(), dir, spec.Name, true)
	if err != nil || st.OK() || !st.Present || st.ChecksumOK || !strings.Contains(st.Err, "SHA-256 mismatch") {
		t.Fatalf("status of a corrupt file: %+v, %v", st, err)
	}
	res, err := f.Fetch(context.Background(), dir, spec.Name)
	if err != nil || res.Skipped {
		t.Fatalf("Fetch: %+v, %v", res, err)
	}
	if st, _ := Check(context.Background(), dir, spec.Name, true); !st.OK() || st.Rows != 427 {
		t.Errorf("status after refetch: %+v", st)
	}
}

func TestCheckMissing(t *testing.T) {
	st, err := Check(context.Background(), t.TempDir(), "humaneval", true)
	if err != nil || st.Present || st.OK() || !strings.Contains(st.Err, "ticoder data fetch humaneval") {
		t.Errorf("status of a missing file: %+v, %v", st, err)
	}
}

func TestFetcherURL(t *testing.T) {
	spec, _ := Lookup("humaneval")
	var zero *Fetcher
	if got := zero.URL(spec); got != "https://raw.githubusercontent.com/openai/human-eval/master/data/HumanEval.jsonl.gz" {
		t.Errorf("default URL %q", got)
	}
	if got := (&Fetcher{BaseURL: "http://mirror/x/"}).URL(spec); got != "http://mirror/x/humaneval/HumanEval.jsonl.gz" {
		t.Errorf("mirror URL %q", got)
	}
}

func TestPinnedChecksumsMatchSharedData(t *testing.T) {
	// The pins agree with the SHA256SUMS of the shared data mirror.
	sums, err := os.ReadFile(filepath.Join(testutil.FullData(t, "SHA256SUMS"), "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range Known() {
		if !strings.Contains(string(sums), spec.SHA256+"  ./"+spec.File+"\n") {
			t.Errorf("%s: pinned %s for %s is not in SHA256SUMS", spec.Name, spec.SHA256, spec.File)
		}
	}
}

func TestCountSampleRows(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		rows       int
		bad        bool
	}{
		{"samples", `{"prompt": "def f():\n", "samples": ["  return 1\n"]}` + "\n" + `{"prompt": "def g():\n", "samples": []}` + "\n", 2, false},
		{"test prompts", `{"task_id": "HumanEval/0", "prompt": "assert "}` + "\n", 1, false},
		{"empty", "", 0, false},
		{"no prompt", `{"samples": []}` + "\n", 0, true},
		{"not an object", `{"prompt": "x"}` + "\n[1]\n", 1, true},
		{"truncated", `{"prompt": "x"`, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			n, err := countSampleRows(path)
			if n != tc.rows || (err != nil) != tc.bad {
				t.Errorf("countSampleRows = %d, %v; want %d rows, error %v", n, err, tc.rows, tc.bad)
			}
		})
	}
}
