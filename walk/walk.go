// Package walk is grip's walker (docs/benchmarks.md, "The walker"): it
// drives grip on any page the way a busy agent would, choosing each step
// from what the snapshot offers with a seeded source, and after every step
// checks grip's promises against an observer of the same browser that
// speaks the DevTools protocol itself (observer.go) and never asks grip.
// scripts/walk runs it.
package walk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// Config is one walk.
type Config struct {
	URL   string
	Steps int
	Seed  uint64
	Avoid []string
	// CDP is the debugging port of a running browser whose grip host the
	// walk reaches as every command does (GRIP_STATE_DIR, Profile); 0
	// starts a browser of the walk's own with grip launch.
	CDP     int
	Profile string
	// Grip is the grip binary that launches the walk's own browser.
	Grip string
	// Out gets one line per violation and the summary; Log what the walk
	// is doing (nil: nothing).
	Out, Log io.Writer
	// StepTimeout bounds each grip call (0: 60 s).
	StepTimeout time.Duration
	// Unblocked checks the checker: the walk frames its marker page
	// without a policy rule against it, so invariant 5 must fire.
	Unblocked bool
}

// Summary is what a walk came to.
type Summary struct {
	Steps      int
	Violations int
	ByInv      [invariants + 1]int
	// Checked counts, by invariant, the steps whose check had something
	// to hold grip to (a ref the observer knew, a quiet page, …).
	Checked [invariants + 1]int
	Memory  []Memory
	// Excused counts the pictures that differed only by changes a chain
	// of timers set before the action made (a notification hiding
	// itself): not the action's doing, so not held to its reply.
	Excused int
	// FalseStale counts the refusals stale_ref of a ref whose element
	// the observer saw connected.
	FalseStale int
}

// PictureRate is the percent of the judged replies (the excused left out)
// that left a true picture; 100 when none was judged.
func (s Summary) PictureRate() float64 {
	pic := s.Checked[InvPicture] - s.Excused
	if pic <= 0 {
		return 100
	}
	return 100 * float64(pic-s.ByInv[InvPicture]) / float64(pic)
}

// SaidRate is the percent of the judged actions whose reply's said kept
// grip's promise (CheckSaid); 100 when none was judged.
func (s Summary) SaidRate() float64 {
	if s.Checked[InvSaid] <= 0 {
		return 100
	}
	return 100 * float64(s.Checked[InvSaid]-s.ByInv[InvSaid]) / float64(s.Checked[InvSaid])
}

// Passed says whether a walk kept grip's promises: no violation of any
// invariant but the picture's and the said's, and at least target percent
// of the judged pictures and of the judged saids true (target 100: none
// may differ). Those two are shares where an app sets itself up on its
// own time after a load (MediaWiki's modules, README "Benchmarks"); every
// other promise holds at every step.
func Passed(s Summary, target float64) bool {
	shares := s.ByInv[InvPicture] + s.ByInv[InvSaid]
	if s.Violations-shares > 0 {
		return false
	}
	if target >= 100 {
		return shares == 0
	}
	return s.PictureRate() >= target && s.SaidRate() >= target
}

func (c Config) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, "walk: "+format+"\n", args...)
	}
}

// Run walks cfg.URL for cfg.Steps steps and reports each violation to
// cfg.Out, then the summary line.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if cfg.StepTimeout == 0 {
		cfg.StepTimeout = 60 * time.Second
	}
	w := &walker{cfg: cfg}
	defer w.close()
	if err := w.start(ctx); err != nil {
		return w.sum, err
	}
	err := w.walk(ctx)
	c := w.sum.Checked
	fmt.Fprintf(cfg.Out, "walk: checked refs %d, picture %d, landed %d, replies %d, blocked %d, memory %d times; %d distinct violations\n",
		c[InvRefs], c[InvPicture], c[InvLanded], c[InvReply], c[InvBlocked], c[InvBounded], len(w.seen))
	if m := w.sum.Memory; len(m) > 1 {
		fmt.Fprintf(cfg.Out, "walk: memory: host %d → %d MiB, extension worker heap %.1f → %.1f MiB (steps %d → %d)\n",
			m[0].HostRSS>>20, m[len(m)-1].HostRSS>>20, float64(m[0].WorkerHeap)/(1<<20), float64(m[len(m)-1].WorkerHeap)/(1<<20), m[0].Step, m[len(m)-1].Step)
	}
	pic := c[InvPicture] - w.sum.Excused
	fmt.Fprintf(cfg.Out, "walk: correct pictures %.1f%% (%d of %d judged; %d excused: changes by timers set before the action), false stale_refs %d, messages missed or false %d of %d actions judged\n",
		w.sum.PictureRate(), pic-w.sum.ByInv[InvPicture], pic, w.sum.Excused, w.sum.FalseStale, w.sum.ByInv[InvSaid], c[InvSaid])
	fmt.Fprintf(cfg.Out, "walk: %d steps, %d violations\n", w.sum.Steps, w.sum.Violations)
	return w.sum, err
}

