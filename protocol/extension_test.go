package protocol_test

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/protocol"
)

// readExtensionFile returns one of the extension's files as shipped.
func readExtensionFile(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(extension.Files(), name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRouterHandlesExactlyExtRequests fails when the worker's router and
// the Go list of requests disagree: a request the host sends that the
// worker does not know, or one the worker answers that the host never
// sends.
func TestRouterHandlesExactlyExtRequests(t *testing.T) {
	src := readExtensionFile(t, "router.js")
	start := strings.Index(src, "export async function handleHostRequest")
	if start < 0 {
		t.Fatal("router.js has no handleHostRequest")
	}
	body := src[start:]
	if end := strings.Index(body, "\n}\n"); end >= 0 {
		body = body[:end]
	}
	var got []string
	for _, m := range regexp.MustCompile(`case '([a-z_]+)':`).FindAllStringSubmatch(body, -1) {
		got = append(got, m[1])
	}
	want := slices.Clone(protocol.ExtRequests)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("router.js handles %v\nprotocol.ExtRequests lists %v", got, want)
	}
}

// TestPopupAsksOnlyHostRequests: every askHost call of the worker names a
// request the host answers.
func TestPopupAsksOnlyHostRequests(t *testing.T) {
	known := protocol.HostRequests
	n := 0
	for _, file := range []string{"popup-api.js", "native-port.js", "background.js", "person.js"} {
		for _, m := range regexp.MustCompile(`askHost\('([a-z_]+)'`).FindAllStringSubmatch(readExtensionFile(t, file), -1) {
			n++
			if !slices.Contains(known, m[1]) {
				t.Errorf("%s asks the host for %q, which it does not answer (known: %v)", file, m[1], known)
			}
		}
	}
	if n == 0 {
		t.Error("found no askHost call: the test no longer reads the worker's code")
	}
}

// TestEventKindsAreSent: the event kinds the host reacts to are the ones
// the worker sends.
func TestEventKindsAreSent(t *testing.T) {
	src := readExtensionFile(t, "background.js")
	var got []string
	for _, m := range regexp.MustCompile(`notifyHost\('([a-z_]+)'`).FindAllStringSubmatch(src, -1) {
		got = append(got, m[1])
	}
	slices.Sort(got)
	want := slices.Clone(protocol.EventKinds)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("background.js sends events %v, the host knows %v", got, want)
	}
}

// TestActionTable checks the table's own consistency.
func TestActionTable(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range protocol.Actions {
		if seen[a.Name] {
			t.Errorf("%s listed twice", a.Name)
		}
		seen[a.Name] = true
		if !a.InPage() && (a.Target != protocol.TargetNone || a.Trusted) {
			t.Errorf("%s: a tab action takes no element and has no trusted form", a.Name)
		}
		if a.Files && (!a.InPage() || a.Target != protocol.TargetRequired || a.Text != "") {
			t.Errorf("%s: files go into an element in the page, with no text", a.Name)
		}
		if !a.InPage() && !slices.Contains(protocol.ExtRequests, a.Ext) {
			t.Errorf("%s: extension request %q is not in ExtRequests", a.Name, a.Ext)
		}
		if got, ok := protocol.LookupAction(a.Name); !ok || got.Name != a.Name {
			t.Errorf("LookupAction(%q) = %v, %v", a.Name, got, ok)
		}
	}
	if _, ok := protocol.LookupAction("explode"); ok {
		t.Error("LookupAction found an action that does not exist")
	}
}

// TestKernelKnowsTheInPageActions: the kernel carries out exactly the
// actions the table says run in the page, and needs an element for exactly
// those that require a target.
func TestKernelKnowsTheInPageActions(t *testing.T) {
	src := readExtensionFile(t, "kernel/run.js")
	list := func(name string) []string {
		m := regexp.MustCompile(`const ` + name + ` = new Set\(\[([^\]]*)\]\)`).FindStringSubmatch(src)
		if m == nil {
			t.Fatalf("kernel/run.js has no %s set", name)
		}
		var out []string
		for _, q := range regexp.MustCompile(`'([a-z_]+)'`).FindAllStringSubmatch(m[1], -1) {
			out = append(out, q[1])
		}
		return out
	}
	needsNode := list("NEEDS_NODE")
	known := append(slices.Clone(needsNode), "press", "scroll")
	if !strings.Contains(src, "const KNOWN = new Set([...NEEDS_NODE, 'press', 'scroll'])") {
		t.Fatal("kernel/run.js's KNOWN is no longer NEEDS_NODE + press + scroll: update this test")
	}
	var inPage, required []string
	for _, a := range protocol.Actions {
		if a.InPage() {
			inPage = append(inPage, a.Name)
			if a.Target == protocol.TargetRequired {
				required = append(required, a.Name)
			}
		}
	}
	for _, l := range [][]string{known, inPage, needsNode, required} {
		slices.Sort(l)
	}
	if !slices.Equal(known, inPage) {
		t.Errorf("the kernel knows %v, the table runs %v in the page", known, inPage)
	}
	if !slices.Equal(needsNode, required) {
		t.Errorf("the kernel needs an element for %v, the table for %v", needsNode, required)
	}
}
