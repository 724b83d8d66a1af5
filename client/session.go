package client

import (
	"context"
	"errors"

	"github.com/grip-dev/grip/protocol"
)

// Session is a Client that survives the host being restarted: read-only
// calls (tabs, snapshot, status, screenshot) retry once on a new host by
// themselves; a call whose outcome is unknown (an action in flight when
// the host died) fails with host_lost at once, instead of being retried
// blindly, and the next call connects to the new host. A Session is not
// safe for concurrent use.
type Session struct {
	opt  Options
	c    *Client // nil after a lost action, until the next call reconnects
	info protocol.HostInfo
}

// NewSession connects as Connect does.
func NewSession(ctx context.Context, opt Options) (*Session, error) {
	c, err := Connect(ctx, opt)
	if err != nil {
		return nil, err
	}
	return &Session{opt: opt, c: c, info: c.Info}, nil
}

// Info describes the host last connected.
func (s *Session) Info() protocol.HostInfo { return s.info }

// Close closes the connection.
func (s *Session) Close() error {
	if s.c == nil {
		return nil
	}
	return s.c.Close()
}

// readOnly ops may be repeated without changing anything.
func readOnly(op string) bool {
	switch op {
	case protocol.OpTabs, protocol.OpSnapshot, protocol.OpStatus, protocol.OpScreenshot, protocol.OpHello,
		protocol.OpLog, protocol.OpPolicy, protocol.OpPause:
		return true
	}
	return false
}

func (s *Session) reconnect(ctx context.Context) error {
	c, err := Connect(ctx, s.opt)
	if err != nil {
		return err
	}
	s.c, s.info = c, c.Info
	return nil
}

// Call makes a call, reconnecting once for read-only ops.
func (s *Session) Call(ctx context.Context, op string, args, result any) error {
	if s.c == nil {
		if err := s.reconnect(ctx); err != nil {
			return err
		}
	}
	err := s.c.Call(ctx, op, args, result)
	if err == nil || !errors.Is(err, ErrConnectionLost) {
		return err
	}
	s.c.Close()
	s.c = nil
	if !readOnly(op) {
		// Do not repeat this one, and do not wait for a new host to say
		// so: the next call connects.
		return protocol.Errorf(protocol.CodeHostLost, protocol.BoundaryHost,
			"take a new snapshot to see whether it happened before acting again",
			"the host went away while %s was in flight; it may or may not have happened", op)
	}
	if err := s.reconnect(ctx); err != nil {
		return err
	}
	return s.c.Call(ctx, op, args, result)
}
