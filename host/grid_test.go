package host

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"testing"
)

// The grid's lines fall at the element's coordinates, scaled to the
// image's pixels, and start where a clipped image starts in the box.
func TestWithGridDrawsTheBoxsCoordinates(t *testing.T) {
	white := func(w, h int) []byte {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	tinted := func(img image.Image, x, y int) bool {
		r, g, b, _ := img.At(x, y).RGBA()
		return r != 0xffff || g != 0xffff || b != 0xffff
	}
	// 200×100 CSS px at 2 image pixels each: lines every 25 px.
	out, step, err := withGrid(white(400, 200), 200, 100, 0, 0)
	if err != nil || step != 25 {
		t.Fatalf("step %d, %v", step, err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	rw, rh := rulers(100, 4)
	if img.Bounds().Dx() != 400+rw || img.Bounds().Dy() != 200+rh {
		t.Fatalf("image %v, want 400×200 and rulers %d×%d", img.Bounds(), rw, rh)
	}
	if !tinted(img, rw+100, rh+190) || !tinted(img, rw+390, rh+150) {
		t.Errorf("no line at x=50 (image x 100) or y=75 (image y 150)")
	}
	if tinted(img, rw+110, rh+190) {
		t.Errorf("a line between two of the grid's")
	}
	if !tinted(img, rw+51, 2) {
		t.Errorf("no label on the ruler above the line at x=25")
	}
	// Clipped: the image starts 10 px into the box, so x=50 is 40 px in.
	out, _, err = withGrid(white(190, 100), 190, 100, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	img, _ = png.Decode(bytes.NewReader(out))
	rw, rh = rulers(100, 2)
	if !tinted(img, rw+40, rh+60) || tinted(img, rw+45, rh+60) || tinted(img, rw+50, rh+60) {
		t.Errorf("a clipped image's line is not at its box's x=50")
	}
	if gridStep(1200, 600) != 100 || gridStep(100, 80) != 25 || gridStep(20000, 10) != 1000 {
		t.Errorf("gridStep: %d %d %d", gridStep(1200, 600), gridStep(100, 80), gridStep(20000, 10))
	}
}
