package host

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

func TestRulesOf(t *testing.T) {
	p, err := policy.Parse([]byte("block pay.example\nread shop.example\n"))
	if err != nil {
		t.Fatal(err)
	}
	frames := []protocol.FrameInfo{
		{FrameID: 0, ParentFrameID: -1, DocumentID: "d0", URL: "https://shop.example/cart"},
		{FrameID: 1, ParentFrameID: 0, DocumentID: "d1", URL: "https://pay.example/card"},
		{FrameID: 2, ParentFrameID: 1, DocumentID: "d2", URL: "about:blank"},  // inside the blocked frame
		{FrameID: 3, ParentFrameID: 0, DocumentID: "d3", URL: "about:srcdoc"}, // inside the top frame
		{FrameID: 4, ParentFrameID: 9, DocumentID: "d4", URL: "about:blank"},  // parent unknown
		{FrameID: 5, ParentFrameID: 0, DocumentID: "d5", URL: "https://cdn.example/ad"},
	}
	tr := rulesOf(p, frames)
	want := map[int]policy.Rule{0: policy.Read, 1: policy.Block, 2: policy.Block, 3: policy.Read, 4: policy.Block, 5: policy.Act}
	for id, r := range want {
		if got := tr.byFrame[id].Rule; got != r {
			t.Errorf("frame %d: %s, want %s", id, got, r)
		}
	}
	if tr.top.Rule != policy.Read || tr.topOrigin != "https://shop.example" || tr.topDoc != "d0" {
		t.Errorf("top: %+v %q %q", tr.top, tr.topOrigin, tr.topDoc)
	}
	if id, _, ok := tr.blockedFrame(); !ok || id != 1 {
		t.Errorf("blockedFrame = %d, %v", id, ok)
	}
	if tr.strictest().Rule != policy.Block {
		t.Errorf("strictest = %s", tr.strictest().Rule)
	}
	if tr.origins[2] != "https://pay.example" {
		t.Errorf("an about:blank frame names its parent's origin: %q", tr.origins[2])
	}
	// A blank top-level page gets the default.
	if tr := rulesOf(p, []protocol.FrameInfo{{FrameID: 0, ParentFrameID: -1, URL: "about:blank"}}); tr.top.Rule != policy.Act {
		t.Errorf("about:blank tab: %s", tr.top.Rule)
	}
	if tr := rulesOf(p, nil); tr.top.Rule != policy.Act {
		t.Errorf("no frames: %s", tr.top.Rule)
	}
}

// guardFake plays the extension for the guard's tests: one tab (5) on
// shop.example with a card frame on pay.example, and questions answered
// as answer says.
type guardFake struct {
	mu        sync.Mutex
	answer    protocol.ConfirmReply // guarded by mu
	asked     []protocol.ConfirmParams
	acts      int
	actTab    int // the tab of the last action
	paused    []bool
	topURL    string
	downloads []protocol.Download // what the browser's downloads hold
}

func (g *guardFake) handle(msg protocol.NativeMessage) (any, *protocol.Error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch msg.Type {
	case string(protocol.ExtDocuments):
		return protocol.DocumentsReply{Documents: []protocol.LiveDocument{}}, nil
	case string(protocol.ExtTabs):
		return protocol.TabsResult{Tabs: []protocol.Tab{{ID: 5, URL: g.topURL, Title: "Shop", Active: true}, {ID: 6, URL: "https://pay.example/", Title: "Pay"}}}, nil
	case string(protocol.ExtTabInfo):
		return protocol.TabRef{ID: 5, URL: g.topURL, Title: "Shop"}, nil
	case string(protocol.ExtDownloads):
		var p protocol.DownloadsParams
		json.Unmarshal(msg.Params, &p)
		out := []protocol.Download{}
		for _, d := range g.downloads {
			if p.Path == "" || d.Path == p.Path {
				out = append(out, d)
			}
		}
		return protocol.DownloadsReply{Downloads: out}, nil
	case string(protocol.ExtFrames):
		return protocol.FramesReply{Frames: []protocol.FrameInfo{
			{FrameID: 0, ParentFrameID: -1, DocumentID: "top", URL: g.topURL},
			{FrameID: 3, ParentFrameID: 0, DocumentID: "card", URL: "https://pay.example/card"},
		}}, nil
	case string(protocol.ExtSnapshot):
		return protocol.SnapshotReply{Tab: protocol.TabRef{ID: 5, URL: g.topURL, Title: "Shop"}, Frames: []protocol.ExtFrame{
			{FrameID: 0, DocumentID: "top", URL: g.topURL, Title: "Shop", Elements: []protocol.ExtElement{
				{ID: 1, Role: "button", Name: "Delete"}, {ID: 2, Role: "textbox", Name: "Note", Value: ptrTo("typed secret")}}},
			{FrameID: 3, DocumentID: "card", URL: "https://pay.example/card", Elements: []protocol.ExtElement{{ID: 1, Role: "textbox", Name: "Card number"}}},
		}}, nil
	case string(protocol.ExtAct):
		g.acts++
		var ap protocol.ActParams
		json.Unmarshal(msg.Params, &ap)
		g.actTab = ap.TabID
		return protocol.ActReply{OK: true}, nil
	case string(protocol.ExtConfirm):
		var cp protocol.ConfirmParams
		json.Unmarshal(msg.Params, &cp)
		g.asked = append(g.asked, cp)
		return g.answer, nil
	case string(protocol.ExtPaused):
		var pp protocol.PausedParams
		json.Unmarshal(msg.Params, &pp)
		g.paused = append(g.paused, pp.Paused)
		return map[string]bool{"ok": true}, nil
	case string(protocol.ExtActed):
		return map[string]bool{"ok": true}, nil
	}
	return nil, &protocol.Error{Code: protocol.CodeBadRequest, Message: "fake: " + msg.Type}
}

