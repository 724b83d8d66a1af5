package host

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/locator"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// PDF prints a tab to PDF through the browser (docs/devtools.md,
// "Developer tools"). A PDF shows every frame, so its table entry refuses
// a tab with a blocked frame, as a screenshot's does, and it is judged
// again once printed, frames included: a blocked frame that came in
// between refuses it (the gate's gateAfter, host/gate.go). So are the
// shaped screenshots.
func (h *Host) PDF(ctx context.Context, args protocol.PDFArgs) (*protocol.PDFResult, error) {
	tab, unlock, err := h.lockTab(ctx, args.Tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var rep protocol.PDFReply
	if err := callExt(ctx, h, protocol.ExtPDF, protocol.PDFParams{TabID: tab, Landscape: args.Landscape}, &rep); err != nil {
		return nil, err
	}
	pdf, err := base64.StdEncoding.DecodeString(rep.Data)
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF")) {
		return nil, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "the browser's PDF of tab %d is not a PDF (%d bytes)", tab, len(pdf))
	}
	return &protocol.PDFResult{Tab: rep.Tab, PDF: pdf}, nil
}

// shapeScope is what a shaped screenshot reads: every frame's pixels of
// the tab its ref names, or of the tab it names.
func shapeScope(h *Host, a *protocol.ScreenshotShapeArgs) readScope {
	if a.Target != "" && a.Tab == 0 {
		if loc, err := locator.Parse(a.Target); err == nil && loc.Ref != 0 {
			if e, err := h.refs.Resolve(loc.Ref); err == nil {
				a.Tab = e.Tab
			}
		}
	}
	return readScope{&a.Tab, readScreenshot}
}

// ScreenshotShape takes a PNG of one element (args.Target, a ref: the
// image is the element's box) or of the viewport with the refs of a
// snapshot taken with it drawn over their elements (args.Refs).
func (h *Host) ScreenshotShape(ctx context.Context, args protocol.ScreenshotShapeArgs) (*protocol.ShapeShot, error) {
	switch {
	case args.Target != "" && args.Refs:
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"take one: grip screenshot @eN, or grip screenshot --refs", "a screenshot of one element cannot also draw refs")
	case args.Grid && args.Target == "":
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"name the element whose coordinates to draw: grip screenshot @eN --grid", "a grid is drawn over one element's screenshot")
	case args.Target != "":
		return h.elementShot(ctx, args)
	case args.Refs:
		return h.refsShot(ctx, args)
	}
	return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
		"name an element (@eN) or ask for --refs; grip screenshot alone takes the viewport", "nothing to shape the screenshot by")
}

func (h *Host) elementShot(ctx context.Context, args protocol.ScreenshotShapeArgs) (*protocol.ShapeShot, error) {
	loc, err := locator.Parse(args.Target)
	if err != nil {
		return nil, err
	}
	if loc.Ref == 0 {
		return nil, protocol.Errorf(protocol.CodeInvalidLocator, protocol.BoundaryPayload,
			"take a snapshot and name the element by its ref: grip screenshot @e3", "a screenshot names its element by ref, not %q", args.Target)
	}
	e, err := h.refs.Resolve(loc.Ref)
	if err != nil {
		return nil, err
	}
	if args.Tab > 0 && args.Tab != e.Tab {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"leave out --tab: a ref names its tab", "%s is of tab %d, not %d", args.Target, e.Tab, args.Tab)
	}
	unlock, err := h.tabs.lock(ctx, e.Tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var rep protocol.ShotReply
	if err := callExt(ctx, h, protocol.ExtElementShot, protocol.ElementShotParams{TabID: e.Tab, DocumentID: e.Key.DocumentID, LocalID: e.Key.LocalID}, &rep); err != nil {
		return nil, err
	}
	img, err := base64.StdEncoding.DecodeString(rep.Data)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "screenshot is not base64: %v", err)
	}
	shot := &protocol.ShapeShot{Tab: rep.Tab, PNG: img, Width: int(rep.Width + 0.5), Height: int(rep.Height + 0.5), Clipped: rep.Clipped,
		Left: int(rep.Left + 0.5), Top: int(rep.Top + 0.5)}
	if args.Grid {
		if shot.PNG, shot.Grid, err = withGrid(img, shot.Width, shot.Height, shot.Left, shot.Top); err != nil {
			return nil, err
		}
	}
	return shot, nil
}

