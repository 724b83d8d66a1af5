package kerneltest_test

import (
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
	if !strings.HasPrefix(src, "function gripKernel(req) {") {
		t.Errorf("Source starts with %q", src[:min(len(src), 40)])
	}
	if !strings.HasSuffix(src, "}") || strings.Contains(src, "export ") {
		t.Errorf("Source is not one function")
	}
	e := kerneltest.Expr(map[string]any{"op": "snapshot", "mode": "content"})
	if !strings.HasPrefix(e, "(function gripKernel(req) {") || !strings.HasSuffix(e, `)({"mode":"content","op":"snapshot"})`) {
		t.Errorf("Expr = …%s", e[max(0, len(e)-60):])
	}
	if bad := kerneltest.Expr(map[string]any{"x": func() {}}); !strings.Contains(bad, "bad_request") {
		t.Errorf("Expr of an unencodable request = %s", bad)
	}
}

// TestCacheGlobalPinned pins every copy of the cache's global name in the
// extension's injected code to one spelling.
func TestCacheGlobalPinned(t *testing.T) {
	if !strings.Contains(extension.KernelJS, "'"+kerneltest.CacheGlobal+"'") && !strings.Contains(extension.KernelJS, "."+kerneltest.CacheGlobal) {
		t.Fatalf("kernel.js does not name %s literally", kerneltest.CacheGlobal)
	}
	files, err := filepath.Glob("../extension/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no extension/*.js (%v)", err)
	}
	re := regexp.MustCompile(`__gripRef\w*`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllString(string(b), -1) {
			if m != kerneltest.CacheGlobal {
				t.Errorf("%s: %q, want %q", f, m, kerneltest.CacheGlobal)
			}
		}
	}
}
