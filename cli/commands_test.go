package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
)

func mustAction(t *testing.T, name string) protocol.Action {
	t.Helper()
	a, ok := protocol.LookupAction(name)
	if !ok {
		t.Fatalf("no action %s", name)
	}
	return a
}

// TestTextFromStdinOrFile: a secret can reach fill without being an
// argument other users see in the process table.
func TestTextFromStdinOrFile(t *testing.T) {
	secretFile := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secretFile, []byte("4242 4242\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		action     string
		pos        []string
		src        textSource
		wantTarget string
		wantText   string
		wantErr    string
	}{
		{"argument", "fill", []string{"@e7", "hunter2"}, textSource{}, "@e7", "hunter2", ""},
		{"stdin", "fill", []string{"@e7", "-"}, textSource{stdin: strings.NewReader("s3cret\n")}, "@e7", "s3cret", ""},
		{"stdin crlf, inner newlines kept", "type", []string{"@e7", "-"}, textSource{stdin: strings.NewReader("a\nb\r\n")}, "@e7", "a\nb", ""},
		{"file", "fill", []string{"@e7"}, textSource{file: secretFile}, "@e7", "4242 4242", ""},
		{"file and text", "fill", []string{"@e7", "x"}, textSource{file: secretFile}, "", "", "usage: grip fill TARGET TEXT"},
		{"missing file", "fill", []string{"@e7"}, textSource{file: filepath.Join(t.TempDir(), "nope")}, "", "", "--text-file"},
		{"too much on stdin", "fill", []string{"@e7", "-"}, textSource{stdin: strings.NewReader(strings.Repeat("x", maxText+1))}, "", "", "over"},
		{"dash is literal for select", "select", []string{"@e7", "-"}, textSource{stdin: strings.NewReader("x")}, "@e7", "-", ""},
		{"press KEY [TARGET]", "press", []string{"Enter", "@e2"}, textSource{}, "@e2", "Enter", ""},
		{"press without target", "press", []string{"Tab"}, textSource{}, "", "Tab", ""},
		{"too many", "click", []string{"@e1", "@e2"}, textSource{}, "", "", "usage: grip click TARGET"},
		{"navigate", "navigate", []string{"http://x/"}, textSource{}, "", "http://x/", ""},
		{"upload without files", "upload", []string{"@e3"}, textSource{}, "", "", "usage: grip upload TARGET FILE..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := mustAction(t, tt.action)
			got, err := actionArgs(spec, protocol.ActArgs{Action: spec.Name}, tt.pos, tt.src)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, tt.wantErr)
				}
				var ue errUsage
				if !errors.As(err, &ue) {
					t.Errorf("%v is not a usage error (exit 2)", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Target != tt.wantTarget || got.Text != tt.wantText {
				t.Errorf("target %q text %q, want %q %q", got.Target, got.Text, tt.wantTarget, tt.wantText)
			}
		})
	}
}

