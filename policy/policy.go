// Package policy is the person's say over what agents may do in their
// browser: a small file they edit by hand, with one rule a line by origin
// (block, read, confirm, act, script) and a few settings, parsed into a Policy
// that decides the rule of any URL. Store keeps the policy in force and
// reloads the file when it changes, keeping the last good policy when an
// edit does not parse. docs/person.md, "The person's controls",
// says how the host applies it.
//
// The format, line by line:
//
//	# a comment; blank lines are ignored
//	block   *.bank.example            # RULE PATTERN [PATTERN…]
//	read    https://mail.example.com
//	confirm https://admin.example.com:8443
//	script  http://localhost:3000     # grip eval may run code in its pages
//	default = act                     # KEY = VALUE
//	tabs = shared
//	confirm-timeout = 30s
//
// A pattern names an origin, never a path: an optional scheme
// ("https://"), a host — exact, "*.example.com" for the host and every
// subdomain, or "*" for every host — and an optional port (":8443", or
// ":*"). Without a scheme it matches every scheme, without a port every
// port. When several patterns match a URL the most specific one wins (an
// exact host beats a wildcard, a longer wildcard a shorter one, a scheme
// or port given beats one left out); between equally specific patterns
// the stricter rule wins.
package policy

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Rule is what agents may do on an origin. Larger is stricter.
type Rule uint8

// The rules, from the most permissive to the strictest. The zero Rule is
// not a rule (an unset default).
const (
	// Script: act, and run code in the page (grip eval). No origin has it
	// unless the person names it: code can do anything the page can.
	Script  Rule = iota + 1
	Act          // read and act
	Confirm      // read; each action waits for the person's Allow
	Read         // read; every action refused
	Block        // neither read nor act; tabs listed as blocked only
)

// String is the rule's name as the file writes it.
func (r Rule) String() string {
	switch r {
	case Script:
		return "script"
	case Act:
		return "act"
	case Confirm:
		return "confirm"
	case Read:
		return "read"
	case Block:
		return "block"
	}
	return "rule(" + strconv.Itoa(int(r)) + ")"
}

// ParseRule reads a rule name.
func ParseRule(s string) (Rule, bool) {
	switch s {
	case "script":
		return Script, true
	case "act":
		return Act, true
	case "confirm":
		return Confirm, true
	case "read":
		return Read, true
	case "block":
		return Block, true
	}
	return 0, false
}

// Stricter returns the stricter of two rules.
func Stricter(a, b Rule) Rule { return max(a, b) }

// TabsMode says which tabs agents may see at all.
type TabsMode string

const (
	// TabsAll: every tab (each under its origin's rule).
	TabsAll TabsMode = "all"
	// TabsShared: only tabs the person shared from the popup and tabs
	// agents opened themselves.
	TabsShared TabsMode = "shared"
)

// Defaults of the settings.
const (
	DefaultRule           = Act
	DefaultConfirmTimeout = 60 * time.Second
	MinConfirmTimeout     = time.Second
	MaxConfirmTimeout     = 10 * time.Minute
)

// Limits on what Parse reads: the file comes from outside the program.
const (
	MaxFileSize = 256 << 10
	MaxLineLen  = 2048
	MaxPatterns = 10000
)

// Policy is a parsed policy file. The zero value is not usable; Default()
// is the policy of a missing or empty file.
type Policy struct {
	DefaultRule    Rule
	Tabs           TabsMode
	ConfirmTimeout time.Duration
	// Entries are the rule lines' patterns, in file order.
	Entries []Entry
	// UploadFrom are the folders of the upload-from line as written (~
	// unexpanded); nil for the default (policy/uploads.go).
	UploadFrom []string
	// UploadFromLine is the line that set UploadFrom, 0 when unset.
	UploadFromLine int
}

// Entry is one pattern of a rule line.
type Entry struct {
	Rule    Rule
	Pattern Pattern
	Line    int
}

// String writes the entry as a rule line: "block *.bank.example".
func (e Entry) String() string { return e.Rule.String() + " " + e.Pattern.String() }

// Default is the policy of a missing or empty file: every site under act,
// every tab visible.
func Default() *Policy {
	return &Policy{DefaultRule: DefaultRule, Tabs: TabsAll, ConfirmTimeout: DefaultConfirmTimeout}
}

