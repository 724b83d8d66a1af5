package host

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/grip-dev/grip/protocol"
)

// TestTrustedCommands checks what real input each trusted action sends:
// the mouse at the point for pointer actions, keys alone for typing.
func TestTrustedCommands(t *testing.T) {
	tests := []struct {
		action, text string
		want         []string // methods, and for key events their key
	}{
		{protocol.ActClick, "", []string{input.CommandDispatchMouseEvent, input.CommandDispatchMouseEvent, input.CommandDispatchMouseEvent}},
		// Typing is keys, each down and up, as a person's keyboard sends
		// them; what has no key on the keyboard is inserted as text.
		{protocol.ActType, "ab", []string{input.CommandDispatchKeyEvent + " a", input.CommandDispatchKeyEvent + " a", input.CommandDispatchKeyEvent + " b", input.CommandDispatchKeyEvent + " b"}},
		{protocol.ActType, "a é", []string{input.CommandDispatchKeyEvent + " a", input.CommandDispatchKeyEvent + " a", input.CommandDispatchKeyEvent + "  ", input.CommandDispatchKeyEvent + "  ", input.CommandInsertText}},
		{protocol.ActFill, "x", []string{input.CommandInsertText}},
		// Lines apart, Enter between them is a key, as a person types it.
		{protocol.ActType, "a\nb", []string{input.CommandDispatchKeyEvent + " a", input.CommandDispatchKeyEvent + " a", input.CommandDispatchKeyEvent + " Enter", input.CommandDispatchKeyEvent + " Enter", input.CommandDispatchKeyEvent + " b", input.CommandDispatchKeyEvent + " b"}},
		{protocol.ActFill, "a\nb", []string{input.CommandInsertText, input.CommandDispatchKeyEvent + " Enter", input.CommandDispatchKeyEvent + " Enter", input.CommandInsertText}},
		{protocol.ActFill, "\n\nc", []string{input.CommandDispatchKeyEvent + " Enter", input.CommandDispatchKeyEvent + " Enter", input.CommandDispatchKeyEvent + " Enter", input.CommandDispatchKeyEvent + " Enter", input.CommandInsertText}},
		// A fill with nothing deletes what the page selected.
		{protocol.ActFill, "", []string{input.CommandDispatchKeyEvent + " Delete", input.CommandDispatchKeyEvent + " Delete"}},
	}
	for _, tt := range tests {
		t.Run(tt.action+" "+tt.text, func(t *testing.T) {
			cmds, err := trustedCommands(tt.action, 10, 20, tt.text, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range cmds {
				m := c.Method
				if k, ok := c.Params.(input.DispatchKeyEventParams); ok {
					m += " " + k.Key
				}
				if p, ok := c.Params.(input.InsertTextParams); ok && (p.Text == "" || !strings.Contains(tt.text, p.Text) || strings.Contains(p.Text, "\n")) {
					t.Errorf("insertText %q, not a line of %q", p.Text, tt.text)
				}
				got = append(got, m)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("commands %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("commands %v, want %v", got, tt.want)
				}
			}
		})
	}
}

// TestTrustedRightClickPressesTheSecondaryButton: a trusted right-click
// moves, then presses and releases the right button (buttons 2 while
// held), as a person's does; a click stays on the left button.
func TestTrustedRightClickPressesTheSecondaryButton(t *testing.T) {
	for action, want := range map[string]input.MouseButton{protocol.ActRightClick: input.MouseButtonRight, protocol.ActClick: input.MouseButtonLeft} {
		cmds, err := trustedCommands(action, 10, 20, "", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cmds) != 3 {
			t.Fatalf("%s: %d commands, want move, press, release", action, len(cmds))
		}
		for i, c := range cmds[1:] {
			p := c.Params.(input.DispatchMouseEventParams)
			if p.Button != want || p.X != 10 || p.Y != 20 {
				t.Errorf("%s command %d: %+v, want button %s at 10,20", action, i+1, p, want)
			}
		}
		press := cmds[1].Params.(input.DispatchMouseEventParams)
		if held := map[input.MouseButton]int64{input.MouseButtonLeft: 1, input.MouseButtonRight: 2}[want]; press.Type != input.DispatchMouseEventTypeMousePressed || press.Buttons != held {
			t.Errorf("%s press %+v, want pressed with buttons %d", action, press, held)
		}
	}
}
