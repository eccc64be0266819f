package eval

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/ticoder/ticoder/internal/rank"
)

// TestPlotLegendBesideLines: on a small run (m = 0…2) the legend used to sit
// over the lines; every legend label is now drawn right of the data area.
func TestPlotLegendBesideLines(t *testing.T) {
	cfg := Config{
		Modes: []rank.Mode{rank.PassFail, rank.Output}, Selectors: []string{"discr", "random", "infogain"},
		Rankers: []string{"passing"}, Protect: []bool{false}, MaxQuestions: 2, Ks: []int{1},
	}
	sum := Summarize(nil, cfg)
	sum.Title = "TiCoder on a small run"
	sum.Baseline[1] = 0.9
	p := sum.figure("passing", false)
	rec := &recorder.Canvas{}
	data := drawFigure(p, draw.NewCanvas(rec, plotWidth+legendWidth(p), plotHeight))
	labels := 0
	for _, a := range rec.Actions {
		fs, ok := a.(*recorder.FillString)
		if !ok || !(strings.HasPrefix(fs.String, "baseline pass@1") || strings.HasPrefix(fs.String, "PassFail ") || strings.HasPrefix(fs.String, "Output ")) {
			continue
		}
		labels++
		if fs.Point.X <= data.Max.X {
			t.Errorf("legend label %q drawn at x = %v, inside the data area (right edge %v)", fs.String, fs.Point.X, data.Max.X)
		}
	}
	if labels != 1+len(cfg.Modes)*len(cfg.Selectors) {
		t.Errorf("%d legend labels drawn, want %d", labels, 1+len(cfg.Modes)*len(cfg.Selectors))
	}
	if data.Max.X-data.Min.X < plotWidth/2 {
		t.Errorf("data area %v wide: the legend squeezed the plot", data.Max.X-data.Min.X)
	}
}