// TestScreenshotFileIsPrivateAndNew: 0600, never through a link, never over
// a file, and a default name that does not collide.
func TestScreenshotFileIsPrivateAndNew(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	png := []byte("\x89PNG fake")

	first, err := writeScreenshot("", 7, now, png, false)
	if err != nil {
		t.Fatal(err)
	}
	second, err := writeScreenshot("", 7, now, png, false)
	if err != nil {
		t.Fatal(err)
	}
	if first == second {
		t.Fatalf("two screenshots in the same second share the name %s", first)
	}
	for _, name := range []string{first, second} {
		fi, err := os.Lstat(name)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %o, want 600", name, fi.Mode().Perm())
		}
	}

	// A link planted at the name: refused, its target untouched.
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "shot.png")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	for _, force := range []bool{false, true} {
		if _, err := writeScreenshot(link, 7, now, png, force); err == nil {
			t.Fatalf("wrote through a symlink (force %v)", force)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the link's target was changed: %q", b)
	}
	// An existing file: refused, kept.
	if _, err := writeScreenshot(victim, 7, now, png, false); !errors.Is(err, protocol.ErrBadRequest) || !strings.Contains(err.Error(), "--force") {
		t.Errorf("over an existing file: %v, want bad_request naming --force", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the existing file was changed: %q", b)
	}
	// --force replaces a regular file, whole, private.
	if _, err := writeScreenshot(victim, 7, now, png, true); err != nil {
		t.Fatalf("--force over a file: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != string(png) {
		t.Errorf("--force did not replace the file: %q", b)
	}
	if fi, _ := os.Lstat(victim); fi.Mode().Perm() != 0o600 {
		t.Errorf("the replaced file's mode %o, want 600", fi.Mode().Perm())
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced")
	}
}

// TestUploadPathsAreAbsolute: the host reads the files in another folder,
// so the CLI sends absolute paths, in order.
func TestUploadPathsAreAbsolute(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	spec := mustAction(t, protocol.ActUpload)
	got, err := actionArgs(spec, protocol.ActArgs{Action: spec.Name}, []string{"@e3", "a.txt", "/abs/b.pdf", "../c.png"}, textSource{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a.txt"), "/abs/b.pdf", filepath.Join(filepath.Dir(dir), "c.png")}
	if got.Target != "@e3" || strings.Join(got.Files, "|") != strings.Join(want, "|") || got.Text != "" {
		t.Errorf("target %q files %q text %q, want @e3 %q", got.Target, got.Files, got.Text, want)
	}
	if u := usage(); !strings.Contains(u, "grip upload TARGET FILE...") || !strings.Contains(u, "grip wait --download") || !strings.Contains(u, "grip downloads") {
		t.Errorf("usage does not list upload, wait --download and downloads:\n%s", u)
	}
}

// TestDragTakesSourceAndTarget: drag's two elements, in order, and a usage
// error naming both when one is missing or a third is given.
func TestDragTakesSourceAndTarget(t *testing.T) {
	spec := mustAction(t, protocol.ActDrag)
	got, err := actionArgs(spec, protocol.ActArgs{Action: spec.Name}, []string{"@e3", "#done"}, textSource{})
	if err != nil || got.Target != "@e3" || got.To != "#done" || got.Text != "" {
		t.Fatalf("drag @e3 #done: %+v, %v", got, err)
	}
	for _, pos := range [][]string{{"@e3"}, {"@e3", "@e4", "@e5"}, nil} {
		_, err := actionArgs(spec, protocol.ActArgs{Action: spec.Name}, pos, textSource{})
		var ue errUsage
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "usage: grip drag SOURCE TARGET") {
			t.Errorf("drag %q: %v, want the usage", pos, err)
		}
	}
}

func TestSessionFirst(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"--session", "a", "tabs", "new", "u"}, []string{"tabs", "--session", "a", "new", "u"}},
		{[]string{"--session=a", "snapshot"}, []string{"snapshot", "--session=a"}},
		{[]string{"snapshot", "--session", "a"}, []string{"snapshot", "--session", "a"}},
		{[]string{"--session", "a"}, []string{"--session", "a"}},
	} {
		if got := sessionFirst(c.in); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("sessionFirst(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSaveWorkflowNeverThroughALink: a stopped recording goes beside a
// file that appeared (and says where), over it only when the start said
// --force, and never through a link either way.
func TestSaveWorkflowNeverThroughALink(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "flow.grip")
	os.WriteFile(file, []byte("old"), 0o600)
	got, err := saveWorkflow(protocol.RecordResult{File: file, Text: "new"})
	if err != nil || got != file+".1" {
		t.Fatalf("saveWorkflow = %q, %v, want %s.1", got, err, file)
	}
	if b, _ := os.ReadFile(file); string(b) != "old" {
		t.Errorf("the existing file was changed: %q", b)
	}
	if got, err := saveWorkflow(protocol.RecordResult{File: file, Text: "new", Force: true}); err != nil || got != file {
		t.Fatalf("--force: %q, %v", got, err)
	}
	if b, _ := os.ReadFile(file); string(b) != "new" {
		t.Errorf("--force did not replace the file: %q", b)
	}
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	link := filepath.Join(dir, "link.grip")
	os.Symlink(victim, link)
	for _, force := range []bool{false, true} {
		saveWorkflow(protocol.RecordResult{File: link, Text: "new", Force: force})
		if b, _ := os.ReadFile(victim); string(b) != "keep" {
			t.Fatalf("wrote through a link (force %v): %q", force, b)
		}
	}
}

// TestReplayReadsOnlyWorkflows: grip replay refuses a file that is not a
// workflow (an environment, a token, a workflow without its header, a
// pipe) without quoting a word of it.
func TestReplayReadsOnlyWorkflows(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"environ":  "HOME=/root\x00GRIP_TOKEN=s3cret\x00",
		"token":    "s3cret\n",
		"old.grip": "navigate 's3cret'\n",
	}
	for name, body := range files {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(body), 0o600)
		_, err := readWorkflow(path)
		if !errors.Is(err, protocol.ErrBadRequest) || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "# grip workflow") {
			t.Errorf("%s: %v, want a bad_request that names the header and quotes nothing", name, err)
		}
	}
	if _, err := readWorkflow("/proc/self/environ"); err == nil || strings.Contains(err.Error(), "PATH=") {
		t.Errorf("/proc/self/environ: %v", err)
	}
	good := filepath.Join(dir, "flow.grip")
	os.WriteFile(good, []byte("# grip workflow\nback\n"), 0o600)
	if w, err := readWorkflow(good); err != nil || len(w.Steps) != 1 {
		t.Errorf("a workflow: %v", err)
	}
}