type walker struct {
	cfg      Config
	sum      Summary
	c        client.Ops
	closers  []func()
	port     int
	hostPID  int
	tab      int
	obs      *Observer
	bctx     context.Context
	chooser  *Chooser
	markers  []string // what the blocked frame would show
	blocked  string   // the blocked frame's URL, "" when the walk does not own the policy
	bound    map[string]Node
	listed   map[string]protocol.Element // every ref a snapshot listed, as last listed
	step     int
	seen     map[string]bool // the violations' signatures
	last     string          // the command of the step being checked
	lastRepl string
}

func (w *walker) close() {
	for i := len(w.closers) - 1; i >= 0; i-- {
		w.closers[i]()
	}
}

func (w *walker) start(ctx context.Context) error {
	w.bound = map[string]Node{}
	w.listed = map[string]protocol.Element{}
	w.chooser = NewChooser(w.cfg.Seed, w.cfg.URL, w.cfg.Avoid)
	runtimeDir := ""
	if w.cfg.CDP == 0 {
		dirs, err := w.launch(ctx)
		if err != nil {
			return err
		}
		runtimeDir = dirs.Runtime
	} else {
		w.port = w.cfg.CDP
	}
	cl, err := client.Connect(ctx, client.Options{RuntimeDir: runtimeDir, Profile: w.cfg.Profile, Wait: 30 * time.Second, Client: "walk"})
	if err != nil {
		return fmt.Errorf("walk: reach grip's host: %w", err)
	}
	w.closers = append(w.closers, func() { cl.Close() })
	w.c = client.Ops{Caller: cl}
	if st, err := w.c.Status(ctx); err == nil {
		_ = st
	}
	hosts, _ := client.Hosts(firstNonEmpty(runtimeDir, defaultRuntime()))
	for _, h := range hosts {
		if w.cfg.Profile == "" || h.Profile == w.cfg.Profile {
			w.hostPID = h.PID
		}
	}
	bctx, bcancel := Browser(context.WithoutCancel(ctx), w.port)
	w.closers = append(w.closers, bcancel)
	w.bctx = bctx
	before, err := PageTargets(bctx)
	if err != nil {
		return fmt.Errorf("walk: the observer cannot reach the browser on port %d: %w", w.port, err)
	}
	// The observer attaches, then grip loads the page again, so the
	// observer's world and listeners are there from the page's start.
	// (Not an about:blank tab first: one the extension opened is the
	// extension's, which no page may read, and back would lead there.)
	res, err := w.call(ctx, protocol.ActArgs{Action: protocol.ActTabNew, Text: w.cfg.URL})
	if err != nil {
		return fmt.Errorf("walk: grip tabs new: %w", err)
	}
	w.tab = res.Tab.ID
	id, err := newTarget(ctx, bctx, before)
	if err != nil {
		return err
	}
	if w.obs, err = Observe(bctx, id); err != nil {
		return err
	}
	w.closers = append(w.closers, w.obs.Close)
	if _, err := w.call(ctx, protocol.ActArgs{Action: protocol.ActNavigate, Tab: w.tab, Text: w.cfg.URL}); err != nil {
		return fmt.Errorf("walk: grip navigate %s: %w", w.cfg.URL, err)
	}
	w.plantBlocked(ctx)
	return nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func defaultRuntime() string {
	d, err := statedir.Get()
	if err != nil {
		return ""
	}
	return d.Runtime
}

// newTarget is the page target that is not among before: the tab grip
// just opened.
func newTarget(ctx context.Context, bctx context.Context, before []*target.Info) (target.ID, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		now, err := PageTargets(bctx)
		if err != nil {
			return "", err
		}
		for _, t := range now {
			if !slices.ContainsFunc(before, func(b *target.Info) bool { return b.TargetID == t.TargetID }) {
				return t.TargetID, nil
			}
		}
		if time.Now().After(deadline) {
			return "", errors.New("walk: the observer sees no new tab after grip tabs new")
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// launch starts the walk's own browser with grip launch, in a state dir
// and profile of its own, whose policy blocks an origin the walk serves.
func (w *walker) launch(ctx context.Context) (statedir.Dirs, error) {
	root, err := os.MkdirTemp("", "grip-walk-")
	if err != nil {
		return statedir.Dirs{}, err
	}
	w.closers = append(w.closers, func() { os.RemoveAll(root) })
	state := filepath.Join(root, "state")
	dirs := statedir.At(state)
	if err := os.MkdirAll(state, 0o700); err != nil {
		return dirs, err
	}
	// The blocked origin: another loopback address, a page only the
	// walk knows the text of.
	secret := fmt.Sprintf("walk-blocked-%d-%d", w.cfg.Seed, time.Now().UnixNano())
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err == nil {
		srv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(rw, "<!doctype html><title>%s title</title><button>%s button</button><input aria-label='%s field'>", secret, secret, secret)
		})}
		go srv.Serve(ln)
		w.closers = append(w.closers, func() { srv.Close() })
		w.blocked = "http://" + ln.Addr().String() + "/"
		w.markers = []string{secret, ln.Addr().String()}
		rule := "block 127.0.0.2\n"
		if w.cfg.Unblocked {
			rule = "# --unblocked-frame: no rule\n"
		}
		if err := os.WriteFile(policy.Path(state), []byte("# the walker's blocked frame (walk/)\n"+rule), 0o600); err != nil {
			return dirs, err
		}
	}
	grip := firstNonEmpty(w.cfg.Grip, "grip")
	cmd := exec.CommandContext(ctx, grip, "launch", "--detach", "--json", "--remote-debugging-port", "0", "--profile-dir", filepath.Join(root, "profile"))
	cmd.Env = append(os.Environ(), statedir.EnvVar+"="+state)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return dirs, fmt.Errorf("walk: grip launch: %v: %s", err, stderr.String())
	}
	var info struct {
		BrowserPID   int    `json:"browser_pid"`
		Profile      string `json:"profile"`
		DevToolsPort int    `json:"devtools_port"`
	}
	if err := json.Unmarshal(out, &info); err != nil || info.DevToolsPort == 0 {
		stopGroup(info.BrowserPID)
		return dirs, fmt.Errorf("walk: grip launch said no debugging port: %s", out)
	}
	w.closers = append(w.closers, func() { stopGroup(info.BrowserPID) })
	w.port = info.DevToolsPort
	w.cfg.Profile = info.Profile
	w.cfg.logf("launched a browser (pid %d, debugging port %d, state %s)", info.BrowserPID, info.DevToolsPort, state)
	return dirs, nil
}

