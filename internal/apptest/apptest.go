// Package apptest is the harness of the suites that drive real, widely
// used third-party apps through the grip CLI only, as an agent would
// (e2e/widgets, e2e/drawn): a browser for the package serving the suite's
// folder, the npm packages its package.json pins checked in node_modules,
// and an Agent that runs grip commands, reads their plain text and counts
// the tokens it read (grip's measure, frames.Cost), printed per test when
// the package ends, for bench/RESULTS.md.
package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/internal/browsertest"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Suite is one package's browser and pinned packages.
type Suite struct {
	// Name names the suite in what it prints ("widgets"), and its folder
	// under e2e/.
	Name string
	// What the packages are, in the skip message ("component", "app").
	What string

	// Env is the package's browser, set by Main; nil without one.
	Env *browsertest.Env
	// Missing says why the packages cannot be served ("" when they can);
	// set by Main.
	Missing string

	mu     sync.Mutex
	tokens map[string]int // what each test's agent read, by test name; guarded by mu
}

// Main is the package's TestMain: it checks the pinned packages (their
// absence fails the package when a browser is required, else every test
// skips), starts the browser serving the package's folder on both
// loopback origins (the host pages in testdata/ and the packages in
// node_modules/), runs the tests, prints the tokens and returns the exit
// code.
func (s *Suite) Main(m *testing.M) int {
	s.Missing = checkPackages(".")
	if s.Missing != "" {
		if os.Getenv(browsertest.RequireEnv) != "" {
			fmt.Fprintf(os.Stderr, "%s: %s; run scripts/setup --js (npm ci in e2e/%s)\n", s.Name, s.Missing, s.Name)
			return 1
		}
		fmt.Fprintf(os.Stderr, "%s: %s; the %s tests skip (set %s=1 to make this a failure)\n", s.Name, s.Missing, s.What, browsertest.RequireEnv)
		return m.Run()
	}
	s.Env = browsertest.ForMain(browsertest.Options{Fixtures: os.DirFS(".")})
	code := m.Run()
	s.printTokens()
	if s.Env != nil {
		if err := s.Env.Close(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// Need skips t when there is no browser or no packages (and neither is
// required: Main has already failed the package when they are).
func (s *Suite) Need(t *testing.T) {
	t.Helper()
	if s.Missing != "" {
		t.Skip(s.Missing)
	}
	browsertest.Need(t, s.Env)
}

// checkPackages says which pinned package is not installed in dir's
// node_modules at the version package.json names, or "".
func checkPackages(dir string) string {
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return err.Error()
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return "package.json: " + err.Error()
	}
	names := make([]string, 0, len(pkg.Dependencies))
	for n := range pkg.Dependencies {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		var got struct {
			Version string `json:"version"`
		}
		b, err := os.ReadFile(filepath.Join(dir, "node_modules", name, "package.json"))
		if err != nil {
			return "component " + name + " is not installed"
		}
		if err := json.Unmarshal(b, &got); err != nil || got.Version != pkg.Dependencies[name] {
			return fmt.Sprintf("component %s is at version %q, package.json pins %q", name, got.Version, pkg.Dependencies[name])
		}
	}
	return ""
}

// printTokens writes the tokens each test read.
func (s *Suite) printTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.tokens) == 0 {
		return
	}
	names := make([]string, 0, len(s.tokens))
	total := 0
	for n, v := range s.tokens {
		names = append(names, n)
		total += v
	}
	sort.Strings(names)
	fmt.Fprintf(os.Stderr, "%s: tokens the agent read (grip's measure, ceil(chars/3) per line):\n", s.Name)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-40s %6d\n", n, s.tokens[n])
	}
	fmt.Fprintf(os.Stderr, "  %-40s %6d\n", "total", total)
}

// Agent runs grip commands the way an agent does, reading the plain text
// they print, and counts the tokens it read on the way.
type Agent struct {
	T      *testing.T
	Tab    string // the agent's tab id, as grip's --tab takes it
	URL    string // the page it opened
	suite  *Suite
	tokens int
}

