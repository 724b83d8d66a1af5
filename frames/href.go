package frames

import (
	"net/url"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// A link's line shows where it leads only where the name does not say it
// (docs/widgets.md, *Widgets*): a name that is empty or says
// nothing of the place ("here", "read more"), or one shared by links to
// different places. Every other link costs no more than before; the JSON
// carries every link's href.

// vagueNames are link names that say nothing of where the link leads, in
// lower case without the punctuation around them.
var vagueNames = map[string]bool{
	"here": true, "click here": true, "click": true, "more": true, "read more": true, "learn more": true,
	"more info": true, "more information": true, "details": true, "link": true, "this": true, "this link": true,
	"see more": true, "view": true, "view more": true, "view details": true, "continue": true,
	"continue reading": true, "go": true, "open": true, "info": true, "source": true, "website": true,
}

// linkCtx is what a snapshot knows around one link line.
type linkCtx struct {
	// base is the URL of the link's frame: a destination on the same origin
	// is shown as its path.
	base string
	// shared holds the names of links that lead to different places.
	shared map[string]bool
}

// shownHref is the destination e's line shows: "" for anything but a link
// whose name needs it, else the href, relative to the base's origin.
func (c *linkCtx) shownHref(e *protocol.Element) string {
	if e.Href == "" || e.Role != "link" {
		return ""
	}
	if !vague(e.Name) && !(c != nil && c.shared[e.Name]) {
		return ""
	}
	if c == nil || c.base == "" {
		return e.Href
	}
	return relativeHref(e.Href, c.base)
}

// vague reports whether a link name says nothing of where it leads.
func vague(name string) bool {
	n := strings.ToLower(strings.TrimFunc(name, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}))
	return n == "" || vagueNames[strings.Join(strings.Fields(n), " ")]
}

// relativeHref is href without the scheme and host when they are base's.
func relativeHref(href, base string) string {
	h, err := url.Parse(href)
	if err != nil || h.Host == "" {
		return href
	}
	b, err := url.Parse(base)
	if err != nil || b.Scheme != h.Scheme || b.Host != h.Host {
		return href
	}
	rel := h.EscapedPath()
	if rel == "" {
		rel = "/"
	}
	if h.RawQuery != "" {
		rel += "?" + h.RawQuery
	}
	if h.Fragment != "" {
		rel += "#" + h.EscapedFragment()
	}
	return rel
}

// sharedLinkNames returns the names carried by links to more than one
// destination, across every frame; nil when there are none.
func sharedLinkNames(frames []protocol.Frame) map[string]bool {
	var first map[string]string
	var shared map[string]bool
	for fi := range frames {
		for ei := range frames[fi].Elements {
			e := &frames[fi].Elements[ei]
			if e.Role != "link" || e.Href == "" {
				continue
			}
			if first == nil {
				first = map[string]string{}
			}
			h, ok := first[e.Name]
			if !ok {
				first[e.Name] = e.Href
			} else if h != e.Href {
				if shared == nil {
					shared = map[string]bool{}
				}
				shared[e.Name] = true
			}
		}
	}
	return shared
}
