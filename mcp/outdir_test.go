package mcp

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/workflow"
)

// fileParam is a tool parameter that names a file, and how to call the
// tool with it.
type fileParam struct {
	args  map[string]any // the other arguments
	reads bool           // the tool reads the file (else it writes one)
	// host is set for a parameter the output folder does not govern, with
	// why: the host judges it.
	host string
}

// fileParams are every tool parameter that names a file, as
// "tool.param", or "tool.param#use" for each other call of the tool that
// names it (another action). A tool that takes a file and is missing here
// fails TestFileParametersAreInTheTable, so a new one is tried by
// TestFileParametersStayInTheOutputFolder before it ships.
var fileParams = map[string]fileParam{
	"browser_record.file":                  {args: map[string]any{"action": "start"}},
	"browser_record.file#replay":           {args: map[string]any{"action": "replay"}, reads: true},
	"browser_take_screenshot.filename":     {},
	"browser_take_screenshot.filename#pdf": {args: map[string]any{"pdf": true}},
	"browser_file_upload.paths": {host: "the files to upload into a page: the host judges each by the person's upload-from " +
		"folders (docs/files.md, \"Files in and out\"); nothing is written"},
}

// fileWords find a parameter that names a file by its name or description.
var (
	fileName = regexp.MustCompile(`(?i)file|path|folder|dir(ectory)?$`)
	fileDesc = regexp.MustCompile(`(?i)\b(files?|paths?|folders?|directory|save[sd]?|writes?)\b`)
)

func TestFileParametersAreInTheTable(t *testing.T) {
	h := newHarness(t)
	res, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, tool := range res.Tools {
		props, _ := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
		for name, p := range props {
			p := p.(map[string]any)
			typ, _ := p["type"].(string)
			desc, _ := p["description"].(string)
			if typ != "string" && typ != "array" {
				continue
			}
			if fileName.MatchString(name) || fileDesc.MatchString(desc) {
				found = append(found, tool.Name+"."+name)
			}
		}
	}
	sort.Strings(found)
	for _, f := range found {
		if _, ok := fileParams[f]; !ok {
			t.Errorf("%s names a file and is not in fileParams: add it, so the output folder's test tries it", f)
		}
	}
	for f := range fileParams {
		if f, _, _ := strings.Cut(f, "#"); !slices.Contains(found, f) {
			t.Errorf("fileParams names %s, which no tool lists (found %v)", f, found)
		}
	}
}

// fileHost answers the operations of the file tools; a stopped recording
// names the file its start gave (or stopFile, as a recording the
// session's CLI started would).
func fileHost(h *harness, stopFile *string) {
	var started string
	h.host.reply = func(op string, args any) (any, error) {
		switch op {
		case protocol.OpRecord:
			a := args.(protocol.RecordArgs)
			switch a.Action {
			case protocol.RecordStart:
				started = a.File
				return protocol.RecordResult{Recording: true, File: a.File}, nil
			case protocol.RecordStop:
				file := started
				if *stopFile != "" {
					file = *stopFile
				}
				return protocol.RecordResult{File: file, Steps: 1, Text: workflow.Header + "\ntype textbox 'a' with '\\u{27};touch PWNED;#'\n"}, nil
			}
			return protocol.RecordResult{}, nil
		case protocol.OpPDF:
			return protocol.PDFResult{Tab: protocol.TabRef{ID: 3, Title: "T"}, PDF: []byte("%PDF-1.4 x")}, nil
		case protocol.OpScreenshotShape:
			return protocol.ShapeShot{Tab: protocol.TabRef{ID: 3}, PNG: fakePNG, Width: 10, Height: 5}, nil
		case protocol.OpStatus:
			return protocol.Status{}, nil
		}
		return defaultReply(op, args)
	}
}