// Open starts an agent on a new tab showing path, served from the first
// origin.
func (s *Suite) Open(t *testing.T, path string) *Agent {
	t.Helper()
	s.Need(t)
	url := s.Env.Origin1 + path
	a := &Agent{T: t, URL: url, suite: s}
	a.Tab = strconv.Itoa(s.Env.OpenTab(t, url))
	t.Cleanup(func() {
		s.mu.Lock()
		if s.tokens == nil {
			s.tokens = map[string]int{}
		}
		s.tokens[t.Name()] += a.tokens
		s.mu.Unlock()
		t.Logf("the agent read %d tokens", a.tokens)
	})
	return a
}

// Tokens is what the agent has read so far.
func (a *Agent) Tokens() int { return a.tokens }

// Run runs grip with args and returns what it printed (stdout, then
// stderr) and its exit code; everything printed counts as read.
func (a *Agent) Run(args ...string) (string, int) {
	a.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r := a.suite.Env.Grip(ctx, args...)
	out := r.Stdout + r.Stderr
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		a.tokens += frames.Cost(line)
	}
	return out, r.Code
}

// Must runs grip and fails the test unless it exits 0.
func (a *Agent) Must(args ...string) string {
	a.T.Helper()
	out, code := a.Run(args...)
	if code != 0 {
		a.T.Fatalf("grip %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// Snapshot is `grip snapshot` of the agent's tab.
func (a *Agent) Snapshot(extra ...string) string {
	a.T.Helper()
	return a.Must(append([]string{"snapshot", "--tab", a.Tab}, extra...)...)
}

// line is one element line of a snapshot: @e3: [role 'name' rest].
var line = regexp.MustCompile(`(?m)^(@e[0-9]+): \[([a-z]+)(?: '((?:[^'\\]|\\.)*)')?([^\]\n]*)\]$`)

// El is one element as the agent reads it off a line.
type El struct {
	Ref, Role, Name, Rest string
}

// Elements are the element lines of text, in order.
func Elements(text string) []El {
	var out []El
	for _, m := range line.FindAllStringSubmatch(text, -1) {
		name := strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(m[3])
		out = append(out, El{Ref: m[1], Role: m[2], Name: name, Rest: strings.TrimSpace(m[4])})
	}
	return out
}

// Find returns the first element of text with role and a name that
// contains name ("" matches any), or fails the test.
func (a *Agent) Find(text, role, name string) El {
	a.T.Helper()
	if e, ok := Lookup(text, role, name); ok {
		return e
	}
	a.T.Fatalf("no [%s %q] in\n%s", role, name, text)
	return El{}
}

// Lookup returns the first element of text with role and a name that
// contains name, if there is one.
func Lookup(text, role, name string) (El, bool) {
	for _, e := range Elements(text) {
		if e.Role == role && strings.Contains(e.Name, name) {
			return e, true
		}
	}
	return El{}, false
}

// Until takes snapshots until one has [role 'name'], and returns it.
func (a *Agent) Until(role, name string) string {
	a.T.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		text := a.Snapshot()
		if _, ok := Lookup(text, role, name); ok {
			return text
		}
		if time.Now().After(deadline) {
			a.T.Fatalf("no [%s %q] after 10s:\n%s", role, name, text)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// MCP starts `grip mcp` on the suite's browser and connects the SDK's
// client to it under the name client; stderr gathers what the server
// wrote there, for a failure's message. The session closes when t ends.
func (s *Suite) MCP(ctx context.Context, t *testing.T, client string) (cs *sdk.ClientSession, stderr *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(s.Env.Bin, "mcp")
	cmd.Env = append(os.Environ(), "GRIP_STATE_DIR="+s.Env.StateDir)
	stderr = &bytes.Buffer{}
	cmd.Stderr = stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: client, Version: "v0"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize grip mcp: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return cs, stderr
}

// Eval reads expr in the page's main world over CDP: the app's own API,
// seen by an observer that is not grip.
func Eval[T any](a *Agent, expr string) T {
	a.T.Helper()
	return browsertest.Eval[T](a.T, a.suite.Env, a.URL, expr)
}
