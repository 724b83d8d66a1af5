package mcp

import (
	"encoding/base64"
	"encoding/json"
)

// The MCP types grip's server sends, as the MCP specification (revisions
// 2024-11-05 to 2025-11-25) spells them on the wire. grip speaks MCP
// itself rather than through the Go SDK: the SDK linked net/http's
// client, OAuth, gob and more into every run of the grip binary, and
// without them `grip --version` went from 19.5 to 17.9 ms here
// (docs/ARCHITECTURE.md, "The CLI's fixed cost"). The tests drive this server with the SDK's
// client, so the two are checked against each other.

// Tool is one tool as tools/list describes it.
type Tool struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	InputSchema *Schema          `json:"inputSchema"`
	Annotations *ToolAnnotations `json:"annotations,omitempty"`
}

// ToolAnnotations are hints about a tool's behaviour for the client.
type ToolAnnotations struct {
	ReadOnlyHint bool `json:"readOnlyHint,omitempty"`
}

// CallToolResult is the result of tools/call. A refusal is a result with
// IsError set, not a JSON-RPC error, so the model reads it.
type CallToolResult struct {
	Content []Content `json:"content"`
	IsError bool      `json:"isError,omitempty"`
}

// Content is one block of a tool result: *TextContent or *ImageContent.
type Content interface{ isContent() }

// TextContent is text for the model.
type TextContent struct{ Text string }

// ImageContent is an image, sent base64-encoded.
type ImageContent struct {
	Data     []byte
	MIMEType string
}

func (*TextContent) isContent()  {}
func (*ImageContent) isContent() {}

// MarshalJSON writes {"type":"text","text":…}.
func (c *TextContent) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{"text", c.Text})
}

// MarshalJSON writes {"type":"image","data":base64,"mimeType":…}.
func (c *ImageContent) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type     string `json:"type"`
		Data     string `json:"data"`
		MIMEType string `json:"mimeType"`
	}{"image", base64.StdEncoding.EncodeToString(c.Data), c.MIMEType})
}

// JSON-RPC 2.0, one message per line (MCP's stdio transport).

// rpcMessage is any incoming message: a request (method and id), a
// notification (method, no id) or a response to a request of ours (which
// grip never sends, so it is ignored).
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// rpcResponse is a reply to a request: Result or Error.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// JSON-RPC's error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
)

// The protocol revisions grip speaks, newest first. A client asking for
// one of them gets it; any other gets the newest (the client then decides
// whether it can go on). Clients of the stateless 2026 revision try
// server/discover first, get "method not found", and initialize instead.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

type implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

type initializeParams struct {
	ProtocolVersion string          `json:"protocolVersion"`
	ClientInfo      *implementation `json:"clientInfo"`
}

type initializeResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    map[string]any `json:"capabilities"`
	ServerInfo      implementation `json:"serverInfo"`
	Instructions    string         `json:"instructions,omitempty"`
}

type listToolsResult struct {
	Tools []*Tool `json:"tools"`
}

type callToolParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

type cancelledParams struct {
	RequestID json.RawMessage `json:"requestId"`
}
