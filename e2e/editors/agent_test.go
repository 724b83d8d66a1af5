package editors_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
)

// agent runs the grip CLI as an agent does, reading its plain text, and
// counts what it read: tokens as grip's budget counts them, ceil(chars/3)
// per line (opening the tab and the snapshots taken while the page was
// still loading are not counted).
type agent struct {
	t        *testing.T
	tab      int
	commands int
	tokens   int
}

func newAgent(t *testing.T) *agent {
	t.Helper()
	browsertest.Need(t, env)
	return &agent{t: t}
}

// open opens the host page at path in a new tab and waits until a
// snapshot shows an element line starting with want (the editor has
// loaded).
func (a *agent) open(path, want string) string {
	a.t.Helper()
	return a.openURL(env.Origin1+path, want)
}

// openURL is open for any URL.
func (a *agent) openURL(url, want string) string {
	a.t.Helper()
	a.tab = env.OpenTab(a.t, url)
	return a.openURLWait(want)
}

// openURLWait waits until a snapshot of the agent's tab shows an element
// line starting with want.
func (a *agent) openURLWait(want string) string {
	a.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		// What the agent reads counts from the snapshot that shows the
		// editor: pages load at their own pace.
		commands, tokens := a.commands, a.tokens
		snap := a.snapshot()
		if line(snap, want) != "" {
			return snap
		}
		a.commands, a.tokens = commands, tokens
		if time.Now().After(deadline) {
			a.t.Fatalf("tab %d never showed %s:\n%s", a.tab, want, snap)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// snapshot runs grip snapshot on the agent's tab.
func (a *agent) snapshot(extra ...string) string {
	a.t.Helper()
	return a.must(append([]string{"snapshot", "--tab", fmt.Sprint(a.tab)}, extra...)...)
}

// run runs grip with args and counts what it printed.
func (a *agent) run(args ...string) browsertest.Result {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	r := env.Grip(ctx, args...)
	a.t.Logf("%v grip %s", time.Since(start).Round(time.Millisecond), strings.Join(args, " "))
	a.commands++
	a.tokens += tokens(r.Stdout) + tokens(r.Stderr)
	return r
}

// must runs grip and fails the test unless it exits 0.
func (a *agent) must(args ...string) string {
	a.t.Helper()
	r := a.run(args...)
	if r.Code != 0 {
		a.t.Fatalf("grip %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
	}
	return r.Stdout
}

// report logs what the agent read on the way (bench/RESULTS.md lists it).
func (a *agent) report(task string) {
	a.t.Logf("tokens read: %d in %d grip commands (%s)", a.tokens, a.commands, task)
}

// tokens is what text costs against grip's budget: ceil(chars/3) a line.
func tokens(text string) int {
	n := 0
	for _, l := range strings.SplitAfter(text, "\n") {
		if c := len([]rune(strings.TrimSuffix(l, "\n"))); c > 0 {
			n += (c + 2) / 3
		}
	}
	return n
}

var refLine = regexp.MustCompile(`^(@e\d+): (\[.*)$`)

// line returns the snapshot line (without its ref) that starts with
// prefix, e.g. "[textbox 'Script'", or "".
func line(snap, prefix string) string {
	for _, l := range strings.Split(snap, "\n") {
		if m := refLine.FindStringSubmatch(l); m != nil && strings.HasPrefix(m[2], prefix) {
			return m[2]
		}
	}
	return ""
}

// ref returns the ref of the snapshot line that starts with prefix.
func ref(t *testing.T, snap, prefix string) string {
	t.Helper()
	for _, l := range strings.Split(snap, "\n") {
		if m := refLine.FindStringSubmatch(l); m != nil && strings.HasPrefix(m[2], prefix) {
			return m[1]
		}
	}
	t.Fatalf("no line %s… in the snapshot:\n%s", prefix, snap)
	return ""
}

// lineOf returns the line of ref in a snapshot, or "".
func lineOf(snap, ref string) string {
	for _, l := range strings.Split(snap, "\n") {
		if strings.HasPrefix(l, ref+": ") {
			return l
		}
	}
	return ""
}

// observe evaluates expr in the page's own main world over CDP, apart
// from grip, and returns its value.
func observe[T any](a *agent, expr string) T {
	a.t.Helper()
	return browsertest.Eval[T](a.t, env, env.TabURL(a.t, a.tab), expr)
}

// eventually polls expr until it equals want (editors may apply input a
// frame later), failing with what it last saw.
func eventually[T comparable](a *agent, expr string, want T) {
	a.t.Helper()
	eventuallyWithin(a, 5*time.Second, expr, want)
}

// eventuallyWithin is eventually with its own bound: for what the app
// does on its own time before a task begins (a notebook's kernel starting,
// which on a loaded machine takes longer than any reply should).
func eventuallyWithin[T comparable](a *agent, bound time.Duration, expr string, want T) {
	a.t.Helper()
	deadline := time.Now().Add(bound)
	for {
		got := observe[T](a, expr)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("%s = %#v, want %#v", expr, got, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// setUp runs statements in the page's main world over CDP: the test
// arranging the page, not the agent acting on it.
func setUp(a *agent, js string) {
	a.t.Helper()
	observe[any](a, "(() => { "+js+"; return null })()")
}

// saysText reports whether an action's reply tells the editor's text: as
// the page's own account ("text is now '…'") or as the value on the
// editor's changed line, which the reply says once.
func saysText(out, text string) bool {
	return strings.Contains(out, "text is now '"+text+"'") || strings.Contains(out, " value='"+text+"'")
}