// tree lists every file under dir with its content (links as "-> target").
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target
		case d.IsDir():
			out[rel] = "/"
		default:
			b, _ := os.ReadFile(p)
			out[rel] = string(b)
		}
		return nil
	})
	return out
}

// Every file parameter is tried with a path outside the output folder, a
// relative path out of it, a dot-name, a link in it and an existing file
// (a file that is not a workflow, for replay): each is refused
// (bad_request or policy), nothing is written anywhere, and a refusal
// quotes nothing of a file it read.
func TestFileParametersStayInTheOutputFolder(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home") // the person's files
	out := filepath.Join(root, "state", "output", "work")
	os.MkdirAll(home, 0o700)
	secret := filepath.Join(home, "token")
	os.WriteFile(secret, []byte("s3cret-token\n"), 0o600)
	h := newHarnessWith(t, Options{OutputDir: out})
	var stopFile string
	fileHost(h, &stopFile)
	h.callTool(t, "browser_status", nil) // makes the folder
	if st, err := os.Lstat(out); err != nil || !st.IsDir() || runtime.GOOS != "windows" && st.Mode().Perm() != 0o700 {
		t.Fatalf("the output folder: %v %v, want a 0700 folder grip made", st, err)
	}
	if err := os.Symlink(filepath.Join(home, "new"), filepath.Join(out, "dangling.grip")); err != nil {
		t.Skip(err)
	}
	os.Symlink(secret, filepath.Join(out, "token.grip"))
	os.WriteFile(filepath.Join(out, "existing.grip"), []byte("s3cret-token\n"), 0o600)
	homeBefore, outBefore := tree(t, home), tree(t, out)

	bad := map[string]string{
		"a path outside":     filepath.Join(home, ".bash_profile"),
		"a new path outside": filepath.Join(home, "flow.grip"),
		"a relative path":    "../../../home/flow.grip",
		"a home path":        "~/.bash_profile",
		"a dot-name":         ".bash_profile",
		"a link (dangling)":  "dangling.grip",
		"a link to a file":   "token.grip",
		"an existing file":   "existing.grip",
	}
	for param, fp := range fileParams {
		if fp.host != "" {
			continue
		}
		tool, prop, _ := strings.Cut(param, ".")
		prop, _, _ = strings.Cut(prop, "#")
		for what, value := range bad {
			t.Run(tool+"/"+what, func(t *testing.T) {
				args := map[string]any{prop: value}
				for k, v := range fp.args {
					args[k] = v
				}
				h.host.takeCalls()
				res := h.callTool(t, tool, args)
				msg := text(res)
				if !res.IsError || !strings.HasPrefix(msg, "bad_request") && !strings.HasPrefix(msg, "policy") && !(fp.reads && strings.HasPrefix(msg, "not_found")) {
					t.Errorf("%s %s=%q was not refused bad_request or policy: %s", tool, prop, value, msg)
				}
				if strings.Contains(msg, "s3cret") {
					t.Errorf("the refusal quotes the file: %s", msg)
				}
				for _, c := range h.host.takeCalls() {
					if c.Op != protocol.OpStatus {
						t.Errorf("the host was asked %s before the file was refused", c.Op)
					}
				}
				if got := tree(t, home); !mapsEqual(got, homeBefore) {
					t.Errorf("the person's folder changed: %v", got)
				}
				if got := tree(t, out); !mapsEqual(got, outBefore) {
					t.Errorf("the output folder changed: %v", got)
				}
				if _, err := os.Lstat(filepath.Join(root, "state", "output", "home")); err == nil {
					t.Errorf("a file was written beside the output folder")
				}
			})
		}
	}

	// A recording that names a path (its start came from the session's
	// CLI) is written into the output folder by its last name, or not at
	// all: never to the path.
	for _, c := range []struct{ file, want string }{
		{filepath.Join(home, ".bash_profile"), ""},
		{filepath.Join(home, "flow.grip"), filepath.Join(out, "flow.grip")},
	} {
		stopFile = c.file
		res := h.callTool(t, "browser_record", map[string]any{"action": "stop"})
		if c.want == "" && !res.IsError {
			t.Errorf("stop of a recording into %s wrote: %s", c.file, text(res))
		}
		if c.want != "" && (res.IsError || !strings.Contains(text(res), c.want)) {
			t.Errorf("stop of a recording into %s: %s, want it in %s", c.file, text(res), c.want)
		}
		if got := tree(t, home); !mapsEqual(got, homeBefore) {
			t.Errorf("stop wrote into the person's folder: %v", got)
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// The file tools write and read by name in the output folder, and
// browser_status names it.
func TestFileToolsUseTheOutputFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "output")
	h := newHarnessWith(t, Options{OutputDir: out})
	var stopFile string
	fileHost(h, &stopFile)
	if got := text(h.callTool(t, "browser_status", nil)); !strings.Contains(got, "output_dir: "+out) {
		t.Errorf("browser_status does not name the output folder:\n%s", got)
	}
	if res := h.callTool(t, "browser_take_screenshot", map[string]any{"filename": "a.png"}); res.IsError || !strings.Contains(text(res), filepath.Join(out, "a.png")) {
		t.Errorf("screenshot: %s", text(res))
	}
	if res := h.callTool(t, "browser_take_screenshot", map[string]any{"filename": "b.png", "ref": "e2"}); res.IsError || !strings.Contains(text(res), filepath.Join(out, "b.png")) {
		t.Errorf("element screenshot: %s", text(res))
	}
	if res := h.callTool(t, "browser_take_screenshot", map[string]any{"pdf": true}); res.IsError || !strings.Contains(text(res), out+string(filepath.Separator)+"page-3-") {
		t.Errorf("pdf: %s", text(res))
	}
	h.callTool(t, "browser_record", map[string]any{"action": "start", "file": "flow.grip"})
	if res := h.callTool(t, "browser_record", map[string]any{"action": "stop"}); res.IsError {
		t.Fatalf("record stop: %s", text(res))
	}
	for _, name := range []string{"a.png", "b.png", "flow.grip"} {
		st, err := os.Lstat(filepath.Join(out, name))
		if err != nil || !st.Mode().IsRegular() || runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v, want a 0600 file", name, st, err)
		}
	}
	os.WriteFile(filepath.Join(out, "old.grip"), []byte("navigate 's3cret'\n"), 0o600)
	res := h.callTool(t, "browser_record", map[string]any{"action": "replay", "file": "old.grip"})
	if msg := text(res); !res.IsError || !strings.Contains(msg, workflow.Header) || strings.Contains(msg, "s3cret") {
		t.Errorf("replay of a file without the header: %s", msg)
	}
}

// browser_record start with person asks the host for the person's
// recording and writes the file their Done returns, in the output folder.
func TestRecordByThePerson(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	h := newHarnessWith(t, Options{OutputDir: out})
	var asked protocol.RecordArgs
	h.host.reply = func(op string, args any) (any, error) {
		switch op {
		case protocol.OpRecord:
			asked = args.(protocol.RecordArgs)
			return protocol.RecordResult{File: asked.File, Steps: 2, Text: workflow.Header + "\nclick button 'Go'\n"}, nil
		case protocol.OpStatus:
			return protocol.Status{}, nil
		}
		return defaultReply(op, args)
	}
	res := h.callTool(t, "browser_record", map[string]any{"action": "start", "file": "shown.grip", "person": true})
	if res.IsError || !asked.Person || asked.Action != protocol.RecordStart || !strings.Contains(text(res), "Wrote 2 steps") {
		t.Fatalf("person recording: %+v %s", asked, text(res))
	}
	if b, err := os.ReadFile(filepath.Join(out, "shown.grip")); err != nil || !strings.HasPrefix(string(b), workflow.Header) {
		t.Errorf("the file: %q %v", b, err)
	}
}
