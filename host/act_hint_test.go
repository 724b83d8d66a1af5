package host

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// A page's not_actionable refusal without a next step gets one, with a
// ref or without; a refusal that has one keeps it. (scripts/walk found
// these bare on real apps: "element is not editable", "element is
// read-only", "element has no size", …)
func TestNotActionableRefusalsSayWhatNext(t *testing.T) {
	h := &Host{}
	for _, msg := range []string{
		"element is not editable: [combobox 'Fruit']", "element is read-only", "element is not visible",
		"element has no size", "element is outside the viewport and could not be scrolled into view",
		"element is disabled", "the checkbox did not become checked", "something new",
	} {
		for _, ref := range []string{"@e5", ""} {
			err := h.refineActError(&protocol.Error{Code: protocol.CodeNotActionable, Message: msg}, actTarget{ref: ref})
			pe := protocol.AsError(err)
			if pe.Hint == "" || !strings.Contains(pe.Message, msg) {
				t.Errorf("%q (ref %q): refused %+v, with no next step", msg, ref, pe)
			}
		}
	}
	err := h.refineActError(&protocol.Error{Code: protocol.CodeNotActionable, Message: "occluded by [div]", Hint: "close it"}, actTarget{ref: "@e1"})
	if pe := protocol.AsError(err); pe.Hint != "close it" || pe.Message != "@e1: occluded by [div]" {
		t.Errorf("the page's own hint was not kept: %+v", pe)
	}
	if got := notActionableHint("element is not editable: [combobox 'Fruit']"); !strings.Contains(got, "grip select") {
		t.Errorf("a select's refusal to fill does not point at grip select: %q", got)
	}
}
