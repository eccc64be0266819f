package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/testutil"
)

// runRoot runs the ticoder command line with args and returns its output.
func runRoot(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRootCommand()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

func TestDataFetchListVerify(t *testing.T) {
	// The mirror serves the published files, which match the pinned checksums.
	var files []string
	for _, spec := range dataset.Downloads() {
		files = append(files, spec.File)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(testutil.FullData(t, files...))))
	defer srv.Close()
	dir := t.TempDir()

	out, err := runRoot(t, "data", "fetch", "--data-dir", dir, "--base-url", srv.URL, "humaneval", "mbpp-sanitized")
	if err != nil {
		t.Fatalf("fetch: %v\n%s", err, out)
	}
	for _, want := range []string{"humaneval: downloaded 44877 bytes from " + srv.URL + "/humaneval/HumanEval.jsonl.gz, checksum ok", "mbpp-sanitized: downloaded"} {
		if !strings.Contains(out, want) {
			t.Errorf("fetch output lacks %q:\n%s", want, out)
		}
	}

	out, err = runRoot(t, "data", "list", "--data-dir", dir, "--json")
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	type row struct {
		Name       string `json:"name"`
		Present    bool   `json:"present"`
		ChecksumOK bool   `json:"checksum_ok"`
		Rows       int    `json:"rows"`
	}
	var list []row
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("list --json output %q: %v", out, err)
	}
	want := []row{
		{"humaneval", true, true, 164},
		{"humaneval-noexamples", false, false, 0},
		{"mbpp", false, false, 0},
		{"mbpp-sanitized", true, true, 427},
		{"humanevalplus", false, false, 0},
		{"mbppplus", false, false, 0},
		{"mbjp", false, false, 0},
		{"codegen16b-codes", false, false, 0},
		{"codegen16b-tests", false, false, 0},
		{"codegen16b-test-prompts", false, false, 0},
	}
	if diff := cmp.Diff(want, list); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}

	out, err = runRoot(t, "data", "list", "--data-dir", dir)
	if err != nil || !regexp.MustCompile(`\nhumaneval +yes +164 +ok`).MatchString(out) || !regexp.MustCompile(`\nmbpp +no +- +-`).MatchString(out) {
		t.Errorf("list table: %v\n%s", err, out)
	}

	out, err = runRoot(t, "data", "verify", "--data-dir", dir)
	if err != nil || !strings.Contains(out, "humaneval: ok (164 rows") || !strings.Contains(out, "mbpp: not present (skipped)") {
		t.Errorf("verify: %v\n%s", err, out)
	}
	// A named dataset that is missing fails verification.
	if out, err := runRoot(t, "data", "verify", "--data-dir", dir, "mbpp"); err == nil || !strings.Contains(out, "mbpp: BAD: missing") {
		t.Errorf("verify of a missing dataset: %v\n%s", err, out)
	}

	// Tampering is caught by verify and list, and repaired by fetch.
	spec, _ := dataset.Lookup("mbpp-sanitized")
	if err := os.WriteFile(spec.Path(dir), []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = runRoot(t, "data", "verify", "--data-dir", dir)
	if err == nil || !strings.Contains(out, "mbpp-sanitized: BAD: SHA-256 mismatch") || !strings.Contains(err.Error(), `run "ticoder data fetch mbpp-sanitized"`) {
		t.Errorf("verify of a tampered file: %v\n%s", err, out)
	}
	if out, _ := runRoot(t, "data", "list", "--data-dir", dir); !strings.Contains(out, "mismatch") {
		t.Errorf("list of a tampered file:\n%s", out)
	}
	out, err = runRoot(t, "data", "fetch", "--data-dir", dir, "--base-url", srv.URL)
	if err != nil || !strings.Contains(out, "humaneval: already present") || !strings.Contains(out, "mbpp-sanitized: downloaded") {
		t.Errorf("fetch all: %v\n%s", err, out)
	}
	if _, err := runRoot(t, "data", "verify", "--data-dir", dir); err != nil {
		t.Errorf("verify after repair: %v", err)
	}
	// The recorded samples came with "all", and are checked row by row.
	out, err = runRoot(t, "data", "verify", "--data-dir", dir, "codegen16b-codes", "codegen16b-test-prompts")
	if err != nil || !strings.Contains(out, "codegen16b-codes: ok (164 rows") || !strings.Contains(out, "codegen16b-test-prompts: ok (164 rows") {
		t.Errorf("verify of the recorded samples: %v\n%s", err, out)
	}
	codes, _ := dataset.LookupDownload("codegen16b-codes")
	if err := os.WriteFile(codes.Path(dir), []byte(`{"prompt": "def f():\n", "samples": []}`+"\n[1]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ = runRoot(t, "data", "list", "--data-dir", dir)
	if !strings.Contains(out, "codegen16b-codes: SHA-256 mismatch") {
		t.Errorf("list of a damaged samples file:\n%s", out)
	}
}

func TestDataFetchErrors(t *testing.T) {
	// A mirror whose copy differs from the pinned checksum.
	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, "mbpp"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "mbpp", "mbpp.jsonl"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(bad)))
	defer srv.Close()
	dir := t.TempDir()
	var out bytes.Buffer
	err := runDataFetch(context.Background(), &out, &dataset.Fetcher{Client: srv.Client(), BaseURL: srv.URL}, dir, []string{"mbpp"})
	if err == nil || !strings.Contains(out.String(), "mbpp: FAILED:") || !strings.Contains(out.String(), "SHA-256 mismatch") {
		t.Errorf("fetch from a bad mirror: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "mbpp", "mbpp.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("bad download was kept: %v", err)
	}

	// An unknown name is bad input (3), as in check --dataset.
	err = runDataFetch(context.Background(), &out, &dataset.Fetcher{}, dir, []string{"nope"})
	if !errors.Is(err, dataset.ErrUnknown) || exitClass(err) != exitBadInput || !strings.Contains(err.Error(), "humaneval-noexamples") {
		t.Errorf("unknown name: %v (exit %d)", err, exitClass(err))
	}
}
