package host

import (
	"context"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// TestDragRefusesBadDropTargetsAtTheHost: a drag's second element is
// checked like the first before anything reaches the browser (the fake
// extension would answer any act request with "fake: act").
func TestDragRefusesBadDropTargetsAtTheHost(t *testing.T) {
	fx, _, dirs := startHost(t, "drag1")
	fx.mu.Lock()
	fx.snap = mustJSON(fakeSnapshot(2, 2)) // @e1 @e2 in DOC0, @e3 @e4 in DOC1
	fx.mu.Unlock()
	c := connectTo(t, dirs)
	ctx := context.Background()
	var snap protocol.Snapshot
	if err := c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: 5}, &snap); err != nil {
		t.Fatal(err)
	}
	first, other := snap.Frames[0].Elements[0].Ref, snap.Frames[1].Elements[0].Ref
	tests := []struct {
		name     string
		args     protocol.ActArgs
		code     protocol.Code
		contains string
	}{
		{"no drop target", protocol.ActArgs{Action: "drag", Target: first}, protocol.CodeInvalidLocator, "needs a second element"},
		{"another document", protocol.ActArgs{Action: "drag", Target: first, To: other}, protocol.CodeBadRequest, "same document"},
		{"unknown ref", protocol.ActArgs{Action: "drag", Target: first, To: "@e999"}, protocol.CodeUnknownRef, ""},
		{"malformed", protocol.ActArgs{Action: "drag", Target: first, To: "@e0"}, protocol.CodeInvalidLocator, ""},
		{"ref and CSS", protocol.ActArgs{Action: "drag", Target: first, To: "#done"}, protocol.CodeBadRequest, "same frame"},
		{"CSS in other frames", protocol.ActArgs{Action: "drag", Target: "#a", To: "iframe >>> #b"}, protocol.CodeBadRequest, "same frame"},
		{"a second element for click", protocol.ActArgs{Action: "click", Target: first, To: first}, protocol.CodeBadRequest, "takes one element"},
		{"a drop point for click", protocol.ActArgs{Action: "click", Target: first, ToAt: &protocol.Spot{X: 1, Y: 1}}, protocol.CodeBadRequest, "takes no drop point"},
		{"a point for type", protocol.ActArgs{Action: "type", Target: first, Text: "a", At: &protocol.Spot{X: 1, Y: 1}}, protocol.CodeBadRequest, "takes no point"},
		{"a negative point", protocol.ActArgs{Action: "click", Target: first, At: &protocol.Spot{X: -3, Y: 1}}, protocol.CodeBadRequest, "outside the element"},
		{"a drop point over 100%", protocol.ActArgs{Action: "drag", Target: first, To: snap.Frames[0].Elements[1].Ref, ToAt: &protocol.Spot{X: 120, Y: 1, Percent: true}}, protocol.CodeBadRequest, "outside the element"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.Call(ctx, protocol.OpAct, tt.args, nil)
			perr := protocol.AsError(err)
			if err == nil || perr.Code != tt.code || !strings.Contains(perr.Message, tt.contains) || strings.Contains(perr.Message, "fake") {
				t.Fatalf("%+v: %v, want %s saying %q, refused at the host", tt.args, err, tt.code, tt.contains)
			}
		})
	}
	// Both ends in one document pass the host's checks and reach the page.
	err := c.Call(ctx, protocol.OpAct, protocol.ActArgs{Action: "drag", Target: first, To: snap.Frames[0].Elements[1].Ref}, nil)
	if err == nil || !strings.Contains(err.Error(), "fake: act") {
		t.Fatalf("a drag within one document did not reach the extension: %v", err)
	}
}

// A workflow being recorded cannot keep a point: the action is refused
// before it reaches the page, rather than recorded as another action.
func TestRecordingRefusesAPoint(t *testing.T) {
	fx, _, dirs := startHost(t, "drag2")
	fx.mu.Lock()
	fx.snap = mustJSON(fakeSnapshot(1, 2))
	fx.mu.Unlock()
	c := connectTo(t, dirs)
	ctx := context.Background()
	var snap protocol.Snapshot
	if err := c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: 5}, &snap); err != nil {
		t.Fatal(err)
	}
	first := snap.Frames[0].Elements[0].Ref
	args := protocol.ActArgs{Action: "click", Target: first, At: &protocol.Spot{X: 3, Y: 4}}
	if err := c.Call(ctx, protocol.OpAct, args, nil); err == nil || !strings.Contains(err.Error(), "fake: act") {
		t.Fatalf("a point action outside a recording did not reach the page: %v", err)
	}
	var rec protocol.RecordResult
	if err := c.Call(ctx, protocol.OpRecord, protocol.RecordArgs{Action: "start", File: t.TempDir() + "/w.grip"}, &rec); err != nil {
		t.Fatal(err)
	}
	err := c.Call(ctx, protocol.OpAct, args, nil)
	if perr := protocol.AsError(err); err == nil || perr.Code != protocol.CodeBadRequest || !strings.Contains(perr.Message, "cannot keep a point") {
		t.Fatalf("a point action while recording: %v", err)
	}
}
