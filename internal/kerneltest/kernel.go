// Package kerneltest evaluates grip's in-page kernel (extension/kernel/*.js)
// in an ordinary page, for tests: the host never runs it itself; the
// extension injects its files into every document's isolated world.
//
// The kernel answers one request per call: {op:"snapshot"}, {op:"act"},
// {op:"probe"}, {op:"watch"}, {op:"frameIndex"} and {op:"mark"}; the reply
// types below describe what it returns.
package kerneltest

import (
	"encoding/json"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/protocol"
)

// CacheGlobal is the property of globalThis that holds the kernel's
// per-document element cache. Every file that names it spells it
// literally.
const CacheGlobal = "__gripRefCache__"

// KernelGlobal is the property of globalThis that holds the kernel's own
// object (base.js makes it, every other file adds its part).
const KernelGlobal = "__gripKernel__"

// Source returns a JavaScript expression that installs the kernel in the
// page (its files in injection order, evaluated in the main world here: no
// chrome.* APIs, so frame ops refuse) and evaluates to its entry point, a
// function of one request. globalThis.__gripKernel__ holds its parts.
func Source() string {
	return "(() => {\n" + extension.KernelSource() + "return globalThis." + KernelGlobal + ".run;\n})()"
}

// Expr returns a JavaScript expression that installs the kernel afresh,
// calls it with req (encoded as JSON) and evaluates to its reply. A req that
// cannot be encoded gives an expression that evaluates to a bad_request
// reply.
func Expr(req any) string {
	b, err := json.Marshal(req)
	if err != nil {
		reply, _ := json.Marshal(Reply{Error: &protocol.Error{Code: protocol.CodeBadRequest, Boundary: protocol.BoundaryDocument, Message: "cannot encode the request: " + err.Error()}})
		return "(" + string(reply) + ")"
	}
	return Source() + "(" + string(b) + ")"
}

// Reply is the union of the kernel's replies, in the contract's types
// (protocol/extension.go); which fields are set depends on the op. Error is
// set on any refusal.
type Reply struct {
	// snapshot
	URL      string                `json:"url,omitempty"`
	Title    string                `json:"title,omitempty"`
	Elements []protocol.ExtElement `json:"elements,omitempty"`
	Stats    *protocol.FrameStats  `json:"stats,omitempty"`
	// act
	OK     bool            `json:"ok,omitempty"`
	ID     int             `json:"id,omitempty"`
	Detail string          `json:"detail,omitempty"`
	Point  *protocol.Point `json:"point,omitempty"`
	// probe
	TextFound bool `json:"textFound,omitempty"`
	Present   bool `json:"present,omitempty"`
	// frameIndex
	Index *int `json:"index,omitempty"`

	Error *protocol.Error `json:"error,omitempty"`
}
