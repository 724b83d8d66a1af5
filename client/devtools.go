package client

import (
	"context"

	"github.com/grip-dev/grip/protocol"
)

// Console reads a tab's console (args.Tab 0: the active one): messages and
// uncaught errors since its page loaded, at args.Level and above, equal
// ones folded with a count.
func (s Ops) Console(ctx context.Context, args protocol.ConsoleArgs) (*protocol.ConsoleResult, error) {
	return call[protocol.ConsoleResult](ctx, s, protocol.OpConsole, args)
}

// Network lists a tab's requests since its page loaded or grip first
// touched it (the result says which), compact unless args.All.
func (s Ops) Network(ctx context.Context, args protocol.NetworkArgs) (*protocol.NetworkResult, error) {
	return call[protocol.NetworkResult](ctx, s, protocol.OpNetwork, args)
}

// NetworkBody returns the response body of request id (as Network lists
// it), at most maxBytes of it (0: protocol.DefaultBodyBytes).
func (s Ops) NetworkBody(ctx context.Context, tab, id, maxBytes int) (*protocol.NetworkBody, error) {
	return call[protocol.NetworkBody](ctx, s, protocol.OpNetworkBody, protocol.NetworkBodyArgs{Tab: tab, ID: id, MaxBytes: maxBytes})
}

// Eval runs args.Expression in the page (its own world, top frame) and
// returns its JSON value. Allowed only where the person's policy says
// script for the page's origin; else a protocol.CodePolicy refusal.
func (s Ops) Eval(ctx context.Context, args protocol.EvalArgs) (*protocol.EvalResult, error) {
	return call[protocol.EvalResult](ctx, s, protocol.OpEval, args)
}

// PDF prints a tab (0: the active one) to PDF.
func (s Ops) PDF(ctx context.Context, args protocol.PDFArgs) (*protocol.PDFResult, error) {
	return call[protocol.PDFResult](ctx, s, protocol.OpPDF, args)
}

// ScreenshotShape takes a PNG of one element (args.Target) or of the
// viewport with a snapshot's refs drawn on (args.Refs).
func (s Ops) ScreenshotShape(ctx context.Context, args protocol.ScreenshotShapeArgs) (*protocol.ShapeShot, error) {
	return call[protocol.ShapeShot](ctx, s, protocol.OpScreenshotShape, args)
}

// ScreenshotElement takes a PNG of the element ref names, the size of its
// box.
func (s Ops) ScreenshotElement(ctx context.Context, ref string) (*protocol.ShapeShot, error) {
	return call[protocol.ShapeShot](ctx, s, protocol.OpScreenshotShape, protocol.ScreenshotShapeArgs{Target: ref})
}

// ScreenshotRefs takes a snapshot of a tab (0: the active one) and a PNG
// of its viewport with each ref of that snapshot drawn over its element.
func (s Ops) ScreenshotRefs(ctx context.Context, tab int) (*protocol.ShapeShot, error) {
	return call[protocol.ShapeShot](ctx, s, protocol.OpScreenshotShape, protocol.ScreenshotShapeArgs{Tab: tab, Refs: true})
}

// Resize sets the size of the window tab (0: the session's) is in; allowed
// only in a browser grip launched or for a window of the session's own
// tabs, else a protocol.CodePolicy refusal.
func (s Ops) Resize(ctx context.Context, tab, width, height int) (*protocol.ResizeResult, error) {
	return call[protocol.ResizeResult](ctx, s, protocol.OpResize, protocol.ResizeArgs{Tab: tab, Width: width, Height: height})
}
