// Package deptest holds each binary's dependency list to a file checked in
// beside its main package (tailscale's depaware.txt): `go list -deps` of
// the package in the test's folder, one import path a line, per GOOS. A
// change to what a binary links shows in review as a change to its list;
// `go test ./cmd/grip -update` writes the lists anew.
// (docs/cli-cost.md, "The CLI's fixed cost".)
package deptest

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write the binary's dependency lists (deps_GOOS.txt) anew")

// GOOS are the systems a list is kept for: the release's.
var GOOS = []string{"linux", "darwin", "windows"}

// Deps is `go list -deps .` for goos, with cgo on (Go's default on a
// machine with a C compiler, so a plain go build or go install), the
// standard library and the module's packages alike.
func Deps(goos string) ([]string, error) {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=1", "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps (GOOS=%s): %v", goos, err)
	}
	return strings.Fields(string(out)), nil
}

// Check compares the package's dependencies with its lists, and refuses
// any that forbidden(goos) names (a package that may never come back,
// whatever -update writes); forbidden may be nil.
func Check(t *testing.T, forbidden func(goos string) []string) {
	t.Helper()
	for _, goos := range GOOS {
		deps, err := Deps(goos)
		if err != nil {
			t.Fatal(err)
		}
		var never []string
		if forbidden != nil {
			never = forbidden(goos)
		}
		for _, pkg := range never {
			if slices.Contains(deps, pkg) {
				t.Errorf("GOOS=%s: links %s, which it must not (go list -deps . | see who imports it: go list -f '{{.ImportPath}} {{.Imports}}' -deps .)", goos, pkg)
			}
		}
		file := "deps_" + goos + ".txt"
		want := strings.Join(deps, "\n") + "\n"
		if *update {
			if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (write it with: go test -run %s -update)", err, t.Name())
		}
		if string(got) != want {
			t.Errorf("GOOS=%s: the dependencies differ from %s:\n%s\nIf that is meant, write the list anew: go test -run %s -update", goos, file, diff(strings.Fields(string(got)), deps), t.Name())
		}
	}
}

// diff lists the paths added (+) and gone (-).
func diff(old, now []string) string {
	var b strings.Builder
	for _, p := range now {
		if !slices.Contains(old, p) {
			b.WriteString("+ " + p + "\n")
		}
	}
	for _, p := range old {
		if !slices.Contains(now, p) {
			b.WriteString("- " + p + "\n")
		}
	}
	if b.Len() == 0 {
		return "(the same packages, in another order)"
	}
	return b.String()
}
