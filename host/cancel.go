package host

import (
	"context"
	"sync"
)

// requests are a connection's requests in flight, each with the cancel of
// its own context: an OpCancel from the same connection ends one
// (protocol/cancel.go). Ending the connection ends them all, as before.
type requests struct {
	mu      sync.Mutex
	cancels map[uint64]context.CancelFunc
}

// start gives request id a context of its own under ctx; done must be
// called when it has been answered.
func (r *requests) start(ctx context.Context, id uint64) (rctx context.Context, done func()) {
	rctx, cancel := context.WithCancel(ctx)
	r.mu.Lock()
	if r.cancels == nil {
		r.cancels = map[uint64]context.CancelFunc{}
	}
	r.cancels[id] = cancel
	r.mu.Unlock()
	return rctx, func() {
		r.mu.Lock()
		delete(r.cancels, id)
		r.mu.Unlock()
		cancel()
	}
}

// cancel ends request id if it is in flight.
func (r *requests) cancel(id uint64) {
	if r == nil {
		return
	}
	r.mu.Lock()
	cancel := r.cancels[id]
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

type requestsKey struct{}

func withRequests(ctx context.Context, r *requests) context.Context {
	return context.WithValue(ctx, requestsKey{}, r)
}

// requestsOf is the connection's requests; nil (cancelling nothing) for
// the host's own calls.
func requestsOf(ctx context.Context) *requests {
	r, _ := ctx.Value(requestsKey{}).(*requests)
	return r
}
