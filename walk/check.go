package walk

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/grip-dev/grip/internal/picture"
	"github.com/grip-dev/grip/protocol"
)

// The invariants, as a violation's line names them.
const (
	InvRefs     = 1 // a listed ref is accepted while its element is connected, refused stale_ref when not
	InvPicture  = 2 // the reply plus the picture before is the page after; settled means settled
	InvLanded   = 3 // an action on an element lands on that element, once
	InvReply    = 4 // no reply internal, empty or raw; every refusal has a code and a next step
	InvBlocked  = 5 // nothing a policy rule blocks is in a reply
	InvBounded  = 6 // host and extension memory stay bounded
	InvSaid     = 7 // an action's reply carries what the app said in answer to it
	invariants  = 7
	quietBefore = 500 * time.Millisecond
)

var invariantNames = [...]string{"", "refs", "picture", "landed", "reply", "blocked", "memory", "said"}

// Violation is one broken promise.
type Violation struct {
	Invariant int
	What      string
}

func (v Violation) String() string {
	return fmt.Sprintf("invariant %d (%s): %s", v.Invariant, invariantNames[v.Invariant], v.What)
}

func violation(inv int, format string, args ...any) Violation {
	return Violation{inv, fmt.Sprintf(format, args...)}
}

// codes are the codes of the contract (protocol/errors.go), internal
// aside.
var codes = []protocol.Code{
	protocol.CodeStaleRef, protocol.CodeUnknownRef, protocol.CodeMeaningChanged, protocol.CodeNotActionable,
	protocol.CodeInvalidLocator, protocol.CodeDocumentChanged, protocol.CodeEpochSuperseded, protocol.CodeHostLost,
	protocol.CodeNoBrowser, protocol.CodeTooLarge, protocol.CodeBadRequest, protocol.CodeTimeout,
	protocol.CodePaused, protocol.CodePolicy, protocol.CodeNotConfirmed, protocol.CodeDownloadFailed,
	protocol.CodeNavigationFailed, protocol.CodeNotFound, protocol.CodeAmbiguous, protocol.CodeReplayDiverged,
	protocol.CodeNotYourTab, protocol.CodeSessionEnded,
}

// raw are what a browser's or a script's own messages look like, which an
// agent can do nothing with.
var raw = regexp.MustCompile(`(?i)(cannot access contents of|no tab with id|no frame with id|cannot find context|execution context was destroyed|uncaught |typeerror|referenceerror|syntaxerror|is not a function|cannot read propert|undefined is not|is not defined|frame with id \d+|debugger is not attached|another debugger is already|target closed|receiving end does not exist|could not establish connection|message port closed|\bat [A-Za-z_$.]+ \(|chrome-extension://[a-p]{32}/[a-z-]+\.js)`)

// CheckReply is invariant 4: a reply is an action's result, or a refusal
// of the contract with a next step; never internal, empty, or raw.
func CheckReply(res *protocol.ActionResult, err error) []Violation {
	if err != nil {
		var pe *protocol.Error
		if !errors.As(err, &pe) {
			return []Violation{violation(InvReply, "not a grip refusal: %v", err)}
		}
		var vs []Violation
		switch {
		case pe.Code == protocol.CodeInternal:
			vs = append(vs, violation(InvReply, "refused internal"))
		case !slices.Contains(codes, pe.Code):
			vs = append(vs, violation(InvReply, "refused with code %q, which protocol/errors.go does not have", pe.Code))
		}
		if strings.TrimSpace(pe.Message) == "" {
			vs = append(vs, violation(InvReply, "a refusal with no message"))
		}
		if strings.TrimSpace(pe.Hint) == "" && !strings.Contains(pe.Message, "grip ") {
			vs = append(vs, violation(InvReply, "a %s refusal with no next step (no hint, no command in its message)", pe.Code))
		}
		if m := raw.FindString(pe.Message + " " + pe.Hint); m != "" {
			vs = append(vs, violation(InvReply, "the refusal carries the browser's raw message (%q)", m))
		}
		return vs
	}
	if res == nil {
		return []Violation{violation(InvReply, "an empty reply")}
	}
	var vs []Violation
	if res.Tab.ID == 0 {
		vs = append(vs, violation(InvReply, "a reply that names no tab"))
	}
	if !res.OK && res.Detail == "" {
		vs = append(vs, violation(InvReply, "a reply neither ok nor refused"))
	}
	if m := raw.FindString(res.Detail); m != "" {
		vs = append(vs, violation(InvReply, "the reply carries the browser's raw message (%q)", m))
	}
	return vs
}

