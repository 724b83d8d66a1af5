package e2e

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// The whole chain: CLI → socket → host → native messaging → service
// worker → browser → back.
func TestTabsThroughTheWholeChain(t *testing.T) {
	browsertest.Need(t, env)
	url := env.Origin1 + "/home.html"
	id := env.OpenTab(t, url)
	var res protocol.TabsResult
	if code := env.GripJSON(t, &res, "tabs"); code != 0 {
		t.Fatalf("grip tabs --json: exit %d", code)
	}
	found := false
	for _, tab := range res.Tabs {
		if tab.ID == id {
			found = true
			if tab.URL != url || tab.Title != "Fixture Home" {
				t.Errorf("tab %d = %+v, want url %s title Fixture Home", id, tab, url)
			}
		}
	}
	if !found {
		t.Fatalf("grip tabs does not list tab %d: %+v", id, res.Tabs)
	}
	plain := env.MustGrip(t, "tabs")
	if !strings.Contains(plain, "Fixture Home") {
		t.Errorf("plain grip tabs lacks the fixture tab:\n%s", plain)
	}
}

// Killing the host makes the extension start a new one, and the next
// command works again.
func TestHostKilledIsRestarted(t *testing.T) {
	browsertest.Need(t, env)
	env.OpenTab(t, env.Origin1+"/home.html")
	first := currentHost(t)
	if err := syscall.Kill(first.PID, syscall.SIGKILL); err != nil {
		t.Fatalf("kill host %d: %v", first.PID, err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		var res protocol.TabsResult
		code := env.GripJSON(t, &res, "tabs")
		if code == 0 && len(res.Tabs) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("grip tabs never worked again after the host was killed (exit %d)", code)
		}
		time.Sleep(200 * time.Millisecond)
	}
	second := currentHost(t)
	if second.PID == first.PID {
		t.Fatalf("same host pid %d after SIGKILL", first.PID)
	}
	if second.Profile != first.Profile {
		t.Errorf("profile changed across host restart: %s → %s", first.Profile, second.Profile)
	}
}

func currentHost(t *testing.T) protocol.HostInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: statedir.At(env.StateDir).Runtime, Wait: 15 * time.Second})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer c.Close()
	return c.Info
}

// With no host, the CLI waits up to --wait, then says what to do.
func TestNoHostFailsClearly(t *testing.T) {
	bin := env.BinOrSkip(t)
	dir := t.TempDir()
	start := time.Now()
	r := browsertest.RunGrip(context.Background(), bin, dir, "tabs", "--wait", "300ms")
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "no_browser") || !strings.Contains(r.Stderr, "grip doctor") {
		t.Errorf("stderr does not say what to do: %s", r.Stderr)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %s for a 300ms wait", time.Since(start))
	}
	// The CLI waited on the runtime dir it made: private to the user.
	fi, err := os.Stat(statedir.At(dir).Runtime)
	if err != nil {
		t.Fatalf("the CLI did not make the runtime dir it waits on: %v", err)
	}
	if perm := fi.Mode().Perm(); perm != 0o700 {
		t.Errorf("runtime dir mode %o, want 700", perm)
	}
}

// The extension grip installed carries grip's build in its manifest, says
// it in its hello, and the host, from the same build, has no warning.
func TestExtensionAndHostFromOneBuild(t *testing.T) {
	browsertest.Need(t, env)
	st := statusOf(t, env)
	if st.Host.ExtensionBuild != extension.Build() || st.Host.Warning != "" {
		t.Errorf("extension build %q (want %q), warning %q", st.Host.ExtensionBuild, extension.Build(), st.Host.Warning)
	}
	r := env.Grip(context.Background(), "tabs")
	if strings.Contains(r.Stderr, "warning") {
		t.Errorf("a matched install warns: %s", r.Stderr)
	}
}
