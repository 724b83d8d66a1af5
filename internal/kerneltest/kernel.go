// Package kerneltest evaluates grip's in-page kernel (extension/kernel/*.js)
// in an ordinary page, for tests: the host never runs it itself; the
// extension injects its files into every document's isolated world.
//
// The kernel answers one request per call: {op:"snapshot"}, {op:"act"},
// {op:"probe"}, {op:"frameOffset"} and {op:"frameId"}; the reply types below
// describe what it returns.
package kerneltest

import (
	"encoding/json"

	"github.com/grip-dev/grip/extension"
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
		reply, _ := json.Marshal(Reply{Error: &Error{Code: "bad_request", Boundary: "document", Message: "cannot encode the request: " + err.Error()}})
		return "(" + string(reply) + ")"
	}
	return Source() + "(" + string(b) + ")"
}

// Element is one element a snapshot reports. ID is the element's local id in
// its document: it follows the node for the life of the document.
type Element struct {
	ID     int64    `json:"id"`
	Role   string   `json:"role"`
	Name   string   `json:"name"`
	Value  *string  `json:"value,omitempty"`
	States []string `json:"states,omitempty"`
}

// Stats are the figures of one in-page snapshot.
type Stats struct {
	Nodes int     `json:"nodes"`
	MS    float64 `json:"ms"`
}

// Point is a position in the frame's viewport, in CSS pixels.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Error is a refusal or failure in the page: a machine code, the
// boundary that refused (node, meaning, actionability, point, document) and
// a message naming the reason.
type Error struct {
	Code     string `json:"code"`
	Boundary string `json:"boundary"`
	Message  string `json:"message"`
	Hint     string `json:"hint"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Reply is the union of the kernel's replies; which fields are set depends
// on the op. Error is set on any refusal.
type Reply struct {
	// snapshot
	URL      string    `json:"url,omitempty"`
	Title    string    `json:"title,omitempty"`
	Elements []Element `json:"elements,omitempty"`
	Stats    *Stats    `json:"stats,omitempty"`
	// act
	OK     bool   `json:"ok,omitempty"`
	ID     int64  `json:"id,omitempty"`
	Detail string `json:"detail,omitempty"`
	Point  *Point `json:"point,omitempty"`
	// probe
	TextFound bool `json:"textFound,omitempty"`
	Present   bool `json:"present,omitempty"`
	// frameOffset
	X float64 `json:"x,omitempty"`
	Y float64 `json:"y,omitempty"`
	// frameId
	FrameID *int `json:"frameId,omitempty"`

	Error *Error `json:"error,omitempty"`
}
