package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// browser_read: one element's whole text (docs/ARCHITECTURE.md, "Reading
// one element"), which a snapshot's line cuts at a hundred characters.

type readIn struct {
	Element string `json:"element,omitempty" jsonschema:"What the element is, for the reply only"`
	Ref     string `json:"ref" jsonschema:"The element: a ref such as @e5, or a snapshot line naming one element"`
	From    int    `json:"from,omitempty" jsonschema:"Start at this character of the text: 0, or the from a cut read's last line names"`
	Budget  int    `json:"budget,omitempty" jsonschema:"Token allowance (default 40000); a cut read's last line says how to read on"`
	Tab     int    `json:"tab,omitempty" jsonschema:"Tab id for a snapshot line (default: the active tab; a ref knows its tab)"`
}

func addReadTool(s *Server) {
	addTool(s, &Tool{Name: "browser_read", Title: "Read an element's text", Annotations: &ToolAnnotations{ReadOnlyHint: true},
		Description: "Read the whole text of one element (a paragraph, an article, a dialog, a field's value) that a snapshot line cuts: its lines, each after '| ', within the token budget; when cut, the last line names the call that reads on (from). A password field's value is never read; elements of sites the person blocks are refused." + pageText},
		func(p map[string]*Schema) {
			p["from"].Minimum = ptr(0.0)
			p["budget"].Minimum = ptr(1.0)
			p["tab"].Minimum = ptr(1.0)
		}, s.read)
}

func (s *Server) read(ctx context.Context, in readIn) (*CallToolResult, error) {
	res, err := s.ops.Read(ctx, protocol.ReadArgs{Target: normRef(in.Ref), Tab: in.Tab, From: in.From, Budget: in.Budget})
	if err != nil {
		return nil, err
	}
	text := res.Text
	if res.More != "" {
		// The trailer, the last line, as the tool call that reads on.
		call := fmt.Sprintf("(browser_read ref=%s from=%d", res.Ref, res.Next)
		if in.Budget > 0 {
			call += fmt.Sprintf(" budget=%d", in.Budget)
		}
		if i := strings.LastIndex(text, "("+res.More+")"); i >= 0 {
			text = text[:i] + call + ")" + text[i+len(res.More)+2:]
		}
	}
	return &CallToolResult{Content: []Content{&TextContent{Text: text}}}, nil
}
