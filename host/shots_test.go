package host

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"strings"
	"sync"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// latecomerFake is an allowed page (shop.example) that takes in a blocked
// frame (pay.example) at the moment it is captured: before that, its
// frames are the top one only.
type latecomerFake struct {
	guardFake
	lmu      sync.Mutex
	captured bool // guarded by lmu
}

func (f *latecomerFake) handle(msg protocol.NativeMessage) (any, *protocol.Error) {
	f.lmu.Lock()
	captured := f.captured
	f.lmu.Unlock()
	top := protocol.TabRef{ID: 5, URL: f.topURL, Title: "Shop"}
	capture := func(reply any) (any, *protocol.Error) {
		f.lmu.Lock()
		f.captured = true
		f.lmu.Unlock()
		return reply, nil
	}
	var buf bytes.Buffer
	png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 4, 4)))
	shot := protocol.ShotReply{Tab: top, Data: base64.StdEncoding.EncodeToString(buf.Bytes()), Width: 4, Height: 4}
	switch msg.Type {
	case string(protocol.ExtFrames):
		frames := []protocol.FrameInfo{{FrameID: 0, ParentFrameID: -1, DocumentID: "top", URL: f.topURL}}
		if captured {
			frames = append(frames, protocol.FrameInfo{FrameID: 3, ParentFrameID: 0, DocumentID: "card", URL: "https://pay.example/card"})
		}
		return protocol.FramesReply{Frames: frames}, nil
	case string(protocol.ExtSnapshot):
		return protocol.SnapshotReply{Tab: top, Frames: []protocol.ExtFrame{{FrameID: 0, DocumentID: "top", URL: f.topURL, Title: "Shop",
			Elements: []protocol.ExtElement{{ID: 1, Role: "button", Name: "Pay"}}}}}, nil
	case string(protocol.ExtPDF):
		return capture(protocol.PDFReply{Tab: top, Data: base64.StdEncoding.EncodeToString([]byte("%PDF-1.4\n%%EOF\n"))})
	case string(protocol.ExtElementShot), string(protocol.ExtBoxesShot):
		return capture(shot)
	}
	return f.guardFake.handle(msg)
}

// TestShapedShotsAndPDFJudgedAfterCapture: pdf, screenshot @eN and
// screenshot --refs judge the tab's frames again once taken, as plain
// screenshot does: a blocked frame that came in between the gate's look
// and the capture refuses the picture.
func TestShapedShotsAndPDFJudgedAfterCapture(t *testing.T) {
	for _, tt := range []struct {
		name string
		op   string
		args func(ref string) any
	}{
		{"pdf", protocol.OpPDF, func(string) any { return protocol.PDFArgs{} }},
		{"screenshot @eN", protocol.OpScreenshotShape, func(ref string) any { return protocol.ScreenshotShapeArgs{Target: ref} }},
		{"screenshot --refs", protocol.OpScreenshotShape, func(string) any { return protocol.ScreenshotShapeArgs{Refs: true} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &latecomerFake{guardFake: guardFake{topURL: "https://shop.example/cart"}}
			c, _ := startGuardHostWith(t, "block pay.example\n", protocol.ExtensionHello{}, f.handle)
			var snap protocol.Snapshot
			if perr := call(t, c, protocol.OpSnapshot, protocol.SnapshotArgs{}, &snap); perr != nil {
				t.Fatal(perr)
			}
			ref := ""
			for _, fr := range snap.Frames {
				for _, el := range fr.Elements {
					ref = el.Ref
				}
			}
			if ref == "" {
				t.Fatalf("no element in the snapshot:\n%s", snap.Text)
			}
			perr := call(t, c, tt.op, tt.args(ref), nil)
			if perr == nil || perr.Code != protocol.CodePolicy || !strings.Contains(perr.Message, "frame 3") {
				t.Errorf("%s of a page that took in a blocked frame: %+v, want a policy refusal naming the frame", tt.name, perr)
			}
			f.lmu.Lock()
			captured := f.captured
			f.lmu.Unlock()
			if !captured {
				t.Errorf("%s was refused before the capture: the premise does not hold", tt.name)
			}
		})
	}
}
