package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/crx"
	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/install"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// The issue's acceptance for Linux without Developer mode: `grip install
// --system` for real (the system's own paths, so it needs root), then a
// Chromium with a fresh profile and no --load-extension: the packed
// extension installs itself, its service worker starts the host, `grip
// tabs` works and doctor says grip is ready; `grip uninstall --system`, run
// however the test ends, removes exactly what it wrote. All of it happens
// in a private mount namespace (inPrivateSystem): the system folders the
// browser and grip read there are the test's, empty at the start, so a
// system-wide install of the machine's is neither seen nor touched, and
// the machine is left as it was.
func TestSystemInstallConnects(t *testing.T) {
	ie := newInstallEnv(t)
	path := browsertest.FindBrowser()
	if path == "" {
		t.Skip("no browser")
	}
	if os.Geteuid() != 0 {
		t.Skip("grip install --system writes to /etc, /usr/lib and /var/lib (the test's own, in a private mount namespace): run as root (CI does)")
	}
	if !inPrivateSystem(t) {
		return
	}
	if _, ok, _ := install.ReadSystemReceipt(""); ok {
		t.Fatalf("a system-wide install (%s) shows through the private mount namespace",
			filepath.Join(install.SystemDir, install.SystemReceiptFile))
	}
	extDir, ok := install.SystemExtensionsDir("", "chromium")
	if !ok {
		t.Fatalf("%s looks like no packaged Chromium (none of its install folders exists)", path)
	}
	before := machineState(t, extDir)

	// Remove everything however the test ends, and check nothing is left.
	t.Cleanup(func() {
		r := ie.grip(t, "uninstall", "--system", "--json")
		var out struct {
			Removed []string `json:"removed"`
			Warning string   `json:"warning"`
		}
		if r.Code != 0 || json.Unmarshal([]byte(r.Stdout), &out) != nil || out.Warning != "" {
			t.Errorf("grip uninstall --system: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
		}
		if after := machineState(t, extDir); !slices.Equal(after, before) {
			t.Errorf("the machine differs after uninstall --system:\nbefore %q\nafter  %q", before, after)
		}
	})
	r := ie.grip(t, "install", "--system", "--browser", "chromium", "--json")
	if r.Code != 0 {
		t.Fatalf("grip install --system: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	var res install.SystemResult
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatalf("grip install --system --json: %v\n%s", err, r.Stdout)
	}

	// The real places, once.
	crxPath := filepath.Join(install.SystemDir, install.SystemCRXFile)
	listing := filepath.Join(extDir, res.ExtensionID+".json")
	hostManifest := "/etc/chromium/native-messaging-hosts/" + manifest.FileName
	if res.CRX != crxPath || !slices.Equal(res.ExternalExtensions, []string{listing}) || !slices.Equal(res.Manifests, []string{hostManifest}) {
		t.Errorf("install --system wrote %+v; want %s, %s, %s", res, crxPath, listing, hostManifest)
	}
	file, err := crx.Verify(readFile(t, crxPath))
	if err != nil || file.ID != res.ExtensionID {
		t.Fatalf("%s: %v (ID %s, want %s)", crxPath, err, file.ID, res.ExtensionID)
	}
	unpacked, _ := manifest.ExtensionID(extension.ManifestJSON)
	if res.ExtensionID == unpacked {
		t.Errorf("the packed extension has the unpacked one's ID %s; it must be this machine's key's", unpacked)
	}
	for _, p := range []string{extDir, install.SystemDir, filepath.Dir(hostManifest)} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm()&0o005 != 0o005 {
			t.Errorf("%s: %v, %v; every user's browser must be able to read it", p, fi.Mode().Perm(), err)
		}
	}

	// A browser with a fresh profile and no --load-extension.
	logf, err := os.Create(filepath.Join(t.TempDir(), "browser.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	proc, err := launcher.Start(context.Background(), launcher.Options{
		Path: path, ProfileDir: ie.profile, Output: logf,
		Env: []string{"HOME=" + ie.home, "GRIP_STATE_DIR=" + ie.state},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		proc.Stop()
		deadline := time.Now().Add(10 * time.Second)
		for len(liveHosts(statedir.At(ie.state).Runtime)) > 0 && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
	}()
	for _, a := range proc.Args {
		if strings.HasPrefix(a, "--load-extension") || strings.HasPrefix(a, "--disable-extensions-except") {
			t.Fatalf("the browser was started with %s", a)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: statedir.At(ie.state).Runtime, Wait: 45 * time.Second})
	if err != nil {
		log, _ := os.ReadFile(logf.Name())
		t.Fatalf("the packed extension's service worker never started the host: %v\nbrowser log:\n%s", err, log)
	}
	if c.Info.ExtensionID != res.ExtensionID {
		t.Errorf("the host was started by extension %s, want the packed one %s", c.Info.ExtensionID, res.ExtensionID)
	}
	if c.Info.Protocol != protocol.Version {
		t.Errorf("host speaks protocol %d, want %d", c.Info.Protocol, protocol.Version)
	}
	c.Close()

	var tabs protocol.TabsResult
	r = ie.grip(t, "tabs", "--json")
	if r.Code != 0 || json.Unmarshal([]byte(r.Stdout), &tabs) != nil || len(tabs.Tabs) == 0 {
		t.Fatalf("grip tabs: exit %d, %s %s", r.Code, r.Stdout, r.Stderr)
	}

	r = ie.grip(t, "doctor")
	text := r.Stdout + r.Stderr
	t.Logf("grip doctor:\n%s", text)
	for _, want := range []string{
		"✓ system-wide install: extension " + res.ExtensionID,
		"✓ Chromium system-wide: " + listing,
		"✓ Chromium host manifest: none of your own",
		"✓ extension connected",
		"grip is ready",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("doctor lacks %q", want)
		}
	}
	if r.Code != 0 || strings.Contains(text, "✗") {
		t.Errorf("grip doctor: exit %d with the packed extension connected", r.Code)
	}
}

// machineState describes what grip install --system touches on the real
// machine: grip's system folder and Chromium's system manifest folder
// (every file, and the folders' modes), and the external-extensions
// folder's mode and grip's files in it.
func machineState(t *testing.T, extDir string) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{install.SystemDir, "/etc/chromium/native-messaging-hosts", extDir} {
		fi, err := os.Stat(dir)
		if errors.Is(err, fs.ErrNotExist) {
			out = append(out, dir+" absent")
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, dir+" "+fi.Mode().String())
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			// Other software's listings beside the browser are not ours to
			// account for; grip's, and everything in its own folders, are.
			if dir != extDir || strings.HasSuffix(e.Name(), ".json") {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	return out
}
