package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/cli"
	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/install"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// installEnv is a person's machine in miniature: a home folder, grip's
// state folder and a profile folder, all temporary, so the real user's
// files are never touched.
type installEnv struct {
	bin     string // the grip binary, absolute
	home    string // HOME for grip and the browser
	state   string // GRIP_STATE_DIR
	profile string // the browser's --user-data-dir (D)
}

func newInstallEnv(t *testing.T) *installEnv {
	t.Helper()
	bin, err := filepath.Abs(env.BinOrSkip(t))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	ie := &installEnv{
		bin:     bin,
		home:    filepath.Join(root, "home"),
		state:   filepath.Join(root, "state"),
		profile: filepath.Join(root, "profile"),
	}
	if err := os.Mkdir(ie.home, 0o700); err != nil {
		t.Fatal(err)
	}
	return ie
}

// environ is this process's environment with HOME and grip's state folder
// replaced, and nothing that would move browsers' config folders out of
// the temporary home.
func (ie *installEnv) environ() []string {
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "HOME", "GRIP_STATE_DIR", "XDG_CONFIG_HOME", "CHROME_CONFIG_HOME":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "HOME="+ie.home, "GRIP_STATE_DIR="+ie.state)
}

// grip runs the grip binary in the miniature machine.
func (ie *installEnv) grip(t *testing.T, args ...string) browsertest.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, ie.bin, args...)
	cmd.Env = ie.environ()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := browsertest.Result{Stdout: out.String(), Stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.Code = ee.ExitCode()
	case err != nil:
		t.Fatalf("grip %s: %v", strings.Join(args, " "), err)
	}
	return r
}

