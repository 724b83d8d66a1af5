package frames

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

func TestDialogLine(t *testing.T) {
	tests := []struct {
		d    protocol.Dialog
		want string
	}{
		{protocol.Dialog{Type: "confirm", Message: "Discard the draft?"},
			"dialog open: confirm 'Discard the draft?' — answer with grip dialog accept|dismiss"},
		{protocol.Dialog{Type: "prompt", Message: "Your name?", DefaultPrompt: "Bob"},
			"dialog open: prompt 'Your name?' default 'Bob' — answer with grip dialog accept --text T|dismiss"},
		{protocol.Dialog{Type: "alert", Message: "It's\n  done"},
			`dialog open: alert 'It\'s done' — close it with grip dialog accept`},
		{protocol.Dialog{Type: "beforeunload"},
			"dialog open: beforeunload (the page asks before it is left) — grip dialog accept leaves, dismiss stays"},
	}
	for _, tt := range tests {
		if got := DialogLine(&tt.d); got != tt.want {
			t.Errorf("DialogLine(%+v)\n got %s\nwant %s", tt.d, got, tt.want)
		}
	}
	long := DialogLine(&protocol.Dialog{Type: "alert", Message: strings.Repeat("x", 500)})
	if len(long) > 200 || !strings.Contains(long, CutMark) {
		t.Errorf("a long message is not cut: %d bytes", len(long))
	}
}

func TestActionTextEffects(t *testing.T) {
	res := protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 412, URL: "https://shop.example/", Title: "Shop"},
		Dialog:  &protocol.Dialog{Type: "confirm", Message: "Sure?"},
		Opened:  []protocol.OpenedTab{{Tab: 812, URL: "https://help.example/", Title: "Help center"}, {Tab: 813}},
		Closed:  []int{900, 901},
		Blocked: []string{"https://pay.example/"},
		Loading: "https://shop.example/next",
		Changes: protocol.Changes{Gone: []string{"@e4"}}}
	got := ActionText("ok: click @e3", res)
	want := `ok: click @e3
dialog open: confirm 'Sure?' — answer with grip dialog accept|dismiss
Tab 412 · Shop · https://shop.example/
opened: tab 812 · Help center · https://help.example/
opened: tab 813
closed: tab 900, tab 901
blocked: a window for https://pay.example/ (the browser's popup blocker: the page asked without a click or key press)
still loading: https://shop.example/next (grip wait or grip snapshot to read it)
gone: @e4
`
	if got != want {
		t.Errorf("ActionText\n got:\n%s\nwant:\n%s", got, want)
	}
}

func TestDialogSnapshotText(t *testing.T) {
	text := DialogSnapshotText(protocol.TabRef{ID: 7, Title: "T", URL: "http://x/"}, &protocol.Dialog{Type: "alert", Message: "Hi"})
	if text != "Tab 7 · T · http://x/\ndialog open: alert 'Hi' — close it with grip dialog accept\n" {
		t.Errorf("text = %q", text)
	}
	if n := Tokens(text); n != Cost("Tab 7 · T · http://x/")+Cost("dialog open: alert 'Hi' — close it with grip dialog accept") {
		t.Errorf("Tokens = %d", n)
	}
}

// TestLogLineStaysOneLine: an entry of an older file, or one an agent
// shaped, prints as one line whatever its fields hold.
func TestLogLineStaysOneLine(t *testing.T) {
	line := LogLine(protocol.LogEntry{Time: "2026-05-01T12:00:00Z", Action: "click", Tab: 4,
		Target: "a\n2026-05-01 12:00:03  tab 5  https://bank.example  click @e1  ok  (cli)", Outcome: "ok", Client: "cli\r\n"})
	if strings.ContainsAny(line, "\r\n") || !strings.Contains(line, `click a\n2026`) {
		t.Errorf("LogLine = %q", line)
	}
}
