package walk

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// world is the observer's script; worldName its isolated world, binding
// the CDP binding its events come back through.
//
//go:embed world.js
var world string

// timers is the observer's script in the page's main world, which tells
// the isolated world which timer's chain each change is from.
//
//go:embed timers.js
var timers string

const (
	worldName = "grip-walk-observer"
	binding   = "__walkObs"
)

// Node is a DOM node as the observer knows it: the document (its world's
// own token for it) and the id its world gave the node.
type Node struct {
	Doc string
	ID  int
}

// Event is one input event the page dispatched, as the observer's
// listeners saw it.
type Event struct {
	Type    string `json:"t"`
	Doc     string `json:"doc"`
	ID      int    `json:"id"`
	Trusted bool   `json:"trusted"`
	Key     string `json:"key"`
	K       int    `json:"k"`
}

// Node is the node the event was dispatched to.
func (e Event) Node() Node { return Node{e.Doc, e.ID} }

// Alive is what the observer knows of a node's connectedness.
type Alive int

// The observer's answers: the node is in its document, it is not, or its
// document is gone or out of the observer's reach (a frame in another
// process, a document put in the back/forward cache).
const (
	Unknown Alive = iota
	Connected
	Disconnected
)

func (a Alive) String() string {
	return [...]string{"unknown", "connected", "disconnected"}[a]
}

// Observer watches one tab over the DevTools protocol, apart from grip: its
// own connection, its own isolated world in every frame of the tab's
// process, its own listeners. Nothing grip does can write into that world.
type Observer struct {
	browser context.Context
	tab     context.Context
	cancel  context.CancelFunc

	mu     sync.Mutex
	docs   map[string]runtime.ExecutionContextID // a document's token → its context of our world
	ctxs   map[runtime.ExecutionContextID]string // our world's contexts, by id: their unique ids
	events []Event
	marks  map[int]bool
	mark   int
	frames map[runtime.ExecutionContextID]cdp.FrameID // our world's contexts' frames
	wake   chan struct{}
}

// Browser is the observer's connection to a browser's debugging port
// (127.0.0.1:port), apart from grip's.
func Browser(ctx context.Context, port int) (context.Context, context.CancelFunc) {
	alloc, acancel := remote.NewAllocator(ctx, fmt.Sprintf("http://127.0.0.1:%d", port))
	bctx, bcancel := chromedp.NewContext(alloc)
	return bctx, func() { bcancel(); acancel() }
}

// Observe attaches to the page target id of the browser bctx (Browser)
// connects to.
func Observe(bctx context.Context, id target.ID) (*Observer, error) {
	tctx, tcancel := chromedp.NewContext(bctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	o := &Observer{browser: bctx, tab: tctx, cancel: tcancel,
		docs: map[string]runtime.ExecutionContextID{}, ctxs: map[runtime.ExecutionContextID]string{}, marks: map[int]bool{}, frames: map[runtime.ExecutionContextID]cdp.FrameID{}, wake: make(chan struct{}, 1)}
	if err := chromedp.Do(tctx); err != nil {
		o.Close()
		return nil, fmt.Errorf("observer: attach to the tab: %w", err)
	}
	if err := chromedp.Listen(tctx, o.listen); err != nil {
		o.Close()
		return nil, err
	}
	cctx, cancel := context.WithTimeout(tctx, 20*time.Second)
	defer cancel()
	yes := true
	if _, err := chromedp.Call(cctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: world, WorldName: worldName, RunImmediately: &yes}); err != nil {
		o.Close()
		return nil, fmt.Errorf("observer: Page.addScriptToEvaluateOnNewDocument: %w", err)
	}
	if _, err := chromedp.Call(cctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: timers, RunImmediately: &yes}); err != nil {
		o.Close()
		return nil, fmt.Errorf("observer: Page.addScriptToEvaluateOnNewDocument: %w", err)
	}
	// Runtime.enable again reports every context there is, ours included.
	_, _ = chromedp.Call(cctx, runtime.Disable, cdp.Empty{})
	if _, err := chromedp.Call(cctx, runtime.Enable, cdp.Empty{}); err != nil {
		o.Close()
		return nil, err
	}
	// After the enable: Runtime.disable drops the bindings.
	if _, err := chromedp.Call(cctx, runtime.AddBinding, runtime.AddBindingParams{Name: binding, ExecutionContextName: worldName}); err != nil {
		o.Close()
		return nil, fmt.Errorf("observer: Runtime.addBinding: %w", err)
	}
	return o, nil
}

// Close detaches, leaving the tab and the browser open.
func (o *Observer) Close() { o.cancel() }

