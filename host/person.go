package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// personControls is the person's say over agents (docs/person.md, "The
// person's controls"): the policy file in force, the pause switch, the
// tabs shared with agents in the policy's shared mode, and the record of
// what agents did. The host consults it before every agent request
// (host/controls.go).
type personControls struct {
	policy *policy.Store
	log    *actlog.Log // nil when the logs folder cannot be used
	slog   *slog.Logger

	mu sync.Mutex
	// paused refuses every action. The extension keeps it in
	// chrome.storage and sends it in its hello, so a new host starts
	// paused before its socket is published; the host tells the
	// extension when grip pause or resume changes it. Guarded by mu.
	paused bool
	// pausedBy is the agent session that paused ("": the person), kept
	// by the extension with the pause. Guarded by mu.
	pausedBy string
	// lift says how the pause is lifted in this browser (pauseLift); set
	// once, at the hello.
	lift string
	// shared are the tabs agents may use in the shared mode, with when
	// each was shared or opened by an agent (the latest is the default
	// tab when the active one is not shared). The extension mirrors it
	// in chrome.storage.session. Guarded by mu.
	shared map[int]time.Time
	// owners are the tabs sessions own (tab → session) and sessions what
	// the host knows of each (host/sessions.go). The extension mirrors
	// owners and the ended sessions. Guarded by mu.
	owners   map[int]string
	sessions map[string]*session
	// closedOwners are the sessions that owned tabs now closed: a
	// download one of them started stays that session's alone. Guarded
	// by mu; at most maxClosedOwners.
	closedOwners map[int]string
}

func newPersonControls(h *Host, hello protocol.ExtensionHello) *personControls {
	u := &personControls{
		policy: policy.Open(policy.Path(h.cfg.Dirs.Root), true, h.log),
		slog:   h.log,
		paused: hello.Paused, pausedBy: hello.PausedBy, lift: pauseLift(h.cfg.Launch),
		shared: map[int]time.Time{},
		owners: map[int]string{}, sessions: map[string]*session{},
	}
	u.seedSessions(hello)
	now := time.Now()
	for _, id := range hello.SharedTabs {
		if id > 0 {
			u.shared[id] = now
		}
	}
	l, err := actlog.Open(h.cfg.Dirs.Logs)
	if err != nil {
		h.noteError(fmt.Errorf("agent log: %w", err))
	}
	u.log = l
	return u
}

