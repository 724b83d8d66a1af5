package host

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// fakeSnapshot is an extension snapshot reply as the worker builds it:
// frames of buttons with the kernel's stats, and the worker's clock.
func fakeSnapshot(frameCount, perFrame int) protocol.SnapshotReply {
	r := fakeWalks(frameCount, perFrame)
	for i := range r.Frames {
		r.Frames[i].Walk = ""
	}
	return r
}

// fakeWalks is fakeSnapshot with each frame's walk named, as the kernel
// names the walks it keeps (extension/kernel/reread.js).
func fakeWalks(frameCount, perFrame int) protocol.SnapshotReply {
	r := protocol.SnapshotReply{Tab: protocol.TabRef{ID: 5, URL: "http://x/", Title: "X"},
		Timing: &protocol.ExtTiming{InjectMS: 40, TotalMS: 42}}
	for f := range frameCount {
		fr := protocol.ExtFrame{FrameID: f, DocumentID: fmt.Sprintf("DOC%d", f), URL: fmt.Sprintf("http://x/%d", f),
			Stats: &protocol.FrameStats{Nodes: perFrame * 3, MS: float64(f + 1)}, Walk: fmt.Sprintf("W%d", f)}
		for i := range perFrame {
			fr.Elements = append(fr.Elements, protocol.ExtElement{ID: i + 1, Role: "button", Name: fmt.Sprintf("Save item f%d-%d", f, i)})
		}
		r.Frames = append(r.Frames, fr)
	}
	return r
}

func connectTo(t testing.TB, dirs statedir.Dirs) *client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: dirs.Runtime, Wait: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestSnapshotTimings: the host reports the worker's clock, each frame's
// walk and its own steps when asked, and nothing when not.
func TestSnapshotTimings(t *testing.T) {
	fx, _, dirs := startHost(t, "timings1")
	fx.mu.Lock()
	fx.snap = mustJSON(fakeSnapshot(3, 4))
	fx.mu.Unlock()
	c := connectTo(t, dirs)
	ctx := context.Background()

	var plain protocol.Snapshot
	if err := c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: 5}, &plain); err != nil {
		t.Fatal(err)
	}
	if plain.Timings != nil {
		t.Errorf("timings without asking: %+v", plain.Timings)
	}
	var snap protocol.Snapshot
	if err := c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: 5, Timings: true}, &snap); err != nil {
		t.Fatal(err)
	}
	tm := snap.Timings
	if tm == nil {
		t.Fatal("no timings")
	}
	if tm.Inject != 40 || tm.Worker != 42 {
		t.Errorf("worker clock inject %v total %v, want 40 and 42", tm.Inject, tm.Worker)
	}
	if tm.Extension <= 0 || tm.Bytes == 0 {
		t.Errorf("extension round trip %v ms, %d bytes", tm.Extension, tm.Bytes)
	}
	if len(tm.Frames) != 3 {
		t.Fatalf("frames %+v", tm.Frames)
	}
	for i, f := range tm.Frames {
		if f.FrameID != i || f.Elements != 4 || f.Nodes != 12 || f.WalkMS != float64(i+1) {
			t.Errorf("frame %d: %+v", i, f)
		}
	}
}

// TestSnapshotTextOnly: a client that shows only the text gets the same
// text, refs given alike, without the frames' elements.
func TestSnapshotTextOnly(t *testing.T) {
	fx, _, dirs := startHost(t, "textonly1")
	fx.mu.Lock()
	fx.snap = mustJSON(fakeSnapshot(2, 3))
	fx.mu.Unlock()
	c := connectTo(t, dirs)
	ctx := context.Background()
	var full, text protocol.Snapshot
	if err := c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: 5}, &full); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: 5, TextOnly: true}, &text); err != nil {
		t.Fatal(err)
	}
	if len(full.Frames) != 2 || len(full.Frames[0].Elements) != 3 {
		t.Fatalf("full snapshot frames %+v", full.Frames)
	}
	if len(text.Frames) != 0 {
		t.Errorf("text-only snapshot carries frames %+v", text.Frames)
	}
	if text.Text != full.Text || text.Tokens != full.Tokens || text.Epoch != full.Epoch || text.Text == "" {
		t.Errorf("text-only snapshot differs:\n%s\nfull:\n%s", text.Text, full.Text)
	}
}

