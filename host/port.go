package host

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/grip-dev/grip/protocol"
)

// extensionPort is the host's side of the native-messaging channel: one
// reader goroutine (Run's caller), one writer goroutine fed by a channel,
// and requests matched to replies by id.
type extensionPort struct {
	out  chan []byte
	done chan struct{} // closed when the channel to the extension is gone

	mu      sync.Mutex
	nextID  uint64
	pending map[uint64]chan protocol.NativeMessage // guarded by mu
	closed  bool                                   // guarded by mu
}

func newExtensionPort() *extensionPort {
	return &extensionPort{
		out:     make(chan []byte, 64),
		done:    make(chan struct{}),
		pending: make(map[uint64]chan protocol.NativeMessage),
	}
}

// writeLoop is the only writer of stdout: nothing but frames ever goes
// there. It returns when the port closes or a write fails.
func (p *extensionPort) writeLoop(w *protocol.NativeWriter) error {
	for {
		select {
		case body := <-p.out:
			if err := w.WriteRaw(body); err != nil {
				return err
			}
		case <-p.done:
			return nil
		}
	}
}

// send queues one message for the extension. A message over 1 MiB is
// refused here, before it could reach Chrome and close the channel.
func (p *extensionPort) send(msg protocol.NativeMessage) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("host: encode message to extension: %w", err)
	}
	if len(body) > protocol.MaxToExtension {
		return protocol.Errorf(protocol.CodeTooLarge, protocol.BoundaryPayload,
			"send less at once", "message to the extension is %d bytes; Chrome allows %d", len(body), protocol.MaxToExtension)
	}
	select {
	case p.out <- body:
		return nil
	case <-p.done:
		return errExtensionGone
	}
}

var errExtensionGone = protocol.Errorf(protocol.CodeNoBrowser, protocol.BoundaryBrowser,
	"the browser or the extension went away; it restarts the host by itself, retry in a moment", "the extension disconnected")

// call sends a request and waits for its reply, the context's end, or the
// channel closing.
// extCall is the one way the host sends the extension a request: typed by
// the request's entry in protocol/extension.go, so its params and reply are
// the types the extension's handler (extension/worker/router.js) is checked
// against. A nil result discards the reply. ctx bounds the wait (callExt
// adds the host's deadline).
func extCall[P, R any](ctx context.Context, p *extensionPort, c protocol.ExtCall[P, R], params P, result *R) error {
	if result == nil {
		return p.call(ctx, string(c), params, nil)
	}
	return p.call(ctx, string(c), params, result)
}

// extStart is extCall in two halves: it sends c at once and returns the
// wait for its reply, so several can be in flight in order (uploads).
func extStart[P, R any](p *extensionPort, c protocol.ExtCall[P, R], params P) (func(ctx context.Context, result *R) error, error) {
	wait, err := p.start(string(c), params)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, result *R) error {
		if result == nil {
			return wait(ctx, nil)
		}
		return wait(ctx, result)
	}, nil
}

func (p *extensionPort) call(ctx context.Context, typ string, params, result any) error {
	wait, err := p.start(typ, params)
	if err != nil {
		return err
	}
	return wait(ctx, result)
}

// start sends a request and returns the wait for its reply, so that
// several requests can be sent in order and awaited together. The caller
// must call wait, once.
func (p *extensionPort) start(typ string, params any) (wait func(ctx context.Context, result any) error, err error) {
	var raw json.RawMessage
	if params != nil {
		if raw, err = json.Marshal(params); err != nil {
			return nil, fmt.Errorf("host: encode %s params: %w", typ, err)
		}
	}
	reply := make(chan protocol.NativeMessage, 1)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errExtensionGone
	}
	p.nextID++
	id := p.nextID
	p.pending[id] = reply
	p.mu.Unlock()
	forget := func() {
		p.mu.Lock()
		delete(p.pending, id)
		p.mu.Unlock()
	}
	if err := p.send(protocol.NativeMessage{ID: id, Type: typ, Params: raw}); err != nil {
		forget()
		return nil, err
	}
	return func(ctx context.Context, result any) error {
		defer forget()
		return p.await(ctx, typ, reply, result)
	}, nil
}

// await waits for the reply of a request of type typ.
func (p *extensionPort) await(ctx context.Context, typ string, reply <-chan protocol.NativeMessage, result any) error {
	select {
	case msg := <-reply:
		if msg.Error != nil {
			return protocol.AsError(msg.Error)
		}
		if raw, ok := result.(*json.RawMessage); ok {
			// The frame's decoder checked the result is one JSON value
			// and gave this call its own copy: checked and copied again,
			// it was a fifth of a 5,000-element read's decode.
			*raw = msg.Result
			return nil
		}
		if result != nil && len(msg.Result) > 0 {
			if err := json.Unmarshal(msg.Result, result); err != nil {
				return protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "",
					"the extension's %s reply does not decode: %v", typ, err)
			}
		}
		return nil
	case <-p.done:
		return errExtensionGone
	case <-ctx.Done():
		if ctx.Err() == context.DeadlineExceeded {
			return protocol.Errorf(protocol.CodeTimeout, protocol.BoundaryBrowser,
				"the browser may be busy or a page blocked by a dialog; try again", "the extension did not answer %s in time", typ)
		}
		return ctx.Err()
	}
}

// deliver hands a reply to its waiting call; replies nobody waits for
// (their call timed out, or it already has one) are dropped.
func (p *extensionPort) deliver(msg protocol.NativeMessage) {
	p.mu.Lock()
	ch := p.pending[msg.ID]
	p.mu.Unlock()
	if ch != nil {
		select {
		case ch <- msg:
		default:
			// A second reply to the same id: the call has its answer.
			// Blocking here would stop the reader, and the host with it.
		}
	}
}

// close marks the channel gone and wakes every waiting call.
func (p *extensionPort) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		close(p.done)
	}
}

// readLoop reads frames until EOF, handing each to handle. A frame that
// is not a JSON object is logged and skipped (the framing is intact); a
// frame too large or cut short leaves the stream unreadable, so it ends
// the loop with that error.
func readLoop(r *protocol.NativeReader, handle func(protocol.NativeMessage), bad func(error)) error {
	for {
		raw, err := r.ReadRaw()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		msg, err := decodeNativeMessage(raw)
		if err != nil {
			bad(fmt.Errorf("host: frame from the extension is not a message object: %w", err))
			continue
		}
		handle(msg)
	}
}

// callTimeout bounds every request to the extension; the extension's own
// injection deadline (10 s) is shorter, so it usually answers first with
// the likelier cause.
const callTimeout = 20 * time.Second
