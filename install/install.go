// Package install puts grip where browsers find it: the native messaging
// host manifest (dev.grip.host.json) in each browser's folder — or, on
// Windows, a registry key naming the file — and the extension's files in
// grip's data folder for "Load unpacked". It records what it wrote in a
// receipt so Uninstall removes exactly that.
//
// Where each browser looks is a pure function of (GOOS, home, environment,
// browser, level): see Locate. Only the registry calls are Windows-only
// (registry_windows.go, with stubs elsewhere).
//
// # System-wide, without Developer mode (Linux)
//
// InstallSystem (`sudo grip install --system`) packs the extension into a
// CRX and lists it in each browser's external-extensions folder, which
// Chromium-family browsers on Linux read at start and install from, with
// no Developer mode and no --load-extension. On macOS and Windows Chrome
// installs external extensions only from the Chrome Web Store (or by
// enterprise policy), so there the unpacked extension stays the way.
//
// The signing key is made on the machine, by the first `grip install
// --system`, and kept in SystemDir readable by root alone; grip's
// repository holds no private key. Chrome names a packed extension after
// the key that signed it, so the packed extension's ID is this machine's,
// not the unpacked extension's fixed one (extension/manifest.json's public
// "key", whose private half nobody publishes). The choice, and what it
// costs:
//
//   - A private key in the repository would give one ID everywhere, but
//     anyone could sign a CRX with grip's ID — an extension that the host
//     trusts, installable on any machine where someone can write an
//     external-extension file, and an "update" Chrome would accept. A
//     signing secret cannot be public.
//   - A key per machine means no secret leaves the machine and only its
//     root can sign for its ID. The cost is a second ID: host manifests
//     allow both (the system-wide one, and a user's own, which Chrome reads
//     first — Install adds the machine's ID from the system receipt), and
//     the host allows the ID a root-owned system receipt names
//     (SystemExtensionID). The key is kept, so reinstalling and upgrading
//     keep the ID; `grip uninstall --system` removes it, and a later
//     install makes a new one (a new ID: profiles forget the old
//     extension's storage).
//
// The external-extension file goes beside each browser's binary
// (SystemExtensionsDir), and the CRX's version gets a build number that
// rises with its content, so that browsers install an upgraded grip.
package install

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/grip-dev/grip/internal/atomicfile"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/statedir"
)

// Options say what to install where. Zero fields take the running machine's
// values.
type Options struct {
	// Browsers to install for: names from Browsers, "all" for every one of
	// them (installed or not), comma lists allowed. Empty means the browsers Detect finds (or
	// none when UserDataDir is set).
	Browsers []string
	// UserDataDir is a custom --user-data-dir. On Linux and macOS only its
	// NativeMessagingHosts folder gets a manifest, the one file that
	// profile's browser reads first: the default profile's manifest, which
	// may start another grip, is left alone. On Windows, where every
	// profile of a browser reads the browser's one registry key, it names
	// Browsers' keys (which must then be given).
	UserDataDir string
	// HostPath is the absolute path of the grip binary the manifests name.
	HostPath string
	// ExtensionFS holds the extension's files, rooted at the extension folder
	// (manifest.json at its top). What is written is this build as it goes
	// over the folder's last (extension.ForFolder).
	ExtensionFS fs.FS
	// ExtensionID is the extension's ID; empty means derived from the key
	// in ExtensionFS's manifest.json.
	ExtensionID string
	// ExtraExtensionIDs are more IDs the host manifests allow (`grip
	// install --extension-id ID`: the Chrome Web Store's build of grip,
	// whose ID is the store's). They are recorded in the receipt, from
	// which the host learns it may serve them (AllowedExtensionIDs).
	ExtraExtensionIDs []string
	// Force replaces a host manifest that starts another grip binary
	// (ErrOtherInstall otherwise).
	Force bool
	// DataDir is grip's data folder (statedir Data); the extension is
	// written to DataDir/extension.
	DataDir string
	// StateRoot holds the receipt (install.json); empty means the parent of
	// DataDir, which statedir.At makes the root.
	StateRoot string
	// Home is the user's home folder.
	Home string
	// GOOS picks the path table ("linux", "darwin", "windows").
	GOOS string
	// SystemRoot is where to look for a system-wide install (see
	// InstallSystem) whose extension ID the manifests must also allow;
	// "" is the machine's root. Tests point it elsewhere.
	SystemRoot string
	// Getenv reads XDG_CONFIG_HOME, CHROME_CONFIG_HOME, PATH, LOCALAPPDATA
	// and ProgramData; nil means os.Getenv. Tests pass a map lookup.
	Getenv func(string) string
}

