package widgets_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// A link's destination without reading the page's HTML: --json carries
// every href; the text shows it only where the name does not say where
// the link goes.
func TestLinksShowWhereTheyGoWhereTheNameDoesNot(t *testing.T) {
	a := suite.Open(t, "/testdata/links.html")
	snap := a.Until("link", "Documentation")
	for _, want := range []string{
		"[link 'here' href='/docs/install.html']",
		"[link 'Read more' href='/notes/security.html']",
		"[link 'Read more' href='/notes/speed.html']",
		"[link 'Documentation']",
		"[link 'About us']",
		"[link href='https://example.org/feed']",
	} {
		if !strings.Contains(snap, want+"\n") && !strings.HasSuffix(snap, want) {
			t.Errorf("no line %s in\n%s", want, snap)
		}
	}
	var js protocol.Snapshot
	if err := json.Unmarshal([]byte(a.Must("snapshot", "--tab", a.Tab, "--json")), &js); err != nil {
		t.Fatal(err)
	}
	hrefs := map[string]string{}
	for _, f := range js.Frames {
		for _, e := range f.Elements {
			hrefs[e.Name] = e.Href
		}
	}
	if got := hrefs["Documentation"]; got != suite.Env.Origin1+"/docs/" {
		t.Errorf("--json href of Documentation = %q, want %q", got, suite.Env.Origin1+"/docs/")
	}
	if got := hrefs["About us"]; got != "https://example.org/about" {
		t.Errorf("--json href of About us = %q", got)
	}
}
