package testutil

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ticoder/ticoder/internal/dataset"
)

var update = flag.Bool("update", false, "rewrite the fixtures from the full benchmark data")

// TestFixtures checks that every fixture file holds exactly the rows
// FixtureTasks lists, copied unchanged from the full data, in the full
// data's order; with -update it writes them.
func TestFixtures(t *testing.T) {
	var need []string
	for file := range FixtureTasks {
		need = append(need, file)
	}
	full := FullData(t, need...)
	fixtures := Fixtures(t)
	for file, ids := range FixtureTasks {
		t.Run(file, func(t *testing.T) {
			want := fixtureRows(t, full, file, ids)
			path := filepath.Join(fixtures, filepath.FromSlash(file))
			if *update {
				writeFixture(t, path, want)
				return
			}
			got := readMaybeGzip(t, path)
			if !bytes.Equal(want, got) {
				t.Errorf("%s differs from the rows of %s it copies (go test ./internal/testutil -run TestFixtures -update rewrites it)", path, file)
			}
		})
	}
}

// fixtureRows returns the rows of the full data file that hold ids, in the
// file's order and format (decompressed).
func fixtureRows(t *testing.T, full, file string, ids []string) []byte {
	t.Helper()
	data := readMaybeGzip(t, filepath.Join(full, filepath.FromSlash(file)))
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	// The samples rows carry no task id: they are found by their prompts.
	var prompts map[string]bool
	switch file {
	case Recorded + "/codes.jsonl":
		prompts = promptsOf(t, full, "humaneval/HumanEval-noexamples.jsonl", want)
	case Recorded + "/tests.jsonl":
		prompts = promptsOf(t, full, Recorded+"/test-prompts.jsonl", want)
	}
	keep := func(raw []byte) bool {
		var row struct {
			TaskID json.RawMessage `json:"task_id"`
			Prompt string          `json:"prompt"`
		}
		err := json.Unmarshal(raw, &row)
		if fixed, ok := dataset.PythonConstants(raw); err != nil && ok { // MBPP+'s NaN
			err = json.Unmarshal(fixed, &row)
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if prompts != nil {
			return prompts[row.Prompt]
		}
		return want[taskID(row.TaskID)]
	}
	var rows [][]byte
	if strings.HasSuffix(file, ".json") { // a JSON array on one line
		var all []json.RawMessage
		if err := json.Unmarshal(data, &all); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, raw := range all {
			if keep(raw) {
				rows = append(rows, raw)
			}
		}
		if len(rows) != len(ids) {
			t.Fatalf("%s: found %d of the %d rows", file, len(rows), len(ids))
		}
		return append(append([]byte("["), bytes.Join(rows, []byte(", "))...), ']')
	}
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 && keep(line) {
			rows = append(rows, line)
		}
	}
	if len(rows) != len(ids) {
		t.Fatalf("%s: found %d of the %d rows", file, len(rows), len(ids))
	}
	return bytes.Join(rows, nil)
}

// taskID renders a raw task_id as the dataset loader names it: HumanEval's
// are strings, MBPP's numbers that become "Mbpp/N".
func taskID(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return "Mbpp/" + string(raw)
}

// promptsOf returns the prompts of the rows of a JSONL file whose task ids
// are in ids.
func promptsOf(t *testing.T, full, file string, ids map[string]bool) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(readMaybeGzip(t, filepath.Join(full, file)))), "\n") {
		var row struct {
			TaskID string `json:"task_id"`
			Prompt string `json:"prompt"`
		}
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if ids[row.TaskID] {
			out[row.Prompt] = true
		}
	}
	return out
}

// readMaybeGzip reads a file, decompressing it if its name ends in .gz.
func readMaybeGzip(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return b
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// writeFixture writes data to path, compressed if the name ends in .gz.
func writeFixture(t *testing.T, path string, data []byte) {
	t.Helper()
	if strings.HasSuffix(path, ".gz") {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(data)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		data = buf.Bytes()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fakeTB records how FullData ends a test.
type fakeTB struct {
	testing.TB
	skipped, failed string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Skipf(format string, args ...any) {
	f.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fullData calls FullData with a fake test in a goroutine of its own, as
// Skip and Fatal end the goroutine.
func fullData(t *testing.T, need ...string) (dir string, tb *fakeTB) {
	t.Helper()
	tb = &fakeTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		dir = FullData(tb, need...)
	}()
	Receive(t, done, time.Minute, "FullData to return")
	return dir, tb
}

func TestFullData(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "present.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, data, require  string
		need                 []string
		dir, skipped, failed string
	}{
		{name: "present", data: dir, need: []string{"present.jsonl"}, dir: dir},
		{name: "file missing", data: dir, need: []string{"present.jsonl", "cqe/x.jsonl"},
			skipped: "needs the full benchmark data in ../shared/data or $TICODER_DATA: " + filepath.Join(dir, "cqe", "x.jsonl") + " is missing (set $TICODER_REQUIRE_DATA=1 to fail instead)"},
		{name: "directory missing", data: filepath.Join(dir, "none"), require: "0",
			skipped: "needs the full benchmark data in ../shared/data or $TICODER_DATA: " + filepath.Join(dir, "none") + " is missing (set $TICODER_REQUIRE_DATA=1 to fail instead)"},
		{name: "required", data: filepath.Join(dir, "none"), require: "1",
			failed: "needs the full benchmark data in ../shared/data or $TICODER_DATA: " + filepath.Join(dir, "none") + " is missing ($TICODER_REQUIRE_DATA=1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(envFullData, tc.data)
			t.Setenv(EnvRequireData, tc.require)
			got, tb := fullData(t, tc.need...)
			if got != tc.dir || tb.skipped != tc.skipped || tb.failed != tc.failed {
				t.Errorf("FullData = %q, skipped %q, failed %q\nwant %q, skipped %q, failed %q", got, tb.skipped, tb.failed, tc.dir, tc.skipped, tc.failed)
			}
		})
	}
}

func TestFixturesAreSmall(t *testing.T) {
	var total int64
	err := filepath.Walk(Fixtures(t), func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			total += info.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if total == 0 || total > 512<<10 {
		t.Errorf("the fixtures take %d bytes, want some and at most 512 KiB", total)
	}
}