// Trivial reports whether the policy lets agents read and act on every
// site, on every tab: the host then needs no look at a tab's frames
// before a snapshot. The built-in rules (extension pages, file://) still
// hold: a snapshot's frames are judged by their URLs as they come back.
func (p *Policy) Trivial() bool {
	return p.DefaultRule == Act && p.Tabs == TabsAll && len(p.Entries) == 0
}

// ParseError is a line of the file that does not parse.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return "line " + strconv.Itoa(e.Line) + ": " + e.Msg
}

// Parse reads a policy file. The first line that does not parse is
// returned as a *ParseError, with nothing of the file taken.
func Parse(src []byte) (*Policy, error) {
	if len(src) > MaxFileSize {
		return nil, &ParseError{Msg: fmt.Sprintf("the file is %d bytes; a policy is at most %d", len(src), MaxFileSize)}
	}
	p := Default()
	setAt := map[string]int{}
	ruleOf := map[string]Entry{}
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	text = strings.TrimPrefix(text, "\uFEFF") // a BOM some editors write
	for i, raw := range strings.Split(text, "\n") {
		n := i + 1
		if len(raw) > MaxLineLen {
			return nil, &ParseError{n, fmt.Sprintf("the line is %d characters long; at most %d", len(raw), MaxLineLen)}
		}
		line := raw
		if c := strings.IndexByte(line, '#'); c >= 0 {
			line = line[:c]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		fields := strings.Fields(line)
		rule, isRule := ParseRule(strings.ToLower(fields[0]))
		if k, v, ok := strings.Cut(line, "="); ok && !isRule {
			key, val := strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
			if prev, dup := setAt[key]; dup {
				return nil, &ParseError{n, fmt.Sprintf("%s is set twice (line %d and line %d); keep one", key, prev, n)}
			}
			if err := p.set(key, val); err != nil {
				return nil, &ParseError{n, err.Error()}
			}
			setAt[key] = n
			continue
		}
		if !isRule {
			return nil, &ParseError{n, fmt.Sprintf("%q is not a rule: a line is RULE PATTERN (block, read, confirm, act or script, then an origin such as *.bank.example) or KEY = VALUE", fields[0])}
		}
		if len(fields) == 1 {
			return nil, &ParseError{n, fmt.Sprintf("%s names no site: add an origin pattern such as https://mail.example.com or *.bank.example", fields[0])}
		}
		for _, f := range fields[1:] {
			pat, err := ParsePattern(f)
			if err != nil {
				return nil, &ParseError{n, err.Error()}
			}
			key := pat.String()
			if prev, dup := ruleOf[key]; dup && prev.Rule != rule {
				return nil, &ParseError{n, fmt.Sprintf("%s is given two rules: %s on line %d and %s here; keep one", key, prev.Rule, prev.Line, rule)}
			} else if dup {
				continue
			}
			if len(p.Entries) >= MaxPatterns {
				return nil, &ParseError{n, fmt.Sprintf("more than %d patterns", MaxPatterns)}
			}
			e := Entry{Rule: rule, Pattern: pat, Line: n}
			ruleOf[key] = e
			p.Entries = append(p.Entries, e)
		}
	}
	p.UploadFromLine = setAt[UploadFromKey]
	return p, nil
}

// set applies one KEY = VALUE line.
func (p *Policy) set(key, val string) error {
	switch key {
	case "default":
		r, ok := ParseRule(strings.ToLower(val))
		if !ok {
			return fmt.Errorf("default = %q: give script, act, confirm, read or block", val)
		}
		p.DefaultRule = r
	case "tabs":
		switch TabsMode(strings.ToLower(val)) {
		case TabsAll:
			p.Tabs = TabsAll
		case TabsShared:
			p.Tabs = TabsShared
		default:
			return fmt.Errorf("tabs = %q: give all or shared", val)
		}
	case "confirm-timeout":
		d, err := time.ParseDuration(val)
		if err != nil {
			return fmt.Errorf("confirm-timeout = %q: give a duration such as 30s or 2m", val)
		}
		if d < MinConfirmTimeout || d > MaxConfirmTimeout {
			return fmt.Errorf("confirm-timeout = %s: give a duration from %s to %s", val, MinConfirmTimeout, MaxConfirmTimeout)
		}
		p.ConfirmTimeout = d
	case UploadFromKey:
		return p.setUploadFrom(val)
	default:
		return fmt.Errorf("unknown setting %q: the settings are default, tabs, confirm-timeout and upload-from", key)
	}
	return nil
}

// Format writes the policy back in the file's format, one setting or
// rule a line, each rule with the line it came from: what `grip policy`
// prints.
func (p *Policy) Format() string {
	var b strings.Builder
	fmt.Fprintf(&b, "default = %s\ntabs = %s\nconfirm-timeout = %s\n", p.DefaultRule, p.Tabs, p.ConfirmTimeout)
	if len(p.UploadFrom) > 0 {
		fmt.Fprintf(&b, "%s\n", p.FormatUploadFrom(ThisMachine("")))
	} else {
		fmt.Fprintf(&b, "# %s (the default)\n", p.FormatUploadFrom(ThisMachine("")))
	}
	for _, e := range p.Entries {
		fmt.Fprintf(&b, "%-8s %-40s # line %d\n", e.Rule, e.Pattern, e.Line)
	}
	return b.String()
}

// Decision is the rule a URL falls under and why.
type Decision struct {
	Rule Rule
	// Entry is the pattern that decided; nil when no pattern matched and
	// the default applies, or when Builtin decided.
	Entry *Entry
	// Builtin names a rule grip applies whatever the file says.
	Builtin string
}

// Why says where a decision comes from, for messages: `rule "block
// *.bank.example" (line 4)`, `the default (act)`, or the built-in rule.
func (d Decision) Why() string {
	switch {
	case d.Builtin != "":
		return d.Builtin
	case d.Entry != nil:
		return fmt.Sprintf("rule %q (line %d)", d.Entry.String(), d.Entry.Line)
	}
	return "the default (" + d.Rule.String() + ")"
}

// BuiltinExtensionPages is why extension pages are always blocked: they
// are other extensions' own UI (password managers, wallets) and grip's
// popup, where the person allows actions and lifts a pause.
const BuiltinExtensionPages = "grip's built-in rule: extension pages (grip's own popup, password managers, wallets) are never open to agents"

// Decide returns the rule of rawURL, failing closed: a URL whose site the
// policy cannot place is blocked (BuiltinUnplaced), and so is a document
// with no origin of its own (about:blank, srcdoc, data:, an opaque blob:),
// whose rule is its creator's: callers that know the creator (a frame's
// parent, a popup's opener) use Inherits and the creator's decision
// instead. A view-source: page is the page it shows.
func (p *Policy) Decide(rawURL string) Decision {
	if inner, ok := viewSource(rawURL); ok {
		return p.Decide(inner)
	}
	o, ok := ParseOrigin(rawURL)
	if !ok {
		if Inherits(rawURL) {
			return Decision{Rule: Block, Builtin: BuiltinNoOrigin}
		}
		return Decision{Rule: Block, Builtin: BuiltinUnplaced}
	}
	return p.DecideOrigin(o)
}

// BuiltinNoOrigin is why a document with no origin of its own is blocked
// when what created it is not known.
const BuiltinNoOrigin = "grip's built-in rule: a document with no origin of its own (about:blank, srcdoc, data:, blob:) is judged by the page that created it, and blocked when that page is not known"

// BuiltinUnplaced is why a URL whose site the policy cannot tell is
// blocked: Chrome's own pages, view-source: and devtools: views, a
// javascript: URL, a scheme Chrome would rewrite before loading
// (localhost:8080/ reads as the scheme "localhost").
const BuiltinUnplaced = "grip's built-in rule: a URL whose site grip cannot tell (chrome:, devtools:, view-source:, filesystem:, javascript:, or a scheme Chrome rewrites, as it reads localhost:8080/ as http://localhost:8080/) is closed to agents"

// viewSource returns the URL a view-source: URL shows.
func viewSource(rawURL string) (string, bool) {
	s := strings.TrimSpace(rawURL)
	if len(s) > len("view-source:") && strings.EqualFold(s[:len("view-source:")], "view-source:") {
		return s[len("view-source:"):], true
	}
	return "", false
}

// DecideOrigin returns the rule of an origin.
func (p *Policy) DecideOrigin(o Origin) Decision {
	if o.Scheme == "chrome-extension" {
		return Decision{Rule: Block, Builtin: BuiltinExtensionPages}
	}
	if o.Scheme == "file" {
		return p.decideFile() // policy/local.go
	}
	web := webSchemes[o.Scheme]
	best := -1
	var d Decision
	for i := range p.Entries {
		e := &p.Entries[i]
		if !web && e.Pattern.Scheme != o.Scheme {
			continue // the browser's own pages open only to a rule naming their scheme
		}
		s, ok := e.Pattern.match(o)
		if !ok {
			continue
		}
		if s > best || s == best && e.Rule > d.Rule {
			best = s
			d = Decision{Rule: e.Rule, Entry: e}
		}
	}
	switch {
	case best >= 0:
		return d
	case web, browserBlank[o.String()]:
		return Decision{Rule: p.DefaultRule}
	}
	return Decision{Rule: Block, Builtin: BuiltinUnplaced}
}

// Origin is a URL's scheme, host and port, normalised: lower case, no
// trailing dot on the host, the scheme's default port filled in.
type Origin struct {
	Scheme string
	Host   string
	Port   string
}

// String writes the origin as scheme://host[:port], leaving out a default
// port.
func (o Origin) String() string {
	s := o.Scheme + "://" + o.Host
	if o.Port != "" && o.Port != defaultPorts[o.Scheme] {
		s += ":" + o.Port
	}
	return s
}

// webSchemes are the schemes of sites, which the policy's patterns name;
// any other scheme with a host (chrome://settings, devtools://…) is the
// browser's own and blocked (BuiltinUnplaced) unless a rule names that
// scheme ("read chrome://version"), as file:// is.
var webSchemes = map[string]bool{"http": true, "https": true, "ws": true, "wss": true, "ftp": true}

// browserBlank are the browser's pages that show nothing of a site of
// their own: the new tab page a person opens, and the error page of a
// load that failed. Agents start from them (navigate, tabs new) under the
// default rule, as from a blank tab.
var browserBlank = map[string]bool{
	"chrome://newtab": true, "chrome://new-tab-page": true, "chrome://new-tab-page-third-party": true,
	"chrome-search://local-ntp": true, "chrome-error://chromewebdata": true,
}

var defaultPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}

