package version

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBuiltInACheckout builds a program that prints String, with this
// package's own source, in a git checkout the test makes, and runs it: the
// version Go records for the build (not a BuildInfo written by hand) names
// the commit, says when the tree was dirty, and gives way to a tag and to
// the release stamp.
func TestBuiltInACheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git on PATH")
	}
	src, err := os.ReadFile("version.go")
	if err != nil {
		t.Fatal(err)
	}
	repo, bin := t.TempDir(), t.TempDir() // the binaries outside the tree, or they would make it dirty
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module github.com/grip-dev/grip\n\ngo 1.22\n")
	write("internal/version/version.go", string(src))
	write("cmd/v/main.go", "package main\n\nimport \"github.com/grip-dev/grip/internal/version\"\n\nfunc main() { print(version.String()) }\n")

	env := append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		// The machine's go env may turn VCS stamping off; the test is about
		// what an ordinary build in a checkout records.
		"GOFLAGS=-buildvcs=auto", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0")
	run := func(name string, arg ...string) string {
		t.Helper()
		cmd := exec.Command(name, arg...)
		cmd.Dir, cmd.Env = repo, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(arg, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	version := func(buildArgs ...string) string {
		t.Helper()
		exe := filepath.Join(bin, "v")
		run("go", append(append([]string{"build", "-o", exe}, buildArgs...), "./cmd/v")...)
		return run(exe)
	}
	run(git, "init", "-q")
	run(git, "add", ".")
	run(git, "commit", "-qm", "first")
	rev := run(git, "rev-parse", "HEAD")[:12]

	pseudo := regexp.MustCompile(`^v0\.0\.0-\d{14}-` + rev + `$`)
	if got := version(); !pseudo.MatchString(got) {
		t.Errorf("clean checkout: %q, want v0.0.0-<time>-%s", got, rev)
	}
	if got := version("-ldflags", "-X github.com/grip-dev/grip/internal/version.stamp=v1.2.3"); got != "v1.2.3" {
		t.Errorf("release stamp: %q, want v1.2.3", got)
	}
	if got := version("-buildvcs=false"); got != "devel" {
		t.Errorf("-buildvcs=false: %q, want devel (nothing recorded)", got)
	}
	run(git, "tag", "v1.2.3")
	if got, want := version(), "v1.2.3 "+rev; got != want {
		t.Errorf("tagged checkout: %q, want %q", got, want)
	}
	write("cmd/v/main.go", "package main\n\nimport \"github.com/grip-dev/grip/internal/version\"\n\n// changed\nfunc main() { print(version.String()) }\n")
	if got, want := version(), "v1.2.3 "+rev+"+dirty"; got != want {
		t.Errorf("dirty checkout at a tag: %q, want %q", got, want)
	}
	run(git, "commit", "-qam", "second")
	rev = run(git, "rev-parse", "HEAD")[:12]
	write("go.mod", "module github.com/grip-dev/grip\n\ngo 1.22\n\n// changed\n")
	dirty := regexp.MustCompile(`^v1\.2\.4-0\.\d{14}-` + rev + `\+dirty$`)
	if got := version(); !dirty.MatchString(got) {
		t.Errorf("dirty checkout after a tag: %q, want v1.2.4-0.<time>-%s+dirty", got, rev)
	}
}
