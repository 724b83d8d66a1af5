package host

import (
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// Actions the pause refuses before their tab is known are recorded with
// what they were for: a CSS target and the tab it would have landed on, a
// navigation's URL without its query.
func TestPausedActionsAreRecordedWithTheirTargets(t *testing.T) {
	g := &guardFake{topURL: "https://shop.example/cart"}
	c, _ := startGuardHost(t, "", protocol.ExtensionHello{Paused: true}, g)
	for _, a := range []protocol.ActArgs{
		{Action: protocol.ActClick, Target: "#buy"},
		{Action: protocol.ActNavigate, Text: "https://shop.example/checkout?token=s3cret"},
	} {
		if perr := call(t, c, protocol.OpAct, a, nil); perr == nil || perr.Code != protocol.CodePaused {
			t.Fatalf("%s while paused: %+v", a.Action, perr)
		}
	}
	var lg protocol.LogResult
	if perr := call(t, c, protocol.OpLog, protocol.LogArgs{}, &lg); perr != nil {
		t.Fatal(perr)
	}
	if len(lg.Entries) != 2 {
		t.Fatalf("log %+v", lg.Entries)
	}
	if e := lg.Entries[0]; e.Action != "click" || e.Target != "#buy" || e.Tab != 5 || e.Outcome != "paused" {
		t.Errorf("the paused click is recorded as %+v, want #buy on tab 5", e)
	}
	if e := lg.Entries[1]; e.Action != "navigate" || e.Detail != "to https://shop.example/checkout?token=***" || e.Tab != 5 {
		t.Errorf("the paused navigate is recorded as %+v, want its URL with the token masked, on tab 5", e)
	}
}
