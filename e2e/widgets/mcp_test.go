package widgets_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// browser_drag over `grip mcp` moves a SortableJS item, as Playwright MCP's
// tool of that name does.
func TestMCPBrowserDragReordersSortable(t *testing.T) {
	a := open(t, "/testdata/sortable.html")
	snap := a.until("clickable", "Plan the sprint")
	src := a.find(snap, "clickable", "Deploy the release")
	dst := a.find(snap, "clickable", "Write the report")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(env.Bin, "mcp")
	cmd.Env = append(os.Environ(), "GRIP_STATE_DIR="+env.StateDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "grip-widgets", Version: "v0"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize grip mcp: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_drag", Arguments: map[string]any{
		"startRef": src.ref, "startElement": "Deploy the release", "endRef": dst.ref, "endElement": "the top of the list"}})
	if err != nil {
		t.Fatalf("browser_drag: %v\n%s", err, stderr.String())
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError || !strings.Contains(text.String(), "Dragged "+src.ref+" (Deploy the release) onto "+dst.ref) {
		t.Fatalf("browser_drag replied (error %v):\n%s", res.IsError, text.String())
	}
	got := eval[[]string](a, "sortable.toArray()")
	if want := []string{"deploy", "write", "review", "plan", "email"}; !slices.Equal(got, want) {
		t.Fatalf("SortableJS's order is %v, want %v", got, want)
	}
}
