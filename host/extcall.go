package host

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/grip-dev/grip/protocol"
)

// The host's side of the extension's port, typed: the calls it sends the
// extension (each a request of protocol/extension.go) and what the
// extension tells it unasked (its events and its own requests). Only this
// file and port.go touch the port's untyped call.

// callExt sends the extension the request c (protocol/extension.go: its
// name and its params and reply types) and decodes its reply into result,
// within the host's deadline.
func callExt[P, R any](ctx context.Context, h *Host, c protocol.ExtCall[P, R], params P, result *R) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	return extCall(ctx, h.port, c, params, result)
}

// callExtRaw is callExt that leaves the reply undecoded, for a caller that
// times its decoding apart (readTab): it decodes the bytes into c's reply
// type R.
func callExtRaw[P, R any](ctx context.Context, h *Host, c protocol.ExtCall[P, R], params P) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	var body json.RawMessage
	err := h.port.call(ctx, string(c), params, &body)
	return body, err
}

// onEvent reacts to the extension's notices: a committed navigation or a
// closed tab makes refs of the documents that are gone stale at once.
func (h *Host) onEvent(ctx context.Context, params json.RawMessage) {
	var ev protocol.Event
	if err := json.Unmarshal(params, &ev); err != nil {
		h.log.Warn("bad event from the extension", "err", err)
		return
	}
	switch ev.Kind {
	case protocol.EventTabRemoved:
		h.refs.InvalidateTab(ev.TabID)
		h.tabs.forget(ev.TabID)
		h.person.tabGone(ev.TabID)
		h.openers.tabRemoved(ev.TabID)
	case protocol.EventTabOpened:
		h.openers.tabOpened(ev.TabID, ev.Opener, ev.URL)
		h.person.openedBy(ev.TabID, ev.Opener)
	case protocol.EventNavigated:
		if ev.FrameID == 0 {
			h.tabs.observe(ev.TabID, ev.DocumentID)
		}
		h.docRefresh.trigger(func() { h.refreshLiveDocuments(ctx) })
	}
}

// coalescer runs a job at most once at a time: a trigger while it runs
// asks for one more run after it, however many triggers came. A page that
// reloads an iframe in a loop thus costs one listing of the browser's
// documents at a time, not one per navigation.
type coalescer struct {
	mu      sync.Mutex
	running bool // a run is in progress; guarded by mu
	again   bool // triggered during the run; guarded by mu
}

func (c *coalescer) trigger(run func()) {
	c.mu.Lock()
	if c.running {
		c.again = true
		c.mu.Unlock()
		return
	}
	c.running = true
	c.mu.Unlock()
	go func() {
		for {
			run()
			c.mu.Lock()
			if !c.again {
				c.running = false
				c.mu.Unlock()
				return
			}
			c.again = false
			c.mu.Unlock()
		}
	}()
}

// refreshLiveDocuments asks the extension which documents are alive and
// makes every ref of any other document stale.
func (h *Host) refreshLiveDocuments(ctx context.Context) {
	var res protocol.DocumentsReply
	if err := callExt(ctx, h, protocol.ExtDocuments, protocol.NoParams{}, &res); err != nil {
		h.log.Warn("could not list live documents", "err", err)
		return
	}
	live := make(map[string]bool, len(res.Documents))
	for _, d := range res.Documents {
		live[d.DocumentID] = true
	}
	h.refs.InvalidateDocuments(live)
}

// onExtensionRequest answers the extension's own requests (the popup's
// status, "Snapshot this tab" and switches) through their entries in
// extensionRequests.
func (h *Host) onExtensionRequest(ctx context.Context, msg protocol.NativeMessage) {
	var res any
	var err error
	if answer, ok := extensionRequests()[msg.Type]; ok {
		res, err = answer(h, ctx, msg.Params)
	} else {
		err = protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "", "unknown request %q", msg.Type)
	}
	reply := protocol.NativeMessage{ID: msg.ID, Type: protocol.MsgReply}
	if err != nil {
		reply.Error = protocol.AsError(err)
	} else {
		reply.Result = mustJSON(res)
	}
	if serr := h.port.send(reply); serr != nil {
		h.log.Warn("could not answer the extension", "err", serr)
	}
}
