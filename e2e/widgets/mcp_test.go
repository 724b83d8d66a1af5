package widgets_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/apptest"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// browser_drag over `grip mcp` moves a SortableJS item, as Playwright MCP's
// tool of that name does.
func TestMCPBrowserDragReordersSortable(t *testing.T) {
	a := suite.Open(t, "/testdata/sortable.html")
	snap := a.Until("clickable", "Plan the sprint")
	src := a.Find(snap, "clickable", "Deploy the release")
	dst := a.Find(snap, "clickable", "Write the report")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, stderr := suite.MCP(ctx, t, "grip-widgets")
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_drag", Arguments: map[string]any{
		"startRef": src.Ref, "startElement": "Deploy the release", "endRef": dst.Ref, "endElement": "the top of the list"}})
	if err != nil {
		t.Fatalf("browser_drag: %v\n%s", err, stderr.String())
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError || !strings.Contains(text.String(), "Dragged "+src.Ref+" (Deploy the release) onto "+dst.Ref) {
		t.Fatalf("browser_drag replied (error %v):\n%s", res.IsError, text.String())
	}
	got := apptest.Eval[[]string](a, "sortable.toArray()")
	if want := []string{"deploy", "write", "review", "plan", "email"}; !slices.Equal(got, want) {
		t.Fatalf("SortableJS's order is %v, want %v", got, want)
	}
}
