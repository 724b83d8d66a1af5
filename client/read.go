package client

import (
	"context"

	"github.com/grip-dev/grip/protocol"
)

// Read reads the whole text of the element args.Target names (a ref, or a
// snapshot line), the part from args.From that fits args.Budget; the
// result's Next is the From that reads on.
func (s Ops) Read(ctx context.Context, args protocol.ReadArgs) (*protocol.ReadResult, error) {
	return call[protocol.ReadResult](ctx, s, protocol.OpRead, args)
}
