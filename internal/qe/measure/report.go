package measure

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/estimate"
)

// Plan says which estimators an evaluation runs and how k is tuned.
type Plan struct {
	// Estimators are names accepted by Setup.New.
	Estimators []string
	// Ks are the k values tried on the dev split for estimators that
	// retrieve; the best global nDCG on dev wins (ties: the smaller k).
	// One value means no tuning.
	Ks []int
	// Alphas are the similarity variants run for estimators that retrieve.
	Alphas []estimate.Alpha
	// CutOff is the nDCG cut-off (0: none).
	CutOff int
	// Concurrency is how many problems are scored at once.
	Concurrency int
	// Progress receives per-problem progress.
	Progress progress.Reporter
	// PaperFigures adds the paper's Table 2 figures for HumanEval with
	// Codestral-22B (in-domain) beside ours.
	PaperFigures bool
}

// Row is one estimator (and α) in a report.
type Row struct {
	Estimator string `json:"estimator"`
	// Variant is the paper's name of α (FS-P, FS-PS, FS-S) for estimators
	// that retrieve, else "".
	Variant string   `json:"variant,omitempty"`
	Alpha   *float64 `json:"alpha,omitempty"`
	// K is the k used (tuned on dev when several were given); 0 for n/a.
	K int `json:"k,omitempty"`
	// Dev holds the dev-split G-nDCG of each k tried.
	Dev map[int]float64 `json:"dev_global_ndcg,omitempty"`
	Ranking
	// Paper holds the paper's G-nDCG and L-nDCG for this estimator on the
	// same test file, when known.
	Paper   *[2]float64 `json:"paper,omitempty"`
	Seconds float64     `json:"seconds"`
}

// Report is the outcome of RunPlan.
type Report struct {
	Train    string `json:"train"`
	Dev      string `json:"dev"`
	Test     string `json:"test"`
	Embedder string `json:"embedder"`
	// TrainPairs, DevPairs and TestPairs count labelled pairs.
	TrainPairs int `json:"train_pairs"`
	DevPairs   int `json:"dev_pairs"`
	TestPairs  int `json:"test_pairs"`
	// Constant and Oracle are the floor (all scores tied) and the ceiling
	// (scores = labels) on the test set.
	Constant Ranking `json:"constant"`
	Oracle   Ranking `json:"oracle"`
	Rows     []Row   `json:"rows"`
	// Notes say how to read the figures (see planNotes).
	Notes []string `json:"notes,omitempty"`
}

// paperHEvalCS are Table 2's HEval (ML), CS (ID) columns: G-nDCG, L-nDCG.
var paperHEvalCS = map[string][2]float64{
	"els": {.903, .640}, "tls": {.902, .638}, "zs": {.904, .635},
	"icl FS-PS": {.915, .658}, "icl FS-P": {.891, .649}, "icl FS-S": {.910, .658},
}

// planNotes says what a reader of the figures of estimators on test must
// know: on MBJP the prompt's examples (the "> f(...)" lines) are the
// dataset's hidden tests, so an estimator that runs them (agree, and combo
// through it) is scored against the very tests that label the solutions,
// and reaches the ceiling without telling anything about other data.
func planNotes(test *qe.ExampleSet, estimators []string) []string {
	mbjp := false
	for _, t := range test.Tasks {
		if t.Key().Dataset == "mbjp" || strings.HasPrefix(strings.ToLower(t.TaskID), "mbjp/") {
			mbjp = true
			break
		}
	}
	var runs []string
	for _, e := range estimators {
		if estimate.NeedsRunner(e) {
			runs = append(runs, e)
		}
	}
	if !mbjp || len(runs) == 0 {
		return nil
	}
	verb, its := "runs", "its figures are"
	if len(runs) > 1 {
		verb, its = "run", "their figures are"
	}
	return []string{fmt.Sprintf("MBJP's prompt examples (the > f(...) lines) are its hidden tests: %s %s them, so %s at or near the ceiling here by construction and say little about data whose examples are not the tests (HumanEval, MBPP).",
		strings.Join(runs, " and "), verb, its)}
}

// RunPlan tunes k on dev (when a plan has several) and evaluates every
// estimator of the plan on test. dev may be nil when no tuning is needed.
func RunPlan(ctx context.Context, s *estimate.Setup, dev, test *qe.ExampleSet, plan Plan) (*Report, error) {
	rep := &Report{Test: test.Name, TestPairs: test.Size()}
	if s.Examples != nil {
		rep.Train, rep.TrainPairs = s.Examples.Name, s.Examples.Size()
	}
	if dev != nil {
		rep.Dev, rep.DevPairs = dev.Name, dev.Size()
	}
	if s.Embedder != nil {
		rep.Embedder = s.Embedder.Name()
	}
	rep.Notes = planNotes(test, plan.Estimators)
	labels := LabelsOf(test)
	var err error
	if rep.Constant, err = Rank(labels, ConstantScores(labels), plan.CutOff); err != nil {
		return nil, err
	}
	if rep.Oracle, err = Rank(labels, labels, plan.CutOff); err != nil {
		return nil, err
	}
	opts := EvalOptions{CutOff: plan.CutOff, Concurrency: plan.Concurrency, Progress: plan.Progress}
	for _, name := range plan.Estimators {
		alphas := []estimate.Alpha{0}
		if estimate.NeedsExamples(name) {
			alphas = plan.Alphas
		}
		for _, a := range alphas {
			row, err := runRow(ctx, s, dev, test, name, a, plan, opts)
			if err != nil {
				return nil, err
			}
			rep.Rows = append(rep.Rows, *row)
		}
	}
	return rep, nil
}

