package policy

// BuiltinLocalFiles is why file:// pages are blocked under a policy that
// does not name them: a local file is not a site the person visits, and
// a page showing ~/.ssh/id_rsa is one snapshot away from an agent.
const BuiltinLocalFiles = "grip's built-in rule: local files (file://) are closed to agents unless a rule of the policy names file://, e.g. \"read file://\""

// decideFile is the rule of a file:// URL: only a pattern that names the
// file scheme opens it (a "*" or a host pattern without a scheme does
// not); with none, it is blocked.
func (p *Policy) decideFile() Decision {
	best := -1
	var d Decision
	for i := range p.Entries {
		e := &p.Entries[i]
		if e.Pattern.Scheme != "file" {
			continue
		}
		if s, ok := e.Pattern.match(Origin{Scheme: "file"}); ok && (s > best || s == best && e.Rule > d.Rule) {
			best, d = s, Decision{Rule: e.Rule, Entry: e}
		}
	}
	if best < 0 {
		return Decision{Rule: Block, Builtin: BuiltinLocalFiles}
	}
	return d
}
