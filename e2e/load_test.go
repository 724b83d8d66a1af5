package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// loadDuration is how long TestLoad runs: GRIP_LOAD_SECONDS, default 20.
func loadDuration(t *testing.T) time.Duration {
	d := 20 * time.Second
	if s := os.Getenv("GRIP_LOAD_SECONDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("GRIP_LOAD_SECONDS=%q is not a positive number", s)
		}
		d = time.Duration(n) * time.Second
	}
	if testing.Short() {
		d = 5 * time.Second
	}
	return d
}

// procFigures are a process's OS threads and open fds.
func procFigures(t *testing.T, pid int) (threads, fds int) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("host %d: %v", pid, err)
	}
	m := regexp.MustCompile(`(?m)^Threads:\s+(\d+)`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no Threads line for %d", pid)
	}
	threads, _ = strconv.Atoi(string(m[1]))
	ents, err := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "fd"))
	if err != nil {
		t.Fatal(err)
	}
	return threads, len(ents)
}

// agentConns counts the agent connections the host at pid holds open on
// its socket at path: its sockets that /proc/net/unix lists connected (03)
// on that path (an accepted socket carries its listener's path; the
// listener itself is unconnected, 01). One whose client has gone counts
// until the host closes it.
func agentConns(pid int, path string) (int, error) {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	held := map[string]bool{}
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil {
			if inode, ok := strings.CutPrefix(l, "socket:["); ok {
				held[strings.TrimSuffix(inode, "]")] = true
			}
		}
	}
	b, err := os.ReadFile("/proc/net/unix")
	if err != nil {
		return 0, err
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		// Num RefCount Protocol Flags Type St Inode Path
		f := strings.Fields(line)
		if len(f) == 8 && f[5] == "03" && f[7] == path && held[f[6]] {
			n++
		}
	}
	return n, nil
}

// waitNoAgentConns waits until the host holds no agent connection open:
// every client before this point has gone and the host has closed its side.
func waitNoAgentConns(t *testing.T, host protocol.HostInfo) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, err := agentConns(host.PID, host.Socket)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the host still holds %d agent connections 30 s after their clients ended", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// latencies collects the duration of each operation by kind.
type latencies struct {
	mu   sync.Mutex
	byOp map[string][]time.Duration
}

func (l *latencies) add(op string, d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.byOp[op] = append(l.byOp[op], d)
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s)-1) * p)
	return s[i]
}

// loadTab is one tab under load and what its clicks saw.
type loadTab struct {
	id      int
	url     string
	buttons []string // refs of the page's buttons; the page never changes them

	mu      sync.Mutex
	ok      int   // clicks that succeeded
	unknown int   // clicks whose outcome is unknown (an error after sending)
	counts  []int // the page's click count each successful click's reply saw
	missing int   // successful clicks whose reply had no count
}

func (lt *loadTab) clicked(res protocol.ActionResult, err error) error {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if err != nil {
		lt.unknown++
		return err
	}
	lt.ok++
	if res.Tab.ID != lt.id {
		return fmt.Errorf("click on tab %d answered for tab %d", lt.id, res.Tab.ID)
	}
	if res.Snapshot == nil {
		lt.missing++
		return nil
	}
	for _, f := range res.Snapshot.Frames {
		for _, e := range f.Elements {
			if e.Role == "textbox" && e.Name == "Count" && e.Value != nil {
				n, err := strconv.Atoi(*e.Value)
				if err != nil {
					return fmt.Errorf("count %q", *e.Value)
				}
				lt.counts = append(lt.counts, n)
				return nil
			}
		}
	}
	lt.missing++
	return nil
}

// loadSession is the session that owns the load's tab i.
func loadSession(i int) string { return fmt.Sprintf("load-%d", i) }