// plantBlocked puts a frame of the blocked origin into the page (its own
// main world, through the observer), when the walk owns the policy.
func (w *walker) plantBlocked(ctx context.Context) {
	if w.blocked == "" {
		return
	}
	q, _ := json.Marshal(w.blocked)
	_ = w.obs.InPage(ctx, `(() => { if (document.getElementById('grip-walk-blocked') || !document.body) return;
	  const f = document.createElement('iframe'); f.id = 'grip-walk-blocked'; f.src = `+string(q)+`;
	  f.style.cssText = 'width:200px;height:60px;border:0'; document.body.appendChild(f); })()`)
}

func (w *walker) call(ctx context.Context, args protocol.ActArgs) (*protocol.ActionResult, error) {
	cctx, cancel := context.WithTimeout(ctx, w.cfg.StepTimeout)
	defer cancel()
	return w.c.Act(cctx, args)
}

func (w *walker) snapshot(ctx context.Context, args protocol.SnapshotArgs) (*protocol.Snapshot, error) {
	cctx, cancel := context.WithTimeout(ctx, w.cfg.StepTimeout)
	defer cancel()
	return w.c.Snapshot(cctx, args)
}

// report prints one violation of the step being checked.
func (w *walker) report(vs ...Violation) {
	for _, v := range vs {
		if w.seen == nil {
			w.seen = map[string]bool{}
		}
		w.seen[signature(w.last, v)] = true
		w.sum.Violations++
		w.sum.ByInv[v.Invariant]++
		fmt.Fprintf(w.cfg.Out, "seed=%d step=%d command=%q reply=%q %s\n", w.cfg.Seed, w.step, w.last, w.lastRepl, v)
	}
}

