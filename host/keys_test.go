package host

import (
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// TestParseKeyAliases: every alias and modifier name protocol/keys.go lists
// is parsed into the canonical name the kernel reads, in any case, and
// every name the host sends is one the kernel knows (a named key or one
// character; a modifier of protocol.Modifiers).
func TestParseKeyAliases(t *testing.T) {
	for alias, name := range protocol.KeyAliases {
		for _, in := range []string{alias, strings.ToUpper(alias)} {
			if in == " " {
				in = "Control+ "
			}
			key, _, err := parseKey(in)
			if err != nil || key != name {
				t.Errorf("%q = %q, %v; want %q", in, key, err, name)
			}
		}
	}
	for alias, mod := range protocol.ModifierNames {
		for _, in := range []string{alias + "+a", strings.ToUpper(alias) + "+a"} {
			key, mods, err := parseKey(in)
			if err != nil || key != "a" || !slices.Equal(mods, []string{mod}) || !slices.Contains(protocol.Modifiers, mod) {
				t.Errorf("%q = %q %v, %v; want a [%s]", in, key, mods, err, mod)
			}
		}
	}
	for _, k := range protocol.NamedKeys {
		key, _, err := parseKey(strings.ToLower(k.Name))
		if err != nil || key != k.Name {
			t.Errorf("%q = %q, %v", strings.ToLower(k.Name), key, err)
		}
		if _, ok := namedKeys()[key]; !ok {
			t.Errorf("%s has no key press", key)
		}
	}
	if key, mods, err := parseKey("Super+Shift+Esc"); err != nil || key != "Escape" || !slices.Equal(mods, []string{"Meta", "Shift"}) {
		t.Errorf("Super+Shift+Esc = %q %v, %v", key, mods, err)
	}
}
