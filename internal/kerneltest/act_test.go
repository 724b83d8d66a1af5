package kerneltest_test

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// ref snapshots the page and returns the id of [role name].
func ref(tb testing.TB, ctx context.Context, role, name string) int {
	tb.Helper()
	return mustFind(tb, snap(tb, ctx, "interactive").Elements, role, name).ID
}

func TestActClickHitsThatElement(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "button", "Target")
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "click"}))
	if got := logOf(t, ctx); !reflect.DeepEqual(got, []string{"target"}) {
		t.Errorf("log = %v, want [target]", got)
	}
	// Far below the fold: scrolled into view, then clicked.
	far := ref(t, ctx, "button", "Far below")
	wantOK(t, act(t, ctx, map[string]any{"id": far, "action": "click"}))
	if got := logOf(t, ctx); !reflect.DeepEqual(got, []string{"target", "far"}) {
		t.Errorf("log = %v, want [target far]", got)
	}
	// By selector: registered, so the reply carries its id.
	r := act(t, ctx, map[string]any{"selector": "#other", "action": "click"})
	wantOK(t, r)
	if r.ID == 0 {
		t.Errorf("selector act without id: %+v", r)
	}
	wantError(t, act(t, ctx, map[string]any{"selector": "#nope", "action": "click"}), "not_found", "node", "no element matches")
}

func TestActRemovedIsStale(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "button", "Target")
	eval[any](t, ctx, `window.__kept = document.getElementById('target'), window.__kept.remove()`)
	wantError(t, act(t, ctx, map[string]any{"id": id, "action": "click"}), "stale_ref", "node", "its element is no longer on the page")
	// After a snapshot pruned it: still stale, and never clicked.
	snap(t, ctx, "interactive")
	wantError(t, act(t, ctx, map[string]any{"id": id, "action": "click"}), "stale_ref", "node", "")
	wantError(t, act(t, ctx, map[string]any{"id": 9999, "action": "click"}), "stale_ref", "node", "")
	if got := logOf(t, ctx); len(got) != 0 {
		t.Errorf("log = %v, want nothing clicked", got)
	}
}

func TestActMeaningChanged(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "button", "Pay now")
	eval[any](t, ctx, `document.getElementById('victim').textContent = 'Delete account'`)
	wantError(t, act(t, ctx, map[string]any{"id": id, "action": "click"}), "meaning_changed", "meaning",
		"name changed from 'Pay now' to 'Delete account'")
	if got := logOf(t, ctx); len(got) != 0 {
		t.Errorf("log = %v, want nothing clicked", got)
	}
}

func TestActOccluded(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "button", "Covered")
	eval[any](t, ctx, `document.getElementById('overlay').style.display = 'block'`)
	wantError(t, act(t, ctx, map[string]any{"id": id, "action": "click"}), "not_actionable", "point",
		"occluded by [button 'Accept cookies']")
	if got := logOf(t, ctx); len(got) != 0 {
		t.Errorf("log = %v, want nothing clicked", got)
	}
}

// An overlay on its way out (a CSS transition) is waited for, as a
// person waits for it; one that stays is refused at once.
func TestActWaitsForAMovingPage(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "button", "Covered")
	eval[any](t, ctx, `(() => {
		const o = document.getElementById('overlay');
		o.style.display = 'block';
		o.getBoundingClientRect();
		o.style.transition = 'transform 400ms linear';
		o.style.transform = 'translateX(100vw)';
		return null;
	})()`)
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "click"}))
	if got := logOf(t, ctx); !reflect.DeepEqual(got, []string{"covered"}) {
		t.Errorf("log = %v, want [covered]: the click landed before the overlay moved away", got)
	}
	// An infinite animation (a spinner) is not waited for: the refusal
	// comes at once.
	eval[any](t, ctx, `(() => {
		const o = document.getElementById('overlay');
		o.style.transition = ''; o.style.transform = '';
		o.animate([{opacity: .5}, {opacity: .6}], {duration: 300, iterations: Infinity});
		return null;
	})()`)
	wantError(t, act(t, ctx, map[string]any{"id": id, "action": "click"}), "not_actionable", "point",
		"occluded by [button 'Accept cookies']")
}