func (o *Observer) listen(ev any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventExecutionContextCreated:
		if ev.Context == nil {
			return
		}
		var aux struct {
			FrameID   cdp.FrameID `json:"frameId"`
			IsDefault bool        `json:"isDefault"`
		}
		if ev.Context.Name == worldName {
			o.ctxs[ev.Context.ID] = ev.Context.UniqueID
			if json.Unmarshal(ev.Context.AuxData, &aux) == nil {
				o.frames[ev.Context.ID] = aux.FrameID
			}
			return
		}
		// A frame's first, empty document (an about:blank frame a script
		// writes into, as editors do) runs no new-document script: give it
		// the world now. Chromium reuses a frame's world of that name.
		if json.Unmarshal(ev.Context.AuxData, &aux) == nil && aux.IsDefault && aux.FrameID != "" {
			go o.ensureWorld(aux.FrameID)
		}
	case *runtime.EventExecutionContextDestroyed:
		for id, u := range o.ctxs {
			if u == ev.ExecutionContextUniqueID {
				o.forget(id)
			}
		}
	case *runtime.EventExecutionContextsCleared:
		o.ctxs = map[runtime.ExecutionContextID]string{}
		o.frames = map[runtime.ExecutionContextID]cdp.FrameID{}
		o.docs = map[string]runtime.ExecutionContextID{}
	case *runtime.EventBindingCalled:
		if ev.Name != binding {
			return
		}
		var e Event
		if json.Unmarshal([]byte(ev.Payload), &e) != nil {
			return
		}
		if _, ok := o.ctxs[ev.ExecutionContextID]; !ok {
			o.ctxs[ev.ExecutionContextID] = ""
		}
		o.docs[e.Doc] = ev.ExecutionContextID
		if e.Type == "mark" {
			o.marks[e.K] = true
		} else {
			o.events = append(o.events, e)
		}
		select {
		case o.wake <- struct{}{}:
		default:
		}
	}
}

// ensureWorld makes the observer's world in frame and runs its script
// there (a no-op where it ran already).
func (o *Observer) ensureWorld(frame cdp.FrameID) {
	cctx, cancel := context.WithTimeout(o.tab, 5*time.Second)
	defer cancel()
	res, err := chromedp.Call(cctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frame, WorldName: worldName})
	if err != nil {
		return
	}
	_, _ = chromedp.Call(cctx, runtime.Evaluate, runtime.EvaluateParams{Expression: world, ContextID: res.ExecutionContextID})
}

// Cover gives the world to every frame of the tab's process that has
// none (a frame made and written by a script since the last look).
func (o *Observer) Cover() {
	cctx, cancel := context.WithTimeout(o.tab, 5*time.Second)
	defer cancel()
	res, err := chromedp.Call(cctx, page.GetFrameTree, cdp.Empty{})
	if err != nil || res.FrameTree == nil {
		return
	}
	o.mu.Lock()
	have := map[cdp.FrameID]bool{}
	for _, f := range o.frames {
		have[f] = true
	}
	o.mu.Unlock()
	var walk func(t *page.FrameTree)
	walk = func(t *page.FrameTree) {
		if t.Frame != nil && !have[t.Frame.ID] {
			o.ensureWorld(t.Frame.ID)
		}
		for _, c := range t.ChildFrames {
			walk(c)
		}
	}
	walk(res.FrameTree)
	o.mu.Lock()
	ids := make([]runtime.ExecutionContextID, 0, len(o.ctxs))
	for id := range o.ctxs {
		ids = append(ids, id)
	}
	o.mu.Unlock()
	for _, id := range ids {
		_, _ = o.eval(o.tab, id, "__walk.ping()")
	}
}

func (o *Observer) forget(id runtime.ExecutionContextID) {
	delete(o.ctxs, id)
	delete(o.frames, id)
	for d, c := range o.docs {
		if c == id {
			delete(o.docs, d)
		}
	}
}

// Drain returns the events since the last Drain. It first has each of its
// worlds send a mark through the binding and waits (at most a second) for
// the marks: the renderer sends a world's calls in order, so every event
// dispatched before Drain has arrived once its mark has.
func (o *Observer) Drain(ctx context.Context) []Event {
	o.mu.Lock()
	o.mark++
	k := o.mark
	ids := make([]runtime.ExecutionContextID, 0, len(o.ctxs))
	for id := range o.ctxs {
		ids = append(ids, id)
	}
	o.mu.Unlock()
	sent := 0
	for _, id := range ids {
		if _, err := o.eval(ctx, id, fmt.Sprintf("__walk.mark(%d)", k)); err == nil {
			sent++
		}
	}
	deadline := time.After(time.Second)
	for sent > 0 {
		o.mu.Lock()
		got := o.marks[k]
		o.mu.Unlock()
		if got {
			break
		}
		select {
		case <-o.wake:
		case <-deadline:
			sent = 0
		case <-ctx.Done():
			sent = 0
		}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.marks, k)
	ev := o.events
	o.events = nil
	return ev
}

