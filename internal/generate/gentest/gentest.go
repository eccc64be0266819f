package gentest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ticoder/ticoder/internal/dataset"
	"github.com/ticoder/ticoder/internal/llm"
	"github.com/ticoder/ticoder/internal/testutil"
)

// Dataset is the fixture dataset the recordings are of.
const Dataset = "humaneval-noexamples"

// Replay returns the fixture problems named by ids (in the dataset's
// order), the model selector of their recorded samples (replay:DIR) and a
// provider that replays them as completions.
func Replay(t testing.TB, ids ...string) ([]dataset.Problem, string, llm.Provider) {
	t.Helper()
	dir := testutil.Fixtures(t)
	ds, err := dataset.Load(context.Background(), dir, Dataset)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := ds.Select(ids)
	if err != nil {
		t.Fatal(err)
	}
	model := "replay:" + filepath.Join(dir, "samples", "humaneval-codegen16b")
	prov, err := llm.OpenString(model, llm.Options{Style: llm.StyleCompletion})
	if err != nil {
		t.Fatal(err)
	}
	return ps, model, prov
}
