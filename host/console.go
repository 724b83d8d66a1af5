package host

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// DefaultDevtoolsBudget is the token allowance of a console or network
// listing: a chatty page would otherwise fill an agent's context.
const DefaultDevtoolsBudget = 8000

// Console reads a tab's console (docs/devtools.md, "Developer
// tools"): what its page logged and the errors it did not catch since it
// loaded, in every frame and dedicated worker, oldest first, equal messages
// folded into one with a count. Messages of frames the person's policy
// blocks are left out before anything is folded.
func (h *Host) Console(ctx context.Context, args protocol.ConsoleArgs) (*protocol.ConsoleResult, error) {
	min, err := levelRank(args.Level)
	if err != nil {
		return nil, err
	}
	if args.Budget < 0 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give a positive --budget", "budget %d", args.Budget)
	}
	tab, unlock, err := h.lockTab(ctx, args.Tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var rep protocol.ConsoleReply
	if err := callExt(ctx, h, protocol.ExtConsole, protocol.TabParams{TabID: tab}, &rep); err != nil {
		return nil, err
	}
	res := &protocol.ConsoleResult{Tab: rep.Tab, Messages: []protocol.ConsoleMessage{}}
	p := h.policyNow()
	var kept []protocol.ConsoleMessage
	for _, m := range rep.Messages {
		if blockedFrom(p, m.FrameOrigin, m.URL) {
			res.Blocked++
			continue
		}
		if r, _ := levelRank(m.Level); r > min {
			res.Hidden++
			continue
		}
		kept = append(kept, m)
	}
	res.Messages = foldMessages(kept)
	renderConsole(res, args)
	return res, nil
}

// levelRank orders levels, the most severe lowest; "" is info.
func levelRank(level string) (int, error) {
	switch level {
	case protocol.LevelError:
		return 0, nil
	case protocol.LevelWarning:
		return 1, nil
	case protocol.LevelInfo, "":
		return 2, nil
	case protocol.LevelDebug:
		return 3, nil
	}
	return 0, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
		"use --level error, warning, info or debug", "unknown console level %q", level)
}

// foldMessages folds equal messages (level, source, text, place) into the
// first of them, counting them.
func foldMessages(ms []protocol.ConsoleMessage) []protocol.ConsoleMessage {
	type key struct {
		level, source, text, url string
		line, col                int
		worker                   bool
	}
	out := []protocol.ConsoleMessage{}
	at := map[key]int{}
	for _, m := range ms {
		k := key{m.Level, m.Source, m.Text, m.URL, m.Line, m.Column, m.Worker}
		if i, ok := at[k]; ok {
			out[i].Count++
			continue
		}
		m.Count = 1
		at[k] = len(out)
		out = append(out, m)
	}
	return out
}

// renderConsole writes the listing's text, the newest messages kept within
// the budget, and leaves the omitted ones out of Messages too.
func renderConsole(res *protocol.ConsoleResult, args protocol.ConsoleArgs) {
	head := fmt.Sprintf("Console of tab %d · %s · %s", res.Tab.ID, res.Tab.Title, res.Tab.URL)
	lines := make([]string, len(res.Messages))
	for i, m := range res.Messages {
		lines[i] = consoleLine(m)
	}
	var notes []string
	if len(res.Messages) == 0 {
		notes = append(notes, "(no messages)")
	}
	if res.Hidden > 0 {
		lvl := args.Level
		if lvl == "" {
			lvl = protocol.LevelInfo
		}
		more := "grip console --level debug"
		if lvl == protocol.LevelError {
			more = "grip console --level warning"
		}
		notes = append(notes, fmt.Sprintf("(%d below %s not shown: %s%s)", res.Hidden, lvl, more, tabFlag(args.Tab)))
	}
	if res.Blocked > 0 {
		notes = append(notes, fmt.Sprintf("(%d from frames blocked by policy left out)", res.Blocked))
	}
	keep := fitNewest(head, lines, notes, args.Budget)
	if omitted := len(lines) - keep; omitted > 0 {
		res.Omitted = omitted
		res.Messages = res.Messages[omitted:]
		lines = lines[omitted:]
		notes = append([]string{fmt.Sprintf("… %d older messages left out for the budget (grip console --budget N%s, or --level error)", omitted, tabFlag(args.Tab))}, notes...)
	}
	res.Text = strings.Join(append(append([]string{head}, lines...), notes...), "\n")
}

// consoleLine is one message as the listing writes it:
// "[error] Uncaught Error: boom (http://a.example/app.js:12:5) ×3".
func consoleLine(m protocol.ConsoleMessage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s", m.Level, oneLine(m.Text, 500))
	if m.URL != "" {
		b.WriteString(" (")
		b.WriteString(m.URL)
		if m.Line > 0 {
			fmt.Fprintf(&b, ":%d", m.Line)
			if m.Column > 0 {
				fmt.Fprintf(&b, ":%d", m.Column)
			}
		}
		b.WriteString(")")
	}
	if m.Worker {
		b.WriteString(" [worker]")
	}
	if m.Count > 1 {
		fmt.Fprintf(&b, " ×%d", m.Count)
	}
	return b.String()
}

// fitNewest returns how many of lines, counted from the end, fit the budget
// with head and notes (at least one when any).
func fitNewest(head string, lines, notes []string, budget int) int {
	if budget == 0 {
		budget = DefaultDevtoolsBudget
	}
	used := frames.Tokens(head) + 40 // the trailer, roughly
	for _, n := range notes {
		used += frames.Tokens(n)
	}
	keep := 0
	for i := len(lines) - 1; i >= 0; i-- {
		used += frames.Tokens(lines[i])
		if used > budget && keep > 0 {
			break
		}
		keep++
	}
	return keep
}

// oneLine folds newlines and cuts s at n characters.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ⏎ ")), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// tabFlag is " --tab N" for a tab the agent named, so the command it is
// told to run reads the same tab.
func tabFlag(tab int) string {
	if tab > 0 {
		return fmt.Sprintf(" --tab %d", tab)
	}
	return ""
}

// policyNow is the person's policy in force; nil for a host without the
// person's controls (unit tests), which leaves nothing out.
func (h *Host) policyNow() *policy.Policy {
	if h.person == nil {
		return nil
	}
	return h.person.policy.Current()
}

// blockedFrom reports whether something that came from a frame of origin
// (or, when the frame's origin is opaque or unknown, from url) or that
// names url is on a blocked site.
func blockedFrom(p *policy.Policy, origin, url string) bool {
	if p == nil {
		return false
	}
	if o, ok := policy.ParseOrigin(origin); ok && p.DecideOrigin(o).Rule == policy.Block {
		return true
	}
	if _, ok := policy.ParseOrigin(url); ok && p.Decide(url).Rule == policy.Block {
		return true
	}
	return false
}

// clock is when a listing says capture began.
func clock(ms int64) string {
	return time.UnixMilli(ms).Format("15:04:05")
}