// errNoWorld: the node's document has no world of ours in reach.
var errNoWorld = errors.New("observer: the document is out of reach")

func (o *Observer) eval(ctx context.Context, id runtime.ExecutionContextID, expr string) (json.RawMessage, error) {
	cctx, cancel := context.WithTimeout(o.tab, 5*time.Second)
	defer cancel()
	yes := true
	params := runtime.EvaluateParams{Expression: expr, ContextID: id, ReturnByValue: &yes}
	o.mu.Lock()
	if u := o.ctxs[id]; u != "" {
		// A context id may be another process's after a cross-site
		// navigation; the unique id names one context only.
		params.ContextID, params.UniqueContextID = 0, u
	}
	o.mu.Unlock()
	res, err := chromedp.Call(cctx, runtime.Evaluate, params)
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, fmt.Errorf("observer: %s: %s", expr, res.ExceptionDetails.Text)
	}
	if res.Result == nil {
		return nil, nil
	}
	return json.RawMessage(res.Result.Value), nil
}

// in evaluates expr in the world of n's document.
func (o *Observer) in(ctx context.Context, n Node, expr string) (json.RawMessage, error) {
	o.mu.Lock()
	id, ok := o.docs[n.Doc]
	o.mu.Unlock()
	if !ok {
		return nil, errNoWorld
	}
	v, err := o.eval(ctx, id, expr)
	if err != nil && strings.Contains(err.Error(), "context") {
		o.mu.Lock()
		o.forget(id)
		o.mu.Unlock()
		return nil, errNoWorld
	}
	return v, err
}

// Alive says whether n is in its document now.
func (o *Observer) Alive(ctx context.Context, n Node) Alive {
	v, err := o.in(ctx, n, fmt.Sprintf("__walk.alive(%d)", n.ID))
	if err != nil {
		return Unknown
	}
	switch strings.TrimSpace(string(v)) {
	case "1":
		return Connected
	case "0":
		return Disconnected
	}
	return Unknown
}

// AliveAll is Alive for many nodes, one evaluation per document: the
// walk asks it of every ref it holds after every step.
func (o *Observer) AliveAll(ctx context.Context, ns []Node) map[Node]Alive {
	byDoc := map[string][]int{}
	for _, n := range ns {
		byDoc[n.Doc] = append(byDoc[n.Doc], n.ID)
	}
	out := make(map[Node]Alive, len(ns))
	for doc, ids := range byDoc {
		q, _ := json.Marshal(ids)
		v, err := o.in(ctx, Node{Doc: doc}, fmt.Sprintf("__walk.aliveAll(%s)", q))
		var got []int
		if err != nil || json.Unmarshal(v, &got) != nil || len(got) != len(ids) {
			continue
		}
		for i, id := range ids {
			switch got[i] {
			case 1:
				out[Node{doc, id}] = Connected
			case 0:
				out[Node{doc, id}] = Disconnected
			}
		}
	}
	return out
}

// Element is the element an event on n stands for, by the observer's own
// judgement: n or its nearest ancestor whose text or label is name, else
// its nearest interactive ancestor (world.js W.element).
func (o *Observer) Element(ctx context.Context, n Node, name string) (Node, error) {
	q, _ := json.Marshal(name)
	v, err := o.in(ctx, n, fmt.Sprintf("__walk.element(%d, %s)", n.ID, q))
	if err != nil {
		return Node{}, err
	}
	var id int
	if err := json.Unmarshal(v, &id); err != nil || id == 0 {
		return Node{}, errNoWorld
	}
	return Node{n.Doc, id}, nil
}

// Within reports whether a is b or inside it (false when either is out of
// reach or they are in different documents).
func (o *Observer) Within(ctx context.Context, a, b Node) bool {
	if a.Doc != b.Doc {
		return false
	}
	v, err := o.in(ctx, a, fmt.Sprintf("__walk.within(%d, %d)", a.ID, b.ID))
	return err == nil && strings.TrimSpace(string(v)) == "true"
}

// Field reports whether n is a native text field (input, textarea).
func (o *Observer) Field(ctx context.Context, n Node) bool {
	v, err := o.in(ctx, n, fmt.Sprintf("__walk.field(%d)", n.ID))
	return err == nil && strings.TrimSpace(string(v)) == "true"
}

// Describe is n in a few words, for a violation's line.
func (o *Observer) Describe(ctx context.Context, n Node) string {
	v, err := o.in(ctx, n, fmt.Sprintf("__walk.describe(%d)", n.ID))
	var s string
	if err != nil || json.Unmarshal(v, &s) != nil {
		return fmt.Sprintf("node %d of a document out of reach", n.ID)
	}
	return s
}

