package eval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResume(t *testing.T) {
	base := Settings{Dataset: "humaneval", Model: "replay:x", Config: Config{MaxQuestions: 5, Seed: 1}, Extra: map[string]string{"codes": "100"}}
	other := base
	other.Config.MaxQuestions = 2
	other.Extra = map[string]string{"codes": "20"}

	dir := t.TempDir()
	if got, err := Resume(dir, base); err != nil || len(got) != 0 {
		t.Fatalf("an empty directory: %v, %v; want nothing", got, err)
	}
	if err := WriteSettings(dir, base); err != nil {
		t.Fatal(err)
	}
	app, err := OpenAppender(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"A", "B"} {
		if err := app.Append(Result{ID: id, Config: base.Hash()}); err != nil {
			t.Fatal(err)
		}
	}
	app.Close()

	got, err := Resume(dir, base)
	if err != nil || len(got) != 2 {
		t.Errorf("same settings: %d results, %v; want 2", len(got), err)
	}
	_, err = Resume(dir, other)
	var e *OtherSettingsError
	if !errors.Is(err, ErrOtherSettings) || !errors.As(err, &e) {
		t.Fatalf("other settings: %v, want an OtherSettingsError", err)
	}
	if diff := cmp.Diff([]string{"codes: 100 → 20", "max_questions: 5 → 2"}, e.Changes); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if !strings.Contains(err.Error(), "2 results under settings "+base.Hash()) {
		t.Errorf("message %q does not count the results held", err)
	}

	// Without settings.json the refusal still comes, without the changes.
	if err := os.Remove(filepath.Join(dir, SettingsFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(dir, other); !errors.As(err, &e) || len(e.Changes) != 0 {
		t.Errorf("without settings.json: %v", err)
	}
}

func TestLeaveOutLargeK(t *testing.T) {
	s := Summary{Baseline: map[int]float64{1: 0.2, 10: 0.5, 100: 0.7}, Extracted: map[int]float64{1: 0.2, 10: 0.5, 100: 0.7}}
	omitted, least := s.LeaveOutLargeK([]Result{{Samples: 20}, {Samples: 30}})
	if diff := cmp.Diff([]int{100}, omitted); diff != "" || least != 20 {
		t.Errorf("omitted (-want +got):\n%s; least %d, want 20", diff, least)
	}
	if _, ok := s.Baseline[100]; ok {
		t.Error("baseline pass@100 kept for 20 samples")
	}
	if _, ok := s.Extracted[100]; ok {
		t.Error("extracted pass@100 kept for 20 samples")
	}
	if s.Baseline[10] != 0.5 {
		t.Error("baseline pass@10 removed")
	}
}
