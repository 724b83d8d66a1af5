package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
)

// Texts the walk waits for and names it looks for on the demo shop.
const (
	shopTitle    = "Checkout — grip demo shop"
	bannerText   = "We use cookies"
	paidText     = "Payment accepted"
	cardNumber   = "4242 4242 4242 4242"
	acceptName   = "Accept cookies"
	dismissName  = "Dismiss"
	cardName     = "Card number"
	emailName    = "Email"
	payPrefix    = "Pay"
	stepTimeout  = 8 * time.Second
	loadDeadline = 20 * time.Second
)

// steps are the titles of the walk's steps, in order.
var steps = []string{
	"Read the page",
	"A cookie banner appears above the form: the refs keep naming the same controls",
	"Fill the card number inside the cross-origin payment frame",
	"A stale ref is refused, with its reason",
	"A click lands",
}

// walk is one pass through the agent's loop on the demo shop.
type walk struct {
	ctx  context.Context
	c    client.Ops
	out  *printer
	site *Site

	tab    int
	first  *protocol.Snapshot // step 1
	second *protocol.Snapshot // step 2, with the banner
	failed int                // the step that failed, 0 when none did
}

// run runs the steps in order and stops at the first that fails.
func (w *walk) run() bool {
	if err := w.findTab(); err != nil {
		w.out.fail("%v", err)
		w.failed = 1
		return false
	}
	fns := []func() error{w.step1, w.step2, w.step3, w.step4, w.step5}
	for i, fn := range fns {
		w.out.step(i+1, steps[i])
		if err := fn(); err != nil {
			w.out.fail("%v", err)
			w.failed = i + 1
			for j := i + 1; j < len(fns); j++ {
				w.out.line("– step %d skipped: %s", j+1, steps[j])
			}
			return false
		}
	}
	return true
}

