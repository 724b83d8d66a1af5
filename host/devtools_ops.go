package host

import (
	"context"

	"github.com/grip-dev/grip/protocol"
)

// serveDevtools runs the developer tools' operations; ok is false for any
// other operation. Console and network are reads under the read rule (a
// blocked page refused, a blocked frame's part left out, served while
// paused); eval, PDF and the shaped screenshots check the person's
// controls in their own handlers.
func (h *Host) serveDevtools(ctx context.Context, req protocol.Request) (res any, ok bool, err error) {
	switch req.Op {
	case protocol.OpConsole:
		var args protocol.ConsoleArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, true, err
		}
		if h.user != nil {
			if args.Tab, err = h.guardRead(ctx, args.Tab, readSnapshot); err != nil {
				return nil, true, err
			}
		}
		res, err = h.Console(ctx, args)
	case protocol.OpNetwork:
		var args protocol.NetworkArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, true, err
		}
		if h.user != nil {
			if args.Tab, err = h.guardRead(ctx, args.Tab, readSnapshot); err != nil {
				return nil, true, err
			}
		}
		res, err = h.Network(ctx, args)
	case protocol.OpNetworkBody:
		var args protocol.NetworkBodyArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, true, err
		}
		res, err = h.NetworkBody(ctx, args)
	case protocol.OpEval:
		var args protocol.EvalArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, true, err
		}
		res, err = h.Eval(ctx, args)
	case protocol.OpPDF:
		var args protocol.PDFArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, true, err
		}
		res, err = h.PDF(ctx, args)
	case protocol.OpScreenshotShape:
		var args protocol.ScreenshotShapeArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, true, err
		}
		res, err = h.ScreenshotShape(ctx, args)
	default:
		return nil, false, nil
	}
	return res, true, err
}
