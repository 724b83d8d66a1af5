package walk

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// Action is one step the walker takes: a grip action on a ref (or on the
// focused element, or the page), and the line of the element as the
// snapshot listed it.
type Action struct {
	Act    string
	Ref    string
	Text   string
	Up     bool             // scroll up instead of down
	Target protocol.Element // the element named, as last listed
	// Stale marks a ref from an earlier snapshot that the last one no
	// longer lists: the walker tries it to check the ref's refusal.
	Stale bool
}

// Command is the action as the grip command line writes it.
func (a Action) Command() string {
	parts := []string{"grip", a.Act}
	switch a.Act {
	case protocol.ActTabNew:
		parts = []string{"grip", "tabs", "new"}
	case protocol.ActDialogDismiss:
		parts = []string{"grip", "dialog", "dismiss"}
	}
	if a.Ref != "" {
		parts = append(parts, a.Ref)
	}
	if a.Up {
		parts = append(parts, "--up")
	}
	if a.Text != "" {
		parts = append(parts, quote(a.Text))
	}
	return strings.Join(parts, " ")
}

func quote(s string) string {
	if s != "" && !strings.ContainsAny(s, " '\"\\$`\t\n") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Args are the action's arguments for grip's act operation.
func (a Action) Args(tab int) protocol.ActArgs {
	args := protocol.ActArgs{Action: a.Act, Target: a.Ref, Text: a.Text, Tab: tab}
	if a.Act == protocol.ActScroll && a.Up {
		args.Text = "up"
	}
	return args
}

// avoided are the names a person would not click on a walk through an app
// they use: leaving it, or losing what is in it.
var avoided = regexp.MustCompile(`(?i)\b(log ?out|log ?off|sign ?out|sign ?off|delete|remove|destroy|discard|erase|wipe|purge|reset|clear all|unsubscribe|deactivate|close (my )?account|drop|trash|uninstall|shut ?down|halt|kill|restart|quit|exit|revoke|cancel (my )?subscription)\b`)

// Chooser picks each step from what a snapshot offers, from its own seeded
// source: the same seed on the same pages makes the same walk.
type Chooser struct {
	rnd    *rand.Rand
	avoid  []string
	origin string
}

// NewChooser is a chooser seeded with seed that avoids, besides logout
// and destructive controls, every element whose name contains one of
// avoid (case-insensitive), and links that leave start's origin.
func NewChooser(seed uint64, start string, avoid []string) *Chooser {
	c := &Chooser{rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), origin: originOf(start)}
	for _, a := range avoid {
		if a = strings.TrimSpace(a); a != "" {
			c.avoid = append(c.avoid, strings.ToLower(a))
		}
	}
	return c
}

func originOf(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return ""
	}
	return p.Scheme + "://" + p.Host
}

// Avoids reports whether the walk leaves e alone.
func (c *Chooser) Avoids(e protocol.Element) bool {
	if avoided.MatchString(e.Name) {
		return true
	}
	name := strings.ToLower(e.Name)
	for _, a := range c.avoid {
		if strings.Contains(name, a) {
			return true
		}
	}
	if e.Href != "" && c.origin != "" {
		if o := originOf(e.Href); o != "" && o != c.origin {
			return true
		}
		if strings.HasPrefix(strings.ToLower(e.Href), "javascript:") {
			return false
		}
	}
	return false
}

type option struct {
	weight float64
	a      Action
}

var (
	clickable = []string{"button", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "treeitem", "option", "gridcell", "row", "columnheader", "summary", "disclosure", "cell"}
	fillable  = []string{"textbox", "searchbox", "spinbutton", "textarea"}
	checkable = []string{"checkbox", "radio", "switch"}
	keys      = []string{"Enter", "Tab", "Escape", "ArrowDown", "ArrowUp", "Shift+Tab", "Space", "End", "Home"}
)