var numbers = regexp.MustCompile(`@e\d+|\d+|'[^']*'`)

// signature is what two violations of one bug share: the invariant, the
// command's verb and what is wrong, refs, numbers and quoted text aside.
func signature(command string, v Violation) string {
	verb := ""
	if f := strings.Fields(command); len(f) > 1 {
		verb = f[1]
	}
	return fmt.Sprint(v.Invariant, " ", verb, " ", numbers.ReplaceAllString(v.What, "_"))
}

// replyText is a reply in one line, as a violation quotes it.
func replyText(res any, err error) string {
	var s string
	if err != nil {
		s = "error: " + err.Error()
	} else {
		b, _ := json.Marshal(res)
		s = string(b)
	}
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}

func (w *walker) walk(ctx context.Context) error {
	snap, err := w.read(ctx)
	if err != nil {
		return err
	}
	failures := 0
	for w.step = 1; w.step <= w.cfg.Steps; w.step++ {
		if ctx.Err() != nil {
			break
		}
		w.sum.Steps = w.step
		if w.step%20 == 1 {
			w.sampleMemory(ctx)
			w.plantBlocked(ctx)
		}
		// Gone refs the observer knows the node of are the ones whose
		// refusal it can judge: try those when there are any.
		old := w.gone(snap)
		if known := slices.DeleteFunc(slices.Clone(old), func(e protocol.Element) bool { _, ok := w.bound[e.Ref]; return !ok }); len(known) > 0 {
			old = known
		}
		a := w.chooser.Next(*snap, old)
		w.last = a.Command()
		o := Outcome{Action: a}
		node, bound := w.bound[a.Ref]
		o.Bound = bound
		if bound {
			o.Pre = w.obs.Alive(ctx, node)
			o.Field = w.obs.Field(ctx, node)
		}
		w.obs.Cover()
		quiet := w.obs.WaitQuiet(ctx, quietBefore, 2*time.Second)
		w.obs.Drain(ctx)
		w.obs.Begin(ctx)
		o.Res, o.Err = w.call(ctx, a.Args(w.tab))
		w.lastRepl = replyText(o.Res, o.Err)
		if o.Res != nil && o.Res.Dialog != nil {
			// Nothing runs in the page while a dialog is open, the
			// observer's world neither: answer it first.
			r, err := w.call(ctx, protocol.ActArgs{Action: protocol.ActDialogDismiss, Tab: w.tab})
			if vs := CheckReply(r, err); len(vs) > 0 {
				w.last, w.lastRepl = "grip dialog dismiss", replyText(r, err)
				w.report(vs...)
				w.last, w.lastRepl = a.Command(), replyText(o.Res, o.Err)
			}
		}
		shown := w.obs.Replied(ctx)
		events := w.obs.Drain(ctx)
		if bound {
			o.Post = w.obs.Alive(ctx, node)
		}
		w.land(ctx, &o, events)
		w.report(CheckReply(o.Res, o.Err)...)
		w.sum.Checked[InvReply]++
		if o.Bound && o.Pre == o.Post && o.Pre != Unknown {
			w.sum.Checked[InvRefs]++
		}
		refVs := CheckRef(o)
		for _, v := range refVs {
			if strings.HasPrefix(v.What, "refused stale_ref") {
				w.sum.FalseStale++
			}
		}
		w.report(refVs...)
		if o.Err == nil && o.Res != nil {
			w.sum.Checked[InvSaid]++
			w.report(CheckSaid(shown, o.Res)...)
		}
		if len(o.Landed) > 0 || (o.Err == nil && mustLandOf(o)) {
			w.sum.Checked[InvLanded]++
		}
		w.report(CheckLanded(o)...)
		if len(w.markers) > 0 {
			w.sum.Checked[InvBlocked]++
		}
		w.report(CheckBlocked(w.lastRepl, w.markers)...)
		w.cfg.logf("step %d: %s → %s (%s)", w.step, w.last, summarize(o), w.obs.state())
		var readOn *protocol.Snapshot
		if o.Err == nil && o.Res.Changes.Omitted > 0 {
			readOn, _ = w.snapshot(ctx, protocol.SnapshotArgs{Tab: w.tab, After: afterOf(o.Res.Changes.More)})
		}
		after, err := w.read(ctx)
		if err != nil {
			failures++
			if failures >= 5 {
				return fmt.Errorf("walk: step %d: five snapshots in a row failed: %w", w.step, err)
			}
			w.recover(ctx)
			if after, err = w.read(ctx); err == nil {
				snap, failures = after, 0
			}
			continue
		}
		failures = 0
		w.last, w.lastRepl = a.Command(), replyText(o.Res, o.Err)
		w.checkHeld(ctx, after)
		if o.Err == nil && Settling(o.Res, quiet) {
			w.sum.Checked[InvPicture]++
			vs := CheckPicture(*snap, o.Res, readOn, *after)
			if len(vs) > 0 {
				old, caused := w.obs.Since(ctx)
				if old > 0 && caused == 0 {
					w.cfg.logf("step %d: the picture differs only by %d changes of timers set before the action: excused", w.step, old)
					w.sum.Excused++
					vs = nil
				}
				for i := range vs {
					vs[i].What += fmt.Sprintf(" (after the reply, the observer saw %d batches of changes the action may have caused, %d by timers set before it)", caused, old)
				}
			}
			w.report(vs...)
		}
		snap = after
		if leftOrigin(after, w.cfg.URL) {
			w.recover(ctx)
			if s, err := w.read(ctx); err == nil {
				snap = s
			}
		}
	}
	w.sampleMemory(ctx)
	w.step = w.sum.Steps
	w.last, w.lastRepl = "(the whole walk)", fmt.Sprint(w.sum.Memory)
	w.sum.Checked[InvBounded] = len(w.sum.Memory)
	w.report(CheckBounded(w.sum.Memory)...)
	return nil
}

