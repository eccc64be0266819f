package eval

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ticoder/ticoder/internal/rank"
	"github.com/ticoder/ticoder/internal/session"
)

// Summary averages per-problem results over problems.
type Summary struct {
	// Title heads the Markdown report (e.g. dataset and model).
	Title string `json:"title"`
	// Notes are printed under the title (settings, caveats).
	Notes []string `json:"notes,omitempty"`
	// Problems is the number of problems averaged.
	Problems int `json:"problems"`
	// Config is the simulated configuration.
	Config Config `json:"config"`
	// Baseline maps k to the mean unbiased pass@k of the raw samples as
	// `ticoder check` runs them (see Result.Baseline).
	Baseline map[int]float64 `json:"baseline"`
	// Extracted maps k to the mean pass@k of the extracted samples.
	Extracted map[int]float64 `json:"extracted"`
	// Raw counts the problems whose baseline comes from raw samples.
	Raw int `json:"raw"`
	// Rows holds one entry per strategy combination, in Config order.
	Rows []Row `json:"rows"`
}

// Row is one strategy combination averaged over problems.
type Row struct {
	// Mode, Select, Rank and Protect identify the strategy combination
	// (see Run).
	Mode    rank.Mode `json:"mode"`
	Select  string    `json:"select"`
	Rank    string    `json:"rank"`
	Protect bool      `json:"protect_correct"`
	// Ask says what the sessions could ask about.
	Ask session.Questions `json:"ask"`
	// PassAt maps k to the mean pass@k@m for m = 0…MaxQuestions.
	PassAt map[int][]float64 `json:"pass_at"`
	// Questions is the mean number of questions asked.
	Questions float64 `json:"questions"`
	// Stops counts the sessions by why they stopped (a session.Stop name;
	// "" for those that could still ask).
	Stops map[string]int `json:"stops"`
	// NoQuestion counts the sessions that asked nothing at all.
	NoQuestion int `json:"no_question"`
	// Lost counts the sessions in which an answer ruled out the last
	// candidate, remaining or fallback, that passes the hidden tests, and
	// none came back (see Run.Lost).
	Lost int `json:"lost"`
	// Conflicts counts the sessions in which no candidate agreed with all
	// the answers (see Run.Conflict).
	Conflicts int `json:"conflicts"`
	// Synthesized counts the synthesized questions asked, over all sessions.
	Synthesized int `json:"synthesized"`
}

type rowKey struct {
	mode      rank.Mode
	sel, rank string
	protect   bool
	ask       session.Questions
}

// Summarize averages results. Every problem counts at every m (runs carry
// their last state forward).
func Summarize(results []Result, cfg Config) Summary {
	cfg = cfg.canonical()
	sum := Summary{Problems: len(results), Config: cfg, Baseline: map[int]float64{}, Extracted: map[int]float64{}}
	acc := map[rowKey]*Row{}
	var order []rowKey
	for _, rk := range cfg.Rankers {
		for _, protect := range cfg.Protect {
			for _, ask := range cfg.asks() {
				for _, sel := range cfg.Selectors {
					for _, mode := range cfg.Modes {
						k := rowKey{mode, sel, rk, protect, ask}
						order = append(order, k)
						acc[k] = &Row{Mode: mode, Select: sel, Rank: rk, Protect: protect, Ask: ask, PassAt: map[int][]float64{}, Stops: map[string]int{}}
						for _, kk := range cfg.Ks {
							acc[k].PassAt[kk] = make([]float64, cfg.MaxQuestions+1)
						}
					}
				}
			}
		}
	}
	n := float64(max(len(results), 1))
	for _, r := range results {
		for k, v := range r.Baseline {
			sum.Baseline[k] += v / n
		}
		for k, v := range r.Extracted {
			sum.Extracted[k] += v / n
		}
		if r.RawCorrect >= 0 {
			sum.Raw++
		}
		for _, run := range r.Runs {
			row := acc[rowKey{run.Mode, run.Select, run.Rank, run.Protect, run.Ask}]
			if row == nil {
				continue
			}
			for k, vs := range run.PassAt {
				for m := range min(len(vs), len(row.PassAt[k])) {
					row.PassAt[k][m] += vs[m] / n
				}
			}
			row.Questions += float64(len(run.Asked)) / n
			row.Stops[run.Stop]++
			if len(run.Asked) == 0 {
				row.NoQuestion++
			}
			if run.Lost > 0 {
				row.Lost++
			}
			if run.Conflict > 0 {
				row.Conflicts++
			}
			for _, a := range run.Asked {
				if a.Shown != "" {
					row.Synthesized++
				}
			}
		}
	}
	for _, k := range order {
		sum.Rows = append(sum.Rows, *acc[k])
	}
	return sum
}

func pct(v float64) string { return strconv.FormatFloat(100*v, 'f', 2, 64) }

func protectName(p bool) string {
	if p {
		return "protect-correct"
	}
	return "strict"
}

