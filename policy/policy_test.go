package policy

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// parseCases are files and what Parse makes of them; FuzzParse starts
// from them too.
var parseCases = []struct {
	name    string
	src     string
	err     string // a substring of the error; "" means it parses
	entries []string
	def     Rule
	tabs    TabsMode
	timeout time.Duration
}{
	{name: "empty", src: "", def: Act, tabs: TabsAll, timeout: DefaultConfirmTimeout},
	{name: "template", src: Template, def: Act, tabs: TabsAll, timeout: DefaultConfirmTimeout},
	{name: "rules and settings", src: `
# comment
block   *.bank.example   # inline comment
read    https://mail.example.com
confirm https://admin.example.com:8443 http://localhost:*
act     127.0.0.1
default = confirm
tabs = shared
confirm-timeout = 2s
`, entries: []string{"block *.bank.example", "read https://mail.example.com", "confirm https://admin.example.com:8443",
		"confirm http://localhost", "act 127.0.0.1"}, def: Confirm, tabs: TabsShared, timeout: 2 * time.Second},
	{name: "crlf, bom, case", src: "\uFEFFBLOCK HTTPS://Bank.Example.:443/\r\nDefault = READ\r\n", entries: []string{"block https://bank.example:443"}, def: Read, tabs: TabsAll, timeout: DefaultConfirmTimeout},
	{name: "ipv6 and file", src: "read [::1]:8080 file:///\n", entries: []string{"read [::1]:8080", "read file://"}, def: Act, tabs: TabsAll, timeout: DefaultConfirmTimeout},
	{name: "same rule twice is fine", src: "block a.example\nblock a.example\n", entries: []string{"block a.example"}, def: Act, tabs: TabsAll, timeout: DefaultConfirmTimeout},
	{name: "every site", src: "block *\nact *.work.example\n", entries: []string{"block *", "act *.work.example"}, def: Act, tabs: TabsAll, timeout: DefaultConfirmTimeout},

	{name: "script", src: "script http://localhost:3000\nact *\n", entries: []string{"script http://localhost:3000", "act *"}, def: Act, tabs: TabsAll, timeout: DefaultConfirmTimeout},
	{name: "unknown rule", src: "allow example.com\n", err: `line 1: "allow" is not a rule`},
	{name: "rule without site", src: "\nblock\n", err: "line 2: block names no site"},
	{name: "path", src: "block https://bank.example/login\n", err: "not a path or a query; write https://bank.example"},
	{name: "query", src: "block bank.example?x=1\n", err: "not a path"},
	{name: "user info", src: "block me@bank.example\n", err: "leave out the user name"},
	{name: "bad port", src: "block bank.example:99999\n", err: "is not a port"},
	{name: "zero port", src: "block bank.example:0\n", err: "is not a port"},
	{name: "star inside", src: "block ba*nk.example\n", err: "* stands only for"},
	{name: "unicode host", src: "block bänk.example\n", err: "xn-- form"},
	{name: "empty label", src: "block bank..example\n", err: "empty label"},
	{name: "bad char", src: "block bank$.example\n", err: "cannot be in a host name"},
	{name: "one slash", src: "block https:/bank.example\n", err: "two slashes"},
	{name: "bad scheme", src: "block 1x://bank.example\n", err: "is not a scheme"},
	{name: "no host", src: "block https://\n", err: "names no host"},
	{name: "file path", src: "read file:///home/me\n", err: "file://"},
	{name: "ipv6 unclosed", src: "read [::1\n", err: "closing ]"},
	{name: "ipv6 junk", src: "read [zz]\n", err: "not an IPv6 address"},
	{name: "conflict", src: "block a.example\nact a.example\n", err: "line 2: a.example is given two rules: block on line 1 and act here"},
	{name: "bad default", src: "default = maybe\n", err: "give script, act, confirm, read or block"},
	{name: "bad tabs", src: "tabs = some\n", err: "give all or shared"},
	{name: "bad timeout", src: "confirm-timeout = soon\n", err: "give a duration"},
	{name: "timeout too short", src: "confirm-timeout = 10ms\n", err: "from 1s to 10m0s"},
	{name: "unknown setting", src: "colour = blue\n", err: `unknown setting "colour"`},
	{name: "set twice", src: "tabs = all\n\ntabs = shared\n", err: "tabs is set twice (line 1 and line 3)"},
	{name: "long line", src: "block " + strings.Repeat("a", MaxLineLen) + "\n", err: "characters long"},
}