// install runs `grip install --browser chromium --user-data-dir D --json`.
func (ie *installEnv) install(t *testing.T) install.Result {
	t.Helper()
	r := ie.grip(t, "install", "--browser", "chromium", "--user-data-dir", ie.profile, "--json")
	if r.Code != 0 {
		t.Fatalf("grip install: exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	var res install.Result
	dec := json.NewDecoder(strings.NewReader(r.Stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("grip install --json: %v\n%s", err, r.Stdout)
	}
	return res
}

// doctor runs `grip doctor --user-data-dir D` and returns its report and
// exit code.
func (ie *installEnv) doctor(t *testing.T) (string, int) {
	t.Helper()
	r := ie.grip(t, "doctor", "--user-data-dir", ie.profile)
	return r.Stdout + r.Stderr, r.Code
}

func (ie *installEnv) profileManifest() string {
	return filepath.Join(ie.profile, "NativeMessagingHosts", manifest.FileName)
}

func (ie *installEnv) chromiumManifest() string {
	return filepath.Join(ie.home, ".config", "chromium", "NativeMessagingHosts", manifest.FileName)
}

// wantManifest is the manifest install must write: grip's host for the
// embedded extension's ID, starting bin.
func wantManifest(t *testing.T, bin string) []byte {
	t.Helper()
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		t.Fatal(err)
	}
	h, err := manifest.NewHost(bin, id)
	if err != nil {
		t.Fatal(err)
	}
	b, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fileState maps each file under dir to its mode and content.
func fileState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			out[p] = fi.Mode().String()
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[p] = fi.Mode().String() + " " + string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// liveHosts returns the hosts published in runtimeDir whose process runs.
func liveHosts(runtimeDir string) []protocol.HostInfo {
	hosts, _ := client.Hosts(runtimeDir)
	var live []protocol.HostInfo
	for _, h := range hosts {
		if launcher.Alive(h.PID) {
			live = append(live, h)
		}
	}
	return live
}

// The acceptance: `grip install` and then a browser started with
// that profile and the written extension folder — no other set-up — and
// the host connects; doctor says so, and says what is wrong when the
// manifest is missing, points at a missing binary, or no browser runs;
// installing again changes nothing; uninstall removes exactly what
// install wrote.
//
// It runs in a private mount namespace where the machine's system-wide
// folders look empty: a `grip install --system` there would otherwise add
// its extension to the manifests this install writes, and doctor would
// report it.
func TestInstallThenConnect(t *testing.T) {
	ie := newInstallEnv(t)
	path := browsertest.FindBrowser()
	if path == "" {
		t.Skip("no browser")
	}
	if !inPrivateSystem(t) {
		return
	}

	res := ie.install(t)
	id, _ := manifest.ExtensionID(extension.ManifestJSON)
	if res.ExtensionID != id {
		t.Errorf("extension_id = %q, want %q", res.ExtensionID, id)
	}
	// grip hands install to grip-host beside it, which writes itself
	// into the manifest: Chrome starts grip-host.
	hostBin := filepath.Join(filepath.Dir(ie.bin), cli.HeavyBinary)
	if res.HostPath != hostBin {
		t.Errorf("host_path = %q, want the absolute path of the grip-host beside grip, %q", res.HostPath, hostBin)
	}
	if want := filepath.Join(statedir.At(ie.state).Data, install.ExtensionDirName); res.ExtensionDir != want {
		t.Errorf("extension_dir = %q, want %q", res.ExtensionDir, want)
	}
	// Stamped with grip's build, as it goes over a folder that held none
	// (extension.ForFolder).
	folder, err := extension.ForFolder(extension.Files(), nil)
	if err != nil {
		t.Fatal(err)
	}
	stamped, _ := fs.ReadFile(folder, "manifest.json")
	if b, err := os.ReadFile(filepath.Join(res.ExtensionDir, "manifest.json")); err != nil || !bytes.Equal(b, stamped) {
		t.Errorf("extension_dir lacks the extension's manifest.json: %v\n%s\nwant\n%s", err, b, stamped)
	}
	// Only what the custom profile's browser reads: the default
	// profile's manifest (which may start another grip) is not written.
	wantFiles := []string{ie.profileManifest()}
	if got := slices.Sorted(slices.Values(res.Manifests)); !slices.Equal(got, slices.Sorted(slices.Values(wantFiles))) {
		t.Errorf("manifests = %q, want %q", res.Manifests, wantFiles)
	}
	if _, err := os.Lstat(ie.chromiumManifest()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("install for --user-data-dir wrote the default profile's %s (%v)", ie.chromiumManifest(), err)
	}
	want := wantManifest(t, hostBin)
	for _, f := range wantFiles {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatalf("manifest %s: %v", f, err)
		}
		if fi.Mode().Perm() != 0o644 {
			t.Errorf("%s has mode %v, want 0644 (the browser reads it)", f, fi.Mode().Perm())
		}
		if b := readFile(t, f); !bytes.Equal(b, want) {
			t.Errorf("%s =\n%s\nwant\n%s", f, b, want)
		}
		h, err := manifest.Parse(readFile(t, f))
		if err != nil || h.Name != manifest.HostName || h.Type != "stdio" || h.Path != hostBin ||
			!slices.Equal(h.AllowedOrigins, []string{manifest.Origin(id)}) {
			t.Errorf("%s = %+v (%v)", f, h, err)
		}
	}
	installed := map[string]string{}
	for _, dir := range []string{ie.home, ie.profile, res.ExtensionDir} {
		maps.Copy(installed, fileState(t, dir))
	}

	// The browser, started with the profile and the folder install wrote.
	logf, err := os.Create(filepath.Join(t.TempDir(), "browser.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	proc, err := launcher.Start(context.Background(), launcher.Options{
		Path: path, ProfileDir: ie.profile, ExtDir: res.ExtensionDir, Output: logf,
		Env: []string{"HOME=" + ie.home, "GRIP_STATE_DIR=" + ie.state},
	})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		proc.Stop()
		deadline := time.Now().Add(10 * time.Second)
		for len(liveHosts(statedir.At(ie.state).Runtime)) > 0 {
			if time.Now().After(deadline) {
				t.Errorf("grip hosts still running after the browser stopped: %+v", liveHosts(statedir.At(ie.state).Runtime))
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	defer stop()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: statedir.At(ie.state).Runtime, Wait: 45 * time.Second})
	if err != nil {
		log, _ := os.ReadFile(logf.Name())
		t.Fatalf("the host never connected: %v\nbrowser log:\n%s", err, log)
	}
	if c.Info.ExtensionID != "" && c.Info.ExtensionID != id {
		t.Errorf("host started by extension %s, want %s", c.Info.ExtensionID, id)
	}
	if c.Info.Protocol != protocol.Version {
		t.Errorf("host speaks protocol %d, want %d", c.Info.Protocol, protocol.Version)
	}
	c.Close()
	var tabs protocol.TabsResult
	r := ie.grip(t, "tabs", "--json")
	if r.Code != 0 || json.Unmarshal([]byte(r.Stdout), &tabs) != nil || len(tabs.Tabs) == 0 {
		t.Fatalf("grip tabs: exit %d, %s %s", r.Code, r.Stdout, r.Stderr)
	}

	t.Run("doctor/ready", func(t *testing.T) {
		text, code := ie.doctor(t)
		t.Logf("grip doctor --user-data-dir %s:\n%s", ie.profile, text)
		if code != 0 || !strings.Contains(text, "grip is ready") {
			t.Fatalf("grip doctor: exit %d with the browser connected:\n%s", code, text)
		}
		// The default profile was not installed for (only the custom
		// one was): a warning, not a fault.
		for _, line := range []string{"✓ grip binary: " + hostBin, "✓ grip beside grip-host: " + ie.bin + ", the same build", "✓ profile " + ie.profile + " host manifest", "⚠ Chromium host manifest: grip is not installed for this browser", "✓ extension connected"} {
			if !strings.Contains(text, line) {
				t.Errorf("report lacks %q:\n%s", line, text)
			}
		}
		if strings.Contains(text, "✗") {
			t.Errorf("a ✗ in a working set-up:\n%s", text)
		}
	})
	t.Run("doctor/manifest_removed", func(t *testing.T) {
		if err := os.Remove(ie.profileManifest()); err != nil {
			t.Fatal(err)
		}
		text, code := ie.doctor(t)
		t.Logf("grip doctor, manifest removed:\n%s", text)
		wantLine := "✗ profile " + ie.profile + " host manifest: no manifest at " + ie.profileManifest()
		if code == 0 || !strings.Contains(text, wantLine) {
			t.Errorf("grip doctor: exit %d, want non-zero and %q:\n%s", code, wantLine, text)
		}
		if !strings.Contains(text, "fix: run `grip install --user-data-dir "+ie.profile+"`") {
			t.Errorf("no fix for the missing manifest:\n%s", text)
		}
	})
	t.Run("doctor/missing_binary", func(t *testing.T) {
		gone := filepath.Join(t.TempDir(), "gone", "grip")
		if err := os.WriteFile(ie.profileManifest(), wantManifest(t, gone), 0o644); err != nil {
			t.Fatal(err)
		}
		text, code := ie.doctor(t)
		wantLine := "✗ profile " + ie.profile + " host manifest: " + ie.profileManifest() + " starts " + gone + ", which does not exist"
		if code == 0 || !strings.Contains(text, wantLine) {
			t.Errorf("grip doctor: exit %d, want non-zero and %q:\n%s", code, wantLine, text)
		}
	})
	t.Run("install/repairs", func(t *testing.T) {
		res2 := ie.install(t)
		if !slices.ContainsFunc(res2.Notes, func(n string) bool { return strings.Contains(n, "which started") }) {
			t.Errorf("install replaced a manifest pointing elsewhere without a note: %q", res2.Notes)
		}
		if text, code := ie.doctor(t); code != 0 {
			t.Errorf("grip doctor after install repaired the manifest: exit %d\n%s", code, text)
		}
	})
	t.Run("install/idempotent", func(t *testing.T) {
		written := func() map[string]string {
			m := map[string]string{}
			for _, dir := range []string{filepath.Dir(ie.profileManifest()), res.ExtensionDir} {
				for k, v := range fileState(t, dir) {
					m[k] = v
				}
			}
			return m
		}
		before := written()
		for k, v := range before {
			if installed[k] != v {
				t.Errorf("%s differs from the first install", k)
			}
		}
		receipt := readFile(t, filepath.Join(ie.state, install.ReceiptFile))
		res3 := ie.install(t)
		if !slices.Equal(res3.Manifests, res.Manifests) || res3.ExtensionDir != res.ExtensionDir || len(res3.Notes) != 0 {
			t.Errorf("second install = %+v, first %+v", res3, res)
		}
		if after := written(); !maps.Equal(after, before) {
			t.Errorf("installing again changed the files it wrote")
		}
		if again := readFile(t, filepath.Join(ie.state, install.ReceiptFile)); !bytes.Equal(again, receipt) {
			t.Errorf("installing again changed the receipt:\n%s\nwas\n%s", again, receipt)
		}
	})
	t.Run("doctor/no_browser", func(t *testing.T) {
		stop()
		text, code := ie.doctor(t)
		wantLine := "✗ extension connected: no browser has grip's extension connected"
		if code == 0 || !strings.Contains(text, wantLine) {
			t.Errorf("grip doctor: exit %d, want non-zero and %q:\n%s", code, wantLine, text)
		}
		if !strings.Contains(text, "✓ profile "+ie.profile+" host manifest") {
			t.Errorf("manifest not fine while no browser runs:\n%s", text)
		}
	})
	t.Run("uninstall", func(t *testing.T) {
		stop()
		// Files of others in the same folders stay.
		foreign := []string{
			filepath.Join(filepath.Dir(ie.profileManifest()), "com.example.other.json"),
		}
		for _, f := range foreign {
			if err := os.WriteFile(f, []byte(`{"name":"com.example.other"}`), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r := ie.grip(t, "uninstall", "--json")
		if r.Code != 0 {
			t.Fatalf("grip uninstall: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
		}
		var out struct {
			Removed []string `json:"removed"`
			Warning string   `json:"warning"`
		}
		if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
			t.Fatalf("grip uninstall --json: %v\n%s", err, r.Stdout)
		}
		if out.Warning != "" {
			t.Errorf("uninstall warns: %s", out.Warning)
		}
		for _, f := range append(wantFiles, res.ExtensionDir, filepath.Join(ie.state, install.ReceiptFile)) {
			if !slices.Contains(out.Removed, f) {
				t.Errorf("uninstall did not report removing %s: %q", f, out.Removed)
			}
			if _, err := os.Lstat(f); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s still there after uninstall (%v)", f, err)
			}
		}
		// Exactly what install wrote: nothing it found (the foreign files,
		// the browser's profile) and nothing it did not write.
		for _, p := range out.Removed {
			if _, ok := installed[p]; !ok && p != filepath.Join(ie.state, install.ReceiptFile) {
				t.Errorf("uninstall removed %s, which install did not write", p)
			}
		}
		for _, f := range foreign {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("uninstall removed a foreign file: %v", err)
			}
		}
		if _, err := os.Stat(filepath.Join(ie.profile, "Default")); err != nil {
			t.Errorf("the browser's profile is gone: %v", err)
		}
		r = ie.grip(t, "uninstall", "--json")
		out.Removed = nil
		if err := json.Unmarshal([]byte(r.Stdout), &out); r.Code != 0 || err != nil || len(out.Removed) != 0 {
			t.Errorf("uninstall again: exit %d, %s %s", r.Code, r.Stdout, r.Stderr)
		}
	})
}
