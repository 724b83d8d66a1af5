package extension

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// TestPageOwnAttributesRead: the page's own attributes (data-*) the kernel
// reads anywhere are exactly the ones reread.js lists as read
// (KERNEL_READS_DATA), so a change of any other one, which keeps the kept
// walk when no style rule names it, cannot be one a walk depends on. A
// kernel file reading a new one by name, or through dataset, fails here.
func TestPageOwnAttributesRead(t *testing.T) {
	files, err := filepath.Glob("kernel/*.js")
	if err != nil || len(files) < 20 {
		t.Fatalf("kernel files %v: %v", files, err)
	}
	named := regexp.MustCompile(`\b(data-[a-z0-9_-]+)`)
	comment := regexp.MustCompile(`(?m)^\s*(//|\*|/\*\*).*$`)
	var read []string
	listed := ""
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code := comment.ReplaceAllString(string(b), "")
		if filepath.Base(f) == "reread.js" {
			listed = between(t, code, "const KERNEL_READS_DATA = new Set([", "]);")
			continue
		}
		if regexp.MustCompile(`\.dataset\b`).MatchString(code) {
			t.Errorf("%s reads dataset: read the page's own attributes by name (attr(el, 'data-…')), and list them in reread.js KERNEL_READS_DATA", f)
		}
		for _, m := range named.FindAllStringSubmatch(code, -1) {
			read = append(read, m[1])
		}
	}
	slices.Sort(read)
	read = slices.Compact(read)
	var list []string
	for _, m := range named.FindAllStringSubmatch(listed, -1) {
		list = append(list, m[1])
	}
	slices.Sort(list)
	if len(read) == 0 || !slices.Equal(read, list) {
		t.Errorf("the kernel reads %v; reread.js KERNEL_READS_DATA lists %v: they must be the same", read, list)
	}
}
