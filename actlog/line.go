package actlog

import (
	"fmt"
	"strings"
	"time"

	"github.com/grip-dev/grip/protocol"
)

// Line is one entry of the record of agents' actions, as `grip log`
// and grip mcp print it:
// "2026-05-01 12:00:03  tab 412  https://mail.example.com  click @e3: [button 'Delete']  ok  (cli)".
func Line(e protocol.LogEntry) string {
	// Every field folded onto its line: an entry whose target or client
	// holds a newline must not print as two entries.
	f := Fold
	e.Time, e.Origin, e.Action, e.Target, e.Detail = f(e.Time), f(e.Origin), f(e.Action), f(e.Target), f(e.Detail)
	e.Outcome, e.Rule, e.Client = f(e.Outcome), f(e.Rule), f(e.Client)
	when := e.Time
	if t, err := time.Parse(time.RFC3339Nano, e.Time); err == nil {
		when = t.Local().Format("2006-01-02 15:04:05")
	}
	parts := []string{when}
	if e.Tab > 0 {
		parts = append(parts, fmt.Sprintf("tab %d", e.Tab))
	}
	if e.Origin != "" {
		parts = append(parts, e.Origin)
	}
	what := e.Action
	if e.Target != "" {
		what += " " + e.Target
	}
	if e.Detail != "" {
		what += " (" + e.Detail + ")"
	}
	outcome := e.Outcome
	if e.Confirmed {
		outcome += ", allowed by you"
	}
	if e.Rule != "" && e.Outcome != "ok" {
		outcome += ": " + e.Rule
	}
	parts = append(parts, what, outcome, "("+e.Client+")")
	return strings.Join(parts, "  ")
}