// Result is what Install did; its JSON is `grip install --json`.
type Result struct {
	ExtensionID  string   `json:"extension_id"`
	ExtensionDir string   `json:"extension_dir"`
	HostPath     string   `json:"host_path"`
	Manifests    []string `json:"manifests"`
	// SystemExtensionID is the ID of the extension `grip install --system`
	// installed on this machine, which the manifests allow as well.
	SystemExtensionID string `json:"system_extension_id,omitempty"`
	// ExtraExtensionIDs are the IDs --extension-id added.
	ExtraExtensionIDs []string `json:"extra_extension_ids,omitempty"`
	// Notes are things a person should know, e.g. a manifest that pointed
	// at another binary and was replaced.
	Notes []string `json:"notes,omitempty"`
}

// ExtensionDirName is the extension's folder under DataDir.
const ExtensionDirName = "extension"

// fill sets defaults for unset fields.
func (o *Options) fill() error {
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return fmt.Errorf("%w: no home folder: %v", ErrBadOptions, err)
		}
		o.Home = h
	}
	if o.DataDir == "" {
		d, err := statedir.Get()
		if err != nil {
			return err
		}
		o.DataDir = d.Data
		if o.StateRoot == "" {
			o.StateRoot = d.Root
		}
	}
	if o.StateRoot == "" {
		o.StateRoot = filepath.Dir(o.DataDir)
	}
	if o.UserDataDir != "" && o.GOOS == runtime.GOOS {
		abs, err := filepath.Abs(o.UserDataDir)
		if err != nil {
			return fmt.Errorf("%w: --user-data-dir: %v", ErrBadOptions, err)
		}
		o.UserDataDir = abs
	}
	return nil
}

// CheckHostPath returns an error when p cannot be named in a host manifest
// because Chrome could not start it later: p is relative, or p is a
// `go run` build, either in a go-build temporary folder, which Go deletes
// on exit, or in the Go build cache, which `go clean -cache` and the
// cache's own trimming delete.
func CheckHostPath(p string) error {
	if !filepath.IsAbs(p) {
		return fmt.Errorf("%w: %q; run grip install from the installed binary, e.g. `go install ./cmd/grip ./cmd/grip-host && grip install`", ErrHostPathRelative, p)
	}
	if isGoBuildTemp(p) {
		return fmt.Errorf("%w: Go deletes %s (when it exits, or when it trims its build cache), so the browser could not start it later; build grip first (`go install ./cmd/grip ./cmd/grip-host`, or `go build -o ~/bin/ ./cmd/grip ./cmd/grip-host`) and run `grip install` from that binary", ErrHostPathTemporary, p)
	}
	return nil
}