func (u *personControls) isPaused() bool {
	if u == nil {
		return false // no extension hello yet: no controls (host tests)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.paused
}

// pausedByWhom returns whether agents are paused and, if so, the agent
// session that paused ("": the person).
func (u *personControls) pausedByWhom() (bool, string) {
	if u == nil {
		return false, ""
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.paused, u.pausedBy
}

// setPaused sets the switch and returns the state. by is the agent
// session that pauses ("": the person); a pause already on stays whose
// it was (an agent's pause does not make the person's its own).
func (u *personControls) setPaused(p bool, by string) protocol.PersonState {
	u.mu.Lock()
	switch {
	case !p:
		u.pausedBy = ""
	case !u.paused || by == "":
		u.pausedBy = by
	}
	u.paused = p
	u.mu.Unlock()
	return u.state()
}

func (u *personControls) state() protocol.PersonState {
	u.mu.Lock()
	defer u.mu.Unlock()
	st := protocol.PersonState{Paused: u.paused}
	if u.paused {
		st.PausedBy, st.Lift = u.pausedBy, u.lift
	}
	for id := range u.shared {
		st.Shared = append(st.Shared, id)
	}
	slices.Sort(st.Shared)
	return st
}

// share adds or removes a tab from the shared set.
func (u *personControls) share(tab int, on bool) {
	if u == nil || tab <= 0 {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if on {
		u.shared[tab] = time.Now()
	} else {
		delete(u.shared, tab)
	}
}

// isShared reports whether the person shared tab with agents.
func (u *personControls) isShared(tab int) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	_, ok := u.shared[tab]
	return ok
}

// latestShared returns the shared tabs, the most recently shared first.
func (u *personControls) latestShared() []int {
	u.mu.Lock()
	defer u.mu.Unlock()
	ids := make([]int, 0, len(u.shared))
	for id := range u.shared {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b int) int { return u.shared[b].Compare(u.shared[a]) })
	return ids
}

// policyInfo reports the policy file and the policy in force.
func (u *personControls) policyInfo() protocol.PolicyInfo {
	st := u.policy.Status()
	p := u.policy.Current()
	return protocol.PolicyInfo{File: st.File, Loaded: st.Loaded, Error: st.Error, Missing: st.Missing,
		Tabs: string(p.Tabs), Default: p.DefaultRule.String(), Rules: len(p.Entries)}
}

// fillStatus adds the person's controls to the host's status.
func (u *personControls) fillStatus(st *protocol.Status) {
	if u == nil {
		return
	}
	ps := u.state()
	st.Paused, st.PausedBy, st.Lift = ps.Paused, ps.PausedBy, ps.Lift
	info := u.policyInfo()
	st.Policy = &info
}

// record adds an entry to the record of what agents did.
func (u *personControls) record(e actlog.Entry) {
	if u.log == nil {
		return
	}
	if err := u.log.Add(e); err != nil {
		u.slog.Warn("agent log: could not write", "err", err)
	}
}

// logEntries returns the record's entries q selects, for the wire.
func (u *personControls) logEntries(q actlog.Query) []protocol.LogEntry {
	out := []protocol.LogEntry{}
	if u.log == nil {
		return out
	}
	for _, e := range u.log.Recent(q) {
		out = append(out, protocol.LogEntry{Time: e.Time.UTC().Format("2006-01-02T15:04:05.000Z07:00"), Tab: e.Tab, Origin: e.Origin,
			Action: e.Action, Target: e.Target, Detail: e.Detail, Outcome: e.Outcome, Rule: e.Rule, Confirmed: e.Confirmed, Client: e.Client, Session: e.Session})
	}
	return out
}

// decision describes how p decides rawURL, for the CLI and the popup.
func decision(p *policy.Policy, rawURL string) *protocol.RuleDecision {
	d := p.Decide(rawURL)
	rd := &protocol.RuleDecision{Rule: d.Rule.String(), Why: d.Why()}
	if o, ok := policy.ParseOrigin(rawURL); ok {
		rd.Origin = o.String()
	}
	if d.Entry != nil {
		rd.Pattern, rd.Line = d.Entry.Pattern.String(), d.Entry.Line
	}
	return rd
}

// policyResult answers OpPolicy.
func (u *personControls) policyResult(args protocol.PolicyArgs) protocol.PolicyResult {
	p := u.policy.Current()
	res := protocol.PolicyResult{Policy: u.policyInfo(), Text: p.Format()}
	if args.URL != "" {
		res.URL = args.URL
		res.Rule = decision(p, args.URL)
	}
	return res
}

// personView answers the popup's HostPersonView.
func (u *personControls) personView(args protocol.PersonViewParams) protocol.PersonView {
	p := u.policy.Current()
	v := protocol.PersonView{Paused: u.isPaused(), Policy: u.policyInfo(), Shared: u.isShared(args.TabID)}
	if args.URL != "" {
		v.Rule = decision(p, args.URL)
	}
	v.Log = u.logEntries(actlog.Query{Tab: args.TabID, Limit: 5})
	v.Owner = u.ownerOf(args.TabID)
	v.Sessions = u.sessionViews()
	if u.log != nil {
		v.OtherTabs = u.log.CountOthers(args.TabID)
	}
	return v
}

// clientKey carries the connection's client name (its hello's client
// field) to the requests of that connection.
type clientKey struct{}

func withClient(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, clientKey{}, name)
}

func clientOf(ctx context.Context) string {
	if s, ok := ctx.Value(clientKey{}).(string); ok && s != "" {
		return s
	}
	return "unknown"
}

// cleanClient keeps a client's self-given name printable and short: it
// ends up in the log, the popup and notifications.
func cleanClient(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return -1
	}, s)
	if r := []rune(strings.TrimSpace(s)); len(r) > 64 {
		s = string(r[:64])
	}
	return strings.TrimSpace(s)
}

// helloClient reads the client name of a socket hello.
func helloClient(req protocol.Request) string {
	var args protocol.HelloArgs
	if decodeArgs(req.Args, &args) != nil {
		return ""
	}
	return cleanClient(args.Client)
}

func randomID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// extensionAnswer answers one request of the extension from its raw params.
type extensionAnswer func(h *Host, ctx context.Context, raw json.RawMessage) (any, error)

// answers is the entry of the request c: its params decode into c's type,
// and the handler returns c's reply type.
func answers[P, R any](_ protocol.HostCall[P, R], run func(h *Host, ctx context.Context, p P) (R, error)) extensionAnswer {
	return func(h *Host, ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if _, none := any(&p).(*protocol.NoParams); !none {
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "", "%v", err)
			}
		}
		return run(h, ctx, p)
	}
}

