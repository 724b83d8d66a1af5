package host

import (
	"errors"
	"strings"
	"testing"

	"github.com/grip-dev/grip/locator"
	"github.com/grip-dev/grip/protocol"
)

// An ambiguous line is told to add a context only where the candidates'
// contexts tell each apart.
func TestAmbiguousSuggestsAContextOnlyWhereOneHelps(t *testing.T) {
	l, ok := locator.ParseLine("button 'Search'")
	if !ok {
		t.Fatal("the line does not parse")
	}
	for _, c := range []struct {
		contexts []string
		suggest  bool
	}{
		{[]string{"Header", "Results"}, true},
		{[]string{"", ""}, false},
		{[]string{"Header", ""}, false},
		{[]string{"Reports", "Reports"}, false},
	} {
		var found []protocol.Element
		for i, ctx := range c.contexts {
			found = append(found, protocol.Element{Ref: "@e" + string(rune('1'+i)), Role: "button", Name: "Search", Context: ctx})
		}
		var pe *protocol.Error
		if !errors.As(ambiguous(l, found), &pe) || pe.Code != protocol.CodeAmbiguous {
			t.Fatalf("%q: not ambiguous: %v", c.contexts, pe)
		}
		if got := strings.Contains(pe.Hint, "add its context"); got != c.suggest {
			t.Errorf("contexts %q: hint %q, want a context suggested: %v", c.contexts, pe.Hint, c.suggest)
		}
	}
}
