package host

import (
	"context"
	"strings"

	"github.com/chromedp/cdproto/input"

	"github.com/grip-dev/grip/protocol"
)

// mouseActions are the trusted actions that press at a point; the others
// (type, fill, press) send keys to the focused element.
var mouseActions = map[string]bool{
	protocol.ActClick: true, protocol.ActDblClick: true, protocol.ActRightClick: true, protocol.ActHover: true,
	protocol.ActCheck: true, protocol.ActUncheck: true,
}

// trustedInput sends the real input of a trusted action, built with
// cdproto's types, after the page-side checks (res). The extension checks,
// just before sending it, that it reaches the element the page checked:
// the browser's hit test at the point for the mouse, the page's focus for
// keys (protocol.CDPGuard). A check or uncheck the page found already
// done sends nothing.
func (h *Host) trustedInput(ctx context.Context, tab int, args protocol.ActArgs, res protocol.ActReply, key string, modifiers []string) (protocol.ActEffects, error) {
	mouse := mouseActions[args.Action]
	if mouse && res.Point == nil {
		if res.Detail != "" {
			return protocol.ActEffects{}, nil // already in the state asked for
		}
		return protocol.ActEffects{}, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "the page gave no action point for trusted input")
	}
	var x, y float64
	if res.Point != nil {
		x, y = res.Point.X, res.Point.Y
	}
	cmds, err := trustedCommands(args.Action, x, y, args.Text, key, modifiers)
	if err != nil {
		return protocol.ActEffects{}, err
	}
	p := protocol.CDPParams{TabID: tab, Commands: cmds}
	if res.DocumentID != "" && res.ID > 0 {
		p.Guard = &protocol.CDPGuard{DocumentID: res.DocumentID, LocalID: res.ID}
		if mouse {
			p.Guard.Point = res.Point
		} else {
			p.Guard.Focus = true
		}
	}
	var out protocol.CDPReply
	if err := callExt(ctx, h, protocol.ExtCDP, p, &out); err != nil {
		return protocol.ActEffects{}, err
	}
	return out.ActEffects, nil
}

// textCommands types text as a person does: each line as text, and Enter
// between lines, a key (an editor takes a line break from the key, never
// from text: Lexical put a raw newline inside a paragraph, or took nothing).
// The extension lets the page draw a frame after each Enter before the
// next line (extension/worker/actions.js).
func textCommands(text string) []protocol.CDPCommand {
	var cmds []protocol.CDPCommand
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			cmds = append(cmds, keyCommands("Enter", nil)...)
		}
		if line != "" {
			cmds = append(cmds, protocol.CDPCommand{Method: input.CommandInsertText, Params: input.InsertTextParams{Text: line}})
		}
	}
	return cmds
}

// typeCommands types text key by key, as a person's keyboard does: a page
// that reacts to keydown or keyup (a search box that suggests on keyup)
// sees each key. A character no US keyboard has a key for (é, 中, an
// emoji) is inserted as text, as an input method would; Enter between
// lines is a key, as in textCommands. (Typing inserted each line as text,
// and DokuWiki's quick search, listening to keyup, never searched.)
func typeCommands(text string) []protocol.CDPCommand {
	var cmds []protocol.CDPCommand
	var run strings.Builder // characters with no key, inserted together
	flush := func() {
		if run.Len() > 0 {
			cmds = append(cmds, protocol.CDPCommand{Method: input.CommandInsertText, Params: input.InsertTextParams{Text: run.String()}})
			run.Reset()
		}
	}
	for _, r := range text {
		switch {
		case r == '\n':
			flush()
			cmds = append(cmds, keyCommands("Enter", nil)...)
		case r == ' ':
			flush()
			cmds = append(cmds, keyCommands("Space", nil)...)
		case r > ' ' && r < 0x7f:
			flush()
			cmds = append(cmds, keyCommands(string(r), nil)...)
		default:
			run.WriteRune(r)
		}
	}
	flush()
	return cmds
}

// trustedCommands builds real mouse and keyboard input at the point the
// page-side checks computed, with cdproto's types.
func trustedCommands(action string, x, y float64, text, key string, modifiers []string) ([]protocol.CDPCommand, error) {
	// The button pressed, and the buttons field's bit for it while held.
	button, held := input.MouseButtonLeft, int64(1)
	if action == protocol.ActRightClick {
		button, held = input.MouseButtonRight, 2
	}
	mouse := func(t input.DispatchMouseEventType, clicks int64) protocol.CDPCommand {
		p := input.DispatchMouseEventParams{Type: t, X: x, Y: y}
		if t != input.DispatchMouseEventTypeMouseMoved {
			p.Button = button
			p.ClickCount = clicks
			if t == input.DispatchMouseEventTypeMousePressed {
				p.Buttons = held
			}
		}
		return protocol.CDPCommand{Method: input.CommandDispatchMouseEvent, Params: p}
	}
	click := func(n int64) []protocol.CDPCommand {
		return []protocol.CDPCommand{mouse(input.DispatchMouseEventTypeMousePressed, n), mouse(input.DispatchMouseEventTypeMouseReleased, n)}
	}
	move := mouse(input.DispatchMouseEventTypeMouseMoved, 0)
	switch action {
	case protocol.ActHover:
		return []protocol.CDPCommand{move}, nil
	case protocol.ActClick, protocol.ActRightClick, protocol.ActCheck, protocol.ActUncheck:
		return append([]protocol.CDPCommand{move}, click(1)...), nil
	case protocol.ActDblClick:
		return append(append([]protocol.CDPCommand{move}, click(1)...), click(2)...), nil
	case protocol.ActType:
		return typeCommands(text), nil
	case protocol.ActFill:
		if text == "" {
			return keyCommands("Delete", nil), nil // the page selected everything: delete it
		}
		return textCommands(text), nil
	case protocol.ActPress:
		return keyCommands(key, modifiers), nil
	}
	return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "", "no trusted form of %s", action)
}