// findTab waits for the shop's tab to finish loading (its title is set on
// the load event, card frame included) and prints the tab list.
func (w *walk) findTab() error {
	deadline := time.Now().Add(loadDeadline)
	for {
		tabs, err := w.c.Tabs(w.ctx)
		if err != nil {
			return fmt.Errorf("grip tabs: %v", protocol.AsError(err))
		}
		for _, t := range tabs {
			if strings.HasPrefix(t.URL, w.site.Shop) && t.Title == shopTitle {
				w.tab = t.ID
				w.out.cmd("grip tabs")
				for _, t := range tabs {
					mark := " "
					if t.Active {
						mark = "*"
					}
					w.out.line("%s %d\t%s\t%s", mark, t.ID, t.Title, t.URL)
				}
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the demo shop did not load within %s (tabs: %+v)", loadDeadline, tabs)
		}
		select {
		case <-w.ctx.Done():
			return w.ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (w *walk) snapshot() (*protocol.Snapshot, error) {
	w.out.cmd("grip snapshot")
	snap, err := w.c.Snapshot(w.ctx, protocol.SnapshotArgs{Tab: w.tab, Mode: protocol.ModeInteractive})
	if err != nil {
		return nil, w.refused(err)
	}
	w.out.text(snap.Text)
	return snap, nil
}

// refused prints a refusal as the CLI does and returns it.
func (w *walk) refused(err error) error {
	perr := protocol.AsError(err)
	w.out.line("grip: %s", perr.Error())
	return perr
}

func (w *walk) act(shown string, args protocol.ActArgs) (*protocol.ActionResult, error) {
	w.out.cmd(shown)
	res, err := w.c.Act(w.ctx, args)
	if err != nil {
		return nil, err
	}
	w.out.text(frames.ActionText(frames.Done(args.Action, args.Target), *res))
	return res, nil
}

func (w *walk) wait(text string) error {
	w.out.cmd(fmt.Sprintf("grip wait --text %q", text))
	res, err := w.c.Wait(w.ctx, protocol.WaitArgs{Tab: w.tab, Text: text, TimeoutMS: int(stepTimeout.Milliseconds())})
	if err != nil {
		return w.refused(err)
	}
	w.out.text(frames.ActionText(frames.Done("wait", ""), *res))
	return nil
}

func (w *walk) step1() error {
	snap, err := w.snapshot()
	if err != nil {
		return err
	}
	w.first = snap
	if _, _, ok := find(snap, topFrame, button(acceptName)); ok {
		return errors.New("the cookie banner was there before the shop released it")
	}
	if _, _, ok := find(snap, topFrame, func(e protocol.Element) bool { return e.Role == "button" && strings.HasPrefix(e.Name, payPrefix) }); !ok {
		return errors.New("no Pay button in the top frame")
	}
	f, card, ok := find(snap, w.cardFrame, textbox(cardName))
	if !ok {
		return fmt.Errorf("no [textbox %q] under a frame header of %s", cardName, w.site.Card)
	}
	n := 0
	for _, fr := range snap.Frames {
		n += len(fr.Elements)
	}
	w.out.ok("%d elements in %d frames; the card form answers as frame %d (%s), another origin, where %s is [textbox '%s']",
		n, len(snap.Frames), f.FrameID, f.URL, card.Ref, card.Name)
	return nil
}

func (w *walk) step2() error {
	w.site.ReleaseBanner()
	if err := w.wait(bannerText); err != nil {
		return err
	}
	snap, err := w.snapshot()
	if err != nil {
		return err
	}
	w.second = snap
	before := map[string]protocol.Element{}
	high := 0
	for _, f := range w.first.Frames {
		for _, e := range f.Elements {
			before[e.Ref] = e
			high = max(high, refNum(e.Ref))
		}
	}
	kept := 0
	for _, f := range snap.Frames {
		for _, e := range f.Elements {
			old, ok := before[e.Ref]
			if !ok {
				continue
			}
			if old.Role != e.Role || old.Name != e.Name {
				return fmt.Errorf("%s was [%s '%s'] and is now [%s '%s']", e.Ref, old.Role, old.Name, e.Role, e.Name)
			}
			kept++
		}
	}
	// The controls that stayed on the page must have kept their refs.
	var same []string
	for _, want := range []struct {
		frame func(protocol.Frame) bool
		match func(protocol.Element) bool
	}{
		{topFrame, textbox(emailName)},
		{w.cardFrame, textbox(cardName)},
		{topFrame, func(e protocol.Element) bool { return e.Role == "button" && strings.HasPrefix(e.Name, payPrefix) }},
	} {
		_, a, ok1 := find(w.first, want.frame, want.match)
		_, b, ok2 := find(snap, want.frame, want.match)
		if !ok1 || !ok2 {
			return fmt.Errorf("a control of step 1 is missing from the page (step 1: %v, now: %v)", ok1, ok2)
		}
		if a.Ref != b.Ref {
			return fmt.Errorf("[%s '%s'] was %s and is now %s", a.Role, a.Name, a.Ref, b.Ref)
		}
		same = append(same, fmt.Sprintf("%s [%s '%s']", a.Ref, a.Role, a.Name))
	}
	_, accept, ok1 := find(snap, topFrame, button(acceptName))
	_, dismiss, ok2 := find(snap, topFrame, button(dismissName))
	if !ok1 || !ok2 {
		return errors.New("the banner's buttons are not in the snapshot")
	}
	if refNum(accept.Ref) <= high || refNum(dismiss.Ref) <= high {
		return fmt.Errorf("the banner's buttons (%s, %s) do not have refs above step 1's (up to @e%d)", accept.Ref, dismiss.Ref, high)
	}
	w.out.ok("the %d refs of step 1 still on the page name the same controls: %s", kept, strings.Join(same, ", "))
	w.out.ok("the banner's buttons got new refs, above every ref of step 1 (up to @e%d): %s '%s', %s '%s'",
		high, accept.Ref, accept.Name, dismiss.Ref, dismiss.Name)
	return nil
}

func (w *walk) step3() error {
	f, card, ok := find(w.second, w.cardFrame, textbox(cardName))
	if !ok {
		return errors.New("the card number field is not in the snapshot")
	}
	res, err := w.act(fmt.Sprintf("grip fill %s %q --snapshot", card.Ref, cardNumber),
		protocol.ActArgs{Action: protocol.ActFill, Target: card.Ref, Text: cardNumber, Snapshot: true})
	if err != nil {
		return w.refused(err)
	}
	snap := res.Snapshot
	if snap == nil {
		if snap, err = w.snapshot(); err != nil {
			return err
		}
	}
	_, now, ok := find(snap, w.cardFrame, func(e protocol.Element) bool { return e.Ref == card.Ref })
	if !ok {
		return fmt.Errorf("%s is no longer in the card frame", card.Ref)
	}
	if now.Value == nil || *now.Value != cardNumber {
		got := "no value"
		if now.Value != nil {
			got = fmt.Sprintf("value '%s'", *now.Value)
		}
		return fmt.Errorf("%s shows %s, want '%s'", card.Ref, got, cardNumber)
	}
	w.out.ok("%s in frame %d (%s) now holds '%s'", card.Ref, f.FrameID, f.URL, *now.Value)
	return nil
}

func (w *walk) step4() error {
	_, accept, ok1 := find(w.second, topFrame, button(acceptName))
	_, dismiss, ok2 := find(w.second, topFrame, button(dismissName))
	if !ok1 || !ok2 {
		return errors.New("the banner's buttons are not in step 2's snapshot")
	}
	w.out.note("%s is 'Dismiss': clicking it removes the banner, %s 'Accept cookies' with it", dismiss.Ref, accept.Ref)
	if _, err := w.act("grip click "+dismiss.Ref, protocol.ActArgs{Action: protocol.ActClick, Target: dismiss.Ref}); err != nil {
		return w.refused(err)
	}
	w.out.note("the agent still holds %s from its last snapshot and clicks it", accept.Ref)
	_, err := w.act("grip click "+accept.Ref, protocol.ActArgs{Action: protocol.ActClick, Target: accept.Ref})
	if err == nil {
		return fmt.Errorf("the click on %s, removed from the page, was reported as done", accept.Ref)
	}
	perr := w.refused(err).(*protocol.Error)
	if !errors.Is(perr, protocol.ErrStaleRef) {
		return fmt.Errorf("refused with %s, want %s", perr.Code, protocol.CodeStaleRef)
	}
	where := ""
	if perr.Boundary != "" {
		where = " at the " + string(perr.Boundary) + " boundary"
	}
	w.out.ok("refused with %s%s: nothing was clicked", perr.Code, where)
	return nil
}

func (w *walk) step5() error {
	_, pay, ok := find(w.second, topFrame, func(e protocol.Element) bool { return e.Role == "button" && strings.HasPrefix(e.Name, payPrefix) })
	if !ok {
		return errors.New("no Pay button in step 2's snapshot")
	}
	if _, err := w.act("grip click "+pay.Ref, protocol.ActArgs{Action: protocol.ActClick, Target: pay.Ref}); err != nil {
		return w.refused(err)
	}
	if err := w.wait(paidText); err != nil {
		return err
	}
	w.out.ok("%s '%s' (the same ref since step 1) was clicked and the page says %q", pay.Ref, pay.Name, paidText)
	return nil
}

func topFrame(f protocol.Frame) bool { return f.FrameID == 0 }

func (w *walk) cardFrame(f protocol.Frame) bool {
	return f.FrameID != 0 && strings.HasPrefix(f.URL, w.site.Card+"/")
}

func button(name string) func(protocol.Element) bool {
	return func(e protocol.Element) bool { return e.Role == "button" && e.Name == name }
}

func textbox(name string) func(protocol.Element) bool {
	return func(e protocol.Element) bool { return e.Role == "textbox" && e.Name == name }
}

// find returns the first element of a matching frame that matches.
func find(s *protocol.Snapshot, frame func(protocol.Frame) bool, el func(protocol.Element) bool) (protocol.Frame, protocol.Element, bool) {
	for _, f := range s.Frames {
		if !frame(f) {
			continue
		}
		for _, e := range f.Elements {
			if el(e) {
				return f, e, true
			}
		}
	}
	return protocol.Frame{}, protocol.Element{}, false
}

// refNum returns N of "@eN", or 0.
func refNum(ref string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(ref, "@e"))
	if err != nil {
		return 0
	}
	return n
}

// printer writes the transcript.
type printer struct{ w io.Writer }

func (p *printer) line(format string, args ...any) { fmt.Fprintf(p.w, format+"\n", args...) }

func (p *printer) step(n int, title string) {
	head := fmt.Sprintf("── Step %d/%d · %s ", n, len(steps), title)
	p.line("\n%s%s", head, strings.Repeat("─", max(3, 78-len([]rune(head)))))
}

func (p *printer) cmd(c string) { p.line("$ %s", c) }

func (p *printer) note(format string, args ...any) { p.line("# "+format, args...) }

func (p *printer) text(s string) {
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	fmt.Fprint(p.w, s)
}

func (p *printer) ok(format string, args ...any) { p.line("✓ "+format, args...) }

func (p *printer) fail(format string, args ...any) { p.line("✗ "+format, args...) }
