package kerneltest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/internal/kerneltest"
)

// An OOUI dropdown (MediaWiki's preferences, the time zone): the handle is
// a combobox standing in for a hidden select, its menu a listbox in an
// overlay at the end of the page. ooui-dropdown.html draws its DOM and does
// what OOUI does; TestOOUIDropdownReal runs the same checks on OOUI itself.
func TestOOUIDropdown(t *testing.T) {
	ctx := newTab(t, "ooui-dropdown.html")
	eval[bool](t, ctx, "("+kerneltest.Source()+", true)")
	checkOOUIDropdown(t, ctx, "document.getElementById('tz').value")
}

// MediaWiki's own OOUI (Debian's mediawiki package), when it is installed.
func TestOOUIDropdownReal(t *testing.T) {
	const lib = "/usr/share/mediawiki/resources"
	if _, err := os.Stat(lib + "/lib/ooui/oojs-ui-core.js"); err != nil {
		t.Skip("no MediaWiki OOUI here (apt-get install mediawiki)")
	}
	mux := http.NewServeMux()
	mux.Handle("/mw/", http.StripPrefix("/mw/", http.FileServer(http.Dir(lib))))
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(realOOUIPage)) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	ctx := newTab(t, "blank.html")
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	eval[bool](t, ctx, "("+kerneltest.Source()+", true)")
	checkOOUIDropdown(t, ctx, "dd.getValue()")
}

// realOOUIPage builds the time zone dropdown as MediaWiki's preferences
// do: a DropdownInputWidget with its menu in the default overlay.
const realOOUIPage = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="/mw/lib/ooui/oojs-ui-core-wikimediaui.css">
<script src="/mw/lib/jquery/jquery.js"></script><script src="/mw/lib/oojs/oojs.js"></script>
<script src="/mw/lib/ooui/oojs-ui-core.js"></script><script src="/mw/lib/ooui/oojs-ui-wikimediaui.js"></script>
</head><body><form><label>Time zone:</label><div id="place"></div><button type="button">Save</button></form><script>
const opts = [{data: 'default', label: 'Use wiki default (UTC)'}, {data: 'other', label: 'Other…'}];
for (const r of ['Africa', 'America', 'Asia', 'Europe', 'Pacific']) {
  opts.push({optgroup: r});
  for (let i = 0; i < 84; i++) opts.push({data: 'ZoneInfo|0|' + r + '/Z' + i, label: r + '/Z' + i});
}
opts.push({data: 'ZoneInfo|60|Europe/Berlin', label: 'Europe/Berlin'}, {data: 'ZoneInfo|60|Europe/Paris', label: 'Europe/Paris'});
window.dd = new OO.ui.DropdownInputWidget({options: opts, value: 'ZoneInfo|60|Europe/Berlin', $overlay: true});
$('#place').append(dd.$element);
</script></body></html>`

// checkOOUIDropdown: a refused select leaves the menu closed and names
// options from the whole list, so the next select finds its option; once
// closed, the menu is not listed though OOUI keeps it rendered (clipped to
// a pixel) while the handle has focus; open, it is. value reads the
// widget's value.
func checkOOUIDropdown(t *testing.T, ctx context.Context, value string) {
	t.Helper()
	const menuState = `(() => { const h = document.querySelector('[role=combobox]'), m = document.querySelector('[role=listbox]');
		return h.getAttribute('aria-expanded') + ' ' + getComputedStyle(m).display; })()`
	box := mustFind(t, snap(t, ctx, "interactive").Elements, "combobox", "Europe/Berlin")

	r := act(t, ctx, map[string]any{"id": box.ID, "action": "select", "value": "Paris"})
	wantError(t, r, "not_actionable", "actionability", "no option 'Paris'")
	if !strings.Contains(r.Error.Message, "'Use wiki default (UTC)', 'Other…', ") || !strings.Contains(r.Error.Message, " more)") {
		t.Errorf("the refusal does not name the options and how many more: %s", r.Error.Message)
	}
	if got := eval[string](t, ctx, menuState); !strings.HasPrefix(got, "false ") {
		t.Errorf("after the refusal the menu is %q (aria-expanded, display), want closed", got)
	}

	r = act(t, ctx, map[string]any{"id": box.ID, "action": "select", "value": "Europe/Paris"})
	wantOK(t, r)
	if r.Detail != "selected 'Europe/Paris'" {
		t.Errorf("detail %q", r.Detail)
	}
	if got := eval[string](t, ctx, value); got != "ZoneInfo|60|Europe/Paris" {
		t.Errorf("value after select = %q", got)
	}

	// The premise: closed, and OOUI's screen reader mode renders the menu.
	if got := eval[string](t, ctx, menuState); got != "false block" {
		t.Fatalf("after the select the menu is %q, want closed but rendered (false block)", got)
	}
	els := snap(t, ctx, "interactive").Elements
	for _, e := range els {
		if e.Role == "listbox" || e.Role == "option" {
			t.Fatalf("the closed menu is listed:\n%.2000s", dump(els))
		}
	}
	mustFind(t, els, "combobox", "Europe/Paris")

	// Opened, its options are listed.
	eval[bool](t, ctx, `(document.querySelector('[role=combobox]').click(), true)`)
	els = snap(t, ctx, "interactive").Elements
	if find(els, "option", "Europe/Paris") == nil {
		t.Errorf("the open menu's options are not listed:\n%.2000s", dump(els))
	}
	// A select on the open menu picks from it (a click on the handle would
	// close it).
	wantOK(t, act(t, ctx, map[string]any{"id": box.ID, "action": "select", "value": "Europe/Berlin"}))
	if got := eval[string](t, ctx, value); got != "ZoneInfo|60|Europe/Berlin" {
		t.Errorf("value after a select on the open menu = %q", got)
	}
}
