package frames

import (
	"testing"

	"github.com/grip-dev/grip/protocol"
)

func TestTabNotes(t *testing.T) {
	l := NotesLayout{Open: " (", Close: ")", Opener: "opened by tab %d", Owner: " · session "}
	tests := []struct {
		tab  protocol.Tab
		want string
	}{
		{protocol.Tab{ID: 3}, ""},
		{protocol.Tab{ID: 3, Opener: 7}, " (opened by tab 7)"},
		{protocol.Tab{ID: 3, Owner: "s1"}, " · session s1"},
		{protocol.Tab{ID: 3, Opener: 7, Dialog: &protocol.Dialog{Type: "alert", Message: "hi"}, Owner: "s1"},
			" (opened by tab 7; " + DialogLine(&protocol.Dialog{Type: "alert", Message: "hi"}) + ") · session s1"},
	}
	for _, tt := range tests {
		if got := TabNotes(tt.tab, l); got != tt.want {
			t.Errorf("TabNotes(%+v) = %q, want %q", tt.tab, got, tt.want)
		}
	}
}

func TestDownloadParts(t *testing.T) {
	tests := []struct {
		d    protocol.Download
		want DownloadParts
	}{
		{protocol.Download{ID: 1, State: protocol.DownloadComplete, Bytes: 1234, Total: 1234, Tab: 4, Path: "/d/a.csv"},
			DownloadParts{State: "complete", Size: "1234 bytes", Tab: 4, Path: "/d/a.csv"}},
		{protocol.Download{ID: 2, State: protocol.DownloadInProgress, Bytes: 512, Total: 1234},
			DownloadParts{State: "in_progress", Size: "512 of 1234 bytes", Path: "(no file yet)"}},
		{protocol.Download{ID: 3, State: protocol.DownloadInProgress, Bytes: 512},
			DownloadParts{State: "in_progress", Size: "512 bytes", Path: "(no file yet)"}},
		{protocol.Download{ID: 4, State: "interrupted", Error: "NETWORK_FAILED", Bytes: 9, Path: "/d/b"},
			DownloadParts{State: "interrupted (NETWORK_FAILED)", Size: "9 bytes", Path: "/d/b"}},
	}
	for _, tt := range tests {
		if got := Download(tt.d); got != tt.want {
			t.Errorf("Download(%+v) = %+v, want %+v", tt.d, got, tt.want)
		}
	}
}
