package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

// Syncthing's forms (Bootstrap 3) put each label before its field in a
// .form-group, tied to it by nothing: the field is named by that label,
// inferred, and an agent acts on it by that name; a label beside two
// fields names neither, and a placeholder keeps its field's name. They
// read [combobox value='Send & Receive'] and [textbox value='jm3A…'
// readonly]. docs/snapshot.md, "Snapshot format".
func TestUntiedLabelsNameSyncthingsFields(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/syncthing-form.html")
	r := env.Grip(context.Background(), "snapshot", "--tab", fmt.Sprint(tab))
	if r.Code != 0 {
		t.Fatalf("snapshot: %s", r.Stderr)
	}
	for _, line := range []string{
		"[combobox 'Folder Type' value='Send & Receive' inferred]",
		"[spinbutton 'Rescan Interval' value='3600' inferred]",
		"[textbox 'API Key' value='jm3AqYkP2vR8' readonly inferred]",
		"[textbox 'e.g. Photos']",
		"[spinbutton value='22000']",
		"[spinbutton value='22010']",
	} {
		if !strings.Contains(r.Stdout, line) {
			t.Errorf("no %s:\n%s", line, r.Stdout)
		}
	}
	if strings.Contains(r.Stdout, "'Port Range'") || strings.Contains(r.Stdout, "'Folder Label'") {
		t.Errorf("a label names a field it is not the one label of, or over its own name:\n%s", r.Stdout)
	}
	res, perr, code := act(t, "select", "combobox 'Folder Type'", "Send Only", "--tab", fmt.Sprint(tab))
	if code != 0 {
		t.Fatalf("select by the label's name: exit %d %+v", code, perr)
	}
	if got := browsertest.Eval[string](t, env, env.TabURL(t, tab), "document.getElementById('type').value + ' ' + window.__log.join(',')"); got != "sendonly change:sendonly" {
		t.Errorf("the select holds %q (reply %+v)", got, res)
	}
}
