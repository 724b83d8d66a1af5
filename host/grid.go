package host

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strconv"

	"github.com/grip-dev/grip/protocol"
)

// gridColor draws the coordinate lines: the labels' magenta, see-through
// so the page shows under them (not premultiplied: NRGBA).
var gridColor = color.NRGBA{R: 0xd0, G: 0x00, B: 0x90, A: 0x90}

// gridSteps are the steps a grid may take, in CSS pixels; gridLines how
// many lines at most cross the longer side.
var gridSteps = []int{25, 50, 100, 200, 250, 500, 1000}

const gridLines = 12

// gridStep is the smallest step that draws at most gridLines lines over a
// box of w×h CSS pixels.
func gridStep(w, h int) int {
	long := max(w, h)
	for _, s := range gridSteps {
		if long/s <= gridLines {
			return s
		}
	}
	return gridSteps[len(gridSteps)-1]
}

// withGrid draws coordinates over an element's screenshot (docs/drawings.md,
// "Drawings and canvases"): a see-through line every
// step CSS pixels of the element's box, each labelled on a ruler added
// above and to the left of the image (so the labels hide nothing of the
// page) with its distance from the box's top-left corner, which is what
// click --at takes. left and top say where the image starts in the box
// (an element clipped by the viewport); w and h are the image's size in
// CSS pixels.
func withGrid(data []byte, w, h, left, top int) ([]byte, int, error) {
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, 0, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "the browser's screenshot is not a PNG: %v", err)
	}
	scale := 1.0
	if w > 0 {
		scale = float64(src.Bounds().Dx()) / float64(w)
	}
	step := gridStep(left+w, top+h)
	px := func(v int) int { return int(float64(v)*scale + 0.5) }
	line := max(1, px(1))
	dot := max(1, px(2))
	rulerW, rulerH := rulers(top+h, dot)
	sb := src.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, rulerW+sb.Dx(), rulerH+sb.Dy()))
	draw.Draw(out, out.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(out, image.Rect(rulerW, rulerH, out.Bounds().Max.X, out.Bounds().Max.Y), src, sb.Min, draw.Src)
	fill := image.NewUniform(gridColor)
	label := image.NewUniform(labelColor)
	b := out.Bounds()
	// The first line at or after the image's start, in the box's coordinates.
	for x := (left + step - 1) / step * step; x <= left+w; x += step {
		ix := rulerW + px(x-left)
		draw.Draw(out, image.Rect(ix, rulerH, ix+line, b.Max.Y), fill, image.Point{}, draw.Over)
		gridLabel(out, strconv.Itoa(x), ix, 0, dot, label, rulerW)
	}
	for y := (top + step - 1) / step * step; y <= top+h; y += step {
		iy := rulerH + px(y-top)
		draw.Draw(out, image.Rect(rulerW, iy, b.Max.X, iy+line), fill, image.Point{}, draw.Over)
		gridLabel(out, strconv.Itoa(y), 0, iy, dot, label, 0)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		return nil, 0, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost, "", "encoding the screenshot: %v", err)
	}
	return buf.Bytes(), step, nil
}

// rulers is the size of the rulers withGrid adds: a row of labels above
// the image, a column to its left as wide as the longest label (bottom,
// the largest y), in image pixels of dot a font dot.
func rulers(bottom, dot int) (w, h int) {
	return (len(strconv.Itoa(bottom))*6 + 1) * dot, 9 * dot
}

// gridLabel writes text in white on a filled box whose top-left is x, y,
// moved back inside the image (and right of minX) when it would leave it.
func gridLabel(img *image.RGBA, text string, x, y, dot int, fill image.Image, minX int) {
	w := len(text)*6*dot + dot
	h := 9 * dot
	r := image.Rect(x, y, x+w, y+h)
	b := img.Bounds()
	if r.Max.X > b.Max.X {
		r = r.Sub(image.Pt(r.Max.X-b.Max.X, 0))
	}
	if r.Min.X < minX {
		r = r.Add(image.Pt(minX-r.Min.X, 0))
	}
	if r.Max.Y > b.Max.Y {
		r = r.Sub(image.Pt(0, r.Max.Y-b.Max.Y))
	}
	draw.Draw(img, r, fill, image.Point{}, draw.Src)
	for i, ch := range text {
		drawGlyph(img, ch, r.Min.X+dot+i*6*dot, r.Min.Y+dot, dot)
	}
}