// Quiet is how long the top document has gone without a DOM mutation
// (0 when it cannot be read).
func (o *Observer) Quiet(ctx context.Context) time.Duration {
	o.mu.Lock()
	ids := make([]runtime.ExecutionContextID, 0, len(o.ctxs))
	for id := range o.ctxs {
		ids = append(ids, id)
	}
	o.mu.Unlock()
	least := time.Duration(-1)
	for _, id := range ids {
		v, err := o.eval(ctx, id, "__walk.quiet()")
		var ms float64
		if err != nil || json.Unmarshal(v, &ms) != nil {
			continue
		}
		if d := time.Duration(ms * float64(time.Millisecond)); least < 0 || d < least {
			least = d
		}
	}
	if least < 0 {
		return 0
	}
	return least
}

// WaitQuiet waits until the tab has gone quiet for at least quiet, for
// at most bound, and returns how long it has been quiet.
func (o *Observer) WaitQuiet(ctx context.Context, quiet, bound time.Duration) time.Duration {
	deadline := time.Now().Add(bound)
	for {
		q := o.Quiet(ctx)
		if q >= quiet || time.Now().Add(quiet-q).After(deadline) {
			return q
		}
		select {
		case <-ctx.Done():
			return q
		case <-time.After(quiet - q):
		}
	}
}

func (o *Observer) contexts() []runtime.ExecutionContextID {
	o.mu.Lock()
	defer o.mu.Unlock()
	ids := make([]runtime.ExecutionContextID, 0, len(o.ctxs))
	for id := range o.ctxs {
		ids = append(ids, id)
	}
	return ids
}

// Begin tells every document's world that an action begins now.
func (o *Observer) Begin(ctx context.Context) {
	for _, id := range o.contexts() {
		_, _ = o.eval(ctx, id, "__walk.begin()")
	}
}

// Replied tells every world the action's reply came, and returns the
// live regions and named statuses that changed or came on the page since
// Begin (walk/world.js reply), as CheckSaid judges them.
func (o *Observer) Replied(ctx context.Context) []Region {
	var out []Region
	for _, id := range o.contexts() {
		v, err := o.eval(ctx, id, "__walk.reply()")
		var got []Region
		if err == nil && json.Unmarshal(v, &got) == nil {
			out = append(out, got...)
		}
	}
	return out
}

// Since counts the batches of changes since Replied: old, those made in
// a chain of timers set before Begin (a notification hiding itself);
// caused, all others.
func (o *Observer) Since(ctx context.Context) (old, caused int) {
	for _, id := range o.contexts() {
		v, err := o.eval(ctx, id, "__walk.since()")
		var got struct{ Old, Caused int }
		if err == nil && json.Unmarshal(v, &got) == nil {
			old += got.Old
			caused += got.Caused
		}
	}
	return old, caused
}

// InPage runs expr in the page's own main world (the blocked frame the
// walk puts in).
func (o *Observer) InPage(ctx context.Context, expr string) error {
	cctx, cancel := context.WithTimeout(o.tab, 5*time.Second)
	defer cancel()
	_, err := chromedp.Call(cctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expr})
	return err
}

// WorkerHeap is the JavaScript heap grip's service worker uses, in bytes
// (0 when there is no worker of grip's to read).
func (o *Observer) WorkerHeap(ctx context.Context) float64 {
	infos, err := chromedp.Targets(o.browser)
	if err != nil {
		return 0
	}
	for _, info := range infos {
		// worker/background.js, or a kept folder's worker/background-VERSION.js (extension.ForFolder)
		if info.Type != "service_worker" || !strings.HasPrefix(info.URL, "chrome-extension://") || !strings.Contains(info.URL, "/worker/background") {
			continue
		}
		sw, cancel := chromedp.NewContext(o.browser, chromedp.WithTargetID(info.TargetID), chromedp.WithDetachOnCancel())
		defer cancel()
		cctx, ccancel := context.WithTimeout(sw, 5*time.Second)
		defer ccancel()
		res, err := chromedp.Call(cctx, runtime.GetHeapUsage, cdp.Empty{})
		if err != nil {
			return 0
		}
		return res.UsedSize
	}
	return 0
}

// PageTargets lists the browser's page targets.
func PageTargets(ctx context.Context) ([]*target.Info, error) {
	infos, err := chromedp.Targets(ctx)
	if err != nil {
		return nil, err
	}
	var pages []*target.Info
	for _, i := range infos {
		if i.Type == "page" {
			pages = append(pages, i)
		}
	}
	return pages, nil
}

// state is what the observer holds, for the walk's log.
func (o *Observer) state() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return fmt.Sprintf("observer: %d worlds, %d documents", len(o.ctxs), len(o.docs))
}
