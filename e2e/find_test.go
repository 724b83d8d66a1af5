package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// grip find (docs/long-lists.md, "Long lists") is an action: it passes
// the person's controls like a scroll. A frame the policy blocks is never
// searched or scrolled, another session's tab is refused, and a find in
// the top frame reads that document only.
func TestFindUnderThePersonsControls(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t) // Origin1, with its card frame on Origin2
	card := mustRef(t, snap, "textbox", "Card number")

	// Found in the top frame: the reply names the element.
	res, perr, code := act(t, "find", "Gamma", "--tab", fmt.Sprint(tab))
	if code != 0 || len(res.Found) != 1 || res.Found[0].Role != "button" || res.Found[0].Name != "Gamma" {
		t.Fatalf("find Gamma: exit %d %+v, found %+v", code, perr, res.Found)
	}

	setPolicy(t, "block "+hostOf(env.Origin2)+"\n")
	rule := `rule "block ` + hostOf(env.Origin2) + `" (line 1)`
	wantPolicyRefusal(t, refusal(t, "find", "Card", "--in", card), rule)
	// The top frame's find does not read into the blocked frame.
	if perr := refusal(t, "find", "Card number", "--tab", fmt.Sprint(tab)); perr.Code != protocol.CodeNotFound || perr.Boundary != protocol.BoundaryPage {
		t.Errorf("find of the blocked frame's text from the top frame: %+v, want not_found", perr)
	}
	setPolicy(t, "")

	own := openSessionTab(t, "finder-a", env.Origin1+"/act.html")
	wantNotYourTab(t, refusalAs(t, "finder-b", "find", "Alpha", "--tab", fmt.Sprint(own)), "finder-a")
	if r := env.MustGrip(t, "find", "Alpha", "--tab", fmt.Sprint(own), "--session", "finder-a"); !strings.Contains(r, "[button 'Alpha']") {
		t.Errorf("the owner's find:\n%s", r)
	}
	// Bad input is a usage error, before the browser.
	if r := env.Grip(t.Context(), "find"); r.Code != 2 {
		t.Errorf("grip find with no text: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// A find names the smallest element that holds the text, never a wrapper
// of the page, and says where it is; a text no element shows is found in
// a field's placeholder.
func TestFindNamesTheSmallestElement(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/findsmall.html")
	snap := snapshot(t, tab, "--mode", "content")
	para := mustRef(t, snap, "paragraph", "The quokkaflux modulator hums at night.")
	res, perr, code := act(t, "find", "quokkaflux", "--tab", fmt.Sprint(tab))
	if code != 0 {
		t.Fatalf("find: exit %d %+v", code, perr)
	}
	if len(res.Found) == 0 || res.Found[0].Ref != para {
		t.Errorf("found %+v, want the paragraph %s", res.Found, para)
	}
	if !strings.Contains(res.Detail, "in 'Description'") || strings.Contains(res.Detail, "Home") {
		t.Errorf("detail %q: want where it is, not the header's links", res.Detail)
	}
	box := mustRef(t, snap, "textbox", "Notes")
	res, perr, code = act(t, "find", "search the notes", "--tab", fmt.Sprint(tab))
	if code != 0 {
		t.Fatalf("find a placeholder: exit %d %+v", code, perr)
	}
	if len(res.Found) == 0 || res.Found[0].Ref != box {
		t.Errorf("found %+v, want the field %s", res.Found, box)
	}
}
