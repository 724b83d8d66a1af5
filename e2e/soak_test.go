package e2e

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
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
	seed := uint64(20261130)
	rng := rand.New(rand.NewPCG(seed, seed))
	tab := env.OpenTab(t, env.Origin1+"/soak.html")
	pctx, pcancel := env.TabContext(t, env.Origin1+"/soak.html")
	defer pcancel()
	eval := func(expr string, out any) {
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
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: statedir.At(env.StateDir).Runtime, Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	held := map[string]string{} // ref → data-uid of the element it was issued for
	var refs []string
	takeSnapshot := func() {
		var snap protocol.Snapshot
		if err := c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: tab}, &snap); err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		for _, f := range snap.Frames {
			for _, e := range f.Elements {
				if _, ok := held[e.Ref]; ok {
					continue // an old ref: it must still name the same uid
				}
				var uid string
				eval("uidOfText("+strconv.Quote(e.Name)+")", &uid)
				if uid == "" {
					continue // ambiguous text (a re-render twin): not held
				}
				held[e.Ref] = uid
				refs = append(refs, e.Ref)
			}
		}
	}
	takeSnapshot()
	outcomes := map[string]int{}
	mutations := []string{"insert", "remove", "reparent", "rerender", "rename", "detachReattach"}
	for i := 0; i < steps; i++ {
		switch p := rng.Float64(); {
		case p < 0.35:
			m := mutations[rng.IntN(len(mutations))]
			eval(fmt.Sprintf("soak.%s(%v)", m, rng.Float64()), nil)
			outcomes["mutation:"+m]++
		case p < 0.45:
			takeSnapshot()
			outcomes["snapshot"]++
		default:
			if len(refs) == 0 {
				continue
			}
			// Mostly recent refs (live ones get clicked), sometimes any.
			ref := refs[rng.IntN(len(refs))]
			if rng.IntN(4) > 0 {
				ref = refs[len(refs)-1-rng.IntN(min(len(refs), 30))]
			}
			var before int
			eval("window.__log.length", &before)
			var res protocol.ActionResult
			err := c.Call(ctx, protocol.OpAct, protocol.ActArgs{Action: protocol.ActClick, Target: ref}, &res)
			var after int
			eval("window.__log.length", &after)
			var perr *protocol.Error
			switch {
			case err == nil:
				var last string
				eval("window.__log[window.__log.length-1] || ''", &last)
				if after != before+1 || last != held[ref] {
					t.Fatalf("step %d: click %s (issued for uid %s) hit uid %q (log %d→%d): WRONG ELEMENT", i, ref, held[ref], last, before, after)
				}
				outcomes["hit"]++
			case errors.As(err, &perr):
				if after != before {
					t.Fatalf("step %d: click %s refused (%v) but the page recorded a click", i, ref, err)
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
		t.Logf("soak outcome %-28s %d", k, outcomes[k])
	}
	if outcomes["hit"] == 0 || outcomes["refused:stale_ref"] == 0 {
		t.Errorf("soak exercised too little: %v", outcomes)
	}
}
