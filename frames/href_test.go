package frames

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

func TestLinkLinesShowHrefWhereTheNameDoesNotSayIt(t *testing.T) {
	page := "https://shop.example/news/"
	link := func(ref, name, href string) protocol.Element {
		return protocol.Element{Ref: ref, Role: "link", Name: name, Href: href}
	}
	els := []protocol.Element{
		link("@e1", "here", "https://shop.example/docs/install?v=2#linux"),
		link("@e2", "Read more…", "https://shop.example/notes/security"),
		link("@e3", "Read more…", "https://shop.example/notes/speed"),
		link("@e4", "Documentation", "https://shop.example/docs/"),
		link("@e5", "", "https://cdn.other.example/feed.xml"),
		link("@e6", "Pricing", "https://shop.example/pricing"),
		link("@e7", "Pricing", "https://shop.example/pricing"),
		link("@e8", "Careers", "https://jobs.example/"),
		link("@e9", "Careers", "https://jobs.example/eu"),
		{Ref: "@e10", Role: "button", Name: "here", Href: "https://shop.example/x"},
	}
	snap, err := Render(protocol.TabRef{ID: 1, URL: page}, []protocol.Frame{{URL: page, Elements: els}}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"@e1: [link 'here' href='/docs/install?v=2#linux']",
		"@e2: [link 'Read more…' href='/notes/security']",
		"@e3: [link 'Read more…' href='/notes/speed']",
		"@e4: [link 'Documentation']",
		"@e5: [link href='https://cdn.other.example/feed.xml']",
		"@e6: [link 'Pricing']",
		"@e7: [link 'Pricing']",
		"@e8: [link 'Careers' href='https://jobs.example/']",
		"@e9: [link 'Careers' href='https://jobs.example/eu']",
		"@e10: [button 'here']",
	}
	got := strings.Split(strings.TrimSpace(snap.Text), "\n")[2:]
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if snap.Tokens != costOf(snap.Text) {
		t.Errorf("tokens %d, the text costs %d: the hrefs must count", snap.Tokens, costOf(snap.Text))
	}
	// The JSON keeps every href, whole.
	if snap.Frames[0].Elements[3].Href != "https://shop.example/docs/" {
		t.Errorf("JSON href = %q", snap.Frames[0].Elements[3].Href)
	}
}

func costOf(text string) int {
	n := 0
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		n += Cost(l)
	}
	return n
}

func TestLineAloneShowsHrefOfVagueLinksWhole(t *testing.T) {
	got := Line(protocol.Element{Ref: "@e3", Role: "link", Name: "Click here!", Href: "https://a.example/x?q='1'"})
	if want := `@e3: [link 'Click here!' href='https://a.example/x?q=\'1\'']`; got != want {
		t.Errorf("Line = %s, want %s", got, want)
	}
	if got := Line(protocol.Element{Ref: "@e4", Role: "link", Name: "Blog", Href: "https://a.example/blog"}); got != "@e4: [link 'Blog']" {
		t.Errorf("a named link shows its href: %s", got)
	}
}

func TestActionReplyShowsHrefRelativeToTheTab(t *testing.T) {
	res := protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 2, URL: "http://x.test/a"},
		Changes: protocol.Changes{Appeared: []protocol.Element{{Ref: "@e9", Role: "link", Name: "more", Href: "http://x.test/b"}}}}
	if got := ActionText("ok: click @e1", res); !strings.Contains(got, "@e9: [link 'more' href='/b']\n") {
		t.Errorf("reply:\n%s", got)
	}
}
