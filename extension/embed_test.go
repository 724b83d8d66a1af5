package extension_test

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/extension"
)

// jsKernelFiles reads the worker's KERNEL_FILES array out of inject.js.
func jsKernelFiles(t *testing.T) []string {
	t.Helper()
	src, err := fs.ReadFile(extension.Files(), "inject.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)export const KERNEL_FILES = \[(.*?)\];`).FindSubmatch(src)
	if m == nil {
		t.Fatal("inject.js has no `export const KERNEL_FILES = [...];`")
	}
	var list []string
	// The array body is a list of single-quoted strings: as JSON once the
	// quotes are swapped and the trailing comma dropped.
	body := strings.TrimSuffix(strings.TrimSpace(strings.ReplaceAll(string(m[1]), "'", `"`)), ",")
	if err := json.Unmarshal([]byte("["+body+"]"), &list); err != nil {
		t.Fatalf("KERNEL_FILES is not a plain list of strings: %v\n%s", err, m[1])
	}
	return list
}

// TestKernelFilesMatchTheWorker: the worker injects the same files, in the
// same order, as the Go side lists and evaluates in tests.
func TestKernelFilesMatchTheWorker(t *testing.T) {
	js, goList := jsKernelFiles(t), extension.KernelFiles()
	if !slices.Equal(js, goList) {
		t.Errorf("inject.js KERNEL_FILES = %q\nextension.KernelFiles() = %q", js, goList)
	}
}

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
