package client

import (
	"context"
	"errors"

	"github.com/grip-dev/grip/protocol"
)

// Session is a Client that survives the host being restarted: read-only
// calls (tabs, snapshot, status, screenshot) retry once on a new host by
// themselves; a call whose outcome is unknown (an action in flight when
// the host died) fails with host_lost instead of being retried blindly.
type Session struct {
	opt Options
	c   *Client
}

// NewSession connects as Connect does.
func NewSession(ctx context.Context, opt Options) (*Session, error) {
	c, err := Connect(ctx, opt)
	if err != nil {
		return nil, err
	}
	return &Session{opt: opt, c: c}, nil
}

// Info describes the connected host.
func (s *Session) Info() protocol.HostInfo { return s.c.Info }

// Close closes the connection.
func (s *Session) Close() error { return s.c.Close() }

// readOnly ops may be repeated without changing anything.
func readOnly(op string) bool {
	switch op {
	case protocol.OpTabs, protocol.OpSnapshot, protocol.OpStatus, protocol.OpScreenshot, protocol.OpHello:
		return true
	}
	return false
}

// Call makes a call, reconnecting once for read-only ops.
func (s *Session) Call(ctx context.Context, op string, args, result any) error {
	err := s.c.Call(ctx, op, args, result)
	if err == nil || !errors.Is(err, ErrConnectionLost) {
		return err
	}
	s.c.Close()
	if !readOnly(op) {
		// Reconnect for later calls, but do not repeat this one.
		if c, cerr := Connect(ctx, s.opt); cerr == nil {
			s.c = c
		}
		return protocol.Errorf(protocol.CodeHostLost, protocol.BoundaryHost,
			"take a new snapshot to see whether it happened before acting again",
			"the host went away while %s was in flight; it may or may not have happened", op)
	}
	c, cerr := Connect(ctx, s.opt)
	if cerr != nil {
		return cerr
	}
	s.c = c
	return s.c.Call(ctx, op, args, result)
}
