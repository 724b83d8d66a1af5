package kerneltest_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/internal/kerneltest"
)

func TestSource(t *testing.T) {
	src := kerneltest.Source()
	if !strings.HasPrefix(src, "(() => {\n") || !strings.HasSuffix(src, "return globalThis.__gripKernel__.run;\n})()") {
		t.Errorf("Source is not one expression: %q … %q", src[:min(len(src), 40)], src[max(0, len(src)-60):])
	}
	for _, f := range extension.KernelFiles() {
		b, err := fs.ReadFile(extension.Files(), f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(src, string(b)) {
			t.Errorf("Source lacks %s", f)
		}
	}
	e := kerneltest.Expr(map[string]any{"op": "snapshot", "mode": "content"})
	if !strings.HasPrefix(e, src) || !strings.HasSuffix(e, `)({"mode":"content","op":"snapshot"})`) {
		t.Errorf("Expr = …%s", e[max(0, len(e)-60):])
	}
	if bad := kerneltest.Expr(map[string]any{"x": func() {}}); !strings.Contains(bad, "bad_request") {
		t.Errorf("Expr of an unencodable request = %s", bad)
	}
}

// TestGlobalNamesPinned pins every literal copy of the two globals grip's
// page code uses, the element cache and the kernel's object, to one
// spelling each, in every script of the extension (the kernel's files and
// the worker's injected caller).
func TestGlobalNamesPinned(t *testing.T) {
	cache, err := fs.ReadFile(extension.Files(), "kernel/cache.js")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cache), "'"+kerneltest.CacheGlobal+"'") && !strings.Contains(string(cache), "."+kerneltest.CacheGlobal) {
		t.Fatalf("kernel/cache.js does not name %s literally", kerneltest.CacheGlobal)
	}
	files, err := filepath.Glob("../../extension/*/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no extension/*/*.js (%v)", err)
	}
	kernel, _ := filepath.Glob("../../extension/kernel/*.d.ts")
	files = append(files, kernel...)
	pins := []struct {
		re   *regexp.Regexp
		want string
		seen int
	}{
		{re: regexp.MustCompile(`__gripRef\w*`), want: kerneltest.CacheGlobal},
		{re: regexp.MustCompile(`__gripKern\w*`), want: kerneltest.KernelGlobal},
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i := range pins {
			for _, m := range pins[i].re.FindAllString(string(b), -1) {
				pins[i].seen++
				if m != pins[i].want {
					t.Errorf("%s: %q, want %q", f, m, pins[i].want)
				}
			}
		}
	}
	for _, p := range pins {
		if p.seen == 0 {
			t.Errorf("no script names %s", p.want)
		}
	}
}

// dtsParts reads extension/kernel/kernel.d.ts: the names of the kernel's
// object listed under each file's heading (`// base.js`).
func dtsParts(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("../../extension/kernel/kernel.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	body := string(b)
	start := strings.Index(body, "interface GripKernel {")
	if start < 0 {
		t.Fatal("kernel.d.ts has no interface GripKernel")
	}
	body = body[start:]
	body = body[:strings.Index(body, "\n}\n")]
	heading := regexp.MustCompile(`^  // (\w+\.js)$`)
	member := regexp.MustCompile(`^  (\w+)\??[(:<]`)
	parts := map[string][]string{}
	file := ""
	for _, line := range strings.Split(body, "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			file = "kernel/" + m[1]
		} else if m := member.FindStringSubmatch(line); m != nil {
			if file == "" {
				t.Fatalf("kernel.d.ts: %s is listed before any file's heading", m[1])
			}
			parts[file] = append(parts[file], m[1])
		}
	}
	return parts
}

// TestEachFileAddsItsPart evaluates the kernel's files one by one, as
// top-level scripts the way executeScript({files}) runs them: base.js
// makes globalThis.__gripKernel__ and no file declares any other global;
// each adds exactly the names kernel.d.ts lists under it.
func TestEachFileAddsItsPart(t *testing.T) {
	ctx := newTab(t, "blank.html")
	want := dtsParts(t)
	type state struct {
		Kernel  []string `json:"kernel"`
		Globals []string `json:"globals"`
	}
	const read = `({kernel: Object.keys(globalThis.__gripKernel__ || {}), globals: Object.getOwnPropertyNames(globalThis)})`
	before := eval[state](t, ctx, read)
	for _, f := range extension.KernelFiles() {
		src, err := fs.ReadFile(extension.Files(), f)
		if err != nil {
			t.Fatal(err)
		}
		eval[bool](t, ctx, string(src)+"\n;true")
		after := eval[state](t, ctx, read)
		added := slices.DeleteFunc(slices.Clone(after.Kernel), func(k string) bool { return slices.Contains(before.Kernel, k) })
		if f == "kernel/base.js" {
			added = after.Kernel // a new object
		}
		if w := want[f]; !sameSet(added, w) {
			t.Errorf("%s adds %v to the kernel, kernel.d.ts lists %v", f, added, w)
		}
		newGlobals := slices.DeleteFunc(slices.Clone(after.Globals), func(g string) bool { return slices.Contains(before.Globals, g) })
		wantGlobals := []string{}
		if f == "kernel/base.js" {
			wantGlobals = []string{kerneltest.KernelGlobal}
		}
		if !sameSet(newGlobals, wantGlobals) {
			t.Errorf("%s adds globals %v, want %v", f, newGlobals, wantGlobals)
		}
		before = after
	}
	if len(want) != len(extension.KernelFiles()) {
		t.Errorf("kernel.d.ts has parts for %d files, there are %d", len(want), len(extension.KernelFiles()))
	}
	// Injected again (a new build), base.js starts a new, unstamped object.
	eval[bool](t, ctx, `(globalThis.__gripKernel__.build = 'older', true)`)
	base, _ := fs.ReadFile(extension.Files(), "kernel/base.js")
	eval[bool](t, ctx, string(base)+"\n;true")
	if eval[string](t, ctx, `globalThis.__gripKernel__.build`) != "" || eval[bool](t, ctx, `'run' in globalThis.__gripKernel__`) {
		t.Errorf("base.js did not replace the kernel's object")
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
