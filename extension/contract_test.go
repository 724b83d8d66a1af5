package extension_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTscCatchesContractDrift: tsc, checking the worker and the kernel
// against protocol.d.ts (generated from protocol's Go types, see
// docs/wire.md, "Wire formats"), refuses a copy of the extension
// with a reply field, a params field, an error code, an event kind and a
// host request each misnamed. (A handler missing from or added to
// router.js's table: tsc too, and TestRouterHandlesExactlyExtRequests in
// package protocol without it.) Skipped without the JS tools
// (scripts/setup --js) and with -short: one tsc run takes seconds.
func TestTscCatchesContractDrift(t *testing.T) {
	if testing.Short() {
		t.Skip("one tsc run takes seconds")
	}
	modules, err := filepath.Abs(filepath.Join("..", ".ci", "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	tsc := filepath.Join(modules, ".bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Skip("no tsc here: scripts/setup --js installs it")
	}
	root := t.TempDir()
	ext := filepath.Join(root, "extension")
	if err := os.CopyFS(ext, os.DirFS(".")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, ".ci"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(root, ".ci", "node_modules")); err != nil {
		t.Fatal(err)
	}
	changes := []struct{ file, from, to, want string }{
		{"worker/router.js", "tabs: async (p) => ({ tabs: await listTabs(p) })", "tabs: async (p) => ({ tab: await listTabs(p) })",
			"is not assignable to type 'TabsResult | Promise<TabsResult>'"},
		{"worker/router.js", "tab_info: (p) => tabInfo(tabOf(p))", "tab_info: (p) => tabInfo(p.tab)",
			"Property 'tab' does not exist on type 'TabParams'"},
		{"kernel/keys.js", "fail('bad_request', 'node', 'press needs a key')", "fail('bad_requests', 'node', 'press needs a key')",
			`'"bad_requests"' is not assignable to parameter of type 'Code'`},
		{"worker/background.js", "notifyHost('tab_removed'", "notifyHost('tab_closed'",
			`'"tab_closed"' is not assignable to parameter of type 'EventKind'`},
		{"worker/popup-api.js", "askHost('status', {})", "askHost('stats', {})",
			`'"stats"' is not assignable to parameter of type 'keyof HostCalls'`},
	}
	for _, c := range changes {
		path := filepath.Join(ext, filepath.FromSlash(c.file))
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), c.from) {
			t.Fatalf("%s no longer has %q: update this test", c.file, c.from)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(string(src), c.from, c.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := exec.Command(tsc, "--noEmit", "-p", ext).CombinedOutput()
	out := string(b)
	if err == nil {
		t.Fatalf("tsc accepted the misnamed copy:\n%s", out)
	}
	for _, c := range changes {
		if !strings.Contains(out, c.want) {
			t.Errorf("tsc let %s's %q pass; want an error containing %s", c.file, c.to, c.want)
		}
	}
	if t.Failed() {
		t.Logf("tsc:\n%s", out)
	}
}