func ptrTo(s string) *string { return &s }

// answer serves the host's requests to the extension with handle, each
// on its own goroutine as the worker would, until the pipe closes.
func (fx *fakeExtension) answer(handle func(protocol.NativeMessage) (any, *protocol.Error)) {
	go func() {
		for {
			var msg protocol.NativeMessage
			if err := fx.r.Read(&msg); err != nil {
				return
			}
			if msg.ID == 0 {
				continue
			}
			go func() {
				res, perr := handle(msg)
				reply := protocol.NativeMessage{ID: msg.ID, Error: perr}
				if perr == nil {
					reply.Result = mustJSON(res)
				}
				fx.send(reply)
			}()
		}
	}()
}

// startGuardHost runs a host with policyText in force and hello's
// switches, served by g, and returns a client named "test-agent".
func startGuardHost(t *testing.T, policyText string, hello protocol.ExtensionHello, g *guardFake) (*client.Client, statedir.Dirs) {
	t.Helper()
	return startGuardHostWith(t, policyText, hello, g.handle)
}

// startGuardHostWith is startGuardHost with the extension played by handle.
func startGuardHostWith(t *testing.T, policyText string, hello protocol.ExtensionHello, handle func(protocol.NativeMessage) (any, *protocol.Error)) (*client.Client, statedir.Dirs) {
	t.Helper()
	fx, _, dirs := startHost(t, "")
	if policyText != "" {
		if err := os.MkdirAll(dirs.Root, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(policy.Path(dirs.Root), []byte(policyText), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hello.Protocol, hello.Profile, hello.ExtensionVersion = protocol.Version, "guard1", "0.1.0"
	fx.send(protocol.NativeMessage{Type: "hello", Params: mustJSON(hello)})
	fx.answer(handle)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: dirs.Runtime, Wait: 5 * time.Second, Client: "test-agent\x07"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, dirs
}

func call(t *testing.T, c *client.Client, op string, args, res any) *protocol.Error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := c.Call(ctx, op, args, res)
	if err == nil {
		return nil
	}
	var perr *protocol.Error
	if !errors.As(err, &perr) {
		t.Fatalf("%s: %v", op, err)
	}
	return perr
}

func TestGuardBlockedFrameAndTab(t *testing.T) {
	g := &guardFake{topURL: "https://shop.example/cart"}
	c, dirs := startGuardHost(t, "block pay.example\n", protocol.ExtensionHello{}, g)
	var tabs protocol.TabsResult
	if perr := call(t, c, protocol.OpTabs, struct{}{}, &tabs); perr != nil {
		t.Fatal(perr)
	}
	if len(tabs.Tabs) != 2 || tabs.Tabs[1].URL != "" || tabs.Tabs[1].Title != "" || !tabs.Tabs[1].Blocked || tabs.Tabs[0].Blocked {
		t.Errorf("tabs %+v", tabs.Tabs)
	}
	var snap protocol.Snapshot
	if perr := call(t, c, protocol.OpSnapshot, protocol.SnapshotArgs{}, &snap); perr != nil {
		t.Fatal(perr)
	}
	if strings.Contains(snap.Text, "Card number") || !strings.Contains(snap.Text, "(1 frame blocked by policy)") || !strings.Contains(snap.Text, "[button 'Delete']") {
		t.Errorf("snapshot:\n%s", snap.Text)
	}
	perr := call(t, c, protocol.OpScreenshot, protocol.ScreenshotArgs{}, nil)
	if perr == nil || perr.Code != protocol.CodePolicy || !strings.Contains(perr.Message, `rule "block pay.example" (line 1) of `+policy.Path(dirs.Root)) {
		t.Errorf("screenshot with a blocked frame: %+v", perr)
	}
	g.mu.Lock()
	g.topURL = "https://pay.example/"
	g.mu.Unlock()
	perr = call(t, c, protocol.OpSnapshot, protocol.SnapshotArgs{}, nil)
	if perr == nil || perr.Code != protocol.CodePolicy || perr.Boundary != protocol.BoundaryPolicy || !strings.Contains(perr.Message, "tab 5 is blocked: rule") || strings.Contains(perr.Message, "https://pay.example") {
		t.Errorf("snapshot of a blocked tab: %+v", perr)
	}
	perr = call(t, c, protocol.OpAct, protocol.ActArgs{Action: protocol.ActPress, Text: "Enter"}, nil)
	if perr == nil || perr.Code != protocol.CodePolicy {
		t.Errorf("press on a blocked tab: %+v", perr)
	}
	if g.acts != 0 {
		t.Errorf("the page got %d actions", g.acts)
	}
}

func TestGuardConfirmPauseAndLog(t *testing.T) {
	g := &guardFake{topURL: "https://shop.example/cart"}
	c, dirs := startGuardHost(t, "confirm shop.example\n", protocol.ExtensionHello{Paused: true}, g)
	var snap protocol.Snapshot
	if perr := call(t, c, protocol.OpSnapshot, protocol.SnapshotArgs{}, &snap); perr != nil {
		t.Fatalf("a read while paused: %v", perr)
	}
	del := snap.Frames[0].Elements[0].Ref
	note := snap.Frames[0].Elements[1].Ref
	// Paused from the hello: a new host refuses actions from the start.
	perr := call(t, c, protocol.OpAct, protocol.ActArgs{Action: protocol.ActClick, Target: del}, nil)
	if perr == nil || perr.Code != protocol.CodePaused || perr.Boundary != protocol.BoundaryUser {
		t.Fatalf("click while paused: %+v", perr)
	}
	// Resume asks the person: denied, then allowed.
	g.answer = protocol.ConfirmReply{Allowed: false}
	if perr := call(t, c, protocol.OpResume, struct{}{}, nil); perr == nil || perr.Code != protocol.CodeNotConfirmed {
		t.Fatalf("denied resume: %+v", perr)
	}
	g.answer = protocol.ConfirmReply{Allowed: true}
	var st protocol.PersonState
	if perr := call(t, c, protocol.OpResume, struct{}{}, &st); perr != nil || st.Paused {
		t.Fatalf("allowed resume: %+v %+v", perr, st)
	}

	// confirm: allowed, denied, unanswered.
	if perr := call(t, c, protocol.OpAct, protocol.ActArgs{Action: protocol.ActClick, Target: del}, nil); perr != nil {
		t.Fatalf("allowed click: %+v", perr)
	}
	g.answer = protocol.ConfirmReply{}
	if perr := call(t, c, protocol.OpAct, protocol.ActArgs{Action: protocol.ActFill, Target: note, Text: "hunter2-typed"}, nil); perr == nil ||
		perr.Code != protocol.CodeNotConfirmed || !strings.Contains(perr.Message, "denied fill "+note+": [textbox 'Note']") {
		t.Fatalf("denied fill: %+v", perr)
	}
	g.answer = protocol.ConfirmReply{TimedOut: true}
	if perr := call(t, c, protocol.OpAct, protocol.ActArgs{Action: protocol.ActClick, Target: del}, nil); perr == nil ||
		perr.Code != protocol.CodeNotConfirmed || !strings.Contains(perr.Message, "did not answer within 1m0s") {
		t.Fatalf("unanswered click: %+v", perr)
	}
	if g.acts != 1 {
		t.Errorf("the page got %d actions, want the one allowed", g.acts)
	}
	q := g.asked[len(g.asked)-1]
	if q.Client != "test-agent" || q.Origin != "https://shop.example" || q.Target != del+": [button 'Delete']" || q.TimeoutMS != 60000 || q.Rule == "" {
		t.Errorf("question %+v", q)
	}
	for _, q := range g.asked {
		if strings.Contains(q.Target+q.Detail, "hunter2") || strings.Contains(q.Target, "typed secret") {
			t.Errorf("a question carries typed text or a value: %+v", q)
		}
	}

	// grip pause tells the extension.
	if perr := call(t, c, protocol.OpPause, struct{}{}, &st); perr != nil || !st.Paused {
		t.Fatalf("pause: %+v %+v", perr, st)
	}
	var lg protocol.LogResult
	if perr := call(t, c, protocol.OpLog, protocol.LogArgs{}, &lg); perr != nil {
		t.Fatal(perr)
	}
	var got []string
	for _, e := range lg.Entries {
		got = append(got, e.Action+"/"+e.Outcome)
		if e.Client != "test-agent" {
			t.Errorf("entry client %q", e.Client)
		}
	}
	want := "click/paused resume/not_confirmed resume/ok click/ok fill/not_confirmed click/not_confirmed pause/ok"
	if strings.Join(got, " ") != want {
		t.Errorf("log %v\nwant %s", got, want)
	}
	// The click the pause refused names its target and tab.
	if e := lg.Entries[0]; e.Target != del+": [button 'Delete']" || e.Tab == 0 {
		t.Errorf("the paused click is recorded as %+v, want its target and tab", e)
	}
	b, err := os.ReadFile(lg.File)
	if err != nil || strings.Contains(string(b), "hunter2") || strings.Contains(string(b), "typed secret") {
		t.Errorf("log file %s: %v, or it holds typed text or a value", lg.File, err)
	}
	if lg.File != dirs.Logs+"/agent-actions.jsonl" {
		t.Errorf("log file %s", lg.File)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		g.mu.Lock()
		told := append([]bool(nil), g.paused...)
		g.mu.Unlock()
		if len(told) == 2 && !told[0] && told[1] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the extension was told the pause %v, want [false true]", told)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestGuardSharedTabs(t *testing.T) {
	g := &guardFake{topURL: "https://shop.example/cart"}
	c, _ := startGuardHost(t, "tabs = shared\n", protocol.ExtensionHello{SharedTabs: []int{6}}, g)
	var tabs protocol.TabsResult
	call(t, c, protocol.OpTabs, struct{}{}, &tabs)
	if len(tabs.Tabs) != 1 || tabs.Tabs[0].ID != 6 {
		t.Errorf("tabs %+v, want only the shared tab 6", tabs.Tabs)
	}
	perr := call(t, c, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: 5}, nil)
	if perr == nil || perr.Code != protocol.CodePolicy || !strings.Contains(perr.Message, "tab 5 is not shared") {
		t.Errorf("snapshot of an unshared tab: %+v", perr)
	}
	// The default skips the active tab (5, not shared) for the shared one.
	if perr := call(t, c, protocol.OpAct, protocol.ActArgs{Action: protocol.ActPress, Text: "Enter"}, nil); perr != nil {
		t.Fatalf("press on the default tab: %+v", perr)
	}
	if g.actTab != 6 {
		t.Errorf("the press landed on tab %d, want the shared tab 6", g.actTab)
	}
}

func TestCleanClient(t *testing.T) {
	for in, want := range map[string]string{"claude-code": "claude-code", " a\x07b\n ": "ab", strings.Repeat("é", 100): strings.Repeat("é", 64)} {
		if got := cleanClient(in); got != want {
			t.Errorf("cleanClient(%q) = %q", in, got)
		}
	}
}

// A navigation is recorded with its query, so an edit, a history and a
// move of one wiki page can be told apart; the values of secret-named
// parameters are masked, and the fragment and user info never kept.
func TestActDetailKeepsTheQueryMaskingSecrets(t *testing.T) {
	nav := protocol.Action{Name: protocol.ActNavigate}
	for raw, want := range map[string]string{
		"http://127.0.0.1:8090/index.php?title=Meeting_notes&action=edit":                    "to http://127.0.0.1:8090/index.php?title=Meeting_notes&action=edit",
		"http://127.0.0.1:8090/index.php?title=Meeting_notes&action=history":                 "to http://127.0.0.1:8090/index.php?title=Meeting_notes&action=history",
		"https://ann:pw@wiki.example/w?title=X&wpEditToken=abc123&api_key=k1#access_token=t": "to https://wiki.example/w?title=X&wpEditToken=***&api_key=***",
		"https://shop.example/checkout?token=s3cret&password=hunter2&key=K&apiKey=K2&sig=S":  "to https://shop.example/checkout?token=***&password=***&key=***&apiKey=***&sig=***",
		"https://s3.example/f?X-Amz-Signature=abc&X-Amz-Credential=c&monthly=1&q=a+b":        "to https://s3.example/f?X-Amz-Signature=***&X-Amz-Credential=***&monthly=1&q=a+b",
		"https://app.example/cb?code=abc&state=1&session%5Fid=s":                             "to https://app.example/cb?code=***&state=1&session%5Fid=***",
		"https://app.example/home?": "to https://app.example/home",
	} {
		if got := actDetail(nav, protocol.ActArgs{Action: protocol.ActNavigate, Text: raw}); got != want {
			t.Errorf("%s is recorded as %q, want %q", raw, got, want)
		}
		for _, secret := range []string{"abc123", "s3cret", "hunter2", "k1", "pw@"} {
			if got := actDetail(nav, protocol.ActArgs{Action: protocol.ActNavigate, Text: raw}); strings.Contains(got, secret) {
				t.Errorf("%s: the record holds %q: %s", raw, secret, got)
			}
		}
	}
}
