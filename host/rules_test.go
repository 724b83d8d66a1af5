package host

import (
	"testing"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// TestRulesOfFailsClosed: a frame whose URL has no origin and none to
// take (not about:blank, srcdoc or data:) is blocked, not its parent's; a
// top-level view-source: page is the page it shows; a top-level blank page
// nothing opened has the default.
func TestRulesOfFailsClosed(t *testing.T) {
	p, err := policy.Parse([]byte("block pay.example\n"))
	if err != nil {
		t.Fatal(err)
	}
	tr := rulesOf(p, []protocol.FrameInfo{
		{FrameID: 0, ParentFrameID: -1, URL: "https://shop.example/"},
		{FrameID: 1, ParentFrameID: 0, URL: "weird-scheme:thing"},
		{FrameID: 2, ParentFrameID: 0, URL: "about:srcdoc"},
	})
	if tr.byFrame[1].Rule != policy.Block || tr.byFrame[2].Rule != policy.Act {
		t.Errorf("frames: %+v", tr.byFrame)
	}
	for url, want := range map[string]policy.Rule{
		"view-source:https://pay.example/":  policy.Block,
		"view-source:https://shop.example/": policy.Act,
		"chrome://settings/passwords":       policy.Block,
		"chrome://newtab/":                  policy.Act,
		"about:blank":                       policy.Act,
	} {
		if tr := rulesOf(p, []protocol.FrameInfo{{FrameID: 0, ParentFrameID: -1, URL: url}}); tr.top.Rule != want {
			t.Errorf("a tab at %s: %s, want %s", url, tr.top.Rule, want)
		}
	}
}

// TestOpenerRule: a blank page is judged by the strictest rule of the
// documents recorded as its opener, whatever its opener tab shows now; a
// page with an opener and nothing to judge it by is blocked; one nothing
// opened is not judged here.
func TestOpenerRule(t *testing.T) {
	p, err := policy.Parse([]byte("block pay.example\n"))
	if err != nil {
		t.Fatal(err)
	}
	now := map[int]string{3: "https://shop.example/"}
	for _, tt := range []struct {
		name   string
		tab    protocol.Tab
		want   policy.Rule
		judged bool
	}{
		{"a blocked frame in an allowed page", protocol.Tab{Opener: 3, OpenedBy: []string{"https://pay.example/frame", "https://shop.example/"}}, policy.Block, true},
		{"an allowed page", protocol.Tab{Opener: 3, OpenedBy: []string{"https://shop.example/"}}, policy.Act, true},
		{"a blocked page, closed since", protocol.Tab{OpenedBy: []string{"https://pay.example/"}}, policy.Block, true},
		{"a blank frame of a blocked page", protocol.Tab{OpenedBy: []string{"about:blank", "https://pay.example/"}}, policy.Block, true},
		{"an opener that could not be read", protocol.Tab{Opener: 3, OpenedBy: []string{""}}, policy.Block, true},
		{"an opener recorded before, open now", protocol.Tab{Opener: 3}, policy.Act, true},
		{"an opener recorded before, closed", protocol.Tab{Opener: 9}, policy.Block, true},
		{"nothing opened it", protocol.Tab{}, 0, false},
	} {
		d, judged := openerRule(p, tt.tab, now)
		if judged != tt.judged || judged && d.Rule != tt.want {
			t.Errorf("%s: %s (judged %v), want %s (judged %v)", tt.name, d.Rule, judged, tt.want, tt.judged)
		}
	}
}