// extensionRequests is the table of the extension's requests
// (protocol.HostCalls: the popup's), one entry each; host/operations_test.go
// holds it to the list.
func extensionRequests() map[string]extensionAnswer {
	extensionRequestsOnce.Do(func() { extensionRequestTable = buildExtensionRequests() })
	return extensionRequestTable
}

var (
	extensionRequestsOnce sync.Once
	extensionRequestTable map[string]extensionAnswer
)

func buildExtensionRequests() map[string]extensionAnswer {
	return map[string]extensionAnswer{
		string(protocol.HostStatus): answers(protocol.HostStatus, func(h *Host, _ context.Context, _ protocol.NoParams) (protocol.Status, error) {
			return h.status(), nil
		}),
		string(protocol.HostSnapshot): answers(protocol.HostSnapshot, func(h *Host, ctx context.Context, args protocol.SnapshotArgs) (protocol.Snapshot, error) {
			snap, err := h.snapshot(asPerson(ctx), args)
			if err != nil {
				return protocol.Snapshot{}, err
			}
			return *snap, nil
		}),
		string(protocol.HostSetPaused): answers(protocol.HostSetPaused, func(h *Host, _ context.Context, p protocol.PausedParams) (protocol.PersonState, error) {
			h.log.Info("the person set the pause from the browser", "paused", p.Paused)
			return h.person.setPaused(p.Paused, ""), nil
		}),
		string(protocol.HostSetShared): answers(protocol.HostSetShared, func(h *Host, _ context.Context, p protocol.SharedParams) (protocol.PersonState, error) {
			u := h.person
			if p.Shared {
				u.release(p.TabID) // a tab the person shares is theirs to share
			}
			u.share(p.TabID, p.Shared)
			return u.state(), nil
		}),
		string(protocol.HostEndSession): answers(protocol.HostEndSession, func(h *Host, _ context.Context, p protocol.SessionParams) (protocol.PersonState, error) {
			return h.sessionAccess(false, p.Session)
		}),
		string(protocol.HostAllowSession): answers(protocol.HostAllowSession, func(h *Host, _ context.Context, p protocol.SessionParams) (protocol.PersonState, error) {
			return h.sessionAccess(true, p.Session)
		}),
		string(protocol.HostReleaseTab): answers(protocol.HostReleaseTab, func(h *Host, _ context.Context, p protocol.TabParams) (protocol.PersonState, error) {
			h.person.release(p.TabID)
			return h.person.state(), nil
		}),
		string(protocol.HostSaveRecording): answers(protocol.HostSaveRecording, func(h *Host, _ context.Context, p protocol.SaveRecordingParams) (protocol.SavedRecording, error) {
			return h.saveRecording(p) // host/person_record.go
		}),
		string(protocol.HostPersonView): answers(protocol.HostPersonView, func(h *Host, _ context.Context, p protocol.PersonViewParams) (protocol.PersonView, error) {
			return h.person.personView(p), nil
		}),
	}
}

// tellExtension sends the extension a notice about the person's controls
// in the background: the badge and the popup follow, and the agent's
// reply does not wait for them. Notices go out one at a time in the order
// they were made, so a pause and the resume after it cannot arrive the
// other way round.
func tellExtension[P, R any](ctx context.Context, h *Host, c protocol.ExtCall[P, R], params P) <-chan struct{} {
	done := make(chan struct{})
	h.notices.add(func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := extCall[P, R](ctx, h.port, c, params, nil); err != nil {
			h.log.Warn("could not tell the extension", "request", string(c), "err", err)
		}
	})
	return done
}

// noticeQueue runs the host's notices to the extension in order, one at
// a time, on a goroutine that lives while there are any.
type noticeQueue struct {
	mu      sync.Mutex
	pending []func() // guarded by mu
	running bool     // a goroutine is draining pending; guarded by mu
}

func (q *noticeQueue) add(send func()) {
	q.mu.Lock()
	q.pending = append(q.pending, send)
	if q.running {
		q.mu.Unlock()
		return
	}
	q.running = true
	q.mu.Unlock()
	go func() {
		for {
			q.mu.Lock()
			if len(q.pending) == 0 {
				q.running = false
				q.mu.Unlock()
				return
			}
			next := q.pending[0]
			q.pending = q.pending[1:]
			q.mu.Unlock()
			next()
		}
	}()
}
