package host

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

const testID = "ljbpbjbogilfhbhbmmbpnncpndikkoic"
const testOrigin = "chrome-extension://" + testID + "/"

// fakeExtension plays the service worker on the other end of the pipes.
type fakeExtension struct {
	t      testing.TB
	toHost *io.PipeWriter
	w      *protocol.NativeWriter
	r      *protocol.NativeReader
	mu     sync.Mutex
	raw    bytes.Buffer // every byte the host wrote to its stdout
	snap   []byte       // the reply to snapshot requests; guarded by mu
	// snapSame, when set, is the reply to a snapshot request that names
	// walks the host holds (SnapshotParams.Known): a re-read of an
	// unchanged page; guarded by mu.
	snapSame []byte
	docs     atomic.Int64 // documents requests received
	// holdDocs, when set, holds each documents answer until the test
	// closes it (guarded by mu); docsInFlight counts the requests not yet
	// answered, docsMostInFlight the most there ever were at once.
	holdDocs         chan struct{}
	docsInFlight     atomic.Int64
	docsMostInFlight atomic.Int64
}

// startHost runs a host against a fake extension; it returns the fake,
// the host's exit channel and the state dirs.
func startHost(t testing.TB, profile string) (*fakeExtension, chan error, statedir.Dirs) {
	t.Helper()
	dirs := statedir.At(shortTempDir(t))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	fx := &fakeExtension{t: t, toHost: inW, w: protocol.NewNativeWriter(inW, protocol.MaxFromExtension)}
	fx.r = protocol.NewNativeReader(io.TeeReader(outR, &lockedWriter{fx}), 0)
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), Config{
			Origin: testOrigin, AllowedIDs: []string{testID}, Stdin: inR, Stdout: outW,
			Dirs: dirs, Version: "test", Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
			HelloWait: 5 * time.Second, LedgerRetry: 200 * time.Millisecond,
		})
		outW.Close()
	}()
	if profile != "" {
		fx.send(protocol.NativeMessage{Type: "hello", Params: mustJSON(protocol.ExtensionHello{Protocol: protocol.Version, Profile: profile, ExtensionVersion: "0.1.0"})})
		go fx.serve()
	}
	t.Cleanup(func() { inW.Close() })
	return fx, done, dirs
}

type lockedWriter struct{ fx *fakeExtension }

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.fx.mu.Lock()
	defer l.fx.mu.Unlock()
	return l.fx.raw.Write(p)
}

func (fx *fakeExtension) send(msg protocol.NativeMessage) {
	fx.mu.Lock()
	defer fx.mu.Unlock()
	if err := fx.w.Write(msg); err != nil {
		fx.t.Logf("fake extension: send: %v", err)
	}
}

// serve answers the host's requests like the service worker would.
func (fx *fakeExtension) serve() {
	for {
		var msg protocol.NativeMessage
		if err := fx.r.Read(&msg); err != nil {
			return
		}
		switch msg.Type {
		case "documents":
			fx.docs.Add(1)
			n := fx.docsInFlight.Add(1)
			for m := fx.docsMostInFlight.Load(); n > m && !fx.docsMostInFlight.CompareAndSwap(m, n); m = fx.docsMostInFlight.Load() {
			}
			fx.mu.Lock()
			hold := fx.holdDocs
			fx.mu.Unlock()
			go func(id uint64) {
				if hold != nil {
					<-hold
				}
				fx.docsInFlight.Add(-1)
				fx.send(protocol.NativeMessage{ID: id, Result: json.RawMessage(`{"documents":[]}`)})
			}(msg.ID)
		case "tabs":
			fx.send(protocol.NativeMessage{ID: msg.ID, Result: json.RawMessage(`{"tabs":[{"id":5,"url":"http://x/","title":"X","active":true}]}`)})
		case string(protocol.ExtSnapshot):
			fx.mu.Lock()
			snap := fx.snap
			if fx.snapSame != nil {
				var p protocol.SnapshotParams
				if json.Unmarshal(msg.Params, &p) == nil && len(p.Known) > 0 {
					snap = fx.snapSame
				}
			}
			fx.mu.Unlock()
			if snap == nil {
				fx.send(protocol.NativeMessage{ID: msg.ID, Error: &protocol.Error{Code: protocol.CodeBadRequest, Message: "fake: no snapshot set"}})
				continue
			}
			fx.send(protocol.NativeMessage{ID: msg.ID, Result: snap})
		case "welcome", "refused":
		default:
			fx.send(protocol.NativeMessage{ID: msg.ID, Error: &protocol.Error{Code: protocol.CodeBadRequest, Message: "fake: " + msg.Type}})
		}
	}
}

