// Package extension embeds grip's MV3 extension, so the one binary can
// write it out for "Load unpacked" and load it into test browsers.
// (go:embed cannot reach a parent folder, hence this tiny package here.)
package extension

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
)

// files holds the extension's files, rooted at the extension folder.
// The .d.ts files (types for tsc) stay out: nothing loads them.
//
//go:embed manifest.json worker/*.js popup/*.html popup/*.js popup/*.css keeper/*.html keeper/*.js kernel/*.js page/*.js
var files embed.FS

// Files returns the extension's files, rooted at the extension folder
// (manifest.json at the top), without Go sources, as grip installs them:
// manifest.json carries this build's name (Build) as its version_name.
func Files() fs.FS { return stampedFiles() }

// Build names this build of the extension: a hash of its files. grip
// writes it into the manifest it installs, the extension says it in its
// hello, and the host compares it with its own, so an extension and a host
// from different builds say so (see docs/versions.md, "Versions").
func Build() string { return build() }

var build = sync.OnceValue(func() string {
	h := sha256.New()
	err := fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		panic("extension: cannot read the embedded files: " + err.Error())
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
})

// stampedFiles is files with manifest.json's version_name set to Build().
var stampedFiles = sync.OnceValue(func() fs.FS {
	var m map[string]any
	if err := json.Unmarshal(ManifestJSON, &m); err != nil {
		panic("extension: manifest.json: " + err.Error())
	}
	m["version_name"] = fmt.Sprintf("%v build %s", m["version"], Build())
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic("extension: manifest.json: " + err.Error())
	}
	return overlay{FS: files, files: map[string][]byte{"manifest.json": append(b, '\n')}}
})

// overlay is an FS with some files' contents replaced or added, by path.
// An added file is listed in its folder (ReadDir), so fs.WalkDir writes
// it out too.
type overlay struct {
	fs.FS
	files map[string][]byte
}

func (o overlay) Open(name string) (fs.File, error) {
	data, ok := o.files[name]
	if !ok {
		return o.FS.Open(name)
	}
	var info fs.FileInfo = addedInfo{name: path.Base(name), size: int64(len(data))}
	if f, err := o.FS.Open(name); err == nil {
		st, err := f.Stat()
		f.Close()
		if err != nil {
			return nil, err
		}
		info = sizedInfo{st, int64(len(data))}
	}
	return &memFile{Reader: bytes.NewReader(data), info: info}, nil
}

// ReadFile answers fs.ReadFile without the embed's own shortcut, which
// would return the unstamped content.
func (o overlay) ReadFile(name string) ([]byte, error) {
	if data, ok := o.files[name]; ok {
		return bytes.Clone(data), nil
	}
	return fs.ReadFile(o.FS, name)
}

// ReadDir lists the folder's files with those the overlay adds.
func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(o.FS, name)
	if err != nil {
		return nil, err
	}
	for p := range o.files {
		if path.Dir(p) != name {
			continue
		}
		if _, err := fs.Stat(o.FS, p); err == nil {
			continue // replaced, already listed
		}
		info, err := fs.Stat(o, p)
		if err != nil {
			return nil, err
		}
		ents = append(ents, fs.FileInfoToDirEntry(info))
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}

type memFile struct {
	*bytes.Reader
	info fs.FileInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

type sizedInfo struct {
	fs.FileInfo
	size int64
}

func (i sizedInfo) Size() int64 { return i.size }

// addedInfo describes a file the overlay adds.
type addedInfo struct {
	name string
	size int64
}

func (i addedInfo) Name() string       { return i.name }
func (i addedInfo) Size() int64        { return i.size }
func (i addedInfo) Mode() fs.FileMode  { return 0o644 }
func (i addedInfo) ModTime() time.Time { return time.Time{} }
func (i addedInfo) IsDir() bool        { return false }
func (i addedInfo) Sys() any           { return nil }

// ManifestJSON is extension/manifest.json; the extension ID is derived
// from its public key.
//
//go:embed manifest.json
var ManifestJSON []byte

// kernelFiles are the in-page kernel's files in injection order, read
// from the worker's own list (kernel-files.js), the one list of them.
var kernelFiles = sync.OnceValue(func() []string {
	list, err := parseKernelFiles(files)
	if err != nil {
		panic("extension: " + err.Error())
	}
	return list
})

// parseKernelFiles reads KERNEL_FILES out of kernel-files.js: a list of
// single-quoted strings, which is JSON once the quotes are swapped and the
// trailing comma dropped.
func parseKernelFiles(fsys fs.FS) ([]string, error) {
	src, err := fs.ReadFile(fsys, "worker/kernel-files.js")
	if err != nil {
		return nil, err
	}
	list, ok := kernelFilesList(src)
	if !ok {
		return nil, fmt.Errorf("kernel-files.js has no `export const KERNEL_FILES = [...];`")
	}
	body := strings.TrimSuffix(strings.TrimSpace(strings.ReplaceAll(string(list), "'", `"`)), ",")
	var paths []string
	if err := json.Unmarshal([]byte("["+body+"]"), &paths); err != nil {
		return nil, fmt.Errorf("kernel-files.js: KERNEL_FILES is not a plain list of strings: %v", err)
	}
	return paths, nil
}

// kernelFilesList returns what stands in src between the first
// "export const KERNEL_FILES = [" and the first "];" after it, and false
// where there is no such text. It is the regexp
// `(?s)export const KERNEL_FILES = \[(.*?)\];` read by hand (kernelfiles_test.go
// holds them equal): every grip start links this package, and linking
// package regexp alone costs every start (docs/cli-cost.md, "The
// CLI's fixed cost").
func kernelFilesList(src []byte) ([]byte, bool) {
	_, after, ok := bytes.Cut(src, []byte("export const KERNEL_FILES = ["))
	if !ok {
		return nil, false
	}
	list, _, ok := bytes.Cut(after, []byte("];"))
	if !ok {
		return nil, false
	}
	return list, true
}

// KernelFiles returns the paths (in Files) of the in-page kernel's files,
// in the order the service worker injects them into a document: each
// adds its part to globalThis.__gripKernel__, using the parts before it.
func KernelFiles() []string { return slices.Clone(kernelFiles()) }

// KernelSource returns the kernel's files concatenated in injection order,
// each on its own lines: evaluated as one script, it installs the kernel
// in the current realm, as the injection does in an isolated world.
func KernelSource() string {
	var b strings.Builder
	for _, f := range kernelFiles() {
		src, err := fs.ReadFile(files, f)
		if err != nil {
			panic("extension: kernel file missing from the embed: " + f)
		}
		b.Write(src)
		b.WriteString("\n;\n")
	}
	return b.String()
}
