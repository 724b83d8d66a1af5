package kerneltest_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/internal/kerneltest"
)

// upload hands files to the kernel the way the worker does (one 'stage'
// request per file) and then runs the act 'upload' on the element target
// names ({"selector": …} or {"id": …}), all in one evaluation: the test
// helpers install the kernel afresh on every call, and the staged bytes
// live in the installed kernel.
func upload(tb testing.TB, ctx context.Context, target map[string]any, files map[string]string) kerneltest.Reply {
	tb.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	var specs []map[string]any
	var stages []map[string]any
	for i, n := range names {
		specs = append(specs, map[string]any{"name": n, "type": "text/plain", "size": len(files[n]), "lastModified": 1700000000000})
		if files[n] != "" {
			stages = append(stages, map[string]any{"op": "stage", "upload": "u1", "file": i, "data": base64.StdEncoding.EncodeToString([]byte(files[n]))})
		}
	}
	req := map[string]any{"op": "act", "action": "upload", "upload": map[string]any{"id": "u1", "files": specs}}
	for k, v := range target {
		req[k] = v
	}
	sj, _ := json.Marshal(stages)
	rj, _ := json.Marshal(req)
	expr := "((run) => { for (const s of " + string(sj) + ") { const r = run(s); if (!r.ok) return r; } return run(" + string(rj) + "); })(" + kerneltest.Source() + ")"
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.Fatalf("upload %v: %v", target, err)
	}
	var r kerneltest.Reply
	if err := json.Unmarshal(raw, &r); err != nil {
		tb.Fatalf("decode %s: %v", raw, err)
	}
	return r
}

// waitLog waits until the page logged n entries (the change handlers
// read the files asynchronously) and returns them.
func waitLog(tb testing.TB, ctx context.Context, n int) []string {
	tb.Helper()
	return eval[[]string](tb, ctx, `new Promise((resolve) => {
		const t0 = Date.now();
		(function poll() {
			if (window.__log.length >= `+strings.Repeat("", 0)+itoa(n)+` || Date.now() - t0 > 5000) return resolve(window.__log);
			setTimeout(poll, 20);
		})();
	})`)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestUploadFindsTheInput: each way a page puts something in front of a
// hidden file input leads to that input, which gets the file's bytes and
// fires input then change.
func TestUploadFindsTheInput(t *testing.T) {
	for _, tt := range []struct{ target, input string }{
		{"#in-for", "in-for"},            // the input itself, hidden
		{"#lab-for", "in-for"},           // label[for]
		{"#lab-wrap", "in-wrap"},         // a wrapping label
		{"#btn-controls", "in-controls"}, // aria-controls names the input
		{"#btn-box", "in-box"},           // aria-controls names a box holding one
		{"#zone", "in-zone"},             // a drop zone holding one
		{"#btn-near", "in-near"},         // a button beside one, two levels down
		{"file-box", "in-shadow"},        // a custom element holding one in its shadow root
	} {
		t.Run(tt.target, func(t *testing.T) {
			ctx := newTab(t, "upload.html")
			r := upload(t, ctx, map[string]any{"selector": tt.target}, map[string]string{"a.txt": "alpha"})
			wantOK(t, r)
			got := waitLog(t, ctx, 2)
			want := []string{"input " + tt.input, "change " + tt.input + " a.txt=alpha"}
			if !slices.Equal(got, want) {
				t.Errorf("log = %q, want %q", got, want)
			}
		})
	}
}

// TestUploadFromInsideAShadowRoot: a button in a shadow root, beside a
// hidden input in the same root, named by its snapshot id.
func TestUploadFromInsideAShadowRoot(t *testing.T) {
	ctx := newTab(t, "upload.html")
	id := ref(t, ctx, "button", "Shadow upload")
	wantOK(t, upload(t, ctx, map[string]any{"id": id}, map[string]string{"s.txt": "shadow"}))
	if got := waitLog(t, ctx, 2); !slices.Equal(got, []string{"input in-shadow", "change in-shadow s.txt=shadow"}) {
		t.Errorf("log = %q", got)
	}
}

// TestUploadRefusals: grip refuses rather than guesses, and a refused
// upload touches no input.
func TestUploadRefusals(t *testing.T) {
	two := map[string]string{"a.txt": "a", "b.txt": "b"}
	one := map[string]string{"a.txt": "a"}
	for _, tt := range []struct {
		name, target string
		files        map[string]string
		setup        string
		boundary     string
		part         string
	}{
		{"two inputs beside", "#btn-two", one, "", "actionability", "next to 2 file inputs"},
		{"nothing beside but the whole page", "#btn-lonely", one, "", "actionability", "no file input belongs to it"},
		{"disabled input", "#in-disabled", one, "", "actionability", "disabled"},
		{"one-file input, two files", "#lab-for", two, "", "actionability", "takes one file"},
		{"covered button", "#btn-covered", one, "document.getElementById('veil').hidden = false", "point", "occluded by [div]"},
		{"hidden button", "#btn-covered", one, "document.getElementById('btn-covered').style.display = 'none'", "actionability", ""},
		{"inert input", "#in-for", one, "document.getElementById('in-for').parentElement.inert = true", "actionability", "inert"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := newTab(t, "upload.html")
			if tt.setup != "" {
				eval[any](t, ctx, "("+tt.setup+", null)")
			}
			r := upload(t, ctx, map[string]any{"selector": tt.target}, tt.files)
			wantError(t, r, "not_actionable", tt.boundary, tt.part)
			if got := eval[int](t, ctx, `[...document.querySelectorAll('input[type=file]')].filter((i) => i.files.length).length`); got != 0 {
				t.Errorf("%d inputs got files", got)
			}
			if got := logOf(t, ctx); len(got) != 0 {
				t.Errorf("events fired: %q", got)
			}
		})
	}
}

// TestUploadSeveralAndEmpty: a multiple input takes several files, an
// empty one included (it stages no bytes).
func TestUploadSeveralAndEmpty(t *testing.T) {
	ctx := newTab(t, "upload.html")
	wantOK(t, upload(t, ctx, map[string]any{"selector": "#btn-near"}, map[string]string{"a.txt": "alpha", "empty.txt": "", "z.txt": "zed"}))
	got := waitLog(t, ctx, 2)
	if want := []string{"input in-near", "change in-near a.txt=alpha,empty.txt=,z.txt=zed"}; !slices.Equal(got, want) {
		t.Errorf("log = %q, want %q", got, want)
	}
}
