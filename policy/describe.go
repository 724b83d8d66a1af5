package policy

import (
	"fmt"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// Describe is the policy in force, or the rule a URL falls under, as
// `grip policy` and grip mcp print it.
func Describe(res protocol.PolicyResult) string {
	if res.Rule != nil {
		name := res.Rule.Origin
		if name == "" {
			name = res.URL
		}
		return fmt.Sprintf("%s: %s — %s of %s\n", name, res.Rule.Rule, res.Rule.Why, res.Policy.File)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# the policy in force, from %s", res.Policy.File)
	if res.Policy.Missing && res.Policy.Error == "" {
		b.WriteString(" (no file: the default)")
	}
	b.WriteString("\n" + res.Text)
	return b.String()
}