// canon is a policy's settings and rules without their line numbers.
func canon(p *Policy) string {
	s := fmt.Sprintf("%s %s %s %q", p.DefaultRule, p.Tabs, p.ConfirmTimeout, p.UploadFrom)
	for _, e := range p.Entries {
		s += "\n" + e.String()
	}
	return s
}

func TestParse(t *testing.T) {
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse([]byte(tc.src))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Parse error = %v, want one containing %q", err, tc.err)
				}
				if _, ok := err.(*ParseError); !ok {
					t.Errorf("error is %T, want *ParseError", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			var got []string
			for _, e := range p.Entries {
				got = append(got, e.String())
			}
			if strings.Join(got, "|") != strings.Join(tc.entries, "|") {
				t.Errorf("entries = %q, want %q", got, tc.entries)
			}
			if p.DefaultRule != tc.def || p.Tabs != tc.tabs || p.ConfirmTimeout != tc.timeout {
				t.Errorf("settings = %s %s %s, want %s %s %s", p.DefaultRule, p.Tabs, p.ConfirmTimeout, tc.def, tc.tabs, tc.timeout)
			}
			// What Format writes reads back as the same policy.
			again, err := Parse([]byte(p.Format()))
			if err != nil {
				t.Fatalf("Format does not parse back: %v\n%s", err, p.Format())
			}
			if canon(again) != canon(p) {
				t.Errorf("Format does not round-trip:\n%s\nvs\n%s", canon(p), canon(again))
			}
		})
	}
}

const decidePolicy = `
block   *.bank.example
act     www.bank.example
read    https://mail.example.com
confirm admin.example.com:8443
block   *.example.net
read    http://*.example.net
confirm *
act     *.work.example localhost 127.0.0.1
block   file://
`

var decideCases = []struct {
	url  string
	rule Rule
	why  string // a substring of Decision.Why
}{
	{"https://bank.example/", Block, `"block *.bank.example" (line 2)`},
	{"https://x.y.bank.example/login?next=/", Block, "line 2"},
	{"https://BANK.example./", Block, "line 2"},
	{"https://www.bank.example/", Act, `"act www.bank.example" (line 3)`},
	{"http://notbank.example/", Confirm, `"confirm *"`},
	{"https://mail.example.com/inbox", Read, "line 4"},
	{"https://mail.example.com:443/", Read, "line 4"},
	{"http://mail.example.com/", Confirm, "confirm *"},
	{"https://mail.example.com:8443/", Read, "line 4"},
	{"https://admin.example.com:8443/x", Confirm, "line 5"},
	{"https://admin.example.com/", Confirm, "confirm *"},
	{"https://a.example.net/", Block, "line 6"},
	{"http://a.example.net/", Read, "line 7"},
	{"https://docs.work.example/", Act, "line 9"},
	{"http://localhost:8080/", Act, "line 9"},
	{"http://127.0.0.1:1234/", Act, "line 9"},
	{"file:///etc/passwd", Block, "line 10"},
	{"blob:https://bank.example/1234-5678", Block, "line 2"},
	{"chrome-extension://abcdefghijklmnopabcdefghijklmnop/popup.html", Block, "built-in"},
	// Fail closed: a document with no origin of its own is its creator's,
	// which Decide does not know; a URL whose site it cannot tell is
	// blocked; a view-source: page is the page it shows.
	{"about:blank", Block, "judged by the page that created it"},
	{"data:text/html,hi", Block, "judged by the page that created it"},
	{"", Block, "judged by the page that created it"},
	{"localhost:8080/home.html", Block, "cannot tell"},
	{"javascript:alert(1)", Block, "cannot tell"},
	{"chrome://settings/passwords", Block, "cannot tell"},
	{"devtools://devtools/bundled/inspector.html", Block, "cannot tell"},
	{"filesystem:localhost:8080/temporary/x", Block, "cannot tell"},
	{"view-source:https://bank.example/", Block, "line 2"},
	{"view-source:https://docs.work.example/", Act, "line 9"},
	{"view-source:localhost:8080/", Block, "cannot tell"},
	{"view-source:file:///etc/passwd", Block, "line 10"},
	{"VIEW-SOURCE:view-source:https://bank.example/", Block, "line 2"},
	{"chrome://newtab/", Act, "the default"},
	{"chrome-error://chromewebdata/", Act, "the default"},
}