func TestActDisabled(t *testing.T) {
	ctx := newTab(t, "act.html")
	els := snap(t, ctx, "interactive").Elements
	d := mustFind(t, els, "button", "Disabled")
	if !reflect.DeepEqual(d.States, []string{"disabled"}) {
		t.Errorf("states = %v", d.States)
	}
	wantError(t, act(t, ctx, map[string]any{"id": d.ID, "action": "click"}), "not_actionable", "actionability", "disabled")
}

func TestActTrustedReturnsPoint(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "button", "Far below")
	r := act(t, ctx, map[string]any{"id": id, "action": "click", "trusted": true})
	wantOK(t, r)
	if r.Point == nil {
		t.Fatalf("no point: %+v", r)
	}
	hit := eval[string](t, ctx, "document.elementFromPoint("+ftoa(r.Point.X)+","+ftoa(r.Point.Y)+").id")
	if hit != "far" {
		t.Errorf("point %+v hits #%s, want #far", *r.Point, hit)
	}
	if got := logOf(t, ctx); len(got) != 0 {
		t.Errorf("trusted act clicked synthetically: %v", got)
	}
}

func TestActFillControlledInput(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "textbox", "Controlled")
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "fill", "text": "hello world"}))
	if got := eval[string](t, ctx, `getState()`); got != "hello world" {
		t.Errorf("state after fill = %q", got)
	}
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "type", "text": "!!"}))
	if got := eval[string](t, ctx, `getState()`); got != "hello world!!" {
		t.Errorf("state after type = %q", got)
	}
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "fill", "text": "new"}))
	if got := eval[string](t, ctx, `getState() + '|' + document.getElementById('react').value`); got != "new|new" {
		t.Errorf("state|value after second fill = %q", got)
	}
	e := mustFind(t, snap(t, ctx, "interactive").Elements, "textbox", "Controlled")
	if e.Value == nil || *e.Value != "new" {
		t.Errorf("snapshot value = %v", e.Value)
	}
}

func TestActTypeContentEditable(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "textbox", "Editor")
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "type", "text": " there"}))
	if got := eval[string](t, ctx, `document.getElementById('ce').textContent`); got != "Hello there" {
		t.Errorf("after type = %q", got)
	}
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "fill", "text": "Replaced"}))
	if got := eval[string](t, ctx, `document.getElementById('ce').textContent`); got != "Replaced" {
		t.Errorf("after fill = %q", got)
	}
}

func TestActSelectNative(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "combobox", "Size")
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "select", "value": "Large"}))
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "select", "value": "m"}))
	if got := logOf(t, ctx); !reflect.DeepEqual(got, []string{"change:l", "change:m"}) {
		t.Errorf("log = %v", got)
	}
	r := act(t, ctx, map[string]any{"id": id, "action": "select", "value": "Huge"})
	wantError(t, r, "not_actionable", "actionability", "no option 'Huge'")
	if !strings.Contains(r.Error.Message, "'Small', 'Medium', 'Large'") {
		t.Errorf("options not listed: %q", r.Error.Message)
	}
	e := mustFind(t, snap(t, ctx, "interactive").Elements, "combobox", "Size")
	if e.Value == nil || *e.Value != "Medium" {
		t.Errorf("value = %v", e.Value)
	}
}

func TestActSelectCustomListbox(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "combobox", "Fruit")
	r := act(t, ctx, map[string]any{"id": id, "action": "select", "value": "Banana"})
	wantOK(t, r)
	if got := logOf(t, ctx); !reflect.DeepEqual(got, []string{"pick:Banana"}) {
		t.Errorf("log = %v (reply %+v)", got, r)
	}
}

func TestActCheckUncheckIdempotent(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "checkbox", "Agree")
	steps := []struct{ action, detail string }{
		{"check", "checked"}, {"check", "already checked"}, {"uncheck", "unchecked"}, {"uncheck", "already unchecked"},
	}
	for _, s := range steps {
		r := act(t, ctx, map[string]any{"id": id, "action": s.action})
		wantOK(t, r)
		if r.Detail != s.detail {
			t.Errorf("%s: detail %q, want %q", s.action, r.Detail, s.detail)
		}
	}
	if got := logOf(t, ctx); !reflect.DeepEqual(got, []string{"cb:true", "cb:false"}) {
		t.Errorf("log = %v", got)
	}
	// Our own check refreshed the signature: a click is not refused as meaning_changed.
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "click"}))

	stuck := ref(t, ctx, "checkbox", "Stuck")
	wantError(t, act(t, ctx, map[string]any{"id": stuck, "action": "check"}), "not_actionable", "actionability",
		"did not become checked")

	// Radio: checking Blue unchecks Red; Red's stored state follows.
	els := snap(t, ctx, "interactive").Elements
	red, blue := mustFind(t, els, "radio", "Red"), mustFind(t, els, "radio", "Blue")
	wantOK(t, act(t, ctx, map[string]any{"id": blue.ID, "action": "check"}))
	wantOK(t, act(t, ctx, map[string]any{"id": red.ID, "action": "click"}))
	wantError(t, act(t, ctx, map[string]any{"id": red.ID, "action": "uncheck"}), "not_actionable", "actionability", "cannot be unchecked")
}

