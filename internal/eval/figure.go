package eval

import (
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The size of a figure's plot; the legend's width is added to the right.
const (
	plotWidth  = 7 * vg.Inch
	plotHeight = 4.5 * vg.Inch
	// legendGap separates the plot from its legend.
	legendGap = 8 * vg.Millimeter
)

// saveFigure writes p, with its legend to the right of the plot, to file in
// format (png or svg).
func saveFigure(p *plot.Plot, file, format string) (err error) {
	c, err := draw.NewFormattedCanvas(plotWidth+legendWidth(p), plotHeight, format)
	if err != nil {
		return err
	}
	drawFigure(p, draw.New(c))
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = c.WriteTo(f)
	return err
}

// legendWidth is the width p's legend takes beside the plot.
func legendWidth(p *plot.Plot) vg.Length {
	return p.Legend.Rectangle(draw.Canvas{}).Size().X + legendGap
}

// drawFigure draws p on c with its legend in a column to the right of the
// plot, top-aligned with the data area, and returns the data area.
func drawFigure(p *plot.Plot, c draw.Canvas) vg.Rectangle {
	legend := p.Legend
	p.Legend = plot.NewLegend() // drawn apart below
	defer func() { p.Legend = legend }()
	width := legend.Rectangle(draw.Canvas{}).Size().X + legendGap
	plotC := draw.Crop(c, 0, -width, 0, 0)
	p.Draw(plotC)
	data := p.DataCanvas(plotC)
	legC := draw.Crop(c, c.Size().X-width+legendGap, 0, 0, 0)
	legC.Max.Y, legC.Min.Y = data.Max.Y, data.Min.Y
	legend.Top, legend.Left = true, true
	legend.XOffs, legend.YOffs = 0, 0
	legend.Draw(legC)
	return data.Rectangle
}