// Inherits reports whether a document at rawURL has no origin of its own
// and takes the one of the document that created it: about:blank,
// about:srcdoc, data:, a blob: of an opaque origin, an empty URL. Other
// URLs without an origin (chrome:, javascript:, unknown schemes) inherit
// nothing: Decide blocks them.
func Inherits(rawURL string) bool {
	s := strings.ToLower(strings.TrimSpace(rawURL))
	switch {
	case s == "", s == "about:blank", strings.HasPrefix(s, "about:blank?"), strings.HasPrefix(s, "about:blank#"),
		s == "about:srcdoc", strings.HasPrefix(s, "data:"):
		return true
	case strings.HasPrefix(s, "blob:"):
		_, ok := ParseOrigin(s)
		return !ok
	}
	return false
}

// ParseOrigin returns the origin of rawURL; false for a URL with none of
// its own (about:, data:, javascript:, unparsable). blob: and filesystem:
// URLs have the origin of the URL inside them. file: URLs have the origin
// file:// with no host.
func ParseOrigin(rawURL string) (Origin, bool) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || u.Scheme == "" {
		return Origin{}, false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "blob" || scheme == "filesystem" {
		return ParseOrigin(u.Opaque)
	}
	switch scheme {
	case "about", "data", "javascript":
		return Origin{}, false
	case "file":
		return Origin{Scheme: "file"}, true
	}
	if u.Opaque != "" {
		return Origin{}, false
	}
	host := canonicalHost(u.Hostname())
	if host == "" {
		return Origin{}, false
	}
	port := u.Port()
	if port == "" {
		port = defaultPorts[scheme]
	}
	return Origin{Scheme: scheme, Host: host, Port: port}, true
}