// isGoBuildTemp reports whether p is a binary of `go run` or `go test`:
// one in a go-build<digits> folder (under os.TempDir or $GOTMPDIR), or,
// since Go 1.24 caches `go run` binaries, one in the build cache
// ($GOCACHE/7b/7b49…<64 hex digits>-d/grip). A temporary folder of any
// other name is not one: binaries built there last as long as the folder.
func isGoBuildTemp(p string) bool {
	els := strings.Split(filepath.ToSlash(p), "/")
	for _, el := range els {
		rest, ok := strings.CutPrefix(el, "go-build")
		if ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	if n := len(els); n >= 3 {
		dir, shard := els[n-2], els[n-3]
		hash, ok := strings.CutSuffix(dir, "-d")
		if ok && len(hash) == 64 && strings.Trim(hash, "0123456789abcdef") == "" && shard == hash[:2] {
			return true
		}
	}
	return false
}

// extensionID returns the ID to allow: o.ExtensionID, checked against the
// key in the extension's own manifest when it has one.
func (o *Options) extensionID() (string, error) {
	var fromKey string
	if o.ExtensionFS != nil {
		if b, err := fs.ReadFile(o.ExtensionFS, "manifest.json"); err == nil {
			if id, err := manifest.ExtensionID(b); err == nil {
				fromKey = id
			} else if !errors.Is(err, manifest.ErrNoKey) {
				return "", err
			}
		}
	}
	switch {
	case o.ExtensionID == "" && fromKey == "":
		return "", fmt.Errorf("%w: no extension ID given and the extension's manifest.json has no key", ErrBadOptions)
	case o.ExtensionID == "":
		return fromKey, nil
	case !manifest.ValidExtensionID(o.ExtensionID):
		return "", fmt.Errorf("%w: extension ID %q is not 32 letters a-p", ErrBadOptions, o.ExtensionID)
	case fromKey != "" && fromKey != o.ExtensionID:
		return "", fmt.Errorf("%w: extension ID %s does not match the key in the extension's manifest.json (%s)", ErrBadOptions, o.ExtensionID, fromKey)
	}
	return o.ExtensionID, nil
}

// targets returns the manifest locations to write, and notes. A custom
// --user-data-dir on Linux and macOS is the one location: its browser
// reads it before the default profile's, and writing the default
// profile's too would change what another profile (and maybe another
// grip) starts.
func (o *Options) targets() ([]Location, []string, error) {
	browsers, err := expandBrowsers(o.Browsers)
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	if o.UserDataDir != "" {
		if o.GOOS != "windows" {
			loc, err := LocateUserDataDir(o.GOOS, o.UserDataDir)
			if err != nil {
				return nil, nil, err
			}
			return []Location{loc}, nil, nil
		}
		if len(browsers) == 0 {
			return nil, nil, fmt.Errorf("%w: on Windows every profile of a browser reads the browser's one registry key; name the browser the profile --user-data-dir %s belongs to with --browser %s",
				ErrBadOptions, o.UserDataDir, strings.Join(Browsers, "|"))
		}
		notes = append(notes, "on Windows every profile of "+strings.Join(browsers, ", ")+" reads the browser's one registry key, so this install serves all of them, not only --user-data-dir "+o.UserDataDir)
	}
	if len(browsers) == 0 {
		found, looked := Detect(o.GOOS, o.Home, o.Getenv)
		if len(found) == 0 {
			return nil, nil, fmt.Errorf("%w; looked in:\n  %s\nname one with --browser %s, or give the profile folder with --user-data-dir DIR",
				ErrNoBrowser, strings.Join(looked, "\n  "), strings.Join(Browsers, "|"))
		}
		for _, f := range found {
			browsers = append(browsers, f.Browser)
		}
	}
	var locs []Location
	for _, b := range browsers {
		loc, err := Locate(o.GOOS, o.Home, o.Getenv, b, User)
		if err != nil {
			return nil, nil, err
		}
		locs = append(locs, loc)
	}
	return locs, notes, nil
}

// Install writes the extension and a host manifest for each target browser,
// and records both in the receipt. Running it again gives the same files.
func Install(opt Options) (Result, error) {
	if err := opt.fill(); err != nil {
		return Result{}, err
	}
	if err := CheckHostPath(opt.HostPath); err != nil {
		return Result{}, err
	}
	if fi, err := os.Stat(opt.HostPath); err != nil || !fi.Mode().IsRegular() {
		return Result{}, fmt.Errorf("%w: %s is not a file", ErrHostPathMissing, opt.HostPath)
	}
	if opt.ExtensionFS == nil {
		return Result{}, fmt.Errorf("%w: no extension files", ErrBadOptions)
	}
	id, err := opt.extensionID()
	if err != nil {
		return Result{}, err
	}
	// A user's manifest is read before the system-wide one, so it must
	// also let the system-wide extension start the host.
	ids := []string{id}
	for _, extra := range opt.ExtraExtensionIDs {
		if !manifest.ValidExtensionID(extra) {
			return Result{}, fmt.Errorf("%w: --extension-id %q is not 32 letters a-p (chrome://extensions shows the ID on the extension's card)", ErrBadOptions, extra)
		}
		if !slices.Contains(ids, extra) {
			ids = append(ids, extra)
		}
	}
	var sysID string
	if opt.GOOS == "linux" {
		if sysID = SystemExtensionID(opt.SystemRoot); sysID == id {
			sysID = ""
		} else if sysID != "" && !slices.Contains(ids, sysID) {
			ids = append(ids, sysID)
		}
	}
	host, err := manifest.NewHost(opt.HostPath, ids...)
	if err != nil {
		return Result{}, err
	}
	data, err := host.Marshal()
	if err != nil {
		return Result{}, err
	}
	locs, notes, err := opt.targets()
	if err != nil {
		return Result{}, err
	}
	rec, _, err := ReadReceipt(opt.StateRoot)
	if err != nil {
		return Result{}, fmt.Errorf("%w (move it aside to start afresh)", err)
	}
	// Another install's manifest refuses the whole install before
	// anything is written.
	replaced := make([]string, len(locs))
	for i, loc := range locs {
		if replaced[i], err = otherInstall(loc, opt.HostPath, opt.Force); err != nil {
			return Result{}, err
		}
	}

	res := Result{
		ExtensionID:  id,
		ExtensionDir: filepath.Join(opt.DataDir, ExtensionDirName),
		HostPath:     opt.HostPath,
		Manifests:    []string{},
		Notes:        notes,

		SystemExtensionID: sysID,
	}
	// Whatever happens below, record what was written so far.
	save := func(err error) error {
		return errors.Join(err, writeReceipt(opt.StateRoot, rec))
	}

	// grip's own folders stay private; the browser runs as the same user.
	if err := os.MkdirAll(opt.DataDir, 0o700); err != nil {
		return res, fmt.Errorf("install: create %s: %w", opt.DataDir, err)
	}
	// The folder a person loaded unpacked is kept across upgrades, and
	// Chrome starts it with the worker it registered before: a new build
	// gets a version and a worker file of its own (extension.ForFolder),
	// as a kept launch profile's does (launcher.ReplaceExtension).
	prev, _ := os.ReadFile(filepath.Join(res.ExtensionDir, "manifest.json"))
	ext, err := extension.ForFolder(opt.ExtensionFS, prev)
	if err != nil {
		return res, fmt.Errorf("install: %w", err)
	}
	files, err := writeTree(ext, res.ExtensionDir)
	rec.ExtensionID, rec.ExtensionDir = id, res.ExtensionDir
	rec.ExtraExtensionIDs = ids[1:]
	if sysID != "" {
		rec.ExtraExtensionIDs = slices.DeleteFunc(slices.Clone(rec.ExtraExtensionIDs), func(s string) bool { return s == sysID })
	}
	res.ExtraExtensionIDs = rec.ExtraExtensionIDs
	rec.ExtensionFiles = files
	if err != nil {
		return res, save(fmt.Errorf("install: write extension to %s: %w", res.ExtensionDir, err))
	}

	for i, loc := range locs {
		if replaced[i] != "" {
			res.Notes = append(res.Notes, replaced[i])
		}
		if err := writeManifest(opt.GOOS, loc, data, &rec, opt.HostPath); err != nil {
			return res, save(err)
		}
		res.Manifests = append(res.Manifests, loc.File)
	}
	return res, save(nil)
}

// otherInstall checks what loc holds now. A manifest there that starts
// another grip binary which still exists is another install's: it may be
// replaced only with force, and the note says whose it was. On Windows the
// registry key may name another file; that file is asked the same
// question.
func otherInstall(loc Location, hostPath string, force bool) (note string, err error) {
	prev := []string{loc.File}
	if loc.RegistryKey != "" {
		if v, ok, err := registryDefault(loc.RegistryRoot, loc.RegistryKey); err == nil && ok && v != loc.File {
			prev = append(prev, v)
		}
	}
	for _, p := range prev {
		other, ok := otherGrip(p, hostPath)
		if !ok {
			continue
		}
		where := p
		if p != loc.File {
			where = loc.Registry() + " (" + p + ")"
		}
		if _, serr := os.Stat(other); serr != nil {
			note = fmt.Sprintf("replaced %s, which started %s (no longer there)", where, other)
			continue
		}
		if beside(other, hostPath) {
			note = fmt.Sprintf("%s started %s; it now starts %s beside it, which runs the host since grip was split in two", where, other, filepath.Base(hostPath))
			continue
		}
		if !force {
			return "", fmt.Errorf("%w: %s starts %s, not this grip (%s); run that grip's `grip uninstall` first, or pass --force to replace it",
				ErrOtherInstall, where, other, hostPath)
		}
		note = fmt.Sprintf("replaced %s, which started %s (--force)", where, other)
	}
	return note, nil
}

// beside says whether other is the grip binary in hostPath's folder: a
// manifest written before grip handed its host to grip-host named grip
// itself, and that install is this one.
func beside(other, hostPath string) bool {
	base := strings.TrimSuffix(filepath.Base(other), ".exe")
	return base == "grip" && filepath.Dir(other) == filepath.Dir(hostPath) && filepath.Base(hostPath) != filepath.Base(other)
}

// writeManifest writes one manifest (and its registry key) and records it.
func writeManifest(goos string, loc Location, data []byte, rec *Receipt, hostPath string) error {
	dir := filepath.Dir(loc.File)
	created := missingDirs(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("install: create %s: %w", dir, err)
	}
	rec.addDirs(created)
	old, err := os.ReadFile(loc.File)
	same := err == nil && bytes.Equal(old, data)
	if fi, err := os.Stat(loc.File); !same || err != nil || (goos != "windows" && fi.Mode().Perm() != 0o644) {
		if err := atomicfile.WriteFile(loc.File, data, 0o644); err != nil {
			return fmt.Errorf("install: write %s: %w", loc.File, err)
		}
	}
	// Record before the registry write, so a failure there still leaves
	// the file on the receipt.
	rec.addManifest(ManifestRecord{Location: loc, HostPath: hostPath})
	if loc.RegistryKey != "" {
		if err := setRegistryDefault(loc.RegistryRoot, loc.RegistryKey, loc.File); err != nil {
			return err
		}
	}
	return nil
}

// otherGrip reports the binary a grip host manifest at file starts when
// that is not hostPath.
func otherGrip(file, hostPath string) (string, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", false
	}
	h, err := manifest.Parse(b)
	if err != nil || h.Name != manifest.HostName || h.Path == hostPath {
		return "", false
	}
	return h.Path, true
}

