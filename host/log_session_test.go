package host

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/protocol"
)

// An agent is shown its own session's entries of the record; --all (the
// person's shell) and the popup see every session's.
func TestLogShowsTheSessionItsOwn(t *testing.T) {
	u := newTestControls()
	lg, err := actlog.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	u.log = lg
	h := &Host{person: u}
	now := time.Now()
	for _, e := range []actlog.Entry{
		{Time: now, Tab: 1, Action: "click", Outcome: "ok", Client: "a", Session: "alpha"},
		{Time: now, Tab: 2, Action: "fill", Outcome: "ok", Client: "b", Session: "beta"},
		{Time: now, Tab: 1, Action: "eval", Outcome: "ok", Client: "a", Session: "alpha"},
		{Time: now, Tab: 3, Action: "click", Outcome: "ok", Client: "cli", Session: protocol.DefaultSession},
		{Time: now, Tab: 3, Action: "click", Outcome: "ok", Client: "old"}, // before sessions
	} {
		u.record(e)
	}
	sessions := func(res protocol.LogResult) (out []string) {
		for _, e := range res.Entries {
			out = append(out, e.Session+"/"+e.Action)
		}
		return out
	}
	for _, c := range []struct {
		session string
		args    protocol.LogArgs
		want    []string
	}{
		{"alpha", protocol.LogArgs{}, []string{"alpha/click", "alpha/eval"}},
		{"beta", protocol.LogArgs{}, []string{"beta/fill"}},
		{"gamma", protocol.LogArgs{}, nil},
		{"", protocol.LogArgs{}, []string{protocol.DefaultSession + "/click"}},
		{"alpha", protocol.LogArgs{Tab: 2}, nil},
		{"alpha", protocol.LogArgs{All: true}, []string{"alpha/click", "beta/fill", "alpha/eval", protocol.DefaultSession + "/click", "/click"}},
	} {
		ctx := context.Background()
		if c.session != "" {
			ctx = withSession(ctx, c.session)
		}
		res, err := h.showLog(ctx, c.args)
		if err != nil {
			t.Fatal(err)
		}
		if got := sessions(res); !slices.Equal(got, c.want) {
			t.Errorf("session %q %+v: %v, want %v", c.session, c.args, got, c.want)
		}
	}
	if v := u.personView(protocol.PersonViewParams{}); len(v.Log) != 5 {
		t.Errorf("the popup shows %d entries, want every session's 5", len(v.Log))
	}
}

// An eval's record names the session that asked, like every action's, so
// that session is shown it and no other.
func TestEvalRecordCarriesItsSession(t *testing.T) {
	u := newTestControls()
	lg, err := actlog.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	u.log, u.paused = lg, true // refused before the page: the record is still written
	h := &Host{person: u}
	ctx := withSession(context.Background(), "alpha")
	if _, err := h.Eval(ctx, protocol.EvalArgs{Tab: 4, Expression: "document.title"}); !errors.Is(err, protocol.ErrPaused) {
		t.Fatalf("Eval while paused: %v", err)
	}
	got := lg.Recent(actlog.Query{})
	if len(got) != 1 || got[0].Action != protocol.OpEval || got[0].Session != "alpha" {
		t.Fatalf("the eval's record: %+v, want one of session alpha", got)
	}
	if res, _ := h.showLog(ctx, protocol.LogArgs{}); len(res.Entries) != 1 {
		t.Errorf("session alpha is not shown its eval: %+v", res.Entries)
	}
}
