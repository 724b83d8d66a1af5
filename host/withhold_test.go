package host

import (
	"testing"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// TestBlockedFrameFor: a text wait is refused for a blocked site's frame
// but not for an extension's inline frame, which grip's page code cannot
// read; a screenshot, which shows both, is refused for either.
func TestBlockedFrameFor(t *testing.T) {
	p, err := policy.Parse([]byte("block pay.example\n"))
	if err != nil {
		t.Fatal(err)
	}
	ext := []protocol.FrameInfo{
		{FrameID: 0, ParentFrameID: -1, URL: "https://shop.example/"},
		{FrameID: 4, ParentFrameID: 0, URL: "chrome-extension://aeblfdkhhhdcdjpifhhbdiojplfjncoa/inline.html"},
	}
	tr := rulesOf(p, ext)
	if id, _, ok := tr.blockedFrameFor(readProbe); ok {
		t.Errorf("a text wait is refused for the extension's frame %d", id)
	}
	if id, _, ok := tr.blockedFrameFor(readScreenshot); !ok || id != 4 {
		t.Errorf("a screenshot is not refused for the extension's frame: %d %v", id, ok)
	}
	tr = rulesOf(p, append(ext, protocol.FrameInfo{FrameID: 7, ParentFrameID: 0, URL: "https://pay.example/card"}))
	if id, _, ok := tr.blockedFrameFor(readProbe); !ok || id != 7 {
		t.Errorf("a text wait is not refused for the blocked site's frame: %d %v", id, ok)
	}
}

// TestWithheldDialog: a dialog goes out without its frame's URL, and
// without its message when that frame, or for a blank frame the tab's
// page, is blocked.
func TestWithheldDialog(t *testing.T) {
	p, err := policy.Parse([]byte("block pay.example\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		url, tab string
		withheld bool
	}{
		{"https://pay.example/card", "https://shop.example/", true},
		{"https://shop.example/x?token=1", "https://shop.example/", false},
		{"about:blank", "https://pay.example/", true},
		{"about:blank", "https://shop.example/", false},
		{"", "", true},
	} {
		d := withheldDialog(p, &protocol.Dialog{Type: "confirm", Message: "Balance 5123", URL: tt.url}, tt.tab)
		if d.URL != "" || d.Withheld != tt.withheld || (d.Message == "") != tt.withheld {
			t.Errorf("%s in %s: %+v, want withheld=%v", tt.url, tt.tab, d, tt.withheld)
		}
	}
}
