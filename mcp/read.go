package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// browser_snapshot with ref: one element's whole text (docs/reading.md,
// "Reading one element"), which a snapshot's line cuts at a hundred
// characters; grip read.

func (s *Server) read(ctx context.Context, in snapshotIn) (*CallToolResult, error) {
	if in.Mode != "" || in.After != "" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"leave out mode and after to read an element (ref), or ref to read the page", "ref reads one element: it takes no mode or after")
	}
	res, err := s.ops.Read(ctx, protocol.ReadArgs{Target: normRef(in.Ref), Tab: in.Tab, From: in.From, Budget: in.Budget})
	if err != nil {
		return nil, err
	}
	text := res.Text
	if res.More != "" {
		// The trailer, the last line, as the tool call that reads on.
		call := fmt.Sprintf("(browser_snapshot ref=%s from=%d", res.Ref, res.Next)
		if in.Budget > 0 {
			call += fmt.Sprintf(" budget=%d", in.Budget)
		}
		if i := strings.LastIndex(text, "("+res.More+")"); i >= 0 {
			text = text[:i] + call + ")" + text[i+len(res.More)+2:]
		}
	}
	return &CallToolResult{Content: []Content{&TextContent{Text: text}}}, nil
}
