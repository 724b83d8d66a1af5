package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// The one gate (docs/person.md, "The person's controls";
// host/gate.go): every operation of protocol.Operations is walked against
// each place an agent may not reach, over the socket with the row's own
// types, and none may go through.

// gatePlace is one place an agent may not reach: a tab, how to name an
// element in it, and the texts that must never come back from it.
type gatePlace struct {
	name string
	tab  int
	// target names an element of the place by CSS (in a blocked frame,
	// through the frame), ref by the ref a snapshot gave it while every
	// site was open.
	target, ref string
	// whole says the whole tab is out of reach; else only a frame of it
	// is (its page is allowed), and what reads the page without the frame
	// may answer.
	whole   bool
	secrets []string
}

// gateCases are the arguments of each operation at a place; pause and
// resume, which change only the person's switch and read no page, have
// none (nil): their row must say they read nothing and do not act.
// TestEveryOperationPassesTheGate fails on a row with no entry here.
var gateCases = map[string]func(p gatePlace) any{
	protocol.OpHello:    func(gatePlace) any { return protocol.HelloArgs{} },
	protocol.OpStatus:   func(gatePlace) any { return protocol.NoParams{} },
	protocol.OpTabs:     func(gatePlace) any { return protocol.NoParams{} },
	protocol.OpSnapshot: func(p gatePlace) any { return protocol.SnapshotArgs{Tab: p.tab, Mode: protocol.ModeContent} },
	protocol.OpRead:     func(p gatePlace) any { return protocol.ReadArgs{Tab: p.tab, Target: p.ref} },
	protocol.OpAct: func(p gatePlace) any {
		return protocol.ActArgs{Action: protocol.ActClick, Tab: p.tab, Target: p.target}
	},
	protocol.OpWait:       func(p gatePlace) any { return protocol.WaitArgs{Tab: p.tab, Text: "Balance", TimeoutMS: 2000} },
	protocol.OpScreenshot: func(p gatePlace) any { return protocol.ScreenshotArgs{Tab: p.tab} },
	protocol.OpDialog:     func(p gatePlace) any { return protocol.DialogArgs{Tab: p.tab} },
	protocol.OpDownloads:  func(gatePlace) any { return protocol.DownloadsArgs{} },
	protocol.OpPause:      nil,
	protocol.OpResume:     nil,
	protocol.OpLog:        func(p gatePlace) any { return protocol.LogArgs{Tab: p.tab} },
	protocol.OpPolicy:     func(gatePlace) any { return protocol.PolicyArgs{URL: env.Origin2 + "/"} },
	protocol.OpRecord:     func(gatePlace) any { return protocol.RecordArgs{Action: protocol.RecordStatus} },
	protocol.OpConsole:    func(p gatePlace) any { return protocol.ConsoleArgs{Tab: p.tab} },
	protocol.OpNetwork:    func(p gatePlace) any { return protocol.NetworkArgs{Tab: p.tab, All: true} },
	// A body's id is guessed: each of the first ids is tried (gateBodies).
	protocol.OpNetworkBody:     func(p gatePlace) any { return protocol.NetworkBodyArgs{Tab: p.tab} },
	protocol.OpEval:            func(p gatePlace) any { return protocol.EvalArgs{Tab: p.tab, Expression: "document.body.innerText"} },
	protocol.OpPDF:             func(p gatePlace) any { return protocol.PDFArgs{Tab: p.tab} },
	protocol.OpScreenshotShape: func(p gatePlace) any { return protocol.ScreenshotShapeArgs{Tab: p.tab, Refs: true} },
	protocol.OpHandoff: func(p gatePlace) any {
		return protocol.HandoffArgs{Tab: p.tab, Why: "gate test", TimeoutMS: 1000}
	},
	protocol.OpCancel: func(gatePlace) any { return protocol.CancelArgs{Request: 1 << 40} },
	// A window whose tab is not the session's to change (a blocked page,
	// another session's tab) is never resized.
	protocol.OpResize: func(p gatePlace) any { return protocol.ResizeArgs{Tab: p.tab, Width: 1024, Height: 700} },
}

