package eval

import (
	"fmt"
	"image/color"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Plot draws pass@1@m against m for every selection strategy and mode, one
// figure per code ranking and protect setting, with the baseline pass@1 as a
// grey line and the legend beside the plot (never over its lines), and
// saves each as PNG and SVG in dir. It returns the files written.
func (s Summary) Plot(dir string) ([]string, error) {
	var files []string
	for _, rk := range s.Config.Rankers {
		for _, protect := range s.Config.Protect {
			p := s.figure(rk, protect)
			for _, ext := range []string{"png", "svg"} {
				name := filepath.Join(dir, fmt.Sprintf("pass1_%s_%s.%s", fileSafe.Replace(rk), protectName(protect), ext))
				if err := saveFigure(p, name, ext); err != nil {
					return files, fmt.Errorf("save plot %s: %w", name, err)
				}
				files = append(files, name)
			}
		}
	}
	return files, nil
}

func (s Summary) figure(rk string, protect bool) *plot.Plot {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s\npass@1@m, code ranking %s, %s", s.Title, rk, protectName(protect))
	p.X.Label.Text = "questions answered (m)"
	p.Y.Label.Text = "pass@1@m (%)"
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs = 6
	p.Legend.YOffs = -4
	p.Add(plotter.NewGrid())
	ms := s.Config.MaxQuestions
	if b, ok := s.Baseline[1]; ok {
		line, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 100 * b}, {X: float64(ms), Y: 100 * b}})
		line.Color = color.Gray{Y: 110}
		line.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(line)
		p.Legend.Add("baseline pass@1", line)
	}
	asks := s.Config.asks()
	for si, sel := range s.Config.Selectors {
		for mi, mode := range s.Config.Modes {
			for ai, ask := range asks {
				s.addLine(p, s.find(rowKey{mode, sel, rk, protect, ask}), si*len(asks)+ai, mi, len(asks) > 1)
			}
		}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks(ms))
	p.Y.Min = 0
	p.Y.Max = 100
	return p
}

// addLine draws one row's pass@1@m in colour ci and dash pattern di.
func (s Summary) addLine(p *plot.Plot, row Row, ci, di int, showAsk bool) {
	vals := row.PassAt[1]
	if len(vals) == 0 {
		return
	}
	xy := make(plotter.XYs, len(vals))
	for m, v := range vals {
		xy[m] = plotter.XY{X: float64(m), Y: 100 * v}
	}
	line, points, err := plotter.NewLinePoints(xy)
	if err != nil {
		return
	}
	line.Color = plotutil.Color(ci)
	points.Color = plotutil.Color(ci)
	line.Dashes = plotutil.Dashes(di)
	points.Shape = plotutil.Shape(di)
	points.Radius = vg.Points(2.5)
	line.Width = vg.Points(1.5)
	p.Add(line, points)
	label := fmt.Sprintf("%s %s", modeLabel(row.Mode), row.Select)
	if showAsk {
		label += " (" + row.Ask.String() + ")"
	}
	p.Legend.Add(label, line, points)
}

// fileSafe makes a ranker spec usable in a file name.
var fileSafe = strings.NewReplacer(":", "-", "+", "_", "/", "-", " ", "")

func ticks(n int) []plot.Tick {
	out := make([]plot.Tick, n+1)
	for i := range out {
		out[i] = plot.Tick{Value: float64(i), Label: fmt.Sprint(i)}
	}
	return out
}
