package host

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
)

// A target written as a bare role word ("textbox") is CSS for a tag no
// page has, and the kernel's not_found can only suggest a line with a
// name ("button 'textbox'"): an unnamed [textbox] has none. The refusal
// lists the elements of that role the agent was shown, with their refs,
// which name each of them (docs/locators.md, "Locators").

// roleWordsShown is how many elements of the role the refusal lists.
const roleWordsShown = 5

// roleWordValue is how much of a listed element's value its line shows:
// enough to tell two unnamed fields apart.
const roleWordValue = 30

var bareWord = regexp.MustCompile(`^[A-Za-z][\w-]*$`)

// roleWordRefusal is err, the not_found of a CSS target that is one bare
// word, with the elements of the tab's view whose role is that word.
func (h *Host) roleWordRefusal(a *action, err error) error {
	pe := protocol.AsError(err)
	if pe.Code != protocol.CodeNotFound || len(a.target.chain) != 1 || a.target.tab == 0 {
		return err
	}
	word := strings.TrimSpace(a.target.chain[0])
	if !bareWord.MatchString(word) {
		return err
	}
	els := h.tabs.shownWithRole(a.target.tab, strings.ToLower(word))
	if len(els) == 0 {
		return err
	}
	lines := make([]string, 0, roleWordsShown)
	named := ""
	for i := range els {
		if named == "" && els[i].Name != "" {
			// A line is its bracket's text: textbox 'Search'.
			l := frames.Line(protocol.Element{Role: els[i].Role, Name: els[i].Name, Context: els[i].Context})
			named = strings.TrimSuffix(strings.TrimPrefix(l, ": ["), "]")
		}
		if len(lines) < roleWordsShown {
			lines = append(lines, frames.Line(shortValue(els[i])))
		}
	}
	msg := fmt.Sprintf("no element matches %q: a bare word is read as CSS (a tag name); the [%s] elements: %s",
		word, strings.ToLower(word), strings.Join(lines, ", "))
	if more := len(els) - len(lines); more > 0 {
		msg += fmt.Sprintf(" and %d more (grip snapshot lists them)", more)
	}
	hint := "act on one by its ref"
	if named != "" {
		hint += fmt.Sprintf(`; a named one also by its line, e.g. "%s"`, named)
	}
	c := *pe
	c.Message, c.Hint = msg, hint
	return &c
}

// shownWithRole is the elements of the tab's view with this role, by
// ref (the order they were first shown in).
func (q *tabQueues) shownWithRole(tab int, role string) []protocol.Element {
	out := sortedLike(q.shownWhere(tab, func(_ uint64, el *protocol.Element) bool { return el.Role == role }))
	els := make([]protocol.Element, len(out))
	for i, l := range out {
		els[i] = l.el
	}
	return els
}

// shortValue is el with its value cut to roleWordValue characters.
func shortValue(el protocol.Element) protocol.Element {
	if el.Value != nil && utf8.RuneCountInString(*el.Value) > roleWordValue {
		v := string([]rune(*el.Value)[:roleWordValue-1]) + frames.CutMark
		el.Value = &v
	}
	el.ValueFrom = 0
	return el
}