// TestEveryOperationPassesTheGate walks every operation of the table
// against a blocked tab, a blocked frame in an allowed page, a blank
// window (no origin of its own) a blocked page opened and wrote into, and
// another session's tab. What reads or acts on a whole place is refused
// (policy, or not_your_tab); what reads only the allowed part of a page
// with a blocked frame, and every list, may answer, but nothing of the
// place comes back — in a reply or a refusal. An operation added to the
// table without a case here fails, with or without a browser.
func TestEveryOperationPassesTheGate(t *testing.T) {
	for _, row := range protocol.Operations() {
		mk, ok := gateCases[row.Name]
		if !ok {
			t.Errorf("the operation %s has no case in gateCases: say how it is walked against the places agents may not reach", row.Name)
		}
		if ok && mk == nil && (row.Reads != protocol.ReachNone || row.Acts) {
			t.Errorf("%s has no arguments in gateCases, but its row reads %s (acts %v)", row.Name, row.Reads, row.Acts)
		}
	}
	for name := range gateCases {
		if _, ok := protocol.OperationNamed(name); !ok {
			t.Errorf("gateCases has %s, no row of protocol.Operations", name)
		}
	}
	browsertest.Need(t, env)
	const me, other = "gate-agent", "gate-other"
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()

	// The places, while every site is open: each shows its secret, so a
	// leak would be seen.
	blocked := env.OpenTab(t, env.Origin2+"/trust-frame.html?secret=tok")
	framed := env.OpenTab(t, env.Origin1+"/trust-top.html?frame="+env.Origin2)
	opener := env.OpenTab(t, env.Origin2+"/opener.html")
	var snap protocol.Snapshot
	if code := gripAs(t, me, &snap, "snapshot", "--tab", fmt.Sprint(opener)); code != 0 {
		t.Fatalf("snapshot of the opener: exit %d", code)
	}
	var opened struct {
		protocol.ActionResult
		Error *protocol.Error `json:"error"`
	}
	if code := gripAs(t, me, &opened, "click", mustRef(t, snap, "button", "Open")); code != 0 || len(opened.Opened) != 1 {
		t.Fatalf("click Open: exit %d, opened %+v, error %+v", code, opened.Opened, opened.Error)
	}
	blank := opened.Opened[0].Tab
	t.Cleanup(func() { env.Grip(context.Background(), "tabs", "close", fmt.Sprint(blank)) })
	theirs := openSessionTab(t, other, env.Origin1+"/trust-frame.html?who=other-secret")
	places := []gatePlace{
		{name: "a blocked tab", tab: blocked, target: "#balance", whole: true, secrets: []string{"5,123", "secret=tok", "Bank frame"}},
		{name: "a blocked frame", tab: framed, target: "iframe#f >>> #balance", secrets: []string{"5,123", "Bank frame"}},
		{name: "a blank window of a blocked page", tab: blank, target: "button", whole: true, secrets: []string{"5123"}},
		{name: "another session's tab", tab: theirs, target: "#balance", whole: true, secrets: []string{"5,123", "other-secret", "Bank frame"}},
	}
	// Their requests are captured and they load once more, so a body of
	// each is there to be asked for.
	for _, tab := range []int{blocked, framed} {
		env.MustGrip(t, "--session", me, "network", "--tab", fmt.Sprint(tab))
		env.MustGrip(t, "--session", me, "reload", "--tab", fmt.Sprint(tab))
	}
	for i, p := range places {
		as := me
		if p.tab == theirs {
			as = other
		}
		var s protocol.Snapshot
		if code := gripAs(t, as, &s, "snapshot", "--mode", "content", "--tab", fmt.Sprint(p.tab)); code != 0 || !strings.Contains(s.Text, p.secrets[0]) {
			t.Fatalf("%s does not show %q while every site is open (exit %d):\n%s", p.name, p.secrets[0], code, s.Text)
		}
		for _, f := range s.Frames {
			for _, e := range f.Elements {
				if strings.Contains(e.Name, p.secrets[0]) {
					places[i].ref = e.Ref
				}
			}
		}
		if places[i].ref == "" {
			t.Fatalf("no element of %s says %q:\n%s", p.name, p.secrets[0], s.Text)
		}
	}
	c, err := client.Connect(ctx, client.Options{RuntimeDir: statedir.At(env.StateDir).Runtime, Wait: 10 * time.Second, Session: me})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// While the site is open, one of the blocked tab's requests has its
	// page as its body: found by listing them, not by guessing, and
	// waited for (the reload may still be arriving). (It guessed the
	// first 40 ids, which a busy suite's tab had gone past.)
	bodyID := 0
	for deadline := time.Now().Add(15 * time.Second); bodyID == 0 && time.Now().Before(deadline); {
		var list protocol.NetworkResult
		if c.Call(ctx, protocol.OpNetwork, protocol.NetworkArgs{Tab: blocked, All: true}, &list) == nil {
			for _, r := range list.Requests {
				var body protocol.NetworkBody
				if c.Call(ctx, protocol.OpNetworkBody, protocol.NetworkBodyArgs{Tab: blocked, ID: r.ID}, &body) == nil && strings.Contains(string(body.Body), "5,123") {
					bodyID = r.ID
					break
				}
			}
		}
		if bodyID == 0 {
			time.Sleep(200 * time.Millisecond)
		}
	}
	if bodyID == 0 {
		t.Fatal("no request of the blocked tab has its page as its body while every site is open")
	}
	bodyIDs := max(gateBodyIDs, bodyID+gateBodyIDs)

	setPolicy(t, "block "+hostOf(env.Origin2)+"\n")
	waitPolicy(t, env.Origin2+"/")
	var all []string
	for _, p := range places {
		all = append(all, p.secrets...)
	}
	for _, row := range protocol.Operations() {
		mk := gateCases[row.Name]
		if mk == nil {
			continue
		}
		for _, p := range places {
			t.Run(row.Name+" on "+p.name, func(t *testing.T) {
				if row.Name == protocol.OpNetworkBody {
					gateBodies(ctx, t, c, p, bodyIDs)
					return
				}
				res := reflect.New(row.Result).Interface()
				err := c.Call(ctx, row.Name, mk(p), res)
				judgeGate(t, row, p, all, res, err)
			})
		}
	}
}