// missingDirs returns dir and those of its parents that do not exist,
// outermost first.
func missingDirs(dir string) []string {
	var out []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		out = append(out, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	slices.Reverse(out)
	return out
}

// writeTree copies fsys into dir (files 0644, folders 0755), each file
// atomically, skipping files already identical, and removes whatever in
// dir is not in fsys. It returns the slash paths of the files in fsys.
func writeTree(fsys fs.FS, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	keep := map[string]bool{".": true}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		keep[p] = true
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files = append(files, p)
		if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, b) {
			if fi, err := os.Lstat(dst); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm() == 0o644 {
				return nil
			}
		}
		// A folder where a file now goes would make the rename fail.
		if fi, err := os.Lstat(dst); err == nil && fi.IsDir() {
			if err := os.RemoveAll(dst); err != nil {
				return err
			}
		}
		return atomicfile.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		return files, err
	}
	// Remove stale entries: files first, then folders deepest first.
	var staleDirs []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if keep[filepath.ToSlash(rel)] {
			return nil
		}
		if d.IsDir() {
			staleDirs = append(staleDirs, p)
			return nil
		}
		return os.Remove(p)
	})
	slices.Reverse(staleDirs)
	for _, d := range staleDirs {
		if rmErr := os.Remove(d); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
			err = errors.Join(err, rmErr)
		}
	}
	return files, err
}

// Text renders the result for a person: what was written, then how to load
// the extension.
func (r Result) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "grip host: %s\n", r.HostPath)
	fmt.Fprintf(&b, "extension ID: %s\n", r.ExtensionID)
	fmt.Fprintf(&b, "host manifests written:\n")
	for _, m := range r.Manifests {
		fmt.Fprintf(&b, "  %s\n", m)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	b.WriteString("\n")
	b.WriteString(LoadInstructions(r.ExtensionDir))
	return b.String()
}

// LoadInstructions tells a person how to load the unpacked extension in
// extDir.
func LoadInstructions(extDir string) string {
	return "Load the grip extension (once per browser profile):\n" +
		"  1. Open chrome://extensions (edge://extensions in Edge, brave://extensions in Brave).\n" +
		"  2. Turn on Developer mode.\n" +
		"  3. Click \"Load unpacked\" and choose this folder:\n" +
		"       " + extDir + "\n" +
		"Then run `grip doctor` to check the connection. After upgrading grip, run\n" +
		"`grip install` again and click the reload arrow on grip's extension card.\n"
}
