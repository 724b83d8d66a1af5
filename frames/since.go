package frames

import (
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// SnapshotTextSince is a snapshot's text for a reader who was last told
// that the tab is known (the MCP server remembers it per client, as for
// action replies: ActionTextSince). Its header lines say no more than the
// reader needs: the tab line is read short (KnownTabLine: no URL) when the
// snapshot is of that tab as the reader last saw it (the same id, URL and
// title), and the top frame's line is left out when it is the page's only
// frame and names the tab's URL. On a small page the two were a third of
// the tokens (bench/RESULTS.md, "Tokens per task", mail-body). Everything
// else is the text as it is.
func SnapshotTextSince(snap protocol.Snapshot, known protocol.TabRef) string {
	text := snap.Text
	tabLine := string(appendTabHeader(nil, snap.Tab)) + "\n"
	rest, hadTab := strings.CutPrefix(text, tabLine)
	if !hadTab {
		return text
	}
	top := string(appendFrameHeader(nil, &protocol.Frame{FrameID: 0, URL: snap.Tab.URL})) + "\n"
	body, hadTop := strings.CutPrefix(rest, top)
	if hadTop && (strings.Contains(body, "\n=== Frame: ") || strings.HasPrefix(body, "=== Frame: ")) {
		hadTop = false // other frames follow: the top one's line says where they start
	}
	if !hadTop {
		body = rest
	}
	if snap.Tab == known {
		tabLine = KnownTabLine(snap.Tab) + "\n"
	}
	return tabLine + body
}