// judgeGate fails when a request went through where it may not: it acted
// on or read a place that is out of reach, or anything of a place came
// back.
func judgeGate(t *testing.T, row protocol.Operation, p gatePlace, secrets []string, res any, err error) {
	t.Helper()
	var shown string
	if err != nil {
		e := protocol.AsError(err)
		shown = e.Message + " " + e.Hint
	} else {
		b, _ := json.Marshal(res)
		shown = string(b)
	}
	for _, s := range secrets {
		if strings.Contains(shown, s) {
			t.Errorf("%s on %s let %q through: %s", row.Name, p.name, s, cut(shown))
		}
	}
	mustRefuse := row.Acts || row.Reads == protocol.ReachEveryFrame || row.Reads >= protocol.ReachTab && p.whole
	if !mustRefuse {
		return
	}
	if err == nil || !slices.Contains([]protocol.Code{protocol.CodePolicy, protocol.CodeNotYourTab}, protocol.AsError(err).Code) {
		t.Errorf("%s on %s: %v, want it refused by the policy or as another session's tab; reply %s", row.Name, p.name, err, cut(shown))
	}
}

// gateBodyIDs is how many response ids past the one known to hold the
// blocked page gateBodies tries.
const gateBodyIDs = 40

// gateBodies asks for each of the first n response bodies of a place by
// id, as an agent guessing ids would: none may come back with anything of
// it.
func gateBodies(ctx context.Context, t *testing.T, c *client.Client, p gatePlace, n int) {
	t.Helper()
	row, _ := protocol.OperationNamed(protocol.OpNetworkBody)
	for id := 1; id <= n; id++ {
		var body protocol.NetworkBody
		err := c.Call(ctx, protocol.OpNetworkBody, protocol.NetworkBodyArgs{Tab: p.tab, ID: id}, &body)
		if err == nil && p.whole {
			t.Errorf("body %d of %s came back: %s", id, p.name, cut(body.URL))
		}
		judgeGate(t, row, p, p.secrets, &body, err)
	}
}

// waitPolicy waits until the host's policy blocks url: the file is read
// again a moment after it changes.
func waitPolicy(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var res protocol.PolicyResult
		if env.GripJSON(t, &res, "policy", url) == 0 && res.Rule != nil && res.Rule.Rule == "block" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the host did not take the new policy within 10s")
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// cut shortens what a failure quotes.
func cut(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