func (h *Host) refsShot(ctx context.Context, args protocol.ScreenshotShapeArgs) (*protocol.ShapeShot, error) {
	tab, unlock, err := h.lockTab(ctx, args.Tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	raw, results, _, err := h.readTab(ctx, tab, protocol.ModeInteractive, false, false, nil)
	if err != nil {
		if d := openDialog(err); d != nil {
			return nil, protocol.Errorf(protocol.CodeNotActionable, protocol.BoundaryDocument,
				"answer it first: grip dialog accept|dismiss", "tab %d shows a %s dialog", tab, d.dialog.Type)
		}
		return nil, err
	}
	snap, err := h.render(tab, raw.Tab, results, frames.Options{})
	if err != nil {
		return nil, err
	}
	// Every element of the snapshot, by its document and local id.
	byKey := map[refcache.Key]string{}
	var want []protocol.ShotFrame
	at := map[string]int{}
	for _, f := range results {
		for _, el := range f.Elements {
			n, err := refcache.ParseRef(el.Ref)
			if err != nil {
				continue
			}
			e, err := h.refs.Resolve(n)
			if err != nil {
				continue
			}
			byKey[e.Key] = el.Ref
			i, ok := at[e.Key.DocumentID]
			if !ok {
				i = len(want)
				at[e.Key.DocumentID] = i
				want = append(want, protocol.ShotFrame{DocumentID: e.Key.DocumentID})
			}
			want[i].IDs = append(want[i].IDs, e.Key.LocalID)
		}
	}
	var rep protocol.ShotReply
	if err := callExt(ctx, h, protocol.ExtBoxesShot, protocol.BoxesShotParams{TabID: tab, Frames: want}, &rep); err != nil {
		return nil, err
	}
	raw64, err := base64.StdEncoding.DecodeString(rep.Data)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "screenshot is not base64: %v", err)
	}
	src, err := png.Decode(bytes.NewReader(raw64))
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "the browser's screenshot is not a PNG: %v", err)
	}
	frameOf := map[string]int{}
	for _, f := range results {
		frameOf[f.DocumentID] = f.FrameID
	}
	var drawn []protocol.DrawnRef
	for _, b := range rep.Boxes {
		ref, ok := byKey[refcache.Key{DocumentID: b.DocumentID, FrameID: frameOf[b.DocumentID], LocalID: b.ID}]
		if !ok {
			continue
		}
		drawn = append(drawn, protocol.DrawnRef{Ref: ref, X: int(b.X + 0.5), Y: int(b.Y + 0.5), Width: int(b.Width + 0.5), Height: int(b.Height + 0.5)})
	}
	scale := 1.0
	if rep.Width > 0 {
		scale = float64(src.Bounds().Dx()) / rep.Width
	}
	out := drawRefs(src, drawn, scale)
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		return nil, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost, "", "encoding the screenshot: %v", err)
	}
	return &protocol.ShapeShot{Tab: rep.Tab, PNG: buf.Bytes(), Width: int(rep.Width + 0.5), Height: int(rep.Height + 0.5), Refs: drawn, Snapshot: snap}, nil
}

// labelColor marks the refs drawn: a magenta few pages use.
var labelColor = color.RGBA{R: 0xd0, G: 0x00, B: 0x90, A: 0xff}

// drawRefs draws, over a copy of src, each ref's box outlined and its
// label ("@e12", the ref as the agent writes it) at the box's top-left corner; scale is the image's pixels
// per CSS px.
func drawRefs(src image.Image, refs []protocol.DrawnRef, scale float64) *image.RGBA {
	out := image.NewRGBA(src.Bounds())
	draw.Draw(out, out.Bounds(), src, src.Bounds().Min, draw.Src)
	px := func(v int) int { return int(float64(v)*scale + 0.5) }
	line := max(1, px(2))
	glyph := max(1, px(2)) // one dot of the 5×7 font
	fill := image.NewUniform(labelColor)
	for _, r := range refs {
		box := image.Rect(px(r.X), px(r.Y), px(r.X+r.Width), px(r.Y+r.Height))
		for _, edge := range []image.Rectangle{
			{box.Min, image.Pt(box.Max.X, box.Min.Y+line)}, {image.Pt(box.Min.X, box.Max.Y-line), box.Max},
			{box.Min, image.Pt(box.Min.X+line, box.Max.Y)}, {image.Pt(box.Max.X-line, box.Min.Y), box.Max},
		} {
			draw.Draw(out, edge, fill, image.Point{}, draw.Src)
		}
		text := r.Ref // "@e12", as every reply writes a ref
		w := len(text)*6*glyph + glyph
		h := 9 * glyph
		lab := image.Rect(box.Min.X, box.Min.Y-h, box.Min.X+w, box.Min.Y)
		if lab.Min.Y < 0 {
			lab = lab.Add(image.Pt(0, h)) // no room above: inside the box
		}
		draw.Draw(out, lab, fill, image.Point{}, draw.Src)
		for i, ch := range text {
			drawGlyph(out, ch, lab.Min.X+glyph+i*6*glyph, lab.Min.Y+glyph, glyph)
		}
	}
	return out
}

// font5x7 has the characters of a ref label, one row of five dots a byte.
var font5x7 = map[rune][7]byte{
	'@': {0b01110, 0b10001, 0b10111, 0b10101, 0b10110, 0b10000, 0b01111},
	'e': {0b00000, 0b00000, 0b01110, 0b10001, 0b11111, 0b10000, 0b01110},
	'0': {0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110},
	'1': {0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110},
	'2': {0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111},
	'3': {0b11110, 0b00001, 0b00001, 0b01110, 0b00001, 0b00001, 0b11110},
	'4': {0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010},
	'5': {0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110},
	'6': {0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110},
	'7': {0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000},
	'8': {0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110},
	'9': {0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100},
}

func drawGlyph(img *image.RGBA, ch rune, x, y, dot int) {
	rows, ok := font5x7[ch]
	if !ok {
		return
	}
	white := image.NewUniform(color.White)
	for row, bits := range rows {
		for col := 0; col < 5; col++ {
			if bits&(1<<(4-col)) != 0 {
				r := image.Rect(x+col*dot, y+row*dot, x+(col+1)*dot, y+(row+1)*dot)
				draw.Draw(img, r, white, image.Point{}, draw.Src)
			}
		}
	}
}
