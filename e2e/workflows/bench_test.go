package workflows_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
	"github.com/grip-dev/grip/workflow"
)

// tenSteps is a ten-step workflow on testdata/ten.html, as recorded.
const tenSteps = workflow.Header + `
fill textbox 'Week' with '{{WEEK}}'
fill textbox 'Team' with 'Platform'
fill textbox 'Shipped' with 'the importer'
fill textbox 'Blocked' with 'nothing'
fill spinbutton 'Hours' with '38'
select combobox 'Mood' with 'Fine'
check checkbox 'At risk'
fill textbox 'Notes' with 'quiet week'
fill textbox 'Owner' with 'ann'
click button 'Send report' then appears link 'View report'
`

// BenchmarkReplayTenSteps sets a replay of a ten-step workflow beside its
// floor: the same ten actions made directly through client.Ops with refs
// from one snapshot (and the same settling, which every action reply
// has). Both run in one process, alternating, on the same tab; no
// snapshot is read by a model in either. It reports the median of each
// and their ratio (target: replay/direct ≤ 1.5).
func BenchmarkReplayTenSteps(b *testing.B) {
	if env == nil {
		b.Skip("no browser")
	}
	ctx := context.Background()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: statedir.At(env.StateDir).Runtime, Wait: 20 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	ops := client.Ops{Caller: c}
	url := env.Origin1 + "/testdata/ten.html"
	tab := env.OpenTab(b, url)
	w, err := workflow.Parse(strings.NewReader(tenSteps))
	if err != nil {
		b.Fatal(err)
	}
	reload := func() {
		if _, err := ops.Act(ctx, protocol.ActArgs{Action: protocol.ActNavigate, Tab: tab, Text: url}); err != nil {
			b.Fatal(err)
		}
	}
	direct := func() {
		snap, err := ops.Snapshot(ctx, protocol.SnapshotArgs{Tab: tab})
		if err != nil {
			b.Fatal(err)
		}
		refs := map[string]string{}
		for _, f := range snap.Frames {
			for _, el := range f.Elements {
				refs[el.Role+" "+el.Name] = el.Ref
			}
		}
		for _, s := range w.Steps {
			text, _ := workflow.Expand(s.Text, map[string]string{"WEEK": "48"})
			args := protocol.ActArgs{Action: s.Verb, Target: refs[s.Target.Role+" "+s.Target.Name], Text: text}
			if _, err := ops.Act(ctx, args); err != nil {
				b.Fatalf("%s: %v", workflow.FormatStep(s), err)
			}
		}
	}
	replay := func() {
		if _, err := workflow.Replay(ctx, ops, w, workflow.Options{Tab: tab, Params: map[string]string{"WEEK": "48"}}); err != nil {
			b.Fatal(err)
		}
	}
	// Alternating, each timed alone (the page reloaded before each, off
	// the clock): the ratio is of runs made side by side.
	var dirs, reps []float64
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		order := []func(){direct, replay}
		times := []*[]float64{&dirs, &reps}
		if i%2 == 1 {
			order[0], order[1], times[0], times[1] = replay, direct, &reps, &dirs
		}
		for j, run := range order {
			b.StopTimer()
			reload()
			b.StartTimer()
			t0 := time.Now()
			run()
			*times[j] = append(*times[j], float64(time.Since(t0).Microseconds())/1000)
		}
	}
	md, mr := median(dirs), median(reps)
	b.ReportMetric(md, "direct-ms")
	b.ReportMetric(mr, "replay-ms")
	b.ReportMetric(mr/md, "replay/direct")
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
