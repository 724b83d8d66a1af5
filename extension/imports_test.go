package extension_test

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/grip-dev/grip/extension"
)

// TestWorkerImportsHaveNoCycle: the worker's modules import each other
// without a cycle (a module in one is evaluated before the ones it
// imports, so their exports are not there yet when it runs).
func TestWorkerImportsHaveNoCycle(t *testing.T) {
	importRE := regexp.MustCompile(`(?m)^import [^;]*? from '\./([\w-]+\.js)';`)
	worker, err := fs.Sub(extension.Files(), "worker")
	if err != nil {
		t.Fatal(err)
	}
	files, err := fs.Glob(worker, "*.js")
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string][]string{}
	for _, f := range files {
		src, err := fs.ReadFile(worker, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range importRE.FindAllStringSubmatch(string(src), -1) {
			imports[f] = append(imports[f], path.Clean(m[1]))
		}
	}
	if len(imports["background.js"]) == 0 {
		t.Fatal("read no import of background.js: the test no longer reads the worker's modules")
	}
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(f string)
	visit = func(f string) {
		switch state[f] {
		case open:
			i := 0
			for stack[i] != f {
				i++
			}
			t.Errorf("import cycle: %s → %s", strings.Join(stack[i:], " → "), f)
			return
		case done:
			return
		}
		state[f] = open
		stack = append(stack, f)
		for _, g := range imports[f] {
			visit(g)
		}
		stack = stack[:len(stack)-1]
		state[f] = done
	}
	for _, f := range files {
		visit(f)
	}
}
