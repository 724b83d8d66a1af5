package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/grip-dev/grip/install"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/protocol"
)

// mustInstallSystem installs grip system-wide into a fake machine with
// Chromium and returns an Env for a user without a manifest of their own,
// connected through the packed extension.
func mustInstallSystem(t *testing.T) (Env, install.SystemResult) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the host trusts a system receipt only when root owns it; run as root (CI does)")
	}
	root := t.TempDir()
	sys := filepath.Join(root, "sys")
	bin := filepath.Join(root, "bin", "grip")
	mustWrite(t, bin, "#!/bin/sh\n", 0o755)
	mustWrite(t, filepath.Join(sys, "usr", "lib", "chromium", "chromium"), "", 0o755)
	res, err := install.InstallSystem(install.SystemOptions{
		HostPath: bin, Root: sys, GOOS: "linux",
		ExtensionFS: fstest.MapFS{"manifest.json": {Data: []byte(`{"version":"1.0","key":"` + testKey + `"}`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	probe := func(context.Context) ([]protocol.HostInfo, []error) {
		return []protocol.HostInfo{{Protocol: protocol.Version, Profile: "p1", Browser: "chromium", ExtensionID: res.ExtensionID, PID: 42}}, nil
	}
	return Env{
		Home: filepath.Join(root, "home"), GOOS: "linux", Executable: bin, StateRoot: filepath.Join(root, "state"),
		ExtensionID: testID, Probe: probe, Getenv: func(string) string { return "" }, SystemRoot: sys,
	}, res
}

func TestSystemInstallServes(t *testing.T) {
	env, res := mustInstallSystem(t)
	r := Run(context.Background(), env)
	text := r.Text()
	if !r.OK || strings.Contains(text, "✗") || strings.Contains(text, "⚠") {
		t.Fatalf("a sound system-wide install is not clean:\n%s", text)
	}
	for _, want := range []string{
		"✓ system-wide install: extension " + res.ExtensionID + ", version 1.0.0",
		"✓ Chromium system-wide: " + res.ExternalExtensions[0],
		"✓ Chromium host manifest: none of your own; the system-wide install serves Chromium",
		"✓ extension connected",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

func TestSystemInstallFaults(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(t *testing.T, env *Env, res install.SystemResult)
		check  string
		detail string
	}{
		{
			name: "a user's own manifest allows only the unpacked extension",
			break_: func(t *testing.T, env *Env, res install.SystemResult) {
				h, _ := manifest.NewHost(env.Executable, testID)
				b, _ := h.Marshal()
				mustWrite(t, filepath.Join(env.Home, ".config", "chromium", "NativeMessagingHosts", manifest.FileName), string(b), 0o644)
			},
			check: "Chromium host manifest", detail: "does not allow the extension installed system-wide",
		},
		{
			name:   "listing removed",
			break_: func(t *testing.T, env *Env, res install.SystemResult) { os.Remove(res.ExternalExtensions[0]) },
			check:  "Chromium system-wide", detail: "listing of the extension is missing",
		},
		{
			name:   "system manifest removed",
			break_: func(t *testing.T, env *Env, res install.SystemResult) { os.Remove(res.Manifests[0]) },
			check:  "Chromium system-wide", detail: "system-wide host manifest is missing",
		},
		{
			name: "CRX damaged",
			break_: func(t *testing.T, env *Env, res install.SystemResult) {
				b, _ := os.ReadFile(res.CRX)
				b[len(b)-10] ^= 1
				mustWrite(t, res.CRX, string(b), 0o644)
			},
			check: "system-wide install", detail: "signature does not verify",
		},
		{
			name: "receipt writable by others",
			break_: func(t *testing.T, env *Env, res install.SystemResult) {
				os.Chmod(filepath.Join(env.SystemRoot, "var", "lib", "grip", install.SystemReceiptFile), 0o666)
			},
			check: "system-wide install", detail: "not root's alone",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, res := mustInstallSystem(t)
			tt.break_(t, &env, res)
			r := Run(context.Background(), env)
			c := find(t, r, tt.check)
			if r.OK || c.OK || c.Warn || !strings.Contains(c.Detail, tt.detail) || c.Fix == "" {
				t.Errorf("OK %v, check %+v; want a ✗ saying %q with a fix\n%s", r.OK, c, tt.detail, r.Text())
			}
		})
	}
}

// What to click, by what is installed and where.
// A broken system-wide install is not ready even when the user's own
// manifest works.
func TestSystemFaultWithUserManifest(t *testing.T) {
	env, res := mustInstallSystem(t)
	h, _ := manifest.NewHost(env.Executable, testID, res.ExtensionID)
	b, _ := h.Marshal()
	mustWrite(t, filepath.Join(env.Home, ".config", "chromium", "NativeMessagingHosts", manifest.FileName), string(b), 0o644)
	if r := Run(context.Background(), env); !r.OK {
		t.Fatalf("not OK with both set up:\n%s", r.Text())
	}
	os.Remove(res.CRX)
	r := Run(context.Background(), env)
	if c := find(t, r, "system-wide install"); r.OK || c.OK {
		t.Errorf("OK %v with the packed extension gone:\n%s", r.OK, r.Text())
	}
}

func TestConnectFix(t *testing.T) {
	env, _ := mustInstallSystem(t)
	env.Probe = func(context.Context) ([]protocol.HostInfo, []error) { return nil, nil }
	if c := find(t, Run(context.Background(), env), "extension connected"); !strings.Contains(c.Fix, "Keep this extension") || !strings.Contains(c.Fix, "start it again") {
		t.Errorf("with a system-wide install: %q", c.Fix)
	}
	for goos, want := range map[string]string{
		"linux":   "sudo grip install --system",
		"darwin":  "enterprise policy",
		"windows": "enterprise policy",
	} {
		if fix := connectFix(goos, systemState{}); !strings.Contains(fix, "Load unpacked") || !strings.Contains(fix, want) {
			t.Errorf("%s: %q lacks %q", goos, fix, want)
		}
	}
}