// Outcome is one action as the walker and the observer saw it.
type Outcome struct {
	Action Action
	Res    *protocol.ActionResult
	Err    error
	// Bound: the observer knows the node Action.Ref names (an earlier
	// action on it landed there); Pre and Post are its connectedness
	// right before the action and right after its reply.
	Bound     bool
	Pre, Post Alive
	// Field: the bound node is a native text field (a fill there must
	// dispatch input).
	Field bool
	// Landed are the events of the action's kind the page dispatched
	// meanwhile, with whether each was on the ref's node or inside it
	// (when Bound) and the node as the observer describes it.
	Landed []Landing
}

// Landing is one event an action caused.
type Landing struct {
	Event  Event
	Within bool
	// OutOfReach: the event's document was gone by the time the observer
	// asked (the click navigated), so where it landed cannot be judged.
	OutOfReach bool
	Node       string
}

// refusedGone are the refusals fit for a ref whose element is gone.
var refusedGone = []protocol.Code{protocol.CodeStaleRef, protocol.CodeUnknownRef, protocol.CodeDocumentChanged,
	protocol.CodeNotYourTab, protocol.CodePolicy, protocol.CodePaused, protocol.CodeNoBrowser}

// CheckRef is invariant 1, by the observer's word on the node: a ref is
// refused stale_ref exactly when its element is not connected. Only a node
// the observer saw the same both before and after the action counts.
func CheckRef(o Outcome) []Violation {
	if o.Action.Ref == "" || !o.Bound || o.Pre != o.Post || o.Pre == Unknown {
		return nil
	}
	var pe *protocol.Error
	refused := errors.As(o.Err, &pe)
	switch {
	case o.Pre == Connected && refused && pe.Code == protocol.CodeStaleRef:
		return []Violation{violation(InvRefs, "refused stale_ref, but the observer sees its element connected")}
	case o.Pre == Disconnected && o.Err == nil:
		return []Violation{violation(InvRefs, "accepted, but the observer sees its element disconnected")}
	case o.Pre == Disconnected && refused && !slices.Contains(refusedGone, pe.Code):
		return []Violation{violation(InvRefs, "refused %s, but its element is not connected: stale_ref is the refusal that says so", pe.Code)}
	}
	return nil
}

// landsBy is the event each action on an element must cause there. A
// click's is its press: a page that removes the element on mousedown (a
// dropdown's option) gets no click event from a real mouse either.
var landsBy = map[string]string{
	protocol.ActClick: "mousedown", protocol.ActCheck: "mousedown", protocol.ActUncheck: "mousedown",
	protocol.ActHover: "mouseover", protocol.ActFocus: "focus",
	protocol.ActFill: "input", protocol.ActType: "input", protocol.ActSelect: "change",
}

// lands reports whether event t is one an action of kind landsBy[act]
// dispatches on its element.
func lands(act, t string) bool {
	k := landsBy[act]
	return t == k || (k == "mousedown" && t == "click")
}

// mustLand are the actions that always dispatch their event when done (a
// hover on the element already under the pointer, a focus of the focused
// one, a select of the selected option need not); a fill or a type, on a
// native text field.
var mustLand = []string{protocol.ActClick, protocol.ActCheck, protocol.ActUncheck}

func mustLandOf(o Outcome) bool {
	if o.Action.Act == protocol.ActFill || o.Action.Act == protocol.ActType {
		return o.Bound && o.Field
	}
	return slices.Contains(mustLand, o.Action.Act)
}

// CheckLanded is invariant 3: an action grip says it did on an element
// dispatched its event there, on the element or inside it, and a click
// once.
func CheckLanded(o Outcome) []Violation {
	if o.Action.Ref == "" || o.Err != nil || o.Res == nil || landsBy[o.Action.Act] == "" {
		return nil
	}
	if len(o.Landed) == 0 {
		if mustLandOf(o) && !strings.HasPrefix(o.Res.Detail, "already ") {
			return []Violation{violation(InvLanded, "reported done, but the page saw no %s event on any element", landsBy[o.Action.Act])}
		}
		return nil
	}
	var vs []Violation
	if o.Bound {
		for _, l := range o.Landed {
			if !l.Within && !l.OutOfReach {
				vs = append(vs, violation(InvLanded, "the %s landed on %s, not on the ref's element", l.Event.Type, l.Node))
				break
			}
		}
	}
	if landsBy[o.Action.Act] == "mousedown" {
		// Once: one press and at most one click on the node pressed (a
		// label's click on its input is another node's).
		first, n := o.Landed[0].Event.Node(), map[string]int{}
		for _, l := range o.Landed {
			if l.Event.Node() == first {
				n[l.Event.Type]++
			}
		}
		if n["mousedown"] > 1 || n["click"] > 1 {
			vs = append(vs, violation(InvLanded, "pressed %d times and clicked %d times, not once (on %s)", n["mousedown"], n["click"], o.Landed[0].Node))
		}
	}
	return vs
}

