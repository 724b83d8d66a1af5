package mcp

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// grip serves MCP through the official Go SDK (mcp/session.go). The MCP
// server runs in grip-host, not in the thin grip an agent starts for each
// command, so what the SDK links (net/http's client, OAuth, JSON Schema)
// costs no agent command (docs/cli-cost.md, "The CLI's fixed cost").

// Tool is one tool as tools/list describes it; sdkServer hands it to the
// SDK.
type Tool struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	InputSchema *Schema          `json:"inputSchema"`
	Annotations *ToolAnnotations `json:"annotations,omitempty"`
	// ops are the socket operations the tool calls (protocol.Operations):
	// its readOnlyHint is theirs, and a call of any other is refused
	// (mcp/server.go call). Not on the wire.
	ops []string
}

// ToolAnnotations are hints about a tool's behaviour for the client.
type ToolAnnotations struct {
	ReadOnlyHint bool `json:"readOnlyHint,omitempty"`
}

// The SDK's result types, under the names the tools use. A refusal is a
// result with IsError set, not a JSON-RPC error, so the model reads it.
type (
	CallToolResult = sdk.CallToolResult
	Content        = sdk.Content
	TextContent    = sdk.TextContent
	ImageContent   = sdk.ImageContent
)

type implementation struct {
	Name    string
	Title   string
	Version string
}
