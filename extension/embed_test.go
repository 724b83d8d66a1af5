package extension_test

import (
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/extension"
)

// TestKernelFilesAllEmbedded: every listed file is embedded (so grip
// install writes it), and every kernel script is listed (none is left
// out of the injection).
func TestKernelFilesAllEmbedded(t *testing.T) {
	listed := extension.KernelFiles()
	for _, f := range listed {
		if _, err := fs.Stat(extension.Files(), f); err != nil {
			t.Errorf("%s is listed but not embedded: %v", f, err)
		}
	}
	embedded, err := fs.Glob(extension.Files(), "kernel/*.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range embedded {
		if !slices.Contains(listed, f) {
			t.Errorf("%s is embedded but not in the kernel's file list", f)
		}
	}
	src := extension.KernelSource()
	for _, f := range listed {
		b, _ := fs.ReadFile(extension.Files(), f)
		if !strings.Contains(src, string(b)) {
			t.Errorf("KernelSource lacks %s", f)
		}
	}
}

// TestKernelFilesNotWebAccessible: the page must not be able to fetch the
// kernel; the worker reads its own files without that.
func TestKernelFilesNotWebAccessible(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal(extension.ManifestJSON, &m); err != nil {
		t.Fatal(err)
	}
	if war, ok := m["web_accessible_resources"]; ok {
		t.Errorf("manifest declares web_accessible_resources: %v", war)
	}
}

// TestKernelFilesAddOnlyTheirPart: each file is one IIFE, so it declares
// no global of its own; base.js alone makes the kernel's object and the
// others read it.
func TestKernelFilesAddOnlyTheirPart(t *testing.T) {
	for i, f := range extension.KernelFiles() {
		b, err := fs.ReadFile(extension.Files(), f)
		if err != nil {
			t.Fatal(err)
		}
		// Drop the leading comments: the code must be one IIFE.
		var code []string
		for _, line := range strings.Split(string(b), "\n") {
			if len(code) == 0 && strings.HasPrefix(line, "//") {
				continue
			}
			code = append(code, line)
		}
		body := strings.TrimSpace(strings.Join(code, "\n"))
		if !strings.HasPrefix(body, "(() => {\n  'use strict';") || !strings.HasSuffix(body, "})();") {
			t.Errorf("%s is not one strict IIFE", f)
		}
		makes := strings.Contains(body, "globalThis.__gripKernel__ = K;")
		reads := strings.Contains(body, "const K = globalThis.__gripKernel__;")
		if (i == 0) != makes || (i != 0) != reads {
			t.Errorf("%s: makes the kernel object %v, reads it %v; only the first file makes it", f, makes, reads)
		}
	}
}