// TestLoad runs 20 concurrent clients, each on its own connection and in
// one of 5 sessions, each session owning one of the 5 tabs, doing
// snapshots and clicks on 5 tabs (those on another session's tab must be
// refused with not_your_tab and change nothing) for GRIP_LOAD_SECONDS (default 20), plus
// a few real grip processes. It checks that every reply answers its own
// request, that operations on one tab never overlap (each click's reply,
// read under the tab's lock, sees its own click count, once), that nothing
// deadlocks, and that neither side leaks: goroutines in this process, the
// host's threads and open fds.
func TestLoad(t *testing.T) {
	browsertest.Need(t, env)
	const nTabs, nClients, nProcs = 5, 20, 3
	dur := loadDuration(t)
	rt := statedir.At(env.StateDir).Runtime

	tabs := make([]*loadTab, nTabs)
	for i := range tabs {
		url := fmt.Sprintf("%s/faults-load.html?tab=%d", env.Origin1, i)
		// Each tab is a session's own (docs/sessions.md, "Sessions"):
		// the clients of the other sessions must be refused on it.
		id := openSessionTab(t, loadSession(i), url)
		var snap protocol.Snapshot
		if code := gripAs(t, loadSession(i), &snap, "snapshot", "--tab", strconv.Itoa(id)); code != 0 {
			t.Fatalf("snapshot of tab %d: exit %d", id, code)
		}
		lt := &loadTab{id: id, url: url}
		for j := 0; j < 8; j++ {
			lt.buttons = append(lt.buttons, mustRef(t, snap, "button", fmt.Sprintf("Load %d", j)))
		}
		tabs[i] = lt
	}
	host := currentHost(t)
	if host.Socket == "" {
		t.Fatalf("the host's info names no socket: %+v", host)
	}
	// The baseline is a host with no agent connected: the set-up's
	// connections (each grip process's, currentHost's) closed on its side.
	waitNoAgentConns(t, host)
	thr0, fd0 := procFigures(t, host.PID)
	runtime.GC()
	g0 := runtime.NumGoroutine()

	lat := &latencies{byOp: map[string][]time.Duration{}}
	var refused atomic.Int64 // calls on another session's tab, refused as they must be
	var errMu sync.Mutex
	var errs []string
	fail := func(format string, args ...any) {
		errMu.Lock()
		defer errMu.Unlock()
		if len(errs) < 20 {
			errs = append(errs, fmt.Sprintf(format, args...))
		}
	}
	peakThreads, peakFDs := thr0, fd0
	peakConns := 0 // the most agent connections a sample saw at once, logged
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stopSampling:
				return
			case <-time.After(250 * time.Millisecond):
			}
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", host.PID))
			if err != nil {
				continue
			}
			if m := regexp.MustCompile(`(?m)^Threads:\s+(\d+)`).FindSubmatch(b); m != nil {
				n, _ := strconv.Atoi(string(m[1]))
				peakThreads = max(peakThreads, n)
			}
			if ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", host.PID)); err == nil {
				peakFDs = max(peakFDs, len(ents))
			}
			if n, err := agentConns(host.PID, host.Socket); err == nil {
				peakConns = max(peakConns, n)
			}
		}
	}()

	// The load starts once every client is connected and the host holds
	// all their connections: that the count (agentConns) sees each of them
	// is checked there, by construction, where it was a sample every
	// 250 ms that had to fall while all were open.
	var connected sync.WaitGroup
	connected.Add(nClients)
	released := make(chan struct{})
	var start, deadline time.Time // set before released closes
	// Each call gets its own generous timeout, not the load's deadline: a
	// call cut off by our own deadline would leave its outcome unknown.
	callCtx := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.Background(), 90*time.Second)
	}
	var wg sync.WaitGroup
	for w := 0; w < nClients; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 42))
			ctx, cancel := callCtx()
			mine := w % nTabs // the session of client w owns tab mine
			c, err := client.Connect(ctx, client.Options{RuntimeDir: rt, Wait: 10 * time.Second, Session: loadSession(mine)})
			cancel()
			connected.Done()
			if err != nil {
				fail("client %d: connect: %v", w, err)
				return
			}
			defer c.Close()
			<-released
			for time.Now().Before(deadline) {
				if rng.IntN(10) < 4 {
					// Two snapshots of two tabs at once on this one
					// connection: each reply must be its own request's.
					a, b := rng.IntN(nTabs), rng.IntN(nTabs-1)
					if b >= a {
						b++
					}
					var pwg sync.WaitGroup
					for _, ti := range []int{a, b} {
						pwg.Add(1)
						go func(lt *loadTab) {
							defer pwg.Done()
							ctx, cancel := callCtx()
							defer cancel()
							var snap protocol.Snapshot
							t0 := time.Now()
							err := c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: lt.id}, &snap)
							lat.add("snapshot", time.Since(t0))
							switch {
							case lt != tabs[mine]:
								if !errors.Is(err, protocol.ErrNotYourTab) {
									fail("client %d: snapshot of another session's tab %d: %v (tab %d), want not_your_tab", w, lt.id, err, snap.Tab.ID)
								}
								refused.Add(1)
							case err != nil:
								fail("client %d: snapshot of tab %d: %v", w, lt.id, err)
							case snap.Tab.ID != lt.id || !strings.HasPrefix(snap.Text, "Tab "+strconv.Itoa(lt.id)+" ·"):
								fail("client %d: snapshot of tab %d answered with tab %d", w, lt.id, snap.Tab.ID)
							}
						}(tabs[ti])
					}
					pwg.Wait()
					continue
				}
				// Mostly its own tab; one click in five on another session's,
				// which must be refused and leave that page's count alone.
				lt := tabs[mine]
				if rng.IntN(5) == 0 {
					lt = tabs[(mine+1+rng.IntN(nTabs-1))%nTabs]
				}
				ref := lt.buttons[rng.IntN(len(lt.buttons))]
				ctx, cancel := callCtx()
				var res protocol.ActionResult
				t0 := time.Now()
				err := c.Call(ctx, protocol.OpAct, protocol.ActArgs{Action: protocol.ActClick, Target: ref, Snapshot: true}, &res)
				cancel()
				lat.add("click", time.Since(t0))
				if lt != tabs[mine] {
					if !errors.Is(err, protocol.ErrNotYourTab) {
						fail("client %d: click %s on another session's tab %d: %v, want not_your_tab", w, ref, lt.id, err)
					}
					refused.Add(1)
					continue
				}
				if err := lt.clicked(res, err); err != nil {
					fail("client %d: click %s on tab %d: %v", w, ref, lt.id, err)
				}
			}
		}(w)
	}
	// A few real grip processes alongside: the CLI path, one process per
	// operation.
	for p := 0; p < nProcs; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			<-released
			rng := rand.New(rand.NewPCG(uint64(p), 7))
			for time.Now().Before(deadline) {
				lt := tabs[rng.IntN(nTabs)]
				ctx, cancel := callCtx()
				t0 := time.Now()
				if rng.IntN(2) == 0 {
					r := env.Grip(ctx, "--session", loadSession(slices.Index(tabs, lt)), "snapshot", "--tab", strconv.Itoa(lt.id), "--json")
					lat.add("cli", time.Since(t0))
					var snap protocol.Snapshot
					if r.Code != 0 || json.Unmarshal([]byte(r.Stdout), &snap) != nil || snap.Tab.ID != lt.id {
						fail("grip snapshot --tab %d: exit %d %.200s %s", lt.id, r.Code, r.Stdout, r.Stderr)
					}
				} else {
					ref := lt.buttons[rng.IntN(len(lt.buttons))]
					r := env.Grip(ctx, "--session", loadSession(slices.Index(tabs, lt)), "click", ref, "--snapshot", "--json")
					lat.add("cli", time.Since(t0))
					var res protocol.ActionResult
					var err error
					if r.Code != 0 {
						err = fmt.Errorf("exit %d: %s %s", r.Code, r.Stdout, r.Stderr)
					} else if jerr := json.Unmarshal([]byte(r.Stdout), &res); jerr != nil {
						err = jerr
					}
					if err := lt.clicked(res, err); err != nil {
						fail("grip click %s: %v", ref, err)
					}
				}
				cancel()
			}
		}(p)
	}
	connected.Wait()
	atOnce := 0
	for waitStart := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		n, err := agentConns(host.PID, host.Socket)
		if err != nil {
			t.Fatal(err)
		}
		if atOnce = n; n >= nClients {
			break
		}
		if time.Since(waitStart) > 30*time.Second {
			close(released)
			errMu.Lock()
			failed := slices.Clone(errs)
			errMu.Unlock()
			t.Fatalf("the host holds %d agent connections 30 s after all %d clients connected: agentConns does not see them (%q)", n, nClients, failed)
		}
	}
	start = time.Now()
	deadline = start.Add(dur)
	close(released)
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	// A bound, not a premise: every call has its own 90 s timeout
	// (callCtx), so the clients end by dur and one call more; only a
	// call that ignores its context (a deadlock) outlasts this.
	select {
	case <-finished:
	case <-time.After(dur + 3*time.Minute):
		t.Fatal("the load did not finish: deadlock?")
	}
	elapsed := time.Since(start)
	close(stopSampling)
	<-sampled
	for _, e := range errs {
		t.Error(e)
	}

	// The figures.
	total := 0
	var all []time.Duration
	for _, op := range []string{"snapshot", "click", "cli"} {
		ds := lat.byOp[op]
		total += len(ds)
		all = append(all, ds...)
		t.Logf("load: %-8s %5d ops  %6.1f ops/s  p50 %6s  p99 %6s", op, len(ds), float64(len(ds))/elapsed.Seconds(),
			pct(ds, 0.5).Round(time.Millisecond), pct(ds, 0.99).Round(time.Millisecond))
	}
	t.Logf("load: all      %5d ops  %6.1f ops/s  p50 %6s  p99 %6s  (%d clients + %d grip processes, %d tabs, %s)",
		total, float64(total)/elapsed.Seconds(), pct(all, 0.5).Round(time.Millisecond), pct(all, 0.99).Round(time.Millisecond),
		nClients, nProcs, nTabs, elapsed.Round(time.Millisecond))
	t.Logf("load: %d calls on another session's tab, each refused with not_your_tab", refused.Load())
	if total == 0 || refused.Load() == 0 {
		t.Fatalf("no operation completed (%d), or none tried another session's tab (%d)", total, refused.Load())
	}

	// No deadlock: the host still answers, at once.
	sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer scancel()
	r := env.Grip(sctx, "status", "--json")
	var st protocol.Status
	if r.Code != 0 || json.Unmarshal([]byte(r.Stdout), &st) != nil || st.Host.PID != host.PID {
		t.Fatalf("grip status after the load: exit %d %s %s (host %d)", r.Code, r.Stdout, r.Stderr, host.PID)
	}

	// No leak here: this process's goroutines return to where they were.
	// Polled until they are, within a bound a busy machine does not reach
	// (it was 5 s): a client's goroutines end after its Close returns.
	var g1 int
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		runtime.GC()
		if g1 = runtime.NumGoroutine(); g1 <= g0 || time.Now().After(deadline) {
			break
		}
	}
	// Nor in the host: once it has closed every connection of the load
	// (the status call's too), its fds are back to the baseline; its
	// threads (Go keeps idle OS threads for reuse, so they need not
	// shrink) stay bounded and stop growing once the load ends.
	waitNoAgentConns(t, host)
	thr1, fd1 := procFigures(t, host.PID)
	// The window in which the figures must not grow. A measurement, not a
	// premise: nothing is assumed to have happened by its end (the load
	// ended before thr1: every call returned and the host closed every
	// connection), and a shorter window would only catch less of a leak;
	// nothing of the load is left to run in the host.
	time.Sleep(2 * time.Second)
	thr2, fd2 := procFigures(t, host.PID)
	t.Logf("load: %d agent connections at once when the load started, at most %d sampled", atOnce, peakConns)
	t.Logf("load: client goroutines %d before, %d after; host %d threads before, %d peak, %d after, %d 2 s later; host fds %d before, %d peak, %d after, %d 2 s later",
		g0, g1, thr0, peakThreads, thr1, thr2, fd0, peakFDs, fd1, fd2)
	if g1 > g0 {
		t.Errorf("goroutine leak in the client: %d before, %d after", g0, g1)
	}
	if fd1 > fd0 || fd2 > fd0 {
		t.Errorf("host fd leak: %d before, %d after, %d 2 s later", fd0, fd1, fd2)
	}
	if thr2 > thr1 || thr2 > thr0+32 {
		t.Errorf("host threads: %d before, %d after, %d 2 s later", thr0, thr1, thr2)
	}

	// Per tab: no click overlapped another; the page saw exactly the
	// clicks that succeeded; each click's reply saw its own count, once.
	for _, lt := range tabs {
		page := browsertest.Eval[[]int](t, env, lt.url, "[window.__clicks, window.__overlaps]")
		clicks, overlaps := page[0], page[1]
		slices.Sort(lt.counts)
		dups := 0
		for i := 1; i < len(lt.counts); i++ {
			if lt.counts[i] == lt.counts[i-1] {
				dups++
			}
		}
		t.Logf("load: tab %d: %d clicks ok, %d unknown, page counted %d, %d overlaps, %d replies without a count, %d repeated counts",
			lt.id, lt.ok, lt.unknown, clicks, overlaps, lt.missing, dups)
		if overlaps != 0 {
			t.Errorf("tab %d: %d clicks ran while another was running", lt.id, overlaps)
		}
		if dups != 0 {
			t.Errorf("tab %d: %d clicks' replies saw a count another click's reply saw: operations on the tab interleaved", lt.id, dups)
		}
		if clicks < lt.ok || clicks > lt.ok+lt.unknown {
			t.Errorf("tab %d: the page counted %d clicks; %d succeeded and %d are unknown", lt.id, clicks, lt.ok, lt.unknown)
		}
		if lt.unknown == 0 && lt.missing == 0 {
			for i, n := range lt.counts {
				if n != i+1 {
					t.Errorf("tab %d: counts seen by the replies are not 1..%d: %v", lt.id, lt.ok, lt.counts)
					break
				}
			}
		}
	}
}