// BenchmarkSnapshotHostPath times one snapshot through the whole host
// (socket, native messaging to a fake extension answering a 5,000-element
// reply in 10 frames, JSON decode, refs, ledger, merge and render, msgpack
// back) and reports the host's own spans as metrics, medians of the run.
func BenchmarkSnapshotHostPath(b *testing.B) {
	fx, _, dirs := startHost(b, "hostpath1")
	fx.mu.Lock()
	fx.snap = mustJSON(fakeSnapshot(10, 500))
	fx.mu.Unlock()
	c := connectTo(b, dirs)
	ctx := context.Background()
	var spans []protocol.SnapshotTimings
	b.ReportAllocs()
	for b.Loop() {
		var snap protocol.Snapshot
		if err := c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: 5, Timings: true}, &snap); err != nil {
			b.Fatal(err)
		}
		spans = append(spans, *snap.Timings)
	}
	med := func(get func(protocol.SnapshotTimings) float64) float64 {
		xs := make([]float64, len(spans))
		for i, s := range spans {
			xs[i] = get(s)
		}
		return median(xs)
	}
	b.ReportMetric(med(func(s protocol.SnapshotTimings) float64 { return s.Extension }), "extension-ms")
	b.ReportMetric(med(func(s protocol.SnapshotTimings) float64 { return s.Decode }), "decode-ms")
	b.ReportMetric(med(func(s protocol.SnapshotTimings) float64 { return s.Refs }), "refs-ms")
	b.ReportMetric(med(func(s protocol.SnapshotTimings) float64 { return s.Ledger }), "ledger-ms")
	b.ReportMetric(med(func(s protocol.SnapshotTimings) float64 { return s.Render }), "render-ms")
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestNavigationStormCoalesced: a page reloading an iframe in a loop sends
// a navigated event per reload; the host lists the browser's documents at
// most once at a time, not once per event, and still lists them after the
// last event. The fake extension holds the first listing's answer while
// the other events arrive, so "at once" does not depend on how fast this
// machine is: a second listing begun meanwhile shows as two in flight.
// (It used to count listings after the events stopped and fail when the
// events, each handled in a goroutine, trickled in under load slower
// than a listing took: 67 listings for 300 events on a busy machine.)
// How many runs a storm of triggers costs is TestCoalescerRunsOnceAtATime's.
func TestNavigationStormCoalesced(t *testing.T) {
	fx, _, dirs := startHost(t, "storm1")
	waitPublished(t, dirs, "storm1")
	hold := make(chan struct{})
	fx.mu.Lock()
	fx.holdDocs = hold
	fx.mu.Unlock()
	navigated := func(i int) {
		fx.send(protocol.NativeMessage{Type: protocol.MsgEvent, Params: mustJSON(protocol.Event{
			Kind: protocol.EventNavigated, TabID: 5, FrameID: 3, DocumentID: fmt.Sprintf("D%d", i)})})
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("no %s within 10 s", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	before := fx.docs.Load()
	navigated(0)
	waitFor("listing after the first event", func() bool { return fx.docs.Load() > before })
	const events = 300
	for i := 1; i < events; i++ {
		navigated(i)
	}
	sent := fx.docs.Load()
	close(hold)
	// The last event came while a listing ran, or started one: either way
	// a listing begins after it.
	waitFor("listing after the last event", func() bool { return fx.docs.Load() > sent })
	if most := fx.docsMostInFlight.Load(); most > 1 {
		t.Fatalf("%d listings of every document were in flight at once; want one at a time", most)
	}
	t.Logf("%d events → %d listings", events, fx.docs.Load()-before)
}

// TestCoalescerRunsOnceAtATime: however many triggers come while a run is
// going, they cost one more run after it, and never a second run beside it.
func TestCoalescerRunsOnceAtATime(t *testing.T) {
	var c coalescer
	release := make(chan struct{})
	started := make(chan struct{}, 8)
	var runs, inFlight, most atomic.Int32
	done := make(chan struct{}, 8)
	run := func() {
		if n := inFlight.Add(1); n > most.Load() {
			most.Store(n)
		}
		runs.Add(1)
		started <- struct{}{}
		<-release
		inFlight.Add(-1)
		done <- struct{}{}
	}
	c.trigger(run)
	<-started
	for range 299 {
		c.trigger(run) // all while the first run is held
	}
	close(release)
	<-done
	<-started // the one run the 299 triggers asked for
	<-done
	// The run has returned; the coalescer then sees no trigger and stops.
	running := true
	for deadline := time.Now().Add(10 * time.Second); running && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		c.mu.Lock()
		running = c.running
		c.mu.Unlock()
	}
	if running || runs.Load() != 2 || most.Load() != 1 {
		t.Fatalf("300 triggers, the first held: %d runs, %d at most at once, still running %v; want 2 runs, one at a time", runs.Load(), most.Load(), running)
	}
}

// BenchmarkSnapshotHostPathSame is BenchmarkSnapshotHostPath for a re-read
// of an unchanged page as the MCP server asks for it (TextOnly): every
// frame answers "the same as walk W" (host/walks.go), so what is timed is
// the host's own work on elements it already holds.
func BenchmarkSnapshotHostPathSame(b *testing.B) {
	fx, _, dirs := startHost(b, "hostpath2")
	full := fakeWalks(10, 500)
	same := full
	same.Frames = slices.Clone(full.Frames)
	for i := range same.Frames {
		same.Frames[i].Elements, same.Frames[i].Same = nil, true
	}
	fx.mu.Lock()
	fx.snap, fx.snapSame = mustJSON(full), mustJSON(same)
	fx.mu.Unlock()
	c := connectTo(b, dirs)
	ctx := context.Background()
	args := protocol.SnapshotArgs{Tab: 5, TextOnly: true, Budget: 10_000_000}
	var first protocol.Snapshot
	if err := c.Call(ctx, protocol.OpSnapshot, args, &first); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var snap protocol.Snapshot
		if err := c.Call(ctx, protocol.OpSnapshot, args, &snap); err != nil {
			b.Fatal(err)
		}
		if snap.Text != first.Text {
			b.Fatalf("a re-read's text differs from the first read's")
		}
	}
}