// Next picks the next step on snap; old are elements earlier snapshots
// listed that snap does not (their refs, tried again, must be refused).
func (c *Chooser) Next(snap protocol.Snapshot, old []protocol.Element) Action {
	var opts []option
	add := func(w float64, a Action) { opts = append(opts, option{w, a}) }
	var els []protocol.Element
	for _, f := range snap.Frames {
		els = append(els, f.Elements...)
	}
	for i, e := range els {
		if c.Avoids(e) || slices.Contains(e.States, "disabled") {
			continue
		}
		on := func(act string) Action { return Action{Act: act, Ref: e.Ref, Target: e} }
		switch {
		case slices.Contains(fillable, e.Role) || (e.Role == "combobox" && e.Value != nil && !hasOptions(els, i)):
			// A combobox with a value and no options listed may be a
			// text field with suggestions, or a select: try both ways.
			w := 1.0
			if e.Role == "combobox" {
				w = 0.2
				add(1, on(protocol.ActClick))
			}
			fill := on(protocol.ActFill)
			fill.Text = c.text(e, els)
			add(3*w, fill)
			typ := on(protocol.ActType)
			typ.Text = c.text(e, els)
			add(0.7*w, typ)
		case e.Role == "combobox" || e.Role == "listbox":
			if opt := options(els, i); len(opt) > 0 {
				sel := on(protocol.ActSelect)
				sel.Text = opt[c.rnd.IntN(len(opt))]
				add(2, sel)
			}
			add(1, on(protocol.ActClick))
		case slices.Contains(checkable, e.Role):
			if slices.Contains(e.States, "checked") && e.Role != "radio" {
				add(1.5, on(protocol.ActUncheck))
			} else {
				add(1.5, on(protocol.ActCheck))
			}
			add(0.5, on(protocol.ActClick))
		case slices.Contains(clickable, e.Role):
			add(2, on(protocol.ActClick))
		default:
			// Headings, text, images: an agent reads them; hovering one
			// is how the observer learns which node a ref is.
			add(0.15, on(protocol.ActHover))
			continue
		}
		add(0.4, on(protocol.ActHover))
		add(0.15, on(protocol.ActFocus))
	}
	for _, k := range keys {
		add(0.25, Action{Act: protocol.ActPress, Text: k})
	}
	add(0.8, Action{Act: protocol.ActScroll})
	add(0.3, Action{Act: protocol.ActScroll, Up: true})
	if w := c.word(els); w != "" {
		add(0.5, Action{Act: protocol.ActFind, Text: w})
	}
	add(0.3, Action{Act: protocol.ActBack})
	if len(old) > 0 {
		e := old[c.rnd.IntN(len(old))]
		act := protocol.ActHover
		if slices.Contains(clickable, e.Role) && !c.Avoids(e) {
			act = protocol.ActClick
		}
		add(1.5, Action{Act: act, Ref: e.Ref, Target: e, Stale: true})
	}
	return pick(c.rnd, opts)
}

func pick(rnd *rand.Rand, opts []option) Action {
	total := 0.0
	for _, o := range opts {
		total += o.weight
	}
	x := rnd.Float64() * total
	for _, o := range opts {
		if x < o.weight {
			return o.a
		}
		x -= o.weight
	}
	return opts[len(opts)-1].a
}

// options are the names of the options listed right after the element at
// i (a select's or a listbox's).
func options(els []protocol.Element, i int) []string {
	var names []string
	for _, e := range els[i+1:] {
		if e.Role != "option" {
			break
		}
		if e.Name != "" && !slices.Contains(e.States, "disabled") {
			names = append(names, e.Name)
		}
	}
	return names
}

func hasOptions(els []protocol.Element, i int) bool { return len(options(els, i)) > 0 }

// word is a word one of the page's elements says, for a find.
func (c *Chooser) word(els []protocol.Element) string {
	if len(els) == 0 {
		return ""
	}
	for range 5 {
		ws := strings.Fields(els[c.rnd.IntN(len(els))].Name)
		if len(ws) > 0 {
			if w := strings.Trim(ws[c.rnd.IntN(len(ws))], ".,:;!?()[]'\""); len([]rune(w)) >= 3 {
				return w
			}
		}
	}
	return ""
}

// text is what a person would type into e.
func (c *Chooser) text(e protocol.Element, els []protocol.Element) string {
	name := strings.ToLower(e.Name + " " + e.Context)
	one := func(xs ...string) string { return xs[c.rnd.IntN(len(xs))] }
	switch {
	case strings.Contains(name, "mail"):
		return one("ada.lovelace@example.com", "grace+test@example.org", "j.doe@mail.example")
	case strings.Contains(name, "phone") || strings.Contains(name, "tel"):
		return one("+1 555 0100", "(020) 7946 0958", "555-0199")
	case strings.Contains(name, "url") || strings.Contains(name, "website") || strings.Contains(name, "link"):
		return one("https://example.org/about", "example.com")
	case strings.Contains(name, "date") || strings.Contains(name, "birthday"):
		return one("2026-03-14", "03/14/2026", "14 March 2026")
	case strings.Contains(name, "password"):
		return one("correct horse battery staple", "Tr0ub4dor&3")
	case strings.Contains(name, "zip") || strings.Contains(name, "postal"):
		return one("94110", "SW1A 1AA")
	case e.Role == "spinbutton" || strings.Contains(name, "number") || strings.Contains(name, "qty") ||
		strings.Contains(name, "quantity") || strings.Contains(name, "amount") || strings.Contains(name, "age") || strings.Contains(name, "price"):
		return one("1", "42", "3.5", "0", "-7", "1000000")
	case strings.Contains(name, "search") || strings.Contains(name, "filter") || strings.Contains(name, "find") || e.Role == "searchbox":
		if w := c.word(els); w != "" && c.rnd.IntN(2) == 0 {
			return w
		}
		return one("report", "invoice 2026", "zz no such thing")
	case strings.Contains(name, "name"):
		return one("Ada Lovelace", "Zoë Ørsted", "李小龙", "O'Brien-Smith")
	case strings.Contains(name, "title") || strings.Contains(name, "subject"):
		return one("Quarterly report", "Re: the plan for March", "Notes")
	}
	return one(
		"Meeting notes for Tuesday",
		"The quick brown fox jumps over the lazy dog.",
		"Naïve café — résumé ✓",
		"Line one\nLine two",
		"<b>not bold</b> & 'quoted'",
		strings.Repeat("A long paragraph of text that keeps going. ", 6),
		fmt.Sprint(c.rnd.IntN(10000)),
	)
}