func TestDecide(t *testing.T) {
	p, err := Parse([]byte(decidePolicy))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range decideCases {
		t.Run(tc.url, func(t *testing.T) {
			d := p.Decide(tc.url)
			if d.Rule != tc.rule || !strings.Contains(d.Why(), tc.why) {
				t.Errorf("Decide(%q) = %s by %s, want %s by …%s…", tc.url, d.Rule, d.Why(), tc.rule, tc.why)
			}
		})
	}
}

// TestBrowserPagesOpenOnlyByName: the browser's own pages are blocked,
// by "*" too, unless a rule names their scheme.
func TestBrowserPagesOpenOnlyByName(t *testing.T) {
	for src, want := range map[string]Rule{"": Block, "act *\n": Block, "read chrome://version\n": Read, "act chrome://*\n": Act} {
		p, err := Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if d := p.Decide("chrome://version/"); d.Rule != want {
			t.Errorf("%q: chrome://version is %s by %s, want %s", src, d.Rule, d.Why(), want)
		}
	}
}

func TestDecideTieGoesToStricter(t *testing.T) {
	p, err := Parse([]byte("act *.a.example\nblock *.b.a.example\nread *.c.example\nconfirm *.c.example:443\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Decide("https://x.b.a.example/"); d.Rule != Block {
		t.Errorf("longer wildcard: %s", d.Rule)
	}
	if d := p.Decide("https://x.c.example/"); d.Rule != Confirm {
		t.Errorf("a port given beats one left out: %s by %s", d.Rule, d.Why())
	}
	// Two patterns equally specific: the stricter rule.
	p, _ = Parse([]byte("act https://*.d.example\nblock *.d.example:443\n"))
	if d := p.Decide("https://x.d.example/"); d.Rule != Act {
		t.Errorf("scheme given beats port given: %s", d.Rule)
	}
	if _, err := Parse([]byte("act a.example\nblock a.example:*\n")); err == nil || !strings.Contains(err.Error(), "two rules") {
		t.Errorf("a.example and a.example:* are one pattern given two rules: %v", err)
	}
}

// TestScriptRule: script is the most permissive rule, named only by the
// person; a tie with act goes to act.
func TestScriptRule(t *testing.T) {
	if d := Default().Decide("http://localhost:3000/"); d.Rule != Act {
		t.Errorf("the default policy gives %s, want act: no origin has script unless named", d.Rule)
	}
	p, err := Parse([]byte("script http://localhost:3000\nact localhost\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Decide("http://localhost:3000/app"); d.Rule != Script {
		t.Errorf("named origin: %s by %s, want script", d.Rule, d.Why())
	}
	if d := p.Decide("http://localhost:4000/"); d.Rule != Act {
		t.Errorf("another port: %s, want act", d.Rule)
	}
	if p.Trivial() {
		t.Error("a policy with a script rule is not trivial")
	}
	if _, err := Parse([]byte("script a.example\nact a.example:*\n")); err == nil {
		t.Error("script and act for one pattern: want the two-rules error")
	}
	if Stricter(Script, Act) != Act {
		t.Error("act is stricter than script")
	}
}

func TestTrivial(t *testing.T) {
	for src, want := range map[string]bool{"": true, Template: true, "default = act\ntabs = all\n": true,
		"block x.example\n": false, "default = read\n": false, "tabs = shared\n": false} {
		p, err := Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if p.Trivial() != want {
			t.Errorf("Trivial(%q) = %v", src, !want)
		}
	}
}

func TestParseOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://Example.COM./a":              "https://example.com",
		"http://example.com:80/":              "http://example.com",
		"http://[::1]:8080/":                  "http://::1:8080",
		"blob:http://a.example:81/x":          "http://a.example:81",
		"filesystem:https://a.example/temp/x": "https://a.example",
		"file:///tmp/x":                       "file://",
	} {
		o, ok := ParseOrigin(in)
		if !ok || o.String() != want {
			t.Errorf("ParseOrigin(%q) = %q, %v; want %q", in, o.String(), ok, want)
		}
	}
	for _, in := range []string{"about:blank", "about:srcdoc", "data:,x", "", "blob:null/1234"} {
		if !Inherits(in) {
			t.Errorf("Inherits(%q) = false", in)
		}
	}
	// No origin, and none to take: Decide blocks them.
	for _, in := range []string{"javascript:void(0)", "nonsense", "mailto:a@b.c", "localhost:8080/", "view-source:http://a.example/", "blob:http://a.example/1"} {
		if Inherits(in) {
			t.Errorf("Inherits(%q) = true", in)
		}
	}
}

