package browsertest

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp/remote"
)

// Neighbour is a second DevTools-protocol client connected to the browser
// beside grip and the harness, as DevTools' own frontend or a raw CDP
// library is: auto-attached to every target with waitForDebuggerOnStart
// (flat sessions), it turns Page, Runtime and Network on in each page and
// frame session, auto-attaches there too, and lets each target run. It
// answers no dialog (Playwright's connectOverCDP dismisses every dialog
// no script listens for, so it cannot stand beside grip's dialog tests).
type Neighbour struct {
	conn     *remote.Conn
	id       atomic.Int64
	mu       sync.Mutex // one writer at a time
	attached atomic.Int64
	done     chan struct{}
}

// AttachNeighbour connects a Neighbour to e's browser (Options.DebugPort).
func (e *Env) AttachNeighbour() (*Neighbour, error) {
	ep, err := e.Endpoint()
	if err != nil {
		return nil, err
	}
	conn, err := remote.DialContext(context.Background(), ep)
	if err != nil {
		return nil, err
	}
	n := &Neighbour{conn: conn, done: make(chan struct{})}
	go n.run()
	n.send("", "Target.setAutoAttach", map[string]any{"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true})
	return n, nil
}

// Attached is how many targets the neighbour has attached to so far.
func (n *Neighbour) Attached() int { return int(n.attached.Load()) }

// Close disconnects the neighbour, which detaches it from every target.
func (n *Neighbour) Close() error {
	err := n.conn.Close()
	<-n.done
	return err
}

func (n *Neighbour) send(session target.SessionID, method string, params any) {
	b, _ := json.Marshal(params)
	msg := &cdproto.Message{ID: n.id.Add(1), SessionID: session, Method: cdproto.MethodType(method), Params: jsonv2.Value(b)}
	n.mu.Lock()
	defer n.mu.Unlock()
	_ = n.conn.Write(context.Background(), msg)
}

func (n *Neighbour) run() {
	defer close(n.done)
	for {
		var msg cdproto.Message
		if err := n.conn.Read(context.Background(), &msg); err != nil {
			return
		}
		if msg.Method != "Target.attachedToTarget" {
			continue
		}
		var ev target.EventAttachedToTarget
		if json.Unmarshal(msg.Params, &ev) != nil || ev.TargetInfo == nil {
			continue
		}
		n.attached.Add(1)
		s := ev.SessionID
		switch ev.TargetInfo.Type {
		case "page", "iframe":
			n.send(s, "Page.enable", struct{}{})
			n.send(s, "Runtime.enable", struct{}{})
			n.send(s, "Network.enable", struct{}{})
			n.send(s, "Target.setAutoAttach", map[string]any{"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true})
		case "worker", "service_worker", "shared_worker":
			n.send(s, "Runtime.enable", struct{}{})
			n.send(s, "Network.enable", struct{}{})
		}
		// Commands of one session run in order: the target runs once its
		// domains are on, as with DevTools.
		n.send(s, "Runtime.runIfWaitingForDebugger", struct{}{})
	}
}
