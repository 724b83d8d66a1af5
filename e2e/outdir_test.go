package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/workflow"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// startMCPHome launches env.Bin mcp as startMCP does, with HOME (and the
// XDG folders) in home: what the person's login shell would read.
func startMCPHome(t *testing.T, home string) *mcpClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.Command(env.Bin, "mcp")
	cmd.Env = append(os.Environ(), "GRIP_STATE_DIR="+env.StateDir, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	cl := sdk.NewClient(&sdk.Implementation{Name: "grip-e2e", Version: "v0"}, nil)
	cs, err := cl.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize grip mcp: %v\nstderr: %s", err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return &mcpClient{t: t, ctx: ctx, cs: cs, stderr: stderr}
}

// The attack, end to end: an agent with only the MCP tools starts
// a recording into ~/.bash_profile, types a value that would end a shell
// quote, and stops. The path is refused and nothing is written; the same
// steps recorded by name land in grip's output folder, and that file,
// sourced by bash or sh, runs nothing. browser_record's replay reads no file that
// is not a workflow and quotes none.
func TestMCPWritesOnlyInItsOutputFolder(t *testing.T) {
	browsertest.Need(t, env)
	home := t.TempDir()
	m := startMCPHome(t, home)
	status := m.must("browser_status", nil)
	_, rest, ok := strings.Cut(status, "output_dir: ")
	if !ok {
		t.Fatalf("browser_status names no output_dir:\n%s", status)
	}
	out, _, _ := strings.Cut(rest, " (")
	if st, err := os.Lstat(out); err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 || !strings.HasPrefix(out, env.StateDir) {
		t.Fatalf("output_dir %s: %v %v, want a 0700 folder under the state dir", out, st, err)
	}

	profile := filepath.Join(home, ".bash_profile")
	for _, file := range []string{profile, "~/.bash_profile", "../../../.bash_profile", ".bash_profile", filepath.Join(home, ".config", "autostart", "x.desktop")} {
		text, isErr := m.call("browser_record", map[string]any{"action": "start", "file": file})
		if !isErr || !strings.HasPrefix(text, "bad_request") {
			t.Errorf("record start %q: %s, want bad_request", file, text)
		}
	}
	if status := m.must("browser_record", map[string]any{"action": "status"}); !strings.Contains(status, "Not recording") {
		t.Errorf("a refused start left a recording: %s", status)
	}

	tab := env.OpenTab(t, env.Origin1+"/mcp.html")
	m.must("browser_record", map[string]any{"action": "start", "file": "flow.grip"})
	name := mcpRefOf(t, m.must("browser_snapshot", map[string]any{"tab": tab}), "[textbox 'Name'")
	hostile := `';touch PWNED;#`
	m.must("browser_type", map[string]any{"ref": name, "text": hostile})
	m.must("browser_type", map[string]any{"ref": name, "text": `\';touch PWNED2;#`})
	stopped := m.must("browser_record", map[string]any{"action": "stop"})
	flow := filepath.Join(out, "flow.grip")
	if !strings.Contains(stopped, flow) {
		t.Errorf("record stop: %s, want it written to %s", stopped, flow)
	}
	t.Cleanup(func() { os.Remove(flow) })
	ents, _ := os.ReadDir(home)
	for _, e := range ents {
		t.Errorf("the person's home holds %s after the refused recording", e.Name())
	}
	b, err := os.ReadFile(flow)
	if err != nil || !strings.HasPrefix(string(b), workflow.Header+"\n") || !strings.Contains(string(b), "touch PWNED") {
		t.Fatalf("the workflow %s: %v\n%s", flow, err, b)
	}
	if st, _ := os.Lstat(flow); st.Mode().Perm() != 0o600 {
		t.Errorf("the workflow's mode %v, want 0600", st.Mode().Perm())
	}
	t.Logf("the recorded workflow:\n%s", b)
	for _, shell := range []string{"bash", "sh"} {
		if _, err := exec.LookPath(shell); err != nil {
			continue
		}
		dir := t.TempDir()
		cmd := exec.Command(shell, "-c", "set +e; . "+flow)
		cmd.Dir, cmd.Env = dir, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
		output, _ := cmd.CombinedOutput()
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			t.Errorf("%s sourcing the workflow made %s:\n%s", shell, ents[0].Name(), output)
		}
	}
	// The same name again is an existing file: refused, the file kept.
	if text, isErr := m.call("browser_record", map[string]any{"action": "start", "file": "flow.grip"}); !isErr || !strings.HasPrefix(text, "bad_request") {
		t.Errorf("record start over the existing workflow: %s", text)
	}

	// Replay reads only workflows in the folder, and quotes nothing of
	// any other file.
	token := filepath.Join(out, "token.txt")
	os.WriteFile(token, []byte("s3cret-token-value\n"), 0o600)
	t.Cleanup(func() { os.Remove(token) })
	for _, file := range []string{"/proc/self/environ", "token.txt", filepath.Join(home, "x.grip"), "../../../../proc/self/environ"} {
		text, isErr := m.call("browser_record", map[string]any{"action": "replay", "file": file})
		if !isErr || !strings.HasPrefix(text, "bad_request") && !strings.HasPrefix(text, "not_found") {
			t.Errorf("replay %q: %s, want a refusal", file, text)
		}
		if strings.Contains(text, "s3cret") || strings.Contains(text, "PATH=") || strings.Contains(text, "GRIP_STATE_DIR=") {
			t.Errorf("replay %q quotes the file: %s", file, text)
		}
	}
	for _, shot := range []map[string]any{{"tab": tab, "filename": profile}, {"tab": tab, "filename": ".bashrc"}} {
		if text, isErr := m.call("browser_take_screenshot", shot); !isErr || !strings.HasPrefix(text, "bad_request") {
			t.Errorf("screenshot %v: %s", shot, text)
		}
		pdf := map[string]any{"pdf": true}
		for k, v := range shot {
			pdf[k] = v
		}
		if text, isErr := m.call("browser_take_screenshot", pdf); !isErr || !strings.HasPrefix(text, "bad_request") || strings.Contains(text, "is now") {
			t.Errorf("pdf %v: %s", shot, text)
		}
	}
	if ents, _ := os.ReadDir(home); len(ents) > 0 {
		t.Errorf("the person's home holds %s", ents[0].Name())
	}
}

// grip mcp --output-dir names another folder, which grip makes 0700 and
// the file tools use by name.
func TestMCPOutputDirFlag(t *testing.T) {
	browsertest.Need(t, env)
	dir := filepath.Join(t.TempDir(), "shots")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.Command(env.Bin, "mcp", "--output-dir", dir)
	cmd.Env = append(os.Environ(), "GRIP_STATE_DIR="+env.StateDir)
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "grip-e2e", Version: "v0"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize grip mcp: %v\nstderr: %s", err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	m := &mcpClient{t: t, ctx: ctx, cs: cs, stderr: stderr}
	if status := m.must("browser_status", nil); !strings.Contains(status, "output_dir: "+dir+" ") {
		t.Errorf("browser_status does not name %s:\n%s", dir, status)
	}
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
		t.Fatalf("%s: %v %v, want a 0700 folder", dir, st, err)
	}
	tab := env.OpenTab(t, env.Origin1+"/mcp.html")
	if text := m.must("browser_take_screenshot", map[string]any{"tab": tab, "filename": "a.png"}); !strings.Contains(text, filepath.Join(dir, "a.png")) {
		t.Errorf("screenshot: %s", text)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.png")); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("a.png: %v", err)
	}
}
