package extension

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestKernelCallsHaveHandlers: the kernel's calls (KernelCalls in
// kernel/kernel.d.ts) are exactly the ops of run.js's handler table, and
// every op the worker sends the kernel is one of them. tsc checks the same
// when it runs; this holds without it.
func TestKernelCallsHaveHandlers(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	dts := read("kernel/kernel.d.ts")
	block := between(t, dts, "interface KernelCalls {", "\n}\n")
	calls := regexp.MustCompile(`(?m)^  (\w+): \{`).FindAllStringSubmatch(block, -1)
	runJS := read("kernel/run.js")
	table := between(t, runJS, "const HANDLERS = {", "\n  };\n")
	handlers := regexp.MustCompile(`(?m)^    (\w+)(?:\(req\)|: \(req\) =>)`).FindAllStringSubmatch(table, -1)
	names := func(ms [][]string) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m[1])
		}
		slices.Sort(out)
		return out
	}
	ops, runs := names(calls), names(handlers)
	if len(ops) < 10 {
		t.Fatalf("read only %v from KernelCalls: the test no longer reads kernel.d.ts", ops)
	}
	if !slices.Equal(ops, runs) {
		t.Errorf("KernelCalls has %v, run.js's HANDLERS %v", ops, runs)
	}
	// Every op the worker sends (`op: 'x'` in the worker's files).
	files, err := filepath.Glob("worker/*.js")
	if err != nil {
		t.Fatal(err)
	}
	sent := regexp.MustCompile(`\bop: '(\w+)'`)
	n := 0
	for _, f := range files {
		for _, m := range sent.FindAllStringSubmatch(read(f), -1) {
			n++
			if !slices.Contains(ops, m[1]) {
				t.Errorf("%s sends the kernel op %q, which KernelCalls does not have", f, m[1])
			}
		}
	}
	if n < 8 {
		t.Errorf("found only %d kernel calls in the worker's files: the test no longer reads them", n)
	}
}

// between is the text of s after start up to the first end after it.
func between(t *testing.T, s, start, end string) string {
	t.Helper()
	i := strings.Index(s, start)
	if i < 0 {
		t.Fatalf("no %q", start)
	}
	s = s[i+len(start):]
	j := strings.Index(s, end)
	if j < 0 {
		t.Fatalf("no %q after %q", end, start)
	}
	return s[:j]
}

// TestPopupCallsHaveHandlers: the popup's calls (PopupCalls in
// popup-calls.d.ts) are exactly the types of popup-api.js's handler table,
// and every message the popup sends is one of them.
func TestPopupCallsHaveHandlers(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	block := between(t, read("popup-calls.d.ts"), "interface PopupCalls {", "\n}\n")
	var calls []string
	for _, m := range regexp.MustCompile(`(?m)^  (\w+): \{`).FindAllStringSubmatch(block, -1) {
		calls = append(calls, m[1])
	}
	table := between(t, read("worker/popup-api.js"), "const HANDLERS = {", "\n};\n")
	var handlers []string
	for _, m := range regexp.MustCompile(`(?m)^  (?:async )?(\w+)(?:\(|: )`).FindAllStringSubmatch(table, -1) {
		handlers = append(handlers, m[1])
	}
	slices.Sort(calls)
	slices.Sort(handlers)
	if len(calls) < 11 {
		t.Fatalf("read only %v from PopupCalls: the test no longer reads popup-calls.d.ts", calls)
	}
	if !slices.Equal(calls, handlers) {
		t.Errorf("PopupCalls has %v, popup-api.js's HANDLERS %v", calls, handlers)
	}
	sent := regexp.MustCompile(`ask\(\{ type: '(\w+)'`)
	n := 0
	for _, f := range []string{"popup/popup.js", "popup/popup-person.js"} {
		for _, m := range sent.FindAllStringSubmatch(read(f), -1) {
			n++
			if !slices.Contains(calls, m[1]) {
				t.Errorf("%s sends %q, which PopupCalls does not have", f, m[1])
			}
		}
	}
	if n < 8 {
		t.Errorf("found only %d of the popup's messages: the test no longer reads them", n)
	}
}