// Settling says whether a reply's picture can be held to the page after it:
// the page was quiet before the action and grip says it settled.
func Settling(res *protocol.ActionResult, quiet time.Duration) bool {
	if res == nil || quiet < quietBefore || res.Live || res.Loading != "" || res.Dialog != nil ||
		len(res.Opened) > 0 || (res.Settled != nil && !*res.Settled) {
		return false
	}
	return true
}

// CheckPicture is invariant 2: the picture before the action, with the
// reply's changes (and the lines read on when the reply was cut) put in,
// is the page a snapshot reads right after.
func CheckPicture(before protocol.Snapshot, res *protocol.ActionResult, readOn *protocol.Snapshot, after protocol.Snapshot) []Violation {
	if res == nil || before.Omitted > 0 || after.Omitted > 0 || before.Tab.ID != after.Tab.ID ||
		(res.Changes.Omitted > 0 && readOn == nil) {
		return nil
	}
	known := picture.Of(before)
	known.Apply(res.Changes)
	if readOn != nil {
		shown := picture.Shown(readOn.Text)
		for _, f := range readOn.Frames {
			for _, e := range f.Elements {
				if shown[e.Ref] {
					known[e.Ref] = e
				}
			}
		}
	}
	now := picture.Of(after)
	if known.Same(now) {
		return nil
	}
	said := "the reply"
	if res.Settled != nil && *res.Settled {
		said = "the reply said settled, yet"
	}
	d := known.Diff(now)
	if len(d) > 400 {
		d = d[:400] + "…"
	}
	return []Violation{violation(InvPicture, "%s the page after differs from the picture with it: %s", said, d)}
}

// CheckBlocked is invariant 5: none of markers (the blocked frame's text,
// its origin) is in text.
func CheckBlocked(text string, markers []string) []Violation {
	for _, m := range markers {
		if m != "" && strings.Contains(text, m) {
			return []Violation{violation(InvBlocked, "the reply shows %q, which the policy blocks", m)}
		}
	}
	return nil
}

// Memory is one reading of what grip holds.
type Memory struct {
	Step       int
	HostRSS    int64 // the host process's resident set, bytes
	WorkerHeap int64 // grip's service worker's JavaScript heap in use, bytes
}

// CheckBounded is invariant 6: from the second reading (the first after
// the walk warmed up) to the last, the host's memory did not grow past
// twice and 64 MiB, nor the worker's heap past three times and 32 MiB.
func CheckBounded(ms []Memory) []Violation {
	if len(ms) < 3 {
		return nil
	}
	base, last := ms[1], ms[len(ms)-1]
	var vs []Violation
	if base.HostRSS > 0 && last.HostRSS > 2*base.HostRSS+64<<20 {
		vs = append(vs, violation(InvBounded, "the host grew from %d MiB (step %d) to %d MiB (step %d)", base.HostRSS>>20, base.Step, last.HostRSS>>20, last.Step))
	}
	if base.WorkerHeap > 0 && last.WorkerHeap > 3*base.WorkerHeap+32<<20 {
		vs = append(vs, violation(InvBounded, "the extension's worker heap grew from %d MiB (step %d) to %d MiB (step %d)", base.WorkerHeap>>20, base.Step, last.WorkerHeap>>20, last.Step))
	}
	return vs
}

// CheckHeld is invariant 1 for every ref the walk holds, not only the one
// acted on: a ref a fresh snapshot lists still names the element the
// observer bound it to, so that element is connected. listed are the refs
// the snapshot lists that the walk has bound, alive what the observer says
// of each one's element (Unknown: out of its reach, not judged).
func CheckHeld(listed []string, alive map[string]Alive) []Violation {
	var vs []Violation
	for _, ref := range listed {
		if alive[ref] == Disconnected {
			vs = append(vs, violation(InvRefs, "%s is listed, but the element it named is no longer connected: the ref names another element now", ref))
		}
	}
	return vs
}

