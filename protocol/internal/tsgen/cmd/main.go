// Command cmd writes the files package tsgen generates, under the
// repository's root (the folder above the nearest go.mod's). Run it as
// `go generate ./protocol`.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/grip-dev/grip/protocol/internal/tsgen"
)

func main() {
	root, err := repoRoot()
	var files []tsgen.File
	if err == nil {
		files, err = tsgen.Files(root)
	}
	if err == nil {
		for _, f := range files {
			if err = os.WriteFile(filepath.Join(root, filepath.FromSlash(f.Path)), f.Data, 0o644); err != nil {
				break
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
}

// repoRoot is the folder holding go.mod, from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = up
	}
}