func TestActPressEnterSubmits(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "textbox", "Query")
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "fill", "text": "hello"}))
	r := act(t, ctx, map[string]any{"id": id, "action": "press", "key": "Enter"})
	wantOK(t, r)
	if got := logOf(t, ctx); !reflect.DeepEqual(got, []string{"submit:hello"}) {
		t.Errorf("log = %v (reply %+v)", got, r)
	}
	// Backspace on the focused field (no element given) edits it.
	wantOK(t, act(t, ctx, map[string]any{"action": "press", "key": "Backspace"}))
	if got := eval[string](t, ctx, `document.getElementById('q').value`); got != "hell" {
		t.Errorf("after Backspace = %q", got)
	}
	// Tab moves focus to the next tabbable element.
	wantOK(t, act(t, ctx, map[string]any{"action": "press", "key": "Tab"}))
	if got := eval[string](t, ctx, `document.activeElement.textContent`); got != "Go" {
		t.Errorf("focus after Tab on %q", got)
	}
}

// TestActPressTakesTheHostsKey: the kernel takes the key and modifiers as
// the host parsed them (host/keys.go): canonical modifiers act, the named
// keys' events carry protocol/keys.go's code and keyCode, and what only the
// host's parser accepts (aliases, "Control+A" in one string) is refused.
func TestActPressTakesTheHostsKey(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "textbox", "Query")
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "fill", "text": "hello"}))
	r := act(t, ctx, map[string]any{"id": id, "action": "press", "key": "a", "modifiers": []string{"Control"}})
	wantOK(t, r)
	if got := eval[string](t, ctx, `(() => { const q = document.getElementById('q'); return q.value.slice(q.selectionStart, q.selectionEnd); })()`); got != "hello" {
		t.Errorf("after Control a the selection is %q (reply %+v)", got, r)
	}
	eval[bool](t, ctx, `(document.getElementById('q').addEventListener('keydown', (e) => __log.push(e.key + '/' + e.code + '/' + e.keyCode + '/' + e.shiftKey)), true)`)
	for _, k := range protocol.NamedKeys {
		if k.Name == "Enter" || k.Name == "Tab" {
			continue // they submit or move the focus away
		}
		wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "press", "key": k.Name, "modifiers": []string{"Shift"}}))
		want := fmt.Sprintf("%s/%s/%d/true", k.DOMKey, k.Code, k.KeyCode)
		if got := logOf(t, ctx); len(got) == 0 || got[len(got)-1] != want {
			t.Errorf("press %s: keydown %v, want %s", k.Name, got, want)
		}
	}
	for _, key := range []string{"Control+A", "esc", "enter", "NoSuchKey"} {
		wantError(t, act(t, ctx, map[string]any{"id": id, "action": "press", "key": key}), "bad_request", "node", "unknown key")
	}
}

func TestProbe(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "button", "Target")
	r := call(t, ctx, map[string]any{"op": "probe", "text": "Pay  now", "id": id})
	if !r.TextFound || !r.Present {
		t.Errorf("probe = %+v", r)
	}
	eval[any](t, ctx, `document.getElementById('target').remove()`)
	r = call(t, ctx, map[string]any{"op": "probe", "text": "No such text", "id": id})
	if r.TextFound || r.Present {
		t.Errorf("probe after removal = %+v", r)
	}
}

func TestFrameOpsRefuseBadTargets(t *testing.T) {
	ctx := newTab(t, "act.html")
	wantError(t, call(t, ctx, map[string]any{"op": "frameIndex", "selector": "#target"}), "invalid_locator", "node", "not an iframe")
	wantError(t, call(t, ctx, map[string]any{"op": "frameIndex", "selector": "#nope"}), "not_found", "node", "no iframe matches")
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