// Region is a live region (alert, status, log, aria-live, output) or a
// status its class or id names, as the observer saw it over one action
// (walk/world.js reply): one that changed or came on the page while the
// action ran.
type Region struct {
	// Text is what it shows at the reply (spaces folded, lower case).
	Text string `json:"text"`
	// Alert: role=alert, which speaks when it appears.
	Alert bool `json:"alert"`
	// Toast: role=status, which speaks when it appears in a page already
	// read (a toast, as react-hot-toast puts each on the page).
	Toast bool `json:"toast"`
	// Was is what it showed when the action began ("" when Born).
	Was string `json:"was"`
	// Born: it came on the page, or took its role, while the action ran,
	// or is in a document the action loaded (Loaded). Came is its text
	// content then, Content its text content at the reply, Changed that
	// its text changed in between.
	Born    bool   `json:"born"`
	Loaded  bool   `json:"loaded"`
	Came    string `json:"came"`
	Content string `json:"content"`
	Changed bool   `json:"changed"`
	// Ticks is how often its text changed in the 10 s before the action
	// began, with no action running: a clock's.
	Ticks int `json:"ticks"`
}

// grip's promise (docs/effects.md, "What the app said"): a region whose
// text changed tickerTicks times in the 10 s before the action is a
// ticker, and a reply holds at most maxSaid messages.
const (
	tickerTicks = 3
	maxSaid     = 6
)

// Owed is what grip promises to quote of r, "" when nothing
// (docs/effects.md, "What the app said"): an alert's text when it came on
// the page or changed; a toast's (role=status) when it came on a page
// already read; a status or live region's when it changed while on
// the page — not what it came on the page with, nor what it shows in a
// page the action loaded (grip's first read of that page is its
// baseline, a moment the observer cannot see), nor a ticker's. The
// observer counts a ticker with one change fewer than grip: the moments
// between its start and grip's are before the action for grip.
func Owed(r Region) string {
	switch {
	case r.Text == "" || r.Ticks >= tickerTicks-1:
		return ""
	case r.Alert:
		if r.Born || r.Text != r.Was {
			return r.Text
		}
		return ""
	case r.Loaded:
		return ""
	case r.Toast && r.Born:
		return r.Text
	case r.Born:
		if r.Content != r.Came {
			return r.Text
		}
		return ""
	case r.Text != r.Was:
		return r.Text
	}
	return ""
}

// drawn says whether r shows only what it came on the page with: what a
// page draws, which grip must not quote as said.
func drawn(r Region) bool {
	return !r.Alert && !(r.Toast && !r.Loaded) && r.Born && !r.Changed && r.Text != ""
}

// CheckSaid is invariant 7, both ways: every text grip owes (Owed) is
// among what the reply says the app said (grip cuts each short: a start of
// it, or it within one, counts), unless the reply holds as many as it may;
// and no status or live region's text the reply quotes is only what a
// region came on the page with (DokuWiki's namespace tree, each closed
// node aria-live). At most one violation a step.
func CheckSaid(regions []Region, res *protocol.ActionResult) []Violation {
	if res == nil {
		return nil
	}
	var said []string
	for _, s := range res.Said {
		if t := normText(s.Text); t != "" {
			said = append(said, t)
		}
	}
	match := func(a, b string) bool { return strings.Contains(a, b) || strings.Contains(b, a) }
	var missed, owed []string
	for _, r := range regions {
		t := normText(Owed(r))
		if t == "" {
			continue
		}
		owed = append(owed, t)
		if len(res.Said) < maxSaid && !slices.ContainsFunc(said, func(s string) bool { return match(t, s) }) {
			missed = append(missed, t)
		}
	}
	if len(missed) > 0 {
		more := ""
		if len(missed) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(missed)-1)
		}
		return []Violation{violation(InvSaid, "the page's live region says '%s'%s, which the reply's said leaves out", short(missed[0]), more)}
	}
	for _, s := range res.Said {
		if s.Role == "alert" || s.Role == "flash" || s.Role == "validation" || s.Role == "dialog" {
			continue // what speaks when it appears, and a field's own
		}
		t := normText(s.Text)
		if t == "" || slices.ContainsFunc(owed, func(o string) bool { return match(t, o) }) {
			continue
		}
		for _, r := range regions {
			if drawn(r) && match(t, normText(r.Text)) {
				return []Violation{violation(InvSaid, "the reply's said quotes '%s', which a region only came on the page with: the page drew it, the app said nothing", short(t))}
			}
		}
	}
	return nil
}

// short is t cut for a violation's line.
func short(t string) string {
	if len(t) > 80 {
		return t[:80] + "…"
	}
	return t
}

// normText is text as CheckSaid compares it: spaces folded, lower case,
// grip's marks of a cut (…) dropped.
func normText(s string) string {
	s = strings.ReplaceAll(s, "…", " ")
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}