// checkHeld holds every bound ref snap lists to its element (CheckHeld):
// one observer evaluation per document, whatever the number of refs.
func (w *walker) checkHeld(ctx context.Context, snap *protocol.Snapshot) {
	var refs []string
	var nodes []Node
	for _, f := range snap.Frames {
		for _, e := range f.Elements {
			if n, ok := w.bound[e.Ref]; ok {
				refs = append(refs, e.Ref)
				nodes = append(nodes, n)
			}
		}
	}
	if len(refs) == 0 {
		return
	}
	got := w.obs.AliveAll(ctx, nodes)
	alive := make(map[string]Alive, len(refs))
	for i, ref := range refs {
		alive[ref] = got[nodes[i]]
		if alive[ref] != Unknown {
			w.sum.Checked[InvRefs]++
		}
	}
	w.report(CheckHeld(refs, alive)...)
}

func summarize(o Outcome) string {
	if o.Err != nil {
		return o.Err.Error()
	}
	settled := ""
	if o.Res != nil && o.Res.Settled != nil && !*o.Res.Settled {
		settled = ", still changing"
		if o.Res.Busy != "" {
			settled += " (" + o.Res.Busy + ")"
		}
	}
	return fmt.Sprintf("ok, %d events%s", len(o.Landed), settled)
}

