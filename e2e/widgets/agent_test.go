package widgets_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/internal/browsertest"
)

// agent runs grip commands the way an agent does, reading the plain text
// they print, and counts the tokens it read on the way (grip's own
// measure: ceil(chars/3) a line, frames.Cost).
type agent struct {
	t      *testing.T
	tab    string
	url    string
	tokens int
}

// open starts an agent on a new tab showing path, served from the first origin.
func open(t *testing.T, path string) *agent {
	t.Helper()
	need(t)
	url := env.Origin1 + path
	a := &agent{t: t, url: url}
	a.tab = strconv.Itoa(env.OpenTab(t, url))
	t.Cleanup(func() {
		tokens.Lock()
		tokens.byTest[t.Name()] += a.tokens
		tokens.Unlock()
		t.Logf("the agent read %d tokens", a.tokens)
	})
	return a
}

// run runs grip with args and returns what it printed (stdout, then
// stderr) and its exit code; everything printed counts as read.
func (a *agent) run(args ...string) (string, int) {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r := env.Grip(ctx, args...)
	out := r.Stdout + r.Stderr
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		a.tokens += frames.Cost(line)
	}
	return out, r.Code
}

// must runs grip and fails the test unless it exits 0.
func (a *agent) must(args ...string) string {
	a.t.Helper()
	out, code := a.run(args...)
	if code != 0 {
		a.t.Fatalf("grip %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// snapshot is `grip snapshot` of the agent's tab.
func (a *agent) snapshot(extra ...string) string {
	a.t.Helper()
	return a.must(append([]string{"snapshot", "--tab", a.tab}, extra...)...)
}

// line is one element line of a snapshot: @e3: [role 'name' rest].
var line = regexp.MustCompile(`(?m)^(@e[0-9]+): \[([a-z]+)(?: '((?:[^'\\]|\\.)*)')?([^\]\n]*)\]$`)

// el is one element as the agent reads it off a line.
type el struct {
	ref, role, name, rest string
}

// elements are the element lines of text, in order.
func elements(text string) []el {
	var out []el
	for _, m := range line.FindAllStringSubmatch(text, -1) {
		name := strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(m[3])
		out = append(out, el{ref: m[1], role: m[2], name: name, rest: strings.TrimSpace(m[4])})
	}
	return out
}

// find returns the first element of text with role and a name that
// contains name ("" matches any), or fails the test.
func (a *agent) find(text, role, name string) el {
	a.t.Helper()
	if e, ok := lookup(text, role, name); ok {
		return e
	}
	a.t.Fatalf("no [%s %q] in\n%s", role, name, text)
	return el{}
}

func lookup(text, role, name string) (el, bool) {
	for _, e := range elements(text) {
		if e.role == role && strings.Contains(e.name, name) {
			return e, true
		}
	}
	return el{}, false
}

// until takes snapshots until one has [role 'name'], and returns it.
func (a *agent) until(role, name string) string {
	a.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		text := a.snapshot()
		if _, ok := lookup(text, role, name); ok {
			return text
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("no [%s %q] after 10s:\n%s", role, name, text)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// eval reads expr in the page's main world over CDP: the component's own
// API, seen by an observer that is not grip.
func eval[T any](a *agent, expr string) T {
	a.t.Helper()
	return browsertest.Eval[T](a.t, env, a.url, expr)
}
