package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvRequireData is the environment variable that, set to 1, makes a test
// that needs the full benchmark data fail when the data is missing instead
// of skipping (CI sets it).
const EnvRequireData = "TICODER_REQUIRE_DATA"

// envFullData names the full data directory, as it does for ticoder itself.
const envFullData = "TICODER_DATA"

// Recorded is the directory of the recorded CodeGen-16B samples inside a
// data directory.
const Recorded = "samples/humaneval-codegen16b"

// FixtureTasks lists the task ids of the rows each file of the fixtures
// holds, in file order, by the file's path inside the data directory. The
// rows are copied unchanged from the full data (TestFixtures checks this,
// and regenerates the files with -update); the samples files hold the rows
// of the listed problems.
var FixtureTasks = map[string][]string{
	"humaneval/HumanEval.jsonl.gz":         fixtureHumanEval,
	"humaneval/HumanEval-noexamples.jsonl": fixtureHumanEval,
	"mbpp/mbpp.jsonl":                      {"Mbpp/1", "Mbpp/2", "Mbpp/367"},
	"mbpp/sanitized-mbpp.json":             {"Mbpp/2", "Mbpp/82", "Mbpp/751"},
	"mbjp/mbjp_release_v1.2.jsonl":         {"MBJP/1", "MBJP/2", "MBJP/40", "MBJP/106"},
	"humanevalplus/HumanEvalPlus.jsonl.gz": {"HumanEval/2", "HumanEval/32", "HumanEval/55", "HumanEval/63"},
	"mbppplus/MbppPlus.jsonl.gz":           {"Mbpp/2", "Mbpp/124", "Mbpp/404", "Mbpp/737", "Mbpp/793"},
	Recorded + "/test-prompts.jsonl":       fixtureRecorded,
	Recorded + "/codes.jsonl":              fixtureRecorded,
	Recorded + "/tests.jsonl":              fixtureRecorded,
}

var (
	fixtureHumanEval = []string{"HumanEval/0", "HumanEval/1", "HumanEval/2", "HumanEval/3", "HumanEval/7",
		"HumanEval/38", "HumanEval/53", "HumanEval/85", "HumanEval/115", "HumanEval/161"}
	fixtureRecorded = []string{"HumanEval/0", "HumanEval/2", "HumanEval/53", "HumanEval/85", "HumanEval/161"}
)

// Fixtures returns the directory of the small data set committed with the
// tests (testdata/ beside this file): a few HumanEval and MBPP problems and
// the recorded samples of some of them, laid out like the full data
// directory. FixtureTasks lists what it holds; its README.md gives the
// sources and licences.
func Fixtures(t testing.TB) string {
	t.Helper()
	return filepath.Join(RepoRoot(t), "internal", "testutil", "testdata")
}

// FullData returns the directory of the full benchmark data:
// $TICODER_DATA if set, else ../shared/data beside the repository root.
// need lists the files the test reads, as paths inside that directory. If
// the directory or one of them is missing, FullData skips the test with a
// one-line reason, or fails it when $TICODER_REQUIRE_DATA is 1.
func FullData(t testing.TB, need ...string) string {
	t.Helper()
	dir := os.Getenv(envFullData)
	if dir == "" {
		dir = filepath.Join(RepoRoot(t), "..", "shared", "data")
	}
	missing := ""
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		missing = dir
	}
	for _, f := range need {
		if missing != "" {
			break
		}
		p := filepath.Join(dir, filepath.FromSlash(f))
		if _, err := os.Stat(p); err != nil {
			missing = p
		}
	}
	if missing == "" {
		return dir
	}
	msg := fmt.Sprintf("needs the full benchmark data in ../shared/data or $%s: %s is missing", envFullData, missing)
	if os.Getenv(EnvRequireData) == "1" {
		t.Fatalf("%s ($%s=1)", msg, EnvRequireData)
	}
	t.Skipf("%s (set $%s=1 to fail instead)", msg, EnvRequireData)
	return ""
}

// Data is a data directory a test runs on.
type Data struct {
	// Dir is laid out like the full data directory.
	Dir string
	// Full is true for the full benchmark data, false for the fixtures.
	Full bool
}

// ForEachData runs f as two subtests: "fixtures" on the committed fixtures,
// which runs anywhere, and "full" on the full benchmark data, which needs
// the files in need and skips or fails as FullData does without them.
func ForEachData(t *testing.T, f func(t *testing.T, d Data), need ...string) {
	t.Helper()
	t.Run("fixtures", func(t *testing.T) { f(t, Data{Dir: Fixtures(t)}) })
	t.Run("full", func(t *testing.T) {
		t.Helper()
		f(t, Data{Dir: FullData(t, need...), Full: true})
	})
}
