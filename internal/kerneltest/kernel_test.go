package kerneltest_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
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
	files, err := filepath.Glob("../../extension/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no extension/*.js (%v)", err)
	}
	kernel, _ := filepath.Glob("../../extension/kernel/*")
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
