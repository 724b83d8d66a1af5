package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// pictureStep is one action of a task: on the element a snapshot line
// names (role, name, context), with text for fill.
type pictureStep struct{ action, role, name, text string }

// pictureTasks are the tasks an agent does by replies alone: pages that
// change in steps, behind a busy indicator, with menus, and repeats.
var pictureTasks = []struct {
	page  string
	steps []pictureStep
}{
	{"/settle.html", []pictureStep{{"click", "button", "Open editor", ""}, {"fill", "textbox", "Body", "Minutes"}, {"click", "button", "Save", ""}, {"click", "button", "Confirm changes", ""}}},
	{"/menu.html", []pictureStep{{"click", "button", "Actions", ""}, {"click", "menuitem", "Duplicate order", ""}, {"click", "button", "Actions", ""}, {"click", "button", "Actions", ""}, {"fill", "textbox", "Note", "Ship today"}}},
	{"/repeats.html", []pictureStep{{"click", "button", "Save", ""}, {"click", "button", "Twin", ""}}},
	{"/checkout.html", []pictureStep{{"fill", "textbox", "Email", "ada@example.org"}, {"uncheck", "checkbox", "Remember me", ""}, {"click", "button", "Pay now", ""}}},
	{"/dialog.html", []pictureStep{{"click", "button", "Show later", ""}}},
}

// pictureTarget is the share of actions whose settled reply must leave
// the agent a true picture of the page (issue 23).
const pictureTarget = 0.95

// elementKey is what the agent knows of an element: its line's parts.
func elementKey(e protocol.Element) string {
	v := "-"
	if e.Value != nil {
		v = *e.Value
	}
	return fmt.Sprint(e.Role, "|", e.Name, "|", v, "|", e.States, "|", e.Context)
}

func picture(snap protocol.Snapshot) map[string]string {
	p := map[string]string{}
	for _, f := range snap.Frames {
		for _, e := range f.Elements {
			p[e.Ref] = elementKey(e)
		}
	}
	return p
}

// TestRepliesKeepThePictureTrue measures how often an agent that follows
// the replies alone has a true picture of the page after an action: the
// reply's gone, changed and added applied to the snapshot before equals a
// fresh snapshot. With settling and without (no_settle), and the tokens
// read both ways: replies alone, or a snapshot after each action.
// bench/RESULTS.md, "What the agent is told", has the figures.
func TestRepliesKeepThePictureTrue(t *testing.T) {
	browsertest.Need(t, env)
	c, err := client.Connect(t.Context(), client.Options{RuntimeDir: statedir.At(env.StateDir).Runtime, Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rates := map[bool]float64{}
	for _, noSettle := range []bool{true, false} {
		actions, correct, replyTokens, snapTokens, broken := 0, 0, 0, 0, 0
		for _, task := range pictureTasks {
			tab := env.OpenTab(t, env.Origin1+task.page)
			var snap protocol.Snapshot
			if err := c.Call(t.Context(), protocol.OpSnapshot, protocol.SnapshotArgs{Tab: tab}, &snap); err != nil {
				t.Fatal(err)
			}
			for _, st := range task.steps {
				ref := refOf(snap, st.role, st.name)
				if ref == "" {
					// Without settling a reply can miss what the next step
					// needs: the agent would have to look again.
					if !noSettle {
						t.Errorf("%s: no [%s '%s'] to %s:\n%s", task.page, st.role, st.name, st.action, snap.Text)
					}
					broken++
					break
				}
				before := picture(snap)
				var res protocol.ActionResult
				if err := c.Call(t.Context(), protocol.OpAct, protocol.ActArgs{Action: st.action, Target: ref, Text: st.text, NoSettle: noSettle}, &res); err != nil {
					t.Fatalf("%s: %s %s: %v", task.page, st.action, ref, err)
				}
				replyTokens += frames.Tokens(frames.ActionText(frames.Done(st.action, ref), res))
				// The agent's picture, from the reply alone.
				for _, g := range res.Changes.Gone {
					delete(before, g)
				}
				for _, e := range append(append([]protocol.Element{}, res.Changes.Changed...), res.Changes.Appeared...) {
					before[e.Ref] = elementKey(e)
				}
				if err := c.Call(t.Context(), protocol.OpSnapshot, protocol.SnapshotArgs{Tab: tab}, &snap); err != nil {
					t.Fatal(err)
				}
				snapTokens += snap.Tokens
				now := picture(snap)
				actions++
				if fmt.Sprint(before) == fmt.Sprint(now) && res.Changes.Omitted == 0 {
					correct++
				} else {
					var diff []string
					for r, k := range now {
						if before[r] != k {
							diff = append(diff, r+" is "+k+", the reply left "+before[r])
						}
					}
					for r, k := range before {
						if _, ok := now[r]; !ok {
							diff = append(diff, r+" is gone, the reply left "+k)
						}
					}
					t.Logf("no_settle=%v %s %s %s: the reply left the picture wrong (omitted %d): %s", noSettle, task.page, st.action, st.name,
						res.Changes.Omitted, strings.Join(diff, "; "))
				}
			}
		}
		rates[noSettle] = float64(correct) / float64(actions)
		t.Logf("no_settle=%v: %d of %d actions left a true picture (%.0f%%), %d tasks cut short; tokens read: %d by replies alone, %d with a snapshot after each action",
			noSettle, correct, actions, 100*rates[noSettle], broken, replyTokens, replyTokens+snapTokens)
	}
	if rates[false] < rates[true] {
		t.Errorf("settling did not make the replies truer: %.2f with, %.2f without", rates[false], rates[true])
	}
	if rates[false] < pictureTarget {
		t.Errorf("%.0f%% of settled replies left a true picture, under the target of %.0f%%", 100*rates[false], 100*pictureTarget)
	}
}