// Markdown writes the summary as tables shaped like the paper's Table IV: for
// each k, each code ranking and each protect setting, one row per selection
// strategy with the baseline pass@k of raw samples and pass@k@m for each mode
// and m. Values are percentages.
func (s Summary) Markdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", s.Title)
	for _, n := range s.Notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	fmt.Fprintf(&b, "- problems: %d; max questions: %d; seed: %d; user noise ε = %g\n", s.Problems, s.Config.MaxQuestions, s.Config.Seed, s.Config.Noise)
	fmt.Fprintf(&b, "- baseline pass@k (unbiased estimator) of the raw samples run as `ticoder check` runs them (%d of %d problems; the others: extracted samples):", s.Raw, s.Problems)
	for _, k := range sortedKeys(s.Baseline) {
		fmt.Fprintf(&b, " pass@%d = %s%%", k, pct(s.Baseline[k]))
	}
	fmt.Fprintf(&b, "\n- pass@k of the samples after extraction (the candidates TiCoder ranks):")
	for _, k := range sortedKeys(s.Extracted) {
		fmt.Fprintf(&b, " pass@%d = %s%%", k, pct(s.Extracted[k]))
	}
	b.WriteString("\n- pass@k@m: after m questions, whether one of the top k ranked candidates passes the hidden tests: the remaining candidates, then the fallbacks that the answers ruled out only for raising, timing out or crashing on an answered input (ties: multiplicity-weighted random pick; every problem counts at every m; no candidates left = failure)\n")
	for _, k := range s.Config.Ks {
		for _, rk := range s.Config.Rankers {
			for _, protect := range s.Config.Protect {
				fmt.Fprintf(&b, "\n## pass@%d@m — code ranking `%s`, %s\n\n", k, rk, protectName(protect))
				s.table(&b, k, rk, protect)
			}
		}
	}
	s.sessions(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// sessions writes what the sessions did, per strategy (the same for every
// code ranker: selection does not depend on it).
func (s Summary) sessions(b *strings.Builder) {
	if len(s.Config.Rankers) == 0 {
		return
	}
	b.WriteString("\n## Sessions\n\n")
	b.WriteString("Per strategy (any code ranker): mean questions asked; synthesized questions among them (all sessions); sessions that asked nothing; sessions by why they stopped; sessions in which, after some answer, no candidate agreed with all the answers (they went on with the candidates that agree with the most); sessions in which an answer ruled out the last candidate, remaining or fallback, that passes the hidden tests and none came back.\n\n")
	b.WriteString("| questions | select | mode | protect | mean asked | synthesized | asked nothing | max-questions | one-class | no-split | no-tests | no candidate agrees | lost all correct |\n")
	b.WriteString("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range s.Rows {
		if r.Rank != s.Config.Rankers[0] {
			continue
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %.2f | %d | %d | %d | %d | %d | %d | %d | %d |\n", r.Ask, r.Select, modeLabel(r.Mode), protectName(r.Protect),
			r.Questions, r.Synthesized, r.NoQuestion, r.Stops[session.MaxQuestions.String()], r.Stops[session.OneClass.String()],
			r.Stops[session.NoSplit.String()], r.Stops[session.NoTests.String()], r.Conflicts, r.Lost)
	}
}

func (s Summary) table(b *strings.Builder, k int, rk string, protect bool) {
	bks := sortedKeys(s.Baseline)
	b.WriteString("| select |")
	for _, bk := range bks {
		fmt.Fprintf(b, " pass@%d |", bk)
	}
	for _, mode := range s.Config.Modes {
		for m := 0; m <= s.Config.MaxQuestions; m++ {
			fmt.Fprintf(b, " %s m=%d |", modeLabel(mode), m)
		}
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---:|", len(bks)+len(s.Config.Modes)*(s.Config.MaxQuestions+1)))
	b.WriteString("\n")
	asks := s.Config.asks()
	for _, ask := range asks {
		for _, sel := range s.Config.Selectors {
			if len(asks) > 1 {
				fmt.Fprintf(b, "| %s (%s) |", sel, ask)
			} else {
				fmt.Fprintf(b, "| %s |", sel)
			}
			for _, bk := range bks {
				fmt.Fprintf(b, " %s |", pct(s.Baseline[bk]))
			}
			for _, mode := range s.Config.Modes {
				row := s.find(rowKey{mode, sel, rk, protect, ask})
				for m := 0; m <= s.Config.MaxQuestions; m++ {
					fmt.Fprintf(b, " %s |", pct(row.PassAt[k][m]))
				}
			}
			b.WriteString("\n")
		}
	}
}

func modeLabel(m rank.Mode) string {
	if m == rank.Output {
		return "Output"
	}
	return "PassFail"
}

func (s Summary) find(k rowKey) Row {
	for _, r := range s.Rows {
		if (rowKey{r.Mode, r.Select, r.Rank, r.Protect, r.Ask}) == k {
			return r
		}
	}
	return Row{PassAt: map[int][]float64{}}
}

// CSV writes the summary in long form: one line per (strategy, k, m), plus
// baseline lines with select "baseline". Values are fractions.
func (s Summary) CSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"mode", "select", "rank", "protect_correct", "k", "m", "value", "problems", "questions"})
	probs := strconv.Itoa(s.Problems)
	for _, k := range sortedKeys(s.Baseline) {
		_ = cw.Write([]string{"", "baseline", "", "", strconv.Itoa(k), "", strconv.FormatFloat(s.Baseline[k], 'f', 6, 64), probs, ""})
	}
	for _, k := range sortedKeys(s.Extracted) {
		_ = cw.Write([]string{"", "extracted", "", "", strconv.Itoa(k), "", strconv.FormatFloat(s.Extracted[k], 'f', 6, 64), probs, ""})
	}
	for _, r := range s.Rows {
		for _, k := range sortedKeys(r.PassAt) {
			for m, v := range r.PassAt[k] {
				_ = cw.Write([]string{r.Mode.String(), r.Select, r.Rank, strconv.FormatBool(r.Protect),
					strconv.Itoa(k), strconv.Itoa(m), strconv.FormatFloat(v, 'f', 6, 64), probs, r.Ask.String()})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