// shortTempDir keeps socket paths under the 108-byte limit.
func shortTempDir(t testing.TB) string {
	d, err := os.MkdirTemp("", "grip")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func waitPublished(t *testing.T, dirs statedir.Dirs, profile string) protocol.HostInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: dirs.Runtime, Profile: profile, Wait: 5 * time.Second})
	if err != nil {
		t.Fatalf("host never published: %v", err)
	}
	defer c.Close()
	return c.Info
}

func TestRefusesOtherOrigins(t *testing.T) {
	for _, origin := range []string{
		"chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/",
		"https://evil.example/",
		"chrome-extension://" + testID + "x/",
		"",
	} {
		var out bytes.Buffer
		err := Run(context.Background(), Config{Origin: origin, AllowedIDs: []string{testID}, Stdin: strings.NewReader(""), Stdout: &out})
		if !errors.Is(err, ErrOriginRefused) {
			t.Errorf("origin %q: err = %v, want ErrOriginRefused", origin, err)
		}
		if out.Len() != 0 {
			t.Errorf("origin %q: wrote %d bytes to stdout", origin, out.Len())
		}
	}
}

func TestServesAndExitsOnEOF(t *testing.T) {
	fx, done, dirs := startHost(t, "profile1")
	info := waitPublished(t, dirs, "profile1")
	if info.Profile != "profile1" || info.Protocol != protocol.Version || info.PID != os.Getpid() {
		t.Fatalf("published %+v", info)
	}
	for path, want := range map[string]os.FileMode{dirs.Runtime: 0o700, SocketPath(dirs.Runtime, "profile1"): 0o600} {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s mode %v, want %v", path, st.Mode().Perm(), want)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: dirs.Runtime, Wait: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var tabs protocol.TabsResult
	if err := c.Call(ctx, protocol.OpTabs, struct{}{}, &tabs); err != nil {
		t.Fatal(err)
	}
	if len(tabs.Tabs) != 1 || tabs.Tabs[0].ID != 5 {
		t.Fatalf("tabs = %+v", tabs)
	}
	err = c.Call(ctx, "no_such_op", struct{}{}, nil)
	if !errors.Is(err, protocol.ErrBadRequest) {
		t.Fatalf("unknown op: %v", err)
	}
	c.Close()

	fx.toHost.Close() // Chrome closing stdin
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("host exit: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("host did not exit on stdin EOF")
	}
	if _, err := os.Stat(SocketPath(dirs.Runtime, "profile1")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left behind: %v", err)
	}
	if _, err := os.Stat(InfoPath(dirs.Runtime, "profile1")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("info file left behind: %v", err)
	}
	// Everything on stdout parses as frames.
	fx.mu.Lock()
	raw := append([]byte(nil), fx.raw.Bytes()...)
	fx.mu.Unlock()
	r := protocol.NewNativeReader(bytes.NewReader(raw), 0)
	n := 0
	for {
		var msg protocol.NativeMessage
		err := r.Read(&msg)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("stdout byte stream is not only frames: %v", err)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no frames on stdout")
	}
}

func TestSocketProtocolMismatch(t *testing.T) {
	_, _, dirs := startHost(t, "profile2")
	info := waitPublished(t, dirs, "profile2")
	conn, err := net.Dial("unix", info.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	w := protocol.NewSocketWriter(conn, 0)
	args, _ := protocol.Marshal(protocol.HelloArgs{Protocol: protocol.Version + 1})
	if err := w.Write(protocol.Request{ID: 1, Op: protocol.OpHello, Args: args}); err != nil {
		t.Fatal(err)
	}
	var rep protocol.Reply
	if err := protocol.NewSocketReader(conn, 0).Read(&rep); err != nil {
		t.Fatal(err)
	}
	if rep.Error == nil || rep.Error.Code != protocol.CodeBadRequest || !strings.Contains(rep.Error.Message, "protocol") {
		t.Fatalf("mismatch reply = %+v", rep.Error)
	}
}

func TestRequestBeforeHelloRefused(t *testing.T) {
	_, _, dirs := startHost(t, "profile3")
	info := waitPublished(t, dirs, "profile3")
	conn, err := net.Dial("unix", info.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := protocol.NewSocketWriter(conn, 0).Write(protocol.Request{ID: 1, Op: protocol.OpTabs}); err != nil {
		t.Fatal(err)
	}
	var rep protocol.Reply
	if err := protocol.NewSocketReader(conn, 0).Read(&rep); err != nil {
		t.Fatal(err)
	}
	if rep.Error == nil || !strings.Contains(rep.Error.Message, "hello") {
		t.Fatalf("reply = %+v", rep)
	}
}

func TestStaleSocketReplacedLiveOneKept(t *testing.T) {
	dir := shortTempDir(t)
	runtime := filepath.Join(dir, "run")
	if err := statedir.Ensure(runtime); err != nil {
		t.Fatal(err)
	}
	path := SocketPath(runtime, "p1")
	// A dead host's socket: bound, then the listener gone without unlinking.
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	srv, err := listen(runtime, "p1")
	if err != nil {
		t.Fatalf("stale socket not replaced: %v", err)
	}
	// Now a live one: a second host must refuse and leave it in place.
	_, err = listen(runtime, "p1")
	if !errors.Is(err, ErrHostRunning) {
		t.Fatalf("second listen: %v, want ErrHostRunning", err)
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatalf("live socket was unlinked: %v", err)
	}
	c.Close()
	srv.close()
}

func TestNoHelloTimesOut(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	err := Run(context.Background(), Config{Origin: testOrigin, AllowedIDs: []string{testID}, Stdin: inR, Stdout: io.Discard,
		Dirs: statedir.At(shortTempDir(t)), HelloWait: 100 * time.Millisecond})
	if !errors.Is(err, ErrNoHello) {
		t.Fatalf("err = %v", err)
	}
}

func TestBadFramesFromExtension(t *testing.T) {
	fx, done, dirs := startHost(t, "profile4")
	waitPublished(t, dirs, "profile4")
	// Not JSON: logged and skipped; the host keeps serving.
	fx.mu.Lock()
	hdr := []byte{0, 0, 0, 0}
	body := []byte("not json at all")
	putNative(hdr, len(body))
	fx.toHost.Write(append(hdr, body...))
	fx.mu.Unlock()
	fx.send(protocol.NativeMessage{Type: "mystery"})
	waitPublished(t, dirs, "profile4")
	// An oversized frame breaks the stream: the host exits with an error.
	fx.mu.Lock()
	putNative(hdr, protocol.MaxFromExtension+1)
	fx.toHost.Write(hdr)
	fx.mu.Unlock()
	select {
	case err := <-done:
		if !errors.Is(err, protocol.ErrFrameTooLarge) {
			t.Fatalf("exit err = %v, want ErrFrameTooLarge", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("host did not stop on an oversized frame")
	}
}

func TestParseKey(t *testing.T) {
	for in, want := range map[string]string{
		"Enter": "Enter|", "enter": "Enter|", "Shift+Tab": "Tab|Shift", "Control+A": "A|Control",
		"ctrl+shift+k": "k|Control,Shift", "Esc": "Escape|", "a": "a|", "Control++": "+|Control", "ArrowDown": "ArrowDown|",
	} {
		key, mods, err := parseKey(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := key + "|" + strings.Join(mods, ","); got != want {
			t.Errorf("%q = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"", "Hyper+A", "NotAKey", "Control+"} {
		if _, _, err := parseKey(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func putNative(hdr []byte, n int) { binary.NativeEndian.PutUint32(hdr, uint32(n)) }

func TestSwapView(t *testing.T) {
	str := func(s string) *string { return &s }
	el := func(ref uint64, role, name string, value *string, states ...string) shown {
		return shown{ref: ref, el: protocol.Element{Ref: fmt.Sprintf("@e%d", ref), Role: role, Name: name, Value: value, States: states}}
	}
	lines := func(els []protocol.Element) string {
		var out []string
		for _, e := range els {
			out = append(out, e.Ref)
		}
		return strings.Join(out, " ")
	}
	q := newTabQueues()
	d := q.swapView(1, protocol.ModeInteractive, []shown{el(3, "button", "C", nil), el(1, "button", "A", nil), el(2, "textbox", "B", str(""))}, nil, nil)
	if fmt.Sprint(d.added, d.gone) != "[1 2 3] []" || lines(d.appeared) != "@e3 @e1 @e2" || len(d.changed) != 0 {
		t.Fatalf("first read: %v %v appeared %q changed %v", d.added, d.gone, lines(d.appeared), d.changed)
	}
	if q.lastMode(1) != protocol.ModeInteractive || q.lastMode(9) != "" {
		t.Errorf("lastMode %q, %q", q.lastMode(1), q.lastMode(9))
	}
	// 2 got a value, 4 and 5 appeared (5 twice: one node, two shadow paths), 1 and 3 went.
	d = q.swapView(1, protocol.ModeInteractive, []shown{el(2, "textbox", "B", str("x")), el(4, "combobox", "D", nil, "expanded"), el(5, "option", "E", nil), el(5, "option", "E", nil)}, nil, nil)
	if fmt.Sprint(d.added, d.gone) != "[4 5] [1 3]" || lines(d.appeared) != "@e4 @e5" || lines(d.changed) != "@e2" {
		t.Fatalf("second read: %v %v appeared %q changed %q", d.added, d.gone, lines(d.appeared), lines(d.changed))
	}
	// Only states change: reported; nothing changes: nothing reported.
	d = q.swapView(1, protocol.ModeInteractive, []shown{el(2, "textbox", "B", str("x")), el(4, "combobox", "D", nil), el(5, "option", "E", nil, "selected")}, nil, nil)
	if lines(d.changed) != "@e4 @e5" || len(d.added)+len(d.gone) != 0 {
		t.Fatalf("third read: changed %q, %v %v", lines(d.changed), d.added, d.gone)
	}
	// A twin of 2 appears: 2 gains its context, which the agent must learn.
	twin := func(ref uint64, ctx string) shown {
		s := el(ref, "textbox", "B", str("x"))
		s.el.Context = ctx
		return s
	}
	d = q.swapView(1, protocol.ModeInteractive, []shown{twin(2, "Billing"), el(4, "combobox", "D", nil), el(5, "option", "E", nil, "selected"), twin(6, "Shipping")}, nil, nil)
	if lines(d.changed) != "@e2" || lines(d.appeared) != "@e6" {
		t.Fatalf("a twin appeared: changed %q, appeared %q", lines(d.changed), lines(d.appeared))
	}
	d = q.swapView(1, protocol.ModeInteractive, []shown{el(2, "textbox", "B", str("x")), el(4, "combobox", "D", nil), el(5, "option", "E", nil, "selected")}, nil, nil)
	if lines(d.changed) != "@e2" || fmt.Sprint(d.gone) != "[6]" {
		t.Fatalf("the twin went: changed %q, gone %v", lines(d.changed), d.gone)
	}
	if d = q.swapView(2, protocol.ModeContent, nil, nil, nil); len(d.added)+len(d.gone)+len(d.changed) != 0 {
		t.Fatalf("other tab: %+v", d)
	}
	if gone := q.forget(1); fmt.Sprint(gone) != "[2 4 5]" {
		t.Fatalf("forget: %v", gone)
	}

	// A frame that does not answer keeps what it showed: its elements are
	// neither gone nor changed, and come back unchanged when it answers.
	in := func(doc string, s shown) shown { s.doc = doc; return s }
	q.swapView(3, protocol.ModeInteractive, []shown{in("top", el(7, "button", "Top", nil)), in("card", el(8, "textbox", "Card", str("")))}, nil, nil)
	d = q.swapView(3, protocol.ModeInteractive, []shown{in("top", el(7, "button", "Top", nil))}, nil, map[string]bool{"card": true})
	if len(d.gone)+len(d.added)+len(d.changed) != 0 {
		t.Fatalf("a read the card frame did not answer: %+v, want nothing gone", d)
	}
	d = q.swapView(3, protocol.ModeInteractive, []shown{in("top", el(7, "button", "Top", nil)), in("card", el(8, "textbox", "Card", str("")))}, nil, nil)
	if len(d.gone)+len(d.added)+len(d.changed) != 0 {
		t.Fatalf("the card frame answering again: %+v, want nothing new", d)
	}
	// Without it (a frame gone for good), its elements are gone.
	if d = q.swapView(3, protocol.ModeInteractive, []shown{in("top", el(7, "button", "Top", nil))}, nil, nil); fmt.Sprint(d.gone) != "[8]" {
		t.Fatalf("the card frame gone: %+v", d)
	}
}

// A request in flight ends with its connection: a long wait must not keep
// running (a goroutine, page polls) after its client went away.
func TestRequestsEndWithTheirConnection(t *testing.T) {
	_, _, dirs := startHost(t, "profile5")
	info := waitPublished(t, dirs, "profile5")
	time.Sleep(100 * time.Millisecond)
	base := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := client.Dial(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	go c.Call(ctx, protocol.OpWait, protocol.WaitArgs{MS: 600000}, nil)
	time.Sleep(200 * time.Millisecond)
	if n := runtime.NumGoroutine(); n <= base {
		t.Fatalf("the wait is not running: %d goroutines, baseline %d", n, base)
	}
	c.Close()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines 5 s after the client left, baseline %d", runtime.NumGoroutine(), base)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestValidProfile(t *testing.T) {
	for _, ok := range []string{"abcd", "a1b2", "33624b818b833d35", "a_b-c", strings.Repeat("a", 64)} {
		if !validProfile(ok) {
			t.Errorf("%q refused", ok)
		}
	}
	for _, bad := range []string{"", "abc", "_abc", "-abc", "Abcd", "ab/cd", "ab.cd", "../../x", strings.Repeat("a", 65), "abcé"} {
		if validProfile(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

// An extension from another build of grip makes the host warn in its
// hello (the CLI, grip mcp, doctor and the popup show it); the same build,
// or an unstamped extension loaded from the source folder, does not.
func TestBuildMismatchWarns(t *testing.T) {
	for _, tc := range []struct {
		name, build string
		warn        bool
	}{
		{"same build", extension.Build(), false},
		{"unstamped", "", false},
		{"other build", "0123456789ab", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx, _, dirs := startHost(t, "")
			profile := "build" + strings.ReplaceAll(tc.name, " ", "")
			fx.send(protocol.NativeMessage{Type: protocol.MsgHello, Params: mustJSON(protocol.ExtensionHello{
				Protocol: protocol.Version, Profile: profile, ExtensionVersion: "0.1.0", Build: tc.build})})
			go fx.serve()
			info := waitPublished(t, dirs, profile)
			if got := info.Warning != ""; got != tc.warn {
				t.Fatalf("warning %q, want one: %v", info.Warning, tc.warn)
			}
			if tc.warn && (!strings.Contains(info.Warning, tc.build) || !strings.Contains(info.Warning, "grip install")) {
				t.Errorf("the warning does not name the build and the fix: %q", info.Warning)
			}
		})
	}
}

// Lines whose only change is their context, three or more moved alike,
// are said once as a run (docs/snapshot.md, "Snapshot format"): counted
// as all the lines of their old context when no other line stays in it,
// else by their refs; a line that changed more, and runs too short, stay
// lines.
func TestContextRuns(t *testing.T) {
	at := func(ref uint64, name, ctx string, states ...string) shown {
		return shown{ref: ref, el: protocol.Element{Ref: fmt.Sprintf("@e%d", ref), Role: "button", Name: name, Context: ctx, States: states}}
	}
	card := func(from uint64, ctx string) []shown {
		return []shown{at(from, "Edit", ctx), at(from+1, "Move", ctx), at(from+2, "Delete", ctx)}
	}
	refs := func(els []protocol.Element) string {
		var out []string
		for _, e := range els {
			out = append(out, e.Ref)
		}
		return strings.Join(out, " ")
	}
	q := newTabQueues()
	read := slices.Concat(card(1, "Plans"), card(4, "Notes"), card(7, "Notes"), []shown{at(10, "Pin", "Plans"), at(11, "Pin", "Notes")})
	q.swapView(1, protocol.ModeInteractive, read, nil, nil)

	// Plans renamed: its card's three lines and its Pin, all it held.
	next := slices.Concat(card(1, "Q3 plans"), card(4, "Notes"), card(7, "Notes"), []shown{at(10, "Pin", "Q3 plans"), at(11, "Pin", "Notes")})
	d := q.swapView(1, protocol.ModeInteractive, next, nil, nil)
	if len(d.changed) != 0 || len(d.contexts) != 1 || !d.contexts[0].All || fmt.Sprint(d.contexts[0].Refs) != "[@e1 @e2 @e3 @e10]" ||
		d.contexts[0].From != "Plans" || d.contexts[0].To != "Q3 plans" {
		t.Fatalf("a card renamed: changed %q, contexts %+v", refs(d.changed), d.contexts)
	}
	// One of the two Notes cards renamed, its Edit pressed too: the
	// others stay in Notes, so its lines are named; Edit's line says all.
	next = slices.Concat(card(1, "Q3 plans"), []shown{at(4, "Edit", "Old notes", "pressed"), at(5, "Move", "Old notes"), at(6, "Delete", "Old notes")},
		card(7, "Notes"), []shown{at(10, "Pin", "Q3 plans"), at(11, "Pin", "Old notes")})
	d = q.swapView(1, protocol.ModeInteractive, next, nil, nil)
	if refs(d.changed) != "@e4" || len(d.contexts) != 1 || d.contexts[0].All || fmt.Sprint(d.contexts[0].Refs) != "[@e5 @e6 @e11]" {
		t.Fatalf("one of two like cards renamed: changed %q, contexts %+v", refs(d.changed), d.contexts)
	}
	// Two lines moved alike are no run: they stay lines.
	next = slices.Concat(card(1, "Q3 plans")[:1], []shown{at(2, "Move", "Later"), at(3, "Delete", "Later")}, next[3:])
	if d = q.swapView(1, protocol.ModeInteractive, next, nil, nil); refs(d.changed) != "@e2 @e3" || len(d.contexts) != 0 {
		t.Fatalf("two lines moved: changed %q, contexts %+v", refs(d.changed), d.contexts)
	}
	// A context that goes from every line in it: all, with no context after.
	q = newTabQueues()
	q.swapView(2, protocol.ModeInteractive, slices.Concat(card(1, "A"), card(4, "B")), nil, nil)
	d = q.swapView(2, protocol.ModeInteractive, card(1, ""), nil, nil)
	if len(d.contexts) != 1 || !d.contexts[0].All || d.contexts[0].To != "" || fmt.Sprint(d.gone) != "[4 5 6]" {
		t.Fatalf("a repeat gone: contexts %+v gone %v", d.contexts, d.gone)
	}
	// One that comes is never "all the lines with no context".
	d = q.swapView(2, protocol.ModeInteractive, slices.Concat(card(1, "A"), card(7, "C")), nil, nil)
	if len(d.contexts) != 1 || d.contexts[0].All || d.contexts[0].From != "" {
		t.Fatalf("a repeat came: contexts %+v", d.contexts)
	}
}
