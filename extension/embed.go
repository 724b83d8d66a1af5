// Package extension embeds grip's MV3 extension, so the one binary can
// write it out for "Load unpacked" and load it into test browsers.
// (go:embed cannot reach a parent folder, hence this tiny package here.)
package extension

import (
	"embed"
	"io/fs"
)

// Files holds the extension's files, rooted at the extension folder.
//
//go:embed manifest.json *.js *.html *.css
var files embed.FS

// Files returns the extension's files, rooted at the extension folder
// (manifest.json at the top), without Go sources.
func Files() fs.FS { return files }

// ManifestJSON is extension/manifest.json; the extension ID is derived
// from its public key.
//
//go:embed manifest.json
var ManifestJSON []byte

// KernelJS is the in-page kernel: one standalone function the service
// worker injects into every frame.
//
//go:embed kernel.js
var KernelJS string