// TestDecideNavigation: only what Chrome loads as written is judged by the
// policy; any scheme it rewrites or shows another site through is blocked.
func TestDecideNavigation(t *testing.T) {
	p, err := Parse([]byte(decidePolicy))
	if err != nil {
		t.Fatal(err)
	}
	for u, want := range map[string]Rule{
		"":                                       Act, // a blank tab: the default
		"about:blank":                            Act,
		"https://docs.work.example/":             Act,
		"https://bank.example/":                  Block,
		"file:///etc/passwd":                     Block,
		"localhost:8080/home.html":               Block,
		"view-source:https://docs.work.example/": Block,
		"chrome://newtab/":                       Block,
		"javascript:alert(1)":                    Block,
		"data:text/html,hi":                      Block,
		"about:srcdoc":                           Block,
	} {
		if d := p.DecideNavigation(u); d.Rule != want {
			t.Errorf("DecideNavigation(%q) = %s by %s, want %s", u, d.Rule, d.Why(), want)
		}
	}
}

// FuzzParse: whatever the file holds, Parse neither panics nor accepts
// something Format cannot write back, and Decide answers for any URL.
func FuzzParse(f *testing.F) {
	for _, tc := range parseCases {
		f.Add(tc.src, "https://www.bank.example/")
	}
	f.Add(decidePolicy, "blob:https://x.bank.example/1")
	for _, tc := range decideCases {
		f.Add("block *.bank.example\nread mail.example.com:8080\n", tc.url)
	}
	f.Fuzz(func(t *testing.T, src, rawURL string) {
		p, err := Parse([]byte(src))
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error is %T", err)
			}
			return
		}
		again, err := Parse([]byte(p.Format()))
		if err != nil {
			t.Fatalf("Format of a parsed policy does not parse: %v\n%s", err, p.Format())
		}
		if canon(again) != canon(p) {
			t.Fatalf("Format does not round-trip:\n%s\nvs\n%s", canon(p), canon(again))
		}
		d := p.Decide(rawURL)
		if d.Rule < Act || d.Rule > Block {
			t.Fatalf("Decide gave rule %d", d.Rule)
		}
		if d2 := again.Decide(rawURL); d2.Rule != d.Rule {
			t.Fatalf("the written-back policy decides %s, the original %s", d2.Rule, d.Rule)
		}
	})
}
