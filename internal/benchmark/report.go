package benchmark

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ticoder/ticoder/internal/atomicfile"
	"github.com/ticoder/ticoder/internal/eval"
)

// writeReports writes summary.md, summary.csv, summary.json and the plots
// of results to cfg.Dir and returns the summary.
func writeReports(cfg Config, settings eval.Settings, results []eval.Result, failed, notApplicable []eval.ProblemError) (eval.Summary, error) {
	sum := eval.Summarize(results, settings.Config)
	sum.Title = fmt.Sprintf("TiCoder on %s with %s", cfg.Dataset, shortModel(cfg.Model))
	sum.Notes = []string{
		fmt.Sprintf("settings hash %s; %d code and %d test samples per problem; time limits: %s", settings.Hash(), cfg.Generate.Codes, cfg.Generate.Tests, cfg.Limits.Describe()),
		fmt.Sprintf("protect-correct: %s", map[bool]string{false: "off (strict only)", true: "strict and protect-correct runs both shown"}[slices.Contains(cfg.Eval.Protect, true)]),
		fmt.Sprintf("wall time of this invocation: %.1f s", time.Since(cfg.Started).Seconds()),
	}
	if omitted, least := sum.LeaveOutLargeK(results); len(omitted) > 0 {
		samples := fmt.Sprintf("%d samples", least)
		if least == 1 {
			samples = "1 sample"
		}
		sum.Notes = append(sum.Notes, fmt.Sprintf("baseline pass@k left out for k = %s: a problem has only %s, and pass@k needs at least k samples of every problem (as in OpenAI's harness)",
			joinInts(omitted), samples))
	}
	if cfg.Solutions != "" && cfg.Solutions != "dataset" {
		sum.Notes = append(sum.Notes, fmt.Sprintf("the simulated user answers by EvalPlus's corrected reference solutions where they pass the hidden tests, not by the dataset's: %s", cfg.Solutions))
	}
	if cfg.Contracts != "" && cfg.Contracts != "none" {
		sum.Notes = append(sum.Notes, fmt.Sprintf("the simulated user calls inputs outside the problems' input contracts invalid (undefined): %s", cfg.Contracts))
	}
	for _, f := range notApplicable {
		sum.Notes = append(sum.Notes, fmt.Sprintf("not applicable, left out of every figure: %s: %s", f.ID, f.Error))
	}
	for _, f := range failed {
		sum.Notes = append(sum.Notes, fmt.Sprintf("FAILED, left out of every figure (a rerun retries it): %s: %s", f.ID, f.Error))
	}
	files := map[string]func(io.Writer) error{
		"summary.md":   sum.Markdown,
		"summary.csv":  sum.CSV,
		"summary.json": func(w io.Writer) error { return writeJSON(w, sum) },
	}
	for name, write := range files {
		if err := atomicfile.Write(filepath.Join(cfg.Dir, name), write); err != nil {
			return sum, err
		}
	}
	if _, err := sum.Plot(cfg.Dir); err != nil {
		return sum, err
	}
	return sum, nil
}

// joinInts returns "10, 100".
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// shortModel shortens a replay:DIR model name to replay:BASE for titles.
func shortModel(model string) string {
	if dir, ok := strings.CutPrefix(model, "replay:"); ok {
		return "replay:" + filepath.Base(filepath.Clean(dir))
	}
	return model
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
