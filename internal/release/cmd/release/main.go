// Command release builds grip's release archives and SHA256SUMS
// reproducibly (see package internal/release). scripts/release runs it:
//
//	go run ./internal/release/cmd/release -version v0.2.0 [-out dist] [-targets linux/amd64,...]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/internal/release"
)

func main() {
	version := flag.String("version", "", "the version to stamp and name the archives by (required)")
	out := flag.String("out", "dist", "the folder for the archives and "+release.SumsFile)
	targets := flag.String("targets", "", "comma-separated GOOS/GOARCH list (default: all of "+fmt.Sprint(release.Targets)+")")
	flag.Parse()
	if *version == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	root, err := os.Getwd()
	if err != nil {
		fail(err)
	}
	opt := release.Options{Version: *version, ModuleRoot: root, OutDir: *out, Log: os.Stderr, Extension: extension.Files()}
	if *targets != "" {
		for _, t := range strings.Split(*targets, ",") {
			goos, goarch, ok := strings.Cut(strings.TrimSpace(t), "/")
			if !ok {
				fail(fmt.Errorf("target %q is not GOOS/GOARCH", t))
			}
			opt.Targets = append(opt.Targets, release.Target{GOOS: goos, GOARCH: goarch})
		}
	}
	archives, err := release.Build(context.Background(), opt)
	if err != nil {
		fail(err)
	}
	for _, a := range archives {
		fmt.Println(a)
	}
	fmt.Println(filepath.Join(*out, release.SumsFile))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "release:", err)
	os.Exit(1)
}
