package frames

import (
	"fmt"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// The parts of a tab list's lines that the CLI (`grip tabs`, `grip
// downloads`) and MCP (browser_tabs, browser_status show: downloads) both
// print: what each says of a tab and of a download is decided here, once;
// each lays the parts out in its own style.

// NotesLayout is how a tab list lays out TabNotes.
type NotesLayout struct {
	Open, Close string // around the notes: "\t(" and ")"
	Opener      string // the opener's note, %d its tab: "opened by tab %d"
	Owner       string // before the owning session: " · session "
}

// TabNotes is what a tab list adds after a tab's URL: the tab that opened
// it and the dialog it shows, between l.Open and l.Close and parted by
// "; ", then the session that owns it.
func TabNotes(t protocol.Tab, l NotesLayout) string {
	var notes []string
	if t.Opener > 0 {
		notes = append(notes, fmt.Sprintf(l.Opener, t.Opener))
	}
	if t.Dialog != nil {
		notes = append(notes, DialogLine(t.Dialog))
	}
	out := ""
	if len(notes) > 0 {
		out = l.Open + strings.Join(notes, "; ") + l.Close
	}
	if t.Owner != "" {
		out += l.Owner + t.Owner
	}
	return out
}

// DownloadParts is what a list of downloads says of one: its state (and
// why it was interrupted), its size ("1234 bytes", or "512 of 1234 bytes"
// while it runs), its tab (0: no known tab) and its path ("(no file yet)"
// while Chrome has not picked one).
type DownloadParts struct {
	State, Size string
	Tab         int
	Path        string
}

// Download returns the parts of d that a list of downloads prints.
func Download(d protocol.Download) DownloadParts {
	p := DownloadParts{State: d.State, Size: fmt.Sprintf("%d bytes", d.Bytes), Tab: d.Tab, Path: d.Path}
	if d.Error != "" {
		p.State += " (" + d.Error + ")"
	}
	if d.State == protocol.DownloadInProgress && d.Total > 0 {
		p.Size = fmt.Sprintf("%d of %d bytes", d.Bytes, d.Total)
	}
	if p.Path == "" {
		p.Path = "(no file yet)"
	}
	return p
}
