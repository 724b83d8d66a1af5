// Package extension embeds grip's MV3 extension, so the one binary can
// write it out for "Load unpacked" and load it into test browsers.
// (go:embed cannot reach a parent folder, hence this tiny package here.)
package extension

import (
	"embed"
	"io/fs"
	"strings"
)

// Files holds the extension's files, rooted at the extension folder.
// kernel/*.d.ts (types for tsc) stays out: nothing loads it.
//
//go:embed manifest.json *.js *.html *.css kernel/*.js
var files embed.FS

// Files returns the extension's files, rooted at the extension folder
// (manifest.json at the top), without Go sources.
func Files() fs.FS { return files }

// ManifestJSON is extension/manifest.json; the extension ID is derived
// from its public key.
//
//go:embed manifest.json
var ManifestJSON []byte

// kernelFiles are the in-page kernel's files in injection order; the
// worker's KERNEL_FILES (inject.js) must list the same (a test checks).
var kernelFiles = []string{
	"kernel/base.js",
	"kernel/cache.js",
	"kernel/tree.js",
	"kernel/visibility.js",
	"kernel/roles.js",
	"kernel/names.js",
	"kernel/editors.js",
	"kernel/states.js",
	"kernel/snapshot.js",
	"kernel/probe.js",
	"kernel/frames.js",
	"kernel/acts.js",
	"kernel/events.js",
	"kernel/pointer.js",
	"kernel/richtext.js",
	"kernel/editing.js",
	"kernel/choice.js",
	"kernel/scroll.js",
	"kernel/keys.js",
	"kernel/run.js",
}

// KernelFiles returns the paths (in Files) of the in-page kernel's files,
// in the order the service worker injects them into a document: each
// adds its part to globalThis.__gripKernel__, using the parts before it.
func KernelFiles() []string { return append([]string(nil), kernelFiles...) }

// KernelSource returns the kernel's files concatenated in injection order,
// each on its own lines: evaluated as one script, it installs the kernel
// in the current realm, as the injection does in an isolated world.
func KernelSource() string {
	var b strings.Builder
	for _, f := range kernelFiles {
		src, err := fs.ReadFile(files, f)
		if err != nil {
			panic("extension: kernel file missing from the embed: " + f)
		}
		b.Write(src)
		b.WriteString("\n;\n")
	}
	return b.String()
}
