package editors_test

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
)

// notebook is one empty code cell in nbformat 4, for the Python 3 kernel.
const notebook = `{
 "cells": [{"cell_type": "code", "execution_count": null, "id": "a1", "metadata": {}, "outputs": [], "source": []}],
 "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
 "nbformat": 4, "nbformat_minor": 5
}
`

// jupyter is a Jupyter Notebook server (Debian's jupyter-notebook) on
// loopback, serving a folder with grip.ipynb in it, behind a random token.
type jupyter struct {
	url   string // http://127.0.0.1:PORT
	token string
}

// startJupyter starts the server for t and stops it (and its kernels) when
// t ends. Without the package it skips, unless a browser is required.
func startJupyter(t *testing.T) *jupyter {
	t.Helper()
	browsertest.Need(t, env)
	bin, err := exec.LookPath("jupyter-notebook")
	if err != nil {
		if os.Getenv(browsertest.RequireEnv) != "" {
			t.Fatal("jupyter-notebook is not installed: apt-get install -y jupyter-notebook (scripts/setup --js does it)")
		}
		t.Skip("jupyter-notebook is not installed (apt-get install -y jupyter-notebook)")
	}
	dir := t.TempDir()
	work := filepath.Join(dir, "notebooks")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "grip.ipynb"), []byte(notebook), 0o644); err != nil {
		t.Fatal(err)
	}
	port := browsertest.FreePort(t)
	j := &jupyter{url: fmt.Sprintf("http://127.0.0.1:%d", port), token: randomToken(t)}
	args := []string{"--no-browser", "--ip=127.0.0.1", fmt.Sprint("--port=", port), "--port-retries=0",
		"--notebook-dir=" + work, "--NotebookApp.token=" + j.token}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-root")
	}
	cmd := exec.Command(bin, args...)
	// Everything Jupyter and IPython write stays in the test's folder.
	cmd.Env = append(os.Environ(),
		"HOME="+dir,
		"JUPYTER_CONFIG_DIR="+filepath.Join(dir, "config"),
		"JUPYTER_DATA_DIR="+filepath.Join(dir, "data"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "runtime"),
		"IPYTHONDIR="+filepath.Join(dir, "ipython"),
		"PYDEVD_DISABLE_FILE_VALIDATION=1",
	)
	logf, err := os.Create(filepath.Join(dir, "jupyter.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		// SIGTERM: the server shuts its kernels down and exits; then
		// whatever is left of its process group goes.
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			t.Errorf("jupyter did not stop within 10 s of SIGTERM")
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		logf.Close()
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(j.url + "/api/status?token=" + j.token)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return j
			}
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("jupyter exited before serving:\n%s", log)
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("jupyter did not answer within 60 s:\n%s", log)
		}
	}
}

func randomToken(t *testing.T) string {
	t.Helper()
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// TestJupyterNotebookRunsTypedCode is the whole application end to end, as
// a new user of grip would try it: open a notebook, type code into its
// cell, run it with Shift+Enter, read the output. The cell's editor is
// CodeMirror 5, which takes input through a hidden textarea behind its
// rendered lines; those lines (a zero-width-space line when empty) once
// refused the typing as "occluded by [paragraph '​']".
func TestJupyterNotebookRunsTypedCode(t *testing.T) {
	j := startJupyter(t)
	a := newAgent(t)
	snap := a.openURL(j.url+"/notebooks/grip.ipynb?token="+j.token, "[textbox")
	cell := ref(t, snap, "[textbox")

	out := a.must("type", cell, "print(6 * 7)")
	if !saysText(out, "print(6 * 7)") {
		t.Errorf("type reply does not show the cell's text:\n%s", out)
	}
	a.must("press", "Shift+Enter")
	a.must("wait", "--tab", fmt.Sprint(a.tab), "--text", "42", "--timeout", "60s")

	// The notebook's own model holds the code and the output.
	if got := observe[string](a, "Jupyter.notebook.get_cell(0).get_text()"); got != "print(6 * 7)" {
		t.Errorf("cell 0 source = %q", got)
	}
	if got := observe[string](a, "JSON.stringify(Jupyter.notebook.get_cell(0).output_area.outputs.map(o => o.text))"); got != `["42\n"]` {
		t.Errorf("cell 0 outputs = %s", got)
	}
	content := a.snapshot("--mode", "content")
	if !strings.Contains(content, "42") {
		t.Errorf("the output is not in the content snapshot:\n%s", content)
	}

	// Shift+Enter moved on to a new cell: trusted input (real keys through
	// the debugger) types and runs there too.
	snap = a.snapshot()
	next := ""
	for _, l := range strings.Split(snap, "\n") {
		if m := refLine.FindStringSubmatch(l); m != nil && m[2] == "[textbox]" {
			next = m[1]
		}
	}
	if next == "" {
		t.Fatalf("no empty cell after running the first:\n%s", snap)
	}
	a.must("type", "--trusted", next, "x = 6 * 7\nprint(x + 1)")
	a.must("press", "--trusted", "Shift+Enter")
	a.must("wait", "--tab", fmt.Sprint(a.tab), "--text", "43", "--timeout", "60s")
	if got := observe[string](a, "Jupyter.notebook.get_cell(1).get_text()"); got != "x = 6 * 7\nprint(x + 1)" {
		t.Errorf("cell 1 source = %q", got)
	}
	if got := observe[string](a, "JSON.stringify(Jupyter.notebook.get_cell(1).output_area.outputs.map(o => o.text))"); got != `["43\n"]` {
		t.Errorf("cell 1 outputs = %s", got)
	}
	a.report("Jupyter: type code into a cell, run it, read the output; again with trusted input")
}