func runRow(ctx context.Context, s *estimate.Setup, dev, test *qe.ExampleSet, name string, a estimate.Alpha, plan Plan, opts EvalOptions) (*Row, error) {
	row := &Row{Estimator: name}
	if estimate.NeedsExamples(name) {
		af := float64(a)
		row.Alpha, row.Variant = &af, estimate.VariantName(a)
		k, devScores, err := tuneK(ctx, s, dev, name, a, plan.Ks, opts)
		if err != nil {
			return nil, err
		}
		row.K, row.Dev = k, devScores
	}
	est, err := s.New(ctx, name, row.K, a)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	ev, err := Evaluate(ctx, est, test, opts)
	if err != nil {
		return nil, err
	}
	row.Seconds = time.Since(start).Seconds()
	row.Ranking = ev.Ranking
	if plan.PaperFigures {
		key := name
		if row.Variant != "" {
			key += " " + row.Variant
		}
		if p, ok := paperHEvalCS[key]; ok {
			row.Paper = &p
		}
	}
	return row, nil
}

// tuneK returns the k with the best dev G-nDCG (the smaller on ties).
func tuneK(ctx context.Context, s *estimate.Setup, dev *qe.ExampleSet, name string, a estimate.Alpha, ks []int, opts EvalOptions) (int, map[int]float64, error) {
	if len(ks) == 0 {
		return 0, nil, fmt.Errorf("estimator %s needs a k", name)
	}
	if len(ks) == 1 {
		return ks[0], nil, nil
	}
	if dev == nil || len(dev.Tasks) == 0 {
		return 0, nil, fmt.Errorf("tuning k for %s: %w (or give one k)", name, estimate.ErrNeedsDevSplit)
	}
	scores := map[int]float64{}
	best, bestG := 0, -1.0
	for _, k := range ks {
		est, err := s.New(ctx, name, k, a)
		if err != nil {
			return 0, nil, err
		}
		ev, err := Evaluate(ctx, est, dev, opts)
		if err != nil {
			return 0, nil, fmt.Errorf("tune k on dev: %w", err)
		}
		scores[k] = ev.Global
		if ev.Global > bestG || ev.Global == bestG && k < best {
			best, bestG = k, ev.Global
		}
	}
	return best, scores, nil
}

// Markdown renders the report as a table shaped like the paper's Table 2.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Code quality estimation: test %s (%d pairs), pool %s (%d pairs), dev %s (%d pairs), embedder %s\n\n",
		r.Test, r.TestPairs, orDash(r.Train), r.TrainPairs, orDash(r.Dev), r.DevPairs, orDash(r.Embedder))
	paper := false
	for _, row := range r.Rows {
		paper = paper || row.Paper != nil
	}
	b.WriteString("| Estimator | k | G-nDCG | L-nDCG | L-nDCG (mixed) |")
	sep := "|---|---|---|---|---|"
	if paper {
		b.WriteString(" paper G | paper L |")
		sep += "---|---|"
	}
	b.WriteString(" seconds |\n" + sep + "---|\n")
	line := func(name, k string, rk Ranking, p *[2]float64, secs string) {
		fmt.Fprintf(&b, "| %s | %s | %.3f | %.3f | %.3f |", name, k, rk.Global, rk.Local, rk.LocalMixed)
		if paper {
			if p != nil {
				fmt.Fprintf(&b, " %.3f | %.3f |", p[0], p[1])
			} else {
				b.WriteString(" | |")
			}
		}
		fmt.Fprintf(&b, " %s |\n", secs)
	}
	line("constant (floor)", "n/a", r.Constant, nil, "")
	for _, row := range r.Rows {
		name, k := row.Estimator, "n/a"
		if row.Variant != "" {
			name += " " + row.Variant
			k = fmt.Sprint(row.K)
		}
		line(name, k, row.Ranking, row.Paper, fmt.Sprintf("%.1f", row.Seconds))
	}
	line("oracle (ceiling)", "n/a", r.Oracle, nil, "")
	fmt.Fprintf(&b, "\nL-nDCG averages %d problems; %d have both correct and incorrect solutions (the mixed column).\n", r.Constant.Problems, r.Constant.Mixed)
	if paper {
		b.WriteString("Paper: Table 2, HEval (ML), Codestral-22B (ID); its estimators use CodeBERT embeddings and a CodeLlama-7B judge.\n")
	}
	for _, n := range r.Notes {
		b.WriteString("Note: " + n + "\n")
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
