package client

import (
	"context"
	"errors"
	"sync"

	"github.com/grip-dev/grip/protocol"
)

// Session is a Client that survives the host being restarted: the calls
// whose row in protocol.Operations says Retry (tabs, snapshot, status,
// screenshot…) retry once on a new host by themselves; a call whose outcome is unknown (an action in flight when
// the host died) fails with host_lost at once, instead of being retried
// blindly, and the next call connects to the new host. A Session is safe
// for concurrent use: calls share one connection; the host serialises the
// operations of each tab.
type Session struct {
	Ops // the typed operations, over this Session
	opt Options

	mu   sync.Mutex
	c    *Client           // guarded by mu; nil after a lost action, until the next call reconnects
	info protocol.HostInfo // guarded by mu
}

// NewSession connects as Connect does.
func NewSession(ctx context.Context, opt Options) (*Session, error) {
	c, err := Connect(ctx, opt)
	if err != nil {
		return nil, err
	}
	s := &Session{opt: opt, c: c, info: c.Info}
	s.Ops = Ops{s}
	return s, nil
}

// Info describes the host last connected.
func (s *Session) Info() protocol.HostInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.info
}

// Close closes the connection.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c == nil {
		return nil
	}
	return s.c.Close()
}

// retried says whether op may be sent again on a new host: its row in
// protocol.Operations says Retry (doing it twice is doing it once). An
// operation the table does not know is never repeated.
func retried(op string) bool {
	row, ok := protocol.OperationNamed(op)
	return ok && row.Retry
}

// client returns the connection, connecting again if a lost action
// dropped it.
func (s *Session) client(ctx context.Context) (*Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c != nil {
		return s.c, nil
	}
	c, err := Connect(ctx, s.opt)
	if err != nil {
		return nil, err
	}
	s.c, s.info = c, c.Info
	return c, nil
}

// drop forgets c after it broke (unless another call already replaced it).
func (s *Session) drop(c *Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c == c {
		s.c = nil
	}
	c.Close()
}

// Call makes a call, reconnecting once for read-only ops.
func (s *Session) Call(ctx context.Context, op string, args, result any) error {
	c, err := s.client(ctx)
	if err != nil {
		return err
	}
	err = c.Call(ctx, op, args, result)
	if err == nil || !errors.Is(err, ErrConnectionLost) {
		return err
	}
	s.drop(c)
	if !retried(op) {
		// Do not repeat this one, and do not wait for a new host to say
		// so: the next call connects.
		return protocol.Errorf(protocol.CodeHostLost, protocol.BoundaryHost,
			"take a new snapshot to see whether it happened before acting again",
			"the host went away while %s was in flight; it may or may not have happened", op)
	}
	if c, err = s.client(ctx); err != nil {
		return err
	}
	return c.Call(ctx, op, args, result)
}
