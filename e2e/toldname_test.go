package e2e

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// TestActOnWhatTheReplyTold: a counter renames itself on each click, and
// each click's reply tells the agent the new name; a click on the same
// ref then acts, since the agent was told what it now is. A change the
// reply did not tell (a rename behind its back) is still refused.
func TestActOnWhatTheReplyTold(t *testing.T) {
	browsertest.Need(t, env)
	tab, _ := openAct(t)
	pageEval(t, tab, `(() => { let n = 0; const b = document.createElement('button'); b.id = 'count'; b.textContent = 'Count 0';
		b.onclick = () => { b.textContent = 'Count ' + (++n); }; document.body.prepend(b); return 0; })()`)
	count := mustRef(t, snapshot(t, tab), "button", "Count 0")
	for i := 1; i <= 3; i++ {
		res, perr, code := act(t, "click", count)
		if code != 0 || perr != nil {
			t.Fatalf("click %d on %s: exit %d %+v", i, count, code, perr)
		}
		told := false
		for _, e := range res.Changes.Changed {
			told = told || e.Ref == count && e.Name == "Count "+string(rune('0'+i))
		}
		if !told {
			t.Fatalf("click %d: the reply does not tell the new name: %+v", i, res.Changes)
		}
	}
	pageEval(t, tab, `document.getElementById('count').textContent = 'Delete account'`)
	_, perr, code := act(t, "click", count)
	if code != 1 || perr == nil || perr.Code != protocol.CodeMeaningChanged || !strings.Contains(perr.Message, "Count 3") {
		t.Fatalf("click after a rename no reply told: exit %d %+v, want meaning_changed from 'Count 3'", code, perr)
	}
}