// read takes a snapshot and checks it as a reply (invariants 4 and 5).
func (w *walker) read(ctx context.Context) (*protocol.Snapshot, error) {
	snap, err := w.snapshot(ctx, protocol.SnapshotArgs{Tab: w.tab})
	if err == nil && snap.Dialog != nil {
		// A dialog a timer opened: answer it as a person would, then
		// read the page it held.
		r, derr := w.call(ctx, protocol.ActArgs{Action: protocol.ActDialogDismiss, Tab: w.tab})
		if vs := CheckReply(r, derr); len(vs) > 0 {
			saved, savedRepl := w.last, w.lastRepl
			w.last, w.lastRepl = "grip dialog dismiss", replyText(r, derr)
			w.report(vs...)
			w.last, w.lastRepl = saved, savedRepl
		}
		snap, err = w.snapshot(ctx, protocol.SnapshotArgs{Tab: w.tab})
	}
	saved, savedRepl := w.last, w.lastRepl
	w.last = "grip snapshot --tab " + strconv.Itoa(w.tab)
	if err != nil {
		w.lastRepl = replyText(nil, err)
		var pe *protocol.Error
		if !errors.As(err, &pe) || pe.Code == protocol.CodeInternal || pe.Message == "" {
			w.report(violation(InvReply, "the snapshot was refused so: %v", err))
		}
	} else {
		w.lastRepl = replyText(snap.Text, nil)
		w.report(CheckBlocked(snap.Text, w.markers)...)
		for _, f := range snap.Frames {
			for _, e := range f.Elements {
				w.listed[e.Ref] = e
			}
		}
	}
	w.last, w.lastRepl = saved, savedRepl
	return snap, err
}

// gone are the refs earlier snapshots listed that snap does not.
func (w *walker) gone(snap *protocol.Snapshot) []protocol.Element {
	now := map[string]bool{}
	for _, f := range snap.Frames {
		for _, e := range f.Elements {
			now[e.Ref] = true
		}
	}
	var gone []protocol.Element
	for ref, e := range w.listed {
		if !now[ref] {
			gone = append(gone, e)
		}
	}
	// Map order is random: the walk's choices must not be.
	slices.SortFunc(gone, func(a, b protocol.Element) int { return refNumber(a.Ref) - refNumber(b.Ref) })
	return gone
}

func refNumber(ref string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(ref, "@e"))
	return n
}

// land fills o.Landed from the events the action caused, and binds the
// ref to the element the first of them stands for when it is not bound.
func (w *walker) land(ctx context.Context, o *Outcome, events []Event) {
	kind := landsBy[o.Action.Act]
	if o.Action.Ref == "" || kind == "" {
		return
	}
	node, bound := w.bound[o.Action.Ref]
	for _, e := range events {
		if !lands(o.Action.Act, e.Type) {
			continue
		}
		l := Landing{Event: e, Node: w.obs.Describe(ctx, e.Node())}
		if bound {
			l.Within = w.obs.Within(ctx, e.Node(), node)
			l.OutOfReach = !l.Within && w.obs.Alive(ctx, e.Node()) == Unknown
		}
		o.Landed = append(o.Landed, l)
	}
	if !bound && o.Err == nil && len(o.Landed) > 0 {
		if el, err := w.obs.Element(ctx, o.Landed[0].Event.Node(), o.Action.Target.Name); err == nil {
			w.bound[o.Action.Ref] = el
		}
	}
}

func afterOf(more string) string {
	for _, f := range strings.Fields(more) {
		if strings.HasPrefix(f, "@e") {
			return f
		}
	}
	return ""
}

// leftOrigin: the walk went somewhere a person exploring the app would
// come back from.
func leftOrigin(snap *protocol.Snapshot, start string) bool {
	u, err := url.Parse(snap.Tab.URL)
	return err != nil || originOf(snap.Tab.URL) != originOf(start) || u.Scheme == "about"
}

// recover brings the tab back to the start page.
func (w *walker) recover(ctx context.Context) {
	w.cfg.logf("step %d: back to %s", w.step, w.cfg.URL)
	_, _ = w.call(ctx, protocol.ActArgs{Action: protocol.ActNavigate, Tab: w.tab, Text: w.cfg.URL})
	w.plantBlocked(ctx)
}

func (w *walker) sampleMemory(ctx context.Context) {
	m := Memory{Step: w.step, HostRSS: rss(w.hostPID), WorkerHeap: int64(w.obs.WorkerHeap(ctx))}
	w.sum.Memory = append(w.sum.Memory, m)
}

// rss is a process's resident set in bytes, from /proc (0 elsewhere).
func rss(pid int) int64 {
	if pid == 0 {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
