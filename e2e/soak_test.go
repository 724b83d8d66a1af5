package e2e

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// TestSoakNoWrongElement is the randomized soak of the actions issue:
// seeded inserts, removals, re-parenting, re-renders, renames and
// detach/re-attach, with clicks on refs held from earlier snapshots. Every
// click either lands on the element its ref was issued for or is refused;
// a click anywhere else fails the test.
func TestSoakNoWrongElement(t *testing.T) {
	browsertest.Need(t, env)
	steps := 2000
	if s := os.Getenv("GRIP_SOAK_STEPS"); s != "" {
		steps, _ = strconv.Atoi(s)
	}
	if testing.Short() {
		steps = 300
	}
	soak(t, steps, 20261130, []string{""})
}

// TestSoakSessions is the soak with two sessions at once, each on its own
// tab (docs/sessions.md, "Sessions"): besides its own refs, each
// clicks the other session's; those must be refused with not_your_tab and
// leave both pages untouched.
func TestSoakSessions(t *testing.T) {
	browsertest.Need(t, env)
	steps := 1000
	if s := os.Getenv("GRIP_SOAK_STEPS"); s != "" {
		steps, _ = strconv.Atoi(s)
	}
	if testing.Short() {
		steps = 200
	}
	soak(t, steps, 20261201, []string{"soak-a", "soak-b"})
}

// soakTab is one session's tab in the soak and what it holds of it.
type soakTab struct {
	session string
	tab     int
	url     string
	c       *client.Client
	eval    func(expr string, out any)
	held    map[string]string // ref → data-uid of the element it was issued for
	refs    []string
}

// soak runs steps random steps over one tab per session ("" is the
// default session).
func soak(t *testing.T, steps int, seed uint64, sessions []string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed))
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	var tabs []*soakTab
	for i, session := range sessions {
		st := &soakTab{session: session, url: env.Origin1 + "/soak.html", held: map[string]string{}}
		if len(sessions) > 1 {
			st.url += "?session=" + strconv.Itoa(i)
			st.tab = openSessionTab(t, session, st.url)
		} else {
			st.tab = env.OpenTab(t, st.url)
		}
		pctx, pcancel := env.TabContext(t, st.url)
		defer pcancel()
		st.eval = func(expr string, out any) {
			t.Helper()
			ctx, cancel := context.WithTimeout(pctx, 10*time.Second)
			defer cancel()
			var err error
			switch o := out.(type) {
			case *string:
				*o, err = chromedp.Run(ctx, chromedp.Evaluate[string](expr))
			case *int:
				*o, err = chromedp.Run(ctx, chromedp.Evaluate[int](expr))
			default:
				_, err = chromedp.Run(ctx, chromedp.Evaluate[any](expr))
			}
			if err != nil {
				t.Fatalf("eval %s: %v", expr, err)
			}
		}
		c, err := client.Connect(ctx, client.Options{RuntimeDir: statedir.At(env.StateDir).Runtime, Wait: 10 * time.Second, Session: session})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		st.c = c
		tabs = append(tabs, st)
	}

	takeSnapshot := func(st *soakTab) {
		var snap protocol.Snapshot
		if err := st.c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: st.tab}, &snap); err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		for _, f := range snap.Frames {
			for _, e := range f.Elements {
				if _, ok := st.held[e.Ref]; ok {
					continue // an old ref: it must still name the same uid
				}
				var uid string
				st.eval("uidOfText("+strconv.Quote(e.Name)+")", &uid)
				if uid == "" {
					continue // ambiguous text (a re-render twin): not held
				}
				st.held[e.Ref] = uid
				st.refs = append(st.refs, e.Ref)
			}
		}
	}
	for _, st := range tabs {
		takeSnapshot(st)
	}
	clicks := func() []int {
		out := make([]int, len(tabs))
		for i, st := range tabs {
			st.eval("window.__log.length", &out[i])
		}
		return out
	}
	outcomes := map[string]int{}
	mutations := []string{"insert", "remove", "reparent", "rerender", "rename", "detachReattach"}
	for i := 0; i < steps; i++ {
		st := tabs[rng.IntN(len(tabs))]
		switch p := rng.Float64(); {
		case p < 0.35:
			m := mutations[rng.IntN(len(mutations))]
			st.eval(fmt.Sprintf("soak.%s(%v)", m, rng.Float64()), nil)
			outcomes["mutation:"+m]++
		case p < 0.45:
			takeSnapshot(st)
			outcomes["snapshot"]++
		default:
			// Mostly its own refs; with several sessions, one click in
			// five on another session's ref.
			owner := st
			if len(tabs) > 1 && rng.IntN(5) == 0 {
				owner = tabs[(slices.Index(tabs, st)+1+rng.IntN(len(tabs)-1))%len(tabs)]
			}
			if len(owner.refs) == 0 {
				continue
			}
			// Mostly recent refs (live ones get clicked), sometimes any.
			ref := owner.refs[rng.IntN(len(owner.refs))]
			if rng.IntN(4) > 0 {
				ref = owner.refs[len(owner.refs)-1-rng.IntN(min(len(owner.refs), 30))]
			}
			before := clicks()
			var res protocol.ActionResult
			err := st.c.Call(ctx, protocol.OpAct, protocol.ActArgs{Action: protocol.ActClick, Target: ref}, &res)
			after := clicks()
			var perr *protocol.Error
			switch {
			case owner != st:
				// A ref the host has forgotten altogether is unknown_ref:
				// nothing of the other session's page is said either way.
				if !errors.Is(err, protocol.ErrNotYourTab) && !errors.Is(err, protocol.ErrUnknownRef) {
					t.Fatalf("step %d: session %s clicked %s of session %s's tab: %v, want not_your_tab", i, st.session, ref, owner.session, err)
				}
				if fmt.Sprint(after) != fmt.Sprint(before) {
					t.Fatalf("step %d: a click refused as not_your_tab changed the pages' logs %v → %v", i, before, after)
				}
				outcomes["refused:not_your_tab (another session's ref)"]++
			case err == nil:
				var last string
				st.eval("window.__log[window.__log.length-1] || ''", &last)
				for j := range tabs {
					want := before[j]
					if tabs[j] == st {
						want++
					}
					if after[j] != want {
						t.Fatalf("step %d: click %s (issued for uid %s) on tab %d changed the logs %v → %v: WRONG ELEMENT", i, ref, st.held[ref], st.tab, before, after)
					}
				}
				if last != st.held[ref] {
					t.Fatalf("step %d: click %s (issued for uid %s) hit uid %q: WRONG ELEMENT", i, ref, st.held[ref], last)
				}
				outcomes["hit"]++
			case errors.As(err, &perr):
				if fmt.Sprint(after) != fmt.Sprint(before) {
					t.Fatalf("step %d: click %s refused (%v) but a page recorded a click (%v → %v)", i, ref, err, before, after)
				}
				outcomes["refused:"+string(perr.Code)]++
			default:
				t.Fatalf("step %d: click %s: %v", i, ref, err)
			}
		}
	}
	var keys []string
	for k := range outcomes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("soak outcome %-44s %d", k, outcomes[k])
	}
	if outcomes["hit"] == 0 || outcomes["refused:stale_ref"] == 0 {
		t.Errorf("soak exercised too little: %v", outcomes)
	}
	if len(tabs) > 1 && outcomes["refused:not_your_tab (another session's ref)"] == 0 {
		t.Errorf("no click tried another session's ref: %v", outcomes)
	}
}
