//go:build windows

package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/internal/wintest"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// asGrip makes this test binary grip.exe itself when a test starts it with
// GRIP_TEST_AS_GRIP=1: main, with the arguments after the program name.
func TestMain(m *testing.M) {
	if os.Getenv("GRIP_TEST_AS_GRIP") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func gripCmd(state string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "GRIP_TEST_AS_GRIP=1", statedir.EnvVar+"="+state)
	return cmd
}

// The agents' pipe end to end on Windows: grip.exe started the way Chrome
// on Windows starts a native host (its origin, then --parent-window=N),
// fed native-messaging frames by a fake extension on stdin, publishes its
// pipe in a state folder with a space and a non-ASCII letter in its path
// (a user name like "Zoë Smith"); a second grip.exe, the CLI, finds it,
// passes the host's token check, and lists the fake extension's tab; when
// the extension closes stdin the host exits and its pipe is gone.
func TestPipeRoundTripCLIToHost(t *testing.T) {
	state := filepath.Join(wintest.TempDir(t), "Zoë Smith", "AppData", "Local", "grip")
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		t.Fatal(err)
	}
	host := gripCmd(state, "chrome-extension://"+id+"/", "--parent-window=0")
	toHost, err := host.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	fromHost, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var hostErr strings.Builder
	host.Stderr = &hostErr
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- host.Wait() }()
	defer func() {
		toHost.Close()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			host.Process.Kill()
		}
	}()

	const profile = "0123456789abcdef"
	w := protocol.NewNativeWriter(toHost, protocol.MaxFromExtension)
	hello, _ := json.Marshal(protocol.ExtensionHello{Protocol: protocol.Version, Profile: profile, ExtensionVersion: "0.1.0"})
	if err := w.Write(protocol.NativeMessage{Type: "hello", Params: hello}); err != nil {
		t.Fatal(err)
	}
	// The fake extension answers what the host asks until stdin closes.
	welcomed := make(chan protocol.HostInfo, 1)
	go func() {
		r := protocol.NewNativeReader(fromHost, 0)
		for {
			var msg protocol.NativeMessage
			if err := r.Read(&msg); err != nil {
				return
			}
			switch msg.Type {
			case protocol.MsgWelcome:
				var info protocol.HostInfo
				_ = json.Unmarshal(msg.Params, &info)
				welcomed <- info
			case "documents":
				_ = w.Write(protocol.NativeMessage{ID: msg.ID, Result: json.RawMessage(`{"documents":[]}`)})
			case string(protocol.ExtTabs):
				_ = w.Write(protocol.NativeMessage{ID: msg.ID, Result: json.RawMessage(`{"tabs":[{"id":5,"url":"http://x/","title":"Zoë's tab","active":true}]}`)})
			default:
				if msg.ID != 0 {
					_ = w.Write(protocol.NativeMessage{ID: msg.ID, Error: &protocol.Error{Code: protocol.CodeBadRequest, Message: "fake: " + msg.Type}})
				}
			}
		}
	}()
	var info protocol.HostInfo
	select {
	case info = <-welcomed:
	case err := <-exited:
		t.Fatalf("host exited before its welcome: %v\n%s", err, hostErr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("no welcome from the host\n%s", hostErr.String())
	}
	if !strings.HasPrefix(info.Socket, `\\.\pipe\grip-`) {
		t.Fatalf("host's socket is %q, want a named pipe", info.Socket)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "tabs", "--json")
	cmd.Env = gripCmd(state).Env
	got, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("grip tabs: %v: %s\nhost: %s", err, ee.Stderr, hostErr.String())
		}
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "Zoë's tab") {
		t.Fatalf("grip tabs --json = %s", got)
	}

	toHost.Close()
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatalf("host did not exit on stdin EOF\n%s", hostErr.String())
	}
	dctx, dcancel := context.WithTimeout(context.Background(), time.Second)
	defer dcancel()
	if c, err := client.Dial(dctx, info); err == nil {
		c.Close()
		t.Fatalf("%s still answers after the host exited", info.Socket)
	}
}

// grip.exe install, doctor and uninstall against Wine's registry, for a
// user "Zoë Smith" with grip.exe under "Program Files": install writes
// Chrome's HKCU key and manifest, doctor reads them back as right, and
// uninstall removes the key. It writes HKCU, so it runs only under Wine
// (scripts/test-windows gives it a prefix of its own).
func TestWindowsInstallDoctorUninstall(t *testing.T) {
	if !wintest.Wine() {
		t.Skip("writes HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts: run under Wine (scripts/test-windows), not in a person's own registry")
	}
	root := wintest.TempDir(t)
	home := filepath.Join(root, "Users", "Zoë Smith")
	lad := filepath.Join(home, "AppData", "Local")
	// go test's binary lives in a go-build folder, which install refuses
	// to name (Go deletes it): a copy in a lasting place is grip.exe.
	exe := filepath.Join(root, "Program Files", "grip", "grip.exe")
	b, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GRIP_TEST_AS_GRIP=1", "USERPROFILE="+home, "LOCALAPPDATA="+lad, statedir.EnvVar+"=")
	grip := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(exe, args...)
		cmd.Env = env
		out, err := cmd.Output()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && args[0] == "doctor") {
			t.Fatalf("grip %s: %v\n%s%s", strings.Join(args, " "), err, out, stderrOf(err))
		}
		return out
	}
	var inst struct {
		Manifests []string `json:"manifests"`
	}
	if err := json.Unmarshal(grip("install", "--browser", "chrome", "--json"), &inst); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(lad, "grip", "NativeMessagingHosts", "chrome", "dev.grip.host.json")
	if len(inst.Manifests) != 1 || inst.Manifests[0] != want {
		t.Fatalf("install wrote %v, want %s", inst.Manifests, want)
	}
	var rep struct {
		Checks []struct {
			Name, Detail, Fix string
			OK                bool
		} `json:"checks"`
	}
	if err := json.Unmarshal(grip("doctor", "--json"), &rep); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range rep.Checks {
		if c.Name == "Google Chrome host manifest" {
			found = true
			if !c.OK {
				t.Errorf("doctor: %s: %s (fix: %s)", c.Name, c.Detail, c.Fix)
			}
		}
	}
	if !found {
		t.Errorf("doctor has no Chrome manifest check: %+v", rep.Checks)
	}
	var un struct {
		Removed []string `json:"removed"`
	}
	if err := json.Unmarshal(grip("uninstall", "--json"), &un); err != nil {
		t.Fatal(err)
	}
	const key = `HKCU\Software\Google\Chrome\NativeMessagingHosts\dev.grip.host`
	if !slices.Contains(un.Removed, key) || !slices.Contains(un.Removed, want) {
		t.Errorf("uninstall removed %v, want %s and %s", un.Removed, key, want)
	}
}

func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(ee.Stderr)
	}
	return ""
}
